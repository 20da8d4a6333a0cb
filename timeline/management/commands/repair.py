from django.core.management.base import BaseCommand

from timeline.ops import maintenance


class Command(BaseCommand):
    help = (
        "Checks timelines (home, profile, global, list, mentions, tag, likes, replies) "
        "against existing statuses, that both sides of follows, list memberships and likes "
        "agree, the liked and reposted marks, and the counters of users, statuses and lists "
        "against their sets, and users' filters. Reports only, unless --fix."
    )

    def add_arguments(self, parser):
        parser.add_argument("--fix", action="store_true", help="repair what is found")

    def handle(self, *args, fix: bool = False, **options):
        report = maintenance.repair(fix=fix, progress=lambda line: self.stdout.write(f"  {line}"))
        checked = ", ".join(f"{count} {what}" for what, count in report.checked.items())
        self.stdout.write(f"Checked {checked}.")
        for finding in report.findings:
            self.stdout.write(f"{finding.check}: {finding.key} {finding.problem}")
        count = len(report.findings)
        problems = f"{count} problem{'s' if count != 1 else ''}"
        if not count:
            self.stdout.write(self.style.SUCCESS("No problems found."))
        elif fix:
            self.stdout.write(self.style.SUCCESS(f"Fixed {problems}."))
        else:
            them = "them" if count != 1 else "it"
            self.stdout.write(self.style.WARNING(f"{problems} found; --fix repairs {them}."))
