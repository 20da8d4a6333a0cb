import pytest

from streaming.filters import (
    create_filter,
    create_stream_filter,
    sample_filter,
    words,
)
from streaming.home_filter import HomeFilter
from streaming.services import HomeState
from timeline.feeds.visibility import REPOST_FALLOFF


def status(status_id=1, login="alice", message="hello", uid=1, **extra):
    return {"id": status_id, "uid": uid, "login": login, "message": message, "posted": 1.0, **extra}


def follow_event(kind, source, target, source_id=1, target_id=2):
    return {
        "event": kind,
        "source": {"id": source_id, "login": source},
        "target": {"id": target_id, "login": target},
        "created": 1.0,
    }


def passed_ids(check, ids):
    return {i for i in ids if check(status(i))}


def test_sample_keeps_the_given_percent_of_id_residues():
    check = create_filter("key-1", "sample", None, {"percent": ["25"]})
    assert len(passed_ids(check, range(100))) == 25


def test_sample_is_the_same_for_the_same_identifier_and_differs_between_identifiers():
    first = passed_ids(sample_filter("key-1", 10), range(1000))
    assert first == passed_ids(sample_filter("key-1", 10), range(1000))
    assert first != passed_ids(sample_filter("key-2", 10), range(1000))


def test_sample_decides_by_id_modulo_100_for_integer_and_string_ids():
    check = sample_filter("key-1", 10)
    for status_id in range(100):
        expected = check(status(status_id))
        assert check(status(status_id + 300)) == expected
        assert check(status(str(status_id))) == expected


def test_sample_defaults_to_10_percent_and_100_passes_every_status():
    assert len(passed_ids(create_filter("k", "sample", None, {}), range(100))) == 10
    assert len(passed_ids(create_filter("k", "sample", None, None), range(100))) == 10
    everything = create_filter("k", "sample", None, {"percent": "100"})
    assert len(passed_ids(everything, range(100))) == 100


def test_sample_passes_a_deletion_exactly_when_it_passed_the_status():
    check = sample_filter("key-1", 50)
    for status_id in range(100):
        assert check(status(status_id, deleted=True)) == check(status(status_id))


def test_sample_ignores_follow_events_and_statuses_without_a_usable_id():
    check = create_filter("k", "sample", None, {"percent": 100})
    assert not check(follow_event("follow", "alice", "bob"))
    assert not check({"message": "no id"})
    assert not check(status("abc"))


@pytest.mark.parametrize(
    "percent", ["0", "101", "-5", "ten", "1.5", "5_0", "+5", "\u0665", "\uff15", "9" * 5000]
)
def test_sample_refuses_a_percent_outside_1_to_100(percent):
    with pytest.raises(ValueError, match="percent"):
        create_filter("k", "sample", None, {"percent": percent})


def test_words_ignore_case_and_surrounding_punctuation():
    assert words("Redis! #redis (REDIS) don't @Alice: ...") == {"redis", "don't", "alice"}


@pytest.mark.parametrize("message", ["I love Redis!", "#redis rocks", "REDIS.", "(redis)"])
def test_track_matches_a_word_whatever_its_case_and_punctuation(message):
    assert create_filter("k", "filter", "track", ["redis"])(status(message=message))


def test_track_needs_all_the_words_of_a_phrase_in_any_order():
    check = create_filter("k", "filter", "track", ["redis python"])
    assert check(status(message="Python talks to Redis"))
    assert not check(status(message="Redis alone"))
    assert not check(status(message="redispython"))


def test_track_phrases_are_alternatives():
    check = create_filter("k", "filter", "track", "redis, django channels")
    assert check(status(message="redis"))
    assert check(status(message="channels in django"))
    assert not check(status(message="django alone"))


def test_track_passes_the_deletion_of_a_matching_status_and_no_follow_events():
    check = create_filter("k", "filter", "track", ["redis"])
    assert check(status(message="redis", deleted=True))
    assert not check(follow_event("follow", "redis", "redis"))


@pytest.mark.parametrize(
    ("phrases", "problem"),
    [
        ([], "at least one phrase"),
        (["x"] * 401, "at most 400 phrases"),
        (["a" * 61], "longer than 60 bytes"),
        (["é" * 31], "longer than 60 bytes"),
        (["!!!"], "has no words"),
    ],
)
def test_track_refuses_what_twitter_refuses(phrases, problem):
    with pytest.raises(ValueError, match=problem):
        create_filter("k", "filter", "track", phrases)


def test_track_accepts_400_phrases_of_60_bytes():
    check = create_filter("k", "filter", "track", [f"{i:060d}" for i in range(400)])
    assert check(status(message=f"the last one: {399:060d}"))
    assert not check(status(message=f"{400:060d}"))


