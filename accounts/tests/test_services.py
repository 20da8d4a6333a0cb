import pytest
from django.contrib.auth import authenticate
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


def test_create_users_makes_many_profiles_and_skips_taken_logins():
    services.create_user("taken", "T")
    uids = services.create_users([("fresh", "F"), ("TAKEN", "T2"), ("other", "")])
    assert uids[1] is None
    assert [services.get_user(uid)["login"] for uid in (uids[0], uids[2])] == ["fresh", "other"]
    assert services.get_user(uids[2])["name"] == "other"


def test_create_users_refuses_the_batch_if_any_login_is_bad():
    with pytest.raises(ValueError):
        services.create_users([("good", "G"), ("bad login", "B")])
    assert services.uid_for_login("good") is None


def test_search_users_pages_through_a_login_prefix_in_order():
    for login in ["Bea", "bob", "Bobby", "bolt", "carl"]:
        services.create_user(login, login)
    page, cursor = services.search_users("BO", count=2)
    assert [u["login"] for u in page] == ["bob", "Bobby"]
    page, cursor = services.search_users("bo", after=cursor, count=2)
    assert [u["login"] for u in page] == ["bolt"]
    assert cursor == ""
    everyone, _ = services.search_users("", count=10)
    assert len(everyone) == 5


@pytest.mark.parametrize("prefix, after", [("b-o", ""), ("bo", "xx:1"), ("bo", "bo;1")])
def test_search_users_refuses_bad_prefixes_and_cursors(prefix, after):
    with pytest.raises(ValueError):
        services.search_users(prefix, after=after)


@pytest.mark.django_db
def test_suspending_deactivates_the_django_user_and_lifting_it_reactivates():
    services.sign_up("dora", "a-long-password-1", "Dora")
    uid = services.uid_for_login("dora")
    assert services.set_suspended(uid, True) is True
    assert services.set_suspended(uid, True) is False
    assert services.get_user(uid)["suspended"]
    assert not User.objects.get(username="dora").is_active
    assert services.set_suspended(uid, False) is True
    assert not services.get_user(uid)["suspended"]
    assert User.objects.get(username="dora").is_active


def test_suspending_an_unknown_user_is_refused():
    with pytest.raises(ValueError):
        services.set_suspended(404, True)


@pytest.mark.django_db
def test_release_login_frees_the_login_but_keeps_the_profile():
    services.sign_up("erin", "a-long-password-1", "Erin")
    uid = services.uid_for_login("erin")
    services.release_login(uid)
    assert services.uid_for_login("erin") is None
    assert services.search_users("erin") == ([], "")
    assert not User.objects.filter(username="erin").exists()
    assert services.get_user(uid)["login"] == "erin"
    assert services.create_user("Erin", "The new Erin") not in (None, uid)


@pytest.mark.django_db
def test_create_login_users_lets_profiles_log_in_with_one_password():
    uids = services.create_users([("fay", "Fay"), ("gus", "Gus")])
    assert services.create_login_users(["fay", "gus"], "shared-secret") == 2
    assert services.create_login_users(["fay"], "shared-secret") == 0
    assert authenticate(username="gus", password="shared-secret").username == "gus"
    assert services.uid_for_login("gus") == uids[1]


def test_create_user_and_update_name_refuse_hidden_characters_and_change_nothing():
    with pytest.raises(ValueError, match="bidi override"):
        services.create_user("mallory", "Mallory\u202e")
    assert services.uid_for_login("mallory") is None
    uid = services.create_user("alice", "Alice")
    with pytest.raises(ValueError, match="zero-width"):
        services.update_name(uid, "Al\u200bice")
    assert services.get_user(uid)["name"] == "Alice"
