"""Each action a hostile account could repeat is rate limited per account: past its
limit the page says so with 429 and Retry-After, and nothing in Redis changes (but
the limit's own key)."""

import pytest
from django.test import override_settings
from django.urls import reverse

from timeline.posting.services import post_status
from timeline.tests.pages import shows


def keyspace(redis_conn) -> dict:
    """Every key but the rate limits' and the cache's (sessions, the cached user), with
    its value as DUMP serializes it."""
    return {
        key: redis_conn.dump(key)
        for key in redis_conn.scan_iter(count=1000)
        if not key.startswith(("ratelimit:", ":1:cache"))
    }


def status_of(member) -> int:
    return post_status(member.uid, "something to react to")


# name: (limit, what its message calls it, the first request (allowed: it may still be
# refused for another reason, e.g. unliking what isn't liked, and it counts), the
# second (over the limit)), each request (URL name, URL args, POST data)
ACTIONS = {
    "post then post": ("posts", "posts", ("post_status", [], {"message": "one"}),
                       ("post_status", [], {"message": "two"})),
    "post then reply": ("posts", "posts", ("post_status", [], {"message": "one"}),
                        ("reply", ["status"], {"message": "a reply"})),
    "follow then unfollow": ("follows", "follows and unfollows",
                             ("follow", ["bob"], {}), ("unfollow", ["bob"], {})),
    "like then repost": ("reactions", "likes and reposts",
                         ("like", ["status"], {}), ("repost", ["status"], {})),
    "unlike then undo repost": ("reactions", "likes and reposts",
                                ("unlike", ["status"], {}), ("unrepost", ["status"], {})),
    "list made then another": ("list_changes", "list changes",
                               ("lists", [], {"name": "one"}), ("lists", [], {"name": "two"})),
    "list made then add to list from a profile": (
        "list_changes", "list changes", ("lists", [], {"name": "one"}),
        ("list_membership", ["bob"], {"list_id": "1", "action": "add"})),
    "message then another": ("messages", "messages",
                             ("new_conversation", [], {"to": "bob", "message": "one"}),
                             ("new_conversation", [], {"to": "bob", "message": "two"})),
    "password change tries": ("password_changes", "password changes",
                              ("accounts:change_password", [], {"old_password": "wrong"}),
                              ("accounts:change_password", [], {"old_password": "wrong"})),
    "stream key then another": ("stream_keys", "stream keys made",
                                ("streaming:create_key", [], {"name": "one"}),
                                ("streaming:create_key", [], {"name": "two"})),
    "block then mute": ("safety", "blocks and mutes",
                        ("block", ["bob"], {}), ("mute", ["bob"], {"duration": "0"})),
    "follow then approve a request": ("follows", "follows and unfollows",
                                      ("follow", ["bob"], {}), ("approve_request", ["bob"], {})),
    "privacy settings then unblock": ("safety", "blocks and mutes",
                                      ("privacy", [], {"muted_words": "x"}),
                                      ("unblock", ["bob"], {})),
    "posting settings then another": ("settings_changes", "settings changes",
                                      ("posting_settings", [], {"default_visibility": "unlisted"}),
                                      ("posting_settings", [], {"default_visibility": "direct"})),
    "direct post then a warned one": ("posts", "posts",
                                      ("post_status", [], {"message": "hi @bob",
                                                           "visibility": "direct"}),
                                      ("post_status", [], {"message": "two",
                                                           "spoiler_text": "CW"})),
    "report then another": ("reports", "reports",
                            ("report_user", ["bob"], {"reason": "spam"}),
                            ("report_status", ["status"], {"reason": "spam"})),
}  # fmt: skip


@pytest.mark.parametrize("action", ACTIONS, ids=list(ACTIONS))
def test_past_its_limit_an_action_is_refused_with_429_and_changes_nothing(
    action, alice, bob, redis_conn, settings
):
    limit, what, first, second = ACTIONS[action]
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, limit: (1, 600)}
    named = {"status": status_of(bob), "bob": bob.login}

    def send(request):
        name, args, data = request
        return alice.client.post(reverse(name, args=[named[arg] for arg in args]), data)

    assert send(first).status_code != 429
    before = keyspace(redis_conn)
    refused = send(second)
    assert refused.status_code == 429
    # Counted from a clock: the time the test has taken comes off the 600 s.
    assert 590 <= int(refused["Retry-After"]) <= 600
    assert shows(refused, f"Too many {what} for now: try again in 10 minutes.")
    assert keyspace(redis_conn) == before


def test_limits_are_per_account(alice, bob, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "posts": (1, 600)}
    assert alice.client.post(reverse("post_status"), {"message": "one"}).status_code == 302
    assert alice.client.post(reverse("post_status"), {"message": "two"}).status_code == 429
    assert bob.client.post(reverse("post_status"), {"message": "mine"}).status_code == 302


@override_settings(RATE_LIMITS={"posts": (1, 600)})
def test_a_visitor_is_sent_to_log_in_not_counted(client, redis_conn):
    for _ in range(3):
        assert client.post(reverse("post_status"), {"message": "hi"}).status_code == 302
    assert not list(redis_conn.scan_iter("ratelimit:*"))
