"""Every user's liked and reposted marks (the sets a page reads them from,
timeline.statuses.marks) are built from their likes and reposts, kept before the marks."""

from ..reactions import marks_sync
from . import Say

DESCRIPTION = "liked and reposted marks are built from likes and reposts"


def apply(say: Say) -> None:
    found = marks_sync.check_marks(fix=True, progress=lambda line: say(f"  {line}"))
    checked = ", ".join(f"{count} {what}" for what, count in found.checked.items())
    say(f"  Built marks: checked {checked}; {len(found.findings)} set right.")
