"""The admin's Redis pages: thin views over the services (parse, call, render).
Actions ask for confirmation on GET, act on POST, and are recorded in the admin log."""

from datetime import UTC, datetime

from django.contrib import admin, messages
from django.contrib.admin.models import CHANGE, DELETION, LogEntry
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse

from accounts import services as accounts
from accounts.auth import current_uid
from streaming import services as streaming
from timeline import maintenance, moderation
from timeline import services as timeline

PAGE_SIZE = 50
CHART_BAR_WIDTH = 24
CHART_HEIGHT = 120


def _render(
    request: HttpRequest, template: str, title: str, crumbs=(), status: int = 200, **context
) -> HttpResponse:
    return TemplateResponse(
        request,
        f"admin/redis/{template}",
        {**admin.site.each_context(request), "title": title, "crumbs": crumbs, **context},
        status=status,
    )


def _log(request: HttpRequest, flag: int, object_id: str, label: str, message: str) -> None:
    # No content type: Redis objects aren't models, so the log shows them unlinked.
    LogEntry.objects.create(
        user_id=request.user.pk,
        content_type=None,
        object_id=object_id,
        object_repr=label[:200],
        action_flag=flag,
        change_message=message,
    )


def _int_param(request: HttpRequest, name: str, default: int) -> int:
    value = request.GET.get(name, "").strip()
    if not value:
        return default
    if not value.isdigit():
        raise ValueError(f"{name.capitalize()} must be a whole number, not {value[:30]!r}.")
    return int(value)


def _profile_or_404(uid: int) -> dict:
    profile = accounts.get_user(uid)
    if profile is None:
        raise Http404("No such user.")
    return profile


def _confirm(request: HttpRequest, title: str, crumbs, question: str, details, back: str):
    return _render(
        request,
        "confirm.html",
        title,
        crumbs=crumbs,
        question=question,
        details=details,
        back=back,
    )


