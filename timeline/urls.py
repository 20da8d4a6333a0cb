from django.urls import include, path

from .conversations import views as conversations
from .direct import views as direct
from .discovery import views as discovery
from .edits import views as edits
from .explore import views as explore
from .export import views as export
from .feeds import views as feeds
from .graph import views as graph
from .keeps import views as keeps
from .lists import views as lists
from .notifications import views as notifications
from .polls import views as polls
from .posting import preferences as posting_preferences
from .posting import quote_views as quotes
from .posting import views as posting
from .ranking import views as ranking
from .reactions import views as reactions
from .reports import group_views as group_reports
from .reports import views as reports
from .safety import views as safety
from .search import views as search

urlpatterns = [
    # Django tries the patterns in order (~1 µs each): the most read pages first.
    path("", ranking.home, name="home"),
    path("directory/", graph.directory, name="directory"),
    path("u/<str:login>/", graph.profile, name="profile"),
    path("timeline/", feeds.global_timeline, name="global"),
    path("statuses/", posting.post_status, name="post_status"),
    path("statuses/<int:status_id>/", conversations.status_detail, name="status"),
    path("statuses/<int:status_id>/card/", feeds.status_card, name="status_card"),
    path("statuses/<int:status_id>/delete/", posting.delete_status, name="delete_status"),
    path("statuses/<int:status_id>/reply/", posting.reply, name="reply"),
    path("statuses/<int:status_id>/repost/", reactions.repost, name="repost"),
    path("statuses/<int:status_id>/unrepost/", reactions.undo_repost, name="unrepost"),
    path("statuses/<int:status_id>/like/", reactions.like, name="like"),
    path("statuses/<int:status_id>/unlike/", reactions.unlike, name="unlike"),
    # Polls: a poll's id is its status's.
    path("polls/<int:poll_id>/votes/", polls.vote, name="poll_vote"),
    path("likes/", reactions.likes, name="likes"),
    # Keep: bookmarks, pins and followed tags (timeline.keeps).
    path("bookmarks/", keeps.bookmarks, name="bookmarks"),
    path("statuses/<int:status_id>/bookmark/", keeps.bookmark, name="bookmark"),
    path("statuses/<int:status_id>/unbookmark/", keeps.unbookmark, name="unbookmark"),
    path("statuses/<int:status_id>/pin/", keeps.pin, name="pin"),
    path("statuses/<int:status_id>/unpin/", keeps.unpin, name="unpin"),
    path("tags/<str:tag>/follow/", keeps.follow_tag, name="follow_tag"),
    path("tags/<str:tag>/unfollow/", keeps.unfollow_tag, name="unfollow_tag"),
    path("search/", search.search, name="search"),
    path("explore/", explore.explore, name="explore"),
    path(
        "suggestions/<str:login>/dismiss/", discovery.dismiss_suggestion, name="dismiss_suggestion"
    ),
    path("export/", export.export_data, name="export_data"),
    path("tags/<str:tag>/", keeps.tag, name="tag"),
    path("lists/", lists.my_lists, name="lists"),
    path("lists/<int:list_id>/", lists.list_detail, name="list"),
    path("lists/<int:list_id>/rename/", lists.rename_list, name="rename_list"),
    path("lists/<int:list_id>/privacy/", lists.set_privacy, name="list_privacy"),
    path("lists/<int:list_id>/delete/", lists.delete_list, name="delete_list"),
    path("lists/<int:list_id>/members/", lists.list_members, name="list_members"),
    path("lists/<int:list_id>/members/add/", lists.add_member, name="add_list_member"),
    path("lists/<int:list_id>/members/remove/", lists.remove_member, name="remove_list_member"),
    path("notifications/", notifications.notifications, name="notifications"),
    path("notifications/read/", notifications.mark_read, name="notifications_read"),
    path("messages/", direct.inbox, name="inbox"),
    path("messages/new/", direct.new_conversation, name="new_conversation"),
    path("messages/<int:conversation_id>/", direct.conversation, name="conversation"),
    path("messages/<int:conversation_id>/read/", direct.mark_read, name="conversation_read"),
    path("messages/<int:conversation_id>/leave/", direct.leave, name="leave_conversation"),
    path(
        "messages/<int:conversation_id>/<int:message_id>/delete/",
        direct.delete_message,
        name="delete_message",
    ),
    path("u/<str:login>/follow/", graph.follow, name="follow"),
    path("u/<str:login>/unfollow/", graph.unfollow, name="unfollow"),
    path("u/<str:login>/follow-options/", graph.follow_options, name="follow_options"),
    path("u/<str:login>/followers/", graph.followers, name="followers"),
    path("u/<str:login>/following/", graph.following, name="following"),
    path("u/<str:login>/mentions/", conversations.mentions, name="mentions"),
    path("u/<str:login>/media/", graph.profile_media, name="profile_media"),  # mediaweb
    path("u/<str:login>/lists/", lists.user_lists, name="user_lists"),
    path("u/<str:login>/lists/membership/", graph.change_membership, name="list_membership"),
    # Safety: follow requests, blocks, mutes (timeline.safety).
    path("follow-requests/", safety.follow_requests, name="follow_requests"),
    path("follow-requests/<str:login>/approve/", safety.approve, name="approve_request"),
    path("follow-requests/<str:login>/reject/", safety.reject, name="reject_request"),
    path("blocks/", safety.blocks, name="blocks"),
    path("mutes/", safety.mutes, name="mutes"),
    path("privacy/", safety.privacy, name="privacy"),
    # Posting settings: default visibility, warnings open (timeline.posting.preferences).
    path("settings/posting/", posting_preferences.posting_settings, name="posting_settings"),
    path("u/<str:login>/remove-follower/", safety.remove_follower, name="remove_follower"),
    path("u/<str:login>/block/", safety.block, name="block"),
    path("u/<str:login>/unblock/", safety.unblock, name="unblock"),
    path("u/<str:login>/mute/", safety.mute, name="mute"),
    path("u/<str:login>/unmute/", safety.unmute, name="unmute"),
    path("u/<str:login>/report/", reports.report_user, name="report_user"),
    path("statuses/<int:status_id>/report/", reports.report_status, name="report_status"),
    # Quotes.
    path("statuses/<int:status_id>/quote/", quotes.quote, name="quote"),
    path("statuses/<int:status_id>/quotes/", quotes.status_quotes, name="status_quotes"),
    path(
        "statuses/<int:status_id>/quotes/<int:quoting_id>/revoke/",
        quotes.revoke_quote,
        name="revoke_quote",
    ),
    path("quote-policy/", quotes.quote_policy, name="quote_policy"),
    # Edits (timeline.edits).
    path("statuses/<int:status_id>/edit/", edits.edit_status, name="edit_status"),
    path("statuses/<int:status_id>/history/", edits.history, name="status_history"),
    # Groups: their pages and their moderators' (timeline.groups).
    path("", include("timeline.groups.urls")),
    path("g/<str:handle>/reports/", group_reports.reports, name="group_reports"),
    path(
        "g/<str:handle>/reports/<int:report_id>/dismiss/",
        group_reports.dismiss,
        name="group_dismiss_report",
    ),
    path(
        "g/<str:handle>/reports/<int:report_id>/remove/",
        group_reports.remove_post,
        name="group_remove_reported",
    ),
    path(
        "g/<str:handle>/reports/<int:report_id>/escalate/",
        group_reports.escalate,
        name="group_escalate_report",
    ),
]
