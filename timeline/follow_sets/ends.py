"""The two ends of a follow as a check walks and mends them (the repair, ops.pairings):
each end's sets with one face (pattern, key, set_keys, queue_score, queue_add,
queue_remove), whatever their layout: followers in pieces, following in buckets."""

from accounts.keys import hash_tag_id
from socialsite.redis import Pipe, Reply

from .. import keys
from . import followers, following


class FollowersEnd:
    """Each user's followers: a followers key and its pieces, found by follow time."""

    pattern = keys.FOLLOWERS_PATTERN

    def key(self, owner: int) -> str:
        """The key a finding about `owner`'s followers names."""
        return keys.followers_key(owner)

    def set_keys(self, conn, key: str) -> list[str]:
        """Every key that holds the followers whose followers key is `key`."""
        return followers.piece_keys(conn, hash_tag_id(key))

    def queue_score(self, pipe: Pipe, owner: int, member: int, hint) -> Reply:
        """Queues on a Batch the read of `member`'s follow time among `owner`'s followers,
        looked for in the piece of `hint` (their following set's score; None: not known):
        its handle."""
        return followers.queue_score(pipe, owner, member, "+inf" if hint is None else hint)

    def queue_add(self, pipe, owner: int, member: int, score) -> None:
        """Queues putting `member` among `owner`'s followers at `score` (counts untouched)."""
        followers.queue_add(pipe, owner, member, score)

    def queue_remove(self, pipe, owner: int, member: int, score) -> None:
        """Queues taking `member`, followed at `score`, out of `owner`'s followers."""
        followers.queue_remove(pipe, owner, member, score)


class FollowingEnd:
    """Whom each user follows: a following key and, past a size, its buckets."""

    # Every bucket matches too: each is walked as a set of its own.
    pattern = keys.FOLLOWING_PATTERN + "*"

    def key(self, owner: int) -> str:
        """The key a finding about whom `owner` follows names."""
        return keys.following_key(owner)

    def set_keys(self, conn, key: str) -> list[str]:
        """The keys that hold the follows at `key` (a base or a bucket): itself."""
        return [key]

    def queue_score(self, pipe: Pipe, owner: int, member: int, hint) -> Reply:
        """Queues on a Batch the read of when `owner` followed `member` (`hint` unused):
        its handle."""
        return following.queue_score(pipe, owner, member)

    def queue_add(self, pipe, owner: int, member: int, score) -> None:
        """Queues `owner`'s follow of `member` at `score` (counts untouched)."""
        following.queue_add(pipe, owner, {member: score})

    def queue_remove(self, pipe, owner: int, member: int, score) -> None:
        """Queues taking `member` out of whom `owner` follows (counts untouched)."""
        following.queue_remove(pipe, owner, [member])


FOLLOWERS = FollowersEnd()
FOLLOWING = FollowingEnd()
