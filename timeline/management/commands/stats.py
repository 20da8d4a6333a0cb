import json
from datetime import UTC, datetime

from django.core.management.base import BaseCommand

from socialsite import dashboard


class Command(BaseCommand):
    help = "Prints the admin dashboard's numbers: the network, Redis, background work, activity."

    def add_arguments(self, parser):
        parser.add_argument("--json", action="store_true", help="print one JSON object")

    def handle(self, *args, **options):
        stats = dashboard.figures()
        if options["json"]:
            self.stdout.write(json.dumps(stats, indent=2))
            return
        redis, jobs = stats["redis"], stats["jobs"]
        clients = stats.get("stream_clients", "n/a")
        lines = [
            f"users            {stats['users']} ({stats['suspended']} suspended)",
            f"statuses         {stats['statuses']}",
            f"follows          {stats['follows']}",
            f"redis memory     {redis['used_memory_human']} "
            f"(peak {redis['used_memory_peak_human']})",
            f"redis keys       {redis['keys']} ({redis['keys_with_expiry']} expiring)",
            f"jobs             {jobs['queued']} queued, {jobs['in_progress']} in progress, "
            f"{jobs['failed']} failed, oldest {jobs['oldest_age']:.0f} s",
            f"stream clients   {clients}",
            "posts per hour (UTC):",
            *(
                f"  {datetime.fromtimestamp(hour, UTC):%Y-%m-%d %H:00}  {count}"
                for hour, count in stats["posts_per_hour"]
            ),
            "top #tags, last hour:      " + _terms(stats["tags"], "#"),
            "top @mentions, last hour:  " + _terms(stats["mentions"], "@"),
        ]
        self.stdout.write("\n".join(lines))


def _terms(counts: list, sign: str) -> str:
    return ", ".join(f"{sign}{term} {count}" for term, count in counts) or "none"
