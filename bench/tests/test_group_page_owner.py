"""The group pages' bench reader (bench.group_pages): the group page it times shows what
its row says (30 posts, 3 pinned) to the session the bench sends, the members page a
full page, and the directory a full page of groups."""

import re

import pytest
from django.test import Client

from bench import group_pages
from timeline.groups.views import GROUPS_PER_PAGE, MEMBERS_PER_PAGE

pytestmark = pytest.mark.django_db


def page(path: str, cookie: str) -> str:
    response = Client().get(path, HTTP_COOKIE=cookie)
    assert response.status_code == 200, (path, response.status_code)
    return response.content.decode()


def test_the_group_reader_sees_a_full_group_page_members_and_directory(settings):
    cookie = group_pages.group_member(60)
    html = page(f"/g/{group_pages.HANDLE}/", cookie)
    timeline = html.split('id="timeline"')[1]
    assert len(re.findall(r'data-status-id="\d+"', timeline)) == settings.STATUSES_PER_PAGE
    pinned = html.split('id="pinned"')[1].split('id="timeline"')[0]
    assert len(re.findall(r'data-status-id="\d+"', pinned)) == 3
    members = page(f"/g/{group_pages.HANDLE}/members/", cookie)
    assert len(re.findall(r"/u/groupmember\d+/", members)) >= MEMBERS_PER_PAGE - 2
    directory = page("/groups/", cookie).split('id="directory"')[1]
    assert len(re.findall(r'href="/g/\w+/"', directory)) == GROUPS_PER_PAGE
