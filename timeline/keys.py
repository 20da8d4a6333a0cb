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


# SCAN patterns for maintenance.
HOME_TIMELINE_PATTERN = home_timeline_key("*")
PROFILE_TIMELINE_PATTERN = profile_timeline_key("*")
FOLLOWERS_PATTERN = followers_key("*")
FOLLOWING_PATTERN = following_key("*")
STATUS_PATTERN = status_key("*")

# Activity counted from the event stream. All of it shares one hash tag, so reading
# an hour of minute buckets (ZUNION) or a day of hour counters (MGET) is one slot.
ACTIVITY_COUNTED = "activity:{stats}:counted"


def activity_posts_key(hour: int) -> str:
    """Statuses posted in hour `hour` (Unix time // 3600)."""
    return f"activity:{{stats}}:posts:{hour}"


def activity_terms_key(kind: str, minute: int) -> str:
    """Counts of "tags" or "mentions" in minute `minute` (Unix time // 60)."""
    return f"activity:{{stats}}:{kind}:{minute}"
