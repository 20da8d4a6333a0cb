"""Fuzzing every route of the site with hostile input (odd unicode, NUL and lone
surrogate bytes, huge and negative numbers, huge bodies, wrong methods, no CSRF token),
as a visitor, a member and a moderator: no answer is a 5xx, and a refused request
changes no key in Redis (the streaming API's routes: test_fuzz_streams.py).

The site's routes are read from the URL resolver, so a new route is fuzzed as soon as it
exists; a route whose parameter no generator here can make fails the test until one is
added. Hypothesis runs derandomized, so a run is the same on every machine."""

import re
from urllib.parse import quote, quote_from_bytes

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends.cache import KEY_PREFIX as SESSION_KEY_PREFIX
from django.core import signing
from django.core.cache import cache
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve
from django.urls import path as url_path
from django.urls.converters import IntConverter, PathConverter, StringConverter
from django.urls.resolvers import RegexPattern, RoutePattern
from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st

from accounts import devices
from accounts.backends import user_cache_key
from api.http import caller_for_token
from api.oauth import OOB, issue_token, register_app
from socialsite import ratelimit
from streaming.services import create_stream_key
from timeline.lists import services as lists
from timeline.posting.services import post_status

EXAMPLES_PER_ROUTE = 12
STREAM_EXAMPLES = 40
FUZZ_SETTINGS = settings(
    max_examples=EXAMPLES_PER_ROUTE,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# Keys a refused request may change: sessions (a logout refused with a 400 for its
# unreadable body has still ended its session) and the user cached on a read.
CHANGING_PREFIXES = (
    cache.make_key(SESSION_KEY_PREFIX),
    cache.make_key(user_cache_key("")),
    # Rate limits count attempts, refused ones too.
    "ratelimit:",
)

# Percent-encoded text that has hurt servers: NUL, lone surrogates (as UTF-8 would
# encode them, which is not UTF-8), overlong and truncated sequences, bidi overrides,
# encoded slashes and dots, a huge segment.
ODD_TEXT = [
    "%00",
    "a%00b",
    "%ED%A0%80",
    "%ED%BF%BFx",
    "%FF%FE",
    "%C0%AF",
    "%E2%80",
    "%E2%80%AE",
    "%EF%BB%BF",
    "%F0%9F%98%80",
    "%2F",
    "..",
    "%2E%2E",
    "%25",
    "%",
    "alice",
    "@ALICE",
    "x" * 5000,
]
HUGE_NUMBERS = ["9" * 400, str(2**63), str(2**64 + 1), str(-(2**63) - 1), "-1", "0", "1e9"]


def encoded(text: str) -> str:
    """`text` percent-encoded, lone surrogates as the bytes UTF-8 would give them."""
    return quote(text.encode("utf-8", "surrogatepass"), safe="")


odd_text = st.one_of(
    st.sampled_from(ODD_TEXT),
    st.text(min_size=1, max_size=40).map(encoded),
    st.binary(min_size=1, max_size=40).map(lambda raw: quote_from_bytes(raw, safe="")),
)
numbers = st.one_of(st.sampled_from(HUGE_NUMBERS), st.integers(-(2**70), 2**70).map(str))
# Small ids name the statuses, lists and users the test made.
ids = st.one_of(st.sampled_from(["1", "2", "3"]), numbers, odd_text)

# For each converter a route may use: a parameter naming something the test made, and a
# strategy for parameters it matches or not.
PARAMETERS = {
    IntConverter: ("1", ids),
    StringConverter: (
        "alice",
        st.one_of(st.sampled_from(["alice", "bob", "redis", "ssk_1"]), odd_text),
    ),
    PathConverter: ("1", st.one_of(ids, st.lists(odd_text, min_size=1, max_size=3).map("/".join))),
}
ROUTE_PARAMETER = re.compile(r"<(?:(?P<converter>[^>:]+):)?(?P<name>[^>]+)>")


def simplest(strategy: st.SearchStrategy[str]) -> str:
    """The simplest text `strategy` makes (kept in no example database)."""
    return find(strategy, lambda _: True, settings=settings(database=None))


def route_part(pattern, *, plain: bool = False) -> st.SearchStrategy[str]:
    """What one pattern of a route's chain matches, or nearly does; or, `plain`, what it
    matches naming something the test made."""
    if isinstance(pattern, RegexPattern):
        matches = st.from_regex(pattern.regex, fullmatch=True)
        return (st.just(simplest(matches)) if plain else matches).map(
            lambda text: quote(text.encode("utf-8", "surrogatepass"), safe="/")
        )
    assert isinstance(pattern, RoutePattern), f"no generator for {type(pattern).__name__}"
    route = str(pattern)
    parts = []
    for literal, match in zip(
        ROUTE_PARAMETER.split(route)[::3],
        [*ROUTE_PARAMETER.finditer(route), None],
        strict=True,
    ):
        parts.append(st.just(literal))
        if match is not None:
            converter = type(pattern.converters[match["name"]])
            assert converter in PARAMETERS, f"no generator for {match[0]} in {route!r}"
            natural, strategy = PARAMETERS[converter]
            parts.append(st.just(natural) if plain else strategy)
    return st.tuples(*parts).map("".join)


def site_routes(resolver=None, chain=()) -> list[tuple]:
    """Every route of the site, as the chain of patterns that leads to its view."""
    found = []
    for entry in (resolver or get_resolver()).url_patterns:
        if isinstance(entry, URLResolver):
            found += site_routes(entry, (*chain, entry.pattern))
        else:
            assert isinstance(entry, URLPattern)
            found.append((*chain, entry.pattern))
    return found


def route_id(chain: tuple) -> str:
    return "/" + "".join(str(pattern) for pattern in chain)


def paths(chain: tuple, *, plain: bool = False) -> st.SearchStrategy[str]:
    parts = (route_part(pattern, plain=plain) for pattern in chain)
    return st.tuples(*parts).map(lambda parts: "/" + "".join(parts))


def plain_path(chain: tuple) -> str:
    """The route's path naming what the test made (its one example)."""
    return simplest(paths(chain, plain=True))


PARAMETER_NAMES = ["page", "q", "next", "after", "author", "id", "user", "type", "count"]
query_strings = st.lists(
    st.tuples(
        st.one_of(st.sampled_from(PARAMETER_NAMES), odd_text),
        st.one_of(numbers, odd_text, st.just("")),
    ),
    max_size=3,
).map(lambda pairs: "&".join(f"{name}={value}" for name, value in pairs))
# ?page= is on every list page: most requests have one.
query_strings = (
    st.tuples(st.one_of(numbers, odd_text, st.just("")), query_strings).map(
        lambda parts: f"page={parts[0]}&{parts[1]}"
    )
    | query_strings
)

FIELD_NAMES = [
    "message",
    "location",
    "name",
    "login",
    "username",
    "password",
    "password1",
    "password2",
    "old_password",
    "new_password1",
    "new_password2",
    "next",
    "key-name",
    "reason",
    "comment",
    "action",
    "in_reply_to",
]
FORM = "application/x-www-form-urlencoded"
field_values = st.one_of(odd_text, numbers, st.sampled_from(["hello", "1,2", "bob", "x" * 300]))
# Every field any form of the site has, so each view's form gets odd values; and others.
form_bodies = st.tuples(
    st.fixed_dictionaries({name: field_values for name in FIELD_NAMES}),
    st.lists(st.tuples(odd_text, field_values), max_size=2),
).map(
    lambda fields: "&".join(
        f"{name}={value}" for name, value in [*fields[0].items(), *fields[1]]
    ).encode()
)
# Over DATA_UPLOAD_MAX_MEMORY_SIZE, over DATA_UPLOAD_MAX_NUMBER_FIELDS, and one huge field.
HUGE_BODIES = [
    b"x" * (django_settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1),
    b"a=1&" * (django_settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 1),
    b"message=" + b"y" * 100_000,
]
bodies = st.one_of(
    st.tuples(st.just(FORM), form_bodies),
    st.tuples(st.just(FORM), st.sampled_from(HUGE_BODIES)),
    st.tuples(
        st.sampled_from(
            ["multipart/form-data; boundary=zz", "multipart/form-data", "application/json", ""]
        ),
        st.one_of(st.binary(max_size=200), st.sampled_from(HUGE_BODIES)),
    ),
)
METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]
WHO = ["visitor", "member", "moderator"]
site_requests = st.fixed_dictionaries(
    {
        # Mostly the methods the site answers, so that most requests reach a view.
        "method": st.sampled_from(["POST", "GET", "POST", "GET", *METHODS]),
        "who": st.sampled_from(WHO),
        "query": query_strings,
        "body": bodies,
    }
)


