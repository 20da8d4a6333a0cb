"""The admin's page over custom emojis (accounts.emojis)."""

from django.urls import path

from socialsite.admin import add_redis_page

from . import emoji_admin

add_redis_page(
    "Custom emojis",
    "CustomEmoji",
    [
        path("redis/custom-emojis/", emoji_admin.custom_emojis, name="redis_custom_emojis"),
        path(
            "redis/custom-emojis/<str:shortcode>/delete/",
            emoji_admin.delete,
            name="redis_custom_emoji_delete",
        ),
    ],
)
