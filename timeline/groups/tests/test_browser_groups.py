"""The group pages in Chromium, against the real daphne server: the live "N new" on a
group's timeline (what only a browser shows), and the composer's group picker."""

import contextlib

import pytest
from django.test import Client
from playwright.sync_api import expect, sync_playwright

from accounts.services import create_user, sign_up, uid_for_login
from socialsite.testing.browser import launch_chromium
from timeline.groups import services as groups
from timeline.groups.moderation import approve_request
from timeline.groups.selectors import timeline_ids
from timeline.posting.services import delete_status, post_status

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def session_of(login: str) -> str:
    """A signed-up `login`'s session cookie (made before Playwright's event loop starts)."""
    client = Client()
    client.force_login(sign_up(login, "a long password 123", login.title()))
    return client.cookies["sessionid"].value


@contextlib.contextmanager
def page_at(daphne_server: str, session: str, path: str):
    """Chromium on `path`, logged in with the `session` cookie."""
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        context = browser.new_context()
        context.add_cookies([{"name": "sessionid", "value": session, "url": daphne_server}])
        page = context.new_page()
        page.goto(f"{daphne_server}{path}")
        yield page
        browser.close()


def test_a_group_page_counts_the_groups_new_posts_live(daphne_server):
    session = session_of("reader")
    reader, owner = uid_for_login("reader"), create_user("owner", "Owner")
    stranger = create_user("stranger", "Stranger")
    knits = groups.create_group(owner, "knitters_live", "Knitters")
    other = groups.create_group(stranger, "other_live", "Other")
    groups.join_group(knits, reader)

    with page_at(daphne_server, session, "/g/knitters_live/") as page:
        timeline = page.locator("#timeline")
        expect(timeline).to_have_attribute("data-live", "on")
        post_status(stranger, "not in the group")
        post_status(stranger, "in another group", group=other)
        first = post_status(owner, "first <purl> row", group=knits)
        card = timeline.locator(f'[data-status-id="{first}"]')
        expect(card).to_contain_text("first <purl> row")
        expect(card).to_contain_text("in Knitters")
        expect(page.locator(".new-statuses")).to_have_text("1 new status")
        second = post_status(reader, "my own row", group=knits)
        expect(timeline.locator("[data-status-id]").first).to_have_attribute(
            "data-status-id", str(second)
        )
        expect(page.locator(".new-statuses")).to_have_text("2 new statuses")
        # Replies stay off the group's timeline, as they do when it is read.
        post_status(owner, "a reply", in_reply_to=first)
        last = post_status(owner, "third row", group=knits)
        expect(timeline.locator("[data-status-id]").first).to_have_attribute(
            "data-status-id", str(last)
        )
        expect(page.locator(".new-statuses")).to_have_text("3 new statuses")
        assert timeline.locator("[data-status-id]").count() == 3
        delete_status(owner, first)
        expect(card).to_have_count(0)
        expect(page.locator(".new-statuses")).to_have_text("2 new statuses")


def test_a_private_groups_members_see_its_new_posts_live(daphne_server):
    session = session_of("insider")
    insider, owner = uid_for_login("insider"), create_user("keeper", "Keeper")
    vault = groups.create_group(owner, "vault_live", "Vault", kind="private")
    groups.join_group(vault, insider)
    approve_request(vault, owner, insider)

    with page_at(daphne_server, session, "/g/vault_live/") as page:
        timeline = page.locator("#timeline")
        expect(timeline).to_have_attribute("data-live", "on")
        secret = post_status(owner, "for members only", group=vault)
        expect(timeline.locator(f'[data-status-id="{secret}"]')).to_contain_text("for members only")
        expect(page.locator(".new-statuses")).to_have_text("1 new status")


def test_posting_to_a_group_with_the_home_composers_picker(daphne_server):
    session = session_of("picker")
    picker, owner = uid_for_login("picker"), create_user("host", "Host")
    books = groups.create_group(owner, "books_pick", "Book club")
    groups.join_group(books, picker)

    with page_at(daphne_server, session, "/") as page:
        composer = page.locator("form.post-form")
        choice = composer.get_by_label("Post to")
        expect(choice).to_be_visible()
        choice.select_option(label="Book club (g/books_pick)")
        composer.get_by_label("Your status").fill("Chapter one was great")
        composer.get_by_role("button", name="Post").click()
        expect(page.get_by_text("Posted to Book club.")).to_be_visible()
        (posted,) = timeline_ids(books)
        page.goto(f"{daphne_server}/g/books_pick/")
        card = page.locator(f'#timeline [data-status-id="{posted}"]')
        expect(card).to_contain_text("Chapter one was great")
        expect(card.get_by_role("link", name="Book club")).to_have_attribute(
            "href", "/g/books_pick/"
        )
