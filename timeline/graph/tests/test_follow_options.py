"""Follow options: reposts kept out of home (the fan-out, in the request and by jobs,
and the home's read) and a `status` notification for each new post (by the
notify_subscribers job, through the one visibility rule); the profile page's two
switches; both ended with the follow and with the account."""

import pytest
from django.test import override_settings
from django.urls import reverse

from socialsite import jobs
from socialsite.redis import get_redis
from timeline import keys
from timeline.feeds import home_list
from timeline.feeds.selectors import timeline_page
from timeline.follow_sets import options as follow_options
from timeline.graph import services as graph
from timeline.notifications import selectors
from timeline.posting import services as posting
from timeline.reactions import services as reactions
from timeline.safety import services as safety


def home(uid: int) -> list[tuple[int, int | None]]:
    """(status id, the original it reposts or None) of `uid`'s home, newest first."""
    return [
        (int(s["id"]), int(s["repost_of"]) if s.get("repost_of") else None)
        for s in timeline_page(uid, "home", 1, 50).statuses
    ]


def stored_home(uid: int) -> set[int]:
    """The ids in `uid`'s home as fan-out left it (before the home's read)."""
    found = home_list.queue_window(get_redis(), uid, -1)
    return set(map(int, home_list.newest_first(found)))


def kinds(uid: int) -> list[tuple[str, list[str]]]:
    return [(n.kind, n.logins) for n in selectors.notifications_page(uid, 1, 40).notifications]


@override_settings(POSTS_PER_PASS=2, FAN_OUT_JOB_SIZE=2)
def test_reblogs_off_keeps_their_reposts_out_of_home_by_request_and_by_job(alice, bob, make_user):
    carol = make_user("carol")
    fans = [make_user(f"fan{i}") for i in range(4)]
    for follower in [alice, *fans]:
        graph.follow_user(follower.uid, bob.uid)
    follow_options.set_options(alice.uid, bob.uid, reblogs=False)
    follow_options.set_options(fans[3].uid, bob.uid, reblogs=False)
    original = posting.post_status(carol.uid, "worth sharing")
    repost = reactions.repost(bob.uid, original)
    own = posting.post_status(bob.uid, "my own words")
    jobs.work(burst=True)
    assert home(alice.uid) == [(own, None)]
    assert home(fans[3].uid) == [(own, None)]
    # Kept out by the fan-out itself: in the request (alice) and by the job (fan3).
    assert repost not in stored_home(alice.uid) | stored_home(fans[3].uid)
    assert {(repost, original), (own, None)} <= set(home(fans[0].uid))
    assert (repost, original) in home(fans[2].uid)  # reached by the job, not the request


def test_reblogs_off_hides_reposts_home_had_already_and_on_shows_them(alice, bob, make_user):
    carol = make_user("carol")
    graph.follow_user(alice.uid, bob.uid)
    repost = reactions.repost(bob.uid, posting.post_status(carol.uid, "shared"))
    assert [r for r, _ in home(alice.uid)] == [repost]
    follow_options.set_options(alice.uid, bob.uid, reblogs=False)
    assert home(alice.uid) == []
    follow_options.set_options(alice.uid, bob.uid, reblogs=True)
    assert [r for r, _ in home(alice.uid)] == [repost]


@override_settings(SUBSCRIBERS_PER_JOB=2)
def test_notify_on_tells_each_subscriber_who_may_see_it_by_jobs(alice, bob, make_user):
    subscribers = [make_user(f"sub{i}") for i in range(5)]
    for follower in [alice, *subscribers]:
        graph.follow_user(follower.uid, bob.uid)
    for follower in subscribers:
        follow_options.set_options(follower.uid, bob.uid, notify=True)
    # One blocked since; one who no longer follows (removed as a follower).
    safety.block(bob.uid, subscribers[0].uid)
    safety.remove_follower(bob.uid, subscribers[1].uid)
    posted = posting.post_status(bob.uid, "news")
    posting.post_status(bob.uid, "a thread of mine", in_reply_to=posted)
    posting.post_status(bob.uid, "@alice not news", in_reply_to=None)
    jobs.work(burst=True)
    for told in subscribers[2:]:
        notes = selectors.notifications_page(told.uid, 1, 40).notifications
        assert [(n.kind, n.logins) for n in notes] == [("status", ["bob"])] * 3
        assert notes[-1].status["id"] == posted
    assert kinds(subscribers[0].uid) == [] and kinds(subscribers[1].uid) == []
    assert ("status", ["bob"]) not in kinds(alice.uid)