def dashboard(request: HttpRequest) -> HttpResponse:
    stats = maintenance.dashboard_stats()
    trending = [
        ("Top #tags, last hour", stats["tags"], "#"),
        ("Top @mentions, last hour", stats["mentions"], "@"),
    ]
    return _render(
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


def users(request: HttpRequest) -> HttpResponse:
    query = request.GET.get("q", "").strip().lstrip("@")
    after = request.GET.get("after", "")
    found, next_after, status = [], "", 200
    try:
        found, next_after = accounts.search_users(query, after=after, count=PAGE_SIZE)
    except ValueError as error:
        messages.error(request, str(error))
        status = 400
    return _render(
        request,
        "users.html",
        "Users",
        crumbs=[("Users", None)],
        status=status,
        query=query,
        found=found,
        after=after,
        next_after=next_after,
    )


def user(request: HttpRequest, uid: int) -> HttpResponse:
    profile = _profile_or_404(uid)
    followers, _ = timeline.followers_page(uid, count=20)
    following, _ = timeline.following_page(uid, count=20)
    return _render(
        request,
        "user.html",
        f"@{profile['login']}",
        crumbs=[("Users", reverse("admin:redis_users")), (f"@{profile['login']}", None)],
        profile=profile,
        statuses=moderation.statuses_by(uid, count=20).statuses,
        follows=[
            (f"Followers ({profile['followers']}, newest 20)", followers),
            (f"Following ({profile['following']}, newest 20)", following),
        ],
        stream_keys=streaming.list_stream_keys(uid),
    )


USER_ACTIONS = {
    "suspend": (
        "Suspend",
        [
            "They can't log in, post or stream until the suspension is lifted.",
            "Their statuses are hidden from everyone else.",
        ],
    ),
    "unsuspend": (
        "Lift the suspension of",
        ["They can log in, post and stream again, and their statuses reappear."],
    ),
    "delete": (
        "Delete",
        [
            "Their login and Django user go now, and their statuses are hidden at once.",
            "The worker then deletes every status (from every timeline), their follows "
            "both ways, their likes, their lists and list memberships, and their profile.",
            "This can't be undone.",
        ],
    ),
}


def user_action(request: HttpRequest, uid: int, action: str) -> HttpResponse:
    if action not in USER_ACTIONS:
        raise Http404("No such action.")
    profile = _profile_or_404(uid)
    login = profile["login"]
    page = reverse("admin:redis_user", args=[uid])
    if current_uid(request) == uid:
        messages.error(request, f"You can't {action} your own account.")
        return redirect(page)
    verb, details = USER_ACTIONS[action]
    if request.method != "POST":
        crumbs = [
            ("Users", reverse("admin:redis_users")),
            (f"@{login}", page),
            (action.capitalize(), None),
        ]
        question = f"{verb} @{login} ({profile['name']}, {profile['posts']} statuses)?"
        return _confirm(request, f"{verb} @{login}", crumbs, question, details, page)
    label = f"@{login} (user {uid})"
    if action == "delete":
        moderation.delete_user(uid)
        _log(request, DELETION, f"user:{uid}", label, "Deleted the user and all their statuses.")
        messages.success(request, f"@{login} is deleted; the worker is removing their data.")
        return redirect("admin:redis_users")
    if accounts.set_suspended(uid, action == "suspend"):
        done = "Suspended" if action == "suspend" else "Lifted the suspension"
        _log(request, CHANGE, f"user:{uid}", label, f"{done}.")
        messages.success(request, f"{done}: @{login}.")
    else:
        messages.info(request, f"Nothing to do: @{login} already was so.")
    return redirect(page)


def statuses(request: HttpRequest) -> HttpResponse:
    author = request.GET.get("author", "").strip().lstrip("@")
    found, next_url, status = [], "", 200
    try:
        status_id = _int_param(request, "id", 0)
        if status_id:
            found = [s for s in [timeline.get_status(status_id)] if s]
            if not found:
                messages.warning(request, f"There is no status {status_id}.")
        elif author:
            uid = accounts.uid_for_login(author)
            if uid is None:
                raise ValueError(f"There is no user @{author}.")
            page = moderation.statuses_by(uid, page=_int_param(request, "page", 1), count=PAGE_SIZE)
            found = page.statuses
            if page.has_older:
                next_url = f"?author={author}&page={page.number + 1}"
        else:
            found, before = moderation.latest_statuses(
                before=_int_param(request, "before", 0), count=PAGE_SIZE
            )
            next_url = f"?before={before}" if before else ""
    except ValueError as error:
        messages.error(request, str(error))
        status = 400
    return _render(
        request,
        "statuses.html",
        "Statuses",
        crumbs=[("Statuses", None)],
        status=status,
        found=found,
        author=author,
        status_id=request.GET.get("id", ""),
        next_url=next_url,
    )


def status_delete(request: HttpRequest, status_id: int) -> HttpResponse:
    status = timeline.get_status(status_id)
    if status is None:
        raise Http404("No such status.")
    back = reverse("admin:redis_statuses")
    if request.method != "POST":
        crumbs = [("Statuses", back), (f"Delete status {status_id}", None)]
        question = f"Delete status {status_id} by @{status['login']}?"
        details = [
            f"“{status['message']}”",
            "It disappears from every timeline, and streaming clients get its deletion, "
            "as if its author had deleted it.",
        ]
        return _confirm(request, f"Delete status {status_id}", crumbs, question, details, back)
    if timeline.remove_status(status_id):
        label = f"status {status_id} by @{status['login']}"
        _log(request, DELETION, f"status:{status_id}", label, "Deleted as a moderator.")
        messages.success(request, f"Deleted status {status_id} by @{status['login']}.")
    else:
        messages.info(request, f"Status {status_id} was already deleted.")
    return redirect(back)


def stream_keys(request: HttpRequest) -> HttpResponse:
    login = request.GET.get("user", "").strip().lstrip("@")
    profile, keys, status = None, [], 200
    if login:
        profile = accounts.get_user_by_login(login)
        if profile is None:
            messages.error(request, f"There is no user @{login}.")
            status = 400
        else:
            keys = streaming.list_stream_keys(profile["id"])
    return _render(
        request,
        "stream_keys.html",
        "Stream keys",
        crumbs=[("Stream keys", None)],
        status=status,
        login=login,
        profile=profile,
        keys=keys,
    )


def stream_key_revoke(request: HttpRequest, uid: int, key_id: str) -> HttpResponse:
    profile = _profile_or_404(uid)
    login = profile["login"]
    keys = streaming.list_stream_keys(uid)
    key = next((k for k in keys if k["id"] == key_id), None)
    if key is None:
        raise Http404("No such stream key.")
    back = f"{reverse('admin:redis_stream_keys')}?user={login}"
    if request.method != "POST":
        crumbs = [("Stream keys", back), (f"Revoke {key_id}", None)]
        question = f"Revoke @{login}'s stream key {key_id} ({key['name'] or 'unnamed'})?"
        details = ["Streams open with it end at their next heartbeat; it can't be used again."]
        return _confirm(request, f"Revoke stream key {key_id}", crumbs, question, details, back)
    streaming.revoke_stream_key(uid, key_id)
    _log(request, CHANGE, f"user:{uid}", f"@{login} (user {uid})", f"Revoked stream key {key_id}.")
    messages.success(request, f"Revoked @{login}'s stream key {key_id}.")
    return redirect(back)
