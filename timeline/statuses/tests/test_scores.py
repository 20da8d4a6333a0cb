"""The book's scores (timeline.statuses.scores.POSTED), which every timeline but homes keeps."""

from timeline.statuses.scores import POSTED


def test_a_posted_score_is_its_status_time_in_unix_seconds():
    assert POSTED.score("1764000000.25") == 1_764_000_000.25
    assert POSTED.score(1_764_000_000.25) == 1_764_000_000.25
