"""Groups: people who post to a shared timeline (public, private or announcement
groups), their members kept as followers are (follow_sets.members), so a post to a group
reaches members' homes by the followers' chunked fan-out (feeds.fanout's "members"
audience). Writes in services.py, reads in selectors.py, records in records.py; the
moderators' acts in moderation.py. docs/architecture.md ("Groups") tells the design."""
