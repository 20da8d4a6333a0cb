"""The rate limiter itself, on the real Redis: GCRA's count-in-a-window, asking
without counting, starting afresh, and one key per subject that expires."""

import pytest
from django.test import override_settings

from socialsite import keys, ratelimit
from socialsite.testing.waits import wait_for

pytestmark = pytest.mark.usefixtures("redis_conn")


@override_settings(RATE_LIMITS={"posts": (3, 60)})
def test_count_actions_pass_then_the_next_is_refused_for_a_share_of_the_window():
    assert [ratelimit.wait_seconds("posts", "ip:1") for _ in range(3)] == [0, 0, 0]
    waiting = ratelimit.wait_seconds("posts", "ip:1")
    # 3 in 60 s: the allowance comes back one action every 20 s.
    assert 19 <= waiting <= 20
    with pytest.raises(ratelimit.RateLimited) as refused:
        ratelimit.enforce("posts", "ip:1")
    assert refused.value.retry_after == waiting
    assert str(refused.value) == "Too many posts for now: try again in 20 seconds."


def test_every_limit_says_what_it_counts(settings):
    assert set(ratelimit.COUNTS) == set(settings.RATE_LIMITS)


@override_settings(RATE_LIMITS={"test": (2, 60)})
def test_subjects_and_limits_are_counted_apart():
    assert ratelimit.wait_seconds("test", "ip:1") == 0
    assert ratelimit.wait_seconds("test", "ip:1") == 0
    assert ratelimit.wait_seconds("test", "ip:1") > 0
    assert ratelimit.wait_seconds("test", "ip:2") == 0


@override_settings(RATE_LIMITS={"test": (1, 60)})
def test_asking_without_recording_counts_nothing():
    for _ in range(5):
        assert ratelimit.wait_seconds("test", "ip:1", record=False) == 0
    assert ratelimit.wait_seconds("test", "ip:1") == 0
    assert ratelimit.wait_seconds("test", "ip:1", record=False) > 0


@override_settings(RATE_LIMITS={"test": (1, 60)})
def test_forget_starts_a_subject_afresh():
    ratelimit.wait_seconds("test", "login:alice")
    assert ratelimit.wait_seconds("test", "login:alice", record=False) > 0
    ratelimit.forget("test", "login:alice")
    assert ratelimit.wait_seconds("test", "login:alice") == 0


@override_settings(RATE_LIMITS={"test": (2, 2)})
def test_a_limit_lifts_by_itself_within_its_window_and_its_key_expires(redis_conn):
    ratelimit.wait_seconds("test", "ip:1")
    ratelimit.wait_seconds("test", "ip:1")
    # The third waits for the 1 s interval, less up to a second of a slow machine's time.
    assert ratelimit.wait_seconds("test", "ip:1") == 1
    key = keys.rate_limit("test", "ip:1")
    assert 0 < redis_conn.pttl(key) <= 2000
    wait_for(lambda: ratelimit.wait_seconds("test", "ip:1") == 0, timeout=5)
    wait_for(lambda: not redis_conn.exists(key), timeout=5)


def test_the_minutes_are_rounded_up_in_the_message():
    assert "try again in 2 minutes" in str(ratelimit.RateLimited("posts", 61))
    assert "try again in 1 second." in str(ratelimit.RateLimited("posts", 1))
