"""What every endpoint of the client API shares: its methods, the bearer token and the
scopes it needs, parameters from the query, a form or a JSON body, Mastodon's errors
({"error": "..."} with 401/403/404/405/422/429) and its Link-header pagination."""

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any, TypeAlias
from urllib.parse import parse_qsl, urlencode

import orjson
from django.core.cache import cache
from django.core.exceptions import TooManyFieldsSent
from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpRequest, HttpResponse, QueryDict
from django.http.multipartparser import MultiPartParserError
from django.utils import timezone
from django.utils.datastructures import MultiValueDict
from django.views.decorators.csrf import csrf_exempt
from oauth2_provider.oauth2_backends import get_oauthlib_core
from oauthlib.common import Request as OAuthRequest

from accounts.backends import CachedUserBackend, user_with
from accounts.models import SessionUser
from accounts.services import AccountSuspended, ensure_profile
from socialsite.kept import keep
from socialsite.ratelimit import RateLimited, address, count_visitor_read, enforce
from socialsite.redis import shared_cache
from timeline.audience.selectors import Blocked
from timeline.feeds.selectors import Cursor
from timeline.lists.selectors import NoSuchList
from timeline.statuses.selectors import StatusGone

from . import oauth

# Mastodon's default and largest page of statuses.
DEFAULT_LIMIT, MAX_LIMIT = 20, 40
# Scopes an endpoint may ask for (Mastodon's, granular ones included), with the scopes
# a token holds that grant each: Mastodon's `follow` grants reading and changing
# blocks, mutes and follows.
SCOPE_GRANTED_BY = {
    "read": {"read"},
    "write": {"write"},
    "follow": {"follow", "write"},
    "read:blocks": {"read", "follow"},
    "read:mutes": {"read", "follow"},
    "read:follows": {"read", "follow"},
    "write:blocks": {"follow", "write"},
    "write:mutes": {"follow", "write"},
    "write:follows": {"follow", "write"},
    # Web Push (apipush): only the push scope grants it, as on Mastodon.
    "push": {"push"},
}


