import re
import time

import pytest
from django.test import override_settings

from accounts.services import get_user, set_suspended, update_name
from timeline import keys
from timeline.feeds import selectors as feeds
from timeline.graph import services as graph
from timeline.lists import services as lists
from timeline.posting import services as posting
from timeline.reactions import services as reactions
from timeline.statuses import layout
from timeline.statuses import selectors as status_selectors
from timeline.tests.pages import page_text, shows, status_ids

# Home and global timelines


def test_a_visitor_gets_the_welcome_and_the_global_timeline(client, alice):
    sid = posting.post_status(alice.uid, "hello world")
    response = client.get("/")
    assert response.status_code == 200
    assert shows(response, "Sign up")
    assert status_ids(response) == [sid]
    assert 'id="timeline"' not in page_text(response)


def test_a_member_gets_their_home_timeline_with_the_post_box(alice, bob):
    graph.follow_user(bob.uid, alice.uid)
    sid = posting.post_status(alice.uid, "for my followers")
    response = bob.client.get("/")
    assert response.status_code == 200
    assert 'id="timeline"' in page_text(response)
    assert 'action="/statuses/"' in page_text(response)
    assert sid in status_ids(response)


def test_the_global_timeline_shows_everyones_newest_first(client, alice, bob):
    first = posting.post_status(alice.uid, "first")
    second = posting.post_status(bob.uid, "second")
    response = client.get("/timeline/")
    assert response.status_code == 200
    assert status_ids(response) == [second, first]


def test_an_empty_home_says_what_to_do(alice):
    response = alice.client.get("/")
    assert response.status_code == 200
    assert shows(response, "Your home timeline is empty.")


# Posting


def test_posting_stores_the_status_and_shows_it_on_home(alice):
    response = alice.client.post("/statuses/", {"message": "  my first status  "}, follow=True)
    assert response.status_code == 200
    assert shows(response, "Posted.")
    (status,) = feeds.get_status_messages(alice.uid)
    assert status["message"] == "my first status"
    assert "location" not in status
    assert status_ids(response) == [status["id"]]
    assert get_user(alice.uid)["posts"] == 1


def test_posting_with_a_location_stores_it(alice):
    alice.client.post("/statuses/", {"message": "here", "location": " 48.8584, 2.2945 "})
    (status,) = feeds.get_status_messages(alice.uid)
    assert status["location"] == "48.8584,2.2945"


def nothing_was_posted(member) -> bool:
    return get_user(member.uid)["posts"] == 0 and status_selectors.last_status_id() == 0


@pytest.mark.parametrize(
    ("message", "error"),
    [
        ("", "A status can't be empty."),
        ("   \n ", "A status can't be empty."),
        ("x" * 281, "A status is at most 280 characters."),
        ("x" * 50_001, "Ensure this value has at most 4096 characters"),
    ],
)
def test_an_empty_blank_or_too_long_message_is_refused(alice, message, error):
    response = alice.client.post("/statuses/", {"message": message})
    assert response.status_code == 400
    assert shows(response, error)
    assert nothing_was_posted(alice)


def test_a_refused_posts_text_and_error_show_only_on_its_own_page(alice, bob):
    refused = alice.client.post("/statuses/", {"message": "x" * 281, "location": "91,0"})
    assert shows(refused, "A status is at most 280 characters.")
    assert "x" * 281 in page_text(refused)
    for member in (alice, bob):  # the next pages' post box, blank for everyone
        page = member.client.get("/")
        assert "x" * 281 not in page_text(page) and "91,0" not in page_text(page)
        assert not shows(page, "A status is at most 280 characters.")
        assert 'class="field-error"' not in page_text(page)


@pytest.mark.parametrize(
    ("message", "error"),
    [
        ("pay \u202eevil", "Character 5 is a bidi override (U+202E)"),
        ("ad\u200bmin", "Character 3 is a zero-width character (U+200B)"),
        ("bell\x07", "Character 5 is a control character (U+0007)"),
    ],
)
def test_a_message_with_invisible_characters_is_a_form_error(alice, message, error):
    response = alice.client.post("/statuses/", {"message": message})
    assert response.status_code == 400
    assert shows(response, error)
    assert nothing_was_posted(alice)


def test_a_multi_line_message_from_a_textarea_is_posted_with_its_lines(alice):
    alice.client.post("/statuses/", {"message": "first line\r\n\tsecond line"})
    (status,) = feeds.get_status_messages(alice.uid)
    assert status["message"] == "first line\n\tsecond line"


def test_a_280_character_message_is_posted(alice):
    alice.client.post("/statuses/", {"message": "é" * 280})
    assert len(feeds.get_status_messages(alice.uid)) == 1


