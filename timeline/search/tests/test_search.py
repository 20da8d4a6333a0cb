import io
import os
import subprocess
import sys

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import override_settings
from redis.client import NEVER_DECODE

from accounts.services import search_people, set_suspended, update_name
from socialsite.redis import for_each_primary
from timeline import keys
from timeline.discovery import suggestions
from timeline.graph import services as graph
from timeline.posting import services as posting
from timeline.reactions import services as reactions
from timeline.safety import services as safety
from timeline.search import selectors, services
from timeline.tests.pages import ids


def indexed(conn, word: str, shard: int = 0) -> tuple[str, list[int]]:
    """Where the index keeps `word`'s statuses in `shard` ("set", "bucket", or "" if
    nowhere) and their ids, oldest first, as the scripts write them."""
    first = shard * settings.SEARCH_SHARD_STATUSES
    own = keys.search_ids_key(shard, word)
    if conn.exists(own):
        return "set", sorted(first + 32768 + int(member) for member in conn.smembers(own))
    bucket = keys.search_bucket_key(shard, word)
    packed = conn.execute_command("HGET", bucket, word, **{NEVER_DECODE: []})
    if packed is None:
        return "", []
    offsets = [int.from_bytes(packed[at : at + 2], "big") for at in range(0, len(packed), 2)]
    return "bucket", [first + offset for offset in offsets]


@pytest.fixture(params=[0, 64], ids=["own sets", "buckets"])
def bucket_ids(request, settings):
    """Runs a test with every word in its own set (a bucket keeps none) and with the
    site's buckets (a test's words stay in theirs)."""
    settings.SEARCH_BUCKET_IDS = request.param
    return request.param


# Statuses by words


def test_every_word_of_the_query_must_appear_newest_first(alice, bob, bucket_ids):
    first = posting.post_status(alice.uid, "Redis streams are neat")
    posting.post_status(bob.uid, "streams of water")
    third = posting.post_status(bob.uid, "Neat: redis, again!")
    page = selectors.search_statuses("REDIS neat")
    assert ids(page.statuses) == [third, first]


def test_search_uses_the_track_filters_word_rules(alice):
    from streaming.filters import track_filter

    status_id = posting.post_status(alice.uid, "(Python) rocks! #Django")
    (found,) = selectors.search_statuses("python #django").statuses
    assert found["id"] == status_id
    assert track_filter(["python #django"])(found)


def test_deleted_statuses_leave_the_index(alice, redis_conn):
    status_id = posting.post_status(alice.uid, "ephemeral words")
    posting.delete_status(alice.uid, status_id)
    assert selectors.search_statuses("ephemeral").statuses == []
    assert indexed(redis_conn, "ephemeral") == ("", [])
    assert not redis_conn.exists(keys.search_bucket_key(0, "ephemeral"))


def test_reposts_are_not_indexed_twice(alice, bob):
    status_id = posting.post_status(alice.uid, "original thought")
    reactions.repost(bob.uid, status_id)
    assert ids(selectors.search_statuses("original thought").statuses) == [status_id]


def test_suspended_users_statuses_are_not_found(alice, bob):
    posting.post_status(alice.uid, "hidden words")
    shown = posting.post_status(bob.uid, "hidden words too")
    set_suspended(alice.uid, True)
    assert ids(selectors.search_statuses("hidden words").statuses) == [shown]


def test_a_private_accounts_statuses_are_found_by_its_followers_only(
    alice, bob, make_user, bucket_ids
):
    stranger = make_user("stranger")
    graph.follow_user(bob.uid, alice.uid)
    safety.set_private(alice.uid, True)
    hidden = posting.post_status(alice.uid, "secret garden")
    shown = posting.post_status(stranger.uid, "public garden")
    assert ids(selectors.search_statuses("garden", viewer=bob.uid).statuses) == [shown, hidden]
    assert ids(selectors.search_statuses("garden", viewer=stranger.uid).statuses) == [shown]
    assert ids(selectors.search_statuses("garden").statuses) == [shown]


def test_common_words_page_newest_first_through_the_windows(alice):
    # More matches than the script's window of ids: the first page comes from asking
    # about the newest ids, later ones from reading the smallest set whole.
    posted = [posting.post_status(alice.uid, f"busy day {n % 2}") for n in range(1_200)]
    for n in range(2):
        expected = posted[n::2][::-1]
        first = selectors.search_statuses(f"busy {n}", page=1, count=30)
        middle = selectors.search_statuses(f"busy {n}", page=9, count=30)
        last = selectors.search_statuses(f"busy {n}", page=20, count=30)
        assert ids(first.statuses) == expected[:30] and first.has_older
        assert ids(middle.statuses) == expected[240:270] and middle.has_older
        assert ids(last.statuses) == expected[570:] and not last.has_older


