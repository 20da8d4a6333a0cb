"""The repair of bookmarks, followed tags and pins (ops.keeps, ops.pairings.BOOKMARKS)."""

from socialsite import jobs
from timeline import keys
from timeline.keeps import selectors, services
from timeline.ops import maintenance
from timeline.posting import services as posting


def checks(report) -> list[tuple[str, str]]:
    return sorted((finding.check, finding.key) for finding in report.findings)


def test_repair_finds_nothing_wrong_with_healthy_keeps(make_user):
    author, reader = make_user().uid, make_user().uid
    status_id = posting.post_status(author, "#redis")
    services.bookmark(reader, status_id)
    services.pin(author, status_id)
    services.follow_tag(reader, "redis")
    jobs.work(burst=True)
    assert maintenance.repair().findings == []


def test_repair_mends_bookmarks_and_their_marks(make_user, redis_conn):
    author, reader = make_user().uid, make_user().uid
    kept, gone = posting.post_status(author, "kept"), posting.post_status(author, "gone")
    services.bookmark(reader, kept)
    services.bookmark(reader, gone)
    # A deletion whose job never ran, and a mark and a bookmarker lost.
    redis_conn.delete(keys.status_key(gone))
    redis_conn.srem(keys.bookmarked_key(reader), kept)
    redis_conn.zrem(keys.bookmarkers_key(kept), reader)
    found = checks(maintenance.repair())
    assert ("keeps", keys.bookmarked_key(reader)) in found
    assert ("keeps", keys.bookmarkers_key(kept)) in found
    maintenance.repair(fix=True)
    assert maintenance.repair().findings == []
    assert selectors.bookmarked_ids(reader) == [kept]
    assert redis_conn.smembers(keys.bookmarked_key(reader)) == {str(kept)}


def test_repair_mends_followed_tags_recorded_on_one_side(make_user, redis_conn):
    reader, stranger = make_user().uid, make_user().uid
    services.follow_tag(reader, "redis")
    redis_conn.zrem(keys.tag_followers_key("redis"), reader)
    redis_conn.zadd(keys.tag_followers_key("redis"), {stranger: 1})
    report = maintenance.repair(fix=True)
    assert [f.problem for f in report.findings] == [
        f"misses follower {reader}",
        f"lists follower {stranger}, who doesn't follow #redis",
    ]
    assert selectors.tag_follower_uids("redis") == [reader]
    assert maintenance.repair().findings == []


def test_repair_drops_pins_of_statuses_gone_or_not_theirs(make_user, redis_conn):
    author, other = make_user().uid, make_user().uid
    mine, theirs = posting.post_status(author, "mine"), posting.post_status(other, "theirs")
    services.pin(author, mine)
    redis_conn.zadd(keys.pins_key(author), {theirs: 1, 10**6: 2})
    report = maintenance.repair(fix=True)
    assert checks(report) == [("keeps", keys.pins_key(author))]
    assert selectors.pinned_ids(author) == [str(mine)]
