"""A page's liked and reposted marks, read from the viewer's own sets (statuses.marks),
kept right by every path that gives or takes back a like or a repost; built for data
from before them (Redis data migration 0005) and checked by repair."""

import pytest
from django.core.management import call_command

from accounts import services as account_services
from socialsite.redis import PackedPipeline, get_redis
from timeline import keys
from timeline.feeds import selectors as feeds
from timeline.graph import services as graph
from timeline.ops import maintenance
from timeline.posting import services as posting
from timeline.reactions import marks_sync
from timeline.reactions import services as reactions
from timeline.statuses import marks
from timeline.statuses.selectors import AlreadyDone, StatusGone


def marked(viewer: int, *status_ids: int) -> list[tuple[bool, bool]]:
    """(liked, reposted) of each status as a page shows it to `viewer`."""
    shown = [feeds.shown_status(status_id, viewer=viewer) for status_id in status_ids]
    return [(status["liked"], status["reposted"]) for status in shown]


def home_marks(viewer: int) -> dict[int, tuple[bool, bool]]:
    """Status id -> (liked, reposted) on `viewer`'s home page."""
    page = feeds.home_page(viewer).page
    return {int(s["id"]): (s["liked"], s["reposted"]) for s in page.statuses}


def mark_sets(redis_conn, uid: int) -> tuple[set[int], set[int]]:
    liked = redis_conn.smembers(keys.liked_key(uid))
    reposted = redis_conn.smembers(keys.reposted_key(uid))
    return set(map(int, liked)), set(map(int, reposted))


@pytest.fixture
def network(make_user):
    """`fan` follows `author`, who posted `first` and `second`; `other` follows no one."""
    author, fan, other = make_user("author").uid, make_user("fan").uid, make_user("other").uid
    graph.follow_user(fan, author)
    first = posting.post_status(author, "first")
    second = posting.post_status(author, "second")
    return {"author": author, "fan": fan, "other": other, "first": first, "second": second}


def test_a_like_marks_the_status_on_the_likers_pages_until_taken_back(network, redis_conn):
    fan, first, second = network["fan"], network["first"], network["second"]
    reactions.like(fan, first)
    assert home_marks(fan) == {second: (False, False), first: (True, False)}
    assert marked(network["other"], first) == [(False, False)]
    assert mark_sets(redis_conn, fan) == ({first}, set())
    reactions.unlike(fan, first)
    assert home_marks(fan) == {second: (False, False), first: (False, False)}
    assert redis_conn.exists(keys.liked_key(fan)) == 0
    # The likes page (by time) is kept beside the marks.
    assert redis_conn.exists(keys.likes_key(fan)) == 0


def test_liking_a_repost_marks_its_original(network, make_user, redis_conn):
    reposter = make_user().uid
    repost = reactions.repost(reposter, network["first"])
    reactions.like(network["fan"], repost)
    assert mark_sets(redis_conn, network["fan"]) == ({network["first"]}, set())
    assert marked(network["fan"], network["first"]) == [(True, False)]


def test_a_repost_marks_its_original_until_undone(network, make_user, redis_conn):
    reposter, first = make_user().uid, network["first"]
    repost = reactions.repost(reposter, first)
    assert marked(reposter, first, network["second"]) == [(False, True), (False, False)]
    # On the reposter's profile the repost shows its original, marked.
    (shown,) = feeds.timeline_page(reposter, "profile").statuses
    assert shown["id"] == repost and shown["original"]["reposted"] is True
    assert mark_sets(redis_conn, reposter) == (set(), {first})
    reactions.undo_repost(reposter, first)
    assert marked(reposter, first) == [(False, False)]
    assert redis_conn.exists(keys.reposted_key(reposter)) == 0


def test_reposting_a_repost_marks_the_original(network, make_user, redis_conn):
    first_reposter, reposter = make_user().uid, make_user().uid
    repost = reactions.repost(first_reposter, network["first"])
    reactions.repost(reposter, repost)
    assert mark_sets(redis_conn, reposter) == (set(), {network["first"]})
    reactions.undo_repost(reposter, repost)
    assert mark_sets(redis_conn, reposter) == (set(), set())
    assert mark_sets(redis_conn, first_reposter) == (set(), {network["first"]})


def test_refused_reactions_change_no_mark(network, redis_conn):
    fan, first, author = network["fan"], network["first"], network["author"]
    reactions.like(fan, first)
    reactions.repost(fan, first)
    with pytest.raises(AlreadyDone):
        reactions.like(fan, first)
    with pytest.raises(AlreadyDone):
        reactions.repost(fan, first)
    with pytest.raises(AlreadyDone):
        reactions.unlike(fan, network["second"])
    with pytest.raises(AlreadyDone):
        reactions.undo_repost(fan, network["second"])
    gone = posting.post_status(author, "soon gone")
    posting.delete_status(author, gone)
    for react in (reactions.like, reactions.repost, reactions.unlike, reactions.undo_repost):
        with pytest.raises(StatusGone):
            react(fan, gone)
    with pytest.raises(StatusGone):
        reactions.like(fan, 10**9)
    assert mark_sets(redis_conn, fan) == ({first}, {first})


def test_deleting_a_status_takes_its_marks_off_its_likers_and_reposters(
    network, make_user, redis_conn
):
    fan, first, reposter = network["fan"], network["first"], make_user().uid
    reactions.like(fan, first)
    reactions.like(reposter, network["second"])
    reactions.repost(reposter, first)
    reactions.repost(fan, first)
    posting.delete_status(network["author"], first)
    call_command("worker", burst=True)
    assert mark_sets(redis_conn, fan) == (set(), set())
    assert mark_sets(redis_conn, reposter) == ({network["second"]}, set())


