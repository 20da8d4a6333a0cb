"""The reader's affinity with authors, kept in their slot by the actions themselves."""

import pytest
from django.core.management import call_command

from accounts import services as account_services
from socialsite.redis import get_redis
from timeline.graph import selectors as graph_selectors
from timeline.posting import services as posting
from timeline.ranking import affinity
from timeline.reactions import services as reactions


def counts(reader: int) -> dict[int, dict[str, float]]:
    return affinity.affinity_of(get_redis(), reader).counts


def test_a_like_adds_to_the_likers_affinity_with_the_author(alice, bob):
    reactions.like(alice.uid, posting.post_status(bob.uid, "one"))
    reactions.like(alice.uid, posting.post_status(bob.uid, "two"))
    assert counts(alice.uid)[bob.uid] == {"like": pytest.approx(2, rel=1e-3)}
    assert counts(bob.uid) == {}


def test_a_reply_and_a_repost_add_affinity_with_the_author_answered_or_shared(alice, bob):
    status = posting.post_status(bob.uid, "question")
    posting.post_status(alice.uid, "answer", in_reply_to=status)
    reactions.repost(alice.uid, status)
    kinds = counts(alice.uid)[bob.uid]
    assert kinds == {"reply": pytest.approx(1, rel=1e-3), "repost": pytest.approx(1, rel=1e-3)}


def test_a_profile_visit_adds_affinity_and_none_for_your_own_statuses_or_profile(alice, bob):
    graph_selectors.profile_page("bob", alice.uid)
    graph_selectors.profile_page("alice", alice.uid)
    own = posting.post_status(alice.uid, "mine")
    posting.post_status(alice.uid, "me again", in_reply_to=own)
    reactions.like(alice.uid, own)
    assert counts(alice.uid) == {bob.uid: {"visit": pytest.approx(1, rel=1e-3)}}


def test_affinity_halves_every_half_life():
    read = affinity.decode([("7:like", affinity.weight_at(1_800_000_000))], 1_800_000_000)
    assert read.counts[7]["like"] == pytest.approx(1)
    later = 1_800_000_000 + affinity.HALF_LIFE
    assert affinity.decode([("7:like", affinity.weight_at(1_800_000_000))], later).counts[7][
        "like"
    ] == pytest.approx(0.5)


def test_a_reader_keeps_their_strongest_affinities(make_user, monkeypatch):
    monkeypatch.setattr(affinity, "KEPT", 2)
    reader, authors = make_user().uid, [make_user().uid for _ in range(3)]
    for times, author in zip((3, 2, 1), authors, strict=True):
        for n in range(times):
            reactions.like(reader, posting.post_status(author, f"status {n}"))
    assert sorted(counts(reader)) == sorted(authors[:2])


def test_the_weights_say_which_kind_weighs_most(alice, bob):
    status = posting.post_status(bob.uid, "question")
    reactions.like(alice.uid, status)
    posting.post_status(alice.uid, "answer", in_reply_to=status)
    read = affinity.affinity_of(get_redis(), alice.uid)
    assert read.strongest(bob.uid, {"like": 1, "reply": 3}) == "reply"
    assert read.strongest(bob.uid, {"like": 5, "reply": 3}) == "like"
    assert read.of(bob.uid, {"like": 1, "reply": 3}) == pytest.approx(4, rel=1e-3)


def test_a_closed_accounts_affinity_goes_with_it(alice, bob):
    reactions.like(alice.uid, posting.post_status(bob.uid, "one"))
    account_services.close_account(alice.uid)
    call_command("worker", burst=True)
    assert counts(alice.uid) == {}
