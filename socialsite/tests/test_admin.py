import html

import pytest
from django.conf import settings
from django.contrib.admin.models import CHANGE, DELETION, LogEntry
from django.contrib.auth.models import User
from django.core.management import call_command
from django.urls import reverse

from accounts import services as accounts
from accounts.keys import SUSPENDED_USERS, user_key
from accounts.selectors import suspended_uids
from socialsite import jobs
from socialsite.redis import get_redis
from timeline.discovery import activity
from timeline.feeds import selectors as feeds
from timeline.graph import selectors as graph_selectors
from timeline.graph import services as graph
from timeline.posting import services as posting
from timeline.statuses import selectors as status_selectors
from timeline.tests.pages import home_entries

pytestmark = pytest.mark.django_db


@pytest.fixture
def network():
    """alice (a Django user who can log in) posts; bob follows her."""
    alice = accounts.sign_up("alice", "alice-password-1", "Alice")
    alice_uid = accounts.uid_for_login("alice")
    bob = accounts.create_user("bob", "Bob")
    graph.follow_user(bob, alice_uid)
    status_id = posting.post_status(alice_uid, "hello #redis @bob")
    return {"alice": alice_uid, "alice_user": alice, "bob": bob, "status": status_id}


@pytest.fixture
def staff_client(client):
    staff = User.objects.create_user("operator", password="operator-password-1", is_staff=True)
    client.force_login(staff)
    return client


def pages(network) -> list[str]:
    alice, status = network["alice"], network["status"]
    return [
        reverse("admin:redis_dashboard"),
        reverse("admin:redis_users"),
        reverse("admin:redis_users") + "?q=al",
        reverse("admin:redis_user", args=[alice]),
        reverse("admin:redis_user_action", args=[alice, "suspend"]),
        reverse("admin:redis_user_action", args=[alice, "unsuspend"]),
        reverse("admin:redis_user_action", args=[alice, "delete"]),
        reverse("admin:redis_statuses"),
        reverse("admin:redis_statuses") + f"?id={status}",
        reverse("admin:redis_statuses") + "?author=alice",
        reverse("admin:redis_status_delete", args=[status]),
        reverse("admin:redis_stream_keys"),
        reverse("admin:redis_stream_keys") + "?user=alice",
    ]


def test_every_redis_page_renders_for_staff_inside_the_admin_layout(staff_client, network):
    for url in pages(network):
        response = staff_client.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        assert 'class="breadcrumbs"' in html and 'id="nav-sidebar"' in html, url


def test_non_staff_users_are_sent_to_the_admin_login(client, network):
    client.force_login(network["alice_user"])
    for url in pages(network):
        response = client.get(url)
        assert response.status_code == 302, url
        assert response.url.startswith(reverse("admin:login")), url


def test_anonymous_visitors_are_sent_to_the_admin_login(client, network):
    for url in pages(network):
        response = client.get(url)
        assert response.status_code == 302, url
        assert response.url.startswith(reverse("admin:login")), url


def test_posting_an_action_without_staff_rights_changes_nothing(client, network):
    client.force_login(network["alice_user"])
    client.post(reverse("admin:redis_user_action", args=[network["bob"], "suspend"]))
    client.post(reverse("admin:redis_status_delete", args=[network["status"]]))
    assert not accounts.get_user(network["bob"])["suspended"]
    assert status_selectors.get_status(network["status"])


def test_the_redis_section_url_leads_staff_to_the_dashboard(staff_client):
    response = staff_client.get("/admin/redis/")
    assert response.url == reverse("admin:redis_dashboard")


def test_the_admin_index_and_sidebar_link_the_redis_pages(staff_client):
    html = staff_client.get(reverse("admin:index")).content.decode()
    assert "Redis data" in html
    for name in ("redis_dashboard", "redis_users", "redis_statuses", "redis_stream_keys"):
        assert f'href="{reverse(f"admin:{name}")}"' in html


def test_the_dashboard_shows_the_network_and_the_last_hour(staff_client, network):
    activity.record(get_redis(), status_selectors.get_status(network["status"]))
    response = staff_client.get(reverse("admin:redis_dashboard"))
    stats = response.context["stats"]
    assert (stats["users"], stats["statuses"], stats["follows"]) == (3, 1, 1)
    html = response.content.decode()
    assert "#redis" in html and "@bob" in html
    assert "<svg" in html and html.count("<rect") == 24


