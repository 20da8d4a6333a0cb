import time

from socialsite import jobs
from socialsite import keys as infra_keys
from timeline import keys
from timeline.ops import maintenance
from timeline.polls import services as polls
from timeline.polls.keys import poll_voters_key
from timeline.polls.selectors import poll_of
from timeline.posting import services as posting
from timeline.statuses import selectors as status_selectors


def post_poll(uid):
    return posting.post_status(uid, "Which?", poll=polls.check_poll(["a", "b"], 3600))


def poll_findings():
    return [f for f in maintenance.repair().findings if f.check == "polls"]


def test_a_sound_poll_has_no_findings(alice, bob):
    sid = post_poll(alice.uid)
    polls.vote(bob.uid, sid, [1])
    assert poll_findings() == []


def test_wrong_counts_are_found_and_recounted_from_the_voters(alice, bob, redis_conn):
    sid = post_poll(alice.uid)
    polls.vote(bob.uid, sid, [1])
    redis_conn.hset(keys.status_key(sid), mapping={"poll_counts": "5,1", "poll_voters": 6})
    (finding,) = poll_findings()
    assert finding.key == keys.status_key(sid)
    maintenance.repair(fix=True)
    poll = poll_of(status_selectors.get_status(sid))
    assert [o.votes for o in poll.options] == [0, 1] and poll.voters_count == 1
    assert poll_findings() == []


def test_a_voters_lost_copy_is_restored(alice, bob, redis_conn):
    sid = post_poll(alice.uid)
    polls.vote(bob.uid, sid, [0])
    redis_conn.delete(keys.poll_votes_key(bob.uid))
    (finding,) = poll_findings()
    assert finding.key == keys.poll_votes_key(bob.uid)
    maintenance.repair(fix=True)
    assert redis_conn.hget(keys.poll_votes_key(bob.uid), str(sid)) == "0"


def test_the_voters_of_a_status_gone_are_dropped(alice, bob, redis_conn):
    sid = post_poll(alice.uid)
    polls.vote(bob.uid, sid, [0])
    redis_conn.delete(keys.status_key(sid))
    assert [f.key for f in poll_findings()] == [poll_voters_key(sid)]
    maintenance.repair(fix=True)
    jobs.work(burst=True)
    assert not redis_conn.exists(poll_voters_key(sid), keys.poll_votes_key(bob.uid))


def test_an_open_poll_whose_closing_job_was_lost_is_closed(alice, redis_conn):
    sid = post_poll(alice.uid)
    redis_conn.hset(keys.status_key(sid), "poll_expires", int(time.time()) - 7200)
    redis_conn.delete(infra_keys.SCHEDULED_JOBS)
    (finding,) = poll_findings()
    assert finding.problem == "an open poll past its time"
    maintenance.repair(fix=True)
    jobs.work(burst=True)
    assert status_selectors.get_status(sid)["poll_closed"] == "1"
