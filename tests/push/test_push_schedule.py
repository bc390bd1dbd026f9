"""The retry schedule: properties over attempts, jitter and scale."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gateway.push.schedule import HORIZON, JITTER, MAX_WAIT, next_attempt, wait_after

jitters = st.floats(0.0, 1.0)
scales = st.floats(0.001, 10.0)


@given(jitter=jitters)
def test_at_scale_1_the_first_retry_is_within_10_s_and_the_second_within_60_s_after_it(jitter: float) -> None:
    first = next_attempt(1, 0.0, 0.0, jitter=jitter)
    assert first is not None and 0 < first <= 10
    second = next_attempt(2, 0.0, first, jitter=jitter)
    assert second is not None and 0 < second - first <= 60


@given(scale=scales, draws=st.lists(jitters, min_size=40, max_size=40))
def test_waits_grow_until_the_cap_and_the_run_ends_within_three_days(scale: float, draws: list[float]) -> None:
    first = 5.0 * scale
    now, attempts, waits = 0.0, 0, []
    while True:
        attempts += 1
        due = next_attempt(attempts, 0.0, now, jitter=draws[attempts % len(draws)], first=first)
        if due is None:
            break
        assert due > now
        assert due <= HORIZON * scale * (1 + 1e-9)  # never past three days (scaled)
        waits.append(due - now)
        now = due
    assert 8 <= attempts <= 16  # about a dozen attempts, whatever the scale
    for before, after in itertools.pairwise(waits):
        assert after <= MAX_WAIT * scale * (1 + 1e-9)
        if before < MAX_WAIT * scale * (1 - JITTER):  # below the cap: jitter never undoes the growth
            assert after > before
    assert now + MAX_WAIT * scale > HORIZON * scale * (1 - JITTER)  # it gave up only near the end


@given(attempts=st.integers(1, 200), jitter=jitters, scale=scales)
def test_jitter_only_shortens_a_wait_by_at_most_a_fifth(attempts: int, jitter: float, scale: float) -> None:
    nominal = wait_after(attempts, jitter=0.0, first=5.0 * scale)
    jittered = wait_after(attempts, jitter=jitter, first=5.0 * scale)
    assert nominal * (1 - JITTER) * (1 - 1e-9) <= jittered <= nominal
    assert nominal <= MAX_WAIT * scale * (1 + 1e-9)


def test_the_nominal_schedule_at_scale_1() -> None:
    assert [wait_after(n, jitter=0.0) for n in range(1, 10)] == [5, 30, 120, 480, 1920, 7680, 30720, MAX_WAIT, MAX_WAIT]
    assert next_attempt(1, 0.0, HORIZON - 1, jitter=0.0) is None


@pytest.mark.parametrize(("attempts", "jitter", "first"), [(0, 0.5, 5.0), (1, -0.1, 5.0), (1, 1.5, 5.0), (1, 0.5, 0.0)])
def test_out_of_range_arguments_are_value_errors(attempts: int, jitter: float, first: float) -> None:
    with pytest.raises(ValueError):
        next_attempt(attempts, 0.0, 0.0, jitter=jitter, first=first)
