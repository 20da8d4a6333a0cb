"""The tags that show status cards in Django templates, and `posted_at`."""

from django import template
from django.utils.safestring import SafeString

from timeline import cards, display

register = template.Library()
register.filter("posted_at", display.posted_at)


@register.simple_tag(takes_context=True)
def status_cards(context, statuses) -> SafeString:
    return cards.status_cards(statuses, context.get("viewer_uid"))


@register.simple_tag(takes_context=True)
def status_card(context, status) -> SafeString:
    return cards.status_cards([status], context.get("viewer_uid"))
