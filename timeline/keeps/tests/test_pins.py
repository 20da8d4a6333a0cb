import pytest
from django.test import override_settings

from timeline.graph import selectors as profiles
from timeline.keeps import selectors, services
from timeline.posting import services as posting
from timeline.reactions import services as reactions
from timeline.safety import services as safety
from timeline.statuses.selectors import AlreadyDone, StatusGone
from timeline.tests.pages import ids


def test_pinned_statuses_are_atop_the_profile_latest_pinned_first(make_user):
    author = make_user("pinner")
    older = posting.post_status(author.uid, "older")
    newer = posting.post_status(author.uid, "newer")
    services.pin(author.uid, older)
    services.pin(author.uid, newer)
    view = profiles.profile_page("pinner", make_user().uid)
    assert ids(list(view.pinned)) == [newer, older]
    assert ids(view.page.statuses) == [newer, older]
    assert ids(list(profiles.profile_page("pinner", None).pinned)) == [newer, older]
    assert profiles.profile_page("pinner", page=2).pinned == ()


def test_the_pinned_mark_is_the_authors_alone(make_user):
    author = make_user("pinner")
    status_id = posting.post_status(author.uid, "mine")
    services.pin(author.uid, status_id)
    (own,) = profiles.profile_page("pinner", author.uid).pinned
    assert own["pinned"] is True
    (seen,) = profiles.profile_page("pinner", make_user().uid).pinned
    assert seen["pinned"] is False


def test_only_your_own_public_statuses_can_be_pinned(make_user):
    author, other = make_user().uid, make_user().uid
    status_id = posting.post_status(author, "theirs")
    with pytest.raises(ValueError, match="your own"):
        services.pin(other, status_id)
    repost = reactions.repost(other, status_id)
    with pytest.raises(ValueError, match="repost"):
        services.pin(other, repost)
    safety.set_private(author, True)
    private = posting.post_status(author, "followers only")
    with pytest.raises(ValueError, match="anyone may see"):
        services.pin(author, private)
    with pytest.raises(StatusGone):
        services.pin(author, 10**9)
    assert selectors.pinned_ids(author) == [] and selectors.pinned_ids(other) == []


@override_settings(PINS_MAX=2)
def test_no_more_than_pins_max_and_pinning_twice_is_already_done(make_user):
    author = make_user().uid
    first, second, third = (posting.post_status(author, f"s{n}") for n in range(3))
    services.pin(author, first)
    with pytest.raises(AlreadyDone):
        services.pin(author, first)
    services.pin(author, second)
    with pytest.raises(ValueError, match="up to 2"):
        services.pin(author, third)
    services.unpin(author, first)
    services.pin(author, third)
    assert selectors.pinned_ids(author) == [str(third), str(second)]
    with pytest.raises(AlreadyDone):
        services.unpin(author, first)


def test_a_deleted_status_is_unpinned(make_user):
    author = make_user().uid
    status_id = posting.post_status(author, "short-lived")
    services.pin(author, status_id)
    posting.delete_status(author, status_id)
    assert selectors.pinned_ids(author) == []


def test_a_private_accounts_pins_are_hidden_from_strangers(make_user):
    author = make_user("goes_private")
    status_id = posting.post_status(author.uid, "public then")
    services.pin(author.uid, status_id)
    safety.set_private(author.uid, True)
    assert profiles.profile_page("goes_private", make_user().uid).pinned == ()


def test_pins_cost_the_profile_page_no_round_trip(make_user, round_trips):
    author = make_user("pinner")
    reader = make_user().uid
    statuses = [posting.post_status(author.uid, f"s{n}") for n in range(5)]
    profiles.profile_page("pinner", reader)
    unpinned = round_trips(lambda: profiles.profile_page("pinner", reader))
    for status_id in statuses[:3]:
        services.pin(author.uid, status_id)
    profiles.profile_page("pinner", reader)
    assert round_trips(lambda: profiles.profile_page("pinner", reader)) == unpinned == 2
