from django.core.management.base import BaseCommand

from timeline.search import services


class Command(BaseCommand):
    help = (
        "Indexes every existing status and profile for search and suggestions (words, "
        "#tag names, people by login and name, the most followed accounts): once, for data "
        "written before search existed or while its word index had an older shape. Safe to "
        "run again, beside live traffic."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--if-old-index",
            action="store_true",
            help="only if the word index holds keys of an older shape (else one SCAN, nothing "
            "written), as Redis data migration 0004 does",
        )

    def handle(self, *args, if_old_index=False, **options):
        if if_old_index and not services.old_index_exists():
            self.stdout.write("The word index is current: nothing to do.")
            return
        done = services.reindex(progress=lambda line: self.stdout.write(f"  {line}"))
        self.stdout.write(
            self.style.SUCCESS(f"Indexed {done['statuses']} statuses and {done['users']} users.")
        )
