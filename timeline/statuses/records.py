"""The status record: a status as decode_status makes it from its hash, and as pages,
the client API, the stream's JSON and the status cache carry it (a dict, so each of
those keeps it as it is, at no cost)."""

from typing import Required, TypedDict

from timeline.media.records import Attachment


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
    # Polls (timeline.polls): the options (a JSON list), when it closes (Unix seconds),
    # "1" for several choices, "1" to hide the counts until it closes, the votes of each
    # option ("3,0,1"; absent: none yet), how many people voted, "1" once closed.
    poll_options: str
    poll_expires: str
    poll_multiple: str
    poll_hide_totals: str
    poll_counts: str
    poll_voters: str
    poll_closed: str
    # Quotes (timeline.quotes): the status it quotes, that status's author and login,
    # and "revoked" once that author detached it; who may quote this one ("followers",
    # "nobody", "public"; absent: anyone). Added for a page, never stored: the quoted
    # status as the viewer may see it, or why it is unavailable ("deleted",
    # "unauthorized", "revoked").
    quote_of: int
    quote_of_uid: int
    quote_of_login: str
    quote_state: str
    quote_policy: str
    quoted: "Status"
    quote_unavailable: str
    # Edits (timeline.edits): when it was last edited (Unix seconds; stored as whole
    # microseconds); absent if never.
    edited: float
    # Added for a page, never stored: a repost's original (None if gone), the author's
    # display name and avatar token, and the viewer's marks.
    original: "Status | None"
    author_name: str
    author_avatar: str
    liked: bool
    reposted: bool
    # The viewer's choices in its poll ("0,2"), where they voted (statuses.marks).
    poll_voted: str
    # Keep (timeline/keeps): the viewer's bookmark mark, and whether the viewer pinned
    # it (their own status); added for a page, never stored.
    bookmarked: bool
    pinned: bool
    # Why Top shows it (timeline.ranking), on Top's pages only.
    why: str
    # Media (timeline.media): its attachments' ids ("12,13"), in their order; added for
    # a page, never stored: the attachments themselves (media.selectors.with_attachments).
    media: str
    attachments: list[Attachment]
    # Link cards (timeline.linkcards): the first link's preview card (JSON), set by its
    # job after the post.
    card: str
