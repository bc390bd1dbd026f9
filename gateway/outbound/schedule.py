"""When to try a relay again after a temporary failure: exponential backoff for up to a day.

Pure: the clock and the randomness come in as arguments, so the outbox worker and the tests
share one rule and a restart changes nothing (the schedule follows from what the store holds).
"""

from __future__ import annotations

from typing import Final

__all__ = ["FIRST_DELAY", "GIVE_UP_AFTER", "JITTER_SHARE", "MAX_DELAY", "next_attempt"]

FIRST_DELAY: Final = 30.0
"""Seconds before the second attempt; each later wait doubles (30 s, 1 min, 2, 4, 8, ...)."""
MAX_DELAY: Final = 3600.0
"""No wait between two attempts is longer than an hour."""
GIVE_UP_AFTER: Final = 24 * 3600.0
"""A message the relay has not taken a day after it was sent has failed for good."""
JITTER_SHARE: Final = 0.1
"""Up to this share of a wait is shaved off by the jitter, so a backlog does not retry in lockstep."""
_MAX_DOUBLINGS: Final = 20  # 30 s * 2**20 is far past MAX_DELAY; stops the power from growing unbounded


def next_attempt(
    attempts: int, created_ts: float, now: float, *, jitter: float, first: float = FIRST_DELAY
) -> float | None:
    """When to try again after `attempts` failed attempts (at least 1), or None: 24 h have passed, give up.

    `first` is the wait after the first failure (AGENTMAIL_RELAY_RETRY_FIRST).
    `jitter` in [0, 1] (e.g. `random.random()`) shortens the wait by up to JITTER_SHARE. The
    result lies in (now, now + MAX_DELAY] and never past the 24 h mark, so the last attempt
    happens at that mark and the one after it gives up.
    """
    if attempts < 1:
        raise ValueError(f"attempts must be at least 1, not {attempts}")
    if not 0.0 <= jitter <= 1.0:
        raise ValueError(f"jitter must be within [0, 1], not {jitter}")
    deadline = created_ts + GIVE_UP_AFTER
    if now >= deadline:
        return None
    if not first > 0:
        raise ValueError(f"first must be positive, not {first}")
    step = min(first * 2.0 ** min(attempts - 1, _MAX_DOUBLINGS), MAX_DELAY)
    return min(now + step * (1.0 - JITTER_SHARE * jitter), deadline)
