"""Media on cards in Debian's Chromium against a real daphne server: a picture opens in
the lightbox with its alt text, sensitive media waits behind its blurhash until "Show"
is clicked, and pictures loading move nothing on the page."""

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from accounts import services as accounts
from timeline.graph import services as graph
from timeline.tests.media_helpers import post_with_media, uploaded

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The page's cumulative layout shift (Chromium's layout-shift entries, buffered from the
# page's start), once every picture on it has loaded.
LAYOUT_SHIFT = """async () => {
  await Promise.all(Array.from(document.images, (img) => img.complete ? null :
    new Promise((done) => { img.onload = img.onerror = done; })));
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  return await new Promise((done) => {
    new PerformanceObserver((list) => {
      const shifts = list.getEntries().filter((entry) => !entry.hadRecentInput);
      done(shifts.reduce((sum, entry) => sum + entry.value, 0));
    }).observe({ type: "layout-shift", buffered: true });
    setTimeout(() => done(0), 500);
  });
}"""


def test_a_picture_opens_in_the_lightbox_with_its_alt_text(signed_up_page):
    page = signed_up_page("painter")
    uid = accounts.uid_for_login("painter")
    media = [uploaded(uid, alt="A blue square at dusk"), uploaded(uid)]
    post_with_media(uid, "two squares", media)
    page.reload()
    card = page.locator("article.status").first
    card.get_by_role("img", name="A blue square at dusk").click()
    box = page.locator("dialog.media-lightbox")
    expect(box).to_be_visible()
    expect(box.locator(".media-lightbox-alt")).to_have_text("A blue square at dusk")
    assert box.locator("img").evaluate("img => img.src").endswith(".jpg")
    box.get_by_role("button", name="Close").click()
    expect(box).to_be_hidden()
    # The one without alt text says so.
    card.locator("a.media-link").nth(1).click()
    expect(box.locator(".media-lightbox-alt")).to_have_text("No description.")
    page.keyboard.press("Escape")
    expect(box).to_be_hidden()


def test_sensitive_media_shows_its_blurhash_until_show_is_clicked(signed_up_page):
    page = signed_up_page("careful")
    uid = accounts.uid_for_login("careful")
    post_with_media(uid, "beware", [uploaded(uid, alt="Spider")], sensitive="1")
    page.reload()
    card = page.locator("article.status").first
    picture = card.get_by_role("img", name="Spider")
    expect(picture).to_be_hidden()
    placeholder = card.locator("summary canvas.media-blurhash")
    expect(placeholder).to_be_visible()
    # Drawn from the blurhash: not the empty box.
    expect(placeholder).to_have_class("media-blurhash media-blurhash-drawn")
    box = placeholder.bounding_box()
    assert box is not None and box["width"] > 100 and box["height"] > 50
    card.get_by_text("Sensitive media: show").click()
    expect(picture).to_be_visible()
    expect(placeholder).to_be_hidden()


def test_pictures_loading_move_nothing_on_the_page(signed_up_page):
    page = signed_up_page("steady")
    uid = accounts.uid_for_login("steady")
    for count in (1, 2, 3, 4):
        media = [uploaded(uid, alt=f"Square {n}") for n in range(count)]
        post_with_media(uid, f"{count} squares", media)
    # Tall enough that every (lazily loaded) picture is in view and loads.
    page.set_viewport_size({"width": 1280, "height": 5000})
    page.reload()
    assert page.locator("article.status img.media-file").count() == 10
    assert page.evaluate(LAYOUT_SHIFT) < 0.01
    # One picture keeps its shape: 1200x800's preview is drawn 3:2.
    single = page.locator("article.status").nth(3).locator("img.media-file").bounding_box()
    assert single is not None and abs(single["width"] / single["height"] - 1.5) < 0.02


def test_live_home_shows_a_new_status_with_its_media(signed_up_page):
    reader = signed_up_page("watcher")
    expect(reader.locator("#timeline")).to_have_attribute("data-live", "on")
    author = accounts.create_user("snapper", "Snapper")
    assert author is not None
    graph.follow_user(accounts.uid_for_login("watcher"), author)
    post_with_media(author, "fresh", [uploaded(author, alt="A live picture")])
    reader.locator(".new-statuses").click()
    expect(reader.get_by_role("img", name="A live picture")).to_be_visible()


def test_a_card_processing_its_animation_is_drawn_again_once_ready(signed_up_page):
    page = signed_up_page("mover")
    uid = accounts.uid_for_login("mover")
    post_with_media(uid, "moving", [uploaded(uid, kind="gifv", alt="A spinning top")])
    page.reload()
    card = page.locator("article.status").first
    expect(card.get_by_text("Processing animation")).to_be_visible()
    call_command("worker", burst=True)
    expect(card.locator("video")).to_have_attribute("aria-label", "A spinning top", timeout=20_000)
    expect(page.get_by_text("Processing animation")).to_be_hidden()


def test_the_composer_asks_alt_text_for_each_file_and_posts_them(signed_up_page, tmp_path):
    from timeline.media.tests import files

    page = signed_up_page("composer")
    for name in ("first.jpg", "second.jpg"):
        (tmp_path / name).write_bytes(files.jpeg((600, 400)))
    page.get_by_label("Your status").fill("two pictures")
    page.get_by_text("Add pictures or a video").click()
    page.locator("input.post-media-files").set_input_files(
        [str(tmp_path / "first.jpg"), str(tmp_path / "second.jpg")]
    )
    rows = page.locator(".post-media-alt")
    # One alt-text field per file, named after it, each marked while empty.
    expect(rows.nth(0)).to_contain_text("first.jpg")
    expect(rows.nth(1)).to_contain_text("second.jpg")
    expect(rows.nth(2)).to_be_hidden()
    expect(rows.nth(0).locator(".post-media-missing")).to_be_visible()
    rows.nth(0).locator("textarea").fill("The first picture")
    expect(rows.nth(0).locator(".post-media-missing")).to_be_hidden()
    expect(rows.nth(1).locator(".post-media-missing")).to_be_visible()
    page.get_by_role("button", name="Post", exact=True).click()
    expect(page.get_by_text("Posted.")).to_be_visible()
    card = page.locator("article.status").first
    expect(card.get_by_role("img", name="The first picture")).to_be_visible()
    expect(card.locator("img.media-file")).to_have_count(2)