def test_notify_on_skips_reposts_and_replies_to_others_and_a_direct_post(make_user, alice, bob):
    carol = make_user("carol")
    graph.follow_user(alice.uid, bob.uid)
    follow_options.set_options(alice.uid, bob.uid, notify=True)
    original = posting.post_status(carol.uid, "hello")
    reactions.repost(bob.uid, original)
    posting.post_status(bob.uid, "reply to carol", in_reply_to=original)
    posting.post_status(bob.uid, "only @carol", visibility="direct")
    jobs.work(burst=True)
    assert kinds(alice.uid) == []


def test_unfollowing_ends_the_options_and_a_new_follow_starts_plain(alice, bob, redis_conn):
    graph.follow_user(alice.uid, bob.uid)
    follow_options.set_options(alice.uid, bob.uid, reblogs=False, notify=True)
    assert follow_options.options_of(alice.uid, [bob.uid]) == [(False, True)]
    graph.unfollow_user(alice.uid, bob.uid)
    graph.follow_user(alice.uid, bob.uid)
    assert follow_options.options_of(alice.uid, [bob.uid]) == [(True, False)]
    assert not redis_conn.exists(keys.subscribers_key(bob.uid))
    assert not redis_conn.exists(keys.reposts_hidden_from_key(bob.uid))


def test_a_closed_account_leaves_no_options_either_side(alice, bob, make_user, redis_conn):
    carol = make_user("carol")
    graph.follow_user(alice.uid, bob.uid)
    graph.follow_user(bob.uid, carol.uid)
    follow_options.set_options(alice.uid, bob.uid, reblogs=False, notify=True)
    follow_options.set_options(bob.uid, carol.uid, reblogs=False, notify=True)
    follow_options.forget_account(bob.uid)
    for key in (
        keys.hidden_reposters_key(alice.uid),
        keys.notified_of_key(alice.uid),
        keys.reposts_hidden_from_key(carol.uid),
        keys.subscribers_key(carol.uid),
        keys.hidden_reposters_key(bob.uid),
        keys.subscribers_key(bob.uid),
    ):
        assert not redis_conn.exists(key), key


@pytest.mark.django_db
def test_the_profile_page_shows_and_sets_both_switches(alice, bob):
    page = reverse("profile", args=["bob"])
    assert "Notify me when they post" not in alice.client.get(page).content.decode()
    graph.follow_user(alice.uid, bob.uid)
    shown = alice.client.get(page).content.decode()
    assert 'name="reposts" value="1" checked' in shown
    assert 'name="notify" value="1">' in shown
    action = reverse("follow_options", args=["bob"])
    response = alice.client.post(action, {"notify": "1", "next": page})
    assert response.status_code == 302 and response.url == page
    assert follow_options.options_of(alice.uid, [bob.uid]) == [(False, True)]
    shown = alice.client.get(page).content.decode()
    assert 'name="reposts" value="1">' in shown and 'name="notify" value="1" checked' in shown
    # Only a follow has options; a GET changes nothing.
    graph.unfollow_user(alice.uid, bob.uid)
    assert alice.client.post(action, {"notify": "1"}).status_code == 400
    assert follow_options.options_of(alice.uid, [bob.uid]) == [(True, False)]
    assert alice.client.get(action).status_code == 405


def test_repair_makes_the_followed_side_agree_with_the_followers(alice, bob, redis_conn):
    from timeline.ops.maintenance import repair

    graph.follow_user(alice.uid, bob.uid)
    follow_options.set_options(alice.uid, bob.uid, reblogs=False, notify=True)
    redis_conn.srem(keys.reposts_hidden_from_key(bob.uid), alice.uid)
    redis_conn.zadd(keys.subscribers_key(alice.uid), {str(bob.uid): 1})
    found = [f for f in repair(fix=True).findings if f.check == "follow options"]
    assert len(found) == 2
    assert redis_conn.sismember(keys.reposts_hidden_from_key(bob.uid), alice.uid)
    assert not redis_conn.exists(keys.subscribers_key(alice.uid))
    assert [f for f in repair().findings if f.check == "follow options"] == []


def test_the_export_lists_the_follows_with_options(alice, bob):
    import json

    from timeline.export.selectors import export_chunks

    graph.follow_user(alice.uid, bob.uid)
    follow_options.set_options(alice.uid, bob.uid, notify=True)
    exported = json.loads("".join(export_chunks(alice.uid, now=0)))
    assert exported["follow_options"] == [{"login": "bob", "show_reposts": True, "notify": True}]


@pytest.mark.django_db
def test_the_notifications_page_shows_a_new_post_of_someone_notifying(alice, bob):
    graph.follow_user(alice.uid, bob.uid)
    follow_options.set_options(alice.uid, bob.uid, notify=True)
    posting.post_status(bob.uid, "fresh from bob")
    jobs.work(burst=True)
    page = alice.client.get(reverse("notifications")).content.decode()
    assert "@bob</a> posted" in page or "@bob posted" in page
    assert "fresh from bob" in page and "New post" in page
