from django.apps import AppConfig


class TimelineConfig(AppConfig):
    name = "timeline"

    def ready(self):
        # Registers every background job handler, wherever jobs are run.
        from . import fanout, reactions, refill  # noqa: F401
