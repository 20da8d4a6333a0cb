"""What Mastodon keeps of a client application beyond django-oauth-toolkit's
Application: the scopes it registered (no token of it gets more) and its website; and
the codes already exchanged, for their replays."""

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


class ExchangedCode(models.Model):
    """An authorization code already exchanged, by its checksum, with what it issued, so
    that a replay of it revokes them (RFC 6749 4.1.2) until `expires`."""

    code_checksum = models.CharField(max_length=64, unique=True)
    application = models.ForeignKey(
        settings.OAUTH2_PROVIDER_APPLICATION_MODEL, on_delete=models.CASCADE
    )
    # The access token the exchange gave, and its refresh token's family, which every
    # token refreshed from it joins (django-oauth-toolkit's RefreshToken.token_family).
    access_token_id = models.BigIntegerField(null=True)
    token_family = models.UUIDField(null=True)
    expires = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"code exchanged for application {self.application_id}"
