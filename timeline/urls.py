from django.urls import path

from . import conversation_views, list_views, views

urlpatterns = [
    path("", views.home, name="home"),
    path("timeline/", views.global_timeline, name="global"),
    path("statuses/", views.post_status, name="post_status"),
    path("statuses/<int:status_id>/", conversation_views.status_detail, name="status"),
    path("statuses/<int:status_id>/card/", views.status_card, name="status_card"),
    path("statuses/<int:status_id>/reply/", conversation_views.reply, name="reply"),
    path("statuses/<int:status_id>/repost/", conversation_views.repost, name="repost"),
    path("statuses/<int:status_id>/unrepost/", conversation_views.undo_repost, name="unrepost"),
    path("statuses/<int:status_id>/like/", conversation_views.like, name="like"),
    path("statuses/<int:status_id>/unlike/", conversation_views.unlike, name="unlike"),
    path("likes/", conversation_views.likes, name="likes"),
    path("tags/<str:tag>/", conversation_views.tag, name="tag"),
    path("lists/", list_views.my_lists, name="lists"),
    path("lists/<int:list_id>/", list_views.list_detail, name="list"),
    path("lists/<int:list_id>/rename/", list_views.rename_list, name="rename_list"),
    path("lists/<int:list_id>/delete/", list_views.delete_list, name="delete_list"),
    path("lists/<int:list_id>/members/", list_views.list_members, name="list_members"),
    path("lists/<int:list_id>/members/add/", list_views.add_member, name="add_list_member"),
    path(
        "lists/<int:list_id>/members/remove/",
        list_views.remove_member,
        name="remove_list_member",
    ),
    path("statuses/<int:status_id>/delete/", views.delete_status, name="delete_status"),
    path("u/<str:login>/", views.profile, name="profile"),
    path("u/<str:login>/follow/", views.follow, name="follow"),
    path("u/<str:login>/unfollow/", views.unfollow, name="unfollow"),
    path("u/<str:login>/followers/", views.followers, name="followers"),
    path("u/<str:login>/following/", views.following, name="following"),
    path("u/<str:login>/mentions/", conversation_views.mentions, name="mentions"),
    path("u/<str:login>/lists/", list_views.user_lists, name="user_lists"),
]
