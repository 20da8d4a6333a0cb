"""Media on the site's pages: the card's grid (1-4, width and height set), alt text,
video with its poster, "processing", sensitive media behind "Show" (a <details>, so it
works without JavaScript), the reader's media setting, and the profile's media tab."""

import json
import re

from django.core.management import call_command

from accounts.services import close_account
from socialsite.redis import get_redis
from timeline import keys
from timeline.graph import services as graph
from timeline.media import selectors as media
from timeline.ops.maintenance import repair
from timeline.posting import services as posting
from timeline.posting.preferences import set_posting_preferences
from timeline.tests.media_helpers import post_with_media, uploaded
from timeline.tests.pages import page_text, shows, status_ids


def _media(response) -> str:
    """The page's media grids."""
    return "".join(
        re.findall(r'<details class="status-media.*?</details>', page_text(response), re.S)
    )


def test_a_card_shows_its_pictures_with_their_size_and_alt_text(alice, bob):
    graph.follow_user(bob.uid, alice.uid)
    media = [uploaded(alice.uid, alt=f"Picture {n}") for n in range(3)]
    post_with_media(alice.uid, "three pictures", media)
    grid = _media(bob.client.get("/"))
    assert 'data-media-count="3"' in grid and '<details class="status-media" open' in grid
    pictures = re.findall(r"<img [^>]*>", grid)
    assert len(pictures) == 3
    assert all('width="640" height="427"' in p for p in pictures)  # the previews'
    assert [re.search(r'alt="[^"]*"', p).group(0) for p in pictures] == [
        'alt="Picture 0"',
        'alt="Picture 1"',
        'alt="Picture 2"',
    ]
    # Each picture links to its full file (the lightbox opens it; without JS, the file).
    assert len(re.findall(r'<a class="media-link" href="[^"]+\.jpg"', grid)) == 3
    assert grid.count(">ALT</span>") == 3


def test_a_video_plays_with_controls_and_its_poster_and_says_when_processing(alice):
    post_with_media(alice.uid, "a clip", [uploaded(alice.uid, kind="video", alt="A clip")])
    grid = _media(alice.client.get("/u/alice/"))
    assert "Processing video" in grid and "<video" not in grid
    call_command("worker", burst=True)
    grid = _media(alice.client.get("/u/alice/"))
    player = re.search(r"<video [^>]*>", grid).group(0)
    assert "controls" in player and 'poster="' in player and 'src="' in player
    assert re.search(r'width="\d+" height="\d+"', player)
    assert 'aria-label="A clip"' in player and "Processing" not in grid


def test_an_animated_gif_plays_silently_in_a_loop_once_transcoded(alice):
    post_with_media(alice.uid, "moving", [uploaded(alice.uid, kind="gifv")])
    assert "Processing animation" in _media(alice.client.get("/u/alice/"))
    call_command("worker", burst=True)
    player = re.search(r"<video [^>]*>", _media(alice.client.get("/u/alice/"))).group(0)
    assert (
        all(word in player for word in ("autoplay", "loop", "muted")) and "controls" not in player
    )


def test_sensitive_media_waits_behind_show_with_its_blurhash(alice, bob):
    graph.follow_user(bob.uid, alice.uid)
    picture = uploaded(alice.uid)
    post_with_media(alice.uid, "careful", [picture], sensitive="1")
    page = bob.client.get("/")
    grid = _media(page)
    assert '<details class="status-media media-sensitive" data-media-count="1">' in grid
    blurhash = media.get_attachment(alice.uid, picture).blurhash
    assert blurhash and f'data-blurhash="{blurhash}"' in grid
    assert shows(page, "Sensitive media: show")


def test_the_media_setting_shows_all_or_hides_all(alice, bob):
    graph.follow_user(bob.uid, alice.uid)
    post_with_media(alice.uid, "careful", [uploaded(alice.uid)], sensitive="1")
    post_with_media(alice.uid, "ordinary", [uploaded(alice.uid)])
    settings = {"default_visibility": "public", "media_display": "show_all"}
    assert bob.client.post("/settings/posting/", settings).status_code == 302
    grids = _media(bob.client.get("/"))
    assert '<details class="status-media media-sensitive" open' in grids
    assert 'media_display" id="id_media_display"' in page_text(
        bob.client.get("/accounts/settings/")
    )
    bob.client.post("/settings/posting/", {**settings, "media_display": "hide_all"})
    grids = _media(bob.client.get("/"))
    assert grids.count('<details class="status-media') == 2
    assert not re.search(r'<details class="status-media[^>]* open', grids)
    # Another reader's cards, kept by the same process, are as drawn.
    assert '<details class="status-media" open' in _media(alice.client.get("/u/alice/"))


