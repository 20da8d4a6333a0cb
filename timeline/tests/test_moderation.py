import pytest
from django.core.management import call_command

from accounts.services import AccountSuspended, get_user, set_suspended, uid_for_login
from timeline import maintenance, moderation, services


def ids(statuses):
    return [s["id"] for s in statuses]


@pytest.mark.django_db
def test_a_suspended_users_statuses_are_hidden_from_every_timeline(make_user):
    author, reader = make_user(), make_user()
    services.follow_user(reader, author)
    theirs = services.post_status(author, "soon hidden")
    mine = services.post_status(reader, "still shown")
    set_suspended(author, True)
    assert ids(services.get_status_messages(reader)) == [mine]
    assert services.get_status_messages(author, "profile") == []
    assert ids(services.global_timeline_page().statuses) == [mine]
    assert ids(moderation.statuses_by(author).statuses) == [theirs]
    set_suspended(author, False)
    assert ids(services.get_status_messages(reader)) == [mine, theirs]


@pytest.mark.django_db
def test_a_suspended_user_cannot_post_and_nothing_is_stored(make_user, redis_conn):
    uid = make_user()
    set_suspended(uid, True)
    with pytest.raises(AccountSuspended, match="suspended"):
        services.post_status(uid, "let me in")
    with pytest.raises(AccountSuspended):
        services.create_status(uid, "let me in")
    assert get_user(uid)["posts"] == 0
    assert services.global_timeline_page().statuses == []


@pytest.mark.django_db
def test_deleting_a_user_with_many_followers_works_through_batches(
    make_user, followers_of, monkeypatch, redis_conn
):
    monkeypatch.setattr(moderation, "PURGE_BATCH", 3)
    author, followed = make_user("leaving"), make_user()
    fans = followers_of(author, 8)
    for other in [followed, *fans[:4]]:
        services.follow_user(author, other)
    posted = [services.post_status(author, f"status {i}") for i in range(7)]
    kept = services.post_status(fans[0], "a fan's own")

    moderation.delete_user(author)
    call_command("worker", burst=True)

    assert get_user(author) is None and uid_for_login("leaving") is None
    assert all(services.get_status(sid) is None for sid in posted)
    for fan in fans:
        assert get_user(fan)["following"] == 0
        assert posted[0] not in ids(services.get_status_messages(fan))
    assert [get_user(f)["followers"] for f in [followed, *fans[:4]]] == [0] * 5
    assert ids(services.get_status_messages(fans[0])) == [kept]
    assert maintenance.repair().findings == []


def test_deleting_an_unknown_user_is_refused():
    with pytest.raises(ValueError):
        moderation.delete_user(12345)


def test_latest_statuses_walks_back_by_id_skipping_deleted_ones(make_user):
    uid = make_user()
    posted = [services.post_status(uid, f"s{i}") for i in range(7)]
    services.delete_status(uid, posted[5])
    services.delete_status(uid, posted[4])
    page, cursor = moderation.latest_statuses(count=3)
    assert ids(page) == [posted[6], posted[3], posted[2]]
    page, cursor = moderation.latest_statuses(before=cursor, count=3)
    assert ids(page) == [posted[1], posted[0]]
    assert cursor == 0


def test_latest_statuses_refuses_a_negative_cursor():
    with pytest.raises(ValueError):
        moderation.latest_statuses(before=-1)
