"""A status for mentioned people only (visibility "direct") in the direct-message
conversation with them: its text and a link to it, sent by its author to those it
mentions whom they may message (one conversation: the one-to-one one for one person)."""

from django.urls import reverse

from accounts.services import AccountSuspended
from timeline.statuses.records import Status

from .services import may_message, start_conversation


def send_direct_status(status: Status) -> int | None:
    """Sends a stored direct `status` (its `mentions` found by conversations.index) into
    the conversation with the people it mentions: the conversation's id, or None if it
    mentions no one its author may message (the status stands, seen by them alone)."""
    author = int(status["uid"])
    pairs = zip(
        str(status.get("mentions") or "").split(),
        str(status.get("mention_ids") or "").split(),
        strict=False,
    )
    logins = [login for login, uid in pairs if may_message(author, int(uid))]
    if not logins:
        return None
    link = reverse("status", args=[status["id"]])
    text = f"{status['message']}\n\n{link}"
    try:
        return start_conversation(author, ",".join(logins), text)
    except (ValueError, AccountSuspended):
        # Someone became unreachable meanwhile (a block): the status alone says it.
        return None
