"""16. Polls: a vote (the voter and the status read; the vote script in the status's slot;
the voter's own copy in theirs), beside a like of a status (the same shape: 3 round trips),
each by a different voter every time, taking turns. Also Redis's commands per vote."""

from timeline.polls import services as polls
from timeline.posting import services as posting
from timeline.reactions import services as reactions

from . import seed
from .context import Context
from .cpu import redis_commands
from .measure import Row, time_interleaved

MAX_ROUND_TRIPS = 3
OPTIONS = ["Tea", "Coffee", "Water", "Juice"]


def run(ctx: Context) -> list[Row]:
    samples = ctx.plan.post_samples
    author = seed.user("pollauthor")
    poll = polls.check_poll(OPTIONS, 7 * 24 * 3600)
    voted = posting.post_status(author, "Which one?", poll=poll)
    liked = posting.post_status(author, "Like this")
    voters = [seed.user("pollvoter") for _ in range(samples + 1)]
    calls = {
        "vote": lambda i: polls.vote(voters[i], voted, [i % len(OPTIONS)]),
        "like": lambda i: reactions.like(voters[i], liked),
    }
    # One of each off the clock (imports, scripts loaded), by a voter of its own.
    polls.vote(voters[-1], voted, [0])
    reactions.like(voters[-1], liked)
    before = redis_commands(ctx.conn)
    spare = seed.user("pollvoter")
    polls.vote(spare, voted, [1])
    commands = redis_commands(ctx.conn) - before
    got = time_interleaved(calls, samples, ctx.counter)
    ours = got["vote"]
    return [
        Row(
            "poll vote",
            f"a vote in a {len(OPTIONS)}-option poll",
            ours,
            "a like (same round trips)",
            got["like"],
            target=f"<= {MAX_ROUND_TRIPS} RT",
            met=(ours.round_trips or 0) <= MAX_ROUND_TRIPS,
            notes={"redis_commands_per_vote": commands},
        )
    ]
