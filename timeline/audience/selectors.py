"""Who may see a status: the one rule (docs/architecture.md) that every page, stream,
notification and message path asks, and the reads it needs.

A status is hidden from a viewer when either of them blocks the other (its author, or
the author of the status it reposts). A private account's statuses (marked "private"
on the status, see timeline.safety.services.set_private) are seen only by their author
and approved followers, and never on the global timeline or the public streams. In a
home timeline, muted users' statuses and reposts and statuses with muted words are
left out too. A follow event on the streams follows the same rule (`may_see_follow`):
hidden by a block either way, and a private account's follows seen only by it, the
other side and its approved followers.

A private group's post (marked "private" too, and "group_private", with its "group")
is seen by the group's members alone, its author always: the group decides, not the
author's follows. The viewer's groups (follow_sets.members: their groups hash) are read
with their blocks. Every path that keeps private statuses off public places (global,
the public streams, search, tags, trends) keeps a private group's posts off them too.

A status's own visibility (timeline.statuses.visibility) narrows it further: an unlisted
one is never shown on the global timeline or the public streams (where=GLOBAL); a
followers-only one carries the private mark, so it is seen as a private account's is; a
direct one (private-marked too) is seen only by its author and the people it mentions,
whoever they follow.

What the rule needs of the viewer (whom they block and are blocked by, whom they mute
and which words) lives in the viewer's slot and is read in the same round trip as a
page's statuses (`queue_audience`). Whether the viewer follows a private author is
known for free where the page already knows it (a home timeline holds only what fan-out
delivered to a follower; a profile page reads the follow), else one ZMSCORE of the
viewer's following set (`confirm_follows`), only when a page holds another's private
status."""

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from accounts import filters as user_filters
from accounts.keys import filters_key, user_key
from socialsite.redis import Batch, Client, Pipe, Reply, get_redis
from socialsite.text import words
from timeline.statuses.records import Status
from timeline.statuses.visibility import DIRECT, UNLISTED, is_unlisted

from .. import keys
from ..follow_sets import following
from ..follow_sets import members as member_sets
from ..follow_sets import options as follow_options

# How a viewer stands to others, read where the rule's reads are (re-exported).
from .relations import Relation as Relation
from .relations import RelationRead as RelationRead
from .relations import queue_relation as queue_relation
from .relations import relations as relations

# Where a status is shown: the rule differs for the global timeline (private never)
# and the home timeline (mutes apply).
ANYWHERE, HOME, GLOBAL = "anywhere", "home", "global"


@dataclass
class Audience:
    """What the rule needs to know of one viewer (None: a visitor, who sees only public
    statuses of unblocked users)."""

    viewer: int | None
    blocked: frozenset[int] = frozenset()  # blocked by the viewer, or blocking them
    muted: frozenset[int] = frozenset()  # mutes still running
    muted_phrases: tuple[frozenset[str], ...] = ()
    # Filters (accounts.filters): what the viewer's home-hiding filters hide (the muted
    # words are one), and all their filters, for the API's `filtered`.
    hiding: user_filters.HomeHiding = user_filters.HomeHiding()
    filters: tuple[dict[str, Any], ...] = ()
    follows: set[int] = field(default_factory=set)  # authors known to be followed
    asked: set[int] = field(default_factory=set)  # authors whose follow was looked up
    groups: frozenset[int] = frozenset()  # the groups the viewer is a member of
    groups_in_home: frozenset[int] = frozenset()  # those whose posts come to their home
    # Whose reposts the viewer keeps out of home (a follow with reblogs off).
    hidden_reposts: frozenset[int] = frozenset()

    def shuns_anyone(self) -> bool:
        """Whether the viewer blocks, is blocked by or mutes anyone, hides anything by a
        filter (their muted words among them) or hides anyone's reposts: if not, only a
        private status can be hidden from them."""
        return bool(
            self.blocked or self.muted or self.muted_phrases or self.hiding or self.hidden_reposts
        )