def test_deleting_one_of_many_leaves_the_rest_found(alice, redis_conn, bucket_ids):
    kept, gone = (posting.post_status(alice.uid, "twin words") for _ in range(2))
    posting.delete_status(alice.uid, gone)
    assert ids(selectors.search_statuses("twin words").statuses) == [kept]
    assert indexed(redis_conn, "twin") == ("bucket" if bucket_ids else "set", [kept])


@override_settings(SEARCH_BUCKET_IDS=3)
def test_a_word_past_what_a_bucket_keeps_moves_to_its_own_set(alice, redis_conn):
    posted = [posting.post_status(alice.uid, f"rising star {n}") for n in range(3)]
    assert indexed(redis_conn, "rising") == ("bucket", posted)
    posted += [posting.post_status(alice.uid, f"rising tide {n}") for n in range(3)]
    assert indexed(redis_conn, "rising") == ("set", posted)
    assert indexed(redis_conn, "star") == ("bucket", posted[:3])
    assert redis_conn.hget(keys.search_bucket_key(0, "rising"), "rising") is None
    first = selectors.search_statuses("rising", page=1, count=4)
    second = selectors.search_statuses("rising", page=2, count=4)
    assert ids(first.statuses) == posted[::-1][:4] and first.has_older
    assert ids(second.statuses) == posted[::-1][4:] and not second.has_older
    # A word in its bucket beside one with its own set.
    assert ids(selectors.search_statuses("star rising").statuses) == posted[2::-1]
    assert ids(selectors.search_statuses("tide 1 rising").statuses) == [posted[4]]
    posting.delete_status(alice.uid, posted[0])
    assert indexed(redis_conn, "rising") == ("set", posted[1:])
    assert indexed(redis_conn, "star") == ("bucket", posted[1:3])
    assert ids(selectors.search_statuses("rising star").statuses) == posted[2:0:-1]


def test_indexing_a_status_twice_or_forgetting_it_twice_changes_nothing(alice, redis_conn):
    status_id = posting.post_status(alice.uid, "once only")
    status = {"id": status_id, "message": "once only"}
    for change in (services.index, services.index, services.forget):
        pipe = redis_conn.pipeline(transaction=False)
        change(pipe, status)
        pipe.execute()
    assert indexed(redis_conn, "once") == ("", [])
    pipe = redis_conn.pipeline(transaction=False)
    services.forget(pipe, status)
    services.index(pipe, status)
    services.index(pipe, status)
    pipe.execute()
    assert indexed(redis_conn, "once") == ("bucket", [status_id])


@override_settings(SEARCH_SHARD_STATUSES=3)
def test_search_pages_across_shards_newest_first(alice, bucket_ids):
    posted = [posting.post_status(alice.uid, f"common word {n}") for n in range(10)]
    posting.post_status(alice.uid, "something else")
    first = selectors.search_statuses("common word", page=1, count=4)
    second = selectors.search_statuses("common word", page=2, count=4)
    third = selectors.search_statuses("common word", page=3, count=4)
    assert ids(first.statuses) == posted[::-1][:4] and first.has_older
    assert ids(second.statuses) == posted[::-1][4:8] and second.has_older
    assert ids(third.statuses) == posted[::-1][8:] and not third.has_older


@pytest.mark.parametrize(
    ("query", "error"),
    [
        ("", "Type a word"),
        ("!!! ...", "Type a word"),
        ("a b c d e f g h i", "at most 8 words"),
        ("x" * 61, "up to 60 characters"),
    ],
)
def test_bad_status_queries_are_refused(query, error):
    with pytest.raises(ValueError, match=error):
        selectors.search_statuses(query)


def test_search_pages_stop_at_the_newest_thousand():
    with pytest.raises(ValueError, match="newest 1,000"):
        selectors.search_statuses("word", page=35, count=30)


# People


def test_people_are_found_by_login_or_name_prefix_ignoring_case_and_accents(make_user):
    zoe = make_user("zoe")
    update_name(zoe.uid, "Zoë Ålander")
    other = make_user("zed")
    found, more = search_people("ZOE")
    assert [p["login"] for p in found] == ["zoe"] and not more
    assert [p["login"] for p in search_people("alan")[0]] == ["zoe"]
    assert [p["login"] for p in search_people("@z")[0]] == ["zed", "zoe"]
    update_name(zoe.uid, "Someone Else")
    assert search_people("alan")[0] == []
    assert other.uid != zoe.uid


