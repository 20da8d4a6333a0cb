"""The accounts the HTTP part's pages are read by: signed-in users with sessions (and
client API tokens), each holding what its page shows (notifications and messages,
follow requests, blocks and mutes, likes and reposts, an export's statuses, lists,
open reports)."""

import random

from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from django.utils.crypto import get_random_string

from accounts.services import create_user, get_user, uid_for_login
from api.oauth import OOB, issue_token, register_app
from streaming.services import create_stream_key
from timeline.direct import services as direct
from timeline.graph import services as graph
from timeline.lists import services as lists
from timeline.posting import services as posting
from timeline.reactions import services as reactions
from timeline.reports import services as reports
from timeline.safety import services as safety

from . import seed
from .pages import author_with_statuses, guard, marking_reader, write_statuses

# The reader's notifications (likes of their statuses and follows, by as many fans)
# and messages in one conversation: a page of each.
FANS = 40
MESSAGES = 60


def signed_in(login: str, name: str, *, staff: bool = False) -> tuple[int, str]:
    """A user (an operator, with `staff`) with a session and no password, whose hashing
    would cost ~0.5 s each (the profile comes with the user: accounts.signals): (uid,
    their session cookie)."""
    user = User.objects.create_user(username=login, first_name=name, is_staff=staff)
    client = Client()
    client.force_login(user)
    return uid_for_login(user.username), f"sessionid={client.cookies['sessionid'].value}"


def logged_in_reader(
    profile_statuses: int, login: str = "benchreader"
) -> tuple[str, str, int, str]:
    """A signed-up user following a busy author, with notifications, a conversation and
    a stream key: (session cookie, the author's login, the conversation's id, a client
    API token's Authorization header)."""
    call_command("migrate", verbosity=0, interactive=False)
    reader, cookie = signed_in(login, "Bench Reader")
    author = author_with_statuses(profile_statuses)
    graph.follow_user(reader, author)
    mine = [posting.post_status(reader, f"mine {i}") for i in range(FANS // 2)]
    for i in range(FANS):
        fan = create_user(f"benchfan{i}", "Fan")
        reactions.like(fan, mine[i % len(mine)])
        graph.follow_user(fan, reader)
    conversation = direct.start_conversation(author, login, "hello")
    for i in range(MESSAGES):
        direct.send_message(reader if i % 2 else author, conversation, f"message {i}")
    create_stream_key(reader, "bench")  # the settings page lists it
    return cookie, get_user(author)["login"], conversation, api_authorization(login)


def api_authorization(login: str) -> str:
    """An Authorization header of a client API token (scope read) for `login`."""
    app, _ = register_app("bench", OOB, "read")
    return f"Bearer {issue_token(app, User.objects.get(username=login), 'read')}"


# Many readers over many distinct statuses: readers, authors, the statuses each author
# has, whom each reader follows, and the pages of their home each reader reads in turn.
MANY_READERS = 20
MANY_AUTHORS = 20
FOLLOWED_EACH = 5
PAGES_EACH = 10


def many_readers(statuses_each: int) -> list[tuple[str, list[str]]]:
    """MANY_READERS signed-in readers, each following FOLLOWED_EACH of MANY_AUTHORS
    authors (with `statuses_each` statuses each), reading pages 1 to PAGES_EACH of their
    home in turn: (cookie, paths) each, over thousands of distinct statuses."""
    pick = random.Random(7)
    authors = [author_with_statuses(statuses_each) for _ in range(MANY_AUTHORS)]
    readers = []
    for i in range(MANY_READERS):
        uid, cookie = signed_in(f"benchmany{i}", "Many Reader")
        for author in pick.sample(authors, FOLLOWED_EACH):
            graph.follow_user(uid, author)
        readers.append((cookie, [f"/?page={page}" for page in range(1, PAGES_EACH + 1)]))
    return readers


# The other pages' owners: a private account's pending requests, a lister's lists (one
# with MEMBERS members, the busy author among them), and the open reports an operator's
# queue shows (two on each reported status).
FOLLOW_REQUESTS = 20
LISTS = 10
MEMBERS = 10
REPORTS = 50


def private_account() -> tuple[str, str]:
    """A private account FOLLOW_REQUESTS users asked to follow: its session cookie and
    a client API Authorization header."""
    uid, cookie = signed_in("benchprivate", "Private")
    safety.set_private(uid, True)
    for _ in range(FOLLOW_REQUESTS):
        graph.follow_user(seed.user("asker"), uid)
    return cookie, api_authorization("benchprivate")


def guarded_account() -> tuple[str, str]:
    """An account blocking GUARDED_BLOCKS users and muting GUARDED_MUTES: its cookie and
    a client API Authorization header."""
    uid, cookie = signed_in("benchguarded", "Guarded")
    guard(uid)
    return cookie, api_authorization("benchguarded")


def marking_account(plan) -> str:
    """An account that likes and reposts a lot (bench.pages.marking_reader): its session
    cookie."""
    uid, cookie = signed_in("benchmarker", "Marker")
    marking_reader(uid, plan)
    return cookie


def exporter(statuses: int) -> tuple[str, tuple[tuple[str, str], ...], list[int]]:
    """An account with `statuses` statuses, as the bench's author has: (its session and
    CSRF cookies and the CSRF header, for the export's POST; its statuses' ids)."""
    uid, cookie = signed_in("benchexporter", "Exporter")
    token = get_random_string(32)  # a CSRF secret: the same in the cookie and the header
    return f"{cookie}; csrftoken={token}", (("X-CSRFToken", token),), write_statuses(uid, statuses)


def lister(author_login: str) -> tuple[str, int]:
    """An account with LISTS lists, the first holding the author and other members:
    (its session cookie, that list's id)."""
    uid, cookie = signed_in("benchlister", "Lister")
    made = [lists.create_list(uid, f"list {i}") for i in range(LISTS)]
    lists.add_member(uid, made[0], uid_for_login(author_login))
    for _ in range(MEMBERS - 1):
        lists.add_member(uid, made[0], seed.user("member"))
    return cookie, made[0]


def operator(reported: list[int]) -> str:
    """An operator, with REPORTS open reports on `reported` statuses (two on each, by
    different users): their session cookie."""
    _, cookie = signed_in("benchoperator", "Operator", staff=True)
    for i in range(REPORTS):
        reports.report_status(seed.user("reporter"), reported[i // 2], "spam", f"report {i}")
    return cookie
