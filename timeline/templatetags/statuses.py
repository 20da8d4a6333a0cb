"""`posted_at` for the admin's Django templates (the site's pages are Jinja2)."""

from django import template

from timeline.statuses import display

register = template.Library()
register.filter("posted_at", display.posted_at)
