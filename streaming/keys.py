"""Redis names for the streaming API."""

# Every status, deletion, follow and unfollow is published here as JSON.
STATUS_CHANNEL = "streaming:status:"
