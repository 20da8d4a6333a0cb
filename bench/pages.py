"""3. Reading: a home-timeline page of 30 statuses (also for a reader with 100 blocks
and 100 mutes), and 4. following and unfollowing a user whose profile holds 1,000
statuses, and one with many followers (ours in pieces: timeline.follow_sets.followers), whose
followers pages are read too."""

import time

from accounts import services as accounts
from timeline import keys
from timeline.feeds import selectors as feeds
from timeline.follow_sets import following
from timeline.graph import selectors as graph_selectors
from timeline.graph import services as graph
from timeline.reactions import services as reactions
from timeline.safety import services as safety
from timeline.statuses import cache
from timeline.statuses import services as statuses
from timeline.statuses.scores import POSTED

from . import book, in_common, seed
from .context import Context
from .cpu import redis_command_usec
from .measure import Row, time_interleaved

PAGE_SIZE = 30
# Followers a page, as the client API's default.
FOLLOWERS_PAGE = 40
MAX_PAGE_ROUND_TRIPS = 2
# A reader's blocks and mutes, read with the page's statuses (timeline.safety).
GUARDED_BLOCKS = GUARDED_MUTES = 100
# The target for the contract read (get_status_messages): twice the book's speed.
MIN_OVER_BOOK = 2.0


def author_with_statuses(count: int) -> int:
    author = seed.user("writer")
    write_statuses(author, count)
    return author


def write_statuses(author: int, count: int) -> list[int]:
    """`count` statuses of about 100 characters on `author`'s profile: their ids."""
    return [statuses.create_status(author, f"status {i} " + "x" * 90) for i in range(count)]


def guarded_reader(author: int) -> int:
    """A reader who follows `author` and blocks and mutes 100 other users each."""
    reader = seed.user("guarded")
    graph.follow_user(reader, author)
    guard(reader)
    return reader


def guard(reader: int) -> None:
    """Makes `reader` block GUARDED_BLOCKS other users and mute GUARDED_MUTES others."""
    for _ in range(GUARDED_BLOCKS):
        safety.block(reader, seed.user("blocked"))
    for _ in range(GUARDED_MUTES):
        safety.mute(reader, seed.user("muted"))


def marking_reader(reader: int, plan) -> None:
    """Has `reader` follow a new author and like `plan.marking_likes` of their statuses,
    the first page of their home among them, and repost `plan.marking_reposts` older ones;
    `plan.marking_reposters` others repost each status of that page. The page's marks read
    a likes set of that size (timeline.statuses.marks)."""
    author = seed.user("liked")
    older = write_statuses(author, plan.marking_likes - PAGE_SIZE)
    for status_id in older[: plan.marking_reposts]:
        reactions.repost(reader, status_id)
    # Newer than the reader's reposts, which their home holds too: the first page.
    page = write_statuses(author, PAGE_SIZE)
    graph.follow_user(reader, author)
    for status_id in older + page:
        reactions.like(reader, status_id)
    for _ in range(plan.marking_reposters):
        reposter = seed.user("reposter")
        for status_id in page:
            reactions.repost(reposter, status_id)


def redis_usec_a_call(conn, call, calls: int) -> float:
    """Microseconds of Redis's command time a call of `call` costs, over `calls` calls."""
    before = redis_command_usec(conn)
    for _ in range(calls):
        call()
    return (redis_command_usec(conn) - before) / calls


