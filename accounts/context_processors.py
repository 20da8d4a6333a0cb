from .auth import current_uid
from .services import get_user


def profile(request) -> dict:
    """`viewer_uid`: the logged-in user's uid (from the session); `profile`: their Redis
    profile, read only if a template uses it."""
    uid = current_uid(request)
    if uid is None:
        return {"viewer_uid": None, "profile": None}
    return {"viewer_uid": uid, "profile": lambda: get_user(uid)}
