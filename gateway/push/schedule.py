"""When a failed webhook call is tried again: exponential backoff with jitter, for three days.

At scale 1 (`first` = 5 s, the default `webhook_retry_first`) the waits after each failed
attempt are 5 s, 30 s, 2 min, 8 min, 32 min, ~2 h, ~8.5 h, then 12 h apart until three days
after the event: about a dozen attempts, close to the spec's example schedule. Every wait and
the three days scale with `first / 5 s`, so a test can run the whole schedule in seconds.

Jitter only shortens a wait (by up to 20 %): spreading retries keeps receivers that failed
together from being hit together again, and no wait ever exceeds its nominal length, so the
bounds above hold exactly. Pure: the caller passes the clock and the random draw.
"""

from __future__ import annotations

import math
from typing import Final

__all__ = ["GROWTH", "HORIZON", "JITTER", "MAX_WAIT", "SCALE_FIRST", "SECOND", "next_attempt", "wait_after"]

SCALE_FIRST: Final = 5.0
"""The first wait at scale 1: `first / SCALE_FIRST` is the scale of everything else."""
SECOND: Final = 30.0
"""The second wait at scale 1."""
GROWTH: Final = 4.0
"""Each later wait is this many times the one before (until MAX_WAIT)."""
MAX_WAIT: Final = 12 * 3600.0
"""The longest wait at scale 1."""
HORIZON: Final = 3 * 86400.0
"""No attempt later than this after the event (at scale 1): the delivery fails for good."""
JITTER: Final = 0.2
"""The largest share of a wait that jitter takes off."""


def wait_after(attempts: int, *, jitter: float, first: float = SCALE_FIRST) -> float:
    """Seconds to wait after the `attempts`-th failed attempt (1 = the first call failed)."""
    if attempts < 1:
        raise ValueError("attempts counts the attempts made: 1 or more")
    if not 0.0 <= jitter <= 1.0:
        raise ValueError("jitter is a draw in [0, 1]")
    if not (first > 0 and math.isfinite(first)):
        raise ValueError("first is a positive number of seconds")
    scale = first / SCALE_FIRST
    # The inner min() keeps the power finite: past a dozen attempts every wait is the cap anyway.
    nominal = first if attempts == 1 else min(SECOND * GROWTH ** min(attempts - 2, 32), MAX_WAIT) * scale
    return nominal * (1.0 - JITTER * jitter)


def next_attempt(
    attempts: int, created_ts: float, now: float, *, jitter: float, first: float = SCALE_FIRST
) -> float | None:
    """When to try again after the `attempts`-th failed attempt at `now`, or None: give up (past
    three days, scaled, after `created_ts`, when the event was queued).

    `jitter` is a uniform draw in [0, 1] (e.g. `random.random()`); `first` the configured first
    wait (`webhook_retry_first`), which scales the whole schedule.
    """
    due = now + wait_after(attempts, jitter=jitter, first=first)
    if due > created_ts + HORIZON * (first / SCALE_FIRST):
        return None
    return due
