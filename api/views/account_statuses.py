"""An account's statuses with Mastodon's filters (`exclude_replies`, `exclude_reblogs`,
`only_media`, `tagged`): its profile timeline read page by page, as the caller may see
it, keeping the statuses that pass, until `limit` of them or a few pages were read.
The next page's Link starts after the last status read, so paging never skips one."""

from collections.abc import Callable
from urllib.parse import urlencode

from timeline.feeds.selectors import Cursor, cursor_page
from timeline.statuses.records import Status
from timeline.statuses.text import tags

from .. import entities
from ..filtering import with_filtered
from ..http import ApiError, ApiRequest, cursor_params, limit_param, viewer

# Profile pages read at most for one answer: a filter matching little gives a short page
# (with its Link) rather than a long walk.
PASSES = 4
TRUE = {"true", "1", "on", "yes"}


def has_media(status: Status) -> bool:
    """MEDIA SEAM: whether a status has media attachments. Statuses have none until
    media lands; its room answers this (and the Status entity's media_attachments)."""
    return bool(status.get("media"))


def flag(found: dict, name: str) -> bool:
    return str(found.get(name)).lower() in TRUE


def account_filter(found: dict, uid: int) -> Callable[[Status], bool] | None:
    """The test a status must pass for the request's filters, or None if none is asked."""
    tests: list[Callable[[Status], bool]] = []
    if flag(found, "exclude_replies"):
        # As Mastodon's: replies go, but those to the account's own statuses (threads).
        tests.append(
            lambda s: not s.get("in_reply_to") or int(s.get("in_reply_to_uid") or 0) == uid
        )
    if flag(found, "exclude_reblogs"):
        tests.append(lambda s: not s.get("repost_of"))
    if flag(found, "only_media"):
        tests.append(lambda s: has_media(s.get("original") or s))
    tagged = found.get("tagged")
    if tagged not in (None, ""):
        tag = str(tagged).lstrip("#").lower()
        if not tag or len(tag) > 100:
            raise ApiError(422, "tagged is a tag.")
        tests.append(lambda s: tag in tags(str((s.get("original") or s).get("message") or "")))
    if not tests:
        return None
    return lambda status: all(test(status) for test in tests)


def filtered_statuses(
    request: ApiRequest, uid: int, found: dict, passes: Callable[[Status], bool]
) -> tuple[list[dict], dict]:
    """Up to `limit` of the account's statuses that pass, as Status entities with Link."""
    limit, cursor = limit_param(found), cursor_params(found)
    kept: list[Status] = []
    last_read, more = None, False
    read_filters = None
    for _ in range(PASSES):
        page = cursor_page("profile", uid, cursor, limit, viewer=viewer(request))
        if not page.statuses:
            more = False
            break
        kept += [status for status in page.statuses if passes(status)]
        read_filters = page.viewer_filters
        last_read, more = page.statuses[-1]["id"], page.has_older
        if len(kept) >= limit or not more:
            break
        cursor = Cursor(max_id=int(last_read), since_id=cursor.since_id, min_id=None)
    kept = kept[:limit]
    shown = entities.statuses(entities.site_of(request), kept)
    with_filtered(viewer(request), shown, kept, read_filters)
    base = request.build_absolute_uri(request.path)
    query = {k: v for k, v in request.GET.items() if k not in {"max_id", "min_id", "since_id"}}
    links = []
    if more and last_read is not None:
        # After the last status kept, or, on a short page, the last one read.
        after = kept[-1]["id"] if len(kept) == limit else last_read
        links.append(f'<{base}?{urlencode({**query, "max_id": after})}>; rel="next"')
    if shown:
        links.append(f'<{base}?{urlencode({**query, "min_id": shown[0]["id"]})}>; rel="prev"')
    return shown, ({"Link": ", ".join(links)} if links else {})
