"""Link cards made by the worker from a real local site: OpenGraph, plain pages, oEmbed,
the per-URL cache, pictures redrawn, and the card following the status's edits and
deletion."""

import io
import json

from django.core.files.storage import default_storage
from django.test import override_settings
from PIL import Image

from accounts.services import close_account
from socialsite.redis import get_redis
from socialsite.testing.pages import Page, html_page
from timeline import keys
from timeline.edits import services as edits
from timeline.linkcards import services
from timeline.linkcards.keys import link_card_key
from timeline.linkcards.records import card_from_json
from timeline.linkcards.selectors import card_of
from timeline.posting import services as posting
from timeline.reactions import services as reactions
from timeline.statuses.selectors import get_status

from .site import jpeg_with_gps, og_page, run_jobs


def _card(status_id: int):
    status = get_status(status_id)
    assert status is not None
    return card_of(status)


def test_a_posted_link_gets_its_pages_opengraph_card_with_the_picture_redrawn(alice, pages):
    status_id = posting.post_status(alice.uid, f"Read this {pages.url('/og')} now")
    assert _card(status_id) is None  # the worker fetches it, never the post
    run_jobs()
    card = _card(status_id)
    assert card is not None and card.url == pages.url("/og")
    assert card.title == "A page" and card.description == "What the page says about itself."
    assert card.site_name == "Example News" and card.site == "Example News"
    assert card.image_description == "A red square" and card.type == "link"
    assert card.image_file.startswith("cards/") and card.image == default_storage.url(
        card.image_file
    )
    with default_storage.open(card.image_file) as stored:
        picture = Image.open(io.BytesIO(stored.read()))
    # Redrawn: WebP, within 640 px a side, and nothing of its EXIF (GPS, camera) kept.
    assert picture.format == "WEBP" and (picture.width, picture.height) == (640, 427)
    assert (card.width, card.height) == (640, 427)
    assert not picture.getexif() and "exif" not in picture.info
    assert len(card.blurhash) > 6  # the placeholder while it loads


def test_a_card_picture_with_something_appended_is_refused_as_an_upload_is(alice, pages):
    pages.pages["/polyglot.jpg"] = Page(
        jpeg_with_gps() + b"PK\x03\x04 a zip", headers={"Content-Type": "image/jpeg"}
    )
    pages.pages["/poly"] = Page(og_page(image="/polyglot.jpg"))
    status_id = posting.post_status(alice.uid, f"{pages.url('/poly')}")
    run_jobs()
    card = _card(status_id)
    assert card is not None and card.title == "A page" and not card.image


def test_a_page_without_tags_gives_a_card_from_its_title(alice, pages):
    pages.pages["/plain"] = Page(html_page("<title> Just  a title </title>"))
    status_id = posting.post_status(alice.uid, f"{pages.url('/plain')}")
    run_jobs()
    card = _card(status_id)
    assert card is not None and card.title == "Just a title" and not card.image
    assert card.site == "127.0.0.1"


def test_oembed_discovery_fills_the_kind_author_and_provider(alice, pages):
    oembed = pages.url("/oembed.json")
    pages.pages["/video"] = Page(
        html_page(
            '<meta property="og:title" content="A talk">'
            f'<link rel="alternate" type="application/json+oembed" href="{oembed}">'
        )
    )
    pages.pages["/oembed.json"] = Page(
        json.dumps(
            {
                "type": "video",
                "version": "1.0",
                "title": "oEmbed's title loses to the page's",
                "author_name": "Some Speaker",
                "provider_name": "VideoSite",
                "provider_url": "https://videos.example/",
                "html": "<iframe src='https://evil.example/'></iframe>",
            }
        ).encode(),
        headers={"Content-Type": "application/json"},
    )
    status_id = posting.post_status(alice.uid, f"watch {pages.url('/video')}")
    run_jobs()
    card = _card(status_id)
    assert card is not None and card.type == "video" and card.title == "A talk"
    assert card.author_name == "Some Speaker" and card.provider_name == "VideoSite"
    assert card.site == "VideoSite" and "iframe" not in get_status(status_id)["card"]


def test_pages_that_give_no_card_give_none(alice, pages):
    pages.pages["/bare"] = Page(html_page(""))
    pages.pages["/file.pdf"] = Page(b"%PDF-1.4", headers={"Content-Type": "application/pdf"})
    pages.pages["/loop"] = Page(status=302, headers={"Location": "/loop"})
    pages.pages["/huge"] = Page(og_page(extra="<!--" + "x" * 2_000_000 + "-->"))
    ids = [
        posting.post_status(alice.uid, f"see {pages.url(path)}")
        for path in ("/bare", "/file.pdf", "/loop", "/huge", "/missing")
    ]
    run_jobs()
    for status_id in ids:
        assert _card(status_id) is None and "card" not in get_status(status_id)


def test_a_card_is_fetched_once_per_url_and_a_failure_is_kept_for_less(alice, pages):
    conn = get_redis()
    first = posting.post_status(alice.uid, f"{pages.url('/og')}")
    second = posting.post_status(alice.uid, f"again {pages.url('/og')}")
    posting.post_status(alice.uid, f"{pages.url('/gone')}")
    posting.post_status(alice.uid, f"{pages.url('/gone')} twice")
    run_jobs()
    assert _card(first).title == _card(second).title == "A page"
    asked = [path for path, _ in pages.requests]
    assert asked.count("/og") == 1 and asked.count("/gone") == 1
    # Each status has its own copy of the picture (its deletion frees it alone).
    assert _card(first).image_file != _card(second).image_file
    assert 86_000 < conn.ttl(link_card_key(pages.url("/og"))) <= 86_400
    assert 3_500 < conn.ttl(link_card_key(pages.url("/gone"))) <= 3_600


