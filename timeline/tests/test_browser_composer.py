"""The composer and the pages' small behaviours in Debian's Chromium against a real
daphne server: the character counter agrees with the server, a reply box names whom it
answers, Ctrl+Enter posts, times tick, and what can't be undone asks first."""

from datetime import UTC, datetime, timedelta

import pytest
from playwright.sync_api import Page, expect

from accounts import services as accounts
from timeline.feeds import selectors as feeds
from timeline.posting import services as posting
from timeline.statuses.display import ago

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

EMOJI = "\N{GRINNING FACE}"  # one code point, two UTF-16 units
COMBINING = "e\N{COMBINING ACUTE ACCENT}"  # two code points, shown as one letter


def latest_message(login: str) -> str:
    uid = accounts.uid_for_login(login)
    return feeds.get_status_messages(uid, "profile", count=1)[0]["message"]


def compose(page: Page, text: str) -> None:
    box = page.get_by_label("Your status")
    box.fill(text)
    box.dispatch_event("input")


def test_the_counter_counts_as_the_server_does(signed_up_page):
    page = signed_up_page("counter")
    counter = page.locator(".post-form .char-count")
    post = page.get_by_role("button", name="Post", exact=True)
    expect(counter).to_have_text("0/280")

    # 280 emoji: 560 UTF-16 units, 280 characters to the server.
    for text, shown in (
        (EMOJI * 280, "280/280"),
        (COMBINING * 140, "280/280"),
        ("  \n" + "a" * 280 + "\n\n ", "280/280"),  # stripped, as the server strips
    ):
        compose(page, text)
        expect(counter).to_have_text(shown)
        expect(post).to_be_enabled()
        post.click()
        expect(page.get_by_text("Posted.")).to_be_visible()
        assert latest_message("counter") == text.strip()

    # One more is over: the counter says so and the button waits; sent anyway, the
    # server refuses it too.
    for text in (EMOJI * 281, COMBINING * 140 + "\N{COMBINING ACUTE ACCENT}"):
        compose(page, text)
        expect(counter).to_have_text("281/280")
        expect(counter).to_have_class("char-count over")
        expect(post).to_be_disabled()
        page.locator(".post-form").evaluate("form => form.submit()")
        expect(page.get_by_text("A status is at most 280 characters.")).to_be_visible()
        assert latest_message("counter") == "a" * 280


def test_a_reply_box_names_whom_it_answers_and_ctrl_enter_posts(signed_up_page, daphne_server):
    accounts.create_user("carol", "Carol")
    alice, bob = signed_up_page("alice"), signed_up_page("bob")
    compose(alice, "Lunch with @carol?")
    alice.get_by_label("Your status").press("Control+Enter")
    expect(alice.get_by_text("Posted.")).to_be_visible()
    sid = feeds.get_status_messages(accounts.uid_for_login("alice"), "profile")[0]["id"]

    bob.goto(f"{daphne_server}/statuses/{sid}/")
    box = bob.locator("#reply").get_by_label("Your status")
    expect(box).to_have_value("@alice @carol ")
    box.focus()
    box.press_sequentially("count me in")
    expect(box).to_have_value("@alice @carol count me in")
    box.press("Control+Enter")
    expect(bob.get_by_text("Replied.")).to_be_visible()
    expect(bob.locator(".replies")).to_contain_text("@alice @carol count me in")

    # Replying to your own status names only the others.
    alice.goto(f"{daphne_server}/statuses/{sid}/")
    expect(alice.locator("#reply").get_by_label("Your status")).to_have_value("@carol ")


def test_a_direct_message_box_counts_as_the_server_does(signed_up_page, daphne_server):
    accounts.create_user("friend", "Friend")
    page = signed_up_page("writer")
    page.goto(f"{daphne_server}/messages/new/?to=friend")
    box, send = page.get_by_label("Message"), page.get_by_role("button", name="Send")
    counter = page.locator("form .char-count")
    expect(counter).to_have_text("0/1000")
    box.fill("two\nlines " + EMOJI * 990)
    box.dispatch_event("input")
    expect(counter).to_have_text("1000/1000")
    expect(send).to_be_enabled()
    box.fill(EMOJI * 1001)
    box.dispatch_event("input")
    expect(counter).to_have_text("1001/1000")
    expect(send).to_be_disabled()
    box.fill("two\nlines " + EMOJI * 990)
    box.dispatch_event("input")
    send.click()
    expect(page.locator("#conversation .dm-text")).to_have_text("two\nlines " + EMOJI * 990)


def test_times_tick_on_an_open_page_worded_as_the_server_words_them(browser, daphne_server):
    author = accounts.create_user("author", "Author")
    posting.post_status(author, "tick tock")
    page = browser.new_page()
    page.clock.install()
    page.goto(f"{daphne_server}/timeline/")
    time = page.locator(".status-time time")
    expect(time).to_have_text("just now")
    page.clock.fast_forward("02:30")
    expect(time).to_have_text("2\N{NO-BREAK SPACE}minutes ago")
    page.clock.fast_forward("03:00:00")
    expect(time).to_have_text("3\N{NO-BREAK SPACE}hours ago")

    # The page's wording is the server's, across units and month ends.
    posted = datetime(2026, 1, 31, 12, 0, 0, tzinfo=UTC)
    for later in (
        timedelta(seconds=59),
        timedelta(seconds=61),
        timedelta(minutes=59, seconds=59),
        timedelta(hours=1),
        timedelta(hours=23, minutes=59),
        timedelta(days=1),
        timedelta(days=6, hours=23),
        timedelta(days=7),
        timedelta(days=27),
        timedelta(days=28, hours=11),
        timedelta(days=28, hours=13),
        timedelta(days=59),
        timedelta(days=364),
        timedelta(days=365),
        timedelta(days=800),
    ):
        now = posted + later
        shown = page.evaluate(
            "([posted, now]) => window.socialsiteAgo(posted, now)",
            [posted.timestamp() * 1000, now.timestamp() * 1000],
        )
        assert shown == ago(posted, now), later


def test_deleting_a_status_or_a_list_asks_first(signed_up_page, daphne_server):
    page = signed_up_page("careful")
    compose(page, "keep me, maybe")
    page.get_by_role("button", name="Post").click()
    expect(page.get_by_text("Posted.")).to_be_visible()
    mine = page.locator("#timeline .status", has_text="keep me, maybe")

    questions = []
    page.once("dialog", lambda dialog: (questions.append(dialog.message), dialog.dismiss()))
    mine.get_by_role("button", name="Delete").click()
    expect(mine).to_be_visible()
    assert questions == ["Delete this status? This can't be undone."]
    page.once("dialog", lambda dialog: dialog.accept())
    mine.get_by_role("button", name="Delete").click()
    expect(page.locator(".status", has_text="keep me, maybe")).to_have_count(0)

    page.goto(f"{daphne_server}/lists/")
    page.get_by_label("Name").fill("Old friends")
    page.get_by_role("button", name="Create list").click()
    page.once("dialog", lambda dialog: (questions.append(dialog.message), dialog.dismiss()))
    page.get_by_role("button", name="Delete this list").click()
    expect(page.get_by_role("heading", name="Old friends")).to_be_visible()
    assert questions[-1] == "Delete the list Old friends? This can't be undone."
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Delete this list").click()
    expect(page.get_by_text("List deleted.")).to_be_visible()
