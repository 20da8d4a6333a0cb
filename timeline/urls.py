from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("timeline/", views.global_timeline, name="global"),
    path("statuses/", views.post_status, name="post_status"),
    path("statuses/<int:status_id>/", views.status_detail, name="status"),
    path("statuses/<int:status_id>/delete/", views.delete_status, name="delete_status"),
    path("u/<str:login>/", views.profile, name="profile"),
    path("u/<str:login>/follow/", views.follow, name="follow"),
    path("u/<str:login>/unfollow/", views.unfollow, name="unfollow"),
    path("u/<str:login>/followers/", views.followers, name="followers"),
    path("u/<str:login>/following/", views.following, name="following"),
]