def text(response) -> str:
    return html.unescape(response.content.decode())


def snapshot(redis_conn) -> dict:
    """Every key of the network and its value, to check an action changed only what it
    says. Django's cache (sessions, logged-in users) is not the network's: left out."""
    cache_keys = f"{settings.CACHES['default']['KEY_PREFIX']}:"
    dump = {}
    for key in redis_conn.scan_iter():
        if key.startswith(cache_keys):
            continue
        kind = redis_conn.type(key)
        if kind == "hash":
            dump[key] = redis_conn.hgetall(key)
        elif kind == "zset":
            dump[key] = redis_conn.zrange(key, 0, -1, withscores=True)
        elif kind == "set":
            dump[key] = redis_conn.smembers(key)
        elif kind == "string":
            dump[key] = redis_conn.get(key)
        else:
            dump[key] = kind
    return dump


def changed(before: dict, after: dict) -> set[str]:
    return {key for key in before.keys() | after.keys() if before.get(key) != after.get(key)}


def test_confirmation_pages_change_nothing(staff_client, network, redis_conn):
    before = snapshot(redis_conn)
    alice = network["alice"]
    for action in ("suspend", "delete"):
        page = staff_client.get(reverse("admin:redis_user_action", args=[alice, action]))
        assert "Yes, I’m sure" in page.content.decode()
    staff_client.get(reverse("admin:redis_status_delete", args=[network["status"]]))
    assert changed(before, snapshot(redis_conn)) == set()
    assert User.objects.get(username="alice").is_active
    assert not LogEntry.objects.exists()


def test_suspending_hides_statuses_blocks_login_and_posting_and_is_logged(
    staff_client, network, redis_conn, client
):
    alice, bob = network["alice"], network["bob"]
    before = snapshot(redis_conn)
    response = staff_client.post(reverse("admin:redis_user_action", args=[alice, "suspend"]))
    assert response.status_code == 302
    assert changed(before, snapshot(redis_conn)) == {user_key(alice), SUSPENDED_USERS}
    assert accounts.get_user(alice)["suspended"]
    assert feeds.get_status_messages(bob) == []
    assert feeds.global_timeline_page().statuses == []
    assert not User.objects.get(username="alice").is_active
    assert not client.login(username="alice", password="alice-password-1")
    with pytest.raises(accounts.AccountSuspended):
        posting.post_status(alice, "still here?")
    entry = LogEntry.objects.get()
    assert (entry.action_flag, entry.object_id) == (CHANGE, f"user:{alice}")
    assert entry.change_message == "Suspended."


def test_moderators_still_see_a_suspended_users_statuses_in_the_admin(staff_client, network):
    alice, status_id = network["alice"], network["status"]
    reply = posting.post_status(network["bob"], "an answer", in_reply_to=status_id)
    accounts.set_suspended(alice, True)
    # Hidden on the site...
    assert staff_client.get(f"/statuses/{status_id}/").status_code == 404
    # ...but not in the admin.
    for url in (
        reverse("admin:redis_user", args=[alice]),
        reverse("admin:redis_statuses"),
        reverse("admin:redis_statuses") + f"?id={status_id}",
        reverse("admin:redis_statuses") + "?author=alice",
    ):
        response = staff_client.get(url)
        assert response.status_code == 200, url
        assert "hello #redis @bob" in text(response), url
    latest = staff_client.get(reverse("admin:redis_statuses"))
    assert [s["id"] for s in latest.context["found"]] == [reply, status_id]


def test_lifting_a_suspension_restores_everything(staff_client, network, client):
    alice, bob = network["alice"], network["bob"]
    staff_client.post(reverse("admin:redis_user_action", args=[alice, "suspend"]))
    staff_client.post(reverse("admin:redis_user_action", args=[alice, "unsuspend"]))
    assert not accounts.get_user(alice)["suspended"]
    assert [s["id"] for s in feeds.get_status_messages(bob)] == [network["status"]]
    assert client.login(username="alice", password="alice-password-1")
    assert posting.post_status(alice, "back again")
    assert LogEntry.objects.count() == 2


