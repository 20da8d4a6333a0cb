"""Mastodon's JSON entities (Account, Status, Relationship, List, Notification,
Conversation, Application, Instance) from the site's records: ids as strings, times in
ISO 8601, HTML content made by the pages' own linkify."""

import functools
from collections.abc import Iterable
from datetime import UTC, datetime
from urllib.parse import urljoin

from django.http import HttpRequest
from django.templatetags.static import static
from markupsafe import Markup

from accounts.avatars import SIZES, avatar_url
from accounts.records import UserProfile
from accounts.services import get_users
from socialsite.links import url
from timeline.audience.selectors import Relation
from timeline.linkcards.selectors import card_entity
from timeline.lists.records import TimelineList
from timeline.polls.selectors import poll_entity
from timeline.statuses.display import linkify
from timeline.statuses.records import Status
from timeline.statuses.text import tags
from timeline.statuses.visibility import visibility_of

from . import media, quotes
from .emoji_entities import emojis_in
from .models import ClientApp
from .vapid import vapid_public_key

# 4.5: quotes (api/quotes.py), which Mastodon.py asks of the server it talks to.
VERSION = "4.5.0 (compatible; socialsite 1.0)"
# The picture of an account without an avatar, and the instance's: a PNG, as apps
# don't all draw the pages' SVG.
AVATAR = "img/avatar.png"


def site_of(request: HttpRequest) -> str:
    """The site's address as a request reached it, which entities' URLs start with."""
    return request.build_absolute_uri("/").rstrip("/")


