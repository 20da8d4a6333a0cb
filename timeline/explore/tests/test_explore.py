"""Explore (timeline.explore): which statuses trend and for whom, and the page."""

import json
import time

from django.core.management import call_command
from django.test import Client

from timeline.discovery import activity
from timeline.explore import selectors
from timeline.groups import services as groups
from timeline.posting import services as posting
from timeline.reactions import services as reactions
from timeline.safety import services as safety
from timeline.tests.pages import shows, status_ids


def count(published: list[dict]) -> None:
    """Feeds what was published to the activity listener, as a worker receives it."""
    for event in published:
        activity.record_event(json.dumps(event))


def trending_ids(viewer: int | None = None, offset: int = 0, limit: int = 40) -> list[int]:
    return [s["id"] for s in selectors.trending_statuses(viewer, offset, limit).statuses]


def liked_by(status_id: int, likers) -> None:
    for liker in likers:
        reactions.like(liker.uid, status_id)


def made_private(member) -> None:
    """Makes `member`'s account private, and their statuses with it (the job)."""
    safety.set_private(member.uid, True)
    call_command("worker", burst=True)


def test_statuses_trend_by_their_engagement_most_first(make_user, events):
    ann, ben = make_user("ann"), make_user("ben")
    fans = [make_user(f"fan{i}") for i in range(3)]
    quiet, loud = posting.post_status(ann.uid, "quiet"), posting.post_status(ben.uid, "loud")
    posting.post_status(ann.uid, "unseen")
    liked_by(quiet, fans[:1])
    liked_by(loud, fans)
    count(events())
    assert trending_ids() == [loud, quiet]


def test_private_unlisted_and_private_group_statuses_never_trend(make_user, events):
    ann, ben = make_user("ann"), make_user("ben")
    fans = [make_user(f"fan{i}") for i in range(2)]
    public = posting.post_status(ben.uid, "for everyone")
    unlisted = posting.post_status(ben.uid, "quiet", visibility="unlisted")
    club = groups.create_group(ben.uid, "club", "Club", kind="private")
    groups.add_members_in_bulk(club, {fans[0].uid: time.time()})
    group_only = posting.post_status(ben.uid, "members", group=club)
    private = posting.post_status(ann.uid, "followers only, soon")
    for status_id in (public, unlisted, group_only, private):
        liked_by(status_id, fans[:1])
    count(events())
    made_private(ann)
    assert trending_ids() == [public]
    # Not even for the group's members, nor the author: trends are for everyone's eyes.
    assert trending_ids(fans[0].uid) == [public]
    assert trending_ids(ben.uid) == [public]


def test_a_public_groups_post_trends(make_user, events):
    ann, fan = make_user("ann"), make_user("fan")
    square = groups.create_group(ann.uid, "square", "Square")
    status_id = posting.post_status(ann.uid, "for all", group=square)
    liked_by(status_id, [fan])
    count(events())
    assert trending_ids() == [status_id]


def test_a_status_made_private_since_it_was_counted_drops_out(make_user, events):
    ann, fan = make_user("ann"), make_user("fan")
    status_id = posting.post_status(ann.uid, "soon private")
    liked_by(status_id, [fan])
    count(events())
    assert trending_ids() == [status_id]
    made_private(ann)
    assert trending_ids() == []


def test_an_author_trends_with_two_statuses_at_most(make_user, events):
    ann, ben = make_user("ann"), make_user("ben")
    fans = [make_user(f"fan{i}") for i in range(4)]
    anns = [posting.post_status(ann.uid, f"mine {i}") for i in range(3)]
    bens = posting.post_status(ben.uid, "just one")
    for n, status_id in enumerate(anns):
        liked_by(status_id, fans[: 4 - n])
    liked_by(bens, fans[:1])
    count(events())
    assert trending_ids() == [anns[0], anns[1], bens]


def test_a_viewers_blocks_apply_either_way(make_user, events):
    ann, ben, viewer = make_user("ann"), make_user("ben"), make_user("viewer")
    fans = [make_user(f"fan{i}") for i in range(2)]
    anns, bens = posting.post_status(ann.uid, "by ann"), posting.post_status(ben.uid, "by ben")
    liked_by(anns, fans)
    liked_by(bens, fans[:1])
    count(events())
    safety.block(viewer.uid, ann.uid)
    safety.block(ben.uid, viewer.uid)
    assert trending_ids(viewer.uid) == []
    assert trending_ids(None) == [anns, bens]
    assert trending_ids(fans[0].uid) == [anns, bens]


def test_a_deleted_status_stops_trending(make_user, events):
    ann, fan = make_user("ann"), make_user("fan")
    status_id = posting.post_status(ann.uid, "here a moment")
    liked_by(status_id, [fan])
    count(events())
    posting.delete_status(ann.uid, status_id)
    assert trending_ids() == []


def test_trending_statuses_page_by_offset(make_user, events):
    authors = [make_user(f"author{i}") for i in range(3)]
    fans = [make_user(f"fan{i}") for i in range(3)]
    posted = [posting.post_status(author.uid, "hello") for author in authors]
    for n, status_id in enumerate(posted):
        liked_by(status_id, fans[: 3 - n])
    count(events())
    first = selectors.trending_statuses(None, 0, 2)
    assert [s["id"] for s in first.statuses] == posted[:2] and first.more
    rest = selectors.trending_statuses(None, 2, 2)
    assert [s["id"] for s in rest.statuses] == posted[2:] and not rest.more


def test_the_explore_page_shows_statuses_links_and_tags(make_user, events):
    ann, fan = make_user("ann"), make_user("fan")
    status_id = posting.post_status(ann.uid, "see https://example.com/news #redis")
    liked_by(status_id, [fan])
    count(events())
    for client in (Client(), fan.client):
        response = client.get("/explore/")
        assert response.status_code == 200
        assert status_ids(response) == [status_id]
        assert shows(
            response, "Trending links https://example.com/news 1 person in the past 2 days"
        )
        assert shows(response, "Trending tags #redis 1")
    assert 'href="/explore/"' in fan.client.get("/").content.decode()


def test_an_empty_explore_page_says_so_and_a_page_past_the_last_is_not_found(alice):
    response = alice.client.get("/explore/")
    assert shows(response, "Nothing is trending yet")
    assert shows(response, "No links are trending yet.")
    assert alice.client.get("/explore/?page=2").status_code == 404


def test_a_page_of_trending_statuses_is_one_round_trip_once_worked_out(
    make_user, events, round_trips
):
    ann, fan, viewer = make_user("ann"), make_user("fan"), make_user("viewer")
    liked_by(posting.post_status(ann.uid, "hello"), [fan])
    count(events())
    # Ranking the hours, then reading the candidates: once a minute a process.
    assert round_trips(lambda: selectors.trending_statuses(viewer.uid, 0, 20)) == 3
    assert round_trips(lambda: selectors.trending_statuses(viewer.uid, 0, 20)) == 1
    assert round_trips(lambda: selectors.trending_statuses(None, 0, 20)) == 1
