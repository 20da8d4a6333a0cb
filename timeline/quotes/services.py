"""Quoting: checking a quote before it is posted, keeping the quoted status's set of
quotes and its count, the quoted author's detaching of their status from a quote, and
an account's default quote policy.

The quote itself is a status (timeline.posting) carrying the quoted status's id, author
and login; the quoted status's `quotes:{id}` set and `quotes` count live in its slot
and change in one script (statuses.services.add_to_status_set). A quote and its quoted
status are in two slots: each step is one slot's, and idempotent."""

from dataclasses import dataclass

from accounts.keys import SUSPENDED_USERS, user_key
from socialsite.redis import Batch, Client, get_redis

from .. import keys
from ..audience import selectors as audience
from ..follow_sets import following
from ..statuses.records import Status
from ..statuses.selectors import (
    AlreadyDone,
    StatusGone,
    decode_status,
    hidden_uids,
    is_hidden,
    status_id_of,
)
from ..statuses.services import add_to_status_set, queue_update, remove_from_status_set
from . import rules
from .keys import (
    QUOTE_OF_FIELD,
    QUOTE_OF_LOGIN_FIELD,
    QUOTE_OF_UID_FIELD,
    QUOTE_POLICY_FIELD,
    QUOTE_STATE_FIELD,
    quotes_key,
)

REVOKED = "revoked"
# The fields a quote carries, set only by check_quote and revoke (posting's
# RESERVED_FIELDS).
QUOTE_FIELDS = frozenset(
    {QUOTE_OF_FIELD, QUOTE_OF_UID_FIELD, QUOTE_OF_LOGIN_FIELD, QUOTE_STATE_FIELD, "quotes"}
)


class QuoteRefused(ValueError):
    """The quoted author's policy doesn't let this user quote the status."""


class NotTheirs(PermissionError):
    """Only a status's author may detach it from the quotes of it."""


def check_quote(conn: Client, uid: int, quoted_id: object) -> dict[str, str]:
    """The fields that make `uid`'s new status a quote of `quoted_id` (a repost's
    original, for a repost): StatusGone if it is gone or hidden from them (it reads as
    deleted, timeline.audience's rule), QuoteRefused if its policy doesn't let them
    quote it. 1 round trip; 1 more for a repost, 1 for a followers-only policy, 1 when
    the rule must learn whether they follow a private author."""
    quoted = _visible_status(conn, uid, status_id_of(quoted_id))
    if quoted.get("repost_of"):
        quoted = _visible_status(conn, uid, int(quoted["repost_of"]))
    author = int(quoted["uid"])
    follows = False
    if author != int(uid) and rules.quote_policy(quoted) == rules.FOLLOWERS:
        (score,) = following.queue_scores(conn, uid, [author])
        follows = score is not None
    if not rules.may_quote(quoted, uid, follows_author=follows):
        who = "their followers" if rules.quote_policy(quoted) == rules.FOLLOWERS else "no one"
        raise QuoteRefused(f"@{quoted['login']} lets {who} quote this status.")
    return {
        QUOTE_OF_FIELD: str(quoted["id"]),
        QUOTE_OF_UID_FIELD: str(author),
        QUOTE_OF_LOGIN_FIELD: quoted["login"],
    }


def _visible_status(conn: Client, uid: int, status_id: int) -> Status:
    batch = Batch(conn)
    fields = batch.hgetall(keys.status_key(status_id))
    suspended = batch.smembers(SUSPENDED_USERS)
    read = audience.queue_audience(batch, uid)
    batch.execute()
    status = decode_status(status_id, fields.value)
    if status is None or is_hidden(status, hidden_uids(suspended.value)):
        raise StatusGone("The status quoted doesn't exist or was deleted.")
    if not audience.visible(conn, [status], read.audience):
        raise StatusGone("The status quoted doesn't exist or was deleted.")
    return status


def queue_quoted(pipe, status: Status) -> None:
    """Queues counting a new quote in its quoted status's set (nothing if `status`
    quotes nothing; a quoted status deleted meanwhile counts nothing)."""
    quoted = status.get("quote_of")
    if quoted:
        add_to_status_set(pipe, quotes_key, int(quoted), "quotes", status["posted"], status["id"])


