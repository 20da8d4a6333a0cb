"""The offline evaluation of Top (bench.top_evaluation) on the test Redis: its seeded
readers find at least twice the share of what they engage with in Top's first 20 as in
Latest's."""

import pytest

from bench import top_evaluation

pytestmark = pytest.mark.django_db


def test_top_holds_twice_latests_share_of_engaged_statuses_in_its_first_20():
    result, network = top_evaluation.evaluate()
    assert len(network.statuses) == top_evaluation.AUTHORS * top_evaluation.NOW_EACH
    assert result.home == top_evaluation.READERS * len(network.statuses)
    assert result.engaged > top_evaluation.FIRST
    assert result.in_top > 0
    assert result.top_share >= 2 * result.latest_share, (result.in_top, result.in_latest)
