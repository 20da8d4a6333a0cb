import asyncio

import pytest
from django.test import override_settings

from accounts.keys import user_key
from accounts.services import create_user
from socialsite.redis import key_count
from streaming import keys, services
from streaming.services import StreamRefused


def test_a_new_key_is_listed_with_its_name_but_stored_only_as_a_hash(alice_uid, redis_conn):
    key = services.create_stream_key(alice_uid, "  my bot ")
    [listed] = services.list_stream_keys(alice_uid)
    assert listed["name"] == "my bot"
    assert listed["last_used"] is None
    assert listed["id"] in key
    stored = redis_conn.hgetall(keys.stream_key_key(alice_uid, listed["id"]))
    assert key not in stored.values()
    assert all(key not in redis_conn.dump(k).decode("latin-1") for k in redis_conn.scan_iter())


def test_keys_resolve_to_their_owner_until_revoked(alice_uid):
    key = services.create_stream_key(alice_uid)
    assert services.uid_for_stream_key(key) == alice_uid
    [listed] = services.list_stream_keys(alice_uid)
    assert services.revoke_stream_key(alice_uid, listed["id"]) is True
    assert services.uid_for_stream_key(key) is None
    assert services.list_stream_keys(alice_uid) == []


def test_revoking_someone_elses_or_an_unknown_key_changes_nothing(alice_uid):
    bob = create_user("bob", "Bob")
    key = services.create_stream_key(alice_uid)
    [listed] = services.list_stream_keys(alice_uid)
    assert services.revoke_stream_key(bob, listed["id"]) is False
    assert services.revoke_stream_key(alice_uid, "nonsense") is False
    assert services.uid_for_stream_key(key) == alice_uid


@pytest.mark.parametrize(
    "key", ["", "nonsense", "ssk_1_000000000000_" + "x" * 32, "ssk_1_abc_def", None]
)
def test_made_up_keys_resolve_to_nobody(alice_uid, key):
    services.create_stream_key(alice_uid)
    assert services.uid_for_stream_key(key) is None


def test_a_tampered_key_resolves_to_nobody(alice_uid):
    key = services.create_stream_key(alice_uid)
    tampered = key[:-1] + ("A" if key[-1] != "A" else "B")
    assert services.uid_for_stream_key(tampered) is None


def test_keys_list_newest_first(alice_uid):
    services.create_stream_key(alice_uid, "first")
    services.create_stream_key(alice_uid, "second")
    assert [k["name"] for k in services.list_stream_keys(alice_uid)] == ["second", "first"]


def test_a_name_over_50_characters_is_refused_and_nothing_is_made(alice_uid):
    with pytest.raises(ValueError, match="at most 50"):
        services.create_stream_key(alice_uid, "x" * 51)
    assert services.list_stream_keys(alice_uid) == []


def test_an_unknown_user_gets_no_key(redis_conn):
    with pytest.raises(ValueError, match="No such user"):
        services.create_stream_key(999)
    assert key_count(redis_conn) == 0


@override_settings(STREAM_KEYS_PER_USER=2)
def test_a_user_has_a_limited_number_of_keys(alice_uid):
    services.create_stream_key(alice_uid)
    services.create_stream_key(alice_uid)
    with pytest.raises(ValueError, match="revoke one first"):
        services.create_stream_key(alice_uid)
    assert len(services.list_stream_keys(alice_uid)) == 2


async def test_opening_a_stream_records_its_use_and_counts_it(alice_uid):
    key = services.create_stream_key(alice_uid)
    grant = await services.open_stream(key=key, uid=None)
    assert grant.uid == alice_uid
    assert services.stream_stats()["clients"] == 1
    assert services.list_stream_keys(alice_uid)[0]["last_used"] is not None
    await services.close_stream(grant)
    assert services.stream_stats()["clients"] == 0


async def test_a_key_opens_at_most_its_limit_of_streams_at_once(alice_uid):
    key = services.create_stream_key(alice_uid)
    first = await services.open_stream(key=key, uid=None)
    await services.open_stream(key=key, uid=None)
    with pytest.raises(StreamRefused) as refused:
        await services.open_stream(key=key, uid=None)
    assert refused.value.status == 429
    await services.close_stream(first)
    await services.open_stream(key=key, uid=None)


