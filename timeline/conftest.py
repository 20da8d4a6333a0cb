"""Fixtures the tests of several timeline rooms share."""

import pytest
from django.test import override_settings


@pytest.fixture
def small_pieces():
    """Followers kept in pieces of 3, so a few dozen followers make many pieces."""
    with override_settings(FOLLOWERS_PIECE_SIZE=3):
        yield


@pytest.fixture
def strangers(make_user):
    """Users who follow no one."""
    return [make_user().uid for _ in range(6)]
