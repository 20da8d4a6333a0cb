"""The group pages' addresses (included by timeline/urls.py)."""

from django.urls import path

from . import moderation_views as moderating
from . import views

urlpatterns = [
    path("groups/", views.groups, name="groups"),
    path("groups/new/", views.new_group, name="new_group"),
    path("g/<str:handle>/", views.group, name="group"),
    path("g/<str:handle>/join/", views.join, name="join_group"),
    path("g/<str:handle>/leave/", views.leave, name="leave_group"),
    path("g/<str:handle>/home/", views.show_in_home, name="group_show_in_home"),
    path("g/<str:handle>/members/", views.members, name="group_members"),
    path("g/<str:handle>/requests/", moderating.requests, name="group_requests"),
    path(
        "g/<str:handle>/requests/<str:login>/approve/",
        moderating.approve,
        name="approve_group_request",
    ),
    path(
        "g/<str:handle>/requests/<str:login>/reject/",
        moderating.reject,
        name="reject_group_request",
    ),
    # The moderators' pages and actions (moderation.py checks each actor's role).
    path("g/<str:handle>/moderate/", moderating.edit, name="group_moderate"),
    path("g/<str:handle>/avatar/", moderating.avatar, name="group_avatar"),
    path("g/<str:handle>/delete/", moderating.delete, name="delete_group"),
    path("g/<str:handle>/pin/<int:status_id>/", moderating.pin, name="group_pin"),
    path("g/<str:handle>/unpin/<int:status_id>/", moderating.unpin, name="group_unpin"),
    path(
        "g/<str:handle>/remove/<int:status_id>/", moderating.remove_post, name="group_remove_post"
    ),
    path(
        "g/<str:handle>/members/<str:login>/remove/",
        moderating.remove_member,
        name="group_remove_member",
    ),
    path("g/<str:handle>/members/<str:login>/ban/", moderating.ban, name="group_ban"),
    path("g/<str:handle>/members/<str:login>/unban/", moderating.unban, name="group_unban"),
    path("g/<str:handle>/members/<str:login>/role/", moderating.set_role, name="group_role"),
    path(
        "g/<str:handle>/members/<str:login>/transfer/",
        moderating.transfer,
        name="group_transfer",
    ),
]
