"""A Web Push service for tests: an HTTP server on 127.0.0.1 that takes the site's push
messages, as a phone's push service would, and decrypts each with the keys of the
subscription it was sent to (RFC 8291 aes128gcm, or the aesgcm draft), as the app would."""

import base64
import json
import os
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Device:
    """An app's subscription keys: the private key and auth secret stay here; `keys` is
    what the app sends the site."""

    private_key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def keys(self) -> dict:
        public = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {"p256dh": b64url(public), "auth": b64url(self.auth)}


@dataclass
class Received:
    path: str
    headers: dict
    body: bytes
    message: dict | None


class PushService:
    """Takes messages at /push/<name>; `answers[name]` is a list of status codes to answer
    in turn (then 201). `devices[name]` decrypts what comes to <name>."""

    def __init__(self) -> None:
        self.devices: dict[str, Device] = {}
        self.answers: dict[str, list[int]] = {}
        self.received: list[Received] = []
        self.lock = threading.Lock()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                name = self.path.rsplit("/", 1)[-1]
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                headers = {key.lower(): value for key, value in self.headers.items()}
                with service.lock:
                    queued = service.answers.get(name) or []
                    status = queued.pop(0) if queued else 201
                    message = None
                    if status == 201 and name in service.devices:
                        message = service.decrypt(service.devices[name], headers, body)
                    service.received.append(Received(self.path, headers, body, message))
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def device(self, name: str) -> tuple[str, Device]:
        """A new subscriber: (its endpoint, its keys)."""
        self.devices[name] = Device()
        return f"{self.base}/push/{name}", self.devices[name]

    @staticmethod
    def decrypt(device: Device, headers: dict, body: bytes) -> dict:
        if headers.get("content-encoding") == "aes128gcm":
            plain = http_ece.decrypt(
                body, private_key=device.private_key, auth_secret=device.auth, version="aes128gcm"
            )
        else:
            params = dict(
                part.split("=", 1)
                for part in headers["crypto-key"].replace(",", ";").split(";")
                if "=" in part
            )
            salt = headers["encryption"].partition("salt=")[2]
            plain = http_ece.decrypt(
                body,
                salt=unb64url(salt),
                private_key=device.private_key,
                dh=unb64url(params["dh"]),
                auth_secret=device.auth,
                keylabel="P-256",
                version="aesgcm",
            )
        return json.loads(plain)

    def messages(self, name: str) -> list[dict]:
        return [r.message for r in self.received if r.path.endswith(f"/{name}") and r.message]

    def __enter__(self) -> "PushService":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()
