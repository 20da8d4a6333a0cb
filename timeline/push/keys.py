"""Redis key names of Web Push subscriptions (timeline.push.services owns them)."""

# uids with at least one push subscription: what a notification checks (through a
# per-process copy) before queueing a delivery job.
PUSH_SUBSCRIBERS = "push:subscribers"
# A new random token whenever PUSH_SUBSCRIBERS changes: a process reloads its copy when it differs.
PUSH_SUBSCRIBERS_VERSION = "push:subscribers:version"
PUSH_SUBSCRIPTION_COUNTER = "push:next_id"
# Every user's subscriptions hash (the repair command's scan).
PUSH_SUBSCRIPTIONS_PATTERN = "push:{*}"


def push_subscriptions_key(uid: int | str) -> str:
    """A hash: access token checksum -> the JSON of that token's subscription (one per
    token, as on Mastodon). In the user's slot."""
    return f"push:{{{uid}}}"
