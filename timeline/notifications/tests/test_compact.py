"""Notifications stored compact (no login in the member, whole-millisecond scores), what
readers make of them, the unread count at a read's edge, and the upgrade of sets stored
before."""

import importlib
import time

from django.core.management import call_command

from accounts import authors
from accounts.keys import user_key
from socialsite.redis import get_redis
from timeline import keys
from timeline.graph import services as graph
from timeline.notifications import selectors, services
from timeline.posting import services as posting
from timeline.reactions import services as reactions

# The upgrade of notifications stored before compact members: Redis data migration 0006.
compact = importlib.import_module("timeline.data_migrations.0006_compact_notifications")


def lines(uid: int, **kwargs) -> list[str]:
    return [n.text for n in selectors.notifications_page(uid, 1, 40, **kwargs).notifications]


def unread(uid: int) -> int:
    return selectors.unread_counts(uid)["notifications"]


def stored(redis_conn, key: str) -> list[tuple[str, float]]:
    return redis_conn.zrange(key, 0, -1, withscores=True)


def notify(recipient: int, kind: str, actor: int, object_id: int = 0, when=None):
    pipe = get_redis().pipeline(transaction=False)
    services.queue_notify(pipe, recipient, kind, {"id": actor, "login": "x"}, object_id, when)
    return pipe.execute()[0]


def withdraw(recipient: int, kind: str, actor: int, object_id: int = 0) -> int:
    pipe = get_redis().pipeline(transaction=False)
    services.queue_withdraw(pipe, recipient, kind, {"id": actor, "login": "x"}, object_id)
    return pipe.execute()[0]


def test_a_follow_is_the_followers_uid_and_a_status_action_its_letter_status_and_uid(
    alice, bob, redis_conn
):
    status = posting.post_status(alice.uid, "hello")
    before = int(time.time() * 1000)
    reactions.like(bob.uid, status)
    reactions.repost(bob.uid, status)
    reply = posting.post_status(bob.uid, "yes @alice", in_reply_to=status)
    mention = posting.post_status(bob.uid, "hey @alice")
    graph.follow_user(bob.uid, alice.uid)
    found = stored(redis_conn, keys.notifications_key(alice.uid))
    assert [member for member, _ in found] == [
        f"l{status}:{bob.uid}",
        f"p{status}:{bob.uid}",
        f"r{reply}:{bob.uid}",
        f"m{mention}:{bob.uid}",
        str(bob.uid),
    ]
    scores = [score for _, score in found]
    assert all(score == int(score) for score in scores) and scores == sorted(set(scores))
    assert scores[0] >= before - 1000 and scores[-1] <= time.time() * 1000 + 1000
    assert [services.parse_member(m) for m, _ in found] == [
        (services.LIKE, status, bob.uid),
        (services.REPOST, status, bob.uid),
        (services.REPLY, reply, bob.uid),
        (services.MENTION, mention, bob.uid),
        (services.FOLLOW, 0, bob.uid),
    ]


def test_a_thousand_follows_take_at_most_20_bytes_each(alice, redis_conn):
    pipe = redis_conn.pipeline(transaction=False)
    for i in range(1_000):
        # Uids of a site of millions, times as time.time() gives them (17 digits).
        actor = {"id": 1_000_000 + i * 7, "login": f"follower_{i}"}
        when = 1_764_000_000.123456 + i * 61.7
        services.queue_notify(pipe, alice.uid, services.FOLLOW, actor, when=when)
    pipe.execute()
    key = keys.notifications_key(alice.uid)
    assert redis_conn.zcard(key) == 1_000
    # The old member ("follow:0:<uid>:<login>", a float's 17 digits) took ~49 B.
    assert redis_conn.memory_usage(key, samples=0) / 1_000 <= 20


def test_notifications_made_in_one_millisecond_keep_the_order_they_were_made(alice, make_user):
    fans = [make_user(f"fan{i}") for i in range(3)]
    for fan in fans:
        notify(alice.uid, services.FOLLOW, fan.uid, when=1_764_000_000.5)
    (line,) = selectors.notifications_page(alice.uid, 1, 40).notifications
    assert line.logins == ["fan2", "fan1", "fan0"]
    assert line.text == "@fan2 and 2 others followed you"
    assert line.when >= 1_764_000_000.5


def test_one_made_in_a_reads_millisecond_and_withdrawn_leaves_the_unread_count_right(
    alice, bob, make_user
):
    carol = make_user("carol")
    # A notification scored ahead of the clock (a time given, or a burst's), read...
    future = time.time() + 3600
    notify(alice.uid, services.FOLLOW, bob.uid, when=future)
    services.mark_read(alice.uid)
    # ... then one made in that same millisecond, after the read: unread.
    assert notify(alice.uid, services.FOLLOW, carol.uid, when=future) == 1
    assert withdraw(alice.uid, services.FOLLOW, bob.uid) == 1
    assert unread(alice.uid) == 1
    assert withdraw(alice.uid, services.FOLLOW, carol.uid) == 1
    assert unread(alice.uid) == 0


