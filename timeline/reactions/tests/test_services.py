import pytest
from django.test import override_settings

from accounts.services import get_user, set_suspended
from socialsite import jobs
from timeline import keys
from timeline.feeds import selectors as feeds
from timeline.graph import services as graph
from timeline.posting import services as posting
from timeline.reactions import selectors as reaction_selectors
from timeline.reactions import services as reactions
from timeline.statuses import selectors as status_selectors
from timeline.statuses.selectors import AlreadyDone
from timeline.tests.pages import home_entries, ids

# Reposts


def test_a_repost_reaches_the_reposters_followers_as_reposted_by_them(make_user):
    author, reposter, fan = make_user("author").uid, make_user("reposter").uid, make_user("fan").uid
    graph.follow_user(fan, reposter)
    original = posting.post_status(author, "worth sharing")
    repost = reactions.repost(reposter, original)
    (entry,) = feeds.get_status_messages(fan)
    assert entry["id"] == repost and entry["login"] == "reposter"
    assert entry["repost_of"] == original
    assert entry["original"]["id"] == original and entry["original"]["login"] == "author"
    assert status_selectors.get_status(original)["reposts"] == 1


def test_a_repost_is_on_the_reposters_profile_and_published(make_user, events):
    author, reposter = make_user().uid, make_user().uid
    original = posting.post_status(author, "hi")
    events()
    repost = reactions.repost(reposter, original)
    assert ids(feeds.get_status_messages(reposter, "profile")) == [repost]
    (event,) = events()
    assert event["id"] == repost and event["repost_of"] == str(original)
    assert event["message"] == "hi"


def test_a_repost_stays_off_the_global_timeline(make_user):
    author, reposter = make_user().uid, make_user().uid
    original = posting.post_status(author, "once")
    reactions.repost(reposter, original)
    assert ids(feeds.global_timeline_page().statuses) == [original]


def test_a_status_among_your_40_newest_is_not_shown_again_by_a_repost(make_user):
    author, reposter, fan = make_user().uid, make_user().uid, make_user().uid
    graph.follow_user(fan, author)
    graph.follow_user(fan, reposter)
    original = posting.post_status(author, "seen it")
    repost = reactions.repost(reposter, original)
    assert repost not in ids(feeds.get_status_messages(fan))
    assert status_selectors.get_status(original)["reposts"] == 1


def test_a_status_further_down_than_40_is_shown_again_by_a_repost(make_user):
    author, reposter, fan = make_user().uid, make_user().uid, make_user().uid
    graph.follow_user(fan, author)
    graph.follow_user(fan, reposter)
    original = posting.post_status(author, "old news")
    for i in range(40):
        posting.post_status(author, f"filler {i}")
    repost = reactions.repost(reposter, original)
    assert ids(feeds.get_status_messages(fan))[0] == repost


def test_a_second_repost_of_a_status_recently_reposted_is_not_shown_again(make_user):
    author, first, second, fan = make_user().uid, make_user().uid, make_user().uid, make_user().uid
    graph.follow_user(fan, first)
    graph.follow_user(fan, second)
    original = posting.post_status(author, "viral")
    shown = reactions.repost(first, original)
    hidden = reactions.repost(second, original)
    home = ids(feeds.get_status_messages(fan))
    assert shown in home and hidden not in home
    assert status_selectors.get_status(original)["reposts"] == 2


def test_reposting_twice_is_refused_and_changes_nothing(make_user):
    author, reposter = make_user().uid, make_user().uid
    original = posting.post_status(author, "once")
    reactions.repost(reposter, original)
    with pytest.raises(AlreadyDone, match="already reposted"):
        reactions.repost(reposter, original)
    assert status_selectors.get_status(original)["reposts"] == 1
    assert get_user(reposter)["posts"] == 1
    assert len(feeds.get_status_messages(reposter, "profile")) == 1


def test_reposting_a_repost_reposts_its_original(make_user):
    author, first, second = make_user().uid, make_user().uid, make_user().uid
    original = posting.post_status(author, "source")
    repost = reactions.repost(first, original)
    again = reactions.repost(second, repost)
    assert status_selectors.get_status(again)["repost_of"] == original
    assert status_selectors.get_status(original)["reposts"] == 2
    with pytest.raises(AlreadyDone, match="already reposted"):
        reactions.repost(first, repost)


@pytest.mark.parametrize("target", [424242, "nope", None])
def test_reposting_an_unknown_status_is_refused(make_user, target):
    reposter = make_user().uid
    with pytest.raises(ValueError, match="doesn't exist or was deleted"):
        reactions.repost(reposter, target)
    assert get_user(reposter)["posts"] == 0


