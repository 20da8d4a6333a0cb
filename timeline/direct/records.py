"""The direct message record, as stored (JSON) in a conversation and read back."""

from typing import TypedDict


class Message(TypedDict):
    """One message: its sender, its text and when it was sent (Unix seconds)."""

    uid: int
    login: str
    text: str
    sent: float
