"""No deleted status's id outlives the jobs in a home or list timeline, whatever the order
of the deletion, the leaving (an unfollow, a list member's removal) and the worker, nor
when the deletion lands between the two steps of a follow or a list member's addition."""

import itertools

import pytest

from socialsite import events, jobs
from timeline.graph import selectors as graph_selectors
from timeline.graph import services as graph
from timeline.lists import selectors as list_selectors
from timeline.lists import services as lists
from timeline.posting import services as posting
from timeline.tests.pages import home_entries


def orders(*sequences: list[str]):
    """Every interleaving of `sequences`, each kept in its own order."""
    steps = [step for sequence in sequences for step in sequence]
    for order in itertools.permutations(steps):
        if all([s for s in order if s in sequence] == sequence for sequence in sequences):
            yield order


# The deletion and the leaving, each followed by a run of the worker (which may come
# before or after the other's request): 6 orders, and the worker runs once more at the end.
INTERLEAVINGS = list(orders(["delete", "work 1"], ["leave", "work 2"]))


def run(order, steps):
    assert len(INTERLEAVINGS) == 6
    for step in order:
        steps[step.split()[0]]()


@pytest.mark.parametrize("order", INTERLEAVINGS, ids=" / ".join)
def test_a_deleted_status_leaves_an_ex_followers_home(make_user, order):
    author, follower = make_user().uid, make_user().uid
    graph.follow_user(follower, author)
    posting.post_status(author, "stays")
    doomed = posting.post_status(author, "goes")
    friend = make_user().uid
    graph.follow_user(follower, friend)
    theirs = posting.post_status(friend, "a friend's")
    steps = {
        "delete": lambda: posting.delete_status(author, doomed),
        "leave": lambda: graph.unfollow_user(follower, author),
        "work": lambda: jobs.work(burst=True),
    }
    run(order, steps)
    assert home_entries(follower) == [theirs]  # neither the deleted status nor the kept one


@pytest.mark.parametrize("order", INTERLEAVINGS, ids=" / ".join)
def test_a_deleted_status_leaves_a_list_its_author_was_removed_from(make_user, order):
    owner, member, other = make_user().uid, make_user().uid, make_user().uid
    list_id = lists.create_list(owner, "Mixed")
    lists.add_member(owner, list_id, member)
    lists.add_member(owner, list_id, other)
    doomed = posting.post_status(member, "goes")
    theirs = posting.post_status(other, "stays")
    steps = {
        "delete": lambda: posting.delete_status(member, doomed),
        "leave": lambda: lists.remove_member(owner, list_id, member),
        "work": lambda: jobs.work(burst=True),
    }
    run(order, steps)
    assert list_selectors.timeline_ids(list_id) == [theirs]


def test_a_status_deleted_between_the_steps_of_an_unfollow_leaves_home(make_user, redis_conn):
    author, follower = make_user().uid, make_user().uid
    graph.follow_user(follower, author)
    doomed = posting.post_status(author, "goes")
    # The unfollow's first step (the author's side) reads the profile before the deletion,
    # its second runs after it; the retract job runs last, when neither side has the other.
    since = graph_selectors.followed_at(follower, author)
    followed = graph.losing_follower(redis_conn, author, follower, since)
    posting.delete_status(author, doomed)
    who = {"id": follower, "login": "x"}
    graph.unfollowing(redis_conn, who, {"id": author, "login": followed[0]}, followed[1])
    jobs.work(burst=True)
    assert home_entries(follower) == []


def between_steps(monkeypatch, function_name: str, meanwhile):
    """Runs `meanwhile()` inside the next call of socialsite.events.`function_name`, which
    a follow (follow_changed) and a list member's addition (activity) make between their
    first step, which read the profile, and their second, which copies it."""
    make_event = getattr(events, function_name)

    def interleaved(*args, **kwargs):
        monkeypatch.setattr(events, function_name, make_event)
        meanwhile()
        return make_event(*args, **kwargs)

    monkeypatch.setattr(events, function_name, interleaved)


def delete_and_retract(author: int, status_id: int):
    def meanwhile():
        posting.delete_status(author, status_id)
        jobs.work(burst=True)

    return meanwhile


def test_a_status_deleted_while_its_author_is_followed_stays_out_of_home(make_user, monkeypatch):
    author, follower = make_user().uid, make_user().uid
    doomed = posting.post_status(author, "goes")
    kept = posting.post_status(author, "stays")
    between_steps(monkeypatch, "follow_changed", delete_and_retract(author, doomed))
    assert graph.follow_user(follower, author)
    jobs.work(burst=True)
    assert home_entries(follower) == [kept]


def test_a_status_deleted_while_its_author_is_added_to_a_list_stays_out_of_it(
    make_user, monkeypatch
):
    owner, member = make_user().uid, make_user().uid
    list_id = lists.create_list(owner, "l")
    doomed = posting.post_status(member, "goes")
    kept = posting.post_status(member, "stays")
    between_steps(monkeypatch, "activity", delete_and_retract(member, doomed))
    lists.add_member(owner, list_id, member)
    jobs.work(burst=True)
    assert list_selectors.timeline_ids(list_id) == [kept]
