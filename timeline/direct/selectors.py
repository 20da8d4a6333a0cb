"""Reading direct messages: your inbox (conversations by their last message, with
unread counts) and a page of one conversation.

The inbox is 2 round trips (your inbox, then its conversations); a conversation's
page is 1 (a script in its slot that checks you are in it)."""

import json
from dataclasses import dataclass

from socialsite.redis import PackedPipeline, get_redis

from .. import keys
from ..feeds.selectors import LAST_PAGE
from .services import GROUP, NoSuchConversation, scripts


@dataclass(frozen=True)
class Conversation:
    id: int
    kind: str
    logins: list[str]
    last: dict | None
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


@dataclass(frozen=True)
class MessagesPage:
    conversation: Conversation
    messages: list[dict]
    number: int
    has_older: bool

    @property
    def has_newer(self) -> bool:
        return self.number > 1


def _check_page(page: int, count: int) -> int:
    if not 1 <= page <= LAST_PAGE or count < 1:
        raise ValueError(f"Pages go from 1 to {LAST_PAGE:,}.")
    return (page - 1) * count


def _conversation(conversation_id: int, fields: dict, members: dict, unread: int = 0):
    last = fields.get("last")
    return Conversation(
        id=int(conversation_id),
        kind=fields.get("kind", GROUP),
        logins=sorted(members.values()),
        uids=tuple(int(uid) for uid, _ in sorted(members.items(), key=lambda member: member[1])),
        last=json.loads(last) if last else None,
        unread=unread,
    )


def _pairs(flat: list) -> dict:
    """A hash as Lua returns it (field, value, field, value...), or as RESP3 does (a dict)."""
    if isinstance(flat, dict):
        return flat
    return dict(zip(flat[::2], flat[1::2], strict=True))


@dataclass(frozen=True)
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
    found = scripts.run(
        get_redis(),
        "read_conversation",
        [
            keys.conversation_key(conversation_id),
            keys.conversation_members_key(conversation_id),
            keys.conversation_messages_key(conversation_id),
            keys.conversation_timeline_key(conversation_id),
        ],
        [uid, start, start + count],
    )
    if not found:
        raise NoSuchConversation()
    fields, members, stored = found
    messages = [json.loads(message) for message in stored[:count] if message]
    return MessagesPage(
        conversation=_conversation(conversation_id, _pairs(fields), _pairs(members)),
        messages=messages[::-1],
        number=page,
        has_older=len(stored) > count,
    )
