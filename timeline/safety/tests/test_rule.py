"""The rule's page form (safety.visible): decided once an author, words per status, and
skipped only where nothing can be hidden; always the same answers as may_see."""

import pytest

from socialsite.text import words
from timeline.audience import selectors as rule
from timeline.graph import services as graph
from timeline.posting import services as posting
from timeline.safety import services
from timeline.statuses.selectors import get_status

READER, AUTHOR, REPOSTER, BLOCKED, MUTED = 1, 2, 3, 4, 5


def status(status_id: int, uid: int, message: str = "hi", **fields) -> dict:
    return {"id": status_id, "uid": uid, "login": f"user{uid}", "message": message, **fields}


def agrees_with_may_see(statuses, audience, where) -> list[dict]:
    """visible's answer, checked against may_see asked about each status alone."""
    shown = rule.visible(None, statuses, audience, where=where)
    assert shown == [s for s in statuses if rule.may_see(s, audience, where=where)]
    return shown


def test_a_reader_who_shuns_no_one_sees_a_page_with_nothing_private_whole():
    audience = rule.Audience(READER)
    assert not audience.shuns_anyone()
    page = [status(1, AUTHOR), status(2, REPOSTER, repost_of_uid=AUTHOR), status(3, READER)]
    shown = agrees_with_may_see(page, audience, rule.HOME)
    assert shown == page
    assert shown is not page  # the caller's list is never handed back to change


@pytest.mark.parametrize(
    "shunning",
    [
        {"blocked": frozenset({BLOCKED})},
        {"muted": frozenset({MUTED})},
        {"muted_phrases": (words("cats"),)},
    ],
)
def test_any_block_mute_or_muted_phrase_means_the_reader_shuns_someone(shunning):
    assert rule.Audience(READER, **shunning).shuns_anyone()


def test_authors_are_decided_once_a_page_but_muted_words_status_by_status():
    audience = rule.Audience(
        READER,
        blocked=frozenset({BLOCKED}),
        muted=frozenset({MUTED}),
        muted_phrases=(words("cats"),),
    )
    page = [
        status(1, AUTHOR, "hello cats"),
        status(2, AUTHOR, "hello dogs"),
        status(3, REPOSTER, "from the blocked", repost_of_uid=BLOCKED),
        status(4, REPOSTER, "from the muted", repost_of_uid=MUTED),
        status(5, MUTED, "hello"),
        status(6, BLOCKED, "hello"),
        status(7, READER, "my cats"),
    ]
    home = agrees_with_may_see(page, audience, rule.HOME)
    assert [s["id"] for s in home] == [2, 7]
    # Mutes (users and words) are for home alone; blocks hide everywhere.
    anywhere = agrees_with_may_see(page, audience, rule.ANYWHERE)
    assert [s["id"] for s in anywhere] == [1, 2, 4, 5, 7]


def test_a_repost_is_hidden_by_its_attached_originals_author_too():
    audience = rule.Audience(READER, blocked=frozenset({BLOCKED}))
    repost = status(1, REPOSTER, original=status(9, BLOCKED))
    plain = status(2, REPOSTER, original=status(8, AUTHOR))
    assert agrees_with_may_see([repost, plain], audience, rule.ANYWHERE) == [plain]


def test_a_private_status_or_original_is_checked_though_the_reader_shuns_no_one(
    alice, bob, make_user
):
    carol = make_user("carol")
    services.set_private(alice.uid, True)
    graph.follow_user(bob.uid, alice.uid)
    services.approve_request(alice.uid, bob.uid)
    private = get_status(posting.post_status(alice.uid, "for followers"))
    wrapped = status(99, carol.uid, original=private)
    page = [private, wrapped]

    def shown_to(uid: int, where: str = rule.ANYWHERE) -> list[dict]:
        return rule.visible(None, page, rule.Audience(uid), where=where)

    assert shown_to(carol.uid) == []
    assert shown_to(bob.uid) == page  # an approved follower, looked up in Redis
    assert shown_to(alice.uid) == page
    assert shown_to(bob.uid, rule.GLOBAL) == []
    assert rule.visible(None, page, rule.Audience(None)) == []  # a visitor
    # Only the original is private: still looked at.
    assert rule.visible(None, [wrapped], rule.Audience(make_user().uid)) == []
