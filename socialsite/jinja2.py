"""The Jinja2 environment of the site's pages (jinja2/): the globals and filters they
use in place of Django's tags and filters; and the form renderer that draws their
fields with Jinja2 too. Pages are Jinja2 for speed: the chrome of a page (nav links,
forms, includes) cost ~1 ms as Django templates. Only the admin's pages
(templates/admin/) are Django templates."""

from datetime import datetime

from django.forms.renderers import BaseRenderer, DjangoTemplates, Jinja2
from django.template import TemplateDoesNotExist
from django.template.defaultfilters import pluralize, truncatechars
from django.templatetags.static import static
from django.urls import reverse
from django.utils import dateformat, timezone
from django.utils.safestring import SafeString
from jinja2 import Environment, pass_context

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
