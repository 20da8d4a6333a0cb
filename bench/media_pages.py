"""19. Media on the pages: the home page of a reader whose 30 newest statuses each carry 1
to 4 pictures (75 attachments, read in one round trip, each card's grid drawn and kept),
under load through daphne beside the bare Django view in the same run (held to half of
it, as the home page is), with the author's media tab and a home of 30 text-only cards
beside it."""

from django.core.management import call_command
from django.test import override_settings

from timeline.graph import services as graph
from timeline.media import services as media
from timeline.media.tests import files
from timeline.posting import services as posting

from .context import Context
from .measure import Row
from .web import BARE, Page, _compared, _notes, _serve
from .web_accounts import signed_in

CARDS = 30
PICTURE = (480, 320)


def _author_with_media(login: str) -> int:
    """An author whose CARDS statuses carry 1 to 4 pictures each, with alt texts."""
    author, _ = signed_in(login, "Bench Photographer")
    picture = files.jpeg(PICTURE)
    for i in range(CARDS):
        media_ids = [
            media.upload_media(
                author, picture, media_type="image/jpeg", filename="p.jpg", description=f"{i}.{n}"
            ).id
            for n in range(1 + i % 4)
        ]
        posting.post_status(author, f"pictures {i}", media_ids=media_ids)
    return author


def run(ctx: Context) -> list[Row]:
    call_command("migrate", verbosity=0, interactive=False)
    conns = ctx.plan.http_connections
    with override_settings(MEDIA_ROOT=ctx.var_dir / "media"):
        author = _author_with_media("benchphotos")
    reader, cookie = signed_in("benchviewer", "Bench Viewer")
    graph.follow_user(reader, author)
    # A home of text-only cards, for the cost of the grids alone.
    writer, _ = signed_in("benchwriter", "Bench Writer")
    for i in range(CARDS):
        posting.post_status(writer, f"words {i}")
    text_reader, text_cookie = signed_in("benchtextreader", "Bench Text Reader")
    graph.follow_user(text_reader, writer)
    pages = {
        "media home": Page("/", f"home page, {CARDS} cards with media (1-4 pictures)", True),
        "text home": Page("/", f"home page, {CARDS} text-only cards", cookie=text_cookie),
        "media tab": Page("/u/benchphotos/media/", f"media tab, {CARDS} statuses with media"),
    }
    loads = _serve(ctx, {"bare view": BARE} | pages, cookie)
    bare = loads["bare view"]
    rows = [Row("http", f"bare view, {conns} conns (media run)", bare.rate(), notes=_notes(bare))]
    for name, page in pages.items():
        rows.append(_compared(f"{page.case}, {conns} conns", loads[name], bare, held=page.held))
    return rows
