import json
import os
import re
import subprocess
import sys

import pytest
from django.conf import settings

from bench.__main__ import parse


@pytest.mark.timeout(920)
def test_the_quick_bench_runs_every_part_and_writes_its_results(tmp_path):
    # The bench starts its own Redis and daphne, as `make bench` does (one server in the
    # cluster suite too: the bench's own figures are measured on it), and for the scale
    # part a throwaway 3-master cluster of its own as well. Its timeout only stops a hang:
    # the whole quick bench takes ~4 minutes on 2 cores at load 5.
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "SOCIALSITE_VAR_DIR"}}
    done = subprocess.run(
        [sys.executable, "-m", "bench", "--quick", "--out", str(tmp_path)],
        cwd=settings.BASE_DIR, env=env, capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    results = json.loads((tmp_path / "latest.json").read_text())
    sections = {row["section"] for row in results["rows"]}
    assert {"fan-out", "post", "home page", "follow", "unfollow", "memory"} <= sections
    assert {"http", "streaming", "scale", "search", "delivery"} <= sections
    assert {"top evaluation", "top page", "http top"} <= sections
    # Edits: an edit beside a post by the same author, with the edit's Redis commands.
    (edit,) = [row for row in results["rows"] if row["section"] == "edit"]
    assert edit["ours"]["round_trips"] <= 3 and edit["notes"]["redis_commands_per_edit"] > 0
    # The in-place like beside today's POST + redirect + page, each asked without error.
    (in_place,) = [row for row in results["rows"] if row["section"] == "in place"]
    assert in_place["baseline"]["kind"] == "latency" and in_place["target"] == "<= 0.5x"
    # A poll vote beside a like, with Redis's commands per vote.
    (vote,) = [row for row in results["rows"] if row["section"] == "poll vote"]
    assert vote["ours"]["round_trips"] == 3 and vote["notes"]["redis_commands_per_vote"] > 0
    # Cards: the link card job for a new link beside httpx's bare fetches (bench/cards.py).
    (card,) = [row for row in results["rows"] if row["section"] == "link card"]
    assert card["ours"]["round_trips"] <= 4 and card["baseline"]["kind"] == "latency"
    # Media: an upload beside Pillow's own work on the same file; a status with media.
    upload, status, site = [row for row in results["rows"] if row["section"] == "media"]
    assert upload["baseline"]["kind"] == "latency" and upload["notes"]["cpu_ms_pillow"] > 0
    assert status["notes"]["bytes_added"] > 0 and site["ours"]["unit"] == "GB"
    # Every page has its row (each made with the data it names: test_page_owners), none
    # answered with an error; and each of the site's own WebSockets has one.
    http = {row["case"]: row for row in results["rows"] if row["section"] == "http"}
    for page in (
        "home page", "profile page", "notifications page", "settings page",
        "follow requests page", "blocks page", "mutes page", "POST /export/",
        "lists page", "list timeline page", "admin moderation queue", "admin dashboard",
        "group page", "group members page", "groups directory page",
    ):  # fmt: skip
        (row,) = [
            row for case, row in http.items() if re.fullmatch(rf"{page}( \(.*\))?, \d+ conns", case)
        ]
        assert row["notes"]["errors"] == 0 and row["baseline_name"] == "bare Django view"
    explore = [row for row in results["rows"] if row["section"] == "explore"]
    assert len(explore) == 8 and all(row.get("notes", {}).get("errors", 0) == 0 for row in explore)
    sockets = [row for row in results["rows"] if row["case"].startswith("ws /")]
    assert [row["case"].split(":")[0] for row in sockets] == [
        "ws /live/",
        "ws /api/v1/streaming?stream=user",
    ]
    assert all(row["notes"]["failed"] == 0 == row["notes"]["raw_failed"] for row in sockets)
    # Mastodon's home stream as server-sent events, beside its WebSocket's figure.
    (sse,) = [row for row in results["rows"] if row["case"].startswith("sse /")]
    assert sse["notes"]["failed"] == 0 and sse["baseline"]
    # Whose CPU a post and a delivery cost, ours and the book's, beside their timings.
    posts = [row for row in results["rows"] if row["section"] == "post"]
    fan_outs = [row for row in results["rows"] if "followers_missed" in row.get("notes", {})]
    for notes in [row["notes"]["cpu_ms_per_post"] for row in posts] + [
        row["notes"]["cpu_us_per_delivery"] for row in fan_outs
    ]:
        assert set(notes) == {"ours", "book"}
        assert all(side["redis"] >= 0 and side["client"] > 0 for side in notes.values())
    timings = [row for row in results["rows"] if row["ours"]["kind"] in {"latency", "rate"}]
    # Every timing has its same-run baseline, but the bare view, which is one.
    assert all(row["baseline"] for row in timings if not row["case"].startswith("bare view"))
    scale = [row for row in results["rows"] if row["section"] == "scale"]
    on = {(row["notes"]["figure"], row["notes"]["redis_servers"]) for row in scale}
    assert on == {
        (figure, redis)
        for figure in ("home page", "bare view", "fan-out")
        for redis in ("one Redis", "3-master cluster")
    }
    cluster = [row for row in scale if row["notes"]["redis_servers"] == "3-master cluster"]
    assert all(len(row["notes"]["redis_cores_each"]) == 3 for row in cluster)
    assert all(row["case"].endswith(", 3-master cluster") for row in cluster)
    assert (tmp_path / "latest.png").stat().st_size > 0
    assert (tmp_path / "scale.png").stat().st_size > 0
    assert "| fan-out" in done.stdout


def test_the_bench_refuses_a_cluster_for_the_parts_measured_on_one_server(capsys):
    with pytest.raises(SystemExit) as refused:
        parse(["--cluster", "--only", "scale", "web"])
    assert refused.value.code == 2
    assert "--cluster runs only scale (not web) on a cluster" in capsys.readouterr().err
    assert parse(["--cluster"]).only == ["scale"]
