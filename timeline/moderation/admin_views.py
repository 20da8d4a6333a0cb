"""The admin's pages over users and statuses: find a user, see them, suspend or delete
them; find statuses (hidden ones too) and delete one as a moderator."""

from django.contrib import messages
from django.contrib.admin.models import CHANGE, DELETION
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse

from accounts import services as accounts
from accounts.auth import current_uid
from accounts.records import UserProfile
from socialsite.admin_views import confirm, int_param, log_action, render

from ..graph.selectors import followers_page, following_page
from ..posting.services import remove_status
from ..statuses.selectors import get_status
from . import selectors

PAGE_SIZE = 50


def _profile_or_404(uid: int) -> UserProfile:
    profile = accounts.get_user(uid)
    if profile is None:
        raise Http404("No such user.")
    return profile


def users(request: HttpRequest) -> HttpResponse:
    query = request.GET.get("q", "").strip().lstrip("@")
    after = request.GET.get("after", "")
    found: list[UserProfile] = []
    next_after, status = "", 200
    try:
        found, next_after = accounts.search_users(query, after=after, count=PAGE_SIZE)
    except ValueError as error:
        messages.error(request, str(error))
        status = 400
    return render(
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
    # As the user sees them: all of them, private account or not.
    followers, _ = followers_page(uid, count=20, viewer=uid)
    following, _ = following_page(uid, count=20, viewer=uid)
    return render(
        request,
        "user.html",
        f"@{profile['login']}",
        crumbs=[("Users", reverse("admin:redis_users")), (f"@{profile['login']}", None)],
        profile=profile,
        statuses=selectors.statuses_by(uid, count=20).statuses,
        follows=[
            (f"Followers ({profile['followers']}, newest 20)", followers),
            (f"Following ({profile['following']}, newest 20)", following),
        ],
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
        return confirm(request, f"{verb} @{login}", crumbs, question, details, page)
    label = f"@{login} (user {uid})"
    if action == "delete":
        accounts.close_account(uid)
        log_action(
            request, DELETION, f"user:{uid}", label, "Deleted the user and all their statuses."
        )
        messages.success(request, f"@{login} is deleted; the worker is removing their data.")
        return redirect("admin:redis_users")
    if accounts.set_suspended(uid, action == "suspend"):
        done = "Suspended" if action == "suspend" else "Lifted the suspension"
        log_action(request, CHANGE, f"user:{uid}", label, f"{done}.")
        messages.success(request, f"{done}: @{login}.")
    else:
        messages.info(request, f"Nothing to do: @{login} already was so.")
    return redirect(page)


def statuses(request: HttpRequest) -> HttpResponse:
    author = request.GET.get("author", "").strip().lstrip("@")
    found, next_url, status = [], "", 200
    try:
        status_id = int_param(request, "id", 0)
        if status_id:
            found = [s for s in [get_status(status_id)] if s]
            if not found:
                messages.warning(request, f"There is no status {status_id}.")
        elif author:
            uid = accounts.uid_for_login(author)
            if uid is None:
                raise ValueError(f"There is no user @{author}.")
            page = selectors.statuses_by(uid, page=int_param(request, "page", 1), count=PAGE_SIZE)
            found = page.statuses
            if page.has_older:
                next_url = f"?author={author}&page={page.number + 1}"
        else:
            found, before = selectors.latest_statuses(
                before=int_param(request, "before", 0), count=PAGE_SIZE
            )
            next_url = f"?before={before}" if before else ""
    except ValueError as error:
        messages.error(request, str(error))
        status = 400
    return render(
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
    status = get_status(status_id)
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
        return confirm(request, f"Delete status {status_id}", crumbs, question, details, back)
    if remove_status(status_id):
        label = f"status {status_id} by @{status['login']}"
        log_action(request, DELETION, f"status:{status_id}", label, "Deleted as a moderator.")
        messages.success(request, f"Deleted status {status_id} by @{status['login']}.")
    else:
        messages.info(request, f"Status {status_id} was already deleted.")
    return redirect(back)
