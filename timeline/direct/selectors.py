"""Reading direct messages: your inbox (conversations by their last message, with
unread counts) and a page of one conversation.

The inbox is 2 round trips (your inbox, then its conversations); a conversation's
page is 1 (a script in its slot that checks you are in it)."""

import json
from dataclasses import dataclass

from socialsite.redis import Batch, PackedPipeline, get_redis

from .. import keys
from ..feeds.selectors import LAST_PAGE
from ..media import selectors as media
from . import scripts
from .records import Message
from .services import GROUP, NoSuchConversation, conversation_keys


@dataclass(frozen=True, slots=True)
class Conversation:
    id: int
    kind: str
    logins: list[str]
    last: Message | None
    unread: int = 0
    # Its members' uids, in the order of `logins`.
    uids: tuple[int, ...] = ()

    @property
    def is_group(self) -> bool:
        return self.kind == GROUP

    def title_for(self, login: str) -> str:
        """Whom the conversation is with, as `login` sees it."""
        others = [other for other in self.logins if other != login] or [login]
        return ", ".join(f"@{other}" for other in others)


@dataclass(frozen=True, slots=True)
class MessagesPage:
    conversation: Conversation
    messages: list[Message]
    number: int
    has_older: bool

    @property
    def has_newer(self) -> bool:
        return self.number > 1


def _check_page(page: int, count: int) -> int:
    if not 1 <= page <= LAST_PAGE or count < 1:
        raise ValueError(f"Pages go from 1 to {LAST_PAGE:,}.")
    return (page - 1) * count


def _conversation(
    conversation_id: int, fields: dict[str, str], members: dict[str, str], unread: int = 0
) -> Conversation:
    last = fields.get("last")
    return Conversation(
        id=int(conversation_id),
        kind=fields.get("kind", GROUP),
        logins=sorted(members.values()),
        uids=tuple(int(uid) for uid, _ in sorted(members.items(), key=lambda member: member[1])),
        last=json.loads(last) if last else None,
        unread=unread,
    )


def _pairs(flat: list[str] | dict[str, str]) -> dict[str, str]:
    """A hash as Lua returns it (field, value, field, value...), or as RESP3 does (a dict)."""
    if isinstance(flat, dict):
        return flat
    return dict(zip(flat[::2], flat[1::2], strict=True))


@dataclass(frozen=True, slots=True)
class InboxPage:
    conversations: list[Conversation]
    number: int
    has_older: bool

    @property
    def has_newer(self) -> bool:
        return self.number > 1


def inbox_page(uid: int, page: int, count: int) -> InboxPage:
    """Page `page` of `uid`'s conversations, the latest message's first, each with its
    unread count."""
    start = _check_page(page, count)
    conn = get_redis()
    pipe = conn.pipeline(transaction=False)
    pipe.zrevrange(keys.inbox_key(uid), start, start + count)
    pipe.hgetall(keys.inbox_unread_key(uid))
    ids, unread = pipe.execute()
    shown = ids[:count]
    pipe = PackedPipeline(conn)
    hashes = pipe.for_each_key(map(keys.conversation_key, shown), ("HGETALL",))
    members = pipe.for_each_key(map(keys.conversation_members_key, shown), ("HGETALL",))
    pipe.execute()
    conversations = [
        _conversation(cid, _pairs(fields), _pairs(people), int(unread.get(cid, 0)))
        for cid, fields, people in zip(shown, hashes.value, members.value, strict=True)
        if fields
    ]
    return InboxPage(conversations, page, len(ids) > count)


def conversation_page(uid: int, conversation_id: int, page: int, count: int) -> MessagesPage:
    """Page `page` of a conversation for one of its members: its newest `count` messages
    on page 1, older ones after, oldest first within the page (the newest at the
    bottom). NoSuchConversation for anyone else."""
    start = _check_page(page, count)
    found = scripts.read_conversation(
        get_redis(), **conversation_keys(conversation_id), uid=uid, first=start, last=start + count
    )
    if not found:
        raise NoSuchConversation()
    fields, members, stored = found
    messages = [json.loads(message) for message in stored[:count] if message]
    with_message_attachments(messages)
    return MessagesPage(
        conversation=_conversation(conversation_id, _pairs(fields), _pairs(members)),
        messages=messages[::-1],
        number=page,
        has_older=len(stored) > count,
    )


def with_message_attachments(messages: list[Message]) -> None:
    """Gives each message with media its attachments, as `attachments` (1 round trip if
    any has media, none otherwise). Media (mediaweb)."""
    with_media = [m for m in messages if m.get("media")]
    if not with_media:
        return
    batch = Batch(get_redis())
    queued = [media.queue_attachments(batch, int(m["uid"]), m["media"]) for m in with_media]
    batch.execute()
    for message, reads in zip(with_media, queued, strict=True):
        message["attachments"] = media.decode_queued(int(message["uid"]), reads)


def last_conversation_id() -> int:
    """The id of the newest conversation ever started (0 before the first): a refused
    start takes no id."""
    return int(get_redis().get(keys.CONVERSATION_ID_COUNTER) or 0)
