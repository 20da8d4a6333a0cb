from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "api"
    verbose_name = "Mastodon client API"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import (
            oauth,  # noqa: F401  (its signal receivers)
            push,  # noqa: F401  (Web Push's jobs and its signal receiver)
        )