def redis_snapshot(conn) -> dict[str, bytes]:
    """Every key but those a refused request may change, with its serialized value."""
    names = sorted(
        name for name in conn.scan_iter(count=1000) if not name.startswith(CHANGING_PREFIXES)
    )
    pipe = conn.pipeline(transaction=False)
    for name in names:
        pipe.dump(name)
    return dict(zip(names, pipe.execute(), strict=True))


def changed_keys(before: dict, after: dict) -> list[str]:
    return sorted(
        name for name in before.keys() | after.keys() if before.get(name) != after.get(name)
    )


def is_refused(response) -> bool:
    """A 4xx, a redirect to a login page, or a form shown again with its errors."""
    if 400 <= response.status_code < 500:
        return True
    if response.status_code == 302:
        return response["Location"].split("?")[0].endswith("/login/")
    if response.streaming:
        # A download (the data export) is no form: read it whole, so a failure midway shows.
        b"".join(response)
        return False
    return b'class="field-error"' in response.content or b"errorlist" in response.content


class Site:
    """Two members and a moderator with statuses, a list and a stream key, and a client
    for each of them and for a visitor."""

    def __init__(self, make_user) -> None:
        alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
        carol.user.is_staff = carol.user.is_superuser = True
        carol.user.save()
        first = post_status(bob.uid, "hello @alice #redis")
        post_status(alice.uid, "a reply", in_reply_to=first)
        lists.add_member(alice.uid, lists.create_list(alice.uid, "Friends"), bob.uid)
        create_stream_key(alice.uid, "tests")
        self.users = {"visitor": None, "member": alice.user, "moderator": carol.user}
        self.clients = {who: Client() for who in WHO}

    def client(self, who: str, *, csrf_checked: bool) -> Client:
        """The client of `who`, logged in again if a request logged it out."""
        client, user = self.clients[who], self.users[who]
        if user is not None and SESSION_KEY not in client.session:
            client.force_login(user)
        client.handler.enforce_csrf_checks = csrf_checked
        return client

    def check(
        self,
        redis_conn,
        method: str,
        who: str,
        target: str,
        *,
        csrf_checked: bool,
        content_type: str = FORM,
        body: bytes = b"",
        **headers: str,
    ):
        """Sends the request (with `headers`, as Django's test client names them): no
        5xx, and nothing changed in Redis if it was refused. Returns the response."""
        client = self.client(who, csrf_checked=csrf_checked)
        if method in ("GET", "HEAD", "OPTIONS"):
            content_type, body = FORM, b""
        before = redis_snapshot(redis_conn)
        response = client.generic(method, target, body, content_type, **headers)
        request = (method, who, target[:200], content_type, body[:200])
        assert response.status_code < 500, (request, response.status_code)
        if is_refused(response):
            changed = changed_keys(before, redis_snapshot(redis_conn))
            assert changed == [], (request, response.status_code, changed)
        return response


