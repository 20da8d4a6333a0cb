from django.core.management import call_command
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = (
        "Upgrades in place the Redis data an older version kept: homes stored the old way "
        "(migrate_homes), follower sets from before pieces (split_followers), following "
        "sets from before buckets (split_following), an older word index (reindex_search "
        "--if-old-index), likes and reposts from before their marks (build_marks: a GET "
        "when done), notifications naming logins (compact_notifications). Each step is "
        "idempotent and costs a SCAN when there is nothing to do; `make run` runs this on "
        "every start."
    )

    def handle(self, *args, **options):
        call_command("migrate_homes", stdout=self.stdout)
        call_command("split_followers", stdout=self.stdout)
        call_command("split_following", stdout=self.stdout)
        call_command("reindex_search", if_old_index=True, stdout=self.stdout)
        call_command("build_marks", stdout=self.stdout)
        call_command("compact_notifications", stdout=self.stdout)
