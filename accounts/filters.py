"""Filters: the words and statuses a user doesn't want to see, Mastodon's filters v2.

A filter has a title, the contexts it applies in (home, notifications, public, thread,
account), an action (`warn`: shown behind a warning naming it; `hide`: left out), an
optional end, and what it matches: keywords (a whole phrase, by the site's word rule,
or any text containing it) and statuses by id. The settings page's muted words are one
such filter ("Muted words": home, hide, whole words), so there is one store and one
rule for both: `matches` (what a status matches) and `hidden_in_home` (what the one
visibility rule, timeline.audience, asks).

Storage: one hash a user, in their slot (accounts.keys.filters_key): each filter as JSON
under its id, and "next_id", the last id handed to a filter, keyword or status of
theirs. A change rewrites one filter's JSON by compare and set (lua/filter_swap.lua),
retried if another request changed it meanwhile."""

import functools
import json
import time
from collections.abc import Callable, Iterable
from typing import Any

from django.dispatch import Signal

from socialsite.redis import Client, get_redis
from socialsite.scripts import LuaScripts
from socialsite.text import words

# The rule (what a status matches) is filter_rule's, re-exported.
from .filter_rule import HomeHiding as HomeHiding
from .filter_rule import hidden_in_home as hidden_in_home
from .filter_rule import hides as hides
from .filter_rule import is_active as is_active
from .filter_rule import matches as matches
from .keys import filters_key

_lua = LuaScripts(__file__)

CONTEXTS = ("home", "notifications", "public", "thread", "account")
ACTIONS = ("warn", "hide")
FILTERS_MAX = 100
KEYWORDS_MAX = 100  # a filter's, as the muted words were
STATUSES_MAX = 100
TITLE_MAX = 100
KEYWORD_MAX_BYTES = 60  # as a track phrase
EXPIRES_IN_MAX = 10 * 365 * 86400
NEXT_ID = "next_id"
MUTED_WORDS_TITLE = "Muted words"
SWAP_TRIES = 5

Filter = dict[str, Any]


class NoSuchFilter(LookupError):
    """No filter (or keyword, or status of one) of that id is the user's."""


# Checks


def check_title(title: object) -> str:
    text = str(title or "").strip()
    if not text or len(text) > TITLE_MAX:
        raise ValueError(f"title is 1 to {TITLE_MAX} characters.")
    return text


def check_context(context: object) -> list[str]:
    names: list = [context] if isinstance(context, str) else []
    if isinstance(context, list | tuple):
        names = list(context)
    names = list(dict.fromkeys(str(name) for name in names))
    if not names:
        raise ValueError(f"context is one or more of {', '.join(CONTEXTS)}.")
    unknown = [name for name in names if name not in CONTEXTS]
    if unknown:
        raise ValueError(f"context {unknown[0]!r} is not one of {', '.join(CONTEXTS)}.")
    return names


def check_action(action: object) -> str:
    if str(action) not in ACTIONS:
        raise ValueError(f"filter_action is {' or '.join(ACTIONS)}.")
    return str(action)


def check_expires_in(expires_in: object) -> float | None:
    """When a filter given `expires_in` seconds ends (None or "": never)."""
    if expires_in in (None, ""):
        return None
    try:
        seconds = int(str(expires_in))
    except ValueError:
        raise ValueError("expires_in is a number of seconds.") from None
    if not 0 < seconds <= EXPIRES_IN_MAX:
        raise ValueError(f"expires_in is 1 to {EXPIRES_IN_MAX} seconds.")
    return time.time() + seconds


def check_keyword(keyword: object) -> str:
    text = str(keyword or "").strip()
    if not text:
        raise ValueError("A keyword can't be blank.")
    if len(text.encode()) > KEYWORD_MAX_BYTES or "\n" in text:
        raise ValueError(f"The keyword {text[:20]!r} is longer than {KEYWORD_MAX_BYTES} bytes.")
    if not words(text):
        raise ValueError(f"The keyword {text!r} has no words.")
    return text


# Reads


def _decode(raw: dict[str, str]) -> list[Filter]:
    found = [_parsed(value) for field, value in raw.items() if field != NEXT_ID]
    return sorted(found, key=lambda found: int(found["id"]))


# Every page of a viewer with filters decodes them (timeline.audience): each stored
# JSON is parsed once a process. Callers read these dicts, never change them (a change
# parses its own copy: _change).
@functools.lru_cache(maxsize=4096)
def _parsed(value: str) -> Filter:
    found: Filter = json.loads(value)
    return found


def list_filters(uid: int) -> list[Filter]:
    """`uid`'s filters, the oldest first, ended ones too (1 round trip)."""
    return _decode(get_redis().hgetall(filters_key(uid)))


def decode_filters(raw: dict[str, str] | None) -> list[Filter]:
    """The filters of a filters hash read elsewhere (timeline.audience reads it with the
    rest of what the rule needs)."""
    return _decode(raw or {})


