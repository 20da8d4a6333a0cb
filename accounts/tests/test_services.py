import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError

from accounts import services


def test_create_user_makes_a_profile_with_zero_counters():
    uid = services.create_user("Alice", "Alice Liddell")
    user = services.get_user(uid)
    assert user["login"] == "Alice"
    assert user["name"] == "Alice Liddell"
    assert (user["followers"], user["following"], user["posts"]) == (0, 0, 0)
    assert user["signup"] > 0


def test_create_user_refuses_a_login_taken_in_any_case():
    assert services.create_user("alice", "A")
    assert services.create_user("ALICE", "B") is None


def test_uid_for_login_ignores_case():
    uid = services.create_user("Bob_1", "Bob")
    assert services.uid_for_login("bob_1") == uid
    assert services.uid_for_login("nobody") is None


@pytest.mark.parametrize("login", ["", "a" * 31, "has space", "dash-ed", "émile", "admin"])
def test_create_user_refuses_bad_or_reserved_logins(login):
    with pytest.raises(ValueError):
        services.create_user(login, "x")
    assert services.uid_for_login(login) is None


def test_get_user_of_an_unknown_uid_is_none():
    assert services.get_user(12345) is None


def test_update_name_checks_the_name():
    uid = services.create_user("carol", "Carol")
    services.update_name(uid, "Caroline")
    assert services.get_user(uid)["name"] == "Caroline"
    for bad in ["", "   ", "x" * 51]:
        with pytest.raises(ValueError):
            services.update_name(uid, bad)
    assert services.get_user(uid)["name"] == "Caroline"


@pytest.mark.django_db
def test_sign_up_makes_the_django_user_and_the_profile():
    user = services.sign_up("dave", "a-long-password-1", "Dave")
    assert user.check_password("a-long-password-1")
    assert services.get_user_by_login("dave")["name"] == "Dave"


@pytest.mark.django_db
def test_sign_up_with_a_taken_login_makes_nothing():
    services.sign_up("erin", "a-long-password-1", "Erin")
    with pytest.raises(services.LoginTaken):
        services.sign_up("ERIN", "a-long-password-1", "Other")
    assert User.objects.count() == 1


@pytest.mark.django_db
def test_a_failed_django_insert_leaves_no_profile():
    User.objects.create(username="frank_")  # exists in the ORM only after we drop its profile
    services.delete_profile(services.uid_for_login("frank_"))
    with pytest.raises(IntegrityError):
        services.sign_up("frank_", "a-long-password-1", "Frank")
    assert services.uid_for_login("frank_") is None


@pytest.mark.django_db
def test_superusers_get_a_profile_even_with_a_reserved_login():
    User.objects.create_superuser("admin", "admin@example.com", "a-long-password-1")
    assert services.get_user_by_login("admin")["login"] == "admin"
