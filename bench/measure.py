"""What the parts report: latencies, rates and sizes, each beside the baseline it is
judged against, and how they were taken."""

import statistics
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

from .roundtrips import RoundTripCounter


@dataclass(frozen=True)
class Latency:
    p50_ms: float
    p99_ms: float
    round_trips: float | None = None

    def __str__(self) -> str:
        trips = "" if self.round_trips is None else f", {self.round_trips:g} RT"
        return f"{self.p50_ms:.2f} / {self.p99_ms:.2f} ms{trips}"


# A latency with no samples (every client or connection failed).
NO_LATENCY = Latency(float("nan"), float("nan"))


@dataclass(frozen=True)
class Rate:
    per_s: float
    unit: str

    def __str__(self) -> str:
        return f"{self.per_s:,.0f} {self.unit}/s"


@dataclass(frozen=True)
class Size:
    value: float
    unit: str

    def __str__(self) -> str:
        return f"{self.value:,.0f} {self.unit}"


Figure = Latency | Rate | Size
FIGURES = {"latency": Latency, "rate": Rate, "size": Size}


@dataclass
class Row:
    """One line of the table: our figure, the baseline taken in the same run, the target."""

    section: str
    case: str
    ours: Figure
    baseline_name: str = ""
    baseline: Figure | None = None
    target: str = ""
    met: bool | None = None
    notes: dict = field(default_factory=dict)

    @property
    def ratio(self) -> float | None:
        """Ours over the baseline: throughput (higher is better) or p50 time (lower is better)."""
        if isinstance(self.ours, Rate) and isinstance(self.baseline, Rate):
            return self.ours.per_s / self.baseline.per_s
        if isinstance(self.ours, Latency) and isinstance(self.baseline, Latency):
            return self.ours.p50_ms / self.baseline.p50_ms
        return None

    def as_json(self) -> dict:
        def figure(value: Figure | None) -> dict | None:
            return value and {"kind": type(value).__name__.lower(), **asdict(value)}

        return {
            "section": self.section,
            "case": self.case,
            "ours": figure(self.ours),
            "baseline_name": self.baseline_name,
            "baseline": figure(self.baseline),
            "ratio": self.ratio,
            "target": self.target,
            "met": self.met,
            **({"notes": self.notes} if self.notes else {}),
        }

    @classmethod
    def from_json(cls, data: dict) -> "Row":
        """The row that `as_json` wrote (a child run of the bench reports its rows so)."""

        def figure(value: dict | None) -> Figure | None:
            if value is None:
                return None
            fields = {name: v for name, v in value.items() if name != "kind"}
            return FIGURES[value["kind"]](**fields)

        return cls(
            data["section"],
            data["case"],
            figure(data["ours"]),
            data["baseline_name"],
            figure(data["baseline"]),
            data["target"],
            data["met"],
            data.get("notes", {}),
        )


def percentile(samples: list[float], fraction: float) -> float:
    """The nearest-rank percentile: with 100 samples p99 is the 99th, not an interpolation."""
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


def latency_of(samples_s: list[float], round_trips: float | None = None) -> Latency:
    return Latency(
        p50_ms=statistics.median(samples_s) * 1000,
        p99_ms=percentile(samples_s, 0.99) * 1000,
        round_trips=round_trips,
    )


def time_interleaved(
    calls: dict[str, Callable[[int], object]], times: int, counter: RoundTripCounter
) -> dict[str, Latency]:
    """Calls each of `calls` with i for i in range(times), taking turns so that drift on a
    shared machine hits all of them alike: their latencies and mean Redis round trips."""
    samples: dict[str, list[float]] = {name: [] for name in calls}
    trips = dict.fromkeys(calls, 0)
    for i in range(times):
        for name, call in calls.items():
            before = counter.count
            start = time.perf_counter()
            call(i)
            samples[name].append(time.perf_counter() - start)
            trips[name] += counter.count - before
    return {name: latency_of(samples[name], trips[name] / times) for name in calls}


def rates_interleaved(
    runs: dict[str, Callable[[], float]], items: int, repeats: int, unit: str
) -> dict[str, Rate]:
    """Each run returns its own elapsed seconds; runs take turns `repeats` times and
    each is reported at its median."""
    elapsed: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(repeats):
        for name, run in runs.items():
            elapsed[name].append(run())
    return {name: Rate(items / statistics.median(elapsed[name]), unit) for name in runs}
