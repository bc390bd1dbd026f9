"""The watch runner's pure core: which runs start when, and what became of every message.

No I/O and no clock but the `now` each call is given (wall-clock seconds: run histories and
retry times are saved in the state file and must mean the same after a restart). The runner
(:mod:`gateway.client.watch.runner`) feeds it the messages the event streams bring and the
outcome of each run, carries out what it decides, and saves :meth:`Dispatcher.snapshot`.

The rules, each one here and nowhere else:

- a message is offered once: an id already known (queued, run, parked) is ignored, so a stream
  that replays after a reconnect or a restart never runs a message twice;
- messages of one thread that come within `debounce` of each other are one run (a *batch*), due
  `debounce` after the last of them, but never later than :data:`BURST_MAX_WAIT` times `debounce`
  after the first, and with at most :data:`MAX_BATCH` messages;
- one run at a time per identity, at most `jobs` runs at once;
- before a run starts, the identity's and the thread's runs of the last hour are counted: over a
  budget, the circuit breaker is open and the batch is not run but *tripped* (kept, with the
  reason, never run again): two agents answering each other stop there;
- a failed run is retried after `retry_delay`, doubling each time (at most
  :data:`MAX_RETRY_DELAY`), `retries` times; then its messages are *parked* with the last exit
  code and stderr tail;
- a run abandoned on shutdown puts its messages back in the queue: they run after a restart.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Final, Literal

import msgspec

__all__ = [
    "BURST_MAX_WAIT",
    "FINAL",
    "HOUR",
    "MAX_BATCH",
    "MAX_FINISHED_KEPT",
    "MAX_RETRY_DELAY",
    "Batch",
    "Dispatcher",
    "Done",
    "Parked",
    "Record",
    "Retry",
    "Rules",
    "Saved",
    "SavedRecord",
    "Start",
    "Status",
    "Trip",
]

HOUR: Final = 3600.0
"""The budgets' window."""
BURST_MAX_WAIT: Final = 12
"""A burst that never pauses still runs `BURST_MAX_WAIT` times `debounce` after its first message (1 min at 5 s)."""
MAX_BATCH: Final = 100
"""Messages in one run at most: one command's stdin stays small, a flood is cut into runs."""
MAX_RETRY_DELAY: Final = HOUR
MAX_FINISHED_KEPT: Final = 2000
"""Finished messages remembered (newest first): enough to ignore any replay after a restart
(the stream resumes from the saved cursor), while the state file stays a few hundred KB."""
STATE_VERSION: Final = 1

Status = Literal["queued", "running", "retrying", "done", "parked", "tripped"]
"""`queued`: waiting for its burst to end or its identity to be free; `running`; `retrying`:
failed, run again at `next_attempt_at`; `done`: its run exited 0; `parked`: failed every retry;
`tripped`: not run, a budget was spent (a mail loop?)."""
FINAL: Final[frozenset[Status]] = frozenset({"done", "parked", "tripped"})


@dataclass(frozen=True, slots=True)
class Rules:
    """How the dispatcher schedules; `None` budgets are off."""

    debounce: float = 5.0
    jobs: int = 4
    identity_runs_per_hour: int | None = 60
    thread_runs_per_hour: int | None = 10
    retries: int = 3
    retry_delay: float = 10.0

    def __post_init__(self) -> None:
        if not (math.isfinite(self.debounce) and self.debounce >= 0):
            raise ValueError("debounce is a number of seconds, 0 or more")
        if self.jobs < 1:
            raise ValueError("jobs is at least 1")
        for name in ("identity_runs_per_hour", "thread_runs_per_hour"):
            value = getattr(self, name)
            if value is not None and value < 1:
                raise ValueError(f"{name} is at least 1 (or None: no budget)")
        if self.retries < 0:
            raise ValueError("retries is 0 or more")
        if not (math.isfinite(self.retry_delay) and self.retry_delay >= 0):
            raise ValueError("retry_delay is a number of seconds, 0 or more")

    def backoff(self, failures: int) -> float:
        """The pause before the run after the `failures`-th failure: `retry_delay`, doubling, capped."""
        return min(MAX_RETRY_DELAY, self.retry_delay * 2.0 ** min(failures - 1, 32))


