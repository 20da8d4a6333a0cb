"""Direct messages: one-to-one and group conversations (up to CONVERSATION_MAX_MEMBERS
people), their messages, reading and leaving them.

A conversation's hash, members, messages and timeline share its own slot; each
member's inbox and unread counts share theirs. Sending is one script in the
conversation's slot (member check, id, store), then one per member in one
pipeline (inbox, unread counts, and the event for their open pages on
PRIVATE_CHANNEL). Messages never go on STATUS_CHANNEL: the streaming API relays
that to anyone."""

import json
import time

from django.conf import settings

from accounts.keys import LOGIN_INDEX, user_key
from accounts.records import UserProfile
from accounts.services import AccountSuspended, get_users
from socialsite.redis import Batch, get_redis
from socialsite.text import check_display_text, with_lf

from .. import keys
from ..audience import selectors as safety
from ..media import services as media
from . import scripts

MESSAGE_MAX_LENGTH = 1000
DIRECT, GROUP = "direct", "group"


class NoSuchConversation(LookupError):
    """The conversation doesn't exist or the user isn't in it (the same to them: 404)."""

    def __init__(self) -> None:
        super().__init__("There is no such conversation.")


def may_message(sender_uid: int, recipient_uid: int) -> bool:
    """Whether `sender_uid` may start a conversation with, or add, `recipient_uid`. The
    one place to decide it: not yourself, and what timeline.safety allows (blocks,
    private accounts)."""
    return int(sender_uid) != int(recipient_uid) and safety.may_message(sender_uid, recipient_uid)


def clean_message(message: str) -> str:
    """`message` stripped, line breaks as LF; ValueError if it is empty, too long or holds
    a hidden character."""
    message = with_lf((message or "").strip())
    if not message:
        raise ValueError("Write a message.")
    if len(message) > MESSAGE_MAX_LENGTH:
        raise ValueError(f"A message is at most {MESSAGE_MAX_LENGTH:,} characters.")
    return check_display_text(message, multiline=True)


def parse_logins(to: str) -> list[str]:
    """The logins of a comma-separated `to` ("@" optional), each once, in order."""
    logins = [login.strip().lstrip("@").strip() for login in (to or "").split(",")]
    return list(dict.fromkeys(login.lower() for login in logins if login))


def _head_keys(conversation_id: int) -> dict[str, str]:
    """A conversation's hash and members keys, named as its scripts take them."""
    return {
        "conversation_key": keys.conversation_key(conversation_id),
        "members_key": keys.conversation_members_key(conversation_id),
    }


def conversation_keys(conversation_id: int) -> dict[str, str]:
    """All a conversation's keys, named as its scripts take them."""
    return {
        **_head_keys(conversation_id),
        "messages_key": keys.conversation_messages_key(conversation_id),
        "timeline_key": keys.conversation_timeline_key(conversation_id),
    }


def _inbox_keys(uid: int) -> dict[str, str]:
    return {
        "inbox_key": keys.inbox_key(uid),
        "unread_key": keys.inbox_unread_key(uid),
        "user_key": user_key(uid),
    }


