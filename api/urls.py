"""The Mastodon client API's routes (/api/v1/, /api/v2/) and OAuth 2's (/oauth/)."""

import re

from django.urls import include, path, re_path
from oauth2_provider import views as dot

from .views import (
    accounts,
    cards,
    edits,
    errors,
    filters,
    grouped,
    groups,
    instance,
    keeps,
    lists,
    media,
    notifications,
    oauth,
    polls,
    prefs,
    push,
    quotes,
    reports,
    safety,
    search,
    statuses,
    timelines,
    trends,
)

app_name = "api"


def route(pattern: str, view, **options):
    """`pattern` with or without a trailing slash: clients ask for both
    (Mastodon.py for /api/v1/instance/, toot for /oauth/authorize/)."""
    regex = re.sub(r"<str:(\w+)>", r"(?P<\1>[^/]+)", pattern)
    return re_path(rf"^{regex}/?$", view, **options)


# Grouped under their prefixes, so that a page's path is tried against two prefixes,
# not against every route of the API (~50 patterns, resolved before the pages').
oauth_patterns = [
    route("authorize", oauth.AuthorizeView.as_view(), name="authorize"),
    route("token", dot.TokenView.as_view(), name="token"),
    route("revoke", oauth.RevokeView.as_view(), name="revoke"),
    path("apps/<int:application_id>/revoke/", oauth.revoke_app, name="revoke_app"),
]