Key = tuple[str, str]
"""(address, message id): a message as one identity got it."""


@dataclass(slots=True)
class Record:
    """What became of one message (the state file shows these)."""

    address: str
    message_id: str
    thread_id: str | None
    status: Status
    updated_at: float
    payload: bytes | None
    """The message's summary (JSON) while it may still run; dropped once it is final."""
    attempts: int = 0
    """Runs that failed."""
    exit_code: int | None = None
    stderr_tail: str | None = None
    reason: str | None = None
    next_attempt_at: float | None = None


@dataclass(slots=True)
class Batch:
    """Messages of one identity's thread that run together, oldest first."""

    address: str
    thread: str
    keys: list[Key]
    first: float
    last: float
    due: float
    failures: int
    seq: int


@dataclass(frozen=True, slots=True)
class Start:
    """Run `batch` now."""

    batch: Batch


@dataclass(frozen=True, slots=True)
class Trip:
    """`batch` was not run: the circuit breaker of its identity or thread is open, for `reason`."""

    batch: Batch
    reason: str


@dataclass(frozen=True, slots=True)
class Done:
    pass


@dataclass(frozen=True, slots=True)
class Retry:
    """The run failed; it runs again `delay` seconds from now (failure number `failures`)."""

    delay: float
    failures: int


@dataclass(frozen=True, slots=True)
class Parked:
    """The run failed for the last time; its messages stay parked."""

    failures: int


_NO_MESSAGE: Final = msgspec.Raw(b"null")


class SavedRecord(msgspec.Struct, frozen=True, omit_defaults=True):
    """A :class:`Record` as the state file holds it (times as Unix seconds)."""

    address: str
    message_id: str
    thread_id: str | None
    status: Status
    updated_at: float
    attempts: int = 0
    exit_code: int | None = None
    stderr_tail: str | None = None
    reason: str | None = None
    next_attempt_at: float | None = None
    message: msgspec.Raw = _NO_MESSAGE
    """The summary, kept while the message may still run (msgspec decodes no `Raw | None`)."""


class Saved(msgspec.Struct, frozen=True):
    """The whole state file: the streams' cursors, every message's fate, the runs of the last hour."""

    version: int
    cursors: dict[str, str]
    """Per event stream (`*` for the all-identities stream, else the address): the last event id taken."""
    messages: list[SavedRecord]
    identity_runs: dict[str, list[float]]
    thread_runs: dict[str, list[float]]
    """Keyed `address thread`."""


def thread_key(message_id: str, thread_id: str | None) -> str:
    """A message without a thread is a thread of its own."""
    return thread_id if thread_id else f"message:{message_id}"


