"""Link cards' writes: the job that gives a status its card (queued at post and at edit,
run by the worker), the per-URL cache it reads first, and the clean-up of a card's
picture when its status goes.

The job is check -> do: which link the status unfolds (`first_link`), the page's card
(`page_card`: the per-URL cache, else a fetch of the page and its oEmbed), the picture
redrawn and stored (`card_picture`), and then one script in the status's slot
(`set_card.lua`) that lands the card only on the version it was fetched for. A redone
job does the same again; the card it replaces has its picture deleted."""

import json
import logging

from django.conf import settings

from socialsite import fetch, jobs, pictures
from socialsite.redis import get_redis

from .. import keys as timeline_keys
from ..statuses.cache import statuses as kept
from ..statuses.records import Status
from ..statuses.scores import MICROSECONDS
from ..statuses.selectors import get_status
from ..statuses.text import links
from . import images, parse, scripts
from .keys import CARD_FIELD, link_card_key
from .records import LinkCard, card_from_json

log = logging.getLogger(__name__)

OEMBED_MAX_BYTES = 64 * 1024
JSON_TYPES = ("application/json", "text/json", "application/json+oembed")
# A status hash stays a listpack (hash-max-ziplist-value 1200) with its card in it.
CARD_MAX_BYTES = 1100


class NoCard(fetch.FetchError):
    """The page gives no card: not HTML, or neither a title nor a description."""


def first_link(status: Status) -> str | None:
    """The link a status's card unfolds: the first http(s) link of its message (mentions
    and tags are not links in a message); None for a repost or a status with media,
    whose pictures stand in for a card, as on Mastodon."""
    if status.get("repost_of") or status.get("media"):
        return None
    found = links(status.get("message", ""))
    return found[0] if found else None


def edited_value(status: Status) -> str:
    """The status's `edited` field as stored (whole microseconds; "" if never edited)."""
    edited = status.get("edited")
    return "" if edited is None else str(round(edited * MICROSECONDS))


def card_job(status: Status) -> jobs.Job:
    return ("link_card", {"status_id": status["id"], "edited": edited_value(status)})


def queue_card(pipe, status: Status) -> None:
    """Queues the job that gives `status` its card (at post and at edit: an edit that
    drops the link drops the card too), when it has a link or a card."""
    if first_link(status) or status.get(CARD_FIELD):
        jobs.enqueue(pipe, card_job(status))


def queue_forget(pipe, status: Status) -> None:
    """Queues the deletion of a deleted status's card picture (the card itself went with
    the status's hash)."""
    card = card_from_json(status.get(CARD_FIELD))
    if card and card.image_file:
        jobs.enqueue(pipe, ("forget_card_image", {"name": card.image_file}))


@jobs.handler("forget_card_image")
def forget_card_image_job(args: dict) -> list[jobs.Job]:
    images.delete_card_image(str(args["name"]))
    return []


@jobs.handler("link_card")
def link_card_job(args: dict) -> list[jobs.Job]:
    """Gives a status the card of its first link, or takes its card away when it has no
    link any more; nothing if the status is gone or was edited since (that edit queued
    its own job)."""
    status = get_status(int(args["status_id"]))
    if status is None or edited_value(status) != args["edited"]:
        return []
    link = first_link(status)
    current = card_from_json(status.get(CARD_FIELD))
    if current and current.url == link:
        return []
    card = build_card(link) if link else None
    set_card(status, card)
    return []


def build_card(link: str) -> LinkCard | None:
    """The card for `link` with its picture stored; None if its page gives none."""
    found = page_card(link)
    if found is None:
        return None
    card = LinkCard(url=link, **{k: v for k, v in found.items() if k != "image"})
    if found.get("image"):
        picture = card_picture(found["image"])
        if picture is not None:
            card = LinkCard(
                **{
                    **card.__dict__,
                    "image": picture.url,
                    "image_file": picture.name,
                    "width": picture.width,
                    "height": picture.height,
                    "blurhash": picture.blurhash,
                }
            )
    return card


