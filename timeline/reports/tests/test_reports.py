import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import User

from accounts.services import get_user
from timeline.feeds.selectors import shown_status
from timeline.posting import services as posting
from timeline.reports import selectors, services
from timeline.safety import services as safety
from timeline.statuses.display import posted_at
from timeline.statuses.selectors import StatusGone
from timeline.tests.pages import shows


@pytest.fixture
def operator(client, db):
    admin = User.objects.create_superuser("operator", "op@example.com", "pw-for-tests-only")
    client.force_login(admin)
    return client


def test_reports_are_one_open_per_reporter_and_target_grouped_newest_first(alice, bob, make_user):
    carol = make_user("carol")
    sid = posting.post_status(bob.uid, "buy cheap stuff")
    first = services.report_status(alice.uid, sid, "spam", "again and again")
    with pytest.raises(ValueError, match="already reported"):
        services.report_status(alice.uid, sid, "abuse")
    second = services.report_status(carol.uid, sid, "spam")
    on_user = services.report_user(alice.uid, bob.uid, "abuse")
    assert selectors.open_count() == 3
    groups = selectors.moderation_queue()
    assert [(g.kind, g.target) for g in groups] == [("user", bob.uid), ("status", sid)]
    assert [r["id"] for r in groups[1].reports] == [second, first]
    assert groups[1].message == "buy cheap stuff" and on_user


@pytest.mark.parametrize(
    "reason,comment,error",
    [
        ("rude", "", "Choose a reason"),
        ("spam", "x" * 501, "at most 500"),
        ("spam", "a\u202eb", "bidi"),
    ],
)
def test_bad_reports_are_refused_and_file_nothing(alice, bob, reason, comment, error):
    sid = posting.post_status(bob.uid, "hello")
    with pytest.raises(ValueError, match=error):
        services.report_status(alice.uid, sid, reason, comment)
    assert selectors.open_count() == 0


def test_nobody_reports_themselves_a_hidden_or_missing_status(alice, bob):
    own = posting.post_status(alice.uid, "mine")
    with pytest.raises(ValueError, match="your own"):
        services.report_status(alice.uid, own, "spam")
    with pytest.raises(ValueError, match="yourself"):
        services.report_user(alice.uid, alice.uid, "spam")
    with pytest.raises(StatusGone):
        services.report_status(alice.uid, 999_999, "spam")
    safety.set_private(bob.uid, True)
    hidden = posting.post_status(bob.uid, "private")
    with pytest.raises(StatusGone):
        services.report_status(alice.uid, hidden, "spam")
    assert selectors.open_count() == 0


def test_reporting_from_the_pages(alice, bob, client):
    sid = posting.post_status(bob.uid, "hello")
    response = alice.client.post(f"/statuses/{sid}/report/", {"reason": "abuse"}, follow=True)
    assert shows(response, "Thanks: the moderators will look at your report.")
    assert alice.client.post("/u/bob/report/", {"reason": "nope"}).status_code == 400
    assert (
        alice.client.post("/u/bob/report/", {"reason": "spam", "comment": "bot"}).status_code == 302
    )
    assert client.post("/u/bob/report/", {"reason": "spam"}).status_code == 302  # to log in
    assert selectors.open_count() == 2


def test_the_queue_actions_are_recorded_and_shown(operator, alice, bob, make_user):
    carol = make_user("carol")
    sid = posting.post_status(bob.uid, "awful things")
    report = services.report_status(alice.uid, sid, "abuse")
    services.report_status(carol.uid, sid, "abuse")
    dismissed = services.report_user(alice.uid, carol.uid, "other")
    dashboard = operator.get("/admin/redis/dashboard/").content.decode()
    assert 'Open reports</th><td><a href="/admin/redis/reports/">3</a>' in dashboard
    page = operator.get("/admin/redis/reports/")
    assert shows(page, "Status") and shows(page, "awful things") and shows(page, "@carol")
    assert operator.get(f"/admin/redis/reports/{report}/delete/").status_code == 200  # confirm
    assert shown_status(sid) is not None
    operator.post(f"/admin/redis/reports/{report}/delete/")
    assert shown_status(sid) is None
    operator.post(f"/admin/redis/reports/{dismissed}/dismiss/")
    assert selectors.open_count() == 0
    page = operator.get(f"/admin/redis/reports/{report}/")
    assert shows(page, "actioned") and shows(page, f"Deleted status {sid}. by operator")
    assert shows(operator.get(f"/admin/redis/reports/{dismissed}/"), "Dismissed. by operator")
    assert LogEntry.objects.filter(object_id=f"report:{report}").exists()
    # Times read as dates (UTC), as elsewhere in the admin, not Unix seconds.
    filed = selectors.get_report(report)["filed"]
    assert shows(page, "Filed (UTC)") and shows(page, f"{posted_at(filed):%Y-%m-%d %H:%M}")
    assert str(int(filed)) not in page.content.decode()
    # The reporter may report again once their report is closed.
    assert services.report_user(alice.uid, carol.uid, "other")


def test_suspending_from_a_report_closes_the_reports_on_that_account(operator, alice, bob):
    sid = posting.post_status(bob.uid, "spam spam")
    on_status = services.report_status(alice.uid, sid, "spam")
    services.report_user(alice.uid, bob.uid, "spam")
    operator.post(f"/admin/redis/reports/{on_status}/suspend/")
    assert get_user(bob.uid)["suspended"]
    assert selectors.open_count() == 0
    assert operator.get("/admin/redis/reports/999/").status_code == 404
    assert operator.get(f"/admin/redis/reports/{on_status}/nope/").status_code == 404


def test_only_staff_see_the_queue(alice):
    response = alice.client.get("/admin/redis/reports/")
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
