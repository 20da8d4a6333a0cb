"""Writing status records: allocating and checking a new status, storing it on its
author's profile, taking a deleted one back, and the sets kept in a status's slot
(its replies, reposts and likers, each with its count).

These are the status store's own steps; posting a status to its audience (fan-out,
indexes, events) is timeline.posting's."""

from typing import Literal, cast

from django.conf import settings

from accounts.keys import user_key
from accounts.services import AccountSuspended
from socialsite.redis import get_redis
from socialsite.text import check_display_text, with_lf

from .. import keys
from ..follow_sets import followers as follower_sets
from . import layout, scripts, visibility
from .cache import statuses as kept
from .records import Status
from .selectors import decode_status

# The status's own fields, and the name its hash stores the posted time under.
CORE_FIELDS = frozenset({"id", "uid", "login", "message", "posted", layout.POSTED_FIELD})


def check_message(message: str) -> str:
    """The message to store, or ValueError saying what is wrong with it.

    Statuses are multi-line (shown with their line breaks): a browser sends a textarea's
    line breaks as CRLF, stored as LF; newlines and tabs are kept, every other control,
    bidi, zero-width or format character is refused (socialsite.text)."""
    if not isinstance(message, str) or not message.strip():
        raise ValueError("A status can't be empty.")
    message = with_lf(message)
    if len(message) > settings.STATUS_MAX_LENGTH:
        raise ValueError(f"A status is at most {settings.STATUS_MAX_LENGTH} characters.")
    return check_display_text(message, multiline=True)


def build_status(conn, uid: int, message: str, data: dict) -> Status | None:
    """Checks a new status and allocates its id (1 round trip); returns its fields, not
    yet stored, marked "private" if its author's account is. None for an unknown user,
    AccountSuspended for a suspended one."""
    message = check_message(message)
    if CORE_FIELDS & data.keys():
        raise ValueError(f"Extra data can't replace {sorted(CORE_FIELDS & data.keys())}")
    pipe = conn.pipeline(transaction=False)
    # Visibility and content warnings (vis): checked before anything is read.
    chosen = data.get("visibility")
    if chosen is not None:
        visibility.check_visibility(chosen)
    warning = visibility.warning_fields(data, message)
    pipe.hmget(
        user_key(uid),
        "login",
        "suspended",
        keys.PRIVATE_FIELD,
        visibility.DEFAULT_VISIBILITY_FIELD,
        keys.QUOTE_POLICY_FIELD,
    )
    pipe.incr(keys.STATUS_ID_COUNTER)
    (login, suspended, private, default, quote_policy), status_id = pipe.execute()
    if not login:
        return None
    if suspended == "1":
        raise AccountSuspended("This account is suspended.")
    extra = {name: str(value) for name, value in data.items() if value is not None}
    # Only the author's account decides it, never the caller's data.
    extra.pop(keys.PRIVATE_FIELD, None)
    if private == "1":
        extra[keys.PRIVATE_FIELD] = "1"
    # Quotes: the author's default quote policy, unless the post asked for one.
    if quote_policy and keys.QUOTE_POLICY_FIELD not in extra:
        extra[keys.QUOTE_POLICY_FIELD] = quote_policy
    extra.update(_visibility_fields(extra, chosen, default), **warning)
    # A post's extra data (a location...) are fields of its record as they are.
    return cast(
        Status,
        {
            **extra,
            "id": status_id,
            "uid": int(uid),
            "login": login,
            "message": message,
            "posted": layout.posted_now(),
        },
    )


def _visibility_fields(extra: dict, chosen: object, default: str | None) -> dict[str, str]:
    """The record's visibility fields (in place of the post's own in `extra`): the one
    chosen, else the author's default setting (a repost is public unless chosen), none
    for a public status; followers-only and direct statuses are marked private too."""
    extra.pop("visibility", None)
    extra.pop(visibility.SENSITIVE_FIELD, None)
    extra.pop(visibility.SPOILER_FIELD, None)
    if chosen is None and "repost_of" not in extra and default in visibility.VISIBILITIES:
        chosen = default
    if chosen in (None, visibility.PUBLIC):
        return {}
    fields = {"visibility": str(chosen)}
    if chosen in visibility.LIMITED:
        fields[keys.PRIVATE_FIELD] = "1"
    return fields