def test_deleting_a_user_removes_them_and_their_statuses_everywhere(staff_client, network):
    alice, bob = network["alice"], network["bob"]
    carol = accounts.create_user("carol", "Carol")
    graph.follow_user(alice, carol)
    graph.follow_user(carol, bob)
    carols = posting.post_status(carol, "carol's")
    bob_before = accounts.get_user(bob)

    response = staff_client.post(reverse("admin:redis_user_action", args=[alice, "delete"]))
    assert response.status_code == 302
    # At once: no login, no Django user, nothing visible.
    assert accounts.uid_for_login("alice") is None
    assert not User.objects.filter(username="alice").exists()
    assert [s["id"] for s in feeds.get_status_messages(bob)] == []
    call_command("worker", burst=True)

    assert accounts.get_user(alice) is None
    assert status_selectors.get_status(network["status"]) is None
    assert home_entries(bob) == []
    assert accounts.get_user(bob)["following"] == bob_before["following"] - 1
    assert accounts.get_user(carol)["followers"] == 0
    assert accounts.get_user(carol)["following"] == 1
    assert status_selectors.get_status(carols)
    # Nothing of theirs is left: profile, timelines and follows.
    assert status_selectors.profile_ids(alice) == home_entries(alice) == []
    assert graph_selectors.followers_page(alice, 1, 1000, viewer=alice) == ([], False)
    assert graph_selectors.following_page(alice, 1, 1000, viewer=alice) == ([], False)
    assert suspended_uids() == set()
    assert accounts.create_user("alice", "A new Alice")
    assert LogEntry.objects.get().action_flag == DELETION


def test_a_moderator_deletes_any_status_and_the_log_says_so(staff_client, network):
    status_id = network["status"]
    response = staff_client.post(reverse("admin:redis_status_delete", args=[status_id]))
    assert response.status_code == 302
    assert status_selectors.get_status(status_id) is None
    assert accounts.get_user(network["alice"])["posts"] == 0
    call_command("worker", burst=True)
    assert feeds.get_status_messages(network["bob"]) == []
    entry = LogEntry.objects.get()
    assert (entry.action_flag, entry.object_id) == (DELETION, f"status:{status_id}")
    assert entry.user.username == "operator"


def test_operators_cannot_suspend_or_delete_their_own_account(staff_client, redis_conn):
    own = accounts.uid_for_login("operator")
    before = snapshot(redis_conn)
    for action in ("suspend", "delete"):
        response = staff_client.post(
            reverse("admin:redis_user_action", args=[own, action]), follow=True
        )
        assert f"You can't {action} your own account." in text(response)
    assert changed(before, snapshot(redis_conn)) == set()
    assert User.objects.get(username="operator").is_active


@pytest.mark.parametrize(
    "url, message",
    [
        ("/admin/redis/users/?q=no-dashes", "letters, digits and underscores"),
        ("/admin/redis/users/?q=al&after=zz:1", "cursor is not valid"),
        ("/admin/redis/statuses/?id=abc", "Id must be a whole number"),
        ("/admin/redis/statuses/?author=nobody", "There is no user @nobody"),
        ("/admin/redis/statuses/?before=-3", "Before must be a whole number"),
        ("/admin/redis/statuses/?author=alice&page=99999999999999999999", "Pages go up to"),
        ("/admin/redis/stream-keys/?user=nobody", "There is no user @nobody"),
    ],
)
def test_bad_lookups_get_a_400_with_a_clear_message(staff_client, network, url, message):
    response = staff_client.get(url)
    assert response.status_code == 400
    assert message in text(response)


def test_unknown_users_statuses_and_actions_are_404s_and_change_nothing(
    staff_client, network, redis_conn
):
    before = snapshot(redis_conn)
    for url in (
        reverse("admin:redis_user", args=[999]),
        reverse("admin:redis_user_action", args=[999, "suspend"]),
        reverse("admin:redis_user_action", args=[network["alice"], "promote"]),
        reverse("admin:redis_status_delete", args=[999]),
    ):
        assert staff_client.post(url).status_code == 404, url
    assert changed(before, snapshot(redis_conn)) == set()
    assert not LogEntry.objects.exists()


def test_user_search_pages_through_logins_by_prefix(staff_client):
    for i in range(55):
        accounts.create_user(f"al{i:02d}", "Al")
    accounts.create_user("bert", "Bert")
    first = staff_client.get(reverse("admin:redis_users") + "?q=AL")
    logins = [user["login"] for user in first.context["found"]]
    assert logins == [f"al{i:02d}" for i in range(50)]
    second = staff_client.get(
        reverse("admin:redis_users") + f"?q=al&after={first.context['next_after']}"
    )
    assert [user["login"] for user in second.context["found"]] == [
        f"al{i:02d}" for i in range(50, 55)
    ]
    assert second.context["next_after"] == ""


