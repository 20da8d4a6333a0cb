from django.conf import settings
from django.core.management.base import BaseCommand

from timeline.feeds import homes


class Command(BaseCommand):
    help = (
        "Drops the home timelines of users who haven't read theirs for HOME_INACTIVE_DAYS "
        "(rebuilt when they return). Run it daily."
    )

    def handle(self, *args, **options):
        dropped = homes.drop_inactive_homes()
        days = settings.HOME_INACTIVE_DAYS
        self.stdout.write(f"Dropped {dropped} home timelines not read for {days:g} days.")
