"""The admin site: Django's own, plus operator pages over the Redis data, listed on
the index and in the navigation sidebar as a "Redis data" section."""

from django.contrib.admin import AdminSite
from django.shortcuts import redirect
from django.urls import path, reverse

from . import admin_views

REDIS_PAGES = (
    # (url name, title, object name for the admin's CSS)
    ("redis_dashboard", "Dashboard", "Dashboard"),
    ("redis_users", "Users", "RedisUser"),
    ("redis_statuses", "Statuses", "Status"),
    ("redis_stream_keys", "Stream keys", "StreamKey"),
)


class SocialSiteAdmin(AdminSite):
    def get_urls(self):
        view = self.admin_view
        pages = [
            # The dashboard has its own path so the sidebar marks only the page shown.
            path("redis/", view(lambda request: redirect("admin:redis_dashboard"))),
            path("redis/dashboard/", view(admin_views.dashboard), name="redis_dashboard"),
            path("redis/users/", view(admin_views.users), name="redis_users"),
            path("redis/users/<int:uid>/", view(admin_views.user), name="redis_user"),
            path(
                "redis/users/<int:uid>/<str:action>/",
                view(admin_views.user_action),
                name="redis_user_action",
            ),
            path("redis/statuses/", view(admin_views.statuses), name="redis_statuses"),
            path(
                "redis/statuses/<int:status_id>/delete/",
                view(admin_views.status_delete),
                name="redis_status_delete",
            ),
            path("redis/stream-keys/", view(admin_views.stream_keys), name="redis_stream_keys"),
            path(
                "redis/stream-keys/<int:uid>/<str:key_id>/revoke/",
                view(admin_views.stream_key_revoke),
                name="redis_stream_key_revoke",
            ),
        ]
        # Before Django's own: its last pattern catches every URL left.
        return pages + super().get_urls()

    def get_app_list(self, request, app_label=None):
        app_list = super().get_app_list(request, app_label)
        if app_label in (None, "redis"):
            app_list.insert(0, self._redis_app())
        return app_list

    def _redis_app(self) -> dict:
        """The "Redis data" section, shaped like the app dicts Django's templates expect."""
        return {
            "name": "Redis data",
            "app_label": "redis",
            "app_url": reverse("admin:redis_dashboard", current_app=self.name),
            "has_module_perms": True,
            "models": [
                {
                    "name": title,
                    "object_name": object_name,
                    "admin_url": reverse(f"admin:{name}", current_app=self.name),
                    "add_url": None,
                    "view_only": True,
                    "perms": {"view": True},
                }
                for name, title, object_name in REDIS_PAGES
            ],
        }
