"""4b. Asking many people whether they follow one user: a profile page's followers in
common (the viewer's COMMON_SCAN newest follows asked) and a reply's audience (a fan-out
job's batch of the author's followers asked whether they follow the user answered), for
an account followed by few (its followers in one key) and by many (in pieces), beside
the same asked of each one's following set (follow_sets.following.follows_of: how it was done
before followers_among.lua). The profile page is timed whole, beside the same page of a
viewer following no one."""

from accounts.services import get_user, get_users
from timeline.feeds import fanout
from timeline.follow_sets import following
from timeline.graph import selectors as graph_selectors

from . import seed
from .context import Context
from .measure import Row, time_interleaved

# An account followed by few: its followers fit in one key (follow_sets.followers).
FEW_FOLLOWERS = 200
# A fan-out job's batch (FAN_OUT_JOB_SIZE; the plan's popular account's followers if fewer).
REPLY_BATCH = 10_000


def following_them(conn, uid: int, followers: list[int]) -> None:
    """Writes `uid` into the following sets of `followers` (made by seed.bulk_followers:
    the follow times it gave them), as their follows would have."""
    pipe = conn.pipeline(transaction=False)
    for when, follower in enumerate(followers, start=1):
        following.queue_add(pipe, follower, {uid: float(when)})
    pipe.execute()


def asked(followers: list[int], strangers: list[int], count: int) -> list[int]:
    """`count` people, a follower and a stranger in turn while both last."""
    mixed = [uid for pair in zip(followers, strangers, strict=False) for uid in pair]
    return (mixed + strangers[len(followers) :])[:count]


def in_common_as_before(conn, viewer: int, uid: int) -> list[dict]:
    """followers_in_common as it was: the viewer's follows each asked of their following set."""
    newest = following.queue_newest(conn, viewer, 0, graph_selectors.COMMON_SCAN)
    follows = following.follows_of(conn, newest, uid)
    return get_users(graph_selectors.in_common(newest, follows, 10))


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
    loner = seed.user("loner")  # follows no one: a profile page with none in common
    calls, cases = {}, {}
    for case, (uid, followers) in accounts.items():
        following_them(conn, uid, followers)
        viewer = seed.user("viewer")
        scanned = asked(followers, strangers, graph_selectors.COMMON_SCAN)
        # Past FOLLOWING_SPLIT: in buckets, as the site keeps them (follow_sets.following).
        following.queue_add(conn, viewer, {f: i for i, f in enumerate(scanned, start=1)})
        user = get_user(uid)
        login, count = user["login"], user["followers"]
        batch = asked(followers, strangers, batch_size)
        reply = {"uid": author, "in_reply_to_uid": uid}
        calls[f"profile {case}"] = lambda _, login=login, v=viewer: graph_selectors.profile_page(
            login, v
        )
        calls[f"alone profile {case}"] = lambda _, login=login, v=loner: (
            graph_selectors.profile_page(login, v)
        )
        calls[f"common {case}"] = lambda _, v=viewer, u=uid: graph_selectors.followers_in_common(
            v, u
        )
        calls[f"following sets common {case}"] = lambda _, v=viewer, u=uid: in_common_as_before(
            conn, v, u
        )
        # As a job asks: told the answered user's count (read beside its plan).
        calls[f"reply {case}"] = lambda _, r=reply, b=batch, n=count: fanout.reply_audience(
            conn, r, b, n
        )
        calls[f"following sets reply {case}"] = lambda _, u=uid, b=batch: following.follows_of(
            conn, b, u
        )
        cases[case] = len(scanned), len(batch)
    got = time_interleaved(calls, plan.follow_samples, ctx.counter)
    before = "each one's following set asked (as before followers_among.lua)"
    rows = []
    for case, (scanned, batch) in cases.items():
        rows.append(
            Row(
                "followers in common",
                f"viewer following {scanned:,}, {case}",
                got[f"common {case}"],
                before,
                got[f"following sets common {case}"],
            )
        )
        rows.append(
            Row(
                "profile page",
                f"viewer following {scanned:,}, {case}",
                got[f"profile {case}"],
                "the same page for a viewer following no one",
                got[f"alone profile {case}"],
            )
        )
        rows.append(
            Row(
                "reply audience",
                f"{batch:,} of the author's followers asked, the one answered has {case}",
                got[f"reply {case}"],
                before,
                got[f"following sets reply {case}"],
            )
        )
    return rows