@pytest.mark.parametrize(
    ("location", "error"),
    [
        ("paris", 'A location is "latitude,longitude"'),
        ("1,2,3", 'A location is "latitude,longitude"'),
        ("91,0", "Latitude is between -90 and 90."),
        ("nan,0", "Latitude is between -90 and 90."),
        ("0,-180.5", "Longitude is between -180 and 180."),
        ("0,inf", "Longitude is between -180 and 180."),
        ("1" * 50_001 + ",2", "Ensure this value has at most 64 characters"),
    ],
)
def test_a_bad_location_is_refused(alice, location, error):
    response = alice.client.post("/statuses/", {"message": "hi", "location": location})
    assert response.status_code == 400
    assert shows(response, error)
    assert nothing_was_posted(alice)


def test_a_place_name_as_location_gets_a_friendly_error_beside_a_labelled_box(alice):
    response = alice.client.post("/statuses/", {"message": "hi", "location": "Lisbon"})
    assert response.status_code == 400
    assert shows(response, 'Places aren\'t looked up by name: for "Lisbon"')
    text = page_text(response)
    # The box is open, labelled, and keeps what was typed.
    assert re.search(r'<details class="post-location" open>', text)
    assert '<label for="id_location">Location' in text
    assert 'value="Lisbon"' in text
    assert nothing_was_posted(alice)


def test_the_composers_location_box_is_labelled_and_tucked_away(alice):
    text = page_text(alice.client.get("/"))
    assert '<details class="post-location">' in text
    assert "<summary>Add a location</summary>" in text
    assert '<label for="id_location">Location' in text


def test_posting_while_logged_out_goes_to_the_login_page(client):
    response = client.post("/statuses/", {"message": "anonymous"})
    assert response.status_code == 302
    assert response.url == "/accounts/login/?next=/"
    assert status_selectors.last_status_id() == 0


def test_the_post_url_only_takes_posts(alice):
    assert alice.client.get("/statuses/").status_code == 405


# One status, and deleting


def test_a_status_has_its_own_page(client, alice):
    sid = posting.post_status(alice.uid, "look at me")
    response = client.get(f"/statuses/{sid}/")
    assert response.status_code == 200
    assert status_ids(response) == [sid]
    assert shows(response, "look at me")


def test_an_unknown_status_is_not_found(client):
    response = client.get("/statuses/42/")
    assert response.status_code == 404
    assert shows(response, "There is no status 42")


def test_the_author_sees_a_delete_button_and_others_do_not(alice, bob):
    sid = posting.post_status(alice.uid, "mine")
    assert f'action="/statuses/{sid}/delete/"' in page_text(alice.client.get(f"/statuses/{sid}/"))
    assert "/delete/" not in page_text(bob.client.get(f"/statuses/{sid}/"))


def test_the_author_can_delete_their_status(alice):
    sid = posting.post_status(alice.uid, "oops")
    response = alice.client.post(f"/statuses/{sid}/delete/", {"next": f"/statuses/{sid}/"})
    # Not back to the page of the status that is gone.
    assert response.url == "/"
    assert status_selectors.get_status(sid) is None
    assert get_user(alice.uid)["posts"] == 0
    assert shows(alice.client.get("/"), "Your status is deleted.")


def test_deleting_someone_elses_status_is_forbidden_and_keeps_it(alice, bob):
    sid = posting.post_status(alice.uid, "not yours")
    response = bob.client.post(f"/statuses/{sid}/delete/")
    assert response.status_code == 403
    assert shows(response, "You can only delete your own statuses.")
    assert status_selectors.get_status(sid)["message"] == "not yours"
    assert get_user(alice.uid)["posts"] == 1


def test_deleting_while_logged_out_goes_to_the_login_page(client, alice):
    sid = posting.post_status(alice.uid, "safe")
    response = client.post(f"/statuses/{sid}/delete/")
    assert response.status_code == 302
    assert response.url == f"/accounts/login/?next=/statuses/{sid}/"
    assert status_selectors.get_status(sid)


def test_deleting_an_unknown_status_is_not_found(alice):
    assert alice.client.post("/statuses/42/delete/").status_code == 404


# A status's card alone (the live home timeline's fetch)


def test_a_status_card_is_the_card_alone_as_the_viewer_sees_it(alice, bob):
    sid = posting.post_status(alice.uid, "card me")
    reactions.like(bob.uid, sid)
    response = bob.client.get(f"/statuses/{sid}/card/")
    assert response.status_code == 200
    assert status_ids(response) == [sid]
    text = page_text(response)
    assert text.lstrip().startswith("<article") and text.rstrip().endswith("</article>")
    assert shows(response, "card me") and shows(response, "Unlike")
    assert f'formaction="/statuses/{sid}/delete/"' in page_text(
        alice.client.get(f"/statuses/{sid}/card/")
    )


def test_a_repost_card_shows_its_original(alice, bob):
    original = posting.post_status(alice.uid, "worth repeating")
    repost = reactions.repost(bob.uid, original)
    response = alice.client.get(f"/statuses/{repost}/card/")
    assert status_ids(response) == [repost]
    assert shows(response, "Reposted by @bob") and shows(response, "worth repeating")


