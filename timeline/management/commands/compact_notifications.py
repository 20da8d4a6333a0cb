from django.core.management.base import BaseCommand

from timeline.notifications.compact import compact_old_notifications


class Command(BaseCommand):
    help = (
        "Converts notifications stored before compact members (each naming the actor's "
        "login, scored in Unix seconds) to the compact form, and each reader's last read "
        "with them. Run once after upgrading; running it again does nothing."
    )

    def handle(self, *args, **options):
        converted = compact_old_notifications()
        self.stdout.write(f"Converted {converted} notifications to the compact form.")
