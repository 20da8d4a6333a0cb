"""What Mastodon keeps of a client application beyond django-oauth-toolkit's
Application: the scopes it registered (no token of it gets more) and its website."""

from django.conf import settings
from django.db import models


class ClientApp(models.Model):
    application = models.OneToOneField(
        settings.OAUTH2_PROVIDER_APPLICATION_MODEL,
        on_delete=models.CASCADE,
        related_name="client_app",
    )
    scopes = models.CharField(max_length=200)
    website = models.URLField(max_length=500, blank=True)

    def __str__(self) -> str:
        return f"{self.application.name} ({self.scopes})"