def get_filter(uid: int, filter_id: object) -> Filter:
    raw = get_redis().hget(filters_key(uid), str(filter_id)) if str(filter_id).isdigit() else None
    if raw is None:
        raise NoSuchFilter("Record not found")
    found: Filter = json.loads(raw)
    return found


def find_part(uid: int, part: str, part_id: object) -> tuple[Filter, dict]:
    """The filter holding the keyword or status (`part`: "keywords" or "statuses") of id
    `part_id`, and that part."""
    for found in list_filters(uid):
        for item in found[part]:
            if item["id"] == str(part_id):
                return found, item
    raise NoSuchFilter("Record not found")


# Writes


def _next_ids(conn: Client, uid: int, count: int) -> list[str]:
    last = conn.hincrby(filters_key(uid), NEXT_ID, count)
    return [str(number) for number in range(last - count + 1, last + 1)]


def _swap(conn: Client, uid: int, field: str, before: str | None, after: Filter | None) -> bool:
    written = _lua.run(
        conn,
        "filter_swap",
        [filters_key(uid)],
        [field, before or "", json.dumps(after) if after is not None else ""],
    )
    return bool(written)


def _change(
    uid: int, filter_id: object, change: Callable[[Filter], Filter | None]
) -> Filter | None:
    """Applies `change` to filter `filter_id` (None from it deletes the filter), retried
    while another request changes it meanwhile; the filter as written."""
    conn = get_redis()
    field = str(filter_id)
    for _ in range(SWAP_TRIES):
        raw = conn.hget(filters_key(uid), field) if field.isdigit() else None
        if raw is None:
            raise NoSuchFilter("Record not found")
        after = change(json.loads(raw))
        if _swap(conn, uid, field, raw, after):
            announce_change(uid)
            return after
    raise ValueError("The filter is being changed elsewhere: try again.")


def _keywords(conn: Client, uid: int, given: Iterable[tuple[object, object]]) -> list[dict]:
    checked = [(check_keyword(keyword), bool(whole)) for keyword, whole in given]
    ids = _next_ids(conn, uid, len(checked)) if checked else []
    return [
        {"id": kid, "keyword": keyword, "whole_word": whole}
        for kid, (keyword, whole) in zip(ids, checked, strict=True)
    ]


def create_filter(
    uid: int,
    *,
    title: object,
    context: object,
    filter_action: object = "warn",
    expires_in: object = None,
    keywords: Iterable[tuple[object, object]] = (),
) -> Filter:
    """Makes a filter of `uid`'s with `keywords` ((keyword, whole word) pairs); ValueError
    naming what is wrong (nothing stored)."""
    found = {
        "title": check_title(title),
        "context": check_context(context),
        "filter_action": check_action(filter_action or "warn"),
        "expires_at": check_expires_in(expires_in),
    }
    given = list(keywords)
    if len(given) > KEYWORDS_MAX:
        raise ValueError(f"A filter has at most {KEYWORDS_MAX} keywords.")
    for keyword, _ in given:
        check_keyword(keyword)
    conn = get_redis()
    if conn.hlen(filters_key(uid)) > FILTERS_MAX:
        raise ValueError(f"You have {FILTERS_MAX} filters already.")
    (filter_id,) = _next_ids(conn, uid, 1)
    made = {"id": filter_id, **found, "keywords": _keywords(conn, uid, given), "statuses": []}
    _swap(conn, uid, filter_id, None, made)
    announce_change(uid)
    return made


def update_filter(
    uid: int,
    filter_id: object,
    *,
    changes: dict[str, object],
    keywords_attributes: list[dict] = (),  # type: ignore[assignment]
) -> Filter:
    """Changes a filter's title, context, filter_action or expires_in (those in
    `changes`) and its keywords (Mastodon's keywords_attributes: {id?, keyword,
    whole_word, _destroy}); ValueError (nothing changed) for bad input."""
    checked: dict[str, object] = {}
    if "title" in changes:
        checked["title"] = check_title(changes["title"])
    if "context" in changes:
        checked["context"] = check_context(changes["context"])
    if "filter_action" in changes:
        checked["filter_action"] = check_action(changes["filter_action"])
    if "expires_in" in changes:
        checked["expires_at"] = check_expires_in(changes["expires_in"])
    for item in keywords_attributes:
        if not truthy(item.get("_destroy")) and ("keyword" in item or not item.get("id")):
            check_keyword(item.get("keyword"))
    new = [item for item in keywords_attributes if not item.get("id")]
    conn = get_redis()
    added = _keywords(
        conn, uid, [(i.get("keyword"), truthy(i.get("whole_word", True))) for i in new]
    )

    def change(found: Filter) -> Filter:
        found.update(checked)
        kept = []
        by_id = {str(i["id"]): i for i in keywords_attributes if i.get("id")}
        for keyword in found["keywords"]:
            asked = by_id.pop(keyword["id"], None)
            if asked is None:
                kept.append(keyword)
            elif not truthy(asked.get("_destroy")):
                if "keyword" in asked:
                    keyword["keyword"] = check_keyword(asked["keyword"])
                if "whole_word" in asked:
                    keyword["whole_word"] = truthy(asked["whole_word"])
                kept.append(keyword)
        if by_id:
            raise NoSuchFilter("Record not found")
        found["keywords"] = kept + added
        if len(found["keywords"]) > KEYWORDS_MAX:
            raise ValueError(f"A filter has at most {KEYWORDS_MAX} keywords.")
        return found

    result = _change(uid, filter_id, change)
    assert result is not None
    return result


