"""Redis names the infrastructure owns: the event channel and the job queue.

Both are one key each, shared by every user: PUBLISH reaches every node of a
cluster whatever the channel's slot, and the job stream's traffic is a few
commands per job, not per delivery."""

# Every status, deletion, follow, unfollow and reaction is published here as JSON.
STATUS_CHANNEL = "streaming:status:"

JOB_STREAM = "{jobs}:queue"
JOB_GROUP = "workers"
FAILED_JOB_STREAM = "{jobs}:failed"
# Jobs to run at a given time (socialsite.jobs.schedule): a sorted set by when each is
# due, moved onto JOB_STREAM as they fall due.
SCHEDULED_JOBS = "{jobs}:scheduled"


def rate_limit(name: str, subject: str) -> str:
    """One subject's state under one rate limit (socialsite.ratelimit): a string that
    expires once the subject's allowance is whole again."""
    return f"ratelimit:{name}:{subject}"
