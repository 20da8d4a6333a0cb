import time

from django.core.management.base import BaseCommand, CommandError

from timeline.ops import seeding


class Command(BaseCommand):
    help = (
        "Adds a realistic network: users with power-law follower counts, statuses with "
        "#tags, @mentions and locations. The same --seed gives the same network."
    )

    def add_arguments(self, parser):
        parser.add_argument("--users", type=int, default=100, help="users to add (default 100)")
        parser.add_argument(
            "--follows-per-user", type=int, default=20, help="average follows (default 20)"
        )
        parser.add_argument(
            "--posts-per-user", type=int, default=20, help="average statuses (default 20)"
        )
        parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
        parser.add_argument(
            "--password",
            help="also make Django users who log in with this password (default: none can)",
        )
        parser.add_argument(
            "--if-empty",
            action="store_true",
            help="do nothing if any status was ever posted (for `make run`'s demo network)",
        )

    def handle(self, *args, **options):
        try:
            seeding.check_arguments(
                options["users"], options["follows_per_user"], options["posts_per_user"]
            )
        except ValueError as error:
            raise CommandError(error) from error
        if options["if_empty"] and not seeding.network_is_empty():
            self.stdout.write("seed_network: the network isn't empty; nothing seeded.")
            return
        started = time.monotonic()
        result = seeding.seed_network(
            users=options["users"],
            follows_per_user=options["follows_per_user"],
            posts_per_user=options["posts_per_user"],
            seed=options["seed"],
            password=options["password"],
            progress=lambda line: self.stdout.write(f"  {line}"),
        )
        self.stdout.write(
            self.style.SUCCESS(
                f"seed_network: {len(result.logins)} users, {result.follows} follows, "
                f"{result.statuses} statuses in {time.monotonic() - started:.1f} s"
            )
        )
        if options["password"]:
            sample = ", ".join(result.logins[:5])
            self.stdout.write(
                f"Log in as any of them ({sample}, ...) with the password {options['password']!r}."
            )