def iso(seconds: float) -> str:
    moment = datetime.fromtimestamp(float(seconds), tz=UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def absolute(site: str, address: str) -> str:
    """`address` (a path, or a storage's full URL) as an absolute URL."""
    return urljoin(site + "/", address)


def linked_html(site: str, html: str) -> str:
    """HTML of a message or bio as Mastodon's: a paragraph, line breaks kept, links made
    absolute."""
    html = str(Markup("<p>{}</p>").format(Markup(html.replace("\n", "<br>"))))
    return html.replace('href="/', f'href="{site}/')


# A page's authors come again and again, their bios rarely changed: linked once.
@functools.lru_cache(maxsize=4096)
def note_html(site: str, bio: str) -> str:
    return linked_html(site, str(linkify(bio))) if bio else ""


def profile_fields(user: UserProfile) -> list[dict]:
    """A profile's website and location as Mastodon's profile fields."""
    fields = []
    if user.get("website"):
        link = Markup('<a href="{0}" rel="nofollow noopener" target="_blank">{0}</a>')
        fields.append({"name": "Website", "value": str(link.format(user["website"]))})
    if user.get("location"):
        fields.append({"name": "Location", "value": str(Markup.escape(user["location"]))})
    return [{**field, "verified_at": None} for field in fields]


def account(site: str, user: UserProfile) -> dict:
    profile = site + url("profile", user["login"])
    token = user.get("avatar")
    avatar = absolute(site, avatar_url(user["id"], token, max(SIZES)) if token else static(AVATAR))
    return {
        "id": str(user["id"]),
        "username": user["login"],
        "acct": user["login"],
        "url": profile,
        "uri": profile,
        "display_name": user.get("name") or user["login"],
        "note": note_html(site, user.get("bio", "")),
        "avatar": avatar,
        "avatar_static": avatar,
        "header": "",
        "header_static": "",
        "locked": bool(user.get("private")),
        "fields": profile_fields(user),
        "emojis": emojis_in(site, user.get("name") or "", user.get("bio", "")),  # apiprefs
        "bot": False,
        "group": False,
        "discoverable": True,
        "noindex": False,
        "created_at": iso(user["signup"]),
        "last_status_at": None,
        "statuses_count": user["posts"],
        "followers_count": user["followers"],
        "following_count": user["following"],
    }


def accounts(site: str, uids: Iterable[int]) -> dict[int, dict]:
    """The Account entities of `uids` that exist, by uid (1 round trip)."""
    return {user["id"]: account(site, user) for user in get_users(sorted(set(uids)))}


def author_uids(statuses: list[Status]) -> list[int]:
    """The uids of the statuses' authors, their originals' and the quoted statuses'."""
    return [
        *(s["uid"] for s in statuses),
        *(original["uid"] for s in statuses if (original := s.get("original"))),
        *quotes.quoted_authors(statuses),
    ]


def message_html(site: str, message: str, mentions: str) -> str:
    """A message as Mastodon's HTML: a paragraph, line breaks kept, links linked as the
    pages link them, made absolute."""
    return linked_html(site, str(linkify(message, mentions)))


# What a Status entity shows of a status that never changes (its message, mentions,
# tags, links, the status it answers): pages of the API show the same statuses again
# and again, and this is most of an entity's cost. Counts and marks are read afresh.
@functools.lru_cache(maxsize=4096)
def fixed_fields(site: str, found: tuple, shows_content: bool) -> dict:
    status_id, posted, message, mentions, mention_ids, in_reply_to, in_reply_to_uid = found
    link = site + url("status", status_id)
    return {
        "id": str(status_id),
        "uri": link,
        "url": link,
        "created_at": iso(posted),
        "edited_at": None,
        "content": message_html(site, message, mentions) if shows_content else "",
        "text": None,
        "sensitive": False,
        "spoiler_text": "",
        "language": None,
        "media_attachments": [],
        "application": None,
        "mentions": [
            {"id": uid, "username": login, "acct": login, "url": site + url("profile", login)}
            for login, uid in zip(mentions.split(), mention_ids.split(), strict=False)
        ],
        "tags": [{"name": tag, "url": site + url("tag", tag)} for tag in tags(message)],
        "emojis": [],
        "in_reply_to_id": _str(in_reply_to),
        "in_reply_to_account_id": _str(in_reply_to_uid),
        "poll": None,
        "card": None,
        "muted": False,
        "bookmarked": False,
        "pinned": False,
        "filtered": [],
    }


def status(site: str, found: Status, people: dict[int, dict]) -> dict | None:
    """A Status entity, its account from `people` (Account entities by uid); None if its
    author's profile is gone. Its fixed part is kept (fixed_fields); the rest is read
    afresh: counts, the caller's marks (liked, reposted, bookmarked, pinned, their poll
    votes), visibility (going private later marks a status anew), the warning and sensitive
    flag, when it was last edited, its poll and quote."""
    author = people.get(found["uid"])
    if author is None:
        return None
    original = found.get("original")
    reblog = status(site, original, people) if original else None
    fixed = (
        found["id"],
        found["posted"],
        found["message"],
        found.get("mentions", ""),
        found.get("mention_ids", ""),
        found.get("in_reply_to"),
        found.get("in_reply_to_uid"),
    )
    entity = fixed_fields(site, fixed, reblog is None).copy()
    edited = found.get("edited")
    entity.update(
        account=author,
        reblog=reblog,
        edited_at=iso(edited) if edited else None,
        visibility=visibility_of(found),
        spoiler_text=found.get("spoiler_text", ""),
        sensitive=found.get("sensitive") == "1",
        reblogs_count=found.get("reposts", 0),
        favourites_count=found.get("likes", 0),
        replies_count=found.get("replies", 0),
        favourited=found.get("liked", False),
        reblogged=found.get("reposted", False),
        bookmarked=found.get("bookmarked", False),
        pinned=found.get("pinned", False),
        poll=poll_entity(found),
        # Cards: its first link's preview card (timeline.linkcards), None if none.
        card=card_entity(found),
        emojis=emojis_in(site, found["message"], found.get("spoiler_text", "")),  # apiprefs
    )
    # Media (timeline.media): its attachments, read with the page (api.media).
    entity.update(media.media_fields(site, found))
    entity.update(quotes.quote_fields(found, lambda quoted: status(site, quoted, people)))
    return entity


def statuses(site: str, found: list[Status]) -> list[dict]:
    """Status entities of a page of statuses (see statuses_and_accounts)."""
    return statuses_and_accounts(site, found, ())[0]


def statuses_and_accounts(
    site: str, found: list[Status], uids: Iterable[int]
) -> tuple[list[dict], dict[int, dict]]:
    """Status entities of `found` and the Account entities of `uids` and of the statuses'
    authors, all read in 1 round trip (and the statuses' attachments in 1 more, if any
    has media: api.media)."""
    people = accounts(site, [*uids, *author_uids(found)])
    media.read_attachments(found)
    shown = (status(site, s, people) for s in found)
    return [entity for entity in shown if entity is not None], people


def _str(value: object) -> str | None:
    return None if value in (None, "", 0) else str(value)


def relationship(
    other_uid: int,
    *,
    following: bool,
    followed_by: bool,
    relation: Relation,
    options: tuple[bool, bool] = (True, False),
) -> dict:
    """`options`: (showing reblogs, notifying) of the follow (follow_sets.options)."""
    showing_reblogs, notifying = options
    return {
        "id": str(other_uid),
        "following": following,
        "showing_reblogs": (following or relation.requested) and showing_reblogs,
        "notifying": (following or relation.requested) and notifying,
        "languages": None,
        "followed_by": followed_by,
        "blocking": relation.blocking,
        "blocked_by": relation.blocked_by,
        # A muted user doesn't notify either.
        "muting": relation.muting,
        "muting_notifications": relation.muting,
        "requested": relation.requested,
        "requested_by": relation.requested_by,
        "domain_blocking": False,
        "endorsed": False,
        "note": "",
    }


def tag(site: str, name: str, *, following: bool = False) -> dict:
    """A Tag entity; `following`: the caller follows it (timeline.keeps)."""
    return {
        "id": name,
        "name": name,
        "url": site + url("tag", name),
        "history": [],
        "following": following,
    }


def user_list(found: TimelineList) -> dict:
    return {
        "id": str(found["id"]),
        "title": found["name"],
        "replies_policy": "list",
        "exclusive": False,
    }


def application(app: ClientApp) -> dict:
    return {
        "name": app.application.name,
        "website": app.website or None,
        "scopes": app.scopes.split(),
        "redirect_uri": app.application.redirect_uris.replace(" ", "\n"),
        "redirect_uris": app.application.redirect_uris.split(),
        "vapid_key": vapid_key(),
    }


def vapid_key() -> str:
    """(Web Push, apipush) The site's VAPID public key, as apps subscribe with it."""
    return vapid_public_key()
