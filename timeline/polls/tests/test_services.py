import json
import time

import pytest

from socialsite import jobs
from socialsite import keys as infra_keys
from timeline import keys
from timeline.feeds import selectors as feeds
from timeline.graph import services as graph
from timeline.notifications.selectors import notifications_page
from timeline.polls import services as polls
from timeline.polls.keys import poll_voters_key
from timeline.polls.selectors import poll_of
from timeline.posting import services as posting
from timeline.reactions import services as reactions
from timeline.safety import services as safety
from timeline.statuses import selectors as status_selectors
from timeline.statuses.selectors import StatusGone


def post_poll(uid, options=("Tea", "Coffee"), seconds=3600, **spec):
    return posting.post_status(uid, "Which?", poll=polls.check_poll(list(options), seconds, **spec))


def run_jobs():
    jobs.work(burst=True)


# Checking a poll


@pytest.mark.parametrize(
    ("options", "seconds", "says"),
    [
        (["only one"], 3600, "2 to 4 options"),
        (["a", "b", "c", "d", "e"], 3600, "2 to 4 options"),
        (["a", "x" * 51], 3600, "at most 50 characters"),
        (["a", "  "], 3600, "blank"),
        (["Same", "same"], 3600, "must differ"),
        (["a", "b"], 299, "5 minutes to 7 days"),
        (["a", "b"], 7 * 86400 + 1, "5 minutes to 7 days"),
        (["a", "b"], "soon", "number of seconds"),
    ],
)
def test_a_poll_out_of_bounds_is_refused_saying_why(options, seconds, says):
    with pytest.raises(polls.PollError, match=says):
        polls.check_poll(options, seconds)


def test_a_poll_of_4_options_of_50_characters_open_7_days_is_fine():
    spec = polls.check_poll(["a" * 50, "b", "c", "d"], 7 * 86400, multiple=True)
    assert spec.options[0] == "a" * 50 and spec.multiple and spec.expires_in == 7 * 86400


def test_a_post_cant_set_the_poll_fields_as_extra_data(alice):
    with pytest.raises(ValueError, match="poll_counts"):
        posting.post_status(alice.uid, "sneaky", poll_counts="100,0")


# Posting and reading


def test_a_posted_poll_is_on_its_status_open_with_no_votes(alice):
    status_id = post_poll(alice.uid, ("Tea", "Coffee", "Water"), 600)
    status = status_selectors.get_status(status_id)
    poll = poll_of(status)
    assert [o.title for o in poll.options] == ["Tea", "Coffee", "Water"]
    assert [o.votes for o in poll.options] == [0, 0, 0]
    assert not poll.expired and not poll.multiple and poll.voters_count == 0
    assert poll.expires_at == pytest.approx(status["posted"] + 600, abs=1)


def test_posting_a_poll_schedules_its_closing(alice, redis_conn):
    status_id = post_poll(alice.uid, seconds=900)
    scheduled = redis_conn.zrange(infra_keys.SCHEDULED_JOBS, 0, -1, withscores=True)
    ((member, due),) = scheduled
    assert json.loads(member) == ["close_poll", json.dumps({"status_id": status_id})]
    assert due == pytest.approx(time.time() + 900, abs=2)


# Voting


def test_a_vote_counts_and_marks_the_voters_pages(alice, bob):
    status_id = post_poll(alice.uid)
    graph.follow_user(bob.uid, alice.uid)
    assert polls.vote(bob.uid, status_id, ["1"]) == "1"
    (shown,) = feeds.timeline_page(bob.uid).statuses
    poll = poll_of(shown)
    assert [o.votes for o in poll.options] == [0, 1]
    assert [o.percent for o in poll.options] == [0, 100]
    assert poll.voted and poll.own_votes == (1,) and poll.voters_count == 1
    assert poll.options[1].chosen and not poll.options[0].chosen


def test_percentages_are_shares_of_all_votes(alice, make_user):
    status_id = post_poll(alice.uid, ("a", "b", "c"))
    for choice in ("0", "0", "1"):
        polls.vote(make_user().uid, status_id, [choice])
    poll = poll_of(status_selectors.get_status(status_id))
    assert [o.percent for o in poll.options] == [67, 33, 0]


def test_a_second_vote_is_refused_and_changes_nothing(alice, bob):
    status_id = post_poll(alice.uid)
    polls.vote(bob.uid, status_id, [0])
    with pytest.raises(polls.PollError, match="already voted"):
        polls.vote(bob.uid, status_id, [1])
    poll = poll_of(status_selectors.get_status(status_id))
    assert [o.votes for o in poll.options] == [1, 0] and poll.voters_count == 1


