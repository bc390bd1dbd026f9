"""The watch runner's pure core (gateway/client/watch/core.py) driven by a simulated clock: no processes, no I/O.

A small discrete-event simulation offers messages at their arrival times, starts what the
dispatcher says to start, and ends each run after its duration with the outcome the test picks.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gateway.client.watch.core import (
    BURST_MAX_WAIT,
    FINAL,
    HOUR,
    MAX_BATCH,
    Batch,
    Dispatcher,
    Rules,
    Saved,
    Start,
    Trip,
)

Arrival = tuple[float, str, str | None, str]
"""(time, address, thread id, message id)"""


@dataclass
class RunLog:
    address: str
    keys: list[tuple[str, str]]
    start: float
    end: float
    ok: bool


@dataclass
class Sim:
    dispatcher: Dispatcher
    runs: list[RunLog] = field(default_factory=list)
    trips: list[tuple[float, Trip]] = field(default_factory=list)
    now: float = 0.0

    def play(
        self,
        arrivals: Sequence[Arrival],
        duration: Callable[[Batch], float] = lambda b: 1.0,
        ok: Callable[[Batch, int], bool] = lambda b, n: True,
        *,
        until: float = float("inf"),
    ) -> None:
        """Run the simulation until nothing is left to do (or `until`); runs still going then are left running."""
        todo = sorted(arrivals, key=lambda a: a[0])
        running: dict[str, tuple[float, Batch, RunLog]] = {}
        for _ in range(100_000):
            times = [t for t, *_ in todo[:1]] + [end for end, _, _ in running.values()]
            due = self.dispatcher.next_due()
            if due is not None:
                times.append(due)
            if not times:
                return
            self.now = max(self.now, min(times))
            if self.now > until:
                self.pending = running
                return
            for address, (end, batch, log) in list(running.items()):
                if end <= self.now:
                    del running[address]
                    log.ok = ok(batch, self.runs.index(log))  # the run's number, from 0
                    self.dispatcher.finished(
                        batch, self.now, ok=log.ok, exit_code=0 if log.ok else 3, stderr_tail="boom"
                    )
            while todo and todo[0][0] <= self.now:
                _, address, thread, message_id = todo.pop(0)
                self.dispatcher.offer(address, message_id, thread, msgspec.json.encode({"id": message_id}), self.now)
            for decision in self.dispatcher.ready(self.now):
                if isinstance(decision, Trip):
                    self.trips.append((self.now, decision))
                    continue
                assert isinstance(decision, Start)
                batch = decision.batch
                log = RunLog(batch.address, list(batch.keys), self.now, self.now + duration(batch), ok=False)
                self.runs.append(log)
                running[batch.address] = (log.end, batch, log)
        raise AssertionError("the simulation did not settle")

    pending: dict[str, tuple[float, Batch, RunLog]] = field(default_factory=dict)


ADDRESSES = ["a@agents.test", "b@agents.test", "c@agents.test"]


@st.composite
def arrivals(draw: st.DrawFn, max_size: int = 40) -> list[Arrival]:
    items = draw(
        st.lists(
            st.tuples(
                st.floats(min_value=0, max_value=300, allow_nan=False),
                st.sampled_from(ADDRESSES),
                st.sampled_from(["t1", "t2", None]),
            ),
            max_size=max_size,
        )
    )
    return [(t, a, th, f"m{n}") for n, (t, a, th) in enumerate(items)]


# --- serialization and completeness ------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(
    mail=arrivals(),
    jobs=st.integers(1, 3),
    debounce=st.sampled_from([0.0, 0.5, 5.0]),
    durations=st.lists(st.floats(min_value=0.01, max_value=30), min_size=1, max_size=8),
)
def test_one_run_per_identity_at_most_jobs_and_every_message_runs_once(
    mail: list[Arrival], jobs: int, debounce: float, durations: list[float]
) -> None:
    rules = Rules(debounce=debounce, jobs=jobs, identity_runs_per_hour=None, thread_runs_per_hour=None)
    sim = Sim(Dispatcher(rules))
    sim.play(mail, duration=lambda b: durations[b.seq % len(durations)])
    for address in ADDRESSES:
        mine = sorted((r.start, r.end) for r in sim.runs if r.address == address)
        assert all(end <= next_start for (_, end), (next_start, _) in itertools.pairwise(mine)), mine
    for run in sim.runs:
        at_once = sum(1 for other in sim.runs if other.start <= run.start < other.end)
        assert at_once <= jobs
    ran = [key for run in sim.runs for key in run.keys]
    assert sorted(ran) == sorted((a, m) for _, a, _, m in mail), "every message, once"
    assert all(r.status == "done" for r in sim.dispatcher.records.values()) and sim.dispatcher.idle()


@settings(max_examples=100, deadline=None)
@given(mail=arrivals())
def test_a_message_offered_again_is_ignored_whatever_its_fate(mail: list[Arrival]) -> None:
    sim = Sim(Dispatcher(Rules(identity_runs_per_hour=None, thread_runs_per_hour=None)))
    sim.play(mail + [(t + 400, a, th, m) for t, a, th, m in mail])  # the stream replays it all later
    assert len([k for r in sim.runs for k in r.keys]) == len(mail)


# --- debounce ----------------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(
    debounce=st.floats(min_value=0.1, max_value=30),
    gaps=st.lists(st.floats(min_value=0, max_value=0.99), max_size=MAX_BATCH - 1),
)
def test_a_burst_on_one_thread_is_one_run_after_its_last_message(debounce: float, gaps: list[float]) -> None:
    times = [10.0]
    for gap in gaps:
        times.append(times[-1] + gap * debounce)
    if times[-1] - times[0] + debounce > BURST_MAX_WAIT * debounce:
        times = times[: 1 + int(BURST_MAX_WAIT * 0.5)]  # keep it inside the longest burst
    mail = [(t, "a@agents.test", "t1", f"m{n}") for n, t in enumerate(times)]
    sim = Sim(Dispatcher(Rules(debounce=debounce)))
    sim.play(mail)
    (run,) = sim.runs
    assert [m for _, m in run.keys] == [m for *_, m in mail], "all of them, oldest first"
    assert run.start == pytest.approx(times[-1] + debounce)


def test_a_burst_that_never_pauses_still_runs_and_a_flood_is_cut_into_batches() -> None:
    # One message a second for ten minutes, debounce 5 s: runs every minute at the latest.
    mail = [(float(t), "a@agents.test", "t1", f"m{t}") for t in range(600)]
    sim = Sim(Dispatcher(Rules(debounce=5.0, identity_runs_per_hour=None, thread_runs_per_hour=None)))
    sim.play(mail)
    assert len(sim.runs) >= 600 / (BURST_MAX_WAIT * 5) and all(len(r.keys) <= MAX_BATCH for r in sim.runs)
    flood = [(0.0, "b@agents.test", "t1", f"f{n}") for n in range(MAX_BATCH + 1)]
    sim = Sim(Dispatcher(Rules(debounce=1.0)))
    sim.play(flood)
    assert [len(r.keys) for r in sim.runs] == [MAX_BATCH, 1]


def test_threads_and_identities_are_separate_bursts() -> None:
    mail: list[Arrival] = [
        (0.0, "a@agents.test", "t1", "m1"),
        (0.1, "a@agents.test", "t2", "m2"),
        (0.2, "b@agents.test", "t1", "m3"),
        (0.3, "a@agents.test", None, "m4"),
        (0.4, "a@agents.test", None, "m5"),  # no thread: each message is its own
    ]
    sim = Sim(Dispatcher(Rules(debounce=1.0)))
    sim.play(mail)
    assert sorted([m for _, m in r.keys] for r in sim.runs) == [["m1"], ["m2"], ["m3"], ["m4"], ["m5"]]


# --- budgets and the circuit breaker -----------------------------------------------------------


@settings(max_examples=100, deadline=None)
@given(
    mail=arrivals(max_size=60),
    per_identity=st.integers(1, 6),
    per_thread=st.integers(1, 4),
    spread=st.sampled_from([1.0, 60.0, 200.0]),
)
def test_no_window_of_an_hour_holds_more_runs_than_the_budgets(
    mail: list[Arrival], per_identity: int, per_thread: int, spread: float
) -> None:
    mail = [(t * spread, a, th, m) for t, a, th, m in mail]  # from minutes to hours
    rules = Rules(debounce=0.0, identity_runs_per_hour=per_identity, thread_runs_per_hour=per_thread)
    sim = Sim(Dispatcher(rules))
    sim.play(mail)
    for run in sim.runs:
        window = [r for r in sim.runs if run.start - HOUR < r.start <= run.start and r.address == run.address]
        assert len(window) <= per_identity
    tripped = {k for _, trip in sim.trips for k in trip.batch.keys}
    ran = {k for r in sim.runs for k in r.keys}
    assert not tripped & ran and tripped | ran == {(a, m) for _, a, _, m in mail}
    for key in tripped:
        record = sim.dispatcher.records[key]
        assert record.status == "tripped" and record.reason is not None and "circuit breaker" in record.reason


def test_two_agents_answering_each_other_are_stopped_by_the_thread_budget() -> None:
    # Each run of one mails the other on the same thread at once: without a breaker, forever.
    rules = Rules(debounce=1.0, identity_runs_per_hour=60, thread_runs_per_hour=5)
    dispatcher = Dispatcher(rules)
    now, sender, n = 0.0, "a@agents.test", 0
    dispatcher.offer("b@agents.test", "m0", "t", b"{}", now)
    runs = 0
    for _ in range(100):
        due = dispatcher.next_due()
        if due is None:
            break
        now = due
        decisions = dispatcher.ready(now)
        for decision in decisions:
            if isinstance(decision, Trip):
                assert "its thread ran 5 times" in decision.reason and "mail loop" in decision.reason
                continue
            runs += 1
            batch = decision.batch
            dispatcher.finished(batch, now + 2, ok=True)
            n += 1
            sender = "a@agents.test" if batch.address == "b@agents.test" else "b@agents.test"
            dispatcher.offer(sender, f"m{n}", "t", b"{}", now + 2)
    assert dispatcher.next_due() is None and dispatcher.idle(), "the loop stopped"
    assert runs == 10, "each side's thread budget: 5 runs"


def test_the_breaker_closes_once_the_hour_has_passed() -> None:
    dispatcher = Dispatcher(Rules(debounce=0.0, identity_runs_per_hour=2, thread_runs_per_hour=None))
    sim = Sim(dispatcher)
    sim.play(
        [(0.0, "a@agents.test", None, "m1"), (10.0, "a@agents.test", None, "m2"), (20.0, "a@agents.test", None, "m3")]
    )
    assert len(sim.runs) == 2 and len(sim.trips) == 1 and "the identity budget is 2" in sim.trips[0][1].reason
    sim.play([(HOUR + 5.0, "a@agents.test", None, "m4")])
    assert [m for _, m in sim.runs[-1].keys] == ["m4"]


# --- retries and parking -----------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(retries=st.integers(0, 5), delay=st.floats(min_value=0.5, max_value=100))
def test_a_failing_run_is_retried_with_growing_gaps_then_parked(retries: int, delay: float) -> None:
    rules = Rules(
        debounce=0.0, retries=retries, retry_delay=delay, identity_runs_per_hour=None, thread_runs_per_hour=None
    )
    sim = Sim(Dispatcher(rules))
    sim.play([(0.0, "a@agents.test", "t", "m1")], duration=lambda b: 1.0, ok=lambda b, n: False)
    assert len(sim.runs) == retries + 1
    gaps = [later.start - earlier.end for earlier, later in itertools.pairwise(sim.runs)]
    assert gaps == sorted(gaps) and all(g >= delay - 1e-9 for g in gaps)
    record = sim.dispatcher.records[("a@agents.test", "m1")]
    assert (record.status, record.attempts, record.exit_code, record.stderr_tail) == ("parked", retries + 1, 3, "boom")
    assert record.payload is None, "a final record drops its summary"


def test_a_run_that_succeeds_on_a_retry_is_done() -> None:
    sim = Sim(Dispatcher(Rules(debounce=0.0, retries=3, retry_delay=1.0)))
    sim.play([(0.0, "a@agents.test", "t", "m1")], ok=lambda b, n: n >= 2)
    record = sim.dispatcher.records[("a@agents.test", "m1")]
    assert len(sim.runs) == 3 and record.status == "done" and record.exit_code == 0 and record.attempts == 2


def test_messages_of_a_thread_whose_run_is_retrying_form_a_new_run() -> None:
    sim = Sim(Dispatcher(Rules(debounce=0.0, retries=1, retry_delay=100.0)))
    sim.play(
        [(0.0, "a@agents.test", "t", "m1"), (5.0, "a@agents.test", "t", "m2")], ok=lambda b, n: b.failures > 0 or n > 0
    )
    assert [[m for _, m in r.keys] for r in sim.runs] == [["m1"], ["m2"], ["m1"]]


# --- the state file: restart -------------------------------------------------------------------


def roundtrip(dispatcher: Dispatcher, rules: Rules, now: float) -> Dispatcher:
    """What a watcher killed at `now` finds when it starts again: the last snapshot, through JSON."""
    saved = msgspec.json.decode(msgspec.json.encode(dispatcher.snapshot(now)), type=Saved)
    return Dispatcher.restore(rules, saved, now)


@settings(max_examples=120, deadline=None)
@given(mail=arrivals(), cut=st.floats(min_value=0, max_value=320), fail_every=st.integers(2, 5))
def test_a_restart_never_runs_a_finished_message_again_and_runs_the_rest(
    mail: list[Arrival], cut: float, fail_every: int
) -> None:
    rules = Rules(debounce=1.0, retries=2, retry_delay=3.0, identity_runs_per_hour=None, thread_runs_per_hour=None)
    first = Sim(Dispatcher(rules))
    fails = lambda b, n: n % fail_every != 0  # noqa: E731
    first.play([a for a in mail if a[0] <= cut], duration=lambda b: 2.0, ok=fails, until=cut)
    finished_before = {k for k, r in first.dispatcher.records.items() if r.status in FINAL}
    restarted = roundtrip(first.dispatcher, rules, cut)
    second = Sim(restarted, now=cut)
    second.play([a for a in mail if a[0] > cut], duration=lambda b: 2.0, ok=fails)
    again = {k for r in second.runs for k in r.keys}
    assert not again & finished_before, "a finished message ran again"
    assert all(r.status in FINAL for r in second.dispatcher.records.values())
    assert set(second.dispatcher.records) == {(a, m) for _, a, _, m in mail}
    interrupted = {k for _, _, log in first.pending.values() for k in log.keys}
    assert interrupted <= again, "what was running when it died runs again"


def test_a_restart_keeps_the_failures_counted_and_the_retry_time() -> None:
    rules = Rules(debounce=0.0, retries=2, retry_delay=50.0)
    dispatcher = Dispatcher(rules)
    dispatcher.offer("a@agents.test", "m1", "t", b'{"id":"m1"}', 0.0)
    (start,) = dispatcher.ready(0.0)
    assert isinstance(start, Start)
    dispatcher.finished(start.batch, 1.0, ok=False, exit_code=4, stderr_tail="no")
    restarted = roundtrip(dispatcher, rules, 10.0)
    assert restarted.ready(10.0) == [] and restarted.next_due() == 51.0
    (again,) = restarted.ready(51.0)
    assert isinstance(again, Start) and again.batch.failures == 1
    record = restarted.records[("a@agents.test", "m1")]
    assert (record.status, record.attempts, record.exit_code) == ("running", 1, 4)


def test_the_budgets_survive_a_restart() -> None:
    rules = Rules(debounce=0.0, identity_runs_per_hour=None, thread_runs_per_hour=1)
    sim = Sim(Dispatcher(rules))
    sim.play([(0.0, "a@agents.test", "t", "m1")])
    restarted = roundtrip(sim.dispatcher, rules, 100.0)
    restarted.offer("a@agents.test", "m2", "t", b"{}", 100.0)
    (decision,) = restarted.ready(100.0)
    assert isinstance(decision, Trip)


def test_finished_records_are_bounded_and_the_oldest_go_first() -> None:
    from gateway.client.watch.core import MAX_FINISHED_KEPT

    rules = Rules(debounce=0.0, jobs=1, identity_runs_per_hour=None, thread_runs_per_hour=None)
    sim = Sim(Dispatcher(rules))
    sim.play(
        [(float(n), "a@agents.test", None, f"m{n}") for n in range(MAX_FINISHED_KEPT + 50)], duration=lambda b: 0.5
    )
    saved = sim.dispatcher.snapshot(sim.now)
    assert len(saved.messages) == MAX_FINISHED_KEPT
    assert ("a@agents.test", "m0") not in sim.dispatcher.records and (
        "a@agents.test",
        f"m{MAX_FINISHED_KEPT + 49}",
    ) in sim.dispatcher.records


def test_an_abandoned_run_is_queued_again_without_a_failure() -> None:
    dispatcher = Dispatcher(Rules(debounce=0.0))
    dispatcher.offer("a@agents.test", "m1", None, b"{}", 0.0)
    (start,) = dispatcher.ready(0.0)
    assert isinstance(start, Start)
    dispatcher.abandoned(start.batch, 1.0)
    record = dispatcher.records[("a@agents.test", "m1")]
    assert (record.status, record.attempts) == ("queued", 0)
    (again,) = dispatcher.ready(1.0)
    assert isinstance(again, Start) and again.batch.keys == [("a@agents.test", "m1")]


@pytest.mark.parametrize(
    "bad",
    [
        {"debounce": -1.0},
        {"debounce": float("nan")},
        {"jobs": 0},
        {"identity_runs_per_hour": 0},
        {"thread_runs_per_hour": -2},
        {"retries": -1},
        {"retry_delay": float("inf")},
    ],
)
def test_rules_that_cannot_work_are_refused(bad: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        Rules(**bad)  # type: ignore[arg-type]
