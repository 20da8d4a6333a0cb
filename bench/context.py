from dataclasses import dataclass
from pathlib import Path

import redis

from .plan import Plan
from .roundtrips import RoundTripCounter


@dataclass(frozen=True)
class Context:
    """What every part of the bench runs against: the throwaway server, a client whose
    round trips are counted, and the sizes to use."""

    plan: Plan
    conn: redis.Redis
    counter: RoundTripCounter
    var_dir: Path
