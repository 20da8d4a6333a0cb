"""The live timelines of the site's other pages: their "N new statuses"
(/statuses/timeline.json?timeline=<kind>&...), as home's and a group's have theirs.

`timeline` names the page: `global`, `tag` (tag=<name>), `list` (list=<id>), `profile`
(login=<login>), `mentions` (login=<login>: the statuses @mentioning them) or `replies`
(status=<id>: a status page's replies). Each filter passes what that page's timeline
holds (timeline.posting, timeline.conversations: global takes no repost and no private
status; a tag and a mention no repost) and their deletions, filed in the hub's index
(streaming.index) where it can be. Whom it is for is a Viewer (streaming.viewers: the
one rule, blocks both ways kept current) of the stream's logged-in owner, who sees a
private account's status only where they follow it (never on global). What the page
shows is checked when the stream opens (a private list is its owner's); each card the
page then fetches (/statuses/<id>/card/) asks the rule again."""

from asgiref.sync import sync_to_async

from accounts.services import LOGIN_PATTERN, uid_for_login
from timeline.audience import selectors as safety
from timeline.conversations.selectors import check_tag
from timeline.lists import selectors as lists
from timeline.statuses.text import mentions

from .filters import LOGIN, REPLY, RESIDUE, TAG, IndexKey, as_int, event_tags
from .records import Event
from .services import StreamRefused

TIMELINES = ("global", "tag", "list", "profile", "mentions", "replies")


class PageFilter:
    """A page's timeline: `where` the rule is asked for it (global or anywhere)."""

    where = safety.ANYWHERE

    def __call__(self, event: Event) -> bool:
        return "event" not in event and self.passes(event)

    def passes(self, status: Event) -> bool:
        raise NotImplementedError


class GlobalFilter(PageFilter):
    """Every public status that is no repost (what the global timeline keeps)."""

    where = safety.GLOBAL

    def passes(self, status: Event) -> bool:
        return not status.get("repost_of") and not safety.is_private(status)

    def index_keys(self) -> frozenset[IndexKey]:
        return frozenset((RESIDUE, residue) for residue in range(100))


class TagFilter(PageFilter):
    def __init__(self, tag: str) -> None:
        self.tag = tag

    def passes(self, status: Event) -> bool:
        return not status.get("repost_of") and self.tag in event_tags(status)

    def index_keys(self) -> frozenset[IndexKey]:
        return frozenset({(TAG, self.tag)})


class ProfileFilter(PageFilter):
    """Everything `login` posts, reposts and replies included."""

    def __init__(self, login: str) -> None:
        self.login = login.lower()

    def passes(self, status: Event) -> bool:
        login = status.get("login")
        return isinstance(login, str) and login.lower() == self.login

    def index_keys(self) -> frozenset[IndexKey]:
        return frozenset({(LOGIN, self.login)})


class MentionsFilter(ProfileFilter):
    """The statuses of others @mentioning `login` (no reposts: the original counts)."""

    def passes(self, status: Event) -> bool:
        message = status.get("message")
        return (
            not status.get("repost_of")
            and not super().passes(status)
            and isinstance(message, str)
            and self.login in mentions(message)
        )


class ListFilter(PageFilter):
    """The statuses of the list's members, as read when the stream opens. Asked about
    every status (lists are few; the index knows authors by login only)."""

    def __init__(self, members: frozenset[int]) -> None:
        self.members = members

    def passes(self, status: Event) -> bool:
        return as_int(status.get("uid")) in self.members


class RepliesFilter(PageFilter):
    """The replies to one status (its page's Replies)."""

    def __init__(self, status_id: int) -> None:
        self.status_id = status_id

    def passes(self, status: Event) -> bool:
        return as_int(status.get("in_reply_to")) == self.status_id

    def index_keys(self) -> frozenset[IndexKey]:
        return frozenset({(REPLY, self.status_id)})


async def page_stream_filter(params: dict[str, str], uid: int | None) -> PageFilter:
    """The filter of a page's live timeline for its logged-in reader `uid`;
    StreamRefused: 403 without a session (the pages' live timelines are the site's
    own), 400 for a bad or missing parameter, 404 for no such list, user or tag."""
    if uid is None:
        raise StreamRefused(403, "A page's live timeline is for the page: open it logged in.")
    kind = params.get("timeline", "")
    if kind == "global":
        return GlobalFilter()
    if kind == "tag":
        try:
            return TagFilter(check_tag(params.get("tag", "")))
        except ValueError as error:
            raise StreamRefused(400, str(error)) from None
    if kind in ("profile", "mentions"):
        login = params.get("login", "").removeprefix("@")[:60]
        if not LOGIN_PATTERN.match(login):
            raise StreamRefused(400, "Say whose: login=<login>.")
        if await sync_to_async(uid_for_login)(login) is None:
            raise StreamRefused(404, f"There is no user @{login}.")
        return ProfileFilter(login) if kind == "profile" else MentionsFilter(login)
    if kind == "list":
        list_id = as_int(params.get("list"))
        members = await sync_to_async(_list_members)(list_id, uid) if list_id else None
        if members is None:
            raise StreamRefused(404, "There is no such list.")
        return ListFilter(members)
    if kind == "replies":
        status_id = as_int(params.get("status"))
        if not status_id or status_id < 1:
            raise StreamRefused(400, "Say which status: status=<id>.")
        return RepliesFilter(status_id)
    raise StreamRefused(400, f"Say which timeline: timeline={'|'.join(TIMELINES)}.")


def _list_members(list_id: int, uid: int) -> frozenset[int] | None:
    """The members of list `list_id` if `uid` may see it (None: no such list for them)."""
    if list_id < 1 or lists.get_list(list_id, uid) is None:
        return None
    return frozenset(lists.member_uids(list_id))
