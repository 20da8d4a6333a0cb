from django.urls import path

from socialsite.admin import add_redis_page

from .moderation import admin_views
from .reports import admin_views as report_views

add_redis_page(
    "Users",
    "RedisUser",
    [
        path("redis/users/", admin_views.users, name="redis_users"),
        path("redis/users/<int:uid>/", admin_views.user, name="redis_user"),
        path(
            "redis/users/<int:uid>/<str:action>/",
            admin_views.user_action,
            name="redis_user_action",
        ),
    ],
)
add_redis_page(
    "Statuses",
    "Status",
    [
        path("redis/statuses/", admin_views.statuses, name="redis_statuses"),
        path(
            "redis/statuses/<int:status_id>/delete/",
            admin_views.status_delete,
            name="redis_status_delete",
        ),
    ],
)
add_redis_page(
    "Reports",
    "Report",
    [
        path("redis/reports/", report_views.queue, name="redis_reports"),
        path("redis/reports/<int:report_id>/", report_views.report, name="redis_report"),
        path(
            "redis/reports/<int:report_id>/<str:action>/",
            report_views.report_action,
            name="redis_report_action",
        ),
    ],
)
