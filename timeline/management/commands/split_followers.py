from django.core.management.base import BaseCommand

from timeline.follow_sets import followers as follower_sets


class Command(BaseCommand):
    help = (
        "Cuts follower sets kept in one key (before followers were kept in pieces) that "
        "hold more than FOLLOWERS_PIECE_SIZE into pieces. Run once after upgrading; "
        "running it again does nothing."
    )

    def handle(self, *args, **options):
        cut, made = follower_sets.split_every_big_set()
        self.stdout.write(f"Cut {cut} follower sets into {made} more pieces.")
