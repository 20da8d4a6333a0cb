"""STREAM_CONNECTIONS_PER_IP, end to end: a real daphne process sees the client's address."""

import pytest
from django.conf import settings

from streaming.services import stream_stats

from .clients import refusal, wait_until

pytestmark = pytest.mark.django_db(transaction=True)

HOME = "/statuses/home.json"


def test_an_address_at_its_limit_of_open_streams_gets_429_until_one_closes(http_stream, make_user):
    # Session streams: no key's limit gets in the way of the address's.
    home = {"Cookie": make_user("dora").cookie}
    limit = settings.STREAM_CONNECTIONS_PER_IP
    opened = [http_stream("GET", HOME, headers=home) for _ in range(limit)]
    assert [response.status for response in opened] == [200] * limit

    refused = http_stream("GET", HOME, headers=home)
    assert refused.status == 429
    assert int(refused.headers["retry-after"]) > 0
    assert refused.headers["x-content-type-options"] == "nosniff"
    assert f"address already has {limit} open streams" in refused.json()["error"]
    assert stream_stats()["clients"] == limit

    opened[0].close()
    wait_until(lambda: stream_stats()["clients"] == limit - 1, message="a stream closed")
    assert http_stream("GET", HOME, headers=home).status == 200


def test_a_socket_from_an_address_at_its_limit_is_closed_with_4429(ws_stream, make_user):
    home = {"Cookie": make_user("dora").cookie}
    limit = settings.STREAM_CONNECTIONS_PER_IP
    for _ in range(limit):
        ws_stream(HOME, additional_headers=home)

    last, code = refusal(ws_stream, HOME, additional_headers=home)
    assert f"address already has {limit} open streams" in last["error"]
    assert code == 4429
    assert stream_stats()["clients"] == limit
