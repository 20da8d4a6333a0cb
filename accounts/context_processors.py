from .auth import current_uid


def viewer(request) -> dict:
    """`viewer_uid`: the logged-in user's uid (from the session), None for a visitor."""
    return {"viewer_uid": current_uid(request)}