def test_only_the_first_link_unfolds_and_never_a_mention_tag_or_repost(alice, bob, pages):
    pages.pages["/second"] = Page(og_page("Second"))
    status_id = posting.post_status(
        alice.uid, f"@bob #news {pages.url('/og')} and {pages.url('/second')}"
    )
    repost_id = reactions.repost(bob.uid, status_id)
    run_jobs()
    assert _card(status_id).title == "A page"
    assert "card" not in get_status(repost_id)
    assert [path for path, _ in pages.requests].count("/second") == 0
    assert posting.post_status(alice.uid, "@bob #news no links") is not None
    assert services.first_link({"message": "@bob #news", "id": 1, "uid": 1}) is None


def test_an_edit_that_changes_the_link_changes_the_card(alice, pages):
    pages.pages["/other"] = Page(og_page("Other page", image=""))
    status_id = posting.post_status(alice.uid, f"{pages.url('/og')}")
    run_jobs()
    old = _card(status_id)
    edits.edit_status(alice.uid, status_id, f"better: {pages.url('/other')}")
    # Hidden at once, before the job runs: it unfolds a link the status no longer has.
    assert _card(status_id) is None
    run_jobs()
    assert _card(status_id).title == "Other page"
    assert not default_storage.exists(old.image_file)  # the old card's picture is freed


def test_an_edit_that_drops_the_link_drops_the_card_and_its_picture(alice, pages):
    status_id = posting.post_status(alice.uid, f"{pages.url('/og')}")
    run_jobs()
    old = _card(status_id)
    edits.edit_status(alice.uid, status_id, "no link now")
    run_jobs()
    assert "card" not in get_status(status_id)
    assert not default_storage.exists(old.image_file)


def test_an_edit_keeping_the_link_keeps_the_card_without_a_fetch(alice, pages):
    status_id = posting.post_status(alice.uid, f"{pages.url('/og')}")
    run_jobs()
    before = _card(status_id)
    edits.edit_status(alice.uid, status_id, f"edited, same link {pages.url('/og')}")
    run_jobs()
    assert _card(status_id) == before and len(pages.requests) == 2  # the page, its picture


def test_a_card_fetched_for_an_older_version_never_lands(alice, pages):
    status_id = posting.post_status(alice.uid, f"{pages.url('/og')}")
    older = get_status(status_id)
    edits.edit_status(alice.uid, status_id, "no link now")
    card = services.build_card(pages.url("/og"))
    assert card is not None and default_storage.exists(card.image_file)
    assert services.set_card(older, card) is False
    assert "card" not in get_status(status_id)
    assert not default_storage.exists(card.image_file)  # the card that didn't land


def test_a_deleted_status_takes_its_card_and_picture_with_it(alice, pages):
    status_id = posting.post_status(alice.uid, f"{pages.url('/og')}")
    run_jobs()
    card = _card(status_id)
    assert default_storage.exists(card.image_file)
    assert posting.delete_status(alice.uid, status_id)
    run_jobs()
    assert not get_redis().exists(keys.status_key(status_id))
    assert not default_storage.exists(card.image_file)


def test_a_card_for_a_status_deleted_before_its_job_is_never_stored(alice, pages):
    status_id = posting.post_status(alice.uid, f"{pages.url('/og')}")
    assert posting.delete_status(alice.uid, status_id)
    run_jobs()
    assert not get_redis().exists(keys.status_key(status_id))
    assert pages.requests == []


def test_a_stored_card_is_small_enough_to_keep_the_status_compact(alice, pages):
    long = "word " * 400
    pages.pages["/long"] = Page(
        html_page(
            f'<meta property="og:title" content="{long}">'
            f'<meta property="og:description" content="{long}">'
            f'<meta property="og:site_name" content="{long}">'
        )
    )
    status_id = posting.post_status(alice.uid, f"{pages.url('/long')}")
    run_jobs()
    stored = get_status(status_id)["card"]
    assert len(stored.encode()) <= services.CARD_MAX_BYTES
    card = card_from_json(stored)
    assert len(card.title) <= 200 and card.title.endswith("…")
    encoding = get_redis().object("encoding", keys.status_key(status_id))
    assert encoding in ("ziplist", "listpack")


@override_settings(SOCIALSITE_FETCH_ALLOW_PRIVATE=False)
def test_a_link_to_a_private_address_is_never_fetched(alice, pages):
    status_id = posting.post_status(alice.uid, f"{pages.url('/og')}")
    run_jobs()
    assert _card(status_id) is None and pages.requests == []


def test_a_closed_accounts_statuses_take_their_card_pictures_with_them(alice, pages):
    status_id = posting.post_status(alice.uid, f"{pages.url('/og')}")
    run_jobs()
    card = _card(status_id)
    assert default_storage.exists(card.image_file)
    close_account(alice.uid)
    run_jobs()
    assert get_status(status_id) is None
    assert not default_storage.exists(card.image_file)
