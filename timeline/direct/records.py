"""The direct message record, as stored (JSON) in a conversation and read back."""

from typing import Any, NotRequired, TypedDict


class Message(TypedDict):
    """One message: its sender, its text and when it was sent (Unix seconds)."""

    uid: int
    login: str
    text: str
    sent: float
    # Media (mediaweb): its attachments' ids (the sender's uploads), and, added for a
    # page, never stored, the attachments themselves.
    media: NotRequired[list[int]]
    attachments: NotRequired[list[Any]]
