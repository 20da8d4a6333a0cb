from django.core.management.base import BaseCommand

from timeline.follow_sets import following


class Command(BaseCommand):
    help = (
        "Moves following sets kept in one key (before buckets) that hold more than "
        "FOLLOWING_SPLIT into buckets. Run once after upgrading; running it again does "
        "nothing."
    )

    def handle(self, *args, **options):
        split, moved = following.split_every_big_set()
        self.stdout.write(f"Moved {moved} follows of {split} following sets into buckets.")