def test_a_moderator_removing_a_repost_takes_back_its_mark(network, redis_conn):
    repost = reactions.repost(network["fan"], network["first"])
    assert posting.remove_status(repost)
    assert mark_sets(redis_conn, network["fan"]) == (set(), set())
    assert marked(network["fan"], network["first"]) == [(False, False)]


@pytest.mark.django_db
def test_closing_an_account_takes_its_marks_and_the_marks_of_its_statuses(
    network, make_user, redis_conn
):
    fan, author, first = network["fan"], network["author"], network["first"]
    leaving = make_user("leaving").uid
    theirs = posting.post_status(leaving, "liked and reposted by fan")
    reactions.like(fan, theirs)
    reactions.repost(fan, theirs)
    reactions.like(leaving, first)
    reactions.repost(leaving, first)
    reactions.like(fan, first)

    account_services.close_account(leaving)
    call_command("worker", burst=True)

    assert redis_conn.exists(keys.liked_key(leaving), keys.reposted_key(leaving)) == 0
    assert mark_sets(redis_conn, fan) == ({first}, set())
    assert marked(author, first) == [(False, False)]
    assert maintenance.repair().findings == []


def test_a_pages_marks_are_five_reads_in_the_viewers_slot(network):
    # Liked, reposted, keep's bookmarked and pinned (timeline.keeps), and the votes in
    # polls (timeline.polls).
    ids = [network["first"], network["second"], *range(10**6, 10**6 + 28)]
    pipe = PackedPipeline(get_redis())
    read = marks.queue_marks(pipe, network["fan"], ids)
    assert len(pipe.execute()) == 5
    assert len(read.liked.value) == len(read.reposted.value) == len(read.voted.value) == 30
    assert len(read.bookmarked.value) == len(read.pinned.value) == 30
    assert marks.queue_marks(pipe, None, ids) == marks.MarksRead()
    assert pipe.execute() == []


def test_a_home_page_with_marks_takes_the_round_trips_it_did(network, round_trips):
    fan = network["fan"]
    reactions.like(fan, network["first"])
    reactions.repost(network["other"], network["second"])
    feeds.home_page(fan)
    assert round_trips(lambda: feeds.home_page(fan)) == 2
    # One more for the originals of the reposts it shows (and their marks): a repost of a
    # status not on the page (one of a status there is left out, the original shown once).
    reactions.repost(fan, posting.post_status(network["other"], "elsewhere"))
    feeds.home_page(fan)
    assert round_trips(lambda: feeds.home_page(fan)) == 3


def old_data(redis_conn, *uids: int) -> None:
    """Leaves Redis as a version from before the marks (and data versions) did: likes and
    reposts, no marks."""
    for uid in uids:
        redis_conn.delete(keys.liked_key(uid))
        redis_conn.delete(keys.reposted_key(uid))
    redis_conn.delete(keys.DATA_VERSION)


def test_the_data_migration_marks_likes_and_reposts_kept_before_the_marks(
    network, make_user, redis_conn, capsys
):
    fan, reposter, first, second = (
        network["fan"],
        make_user().uid,
        network["first"],
        network["second"],
    )
    reactions.like(fan, first)
    reactions.like(reposter, first)
    reactions.like(reposter, second)
    reactions.repost(reposter, first)
    reactions.repost(fan, second)
    old_data(redis_conn, fan, reposter)
    # Unbuilt marks read as no likes: the build must run before serving (manage.py migrate).
    assert marked(fan, first, second) == [(False, False), (False, False)]

    call_command("migrate", verbosity=0)

    assert "set right" in capsys.readouterr().out
    assert marked(fan, first, second) == [(True, False), (False, True)]
    assert mark_sets(redis_conn, reposter) == ({first, second}, {first})
    call_command("migrate", verbosity=0)
    assert capsys.readouterr().out == ""  # built already
    assert marks_sync.check_marks(fix=False).findings == []


@pytest.mark.django_db
def test_a_new_site_has_no_marks_to_build_and_is_recorded_as_new(redis_conn, capsys):
    call_command("migrate", verbosity=0)
    assert capsys.readouterr().out == ""
    checked = marks_sync.check_marks(fix=False).checked
    assert checked == {"liked sets": 0, "repost claims": 0, "repost marks": 0}
    assert redis_conn.get(keys.DATA_VERSION) is not None


def test_repair_finds_marks_that_differ_from_likes_and_reposts_and_fixes_them(network, redis_conn):
    fan, first, second = network["fan"], network["first"], network["second"]
    reactions.like(fan, first)
    reactions.repost(fan, first)
    reactions.repost(network["other"], second)
    redis_conn.sadd(keys.liked_key(fan), second)  # a mark with no like
    redis_conn.srem(keys.reposted_key(fan), first)  # a repost with no mark
    redis_conn.sadd(keys.reposted_key(fan), second)  # a mark with no repost
    redis_conn.sadd(keys.liked_key(network["other"]), first)  # marks with no likes page

    report = maintenance.repair()

    found = sorted((f.key, f.problem) for f in report.findings if f.check == "marks")
    assert found == [
        (keys.liked_key(fan), "marks 1 statuses not liked"),
        (keys.liked_key(network["other"]), "marks 1 statuses not liked"),
        (keys.reposted_key(fan), f"marks status {second}, which they haven't reposted"),
        (keys.reposted_key(fan), f"misses status {first}, which they reposted"),
    ]
    assert len(report.findings) == 4
    assert report.checked["repost claims"] == 2
    assert mark_sets(redis_conn, fan) == ({first, second}, {second})  # reported, not fixed

    maintenance.repair(fix=True)

    assert mark_sets(redis_conn, fan) == ({first}, {first})
    assert mark_sets(redis_conn, network["other"]) == (set(), {second})
    assert maintenance.repair().findings == []
