"""Status cards: the loop inside every timeline page. One Jinja2 template
(timeline/_status_card.html); as a Django template a card cost ~400 µs, most of a
page's time, as Jinja2 ~50 µs. Cards rendered are kept, by everything they show: a
status reaches many timelines, and each of its readers' pages shows the same card,
in ~1.5 µs rather than ~50 (~60 for one posted days ago)."""

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.template import engines
from django.utils import timezone, translation
from django.utils.safestring import SafeString, mark_safe
from jinja2 import pass_context
from jinja2.runtime import Context

from socialsite.kept import keep
from timeline.statuses.records import Status

from .selectors import with_authors
from .visibility import EXPAND_WARNINGS_FIELD, MEDIA_DISPLAY_FIELD

# Up to settings.STATUS_CARDS_KEPT; emptied when full (simpler than LRU bookkeeping on
# every hit, and a page re-renders its 30 cards in ~1.5 ms).
_cards: dict[tuple, str] = {}


# A content warning's disclosure as the card draws it, and opened (for a reader who
# expands all warnings: their setting is applied outside the kept card).
WARNING_CLOSED = '<details class="status-warning">'
WARNING_OPEN = '<details class="status-warning" open>'

# Media (mediaweb): the grid as the card draws it, ordinary media open and sensitive media
# closed; the reader's media setting ("show_all": sensitive media open too; "hide_all":
# every grid closed) is applied outside the kept card, as the warnings are.
MEDIA_SHOWN = '<details class="status-media" open'
MEDIA_SENSITIVE = '<details class="status-media media-sensitive"'
MEDIA_HIDDEN = '<details class="status-media"'
SHOW_ALL_MEDIA, HIDE_ALL_MEDIA = "show_all", "hide_all"


@pass_context
def page_status_cards(context: Context, statuses: list[Status | None]) -> SafeString:
    """The pages' `status_cards(statuses)`: the cards as the page's viewer sees them
    (`viewer_uid`, from the context processor; their warnings open if they chose so)."""
    user = getattr(context.get("request"), "user", None)
    fields = getattr(user, "session_fields", None) or {}
    expand = fields.get(EXPAND_WARNINGS_FIELD) == "1"
    media = fields.get(MEDIA_DISPLAY_FIELD) or ""
    return status_cards(statuses, context.get("viewer_uid"), expand_warnings=expand, media=media)


def status_cards(
    statuses: list[Status | None],
    viewer_uid: int | None,
    *,
    expand_warnings: bool = False,
    media: str = "",
) -> SafeString:
    """Statuses as cards (None, for a deleted one, as a note saying so); with buttons
    for a logged-in `viewer_uid`. Each card shows its author's display name and avatar:
    no round trip for authors this process read lately, one for the others."""
    with_authors(statuses)
    # One clock for the keys and the "ago" texts, so a card can't be kept under one
    # minute of age with the text of the next.
    now = timezone.now()
    shared = (translation.get_language(), now.timestamp())
    html = []
    for status in statuses:
        key = _shows(status, viewer_uid, *shared)
        card = _cards.get(key)
        if card is None:
            template = engines["jinja2"].get_template("timeline/_status_card.html")
            card = template.render({"status": status, "viewer_uid": viewer_uid, "now": now})
            keep(_cards, key, card, settings.STATUS_CARDS_KEPT)
        if expand_warnings and WARNING_CLOSED in card:
            card = card.replace(WARNING_CLOSED, WARNING_OPEN)
        if media:
            card = with_media_setting(card, media)
        html.append(card)
    return mark_safe("".join(html))


def with_media_setting(card: str, media: str) -> str:
    """`card` as a reader with the media setting `media` sees it: "show_all" opens
    sensitive media, "hide_all" closes every grid; anything else leaves it as drawn."""
    if media == SHOW_ALL_MEDIA and MEDIA_SENSITIVE in card:
        return card.replace(MEDIA_SENSITIVE, MEDIA_SENSITIVE + " open")
    if media == HIDE_ALL_MEDIA and MEDIA_SHOWN in card:
        return card.replace(MEDIA_SHOWN, MEDIA_HIDDEN)
    return card


def kept_cards() -> int:
    """How many rendered cards this process keeps (at most settings.STATUS_CARDS_KEPT)."""
    return len(_cards)


def _shows(status: Status | None, viewer_uid: int | None, language: str, now: float) -> tuple:
    """Everything a card depends on: every field of the status and of its original,
    whether there is a viewer and whether it's their status, the language, and its age
    at `now` as precisely as the card's "3 days ago" can change: whole minutes in the
    first hour, whole hours after (days and weeks are whole hours, and in UTC so are
    months and years counted from the posting time). Working that text out costs ~12 µs,
    eight times finding a kept card."""
    if status is None:
        return (None,)
    original = status.get("original")
    shown = original or status
    minutes = (now - shown["posted"]) // 60
    fields: Mapping[str, Any] = status
    if original:
        fields = {name: value for name, value in status.items() if name != "original"}
    return (
        _fields(fields),
        _fields(original) if original else None,
        bool(viewer_uid),
        status["uid"] == viewer_uid,
        minutes if minutes < 60 else minutes // 60 * 60,
        language,
    )


def _fields(status: Mapping[str, Any]) -> tuple:
    """A status's fields as a key: its names and its values (two tuples cost ~0.3 µs less
    than a pair for each of a status's dozen fields)."""
    if "quoted" in status:
        # Quotes: the quoted status shown inside (a record: its own fields, as a key).
        status = {**status, "quoted": _fields(status["quoted"])}
    if "attachments" in status:
        # Media (mediaweb): the attachments read with the page (frozen records: their
        # own fields, as a key).
        status = {**status, "attachments": tuple(status["attachments"])}
    return tuple(status), tuple(status.values())


@receiver(setting_changed)
def _forget_cards(*, setting: str, **kwargs: object) -> None:
    if setting in ("ROOT_URLCONF", "FORCE_SCRIPT_NAME", "TEMPLATES", "STATUS_CARDS_KEPT"):
        _cards.clear()
