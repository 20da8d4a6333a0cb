"""16. Edits: an edit of a status whose author has 10,000 followers, liked by 100 people
and replied to by 20 (each told of the edit), beside a post by the same author (its
request's part: the first POSTS_PER_PASS followers), taking turns in the same run. An
edit fans nothing out, so it must cost no more than the post, in at most 3 round trips;
its Redis commands a call are counted too."""

from django.test import override_settings

from socialsite import jobs
from timeline.edits import services as edits
from timeline.posting import services as posting
from timeline.reactions import services as reactions

from . import seed
from .context import Context
from .cpu import redis_commands
from .measure import Row, time_interleaved

FOLLOWERS = 10_000
LIKERS, REPLIERS = 100, 20
MAX_ROUND_TRIPS = 3


def run(ctx: Context) -> list[Row]:
    author = seed.user("editor")
    seed.bulk_followers(ctx.conn, author, FOLLOWERS)
    status_id = posting.post_status(author, "an edited status, version 0")
    for _ in range(LIKERS):
        reactions.like(seed.user("liker"), status_id)
    for _ in range(REPLIERS):
        posting.post_status(seed.user("replier"), "an answer", in_reply_to=status_id)
    jobs.work(burst=True)
    samples = ctx.plan.post_samples
    calls = {
        "edit": lambda i: edits.edit_status(
            author, status_id, f"an edited status, version {i + 1}"
        ),
        "post": lambda i: posting.post_status(author, f"a new status, number {i}"),
    }
    with override_settings(STATUS_VERSIONS_KEPT=samples + 20):
        before = redis_commands(ctx.conn)
        for i in range(min(10, samples)):
            calls["edit"](samples + i)
        commands = (redis_commands(ctx.conn) - before) / min(10, samples)
        latencies = time_interleaved(calls, samples, ctx.counter)
    # The posts' fan-out jobs are left queued: the runner empties the server after a part.
    edit, post = latencies["edit"], latencies["post"]
    return [
        Row(
            "edit",
            f"status of {FOLLOWERS:,} followers, {LIKERS} likes, {REPLIERS} replies",
            edit,
            "a post by the same author",
            post,
            target=f"<= the post's, <= {MAX_ROUND_TRIPS} RT",
            met=edit.p50_ms <= post.p50_ms and (edit.round_trips or 0) <= MAX_ROUND_TRIPS,
            notes={"redis_commands_per_edit": commands},
        )
    ]
