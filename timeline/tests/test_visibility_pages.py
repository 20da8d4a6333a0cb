"""Visibility and content warnings on the site's pages: the composer's picker and warning
field, the card's icons and its "Show more" (a <details>, so it works without
JavaScript), and the posting settings (default visibility, expand all warnings)."""

import re

from timeline.graph import services as graph
from timeline.posting import services as posting
from timeline.safety import services as safety
from timeline.statuses.selectors import get_status
from timeline.tests.pages import page_text, shows, status_ids


def test_the_composer_posts_with_the_visibility_and_warning_chosen(alice):
    response = alice.client.post(
        "/statuses/",
        {"message": "spoilers ahead", "visibility": "unlisted", "spoiler_text": "Film ending"},
    )
    assert response.status_code == 302
    sid = status_ids(alice.client.get("/u/alice/"))[0]
    status = get_status(sid)
    assert status["visibility"] == "unlisted"
    assert status["spoiler_text"] == "Film ending" and status["sensitive"] == "1"


def test_the_composer_refuses_a_bad_visibility_or_warning_and_stores_nothing(alice):
    bad = alice.client.post("/statuses/", {"message": "hm", "visibility": "everyone"})
    assert bad.status_code == 400
    long = alice.client.post("/statuses/", {"message": "hm", "spoiler_text": "x" * 300})
    assert long.status_code == 400 and shows(long, "content warning")
    nobody = alice.client.post("/statuses/", {"message": "hm", "visibility": "direct"})
    assert nobody.status_code == 400 and shows(nobody, "must @mention someone")
    assert status_ids(alice.client.get("/u/alice/")) == []


def test_the_composer_starts_at_the_default_visibility(alice, bob):
    picked = re.compile(r'<option value="(public|unlisted|private|direct)" selected>')
    assert picked.findall(page_text(alice.client.get("/"))) == ["public"]
    safety.set_private(bob.uid, True)
    assert picked.findall(page_text(bob.client.get("/"))) == ["private"]
    alice.client.post(
        "/settings/posting/", {"default_visibility": "unlisted", "expand_warnings": "1"}
    )
    assert picked.findall(page_text(alice.client.get("/"))) == ["unlisted"]
    settings_page = page_text(alice.client.get("/accounts/settings/"))
    assert 'name="expand_warnings" value="1" id="id_expand_warnings" checked' in settings_page


def test_a_bad_default_visibility_is_refused(alice):
    response = alice.client.post("/settings/posting/", {"default_visibility": "everyone"})
    assert response.status_code == 302
    assert shows(alice.client.get("/accounts/settings/"), "visibility is one of")


def test_cards_show_each_visibility_by_its_icon(alice, bob):
    graph.follow_user(bob.uid, alice.uid)
    posting.post_status(alice.uid, "public")
    posting.post_status(alice.uid, "unlisted", visibility="unlisted")
    posting.post_status(alice.uid, "private", visibility="private")
    posting.post_status(alice.uid, "direct @bob", visibility="direct")
    html = page_text(bob.client.get("/u/alice/"))
    assert html.count('title="Unlisted"') == 1
    assert html.count('title="Followers only"') == 1
    assert html.count('title="Mentioned people only"') == 1
    # Neither a followers-only nor a direct status can be reposted: no button.
    assert html.count('class="link-button status-repost"') == 2


def test_a_warning_hides_the_content_behind_show_more_without_javascript(alice, bob, client):
    posting.post_status(alice.uid, "the butler did it", spoiler_text="Murder mystery")
    for reader in (client, bob.client):
        html = page_text(reader.get("/u/alice/"))
        assert '<details class="status-warning"><summary>' in html
        warned = html.split('<details class="status-warning">')[1].split("</details>")[0]
        assert "Murder mystery" in warned and "Show more" in warned
        assert "the butler did it" in warned  # inside the closed disclosure
        assert '<details class="status-warning" open>' not in html


def test_a_reader_who_expands_all_sees_warnings_open_while_others_dont(alice, bob, client):
    posting.post_status(alice.uid, "the butler did it", spoiler_text="Murder mystery")
    bob.client.post("/settings/posting/", {"default_visibility": "public", "expand_warnings": "1"})
    assert '<details class="status-warning" open>' in page_text(bob.client.get("/u/alice/"))
    # The same kept card, closed for the next reader.
    assert '<details class="status-warning" open>' not in page_text(alice.client.get("/u/alice/"))
    assert '<details class="status-warning" open>' not in page_text(client.get("/u/alice/"))


def test_a_reply_takes_the_visibility_chosen(alice, bob):
    sid = posting.post_status(alice.uid, "question")
    bob.client.post(f"/statuses/{sid}/reply/", {"message": "answer", "visibility": "private"})
    replies = status_ids(bob.client.get("/u/bob/"))
    assert get_status(replies[0])["visibility"] == "private"


def test_the_reply_box_starts_at_the_parents_visibility_where_it_is_narrower(alice, bob):
    picked = re.compile(r'<option value="(public|unlisted|private|direct)" selected>')
    graph.follow_user(bob.uid, alice.uid)
    direct = posting.post_status(alice.uid, "psst @bob", visibility="direct")
    private = posting.post_status(alice.uid, "friends", visibility="private")
    unlisted = posting.post_status(alice.uid, "quiet", visibility="unlisted")
    public = posting.post_status(alice.uid, "loud")
    for status_id, expected in (
        (direct, "direct"),
        (private, "private"),
        (unlisted, "unlisted"),
        (public, "public"),
    ):
        reply_page = page_text(bob.client.get(f"/statuses/{status_id}/"))
        assert picked.findall(reply_page) == [expected]