@dataclass
class Dispatcher:
    """The scheduling state of one watcher (see the module's docstring for the rules)."""

    rules: Rules
    records: dict[Key, Record] = field(default_factory=dict)
    cursors: dict[str, str] = field(default_factory=dict)
    _waiting: list[Batch] = field(default_factory=list)
    _running: dict[str, Batch] = field(default_factory=dict)
    _identity_runs: dict[str, list[float]] = field(default_factory=dict)
    _thread_runs: dict[tuple[str, str], list[float]] = field(default_factory=dict)
    _seq: int = 0

    # -- messages in -------------------------------------------------------------------------

    def offer(self, address: str, message_id: str, thread_id: str | None, payload: bytes, now: float) -> bool:
        """A new message of `address`: queued (False when it is known already, whatever its fate)."""
        key = (address, message_id)
        if key in self.records:
            return False
        self.records[key] = Record(address, message_id, thread_id, "queued", now, payload)
        thread = thread_key(message_id, thread_id)
        for batch in self._waiting:
            joins = batch.address == address and batch.thread == thread and batch.failures == 0
            if joins and len(batch.keys) < MAX_BATCH:
                batch.keys.append(key)
                batch.last = now
                batch.due = self._due(batch)
                return True
        self._add(address, thread, [key], now, 0, None)
        return True

    def _due(self, batch: Batch) -> float:
        debounce = self.rules.debounce
        return min(batch.last + debounce, batch.first + BURST_MAX_WAIT * debounce)

    def _add(self, address: str, thread: str, keys: list[Key], first: float, failures: int, due: float | None) -> None:
        """A new batch; `due` None: a fresh burst, due `debounce` from `first`."""
        self._seq += 1
        batch = Batch(address, thread, keys, first, first, first, failures, self._seq)
        batch.due = self._due(batch) if due is None else due
        self._waiting.append(batch)

    # -- runs out ----------------------------------------------------------------------------

    def ready(self, now: float) -> list[Start | Trip]:
        """What to do now: the batches to start (their identities are then busy) and those tripped."""
        decided: list[Start | Trip] = []
        for batch in sorted(self._waiting, key=lambda b: (b.due, b.seq)):
            if batch.due > now:
                break
            if batch.address in self._running:
                continue
            if len(self._running) >= self.rules.jobs:
                break
            self._waiting.remove(batch)
            reason = self._over_budget(batch, now)
            if reason is not None:
                for record in self.messages(batch):
                    self._finish(record, "tripped", now, reason=reason)
                decided.append(Trip(batch, reason))
                continue
            self._identity_runs.setdefault(batch.address, []).append(now)
            self._thread_runs.setdefault((batch.address, batch.thread), []).append(now)
            for record in self.messages(batch):
                record.status, record.updated_at, record.next_attempt_at = "running", now, None
            self._running[batch.address] = batch
            decided.append(Start(batch))
        return decided

    def _over_budget(self, batch: Batch, now: float) -> str | None:
        thread = (batch.address, batch.thread)
        self._thread_runs[thread] = [t for t in self._thread_runs.get(thread, []) if now - t < HOUR]
        self._identity_runs[batch.address] = [t for t in self._identity_runs.get(batch.address, []) if now - t < HOUR]
        checks = (
            ("its thread", "thread", len(self._thread_runs[thread]), self.rules.thread_runs_per_hour),
            (batch.address, "identity", len(self._identity_runs[batch.address]), self.rules.identity_runs_per_hour),
        )
        for what, scope, ran, limit in checks:
            if limit is not None and ran >= limit:
                return (
                    f"circuit breaker: {what} ran {ran} times in the last hour"
                    f" (the {scope} budget is {limit} an hour): not run, a mail loop?"
                )
        return None

    def finished(
        self,
        batch: Batch,
        now: float,
        *,
        ok: bool,
        exit_code: int | None = None,
        stderr_tail: str | None = None,
        reason: str | None = None,
    ) -> Done | Retry | Parked:
        """The run of `batch` ended: `ok` (exit 0), else with `exit_code`, `stderr_tail` and why."""
        self._running.pop(batch.address, None)
        records = self.messages(batch)
        if ok:
            for record in records:
                self._finish(record, "done", now)
                record.exit_code, record.stderr_tail, record.reason = 0, None, None
            return Done()
        failures = batch.failures + 1
        for record in records:
            record.attempts, record.exit_code, record.stderr_tail, record.reason = (
                failures,
                exit_code,
                stderr_tail,
                reason,
            )
        if failures > self.rules.retries:
            for record in records:
                self._finish(record, "parked", now)
            return Parked(failures)
        delay = self.rules.backoff(failures)
        for record in records:
            record.status, record.updated_at, record.next_attempt_at = "retrying", now, now + delay
        batch.failures, batch.due = failures, now + delay
        self._waiting.append(batch)
        return Retry(delay, failures)

    def abandoned(self, batch: Batch, now: float) -> None:
        """The run of `batch` was stopped before it ended (shutdown): its messages run again, no failure counted."""
        self._running.pop(batch.address, None)
        for record in self.messages(batch):
            record.status, record.updated_at = "queued" if batch.failures == 0 else "retrying", now
            record.next_attempt_at = None if batch.failures == 0 else now
        batch.due = now
        self._waiting.append(batch)

    def _finish(self, record: Record, status: Status, now: float, *, reason: str | None = None) -> None:
        record.status, record.updated_at, record.payload, record.next_attempt_at = status, now, None, None
        if reason is not None:
            record.reason = reason

    # -- reading -----------------------------------------------------------------------------

    def messages(self, batch: Batch) -> list[Record]:
        return [self.records[key] for key in batch.keys]

    def next_due(self) -> float | None:
        """When :meth:`ready` may have something to start next (None: only a new message or a run's end can)."""
        if len(self._running) >= self.rules.jobs:
            return None
        dues = [b.due for b in self._waiting if b.address not in self._running]
        return min(dues) if dues else None

    @property
    def running(self) -> Mapping[str, Batch]:
        return self._running

    @property
    def waiting(self) -> Iterable[Batch]:
        return tuple(self._waiting)

    def idle(self) -> bool:
        """Nothing queued, retrying or running."""
        return not self._waiting and not self._running

    # -- the state file ----------------------------------------------------------------------

    def snapshot(self, now: float) -> Saved:
        """Everything to save; finished records beyond :data:`MAX_FINISHED_KEPT` (the oldest) are forgotten."""
        finished = sorted((r for r in self.records.values() if r.status in FINAL), key=lambda r: r.updated_at)
        for record in finished[: max(0, len(finished) - MAX_FINISHED_KEPT)]:
            del self.records[(record.address, record.message_id)]
        messages = [
            SavedRecord(
                r.address,
                r.message_id,
                r.thread_id,
                r.status,
                r.updated_at,
                r.attempts,
                r.exit_code,
                r.stderr_tail,
                r.reason,
                r.next_attempt_at,
                msgspec.Raw(r.payload) if r.payload is not None else _NO_MESSAGE,
            )
            for r in self.records.values()
        ]
        recent = {a: [t for t in ts if now - t < HOUR] for a, ts in self._identity_runs.items()}
        threads = {f"{a} {t}": [x for x in ts if now - x < HOUR] for (a, t), ts in self._thread_runs.items()}
        return Saved(
            STATE_VERSION,
            dict(self.cursors),
            messages,
            {a: ts for a, ts in recent.items() if ts},
            {k: ts for k, ts in threads.items() if ts},
        )

    @classmethod
    def restore(cls, rules: Rules, saved: Saved, now: float) -> Dispatcher:
        """The dispatcher as it was saved: what was queued, running or retrying is queued again.

        A run that was going on when the watcher died is run again (its end was never recorded);
        a message recorded `done`, `parked` or `tripped` never runs again.
        """
        if saved.version != STATE_VERSION:
            raise ValueError(f"state version {saved.version} is not {STATE_VERSION}")
        me = cls(rules, cursors=dict(saved.cursors))
        groups: dict[tuple[str, str, int, float], list[Key]] = {}
        for item in saved.messages:
            payload = bytes(item.message) if bytes(item.message) != b"null" else None
            status: Status = item.status
            if status not in FINAL and payload is None:
                status = "parked"  # cannot run without its summary: kept visible, never guessed
            record = Record(
                item.address,
                item.message_id,
                item.thread_id,
                status,
                item.updated_at,
                payload,
                item.attempts,
                item.exit_code,
                item.stderr_tail,
                item.reason if status == item.status else "the state file lost this message's summary",
                item.next_attempt_at,
            )
            key = (item.address, item.message_id)
            me.records[key] = record
            if status in FINAL:
                continue
            # What ran when the watcher died runs again (its end was never recorded), with the
            # failures it had: a restart never grants a failing command fresh retries.
            failures = record.attempts
            record.status = "retrying" if failures else "queued"
            due = record.next_attempt_at if status == "retrying" and record.next_attempt_at is not None else now
            record.next_attempt_at = due if failures else None
            thread = thread_key(item.message_id, item.thread_id)
            groups.setdefault((item.address, thread, failures, due), []).append(key)
        for (address, thread, failures, due), keys in groups.items():
            for start in range(0, len(keys), MAX_BATCH):
                me._add(address, thread, keys[start : start + MAX_BATCH], due, failures, due)
        me._identity_runs = {a: [t for t in ts if now - t < HOUR] for a, ts in saved.identity_runs.items()}
        for joined, ts in saved.thread_runs.items():
            address, _, thread = joined.partition(" ")
            me._thread_runs[(address, thread)] = [t for t in ts if now - t < HOUR]
        return me