def test_one_made_in_the_reads_own_millisecond_counts_as_after_it(alice, bob, redis_conn):
    services.mark_read(alice.uid)
    read_at = int(redis_conn.hget(user_key(alice.uid), keys.NOTIFICATIONS_READ_AT))
    notify(alice.uid, services.FOLLOW, bob.uid, when=read_at / 1000)
    assert unread(alice.uid) == 1
    ((_, score),) = stored(redis_conn, keys.notifications_key(alice.uid))
    assert score == read_at + 1
    withdraw(alice.uid, services.FOLLOW, bob.uid)
    assert unread(alice.uid) == 0


def test_the_page_reads_logins_with_its_statuses_in_two_round_trips(
    alice,
    make_user,
    round_trips,  # noqa: F811
):
    status = posting.post_status(alice.uid, "popular")
    fans = [make_user(f"fan{i}") for i in range(3)]
    for fan in fans:
        reactions.like(fan.uid, status)
        graph.follow_user(fan.uid, alice.uid)
    found = []
    assert round_trips(lambda: found.append(selectors.notifications_page(alice.uid, 1, 40))) == 2
    follows, likes = found[0].notifications
    assert follows.text == "@fan2 and 2 others followed you"
    assert likes.logins == ["fan2", "fan1", "fan0"] and likes.status["id"] == status
    assert likes.uids == [fan.uid for fan in reversed(fans)]


def test_the_login_shown_is_the_one_the_profile_holds_now(alice, bob, redis_conn):
    graph.follow_user(bob.uid, alice.uid)
    assert lines(alice.uid) == ["@bob followed you"]
    # Logins don't change on this site; were one to, the profile says what it is now, in
    # every process at once (an author kept by the process isn't taken).
    authors.authors({bob.uid: "bob"})
    redis_conn.hset(user_key(bob.uid), "login", "robert")
    assert lines(alice.uid) == ["@robert followed you"]


def test_an_actor_whose_profile_is_gone_is_left_out(alice, bob, make_user, redis_conn):
    carol = make_user("carol")
    status = posting.post_status(alice.uid, "hello")
    reactions.like(bob.uid, status)
    reactions.like(carol.uid, status)
    graph.follow_user(bob.uid, alice.uid)
    redis_conn.delete(user_key(bob.uid))
    assert lines(alice.uid) == ["@carol liked your status"]


def store_old(redis_conn, uid: int, entries: list[tuple[str, float]], *, mention: bool = False):
    """Notifications as stored before compact members."""
    key = (keys.mention_notifications_key if mention else keys.notifications_key)(uid)
    redis_conn.zadd(key, dict(entries))


def test_old_notifications_are_converted_once_and_read_and_withdrawn_as_new(
    alice, bob, make_user, redis_conn
):
    carol = make_user("carol")
    status = posting.post_status(alice.uid, "hello")
    reply = posting.post_status(bob.uid, "yes", in_reply_to=status)
    reactions.like(carol.uid, status)
    # Their notifications as stored before: read at .1235, the like (.1234) before it,
    # the reply (.12355) after it in its millisecond, the follow a second later.
    redis_conn.delete(keys.notifications_key(alice.uid), keys.mention_notifications_key(alice.uid))
    old_reply = f"reply:{reply}:{bob.uid}:bob"
    read_at = 1_764_000_000.1235
    store_old(
        redis_conn,
        alice.uid,
        [
            (f"like:{status}:{carol.uid}:carol", 1_764_000_000.1234),
            (old_reply, 1_764_000_000.12355),
            (f"follow:0:{bob.uid}:bob", read_at + 1),
        ],
    )
    store_old(redis_conn, alice.uid, [(old_reply, 1_764_000_000.12355)], mention=True)
    redis_conn.hset(
        user_key(alice.uid),
        mapping={keys.NOTIFICATIONS_READ_AT: read_at, keys.UNREAD_NOTIFICATIONS: 2},
    )
    assert compact.compact_old_notifications() == 4
    assert compact.compact_old_notifications() == 0
    assert [m for m, _ in stored(redis_conn, keys.notifications_key(alice.uid))] == [
        f"l{status}:{carol.uid}",
        f"r{reply}:{bob.uid}",
        str(bob.uid),
    ]
    assert stored(redis_conn, keys.mention_notifications_key(alice.uid)) == [
        (f"r{reply}:{bob.uid}", 1_764_000_000_124)
    ]
    assert redis_conn.hget(user_key(alice.uid), keys.NOTIFICATIONS_READ_AT) == "1764000000123"
    assert lines(alice.uid) == [
        "@bob followed you",
        "@bob replied to your status",
        "@carol liked your status",
    ]
    # The like was read, the reply and the follow weren't.
    reactions.unlike(carol.uid, status)
    assert unread(alice.uid) == 2
    posting.delete_status(bob.uid, reply)
    assert withdraw(alice.uid, services.FOLLOW, bob.uid) == 1
    assert lines(alice.uid) == [] and unread(alice.uid) == 0


def test_the_data_migrations_convert_old_notifications(alice, bob, redis_conn):
    store_old(redis_conn, alice.uid, [(f"follow:0:{bob.uid}:bob", 1_764_000_000.5)])
    redis_conn.delete(keys.DATA_VERSION)  # written before data versions
    call_command("migrate", verbosity=0)
    assert stored(redis_conn, keys.notifications_key(alice.uid)) == [
        (str(bob.uid), 1_764_000_000_500)
    ]
    assert lines(alice.uid) == ["@bob followed you"]