def test_several_choices_only_in_a_multiple_choice_poll(alice, bob, make_user):
    single = post_poll(alice.uid, ("a", "b", "c"))
    with pytest.raises(polls.PollError, match="one choice"):
        polls.vote(bob.uid, single, [0, 2])
    multiple = post_poll(alice.uid, ("a", "b", "c"), multiple=True)
    assert polls.vote(bob.uid, multiple, ["2", "0", "0"]) == "0,2"
    polls.vote(make_user().uid, multiple, [2])
    poll = poll_of(status_selectors.get_status(multiple))
    assert [o.votes for o in poll.options] == [1, 0, 2]
    assert poll.votes_count == 3 and poll.voters_count == 2


@pytest.mark.parametrize("choices", [[], ["2"], ["-1"], ["one"]])
def test_bad_choices_are_refused_and_change_nothing(alice, bob, choices):
    status_id = post_poll(alice.uid)
    with pytest.raises(polls.PollError):
        polls.vote(bob.uid, status_id, choices)
    assert poll_of(status_selectors.get_status(status_id)).voters_count == 0


def test_the_author_cant_vote_and_sees_the_results(alice):
    status_id = post_poll(alice.uid)
    with pytest.raises(polls.PollError, match="your own poll"):
        polls.vote(alice.uid, status_id, [0])
    assert poll_of(status_selectors.get_status(status_id), viewer=alice.uid).voted


def test_a_status_without_a_poll_or_gone_takes_no_vote(alice, bob):
    plain = posting.post_status(alice.uid, "no poll here")
    with pytest.raises(StatusGone):
        polls.vote(bob.uid, plain, [0])
    with pytest.raises(StatusGone):
        polls.vote(bob.uid, 999_999, [0])


def test_someone_who_may_not_see_the_poll_cant_vote(alice, bob):
    status_id = post_poll(alice.uid)
    safety.block(alice.uid, bob.uid)
    with pytest.raises(StatusGone):
        polls.vote(bob.uid, status_id, [0])


def test_a_vote_given_a_repost_goes_to_the_original(alice, bob, make_user):
    status_id = post_poll(alice.uid)
    repost = reactions.repost(bob.uid, status_id)
    polls.vote(make_user().uid, repost, [1])
    assert poll_of(status_selectors.get_status(status_id)).voters_count == 1


def test_a_closed_poll_takes_no_vote(alice, bob, redis_conn):
    status_id = post_poll(alice.uid)
    redis_conn.hset(keys.status_key(status_id), "poll_expires", int(time.time()) - 1)
    with pytest.raises(polls.PollError, match="closed"):
        polls.vote(bob.uid, status_id, [0])


# Closing


def due_now(redis_conn, status_id):
    """Makes the poll of `status_id` due now: its time and its scheduled job."""
    redis_conn.hset(keys.status_key(status_id), "poll_expires", int(time.time()) - 1)
    redis_conn.zadd(
        infra_keys.SCHEDULED_JOBS,
        {json.dumps(["close_poll", json.dumps({"status_id": status_id})]): 0},
    )


def test_a_job_closes_a_due_poll_and_notifies_voters_and_author(alice, bob, make_user, redis_conn):
    status_id = post_poll(alice.uid)
    carol = make_user("carol").uid
    polls.vote(bob.uid, status_id, [0])
    polls.vote(carol, status_id, [1])
    run_jobs()
    assert not poll_of(status_selectors.get_status(status_id)).expired
    due_now(redis_conn, status_id)
    run_jobs()
    assert status_selectors.get_status(status_id)["poll_closed"] == "1"
    for uid in (alice.uid, bob.uid, carol):
        (line,) = notifications_page(uid, 1, 20).notifications
        assert line.kind == "poll" and line.status["id"] == status_id
    run_jobs()
    assert len(notifications_page(bob.uid, 1, 20).notifications) == 1


def test_the_closing_job_survives_a_worker_killed_before_it_ran(alice, bob, redis_conn):
    status_id = post_poll(alice.uid)
    polls.vote(bob.uid, status_id, [0])
    due_now(redis_conn, status_id)
    # A worker moves the due job onto the stream, takes it and dies before finishing it.
    jobs.ensure_group(redis_conn)
    assert jobs.release_due_jobs(redis_conn) == 1
    redis_conn.xreadgroup(jobs.keys.JOB_GROUP, "dead", {jobs.keys.JOB_STREAM: ">"}, count=1)
    with pytest.MonkeyPatch.context() as patch:
        from django.conf import settings

        patch.setattr(settings, "JOB_CLAIM_IDLE_MS", 0)
        run_jobs()
    assert status_selectors.get_status(status_id)["poll_closed"] == "1"
    assert [n.kind for n in notifications_page(bob.uid, 1, 20).notifications] == ["poll"]


