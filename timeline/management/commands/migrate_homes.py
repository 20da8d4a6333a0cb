from django.core.management.base import BaseCommand

from timeline.feeds import homes


class Command(BaseCommand):
    help = (
        "Retires home timelines stored before homes were scored newest first (the old "
        "home:{uid} keys): each is rebuilt at its owner's next read. Run once after "
        "upgrading; running it again does nothing."
    )

    def handle(self, *args, **options):
        retired = homes.retire_legacy_homes()
        self.stdout.write(f"Retired {retired} old home timelines (rebuilt when next read).")
