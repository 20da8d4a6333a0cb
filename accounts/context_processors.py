from .appearance import chosen_theme
from .auth import current_uid


def viewer(request) -> dict:
    """`viewer_uid`: the logged-in user's uid (from the session), None for a visitor; and
    `theme`: the theme they chose ("light", "dark"), "" to follow the system's."""
    return {"viewer_uid": current_uid(request), "theme": chosen_theme(request)}
