"""The search page (/search/): statuses, people and tags, its limits and its errors."""

import pytest

from timeline.graph import services as graph
from timeline.posting import services as posting
from timeline.tests.pages import page_text, shows, status_ids


def test_the_search_page_finds_statuses(client, alice):
    status_id = posting.post_status(alice.uid, "hello searchable world")
    response = client.get("/search/", {"q": "searchable world"})
    assert response.status_code == 200
    assert status_ids(response) == [status_id]


def test_searches_past_their_limit_are_429_per_account_or_visitor_address(
    client, alice, bob, settings
):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "searches": (1, 60)}
    assert alice.client.get("/search/", {"q": "anything"}).status_code == 200
    refused = alice.client.get("/search/", {"q": "@bob"})
    assert refused.status_code == 429
    assert 50 <= int(refused["Retry-After"]) <= 60
    assert shows(refused, "Too many searches for now: try again in 1 minute.")
    # The box alone and a query refused for its form don't count.
    assert bob.client.get("/search/").status_code == 200
    assert bob.client.get("/search/", {"q": "x" * 201}).status_code == 400
    assert bob.client.get("/search/", {"q": "mine"}).status_code == 200
    assert client.get("/search/", {"q": "visitor"}).status_code == 200
    assert client.get("/search/", {"q": "again"}).status_code == 429


def test_the_search_page_finds_people_with_follow_buttons(alice, bob):
    response = alice.client.get("/search/", {"q": "@bo"})
    assert response.status_code == 200
    assert shows(response, "Bob @bob")
    assert "/u/bob/follow/" in page_text(response)
    graph.follow_user(alice.uid, bob.uid)
    assert "/u/bob/unfollow/" in page_text(alice.client.get("/search/?q=bo&type=people"))


def test_the_nav_search_shows_the_accounts_it_finds_first(alice, bob):
    posting.post_status(bob.uid, "Alice is here today")
    response = bob.client.get("/search/", {"q": "Alice"})
    assert response.status_code == 200
    text = page_text(response)
    # Her account, with a follow button, above the statuses that name her.
    accounts = text.index('id="search-accounts"')
    assert accounts < text.index('href="/u/alice/"') < text.index('id="search-results"')
    assert "/u/alice/follow/" in text
    assert len(status_ids(response)) == 1
    # Asked for statuses alone, or on a later page, there are none.
    only = bob.client.get("/search/", {"q": "Alice", "type": "statuses"})
    assert 'id="search-accounts"' not in page_text(only)


def test_the_search_page_finds_tags(client, alice):
    posting.post_status(alice.uid, "#python rules")
    response = client.get("/search/", {"q": "#py"})
    assert shows(response, "#python 1 status in the last day")
    assert 'href="/tags/python/"' in page_text(response)


def test_the_search_page_without_a_query_shows_the_box(client):
    response = client.get("/search/")
    assert response.status_code == 200
    assert 'name="q"' in page_text(response)


@pytest.mark.parametrize(
    ("params", "error"),
    [
        ({"q": "x", "type": "bogus"}, "Search for people, statuses or tags."),
        ({"q": "...", "type": "statuses"}, "Type a word to search for."),
        ({"q": "x" * 201}, "Searches are at most 200 characters."),
        ({"q": "a-b", "type": "tags"}, "Tags are letters, digits and underscores"),
    ],
)
def test_bad_searches_say_what_is_wrong(client, params, error):
    response = client.get("/search/", params)
    assert response.status_code == 400
    assert shows(response, error)


def test_a_page_past_the_results_is_not_found(client, alice):
    posting.post_status(alice.uid, "only one")
    assert client.get("/search/", {"q": "only", "page": "2"}).status_code == 404
    assert client.get("/search/", {"q": "only", "page": "x"}).status_code == 404


def test_every_page_has_a_search_box_in_the_nav(client):
    assert 'class="nav-search"' in page_text(client.get("/timeline/"))
