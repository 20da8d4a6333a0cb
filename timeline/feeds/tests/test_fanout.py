import threading

from django.test import override_settings

from socialsite import jobs
from socialsite.redis import for_each_primary
from timeline.feeds import fanout
from timeline.feeds import selectors as feeds
from timeline.follow_sets import followers as follower_sets
from timeline.graph import services as graph
from timeline.posting import services as posting
from timeline.tests.pages import home_entries, ids


def followed_at(redis_conn, author: int, times: dict) -> None:
    """`times` (follower -> follow time) follow `author`, cut into pieces as follows one
    by one would have made them (follow_sets.followers)."""
    follower_sets.add_in_bulk(redis_conn, author, times)


@override_settings(POSTS_PER_PASS=2, FAN_OUT_JOB_SIZE=3, FOLLOWERS_PIECE_SIZE=3)
def test_fan_out_jobs_reach_everyone_once_across_ties_at_job_boundaries(make_user, redis_conn):
    author = make_user().uid
    fans = [make_user().uid for _ in range(11)]
    # Runs of ties straddle the first pass and several jobs' boundaries.
    times = [1, 1, 1, 2, 2, 2, 2, 2, 3, 4, 4]
    followed_at(redis_conn, author, dict(zip(fans, times, strict=True)))
    # Pieces: the base [1, 1, 1], then [2 x 5] (a run stays whole), [3, 4, 4].
    assert follower_sets.piece_starts(redis_conn, author) == ["2", "3"]
    sid = posting.post_status(author, "to all eleven")
    # The split, then its chunks: the rest of the run at 1 (one job), the run at 2 (five:
    # two jobs of at most 3), and 3 and 4 (three: one job).
    assert jobs.work(burst=True) == 5
    for fan in fans:
        assert home_entries(fan) == [sid]


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
        assert sid not in home_entries(fan)


@override_settings(POSTS_PER_PASS=2, FAN_OUT_JOB_SIZE=3, FOLLOWERS_PIECE_SIZE=3)
def test_a_big_fan_out_is_split_into_chunks_that_cover_the_rest_once(make_user, redis_conn):
    author = make_user().uid
    followed_at(redis_conn, author, {str(1000 + i): i for i in range(14)})
    status = {"id": 1, "uid": author, "posted": 5.0}
    _, split = fanout.rest_of_fan_out(fanout.fan_out_job(status), [("1000", 0), ("1001", 1)])
    chunks = [args for _, args in fanout.fan_out_batch(split)]
    assert [(c["after_score"], c["skip"], c["until"]) for c in chunks] == [
        (1, 1, "5"),  # the first pass ended at 1: 2, 3, 4
        ("5", 0, "8"),
        ("8", 0, "11"),
        ("11", 0, "+inf"),  # up to the end, even if someone follows meanwhile
    ]
    assert not any(c["split"] for c in chunks)


@override_settings(POSTS_PER_PASS=2, FAN_OUT_JOB_SIZE=2, FOLLOWERS_PIECE_SIZE=2)
def test_a_run_of_ties_longer_than_a_chunk_stays_in_one_chunk(make_user, redis_conn):
    author = make_user().uid
    times = [1, 2, 2, 2, 2, 2, 3, 4]
    followed_at(redis_conn, author, {str(1000 + i): t for i, t in enumerate(times)})
    status = {"id": 1, "uid": author, "posted": 5.0}
    chunks = [args for _, args in fanout.fan_out_batch(fanout.fan_out_job(status)[1])]
    # Chunks start where pieces do: [1] alone is under a chunk, so it goes with the run.
    assert [(c["after_score"], c["skip"], c["until"]) for c in chunks] == [
        ("-inf", 0, "3"),
        ("3", 0, "+inf"),
    ]


def lpush_calls(redis_conn) -> int:
    """LPUSHes the server (every primary of a cluster) has run."""
    return sum(
        server.info("commandstats").get("cmdstat_lpush", {"calls": 0})["calls"]
        for server in for_each_primary(redis_conn)
    )


@override_settings(POSTS_PER_PASS=10, FAN_OUT_JOB_SIZE=10, FOLLOWERS_PIECE_SIZE=10)
def test_two_workers_share_one_big_fan_out_and_each_follower_gets_it_once(make_user, redis_conn):
    author = make_user().uid
    fans = [str(10_000 + i) for i in range(300)]  # profile-less: delivery never reads one
    followed_at(redis_conn, author, {fan: i for i, fan in enumerate(fans)})
    sid = posting.post_status(author, "to three hundred")
    lpushes_before = lpush_calls(redis_conn)

    # Each worker thread holds its first chunk until the other holds one too: with one
    # chain of jobs (one job queued at a time) they would wait forever.
    both_hold_a_chunk = threading.Barrier(2, timeout=30)
    taken = {"a": 0, "b": 0}

    def held_fan_out(args: dict) -> list[jobs.Job]:
        if not args["split"]:
            name = threading.current_thread().name
            taken[name] += 1
            if taken[name] == 1:
                both_hold_a_chunk.wait()
        return fanout.fan_out_batch(args)

    jobs.handler("fanout")(held_fan_out)
    try:
        workers = [
            threading.Thread(target=jobs.work, kwargs={"burst": True, "consumer": name}, name=name)
            for name in taken
        ]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(timeout=60)
    finally:
        jobs.handler("fanout")(fanout.fan_out_batch)

    assert not both_hold_a_chunk.broken
    assert taken["a"] >= 1 and taken["b"] >= 1
    assert taken["a"] + taken["b"] == 29  # 290 followers past the first pass, 10 a chunk
    # One LPUSH per follower past the first pass: no one was delivered to twice.
    assert lpush_calls(redis_conn) - lpushes_before == 290
    for fan in fans:
        assert home_entries(fan) == [sid]


@override_settings(HOME_TIMELINE_SIZE=3, HOME_TRIM_EVERY=4)
def test_homes_are_trimmed_every_few_statuses_and_pages_show_only_the_newest_home_size(
    make_user, redis_conn
):
    me, author = make_user().uid, make_user().uid
    graph.follow_user(me, author)
    posted = [posting.post_status(author, f"s{i}") for i in range(12)]
    # Past the size only until the next status whose id trims (one in HOME_TRIM_EVERY).
    assert 3 <= len(home_entries(me)) < 3 + 4
    assert ids(feeds.get_status_messages(me, count=10)) == posted[::-1][:3]
    assert ids(feeds.get_status_messages(me, page=2, count=2)) == posted[::-1][2:3]
    assert feeds.get_status_messages(me, page=3, count=2) == []
    page = feeds.home_page(me, count=2).page
    assert page.has_older
    assert not feeds.home_page(me, page=2, count=2).page.has_older
