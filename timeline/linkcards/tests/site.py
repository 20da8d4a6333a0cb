"""The link cards' tests' helpers: the local site's pages (socialsite.testing.pages)
and the worker run."""

from django.core.management import call_command

from socialsite.testing.pages import jpeg_with_gps, og_page

__all__ = ["jpeg_with_gps", "og_page", "run_jobs"]


def run_jobs() -> None:
    call_command("worker", burst=True)