def queue_store(
    pipe, status: Status, *, home_size: int, followers: int
) -> follower_sets.RangeRead | None:
    """Queues the status hash and its author's bookkeeping (see store_status.lua): the
    profile timeline, their own home (`home_size` > 0), the `posts` count, and, for
    `followers` > 0, a read of their first `followers` followers, returned (see
    follow_sets.followers.decode_range: their uids, and where a fan-out job takes over)."""
    uid = status["uid"]
    pipe.hset(keys.status_key(status["id"]), mapping=layout.stored_fields(status))
    scripts.store_status(
        pipe,
        user_key=user_key(uid),
        profile_key=keys.profile_timeline_key(uid),
        home_key=keys.home_timeline_key(uid),
        status_id=status["id"],
        posted=status["posted"],
        home_size=home_size,
    )
    if status.get("media"):
        # Media (mediaweb): the profile's media tab, in the author's slot as the profile.
        pipe.zadd(keys.media_timeline_key(uid), {str(status["id"]): status["posted"]})
    if followers:
        # After the script: a follower leaving in between gets the status twice (a reader
        # shows it once: feeds.home_list), never not at all.
        return follower_sets.queue_range(pipe, keys.followers_key(uid), count=followers)
    return None


def create_status(uid: int, message: str, **data) -> int | None:
    """Stores a status on its author's profile (no fan-out); None if the user doesn't exist."""
    conn = get_redis()
    status = build_status(conn, uid, message, data)
    if status is None:
        return None
    pipe = conn.pipeline(transaction=False)
    queue_store(pipe, status, home_size=0, followers=0)
    pipe.execute()
    return status["id"]


def take_status(conn, status_id: int, author: str) -> Status | Literal[False] | None:
    """Deletes the status hash if `author` (a uid as a string; "" for anyone) wrote it,
    and returns the status as it was; False if someone else wrote it (nothing changes);
    None if there is no such status."""
    kept.forget(status_id)
    taken = scripts.take_status(
        conn,
        status_key=keys.status_key(status_id),
        author=author,
        changes_channel=keys.STATUS_CHANGES_CHANNEL,
    )
    if taken == 0:
        return None
    if taken == -1:
        return False
    return decode_status(status_id, dict(zip(taken[::2], taken[1::2], strict=True)))


def queue_unrecord(pipe, status: Status) -> None:
    """Queues taking a deleted status off its author's profile, home and `posts` count."""
    author = status["uid"]
    scripts.unrecord_status(
        pipe,
        user_key=user_key(author),
        profile_key=keys.profile_timeline_key(author),
        home_key=keys.home_timeline_key(author),
        status_id=status["id"],
    )
    if status.get("media"):
        # Media (mediaweb): off the profile's media tab too.
        pipe.zrem(keys.media_timeline_key(author), str(status["id"]))


def queue_update(pipe, status_id: int, fields: list) -> None:
    """Queues setting `fields` (name, value, ...) on a status, if it still exists."""
    kept.forget(status_id)
    scripts.update_status(
        pipe,
        status_key=keys.status_key(status_id),
        changes_channel=keys.STATUS_CHANGES_CHANNEL,
        fields=fields,
    )


def add_to_status_set(client, set_key, status_id: int, count_field: str, score, member):
    """Adds `member` to one of a status's sets (`set_key(status_id)`: replies, reposts,
    likers) with `score`, counted in `count_field`, in the status's slot: the new count;
    0 if the status is gone, -1 if `member` is in the set already. Queued on a pipeline."""
    kept.forget(status_id)
    return scripts.add_to_status_set(
        client,
        status_key=keys.status_key(status_id),
        set_key=set_key(status_id),
        count_field=count_field,
        score=score,
        member=member,
        changes_channel=keys.STATUS_CHANGES_CHANNEL,
    )


def remove_from_status_set(client, set_key, status_id: int, count_field: str, member, value=""):
    """Takes `member` out of one of a status's sets and its count; with `value`, only if
    its score is that value. 1 if it was removed, else 0. Queued on a pipeline."""
    kept.forget(status_id)
    return scripts.remove_from_status_set(
        client,
        status_key=keys.status_key(status_id),
        set_key=set_key(status_id),
        count_field=count_field,
        member=member,
        score=value,
        changes_channel=keys.STATUS_CHANGES_CHANNEL,
    )
