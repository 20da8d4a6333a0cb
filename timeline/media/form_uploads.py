"""The files a page's form sends (mediaweb): the composer's (the home page's box, a reply
box) and a direct message's, up to MAX_ATTACHMENTS uploads sent with the post itself,
so posting media needs no JavaScript. Each is stored
through timeline.media's upload (a picture checked and redrawn, a video left to the
worker) with its alt text, then attached by the post; if anything is refused, the
uploads already stored are deleted again, so a refused post leaves nothing behind."""

from collections.abc import Callable

from django.http import HttpRequest

from socialsite import offslot, ratelimit

from . import services as media
from .records import MAX_ATTACHMENTS


def chosen_files(request: HttpRequest) -> list:
    """The files the composer sent (blank file fields are left out by the browser)."""
    return [upload for upload in request.FILES.getlist("media") if upload.size]


def check_request(request: HttpRequest) -> None:
    """MediaError if the request's body is over what one request may upload, before it
    is read."""
    if request.content_type == "multipart/form-data":
        media.check_request_size(request.META.get("CONTENT_LENGTH"))


def upload_chosen(request: HttpRequest, uid: int) -> list[int]:
    """Stores the composer's files as `uid`'s uploads, each with its alt text (the
    `media_description` fields, in the files' order): their ids. MediaError saying which
    file is refused and why (nothing kept), RateLimited over RATE_LIMIT_MEDIA."""
    uploads = chosen_files(request)
    if len(uploads) > MAX_ATTACHMENTS:
        raise media.MediaError(f"A status has at most {MAX_ATTACHMENTS} pictures or videos.")
    # Each file counts against RATE_LIMIT_MEDIA before any is stored.
    for _ in uploads:
        ratelimit.enforce("media", ratelimit.account(request))
    descriptions = request.POST.getlist("media_description")
    files = [
        media.Upload(
            upload.read(),
            media_type=upload.content_type,
            filename=upload.name,
            description=descriptions[n] if n < len(descriptions) else "",
        )
        for n, upload in enumerate(uploads)
    ]
    try:
        return [found.id for found in media.upload_many(uid, files)]
    except offslot.Busy as busy:
        raise media.MediaError(f"{busy} Try again in a minute.") from None


def post_with_uploads(request: HttpRequest, uid: int, post: Callable[[list[int]], object]) -> None:
    """Uploads the composer's files and runs `post(media_ids)`; the uploads are deleted
    again if the post is refused (its error raised)."""
    media_ids = upload_chosen(request, uid)
    try:
        post(media_ids)
    except BaseException:
        media.delete_media(uid, media_ids)
        raise
