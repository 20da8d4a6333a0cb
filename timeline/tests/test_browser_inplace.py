"""In-place actions in Debian's Chromium against a real daphne server: a button on a card
or a control changes it where it is (counts, the button's state), the page neither
reloads nor scrolls, a refusal shows as a line on the card; with JavaScript off the same
buttons post and come back as before."""

import pytest
from playwright.sync_api import Page, expect

from accounts import services as accounts
from timeline.posting import services as posting

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 800}


def thirty_statuses() -> list[int]:
    """Alice's 30 statuses, the newest last: a full first page of Global."""
    alice = accounts.create_user("alice", "Alice")
    return [posting.post_status(alice, f"status number {n}") for n in range(30)]


def mark_page(page: Page) -> None:
    """A mark on the document that a reload or a navigation would lose."""
    page.evaluate("window.notReloaded = true")


def test_liking_the_13th_card_of_global_changes_it_in_place_and_keeps_the_scroll(
    signed_up_page, daphne_server
):
    ids = thirty_statuses()
    bob = signed_up_page("bob")
    bob.set_viewport_size(DESKTOP)
    bob.goto(f"{daphne_server}/timeline/")
    card = bob.locator(f'.status[data-status-id="{ids[-13]}"]')
    card.scroll_into_view_if_needed()
    mark_page(bob)
    scrolled = bob.evaluate("window.scrollY")
    assert scrolled > 500

    card.get_by_role("button", name="Like").click()
    expect(card.get_by_role("button", name="Unlike")).to_be_visible()
    expect(card).to_contain_text("1 like")
    assert bob.evaluate("window.notReloaded") is True
    assert bob.evaluate("window.scrollY") == scrolled
    expect(bob.locator(".messages")).to_have_count(0)

    card.get_by_role("button", name="Unlike").click()
    expect(card.get_by_role("button", name="Like")).to_be_visible()
    expect(card).to_contain_text("0 likes")
    card.get_by_role("button", name="Repost").click()
    expect(card.get_by_role("button", name="Undo repost")).to_be_visible()
    expect(card).to_contain_text("1 repost")
    assert bob.evaluate("window.notReloaded") is True
    assert bob.evaluate("window.scrollY") == scrolled

    # What was done in place is what a fresh page shows.
    bob.reload()
    again = bob.locator(f'.status[data-status-id="{ids[-13]}"]')
    expect(again.get_by_role("button", name="Undo repost")).to_be_visible()


def test_deleting_your_status_in_place_takes_its_card_away(signed_up_page, daphne_server):
    bob = signed_up_page("bob")
    mine = posting.post_status(accounts.uid_for_login("bob"), "delete me in place")
    bob.goto(f"{daphne_server}/timeline/")
    mark_page(bob)
    card = bob.locator(f'.status[data-status-id="{mine}"]')
    questions: list[str] = []
    bob.once("dialog", lambda dialog: (questions.append(dialog.message), dialog.dismiss()))
    card.get_by_role("button", name="Delete").click()  # "no": nothing is sent
    expect(card).to_contain_text("delete me in place")
    assert questions == ["Delete this status? This can't be undone."]
    bob.once("dialog", lambda dialog: dialog.accept())
    card.get_by_role("button", name="Delete").click()
    expect(card).to_have_count(0)
    expect(bob.locator("main")).not_to_contain_text("delete me in place")
    assert bob.evaluate("window.notReloaded") is True


def test_a_refused_action_shows_its_reason_on_the_card(signed_up_page, daphne_server):
    alice = accounts.create_user("alice", "Alice")
    sid = posting.post_status(alice, "soon gone")
    bob = signed_up_page("bob")
    # A page whose live stream is down (else the deletion takes the card off at once).
    bob.add_init_script("window.WebSocket = undefined")
    bob.goto(f"{daphne_server}/timeline/")
    mark_page(bob)
    posting.delete_status(alice, sid)  # meanwhile, in another tab
    card = bob.locator(f'.status[data-status-id="{sid}"]')
    card.get_by_role("button", name="Like").click()
    expect(card.get_by_role("alert")).to_be_visible()
    expect(card).to_contain_text("soon gone")  # the card stays as it was
    assert bob.evaluate("window.notReloaded") is True


def test_following_from_a_profile_and_a_list_of_people_is_in_place(signed_up_page, daphne_server):
    accounts.create_user("alice", "Alice")
    bob = signed_up_page("bob")
    bob.goto(f"{daphne_server}/u/alice/")
    mark_page(bob)
    bob.get_by_role("button", name="Follow", exact=True).click()
    expect(bob.get_by_role("button", name="Unfollow")).to_be_visible()
    bob.get_by_role("button", name="Unfollow").click()
    expect(bob.get_by_role("button", name="Follow", exact=True)).to_be_visible()
    assert bob.evaluate("window.notReloaded") is True

    bob.goto(f"{daphne_server}/search/?q=alice&type=people")
    mark_page(bob)
    bob.get_by_role("button", name="Follow @alice").click()
    expect(bob.get_by_role("button", name="Unfollow @alice")).to_be_visible()
    assert bob.evaluate("window.notReloaded") is True