api_patterns = [
    # Timelines, the most asked, first.
    route("v1/timelines/home", timelines.home, name="home"),
    route("v1/timelines/public", timelines.public),
    route("v1/timelines/tag/<str:tag>", timelines.tag),
    route("v1/timelines/list/<str:list_id>", timelines.user_list),
    route("v1/instance", instance.instance_v1, name="instance"),
    route("v2/instance", instance.instance_v2, name="instance_v2"),
    route("v1/streaming/health", instance.streaming_health),
    route("v1/apps", instance.create_app, name="apps"),
    route("v1/apps/verify_credentials", instance.verify_app, name="verify_app"),
    route("v1/accounts/verify_credentials", accounts.verify_credentials),
    route("v1/accounts/update_credentials", accounts.update_credentials),
    route("v1/accounts/lookup", accounts.lookup),
    route("v1/accounts/relationships", accounts.relationships),
    route("v1/accounts/search", search.accounts),
    route("v1/accounts/<str:account_id>", accounts.account),
    route("v1/accounts/<str:account_id>/statuses", accounts.statuses),
    route("v1/accounts/<str:account_id>/followers", accounts.followers),
    route("v1/accounts/<str:account_id>/following", accounts.following),
    route("v1/accounts/<str:account_id>/follow", accounts.follow),
    route("v1/accounts/<str:account_id>/unfollow", accounts.unfollow),
    route("v1/accounts/<str:account_id>/block", safety.block),
    route("v1/accounts/<str:account_id>/unblock", safety.unblock),
    route("v1/accounts/<str:account_id>/mute", safety.mute),
    route("v1/accounts/<str:account_id>/unmute", safety.unmute),
    route("v1/accounts/<str:account_id>/remove_from_followers", safety.remove_from_followers),
    route("v1/blocks", safety.blocks),
    route("v1/mutes", safety.mutes),
    route("v1/follow_requests", safety.follow_requests),
    route("v1/follow_requests/<str:account_id>/authorize", safety.authorize),
    route("v1/follow_requests/<str:account_id>/reject", safety.reject),
    route("v1/reports", reports.report),
    route("v2/search", search.search),
    # Media (timeline.media).
    route("v2/media", media.upload_v2),
    route("v1/media", media.upload_v1),
    route("v1/media/<str:media_id>", media.attachment),
    route("v1/statuses", statuses.create),
    route("v1/statuses/<str:status_id>", statuses.status),
    route("v1/statuses/<str:status_id>/context", statuses.context),
    # Cards (timeline.linkcards): a status's link preview card.
    route("v1/statuses/<str:status_id>/card", cards.status_card),
    route("v1/statuses/<str:status_id>/favourite", statuses.favourite),
    route("v1/statuses/<str:status_id>/unfavourite", statuses.unfavourite),
    route("v1/statuses/<str:status_id>/reblog", statuses.reblog),
    route("v1/statuses/<str:status_id>/unreblog", statuses.unreblog),
    route("v1/favourites", statuses.favourites),
    # Polls: a poll's id is its status's.
    route("v1/polls/<str:poll_id>", polls.poll),
    route("v1/polls/<str:poll_id>/votes", polls.votes),
    route("v1/lists", lists.lists),
    route("v1/lists/<str:list_id>", lists.one_list),
    route("v1/lists/<str:list_id>/accounts", lists.members),
    route("v1/groups", groups.groups),
    route("v1/groups/lookup", groups.lookup),
    route("v1/groups/<str:group_id>", groups.group),
    route("v1/groups/<str:group_id>/join", groups.join),
    route("v1/groups/<str:group_id>/leave", groups.leave),
    route("v1/groups/<str:group_id>/members", groups.members),
    route("v1/groups/<str:group_id>/members/<str:account_id>", groups.remove_member),
    route("v1/groups/<str:group_id>/members/<str:account_id>/role", groups.role),
    route("v1/groups/<str:group_id>/bans", groups.bans),
    route("v1/groups/<str:group_id>/bans/<str:account_id>", groups.unban),
    route("v1/groups/<str:group_id>/requests", groups.requests),
    route("v1/groups/<str:group_id>/requests/<str:account_id>/approve", groups.approve),
    route("v1/groups/<str:group_id>/requests/<str:account_id>/reject", groups.reject),
    route("v1/groups/<str:group_id>/statuses", groups.statuses),
    route("v1/groups/<str:group_id>/statuses/<str:status_id>", groups.remove_status),
    route("v1/groups/<str:group_id>/pins/<str:status_id>", groups.pin),
    route("v1/groups/<str:group_id>/transfer", groups.transfer),
    route("v1/notifications", notifications.notifications),
    route("v1/trends/statuses", trends.statuses),
    route("v1/trends/links", trends.links),
    route("v1/conversations", notifications.conversations),
    # Quotes (Mastodon 4.5).
    route("v1/statuses/<str:status_id>/quotes", quotes.status_quotes),
    route("v1/statuses/<str:status_id>/quotes/<str:quoting_id>/revoke", quotes.revoke),
    route("v1/statuses/<str:status_id>/interaction_policy", quotes.interaction_policy),
    # Edits (timeline.edits): PUT v1/statuses/<id> is statuses.status's.
    route("v1/statuses/<str:status_id>/history", edits.history),
    route("v1/statuses/<str:status_id>/source", edits.source),
    # Keep: bookmarks, pins and followed tags (views.keeps).
    route("v1/bookmarks", keeps.bookmarks),
    route("v1/statuses/<str:status_id>/bookmark", keeps.bookmark),
    route("v1/statuses/<str:status_id>/unbookmark", keeps.unbookmark),
    route("v1/statuses/<str:status_id>/pin", keeps.pin),
    route("v1/statuses/<str:status_id>/unpin", keeps.unpin),
    route("v1/followed_tags", keeps.followed_tags),
    route("v1/tags/<str:name>", keeps.tag),
    route("v1/tags/<str:name>/follow", keeps.follow_tag),
    route("v1/tags/<str:name>/unfollow", keeps.unfollow_tag),
    # apinotif: notifications by id, filtered, dismissed; grouped (v2); retired paths.
    route("v1/notifications/clear", notifications.clear),
    route("v1/notifications/unread_count", notifications.unread_count),
    route("v1/notifications/<str:notification_id>", notifications.notification),
    route("v1/notifications/<str:notification_id>/dismiss", notifications.dismiss),
    route("v2/notifications", grouped.notifications),
    route("v2/notifications/unread_count", grouped.unread_count),
    route("v2/notifications/<str:group_key>", grouped.group),
    route("v2/notifications/<str:group_key>/accounts", grouped.group_accounts),
    route("v2/notifications/<str:group_key>/dismiss", grouped.dismiss_group),
    route("v1/search", errors.retired("/api/v2/search")),
    route("v1/timelines/direct", errors.retired("/api/v1/conversations")),
    # Client preferences (apiprefs): markers, preferences, filters, custom emojis.
    route("v1/markers", prefs.markers_view),
    route("v1/preferences", prefs.preferences),
    route("v1/custom_emojis", prefs.custom_emojis),
    route("v1/filters", filters.filters_v1),
    route("v2/filters", filters.filters_view),
    route("v2/filters/keywords/<str:keyword_id>", filters.one_keyword),
    route("v2/filters/statuses/<str:status_filter_id>", filters.one_status),
    route("v2/filters/<str:filter_id>", filters.one_filter),
    route("v2/filters/<str:filter_id>/keywords", filters.keywords),
    route("v2/filters/<str:filter_id>/statuses", filters.statuses),
    # Web Push (apipush): the caller's token's subscription.
    route("v1/push/subscription", push.subscription),
]

urlpatterns = [
    path("oauth/", include(oauth_patterns)),
    path("api/", include(api_patterns)),
]
