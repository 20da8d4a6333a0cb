"""An avatar is redrawn off the request slot: through a real daphne (one request at a
time, HTTP_CONCURRENCY=1), pages are served while the costliest picture allowed is
redrawn, from the settings page and from the client API alike."""

import statistics
import threading
import time
import urllib.request
import uuid
from collections.abc import Callable

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from accounts import avatars
from accounts.services import get_user
from api.oauth import OOB, issue_token, register_app
from socialsite import offslot
from socialsite.testing.pictures import costliest_allowed

CSRF = "a" * 32  # a CSRF secret: the same in the cookie and the header
# Clients uploading in a loop, and the uploads each makes.
UPLOADERS = 2
UPLOADS = 3


def multipart(name: str, data: bytes) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="a.png"\r\n'
            f"Content-Type: image/png\r\n\r\n"
        ).encode()
        + data
        + f"\r\n--{boundary}--\r\n".encode()
    )
    return body, f"multipart/form-data; boundary={boundary}"


def web_upload(base: str, cookie: str, data: bytes) -> urllib.request.Request:
    body, kind = multipart("avatar", data)
    headers = {"Cookie": f"{cookie}; csrftoken={CSRF}", "X-CSRFToken": CSRF, "Content-Type": kind}
    return urllib.request.Request(f"{base}/accounts/avatar/", data=body, headers=headers)


def api_upload(base: str, authorization: str, data: bytes) -> urllib.request.Request:
    body, kind = multipart("avatar", data)
    headers = {"Authorization": authorization, "Content-Type": kind}
    url = f"{base}/api/v1/accounts/update_credentials"
    return urllib.request.Request(url, data=body, headers=headers, method="PATCH")


def read_page(base: str, cookie: str) -> float:
    started = time.perf_counter()
    page = urllib.request.Request(f"{base}/", headers={"Cookie": cookie})
    with urllib.request.urlopen(page, timeout=60) as response:
        assert response.status == 200
        response.read()
    return time.perf_counter() - started


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("way", ["settings page", "client API"])
def test_pages_are_served_while_the_costliest_avatar_allowed_is_redrawn(daphne_server, alice, way):
    data = costliest_allowed(avatars.AVATAR_MAX_PIXELS)
    if way == "settings page":
        uploading = [web_upload, daphne_server, alice.cookie, data]
    else:
        app, _ = register_app("test", OOB, "write")
        token = issue_token(app, alice.user, "write")
        uploading = [api_upload, daphne_server, f"Bearer {token}", data]
    read_page(daphne_server, alice.cookie)  # warm: the process has read a home before
    alone = timed_upload(*uploading)
    failed = []

    def upload_in_a_loop() -> None:
        try:
            for _ in range(UPLOADS):
                timed_upload(*uploading)
        except Exception as error:
            failed.append(error)

    uploaders = [threading.Thread(target=upload_in_a_loop) for _ in range(UPLOADERS)]
    for uploader in uploaders:
        uploader.start()
    pages = []
    while any(uploader.is_alive() for uploader in uploaders):
        pages.append(read_page(daphne_server, alice.cookie))
    for uploader in uploaders:
        uploader.join()
    assert failed == []
    assert get_user(alice.uid)["avatar"]
    # In the slot, the uploads would keep it busy redrawing, and a page would wait for
    # the redraw under way (half of one, typically); off it, a page costs what it costs.
    page = statistics.median(pages)
    assert len(pages) >= UPLOADS and page < alone / 4, (alone, pages)


def timed_upload(request: Callable[..., urllib.request.Request], *args) -> float:
    """Seconds an upload took, answered (after a redirect, from the settings page) 200."""
    started = time.perf_counter()
    with urllib.request.urlopen(request(*args), timeout=120) as response:
        assert response.status == 200
    return time.perf_counter() - started


def upload(client, data: bytes):
    return client.post("/accounts/avatar/", {"avatar": SimpleUploadedFile("a.png", data)})


def hold_the_only_process(settings) -> threading.Thread:
    """Keeps the one picture process busy for two seconds, and makes a wait for it give
    up after a fraction of one."""
    settings.OFF_SLOT_PROCESSES, settings.OFF_SLOT_SECONDS = 1, 10
    holding = threading.Thread(target=offslot.run, args=(time.sleep, 2))
    holding.start()
    time.sleep(0.3)
    settings.OFF_SLOT_SECONDS = 0.2
    return holding


def test_an_upload_with_no_process_free_in_time_is_asked_again_later(alice, settings):
    from timeline.tests.pages import shows

    holding = hold_the_only_process(settings)
    try:
        response = upload(alice.client, costliest_allowed(10_000))
    finally:
        holding.join()
    assert response.status_code == 400
    assert shows(response, "The server is busy with other uploads. Try again in a minute.")
    assert "avatar" not in get_user(alice.uid)


@pytest.mark.django_db(transaction=True)
def test_the_api_answers_503_with_retry_after_when_no_process_is_free(alice, settings):
    from django.test import Client

    app, _ = register_app("test", OOB, "write")
    token = issue_token(app, alice.user, "write")
    body, kind = multipart("avatar", costliest_allowed(10_000))
    holding = hold_the_only_process(settings)
    try:
        response = Client().patch(
            "/api/v1/accounts/update_credentials",
            body,
            content_type=kind,
            HTTP_AUTHORIZATION=f"Bearer {token}",
        )
    finally:
        holding.join()
    assert response.status_code == 503 and int(response["Retry-After"]) >= 1
    assert response.json()["error"] == "The server is busy with other uploads."
    assert "avatar" not in get_user(alice.uid)


def test_a_picture_whose_header_claims_too_many_pixels_is_refused_before_decoding(alice):
    import struct
    import zlib

    # A PNG header claiming 20,000 x 20,000 pixels, past Pillow's own bound too, and no
    # pixels in its (empty) data: refused for its pixels, from its header alone.
    header = struct.pack(">IIBBBBB", 20_000, 20_000, 8, 6, 0, 0, 0)
    chunk = b"IHDR" + header
    png = (
        b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + chunk + struct.pack(">I", zlib.crc32(chunk))
    )
    png += struct.pack(">I", 0) + b"IDAT" + struct.pack(">I", zlib.crc32(b"IDAT"))
    with pytest.raises(avatars.BadAvatar, match="too many pixels"):
        avatars.store(alice.uid, png)
