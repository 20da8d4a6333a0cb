"""The live group timeline: a group page's "N new" (/statuses/group.json?group=<handle>).

Its filter passes what timeline.posting puts on the group's timeline: the posts to the
group that are no reply (and their deletions), filed in the hub's index under the group
(streaming.index), so open group pages aren't asked about every event. Whom it is for is
a Viewer (streaming.viewers: the one rule, blocks both ways kept current) that knows the
stream's owner may read the group: anyone a public or announcement group's, only its
members a private one's, checked when the stream opens (a member removed later keeps the
ids of new posts until they reload, never their cards: /statuses/<id>/card/ asks the
rule again)."""

from typing import cast

from asgiref.sync import sync_to_async

from timeline.audience import selectors as safety
from timeline.groups import selectors as groups
from timeline.keys import PRIVATE_FIELD

from .filters import GROUP, IndexKey, as_int
from .records import Event
from .services import StreamRefused
from .viewers import Viewer

# The status's fields naming its group, and saying it is a private group's
# (timeline.groups.services.check_group_post: a private group's post is marked private).
GROUP_FIELD = "group"
GROUP_PRIVACY = (PRIVATE_FIELD, "group_private")


class GroupFilter:
    """The posts to group `group_id` that its timeline shows: no replies."""

    def __init__(self, group_id: int) -> None:
        self.group_id = group_id

    def __call__(self, event: Event) -> bool:
        if "event" in event or event.get("in_reply_to"):
            return False
        return as_int(event.get(GROUP_FIELD)) == self.group_id

    def index_keys(self) -> frozenset[IndexKey]:
        return frozenset({(GROUP, self.group_id)})


class GroupViewer(Viewer):
    """A group stream's owner, who may read the group `group_id` (a private group's posts
    are marked private for everyone else): for its posts, the rule applies as to a public
    status (blocks either way still hide them)."""

    def __init__(self, group_id: int, uid: int) -> None:
        super().__init__(safety.Audience(uid))
        self.group_id = group_id
        self.ready = False
        self.begin_load()

    def sees(self, event: Event) -> bool:
        if as_int(event.get(GROUP_FIELD)) == self.group_id and PRIVATE_FIELD in event:
            shown = cast(Event, {k: v for k, v in event.items() if k not in GROUP_PRIVACY})
            return super().sees(shown)
        return super().sees(event)


def is_group_post(event: Event) -> bool:
    return "event" not in event and as_int(event.get(GROUP_FIELD)) is not None


async def group_stream_filter(handle: str, uid: int | None) -> GroupFilter:
    """The filter of the live timeline of the group `handle` for its logged-in reader
    `uid`; StreamRefused: 400 without a group, 404 for no such group, 403 for a private
    group's non-member (and for a stream key: the group pages' live timeline is the
    site's own)."""
    if uid is None:
        raise StreamRefused(403, "A group's live timeline is for its page: open it logged in.")
    if not handle:
        raise StreamRefused(400, "Say which group: group=<handle>.")
    group, membership = await sync_to_async(_group_and_membership)(handle[:60], uid)
    if group is None:
        raise StreamRefused(404, f"There is no group {handle[:60]}.")
    if group.kind == "private" and not (membership.role is not None and not membership.banned):
        raise StreamRefused(403, "Only the group's members read a private group.")
    return GroupFilter(group.id)


def _group_and_membership(handle: str, uid: int):
    group = groups.group_for_handle(handle)
    return group, (groups.membership(group.id, uid) if group is not None else None)
