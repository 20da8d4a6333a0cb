"""The status record: a status as decode_status makes it from its hash, and as pages,
the client API, the stream's JSON and the status cache carry it (a dict, so each of
those keeps it as it is, at no cost)."""

from typing import Required, TypedDict


class Status(TypedDict, total=False):
    """A status: the contract's five fields always, the rest where the status has them."""

    id: Required[int]
    uid: Required[int]
    login: Required[str]
    message: Required[str]
    # Unix seconds, to the microsecond (statuses.layout).
    posted: Required[float]
    # Counts kept by conversations and reactions (absent in the hash means 0).
    replies: int
    reposts: int
    likes: int
    # Quotes of it, once quotes exist (Top weighs them: timeline.ranking).
    quotes: int
    # A reply's parent and its author; the ids of the chain above it, oldest first.
    in_reply_to: int
    in_reply_to_uid: int
    in_reply_to_login: str
    ancestors: str
    # The logins and uids it @mentions, space-separated.
    mentions: str
    mention_ids: str
    # A repost's original, its author and when it was posted.
    repost_of: int
    repost_of_uid: int
    repost_of_login: str
    repost_of_posted: float
    # "1" on a private user's statuses (and a private group's: its group decides).
    private: str
    # A group's post (timeline.groups): its group's id and handle, and "1" if the group
    # is private (its members alone see it).
    group: str
    group_handle: str
    group_private: str
    # Visibility and content warnings (statuses.visibility): "unlisted", "private" or
    # "direct" (absent: public); the warning hiding the message; "1" if sensitive.
    visibility: str
    spoiler_text: str
    sensitive: str
    # Extra data a post may carry: "lat,lon".
    location: str
    # Added for a page, never stored: a repost's original (None if gone), the author's
    # display name and avatar token, and the viewer's marks.
    original: "Status | None"
    author_name: str
    author_avatar: str
    liked: bool
    reposted: bool
    # Why Top shows it (timeline.ranking), on Top's pages only.
    why: str