def test_with_javascript_off_like_and_follow_post_and_come_back(browser, daphne_server):
    from socialsite.testing.browser import sign_up

    ids = thirty_statuses()
    page = browser.new_context(java_script_enabled=False).new_page()
    sign_up(page, daphne_server, "bob")
    page.goto(f"{daphne_server}/timeline/")
    card = page.locator(f'.status[data-status-id="{ids[-1]}"]')
    card.get_by_role("button", name="Like").click()
    expect(page.get_by_text("Liked.")).to_be_visible()
    expect(card.get_by_role("button", name="Unlike")).to_be_visible()
    page.goto(f"{daphne_server}/u/alice/")
    page.get_by_role("button", name="Follow", exact=True).click()
    expect(page.get_by_text("You now follow @alice.")).to_be_visible()


def test_a_status_arriving_live_is_liked_in_place_too(signed_up_page, daphne_server):
    from timeline.graph import services as graph

    alice = accounts.create_user("alice", "Alice")
    bob = signed_up_page("bob")
    graph.follow_user(accounts.uid_for_login("bob"), alice)
    bob.goto(f"{daphne_server}/")
    expect(bob.locator("#timeline")).to_have_attribute("data-live", "on")
    mark_page(bob)
    sid = posting.post_status(alice, "fresh off the wire")
    card = bob.locator(f'#timeline .status[data-status-id="{sid}"]')
    expect(card).to_contain_text("fresh off the wire")
    card.get_by_role("button", name="Like").click()
    expect(card.get_by_role("button", name="Unlike")).to_be_visible()
    expect(card).to_contain_text("1 like")
    assert bob.evaluate("window.notReloaded") is True


def test_block_and_a_messages_delete_ask_first_then_act_in_place(signed_up_page, daphne_server):
    from timeline.direct import services as direct

    accounts.create_user("alice", "Alice")
    bob = signed_up_page("bob")
    bob.goto(f"{daphne_server}/u/alice/")
    mark_page(bob)
    confirm = bob.get_by_role("button", name="Block @alice")
    expect(confirm).to_be_hidden()  # asked first: the question is closed
    bob.locator(".profile-safety summary", has_text="Block").click()
    confirm.click()
    expect(bob.get_by_role("status")).to_have_text("You block @alice.")
    bob.get_by_role("button", name="Unblock").click()  # the undo, in place too
    expect(bob.get_by_role("status")).to_have_text("You no longer block @alice.")
    assert bob.evaluate("window.notReloaded") is True

    conversation = direct.start_conversation(accounts.uid_for_login("bob"), "alice", "oops")
    bob.goto(f"{daphne_server}/messages/{conversation}/")
    mark_page(bob)
    delete = bob.get_by_role("button", name="Delete message")
    expect(delete).to_be_hidden()
    bob.locator(".dm-menu > summary").click()  # the message's menu, then its Delete
    bob.locator(".dm summary", has_text="Delete").click()
    delete.click()
    expect(bob.locator("#conversation .dm")).to_have_count(0)
    assert bob.evaluate("window.notReloaded") is True


def test_the_keyboard_stays_on_the_button_it_pressed(signed_up_page, daphne_server):
    ids = thirty_statuses()
    bob = signed_up_page("bob")
    bob.goto(f"{daphne_server}/timeline/")
    card = bob.locator(f'.status[data-status-id="{ids[-5]}"]')
    card.get_by_role("button", name="Like").focus()
    bob.keyboard.press("Enter")
    expect(card.get_by_role("button", name="Unlike")).to_be_focused()
    bob.keyboard.press("Enter")
    expect(card.get_by_role("button", name="Like")).to_be_focused()


def test_following_from_who_to_follow_is_in_place(signed_up_page, daphne_server):
    from timeline.discovery import suggestions
    from timeline.graph import services as graph

    bob = signed_up_page("bob")
    me = accounts.uid_for_login("bob")
    friend, xavier = accounts.create_user("ann", "Ann"), accounts.create_user("xavier", "X")
    graph.follow_user(me, friend)
    graph.follow_user(friend, xavier)
    suggestions.store_suggestions(me)
    bob.goto(f"{daphne_server}/")
    mark_page(bob)
    who = bob.locator("#suggestions li", has_text="@xavier")
    who.get_by_role("button", name="Follow", exact=True).click()
    expect(who.get_by_role("button", name="Unfollow")).to_be_visible()
    assert bob.evaluate("window.notReloaded") is True
