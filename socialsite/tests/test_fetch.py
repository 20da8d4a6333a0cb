"""The outbound fetcher against a real HTTP server the test starts on loopback."""

import gzip
import ipaddress
import time

import pytest
from django.test import override_settings

from socialsite import fetch
from socialsite.testing.pages import Page, html_page, page_server

allow_private = override_settings(SOCIALSITE_FETCH_ALLOW_PRIVATE=True)


@allow_private
def test_a_page_is_fetched_with_its_type_and_charset():
    with page_server() as server:
        server.pages["/a"] = Page(
            html_page("<title>Café</title>"), headers={"Content-Type": "text/html; charset=utf-8"}
        )
        got = fetch.fetch(server.url("/a"))
    assert got.status == 200 and got.content_type == "text/html" and got.charset == "utf-8"
    assert "Café" in got.text() and got.url == server.url("/a")


@allow_private
def test_redirects_are_followed_up_to_the_limit():
    with page_server() as server:
        for hop in range(4):
            server.pages[f"/r{hop}"] = Page(status=302, headers={"Location": f"/r{hop + 1}"})
        server.pages["/r4"] = Page(b"<title>end</title>")
        assert fetch.fetch(server.url("/r1")).url == server.url("/r4")  # 3 redirects
        with pytest.raises(fetch.TooManyRedirects):
            fetch.fetch(server.url("/r0"))  # 4
        assert ("/r4", f"127.0.0.1:{server.port}") in server.requests


@allow_private
def test_a_redirect_loop_ends_in_an_error():
    with page_server() as server:
        server.pages["/loop"] = Page(status=301, headers={"Location": "/loop"})
        with pytest.raises(fetch.TooManyRedirects):
            fetch.fetch(server.url("/loop"))
        assert len(server.requests) == 4  # the first try and 3 redirects


@allow_private
@override_settings(FETCH_MAX_BYTES=100_000)
def test_a_huge_page_is_refused_by_its_length_or_as_it_comes():
    with page_server() as server:
        server.pages["/big"] = Page(b"x" * 200_000)
        server.pages["/endless"] = Page(chunks=lambda: (b"x" * 65536 for _ in range(10_000)))
        with pytest.raises(fetch.TooLarge):
            fetch.fetch(server.url("/big"))
        started = time.monotonic()
        with pytest.raises(fetch.TooLarge):
            fetch.fetch(server.url("/endless"))  # 655 MB offered
        assert time.monotonic() - started < 5


@allow_private
@override_settings(FETCH_MAX_BYTES=100_000)
def test_a_compressed_body_is_weighed_as_it_decompresses():
    bomb = gzip.compress(b"\0" * 5_000_000)
    with page_server() as server:
        server.pages["/bomb"] = Page(
            bomb, headers={"Content-Type": "text/html", "Content-Encoding": "gzip"}
        )
        with pytest.raises(fetch.TooLarge):
            fetch.fetch(server.url("/bomb"))


@allow_private
@override_settings(FETCH_READ_TIMEOUT=0.5, FETCH_TOTAL_TIMEOUT=1.5)
def test_a_slow_page_times_out():
    with page_server() as server:
        server.pages["/slow"] = Page(b"late", delay=3)
        server.pages["/drip"] = Page(chunks=lambda: (b"." for _ in range(100)), pause=0.2)
        started = time.monotonic()
        with pytest.raises(fetch.FetchTimeout):
            fetch.fetch(server.url("/slow"))
        # Each byte comes within the read timeout, but the whole takes too long.
        with pytest.raises(fetch.FetchTimeout):
            fetch.fetch(server.url("/drip"))
        assert time.monotonic() - started < 4


def test_loopback_is_refused_without_a_request():
    with page_server() as server:
        server.pages["/a"] = Page(b"secret")
        for url in (server.url("/a"), server.url("/a", host="localhost")):
            with pytest.raises(fetch.FetchRefused, match="private or reserved"):
                fetch.fetch(url)
        assert server.requests == []


def test_a_redirect_to_127_0_0_1_is_refused():
    # The first server (127.0.0.2) alone is let through; its redirect points at
    # 127.0.0.1, which stays refused, so the second server is never asked.
    with page_server("127.0.0.1") as inside, page_server("127.0.0.2") as outside:
        inside.pages["/admin"] = Page(b"secret")
        outside.pages["/go"] = Page(status=302, headers={"Location": inside.url("/admin")})
        with (
            override_settings(SOCIALSITE_FETCH_ALLOW_PRIVATE=["127.0.0.2"]),
            pytest.raises(fetch.FetchRefused, match="127.0.0.1"),
        ):
            fetch.fetch(outside.url("/go"))
        assert [path for path, _ in outside.requests] == ["/go"]
        assert inside.requests == []


@allow_private
def test_the_connection_goes_to_the_address_checked_with_the_name_as_host():
    with page_server() as server:
        server.pages["/a"] = Page(b"<title>a</title>")
        fetch.fetch(server.url("/a", host="localhost"))
    # The server listens on 127.0.0.1 alone: the fetcher connected to the address it
    # resolved and checked, and told the server the name asked for.
    assert server.requests == [("/a", f"localhost:{server.port}")]


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1",
        "10.1.2.3",
        "172.16.0.1",
        "192.168.1.1",
        "169.254.169.254",
        "100.64.0.1",
        "0.0.0.0",
        "224.0.0.1",
        "240.0.0.1",
        "255.255.255.255",
        "::1",
        "::",
        "fe80::1",
        "fc00::1",
        "ff02::1",
        "::ffff:127.0.0.1",
        "::ffff:10.0.0.1",
    ],
)
def test_private_and_reserved_addresses_are_refused(address):
    assert fetch.refused_address(ipaddress.ip_address(address))


@pytest.mark.parametrize("address", ["93.184.215.14", "1.1.1.1", "2606:4700:4700::1111"])
def test_public_addresses_are_let_through(address):
    assert not fetch.refused_address(ipaddress.ip_address(address))


@allow_private
@pytest.mark.parametrize(
    "url", ["file:///etc/passwd", "ftp://example.com/", "gopher://x/", "http://", "not a url"]
)
def test_only_http_and_https_urls_are_fetched(url):
    with pytest.raises(fetch.FetchRefused):
        fetch.fetch(url)


@allow_private
def test_an_error_status_or_a_name_that_does_not_resolve_is_a_fetch_error():
    with page_server() as server, pytest.raises(fetch.BadResponse, match="HTTP 404"):
        fetch.fetch(server.url("/missing"))
    with pytest.raises(fetch.FetchRefused, match="does not resolve"):
        fetch.fetch("http://no-such-host.invalid/")