def test_statuses_list_newest_first_and_look_up_by_id_and_author(staff_client, network):
    bob = network["bob"]
    mine = [posting.post_status(bob, f"bob {i}") for i in range(3)]
    latest = staff_client.get(reverse("admin:redis_statuses"))
    assert [s["id"] for s in latest.context["found"]] == [*mine[::-1], network["status"]]
    by_id = staff_client.get(reverse("admin:redis_statuses") + f"?id={mine[0]}")
    assert [s["id"] for s in by_id.context["found"]] == [mine[0]]
    by_author = staff_client.get(reverse("admin:redis_statuses") + "?author=@Bob")
    assert [s["id"] for s in by_author.context["found"]] == mine[::-1]


def test_stream_keys_are_listed_by_user_and_revoked_with_a_log_entry(staff_client, network):
    from streaming import services as streaming

    alice = network["alice"]
    key = streaming.create_stream_key(alice, "my bot")
    key_id = streaming.list_stream_keys(alice)[0]["id"]
    page = staff_client.get(reverse("admin:redis_stream_keys") + "?user=alice")
    assert "my bot" in text(page)
    revoke = reverse("admin:redis_stream_key_revoke", args=[alice, key_id])
    staff_client.get(revoke)
    assert streaming.uid_for_stream_key(key) == alice
    staff_client.post(revoke)
    assert streaming.uid_for_stream_key(key) is None
    assert LogEntry.objects.get().change_message == f"Revoked stream key {key_id}."
    assert staff_client.post(revoke).status_code == 404


def test_deleting_a_user_revokes_their_stream_keys(staff_client, network):
    from streaming import services as streaming

    key = streaming.create_stream_key(network["alice"])
    staff_client.post(reverse("admin:redis_user_action", args=[network["alice"], "delete"]))
    assert streaming.uid_for_stream_key(key) is None


# Deleting through Django's own Users page goes through the same purge.


@pytest.fixture
def superuser_client(client):
    boss = User.objects.create_superuser("boss", password="boss-password-1")
    client.force_login(boss)
    return client


def purge_jobs() -> list[dict]:
    return jobs.unfinished_jobs("purge_user")


def test_deleting_a_user_on_djangos_users_page_purges_their_redis_data(
    superuser_client, network, redis_conn, django_capture_on_commit_callbacks
):
    alice, bob = network["alice"], network["bob"]
    url = reverse("admin:auth_user_delete", args=[network["alice_user"].pk])
    before = snapshot(redis_conn)
    assert superuser_client.get(url).status_code == 200  # the confirmation changes nothing
    assert changed(before, snapshot(redis_conn)) == set()
    with django_capture_on_commit_callbacks(execute=True):
        response = superuser_client.post(url, {"post": "yes"})
    assert response.status_code == 302
    assert not User.objects.filter(username="alice").exists()
    assert accounts.uid_for_login("alice") is None
    assert feeds.get_status_messages(bob) == []
    call_command("worker", burst=True)
    assert accounts.get_user(alice) is None
    assert status_selectors.get_status(network["status"]) is None
    assert accounts.get_user(bob)["following"] == 0
    assert suspended_uids() == set()


def test_the_users_pages_bulk_delete_purges_each_user(
    superuser_client, network, django_capture_on_commit_callbacks
):
    carol = User.objects.create_user("carol")
    chosen = [network["alice_user"].pk, carol.pk]
    with django_capture_on_commit_callbacks(execute=True):
        superuser_client.post(
            reverse("admin:auth_user_changelist"),
            {"action": "delete_selected", "_selected_action": chosen, "post": "yes"},
        )
    assert not User.objects.filter(pk__in=chosen).exists()
    call_command("worker", burst=True)
    assert accounts.get_user(network["alice"]) is None
    assert accounts.uid_for_login("carol") is None


def test_deleting_on_the_redis_page_purges_once_though_it_deletes_the_django_user(
    staff_client, network, django_capture_on_commit_callbacks
):
    alice = network["alice"]
    with django_capture_on_commit_callbacks(execute=True):
        staff_client.post(reverse("admin:redis_user_action", args=[alice, "delete"]))
    assert not User.objects.filter(username="alice").exists()
    assert purge_jobs() == [{"uid": alice, "phase": "followers"}]
