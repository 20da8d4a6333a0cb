"""Filters v2 through the API (the Django test client, with tokens made directly):
CRUD, keywords and statuses, `filtered` on Status entities per caller, bad input, the
rate limit; the same filters as the settings page's muted words."""

from accounts import filters
from socialsite import jobs
from timeline.graph.services import follow_user
from timeline.posting.services import post_status
from timeline.safety import services as safety


def make(call, **given):
    body = {"title": "Spoilers", "context": ["home", "thread"], **given}
    return call("post", "/api/v2/filters", body)


def test_a_filter_with_keywords_is_made_listed_changed_and_deleted(alice, api_as):
    as_alice = api_as(alice)
    status, made, _ = make(
        as_alice,
        filter_action="hide",
        expires_in=3600,
        keywords_attributes=[{"keyword": "finale", "whole_word": True}, {"keyword": "end"}],
    )
    assert status == 200 and made["filter_action"] == "hide" and made["expires_at"]
    assert [k["keyword"] for k in made["keywords"]] == ["finale", "end"]
    assert as_alice("get", "/api/v2/filters")[1] == [made]
    assert as_alice("get", f"/api/v2/filters/{made['id']}")[1] == made
    first = made["keywords"][0]["id"]
    status, changed, _ = as_alice(
        "put",
        f"/api/v2/filters/{made['id']}",
        {
            "title": "Later",
            "context": ["public"],
            "keywords_attributes": [{"id": first, "_destroy": True}, {"keyword": "twist"}],
        },
    )
    assert status == 200 and changed["title"] == "Later" and changed["context"] == ["public"]
    assert [k["keyword"] for k in changed["keywords"]] == ["end", "twist"]
    assert as_alice("delete", f"/api/v2/filters/{made['id']}")[:2] == (200, {})
    assert as_alice("get", "/api/v2/filters")[1] == []
    assert as_alice("get", f"/api/v2/filters/{made['id']}")[0] == 404


def test_keywords_and_statuses_are_sub_resources(alice, bob, api_as):
    as_alice = api_as(alice)
    made = make(as_alice)[1]
    base = f"/api/v2/filters/{made['id']}"
    status, keyword, _ = as_alice(
        "post", f"{base}/keywords", {"keyword": "cat", "whole_word": False}
    )
    assert status == 200 and keyword["whole_word"] is False
    assert as_alice("get", f"{base}/keywords")[1] == [keyword]
    path = f"/api/v2/filters/keywords/{keyword['id']}"
    assert as_alice("put", path, {"keyword": "dog"})[1]["keyword"] == "dog"
    assert as_alice("get", path)[1]["keyword"] == "dog"
    theirs = post_status(bob.uid, "a status")
    status, item, _ = as_alice("post", f"{base}/statuses", {"status_id": str(theirs)})
    assert status == 200 and item["status_id"] == str(theirs)
    assert as_alice("get", f"/api/v2/filters/statuses/{item['id']}")[1] == item
    assert as_alice("get", f"{base}/statuses")[1] == [item]
    assert as_alice("delete", f"/api/v2/filters/statuses/{item['id']}")[0] == 200
    assert as_alice("delete", path)[0] == 200
    found = filters.get_filter(alice.uid, made["id"])
    assert found["keywords"] == [] and found["statuses"] == []
    # Another's filter, keyword or status isn't there for bob.
    as_bob = api_as(bob)
    assert as_bob("get", base)[0] == 404
    assert as_bob("post", f"{base}/keywords", {"keyword": "x"})[0] == 404
    assert filters.list_filters(bob.uid) == []


def test_statuses_show_which_of_the_callers_filters_they_match(alice, bob, api_as):
    follow_user(alice.uid, bob.uid)
    status_id = post_status(bob.uid, "the Finale was great")
    jobs.work(burst=True)
    as_alice = api_as(alice)
    made = make(as_alice, keywords_attributes=[{"keyword": "finale"}])[1]
    (shown,) = as_alice("get", "/api/v1/timelines/home")[1]
    (result,) = shown["filtered"]
    assert result["filter"]["id"] == made["id"] and result["keyword_matches"] == ["finale"]
    assert result["filter"]["filter_action"] == "warn"
    assert as_alice("get", f"/api/v1/statuses/{status_id}")[1]["filtered"][0]["filter"] == made
    # Per caller: bob has no filters.
    assert api_as(bob)("get", f"/api/v1/statuses/{status_id}")[1]["filtered"] == []


