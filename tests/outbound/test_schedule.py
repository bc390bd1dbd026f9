"""The retry schedule: exponential, capped, jittered, and giving up exactly after a day."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from gateway.outbound.schedule import FIRST_DELAY, GIVE_UP_AFTER, JITTER_SHARE, MAX_DELAY, next_attempt

T0 = 1_800_000_000.0
attempts_st = st.integers(min_value=1, max_value=10_000)
jitter_st = st.floats(min_value=0.0, max_value=1.0)
# Any moment from the message's creation to just before the 24 h mark.
age_st = st.floats(min_value=0.0, max_value=GIVE_UP_AFTER, exclude_max=True)


def test_the_waits_double_from_thirty_seconds_up_to_an_hour() -> None:
    waits = [next_attempt(n, T0, T0, jitter=0.0) for n in range(1, 11)]
    assert [w - T0 for w in waits if w is not None] == [30, 60, 120, 240, 480, 960, 1920, 3600, 3600, 3600]


def test_jitter_shortens_a_wait_by_at_most_its_share() -> None:
    assert next_attempt(1, T0, T0, jitter=1.0) == T0 + FIRST_DELAY * (1 - JITTER_SHARE)
    assert next_attempt(50, T0, T0, jitter=0.5) == T0 + MAX_DELAY * (1 - JITTER_SHARE / 2)


def test_the_last_attempt_is_at_the_24_hour_mark_and_then_it_gives_up() -> None:
    late = T0 + GIVE_UP_AFTER - 10
    assert next_attempt(40, T0, late, jitter=0.0) == T0 + GIVE_UP_AFTER
    assert next_attempt(41, T0, T0 + GIVE_UP_AFTER, jitter=0.0) is None


@pytest.mark.parametrize(("attempts", "jitter"), [(0, 0.0), (-1, 0.0), (1, -0.1), (1, 1.5), (1, float("nan"))])
def test_nonsense_arguments_are_refused(attempts: int, jitter: float) -> None:
    with pytest.raises(ValueError, match=r"^(attempts|jitter) must be"):
        next_attempt(attempts, T0, T0, jitter=jitter)


@given(attempts=attempts_st, age=age_st, jitter=jitter_st)
def test_before_the_day_is_over_there_is_always_a_next_attempt_soon(attempts: int, age: float, jitter: float) -> None:
    now = T0 + age
    assume(now < T0 + GIVE_UP_AFTER)  # T0 + age may round up to the mark itself
    when = next_attempt(attempts, T0, now, jitter=jitter)
    assert when is not None
    assert now < when <= now + MAX_DELAY
    assert when <= T0 + GIVE_UP_AFTER


@given(attempts=attempts_st, extra=st.floats(min_value=0.0, max_value=1e9), jitter=jitter_st)
def test_once_the_day_is_over_it_gives_up(attempts: int, extra: float, jitter: float) -> None:
    assert next_attempt(attempts, T0, T0 + GIVE_UP_AFTER + extra, jitter=jitter) is None


@given(attempts=attempts_st, age=age_st, jitter=jitter_st)
def test_more_failures_never_mean_an_earlier_retry(attempts: int, age: float, jitter: float) -> None:
    now = T0 + age
    assume(now < T0 + GIVE_UP_AFTER)  # T0 + age may round up to the mark itself
    first = next_attempt(attempts, T0, now, jitter=jitter)
    second = next_attempt(attempts + 1, T0, now, jitter=jitter)
    assert first is not None and second is not None
    assert first <= second


@given(attempts=attempts_st, age=age_st, later=st.floats(min_value=0.0, max_value=GIVE_UP_AFTER), jitter=jitter_st)
def test_a_later_failure_never_means_an_earlier_retry(attempts: int, age: float, later: float, jitter: float) -> None:
    now = T0 + age
    assume(now < T0 + GIVE_UP_AFTER)  # T0 + age may round up to the mark itself
    first = next_attempt(attempts, T0, now, jitter=jitter)
    second = next_attempt(attempts, T0, now + later, jitter=jitter)
    assert first is not None
    assert second is None or first <= second


@given(age=age_st, jitter=jitter_st)
def test_retrying_at_each_scheduled_time_ends_within_a_day_and_a_bit(age: float, jitter: float) -> None:
    # Follow the schedule from the first failure: it must end (None) and never run past the mark.
    now, attempts = T0 + age, 1
    assume(now < T0 + GIVE_UP_AFTER)
    while (when := next_attempt(attempts, T0, now, jitter=jitter)) is not None:
        assert when <= T0 + GIVE_UP_AFTER
        now, attempts = when, attempts + 1
        assert attempts < 200  # 24 h at >= 27 s a wait, capped at an hour: a few dozen attempts
    assert now == T0 + GIVE_UP_AFTER  # the last attempt was exactly at the mark
