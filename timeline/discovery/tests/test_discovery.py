import time

from django.core.management import call_command
from django.test import override_settings

from socialsite import jobs
from timeline.discovery import activity, suggestions, trends
from timeline.feeds import selectors as feeds
from timeline.follow_sets import following
from timeline.graph import services as graph
from timeline.posting import services as posting
from timeline.safety import services as safety
from timeline.tests.pages import page_text, shows


def logins(people: list[dict]) -> list[str]:
    return [p["login"] for p in people]


def jobs_unfinished() -> int:
    """Jobs queued or in progress."""
    stats = jobs.queue_stats()
    return stats["queued"] + stats["in_progress"]


def test_friends_of_friends_are_ranked_by_how_many_you_follow_follow_them(make_user):
    me, a, b, c = (make_user(name) for name in ("mia", "ann", "ben", "cat"))
    x, y = make_user("xavier"), make_user("yolanda")
    for friend in (a, b, c):
        graph.follow_user(me.uid, friend.uid)
        graph.follow_user(friend.uid, x.uid)
    graph.follow_user(a.uid, y.uid)
    graph.follow_user(a.uid, me.uid)  # never yourself
    found = suggestions.store_suggestions(me.uid)
    assert found[:2] == [(x.uid, 3), (y.uid, 1)]
    assert me.uid not in [uid for uid, _ in found]
    assert {a.uid, b.uid, c.uid}.isdisjoint(uid for uid, _ in found)


def test_follows_kept_in_buckets_are_read_for_suggestions(redis_conn, make_user):
    me, a, b, c = (make_user(name) for name in ("mia", "ann", "ben", "cat"))
    x, y = make_user("xavier"), make_user("yolanda")
    with override_settings(FOLLOWING_SPLIT=2):
        for friend in (a, b, c):
            graph.follow_user(me.uid, friend.uid)
            graph.follow_user(friend.uid, x.uid)
        for other in (b, c, y):
            graph.follow_user(a.uid, other.uid)
    # Past the split their follows moved into buckets; a's newest is in the base again
    # (follow_sets.following).
    assert following.kept_in(redis_conn, me.uid) == (0, 3)
    assert following.kept_in(redis_conn, a.uid) == (1, 3)
    found = suggestions.store_suggestions(me.uid)
    assert found[:2] == [(x.uid, 3), (y.uid, 1)]
    assert {me.uid, a.uid, b.uid, c.uid}.isdisjoint(uid for uid, _ in found)


def test_new_users_are_suggested_popular_accounts(make_user):
    star, known = make_user("star"), make_user("known")
    fans = [make_user() for _ in range(3)]
    for fan in fans:
        graph.follow_user(fan.uid, star.uid)
    graph.follow_user(fans[0].uid, known.uid)
    newcomer = make_user("newcomer")
    found = suggestions.store_suggestions(newcomer.uid)
    assert found[:2] == [(star.uid, 0), (known.uid, 0)]


def test_nobody_blocked_blocking_or_muted_is_suggested(make_user):
    me, friend = make_user("mia"), make_user("ann")
    blocked, blocking, muted, fine = (make_user(n) for n in ("bo", "bea", "max", "fay"))
    graph.follow_user(me.uid, friend.uid)
    for other in (blocked, blocking, muted, fine):
        graph.follow_user(friend.uid, other.uid)
    safety.block(me.uid, blocked.uid)
    safety.block(blocking.uid, me.uid)
    safety.mute(me.uid, muted.uid)
    assert [uid for uid, _ in suggestions.store_suggestions(me.uid)] == [fine.uid]


def test_unfollows_lower_an_accounts_popularity(make_user):
    star, fan = make_user("star"), make_user("fan")
    graph.follow_user(fan.uid, star.uid)
    assert suggestions.popularity(star.uid) == 1
    graph.unfollow_user(fan.uid, star.uid)
    assert suggestions.popularity(star.uid) == 0


def test_home_queues_the_job_then_shows_the_suggestions(make_user):
    me, friend, other = make_user("mia"), make_user("friend"), make_user("other")
    graph.follow_user(me.uid, friend.uid)
    graph.follow_user(friend.uid, other.uid)
    assert feeds.home_page(me.uid).suggestions == []
    call_command("worker", burst=True)
    assert logins(feeds.home_page(me.uid).suggestions) == ["other"]
    graph.follow_user(me.uid, other.uid)
    assert feeds.home_page(me.uid).suggestions == []


def test_dismissed_suggestions_are_never_shown_again(make_user):
    me, friend = make_user("mia"), make_user("friend")
    one, two = make_user("one"), make_user("two")
    graph.follow_user(me.uid, friend.uid)
    graph.follow_user(friend.uid, one.uid)
    graph.follow_user(friend.uid, two.uid)
    suggestions.store_suggestions(me.uid)
    response = me.client.post("/suggestions/one/dismiss/", {"next": "/"})
    assert response.status_code == 302 and response["Location"] == "/"
    assert logins(feeds.home_page(me.uid).suggestions) == ["two"]
    suggestions.store_suggestions(me.uid)
    assert logins(feeds.home_page(me.uid).suggestions) == ["two"]


def test_dismissing_an_unknown_login_is_not_found(alice):
    assert alice.client.post("/suggestions/nobody/dismiss/").status_code == 404


def test_a_user_with_nothing_to_suggest_is_not_worked_out_at_every_page(alice):
    assert suggestions.store_suggestions(alice.uid) == []
    feeds.home_page(alice.uid)
    assert jobs_unfinished() == 0


def test_the_home_page_shows_suggestions_and_trending_tags(redis_conn, make_user):
    me, friend, other = make_user("mia"), make_user("friend"), make_user("other")
    graph.follow_user(me.uid, friend.uid)
    graph.follow_user(friend.uid, other.uid)
    suggestions.store_suggestions(me.uid)
    status_id = posting.post_status(friend.uid, "#redis is fun")
    activity.record(
        redis_conn, {"id": status_id, "posted": time.time(), "message": "#redis is fun"}
    )
    trends.forget()
    response = me.client.get("/")
    assert shows(response, "Who to follow")
    assert "/u/other/follow/" in page_text(response)
    assert "/suggestions/other/dismiss/" in page_text(response)
    assert shows(response, "Trending #redis 1")
    assert 'href="/tags/redis/"' in page_text(response)


def test_home_queues_one_job_until_it_is_done(alice):
    feeds.home_page(alice.uid)
    feeds.home_page(alice.uid)
    assert jobs_unfinished() == 1
