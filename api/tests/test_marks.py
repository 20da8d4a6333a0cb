"""The client API's favourited and reblogged come from the reader's marks
(timeline.statuses.marks): on a status, in a home timeline and on a reblog."""

from socialsite.redis import PackedPipeline
from timeline.graph.services import follow_user
from timeline.posting.services import delete_status, post_status
from timeline.reactions import services as reactions
from timeline.statuses import marks


def test_favourited_and_reblogged_follow_the_readers_likes_and_reposts(alice, bob, api_as):
    as_alice, as_bob = api_as(alice), api_as(bob)
    follow_user(alice.uid, bob.uid)
    liked, reposted = post_status(bob.uid, "liked"), post_status(bob.uid, "reposted")
    reactions.like(alice.uid, liked)
    reactions.repost(alice.uid, reposted)

    status, home, _ = as_alice("get", "/api/v1/timelines/home")
    assert status == 200
    by_id = {entry["id"]: entry for entry in home}
    assert (by_id[str(liked)]["favourited"], by_id[str(liked)]["reblogged"]) == (True, False)
    # Her repost of a status on her home is left out: the original shows it reblogged.
    assert not any(entry["reblog"] for entry in home)
    assert (by_id[str(reposted)]["favourited"], by_id[str(reposted)]["reblogged"]) == (False, True)
    # Another reader's marks are their own.
    _, seen, _ = as_bob("get", f"/api/v1/statuses/{liked}")
    assert (seen["favourited"], seen["reblogged"]) == (False, False)

    assert as_alice("post", f"/api/v1/statuses/{liked}/unfavourite")[1]["favourited"] is False
    assert as_alice("post", f"/api/v1/statuses/{reposted}/unreblog")[1]["reblogged"] is False
    _, seen, _ = as_alice("get", f"/api/v1/statuses/{liked}")
    assert (seen["favourited"], seen["reblogged"]) == (False, False)


def test_favouriting_a_status_that_is_gone_is_404_and_marks_nothing(alice, bob, api_as, redis_conn):
    as_alice = api_as(alice)
    gone = post_status(bob.uid, "soon gone")
    kept = post_status(bob.uid, "kept")
    delete_status(bob.uid, gone)
    assert as_alice("post", f"/api/v1/statuses/{gone}/favourite")[0] == 404
    assert as_alice("post", f"/api/v1/statuses/{gone}/reblog")[0] == 404
    _, seen, _ = as_alice("get", f"/api/v1/statuses/{kept}")
    assert (seen["favourited"], seen["reblogged"]) == (False, False)
    # Neither status marked liked nor reposted.
    pipe = PackedPipeline(redis_conn)
    read = marks.queue_marks(pipe, alice.uid, [gone, kept])
    pipe.execute()
    shown: list = [{}, {}]
    read.apply(shown)
    unmarked = {"liked": False, "reposted": False, "bookmarked": False, "pinned": False}
    assert shown == [unmarked] * 2