def test_a_scheduled_job_waits_until_due(redis_conn):
    jobs.schedule(redis_conn, ("close_poll", {"status_id": 1}), time.time() + 60)
    assert jobs.release_due_jobs(redis_conn) == 0
    assert jobs.release_due_jobs(redis_conn, now=time.time() + 61) == 1
    assert redis_conn.zcard(infra_keys.SCHEDULED_JOBS) == 0
    assert jobs.unfinished_jobs("close_poll") == [{"status_id": 1}]


def test_hidden_totals_show_once_closed(alice, bob, redis_conn):
    status_id = post_poll(alice.uid, hide_totals=True)
    polls.vote(bob.uid, status_id, [0])
    poll = poll_of(status_selectors.get_status(status_id))
    assert [o.votes for o in poll.options] == [None, None] and not poll.shows_totals
    due_now(redis_conn, status_id)
    run_jobs()
    poll = poll_of(status_selectors.get_status(status_id))
    assert [o.votes for o in poll.options] == [1, 0] and poll.shows_totals


# Deleting


def test_deleting_the_status_drops_its_votes_and_its_closing(alice, bob, redis_conn):
    status_id = post_poll(alice.uid)
    polls.vote(bob.uid, status_id, [0])
    posting.delete_status(alice.uid, status_id)
    run_jobs()
    assert not redis_conn.exists(poll_voters_key(status_id))
    assert redis_conn.hget(keys.poll_votes_key(bob.uid), str(status_id)) is None
    assert redis_conn.zcard(infra_keys.SCHEDULED_JOBS) == 0


# The export


def test_the_export_has_your_polls_and_your_votes(alice, bob):
    import json as json_module

    mine = post_poll(alice.uid, ("Tea", "Coffee"))
    theirs = post_poll(bob.uid, ("Up", "Down", "Sideways"), multiple=True)
    polls.vote(bob.uid, mine, [1])
    polls.vote(alice.uid, theirs, [0, 2])
    data = json_module.loads(b"".join(alice.client.post("/export/")))
    (status,) = data["statuses"]
    assert status["poll"]["options"] == [
        {"title": "Tea", "votes": 0},
        {"title": "Coffee", "votes": 1},
    ]
    assert status["poll"]["voters"] == 1 and status["poll"]["multiple"] is False
    assert data["poll_votes"] == [{"status": theirs, "choices": [0, 2]}]


# Cost


def test_a_vote_is_3_round_trips_and_a_post_with_a_poll_as_many_as_without(alice, bob, round_trips):
    sid = post_poll(alice.uid)
    assert round_trips(lambda: polls.vote(bob.uid, sid, [0])) == 3
    plain = round_trips(lambda: posting.post_status(alice.uid, "plain"))
    assert round_trips(lambda: post_poll(alice.uid)) == plain == 3


# A closed account


def test_closing_an_account_drops_its_votes_copy_and_its_polls(alice, bob, redis_conn):
    from accounts.services import close_account

    mine = post_poll(bob.uid)
    theirs = post_poll(alice.uid)
    polls.vote(bob.uid, theirs, [0])
    polls.vote(alice.uid, mine, [1])
    close_account(bob.uid)
    run_jobs()
    assert not redis_conn.exists(keys.poll_votes_key(bob.uid))
    # Their own poll went with their statuses, its voters and alice's copy with it.
    assert not redis_conn.exists(poll_voters_key(mine))
    assert redis_conn.hget(keys.poll_votes_key(alice.uid), str(mine)) is None
    # Their vote still counts in alice's poll, as Mastodon's do.
    assert poll_of(status_selectors.get_status(theirs)).votes_count == 1


def test_the_notifications_page_says_a_poll_ended(alice, bob, redis_conn):
    from timeline.tests.pages import shows

    status_id = post_poll(alice.uid)
    polls.vote(bob.uid, status_id, [0])
    due_now(redis_conn, status_id)
    run_jobs()
    page = bob.client.get("/notifications/")
    assert shows(page, "@alice ran a poll that has ended")
    assert shows(page, "Tea Your choice 100%") and shows(page, "Closed")
