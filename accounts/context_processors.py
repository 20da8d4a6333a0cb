from . import services


def profile(request) -> dict:
    """The logged-in user's Redis profile as `profile`, read only if a template uses it."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"profile": None}

    def load():
        uid = services.uid_for_login(user.username)
        return services.get_user(uid) if uid else None

    return {"profile": load}