@dataclass(frozen=True, slots=True)
class AudienceRead:
    """The reads `queue_audience` queued for a viewer (none for a visitor)."""

    viewer: int | None
    blocks: Reply | None = None
    blocked_by: Reply | None = None
    muted: Reply | None = None
    phrases: Reply | None = None
    groups: Reply | None = None
    hidden_reposts: Reply | None = None

    @property
    def audience(self) -> Audience:
        """A new Audience from the replies (its `follows` are the caller's to add to)."""
        if not self.viewer:
            return Audience(None)
        # A viewer's are all queued (queue_audience).
        assert self.blocks and self.blocked_by and self.muted and self.phrases
        states = member_sets.decode_groups(self.groups.value) if self.groups else {}
        filters = user_filters.decode_filters(self.phrases.value)
        return Audience(
            viewer=int(self.viewer),
            blocked=frozenset(map(int, self.blocks.value)).union(map(int, self.blocked_by.value)),
            muted=frozenset(map(int, self.muted.value)),
            hiding=user_filters.hidden_in_home(filters),
            filters=tuple(filters),
            groups=member_sets.member_of(states),
            groups_in_home=member_sets.shown_in_home(states),
            hidden_reposts=frozenset(map(int, self.hidden_reposts.value))
            if self.hidden_reposts
            else frozenset(),
        )


def queue_audience(pipe: Pipe, viewer: int | None) -> AudienceRead:
    """Queues the reads of `viewer`'s blocks, mutes, muted words and groups (all in their slot);
    nothing for a visitor."""
    if not viewer:
        return AudienceRead(None)
    # As raw commands: every page and the contract read queue these, and redis-py's
    # methods cost more to pack them than Redis spends running them.
    return AudienceRead(
        viewer,
        pipe.execute_command("ZRANGE", keys.blocks_key(viewer), 0, -1),
        pipe.execute_command("ZRANGE", keys.blocked_by_key(viewer), 0, -1),
        pipe.execute_command("ZRANGEBYSCORE", keys.mutes_key(viewer), time.time(), "+inf"),
        # Filters, the muted words among them (accounts.filters).
        pipe.execute_command("HGETALL", filters_key(viewer)),
        member_sets.queue_groups_of(pipe, viewer),
        follow_options.queue_hidden_reposters(pipe, viewer),
    )


def is_private(status: Status) -> bool:
    """Whether `status` is a private account's (only approved followers see it)."""
    return is_private_value(status.get(keys.PRIVATE_FIELD))


def is_private_value(value: object) -> bool:
    """Whether a status's PRIVATE_FIELD (None if absent) marks it private."""
    return str(value) == "1"


def may_see(status: Status, audience: Audience, *, where: str = ANYWHERE) -> bool:
    """The rule: whether `audience`'s viewer may see `status` (and the original it
    reposts, if attached) shown `where`. A page asks `sees`, which decides what depends
    only on who wrote a status (and whether it is private) once per author. (`visible`
    skips it for a page with nothing private, seen by an audience that shuns no one: a
    new reason to hide a status must be known to both.)"""
    return sees(status, audience, where, {})


# What may_see_author decided for each (author, original's author, PRIVATE_FIELD, the
# private group, the visibility).
Decided = dict[tuple[Any, Any, Any, Any, Any], bool]


def private_group(status: Status) -> str | None:
    """The id of the private group whose members alone see `status`, or None."""
    if status.get("group_private") == "1":
        return status.get("group")
    return None


def sees(status: Status, audience: Audience, where: str, decided: Decided) -> bool:
    """may_see, with its arguments in place (it runs once a status of a page)."""
    by = (
        status["uid"],
        status.get("repost_of_uid"),
        status.get(keys.PRIVATE_FIELD),
        private_group(status),
        status.get("visibility"),
    )
    allowed = decided.get(by)
    if allowed is None:
        allowed = decided[by] = may_see_author(audience, *by, where=where)
    if not allowed:
        return False
    if by[4] == DIRECT and not mentioned(status, audience.viewer):
        return False
    if (
        where == HOME
        and (audience.muted_phrases or audience.hiding)
        and has_muted_words(status, audience)
    ):
        return False
    inner = status.get("original")
    return inner is None or sees(inner, audience, where, decided)


