"""OAuth 2 as Mastodon apps expect it, on django-oauth-toolkit: apps registered through
the API (POST /api/v1/apps), each allowed the authorization code grant (PKCE taken,
not demanded), client credentials for app-only calls and refresh tokens; a token gets
no scope its app didn't register; the token and revoke endpoints read form or JSON
bodies (toot sends JSON)."""

import hashlib
import json
import re
from datetime import timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from django.utils import timezone
from oauth2_provider.generators import generate_client_secret
from oauth2_provider.models import AccessToken, Application, RefreshToken, set_token_value
from oauth2_provider.oauth2_backends import OAuthLibCore
from oauth2_provider.oauth2_validators import OAuth2Validator
from oauth2_provider.settings import oauth2_settings
from oauthlib.common import generate_token

from .models import ClientApp, ExchangedCode

OOB = "urn:ietf:wg:oauth:2.0:oob"
# The grants every registered app may use.
GRANTS = {"authorization_code", "client_credentials", "refresh_token"}
NAME_MAX_LENGTH = 100
# How long a checked access token is remembered in the cache (api.http.caller_for_token).
# Revoking or saving it forgets it at once; this bounds what no signal tells (a
# QuerySet.update() of tokens).
TOKEN_CACHE_SECONDS = 300
REDIRECT_URIS_MAX = 10
# How long an exchanged code is remembered, so that its replay revokes what it issued:
# far past its own life (AUTHORIZATION_CODE_EXPIRE_SECONDS), as a stolen code is
# replayed when its thief gets to it.
EXCHANGED_CODES_KEPT = timedelta(days=1)


def supported_scopes() -> list[str]:
    return list(settings.OAUTH2_PROVIDER["SCOPES"])


def check_scopes(text: str) -> list[str]:
    """The scopes `text` (space-separated) names, or ValueError naming one we don't grant."""
    scopes = list(dict.fromkeys(str(text or "read").split()))
    unknown = [scope for scope in scopes if scope not in supported_scopes()]
    if unknown:
        raise ValueError(
            f"Scope {unknown[0]!r} is not supported: use {', '.join(supported_scopes())}."
        )
    return scopes


# Mobile sign-in (apiprefs): an app's own scheme (myapp://oauth, com.example.app:/cb, as
# RFC 8252 7.1 has them) is accepted; these never are: they run or read something in
# the browser rather than hand the code to an app.
REFUSED_SCHEMES = {"javascript", "data", "file", "vbscript", "blob", "about", "filesystem"}
SCHEME = re.compile(r"[a-z][a-z0-9+.-]*")


def check_redirect_uris(text: str | None) -> list[str]:
    """Redirect URIs (separated by whitespace): http(s) URLs, an app's own scheme (a
    mobile app's: `myapp://oauth`), or the out-of-band one."""
    uris = str(text or "").split()
    if not uris:
        raise ValueError("redirect_uris is required.")
    if len(uris) > REDIRECT_URIS_MAX:
        raise ValueError(f"At most {REDIRECT_URIS_MAX} redirect URIs.")
    for uri in uris:
        if len(uri) > 500:
            raise ValueError("A redirect URI is at most 500 characters.")
        if uri != OOB and not redirect_uri_allowed(uri):
            raise ValueError(f"{uri!r} is not an http(s) URL, an app's own scheme or {OOB}.")
    return uris


def redirect_uri_allowed(uri: str) -> bool:
    """Whether `uri` may be an app's redirect URI: http(s) with a host, or an app's own
    scheme with something after it (not one of REFUSED_SCHEMES)."""
    try:
        parts = urlsplit(uri)
    except ValueError:
        return False
    scheme = parts.scheme.lower()
    if scheme in {"http", "https"}:
        return bool(parts.hostname)
    if not SCHEME.fullmatch(scheme) or scheme in REFUSED_SCHEMES or scheme == "urn":
        return False
    return bool(uri.split(":", 1)[1].strip("/"))


def redirect_schemes(application: Application | None) -> list[str]:
    """The schemes a redirect to `application` may use: http(s), the out-of-band one's,
    and the app's own schemes it registered (mobile apps)."""
    schemes = ["http", "https", "urn"]
    for uri in application.redirect_uris.split() if application is not None else []:
        scheme = urlsplit(uri).scheme.lower()
        if scheme not in schemes and redirect_uri_allowed(uri):
            schemes.append(scheme)
    return schemes


def register_app(
    name: str | None, redirect_uris: str | None, scopes: str, website: str = ""
) -> tuple:
    """Registers a client app: (its ClientApp, its client secret in clear, which only this
    answer tells). ValueError for a bad name, URI or scope; nothing is stored then."""
    name = str(name or "").strip()
    if not name or len(name) > NAME_MAX_LENGTH:
        raise ValueError(f"client_name is 1 to {NAME_MAX_LENGTH} characters.")
    uris = check_redirect_uris(redirect_uris)
    granted = check_scopes(scopes)
    website = str(website or "")
    if website and urlsplit(website).scheme not in {"http", "https"}:
        raise ValueError("website must be an http(s) URL.")
    secret = generate_client_secret()
    with transaction.atomic():
        application = Application.objects.create(
            name=name,
            redirect_uris=" ".join(uris),
            client_type=Application.CLIENT_CONFIDENTIAL,
            authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
            client_secret=secret,
            skip_authorization=False,
        )
        app = ClientApp.objects.create(
            application=application, scopes=" ".join(granted), website=website[:500]
        )
    return app, secret


def client_app(application_id: int) -> ClientApp | None:
    return (
        ClientApp.objects.select_related("application")
        .filter(application_id=application_id)
        .first()
    )


