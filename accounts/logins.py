"""Each login's uid as this process last looked it up, for reads that check the profile
they then get is that login's (timeline.graph.selectors.profile_page): a profile page
needs no round trip of its own to find whose it is. A login's uid changes only when its
account is deleted and the login taken again (or the store is emptied), which that check
catches."""

from socialsite.kept import keep

from .records import UserProfile
from .services import uid_for_login

KEPT = 100_000
# Lower-cased login -> uid; forgotten all at once when full.
_uids: dict[str, int] = {}


def remembered_uid(login: str) -> int | None:
    """`login`'s uid from this process's memory, else looked up (and remembered). Not
    checked: the caller checks the profile it reads with it, and forgets a wrong one."""
    key = (login or "").lower()
    uid = _uids.get(key)
    if uid is None:
        uid = uid_for_login(login)
        if uid is not None:
            keep(_uids, key, uid, KEPT)
    return uid


def is_profile_of(user: UserProfile | None, login: str) -> bool:
    """Whether `user` (a profile, None for none) is `login`'s."""
    return user is not None and user["login"].lower() == (login or "").lower()


def forget(login: str) -> None:
    """Forgets `login`'s uid: the profile read with it was another's, or gone."""
    _uids.pop((login or "").lower(), None)


def forget_all() -> None:
    """Forgets every uid (the store was emptied: the tests' clean Redis)."""
    _uids.clear()