def start_conversation(uid: int, to: str, message: str, *, media_ids: list[int] = ()) -> int:  # type: ignore[assignment]
    """Sends `message` to the users `to` names (logins, comma-separated): in the one-to-one
    conversation with them if there is one, else in a new conversation. Returns its
    id. ValueError (nothing changes) for no one, an unknown login, yourself alone,
    more than CONVERSATION_MAX_MEMBERS people, someone who may not be messaged, or a
    bad message."""
    message = clean_message(message)
    logins = parse_logins(to)
    if not logins:
        raise ValueError("Say whom to write to: their logins, comma-separated.")
    most = settings.CONVERSATION_MAX_MEMBERS
    if len(logins) > most - 1:
        raise ValueError(f"A conversation has at most {most} people, you included.")
    conn = get_redis()
    uids = conn.hmget(LOGIN_INDEX, logins)
    unknown = [f"@{login}" for login, found in zip(logins, uids, strict=True) if not found]
    if unknown:
        raise ValueError(f"No such user: {', '.join(unknown)}.")
    others = [int(other) for other in dict.fromkeys(uids) if int(other) != int(uid)]
    if not others:
        raise ValueError("Write to someone other than yourself.")
    refused = [
        f"@{login}"
        for login, other in zip(logins, uids, strict=True)
        if int(other) != int(uid) and not may_message(uid, other)
    ]
    if refused:
        raise ValueError(f"You can't message {', '.join(refused)}.")
    if len(others) == 1:
        existing = conn.hget(keys.direct_conversations_key(uid), others[0])
        if existing:
            send_message(uid, int(existing), message, media_ids=media_ids)
            return int(existing)
    members = get_users([int(uid), *others])
    if len(members) != len(others) + 1:
        raise ValueError("No such user.")
    if members[0]["suspended"]:
        raise AccountSuspended("This account is suspended.")
    conversation_id = _create(conn, members, DIRECT if len(others) == 1 else GROUP)
    send_message(uid, conversation_id, message, media_ids=media_ids)
    return conversation_id


def _create(conn, members: list[UserProfile], kind: str) -> int:
    """A new conversation of `members` (profiles); a one-to-one one is remembered by both."""
    conversation_id = conn.incr(keys.CONVERSATION_ID_COUNTER)
    pairs = [value for member in members for value in (member["id"], member["login"])]
    pipe = conn.pipeline(transaction=False)
    scripts.create_conversation(
        pipe, **_head_keys(conversation_id), kind=kind, created=time.time(), members=pairs
    )
    if kind == DIRECT:
        first, second = (member["id"] for member in members)
        pipe.hsetnx(keys.direct_conversations_key(first), second, conversation_id)
        pipe.hsetnx(keys.direct_conversations_key(second), first, conversation_id)
    pipe.execute()
    return conversation_id


def send_message(
    uid: int,
    conversation_id: int,
    message: str,
    *,
    media_ids: list[int] = (),  # type: ignore[assignment]
) -> int:
    """Adds `message` by `uid` to the conversation and to every member's inbox (unread but
    for its author) and open pages; returns its id. NoSuchConversation for a
    non-member, AccountSuspended for a suspended author, ValueError for a bad message
    or when the author and another member block each other (timeline.safety).
    4 round trips; 5 with `media_ids` (the author's uploads, attached to the message:
    MediaError, and the message taken back before anyone is told of it, if they can't
    be)."""
    message = clean_message(message)
    media_ids = media.check_media_ids(media_ids)
    conn = get_redis()
    login = check_sender(conn, uid, conversation_id)
    now = time.time()
    message_id, stored, members = do_post_message(
        conn, uid, login, conversation_id, message, now, media_ids
    )
    if media_ids:
        # Media (mediaweb): attached to the message once it has its id, before it reaches
        # the members' inboxes; kept until the message's deletion deletes them.
        try:
            media.attach(conn, uid, media.message_owner(conversation_id, message_id), media_ids)
        except media.MediaError:
            _take_message(conn, uid, conversation_id, message_id)
            raise
    deliver_to_members(conn, conversation_id, stored, members, author=uid, sent=now)
    return message_id


def check_sender(conn, uid: int, conversation_id: int) -> str:
    """`uid`'s login if they may write in the conversation (2 round trips): else
    NoSuchConversation for an unknown user, AccountSuspended, or ValueError when they
    and another member block each other."""
    pipe = conn.pipeline(transaction=False)
    pipe.hmget(user_key(uid), "login", "suspended")
    pipe.hkeys(keys.conversation_members_key(conversation_id))
    (login, suspended), members = pipe.execute()
    if login is None:
        raise NoSuchConversation()
    if suspended == "1":
        raise AccountSuspended("This account is suspended.")
    others = [int(member) for member in members if int(member) != int(uid)]
    batch = Batch(conn)
    checks = [safety.queue_block_check(batch, uid, other) for other in others]
    batch.execute()
    if any(check.blocked for check in checks):
        raise ValueError("You can't message someone who blocks you or whom you block.")
    return login