@pytest.fixture
def site(make_user) -> Site:
    return Site(make_user)


def test_a_route_whose_parameter_has_no_generator_fails_the_fuzz_test():
    new_route = url_path("things/<uuid:thing>/", lambda request, thing: None).pattern
    with pytest.raises(AssertionError, match="no generator for <uuid:thing>"):
        route_part(new_route)


@pytest.mark.parametrize("chain", site_routes(), ids=route_id)
def test_no_site_route_fails_on_hostile_input_or_changes_redis_when_it_refuses(
    chain, site, redis_conn
):
    # As everyone: the plain page, and a form sent without a CSRF token (refused: 403,
    # or, on the client API's routes, which take no cookie but a bearer token, a 4xx).
    token_only = getattr(resolve(plain_path(chain)).func, "csrf_exempt", False)
    for who in WHO:
        site.check(redis_conn, "GET", who, plain_path(chain), csrf_checked=True)
        status = site.check(redis_conn, "POST", who, plain_path(chain), csrf_checked=True)
        status = status.status_code
        assert 400 <= status < 500 if token_only else status == 403

    @FUZZ_SETTINGS
    @given(path=paths(chain), request=site_requests)
    def check(path, request):
        content_type, body = request["body"]
        target = f"{path}?{request['query']}" if request["query"] else path
        site.check(
            redis_conn,
            request["method"],
            request["who"],
            target,
            csrf_checked=False,
            content_type=content_type,
            body=body,
        )

    check()