def test_the_muted_words_are_a_filter_the_api_shows_and_changes(alice, api_as):
    safety.set_muted_words(alice.uid, "cats")
    as_alice = api_as(alice)
    (muted,) = as_alice("get", "/api/v2/filters")[1]
    assert muted["title"] == "Muted words" and muted["filter_action"] == "hide"
    assert as_alice("get", "/api/v1/filters")[1][0]["phrase"] == "cats"
    as_alice("post", f"/api/v2/filters/{muted['id']}/keywords", {"keyword": "dogs"})
    assert safety.muted_words(alice.uid) == ["cats", "dogs"]


def test_keywords_come_from_a_form_too(alice, token_for):
    from urllib.parse import urlencode

    from django.test import Client

    # As Rails-style clients send them: each keyword's fields together.
    form = [
        ("title", "form"),
        ("context[]", "home"),
        ("context[]", "notifications"),
        ("keywords_attributes[][keyword]", "one"),
        ("keywords_attributes[][whole_word]", "true"),
        ("keywords_attributes[][keyword]", "two"),
        ("keywords_attributes[][whole_word]", "false"),
    ]
    response = Client().post(
        "/api/v2/filters",
        urlencode(form),
        content_type="application/x-www-form-urlencoded",
        **token_for(alice),
    )
    assert response.status_code == 200, response.json()
    made = response.json()
    assert made["context"] == ["home", "notifications"]
    assert [(k["keyword"], k["whole_word"]) for k in made["keywords"]] == [
        ("one", True),
        ("two", False),
    ]


def test_bad_filters_are_422_and_change_nothing(alice, api_as):
    as_alice = api_as(alice)
    for body in (
        {"title": ""},
        {"context": ["nowhere"]},
        {"filter_action": "blur"},
        {"expires_in": "soon"},
        {"keywords_attributes": [{"keyword": ""}]},
        {"keywords_attributes": "finale"},
    ):
        status, answer, _ = make(as_alice, **body)
        assert status == 422 and set(answer) == {"error"}, body
    assert filters.list_filters(alice.uid) == []
    made = make(as_alice)[1]
    status, _, _ = as_alice("put", f"/api/v2/filters/{made['id']}", {"context": ["x"]})
    assert status == 422 and filters.get_filter(alice.uid, made["id"]) == made
    bad_keyword = {"keywords_attributes": [{"id": "999", "keyword": "x"}]}
    assert as_alice("put", f"/api/v2/filters/{made['id']}", bad_keyword)[0] == 404
    assert as_alice("post", f"/api/v2/filters/{made['id']}/statuses", {"status_id": "99"})[0] == 404
    assert (
        api_as(alice, "read")("post", "/api/v2/filters", {"title": "t", "context": ["home"]})[0]
        == 403
    )
    assert filters.list_filters(alice.uid) == [made]


def test_changing_filters_past_the_rate_limit_is_429_with_retry_after(alice, api_as, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "filter_changes": (1, 600)}
    as_alice = api_as(alice)
    assert make(as_alice)[0] == 200
    status, body, response = make(as_alice, title="again")
    assert status == 429 and int(response["Retry-After"]) > 0
    assert body["error"].startswith("Too many filter changes")
    assert len(filters.list_filters(alice.uid)) == 1


def test_a_timeline_page_marks_filtered_from_the_filters_its_read_took(
    alice, bob, api_as, monkeypatch
):
    """The filters come with the visibility rule's reads (no round trip of their own)."""
    follow_user(alice.uid, bob.uid)
    post_status(bob.uid, "the finale")
    jobs.work(burst=True)
    as_alice = api_as(alice)
    made = make(as_alice, keywords_attributes=[{"keyword": "finale"}])[1]

    def read_again(uid):
        raise AssertionError("the page read the filters already")

    monkeypatch.setattr(filters, "list_filters", read_again)
    (shown,) = as_alice("get", "/api/v1/timelines/home")[1]
    assert shown["filtered"][0]["filter"]["id"] == made["id"]
    path = f"/api/v1/accounts/{bob.uid}/statuses"
    assert as_alice("get", path)[1][0]["filtered"][0]["keyword_matches"] == ["finale"]