def do_post_message(
    conn,
    uid: int,
    login: str,
    conversation_id: int,
    message: str,
    now: float,
    media_ids: list[int] = (),  # type: ignore[assignment]
) -> tuple[int, str, list]:
    """Stores the message in the conversation (1 round trip): its id, the message as JSON
    and the members' uids; NoSuchConversation if `uid` is not a member."""
    fields: dict = {"uid": int(uid), "login": login, "text": message, "sent": now}
    if media_ids:
        fields["media"] = list(media_ids)  # media (mediaweb): its attachments' ids
    payload = json.dumps(fields)
    posted = scripts.post_message(
        conn, **conversation_keys(conversation_id), uid=uid, sent=now, message_json=payload
    )
    if not posted:
        raise NoSuchConversation()
    message_id, stored, members = posted
    return int(message_id), stored, members


def deliver_to_members(
    conn, conversation_id: int, stored: str, members: list, *, author: int, sent: float
) -> None:
    """Puts a stored message in every member's inbox (unread but for its `author`) and
    tells their open pages (1 round trip)."""
    pipe = conn.pipeline(transaction=False)
    for member in members:
        scripts.deliver_message(
            pipe,
            **_inbox_keys(int(member)),
            conversation_id=conversation_id,
            sent=sent,
            unread=int(member) != int(author),
            channel=keys.PRIVATE_CHANNEL,
            uid=int(member),
            message_json=stored,
        )
    pipe.execute()


def mark_read(uid: int, conversation_id: int) -> dict:
    """Marks the conversation read for `uid`; returns the nav's unread counts. 1 round trip."""
    notifications, messages = scripts.mark_read(
        get_redis(),
        **_inbox_keys(uid),
        conversation_id=conversation_id,
        left=False,
        channel=keys.PRIVATE_CHANNEL,
        uid=uid,
    )
    return {"notifications": int(notifications), "messages": int(messages)}


def leave_conversation(uid: int, conversation_id: int) -> None:
    """`uid` leaves a group conversation, which leaves their inbox. NoSuchConversation for
    a non-member; ValueError for a one-to-one conversation."""
    conn = get_redis()
    left = scripts.leave_conversation(conn, **_head_keys(conversation_id), uid=uid)
    if left == 0:
        raise NoSuchConversation()
    if left == -1:
        raise ValueError("Only a group conversation can be left.")
    scripts.mark_read(
        conn,
        **_inbox_keys(uid),
        conversation_id=conversation_id,
        left=True,
        channel=keys.PRIVATE_CHANNEL,
        uid=uid,
    )


def delete_message(uid: int, conversation_id: int, message_id: int) -> None:
    """Deletes a message of `uid`'s. NoSuchConversation if there is no such message where
    they can see it; PermissionError if someone else wrote it."""
    conn = get_redis()
    # Media (mediaweb): its attachments go with it (read first: the script deletes it).
    stored = conn.hget(keys.conversation_messages_key(conversation_id), message_id)
    deleted = _take_message(conn, uid, conversation_id, message_id)
    if deleted == 0:
        raise NoSuchConversation()
    if deleted == -1:
        raise PermissionError("Only its author can delete a message.")
    if stored and (media_ids := json.loads(stored).get("media")):
        media.delete_media(uid, media_ids)


def _take_message(conn, uid: int, conversation_id: int, message_id: int) -> int:
    """Deletes message `message_id` of `uid`'s: 1, else 0 (no such message where they can
    see it) or -1 (someone else's)."""
    return int(
        scripts.delete_message(
            conn,
            **conversation_keys(conversation_id),
            uid=uid,
            message_id=message_id,
            channel=keys.PRIVATE_CHANNEL,
            conversation_id=conversation_id,
        )
    )
