"""The chaos test's hands inside the site it runs (`python -m socialsite.testing.chaos_probe
<command>` with that site's environment: its Redis, its database), printing JSON:

- `setup <count> <follows each> <fans> <famous> <seed>`: `count` users, each with a
  client API token and a session, each following `follows each` others at random, and
  `fans` more (profiles only) who follow the first `famous` of them; their records, the
  fans' uids and the follows.
- `jobs`: how many background jobs are still queued or in progress (socialsite.jobs).
- `homes <uid>...`: each user's home as stored, every entry as many times as it is there
  (timeline.feeds.home_list reads it; pages would show repeats once).

The test process can't do these itself: its Django talks to the suite's own Redis and
database, not to the site under test."""

import json
import random
import sys

import django


def setup(count: int, follows_each: int, fans: int, famous: int, seed: int) -> dict:
    """The users (login, uid, token, cookie), the fans' uids and the follows made, as
    [follower, followed] uids."""
    from django.contrib.auth.models import User
    from django.test import Client

    from accounts.services import create_users, uid_for_login
    from api.oauth import OOB, issue_token, register_app
    from timeline.services import follow_user

    app, _ = register_app("chaos", OOB, "read write follow")
    users = []
    for number in range(count):
        # No password: a hash costs ~0.5 s, and the clients sign in by token and session.
        user = User.objects.create_user(username=f"chaos{number}", first_name=f"Chaos {number}")
        client = Client()
        client.force_login(user)
        users.append(
            {
                "login": user.username,
                "uid": uid_for_login(user.username),
                "token": issue_token(app, user, "read write follow"),
                "cookie": f"sessionid={client.cookies['sessionid'].value}",
            }
        )
    chooser = random.Random(seed)
    follows = []
    for user in users:
        others = [other for other in users if other is not user]
        for other in chooser.sample(others, follows_each):
            follow_user(user["uid"], other["uid"])
            follows.append([user["uid"], other["uid"]])
    fan_uids = create_users([(f"chaosfan{number}", f"Fan {number}") for number in range(fans)])
    for fan in fan_uids:
        for user in users[:famous]:
            follow_user(fan, user["uid"])
            follows.append([fan, user["uid"]])
    return {"users": users, "fans": fan_uids, "follows": follows}


def unfinished_jobs() -> dict:
    """Background jobs queued or in progress, and failed."""
    from socialsite.jobs import queue_stats

    stats = queue_stats()
    return {"unfinished": stats["queued"] + stats["in_progress"], "failed": stats["failed"]}


def homes(uids: list[int]) -> dict:
    """Each of `uids`' home entries (status ids as strings), head first, repeats kept."""
    from socialsite.batches import Batch
    from socialsite.redis import get_redis
    from timeline.feeds import home_list

    batch = Batch(get_redis())
    windows = {uid: home_list.queue_window(batch, uid, -1) for uid in uids}
    batch.execute()
    return {str(uid): [str(entry) for entry in window.value] for uid, window in windows.items()}


def main(argv: list[str]) -> None:
    django.setup()
    command, args = argv[0], [int(arg) for arg in argv[1:]]
    if command == "setup":
        result = setup(*args)
    elif command == "jobs":
        result = unfinished_jobs()
    elif command == "homes":
        result = homes(args)
    else:
        raise SystemExit(f"unknown command {command!r}")
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1:])
