import pytest
from django.urls import reverse

from timeline.direct import services as direct
from timeline.graph import services as graph
from timeline.notifications import context_processors
from timeline.notifications.selectors import unread_counts
from timeline.posting import services as posting
from timeline.reactions import services as reactions
from timeline.tests.pages import page_text, shows


def badge(response, name: str) -> str:
    text = page_text(response)
    start = text.index(f'id="nav-unread-{name}"')
    return text[text.index(">", start) + 1 : text.index("<", start)]


def test_the_page_groups_shows_the_status_once_and_marks_all_read(alice, bob, make_user):
    status = posting.post_status(alice.uid, "my status")
    reactions.like(bob.uid, status)
    reactions.like(make_user("carol").uid, status)
    graph.follow_user(bob.uid, alice.uid)
    before = alice.client.get(reverse("home"))
    assert badge(before, "notifications") == "3"
    response = alice.client.get(reverse("notifications"))
    assert response.status_code == 200
    assert shows(response, "@bob followed you")
    assert shows(response, "@carol and 1 other liked your status")
    assert page_text(response).count(f'data-status-id="{status}"') == 1
    assert badge(response, "notifications") == "0"
    assert unread_counts(alice.uid)["notifications"] == 0


def test_the_mentions_filter_and_pages_keep_to_mentions(alice, bob, settings):
    settings.NOTIFICATIONS_PER_PAGE = 1
    status = posting.post_status(alice.uid, "hello")
    reactions.like(bob.uid, status)
    posting.post_status(bob.uid, "hey @alice")
    posting.post_status(bob.uid, "again @alice")
    first = alice.client.get(reverse("notifications") + "?show=mentions")
    assert shows(first, "@bob mentioned you") and not shows(first, "liked")
    assert "?show=mentions&amp;page=2" in page_text(first)
    second = alice.client.get(reverse("notifications") + "?show=mentions&page=2")
    assert shows(second, "@bob mentioned you")
    assert alice.client.get(reverse("notifications") + "?show=mentions&page=3").status_code == 404


@pytest.mark.parametrize("query", ["?show=everything", "?page=0", "?page=abc"])
def test_bad_parameters_are_refused(alice, query):
    response = alice.client.get(reverse("notifications") + query)
    assert response.status_code in (400, 404)


def test_a_visitor_is_sent_to_log_in(client):
    response = client.get(reverse("notifications"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


@pytest.fixture
def nav_reads(monkeypatch):
    """Counts the nav's own reads of the unread counts (made when a page read none)."""
    reads = []

    def counting(uid):
        reads.append(uid)
        return unread_counts(uid)

    monkeypatch.setattr(context_processors, "unread_counts", counting)
    return reads


@pytest.mark.parametrize(
    "page",
    [
        "home",
        "global",
        "likes",
        "notifications",
        "inbox",
        "profile",
        "mentions",
        "tag",
        "conversation",
        "status",
    ],
)
def test_pages_read_the_nav_counts_with_their_own_data(alice, bob, nav_reads, page):
    conversation = direct.start_conversation(bob.uid, "alice", "hi")
    graph.follow_user(bob.uid, alice.uid)
    args = {"profile": ["bob"], "mentions": ["alice"], "tag": ["x"], "conversation": [conversation]}
    args["status"] = [posting.post_status(bob.uid, "a status of bob's")]
    response = alice.client.get(reverse(page, args=args.get(page, [])))
    assert response.status_code == 200
    assert nav_reads == []
    if page not in ("notifications", "conversation"):
        assert badge(response, "notifications") == "1" and badge(response, "messages") == "1"


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("/u/alice/followers/", 200),
        ("/u/alice/following/", 200),
        ("/lists/", 200),
        ("/accounts/settings/", 200),
        ("/messages/new/", 200),
        ("/no/such/page/", 404),
    ],
)
def test_every_other_page_has_the_counts_from_the_session_check(
    alice, bob, nav_reads, path, status
):
    """The session check reads the user's profile on every signed-in request anyway (the
    session generation): the counts come with it, no round trip of the nav's own."""
    graph.follow_user(bob.uid, alice.uid)
    response = alice.client.get(path)
    assert response.status_code == status
    assert badge(response, "notifications") == "1"
    assert nav_reads == []


def test_a_visitors_page_reads_no_counts(client, nav_reads):
    assert client.get(reverse("global")).status_code == 200
    assert nav_reads == []


def test_marking_read_is_a_post_that_answers_204(alice, bob):
    graph.follow_user(bob.uid, alice.uid)
    assert alice.client.get(reverse("notifications_read")).status_code == 405
    assert alice.client.post(reverse("notifications_read")).status_code == 204
    assert unread_counts(alice.uid)["notifications"] == 0
