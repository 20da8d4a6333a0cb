"""The admin site: Django's own, plus operator pages over the Redis data, listed on
the index and in the navigation sidebar as a "Redis data" section.

The section starts with the dashboard (socialsite.admin_views); each app adds its own
pages from its admin.py (`site.add_redis_page`), which Django's admin imports at start-up,
so this module needn't know the apps."""

from dataclasses import dataclass
from typing import cast

from django.contrib import admin
from django.contrib.admin import AdminSite
from django.shortcuts import redirect
from django.urls import URLPattern, path, reverse
from django.views.decorators.common import no_append_slash

from . import admin_views


@dataclass(frozen=True)
class RedisPage:
    title: str  # in the sidebar
    object_name: str  # for the admin's CSS
    urls: list[URLPattern]  # under admin/, the first one the page the sidebar links to


class SocialSiteAdmin(AdminSite):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # The dashboard has its own path so the sidebar marks only the page shown.
        dashboard = path("redis/dashboard/", admin_views.dashboard, name="redis_dashboard")
        self.redis_pages = [RedisPage("Dashboard", "Dashboard", [dashboard])]

    def add_redis_page(self, title: str, object_name: str, urls: list[URLPattern]) -> None:
        """Lists a page in the "Redis data" section; `urls` are served to staff only."""
        self.redis_pages.append(RedisPage(title, object_name, urls))

    def get_urls(self):
        view = self.admin_view
        pages = [path("redis/", view(lambda request: redirect("admin:redis_dashboard")))]
        for page in self.redis_pages:
            pages += [
                path(
                    str(url.pattern),
                    view(admin_views.not_found_in_admin(url.callback)),
                    name=url.name,
                )
                for url in page.urls
            ]
        # Before Django's own: its last pattern catches every URL left.
        return pages + super().get_urls()

    @no_append_slash
    def catch_all_view(self, request, url):
        """An unknown address under admin/ is the admin's 404 page, not the public site's
        (Django's still redirects to the address with a slash where that is a page)."""
        return admin_views.not_found_in_admin(super().catch_all_view)(request, url)

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
                    "name": page.title,
                    "object_name": page.object_name,
                    "admin_url": reverse(f"admin:{page.urls[0].name}", current_app=self.name),
                    "add_url": None,
                    "view_only": True,
                    "perms": {"view": True},
                }
                for page in self.redis_pages
            ],
        }


def add_redis_page(title: str, object_name: str, urls: list[URLPattern]) -> None:
    """Lists a page in the admin's "Redis data" section (SocialSiteAdmin.add_redis_page)."""
    # SocialSiteAdminConfig (settings) makes Django's admin.site a SocialSiteAdmin.
    cast(SocialSiteAdmin, admin.site).add_redis_page(title, object_name, urls)
