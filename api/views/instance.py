"""The instance's description (v1 and v2) and registering client apps."""

from django.conf import settings
from django.http import HttpResponse
from django.templatetags.static import static
from django.views.decorators.http import require_GET

from socialsite.ratelimit import address, enforce
from timeline.media.records import MAX_ATTACHMENTS
from timeline.polls.services import poll_limits

from .. import entities, oauth
from ..http import ApiError, ApiRequest, endpoint, params, token_caller
from ..media import media_configuration


def _description() -> str:
    return "A Twitter work-alike whose social data lives in Redis."


def _configuration() -> dict:
    return {
        "statuses": {
            "max_characters": settings.STATUS_MAX_LENGTH,
            "max_media_attachments": MAX_ATTACHMENTS,
            "characters_reserved_per_url": 0,
        },
        # Media (timeline.media): what an upload may be.
        "media_attachments": media_configuration(),
        # Polls: the limits a new status's poll is checked against.
        "polls": poll_limits(),
        "accounts": {"max_featured_tags": 0, "max_pinned_statuses": 0},
    }


def _streaming_url(request: ApiRequest) -> str:
    return ("wss://" if request.is_secure() else "ws://") + request.get_host()


@endpoint("GET", public=True, user=False)
def instance_v1(request: ApiRequest) -> dict:
    host = request.get_host()
    return {
        "uri": host,
        "title": "socialsite",
        "short_description": _description(),
        "description": _description(),
        "email": "",
        "version": entities.VERSION,
        "urls": {"streaming_api": _streaming_url(request)},
        "stats": {"user_count": 0, "status_count": 0, "domain_count": 1},
        "thumbnail": None,
        "languages": ["en"],
        "registrations": True,
        "approval_required": False,
        "invites_enabled": False,
        "configuration": _configuration(),
        "contact_account": None,
        "rules": [],
    }


@endpoint("GET", public=True, user=False)
def instance_v2(request: ApiRequest) -> dict:
    return {
        "domain": request.get_host(),
        "title": "socialsite",
        "version": entities.VERSION,
        "api_versions": {"mastodon": 2},
        "source_url": "",
        "description": _description(),
        "usage": {"users": {"active_month": 0}},
        "thumbnail": {"url": entities.site_of(request) + static(entities.AVATAR)},
        "languages": ["en"],
        "configuration": {
            **_configuration(),
            "urls": {"streaming": _streaming_url(request)},
            "translation": {"enabled": False},
        },
        "registrations": {"enabled": True, "approval_required": False, "message": None},
        "contact": {"email": "", "account": None},
        "rules": [],
    }


@require_GET
def streaming_health(request: ApiRequest) -> HttpResponse:
    """Mastodon's streaming health check: streams are served by every server process."""
    return HttpResponse("OK", content_type="text/plain")


@endpoint("POST", public=True, user=False)
def create_app(request: ApiRequest) -> dict:
    """Registers a client app: anyone may, as on Mastodon, within the address's limit."""
    found = params(request)
    enforce("apps_per_ip", address(request))
    app, secret = oauth.register_app(
        found.get("client_name"),
        found.get("redirect_uris"),
        found.get("scopes") or "read",
        found.get("website") or "",
    )
    return {
        "id": str(app.application.pk),
        **entities.application(app),
        "client_id": app.application.client_id,
        "client_secret": secret,
    }


@endpoint("GET", user=False)
def verify_app(request: ApiRequest) -> dict:
    app = oauth.client_app(token_caller(request).application_id)
    if app is None:
        raise ApiError(401, "The access token is invalid")
    return entities.application(app)
