"""Finding someone, following them from the results, and their avatar on their status
cards, in Debian's Chromium against a real daphne server."""

import io
import re

import pytest
from PIL import Image
from playwright.sync_api import expect


def png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (300, 200), (20, 120, 220)).save(out, "PNG")
    return out.getvalue()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_search_finds_a_person_to_follow_and_their_avatar_shows_on_their_statuses(
    signed_up_page,
    daphne_server,
):
    alice, bob = signed_up_page("alice"), signed_up_page("bobby")
    bob.get_by_label("Your status").fill("Hello from bobby")
    bob.get_by_role("button", name="Post").click()
    expect(bob.get_by_text("Posted.")).to_be_visible()

    # The nav's search box, then the people tab.
    alice.get_by_role("searchbox", name="Search").first.fill("BOB")
    alice.keyboard.press("Enter")
    alice.get_by_role("link", name="People").click()
    result = alice.locator("#search-results li", has_text="@bobby")
    expect(result).to_contain_text("Bobby")
    result.get_by_role("button", name="Follow").click()
    expect(alice.locator("#search-results li", has_text="@bobby")).to_contain_text("Unfollow")

    bob.goto(f"{daphne_server}/accounts/settings/")
    bob.get_by_label("Avatar").set_input_files(
        files=[{"name": "me.png", "mimeType": "image/png", "buffer": png()}]
    )
    bob.get_by_role("button", name="Save profile").click()
    expect(bob.get_by_text("Your profile is saved.")).to_be_visible()

    alice.get_by_role("link", name="Home").click()
    card = alice.locator("#timeline .status", has_text="Hello from bobby")
    expect(card).to_contain_text("Bobby @bobby")
    avatar = card.locator("img.avatar")
    expect(avatar).to_have_attribute("src", re.compile(r"^/media/avatars/\d+/\w+-96\.webp$"))
    # The picture may still be on its way when the card is there: wait for it to load.
    alice.wait_for_function(
        "img => img.complete && img.naturalWidth === 96", arg=avatar.element_handle()
    )
