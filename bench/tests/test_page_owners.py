"""The HTTP part's page owners (bench.web_accounts): each page its row names shows what the row
says it holds, to the session the bench sends, so that no row times an empty page, a
redirect to the login page or a refused form."""

import json
import re

import pytest
from django.conf import settings
from django.test import Client

from accounts.services import get_user
from bench import plan, web, web_accounts
from bench.pages import GUARDED_BLOCKS, GUARDED_MUTES, author_with_statuses
from timeline.graph.directory import PEOPLE_PER_PAGE
from timeline.web import USERS_PER_PAGE

pytestmark = pytest.mark.django_db


def page(path: str, cookie: str) -> str:
    response = Client().get(path, HTTP_COOKIE=cookie)
    assert response.status_code == 200, (path, response.status_code)
    return response.content.decode()


def test_a_new_account_is_shown_whom_to_follow_and_the_directory_is_full():
    reader_cookie = web_accounts.logged_in_reader(3)[0]
    many = [web_accounts.signed_in(f"dirperson{n}", "Person")[0] for n in range(PEOPLE_PER_PAGE)]
    assert many
    _, cookie = web_accounts.signed_in("benchnewcomer", "New Comer")
    assert 'id="suggestions"' in page("/", cookie)
    people = r'class="person" href="/u/\w+/"'
    assert len(re.findall(people, page("/directory/", reader_cookie))) == PEOPLE_PER_PAGE
    assert re.findall(people, page("/directory/?order=followed", reader_cookie))


def test_the_private_account_sees_its_pending_follow_requests():
    html = page("/follow-requests/", web_accounts.private_account()[0])
    assert (
        len(re.findall(r'action="/follow-requests/[^/]+/approve/"', html))
        == web_accounts.FOLLOW_REQUESTS
    )


def test_the_guarded_account_sees_a_page_of_whom_it_blocks_and_mutes():
    cookie = web_accounts.guarded_account()[0]
    assert GUARDED_BLOCKS > USERS_PER_PAGE and GUARDED_MUTES > USERS_PER_PAGE
    assert (
        len(re.findall(r'action="/u/blocked\d+/unblock/"', page("/blocks/", cookie)))
        == USERS_PER_PAGE
    )
    assert (
        len(re.findall(r'action="/u/muted\d+/unmute/"', page("/mutes/", cookie))) == USERS_PER_PAGE
    )


def test_the_exporter_downloads_its_statuses_through_the_csrf_check():
    cookie, headers, statuses = web_accounts.exporter(7)
    client = Client(enforce_csrf_checks=True)
    extra = {f"HTTP_{name.upper().replace('-', '_')}": value for name, value in headers}
    response = client.post("/export/", HTTP_COOKIE=cookie, **extra)
    assert response.status_code == 200
    exported = json.loads(b"".join(response))
    assert sorted(int(status["id"]) for status in exported["statuses"]) == sorted(statuses)
    refused = client.post("/export/", HTTP_COOKIE=cookie.split(";")[0], **extra)
    assert refused.status_code == 403


def test_the_lister_sees_its_lists_and_a_list_of_the_authors_statuses():
    author = get_user(author_with_statuses(3))["login"]
    cookie, list_id = web_accounts.lister(author)
    assert (
        len(set(re.findall(r'href="/lists/(\d+)/"', page("/lists/", cookie)))) == web_accounts.LISTS
    )
    timeline = page(f"/lists/{list_id}/", cookie)
    assert timeline.count("status 2 x") == 1 and f"/u/{author}/" in timeline


def test_the_operator_sees_the_open_reports_and_the_dashboard():
    cookie = web_accounts.operator(web_accounts.exporter(web_accounts.REPORTS // 2)[2])
    assert f"Moderation queue ({web_accounts.REPORTS} open)" in page(
        "/admin/redis/reports/", cookie
    )
    assert "Redis dashboard" in page("/admin/redis/dashboard/", cookie)


def test_the_reader_has_a_stream_key_and_an_authorised_app_on_the_settings_page():
    cookie, *_ = web_accounts.logged_in_reader(3)
    html = page("/accounts/settings/", cookie)
    assert 'data-key-id="' in html and 'data-app-id="' in html


def api(path: str, authorization: str):
    response = Client().get(path, HTTP_AUTHORIZATION=authorization)
    assert response.status_code == 200, (path, response.status_code)
    return response.json()


def test_the_api_rows_owners_read_what_their_rows_say():
    _, guarded = web_accounts.guarded_account()
    _, private = web_accounts.private_account()
    reader = web_accounts.logged_in_reader(3)[3]
    pages = web.api_pages(reader, guarded, private)
    got = {
        name: api(each.path, dict(each.headers)["Authorization"]) for name, each in pages.items()
    }
    assert len(got["api blocks"]) == len(got["api mutes"]) == web.API_PEOPLE
    assert {account["username"][:7] for account in got["api blocks"]} == {"blocked"}
    assert {account["username"][:5] for account in got["api mutes"]} == {"muted"}
    assert len(got["api follow requests"]) == web_accounts.FOLLOW_REQUESTS
    # A full page of the reader's likes and follows (a fan's like and follow each).
    assert len(got["api notifications"]) == settings.NOTIFICATIONS_PER_PAGE < 2 * web_accounts.FANS
    assert got["api search"]["statuses"] and all(
        "mine" in status["content"] for status in got["api search"]["statuses"]
    )


def test_the_marking_reader_sees_its_first_page_liked():
    html = page("/", web_accounts.marking_account(plan.QUICK))
    assert html.count('class="link-button status-like" aria-pressed="true"') == 30
    assert 'class="link-button status-like" aria-pressed="false"' not in html
