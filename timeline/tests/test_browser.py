"""The whole site in Debian's Chromium, against a real daphne server."""

import pytest
from playwright.sync_api import expect


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_follower_sees_a_post_on_home_until_they_unfollow(signed_up_page, daphne_server):
    alice, bob = signed_up_page("alice"), signed_up_page("bob")

    alice.get_by_label("Your status").fill("Hello from <alice> to @bob")
    alice.get_by_role("button", name="Post").click()
    expect(alice.get_by_text("Posted.")).to_be_visible()
    expect(alice.locator("#timeline")).to_contain_text("Hello from <alice> to @bob")

    bob.goto(f"{daphne_server}/")
    expect(bob.locator("#timeline")).not_to_contain_text("Hello from")
    bob.goto(f"{daphne_server}/u/alice/")
    bob.get_by_role("button", name="Follow", exact=True).click()
    expect(bob.get_by_role("button", name="Unfollow")).to_be_visible()  # in place
    bob.get_by_role("link", name="Home").click()
    post = bob.locator("#timeline .status", has_text="Hello from <alice> to @bob")
    expect(post).to_be_visible()
    expect(post.get_by_role("link", name="@bob")).to_have_attribute("href", "/u/bob/")

    bob.goto(f"{daphne_server}/u/alice/")
    bob.get_by_role("button", name="Unfollow").click()
    expect(bob.get_by_role("button", name="Follow", exact=True)).to_be_visible()
    bob.get_by_role("link", name="Home").click()
    expect(bob.locator("#timeline")).not_to_contain_text("Hello from")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_follower_sees_a_reply_to_them_and_a_repost(signed_up_page, daphne_server):
    alice, bob, carol = (signed_up_page(login) for login in ("alice", "bob", "carol"))
    for page, message in ((carol, "Anyone around?"), (alice, "Big news from alice")):
        page.get_by_label("Your status").fill(message)
        page.get_by_role("button", name="Post").click()
        expect(page.get_by_text("Posted.")).to_be_visible()
        expect(page.locator("#timeline")).to_contain_text(message)
    carol.goto(f"{daphne_server}/u/bob/")
    carol.get_by_role("button", name="Follow", exact=True).click()
    expect(carol.get_by_role("button", name="Unfollow")).to_be_visible()

    # Bob replies to carol's status from its page, and reposts alice's.
    bob.goto(f"{daphne_server}/u/carol/")
    bob.locator(".status", has_text="Anyone around?").locator(".status-time").click()
    bob.locator("#reply").get_by_label("Your status").fill("Hi @carol, I am")
    bob.get_by_role("button", name="Reply").click()
    expect(bob.get_by_text("Replied.")).to_be_visible()
    expect(bob.locator(".replies")).to_contain_text("Hi @carol, I am")
    bob.goto(f"{daphne_server}/u/alice/")
    news = bob.locator(".status", has_text="Big news from alice")
    news.get_by_role("button", name="Repost").click()
    expect(news.get_by_role("button", name="Undo repost")).to_be_visible()

    # Carol follows only bob: she gets the reply (it answers her) and the repost.
    carol.get_by_role("link", name="Home").click()
    reply = carol.locator("#timeline .status", has_text="Hi @carol, I am")
    expect(reply).to_contain_text("Replying to @carol")
    repost = carol.locator("#timeline .status.repost")
    expect(repost).to_contain_text("Reposted by @bob")
    expect(repost).to_contain_text("@alice")
    expect(repost).to_contain_text("Big news from alice")
    expect(repost).to_contain_text("1 repost")

    # The cards' buttons all submit the page's one form, each to its own action.
    repost.get_by_role("button", name="Like").click()
    expect(repost.get_by_role("button", name="Unlike")).to_be_visible()
    expect(repost).to_contain_text("1 like")
    carol.goto(f"{daphne_server}/u/carol/")
    mine = carol.locator(".status", has_text="Anyone around?")
    carol.once("dialog", lambda dialog: dialog.accept())  # "Delete this status?"
    mine.get_by_role("button", name="Delete").click()
    expect(carol.locator(".status", has_text="Anyone around?")).to_have_count(0)
