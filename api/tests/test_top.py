"""`GET /api/v1/timelines/home?order=top`: the home ordered by importance."""

from timeline.graph import services as graph
from timeline.posting import services as posting
from timeline.reactions import services as reactions


def test_order_top_ranks_the_home_and_pages_by_offset(make_user, api_as):
    reader, friend, other = make_user("reader"), make_user("friend"), make_user("other")
    graph.follow_user(reader.uid, friend.uid)
    graph.follow_user(reader.uid, other.uid)
    reactions.like(reader.uid, posting.post_status(friend.uid, "liked"))
    posting.post_status(friend.uid, "friend earlier")
    posting.post_status(other.uid, "other later")
    call = api_as(reader)
    status, latest, _ = call("get", "/api/v1/timelines/home")
    assert status == 200
    assert [s["content"] for s in latest][:2] == ["<p>other later</p>", "<p>friend earlier</p>"]
    status, ranked, response = call("get", "/api/v1/timelines/home?order=top&limit=2")
    assert status == 200
    assert [s["account"]["acct"] for s in ranked] == ["friend", "friend"]
    assert 'offset=2>; rel="next"' in response["Link"]
    status, rest, response = call("get", "/api/v1/timelines/home?order=top&limit=2&offset=2")
    assert [s["content"] for s in rest] == ["<p>other later</p>"]
    assert "Link" not in response


def test_an_unknown_order_or_a_bad_offset_is_a_422(make_user, api_as):
    call = api_as(make_user())
    status, body, _ = call("get", "/api/v1/timelines/home?order=best")
    assert (status, body) == (422, {"error": "order must be latest or top."})
    status, body, _ = call("get", "/api/v1/timelines/home?order=top&offset=-1")
    assert status == 422 and "offset" in body["error"]