def test_follow_matches_statuses_by_a_listed_login_in_any_case():
    check = create_filter("k", "filter", "follow", ["Alice", "@carol"])
    assert check(status(login="alice"))
    assert check(status(login="CAROL"))
    assert not check(status(login="bob"))


def test_follow_matches_statuses_mentioning_a_listed_login():
    check = create_filter("k", "filter", "follow", ["alice"])
    assert check(status(login="bob", message="thanks @Alice!"))
    assert not check(status(login="bob", message="mail alice_uid@example.com"))
    assert not check(status(login="bob", message="@alicex is someone else"))


def test_follow_matches_follow_and_unfollow_events_involving_a_listed_login():
    check = create_filter("k", "filter", "follow", ["alice"])
    assert check(follow_event("follow", "alice", "bob"))
    assert check(follow_event("unfollow", "bob", "alice"))
    assert not check(follow_event("follow", "bob", "carol"))


def test_follow_passes_the_deletion_of_a_matching_status():
    check = create_filter("k", "filter", "follow", ["alice"])
    assert check(status(login="alice", deleted=True))


@pytest.mark.parametrize(
    ("logins", "problem"),
    [
        ([], "at least one login"),
        ([f"u{i}" for i in range(5001)], "at most 5000 logins"),
        (["not a login"], "is not a login"),
        (["x" * 31], "is not a login"),
    ],
)
def test_follow_refuses_bad_or_too_many_logins(logins, problem):
    with pytest.raises(ValueError, match=problem):
        create_filter("k", "filter", "follow", logins)


SF_BAY = ["-122.75", "36.8", "-121.75", "37.8"]
PARIS = [2.2, 48.8, 2.5, 48.95]


def test_location_matches_statuses_inside_any_box():
    check = create_filter("k", "filter", "location", SF_BAY + PARIS)
    assert check(status(location="37.77,-122.42"))
    assert check(status(location="48.85,2.35"))
    assert not check(status(location="40.71,-74.0"))


def test_location_reads_a_comma_separated_string_too():
    check = create_filter("k", "filter", "location", ",".join(SF_BAY))
    assert check(status(location="37.77,-122.42"))


def test_location_ignores_statuses_without_a_usable_location():
    check = create_filter("k", "filter", "location", SF_BAY)
    for location in [None, "", "somewhere", "37.77", "37.77,-122.42,1", "nan,nan", "91,0"]:
        assert not check(status(location=location))
    assert not check(status())


@pytest.mark.parametrize(
    ("numbers", "problem"),
    [
        ([], "boxes of 4 numbers"),
        (["1", "2", "3"], "boxes of 4 numbers"),
        (SF_BAY * 26, "at most 25 boxes"),
        (["-122.75", "north", "-121.75", "37.8"], "'north' in location box 1 is not a number"),
        (["0", "0", "inf", "1"], "not a finite number"),
        (["-181", "0", "0", "1"], "longitudes"),
        (["10", "0", "5", "1"], "longitudes"),
        (SF_BAY + ["0", "-91", "1", "0"], "In location box 2, latitudes"),
        (["0", "10", "1", "5"], "latitudes"),
    ],
)
def test_location_refuses_bad_boxes(numbers, problem):
    with pytest.raises(ValueError, match=problem):
        create_filter("k", "filter", "location", numbers)


def test_location_accepts_25_boxes():
    check = create_filter("k", "filter", "location", SF_BAY * 25)
    assert check(status(location="37.77,-122.42"))
    assert not check(status(location="48.85,2.35"))


def test_unknown_methods_and_filter_names_are_refused():
    with pytest.raises(ValueError, match="Unknown stream method"):
        create_filter("k", "firehose", None, {})
    with pytest.raises(ValueError, match="Unknown filter"):
        create_filter("k", "filter", "language", ["en"])


def test_a_filter_request_passes_what_any_of_its_filters_passes():
    check = create_stream_filter("k", "filter", {"track": "redis", "follow": "carol"})
    assert check(status(message="redis"))
    assert check(status(login="carol"))
    assert not check(status(login="bob", message="python"))


def test_a_filter_request_needs_at_least_one_filter():
    with pytest.raises(ValueError, match="at least one of track, follow or location"):
        create_stream_filter("k", "filter", {"track": "", "identifier": "x"})


def test_a_filter_request_with_one_bad_filter_is_refused():
    with pytest.raises(ValueError, match="location"):
        create_stream_filter("k", "filter", {"track": "redis", "location": "1,2"})


def home(uid=1, followed=(), newest=(), shown=None, complete=True) -> HomeFilter:
    """A home filter for `uid` that has read their home: `newest` as (id, posted) pairs."""
    check = HomeFilter(uid)
    check.load(HomeState(list(followed), home_entries(newest), shown or {}, complete))
    return check


def home_entries(newest) -> list[int]:
    """(id, posted) pairs as home_state reads them from home: ids, newest first."""
    return sorted((status_id for status_id, _ in newest), reverse=True)


