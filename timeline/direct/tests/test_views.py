import pytest
from django.test import Client
from django.urls import reverse

from timeline.direct import selectors, services
from timeline.notifications.selectors import unread_counts
from timeline.tests.pages import page_text, shows


def start(member, to: str, message: str):
    return member.client.post(reverse("new_conversation"), {"to": to, "message": message})


def test_starting_a_conversation_goes_to_it_and_the_reply_shows_for_both(alice, bob):
    response = start(alice, "bob", "hello bob")
    assert response.status_code == 302
    (conversation,) = selectors.inbox_page(alice.uid, 1, 30).conversations
    assert response["Location"] == reverse("conversation", args=[conversation.id])
    answered = bob.client.post(response["Location"], {"message": "hi alice"})
    assert answered.status_code == 302
    page = alice.client.get(response["Location"])
    assert shows(page, "@alice hello bob") and shows(page, "@bob hi alice")
    assert page_text(page).index("hello bob") < page_text(page).index("hi alice")


def test_the_inbox_and_the_nav_show_unread_counts_and_opening_reads_them(alice, bob):
    start(alice, "bob", "one")
    start(alice, "bob", "two")
    inbox = bob.client.get(reverse("inbox"))
    assert shows(inbox, "@alice 2 @alice: two")
    assert 'id="nav-unread-messages" class="badge">2<' in page_text(inbox)
    (conversation,) = selectors.inbox_page(bob.uid, 1, 30).conversations
    opened = bob.client.get(reverse("conversation", args=[conversation.id]))
    assert 'id="nav-unread-messages" class="badge" hidden>0<' in page_text(opened)
    assert unread_counts(bob.uid)["messages"] == 0


@pytest.mark.parametrize(
    ("to", "message", "error"),
    [
        ("nobody", "hi", "No such user: @nobody."),
        ("bob", "", "Write a message."),
        ("bob", "y" * 1001, "A message is at most 1,000 characters."),
        ("", "hi", "Say whom to write to"),
    ],
)
def test_a_bad_new_message_is_shown_again_with_its_error(alice, bob, to, message, error):
    response = start(alice, to, message)
    assert response.status_code == 400
    assert shows(response, error)
    assert selectors.inbox_page(bob.uid, 1, 30).conversations == []


def test_a_multi_line_message_from_a_browser_is_kept_with_its_line_breaks(alice, bob):
    # A browser sends a textarea's line breaks as CRLF: stored as LF, counted once each.
    conversation = services.start_conversation(alice.uid, "bob", "hi")
    url = reverse("conversation", args=[conversation])
    text = "first line\r\nsecond\r\n" + "x" * (1000 - len("first line\nsecond\n"))
    assert bob.client.post(url, {"message": text}).status_code == 302
    page = selectors.conversation_page(bob.uid, conversation, 1, 50)
    assert page.messages[-1]["text"] == text.replace("\r\n", "\n")


def test_too_many_people_are_refused(alice, make_user, settings):
    settings.CONVERSATION_MAX_MEMBERS = 2
    logins = ",".join(make_user().login for _ in range(2))
    response = start(alice, logins, "hi")
    assert response.status_code == 400 and shows(response, "at most 2 people")


def test_a_bad_reply_is_refused_and_changes_nothing(alice, bob):
    conversation = services.start_conversation(alice.uid, "bob", "hi")
    url = reverse("conversation", args=[conversation])
    response = bob.client.post(url, {"message": "z" * 1001})
    assert response.status_code == 400 and shows(response, "at most 1,000 characters")
    assert [
        m["text"] for m in selectors.conversation_page(bob.uid, conversation, 1, 50).messages
    ] == ["hi"]


def test_someone_elses_conversation_is_404_to_read_post_leave_or_delete_in(alice, bob, make_user):
    mallory = make_user("mallory")
    group = services.start_conversation(alice.uid, "bob, mallory", "top secret")
    services.leave_conversation(mallory.uid, group)
    message = selectors.conversation_page(alice.uid, group, 1, 50).messages[0]["id"]
    for response in (
        mallory.client.get(reverse("conversation", args=[group])),
        mallory.client.post(reverse("conversation", args=[group]), {"message": "hey"}),
        mallory.client.post(reverse("leave_conversation", args=[group])),
        mallory.client.post(reverse("delete_message", args=[group, message])),
        alice.client.get(reverse("conversation", args=[group + 1])),
    ):
        assert response.status_code == 404
        assert not shows(response, "top secret")
    assert len(selectors.conversation_page(alice.uid, group, 1, 50).messages) == 1


def test_deleting_someone_elses_message_is_forbidden(alice, bob):
    conversation = services.start_conversation(alice.uid, "bob", "mine")
    message = selectors.conversation_page(alice.uid, conversation, 1, 50).messages[0]["id"]
    response = bob.client.post(reverse("delete_message", args=[conversation, message]))
    assert response.status_code == 403
    assert (
        alice.client.post(reverse("delete_message", args=[conversation, message])).status_code
        == 302
    )
    assert selectors.conversation_page(alice.uid, conversation, 1, 50).messages == []


def test_leaving_a_group_goes_back_to_the_inbox_without_it(alice, bob, make_user):
    make_user("carol")
    group = services.start_conversation(alice.uid, "bob, carol", "hi")
    response = bob.client.post(reverse("leave_conversation", args=[group]))
    assert response.status_code == 302 and response["Location"] == reverse("inbox")
    assert selectors.inbox_page(bob.uid, 1, 30).conversations == []
    direct = services.start_conversation(alice.uid, "bob", "just us")
    assert bob.client.post(reverse("leave_conversation", args=[direct])).status_code == 400


def test_a_post_without_the_csrf_token_is_refused(alice, bob):
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(alice.user)
    response = strict.post(reverse("new_conversation"), {"to": "bob", "message": "hi"})
    assert response.status_code == 403
    assert selectors.inbox_page(bob.uid, 1, 30).conversations == []


def test_visitors_are_sent_to_log_in(client):
    for url in (reverse("inbox"), reverse("new_conversation"), reverse("conversation", args=[1])):
        response = client.get(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_a_page_past_the_last_is_404(alice, bob):
    conversation = services.start_conversation(alice.uid, "bob", "hi")
    assert (
        alice.client.get(reverse("conversation", args=[conversation]) + "?page=2").status_code
        == 404
    )
    assert alice.client.get(reverse("inbox") + "?page=x").status_code == 404


def test_a_profile_links_to_a_message_form_addressed_to_them(alice, bob):
    profile = alice.client.get(reverse("profile", args=["bob"]))
    link = reverse("new_conversation") + "?to=bob"
    assert f'href="{link}"' in page_text(profile)
    form = alice.client.get(link)
    assert 'name="to" value="bob"' in page_text(form)
    assert f'href="{link}"' not in page_text(bob.client.get(reverse("profile", args=["bob"])))
