"""The site served for a look from outside (`python -m bench.lighthouse`,
`make screenshots`): a throwaway Redis and database, the world of
socialsite.testing.world in them, and a daphne process serving it."""

import contextlib
import shutil
from collections.abc import Iterator

from socialsite.embedded_redis import throwaway

from .environment import use_throwaway


@contextlib.contextmanager
def served_world() -> Iterator[tuple[str, object, str]]:
    """Yields (the site's base URL, the World, the Cookie header of its user's session)."""
    server = throwaway()
    try:
        use_throwaway(server.start(), server.data_dir)
        from django.contrib.auth.models import User
        from django.core.management import call_command
        from django.test import Client

        from socialsite.staticfiles import collect
        from socialsite.testing.world import LOGIN, make_world

        from .servers import daphne

        call_command("migrate", verbosity=0, interactive=False)
        collect()
        world = make_world()
        client = Client()
        client.force_login(User.objects.get(username=LOGIN))
        cookie = f"sessionid={client.cookies['sessionid'].value}"
        with daphne(server.data_dir) as (base, _):
            yield base, world, cookie
    finally:
        server.stop()
        shutil.rmtree(server.data_dir, ignore_errors=True)
