"""In-place actions: htmx's requests get a partial (the card or control as it now
stands, or a line saying why not); without JavaScript the same forms POST and redirect."""

from timeline.graph import selectors as graph_selectors
from timeline.posting import services as posting
from timeline.reactions import services as reactions
from timeline.statuses import selectors as status_selectors
from timeline.tests.pages import page_text, shows, status_ids

HTMX = {"HTTP_HX_REQUEST": "true"}


def test_an_in_place_like_answers_the_card_with_its_count_and_unlike(alice, bob):
    sid = posting.post_status(alice.uid, "like me in place")
    response = bob.client.post(
        f"/statuses/{sid}/like/", {"card": sid, "next": "/timeline/"}, **HTMX
    )
    assert response.status_code == 200
    text = page_text(response)
    assert text.lstrip().startswith("<article") and text.rstrip().endswith("</article>")
    assert status_ids(response) == [sid]
    assert shows(response, "1 like") and shows(response, "Unlike")
    assert f'hx-post="/statuses/{sid}/unlike/"' in text
    # No "Liked." waiting for the next page: the card said it.
    assert "Liked." not in page_text(bob.client.get("/timeline/"))


def test_an_in_place_unlike_answers_the_card_unliked(alice, bob):
    sid = posting.post_status(alice.uid, "changed my mind")
    reactions.like(bob.uid, sid)
    response = bob.client.post(f"/statuses/{sid}/unlike/", {"card": sid}, **HTMX)
    assert response.status_code == 200
    assert shows(response, "0 likes")
    assert f'hx-post="/statuses/{sid}/like/"' in page_text(response)


def test_liking_the_original_on_a_repost_card_answers_the_repost_card(alice, bob, make_user):
    carol = make_user("carol")
    original = posting.post_status(alice.uid, "worth repeating")
    repost = reactions.repost(bob.uid, original)
    response = carol.client.post(f"/statuses/{original}/like/", {"card": repost}, **HTMX)
    assert response.status_code == 200
    assert status_ids(response) == [repost]
    assert shows(response, "Reposted by") and shows(response, "1 like")


def test_an_in_place_repost_and_its_undo_answer_the_card(alice, bob):
    sid = posting.post_status(alice.uid, "share me")
    response = bob.client.post(f"/statuses/{sid}/repost/", {"card": sid}, **HTMX)
    assert shows(response, "Undo repost") and shows(response, "1 repost")
    response = bob.client.post(f"/statuses/{sid}/unrepost/", {"card": sid}, **HTMX)
    assert shows(response, "Repost") and shows(response, "0 reposts")


def test_an_in_place_like_done_already_answers_the_card_as_it_is(alice, bob):
    sid = posting.post_status(alice.uid, "double click")
    reactions.like(bob.uid, sid)
    response = bob.client.post(f"/statuses/{sid}/like/", {"card": sid}, **HTMX)
    assert response.status_code == 200 and shows(response, "1 like")


def test_an_in_place_refusal_is_a_line_added_to_the_card(alice, bob):
    response = bob.client.post("/statuses/424242/like/", {"card": 424242}, **HTMX)
    assert response.status_code == 404
    assert response["HX-Reswap"] == "beforeend"
    text = page_text(response)
    assert text.startswith('<p class="action-error" role="alert">') and "<html" not in text


def test_an_in_place_delete_answers_nothing_so_the_card_goes(alice):
    sid = posting.post_status(alice.uid, "oops")
    response = alice.client.post(f"/statuses/{sid}/delete/", **HTMX)
    assert response.status_code == 200 and page_text(response) == ""
    assert status_selectors.get_status(sid) is None


def test_without_javascript_a_like_still_posts_and_redirects(alice, bob):
    sid = posting.post_status(alice.uid, "no js here")
    response = bob.client.post(f"/statuses/{sid}/like/", {"card": sid, "next": "/timeline/"})
    assert response.status_code == 302 and response["Location"] == "/timeline/"
    assert shows(bob.client.get("/timeline/"), "Liked.")


def test_an_in_place_follow_answers_the_control_to_unfollow(alice, bob):
    response = bob.client.post("/u/alice/follow/", {"next": "/u/alice/"}, **HTMX)
    assert response.status_code == 200
    text = page_text(response)
    assert text.lstrip().startswith('<form class="follow-control"')
    assert 'hx-post="/u/alice/unfollow/"' in text and shows(response, "Unfollow")
    assert 'name="next" value="/u/alice/"' in text
    assert graph_selectors.is_following(bob.uid, alice.uid)


def test_an_in_place_follow_in_a_list_keeps_the_rows_labels(alice, bob):
    response = bob.client.post("/u/alice/follow/", {"in_list": "1"}, **HTMX)
    assert 'aria-label="Unfollow @alice"' in page_text(response)
    response = bob.client.post("/u/alice/unfollow/", {"in_list": "1"}, **HTMX)
    assert 'aria-label="Follow @alice"' in page_text(response)


def test_an_in_place_follow_of_a_private_account_answers_a_request_to_cancel(alice, bob):
    from timeline.safety import services as safety

    safety.set_private(alice.uid, True)
    response = bob.client.post("/u/alice/follow/", **HTMX)
    assert shows(response, "Requested") and 'hx-post="/u/alice/unfollow/"' in page_text(response)
    response = bob.client.post("/u/alice/unfollow/", **HTMX)
    assert 'hx-post="/u/alice/follow/"' in page_text(response)


def test_an_in_place_action_with_a_stale_csrf_token_asks_to_reload(alice, bob):
    from django.test import Client

    sid = posting.post_status(alice.uid, "stale page")
    client = Client(enforce_csrf_checks=True)
    client.force_login(bob.user)
    response = client.post(f"/statuses/{sid}/like/", {"card": sid}, **HTMX)
    assert response.status_code == 403 and response["HX-Reswap"] == "beforeend"
    assert shows(response, "reload it") and "<html" not in page_text(response)
    response = client.post(f"/statuses/{sid}/like/", {"card": sid})
    assert response.status_code == 403 and "<html" in page_text(response)