def may_see_author(
    audience: Audience,
    author: int | str,
    original_author: int | str | None,
    private: object,
    group: object = None,
    visibility: object = None,
    *,
    where: str,
) -> bool:
    """The part of the rule that depends only on a status's author, its original's
    author if it is a repost, its PRIVATE_FIELD, its private group (private_group) and
    its visibility: not its message (nor, for a direct one, whom it mentions: `sees`)."""
    viewer = audience.viewer
    author = int(author)
    original_author = int(original_author) if original_author else None
    blocked, muted = audience.blocked, audience.muted
    if blocked and (author in blocked or original_author in blocked):
        return False
    if visibility == UNLISTED and where == GLOBAL:
        return False
    if visibility == DIRECT:
        # Its author, or the people it mentions (sees asks): not its author's followers.
        if where == GLOBAL:
            return False
        private = None
    if group and author != viewer:
        # A private group's post: its members see it, whoever they follow; never global.
        if where == GLOBAL or int(str(group)) not in audience.groups:
            return False
    elif (
        is_private_value(private)
        and author != viewer
        and (where == GLOBAL or author not in audience.follows)
    ):
        return False
    if where == HOME and original_author and author in audience.hidden_reposts:
        # A repost by someone followed with reblogs off: not in home.
        return False
    return not (
        where == HOME
        and muted
        and author != viewer
        and (author in muted or original_author in muted)
    )


def may_see_follow(
    source: Mapping[str, Any], target: Mapping[str, Any], audience: Audience
) -> bool:
    """The rule for a follow or unfollow between `source` and `target` ({"id", "login"},
    with PRIVATE_FIELD "1" for a private account): hidden when either blocks the viewer or
    is blocked by them, and a private account's follows, either way, are seen only by it,
    the other side and its approved followers, as its followers and following lists are."""
    sides = [
        (_uid_of(side), is_private_value(side.get(keys.PRIVATE_FIELD))) for side in (source, target)
    ]
    if any(uid is None or uid in audience.blocked for uid, _ in sides):
        return False
    if audience.viewer is not None and any(uid == audience.viewer for uid, _ in sides):
        return True
    return all(uid in audience.follows for uid, private in sides if private)


def mentioned(status: Status, viewer: int | None) -> bool:
    """Whether `viewer` wrote `status` or is one of the people it mentions."""
    if viewer is None:
        return False
    return (
        int(status["uid"]) == viewer or str(viewer) in str(status.get("mention_ids") or "").split()
    )


def _uid_of(user: Mapping[str, Any]) -> int | None:
    try:
        return int(user["id"])
    except (KeyError, TypeError, ValueError):
        return None


def has_muted_words(status: Status, audience: Audience) -> bool:
    """Whether another's `status` holds all the words of one of the viewer's muted
    phrases (their own never does)."""
    if int(status["uid"]) == audience.viewer:
        return False
    if audience.hiding and user_filters.hides(status, audience.hiding):
        return True
    present = words(str(status.get("message") or ""))
    return any(phrase <= present for phrase in audience.muted_phrases)


def private_authors(statuses: list[Status]) -> set[int]:
    """The authors of the private statuses among `statuses` (and their originals) whose
    follow the rule asks: not a private group's (its members see it, whoever they follow)."""
    private = keys.PRIVATE_FIELD
    found = set()
    for status in statuses:
        # Most statuses have no PRIVATE_FIELD (or an empty one): skipped at one lookup.
        if status.get(private) and _private_account(status):
            found.add(int(status["uid"]))
        inner = status.get("original")
        if inner is not None and _private_account(inner):
            found.add(int(inner["uid"]))
    return found


def _private_account(status: Status) -> bool:
    """Whether `status` is private as its author's account is (not a private group's)."""
    return is_private(status) and not private_group(status)


def has_private(statuses: list[Status]) -> bool:
    """Whether any of `statuses` (or their originals) is private: an account's or a
    private group's."""
    return any(
        is_private(status) or ((inner := status.get("original")) is not None and is_private(inner))
        for status in statuses
        if status.get(keys.PRIVATE_FIELD) or status.get("original") is not None
    )


