from django.test import override_settings

from socialsite import jobs
from timeline import keys
from timeline.posting import services as posting


@override_settings(POSTS_PER_PASS=2, FAN_OUT_JOB_SIZE=3)
def test_fan_out_jobs_reach_everyone_once_across_ties_at_job_boundaries(make_user, redis_conn):
    author = make_user().uid
    fans = [make_user().uid for _ in range(11)]
    # Runs of ties straddle the first pass and several jobs' boundaries.
    times = [1, 1, 1, 2, 2, 2, 2, 2, 3, 4, 4]
    redis_conn.zadd(keys.followers_key(author), dict(zip(fans, times, strict=True)))
    sid = posting.post_status(author, "to all eleven")
    assert jobs.work(burst=True) == 4
    for fan in fans:
        assert redis_conn.zrange(keys.home_timeline_key(fan), 0, -1) == [str(sid)]


@override_settings(POSTS_PER_PASS=2, FAN_OUT_JOB_SIZE=3)
def test_a_deletion_is_retracted_from_every_home_across_several_jobs(
    make_user, followers_of, redis_conn
):
    author = make_user().uid
    fans = followers_of(author, 8)
    sid = posting.post_status(author, "short-lived")
    jobs.work(burst=True)
    posting.delete_status(author, sid)
    jobs.work(burst=True)
    for fan in fans:
        assert redis_conn.zscore(keys.home_timeline_key(fan), sid) is None
