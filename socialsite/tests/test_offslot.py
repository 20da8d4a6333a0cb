import os
import threading
import time

import pytest

from socialsite import offslot


def test_work_runs_in_a_process_of_its_own_and_its_result_comes_back():
    assert offslot.run(os.getpid) != os.getpid()
    assert offslot.run(divmod, 17, 5) == (3, 2)


def test_what_the_work_raises_comes_back_as_itself():
    with pytest.raises(ValueError, match="invalid literal"):
        offslot.run(int, "not a number")


def test_an_exception_that_cannot_be_rebuilt_comes_back_as_its_text():
    # ProfileError takes (field, message): its pickle can't make it again.
    from accounts.profiles import check_website

    with pytest.raises(RuntimeError, match="ProfileError: A website is an http"):
        offslot.run(check_website, "ftp://a.example/")


def test_work_past_its_time_is_killed(settings):
    settings.OFF_SLOT_SECONDS = 0.5
    started = time.monotonic()
    with pytest.raises(offslot.Overrun):
        offslot.run(time.sleep, 30)
    assert time.monotonic() - started < 5


def test_work_waiting_past_its_time_for_a_free_process_is_refused_as_busy(settings):
    settings.OFF_SLOT_PROCESSES, settings.OFF_SLOT_SECONDS = 1, 3
    holding = threading.Thread(target=offslot.run, args=(time.sleep, 2))
    holding.start()
    time.sleep(0.2)
    settings.OFF_SLOT_SECONDS = 0.3
    try:
        with pytest.raises(offslot.Busy) as busy:
            offslot.run(os.getpid)
        assert busy.value.retry_after >= 1
    finally:
        holding.join()
    # Its place came back.
    assert offslot.run(divmod, 7, 2) == (3, 1)
