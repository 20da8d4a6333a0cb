"""Who may quote a status: its quote policy, as Mastodon 4.5's `quote_approval`.

A status carries the policy it was posted with (the author's default, a setting, or
the one the post asked for): anyone ("public", stored as absent), the author's
followers ("followers") or no one but the author ("nobody")."""

from typing import Any

from ..audience.selectors import is_private
from ..statuses.records import Status
from .keys import QUOTE_POLICY_FIELD

PUBLIC, FOLLOWERS, NOBODY = "public", "followers", "nobody"
POLICIES = (PUBLIC, FOLLOWERS, NOBODY)
POLICY_LABELS = {
    PUBLIC: "Anyone",
    FOLLOWERS: "Your followers",
    NOBODY: "Only you",
}


def check_policy(value: Any) -> str:
    """`value` as a quote policy, or ValueError saying which there are."""
    if value not in POLICIES:
        raise ValueError(f"A quote policy is one of {', '.join(POLICIES)}; not {value!r}.")
    return str(value)


def stored_policy(policy: str) -> str | None:
    """What a status or profile stores for `policy`: nothing for anyone (the default)."""
    return None if policy == PUBLIC else policy


def quote_policy(status: Status) -> str:
    """Who may quote `status`, its author aside.

    A status only its author's followers (or fewer) may see is quoted by no one but its
    author, as Mastodon does for private and direct posts: followers-only and direct
    statuses are marked private as a private account's are (statuses.visibility)."""
    if is_private(status):
        return NOBODY
    return str(status.get(QUOTE_POLICY_FIELD) or PUBLIC)


def may_quote(status: Status, uid: int, *, follows_author: bool) -> bool:
    """Whether `uid` may quote `status` by its policy (whether they may see it is
    timeline.audience's rule, asked first)."""
    if int(status["uid"]) == int(uid):
        return True
    policy = quote_policy(status)
    return policy == PUBLIC or (policy == FOLLOWERS and follows_author)
