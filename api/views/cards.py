"""Link preview cards (timeline.linkcards): a status's card, as Mastodon's deprecated
`GET /api/v1/statuses/:id/card` answers it (the card, or `{}` when it has none). Status
entities carry the same card under `card`."""

from timeline.feeds.selectors import shown_status
from timeline.linkcards.selectors import card_entity

from ..http import ApiError, ApiRequest, endpoint, id_param, viewer


@endpoint("GET", public=True, user=False)
def status_card(request: ApiRequest, status_id: str) -> dict:
    # The one rule decides (shown_status): a status the caller may not see is a 404.
    found = shown_status(id_param(status_id), viewer=viewer(request))
    if found is None:
        raise ApiError(404, "Record not found")
    return card_entity(found) or {}
