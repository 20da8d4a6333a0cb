"""The admin's Redis pages: what they share (rendering in the admin's frame, the
confirmation step, the admin log), and the dashboard. Each app's own pages are in its
admin_views.py, thin views over its services (parse, call, render). Actions ask for
confirmation on GET, act on POST, and are recorded in the admin log."""

from collections.abc import Callable
from datetime import UTC, datetime
from functools import wraps

from django.contrib import admin
from django.contrib.admin.models import LogEntry
from django.http import Http404, HttpRequest, HttpResponse
from django.template.response import TemplateResponse

from . import dashboard as figures

CHART_BAR_WIDTH = 24
CHART_HEIGHT = 120


def render(
    request: HttpRequest, template: str, title: str, crumbs=(), status: int = 200, **context
) -> HttpResponse:
    return TemplateResponse(
        request,
        f"admin/redis/{template}",
        {**admin.site.each_context(request), "title": title, "crumbs": crumbs, **context},
        status=status,
    )


def not_found_in_admin(view: Callable) -> Callable:
    """A Redis page's 404 (an unknown user or status) is an admin page, in the admin's
    frame, not the public site's."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except Http404 as error:
            message = error.args[0] if error.args and isinstance(error.args[0], str) else ""
            return render(
                request,
                "not_found.html",
                "Not found",
                crumbs=[("Not found", None)],
                status=404,
                message=message or "There is nothing at this address.",
            )

    return wrapped


def log_action(request: HttpRequest, flag: int, object_id: str, label: str, message: str) -> None:
    # Only staff reach the admin's views, so a user is logged in.
    assert request.user.pk is not None
    # No content type: Redis objects aren't models, so the log shows them unlinked.
    LogEntry.objects.create(
        user_id=request.user.pk,
        content_type=None,
        object_id=object_id,
        object_repr=label[:200],
        action_flag=flag,
        change_message=message,
    )


def int_param(request: HttpRequest, name: str, default: int) -> int:
    value = request.GET.get(name, "").strip()
    if not value:
        return default
    if not value.isdigit():
        raise ValueError(f"{name.capitalize()} must be a whole number, not {value[:30]!r}.")
    return int(value)


def confirm(request: HttpRequest, title: str, crumbs, question: str, details, back: str):
    return render(
        request,
        "confirm.html",
        title,
        crumbs=crumbs,
        question=question,
        details=details,
        back=back,
    )


def dashboard(request: HttpRequest) -> HttpResponse:
    stats = figures.figures()
    trending = [
        ("Top #tags, last hour", stats["tags"], "#"),
        ("Top @mentions, last hour", stats["mentions"], "@"),
    ]
    return render(
        request,
        "dashboard.html",
        "Redis dashboard",
        stats=stats,
        chart=_chart(stats),
        trending=trending,
    )


def _chart(stats: dict) -> dict:
    """Bar geometry for the posts-per-hour SVG."""
    peak = max((count for _, count in stats["posts_per_hour"]), default=0)
    bars = []
    for i, (hour, count) in enumerate(stats["posts_per_hour"]):
        height = round(CHART_HEIGHT * count / peak) if peak else 0
        bars.append(
            {
                "x": i * CHART_BAR_WIDTH,
                "y": CHART_HEIGHT - height,
                "height": height,
                "count": count,
                "hour": datetime.fromtimestamp(hour, UTC),
                "labelled": i % 3 == 0,
            }
        )
    return {
        "bars": bars,
        "peak": peak,
        "bar_width": CHART_BAR_WIDTH - 4,
        "width": CHART_BAR_WIDTH * len(bars),
        "height": CHART_HEIGHT,
        "label_y": CHART_HEIGHT + 16,
        "svg_height": CHART_HEIGHT + 22,
    }