def post(status_id, uid, posted=None, **extra):
    """A status event posted at `posted` (default: its id, so ids order time)."""
    return status(status_id, uid=uid, posted=float(posted or status_id), **extra)


def test_home_passes_statuses_by_the_user_and_those_they_follow():
    check = home(1, followed=[2])
    assert check(status(uid=1))
    assert check(status(uid=2, deleted=True))
    assert not check(status(uid=3))


def test_home_follows_the_users_follows_and_unfollows_without_passing_them_on():
    check = home(1)
    assert not check(follow_event("follow", "me", "carol", source_id=1, target_id=3))
    assert check.stale.is_set()
    assert check(status(uid=3))
    assert not check(follow_event("unfollow", "me", "carol", source_id=1, target_id=3))
    assert not check(status(uid=3))
    check.stale.clear()
    check(follow_event("follow", "dave", "erin", source_id=4, target_id=5))
    assert not check(status(uid=5))
    assert not check.stale.is_set()


def test_home_passes_a_reply_only_if_the_user_follows_whom_it_answers_or_is_them():
    check = home(1, followed=[2, 3])
    assert not check(post(10, 2, in_reply_to=5, in_reply_to_uid=4))
    assert check(post(11, 2, in_reply_to=6, in_reply_to_uid=3))
    assert check(post(12, 2, in_reply_to=7, in_reply_to_uid=1))
    # Answering themselves (a thread) or the user's own replies: no rule.
    assert check(post(13, 2, in_reply_to=8, in_reply_to_uid=2))
    assert check(post(14, 1, in_reply_to=9, in_reply_to_uid=4))


def test_home_passes_the_deletion_of_a_reply_it_left_out():
    check = home(1, followed=[2])
    reply = post(10, 2, in_reply_to=5, in_reply_to_uid=4)
    assert not check(reply)
    assert check({**reply, "deleted": True})


def test_home_leaves_out_a_repost_whose_original_is_among_its_newest_entries():
    newest = [(i, float(i)) for i in range(100, 100 - REPOST_FALLOFF, -1)]
    check = home(1, followed=[2], newest=newest, complete=False)
    assert not check(post(200, 2, repost_of=100 - REPOST_FALLOFF + 1))
    assert check(post(201, 2, repost_of=100 - REPOST_FALLOFF))
    # Now 201 shows that original, and the next repost of it stays out.
    assert not check(post(202, 2, repost_of=100 - REPOST_FALLOFF))


def test_home_takes_a_repost_once_its_original_and_last_repost_fall_off():
    check = home(1, followed=[2], newest=[(5, 5.0)])
    assert not check(post(10, 2, repost_of=5))
    for status_id in range(11, 11 + REPOST_FALLOFF):
        assert check(post(status_id, 2))
    assert check(post(100, 2, repost_of=5))
    assert not check(post(101, 2, repost_of=5))
    for status_id in range(102, 102 + REPOST_FALLOFF):
        check(post(status_id, 2))
    assert check(post(200, 2, repost_of=5))


def test_home_passes_the_users_own_reposts_whatever_it_shows():
    check = home(1, followed=[2], newest=[(5, 5.0)])
    assert check(post(10, 1, repost_of=5))
    # Their own repost isn't one the repost rule counts.
    assert check(post(11, 2, repost_of=6))
    assert not check(post(12, 2, repost_of=6))


def test_home_uses_the_reposts_home_showed_when_it_was_read():
    check = home(1, followed=[2], newest=[(20, 20.0), (5, 5.0)], shown={3: 20})
    assert not check(post(30, 2, repost_of=3))
    assert check(post(31, 2, repost_of=4))


def test_home_forgets_deleted_entries_and_asks_to_read_home_when_it_knows_too_few():
    newest = [(i, float(i)) for i in range(REPOST_FALLOFF + 1, 0, -1)]
    check = home(1, followed=[2], newest=newest, complete=False)
    assert not check(post(100, 2, repost_of=REPOST_FALLOFF + 1))
    assert check(post(REPOST_FALLOFF + 1, 2, deleted=True))
    assert check(post(101, 2, repost_of=REPOST_FALLOFF + 1))
    assert not check.stale.is_set()
    check(post(1, 2, deleted=True))
    check(post(2, 2, deleted=True))
    assert check.stale.is_set()


def test_home_replays_what_passed_while_it_read_home_on_what_it_read():
    check = HomeFilter(1)
    check.begin_load()
    assert check(post(10, 1))
    assert check(post(11, 1, deleted=True))
    check.load(HomeState([2], home_entries([(11, 11.0), (5, 5.0)]), {}, True))
    # 10 is known, 11 is gone: 10 is the newest entry, and reposting 5 is not allowed.
    assert not check(post(20, 2, repost_of=10))
    assert not check(post(21, 2, repost_of=5))
    assert check(post(22, 2, repost_of=11))
