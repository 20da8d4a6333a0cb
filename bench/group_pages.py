"""Groups over HTTP: a group's page (its newest 30 posts, pinned ones above, read by a
member), its members page and the groups directory, each under the HTTP part's load
(100 concurrent keep-alive connections through daphne) beside the bare Django view on
the same server in the same run. The group page is held to the HTTP part's target:
half the bare view's rate, as the home and profile pages are."""

from django.core.management import call_command

from timeline.groups import services as groups
from timeline.groups.moderation import pin
from timeline.posting import services as posting

from . import seed
from .context import Context
from .measure import Row
from .web import BARE, Page, _compared, _notes, _serve
from .web_accounts import signed_in

MEMBERS = 200
# Groups in the directory: more than a page (timeline.groups.views.GROUPS_PER_PAGE).
DIRECTORY_GROUPS = 60
HANDLE = "benchgroup"


def group_member(posts: int) -> str:
    """A member of a group of MEMBERS members holding `posts` posts, 3 of them pinned,
    among DIRECTORY_GROUPS groups: their session cookie."""
    call_command("migrate", verbosity=0, interactive=False)
    reader, cookie = signed_in("benchgrouper", "Group Reader")
    owner = seed.user("groupowner")
    group = groups.create_group(owner, HANDLE, "Bench group", "The bench's group.")
    groups.join_group(group, reader)
    authors = [seed.user("groupmember") for _ in range(MEMBERS - 2)]
    for member in authors:
        groups.join_group(group, member)
    posted = [
        posting.post_status(authors[i % len(authors)], f"group post {i} " + "x" * 90, group=group)
        for i in range(posts)
    ]
    for status_id in posted[:3]:
        pin(group, owner, status_id)
    for i in range(DIRECTORY_GROUPS - 1):
        groups.create_group(seed.user("groupmaker"), f"benchgroup{i}", f"Group number {i}")
    return cookie


def run(ctx: Context) -> list[Row]:
    conns = ctx.plan.http_connections
    posts = max(60, ctx.plan.profile_statuses // 5)
    cookie = group_member(posts)
    pages = {
        "group": Page(
            f"/g/{HANDLE}/",
            f"group page ({MEMBERS} members, 30 of {posts} posts, 3 pinned)",
            True,
            cookie=cookie,
        ),
        "members": Page(
            f"/g/{HANDLE}/members/", "group members page (50 with roles)", cookie=cookie
        ),
        "directory": Page(
            "/groups/", f"groups directory page ({DIRECTORY_GROUPS} groups)", cookie=cookie
        ),
    }
    loads = _serve(ctx, {"bare view": BARE} | pages, cookie)
    bare = loads["bare view"]
    rows = [Row("http", f"bare view, {conns} conns (groups)", bare.rate(), notes=_notes(bare))]
    for name, page in pages.items():
        rows.append(_compared(f"{page.case}, {conns} conns", loads[name], bare, held=page.held))
    return rows
