from django.core.management.base import BaseCommand

from timeline.reactions import marks_sync


class Command(BaseCommand):
    help = (
        "Builds every user's liked and reposted marks (the sets pages read them from) from "
        "their likes and reposts, for data kept before the marks. Run once after upgrading, "
        "before serving (upgrade_data does); running it again does nothing unless --again."
    )

    def add_arguments(self, parser):
        parser.add_argument("--again", action="store_true", help="walk every mark again")

    def handle(self, *args, again: bool = False, **options):
        found = marks_sync.build_marks(
            again=again, progress=lambda line: self.stdout.write(f"  {line}")
        )
        if found is None:
            self.stdout.write("Marks are built already.")
            return
        checked = ", ".join(f"{count} {what}" for what, count in found.checked.items())
        self.stdout.write(f"Built marks: checked {checked}; {len(found.findings)} set right.")