def run(ctx: Context) -> list[Row]:
    conn, plan = ctx.conn, ctx.plan
    author = author_with_statuses(plan.profile_statuses)
    reader, book_reader = seed.user("reader"), seed.user("reader")
    graph.follow_user(reader, author)
    # The book's own reader: its home, scored the book's way, filled by the book's follow.
    with seed.ziplists_up_to(conn, seed.STOCK_ZSET_ENTRIES):
        book.follow_user(conn, book_reader, author)
    home = keys.home_timeline_key(reader)
    guarded = guarded_reader(author)
    # Off the clock: the process's status cache serves once its listener is subscribed,
    # and the reader's first home page of the hour records their read (feeds.homes).
    while not cache.statuses.serving():
        time.sleep(0.01)
    marker = seed.user("marker")
    marking_reader(marker, plan)
    feeds.home_page(reader, count=PAGE_SIZE)
    feeds.home_page(guarded, count=PAGE_SIZE)
    feeds.home_page(marker, count=PAGE_SIZE)
    page = time_interleaved(
        {
            # As the home view reads it: with the reader's likes, reposts and profile.
            "ours": lambda _: feeds.home_page(reader, count=PAGE_SIZE),
            "guarded": lambda _: feeds.home_page(guarded, count=PAGE_SIZE),
            "marked": lambda _: feeds.home_page(marker, count=PAGE_SIZE),
            "contract": lambda _: feeds.get_status_messages(reader, count=PAGE_SIZE),
            "raw": lambda _: conn.lrange(home, 0, PAGE_SIZE - 1),
            "book": lambda _: book.get_status_messages(conn, book_reader, count=PAGE_SIZE),
        },
        plan.page_samples,
        ctx.counter,
    )
    case = f"home, {PAGE_SIZE} of {conn.llen(home):,}"
    # Redis's own time a page (commandstats), the plain reader's and the marking one's.
    redis_usec = {
        who: redis_usec_a_call(conn, lambda u=uid: feeds.home_page(u, count=PAGE_SIZE), 200)
        for who, uid in (("ours", reader), ("marked", marker))
    }
    rows = [
        Row(
            "home page",
            case,
            page["ours"],
            "one raw LRANGE",
            page["raw"],
            target=f"<= {MAX_PAGE_ROUND_TRIPS} RT (ideal 1)",
            met=page["ours"].round_trips <= MAX_PAGE_ROUND_TRIPS,
        ),
        Row(
            "home page",
            f"{case}: get_status_messages",
            page["contract"],
            "the book's get_status_messages",
            page["book"],
            target=f">= {MIN_OVER_BOOK:g}x the book's speed",
            met=MIN_OVER_BOOK * page["contract"].p50_ms <= page["book"].p50_ms,
        ),
        Row("home page", f"{case}: the book's", page["book"], "one raw LRANGE", page["raw"]),
        Row(
            "home page",
            f"{case}: {GUARDED_BLOCKS} blocks + {GUARDED_MUTES} mutes",
            page["guarded"],
            "the plain home page",
            page["ours"],
            target=f"<= {MAX_PAGE_ROUND_TRIPS} RT (as plain)",
            met=page["guarded"].round_trips <= MAX_PAGE_ROUND_TRIPS,
        ),
        Row(
            "home page",
            f"{case}: a reader with {plan.marking_likes:,} likes + {plan.marking_reposts}"
            f" reposts (each shown status reposted by {plan.marking_reposters})",
            page["marked"],
            "the plain home page",
            page["ours"],
            target=f"<= {MAX_PAGE_ROUND_TRIPS} RT (as plain)",
            met=page["marked"].round_trips <= MAX_PAGE_ROUND_TRIPS,
            notes={
                "redis_usec_a_page": redis_usec["marked"],
                "plain_redis_usec_a_page": redis_usec["ours"],
            },
        ),
    ]

    rows.extend(page_cost(ctx, author))

    rows.extend(follow_rows(ctx, author, f"{plan.profile_statuses:,}-status profile"))
    popular = seed.user("popular")
    fans = seed.bulk_followers(conn, popular, plan.popular_followers)
    rows.extend(follow_rows(ctx, popular, f"an account with {plan.popular_followers:,} followers"))
    rows.extend(followers_page_rows(ctx, popular))
    rows.extend(following_rows(ctx, author))
    rows.extend(in_common.run(ctx, popular, fans))
    return rows