async def test_the_limit_is_per_key(alice_uid):
    one, two = services.create_stream_key(alice_uid), services.create_stream_key(alice_uid)
    with override_settings(STREAM_CONNECTIONS_PER_KEY=1):
        first = await services.open_stream(key=one, uid=None)
        second = await services.open_stream(key=two, uid=None)
        with pytest.raises(StreamRefused):
            await services.open_stream(key=one, uid=None)
    assert first.key_id != second.key_id and first.uid == second.uid == alice_uid


async def test_streams_a_dead_process_stopped_renewing_free_their_places(alice_uid):
    key = services.create_stream_key(alice_uid)
    with override_settings(STREAM_HEARTBEAT_SECONDS=0.05, STREAM_CONNECTIONS_PER_KEY=1):
        await services.open_stream(key=key, uid=None)
        with pytest.raises(StreamRefused):
            await services.open_stream(key=key, uid=None)
        await asyncio.sleep(0.3)
        await services.open_stream(key=key, uid=None)
        assert services.stream_stats()["clients"] == 1


async def test_renewed_streams_keep_their_places(alice_uid):
    key = services.create_stream_key(alice_uid)
    with override_settings(STREAM_HEARTBEAT_SECONDS=0.05, STREAM_CONNECTIONS_PER_KEY=1):
        grant = await services.open_stream(key=key, uid=None)
        for _ in range(6):
            await asyncio.sleep(0.05)
            assert await services.keep_streams([grant]) == [None]
        with pytest.raises(StreamRefused):
            await services.open_stream(key=key, uid=None)


async def test_renewing_keeps_every_place_of_several_owners_and_keys(alice_uid):
    bob = create_user("bob", "Bob")
    stream_keys = [services.create_stream_key(uid) for uid in (alice_uid, bob, alice_uid)]
    with override_settings(STREAM_HEARTBEAT_SECONDS=0.05, STREAM_CONNECTIONS_PER_KEY=2):
        grants = [await services.open_stream(key=key, uid=None) for key in stream_keys * 2]
        grants.append(await services.open_stream(key=None, uid=bob))
        for _ in range(6):
            await asyncio.sleep(0.05)
            assert await services.keep_streams(grants) == [None] * len(grants)
        for key in stream_keys:
            with pytest.raises(StreamRefused):
                await services.open_stream(key=key, uid=None)
        assert services.stream_stats()["clients"] == len(grants)


@pytest.mark.parametrize("key", ["nonsense", "ssk_1_000000000000_" + "x" * 32])
async def test_unknown_keys_are_refused_with_401(alice_uid, key):
    with pytest.raises(StreamRefused) as refused:
        await services.open_stream(key=key, uid=None)
    assert refused.value.status == 401


async def test_no_key_and_no_session_is_refused_with_401():
    with pytest.raises(StreamRefused) as refused:
        await services.open_stream(key=None, uid=None)
    assert refused.value.status == 401


async def test_a_suspended_user_can_not_stream_by_key_or_session(alice_uid, redis_conn):
    key = services.create_stream_key(alice_uid)
    redis_conn.hset(user_key(alice_uid), "suspended", "1")
    for credentials in [{"key": key, "uid": None}, {"key": None, "uid": alice_uid}]:
        with pytest.raises(StreamRefused) as refused:
            await services.open_stream(**credentials)
        assert refused.value.status == 403
    assert services.stream_stats()["clients"] == 0


async def test_renewing_reports_a_revoked_key_and_a_suspension(alice_uid, redis_conn):
    key = services.create_stream_key(alice_uid)
    other_key = services.create_stream_key(alice_uid)
    by_key = await services.open_stream(key=key, uid=None, ip="203.0.113.9")
    by_other_key = await services.open_stream(key=other_key, uid=None)
    by_session = await services.open_stream(key=None, uid=alice_uid, ip="203.0.113.10")
    grants = [by_key, by_other_key, by_session]
    services.revoke_stream_key(alice_uid, by_key.key_id)
    renewed = await services.keep_streams(grants)
    assert [refused and refused.status for refused in renewed] == [401, None, None]
    redis_conn.hset(user_key(alice_uid), "suspended", "1")
    renewed = await services.keep_streams(grants)
    assert [refused.status for refused in renewed] == [401, 403, 403]


