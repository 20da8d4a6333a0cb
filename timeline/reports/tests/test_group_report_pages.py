"""The reports about a group's posts, on the group moderators' page: the queue, and
dismissing, removing the post or passing a report on to the site's moderators."""

import pytest

from timeline.groups import selectors as groups
from timeline.groups import services
from timeline.posting import services as posting
from timeline.reports import selectors
from timeline.reports import services as reports
from timeline.tests.pages import shows


@pytest.fixture
def cats(alice, bob) -> int:
    group = services.create_group(alice.uid, "cats", "Cat people")
    services.join_group(group, bob.uid)
    return group


def test_the_groups_moderators_see_its_reports_and_dismiss_one(alice, bob, make_user, cats):
    status = posting.post_status(bob.uid, "buy my cat food", group=cats)
    carol = make_user("carol")
    report = reports.report_status(carol.uid, status, "spam", "ads")
    page = alice.client.get("/g/cats/reports/")
    assert page.status_code == 200
    assert shows(page, "A post by @bob · 1 report") and shows(page, "@carol: spam · ads")
    assert shows(page, "“buy my cat food”")
    response = alice.client.post(f"/g/cats/reports/{report}/dismiss/", follow=True)
    assert shows(response, "Report dismissed.") and shows(response, "No open reports.")
    assert selectors.get_report(report)["state"] == reports.DISMISSED


def test_removing_a_reported_post_and_passing_one_on(alice, bob, make_user, cats):
    carol = make_user("carol")
    first = posting.post_status(bob.uid, "first", group=cats)
    second = posting.post_status(bob.uid, "second", group=cats)
    one, other = (reports.report_status(carol.uid, s, "abuse") for s in (first, second))
    response = alice.client.post(f"/g/cats/reports/{one}/remove/", follow=True)
    assert shows(response, "The post is off Cat people, and its reports closed.")
    assert first not in groups.timeline_ids(cats)
    site_queue = selectors.open_count()
    response = alice.client.post(f"/g/cats/reports/{other}/escalate/", follow=True)
    assert shows(response, "Passed on to the site's moderators.")
    assert selectors.open_count() == site_queue + 1
    assert shows(response, "No open reports.")


def test_a_member_not_a_moderator_gets_a_403(alice, bob, make_user, cats):
    status = posting.post_status(alice.uid, "rules", group=cats)
    report = reports.report_status(make_user("carol").uid, status, "other")
    assert bob.client.get("/g/cats/reports/").status_code == 403
    assert bob.client.post(f"/g/cats/reports/{report}/dismiss/").status_code == 403
    assert selectors.get_report(report)["state"] == reports.OPEN


def test_an_unknown_report_is_a_400(alice, cats):
    assert alice.client.post("/g/cats/reports/999/dismiss/").status_code == 400
