"""An account's statuses with Mastodon's filters: exclude_replies (self-threads kept),
exclude_reblogs, tagged, only_media (none yet: statuses have no media), with paging
that skips nothing, and bad input."""

from timeline.posting.services import post_status
from timeline.reactions.services import repost


def ids_of(page: list[dict]) -> list[int]:
    return [int(s["id"]) for s in page]


def test_replies_and_reblogs_are_left_out_when_asked(alice, bob, api_as):
    theirs = post_status(bob.uid, "bob's")
    own = post_status(alice.uid, "a thread #redis")
    reply = post_status(alice.uid, "@bob answering", in_reply_to=theirs)
    thread = post_status(alice.uid, "and more", in_reply_to=own)
    reblog = repost(alice.uid, theirs)
    as_bob = api_as(bob)
    path = f"/api/v1/accounts/{alice.uid}/statuses"
    assert ids_of(as_bob("get", path)[1]) == [reblog, thread, reply, own]
    assert ids_of(as_bob("get", path, {"exclude_replies": "true"})[1]) == [reblog, thread, own]
    assert ids_of(as_bob("get", path, {"exclude_reblogs": "1"})[1]) == [thread, reply, own]
    both = {"exclude_replies": "true", "exclude_reblogs": "true"}
    assert ids_of(as_bob("get", path, both)[1]) == [thread, own]
    assert ids_of(as_bob("get", path, {"tagged": "Redis"})[1]) == [own]
    assert as_bob("get", path, {"only_media": "true"})[1] == []


def test_a_filtered_page_links_on_from_where_it_stopped(alice, bob, api_as):
    posted = []
    for n in range(12):
        posted.append(post_status(alice.uid, f"#keep {n}" if n % 3 == 0 else f"other {n}"))
    kept = [s for n, s in enumerate(posted) if n % 3 == 0][::-1]
    as_bob = api_as(bob)
    path = f"/api/v1/accounts/{alice.uid}/statuses"
    seen: list[int] = []
    query: dict = {"tagged": "keep", "limit": 2}
    while True:
        status, page, response = as_bob("get", path, query)
        assert status == 200
        seen += ids_of(page)
        link = response.get("Link", "")
        if 'rel="next"' not in link:
            break
        next_url = link.split(">")[0].lstrip("<")
        query = dict(part.split("=") for part in next_url.split("?")[1].split("&"))
    assert seen == kept


def test_a_bad_tag_is_422(alice, bob, api_as):
    status, body, _ = api_as(bob)("get", f"/api/v1/accounts/{alice.uid}/statuses", {"tagged": "#"})
    assert status == 422 and set(body) == {"error"}


def test_account_statuses_filters_with_mastodon_py(mastodon_as):
    alice, bob = mastodon_as("alice"), mastodon_as("bob")
    theirs = bob.status_post("bob's")
    own = alice.status_post("about #python")
    alice.status_post("@bob a reply", in_reply_to_id=theirs.id)
    alice.status_reblog(theirs.id)
    me = alice.account_verify_credentials().id
    assert [s.id for s in bob.account_statuses(me, exclude_replies=True, exclude_reblogs=True)] == [
        own.id
    ]
    assert [s.id for s in bob.account_statuses(me, tagged="python")] == [own.id]
    assert bob.account_statuses(me, only_media=True) == []