async def test_home_state_is_the_follows_the_newest_entries_and_the_reposts_counted(alice_uid):
    from timeline.reactions import services as reactions
    from timeline.services import follow_user, post_status

    bob, carol, dave = (create_user(login, login.title()) for login in ("bob", "carol", "dave"))
    follow_user(alice_uid, bob)
    follow_user(alice_uid, carol)
    older = post_status(carol, "older")
    original = post_status(dave, "not followed")
    counted = reactions.repost(bob, original)
    mine = post_status(alice_uid, "mine")
    state = await services.home_state(alice_uid, 2)
    assert sorted(state.followed) == [bob, carol]
    assert state.newest == [mine, counted]
    assert state.shown == {original: counted}
    assert not state.complete
    state = await services.home_state(alice_uid, 10)
    assert state.newest == [mine, counted, older]
    assert state.complete


async def test_home_state_leaves_out_counted_reposts_older_than_the_entries_read(alice_uid):
    from timeline.reactions import services as reactions
    from timeline.services import follow_user, post_status

    bob, carol = create_user("bob", "Bob"), create_user("carol", "Carol")
    follow_user(alice_uid, bob)
    reactions.repost(bob, post_status(carol, "not followed"))
    newer = post_status(bob, "newer")
    state = await services.home_state(alice_uid, 1)
    assert state.newest == [newer] and state.shown == {}


def test_stream_stats_start_at_zero():
    assert services.stream_stats() == {"clients": 0, "subscriptions": 0}


async def test_an_address_opens_at_most_its_limit_of_streams_at_once(alice_uid):
    bob = create_user("bob", "Bob")
    alice_key, bob_key = services.create_stream_key(alice_uid), services.create_stream_key(bob)
    with override_settings(STREAM_CONNECTIONS_PER_IP=2):
        first = await services.open_stream(key=alice_key, uid=None, ip="203.0.113.9")
        await services.open_stream(key=None, uid=bob, ip="203.0.113.9")
        for credentials in [{"key": bob_key, "uid": None}, {"key": None, "uid": alice_uid}]:
            with pytest.raises(StreamRefused) as refused:
                await services.open_stream(**credentials, ip="203.0.113.9")
            assert (refused.value.status, refused.value.close_code) == (429, 4429)
            assert "address already has 2 open streams" in refused.value.message
            assert refused.value.retry_after > 0
        # Refused, it took nothing: neither the key's place nor a count.
        assert services.list_stream_keys(bob)[0]["last_used"] is None
        assert services.stream_stats()["clients"] == 2
        assert services.address_places_held("203.0.113.9") == 2
        await services.open_stream(key=bob_key, uid=None, ip="2001:db8::1")
        await services.close_stream(first)
        await services.open_stream(key=bob_key, uid=None, ip="203.0.113.9")


async def test_a_stream_refused_for_its_key_gives_back_its_address_place(alice_uid, redis_conn):
    key = services.create_stream_key(alice_uid)
    redis_conn.hset(user_key(alice_uid), "suspended", "1")
    with override_settings(STREAM_CONNECTIONS_PER_IP=1):
        for _ in range(2):
            with pytest.raises(StreamRefused) as refused:
                await services.open_stream(key=key, uid=None, ip="203.0.113.9")
            assert refused.value.status == 403
        assert services.address_places_held("203.0.113.9") == 0


async def test_renewing_keeps_address_places_and_a_dead_process_frees_them(alice_uid):
    with override_settings(STREAM_HEARTBEAT_SECONDS=0.05, STREAM_CONNECTIONS_PER_IP=1):
        grant = await services.open_stream(key=None, uid=alice_uid, ip="203.0.113.9")
        for _ in range(6):
            await asyncio.sleep(0.05)
            assert await services.keep_streams([grant]) == [None]
        with pytest.raises(StreamRefused):
            await services.open_stream(key=None, uid=alice_uid, ip="203.0.113.9")
        await asyncio.sleep(0.3)
        await services.open_stream(key=None, uid=alice_uid, ip="203.0.113.9")


def test_an_address_s_streams_key_carries_the_address_as_its_hash_tag():
    assert keys.stream_ip_connections_key("2001:db8::1") == "stream_ip_connections:{2001:db8::1}"
