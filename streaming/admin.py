from django.urls import path

from socialsite.admin import add_redis_page

from . import admin_views

add_redis_page(
    "Stream keys",
    "StreamKey",
    [
        path("redis/stream-keys/", admin_views.stream_keys, name="redis_stream_keys"),
        path(
            "redis/stream-keys/<int:uid>/<str:key_id>/revoke/",
            admin_views.stream_key_revoke,
            name="redis_stream_key_revoke",
        ),
    ],
)