def set_card(status: Status, card: LinkCard | None) -> bool:
    """Lands `card` (None: no card) on `status` if it is still that version; the card it
    replaces, or a card that didn't land, has its picture deleted. Whether it landed."""
    status_id = status["id"]
    kept.forget(status_id)
    landed, previous = scripts.set_card(
        get_redis(),
        status_key=timeline_keys.status_key(status_id),
        changes_channel=timeline_keys.STATUS_CHANGES_CHANNEL,
        card_field=CARD_FIELD,
        edited=edited_value(status),
        card=card.to_json() if card else "",
    )
    gone = card_from_json(previous) if landed else card
    if gone and gone.image_file and not (landed and card and card.image_file == gone.image_file):
        images.delete_card_image(gone.image_file)
    return bool(landed)


def page_card(url: str) -> dict | None:
    """The card fields `url`'s page gives (no picture stored yet): from the per-URL cache
    (LINK_CARD_CACHE_SECONDS; a failure LINK_CARD_FAILURE_SECONDS), else fetched and
    kept there. None if the page gives no card or can't be fetched."""
    conn = get_redis()
    key = link_card_key(url)
    cached = conn.get(key)
    if cached is not None:
        found = json.loads(cached)
        return found or None
    try:
        found = fetch_page_card(url)
    except fetch.FetchError as error:
        log.info("No link card for %s: %s", url, error)
        conn.set(key, "{}", ex=settings.LINK_CARD_FAILURE_SECONDS)
        return None
    conn.set(key, json.dumps(found, separators=(",", ":")), ex=settings.LINK_CARD_CACHE_SECONDS)
    return found


def fetch_page_card(url: str) -> dict:
    """Fetches `url`'s page (and its oEmbed, if it names one) and reads its card's fields;
    NoCard or another FetchError if it gives none."""
    page = fetch.fetch(url)
    if page.content_type not in ("text/html", "application/xhtml+xml"):
        raise NoCard(f"{url} is {page.content_type or 'of no type'}, not a page")
    found = parse.page_tags(page.text(), page.url)
    oembed_url = found.pop("oembed")
    if oembed_url:
        try:
            answer = fetch.fetch(oembed_url, accept="application/json", max_bytes=OEMBED_MAX_BYTES)
            if answer.content_type in JSON_TYPES:
                # The page's own tags first; oEmbed fills what they leave out (and says
                # what kind of thing it is).
                extra = parse.oembed_fields(answer.text(), answer.url)
                kind = extra.pop("type", None)
                found = {**extra, **{k: v for k, v in found.items() if v}}
                if kind and kind != "link":
                    found["type"] = kind
        except fetch.FetchError as error:
            log.info("No oEmbed for %s: %s", url, error)
    if not found.get("title") and not found.get("description"):
        raise NoCard(f"{url} has neither a title nor a description")
    if not found.get("provider_name"):
        found["provider_name"] = found.get("site_name") or ""
    found = {name: value for name, value in found.items() if value}
    return _fitted(url, found)


def _fitted(url: str, found: dict) -> dict:
    """`found` with its description shortened until the card fits CARD_MAX_BYTES."""
    while len(LinkCard(url=url, **found).to_json().encode()) > CARD_MAX_BYTES:
        text = found.get("description", "")
        if len(text) < 20:
            found.pop("description", None)
            found.pop("image_description", None)
            break
        found["description"] = parse.clean(text, len(text) * 2 // 3)
    return found


def card_picture(image_url: str) -> images.CardImage | None:
    """The page's picture fetched, redrawn and stored; None if it can't be."""
    try:
        answer = fetch.fetch(
            image_url, accept="image/*", max_bytes=settings.LINK_CARD_IMAGE_MAX_BYTES
        )
        return images.store_card_image(answer.body)
    except (fetch.FetchError, pictures.BadPicture) as error:
        log.info("No picture for a card from %s: %s", image_url, error)
        return None
