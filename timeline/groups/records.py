"""The group records, as the selectors make them from a group's hash and a member's
groups hash: typed, read by name."""

from dataclasses import dataclass

KINDS = ("public", "private", "announcement")


@dataclass(frozen=True, slots=True)
class Group:
    """A group: anyone reads and joins a "public" one; a "private" one's posts are its
    members' alone and joining needs a moderator's approval (its name and existence are
    public); in an "announcement" one only its owner and moderators post, and members
    reply where `replies` allows."""

    id: int
    handle: str
    name: str
    description: str
    kind: str  # one of KINDS
    owner: int
    created: float  # Unix seconds
    members: int  # how many
    avatar: str  # the avatar's token ("": none)
    replies: bool  # whether members may reply in an announcement group
    pinned: tuple[int, ...]  # up to 3 status ids

    @property
    def is_private(self) -> bool:
        return self.kind == "private"


@dataclass(frozen=True, slots=True)
class Membership:
    """How one user stands in one group."""

    group_id: int
    uid: int
    role: str | None  # "owner", "moderator", "member", or None (not a member)
    requested: bool  # asked to join a private group, not yet answered
    banned: bool
    show_in_home: bool  # whether the group's posts come to their home (default on)

    @property
    def is_member(self) -> bool:
        return self.role is not None

    @property
    def moderates(self) -> bool:
        return self.role in ("owner", "moderator")