def delete_filter(uid: int, filter_id: object) -> None:
    _change(uid, filter_id, lambda found: None)


def add_keyword(uid: int, filter_id: object, keyword: object, whole_word: object = True) -> dict:
    (made,) = _keywords(get_redis(), uid, [(keyword, truthy(whole_word))])

    def change(found: Filter) -> Filter:
        if len(found["keywords"]) >= KEYWORDS_MAX:
            raise ValueError(f"A filter has at most {KEYWORDS_MAX} keywords.")
        found["keywords"].append(made)
        return found

    _change(uid, filter_id, change)
    return made


def update_keyword(uid: int, keyword_id: object, changes: dict[str, object]) -> dict:
    keyword = check_keyword(changes["keyword"]) if "keyword" in changes else None
    found, kept = find_part(uid, "keywords", keyword_id)
    item = dict(kept)  # a copy: what list_filters gives is shared (_parsed)

    def change(found: Filter) -> Filter:
        for each in found["keywords"]:
            if each["id"] == item["id"]:
                if keyword is not None:
                    each["keyword"] = keyword
                if "whole_word" in changes:
                    each["whole_word"] = truthy(changes["whole_word"])
                item.update(each)
        return found

    _change(uid, found["id"], change)
    return item


def delete_part(uid: int, part: str, part_id: object) -> None:
    """Takes a keyword or status (`part`: "keywords", "statuses") out of its filter."""
    found, item = find_part(uid, part, part_id)

    def change(found: Filter) -> Filter:
        found[part] = [each for each in found[part] if each["id"] != item["id"]]
        return found

    _change(uid, found["id"], change)


def add_status(uid: int, filter_id: object, status_id: int) -> dict:
    (made_id,) = _next_ids(get_redis(), uid, 1)
    made = {"id": made_id, "status_id": str(int(status_id))}

    def change(found: Filter) -> Filter:
        if any(each["status_id"] == made["status_id"] for each in found["statuses"]):
            raise ValueError("That status is in the filter already.")
        if len(found["statuses"]) >= STATUSES_MAX:
            raise ValueError(f"A filter has at most {STATUSES_MAX} statuses.")
        found["statuses"].append(made)
        return found

    _change(uid, filter_id, change)
    return made


def truthy(value: object) -> bool:
    return value is True or str(value).lower() in {"1", "true", "on", "yes"}


# Sent once a user's filters changed (uid=): the streams tell their clients
# (timeline.live_events publishes `filters_changed`).
filters_changed = Signal()


def announce_change(uid: int) -> None:
    """Where a user's filters changed: the one place `filters_changed` is sent from."""
    filters_changed.send(sender=None, uid=uid)


# The settings page's muted words: one filter of the user's.


def _muted_words_filter(filters: list[Filter]) -> Filter | None:
    return next((found for found in filters if found["title"] == MUTED_WORDS_TITLE), None)


def muted_words(uid: int) -> list[str]:
    """The phrases of `uid`'s "Muted words" filter, sorted."""
    found = _muted_words_filter(list_filters(uid))
    return sorted(keyword["keyword"] for keyword in found["keywords"]) if found else []


def set_muted_words(uid: int, phrases: list[str]) -> None:
    """Makes `uid`'s "Muted words" filter (home, hide, whole words) hold `phrases` (checked
    already): made if needed, its other settings kept, deleted when none are left."""
    found = _muted_words_filter(list_filters(uid))
    if found is None:
        if phrases:
            create_filter(
                uid,
                title=MUTED_WORDS_TITLE,
                context=["home"],
                filter_action="hide",
                keywords=[(phrase, True) for phrase in phrases],
            )
        return
    if not phrases:
        delete_filter(uid, found["id"])
        return
    have = {keyword["keyword"]: keyword["id"] for keyword in found["keywords"]}
    attributes = [
        {"id": kid, "_destroy": True} for phrase, kid in have.items() if phrase not in phrases
    ]
    attributes += [
        {"keyword": phrase, "whole_word": True} for phrase in phrases if phrase not in have
    ]
    update_filter(uid, found["id"], changes={}, keywords_attributes=attributes)
