"""Keep's pages and buttons: the bookmark and pin buttons on cards (with htmx, the card
answered in place; without, a POST and a redirect), the bookmarks page, pins atop the
profile and a tag's follow button."""

from socialsite import jobs
from timeline.keeps import selectors, services
from timeline.posting import services as posting
from timeline.safety import services as safety
from timeline.tests.pages import page_text, shows, status_ids

HTMX = {"HTTP_HX_REQUEST": "true"}


def test_every_card_has_a_bookmark_button_pressed_once_bookmarked(alice, bob):
    sid = posting.post_status(alice.uid, "keep me")
    text = page_text(bob.client.get("/timeline/"))
    assert f'formaction="/statuses/{sid}/bookmark/"' in text
    assert shows(bob.client.get("/timeline/"), "Bookmark")
    response = bob.client.post(f"/statuses/{sid}/bookmark/", {"next": "/timeline/"})
    assert response.status_code == 302 and response["Location"] == "/timeline/"
    text = page_text(bob.client.get("/timeline/"))
    assert f'formaction="/statuses/{sid}/unbookmark/"' in text
    assert 'class="link-button status-bookmark" aria-pressed="true"' in text
    # The same card, as the author sees it: not bookmarked (the mark is the viewer's).
    text = page_text(alice.client.get("/timeline/"))
    assert f'formaction="/statuses/{sid}/bookmark/"' in text


def test_an_in_place_bookmark_answers_the_card_pressed(alice, bob):
    sid = posting.post_status(alice.uid, "in place")
    response = bob.client.post(f"/statuses/{sid}/bookmark/", {"card": sid}, **HTMX)
    assert response.status_code == 200 and status_ids(response) == [sid]
    assert shows(response, "Remove bookmark")
    response = bob.client.post(f"/statuses/{sid}/unbookmark/", {"card": sid}, **HTMX)
    assert shows(response, "Bookmark") and not shows(response, "Remove bookmark")
    assert selectors.bookmarked_ids(bob.uid) == []


def test_the_bookmarks_page_is_yours_alone(alice, bob, client):
    sid = posting.post_status(alice.uid, "bookmarked status")
    services.bookmark(bob.uid, sid)
    response = bob.client.get("/bookmarks/")
    assert response.status_code == 200 and status_ids(response) == [sid]
    assert shows(response, "Only you can see your bookmarks.")
    assert status_ids(alice.client.get("/bookmarks/")) == []
    assert client.get("/bookmarks/").status_code == 302


def test_bookmarking_a_status_gone_is_a_404_page(bob):
    response = bob.client.post("/statuses/999/bookmark/")
    assert response.status_code == 404
    assert selectors.bookmarked_ids(bob.uid) == []


def test_your_own_public_statuses_have_a_pin_button_and_pins_top_your_profile(alice, bob):
    first = posting.post_status(alice.uid, "pin this one")
    posting.post_status(alice.uid, "newer")
    text = page_text(alice.client.get("/u/alice/"))
    assert f'formaction="/statuses/{first}/pin/"' in text
    # Not on others' statuses.
    assert "/pin/" not in page_text(bob.client.get("/u/alice/"))
    response = alice.client.post(f"/statuses/{first}/pin/", {"next": "/u/alice/"})
    assert response.status_code == 302
    response = bob.client.get("/u/alice/")
    assert shows(response, "Pinned")
    assert status_ids(response)[0] == first
    text = page_text(alice.client.get("/u/alice/"))
    assert f'formaction="/statuses/{first}/unpin/"' in text
    alice.client.post(f"/statuses/{first}/unpin/")
    assert not shows(bob.client.get("/u/alice/"), "Pinned")


def test_pinning_a_followers_only_or_someone_elses_status_is_refused(alice, bob):
    theirs = posting.post_status(bob.uid, "bob's")
    assert alice.client.post(f"/statuses/{theirs}/pin/").status_code == 400
    safety.set_private(alice.uid, True)
    private = posting.post_status(alice.uid, "followers only")
    assert f"/statuses/{private}/pin/" not in page_text(alice.client.get("/u/alice/"))
    assert alice.client.post(f"/statuses/{private}/pin/").status_code == 400
    assert selectors.pinned_ids(alice.uid) == []


def test_a_tag_page_has_a_follow_button_that_works_without_javascript(alice, bob, client):
    response = alice.client.get("/tags/Redis/")
    assert shows(response, "Follow #redis")
    assert 'action="/tags/redis/follow/"' in page_text(response)
    assert "/follow/" not in page_text(client.get("/tags/redis/"))
    response = alice.client.post("/tags/redis/follow/", {"next": "/tags/redis/"})
    assert response.status_code == 302 and response["Location"] == "/tags/redis/"
    assert shows(alice.client.get("/tags/redis/"), "Unfollow #redis")
    sid = posting.post_status(bob.uid, "#redis rocks")
    jobs.work(burst=True)
    assert status_ids(alice.client.get("/")) == [sid]
    alice.client.post("/tags/redis/unfollow/")
    assert selectors.followed_tags(alice.uid) == []


def test_an_in_place_tag_follow_answers_the_control(alice):
    response = alice.client.post("/tags/redis/follow/", **HTMX)
    assert response.status_code == 200
    text = page_text(response).strip()
    assert text.startswith("<form") and "Unfollow #redis" in text


def test_a_bad_tag_is_404_and_follows_nothing(alice):
    assert alice.client.get("/tags/no-such-tag!/").status_code == 404
    assert alice.client.post("/tags/no-such-tag!/follow/").status_code in (400, 404)
    assert selectors.followed_tags(alice.uid) == []


def test_keeping_past_the_rate_limit_is_429_with_retry_after(alice, bob, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "keeps": (1, 600)}
    sid = posting.post_status(alice.uid, "once")
    assert bob.client.post(f"/statuses/{sid}/bookmark/").status_code == 302
    response = bob.client.post("/tags/redis/follow/")
    assert response.status_code == 429 and int(response["Retry-After"]) > 0
    assert selectors.followed_tags(bob.uid) == []
