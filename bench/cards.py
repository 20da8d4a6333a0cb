"""19. Link cards: the worker's card job for a link never seen before (its page fetched
through socialsite.fetch from a local HTTP server, its tags read, its 1200 x 800 JPEG
picture fetched, checked and redrawn by the uploads' pipeline, stored, and the card set
on the status in one script), beside the bare fetches of the same page and picture by
httpx, taking turns; and the job for a link already cached (its picture still fetched
and redrawn for the status), in the notes."""

import time

import httpx
from django.test import override_settings

from socialsite.testing.pages import Page, jpeg_with_gps, og_page, page_server
from timeline.linkcards import services as linkcards
from timeline.statuses.services import create_status

from . import seed
from .context import Context
from .measure import Row, latency_of, time_interleaved

MAX_SAMPLES = 50


def run(ctx: Context) -> list[Row]:
    samples = min(ctx.plan.post_samples, MAX_SAMPLES)
    author = seed.user("cardauthor")
    with override_settings(SOCIALSITE_FETCH_ALLOW_PRIVATE=True), page_server() as server:
        server.pages["/og"] = Page(og_page())
        server.pages["/picture.jpg"] = Page(jpeg_with_gps(), headers={"Content-Type": "image/jpeg"})
        # A new URL each time, so the per-URL cache never answers.
        fresh = [
            create_status(author, f"read {server.url('/og')}?n={i}") for i in range(samples + 1)
        ]
        cached = [create_status(author, f"again {server.url('/og')}?n=0") for _ in range(samples)]
        linkcards.link_card_job({"status_id": fresh[-1], "edited": ""})  # off the clock

        def bare(_: int) -> None:
            with httpx.Client() as client:
                client.get(server.url("/og")).raise_for_status()
                client.get(server.url("/picture.jpg")).raise_for_status()

        got = time_interleaved(
            {
                "job": lambda i: linkcards.link_card_job({"status_id": fresh[i], "edited": ""}),
                "bare": bare,
            },
            samples,
            ctx.counter,
        )
        timings = []
        for status_id in cached:
            start = time.perf_counter()
            linkcards.link_card_job({"status_id": status_id, "edited": ""})
            timings.append(time.perf_counter() - start)
    hit = latency_of(timings)
    return [
        Row(
            "link card",
            "card job, a new link (page + picture fetched, redrawn, stored)",
            got["job"],
            "httpx GET of the page and the picture",
            got["bare"],
            notes={"cached_link_p50_ms": round(hit.p50_ms, 2), "samples": samples},
        )
    ]
