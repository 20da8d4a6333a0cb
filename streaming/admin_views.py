"""The admin's page over stream keys: find a user's keys, revoke one."""

from django.contrib import messages
from django.contrib.admin.models import CHANGE
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse

from accounts import services as accounts
from socialsite.admin_views import confirm, log_action, render

from . import services as streaming


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
    return render(
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
    profile = accounts.get_user(uid)
    if profile is None:
        raise Http404("No such user.")
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
        return confirm(request, f"Revoke stream key {key_id}", crumbs, question, details, back)
    streaming.revoke_stream_key(uid, key_id)
    log_action(
        request, CHANGE, f"user:{uid}", f"@{login} (user {uid})", f"Revoked stream key {key_id}."
    )
    messages.success(request, f"Revoked @{login}'s stream key {key_id}.")
    return redirect(back)