def queue_deletion(pipe, status: Status) -> None:
    """Queues what a deleted status means for quotes: a quote leaves its quoted status's
    count; a quoted status's own set goes (its quotes then show it unavailable)."""
    quoted = status.get("quote_of")
    if quoted and status.get("quote_state") != REVOKED:
        remove_from_status_set(pipe, quotes_key, int(quoted), "quotes", status["id"])
    if status.get("quotes"):
        pipe.delete(quotes_key(status["id"]))


@dataclass(frozen=True)
class Detached:
    quoted_id: int
    quoting_id: int


def revoke(uid: int, quoted_id: int, quoting_id: int) -> Detached:
    """Detaches `uid`'s status `quoted_id` from the quote `quoting_id`: the quote stays,
    showing that its author removed the quoted status, and leaves the count. StatusGone
    if either is gone or `quoting_id` doesn't quote it; NotTheirs if `uid` didn't write
    `quoted_id`; AlreadyDone if it was detached already. 2 round trips (one a slot)."""
    conn = get_redis()
    quoted_id, quoting_id = status_id_of(quoted_id), status_id_of(quoting_id)
    batch = Batch(conn)
    author = batch.hget(keys.status_key(quoted_id), "uid")
    counted = batch.zscore(quotes_key(quoted_id), quoting_id)
    quote_of = batch.hmget(keys.status_key(quoting_id), QUOTE_OF_FIELD, QUOTE_STATE_FIELD)
    batch.execute()
    if author.value is None:
        raise StatusGone("That status doesn't exist or was deleted.")
    if int(author.value) != int(uid):
        raise NotTheirs("Only its author may remove a status from a quote.")
    quotes, state = quote_of.value
    if quotes != str(quoted_id):
        raise StatusGone("That quote doesn't exist or doesn't quote this status.")
    if state == REVOKED and counted.value is None:
        raise AlreadyDone("Your status was removed from that quote already.")
    pipe = conn.pipeline(transaction=False)
    # The quote's own slot first: once it says so, no reader shows the quoted status.
    queue_update(pipe, quoting_id, [QUOTE_STATE_FIELD, REVOKED])
    remove_from_status_set(pipe, quotes_key, quoted_id, "quotes", quoting_id)
    pipe.execute()
    return Detached(quoted_id, quoting_id)


def default_policy(uid: int) -> str:
    """`uid`'s default quote policy for new statuses."""
    stored = get_redis().hget(user_key(uid), QUOTE_POLICY_FIELD)
    return str(stored or rules.PUBLIC)


def set_default_policy(uid: int, policy: str) -> None:
    """Sets who may quote `uid`'s new statuses (ValueError for an unknown policy); their
    statuses posted already keep theirs, as Mastodon's do."""
    stored = rules.stored_policy(rules.check_policy(policy))
    if stored is None:
        get_redis().hdel(user_key(uid), QUOTE_POLICY_FIELD)
    else:
        get_redis().hset(user_key(uid), QUOTE_POLICY_FIELD, stored)


def policy_data(policy: object) -> dict[str, str]:
    """A post's asked-for quote policy as the status's extra data (ValueError for an
    unknown one): empty for none asked, so the author's default applies."""
    if policy in (None, ""):
        return {}
    return {QUOTE_POLICY_FIELD: rules.check_policy(policy)}


def set_status_policy(uid: int, status_id: int, policy: str) -> None:
    """Sets who may quote `uid`'s status `status_id` from now on (quotes made stay:
    revoke detaches them): StatusGone if it is gone, NotTheirs if it isn't theirs,
    ValueError for an unknown policy. 2 round trips."""
    policy = rules.check_policy(policy)
    conn = get_redis()
    author = conn.hget(keys.status_key(status_id), "uid")
    if author is None:
        raise StatusGone("That status doesn't exist or was deleted.")
    if int(author) != int(uid):
        raise NotTheirs("Only its author may change who may quote a status.")
    pipe = conn.pipeline(transaction=False)
    queue_update(pipe, status_id, [QUOTE_POLICY_FIELD, policy])
    pipe.execute()