def issue_token(app: ClientApp, user, scope: str) -> str:
    """A new access token of `app` for `user` with `scope` (within the app's), as the
    code flow would give after the user's consent: for operators' scripts, the bench and
    tests. ValueError for a scope the app didn't register."""
    if not set(check_scopes(scope)) <= set(app.scopes.split()):
        raise ValueError(f"{app.application.name} didn't register {scope!r}.")
    token = generate_token()
    access = AccessToken(
        user=user,
        application=app.application,
        scope=scope,
        expires=timezone.now() + timedelta(seconds=oauth2_settings.ACCESS_TOKEN_EXPIRE_SECONDS),
    )
    set_token_value(access, token)  # stored hashed (settings: RFC 9700's token storage)
    access.save()
    return token


def authorised_apps(user) -> list[dict]:
    """The apps `user` gave a token that is still valid: name, website, scopes, when
    first authorised, newest first."""
    apps: dict[int, dict] = {}
    tokens = (
        AccessToken.objects.filter(user=user)
        .select_related("application__client_app")
        .order_by("-created")
    )
    for token in tokens:
        if token.application is None or token.is_expired():
            continue
        app = apps.setdefault(
            token.application_id,
            {"id": token.application_id, "name": token.application.name, "scopes": set()},
        )
        app["scopes"].update(token.scope.split())
        app["created"] = token.created
    return [{**app, "scopes": " ".join(sorted(app["scopes"]))} for app in apps.values()]


def revoke_app(user, application_id: int) -> bool:
    """Revokes every token `user` gave the app (and their refresh tokens): whether any."""
    tokens = AccessToken.objects.filter(user=user, application_id=application_id)
    found = False
    for token in tokens:
        token.revoke()
        found = True
    return found


def token_cache_key(token: str) -> str:
    """The cache key of an access token: by its checksum, as django-oauth-toolkit finds
    it (never the token itself)."""
    return f"api-token:{hashlib.sha256(token.encode()).hexdigest()}"


@receiver(post_save, sender=AccessToken)
@receiver(post_delete, sender=AccessToken)
def forget_cached_token(sender, instance: AccessToken, **kwargs) -> None:
    """A revoked (deleted) or changed token is checked afresh on its next use."""
    cache.delete(f"api-token:{instance.token_checksum}")


def code_checksum(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()


def remember_exchange(code: str, application, access: AccessToken | None, family) -> None:
    """Records that `code` was exchanged for `access` (and a refresh token of `family`),
    forgetting the records past EXCHANGED_CODES_KEPT."""
    now = timezone.now()
    ExchangedCode.objects.filter(expires__lt=now).delete()
    ExchangedCode.objects.create(
        code_checksum=code_checksum(code),
        application=application,
        access_token_id=access.pk if access is not None else None,
        token_family=family,
        expires=now + EXCHANGED_CODES_KEPT,
    )


def revoke_exchange(code: str, application) -> bool:
    """Revokes every token an exchange of `code` by `application` issued (its access and
    refresh tokens and every token refreshed from them), returning whether there was one."""
    exchange = ExchangedCode.objects.filter(
        code_checksum=code_checksum(code), application=application
    ).first()
    if exchange is None:
        return False
    RefreshToken.revoke_family(exchange.token_family)
    # Deleted one by one, so each is forgotten by the token cache (forget_cached_token).
    for access in AccessToken.objects.filter(pk=exchange.access_token_id):
        access.revoke()
    return True


class MastodonValidator(OAuth2Validator):
    def validate_code(self, client_id, code, client, request, *args, **kwargs):
        valid = super().validate_code(client_id, code, client, request, *args, **kwargs)
        if not valid:
            # A code used a second time is refused, and what it gave is revoked: whoever
            # replays it, the app or a thief, one of them has it who shouldn't (RFC 6749
            # 4.1.2).
            revoke_exchange(code, client)
        return valid

    def _create_access_token(self, expires, request, token, source_refresh_token=None):
        access = super()._create_access_token(expires, request, token, source_refresh_token)
        request.issued_access_token = access
        return access

    def _create_refresh_token(self, request, refresh_token_code, access_token, previous):
        refresh = super()._create_refresh_token(request, refresh_token_code, access_token, previous)
        request.issued_token_family = refresh.token_family
        return refresh

    def _save_bearer_token(self, token, request, *args, **kwargs):
        super()._save_bearer_token(token, request, *args, **kwargs)
        if request.grant_type == "authorization_code":
            remember_exchange(
                request.code,
                request.client,
                getattr(request, "issued_access_token", None),
                getattr(request, "issued_token_family", None),
            )

    def validate_grant_type(self, client_id, grant_type, client, request, *args, **kwargs):
        return grant_type in GRANTS

    def validate_scopes(self, client_id, scopes, client, request, *args, **kwargs):
        registered = getattr(getattr(client, "client_app", None), "scopes", "")
        return set(scopes) <= set(registered.split()) and super().validate_scopes(
            client_id, scopes, client, request, *args, **kwargs
        )

    def get_default_scopes(self, client_id, request, *args, **kwargs):
        # No scope asked for: what the app registered, as Mastodon gives.
        registered = getattr(getattr(request.client, "client_app", None), "scopes", "")
        return registered.split() or super().get_default_scopes(client_id, request)


class FormOrJsonOAuthLibCore(OAuthLibCore):
    def extract_body(self, request):
        if request.content_type == "application/json":
            try:
                body = json.loads(request.body or b"{}")
            except ValueError:
                return ""
            if not isinstance(body, dict):
                return ""
            return [(name, str(value)) for name, value in body.items() if value is not None]
        return super().extract_body(request)
