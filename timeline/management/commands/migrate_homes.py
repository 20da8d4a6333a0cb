from django.core.management.base import BaseCommand

from timeline.feeds import homes


class Command(BaseCommand):
    help = (
        "Converts home timelines stored as sorted sets into lists of status ids, and "
        "retires those stored the book's way (the old home:{uid} keys: each is rebuilt at "
        "its owner's next read). Run once after upgrading; running it again does nothing."
    )

    def handle(self, *args, **options):
        converted = homes.convert_sorted_homes()
        retired = homes.retire_legacy_homes()
        self.stdout.write(f"Converted {converted} home timelines to lists.")
        self.stdout.write(f"Retired {retired} old home timelines (rebuilt when next read).")
