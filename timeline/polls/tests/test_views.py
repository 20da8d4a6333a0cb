"""The composer's poll, the card's voting form and results, and /polls/<id>/votes/."""

import re

from django.urls import reverse

from timeline.feeds import selectors as feeds
from timeline.polls import services as polls
from timeline.polls.selectors import poll_of
from timeline.posting import services as posting
from timeline.statuses import selectors as status_selectors
from timeline.tests.pages import page_text, shows

HTMX = {"HTTP_HX_REQUEST": "true"}


def post_poll(uid, options=("Tea", "Coffee"), **spec):
    return posting.post_status(uid, "Which?", poll=polls.check_poll(list(options), 3600, **spec))


def test_the_composer_posts_a_poll(alice):
    response = alice.client.post(
        reverse("post_status"),
        {
            "message": "Lunch?",
            "poll_options": ["Soup", "Salad", "", ""],
            "poll_expires_in": "1800",
            "poll_multiple": "on",
        },
    )
    assert response.status_code == 302
    (status,) = feeds.get_status_messages(alice.uid, "profile")
    poll = poll_of(status)
    assert [o.title for o in poll.options] == ["Soup", "Salad"] and poll.multiple
    assert poll.expires_at - status["posted"] == __import__("pytest").approx(1800, abs=1)


def test_the_composer_offers_a_poll_that_works_without_javascript(alice):
    text = page_text(alice.client.get(reverse("home")))
    assert text.count('name="poll_options"') == 4
    assert 'name="poll_expires_in"' in text and 'name="poll_multiple"' in text
    assert 'name="poll_hide_totals"' in text


def test_a_bad_poll_is_a_form_error_and_posts_nothing(alice):
    response = alice.client.post(
        reverse("post_status"), {"message": "Lunch?", "poll_options": ["Soup", ""]}
    )
    assert response.status_code == 400
    assert shows(response, "A poll has 2 to 4 options.")
    assert feeds.get_status_messages(alice.uid, "profile") == []
    # What was typed stays in the box.
    assert 'value="Soup"' in page_text(response)


def test_an_open_poll_shows_a_voting_form_to_others_and_results_to_its_author(alice, bob):
    sid = post_poll(alice.uid)
    page = page_text(bob.client.get(reverse("status", args=[sid])))
    assert page.count(f'name="choices-{sid}"') == 2 and 'type="radio"' in page
    assert f'formaction="/polls/{sid}/votes/"' in page
    own = alice.client.get(reverse("status", args=[sid]))
    assert f'name="choices-{sid}"' not in page_text(own)
    assert shows(own, "Tea 0%") and shows(own, "0 people voted")


def test_a_multiple_choice_poll_has_checkboxes(alice, bob):
    sid = post_poll(alice.uid, multiple=True)
    page = page_text(bob.client.get(reverse("status", args=[sid])))
    assert page.count('type="checkbox"') >= 2 and f'name="choices-{sid}"' in page


def test_voting_without_javascript_redirects_to_the_results(alice, bob):
    sid = post_poll(alice.uid)
    response = bob.client.post(
        reverse("poll_vote", args=[sid]), {f"choices-{sid}": "1", "next": f"/statuses/{sid}/"}
    )
    assert response.status_code == 302 and response["Location"] == f"/statuses/{sid}/"
    page = bob.client.get(response["Location"])
    assert shows(page, "Voted.")
    assert shows(page, "Coffee Your choice 100%") and shows(page, "Tea 0%")
    assert shows(page, "1 person voted")
    assert f'name="choices-{sid}"' not in page_text(page)


def test_the_plain_choices_field_votes_too(alice, bob):
    sid = post_poll(alice.uid, multiple=True)
    bob.client.post(reverse("poll_vote", args=[sid]), {"choices": ["0", "1"]})
    assert poll_of(status_selectors.get_status(sid)).votes_count == 2


def test_an_in_place_vote_answers_the_card_with_its_results(alice, bob):
    sid = post_poll(alice.uid)
    response = bob.client.post(
        reverse("poll_vote", args=[sid]), {f"choices-{sid}": "0", "card": sid}, **HTMX
    )
    assert response.status_code == 200
    assert page_text(response).lstrip().startswith("<article")
    assert shows(response, "Tea Your choice 100%")


def test_a_second_vote_is_refused_and_changes_nothing(alice, bob):
    sid = post_poll(alice.uid)
    bob.client.post(reverse("poll_vote", args=[sid]), {"choices": "0"})
    response = bob.client.post(reverse("poll_vote", args=[sid]), {"choices": "1"})
    assert response.status_code == 400 and shows(response, "You already voted in this poll.")
    assert [o.votes for o in poll_of(status_selectors.get_status(sid)).options] == [1, 0]


def test_a_vote_with_no_choice_is_refused(alice, bob):
    sid = post_poll(alice.uid)
    response = bob.client.post(reverse("poll_vote", args=[sid]), {})
    assert response.status_code == 400 and shows(response, "Choose an option.")


def test_a_vote_in_a_status_gone_is_a_404(bob):
    assert (
        bob.client.post(reverse("poll_vote", args=[999_999]), {"choices": "0"}).status_code == 404
    )


def test_a_visitor_is_sent_to_log_in(alice, client):
    sid = post_poll(alice.uid)
    response = client.post(reverse("poll_vote", args=[sid]), {"choices": "0"})
    assert response.status_code == 302 and "login" in response["Location"]
    assert poll_of(status_selectors.get_status(sid)).voters_count == 0


def test_votes_past_the_limit_are_refused_with_429(alice, bob, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "poll_votes": (1, 600)}
    first, second = post_poll(alice.uid), post_poll(alice.uid)
    assert bob.client.post(reverse("poll_vote", args=[first]), {"choices": "0"}).status_code == 302
    refused = bob.client.post(reverse("poll_vote", args=[second]), {"choices": "0"})
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert poll_of(status_selectors.get_status(second)).voters_count == 0


def test_hidden_totals_show_no_percentages_until_closed(alice, bob):
    sid = post_poll(alice.uid, hide_totals=True)
    bob.client.post(reverse("poll_vote", args=[sid]), {"choices": "0"})
    page = bob.client.get(reverse("status", args=[sid]))
    assert shows(page, "results when it closes")
    assert not re.search(r"\d+%", " ".join(page_text(page).split("status-poll")[1:2]))


def test_the_cached_card_follows_each_viewers_vote(alice, bob, make_user):
    sid = post_poll(alice.uid)
    carol = make_user("carol")
    bob.client.post(reverse("poll_vote", args=[sid]), {"choices": "0"})
    # Same status, same counts: carol, who hasn't voted, still gets the form.
    assert f'name="choices-{sid}"' in page_text(carol.client.get(reverse("status", args=[sid])))
    assert f'name="choices-{sid}"' not in page_text(bob.client.get(reverse("status", args=[sid])))
