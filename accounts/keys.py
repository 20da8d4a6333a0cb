"""Redis key names for users. Keys owned by one user carry the hash tag {uid},
so a user's profile, timelines and follow sets live in one cluster slot."""

USER_ID_COUNTER = "users:next_id"
# login (lower-cased) -> uid: the case-insensitive uniqueness check.
LOGIN_INDEX = "users:by_login"
# "login:uid" members, all scored 0, for login-prefix search with ZRANGEBYLEX.
LOGIN_SEARCH = "users:login_search"


def login_search_entry(login: str, uid: int) -> str:
    return f"{login.lower()}:{uid}"


# "folded name\0uid" members, all scored 0, for people search by login or display-name
# prefix ignoring case and accents (accounts.services.search_people); a name of several
# words is found by each of them too.
NAME_SEARCH = "users:name_search"


def user_key(uid: int | str) -> str:
    return f"user:{{{uid}}}"


# uids of suspended users: small, read with every timeline page to hide their statuses.
SUSPENDED_USERS = "users:suspended"
# SCAN pattern matching every profile hash.
USER_KEY_PATTERN = user_key("*")


def hash_tag_id(key: str) -> int:
    """The id inside a key's {hash tag}: 42 for "user:{42}"."""
    return int(key[key.index("{") + 1 : key.index("}")])


# Client preferences (apiprefs): each user's, in their slot.


def markers_key(uid: int | str) -> str:
    """A user's read positions: "<timeline>:id", ":version", ":at" for home and
    notifications (accounts.markers)."""
    return f"markers:{{{uid}}}"


def filters_key(uid: int | str) -> str:
    """A user's filters: filter id -> the filter as JSON; "next_id" -> the last id given
    to a filter, keyword or status of theirs (accounts.filters)."""
    return f"filters:{{{uid}}}"


# Custom emojis (accounts.emojis): shortcode -> the emoji as JSON, site-wide.
CUSTOM_EMOJIS = "custom_emojis"
