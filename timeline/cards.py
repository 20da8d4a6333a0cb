"""Status cards: the loop inside every timeline page. One Jinja2 template
(timeline/status_cards.html); as a Django template a card cost ~400 µs, most of a
page's time, as Jinja2 ~50 µs."""

from django.template import engines
from django.utils.safestring import SafeString, mark_safe


def status_cards(statuses: list[dict | None], viewer_uid: int | None) -> SafeString:
    """Statuses as cards (None, for a deleted one, as a note saying so); with buttons
    for a logged-in `viewer_uid`."""
    card = engines["jinja2"].get_template("timeline/status_cards.html")
    return mark_safe(card.render({"statuses": statuses, "viewer_uid": viewer_uid}))
