from django.apps import AppConfig


class StreamingConfig(AppConfig):
    name = "streaming"

    def ready(self) -> None:
        from socialsite import dashboard

        from . import services, signals  # noqa: F401  (signals: its receivers)

        dashboard.register(services.dashboard_figures)
