"""The Jinja2 environment of the site's pages (jinja2/): the globals and filters they
use in place of Django's tags and filters (this module's, and the apps' named in
settings.TEMPLATES' "globals" and "filters" options, so this module needn't import
the apps); the form renderer that draws their fields with Jinja2 too; and their CSRF
context processor. Pages are Jinja2 for speed: the
chrome of a page (nav links, forms, includes) cost ~1 ms as Django templates. Only
the admin's pages (templates/admin/) are Django templates."""

from datetime import datetime
from functools import lru_cache

import jinja2
from django.forms.renderers import BaseRenderer, DjangoTemplates, Jinja2
from django.template import TemplateDoesNotExist
from django.template.defaultfilters import pluralize, truncatechars
from django.templatetags.static import static
from django.urls import reverse
from django.utils import dateformat, timezone
from django.utils.functional import SimpleLazyObject
from django.utils.html import format_html
from django.utils.module_loading import import_string

from . import fragments, links
from .csrf import get_token
from .icons import icon


def url(name: str, *args, **kwargs) -> str:
    """reverse(), but each URL without arguments or with one is reversed only once (see
    socialsite.links): the nav links ten URLs a page, the status cards ~200."""
    if kwargs or len(args) > 1:
        return reverse(name, args=args, kwargs=kwargs)
    return links.url(name, args[0]) if args else links.plain_url(name)


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


@lru_cache(maxsize=256)
def kept_static(path: str) -> str:
    """Django's static(), once per path: ~25 µs a call, six calls a page."""
    return static(path)


def environment(*, globals: dict | None = None, filters: dict | None = None, **options):
    """The environment, with the apps' `globals` and `filters` ({name: dotted path})."""
    env = Environment(**options)
    env.globals.update(url=url, static=kept_static, kept=fragments.kept, icon=icon)
    env.globals.update({name: import_string(path) for name, path in (globals or {}).items()})
    env.filters.update(date=date, pluralize=pluralize, truncatechars=truncatechars)
    env.filters.update(only=fragments.only)
    env.filters.update({name: import_string(path) for name, path in (filters or {}).items()})
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
    """A context processor for the pages: the CSRF token masked once a page (see
    socialsite.csrf). Django's Jinja2 backend masks it anew at each use (~33 µs; a page
    has up to three forms).
    Once a response is what defeats BREACH, and what Django's own templates do."""
    token = SimpleLazyObject(lambda: get_token(request))
    return {"csrf_token": token, "csrf_input": CsrfInput(token)}


class CsrfInput:
    """The hidden CSRF field of a page's forms, made at its first use and kept: a lazy()
    string is made again at each use (~60 µs: format_html escaping the lazy token), and a
    profile page has eight forms. Unused, it sets no CSRF cookie."""

    def __init__(self, token) -> None:
        self.token = token
        self.html: str | None = None

    def __html__(self) -> str:
        if self.html is None:
            self.html = format_html(
                '<input type="hidden" name="csrfmiddlewaretoken" value="{}">', str(self.token)
            )
        return self.html

    __str__ = __html__
