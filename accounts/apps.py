from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"

    def ready(self) -> None:
        from . import backends, signals  # noqa: F401  (their receivers)
        from .appearance import THEME_FIELD
        from .services import read_with_session

        # The theme chosen (light, dark or the system's) comes with the session check.
        read_with_session(THEME_FIELD)
