"""Notifications stored before compact members ("kind:object:actor uid:actor login"
scored in Unix seconds) become compact ones scored in whole milliseconds, and each
reader's last read with them (timeline.notifications.compact)."""

from ..notifications.compact import compact_old_notifications
from . import Say

DESCRIPTION = "notifications naming logins become compact"


def apply(say: Say) -> None:
    say(f"  Converted {compact_old_notifications()} notifications to the compact form.")
