"""A user's client preferences: markers (where they stopped reading) and preferences
(their defaults), as Mastodon's API has them."""

from accounts import emojis, markers
from timeline.posting import preferences as posting

from .. import entities
from ..emoji_entities import emoji_entity
from ..http import (
    ApiError,
    ApiRequest,
    caller_uid,
    check_caller,
    endpoint,
    form_pairs,
    limit_rate,
    params,
)


def marker_entity(found: dict) -> dict:
    return {
        "last_read_id": found["last_read_id"],
        "version": found["version"],
        "updated_at": entities.iso(found["updated_at"]),
    }


@endpoint("GET", "POST", scope="read")
def markers_view(request: ApiRequest) -> dict:
    """GET: the caller's markers of `timeline[]` (both if none named); POST (needs
    `write`): saves `home[last_read_id]` and/or `notifications[last_read_id]`."""
    uid = caller_uid(request)
    if request.method == "GET":
        named = params(request).get("timeline[]") or params(request).get("timeline")
        timelines = [named] if isinstance(named, str) else list(named or markers.TIMELINES)
        found = markers.get_markers(uid, timelines)
        return {name: marker_entity(marker) for name, marker in found.items()}
    check_caller(request, "write", user=True, public=False)
    limit_rate(request, "markers")
    positions = marker_positions(request)
    saved = markers.save_markers(uid, positions)
    return {name: marker_entity(marker) for name, marker in saved.items()}


def marker_positions(request: ApiRequest) -> dict[str, object]:
    """timeline -> last read id, from JSON ({"home": {"last_read_id": ...}}) or a form
    (home[last_read_id]=...)."""
    found = params(request)
    positions: dict[str, object] = {}
    for name in markers.TIMELINES:
        given = found.get(name)
        if isinstance(given, dict):
            positions[name] = given.get("last_read_id")
    for name, value in form_pairs(request):
        for timeline in markers.TIMELINES:
            if name == f"{timeline}[last_read_id]":
                positions[timeline] = value
    if not positions:
        raise ApiError(422, "Give home[last_read_id] or notifications[last_read_id].")
    return positions


@endpoint("GET", scope="read")
def preferences(request: ApiRequest) -> dict:
    """The caller's defaults, as the site keeps them: posts' visibility (their setting,
    else as their account is) and whether warnings open by themselves (the settings
    page's *Posting*); the site has no default sensitive flag, language or media switch,
    so those are Mastodon's defaults."""
    uid = caller_uid(request)
    visibility, expand_warnings = posting.posting_defaults_of(uid)
    return {
        "posting:default:visibility": visibility,
        "posting:default:sensitive": False,
        "posting:default:language": None,
        "posting:default:quote_policy": "public",
        "reading:expand:media": "default",
        "reading:expand:spoilers": expand_warnings,
        "reading:autoplay:gifs": False,
    }


@endpoint("GET", public=True, user=False)
def custom_emojis(request: ApiRequest) -> list[dict]:
    """The site's custom emojis (no token needed), by shortcode."""
    site = entities.site_of(request)
    found = emojis.all_emojis()
    return [emoji_entity(site, found[code]) for code in sorted(found)]
