"""The settings page's filters: shown, made, changed and deleted by forms (no
JavaScript), bad input refused with nothing changed, the rate limit."""

from accounts import filters
from socialsite import jobs
from timeline.feeds import selectors as feeds
from timeline.graph.services import follow_user
from timeline.posting.services import post_status
from timeline.safety import services as safety
from timeline.tests.pages import ids, shows

NEW = {
    "title": "Spoilers",
    "keywords": "finale\nplot twist",
    "whole_word": "on",
    "context": ["home", "thread"],
    "filter_action": "hide",
    "expires_in": "",
}


def test_the_settings_page_shows_the_filters_the_muted_words_among_them(alice):
    safety.set_muted_words(alice.uid, "cats")
    filters.create_filter(alice.uid, title="Elections", context=["public"], keywords=[("vote", 1)])
    page = alice.client.get("/accounts/settings/")
    assert shows(page, "Filters") and shows(page, "Muted words") and shows(page, "Elections")
    assert shows(page, "vote") and shows(page, "New filter")


def test_a_filter_made_on_the_settings_page_hides_statuses_from_home(alice, bob):
    follow_user(alice.uid, bob.uid)
    hidden = post_status(bob.uid, "the finale!")
    shown = post_status(bob.uid, "nothing to see")
    jobs.work(burst=True)
    response = alice.client.post("/accounts/filters/", NEW, follow=True)
    assert shows(response, "Filter “Spoilers” saved.")
    (made,) = filters.list_filters(alice.uid)
    assert made["context"] == ["home", "thread"] and made["filter_action"] == "hide"
    assert [k["keyword"] for k in made["keywords"]] == ["finale", "plot twist"]
    assert ids(feeds.get_status_messages(alice.uid)) == [shown]
    assert hidden


def test_a_filter_is_changed_and_deleted_on_the_settings_page(alice):
    made = filters.create_filter(alice.uid, title="t", context=["home"], keywords=[("a", True)])
    changed = {**NEW, "keywords": "a\nb", "filter_action": "warn", "expires_in": "keep"}
    response = alice.client.post(f"/accounts/filters/{made['id']}/", changed)
    assert response.status_code == 302 and response["Location"].endswith("#settings-privacy")
    found = filters.get_filter(alice.uid, made["id"])
    assert found["title"] == "Spoilers" and found["filter_action"] == "warn"
    assert [k["keyword"] for k in found["keywords"]] == ["a", "b"]
    assert found["keywords"][0]["id"] == made["keywords"][0]["id"]  # kept, not remade
    alice.client.post(f"/accounts/filters/{made['id']}/delete/")
    assert filters.list_filters(alice.uid) == []
    assert alice.client.post(f"/accounts/filters/{made['id']}/delete/").status_code == 404


def test_bad_filters_on_the_settings_page_are_refused_and_change_nothing(alice, bob):
    for bad in ({"title": ""}, {"context": []}, {"filter_action": "blur"}, {"keywords": "x" * 61}):
        response = alice.client.post("/accounts/filters/", {**NEW, **bad})
        assert response.status_code == 400
    assert filters.list_filters(alice.uid) == []
    made = filters.create_filter(alice.uid, title="t", context=["home"])
    response = alice.client.post(f"/accounts/filters/{made['id']}/", {**NEW, "context": ["x"]})
    assert response.status_code == 400 and shows(response, "context")
    assert filters.get_filter(alice.uid, made["id"]) == made
    # Another's filter is not theirs to change.
    assert bob.client.post(f"/accounts/filters/{made['id']}/delete/").status_code == 404
    assert alice.client.get("/accounts/filters/").status_code == 405


def test_filter_changes_past_the_rate_limit_are_429_with_retry_after(alice, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "filter_changes": (1, 600)}
    assert alice.client.post("/accounts/filters/", NEW).status_code == 302
    response = alice.client.post("/accounts/filters/", {**NEW, "title": "again"})
    assert response.status_code == 429 and int(response["Retry-After"]) > 0
    assert len(filters.list_filters(alice.uid)) == 1
