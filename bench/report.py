"""The bench's outputs: the table on stdout, results/latest.json, and results/latest.png."""

import json
import os
import platform
import subprocess
from pathlib import Path

from .measure import Rate, Row

COLUMNS = ("section", "case", "ours", "baseline (same run)", "ratio", "target", "met")


def machine(conn) -> dict:
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
        "redis": conn.info("server")["redis_version"],
        "os": platform.platform(),
        "load_average": os.getloadavg(),
        "commit": subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True
        ).stdout.strip(),
    }


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


def draw(path: Path, rows: list[Row]) -> None:
    """One panel per section with rates or latencies: ours beside its baseline."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sections = [
        s
        for s in dict.fromkeys(r.section for r in rows)
        if any(r.baseline is not None for r in rows if r.section == s)
    ]
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


def _value(figure) -> float:
    return figure.per_s if isinstance(figure, Rate) else figure.p50_ms
