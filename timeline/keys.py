"""Redis key names for statuses, timelines, the follow graph and background jobs.

Per-user keys carry the hash tag {uid} (the same slot as the user's profile hash),
so each single-user step is one atomic, cluster-legal script or transaction."""

from accounts.keys import user_key  # noqa: F401  (re-exported: the profile holds counters)

STATUS_ID_COUNTER = "statuses:next_id"
GLOBAL_TIMELINE = "timeline:global"
JOB_STREAM = "jobs:queue"
JOB_GROUP = "workers"
FAILED_JOB_STREAM = "jobs:failed"


def status_key(status_id: int) -> str:
    return f"status:{{{status_id}}}"


def profile_timeline_key(uid: int) -> str:
    return f"profile:{{{uid}}}"


def home_timeline_key(uid: int) -> str:
    return f"home:{{{uid}}}"


def followers_key(uid: int) -> str:
    return f"followers:{{{uid}}}"


def following_key(uid: int) -> str:
    return f"following:{{{uid}}}"
