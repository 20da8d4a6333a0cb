"""The user profile record, as decode_user makes it from the profile's hash."""

from typing import Required, TypedDict


class UserProfile(TypedDict, total=False):
    """A user's profile: who they are and their counters always, the rest where set."""

    id: Required[int]
    login: Required[str]
    name: Required[str]
    followers: Required[int]
    following: Required[int]
    posts: Required[int]
    # Unix seconds.
    signup: Required[float]
    suspended: Required[bool]
    private: Required[bool]
    bio: str
    location: str
    website: str
    avatar: str