def test_reposting_a_deleted_status_is_refused_and_changes_nothing(make_user):
    author, reposter = make_user().uid, make_user().uid
    original = posting.post_status(author, "gone")
    posting.delete_status(author, original)
    with pytest.raises(ValueError, match="doesn't exist or was deleted"):
        reactions.repost(reposter, original)
    assert get_user(reposter)["posts"] == 0
    assert reaction_selectors.reposter_uids(original) == []


def test_undoing_a_repost_takes_it_out_of_every_home_and_uncounts_it(make_user):
    author, reposter, fan = make_user().uid, make_user().uid, make_user().uid
    graph.follow_user(fan, reposter)
    original = posting.post_status(author, "undo me")
    repost = reactions.repost(reposter, original)
    reactions.undo_repost(reposter, original)
    jobs.work(burst=True)
    assert status_selectors.get_status(repost) is None
    assert status_selectors.get_status(original)["reposts"] == 0
    assert reaction_selectors.reposter_uids(original) == []
    assert repost not in home_entries(fan)
    assert get_user(reposter)["posts"] == 0
    assert reactions.repost(reposter, original)  # and may repost again


def test_undoing_a_repost_you_never_made_is_refused(make_user):
    author, other = make_user().uid, make_user().uid
    original = posting.post_status(author, "hi")
    with pytest.raises(AlreadyDone, match="haven't reposted"):
        reactions.undo_repost(other, original)


def test_deleting_a_repost_like_any_status_uncounts_it(make_user):
    author, reposter = make_user().uid, make_user().uid
    original = posting.post_status(author, "hi")
    repost = reactions.repost(reposter, original)
    posting.delete_status(reposter, repost)
    assert status_selectors.get_status(original)["reposts"] == 0


@override_settings(POSTS_PER_PASS=2)
def test_deleting_the_original_removes_its_reposts_everywhere(make_user):
    author = make_user().uid
    reposters = [make_user().uid for _ in range(5)]
    fans = [make_user().uid for _ in reposters]
    for reposter, fan in zip(reposters, fans, strict=True):
        graph.follow_user(fan, reposter)
    original = posting.post_status(author, "regrettable")
    reposts = [reactions.repost(reposter, original) for reposter in reposters]
    jobs.work(burst=True)
    posting.delete_status(author, original)
    jobs.work(burst=True)
    for repost, reposter, fan in zip(reposts, reposters, fans, strict=True):
        assert status_selectors.get_status(repost) is None
        assert repost not in home_entries(fan)
        assert status_selectors.profile_ids(reposter) == []
        assert get_user(reposter)["posts"] == 0
    assert reaction_selectors.reposter_uids(original) == []


def test_a_page_leaves_out_reposts_whose_original_is_gone(make_user, redis_conn):
    author, reposter = make_user().uid, make_user().uid
    original = posting.post_status(author, "hi")
    reactions.repost(reposter, original)
    # Before the clean-up job has run, reads already hide the orphan.
    redis_conn.delete(keys.status_key(original))
    assert feeds.get_status_messages(reposter, "profile") == []


# Likes


def test_liking_counts_and_lists_it_on_the_likers_likes_page(make_user):
    author, fan = make_user().uid, make_user().uid
    first = posting.post_status(author, "one")
    second = posting.post_status(author, "two")
    assert reactions.like(fan, first) == 1
    assert reactions.like(fan, second) == 1
    assert ids(reaction_selectors.likes_page(fan).statuses) == [second, first]
    assert status_selectors.get_status(first)["likes"] == len(reaction_selectors.liker_uids(first))
    assert len(reaction_selectors.liker_uids(first)) == 1


def test_liking_twice_is_refused_and_counts_once(make_user):
    author, fan = make_user().uid, make_user().uid
    sid = posting.post_status(author, "one")
    reactions.like(fan, sid)
    with pytest.raises(AlreadyDone, match="already like"):
        reactions.like(fan, sid)
    assert status_selectors.get_status(sid)["likes"] == 1


def test_unliking_uncounts_and_unlists_it(make_user):
    author, fan, other = make_user().uid, make_user().uid, make_user().uid
    sid = posting.post_status(author, "one")
    reactions.like(fan, sid)
    reactions.like(other, sid)
    assert reactions.unlike(fan, sid) == 1
    assert reaction_selectors.likes_page(fan).statuses == []
    with pytest.raises(AlreadyDone, match="don't like"):
        reactions.unlike(fan, sid)
    assert status_selectors.get_status(sid)["likes"] == 1


@pytest.mark.parametrize("target", [424242, "x", None])
def test_liking_an_unknown_status_is_refused(make_user, target):
    fan = make_user().uid
    with pytest.raises(ValueError, match="doesn't exist or was deleted"):
        reactions.like(fan, target)
    assert reaction_selectors.liked_ids(fan) == []


def test_liking_a_deleted_status_is_refused_and_changes_nothing(make_user):
    author, fan = make_user().uid, make_user().uid
    sid = posting.post_status(author, "gone")
    posting.delete_status(author, sid)
    with pytest.raises(ValueError, match="doesn't exist or was deleted"):
        reactions.like(fan, sid)
    assert reaction_selectors.liked_ids(fan) == reaction_selectors.liker_uids(sid) == []


