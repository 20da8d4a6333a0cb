"""4b. Asking many people whether they follow one user: a profile page's followers in
common (the viewer's COMMON_SCAN newest follows asked) and a reply's audience (a fan-out
job's batch of the author's followers asked whether they follow the user answered), for
an account followed by few (its followers in one key) and by many (in pieces), beside
one ZMSCORE of one sorted set (how followers were kept before pieces: the book's)."""

from accounts.services import get_user
from timeline import keys
from timeline.feeds import fanout
from timeline.graph import selectors as graph_selectors

from . import book, seed
from .context import Context
from .measure import Row, time_interleaved

# An account followed by few: its followers fit in one key (graph.pieces).
FEW_FOLLOWERS = 200
# A fan-out job's batch (FAN_OUT_JOB_SIZE; the plan's popular account's followers if fewer).
REPLY_BATCH = 10_000


def following_them(conn, uid: int, followers: list[int]) -> None:
    """Writes `uid` into the following sets of `followers` (made by seed.bulk_followers:
    the follow times it gave them), as their follows would have."""
    pipe = conn.pipeline(transaction=False)
    for when, follower in enumerate(followers, start=1):
        pipe.zadd(keys.following_key(follower), {uid: float(when)})
    pipe.execute()


def asked(followers: list[int], strangers: list[int], count: int) -> list[int]:
    """`count` people, a follower and a stranger in turn while both last."""
    mixed = [uid for pair in zip(followers, strangers, strict=False) for uid in pair]
    return (mixed + strangers[len(followers) :])[:count]


def run(ctx: Context, popular: int, popular_followers: list[int]) -> list[Row]:
    conn, plan = ctx.conn, ctx.plan
    few = seed.user("followed")
    accounts = {
        f"{FEW_FOLLOWERS:,} followers": (few, seed.bulk_followers(conn, few, FEW_FOLLOWERS)),
        f"{len(popular_followers):,} followers": (popular, popular_followers),
    }
    # People who follow someone else, as most of a viewer's follows and an author's
    # followers are to the account asked about.
    other = seed.user("other")
    batch_size = min(REPLY_BATCH, plan.popular_followers)
    strangers = seed.bulk_followers(conn, other, batch_size)
    following_them(conn, other, strangers)
    author = seed.user("author")
    calls, cases = {}, {}
    for case, (uid, followers) in accounts.items():
        following_them(conn, uid, followers)
        viewer = seed.user("viewer")
        scanned = asked(followers, strangers, graph_selectors.COMMON_SCAN)
        conn.zadd(keys.following_key(viewer), {f: i for i, f in enumerate(scanned, start=1)})
        login = get_user(uid)["login"]
        batch = asked(followers, strangers, batch_size)
        reply = {"uid": author, "in_reply_to_uid": uid}
        one_key = book.followers_key(uid)
        calls[f"profile {case}"] = lambda _, login=login, v=viewer: graph_selectors.profile_page(
            login, v
        )
        calls[f"one key profile {case}"] = lambda _, v=viewer, k=one_key: conn.zmscore(
            k, conn.zrevrange(keys.following_key(v), 0, graph_selectors.COMMON_SCAN - 1)
        )
        calls[f"reply {case}"] = lambda _, r=reply, b=batch: fanout.reply_audience(conn, r, b)
        calls[f"one key reply {case}"] = lambda _, k=one_key, b=batch: conn.zmscore(k, b)
        cases[case] = len(scanned), len(batch)
    got = time_interleaved(calls, plan.follow_samples, ctx.counter)
    rows = []
    for case, (scanned, batch) in cases.items():
        rows.append(
            Row(
                "followers in common",
                f"profile page, viewer following {scanned:,}, {case}",
                got[f"profile {case}"],
                "their follows read, one ZMSCORE of one sorted set",
                got[f"one key profile {case}"],
            )
        )
        rows.append(
            Row(
                "reply audience",
                f"{batch:,} of the author's followers asked, the one answered has {case}",
                got[f"reply {case}"],
                "one ZMSCORE of one sorted set",
                got[f"one key reply {case}"],
            )
        )
    return rows
