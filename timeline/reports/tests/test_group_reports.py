"""Reports on groups' posts go to the group's moderators first: they dismiss them,
remove the post, or send them on; one left open goes to the site's queue by itself."""

import time

import pytest
from django.core.management import call_command

from timeline.groups import services, staff
from timeline.groups.services import GroupError
from timeline.posting import services as posting
from timeline.reports import groups as group_reports
from timeline.reports import selectors
from timeline.reports.services import report_status
from timeline.statuses.selectors import get_status


@pytest.fixture
def carol(make_user):
    return make_user("carol")


@pytest.fixture
def group_post(alice, bob, carol):
    """Alice's group, where bob posted and carol reads."""
    group_id = services.create_group(alice.uid, "Cats", "Cats")
    services.join_group(group_id, bob.uid)
    services.join_group(group_id, carol.uid)
    return group_id, posting.post_status(bob.uid, "buy cheap cat food", group=group_id)


def targets(queue) -> list[int]:
    return [group.target for group in queue]


def test_a_report_on_a_group_post_waits_for_its_moderators_not_the_sites(alice, carol, group_post):
    group_id, status_id = group_post
    report_status(carol.uid, status_id, "spam")
    assert targets(group_reports.group_report_queue(group_id, alice.uid)) == [status_id]
    assert selectors.moderation_queue() == []
    assert selectors.open_count() == 0
    # Nobody but its moderators reads the group's queue.
    with pytest.raises(GroupError, match="moderators"):
        group_reports.group_report_queue(group_id, carol.uid)


def test_a_report_on_a_status_in_no_group_goes_to_the_site(alice, carol):
    status_id = posting.post_status(alice.uid, "plain")
    report_status(carol.uid, status_id, "spam")
    assert targets(selectors.moderation_queue()) == [status_id]


def test_a_group_moderator_dismisses_a_report(alice, carol, group_post):
    group_id, status_id = group_post
    report_id = report_status(carol.uid, status_id, "spam")
    group_reports.dismiss_group_report(group_id, alice.uid, report_id)
    assert group_reports.group_report_queue(group_id, alice.uid) == []
    report = selectors.get_report(report_id)
    assert report["state"] == "dismissed"
    assert report["actions"][0]["who"] == "@alice"
    # Closed, it goes nowhere later, and the reporter may report again.
    selectors.escalate_due(time.time() + 10 * 86_400)
    assert selectors.moderation_queue() == []
    report_status(carol.uid, status_id, "spam")


def test_a_group_moderator_removes_the_reported_post_and_its_reports_close(
    alice, bob, carol, make_user, group_post
):
    group_id, status_id = group_post
    dave = make_user("dave")
    services.join_group(group_id, dave.uid)
    first = report_status(carol.uid, status_id, "spam")
    report_status(dave.uid, status_id, "abuse")
    assert group_reports.remove_reported_post(group_id, alice.uid, first) == 2
    assert group_reports.group_report_queue(group_id, alice.uid) == []
    call_command("worker", burst=True)
    assert get_status(status_id) is None


def test_a_moderator_escalates_a_report_to_the_site(alice, carol, group_post):
    group_id, status_id = group_post
    report_id = report_status(carol.uid, status_id, "abuse", "threats")
    assert group_reports.escalate_group_report(group_id, alice.uid, report_id) == 1
    assert group_reports.group_report_queue(group_id, alice.uid) == []
    (site,) = selectors.moderation_queue()
    assert site.reports[0]["id"] == report_id
    assert site.reports[0]["escalated"]
    # Sent on, it is the site's now: the group's moderators no longer act on it.
    with pytest.raises(ValueError, match="No such report"):
        group_reports.dismiss_group_report(group_id, alice.uid, report_id)


def test_a_report_left_open_goes_to_the_site_by_itself(alice, carol, group_post, settings):
    group_id, status_id = group_post
    settings.GROUP_REPORT_ESCALATE_SECONDS = 60
    report_id = report_status(carol.uid, status_id, "spam")
    assert selectors.escalate_due(time.time() + 30) == 0
    assert selectors.moderation_queue() == []
    assert selectors.escalate_due(time.time() + 61) == 1
    assert selectors.escalate_due(time.time() + 61) == 0
    assert selectors.open_count() == 1
    assert selectors.get_report(report_id)["escalated"]
    assert group_reports.group_report_queue(group_id, alice.uid) == []


def test_a_site_moderator_acts_on_an_escalated_group_report(alice, carol, group_post):
    from timeline.reports import services as reports

    group_id, status_id = group_post
    report_id = report_status(carol.uid, status_id, "spam")
    group_reports.escalate_group_report(group_id, alice.uid, report_id)
    report = selectors.get_report(report_id)
    assert reports.delete_reported_status(report, "admin") == 1
    assert selectors.moderation_queue() == []
    assert get_status(status_id) is None


def test_another_groups_moderator_cant_act_on_the_report(alice, bob, carol, group_post):
    group_id, status_id = group_post
    report_id = report_status(carol.uid, status_id, "spam")
    other = services.create_group(bob.uid, "Dogs", "Dogs")
    with pytest.raises(ValueError, match="No such report"):
        group_reports.dismiss_group_report(other, bob.uid, report_id)
    assert staff.moderators_of(other) == [bob.uid]
    assert targets(group_reports.group_report_queue(group_id, alice.uid)) == [status_id]
