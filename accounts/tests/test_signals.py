"""Deleting a Django user, however it happens, purges their Redis data."""

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import transaction

from accounts import services
from accounts.keys import user_key
from socialsite import jobs
from timeline.feeds import selectors as feeds
from timeline.graph import services as graph
from timeline.posting import services as posting
from timeline.statuses import selectors as status_selectors

pytestmark = pytest.mark.django_db


def purge_jobs() -> list[dict]:
    return jobs.unfinished_jobs("purge_user")


@pytest.fixture
def followed_author():
    """alice (a Django user) posts; bob follows her."""
    user = User.objects.create_user("alice", first_name="Alice")
    uid = services.uid_for_login("alice")
    bob = services.create_user("bob", "Bob")
    graph.follow_user(bob, uid)
    status_id = posting.post_status(uid, "hello")
    return {"user": user, "uid": uid, "bob": bob, "status": status_id}


def test_deleting_the_django_user_purges_their_redis_data(
    followed_author, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        followed_author["user"].delete()
    # At once, as the Redis admin's delete: no login, nothing shown.
    assert services.uid_for_login("alice") is None
    assert feeds.get_status_messages(followed_author["bob"]) == []
    assert purge_jobs() == [{"uid": followed_author["uid"], "phase": "followers"}]
    call_command("worker", burst=True)
    assert services.get_user(followed_author["uid"]) is None
    assert status_selectors.get_status(followed_author["status"]) is None
    assert services.get_user(followed_author["bob"])["following"] == 0


def test_deleting_users_in_bulk_purges_each(followed_author, django_capture_on_commit_callbacks):
    User.objects.create_user("carol")
    carol = services.uid_for_login("carol")
    with django_capture_on_commit_callbacks(execute=True):
        User.objects.filter(username__in=["alice", "carol"]).delete()
    call_command("worker", burst=True)
    assert services.get_user(followed_author["uid"]) is None and services.get_user(carol) is None


def test_a_rolled_back_deletion_leaves_the_redis_data_alone(
    followed_author, django_capture_on_commit_callbacks
):
    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        followed_author["user"].delete()
        raise RuntimeError("changed my mind")
    assert callbacks == []
    assert User.objects.filter(username="alice").exists()
    assert services.uid_for_login("alice") == followed_author["uid"]
    assert not services.get_user(followed_author["uid"])["suspended"]
    assert purge_jobs() == []


def test_a_django_user_whose_profile_is_gone_is_deleted_with_a_warning(
    redis_conn, django_capture_on_commit_callbacks, caplog
):
    user = User.objects.create_user("dave")
    # The login still maps to a uid, but the profile hash is gone.
    redis_conn.delete(user_key(services.uid_for_login("dave")))
    with django_capture_on_commit_callbacks(execute=True):
        user.delete()
    assert purge_jobs() == []
    assert "had no Redis profile left to purge" in caplog.text
