"""The chaos test's traffic: users who post, reply, like, follow, unfollow, send direct
messages and read, each on a thread of their own, through the client API (statuses,
likes, follows, reads) and the site's pages (messages, reads), as real clients do; and
the ledger of what the site answered, every write it acknowledged among it."""

import contextlib
import dataclasses
import random
import re
import secrets
import threading
import time
from collections import Counter

import requests
from django.middleware.csrf import CSRF_ALLOWED_CHARS, CSRF_SECRET_LENGTH

# A request the site hasn't answered in this many seconds counts as unanswered; the
# write it carried may still happen later, so what it touched is left unjudged.
REQUEST_TIMEOUT = 20
# How often each kind of action is drawn.
ACTIONS = {"post": 20, "reply": 12, "like": 18, "follow": 10, "unfollow": 7, "message": 8}
ACTIONS["read"] = 25
# Seconds a user waits between actions (a person, not a load generator: two shared cores).
THINK = (0.3, 1.2)
CONVERSATION_PATH = re.compile(r"/messages/(\d+)/$")
PAGE_TITLE = re.compile(r"<title>([^<]*)</title>")


@dataclasses.dataclass
class Write:
    """One write a user tried: `acked` if the site said it was done. `target` is the
    status replied to or liked, the uid followed or unfollowed, or the conversation a
    message went to (to `recipient`); `status_id` a new status's id; `token` the text
    that finds it."""

    kind: str
    actor: int
    started: float
    ended: float = 0.0
    acked: bool = False
    timed_out: bool = False
    target: int | None = None
    status_id: int | None = None
    recipient: int | None = None
    token: str = ""


@dataclasses.dataclass
class Answer:
    """A response the site served that a user must never get (a 500, or any 5xx but 503):
    `body` is its page's title, or the start of its body."""

    method: str
    path: str
    status: int
    body: str


class Ledger:
    """What every user did and what the site answered, shared by the users' threads."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.writes: list[Write] = []
        self.statuses: list[tuple[int, int]] = []  # acknowledged (status id, author uid)
        self.codes: Counter = Counter()  # status code (or "no answer") -> count
        self.server_errors: list[Answer] = []
        self.lost_sessions = 0  # a page answered with the login form to a signed-in user
        self.unavailable: list[float] = []  # when a request got a 503 or no answer

    def answered(self, method: str, path: str, response: requests.Response | None) -> None:
        with self.lock:
            if response is None or response.status_code == 503:
                self.unavailable.append(time.monotonic())
            if response is None:
                self.codes["no answer"] += 1
                return
            self.codes[response.status_code] += 1
            if response.status_code >= 500 and response.status_code != 503:
                title = PAGE_TITLE.search(response.text)
                body = title.group(1) if title else response.text[:160]
                answer = Answer(method, path, response.status_code, body)
                self.server_errors.append(answer)
            if response.is_redirect and "/accounts/login/" in response.headers["Location"]:
                self.lost_sessions += 1

    def record(self, write: Write) -> None:
        with self.lock:
            self.writes.append(write)
            if write.acked and write.kind in ("post", "reply"):
                self.statuses.append((write.status_id, write.actor))

    def some_status(self, chooser: random.Random) -> tuple[int, int] | None:
        with self.lock:
            return chooser.choice(self.statuses) if self.statuses else None

    def acked(self, *kinds: str) -> list[Write]:
        return [write for write in self.writes if write.acked and write.kind in kinds]

    def summary(self) -> str:
        kinds = Counter((write.kind, write.acked) for write in self.writes)
        tried = ", ".join(
            f"{kind} {kinds[kind, True]}/{kinds[kind, True] + kinds[kind, False]}"
            for kind in ACTIONS
            if kind != "read"
        )
        codes = ", ".join(f"{code}: {count}" for code, count in sorted(self.codes.items(), key=str))
        return f"writes acknowledged/tried: {tried}; answers: {codes}"

    def unavailable_spans(self, since: float) -> str:
        """When requests got a 503 or no answer, in bursts (less than a second apart): each
        burst's first and last, in seconds from `since`, and its count."""
        spans: list[list[float]] = []
        for moment in sorted(self.unavailable):
            if spans and moment - spans[-1][1] < 1:
                spans[-1][1:] = [moment, spans[-1][2] + 1]
            else:
                spans.append([moment, moment, 1])
        return ", ".join(
            f"{first - since:.1f}-{last - since:.1f} s ({count:.0f})"
            for first, last, count in spans
        )


