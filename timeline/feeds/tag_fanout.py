"""Followed tags' fan-out: a public status reaches the homes of its #tags' followers.

Each tag's followers (`tag:{tag}:followers`, uid -> when followed, in the tag's slot) are
walked by the same fan-out jobs as an author's followers (feeds.fanout's "tags"
audience: one job per tag, split into chunks as a list's set is), always as jobs: the
post's request writes nothing more. A tag follower who follows the author gets the
status from the author's own fan-out, so the tag's passes them over (asked in the
author's slot, or of each one's following set: follow_sets.followers.followers_among);
and every tag delivery goes through deliver_once.lua, one script a home, so a status
with two followed tags, a redone chunk or a home that got it some other way holds it
once."""

from accounts.keys import user_key
from socialsite import jobs
from socialsite.redis import Reply

from .. import keys
from ..follow_sets import followers as follower_sets
from ..statuses import text, visibility
from ..statuses.records import Status
from . import scripts
from .home_list import trims_homes


def is_public(status: Status) -> bool:
    """Whether `status` goes on public paths (statuses.visibility.is_listed): what
    reaches a tag's followers. Not an unlisted, followers-only or direct status, nor a
    private account's or a private group's."""
    return visibility.is_listed(status)


def tagged(status: Status) -> list[str]:
    """The tags whose followers a status reaches: a public original's tags."""
    if status.get("repost_of") or not is_public(status):
        return []
    return text.tags(status["message"])


def tag_jobs(job: jobs.Job, status: Status) -> list[jobs.Job]:
    """One fan-out job (`job`: fanout.fan_out_job's for the "tags" audience) per tag of
    `status` that reaches its followers; to retract, per tag of any original (it may have
    been public when it was delivered)."""
    kind, args = job
    if args["retract"]:
        tags = [] if status.get("repost_of") else text.tags(status["message"])
    else:
        tags = tagged(status)
    return [(kind, {**args, "tag": tag}) for tag in tags]


def queue_reach(pipe, args: dict) -> Reply:
    """Queues the read of the author's follower count, which tells `reach` where to ask
    who follows them."""
    return pipe.hget(user_key(args["uid"]), "followers")


def reach(conn, args: dict, member_uids: list[str], author_followers=None) -> list[str]:
    """The tag followers a status reaches: all but its author and those who follow the
    author (their own fan-out brings it): 1 round trip."""
    author = str(args["uid"])
    others = [uid for uid in member_uids if str(uid) != author]
    follows = follower_sets.followers_among(conn, others, int(author), author_followers)
    return [uid for uid, yes in zip(others, follows, strict=True) if not yes]


def deliver(pipe, status_id: int, posted, follower_uids, home_size: int, **_kwargs) -> None:
    """Queues the status's delivery to each home, only where it isn't yet (deliver_once.lua:
    one script a home)."""
    trim = trims_homes(status_id)
    for home in map(keys.home_timeline_key, follower_uids):
        scripts.deliver_once(pipe, home_key=home, status_id=status_id, size=home_size, trim=trim)