def test_fetching_a_card_leaves_the_messages_for_the_next_page(alice):
    alice.client.post("/statuses/", {"message": "posted just now"})
    (status,) = feeds.get_status_messages(alice.uid)
    card = alice.client.get(f"/statuses/{status['id']}/card/")
    assert not shows(card, "Posted.")
    assert shows(alice.client.get("/"), "Posted.")


def test_a_missing_card_is_a_plain_not_found_that_leaves_the_messages(alice):
    sid = posting.post_status(alice.uid, "soon gone")
    alice.client.post(f"/statuses/{sid}/delete/")
    response = alice.client.get(f"/statuses/{sid}/card/")
    assert response.status_code == 404
    assert response.content.decode() == f"There is no status {sid}: it may have been deleted."
    assert shows(alice.client.get("/"), "Your status is deleted.")


def test_the_card_of_a_suspended_users_status_is_not_found(alice, bob):
    sid = posting.post_status(alice.uid, "then suspended")
    repost = reactions.repost(bob.uid, sid)
    set_suspended(alice.uid, True)
    assert bob.client.get(f"/statuses/{sid}/card/").status_code == 404
    assert bob.client.get(f"/statuses/{repost}/card/").status_code == 404


def test_a_card_needs_a_login_and_a_get(client, alice):
    sid = posting.post_status(alice.uid, "members only")
    response = client.get(f"/statuses/{sid}/card/")
    assert response.status_code == 302
    assert response.url == f"/accounts/login/?next=/statuses/{sid}/card/"
    assert alice.client.post(f"/statuses/{sid}/card/").status_code == 405


# Pages of a timeline


@override_settings(STATUSES_PER_PAGE=2)
def test_timelines_page_with_newer_and_older_links(client, alice):
    sids = [posting.post_status(alice.uid, f"status {n}") for n in range(5)]
    first = client.get("/timeline/")
    assert status_ids(first) == sids[:2:-1]
    assert 'href="?page=2"' in page_text(first)
    assert "Newer" not in page_text(first)
    last = client.get("/u/alice/?page=3")
    assert status_ids(last) == [sids[0]]
    assert 'href="?page=2"' in page_text(last)
    assert "Older" not in page_text(last)


@pytest.mark.parametrize("url", ["/timeline/?page=4", "/u/alice/?page=4", "/?page=9"])
@override_settings(STATUSES_PER_PAGE=2)
def test_a_page_past_the_end_is_not_found(alice, url):
    for n in range(5):
        posting.post_status(alice.uid, f"status {n}")
    response = alice.client.get(url)
    assert response.status_code == 404
    assert shows(response, "There is no page")


@pytest.mark.parametrize("number", ["0", "-1", "abc", "1.5", "99999999999999999999"])
def test_a_page_number_that_is_not_one_is_not_found(client, number):
    response = client.get(f"/timeline/?page={number}")
    assert response.status_code == 404
    assert shows(response, "is not a page number")


def test_an_empty_first_page_is_fine(client, alice):
    assert client.get("/u/alice/?page=1").status_code == 200
    assert client.get("/u/alice/followers/?page=2").status_code == 404


# Showing a status


def test_status_text_is_escaped_and_mentions_and_links_are_clickable(client, alice, bob):
    posting.post_status(
        alice.uid, "<script>alert(1)</script> hi @bob, see https://example.org/a?b=1&c=2"
    )
    text = page_text(client.get("/timeline/"))
    assert "<script>alert(1)" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert '<a class="mention" href="/u/bob/">@bob</a>' in text
    assert 'href="https://example.org/a?b=1&amp;c=2"' in text


def test_names_and_addresses_users_chose_are_escaped_on_the_pages_showing_them(client, alice, bob):
    script = "<script>alert(1)</script>"
    update_name(alice.uid, script)
    list_id = lists.create_list(bob.uid, script)
    lists.add_member(bob.uid, list_id, alice.uid)
    graph.follow_user(bob.uid, alice.uid)
    pages = {
        "home": alice.client.get("/"),
        "profile": client.get("/u/alice/"),
        "following": client.get("/u/bob/following/"),
        "lists": bob.client.get("/lists/"),
        "list": client.get(f"/lists/{list_id}/"),
        "members": client.get(f"/lists/{list_id}/members/"),
    }
    for name, response in pages.items():
        assert response.status_code == 200, name
        assert script not in page_text(response), name
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page_text(response), name
    login = page_text(client.get('/accounts/login/?next=/u/alice/"><script>alert(1)</script>'))
    assert '"><script>' not in login
    assert 'name="next" value="/u/alice/&#34;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"' in login


def test_times_are_relative_with_the_exact_time_in_the_markup(client, alice, redis_conn):
    sid = posting.post_status(alice.uid, "a while ago")
    redis_conn.hset(keys.status_key(sid), mapping=layout.posted_field(time.time() - 3 * 60 - 5))
    text = page_text(client.get(f"/statuses/{sid}/"))
    assert re.search(
        r'<time datetime="\d{4}-\d\d-\d\dT[^"]+" title="[^"]+ UTC">3\xa0minutes ago</time>', text
    )
