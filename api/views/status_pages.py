"""Pages of statuses behind Mastodon's cursors (`max_id`, `since_id`, `min_id`, `limit`):
a timeline, someone's statuses, your favourites and bookmarks, a status's quotes, each
a cursor timeline of timeline.feeds (feeds.cursors), with the next page's Link."""

from timeline.feeds.selectors import cursor_page

from .. import entities
from ..filtering import with_filtered
from ..http import ApiRequest, cursor_params, limit_param, link_header, params, viewer


def statuses_page(request: ApiRequest, timeline: str, owner: int | str | None) -> tuple[list, dict]:
    """The page of `owner`'s `timeline` the request's cursor and limit name, as the
    caller may see it: Status entities, and the Link to the next page."""
    found = params(request)
    read = cursor_page(
        timeline, owner, cursor_params(found), limit_param(found), viewer=viewer(request)
    )
    shown = entities.statuses(entities.site_of(request), read.statuses)
    # Filters (apiprefs): `filtered`, the caller's filters each status matches.
    with_filtered(viewer(request), shown, read.statuses, read.viewer_filters)
    return shown, link_header(request, shown, more=read.has_older)
