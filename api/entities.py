"""Mastodon's JSON entities (Account, Status, Relationship, List, Notification,
Conversation, Application, Instance) from the site's records: ids as strings, times in
ISO 8601, HTML content made by the pages' own linkify."""

from datetime import UTC, datetime

from django.templatetags.static import static
from django.urls import reverse
from markupsafe import Markup

from accounts.services import get_users
from timeline.display import status_text
from timeline.text import tags

VERSION = "4.3.0 (compatible; socialsite 1.0)"
# Everyone's picture: the site has no avatars of its own.
AVATAR = "img/avatar.png"


def site_of(request) -> str:
    """The site's address as a request reached it, which entities' URLs start with."""
    return request.build_absolute_uri("/").rstrip("/")


def iso(seconds: float) -> str:
    moment = datetime.fromtimestamp(float(seconds), tz=UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def account(site: str, user: dict) -> dict:
    url = site + reverse("profile", args=[user["login"]])
    avatar = site + static(AVATAR)
    return {
        "id": str(user["id"]),
        "username": user["login"],
        "acct": user["login"],
        "url": url,
        "uri": url,
        "display_name": user.get("name") or user["login"],
        "note": "",
        "avatar": avatar,
        "avatar_static": avatar,
        "header": "",
        "header_static": "",
        "locked": False,
        "fields": [],
        "emojis": [],
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


def authors(statuses: list[dict]) -> dict[int, dict]:
    """The profiles of the statuses' authors and their originals' (1 round trip)."""
    uids = {s["uid"] for s in statuses} | {
        s["original"]["uid"] for s in statuses if s.get("original")
    }
    return {user["id"]: user for user in get_users(sorted(uids))}


def content(status: dict) -> str:
    """The message as Mastodon's HTML: a paragraph, line breaks kept, links linked."""
    html = str(status_text(status)).replace("\n", "<br>")
    return str(Markup("<p>{}</p>").format(Markup(html)))


def status(site: str, found: dict, people: dict[int, dict]) -> dict | None:
    """A Status entity; None if its author's profile is gone."""
    author = people.get(found["uid"])
    if author is None:
        return None
    original = found.get("original")
    reblog = status(site, original, people) if original else None
    url = site + reverse("status", args=[found["id"]])
    mention_logins = found.get("mentions", "").split()
    mention_ids = found.get("mention_ids", "").split()
    return {
        "id": str(found["id"]),
        "uri": url,
        "url": url,
        "created_at": iso(found["posted"]),
        "edited_at": None,
        "account": account(site, author),
        "content": "" if reblog else content(found),
        "text": None,
        "visibility": "public",
        "sensitive": False,
        "spoiler_text": "",
        "language": None,
        "media_attachments": [],
        "application": None,
        "mentions": [
            {
                "id": uid,
                "username": login,
                "acct": login,
                "url": site + reverse("profile", args=[login]),
            }
            for login, uid in zip(mention_logins, mention_ids, strict=False)
        ],
        "tags": [
            {"name": tag, "url": site + reverse("tag", args=[tag])}
            for tag in tags(found["message"])
        ],
        "emojis": [],
        "reblogs_count": found.get("reposts", 0),
        "favourites_count": found.get("likes", 0),
        "replies_count": found.get("replies", 0),
        "in_reply_to_id": _str(found.get("in_reply_to")),
        "in_reply_to_account_id": _str(found.get("in_reply_to_uid")),
        "reblog": reblog,
        "poll": None,
        "card": None,
        "favourited": found.get("liked", False),
        "reblogged": found.get("reposted", False),
        "muted": False,
        "bookmarked": False,
        "pinned": False,
        "filtered": [],
    }


def statuses(site: str, found: list[dict]) -> list[dict]:
    """Status entities of a page of statuses, their authors read in 1 round trip."""
    people = authors(found)
    shown = (status(site, s, people) for s in found)
    return [entity for entity in shown if entity is not None]


def _str(value) -> str | None:
    return None if value in (None, "", 0) else str(value)


def relationship(other_uid: int, *, following: bool, followed_by: bool) -> dict:
    return {
        "id": str(other_uid),
        "following": following,
        "showing_reblogs": following,
        "notifying": False,
        "languages": None,
        "followed_by": followed_by,
        "blocking": False,
        "blocked_by": False,
        "muting": False,
        "muting_notifications": False,
        "requested": False,
        "requested_by": False,
        "domain_blocking": False,
        "endorsed": False,
        "note": "",
    }


def user_list(found: dict) -> dict:
    return {
        "id": str(found["id"]),
        "title": found["name"],
        "replies_policy": "list",
        "exclusive": False,
    }


def application(app) -> dict:
    return {
        "name": app.application.name,
        "website": app.website or None,
        "scopes": app.scopes.split(),
        "redirect_uri": app.application.redirect_uris.replace(" ", "\n"),
        "redirect_uris": app.application.redirect_uris.split(),
        "vapid_key": "",
    }
