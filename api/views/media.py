"""Media, as Mastodon's API has them: POST /api/v2/media (202 while a video is
processing) and /api/v1/media, GET and PUT /api/v1/media/:id (alt text, focal point),
through timeline.media's services."""

from django.http import HttpResponse, JsonResponse

from socialsite import offslot
from timeline.media import selectors, services
from timeline.media.records import Attachment

from ..entities import site_of
from ..http import (
    ApiError,
    ApiRequest,
    caller_uid,
    endpoint,
    id_param,
    limit_rate,
    params,
    uploaded,
)
from ..media import attachment_entity


def _answer(request: ApiRequest, found: Attachment, *, processing_status: int) -> HttpResponse:
    status = processing_status if found.processing else 200
    return JsonResponse(attachment_entity(site_of(request), found), status=status)


def _upload(request: ApiRequest, processing_status: int) -> HttpResponse:
    # Refused from its Content-Length, before a byte of the body is parsed.
    try:
        services.check_request_size(request.META.get("CONTENT_LENGTH"))
    except services.MediaError as error:
        raise ApiError(413, str(error)) from None
    found = params(request)
    file = uploaded(request, "file")
    if file is None:
        raise ApiError(422, "Validation failed: File can't be blank")
    limit_rate(request, "media")
    try:
        made = services.upload_media(
            caller_uid(request),
            file.read(),
            media_type=file.content_type,
            filename=file.name,
            description=found.get("description"),
            focus=found.get("focus"),
        )
    except offslot.Busy as busy:
        raise ApiError(503, str(busy), busy.retry_after) from None
    except services.MediaError as error:
        raise ApiError(422, f"Validation failed: {error}") from None
    return _answer(request, made, processing_status=processing_status)


@endpoint("POST", scope="write")
def upload_v2(request: ApiRequest) -> HttpResponse:
    """Uploads a file: 200 with a picture ready, 202 with a video still processing."""
    return _upload(request, 202)


@endpoint("POST", scope="write")
def upload_v1(request: ApiRequest) -> HttpResponse:
    """Mastodon's older upload: answered 200, a video's URLs null until processed."""
    return _upload(request, 200)


@endpoint("GET", "PUT", scope="write")
def attachment(request: ApiRequest, media_id: str) -> HttpResponse:
    """GET: the caller's upload (206 while processing, as Mastodon answers); PUT: its
    alt text (`description`) and focal point (`focus`, "x,y"), until it is attached."""
    uid, wanted = caller_uid(request), id_param(media_id)
    if request.method == "GET":
        found = selectors.get_attachment(uid, wanted)
        if found is None:
            raise ApiError(404, "Record not found")
        if found.state == "failed":
            raise ApiError(422, found.error or "That file couldn't be converted.")
        return _answer(request, found, processing_status=206)
    given = params(request)
    try:
        changed = services.update_media(
            uid, wanted, description=given.get("description"), focus=given.get("focus")
        )
    except services.NoSuchMedia:
        raise ApiError(404, "Record not found") from None
    except services.MediaError as error:
        raise ApiError(422, f"Validation failed: {error}") from None
    return _answer(request, changed, processing_status=200)
