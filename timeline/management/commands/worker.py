import signal
import threading

from django.core.management.base import BaseCommand

from socialsite import jobs
from timeline.discovery import activity


class Command(BaseCommand):
    help = (
        "Runs background jobs (fan-out beyond the first pass, user deletions) until stopped, "
        "and counts the event stream for the admin dashboard."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--burst", action="store_true", help="Exit once no job is queued or in progress."
        )

    def handle(self, *args, burst: bool = False, **options):
        stopping = []
        if not burst:
            # Finish the job in hand, then exit: SIGTERM is how `make run` stops us.
            for signum in (signal.SIGTERM, signal.SIGINT):
                signal.signal(signum, lambda *_: stopping.append(True))
            threading.Thread(
                target=activity.listen, args=(lambda: bool(stopping),), daemon=True
            ).start()
        done = jobs.work(burst=burst, stop=lambda: bool(stopping))
        self.stdout.write(f"worker: {done} jobs done")
