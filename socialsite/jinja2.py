"""The Jinja2 environment of the site's pages (jinja2/): the globals and filters they
use in place of Django's tags and filters; the form renderer that draws their fields
with Jinja2 too; and their CSRF context processor. Pages are Jinja2 for speed: the
chrome of a page (nav links, forms, includes) cost ~1 ms as Django templates. Only
the admin's pages (templates/admin/) are Django templates."""

from datetime import datetime

import jinja2
from django.forms.renderers import BaseRenderer, DjangoTemplates, Jinja2
from django.middleware.csrf import get_token
from django.template import TemplateDoesNotExist
from django.template.defaultfilters import pluralize, truncatechars
from django.templatetags.static import static
from django.urls import reverse
from django.utils import dateformat, timezone
from django.utils.functional import SimpleLazyObject, lazy
from django.utils.html import format_html
from django.utils.safestring import SafeString
from jinja2 import pass_context

from streaming.views import stream_keys_panel
from timeline import cards, display


def url(name: str, *args, **kwargs) -> str:
    """reverse(), but each URL without arguments or with one is reversed only once (see
    display.url): the nav links ten URLs a page, the status cards ~200."""
    if kwargs or len(args) > 1:
        return reverse(name, args=args, kwargs=kwargs)
    return display.url(name, args[0]) if args else display.plain_url(name)


@pass_context
def status_cards(context, statuses: list[dict | None]) -> SafeString:
    """The cards as the page's viewer sees them (`viewer_uid`, from the context processor)."""
    return cards.status_cards(statuses, context.get("viewer_uid"))


def date(moment: datetime, format_string: str) -> str:
    """Django's `date` filter: `moment` in the current time zone, as `format_string` says."""
    return dateformat.format(timezone.localtime(moment), format_string)


class Environment(jinja2.Environment):
    def getattr(self, obj, attribute):
        """`status.login` reads a dict's key first: Jinja2 tries the attribute first, and
        the AttributeError of every such miss was ~10% of rendering a status card. (No
        page calls a dict's methods, which a key of the same name would now hide.)"""
        if type(obj) is dict and attribute in obj:
            return obj[attribute]
        return super().getattr(obj, attribute)


def environment(**options) -> Environment:
    env = Environment(**options)
    env.globals.update(
        url=url, static=static, status_cards=status_cards, stream_keys_panel=stream_keys_panel
    )
    env.filters.update(
        status_text=display.status_text,
        posted_at=display.posted_at,
        ago=display.ago,
        date=date,
        pluralize=pluralize,
        truncatechars=truncatechars,
    )
    return env


class FormRenderer(BaseRenderer):
    """Form fields from Django's Jinja2 widget templates: the post box's two fields take
    74 µs, against 194 from its Django templates. The admin's own widgets (related-object
    links and the like) exist only as Django templates: for those it falls back."""

    def __init__(self) -> None:
        self.jinja2, self.django = Jinja2(), DjangoTemplates()

    def get_template(self, template_name: str):
        try:
            return self.jinja2.get_template(template_name)
        except TemplateDoesNotExist:
            return self.django.get_template(template_name)


def csrf(request) -> dict:
    """A context processor for the pages: the CSRF token masked once a page. Django's
    Jinja2 backend masks it anew at each use (~33 µs; a page has up to three forms).
    Once a response is what defeats BREACH, and what Django's own templates do."""
    token = SimpleLazyObject(lambda: get_token(request))
    return {"csrf_token": token, "csrf_input": _csrf_input(token)}


_csrf_input = lazy(
    lambda token: format_html('<input type="hidden" name="csrfmiddlewaretoken" value="{}">', token),
    SafeString,
)
