from django.apps import AppConfig


class TimelineConfig(AppConfig):
    name = "timeline"

    def ready(self) -> None:
        from accounts.services import read_with_session
        from socialsite import dashboard

        from . import live_events  # noqa: F401  (filters_changed reaches the streams)

        # The modules that register background job handlers (socialsite.jobs) and signal
        # receivers: here, so every process that runs jobs or closes accounts has them all.
        from .edits import services as edits  # noqa: F401
        from .feeds import fanout, refill  # noqa: F401
        from .groups import moderation as group_moderation
        from .linkcards import services as linkcards  # noqa: F401
        from .media import jobs as media_jobs  # noqa: F401
        from .moderation import groups as group_jobs  # noqa: F401
        from .moderation import services as moderation  # noqa: F401
        from .notifications import selectors as notifications
        from .notifications import subscriptions  # noqa: F401
        from .notifications.unread import UNREAD_FIELDS
        from .ops import maintenance
        from .posting import services as posting  # noqa: F401
        from .posting.preferences import SESSION_FIELDS as POSTING_FIELDS
        from .ranking.selectors import ORDER_FIELD
        from .reports import selectors as reports
        from .safety import services as safety  # noqa: F401

        # Notification pages name the groups of join requests and approvals.
        notifications.register_group_reader(group_moderation.queue_groups_named)
        dashboard.register(maintenance.network_figures)
        dashboard.register(reports.dashboard_figures)
        # The nav's unread counts come with every signed-in request's session check.
        read_with_session(*UNREAD_FIELDS)
        # And the home's remembered order (Latest or Top: timeline.ranking).
        read_with_session(ORDER_FIELD)
        # And the posting settings: the composer's visibility, warnings shown open (vis).
        read_with_session(*POSTING_FIELDS)
