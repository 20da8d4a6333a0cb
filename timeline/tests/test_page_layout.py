"""What the redesigned pages show (the layout part of the pages): private statuses' lock
and no Repost, your own repost once on home, the profile header's buttons, direct
messages as bubbles, the list name's label and the skip link."""

import re

from django.urls import reverse

from timeline.direct import services as direct
from timeline.posting import services as posting
from timeline.safety import services as safety
from timeline.services import follow_user

from .pages import page_text, shows


def card_of(html: str, text: str) -> str:
    """The status card showing `text`."""
    cards = re.findall(r"<article class=\"status.*?</article>", html, re.S)
    return next(card for card in cards if text in card)


def test_a_private_accounts_status_has_a_lock_and_no_repost_button(alice, bob):
    follow_user(alice.uid, bob.uid)
    safety.set_private(bob.uid, True)
    posting.post_status(bob.uid, "for my followers")
    posting.post_status(alice.uid, "for anyone")
    html = page_text(alice.client.get(reverse("home")))
    private, public = card_of(html, "for my followers"), card_of(html, "for anyone")
    assert 'class="status-lock"' in private and "Followers only" in private
    assert 'status-repost"' not in private and "Repost" not in private
    assert 'class="status-lock"' not in public and 'status-repost"' in public


def test_your_own_repost_shows_once_on_home_with_undo_and_no_delete(alice, bob):
    follow_user(alice.uid, bob.uid)
    status_id = posting.post_status(bob.uid, "worth sharing")
    alice.client.post(reverse("repost", args=[status_id]))
    html = page_text(alice.client.get(reverse("home")))
    assert html.count("worth sharing") == 1
    card = card_of(html, "worth sharing")
    assert reverse("unrepost", args=[status_id]) in card and "Undo repost" in card
    assert "status-delete" not in card


def test_a_repost_whose_original_is_not_on_home_still_shows(alice, bob, make_user):
    carol = make_user("carol")
    follow_user(alice.uid, bob.uid)
    status_id = posting.post_status(carol.uid, "from afar")
    bob.client.post(reverse("repost", args=[status_id]))
    html = page_text(alice.client.get(reverse("home")))
    assert html.count("from afar") == 1 and "Reposted by" in html


def test_your_own_profile_has_edit_profile_and_no_follow_or_safety_buttons(alice):
    response = alice.client.get(reverse("profile", args=["alice"]))
    assert shows(response, "Edit profile")
    html = page_text(response)
    assert reverse("accounts:settings") + "#profile" in html
    assert "Remove follower" not in html and ">Follow<" not in html


def test_remove_follower_shows_only_for_a_follower(alice, bob):
    assert "Remove follower" not in page_text(alice.client.get(reverse("profile", args=["bob"])))
    follow_user(bob.uid, alice.uid)
    response = alice.client.get(reverse("profile", args=["bob"]))
    assert shows(response, "Remove follower") and shows(response, "Follows you")
    assert not shows(bob.client.get(reverse("profile", args=["alice"])), "Edit profile")


def test_no_follow_button_on_the_profile_of_someone_who_blocked_you(alice, bob):
    safety.block(bob.uid, alice.uid)
    html = page_text(alice.client.get(reverse("profile", args=["bob"])))
    assert 'id="blocked-notice"' in html
    assert reverse("follow", args=["bob"]) not in html


def test_block_and_mute_are_styled_buttons_with_a_labelled_duration(alice, bob):
    html = page_text(alice.client.get(reverse("profile", args=["bob"])))
    safety_row = html[html.index('class="profile-safety"') :]
    # Block asks first: its button opens the question (a disclosure's summary).
    assert re.search(r'class="button danger secondary">.*?Block</summary>', safety_row)
    assert re.search(r'class="button secondary">.*?Mute</button>', safety_row)
    assert '<label class="visually-hidden" for="mute-duration">Mute for</label>' in safety_row


def test_direct_messages_are_bubbles_with_avatars_times_and_delete_in_a_menu(alice, bob):
    conversation = direct.start_conversation(bob.uid, "alice", "hi alice!")
    direct.send_message(alice.uid, conversation, "hello bob")
    html = page_text(alice.client.get(reverse("conversation", args=[conversation])))
    theirs = re.search(r'<li class="dm" .*?</li>', html, re.S).group()
    mine = re.search(r'<li class="dm dm-mine" .*?</li>', html, re.S).group()
    for message in (theirs, mine):
        assert 'class="avatar"' in message and 'class="dm-bubble"' in message
        assert re.search(r'<time datetime="[^"]+">\d+ \w+, \d\d:\d\d</time>', message)
    assert "delete_message" not in theirs and "Delete" not in theirs
    menu = re.search(r'<details class="dm-menu">.*?</details>', mine, re.S).group()
    assert "Delete message</button>" in menu
    inbox = page_text(alice.client.get(reverse("inbox")))
    assert re.search(r'<li data-conversation-id="\d+">\s*<img class="avatar"', inbox)


def test_the_new_list_name_has_a_label(alice):
    html = page_text(alice.client.get(reverse("lists")))
    assert re.search(r'<label class="field-label" for="id_name">List name</label>', html)


def test_every_page_starts_with_a_skip_link_to_the_main_content(alice, client):
    for response in (alice.client.get(reverse("home")), client.get(reverse("global"))):
        html = page_text(response)
        body = html[html.index("<body>") :]
        assert re.match(r'<body>\s*<a class="skip-link" href="#main">Skip to content</a>', body)
        assert '<main class="page" id="main" tabindex="-1">' in html
