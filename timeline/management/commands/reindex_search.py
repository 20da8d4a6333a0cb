from django.core.management.base import BaseCommand

from timeline.search import services


class Command(BaseCommand):
    help = (
        "Indexes every existing status and profile for search and suggestions (words, "
        "#tag names, people by login and name, the most followed accounts): once, for data "
        "written before search existed. Safe to run again, beside live traffic."
    )

    def handle(self, *args, **options):
        done = services.reindex(progress=lambda line: self.stdout.write(f"  {line}"))
        self.stdout.write(
            self.style.SUCCESS(f"Indexed {done['statuses']} statuses and {done['users']} users.")
        )
