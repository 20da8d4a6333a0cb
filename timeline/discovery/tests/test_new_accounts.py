"""Who to follow for a new account: the most followed and the active accounts, shown
from its first page, before the job that works out its suggestions has run."""

import time

from django.test import Client

from timeline import keys
from timeline.discovery import activity, suggestions
from timeline.feeds import selectors as feeds
from timeline.graph import services as graph
from timeline.posting import services as posting
from timeline.safety import services as safety
from timeline.tests.pages import page_text


def logins(people: list[dict]) -> list[str]:
    return [p["login"] for p in people]


def posted(redis_conn, uid: int, message: str) -> None:
    """`uid` posts, and the activity listener counts it (as a running worker's does)."""
    status_id = posting.post_status(uid, message)
    activity.record(
        redis_conn, {"id": status_id, "uid": uid, "posted": time.time(), "message": message}
    )


def test_a_new_account_sees_whom_to_follow_on_its_first_page(redis_conn, make_user):
    star = make_user("star")
    for _ in range(2):
        graph.follow_user(make_user().uid, star.uid)
    chatty = make_user("chatty")
    posted(redis_conn, chatty.uid, "hello everyone")
    client = Client()
    response = client.post(
        "/accounts/signup/",
        {
            "login": "newbie",
            "name": "",
            "password1": "pw-Long-enough-1",
            "password2": "pw-Long-enough-1",
        },
        follow=True,
    )
    assert response.status_code == 200
    text = page_text(response)
    # No worker has run: these are read with the page itself.
    assert 'id="suggestions"' in text
    assert "/u/star/follow/" in text and "/u/chatty/follow/" in text
    assert text.index("/u/star/follow/") < text.index("/u/chatty/follow/")
    # The welcome points to the directory, not to Global.
    assert 'href="/directory/"' in text


def test_new_accounts_starters_leave_out_the_shunned_and_the_followed(redis_conn, make_user):
    newbie = make_user("newbie")
    blocking, muted, dismissed, fine = (make_user(n) for n in ("bea", "max", "dan", "fay"))
    for other in (blocking, muted, dismissed, fine):
        posted(redis_conn, other.uid, "hi")
    safety.block(blocking.uid, newbie.uid)
    safety.mute(newbie.uid, muted.uid)
    newbie.client.post("/suggestions/dan/dismiss/")
    posted(redis_conn, newbie.uid, "my first")  # never themselves
    assert logins(feeds.home_page(newbie.uid).suggestions) == ["fay"]


def test_starters_are_for_those_who_follow_nobody(redis_conn, make_user):
    me, friend, chatty = make_user("mia"), make_user("friend"), make_user("chatty")
    posted(redis_conn, chatty.uid, "hi")
    assert logins(feeds.home_page(me.uid).suggestions) == ["chatty"]
    graph.follow_user(me.uid, friend.uid)
    feeds.home_page(me.uid)
    # Following someone, they wait for the job's friends of friends (and its starters).
    redis_conn.delete(keys.suggestions_key(me.uid))
    assert feeds.home_page(me.uid).suggestions == []


def test_the_job_suggests_active_accounts_after_the_popular(redis_conn, make_user):
    star, chatty, newbie = make_user("star"), make_user("chatty"), make_user("newbie")
    graph.follow_user(make_user().uid, star.uid)
    posted(redis_conn, chatty.uid, "hi")
    found = [uid for uid, _ in suggestions.store_suggestions(newbie.uid)]
    assert found.index(star.uid) < found.index(chatty.uid)
