"""A status's visibility and content warning, as its record carries them (the rule that
decides who sees what is timeline.audience's `may_see`; this says what a status is).

Visibility, as Mastodon names it: "public" (everywhere), "unlisted" (its author's profile
and followers' homes; never the global timeline, tag pages, search, the public streams
or trends), "private" (followers only; never reposted) and "direct" (only the people it
mentions; it goes into the direct-message conversation with them). The record carries
`visibility` for the three narrower ones and nothing for a public status; the hash keeps
it in one letter under VISIBILITY_FIELD (statuses.layout), so a public status pays
nothing and another three bytes. A followers-only or direct status also carries the
"private" mark a private account's statuses carry, so every path that keeps private
statuses off public places keeps these off too. A private account's statuses are all
seen by its followers alone, whatever visibility they were posted with.

A content warning (`spoiler_text`) hides the message behind "Show more"; `sensitive`
("1") marks a status whose media are hidden until shown (a warning implies it)."""

from collections.abc import Mapping
from typing import Any

from django.conf import settings

from socialsite.text import check_display_text

PUBLIC, UNLISTED, PRIVATE, DIRECT = "public", "unlisted", "private", "direct"
VISIBILITIES = (PUBLIC, UNLISTED, PRIVATE, DIRECT)
# What the composer and settings show for each.
LABELS = {
    PUBLIC: "Public",
    UNLISTED: "Unlisted (not on public timelines, tags or search)",
    PRIVATE: "Followers only",
    DIRECT: "Mentioned people only",
}
# Those that carry the "private" mark: seen by followers (or the mentioned) alone.
LIMITED = frozenset({PRIVATE, DIRECT})

# The hash's field and its one-letter values (statuses.layout translates both ways).
VISIBILITY_FIELD = "v"
CODES = {UNLISTED: "u", PRIVATE: "p", DIRECT: "d"}
NAMES = {code: name for name, code in CODES.items()}

SPOILER_FIELD, SENSITIVE_FIELD = "spoiler_text", "sensitive"
# The user settings (their profile hash): the visibility a post has unless they pick
# another, and whether cards show warned content open.
DEFAULT_VISIBILITY_FIELD = "default_visibility"
EXPAND_WARNINGS_FIELD = "expand_warnings"
# Media (mediaweb): how cards show media: "show_all" (sensitive media too), "hide_all"
# (every grid closed until opened); absent: sensitive media hidden, the rest shown.
MEDIA_DISPLAY_FIELD = "media_display"
MEDIA_DISPLAY_CHOICES = {
    "default": "Hide media marked sensitive",
    "show_all": "Always show media, even when marked sensitive",
    "hide_all": "Always hide media",
}


def visibility_of(status: Mapping[str, Any]) -> str:
    """`status`'s visibility as it is seen now: the one it was posted with, narrowed to
    "private" for a private account's (or a private group's) status."""
    chosen = status.get("visibility")
    if chosen in LIMITED:
        return str(chosen)
    if str(status.get("private")) == "1":
        return PRIVATE
    return str(chosen) if chosen == UNLISTED else PUBLIC


def is_unlisted(status: Mapping[str, Any]) -> bool:
    """Whether `status` was posted unlisted (kept off every public path)."""
    return status.get("visibility") == UNLISTED


def is_direct(status: Mapping[str, Any]) -> bool:
    """Whether `status` is for the people it mentions alone."""
    return status.get("visibility") == DIRECT


def is_listed(status: Mapping[str, Any]) -> bool:
    """Whether `status` may go on public paths (global, tags, search, public streams,
    trends): public, and not a private account's or group's."""
    return visibility_of(status) == PUBLIC


def check_visibility(value: object) -> str:
    """`value` as a visibility; ValueError for anything else."""
    if value not in VISIBILITIES:
        raise ValueError(f"A status's visibility is one of {', '.join(VISIBILITIES)}.")
    return str(value)


def default_visibility(stored: object, *, private_account: bool) -> str:
    """The visibility a user's posts get unless they pick one: their setting (`stored`,
    DEFAULT_VISIBILITY_FIELD), else followers-only for a private account, else public."""
    if stored in VISIBILITIES:
        return str(stored)
    return PRIVATE if private_account else PUBLIC


def narrowest(*visibilities: str) -> str:
    """The narrowest of `visibilities` (public, unlisted, private, direct, in that order):
    a reply starts at its parent's when that is narrower than the replier's default."""
    return max(visibilities, key=VISIBILITIES.index)


def check_spoiler(value: object, message: str) -> str:
    """A content warning, stripped ("" for none); ValueError if it is not text, holds
    control characters, or makes the status (message and warning) longer than
    STATUS_MAX_LENGTH, as Mastodon counts them."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ValueError("A content warning is text.")
    value = value.strip()
    if not value:
        return ""
    most = settings.STATUS_MAX_LENGTH
    if len(value) + len(message) > most:
        raise ValueError(
            f"A status and its content warning are at most {most} characters together."
        )
    return check_display_text(value, multiline=False)


def warning_fields(data: dict[str, Any], message: str) -> dict[str, str]:
    """The record's fields for the warning and sensitive flag in a post's `data`
    (`spoiler_text`, `sensitive`: "1", "true" or True), none for neither."""
    spoiler = check_spoiler(data.get(SPOILER_FIELD), message)
    sensitive = str(data.get(SENSITIVE_FIELD) or "").lower() in ("1", "true", "on")
    fields = {SPOILER_FIELD: spoiler} if spoiler else {}
    if sensitive or spoiler:
        fields[SENSITIVE_FIELD] = "1"
    return fields


def stored_visibility(fields: dict[str, Any]) -> None:
    """Turns a record's `visibility` into the hash's field (in place)."""
    name = fields.pop("visibility", None)
    code = CODES.get(str(name)) if name else None
    if code:
        fields[VISIBILITY_FIELD] = code


def read_visibility(fields: dict[str, Any]) -> None:
    """Turns the hash's visibility field into the record's `visibility` (in place)."""
    code = fields.pop(VISIBILITY_FIELD, None)
    if code:
        fields["visibility"] = NAMES.get(code, PRIVATE)
