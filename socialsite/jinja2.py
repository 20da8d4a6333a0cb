"""The Jinja2 environment, for the templates in <app>/jinja2/ (status cards: see
timeline/templatetags/statuses.py for why those are Jinja2)."""

from jinja2 import Environment

from timeline import display


def environment(**options) -> Environment:
    env = Environment(**options)
    env.globals["url"] = display.url
    env.filters.update(
        status_text=display.status_text, posted_at=display.posted_at, ago=display.ago
    )
    return env
