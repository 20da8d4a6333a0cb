import asyncio
import contextlib

from django.core.management.base import BaseCommand, CommandError

from streaming.filters import FILTER_NAMES, SAMPLE_DEFAULT_PERCENT, create_stream_filter
from streaming.hub import get_hub


class Command(BaseCommand):
    help = (
        "Prints the events of a sample or filter stream as they happen, one JSON object "
        "per line, straight from Redis (no stream key needed). Ctrl-C stops it."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--sample",
            nargs="?",
            const=str(SAMPLE_DEFAULT_PERCENT),
            metavar="PERCENT",
            help=f"A sample of all statuses (default {SAMPLE_DEFAULT_PERCENT} percent).",
        )
        parser.add_argument("--track", action="append", help="Comma-separated phrases.")
        parser.add_argument("--follow", action="append", help="Comma-separated logins.")
        parser.add_argument(
            "--location",
            action="append",
            help="Comma-separated boxes: min_lon,min_lat,max_lon,max_lat[,...].",
        )
        parser.add_argument(
            "--identifier", default="cli", help="Chooses which statuses --sample shows."
        )
        parser.add_argument("--count", type=int, help="Exit after this many events.")

    def handle(self, *args, **options):
        filters = {name: ",".join(options[name]) for name in FILTER_NAMES if options[name]}
        if options["sample"] is not None and filters:
            raise CommandError("--sample can't be combined with --track, --follow or --location.")
        if options["sample"] is None and not filters:
            raise CommandError("Give --sample, or at least one of --track, --follow, --location.")
        if options["count"] is not None and options["count"] < 1:
            raise CommandError("--count must be at least 1.")
        method = "filter" if filters else "sample"
        params = filters or {"percent": options["sample"]}
        try:
            match = create_stream_filter(options["identifier"], method, params)
        except ValueError as error:
            raise CommandError(str(error)) from None
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(self.print_events(match, options["count"]))

    async def print_events(self, match, count: int | None) -> None:
        hub = get_hub()
        try:
            listener = await hub.join(match)
        except TimeoutError:
            raise CommandError("Could not subscribe to the events: is Redis running?") from None
        try:
            self.stderr.write("Streaming; Ctrl-C stops.")
            printed = 0
            while count is None or printed < count:
                line = await listener.lines.get()
                if line is None:
                    # The hub queues None only after it sets the ending.
                    assert listener.ending is not None
                    raise CommandError(listener.ending.reason)
                self.stdout.write(line)
                self.stdout.flush()
                printed += 1
        finally:
            await hub.leave(listener)
