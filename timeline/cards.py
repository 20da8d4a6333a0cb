"""Status cards: the loop inside every timeline page. One Jinja2 template
(timeline/status_cards.html); as a Django template a card cost ~400 µs, most of a
page's time, as Jinja2 ~50 µs. Cards rendered are kept, by everything they show: a
status reaches many timelines, and each of its readers' pages shows the same card,
in ~1.5 µs rather than ~50 (~60 for one posted days ago)."""

from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.template import engines
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe

# Up to settings.STATUS_CARDS_KEPT; emptied when full (simpler than LRU bookkeeping on
# every hit, and a page re-renders its 30 cards in ~1.5 ms).
_cards: dict[tuple, str] = {}


def status_cards(statuses: list[dict | None], viewer_uid: int | None) -> SafeString:
    """Statuses as cards (None, for a deleted one, as a note saying so); with buttons
    for a logged-in `viewer_uid`."""
    template = engines["jinja2"].get_template("timeline/status_cards.html")
    now = timezone.now().timestamp()
    html = []
    for status in statuses:
        key = _shows(status, viewer_uid, now)
        card = _cards.get(key)
        if card is None:
            card = template.render({"statuses": [status], "viewer_uid": viewer_uid})
            if len(_cards) >= settings.STATUS_CARDS_KEPT:
                _cards.clear()
            if settings.STATUS_CARDS_KEPT:
                _cards[key] = card
        html.append(card)
    return mark_safe("".join(html))


def _shows(status: dict | None, viewer_uid: int | None, now: float) -> tuple:
    """Everything a card depends on: every field of the status and of its original,
    whether there is a viewer and whether it's their status, and its age in whole
    minutes at `now`, which decides how long ago the card says it was posted ("3 days
    ago"). Working out that text costs ~12 µs, eight times finding a kept card; a month
    or year boundary inside a minute of age can leave it a unit behind for that minute."""
    if status is None:
        return (None,)
    original = status.get("original")
    shown = original or status
    return (
        tuple(item for item in status.items() if item[0] != "original"),
        tuple(original.items()) if original else None,
        viewer_uid is not None,
        status["uid"] == viewer_uid,
        (now - shown["posted"]) // 60,
    )


@receiver(setting_changed)
def _forget_cards(*, setting: str, **kwargs) -> None:
    if setting in ("ROOT_URLCONF", "FORCE_SCRIPT_NAME", "TEMPLATES", "STATUS_CARDS_KEPT"):
        _cards.clear()
