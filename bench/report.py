"""The bench's outputs: the table on stdout, results/latest.json, and results/latest.png."""

import json
import os
import platform
import subprocess
from pathlib import Path

import redis

from socialsite.redis import for_each_primary

from .measure import Rate, Row

COLUMNS = ("section", "case", "ours", "baseline (same run)", "ratio", "target", "met")


def machine(conn) -> dict:
    """The machine, the Redis (one server, or how many masters of a cluster) and the commit."""
    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        platform.processor(),
    )
    return {
        "nproc": os.cpu_count(),
        "cpu": cpu,
        "python": platform.python_version(),
        "redis": for_each_primary(conn)[0].info("server")["redis_version"],
        "redis_servers": redis_servers(conn),
        "os": platform.platform(),
        "load_average": os.getloadavg(),
        "commit": subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True
        ).stdout.strip(),
    }


def redis_servers(conn) -> str:
    """What the bench runs on: "one Redis" or "3-master cluster"."""
    if isinstance(conn, redis.RedisCluster):
        return f"{len(conn.get_primaries())}-master cluster"
    return "one Redis"


def cells(row: Row) -> tuple[str, ...]:
    ratio = row.ratio
    return (
        row.section,
        row.case,
        str(row.ours),
        f"{row.baseline_name}: {row.baseline}" if row.baseline else "",
        f"{ratio:.2f}x" if ratio is not None else "",
        row.target,
        {True: "yes", False: "NO", None: ""}[row.met],
    )


def table(rows: list[Row]) -> str:
    """A Markdown table, readable as it stands in a terminal."""
    lines = [cells(row) for row in rows]
    widths = [max(len(c) for c in column) for column in zip(COLUMNS, *lines, strict=True)]

    def line(values) -> str:
        return "| " + " | ".join(v.ljust(w) for v, w in zip(values, widths, strict=True)) + " |"

    return "\n".join(
        [line(COLUMNS), line("-" * w for w in widths), *(line(values) for values in lines)]
    )


def write_json(path: Path, plan_name: str, info: dict, rows: list[Row], seconds: float) -> None:
    path.write_text(
        json.dumps(
            {
                "plan": plan_name,
                "machine": info,
                "seconds": round(seconds, 1),
                "rows": [row.as_json() for row in rows],
            },
            indent=2,
        )
        + "\n"
    )


# Sections drawn by a figure of their own rather than as bars beside a baseline.
OWN_FIGURE = {"scale", "page cost", "top evaluation"}


