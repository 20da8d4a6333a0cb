"""Accounts: yourself, others by id or login, their statuses, followers and following,
following them, and how you relate to them."""

from collections.abc import Callable

from accounts import avatars, profiles
from accounts.records import UserProfile
from accounts.services import check_name, get_user, get_user_by_login, update_name
from socialsite import offslot
from timeline.audience.selectors import relations
from timeline.graph import selectors as graph
from timeline.graph import services as follows
from timeline.keeps import selectors as keeps
from timeline.posting import preferences
from timeline.safety import services as safety
from timeline.statuses.visibility import VISIBILITIES

from .. import entities
from ..http import (
    ApiError,
    ApiRequest,
    ApiResult,
    caller_uid,
    endpoint,
    id_param,
    limit_rate,
    params,
    uploaded,
    viewer,
)
from . import account_statuses, follow_options
from .people import people_page
from .status_pages import statuses_page


def profile(uid: int | str) -> UserProfile:
    user = get_user(id_param(uid))
    if user is None or user["suspended"]:
        raise ApiError(404, "Record not found")
    return user


@endpoint("GET", scope="read")
def verify_credentials(request: ApiRequest) -> dict:
    return own_account(request)


def own_account(request: ApiRequest) -> dict:
    """The caller's Account entity with its `source` (what they wrote)."""
    user = profile(caller_uid(request))
    found = entities.account(entities.site_of(request), user)
    source = {
        # Posts' default visibility (vis): their setting, else as the account is.
        "privacy": preferences.default_visibility_of(user["id"]),
        "sensitive": False,
        "language": "",
        "note": user.get("bio", ""),
        "fields": [
            {"name": name.title(), "value": user[name], "verified_at": None}
            for name in ("website", "location")
            if user.get(name)
        ],
    }
    return {**found, "source": source}


# Mastodon's booleans as forms and JSON send them.
BOOLEANS = {"1": True, "true": True, "True": True, "0": False, "false": False, "False": False}


def boolean(found: dict, name: str) -> bool | None:
    value = found.get(name)
    if value in (None, ""):
        return None
    if isinstance(value, bool):
        return value
    if str(value) not in BOOLEANS:
        raise ApiError(422, f"{name} must be true or false.")
    return BOOLEANS[str(value)]


@endpoint("PATCH", scope="write")
def update_credentials(request: ApiRequest) -> dict:
    """display_name, note (the bio), locked (private) and avatar, each through the
    settings page's services; everything is checked before anything changes."""
    found, uid = params(request), caller_uid(request)
    user = profile(uid)
    name = found.get("display_name")
    name = check_name(str(name)) if name is not None else None
    note = found.get("note")
    if note is not None:
        profiles.check_profile(
            bio=str(note), website=user.get("website", ""), location=user.get("location", "")
        )
    locked = boolean(found, "locked")
    source = found.get("source")
    privacy = source.get("privacy") if isinstance(source, dict) else found.get("source[privacy]")
    if privacy not in (None, "") and privacy not in VISIBILITIES:
        raise ApiError(422, f"source[privacy] is one of {', '.join(VISIBILITIES)}.")
    avatar = uploaded(request, "avatar")
    # The settings page's limits, all asked before anything changes.
    if name is not None or note is not None:
        limit_rate(request, "profile_changes")
    if avatar is not None:
        limit_rate(request, "avatar_changes")
    if locked is not None:
        limit_rate(request, "safety")
    if privacy:
        limit_rate(request, "settings_changes")
    if avatar is not None:
        # One byte past the limit is enough for the avatar's check to refuse it.
        try:
            profiles.set_avatar(uid, avatar.read(avatars.AVATAR_MAX_BYTES + 1))
        except offslot.Busy as busy:
            raise ApiError(503, str(busy), busy.retry_after) from None
    if name is not None:
        update_name(uid, name)
    if note is not None:
        profiles.update_profile(
            uid, bio=str(note), website=user.get("website", ""), location=user.get("location", "")
        )
    if locked is not None:
        safety.set_private(uid, locked)
    if privacy:
        preferences.set_default_visibility(uid, str(privacy))
    return own_account(request)


