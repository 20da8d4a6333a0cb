"""The logged-in user comes from the cache, and saving or deleting the user forgets it."""

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from accounts import backends
from accounts.backends import CachedUserBackend


def queries_for_a_page(client) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/").status_code == 200
    return len(queries)


def is_logged_in(client) -> bool:
    return 'action="/accounts/logout/"' in client.get("/").content.decode()


def test_pages_read_the_logged_in_user_without_the_database(make_user):
    alice = make_user("alice")
    queries_for_a_page(alice.client)  # the first reads the user and caches it
    assert queries_for_a_page(alice.client) == 0


def test_the_backend_still_refuses_unknown_and_inactive_users(make_user):
    alice = make_user("alice")
    assert CachedUserBackend().get_user(alice.user.pk + 1) is None
    User.objects.filter(pk=alice.user.pk).update(is_active=False)
    assert CachedUserBackend().get_user(alice.user.pk) is None


def test_a_deactivated_user_is_logged_out_at_once(make_user):
    alice = make_user("alice")
    assert is_logged_in(alice.client)
    alice.user.is_active = False
    alice.user.save()
    assert not is_logged_in(alice.client)


def test_a_new_password_logs_out_other_sessions_at_once(make_user):
    alice = make_user("alice")
    assert is_logged_in(alice.client)
    alice.user.set_password("a brand new password")
    alice.user.save()
    assert not is_logged_in(alice.client)


def test_a_deleted_user_is_logged_out_at_once(make_user):
    alice = make_user("alice")
    assert is_logged_in(alice.client)
    User.objects.filter(pk=alice.user.pk).delete()
    assert not is_logged_in(alice.client)


@pytest.mark.django_db(transaction=True)
def test_a_save_is_forgotten_again_when_it_commits(make_user):
    """Another request may read the old row between a save and its commit, and cache
    it: the commit forgets it again."""
    alice = make_user("alice")
    old = CachedUserBackend().get_user(alice.user.pk)  # as that request would cache it
    with transaction.atomic():
        alice.user.is_active = False
        alice.user.save()
        cache.set(backends.user_cache_key(alice.user.pk), old)
    assert not is_logged_in(alice.client)


def test_a_suspended_user_is_logged_out_at_once(make_user):
    from accounts.services import set_suspended

    alice = make_user("alice")
    assert is_logged_in(alice.client)
    set_suspended(alice.uid, True)
    assert not is_logged_in(alice.client)