def draw(path: Path, rows: list[Row]) -> bool:
    """One panel per section with rates or latencies: ours beside its baseline. False
    if no row has one to draw."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sections = [
        s
        for s in dict.fromkeys(r.section for r in rows)
        if s not in OWN_FIGURE and any(r.baseline is not None for r in rows if r.section == s)
    ]
    if not sections:
        return False
    figure, axes = plt.subplots(len(sections), 1, figsize=(9, 2.4 * len(sections)), squeeze=False)
    for ax, section in zip(axes[:, 0], sections, strict=True):
        chosen = [r for r in rows if r.section == section and r.baseline is not None]
        labels = [r.case for r in chosen]
        ours = [_value(r.ours) for r in chosen]
        base = [_value(r.baseline) for r in chosen]
        ys = range(len(chosen))
        ax.barh([y + 0.2 for y in ys], ours, height=0.4, label="ours", color="tab:blue")
        ax.barh([y - 0.2 for y in ys], base, height=0.4, label="baseline", color="tab:gray")
        ax.set_yticks(list(ys), labels, fontsize=8)
        ax.invert_yaxis()
        unit = "per second" if isinstance(chosen[0].ours, Rate) else "p50 ms"
        ax.set_title(f"{section} ({unit}); baseline: {chosen[0].baseline_name}", fontsize=9)
        ax.legend(fontsize=7, loc="lower right")
        ax.tick_params(axis="x", labelsize=7)
    figure.tight_layout()
    figure.savefig(path, dpi=80)
    plt.close(figure)
    return True


def draw_scale(path: Path, rows: list[Row]) -> bool:
    """The scale rows as lines: requests/s against daphne processes, deliveries/s against
    workers, one line per figure and Redis (one server: solid; a cluster: dashed), each
    point labelled with the Redis CPU (in cores, every master's summed) it took. False if
    the run had no scale rows."""
    scale = [r for r in rows if r.section == "scale"]
    if not scale:
        return False
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    redises = list(dict.fromkeys(r.notes["redis_servers"] for r in scale))
    figure, (web, fan_out) = plt.subplots(1, 2, figsize=(11, 4.2))
    for ax, names, xlabel in (
        (web, ("home page", "bare view"), "daphne processes"),
        (fan_out, ("fan-out",), "workers"),
    ):
        for color, name in zip(("tab:blue", "tab:orange", "tab:green"), names, strict=False):
            for style, redis_name in zip(("-", "--"), redises, strict=False):
                points = [
                    r
                    for r in scale
                    if r.notes["figure"] == name and r.notes["redis_servers"] == redis_name
                ]
                xs = [r.notes["processes"] for r in points]
                ax.plot(xs, [r.ours.per_s for r in points], marker="o", color=color,
                        linestyle=style, label=f"{name}, {redis_name}")  # fmt: skip
                for x, r in zip(xs, points, strict=True):
                    label = f"Redis {r.notes['redis_cores']:.2f}"
                    ax.annotate(label, (x, r.ours.per_s), fontsize=7, xytext=(4, -10),
                                textcoords="offset points")  # fmt: skip
        ax.set_xticks(sorted({r.notes["processes"] for r in scale}))
        ax.set_xlabel(xlabel, fontsize=8)
        ax.set_ylabel(f"{points[0].ours.unit}/s", fontsize=8)
        ax.set_ylim(bottom=0)
        ax.legend(fontsize=7, loc="lower right")
        ax.tick_params(labelsize=7)
    per = scale[0].notes["connections"] // scale[0].notes["processes"]
    web.set_title(f"HTTP, {per} connections a process", fontsize=9)
    fan_out.set_title(f"one post to {scale[-1].notes['followers']:,} followers", fontsize=9)
    figure.suptitle(
        f"scale on {os.cpu_count()} cores, on {' and on '.join(redises)} "
        "(labels: Redis CPU in cores)",
        fontsize=9,
    )
    figure.tight_layout()
    figure.savefig(path, dpi=80)
    plt.close(figure)
    return True


def _value(figure) -> float:
    return figure.per_s if isinstance(figure, Rate) else figure.p50_ms


def draw_cost(path: Path, rows: list[Row]) -> bool:
    """Cost as work grows: fan-out seconds against followers, and a page's p50 against
    statuses a page and against home length, each beside the line through its smallest
    point and the origin (linear: at or under it is linear or better); fan-out also beside
    Redis's own pre-packed writes of the same size, scaled to start where ours do (how
    much of its growth is Redis's). False if the run had neither."""
    fan_out = [r for r in rows if r.section == "fan-out" and "followers" in r.notes]
    pages = [r for r in rows if r.section == "page cost"]
    if not fan_out and not pages:
        return False
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    per_page = [
        r for r in pages if r.notes["home_length"] == max(p.notes["home_length"] for p in pages)
    ]
    lengths = [r for r in pages if r.notes["per_page"] == 30]
    panels = [
        ("fan-out: seconds for one post", "followers",
         [(r.notes["followers"], r.notes["followers"] / r.ours.per_s) for r in fan_out]),
        ("page p50 (ms), full home", "statuses a page",
         [(r.notes["per_page"], r.ours.p50_ms) for r in per_page]),
        ("page p50 (ms), 30 a page", "home length",
         [(r.notes["home_length"], r.ours.p50_ms) for r in lengths]),
    ]  # fmt: skip
    figure, axes = plt.subplots(1, 3, figsize=(12, 3.6))
    for ax, (title, xlabel, points) in zip(axes, panels, strict=True):
        if not points:
            ax.set_visible(False)
            continue
        points.sort()
        xs, ys = [x for x, _ in points], [y for _, y in points]
        ax.plot(xs, ys, marker="o", label="measured")
        ax.plot(xs, [ys[0] * x / xs[0] for x in xs], linestyle="--", color="gray",
                label="linear from the first")  # fmt: skip
        if xlabel == "followers":
            # Redis's own pre-packed writes, scaled to start where ours do.
            raw = sorted((r.notes["followers"], r.notes["raw_deliveries_per_s"]) for r in fan_out)
            seconds = [n / per_s for n, per_s in raw]
            ax.plot(xs, [ys[0] * t / seconds[0] for t in seconds], linestyle=":",
                    color="black", label="Redis's own writes, from ours")  # fmt: skip
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title(title, fontsize=9)
        ax.set_xlabel(xlabel, fontsize=8)
        ax.legend(fontsize=7)
        ax.tick_params(labelsize=7)
    figure.tight_layout()
    figure.savefig(path, dpi=80)
    plt.close(figure)
    return True
