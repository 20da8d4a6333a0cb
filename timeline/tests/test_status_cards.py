"""The status card template (Jinja2) on its own: counts, buttons and escaping."""

import re
import time

from timeline.statuses.cards import kept_cards, status_cards

# One posting time for every card: cards differing only by viewer or a field then share
# everything else a kept card is found by.
POSTED = time.time()


def card(viewer_uid=None, **fields):
    status = {
        "id": 5, "uid": 1, "login": "alice", "message": "hello", "posted": POSTED,
        "replies": 0, "reposts": 0, "likes": 0, **fields,
    }  # fmt: skip
    html = status_cards([status], viewer_uid)
    return re.sub(r"\s+", " ", html)


def read(html: str) -> str:
    """A card as a screen reader reads it: its text, the icons' screen-reader texts too."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))


def test_counts_read_in_the_singular_and_the_plural():
    none = read(card())
    assert "0 replies" in none and "0 reposts" in none and "0 likes" in none
    one = read(card(replies=1, reposts=1, likes=1))
    assert re.search(r"1 reply\b", one) and re.search(r"1 repost\b", one)
    assert re.search(r"1 like\b", one)
    two = read(card(replies=2, reposts=2, likes=2))
    assert "2 replies" in two and "2 reposts" in two and "2 likes" in two


def test_what_users_wrote_is_escaped():
    html = card(login="<b>x</b>", location='"><img src=x>', message="<script>alert(1)</script>")
    assert "<b>x</b>" not in html and "&lt;b&gt;x&lt;/b&gt;" in html
    assert '"><img' not in html and "&#34;&gt;&lt;img src=x&gt;" in html
    assert "<script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_buttons_submit_the_page_form_and_only_the_author_may_delete_on_kept_cards_too():
    assert "<button" not in card(viewer_uid=None)
    someone_else = card(viewer_uid=2, liked=True)
    assert 'form="status-actions" formaction="/statuses/5/unlike/"' in someone_else
    assert 'formaction="/statuses/5/repost/"' in someone_else
    assert "delete" not in someone_else
    assert 'formaction="/statuses/5/like/"' in card(viewer_uid=2, liked=False)
    assert 'formaction="/statuses/5/delete/"' in card(viewer_uid=1)
    assert "delete" not in card(viewer_uid=2)
    assert "<button" not in card(viewer_uid=None)


def test_a_deleted_status_in_a_conversation_reads_as_deleted():
    html = status_cards([None], None)
    assert "This status was deleted." in html


def test_a_kept_card_still_says_how_long_ago_it_is_now(monkeypatch):
    from datetime import timedelta

    from django.utils import timezone

    posted = time.time()
    assert "just now" in card(posted=posted)
    later = timezone.now() + timedelta(hours=2, seconds=1)
    monkeypatch.setattr(timezone, "now", lambda: later)
    assert "2 hours ago" in card(posted=posted)


def test_cards_are_kept_up_to_the_setting_and_none_at_zero(settings):
    settings.STATUS_CARDS_KEPT = 2
    for likes in range(3):
        card(likes=likes)
    assert kept_cards() == 1  # full at the third: emptied, then kept
    settings.STATUS_CARDS_KEPT = 0
    assert "7 likes" in read(card(likes=7))
    assert kept_cards() == 0


def test_a_card_hours_old_is_kept_for_the_hour_and_then_says_the_next(monkeypatch):
    from datetime import timedelta

    from django.utils import timezone

    start = timezone.now()
    posted = (start - timedelta(hours=3, minutes=5)).timestamp()
    assert "3 hours ago" in card(posted=posted)
    for later in (timedelta(minutes=30), timedelta(minutes=54)):
        monkeypatch.setattr(timezone, "now", lambda later=later: start + later)
        assert "3 hours ago" in card(posted=posted)
    assert kept_cards() == 1
    monkeypatch.setattr(timezone, "now", lambda: start + timedelta(minutes=55, seconds=61))
    assert "4 hours ago" in card(posted=posted)