def has_unlisted(statuses: list[Status]) -> bool:
    """Whether any of `statuses` (or their originals) is unlisted."""
    return any(
        is_unlisted(status) or is_unlisted(status.get("original") or {}) for status in statuses
    )


def confirm_follows(
    conn: Client, statuses: list[Status], audience: Audience, *, private: set[int] | None = None
) -> None:
    """Learns whether the viewer follows the authors of others' private statuses among
    `statuses` (`private`: their private authors, if already known): 1 round trip, only
    if there are any it doesn't know."""
    if not audience.viewer:
        return
    found = private_authors(statuses) if private is None else set(private)
    found.discard(audience.viewer)
    unknown = sorted(found - audience.follows - audience.asked)
    if not unknown:
        return
    scores = following.queue_scores(conn, audience.viewer, unknown)
    audience.asked.update(unknown)
    audience.follows.update(uid for uid, score in zip(unknown, scores, strict=True) if score)


def visible(
    conn: Client | None, statuses: list[Status], audience: Audience, *, where: str = ANYWHERE
) -> list[Status]:
    """`statuses` less those the rule hides from `audience` shown `where` (1 round trip
    on `conn`, or the site's Redis if None, when some are others' private statuses by
    authors not known to be followed)."""
    private = private_authors(statuses)
    if (
        not audience.shuns_anyone()
        and not private
        and not has_private(statuses)
        and not (where == GLOBAL and has_unlisted(statuses))
    ):
        # may_see hides a status only for a block, a mute, muted words, privacy (a
        # direct status is private-marked too) or, on public paths, being unlisted.
        return list(statuses)
    if where != GLOBAL:
        confirm_follows(get_redis() if conn is None else conn, statuses, audience, private=private)
    decided: Decided = {}
    return [status for status in statuses if sees(status, audience, where, decided)]


class Blocked(ValueError):
    """Either user blocks the other: no follow, reply, like, repost, message, list or
    notification between them."""


@dataclass(frozen=True, slots=True)
class BlockCheck:
    """The reads `queue_block_check` queued: either side of a block, in one user's slot."""

    blocks: Reply
    blocked_by: Reply

    @property
    def blocked(self) -> bool:
        """Whether either user blocks the other."""
        return self.blocks.value is not None or self.blocked_by.value is not None


def queue_block_check(pipe: Pipe, uid: int, other_uid: int) -> BlockCheck:
    """Queues whether either of two users blocks the other, read in `uid`'s slot alone
    (both sides of a block are recorded there)."""
    return BlockCheck(
        pipe.zscore(keys.blocks_key(uid), other_uid),
        pipe.zscore(keys.blocked_by_key(uid), other_uid),
    )


def is_private_user(uid: int) -> bool:
    private: str | None = get_redis().hget(user_key(uid), keys.PRIVATE_FIELD)
    return private == "1"


def may_see_account(uid: int, viewer: int | None) -> bool:
    """Whether `viewer` may see whom `uid` follows and who follows them: not when either
    blocks the other, and for a private account only they and approved followers.
    1 round trip."""
    if viewer is not None and int(viewer) == int(uid):
        return True
    batch = Batch(get_redis())
    private = batch.hget(user_key(uid), keys.PRIVATE_FIELD)
    if viewer:
        check = queue_block_check(batch, viewer, uid)
        follows = following.queue_score(batch, viewer, uid)
    batch.execute()
    if viewer and check.blocked:
        return False
    return private.value != "1" or (bool(viewer) and follows.value is not None)


def may_message(sender_uid: int, recipient_uid: int) -> bool:
    """Whether `sender_uid` may write to `recipient_uid` in direct messages: not when
    either blocks the other, nor to a private account that doesn't follow them. 1 round
    trip, all in the recipient's slot."""
    batch = Batch(get_redis())
    check = queue_block_check(batch, recipient_uid, sender_uid)
    private = batch.hget(user_key(recipient_uid), keys.PRIVATE_FIELD)
    follows_sender = following.queue_score(batch, recipient_uid, sender_uid)
    batch.execute()
    if check.blocked:
        return False
    return private.value != "1" or follows_sender.value is not None