def test_liking_a_repost_likes_its_original(make_user):
    author, reposter, fan = make_user().uid, make_user().uid, make_user().uid
    original = posting.post_status(author, "hi")
    repost = reactions.repost(reposter, original)
    reactions.like(fan, repost)
    assert status_selectors.get_status(original)["likes"] == 1
    assert ids(reaction_selectors.likes_page(fan).statuses) == [original]


def test_likes_and_unlikes_are_published(make_user, events):
    author, fan = make_user("author").uid, make_user("fan").uid
    sid = posting.post_status(author, "hi")
    events()
    reactions.like(fan, sid)
    reactions.unlike(fan, sid)
    like, unlike = events()
    assert (like["event"], like["source"]["login"], like["target"]["login"]) == (
        "like",
        "fan",
        "author",
    )
    assert like["target_object"]["id"] == sid
    assert unlike["event"] == "unlike"


@override_settings(POSTS_PER_PASS=2)
def test_deleting_a_liked_status_takes_it_off_every_likes_page(make_user):
    author = make_user().uid
    fans = [make_user().uid for _ in range(5)]
    sid = posting.post_status(author, "liked")
    for fan in fans:
        reactions.like(fan, sid)
    posting.delete_status(author, sid)
    jobs.work(burst=True)
    for fan in fans:
        assert sid not in reaction_selectors.liked_ids(fan)
    assert reaction_selectors.liker_uids(sid) == []


def test_marking_reactions_tells_what_the_viewer_liked_and_reposted(make_user):
    author, reposter, viewer = make_user().uid, make_user().uid, make_user().uid
    liked = posting.post_status(author, "liked")
    reposted = posting.post_status(author, "reposted")
    graph.follow_user(viewer, reposter)
    reactions.like(viewer, liked)
    reactions.repost(viewer, reposted)
    key = keys.profile_timeline_key(author)
    statuses = feeds.statuses_page(key, 1, 30, viewer=viewer).statuses
    marks = {s["id"]: (s["liked"], s["reposted"]) for s in statuses}
    assert marks == {liked: (True, False), reposted: (False, True)}


# Suspended authors: their statuses read as deleted, so nobody reacts to them


def _store(redis_conn) -> dict:
    """Every key with its value as DUMP serializes it."""
    return {key: redis_conn.dump(key) for key in redis_conn.scan_iter(count=1000)}


@pytest.mark.django_db
def test_reposting_or_liking_a_suspended_users_status_is_refused_and_changes_nothing(
    make_user, redis_conn
):
    author, fan = make_user().uid, make_user().uid
    sid = posting.post_status(author, "soon hidden")
    set_suspended(author, True)
    before = _store(redis_conn)
    # Taking back what was never given reads as for a deleted status too: the answer
    # doesn't tell who is suspended.
    for react in (reactions.repost, reactions.like, reactions.undo_repost, reactions.unlike):
        with pytest.raises(status_selectors.StatusGone, match="doesn't exist or was deleted"):
            react(fan, sid)
    assert _store(redis_conn) == before
    assert get_user(fan)["posts"] == 0


@pytest.mark.django_db
def test_a_repost_of_a_suspended_users_status_cant_be_reposted_or_liked(make_user):
    author, reposter, fan = make_user().uid, make_user().uid, make_user().uid
    original = posting.post_status(author, "hi")
    repost = reactions.repost(reposter, original)
    set_suspended(author, True)
    for react in (reactions.repost, reactions.like):
        with pytest.raises(status_selectors.StatusGone):
            react(fan, repost)
    assert status_selectors.get_status(original)["likes"] == 0
    assert status_selectors.get_status(original)["reposts"] == 1


@pytest.mark.django_db
def test_a_suspended_users_repost_cant_be_reposted_or_liked(make_user):
    author, reposter, fan = make_user().uid, make_user().uid, make_user().uid
    original = posting.post_status(author, "hi")
    repost = reactions.repost(reposter, original)
    set_suspended(reposter, True)
    for react in (reactions.repost, reactions.like):
        with pytest.raises(status_selectors.StatusGone):
            react(fan, repost)
    assert reactions.like(fan, original) == 1


@pytest.mark.django_db
def test_likes_and_reposts_made_before_a_suspension_can_still_be_taken_back(make_user):
    author, fan = make_user().uid, make_user().uid
    sid = posting.post_status(author, "hi")
    reactions.like(fan, sid)
    reactions.repost(fan, sid)
    set_suspended(author, True)
    assert reactions.unlike(fan, sid) == 0
    reactions.undo_repost(fan, sid)
    assert status_selectors.get_status(sid)["reposts"] == 0
    assert get_user(fan)["posts"] == 0
