"""What people say about themselves: a bio, a website, a location and an avatar,
fields of their profile hash beside the display name."""

import re

from django.core.exceptions import ValidationError
from django.core.validators import URLValidator

from socialsite.redis import Batch, get_redis
from socialsite.text import check_display_text

from . import authors, avatars, keys

BIO_MAX_LENGTH = 160
LOCATION_MAX_LENGTH = 30
WEBSITE_MAX_LENGTH = 200
PROFILE_FIELDS = ("bio", "website", "location")
# Set once the account's first-run panel on home (pick a name and an avatar, follow a few
# people) is dismissed: it is never shown again, in any browser.
FIRST_RUN_DONE = "first_run_done"

_check_url = URLValidator(schemes=["http", "https"])
# "scheme:" at the start (RFC 3986): an address without one is taken as https://.
_SCHEME = re.compile(r"[a-z][a-z0-9+.-]*:", re.IGNORECASE)


class ProfileError(ValueError):
    """A profile field refused: `field` names it."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


def check_website(website: str) -> str:
    """`website` stripped ("" for none), or ProfileError unless it is an http(s) URL; an
    address without a scheme ("alice.example") is taken as https://, as browsers do."""
    website = (website or "").strip()
    if not website:
        return ""
    if not _SCHEME.match(website):
        website = f"https://{website}"
    if len(website) > WEBSITE_MAX_LENGTH:
        message = f"A website address is at most {WEBSITE_MAX_LENGTH} characters."
        raise ProfileError("website", message)
    try:
        _check_url(website)
    except ValidationError:
        raise ProfileError("website", "A website is an http:// or https:// address.") from None
    return website


def check_profile(*, bio: str, website: str, location: str) -> dict[str, str]:
    """The fields to store, or ProfileError saying what is wrong with the first bad one."""
    bio, location = (bio or "").strip(), (location or "").strip()
    if len(bio) > BIO_MAX_LENGTH:
        raise ProfileError("bio", f"A bio is at most {BIO_MAX_LENGTH} characters.")
    if len(location) > LOCATION_MAX_LENGTH:
        raise ProfileError("location", f"A location is at most {LOCATION_MAX_LENGTH} characters.")
    for field, text, multiline in (("bio", bio, True), ("location", location, False)):
        try:
            check_display_text(text, multiline=multiline)
        except ValueError as error:
            raise ProfileError(field, str(error)) from None
    return {"bio": bio, "website": check_website(website), "location": location}


def update_profile(uid: int, *, bio: str, website: str, location: str) -> None:
    """Sets `uid`'s bio, website and location (blank ones are removed); ProfileError for
    bad input (ValueError for an unknown user), which changes nothing."""
    fields = check_profile(bio=bio, website=website, location=location)
    pipe = Batch(get_redis())
    exists = pipe.exists(keys.user_key(uid))
    set_fields = {name: value for name, value in fields.items() if value}
    if set_fields:
        pipe.hset(keys.user_key(uid), mapping=set_fields)
    blank = [name for name, value in fields.items() if not value]
    if blank:
        pipe.hdel(keys.user_key(uid), *blank)
    pipe.execute()
    if not exists.value:
        raise ValueError("No such user.")


def set_avatar(uid: int, data: bytes) -> str:
    """Makes the picture in `data` `uid`'s avatar (see accounts.avatars); returns its
    token. BadAvatar for anything else, which changes nothing."""
    conn = get_redis()
    if not conn.exists(keys.user_key(uid)):
        raise ValueError("No such user.")
    token = avatars.store(uid, data)
    old = conn.hget(keys.user_key(uid), "avatar")
    conn.hset(keys.user_key(uid), "avatar", token)
    authors.forget(uid)
    if old:
        avatars.delete(uid, old)
    return token


def remove_avatar(uid: int) -> bool:
    """Goes back to the default avatar: True, or False if there was none."""
    conn = get_redis()
    old = conn.hget(keys.user_key(uid), "avatar")
    if not old:
        return False
    conn.hdel(keys.user_key(uid), "avatar")
    authors.forget(uid)
    avatars.delete(uid, old)
    return True


def dismiss_first_run(uid: int) -> None:
    """Never shows `uid` the first-run panel again (ValueError for an unknown user)."""
    conn = get_redis()
    if not conn.exists(keys.user_key(uid)):
        raise ValueError("No such user.")
    conn.hset(keys.user_key(uid), FIRST_RUN_DONE, "1")
