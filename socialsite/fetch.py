"""The one outbound HTTP client: every fetch of a page or file from elsewhere (link
preview cards, and federation once it comes) goes through `fetch`.

Nothing from outside is trusted. A fetch has connect, read and total timeouts, reads at
most FETCH_MAX_BYTES of a body (decoded), follows at most FETCH_MAX_REDIRECTS, and never
reaches a private, loopback, link-local, multicast or reserved address: each hop's host
is resolved here, every address it resolves to is checked, and the connection is made to
the checked address itself (the Host header and TLS's server name carry the name), so a
name that resolves to a public address for the check and to 127.0.0.1 a moment later (DNS
rebinding) gains nothing. SOCIALSITE_FETCH_ALLOW_PRIVATE lifts the address check, for the
tests' local servers only."""

import ipaddress
import socket
import time
from dataclasses import dataclass
from urllib.parse import urljoin

import httpx
from django.conf import settings

REDIRECTS = frozenset({301, 302, 303, 307, 308})
USER_AGENT = "socialsite (link previews; +https://github.com/)"

Address = ipaddress.IPv4Address | ipaddress.IPv6Address


class FetchError(Exception):
    """A fetch failed; the message says why, in words fit for a log."""


class FetchRefused(FetchError):
    """The URL may not be fetched: not http(s), or its host is (or resolves to) an address
    the site never reaches."""


class FetchTimeout(FetchError):
    """The server took too long to connect, to answer, or to send its body."""


class TooLarge(FetchError):
    """The body is larger than the fetch allows."""


class TooManyRedirects(FetchError):
    """More redirects than the fetch follows (a loop among them)."""


class BadResponse(FetchError):
    """The server answered with an error status, a redirect without a place, or not at all."""


@dataclass(frozen=True)
class Fetched:
    """A fetched body: the URL it came from at last (after redirects), the status, the
    media type (lower-cased, without parameters), the charset named if any, and the bytes."""

    url: str
    status: int
    content_type: str
    charset: str | None
    body: bytes

    def text(self) -> str:
        """The body decoded by its charset (UTF-8 if none or unknown), bad bytes replaced."""
        try:
            return self.body.decode(self.charset or "utf-8", errors="replace")
        except LookupError:
            return self.body.decode("utf-8", errors="replace")


def refused_address(address: Address) -> bool:
    """Whether the fetcher never connects to `address`: private, loopback, link-local,
    multicast, reserved, unspecified or otherwise not global (an IPv4 address mapped into
    IPv6 is judged as itself)."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        address = address.ipv4_mapped
    return (
        not address.is_global
        or address.is_private
        or address.is_loopback
        or address.is_link_local
        or address.is_multicast
        or address.is_reserved
        or address.is_unspecified
    )


def resolve(host: str, port: int) -> Address:
    """The address to connect to for `host`: FetchRefused if it doesn't resolve, or if any
    address it resolves to is refused (unless SOCIALSITE_FETCH_ALLOW_PRIVATE)."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as error:
        raise FetchRefused(f"{host} does not resolve ({error})") from None
    addresses = [ipaddress.ip_address(str(info[4][0]).split("%", 1)[0]) for info in found]
    if not addresses:
        raise FetchRefused(f"{host} does not resolve")
    for address in addresses:
        if refused_address(address) and not _allowed_anyway(address):
            raise FetchRefused(f"{host} is a private or reserved address ({address})")
    return addresses[0]


def _allowed_anyway(address: Address) -> bool:
    """SOCIALSITE_FETCH_ALLOW_PRIVATE, for tests: True lets every address through; a list
    of addresses lets those alone (a test's server on 127.0.0.2 while 127.0.0.1 stays
    refused)."""
    allowed = settings.SOCIALSITE_FETCH_ALLOW_PRIVATE
    if isinstance(allowed, list | tuple | set | frozenset):
        return str(address) in allowed
    return bool(allowed)


def fetch(
    url: str,
    *,
    accept: str = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5",
    max_bytes: int | None = None,
    max_redirects: int | None = None,
) -> Fetched:
    """GETs `url`, following redirects, within the limits above: the body, or a FetchError
    saying why not (FetchRefused, FetchTimeout, TooLarge, TooManyRedirects, BadResponse)."""
    limit = settings.FETCH_MAX_BYTES if max_bytes is None else max_bytes
    redirects_left = settings.FETCH_MAX_REDIRECTS if max_redirects is None else max_redirects
    deadline = time.monotonic() + settings.FETCH_TOTAL_TIMEOUT
    timeout = httpx.Timeout(settings.FETCH_READ_TIMEOUT, connect=settings.FETCH_CONNECT_TIMEOUT)
    # trust_env=False: no proxy from the environment, which would connect by name and
    # skip the address check.
    with httpx.Client(timeout=timeout, follow_redirects=False, trust_env=False) as client:
        while True:
            fetched, location = _get(client, url, accept, limit, deadline)
            if location is None:
                assert fetched is not None
                return fetched
            if redirects_left <= 0:
                raise TooManyRedirects(f"more than the redirects allowed, at {url}")
            redirects_left -= 1
            url = location


def _get(
    client: httpx.Client, url: str, accept: str, limit: int, deadline: float
) -> tuple[Fetched | None, str | None]:
    """One hop: the body, or the URL a redirect points at."""
    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, TypeError) as error:
        raise FetchRefused(f"not a URL: {url!r} ({error})") from None
    if parsed.scheme not in ("http", "https") or not parsed.host:
        raise FetchRefused(f"only http and https URLs are fetched, not {url!r}")
    port = parsed.port or (443 if parsed.scheme == "https" else 80)
    address = resolve(parsed.host, port)
    host_header = parsed.netloc.decode("ascii")
    # Connect to the address checked; the name rides in Host and in TLS's SNI.
    target = parsed.copy_with(host=str(address))
    extensions = {"sni_hostname": parsed.host} if parsed.scheme == "https" else {}
    headers = {
        "Host": host_header,
        "Accept": accept,
        "User-Agent": USER_AGENT,
        "Accept-Encoding": "gzip, deflate",
    }
    try:
        with client.stream("GET", target, headers=headers, extensions=extensions) as response:
            if response.status_code in REDIRECTS:
                location = response.headers.get("location")
                if not location:
                    raise BadResponse(f"a redirect without a Location, at {url}")
                return None, urljoin(url, location)
            if not 200 <= response.status_code < 300:
                raise BadResponse(f"HTTP {response.status_code} at {url}")
            declared = response.headers.get("content-length", "")
            if declared.isdigit() and int(declared) > limit:
                raise TooLarge(f"{declared} bytes at {url}, more than {limit}")
            body = bytearray()
            for chunk in response.iter_bytes():
                body += chunk
                if len(body) > limit:
                    raise TooLarge(f"more than {limit} bytes at {url}")
                if time.monotonic() > deadline:
                    raise FetchTimeout(f"{url} took too long to send its body")
            kind, _, parameters = response.headers.get("content-type", "").partition(";")
            return Fetched(
                url=url,
                status=response.status_code,
                content_type=kind.strip().lower(),
                charset=response.charset_encoding,
                body=bytes(body),
            ), None
    except httpx.TimeoutException:
        raise FetchTimeout(f"{url} took too long to answer") from None
    except httpx.HTTPError as error:
        raise BadResponse(f"{url}: {error.__class__.__name__}: {error}") from None
