import json
import subprocess
import sys

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from accounts.services import create_user
from timeline.posting.services import post_status


@pytest.mark.parametrize(
    ("options", "problem"),
    [
        ({}, "Give --sample, or at least one of"),
        ({"sample": "10", "track": ["redis"]}, "can't be combined"),
        ({"sample": "0"}, "percent must be from 1 to 100"),
        ({"track": ["!!"]}, "has no words"),
        ({"location": ["1,2,3"]}, "boxes of 4 numbers"),
        ({"follow": ["no such login!"]}, "is not a login"),
        ({"track": ["redis"], "count": 0}, "--count must be at least 1"),
    ],
)
def test_bad_options_are_refused_with_a_clear_message(options, problem):
    with pytest.raises(CommandError, match=problem):
        call_command("stream", **options)


def test_the_stream_command_prints_matching_events_as_they_come():
    alice_uid = create_user("alice", "Alice")
    command = [sys.executable, "manage.py", "stream", "--track", "redis", "--follow", "bob",
               "--count", "2"]  # fmt: skip
    with subprocess.Popen(
        command, cwd=settings.BASE_DIR, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as process:
        # Whatever the system checks say comes first.
        while "Streaming" not in process.stderr.readline():
            assert process.poll() is None
        post_status(alice_uid, "python")
        wanted = [post_status(alice_uid, "I like redis"), post_status(alice_uid, "thanks @bob")]
        output, _ = process.communicate(timeout=30)
    assert process.returncode == 0
    assert [json.loads(line)["id"] for line in output.splitlines()] == wanted
