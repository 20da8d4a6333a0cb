"""An account's data as one JSON document (the settings page's "Export my data"): its
profile, statuses, follows both ways, lists with their members, likes, and what it
keeps: bookmarks, pinned statuses and followed tags. Read a page
at a time through each room's own selectors and written out as it is read, so a big
account streams in pieces of EXPORT_PAGE_SIZE rather than being built whole.

Pages are read by offset while the account may change (a new follower, a status
posted meanwhile), so an item can be missed or given twice at a page's edge: an
export is a snapshot taken over a few seconds, not one instant."""

import json
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime
from functools import partial
from typing import Any

from accounts.records import UserProfile
from accounts.services import get_user
from timeline.statuses.records import Status

from ..edits.layout import Version
from ..edits.selectors import versions_of
from ..feeds.selectors import Page
from ..graph.selectors import followers_page, following_page
from ..keeps import selectors as keeps
from ..lists.selectors import lists_of, members_page
from ..media.records import Attachment
from ..media.selectors import with_attachments
from ..moderation.selectors import statuses_by
from ..polls.selectors import exported_poll, votes_pages
from ..reactions.selectors import likes_page

EXPORT_FORMAT = "socialsite-export"
EXPORT_VERSION = 1
EXPORT_PAGE_SIZE = 500
# Profile fields that are the site's bookkeeping about the user, not their data.
BOOKKEEPING_FIELDS = frozenset(
    {
        "session_generation",
        "unread_notifications",
        "unread_messages",
        "notifications_read_at",
        "suspended",
    }
)
# Quotes: the status it quotes and who wrote it, whether they detached it, who may quote
# this one, and how many did.
STATUS_FIELDS = (
    *("in_reply_to", "in_reply_to_login", "repost_of", "repost_of_login", "location"),
    # Visibility (absent: public), content warning and sensitive flag (vis).
    *("visibility", "spoiler_text", "sensitive"),
    *("quote_of", "quote_of_login", "quote_state", "quote_policy", "quotes"),
)


def moment(seconds: float) -> str:
    """A Unix time as ISO 8601 in UTC."""
    return datetime.fromtimestamp(seconds, UTC).isoformat()


def exported_profile(user: UserProfile) -> dict:
    profile = {k: v for k, v in user.items() if k not in BOOKKEEPING_FIELDS}
    profile["signup"] = moment(user["signup"])
    return profile


def exported_status(status: Status, versions: Sequence[Version] = ()) -> dict:
    """One of the user's statuses: what they wrote, when, and what it answers or reposts;
    for an edited one, when, and the `versions` its edits replaced, oldest first."""
    shown = {"id": status["id"], "message": status["message"], "posted": moment(status["posted"])}
    shown |= {field: value for field in STATUS_FIELDS if (value := status.get(field))}
    shown |= {count: status.get(count, 0) for count in ("replies", "reposts", "likes")}
    if status.get("group_handle"):
        shown["group"] = status["group_handle"]
    # Polls: the status's poll, with its counts.
    if poll := exported_poll(status):
        shown["poll"] = poll
    # Media (timeline.media): each attachment's file, kind and alt text.
    if attachments := status.get("attachments"):
        shown["media"] = [exported_attachment(attachment) for attachment in attachments]
    # Edits (timeline.edits).
    if status.get("edited"):
        shown["edited"] = moment(status["edited"])
        shown["versions"] = [exported_version(version) for version in versions]
    return shown


def exported_attachment(found: Attachment) -> dict:
    """One of a status's attachments: its kind, file and preview, size and alt text."""
    shown: dict[str, Any] = {
        "kind": found.kind,
        "url": found.url,
        "preview_url": found.preview_url,
        "width": found.width,
        "height": found.height,
    }
    if found.description:
        shown["description"] = found.description
    if found.focus != (0.0, 0.0):
        shown["focus"] = list(found.focus)
    return shown


def exported_version(version: Version) -> dict:
    """An earlier version of an edited status: its text, since when, and its warning."""
    shown: dict[str, Any] = {"message": version.message, "since": moment(version.at)}
    if version.spoiler_text:
        shown["spoiler_text"] = version.spoiler_text
    if version.sensitive:
        shown["sensitive"] = True
    return shown