class Member:
    """One user of the traffic: their API session (a bearer token) and page session (a
    session cookie and a CSRF secret, the same in cookie and header, as a form sends)."""

    def __init__(self, base: str, record: dict, ledger: Ledger) -> None:
        self.base, self.ledger = base, ledger
        self.login, self.uid = record["login"], record["uid"]
        self.api = requests.Session()
        self.api.headers["Authorization"] = f"Bearer {record['token']}"
        self.web = requests.Session()
        csrf = "".join(secrets.choice(CSRF_ALLOWED_CHARS) for _ in range(CSRF_SECRET_LENGTH))
        self.web.headers.update({"Cookie": f"{record['cookie']}; csrftoken={csrf}",
                                 "X-CSRFToken": csrf})  # fmt: skip
        self.written = 0

    def call(self, session: requests.Session, method: str, path: str, **options):
        """The site's response, or None (a refused or cut connection, or a timeout: then
        raises TimeoutError after recording it, for the caller to mark its write)."""
        try:
            response = session.request(method, self.base + path, timeout=REQUEST_TIMEOUT,
                                       allow_redirects=False, **options)  # fmt: skip
        except requests.Timeout:
            self.ledger.answered(method, path, None)
            raise TimeoutError(path) from None
        except requests.RequestException:
            response = None
        self.ledger.answered(method, path, response)
        return response

    def get(self, path: str, **options):
        """A read through the API (paths under /api/) or the pages."""
        session = self.api if path.startswith("/api/") else self.web
        return self.call(session, "GET", path, **options)

    def run(self, others: list["Member"], chooser: random.Random, stop: threading.Event):
        """Acts at random until `stop` is set."""
        kinds, weights = zip(*ACTIONS.items(), strict=True)
        while not stop.is_set():
            kind = chooser.choices(kinds, weights)[0]
            if kind == "read":
                self.read(others, chooser)
            else:
                self.write(kind, others, chooser)
            stop.wait(chooser.uniform(*THINK))

    def read(self, others: list["Member"], chooser: random.Random) -> None:
        other = chooser.choice(others)
        pages = ["/api/v1/timelines/home", "/api/v1/timelines/public", f"/u/{other.login}/",
                 f"/api/v1/accounts/{other.uid}", "/", "/messages/", "/notifications/"]  # fmt: skip
        with contextlib.suppress(TimeoutError):
            self.get(chooser.choice(pages))

    def write(self, kind: str, others: list["Member"], chooser: random.Random) -> None:
        self.written += 1
        write = Write(kind, self.uid, time.monotonic(), token=f"c{self.uid}w{self.written}")
        try:
            getattr(self, kind)(write, chooser.choice(others), chooser)
        except TimeoutError:
            write.timed_out = True
        write.ended = time.monotonic()
        self.ledger.record(write)

    def post(self, write: Write, _other: "Member", _chooser: random.Random, **extra) -> None:
        fields = {"status": f"chaos {write.token} from {self.login}", **extra}
        response = self.call(self.api, "POST", "/api/v1/statuses", json=fields)
        if response is not None and response.status_code == 200:
            write.acked, write.status_id = True, int(response.json()["id"])

    def reply(self, write: Write, other: "Member", chooser: random.Random) -> None:
        found = self.ledger.some_status(chooser)
        if found is None:
            write.kind = "post"
            return self.post(write, other, chooser)
        write.target = found[0]
        self.post(write, other, chooser, in_reply_to_id=str(found[0]))

    def like(self, write: Write, _other: "Member", chooser: random.Random) -> None:
        found = self.ledger.some_status(chooser)
        if found is None:
            return
        write.target = found[0]
        response = self.call(self.api, "POST", f"/api/v1/statuses/{found[0]}/favourite")
        write.acked = response is not None and response.status_code == 200

    def follow(self, write: Write, other: "Member", _chooser: random.Random) -> None:
        write.target = other.uid
        response = self.call(self.api, "POST", f"/api/v1/accounts/{other.uid}/{write.kind}")
        write.acked = response is not None and response.status_code == 200

    unfollow = follow

    def message(self, write: Write, other: "Member", _chooser: random.Random) -> None:
        write.recipient = other.uid
        fields = {"to": other.login, "message": f"chaos {write.token} to {other.login}"}
        response = self.call(self.web, "POST", "/messages/new/", data=fields)
        where = response.headers.get("Location", "") if response is not None else ""
        sent = response is not None and response.status_code == 302
        found = CONVERSATION_PATH.search(where) if sent else None
        if found:
            write.acked, write.target = True, int(found.group(1))
