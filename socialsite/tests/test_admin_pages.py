"""The admin's own frame around what the Redis pages show: Recent actions naming Redis
objects, and an admin 404 for what isn't there."""

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from accounts import services as accounts
from timeline.posting import services as posting
from timeline.tests.pages import shows

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client):
    staff = User.objects.create_user("operator", password="operator-password-1", is_staff=True)
    client.force_login(staff)
    return client


def test_recent_actions_name_the_redis_users_and_statuses_acted_on(staff_client):
    alice = accounts.create_user("alice", "Alice")
    bob = accounts.create_user("bob", "Bob")
    status = posting.post_status(alice, "hello")
    staff_client.post(reverse("admin:redis_user_action", args=[alice, "suspend"]))
    staff_client.post(reverse("admin:redis_status_delete", args=[status]))
    staff_client.post(reverse("admin:redis_user_action", args=[bob, "delete"]))

    index = staff_client.get(reverse("admin:index"))
    assert index.status_code == 200
    assert not shows(index, "Unknown content")
    assert shows(index, "Redis user: Suspended.")
    assert shows(index, "Redis status: Deleted as a moderator.")
    assert shows(index, "Redis user: Deleted the user and all their statuses.")
    # The suspended user is still there: linked; the deleted ones are not.
    page = index.content.decode()
    assert f'href="{reverse("admin:redis_user", args=[alice])}"' in page
    assert f'href="{reverse("admin:redis_user", args=[bob])}"' not in page


@pytest.mark.parametrize(
    "url",
    [
        "/admin/redis/users/99999/",
        "/admin/redis/users/99999/suspend/",
        "/admin/redis/statuses/99999/delete/",
    ],
)
def test_an_unknown_redis_object_is_an_admin_404(staff_client, url):
    response = staff_client.get(url)
    assert response.status_code == 404
    page = response.content.decode()
    assert 'id="site-name"' in page  # the admin's header, not the public site's
    assert "Redis data" in page
    assert shows(response, "No such user." if "users" in url else "No such status.")