def test_people_are_ranked_by_followers_and_paged(make_user):
    sam, sara, sal = make_user("sam"), make_user("sara"), make_user("sal")
    for follower in (make_user("f1"), make_user("f2")):
        graph.follow_user(follower.uid, sara.uid)
    graph.follow_user(sam.uid, sal.uid)
    first, more = search_people("sa", count=2)
    assert [p["login"] for p in first] == ["sara", "sal"] and more
    rest, more = search_people("sa", page=2, count=2)
    assert [p["login"] for p in rest] == ["sam"] and not more


def test_suspended_people_are_not_found(make_user):
    sam = make_user("sam")
    set_suspended(sam.uid, True)
    assert search_people("sam") == ([], False)


@pytest.mark.parametrize("query", ["", "  ", "@", "x" * 51])
def test_bad_people_queries_are_refused(query):
    with pytest.raises(ValueError):
        search_people(query)


# Tags


def test_tags_are_found_by_prefix_with_recent_counts(alice):
    posting.post_status(alice.uid, "#redis one")
    posting.post_status(alice.uid, "#Redis two")
    posting.post_status(alice.uid, "#redcarpet")
    posting.post_status(alice.uid, "#blue")
    found, more = selectors.search_tags("#RED")
    assert [(t.name, t.recent) for t in found] == [("redis", 2), ("redcarpet", 1)]
    assert not more


@pytest.mark.parametrize("query", ["", "#", "bad-tag", "x" * 101])
def test_bad_tag_queries_are_refused(query):
    with pytest.raises(ValueError):
        selectors.search_tags(query)