@endpoint("GET", public=True, user=False)
def lookup(request: ApiRequest) -> dict:
    acct = str(params(request).get("acct") or "").removeprefix("@")
    login, _, domain = acct.partition("@")
    user = get_user_by_login(login) if login and domain in ("", request.get_host()) else None
    if user is None or user["suspended"]:
        raise ApiError(404, "Record not found")
    return entities.account(entities.site_of(request), user)


@endpoint("GET", public=True, user=False)
def account(request: ApiRequest, account_id: str) -> dict:
    return entities.account(entities.site_of(request), profile(account_id))


@endpoint("GET", public=True, user=False)
def statuses(request: ApiRequest, account_id: str) -> ApiResult:
    uid = profile(account_id)["id"]
    found = params(request)
    if str(found.get("pinned")).lower() in {"true", "1"}:
        # Keep: the account's pinned statuses, the latest pinned first (timeline.keeps).
        pinned = keeps.pinned_statuses_of(uid, viewer(request))
        return entities.statuses(entities.site_of(request), pinned)
    # exclude_replies, exclude_reblogs, only_media, tagged (apiprefs).
    passes = account_statuses.account_filter(found, uid)
    if passes is not None:
        return account_statuses.filtered_statuses(request, uid, found, passes)
    return statuses_page(request, "profile", uid)


@endpoint("GET", public=True, user=False)
def followers(request: ApiRequest, account_id: str) -> ApiResult:
    """As the followers page shows them to the caller (graph.selectors.followers_page)."""
    uid, reader = profile(account_id)["id"], viewer(request)
    return people_page(
        request, lambda number, count: graph.followers_page(uid, number, count, reader)
    )


@endpoint("GET", public=True, user=False)
def following(request: ApiRequest, account_id: str) -> ApiResult:
    """As the following page shows them to the caller (graph.selectors.following_page)."""
    uid, reader = profile(account_id)["id"], viewer(request)
    return people_page(
        request, lambda number, count: graph.following_page(uid, number, count, reader)
    )


def relationships_of(uid: int, others: list[int]) -> list[dict]:
    """Relationship entities of `uid` with each of `others`: 3 round trips."""
    follows_both_ways = graph.relationships(uid, others)
    # Follow options (apinotif): showing_reblogs, notifying.
    options = follow_options.options_of(uid, others)
    return [
        entities.relationship(other, following=a, followed_by=b, relation=relation, options=option)
        for other, (a, b), relation, option in zip(
            others, follows_both_ways, relations(uid, others), options, strict=True
        )
    ]


def relationship(uid: int, other: int) -> dict:
    return relationships_of(uid, [other])[0]


def act(
    request: ApiRequest, account_id: str, action: Callable[[int, int], object], limit: str
) -> dict:
    """Runs `action(caller, other)` on the account `account_id` names, counted against
    the pages' account limit `limit` ("follows", "safety"): the Relationship after it."""
    other = profile(account_id)["id"]
    limit_rate(request, limit)
    action(caller_uid(request), other)
    return relationship(caller_uid(request), other)


@endpoint("POST", scope="follow")
def follow(request: ApiRequest, account_id: str) -> dict:
    """Follows (or asks to), with Mastodon's options `reblogs` and `notify` (apinotif),
    which change an existing follow's too."""
    options = follow_options.checked_options(params(request))

    def follow_with_options(uid: int, other: int) -> None:
        follows.follow_user(uid, other)
        follow_options.set_options(uid, other, options)

    return act(request, account_id, follow_with_options, "follows")


@endpoint("POST", scope="follow")
def unfollow(request: ApiRequest, account_id: str) -> dict:
    return act(request, account_id, follows.unfollow_user, "follows")


# Accounts one relationships call may ask about.
RELATIONSHIPS_MAX = 40


@endpoint("GET", scope="read:follows")
def relationships(request: ApiRequest) -> list:
    found = params(request)
    asked = found.get("id[]") or found.get("id") or []
    asked = [asked] if isinstance(asked, str | int) else list(asked)
    if len(asked) > RELATIONSHIPS_MAX:
        raise ApiError(422, f"Ask about at most {RELATIONSHIPS_MAX} accounts at once.")
    others = list(dict.fromkeys(id_param(other) for other in asked))
    return relationships_of(caller_uid(request), others)
