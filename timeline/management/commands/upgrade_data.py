from django.core.management import call_command
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = (
        "Upgrades in place the Redis data an older version kept: homes stored the old way "
        "(migrate_homes), follower sets from before pieces (split_followers), following "
        "sets from before buckets (split_following), an older word index (reindex_search "
        "--if-old-index), likes and reposts from before their marks (build_marks), "
        "notifications naming logins (compact_notifications). Each step is idempotent; "
        "with nothing to do, migrate_homes costs two SCANs (sorted sets of two key "
        "patterns), split_followers a SCAN and a ZCARD of every followers key, "
        "split_following a SCAN and a ZCARD of every following key, reindex_search a SCAN "
        "per older key shape, build_marks a GET, compact_notifications a SCAN and a read a "
        "set. `make run` runs this on every start."
    )

    def handle(self, *args, **options):
        call_command("migrate_homes", stdout=self.stdout)
        call_command("split_followers", stdout=self.stdout)
        call_command("split_following", stdout=self.stdout)
        call_command("reindex_search", if_old_index=True, stdout=self.stdout)
        call_command("build_marks", stdout=self.stdout)
        call_command("compact_notifications", stdout=self.stdout)
