"""The nav and home's sidebar, kept once rendered (socialsite.fragments): each user sees
their own, and a change shows on their next page."""

import re

from django.test import Client
from django.urls import reverse

from accounts.services import update_name
from socialsite import fragments
from timeline.graph import services as graph
from timeline.posting import services as posting
from timeline.tests.pages import page_text


def nav(response) -> str:
    text = page_text(response)
    return text[text.index('<ul class="nav-links">') : text.index("</ul>", text.index("nav-links"))]


def sidebar(response) -> str:
    text = page_text(response)
    return text[text.index('<aside class="sidebar">') : text.index("</aside>")]


def test_a_second_user_never_sees_the_first_users_nav_or_sidebar(alice, bob):
    alices, bobs = alice.client.get(reverse("home")), bob.client.get(reverse("home"))
    assert 'href="/u/alice/"' in nav(alices) and "/u/bob/" not in nav(alices)
    assert 'href="/u/bob/"' in nav(bobs) and "/u/alice/" not in nav(bobs)
    assert "@alice" in sidebar(alices) and "@bob" not in sidebar(alices)
    assert "@bob" in sidebar(bobs) and "@alice" not in sidebar(bobs)


def test_the_next_page_takes_the_kept_fragments_when_nothing_changed(alice):
    first = alice.client.get(reverse("home"))
    kept = fragments.kept_fragments()
    second = alice.client.get(reverse("home"))
    assert fragments.kept_fragments() == kept
    assert nav(second) == re.sub(r'value="[^"]+"', lambda _: csrf_field(second), nav(first))
    assert sidebar(second) == sidebar(first)


def csrf_field(response) -> str:
    return f'value="{csrf_tokens(response)[0]}"'


def csrf_tokens(response) -> list[str]:
    return re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', page_text(response))


def test_a_new_unread_count_shows_on_the_next_page(alice, bob):
    before = alice.client.get(reverse("home"))
    assert 'id="nav-unread-notifications" class="badge" hidden>0<' in nav(before)
    graph.follow_user(bob.uid, alice.uid)
    after = alice.client.get(reverse("home"))
    assert 'id="nav-unread-notifications" class="badge">1<' in nav(after)
    assert "<strong>1</strong> follower<" in sidebar(after)


def test_a_new_display_name_and_a_new_status_show_on_the_next_home_page(alice):
    before = sidebar(alice.client.get(reverse("home")))
    assert "Alice" in before and "<strong>0</strong> statuses" in before
    update_name(alice.uid, "Alice Renamed")
    posting.post_status(alice.uid, "hello")
    after = sidebar(alice.client.get(reverse("home")))
    assert '<h2 class="name">Alice Renamed</h2>' in after
    assert "<strong>1</strong> status<" in after


def test_the_kept_navs_logout_form_carries_the_pages_own_csrf_token(alice):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice.user)
    first, second = client.get(reverse("home")), client.get(reverse("home"))
    # One mask a page, in the kept nav's form as in the page's others; another next page.
    assert len(set(csrf_tokens(first))) == 1 and len(csrf_tokens(first)) > 1
    assert csrf_tokens(first)[0] != csrf_tokens(second)[0]
    assert csrf_tokens(second)[0] in nav(second)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', nav(second))[1]
    logout = client.post(reverse("accounts:logout"), {"csrfmiddlewaretoken": token})
    assert logout.status_code == 302
    assert "Log in" in nav(client.get(reverse("home")))
