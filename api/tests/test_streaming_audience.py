"""The client API's user, public and hashtag streams, end to end, for a reader someone
blocks while their streams are open and for a private account's follows: none of the
blocker's statuses or reposts of them, and no follow of a private account, reach them."""

import json
from contextlib import ExitStack
from urllib.parse import urlencode

import pytest
from websockets.sync.client import connect

from accounts.services import create_user
from timeline.graph.services import follow_user
from timeline.posting.services import post_status
from timeline.reactions import services as reactions
from timeline.safety import services as safety

pytestmark = pytest.mark.django_db(transaction=True)


def test_no_api_stream_carries_a_blockers_statuses_or_a_private_accounts_follows(
    daphne_server, make_user, token_for
):
    carol = make_user("carol")
    dave, erin, pia = (create_user(login, login) for login in ("dave", "erin", "pia"))
    safety.set_private(pia, True)
    follow_user(carol.uid, dave)
    token = token_for(carol)["HTTP_AUTHORIZATION"].removeprefix("Bearer ")
    base = daphne_server.replace("http://", "ws://") + "/api/v1/streaming?"
    streams = [{"stream": "user"}, {"stream": "public"}, {"stream": "hashtag", "tag": "secret"}]
    with ExitStack() as opened:
        sockets = [
            opened.enter_context(
                connect(base + urlencode({**stream, "access_token": token}), open_timeout=10)
            )
            for stream in streams
        ]
        original = post_status(erin, "#secret of erin's")
        safety.block(erin, carol.uid)  # while the streams are open
        post_status(erin, "#secret from erin")
        reactions.repost(dave, original)
        follow_user(pia, dave)
        marker = post_status(dave, "#secret marker")
        for stream, socket in zip(streams, sockets, strict=True):
            while True:
                event = json.loads(socket.recv(timeout=10))
                status = json.loads(event["payload"])
                if status["id"] != str(original):  # posted before the block
                    break
            assert (event["event"], status["id"]) == ("update", str(marker)), stream
