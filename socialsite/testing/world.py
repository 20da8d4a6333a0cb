"""A small world to look at every page in, and the site map's pages: the accessibility
test (socialsite/tests/test_browser_audit.py), `make screenshots` and
`python -m bench.lighthouse` open the same pages on the same data.

ada (password PASSWORD, the one who logs in, private) follows bob and is followed by
him; carol asks to follow her; dave, whom bob follows, is suggested to her. bob posts
with a #tag, a mention and a link; ada replies, likes and reposts; they share a list,
a conversation and a group."""

from dataclasses import dataclass

from accounts import services as accounts
from socialsite import jobs
from socialsite.testing.browser import PASSWORD
from timeline.direct import services as direct
from timeline.discovery import suggestions
from timeline.graph import services as graph
from timeline.groups import services as groups
from timeline.lists import services as lists
from timeline.posting import services as posting
from timeline.reactions import services as reactions
from timeline.safety import services as safety

LOGIN = "ada"


@dataclass(frozen=True)
class World:
    ada: int
    bob: int
    status: int
    list_id: int
    conversation: int


def make_world() -> World:
    """Makes the world on the configured Redis and database (needs both empty of these
    logins); runs the jobs it queued (notifications), as a worker would."""
    accounts.sign_up(LOGIN, PASSWORD, "Ada Lovelace")
    ada = accounts.uid_for_login(LOGIN)
    bob = accounts.create_user("bob", "Bob Hopper")
    carol = accounts.create_user("carol", "Carol Shaw")
    dave = accounts.create_user("dave", "Dave Moss")
    assert ada is not None and bob is not None and carol is not None and dave is not None
    graph.follow_user(ada, bob)
    graph.follow_user(bob, dave)
    graph.follow_user(bob, ada)
    posting.post_status(bob, "Reading about #redis sorted sets today, https://redis.io/docs")
    status = posting.post_status(bob, "hello @ada, this is #policy: what do you think?")
    assert status is not None
    posting.post_status(ada, "a reply, with #redis in it", in_reply_to=status)
    posting.post_status(carol, "Good morning, everyone #coffee")
    reactions.like(ada, status)
    reactions.like(bob, status)
    reactions.repost(ada, status)
    list_id = lists.create_list(ada, "Friends")
    lists.add_member(ada, list_id, bob)
    conversation = direct.start_conversation(ada, "bob", "a message")
    safety.set_private(ada, True)
    graph.follow_user(carol, ada)
    group = groups.create_group(ada, "policy_group", "Policy people")
    posting.post_status(ada, "in the group", group=group)
    jobs.work(burst=True)
    suggestions.store_suggestions(ada)  # dave, whom bob follows, on her home
    return World(ada, bob, status, list_id, conversation)


# The pages a visitor sees, and ada's (the site map of docs/site.md but the admin's, which
# is Django's); a page's name is its path. Error pages are pages too.
def visitor_pages(world: World) -> list[str]:
    return [
        "/",
        "/accounts/login/",
        "/accounts/signup/",
        "/timeline/",
        "/explore/",
        "/directory/",
        "/u/bob/",
        f"/statuses/{world.status}/",
        "/tags/policy/",
        "/search/?q=hello",
        "/groups/",
        "/g/policy_group/",
        "/nowhere/",
    ]


def member_pages(world: World) -> list[str]:
    return [
        "/",
        "/?order=top",
        "/timeline/",
        "/explore/",
        "/directory/",
        "/u/ada/",
        "/u/bob/",
        "/u/bob/followers/",
        "/u/bob/following/",
        "/u/ada/mentions/",
        "/u/bob/lists/",
        f"/statuses/{world.status}/",
        "/tags/policy/",
        "/likes/",
        "/search/?q=hello",
        "/search/?q=bob&type=people",
        "/search/?q=%23pol",
        "/lists/",
        f"/lists/{world.list_id}/",
        f"/lists/{world.list_id}/members/",
        "/notifications/",
        "/messages/",
        "/messages/new/",
        f"/messages/{world.conversation}/",
        "/follow-requests/",
        "/blocks/",
        "/mutes/",
        "/accounts/settings/",
        "/groups/",
        "/groups/new/",
        "/g/policy_group/",
        "/g/policy_group/members/",
        "/g/policy_group/moderate/",
        "/g/policy_group/requests/",
        "/g/policy_group/reports/",
        "/nowhere/",
    ]


# The main pages, for screenshots and Lighthouse: (name, path, logged in).
def main_pages(world: World) -> list[tuple[str, str, bool]]:
    return [
        ("welcome", "/", False),
        ("global", "/timeline/", False),
        ("home", "/", True),
        ("profile", "/u/bob/", True),
        ("status", f"/statuses/{world.status}/", True),
        ("notifications", "/notifications/", True),
        ("search", "/search/?q=hello", True),
        ("messages", f"/messages/{world.conversation}/", True),
        ("settings", "/accounts/settings/", True),
        ("group", "/g/policy_group/", True),
    ]
