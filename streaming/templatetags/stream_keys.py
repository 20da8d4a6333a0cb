from django import template
from django.conf import settings

from streaming.forms import StreamKeyForm
from streaming.services import list_stream_keys

register = template.Library()


@register.inclusion_tag("streaming/_stream_keys.html", takes_context=True)
def stream_keys_panel(context) -> dict:
    """The logged-in user's stream keys, with the forms to create and revoke them."""
    return {
        "stream_keys": list_stream_keys(context["viewer_uid"]),
        "form": StreamKeyForm(),
        "streams_per_key": settings.STREAM_CONNECTIONS_PER_KEY,
        "csrf_token": context["csrf_token"],
        "request": context["request"],
    }
