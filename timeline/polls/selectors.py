"""Reading a poll: what a status's poll fields say, as the card and the client API show
it to one viewer (their votes come with the page's marks: statuses.marks)."""

import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from socialsite.redis import get_redis

from .. import keys
from ..statuses.records import Status


@dataclass(frozen=True)
class PollOption:
    """One option: its text, its votes and share of them (None while totals are hidden),
    and whether the viewer chose it."""

    title: str
    votes: int | None
    percent: int | None
    chosen: bool


@dataclass(frozen=True)
class Poll:
    """A status's poll as one viewer sees it. Its id is its status's."""

    id: int
    options: tuple[PollOption, ...]
    multiple: bool
    expires_at: float
    expired: bool
    voters_count: int
    votes_count: int
    hide_totals: bool
    voted: bool
    own_votes: tuple[int, ...]

    @property
    def shows_totals(self) -> bool:
        """Whether its counts are shown (a poll hiding them shows them once closed)."""
        return not self.hide_totals or self.expired

    @property
    def open_to_vote(self) -> bool:
        """Whether the viewer may still vote (open, and not voted yet)."""
        return not self.expired and not self.voted


def poll_of(
    status: Status | None, now: datetime | float | None = None, viewer: int | None = None
) -> Poll | None:
    """The poll of `status` (None if it has none) at `now` (default: now), with the
    viewer's votes where its page marked them (`poll_voted`; "" for the viewer's own
    poll). Its author (`viewer`, or marked so) counts as having voted, as Mastodon's: they
    see its results and can't vote."""
    if not status or not status.get("poll_options"):
        return None
    if now is None:
        moment = time.time()
    elif isinstance(now, datetime):
        moment = now.timestamp()
    else:
        moment = float(now)
    titles: list[str] = json.loads(status["poll_options"])
    counts = [int(n) for n in status.get("poll_counts", "").split(",") if n]
    counts += [0] * (len(titles) - len(counts))
    total = sum(counts)
    voted = status.get("poll_voted")
    own = tuple(int(choice) for choice in voted.split(",")) if voted else ()
    has_voted = voted is not None or (viewer is not None and viewer == status["uid"])
    expires = float(status["poll_expires"])
    expired = status.get("poll_closed") == "1" or moment >= expires
    hide = status.get("poll_hide_totals") == "1"
    shown = not hide or expired
    options = tuple(
        PollOption(
            title,
            count if shown else None,
            (round(100 * count / total) if total else 0) if shown else None,
            index in own,
        )
        for index, (title, count) in enumerate(zip(titles, counts, strict=False))
    )
    return Poll(
        id=int(status["id"]),
        options=options,
        multiple=status.get("poll_multiple") == "1",
        expires_at=expires,
        expired=expired,
        voters_count=int(status.get("poll_voters", 0)),
        votes_count=total,
        hide_totals=hide,
        voted=has_voted,
        own_votes=own,
    )


def poll_entity(status: Status) -> dict[str, Any] | None:
    """The Mastodon Poll entity of `status`'s poll (None if it has none), `voted` and
    `own_votes` as its page's marks say (never, for a visitor)."""
    poll = poll_of(status)
    if poll is None:
        return None
    expires = datetime.fromtimestamp(poll.expires_at, UTC)
    entity: dict[str, Any] = {
        "id": str(poll.id),
        "expires_at": expires.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        "expired": poll.expired,
        "multiple": poll.multiple,
        "votes_count": poll.votes_count,
        "voters_count": poll.voters_count,
        "options": [{"title": o.title, "votes_count": o.votes} for o in poll.options],
        "emojis": [],
    }
    entity["voted"] = poll.voted
    entity["own_votes"] = list(poll.own_votes)
    return entity


def exported_poll(status: Status) -> dict[str, Any] | None:
    """A status's poll as its author's export has it (None if it has none)."""
    poll = poll_of(status)
    if poll is None:
        return None
    counts = [int(n) for n in status.get("poll_counts", "").split(",") if n]
    counts += [0] * (len(poll.options) - len(counts))
    return {
        "options": [
            {"title": o.title, "votes": n} for o, n in zip(poll.options, counts, strict=True)
        ],
        "closes": datetime.fromtimestamp(poll.expires_at, UTC).isoformat(),
        "multiple": poll.multiple,
        "hide_totals": poll.hide_totals,
        "voters": poll.voters_count,
    }


def votes_pages(uid: int, count: int = 500) -> Iterator[list[dict[str, Any]]]:
    """`uid`'s votes in polls, a page at a time (HSCAN of their own copy):
    {"status": id, "choices": [indexes]} each."""
    conn, cursor = get_redis(), 0
    while True:
        cursor, found = conn.hscan(keys.poll_votes_key(uid), cursor, count=count)
        if found:
            yield [
                {"status": int(status_id), "choices": [int(c) for c in choices.split(",")]}
                for status_id, choices in found.items()
            ]
        if not cursor:
            return
