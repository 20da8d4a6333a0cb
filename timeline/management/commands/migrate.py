"""`manage.py migrate`: Django's, then the Redis data migrations (timeline.data_migrations).

A command rather than a post_migrate receiver: Django sends post_migrate once for every
app with models, and `flush` sends it too (every TransactionTestCase's teardown), where
the data in Redis has nothing to do with what happened. Overriding migrate runs them
once, after the schema, with migrate's own output."""

from django.core.management.commands import migrate

from timeline.data_migrations import migrate_data


class Command(migrate.Command):
    help = (
        f"{migrate.Command.help} Then applies the Redis data migrations not yet applied "
        "(timeline.data_migrations), saying what each did, at every verbosity: a new, empty "
        "store is stamped at the newest version and nothing is said."
    )

    def handle(self, *args, **options):
        super().handle(*args, **options)
        # --plan and --check only look at the schema's migrations (and --check exits).
        if not options["plan"] and not options["check_unapplied"]:
            migrate_data(say=self.stdout.write)