# Each rate limit: a request it refuses once reached (who sends it, method, path, the
# fields that name what it counts) and its subject ("user": the member's account). A
# limit missing here fails the test below.
ALICE = {"username": "alice"}
LIMITED = {
    "login_failures_per_login": ("visitor", "POST", "/accounts/login/", ALICE, "login:alice"),
    "login_failures_per_device": ("device", "POST", "/accounts/login/", ALICE, "device:n"),
    "login_failures_per_ip": ("visitor", "POST", "/accounts/login/", {}, "ip:127.0.0.1"),
    "signups_per_ip": ("visitor", "POST", "/accounts/signup/", {}, "ip:127.0.0.1"),
    "posts": ("member", "POST", "/statuses/", {}, "user"),
    "edits": ("member", "POST", "/statuses/1/edit/", {}, "user"),
    "follows": ("member", "POST", "/u/bob/follow/", {}, "user"),
    "reactions": ("member", "POST", "/statuses/1/like/", {}, "user"),
    "list_changes": ("member", "POST", "/lists/", {}, "user"),
    "stream_keys": ("member", "POST", "/streaming/keys/", {}, "user"),
    "password_changes": ("member", "POST", "/accounts/password/", {}, "user"),
    "messages": ("member", "POST", "/messages/new/", {}, "user"),
    "safety": ("member", "POST", "/u/bob/block/", {}, "user"),
    "reports": ("member", "POST", "/u/bob/report/", {}, "user"),
    "group_creations": ("member", "POST", "/groups/new/", {}, "user"),
    "group_joins": ("member", "POST", "/g/nogroup/join/", {}, "user"),
    "keeps": ("member", "POST", "/statuses/1/bookmark/", {}, "user"),
    "poll_votes": ("member", "POST", "/polls/1/votes/", {}, "user"),
    "account_deletions": ("member", "POST", "/accounts/delete/", {}, "user"),
    "exports": ("member", "POST", "/export/", {}, "user"),
    "searches": ("member", "GET", "/search/", {"q": "redis"}, "user"),
    "apps_per_ip": ("visitor", "POST", "/api/v1/apps", {}, "ip:127.0.0.1"),
    "profile_changes": ("member", "POST", "/accounts/profile/", {}, "user"),
    "avatar_changes": ("member", "POST", "/accounts/avatar/remove/", {}, "user"),
    "group_moderation": ("member", "POST", "/g/nogroup/requests/bob/approve/", {}, "user"),
    "settings_changes": ("member", "POST", "/accounts/logout/everywhere/", {}, "user"),
    # Media (timeline.media): an upload through the client API (TOKEN_SCOPES).
    "media": ("member", "POST", "/api/v2/media", {}, "user"),
    # A made-up token reads as a visitor (one offering none is refused before Django).
    "anonymous_reads": ("visitor", "GET", "/api/v1/timelines/public", {}, "ip:127.0.0.1"),
    # Web Push: sent with the member's token granting push (TOKEN_SCOPES).
    "push_subscriptions": ("visitor", "POST", "/api/v1/push/subscription", {}, "user"),
    # Markers, with the member's token; filters, on the settings page.
    "markers": ("visitor", "POST", "/api/v1/markers", {}, "user"),
    "filter_changes": ("member", "POST", "/accounts/filters/", {}, "user"),
}  # fmt: skip
# The limits of the client API's calls only a token may make: the scopes it is given.
TOKEN_SCOPES = {"push_subscriptions": "read push", "media": "write", "markers": "read write"}
fields = st.dictionaries(
    st.one_of(st.sampled_from(FIELD_NAMES), odd_text), field_values, max_size=4
)


def test_every_rate_limit_is_fuzzed():
    assert set(LIMITED) == set(django_settings.RATE_LIMITS)


@pytest.mark.parametrize("name", sorted(LIMITED))
def test_a_request_over_a_limit_is_429_whatever_it_sends_and_changes_nothing(
    name, site, redis_conn, settings
):
    who, method, path, named, subject = LIMITED[name]
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, name: (1, 3600)}
    member = site.users["member"]
    ratelimit.wait_seconds(name, f"user:{member.pk}" if subject == "user" else subject)
    if who == "device":  # a browser that logged in as alice before
        who, cookie = "visitor", signing.dumps({"alice": "n"}, salt=devices.SALT, compress=True)
        site.clients[who].cookies[settings.DEVICE_COOKIE_NAME] = cookie
    headers = {"HTTP_AUTHORIZATION": "Bearer made-up"} if name == "anonymous_reads" else {}
    if name in TOKEN_SCOPES:  # the member's token
        app, _ = register_app("fuzz", OOB, TOKEN_SCOPES[name])
        token = issue_token(app, member, TOKEN_SCOPES[name])
        caller_for_token(token)  # its check is cached now, not by the refused request
        headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"}

    @FUZZ_SETTINGS
    @given(sent=fields)
    def check(sent):
        query = "&".join(f"{field}={value}" for field, value in {**sent, **named}.items())
        target, body = (f"{path}?{query}", b"") if method == "GET" else (path, query.encode())
        response = site.check(
            redis_conn, method, who, target, csrf_checked=False, body=body, **headers
        )
        assert response.status_code == 429, (target, body[:200])
        assert 3590 <= int(response["Retry-After"]) <= 3600
        if path.startswith("/api/"):
            assert response.json()["error"].startswith("Too many")
        else:
            assert b"Too many" in response.content

    check()