class ApiError(Exception):
    def __init__(self, status: int, message: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.status, self.message, self.retry_after = status, message, retry_after


def json_response(data: object, status: int = 200) -> HttpResponse:
    """`data` as a JSON answer, encoded by orjson: a page of 40 Status entities takes it
    ~0.06 ms, the standard library ~0.7 ms (`make bench`, API home). What orjson doesn't
    know (a lazy translation) is encoded as Django's JsonResponse would."""
    body = orjson.dumps(data, default=_DJANGO_JSON.default, option=orjson.OPT_NON_STR_KEYS)
    return HttpResponse(body, content_type="application/json", status=status)


_DJANGO_JSON = DjangoJSONEncoder()


def error_response(status: int, message: str, retry_after: int | None = None) -> HttpResponse:
    response = json_response({"error": message}, status=status)
    if retry_after is not None:
        response["Retry-After"] = str(retry_after)
    return response


@dataclass(frozen=True)
class Caller:
    """Who calls: the token's user (None for an app-only token), their uid, and what
    the token grants."""

    user: SessionUser | None
    uid: int | None
    scope: str
    application_id: int


class ApiRequest(HttpRequest):
    """A request as an API view gets it from `endpoint`: its caller (None for a visitor)
    and, for a multipart PUT, PATCH or DELETE, its uploaded files."""

    caller: Caller | None
    uploads: MultiValueDict


# What an API view returns to `endpoint`: data (a JSON object or array), data and
# headers, or a response of its own.
ApiResult: TypeAlias = dict | list | tuple[dict | list, dict] | HttpResponse


def caller(request: HttpRequest) -> Caller | None:
    """The caller of a request with a valid bearer token, else None."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    return caller_for_token(token.strip()) if scheme.lower() == "bearer" else None


# The user of each access token this process has seen with one: token cache key ->
# (user id, uid). Such a token's cache entry is read in one round trip with its user
# (accounts.backends.user_with), not two. Forgotten all at once when full; a wrong
# guess (the token revoked, or another user's) is checked and forgotten.
KNOWN_TOKENS: dict[str, tuple[str, int]] = {}
KNOWN_TOKENS_KEPT = 100_000


def caller_for_token(token: str) -> Caller | None:
    """Who calls with access token `token`: None for an unknown, expired or revoked
    one, or one of a user who can't log in (inactive: suspended).

    The token is checked in the ORM once, then read from the cache (Redis) as the
    session's user is (accounts.backends): a token lookup costs a page of statuses
    as much as the rest of it. Revoking or changing a token forgets it at once
    (api.oauth.forget_cached_token)."""
    if not token:
        return None
    key = oauth.token_cache_key(token)
    found = user = None
    guess = KNOWN_TOKENS.get(key)
    if guess is not None:
        client = shared_cache("default").client
        user, raw = user_with(*guess, lambda pipe: pipe.get(client.make_key(key)))
        found = None if raw.value is None else client.decode(raw.value)
        if found is None or str(found["user_id"]) != guess[0]:
            # The token's entry is gone (checked afresh below) or names another user
            # (read below): the guess is forgotten.
            KNOWN_TOKENS.pop(key, None)
            user = guess = None
    else:
        found = cache.get(key)
    if found is None:
        checked = OAuthRequest("")
        validator = get_oauthlib_core().server.request_validator
        if not validator.validate_bearer_token(token, [], checked):
            return None
        access = checked.access_token
        found = {
            "user_id": access.user_id,
            "scope": access.scope,
            "application_id": access.application_id,
            "expires": access.expires,
        }
        cache.set(key, found, oauth.TOKEN_CACHE_SECONDS)
    if found["expires"] <= timezone.now():
        return None
    if found["user_id"] is not None:
        # None for an inactive user; saving the user forgets the cached one.
        if guess is None:
            user = CachedUserBackend().get_user(found["user_id"])
        if user is None:
            return None
    uid = (user.uid or ensure_profile(user)) if user is not None else None
    if user is not None and uid is not None and guess is None:
        keep(KNOWN_TOKENS, key, (str(user.pk), uid), KNOWN_TOKENS_KEPT)
    return Caller(user=user, uid=uid, scope=found["scope"], application_id=found["application_id"])


def has_scope(found: Caller, scope: str) -> bool:
    return bool(SCOPE_GRANTED_BY[scope] & set(found.scope.split()))


def endpoint(*methods: str, scope: str | None = None, user: bool = True, public: bool = False):
    """An API view answering `methods`: with `scope`, a valid token granting it (401/403
    otherwise); with `user`, a token of a user rather than an app alone (422); `public`
    views take visitors too. The view gets `request.caller` (None for a visitor) and
    returns data, (data, headers) or a response; refusals become Mastodon's errors."""

    def decorator(view: Callable):
        @csrf_exempt
        @wraps(view)
        def wrapped(request: ApiRequest, **kwargs) -> HttpResponse:
            if request.method not in methods:
                response = error_response(405, f"Use {' or '.join(methods)}.")
                response["Allow"] = ", ".join(methods)
                return response
            try:
                request.caller = caller(request)
                if request.caller is None and "Authorization" in request.headers:
                    # A made-up or revoked token reads as a visitor does, and is counted so.
                    count_visitor_read(request)
                check_caller(request, scope, user=user, public=public)
                result = view(request, **kwargs)
            except ApiError as error:
                return error_response(error.status, error.message, error.retry_after)
            except RateLimited as error:
                return error_response(429, str(error), error.retry_after)
            except (StatusGone, NoSuchList) as error:
                return error_response(404, str(error))
            except (AccountSuspended, Blocked) as error:
                return error_response(403, str(error))
            except PermissionError as error:
                return error_response(403, str(error))
            except ValueError as error:
                return error_response(422, str(error))
            if isinstance(result, HttpResponse):
                return result
            data, headers = result if isinstance(result, tuple) else (result, {})
            response = json_response(data)
            for name, value in headers.items():
                response[name] = value
            return response

        return wrapped

    return decorator


def check_caller(request: ApiRequest, scope: str | None, *, user: bool, public: bool) -> None:
    found = request.caller
    if found is None:
        if public:
            return
        raise ApiError(401, "The access token is invalid")
    if scope and not has_scope(found, scope):
        raise ApiError(403, "This action is outside the authorized scopes")
    if user and found.uid is None:
        raise ApiError(422, "This method requires an authenticated user")


def token_caller(request: ApiRequest) -> Caller:
    """The caller, for a view `endpoint` serves only with a valid token (check_caller)."""
    if request.caller is None:
        raise ApiError(401, "The access token is invalid")
    return request.caller


def caller_uid(request: ApiRequest) -> int:
    """The calling user's uid, for a view `endpoint` serves only with a user's token
    (check_caller, user=True)."""
    uid = token_caller(request).uid
    if uid is None:
        raise ApiError(422, "This method requires an authenticated user")
    return uid


def viewer(request: ApiRequest) -> int | None:
    return request.caller.uid if request.caller is not None else None


def params(request: ApiRequest) -> dict:
    """The request's parameters: the query's, then a form's or a JSON object's."""
    try:
        found: dict[str, Any] = {name: values[-1] for name, values in request.GET.lists()}
        if request.content_type == "application/json":
            body = json.loads(request.body or b"{}")
            if not isinstance(body, dict):
                raise ApiError(422, "The JSON body must be an object.")
            found.update(body)
        elif request.method != "GET":
            # Django parses only a POST's form: a PUT's, a PATCH's or a DELETE's is parsed here.
            form = request.POST if request.method == "POST" else form_body(request)
            found.update({name: values[-1] for name, values in form.lists()})
            # Mastodon's array parameters: id[]=1&id[]=2.
            found.update({n: v for n, v in form.lists() if n.endswith("[]")})
        found.update({n: v for n, v in request.GET.lists() if n.endswith("[]")})
    except (ValueError, TooManyFieldsSent, MultiPartParserError):
        raise ApiError(422, "The parameters can't be read.") from None
    return found


def form_body(request: ApiRequest) -> QueryDict:
    """The form of a PUT, PATCH or DELETE; a multipart one's files go to `request.uploads`."""
    if request.content_type == "multipart/form-data":
        form, request.uploads = request.parse_file_upload(request.META, request)
        return form
    if request.content_type != "application/x-www-form-urlencoded":
        return QueryDict()
    return QueryDict(request.body)


def form_pairs(request: ApiRequest) -> list[tuple[str, str]]:
    """Every (name, value) of the query and a form, in order: Rails-style nested
    parameters (`home[last_read_id]`, `keywords_attributes[][keyword]`) as sent.
    (apiprefs: markers and filters.)"""
    pairs = parse_qsl(request.META.get("QUERY_STRING", ""), keep_blank_values=True)
    if request.method == "GET" or request.content_type == "application/json":
        return pairs
    if request.content_type == "application/x-www-form-urlencoded":
        # In the order sent (a QueryDict groups a name's values): each nested item's
        # fields come together.
        body = request.body.decode("utf-8", "replace")
        return pairs + parse_qsl(body, keep_blank_values=True, max_num_fields=1000)
    form = request.POST if request.method == "POST" else form_body(request)
    return pairs + [(name, value) for name, values in form.lists() for value in values]


def uploaded(request: ApiRequest, name: str):
    """The file uploaded as `name` in a multipart form (after `params`), or None."""
    files = request.FILES if request.method == "POST" else getattr(request, "uploads", {})
    return files.get(name)


def id_param(value, name: str = "id") -> int:
    """An id given as a parameter or a URL part, or 404 as Mastodon answers for no record."""
    try:
        number = int(str(value))
    except ValueError:
        raise ApiError(404, "Record not found") from None
    if not 0 < number < 1 << 63:
        raise ApiError(404, "Record not found")
    return number


def optional_id(found: dict, name: str) -> int | None:
    value = found.get(name)
    if value in (None, ""):
        return None
    try:
        number = int(str(value))
    except ValueError:
        raise ApiError(422, f"{name} must be a status id.") from None
    if not 0 < number < 1 << 63:
        raise ApiError(422, f"{name} must be a status id.")
    return number


def limit_param(found: dict, default: int = DEFAULT_LIMIT, most: int = MAX_LIMIT) -> int:
    """`limit`: Mastodon takes any number and keeps it within 1..most."""
    value = found.get("limit")
    if value in (None, ""):
        return default
    try:
        return max(1, min(int(str(value)), most))
    except ValueError:
        raise ApiError(422, "limit must be a number.") from None


def cursor_params(found: dict) -> Cursor:
    return Cursor(
        max_id=optional_id(found, "max_id"),
        since_id=optional_id(found, "since_id"),
        min_id=optional_id(found, "min_id"),
    )


def link_header(request: ApiRequest, items: list[dict], *, more: bool = True) -> dict:
    """Mastodon's Link header for a page of `items` (by id): older ones after the last
    (rel="next", only if `more`), newer ones before the first (rel="prev")."""
    if not items:
        return {}
    base = request.build_absolute_uri(request.path)
    query = {
        name: value
        for name, value in request.GET.items()
        if name not in {"max_id", "min_id", "since_id"}
    }
    links = []
    if more:
        links.append(f'<{base}?{urlencode({**query, "max_id": items[-1]["id"]})}>; rel="next"')
    links.append(f'<{base}?{urlencode({**query, "min_id": items[0]["id"]})}>; rel="prev"')
    return {"Link": ", ".join(links)}


def limit_rate(request: ApiRequest, name: str) -> None:
    """Counts an action against the caller's account limit `name`, the one the pages'
    forms count against (socialsite.ratelimit.account), or, for a visitor or an app's own
    token (no user), the address's: RateLimited over it."""
    user = request.caller.user if request.caller is not None else None
    enforce(name, f"user:{user.pk}" if user is not None else address(request))
