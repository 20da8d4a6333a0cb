"""The Mastodon client API's routes (/api/v1/, /api/v2/) and OAuth 2's (/oauth/)."""

import re

from django.urls import path, re_path
from oauth2_provider import views as dot

from .views import (
    accounts,
    instance,
    lists,
    notifications,
    oauth,
    reports,
    safety,
    search,
    statuses,
    timelines,
)

app_name = "api"


def route(pattern: str, view, **options):
    """`pattern` with or without a trailing slash: clients ask for both
    (Mastodon.py for /api/v1/instance/, toot for /oauth/authorize/)."""
    regex = re.sub(r"<str:(\w+)>", r"(?P<\1>[^/]+)", pattern)
    return re_path(rf"^{regex}/?$", view, **options)


urlpatterns = [
    route("oauth/authorize", oauth.AuthorizeView.as_view(), name="authorize"),
    route("oauth/token", dot.TokenView.as_view(), name="token"),
    route("oauth/revoke", oauth.RevokeView.as_view(), name="revoke"),
    path("oauth/apps/<int:application_id>/revoke/", oauth.revoke_app, name="revoke_app"),
    route("api/v1/instance", instance.instance_v1, name="instance"),
    route("api/v2/instance", instance.instance_v2, name="instance_v2"),
    route("api/v1/streaming/health", instance.streaming_health),
    route("api/v1/apps", instance.create_app, name="apps"),
    route("api/v1/apps/verify_credentials", instance.verify_app, name="verify_app"),
    route("api/v1/accounts/verify_credentials", accounts.verify_credentials),
    route("api/v1/accounts/update_credentials", accounts.update_credentials),
    route("api/v1/accounts/lookup", accounts.lookup),
    route("api/v1/accounts/relationships", accounts.relationships),
    route("api/v1/accounts/search", search.accounts),
    route("api/v1/accounts/<str:account_id>", accounts.account),
    route("api/v1/accounts/<str:account_id>/statuses", accounts.statuses),
    route("api/v1/accounts/<str:account_id>/followers", accounts.followers),
    route("api/v1/accounts/<str:account_id>/following", accounts.following),
    route("api/v1/accounts/<str:account_id>/follow", accounts.follow),
    route("api/v1/accounts/<str:account_id>/unfollow", accounts.unfollow),
    route("api/v1/accounts/<str:account_id>/block", safety.block),
    route("api/v1/accounts/<str:account_id>/unblock", safety.unblock),
    route("api/v1/accounts/<str:account_id>/mute", safety.mute),
    route("api/v1/accounts/<str:account_id>/unmute", safety.unmute),
    route("api/v1/accounts/<str:account_id>/remove_from_followers", safety.remove_from_followers),
    route("api/v1/blocks", safety.blocks),
    route("api/v1/mutes", safety.mutes),
    route("api/v1/follow_requests", safety.follow_requests),
    route("api/v1/follow_requests/<str:account_id>/authorize", safety.authorize),
    route("api/v1/follow_requests/<str:account_id>/reject", safety.reject),
    route("api/v1/reports", reports.report),
    route("api/v2/search", search.search),
    route("api/v1/timelines/home", timelines.home, name="home"),
    route("api/v1/timelines/public", timelines.public),
    route("api/v1/timelines/tag/<str:tag>", timelines.tag),
    route("api/v1/timelines/list/<str:list_id>", timelines.user_list),
    route("api/v1/statuses", statuses.create),
    route("api/v1/statuses/<str:status_id>", statuses.status),
    route("api/v1/statuses/<str:status_id>/context", statuses.context),
    route("api/v1/statuses/<str:status_id>/favourite", statuses.favourite),
    route("api/v1/statuses/<str:status_id>/unfavourite", statuses.unfavourite),
    route("api/v1/statuses/<str:status_id>/reblog", statuses.reblog),
    route("api/v1/statuses/<str:status_id>/unreblog", statuses.unreblog),
    route("api/v1/favourites", statuses.favourites),
    route("api/v1/lists", lists.lists),
    route("api/v1/lists/<str:list_id>", lists.one_list),
    route("api/v1/lists/<str:list_id>/accounts", lists.members),
    route("api/v1/notifications", notifications.notifications),
    route("api/v1/conversations", notifications.conversations),
]
