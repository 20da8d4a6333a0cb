"""15. In-place actions: a like as a browser with JavaScript makes it (htmx's POST, the
card back), beside today's without (the POST, its redirect and the whole Global page it
leads back to), one request after the other through daphne, taking turns in the same
run. The in-place like must take at most half the time."""

import http.client
import time
from collections.abc import Callable
from http.cookies import SimpleCookie
from urllib.parse import urlencode, urlsplit

from django.core.management import call_command

from timeline.posting import services as posting

from . import seed
from .context import Context
from .measure import Latency, Row, latency_of
from .servers import daphne
from .web_accounts import signed_in

TARGET = 0.5
GLOBAL = "/timeline/"
PAGE_STATUSES = 30  # a full page of Global, as the page the like was on shows


class Browser:
    """One keep-alive connection to daphne with a signed-in user's cookies (the session's
    and, after the first page, the CSRF token's), asking as a browser would."""

    def __init__(self, base: str, cookie: str) -> None:
        self.connection = http.client.HTTPConnection(urlsplit(base).netloc, timeout=30)
        self.cookies = dict(part.split("=", 1) for part in cookie.split("; "))

    def ask(self, method: str, path: str, body: dict | None = None, **headers: str) -> tuple:
        """(status, headers, body) of one request."""
        cookie = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        data = urlencode(body or {})
        head = {"Cookie": cookie, **{k.replace("_", "-"): v for k, v in headers.items()}}
        if method == "POST":
            head |= {
                "Content-Type": "application/x-www-form-urlencoded",
                "X-CSRFToken": self.cookies["csrftoken"],
            }
        self.connection.request(method, path, data if method == "POST" else None, head)
        response = self.connection.getresponse()
        content = response.read()
        for header in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                self.cookies[name] = morsel.value
        assert response.status < 400, (method, path, response.status, content[:300])
        return response.status, response.headers, content

    def like_as_today(self, status_id: int, undo: bool) -> None:
        """The button without JavaScript: POST, then the page it redirects back to."""
        action = "unlike" if undo else "like"
        status, headers, _ = self.ask(
            "POST", f"/statuses/{status_id}/{action}/", {"card": status_id, "next": GLOBAL}
        )
        assert status == 302, status
        self.ask("GET", headers["Location"])

    def like_in_place(self, status_id: int, undo: bool) -> None:
        """The button with JavaScript: htmx's POST (the same form), the card back."""
        action = "unlike" if undo else "like"
        status, _, body = self.ask(
            "POST",
            f"/statuses/{status_id}/{action}/",
            {"card": status_id, "next": GLOBAL},
            HX_Request="true",
            HX_Current_URL=GLOBAL,
        )
        assert status == 200 and body.startswith(b"<article"), (status, body[:200])


def run(ctx: Context) -> list[Row]:
    call_command("migrate", verbosity=0, interactive=False)
    author = seed.user("inplaceauthor")
    statuses = [posting.post_status(author, f"status {n} to like") for n in range(PAGE_STATUSES)]
    _, cookie = signed_in("inplacereader", "In Place Reader")
    liked = statuses[len(statuses) // 2]  # the 15th card: mid-page, as the 13th
    # A like and its undo each turn (a like liked already would change nothing).
    calls: dict[str, Callable[[Browser, bool], None]] = {
        "in place": lambda browser, undo: browser.like_in_place(liked, undo),
        "today": lambda browser, undo: browser.like_as_today(liked, undo),
    }
    samples: dict[str, list[float]] = {name: [] for name in calls}
    with daphne(ctx.var_dir, RATE_LIMIT_REACTIONS="1000000/1") as (base, _process):
        browser = Browser(base, cookie)
        browser.ask("GET", GLOBAL)  # the page the buttons are on: the CSRF cookie
        for call in calls.values():  # warm-up: imports, templates, the kept cards
            for undo in (False, True, False, True):
                call(browser, undo)
        for _ in range(ctx.plan.page_samples // 2):
            for name, call in calls.items():
                for undo in (False, True):
                    start = time.perf_counter()
                    call(browser, undo)
                    samples[name].append(time.perf_counter() - start)
    got: dict[str, Latency] = {name: latency_of(times) for name, times in samples.items()}
    return [
        Row(
            "in place",
            f"a like in place (htmx: POST, the card back), {PAGE_STATUSES}-status Global",
            got["in place"],
            "POST + redirect + the Global page (no JavaScript)",
            got["today"],
            target=f"<= {TARGET:g}x",
            met=got["in place"].p50_ms <= TARGET * got["today"].p50_ms,
        )
    ]