def test_a_bad_media_setting_is_refused_and_nothing_changes(alice):
    response = alice.client.post(
        "/settings/posting/", {"default_visibility": "public", "media_display": "sometimes"}
    )
    assert response.status_code == 302
    assert shows(alice.client.get("/accounts/settings/"), "Choose how media shows")
    page = page_text(alice.client.get("/accounts/settings/"))
    assert '<option value="default" selected>' in page


def test_the_media_tab_lists_only_statuses_with_media(alice, bob):
    plain = posting.post_status(alice.uid, "words only")
    pictured = post_with_media(alice.uid, "a picture", [uploaded(alice.uid)])
    tab = bob.client.get("/u/alice/media/")
    assert tab.status_code == 200
    assert status_ids(tab) == [pictured]
    assert plain in status_ids(bob.client.get("/u/alice/"))
    assert shows(bob.client.get("/u/bob/media/"), "No statuses with media yet.")
    assert bob.client.get("/u/nobody/media/").status_code == 404


def test_a_deleted_status_leaves_the_media_tab(alice):
    pictured = post_with_media(alice.uid, "a picture", [uploaded(alice.uid)])
    posting.delete_status(alice.uid, pictured)
    assert status_ids(alice.client.get("/u/alice/media/")) == []


def test_the_media_tab_of_a_private_account_shows_others_nothing(alice, bob):
    from timeline.safety import services as safety

    safety.set_private(alice.uid, True)
    post_with_media(alice.uid, "mine", [uploaded(alice.uid)])
    assert status_ids(bob.client.get("/u/alice/media/")) == []
    assert len(status_ids(alice.client.get("/u/alice/media/"))) == 1


def test_the_export_carries_the_media_setting(alice):
    set_posting_preferences(
        alice.uid, default_visibility="public", expand_warnings=False, media_display="hide_all"
    )
    data = json.loads(b"".join(alice.client.post("/export/")))
    assert data["profile"]["media_display"] == "hide_all"


def test_a_closed_accounts_media_tab_goes_with_it(alice):
    post_with_media(alice.uid, "a picture", [uploaded(alice.uid)])
    assert get_redis().zcard(keys.media_timeline_key(alice.uid)) == 1
    close_account(alice.uid)
    call_command("worker", burst=True)
    assert get_redis().exists(keys.media_timeline_key(alice.uid)) == 0


def test_the_repair_drops_deleted_statuses_from_the_media_tab(alice):
    pictured = post_with_media(alice.uid, "a picture", [uploaded(alice.uid)])
    # A status deleted behind the index's back: the repair takes its id off the tab.
    get_redis().delete(keys.status_key(pictured))
    repair(fix=True)
    assert get_redis().zcard(keys.media_timeline_key(alice.uid)) == 0


def test_a_page_of_statuses_with_media_reads_their_attachments_in_one_round_trip(
    make_user, round_trips
):
    from timeline.feeds import selectors as feeds
    from timeline.statuses import cache

    def cold_and_kept(reader: int) -> tuple[int, int]:
        for status in feeds.home_page(reader).page.statuses:
            cache.statuses.forget(status["id"])
        return round_trips(lambda: feeds.home_page(reader)), round_trips(
            lambda: feeds.home_page(reader)
        )

    words, pictures = make_user("words"), make_user("pictures")
    reads_words, reads_pictures = make_user("readsw").uid, make_user("readsp").uid
    graph.follow_user(reads_words, words.uid)
    graph.follow_user(reads_pictures, pictures.uid)
    for i in range(6):
        posting.post_status(words.uid, f"w{i}")
        post_with_media(pictures.uid, f"p{i}", [uploaded(pictures.uid) for _ in range(1 + i % 4)])
    home = feeds.home_page(reads_pictures).page.statuses
    assert sum(len(s.get("attachments", ())) for s in home) == 13
    plain_cold, plain_kept = cold_and_kept(reads_words)
    cold, kept = cold_and_kept(reads_pictures)
    # Not kept: all 13 attachments in one more round trip than a page of text.
    assert cold == plain_cold + 1
    # Kept: the attachments were kept with the statuses, and nothing more is read.
    assert kept == plain_kept
    home = feeds.home_page(reads_pictures).page.statuses
    assert sum(len(s.get("attachments", ())) for s in home) == 13


def test_a_card_answered_in_place_keeps_the_readers_media_setting(alice, bob):
    graph.follow_user(bob.uid, alice.uid)
    status_id = post_with_media(alice.uid, "careful", [uploaded(alice.uid)], sensitive="1")
    bob.client.post(
        "/settings/posting/", {"default_visibility": "public", "media_display": "show_all"}
    )
    answer = bob.client.post(
        f"/statuses/{status_id}/like/", {"card": status_id}, HTTP_HX_REQUEST="true"
    )
    assert answer.status_code == 200
    assert '<details class="status-media media-sensitive" open' in page_text(answer)