def followers_page_rows(ctx: Context, popular: int) -> list[Row]:
    """The first and last followers page of `popular`, ours (across pieces) beside the
    same page of one sorted set (how followers were kept before pieces: the book's)."""
    followers = ctx.plan.popular_followers
    numbers = (1, followers // FOLLOWERS_PAGE)
    calls = {}
    for number in numbers:
        calls[number] = lambda _, n=number: graph_selectors.followers_page(
            popular, n, FOLLOWERS_PAGE, viewer=popular
        )
        calls[f"one key {number}"] = lambda _, n=number: feeds.users_page(
            book.followers_key(popular), n, FOLLOWERS_PAGE
        )
    pages = time_interleaved(calls, ctx.plan.follow_samples, ctx.counter)
    return [
        Row(
            "followers page",
            f"page {number:,} of {FOLLOWERS_PAGE}, {followers:,} followers",
            pages[number],
            "the same page of one sorted set",
            pages[f"one key {number}"],
        )
        for number in numbers
    ]


def follow_rows(ctx: Context, author: int, case: str) -> list[Row]:
    """Following and unfollowing `author`, ours beside the book's, taking turns."""
    ours_user, book_user = seed.user("follower"), seed.user("follower")
    seed.book_home(ctx.conn, book_user)
    follows = time_interleaved(
        {
            "follow": lambda _: graph.follow_user(ours_user, author),
            "book follow": lambda _: book.follow_user(ctx.conn, book_user, author),
            "unfollow": lambda _: graph.unfollow_user(ours_user, author),
            "book unfollow": lambda _: book.unfollow_user(ctx.conn, book_user, author),
        },
        ctx.plan.follow_samples,
        ctx.counter,
    )
    return [
        Row(action, case, follows[action], f"the book's {action}_user", follows[f"book {action}"])
        for action in ("follow", "unfollow")
    ]


# Following sets: typical (one key), and past FOLLOWING_SPLIT in buckets and, as before
# buckets, in one key.
FOLLOWING_TYPICAL = 200
FOLLOWING_MANY = 2_000


def following_rows(ctx: Context, author: int) -> list[Row]:
    """What a user following 2,000 (their follows in buckets: follow_sets.following) pays:
    following and unfollowing `author` beside a user following 200; the first page of
    whom they follow, and a profile page they view (their newest follows read for
    followers in common), beside the same 2,000 in one key as before buckets."""
    conn = ctx.conn
    users = {}
    for name, size, bucketed in (
        ("typical", FOLLOWING_TYPICAL, False),
        ("buckets", FOLLOWING_MANY, True),
        ("one key", FOLLOWING_MANY, False),
    ):
        users[name] = uid = seed.user("following")
        follows = {seed.bulk_uid(): 1_700_000_000 + i for i in range(size)}
        pipe = conn.pipeline(transaction=False)
        if bucketed:
            following.queue_add(pipe, uid, follows)
        else:
            pipe.zadd(keys.following_key(uid), follows)
        pipe.hset(keys.user_key(uid), "following", size)
        pipe.execute()
    login = accounts.get_user(author)["login"]
    calls = {}
    for name in ("typical", "buckets"):
        uid = users[name]
        calls[f"follow {name}"] = lambda _, u=uid: graph.follow_user(u, author)
        calls[f"unfollow {name}"] = lambda _, u=uid: graph.unfollow_user(u, author)
    for name in ("buckets", "one key"):
        uid = users[name]
        calls[f"page {name}"] = lambda _, u=uid: graph_selectors.following_page(u, 1, 40, u)
        calls[f"profile {name}"] = lambda _, u=uid: graph_selectors.profile_page(login, u)
    timed = time_interleaved(calls, ctx.plan.follow_samples, ctx.counter)
    many = f"by a user following {FOLLOWING_MANY:,} (in buckets)"
    rows = [
        Row(
            "following",
            f"{what}: {ctx.plan.profile_statuses:,}-status profile, {many}",
            timed[f"{what} buckets"],
            f"by one following {FOLLOWING_TYPICAL} (one key)",
            timed[f"{what} typical"],
        )
        for what in ("follow", "unfollow")
    ]
    for what, case in (("page", "page 1 of 40"), ("profile", "a profile page, as the viewer")):
        rows.append(
            Row(
                "following",
                f"{what}: {case}, {many}",
                timed[f"{what} buckets"],
                f"the same {FOLLOWING_MANY:,} in one key",
                timed[f"{what} one key"],
            )
        )
    return rows


# Page cost as work grows: statuses a page (on a full home), and home length (30 a page).
PER_PAGE = (10, 30, 100)
HOME_LENGTHS = (100, 1_000)


def page_cost(ctx: Context, author: int) -> list[Row]:
    """get_status_messages' p50 by statuses a page and by home length, each row noting
    its size (`report.draw_cost` plots them; linear or better is the target)."""
    conn, plan = ctx.conn, ctx.plan
    readers, book_readers = {}, {}
    for length in HOME_LENGTHS:
        reader, book_reader = seed.user("reader"), seed.user("reader")
        graph.follow_user(reader, author)
        with seed.ziplists_up_to(conn, seed.STOCK_ZSET_ENTRIES):
            book.follow_user(conn, book_reader, author)
        home = keys.home_timeline_key(reader)
        conn.ltrim(home, 0, length - 1)
        conn.zremrangebyrank(book.home_timeline_key(book_reader), *POSTED.trim(length))
        readers[conn.llen(home)] = reader
        book_readers[reader] = book_reader
    longest = max(readers)
    full = readers[longest]
    calls, sizes = {}, {}
    for n in PER_PAGE:
        sizes[f"{n} statuses a page, home of {longest:,}"] = (full, n, longest)
    for length, reader in readers.items():
        sizes[f"{PAGE_SIZE} statuses a page, home of {length:,}"] = (reader, PAGE_SIZE, length)
    for case, (reader, n, _) in sizes.items():
        calls[case] = lambda _, r=reader, n=n: feeds.get_status_messages(r, count=n)
        calls[f"book {case}"] = lambda _, r=book_readers[reader], n=n: book.get_status_messages(
            conn, r, count=n
        )
    for call in calls.values():
        call(0)  # off the clock: the statuses kept, as on a busy site
    got = time_interleaved(calls, plan.page_samples, ctx.counter)
    rows = [
        Row("page cost", case, got[case], "the book's get_status_messages", got[f"book {case}"],
            notes={"per_page": n, "home_length": length})
        for case, (_, n, length) in sizes.items()
    ]  # fmt: skip
    return rows