@override_settings(SEARCH_SHARD_STATUSES=2)
def test_pages_across_shards_read_in_batches_are_the_plain_walks_pages(alice, bucket_ids):
    posted = [
        posting.post_status(alice.uid, f"batch {'even' if n % 3 == 0 else 'odd'}")
        for n in range(40)
    ]
    for query, expected in (("batch", posted[::-1]), ("even", posted[::3][::-1])):
        for count in (1, 4, 7):
            for page in range(1, len(expected) // count + 2):
                got = selectors.search_statuses(query, page=page, count=count)
                assert ids(got.statuses) == expected[(page - 1) * count : page * count]
                assert got.has_older == (page * count < len(expected))


@override_settings(SEARCH_SHARD_STATUSES=2)
def test_an_old_match_is_found_in_a_round_trip_a_batch_of_shards(
    alice,
    redis_conn,
    round_trips,  # noqa: F811
):
    oldest = posting.post_status(alice.uid, "vintage")
    for n in range(40):
        posting.post_status(alice.uid, f"filler {n}")
    shards = int(redis_conn.get(keys.STATUS_ID_COUNTER)) // 2 + 1
    batches, read = 0, 0
    while read < shards:
        read += min(2**batches, selectors.SHARDS_AT_ONCE)
        batches += 1
    found = []
    # The newest id, the batches of shards (1, 2, 4, 8, ...), the statuses.
    assert round_trips(lambda: found.append(selectors.search_statuses("vintage"))) == batches + 2
    assert ids(found[0].statuses) == [oldest]


def test_statuses_indexed_out_of_order_keep_their_words_offsets_in_order(redis_conn):
    for status_id, message in ((5, "late word"), (2, "word first"), (9, "word"), (2, "word")):
        pipe = redis_conn.pipeline(transaction=False)
        services.index(pipe, {"id": status_id, "message": message})
        pipe.execute()
    assert indexed(redis_conn, "word") == ("bucket", [2, 5, 9])
    pipe = redis_conn.pipeline(transaction=False)
    services.forget(pipe, {"id": 5, "message": "late word"})
    pipe.execute()
    assert indexed(redis_conn, "word") == ("bucket", [2, 9])
    assert indexed(redis_conn, "late") == ("", [])


@pytest.mark.parametrize("size", ["0", "65537"])
def test_a_shard_size_past_two_bytes_of_offsets_is_refused(size):
    env = {**os.environ, "SEARCH_SHARD_STATUSES": size}
    code = "from django.conf import settings; settings.SEARCH_SHARD_STATUSES"
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode != 0
    assert f"SEARCH_SHARD_STATUSES must be 1 to 65,536, not {size}" in done.stderr


def test_the_index_shards_by_status_id():
    with override_settings(SEARCH_SHARD_STATUSES=100):
        assert [services.shard_of(i) for i in (0, 99, 100, 250)] == [0, 0, 1, 2]


def test_reindexing_finds_what_was_written_before_search_existed(redis_conn, alice, bob):
    status_id = posting.post_status(alice.uid, "older words #vintage")
    graph.follow_user(bob.uid, alice.uid)
    for key in [*redis_conn.scan_iter(match="w:*"), *redis_conn.scan_iter(match="wb:*")]:
        redis_conn.delete(key)
    for key in ("tags:names", "users:name_search", "users:popular"):
        redis_conn.delete(key)
    assert selectors.search_statuses("older words").statuses == []
    call_command("reindex_search", stdout=io.StringIO())
    call_command("reindex_search", stdout=io.StringIO())
    assert ids(selectors.search_statuses("older words").statuses) == [status_id]
    assert [t.name for t in selectors.search_tags("vin")[0]] == ["vintage"]
    assert [p["login"] for p in search_people("ali")[0]] == ["alice"]
    assert suggestions.popularity(alice.uid) == 1


def test_reindexing_moves_the_old_sorted_set_index_into_id_sets(redis_conn, alice):
    first = posting.post_status(alice.uid, "migrated words")
    second = posting.post_status(alice.uid, "migrated again")
    for key in [*redis_conn.scan_iter(match="w:*"), *redis_conn.scan_iter(match="wb:*")]:
        redis_conn.delete(key)
    # As the index was written before its sets: a sorted set per word, id -> id.
    for status_id, words in ((first, ("migrated", "words")), (second, ("again", "migrated"))):
        for word in words:
            redis_conn.zadd(f"search:{{s0}}:w:{word}", {status_id: status_id})
    out = io.StringIO()
    call_command("reindex_search", stdout=out)
    assert list(redis_conn.scan_iter(match=keys.OLD_SEARCH_WORD_PATTERN)) == []
    assert ids(selectors.search_statuses("migrated").statuses) == [second, first]
    assert indexed(redis_conn, "migrated") == ("bucket", [first, second])
    assert "old word index: 3 keys deleted" in out.getvalue()
    out = io.StringIO()
    call_command("reindex_search", if_old_index=True, stdout=out)
    assert out.getvalue() == "The word index is current: nothing to do.\n"


def test_reindexing_moves_the_previous_id_sets_into_offsets_and_buckets(redis_conn, alice):
    posted = [posting.post_status(alice.uid, f"carried words {n}") for n in range(3)]
    for key in [*redis_conn.scan_iter(match="w:*"), *redis_conn.scan_iter(match="wb:*")]:
        redis_conn.delete(key)
    # As the index was written before this one: a set of absolute ids per word and
    # shard of 100,000 ids.
    for status_id in posted:
        for word in ("carried", "words", str(status_id - posted[0])):
            redis_conn.sadd(f"words:{{s{status_id // 100_000}}}:{word}", status_id)
    assert selectors.search_statuses("carried words").statuses == []
    out = io.StringIO()
    call_command("reindex_search", if_old_index=True, stdout=out)
    call_command("reindex_search", stdout=io.StringIO())
    assert list(redis_conn.scan_iter(match=keys.OLD_SEARCH_SET_PATTERN)) == []
    assert "old word index: 5 keys deleted" in out.getvalue()
    assert ids(selectors.search_statuses("carried words").statuses) == posted[::-1]
    assert ids(selectors.search_statuses("words 1").statuses) == [posted[1]]
    assert indexed(redis_conn, "carried") == ("bucket", posted)


@override_settings(SEARCH_BUCKET_IDS=0)
def test_sets_past_the_intset_limit_still_page_newest_first(redis_conn, alice):
    # A Redis without set-max-intset-entries raised keeps big sets as hash tables, in no
    # order: the script sorts what it reads.
    servers = list(for_each_primary(redis_conn))
    limit = servers[0].config_get("set-max-intset-entries")["set-max-intset-entries"]
    for server in servers:
        server.config_set("set-max-intset-entries", "4")
    try:
        posted = [posting.post_status(alice.uid, f"loose words {n % 2}") for n in range(20)]
        assert redis_conn.object("encoding", keys.search_ids_key(0, "loose")) == "hashtable"
        first = selectors.search_statuses("loose words", page=1, count=6)
        rest = selectors.search_statuses("loose words", page=2, count=14)
        odd = selectors.search_statuses("loose 1", count=30)
    finally:
        for server in servers:
            server.config_set("set-max-intset-entries", limit)
    assert ids(first.statuses) == posted[::-1][:6]
    assert ids(rest.statuses) == posted[::-1][14:] and not rest.has_older
    assert ids(odd.statuses) == posted[1::2][::-1]
