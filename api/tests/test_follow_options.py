"""POST /api/v1/accounts/:id/follow with Mastodon's `reblogs` and `notify`: kept, shown
in the Relationship (showing_reblogs, notifying), changed on an existing follow, bad
values refused before anything changes."""

from socialsite import jobs
from timeline.follow_sets import options as follow_options
from timeline.posting.services import post_status


def test_follow_with_options_keeps_them_and_the_relationship_says_so(alice, bob, api_as):
    as_alice = api_as(alice)
    path = f"/api/v1/accounts/{bob.uid}/follow"
    status_code, relation, _ = as_alice("post", path, {"reblogs": False, "notify": True})
    assert status_code == 200
    assert (relation["following"], relation["showing_reblogs"], relation["notifying"]) == (
        True,
        False,
        True,
    )
    _, (again,), _ = as_alice("get", f"/api/v1/accounts/relationships?id[]={bob.uid}")
    assert (again["showing_reblogs"], again["notifying"]) == (False, True)
    # Following again changes the options alone (a form's strings, as toot sends).
    _, changed, _ = as_alice("post", path + "?reblogs=true&notify=false")
    assert (changed["showing_reblogs"], changed["notifying"]) == (True, False)
    assert follow_options.options_of(alice.uid, [bob.uid]) == [(True, False)]


def test_a_notify_follow_gets_a_status_notification(alice, bob, api_as):
    api_as(alice)("post", f"/api/v1/accounts/{bob.uid}/follow", {"notify": True})
    posted = post_status(bob.uid, "news")
    jobs.work(burst=True)
    _, found, _ = api_as(alice)("get", "/api/v1/notifications?types[]=status")
    assert [(n["type"], n["account"]["username"], n["status"]["id"]) for n in found] == [
        ("status", "bob", str(posted))
    ]


def test_a_bad_option_is_422_and_follows_no_one(alice, bob, api_as):
    as_alice = api_as(alice)
    status_code, body, _ = as_alice(
        "post", f"/api/v1/accounts/{bob.uid}/follow", {"reblogs": "maybe"}
    )
    assert status_code == 422 and "reblogs" in body["error"]
    _, (relation,), _ = as_alice("get", f"/api/v1/accounts/relationships?id[]={bob.uid}")
    assert relation["following"] is False and relation["showing_reblogs"] is False
