"""Notifications about people: a follow request shows on the page with Approve and Turn
down, and counts on the badge; "followed you" has follow-back buttons; each line has its
kind and the avatars of those who acted."""

import io

from django.urls import reverse
from PIL import Image

from accounts import profiles
from accounts.avatars import avatar_url
from timeline.graph import services as graph
from timeline.notifications.selectors import unread_counts
from timeline.posting import services as posting
from timeline.reactions import services as reactions
from timeline.safety import services as safety
from timeline.tests.pages import page_text, shows


def badge(response) -> str:
    text = page_text(response)
    start = text.index('id="nav-unread-notifications"')
    return text[text.index(">", start) + 1 : text.index("<", start)]


def test_a_follow_request_counts_on_the_badge_and_is_answered_on_the_page(alice, bob):
    safety.set_private(alice.uid, True)
    assert graph.follow_user(bob.uid, alice.uid) is False
    assert badge(alice.client.get(reverse("home"))) == "1"
    response = alice.client.get(reverse("notifications"))
    assert shows(response, "@bob asked to follow you")
    text = page_text(response)
    assert 'formaction="/follow-requests/bob/approve/"' in text
    assert 'formaction="/follow-requests/bob/reject/"' in text
    assert shows(response, "1 person asks to follow you")
    answered = alice.client.post(
        "/follow-requests/bob/approve/", {"next": reverse("notifications")}
    )
    assert answered["Location"] == reverse("notifications")
    after = alice.client.get(reverse("notifications"))
    assert not shows(after, "asked to follow you")
    assert shows(after, "@bob followed you")


def test_a_follow_request_taken_back_or_turned_down_leaves_the_page(alice, bob, make_user):
    carol = make_user("carol")
    safety.set_private(alice.uid, True)
    graph.follow_user(bob.uid, alice.uid)
    graph.follow_user(carol.uid, alice.uid)
    assert unread_counts(alice.uid)["notifications"] == 2
    graph.cancel_request(bob.uid, alice.uid)
    alice.client.post("/follow-requests/carol/reject/")
    response = alice.client.get(reverse("notifications"))
    assert not shows(response, "asked to follow you")
    assert 'id="follow-requests-summary"' not in page_text(response)


def test_followed_you_has_a_follow_back_button_until_you_do(alice, bob):
    graph.follow_user(bob.uid, alice.uid)
    text = page_text(alice.client.get(reverse("notifications")))
    assert 'formaction="/u/bob/follow/"' in text
    assert "Follow back" in text
    graph.follow_user(alice.uid, bob.uid)
    text = page_text(alice.client.get(reverse("notifications")))
    assert 'formaction="/u/bob/follow/"' not in text


def test_each_notification_shows_its_kind_and_the_avatars_of_who_acted(alice, bob):
    token = profiles.set_avatar(bob.uid, tiny_png())
    status = posting.post_status(alice.uid, "my status")
    reactions.like(bob.uid, status)
    reactions.repost(bob.uid, status)
    posting.post_status(bob.uid, "hey @alice")
    text = page_text(alice.client.get(reverse("notifications")))
    for kind in ("like", "repost", "mention"):
        assert f'class="notification-kind notification-kind-{kind}"' in text
    assert text.count(f'src="{avatar_url(bob.uid, token)}" alt="@bob"') == 3


def tiny_png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (8, 8), "red").save(out, "PNG")
    return out.getvalue()