def with_versions(pages: Iterator[list[Status]]) -> Iterator[list[tuple[Status, list]]]:
    """Pages of statuses as pages of (status, its earlier versions) (edits.selectors)."""
    for page in pages:
        found = versions_of(page)
        # Media: the page's attachments, one round trip (timeline.media).
        with_attachments(page)
        yield [(status, found.get(status["id"], [])) for status in page]


def exported_like(status: Status) -> dict:
    """A status the user likes: whose it is and what it said."""
    return {
        "id": status["id"],
        "login": status["login"],
        "message": status["message"],
        "posted": moment(status["posted"]),
    }


def exported_person(user: UserProfile) -> dict:
    return {"login": user["login"], "name": user["name"]}


def every_page(read_page: Callable[[int, int], tuple[list, bool]]) -> Iterator[list]:
    """The pages `read_page(number, count)` reads (each with whether more follow), from
    the first until the last."""
    number = 1
    while True:
        items, has_more = read_page(number, EXPORT_PAGE_SIZE)
        yield items
        if not has_more:
            return
        number += 1


def statuses_pages(read: Callable[..., Page]) -> Callable[[int, int], tuple[list, bool]]:
    """A Page selector (statuses_by, likes_page) as every_page reads it."""

    def read_page(number: int, count: int) -> tuple[list, bool]:
        page = read(number, count)
        return page.statuses, page.has_older

    return read_page


def exported_lists(uid: int) -> Iterator[dict]:
    for the_list in lists_of(uid, uid):
        members = [
            person["login"]
            for page in every_page(partial(members_page, the_list["id"]))
            for person in page
        ]
        yield {
            "id": the_list["id"],
            "name": the_list["name"],
            "private": the_list["private"],
            "created": moment(the_list["created"]),
            "members": members,
        }


def json_array(pages: Iterator[list], shape: Callable[[Any], dict]) -> Iterator[str]:
    """A JSON array of the items of `pages`, each `shape`d, a page per piece."""
    yield "["
    first = True
    for page in pages:
        if page:
            yield ("" if first else ",\n") + ",\n".join(json.dumps(shape(i)) for i in page)
            first = False
    yield "]"


def export_chunks(uid: int, *, now: float) -> Iterator[str]:
    """The account's data as pieces of one JSON document; ValueError if there is no such
    user. Each piece is a page of one section (a few round trips)."""
    user = get_user(uid)
    if user is None:
        raise ValueError("No such user.")
    header = {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "exported": moment(now),
        "profile": exported_profile(user),
    }
    yield json.dumps(header)[:-1]  # the object stays open for the sections
    sections: dict[str, tuple[Iterator[list], Callable[[Any], dict]]] = {
        "statuses": (
            with_versions(
                every_page(statuses_pages(lambda n, c: statuses_by(uid, page=n, count=c)))
            ),
            lambda pair: exported_status(*pair),
        ),
        "following": (every_page(lambda n, c: following_page(uid, n, c)), exported_person),
        "followers": (every_page(lambda n, c: followers_page(uid, n, c)), exported_person),
        "lists": (([the_list] for the_list in exported_lists(uid)), lambda the_list: the_list),
        "likes": (every_page(statuses_pages(lambda n, c: likes_page(uid, n, c))), exported_like),
        # Polls: their votes (the status and the options chosen).
        "poll_votes": (votes_pages(uid), lambda vote: vote),
        # Keep (timeline.keeps): bookmarks shaped as likes are; pins and tags are few.
        "bookmarks": (
            every_page(statuses_pages(lambda n, c: keeps.bookmarks_page(uid, n, c))),
            exported_like,
        ),
        "pinned": (iter([keeps.pinned_ids(uid)]), lambda status_id: {"id": int(status_id)}),
        "followed_tags": (
            iter([keeps.followed_tags(uid)]),
            lambda tag: {"name": tag.name, "followed": moment(tag.followed)},
        ),
    }
    for name, (pages, shape) in sections.items():
        yield f', "{name}": '
        yield from json_array(pages, shape)
    yield "}\n"
