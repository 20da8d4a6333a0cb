"""The Content-Security-Policy in Debian's Chromium against a real daphne server: every
page, a visitor's, a user's and an operator's (the admin's too), loads and runs its
scripts (the composer, the live timeline's and the nav's sockets) without one violation,
and the OAuth consent page's form still leads to the app's redirect URI."""

from urllib.parse import urlencode

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from accounts import services as accounts
from api.oauth import register_app
from socialsite.testing.browser import PASSWORD, log_in
from streaming.services import create_stream_key
from timeline.direct import services as direct
from timeline.graph import services as graph
from timeline.groups import services as groups
from timeline.lists import services as lists
from timeline.posting import services as posting
from timeline.reactions import services as reactions
from timeline.reports import services as reports
from timeline.safety import services as safety

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

REDIRECT = "http://app.example/callback"
# Records what the policy refuses, in each document, before the page's own scripts run.
WATCH_VIOLATIONS = """
window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.cspViolations.push(`${event.violatedDirective} ${event.blockedURI}`);
});
"""


@pytest.fixture
def site() -> dict:
    """An operator, ada, and a world to show her: follows, statuses with a tag, a mention
    and a reply, a like, a list, a conversation, a follow request, a report, a stream
    key and an app that asks for her consent (made before the browser starts: its event
    loop keeps the ORM out of the test's thread)."""
    accounts.sign_up("ada", PASSWORD, "Ada")
    User.objects.filter(username="ada").update(is_staff=True, is_superuser=True)
    ada = accounts.uid_for_login("ada")
    bob = accounts.create_user("bob", "Bob")
    carol = accounts.create_user("carol", "Carol")
    graph.follow_user(ada, bob)
    graph.follow_user(bob, ada)
    status = posting.post_status(bob, "hello @ada, this is #policy")
    posting.post_status(ada, "a reply", in_reply_to=status)
    reactions.like(ada, status)
    list_id = lists.create_list(ada, "Friends")
    lists.add_member(ada, list_id, bob)
    conversation = direct.start_conversation(ada, "bob", "a message")
    safety.set_private(ada, True)
    graph.follow_user(carol, ada)
    report = reports.report_status(ada, status, "spam", "ads")
    create_stream_key(ada, "my bot")
    group = groups.create_group(ada, "policy_group", "Policy people")
    posting.post_status(ada, "in the group", group=group)
    app, _ = register_app("Tooter", REDIRECT, "read")
    return {
        "ada": ada,
        "bob": bob,
        "status": status,
        "list": list_id,
        "conversation": conversation,
        "report": report,
        "client_id": app.application.client_id,
        "django_user": User.objects.get(username="ada").pk,
    }


def watched(page: Page) -> list[str]:
    """What the console said about the policy on `page` (kept as it goes)."""
    said: list[str] = []
    page.add_init_script(WATCH_VIOLATIONS)
    page.on(
        "console",
        lambda message: (
            said.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    return said


def visit(page: Page, base: str, paths: list[str]) -> list[str]:
    """Opens each of `paths`; the violations each reported, named by path."""
    found = []
    for path in paths:
        answer = page.goto(f"{base}{path}")
        assert answer is not None and "content-security-policy" in answer.headers, path
        page.wait_for_load_state("load")
        found += [f"{path}: {v}" for v in page.evaluate("window.cspViolations")]
    return found


def test_no_page_breaks_the_policy(site, browser, daphne_server):
    context = browser.new_context()
    page = context.new_page()
    said = watched(page)
    violations = visit(
        page,
        daphne_server,
        [
            "/",
            "/accounts/login/",
            "/accounts/signup/",
            "/timeline/",
            "/u/bob/",
            f"/statuses/{site['status']}/",
            "/tags/policy/",
            "/search/?q=hello",
            "/nowhere/",
            "/statuses/1/like/",
            "/groups/",
            "/g/policy_group/",
        ],
    )
    log_in(page, daphne_server, "ada")
    violations += visit(
        page,
        daphne_server,
        [
            "/",
            "/timeline/",
            "/u/ada/",
            "/u/bob/",
            "/u/bob/followers/",
            "/u/bob/following/",
            "/u/ada/mentions/",
            "/u/bob/lists/",
            f"/statuses/{site['status']}/",
            "/tags/policy/",
            "/likes/",
            "/search/?q=hello",
            "/search/?q=%40bo",
            "/search/?q=%23pol",
            "/lists/",
            f"/lists/{site['list']}/",
            f"/lists/{site['list']}/members/",
            "/notifications/",
            "/messages/",
            "/messages/new/",
            f"/messages/{site['conversation']}/",
            "/follow-requests/",
            "/blocks/",
            "/mutes/",
            "/accounts/settings/",
            "/groups/",
            "/groups/new/",
            "/g/policy_group/",
            "/g/policy_group/members/",
            "/g/policy_group/requests/",
            "/g/policy_group/moderate/",
            "/g/policy_group/reports/",
            "/nowhere/",
            "/statuses/1/like/",
            "/admin/",
            "/admin/auth/user/",
            f"/admin/auth/user/{site['django_user']}/change/",
            "/admin/oauth2_provider/application/",
            "/admin/redis/dashboard/",
            "/admin/redis/users/",
            f"/admin/redis/users/{site['bob']}/",
            "/admin/redis/statuses/",
            "/admin/redis/reports/",
            f"/admin/redis/reports/{site['report']}/",
            "/admin/redis/stream-keys/?user=ada",
        ],
    )
    # The scripts run: the composer counts, and both live sockets connect.
    page.goto(f"{daphne_server}/")
    # The nav's socket (personal.js, on <body>) and the live timeline's (live.js).
    expect(page.locator("[data-live='on']")).to_have_count(2)
    page.get_by_role("textbox").first.fill("a post from the browser")
    violations += [f"/ (live): {v}" for v in page.evaluate("window.cspViolations")]
    assert violations == [] and said == []
    # And the watch sees what the policy refuses: a style attribute, made as markup is.
    page.evaluate("document.body.insertAdjacentHTML('beforeend', '<p style=\"color: red\">')")
    page.wait_for_function("window.cspViolations.length > 0")
    assert page.evaluate("window.cspViolations")[0].startswith("style-src")
    context.close()


def test_the_consent_pages_form_still_leads_to_the_apps_redirect_uri(site, browser, daphne_server):
    page = browser.new_page()
    said = watched(page)
    # The app's address answers from here: this machine reaches no other.
    page.route("http://app.example/**", lambda route: route.fulfill(body="the app"))
    log_in(page, daphne_server, "ada")
    query = {"client_id": site["client_id"], "response_type": "code", "redirect_uri": REDIRECT}
    page.goto(f"{daphne_server}/oauth/authorize?{urlencode(query)}")
    page.get_by_role("button", name="Authorize").click()
    page.wait_for_url(f"{REDIRECT}?code=*")
    assert said == []
