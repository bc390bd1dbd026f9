"""The watch runner's moving parts: event streams in, commands run, the state saved, signals obeyed.

What to run when is decided by :class:`~gateway.client.watch.core.Dispatcher`; this module only
carries it out. Each run is `/bin/sh -c CMD` in a session (process group) of its own: `--timeout`
and shutdown kill the whole group, and the terminal's Ctrl-C reaches the watcher, not the runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys
import time
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

import msgspec

from gateway import wire
from gateway.client.watch.core import Batch, Dispatcher, Done, Parked, Record, Retry, Rules, Trip
from gateway.client.watch.state import StateFile

__all__ = [
    "KILL_GRACE",
    "STDERR_TAIL_BYTES",
    "Event",
    "RunResult",
    "Stream",
    "Watcher",
    "run_command",
    "stdin_for",
]

STDERR_TAIL_BYTES: Final = 2000
"""How much of a failed run's stderr the state file and the log keep (its end: where errors are)."""
KILL_GRACE: Final = 2.0
"""Seconds between SIGTERM and SIGKILL to a run's process group."""
STDERR_LINGER: Final = 0.5
"""After a run exits, how long its stderr is still read: a child it left behind may hold the pipe open."""
SAVE_EVERY: Final = 0.5
"""Cursor moves are saved at most this often (a run's end is saved at once): a flood is not a write per event."""

log = logging.getLogger("agentmail.watch")


class Event(Protocol):
    """What an event stream yields (the client's `StreamEvent`)."""

    @property
    def id(self) -> str: ...
    @property
    def address(self) -> str: ...
    @property
    def message(self) -> wire.Summary: ...


@dataclass(frozen=True)
class Stream:
    """One event stream the watcher reads.

    `open(last_event_id)` starts it after that event (None: from now); `addresses` (lower case)
    keeps only those identities' events (None: all); `tokens` are the identities' own tokens,
    handed to their runs as AGENTMAIL_IDENTITY_TOKEN.
    """

    key: str
    open: Callable[[str | None], AsyncIterator[Event]]
    addresses: frozenset[str] | None = None
    tokens: Mapping[str, str] = field(default_factory=dict, repr=False)


@dataclass(frozen=True, slots=True)
class RunResult:
    returncode: int
    """The exit status; negative: killed by that signal."""
    timed_out: bool
    stderr_tail: str
    seconds: float


class _Tail:
    def __init__(self, size: int) -> None:
        self.size = size
        self.data = bytearray()

    def add(self, chunk: bytes) -> None:
        self.data += chunk
        del self.data[: max(0, len(self.data) - self.size)]

    def text(self) -> str:
        return self.data.decode("utf-8", errors="replace")


async def _kill_group(proc: asyncio.subprocess.Process) -> None:
    """SIGTERM to the run's whole process group, SIGKILL after :data:`KILL_GRACE` (or once the leader is gone)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGTERM)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(proc.wait(), KILL_GRACE)
    with contextlib.suppress(ProcessLookupError):  # what is left of the group (children ignoring SIGTERM)
        os.killpg(proc.pid, signal.SIGKILL)
    await proc.wait()


async def run_command(
    command: str, stdin: bytes, env: Mapping[str, str], timeout: float | None, echo: Callable[[bytes], None]
) -> RunResult:
    """Run `command` with the shell in a new session, `stdin` written to it, stderr passed to `echo` and its end kept.

    Past `timeout` seconds the process group is killed. Cancelled (shutdown), the process group
    is killed too before the cancellation goes on.
    """
    started = time.monotonic()
    # stderr through a pipe of our own making: its reading end is ours to close even while a
    # child the command left behind still holds the writing end.
    read_fd, write_fd = os.pipe()
    # Shielded: cancelled while its pipes connect, asyncio would SIGKILL the shell alone and
    # leave what it started running; the whole group is killed below instead.
    spawn = asyncio.ensure_future(
        asyncio.create_subprocess_shell(
            command, stdin=asyncio.subprocess.PIPE, stderr=write_fd, env=dict(env), start_new_session=True
        )
    )
    try:
        proc = await asyncio.shield(spawn)
    except asyncio.CancelledError:
        with contextlib.suppress(Exception):
            await _kill_group(await spawn)
        os.close(read_fd)
        raise
    except BaseException:
        os.close(read_fd)
        raise
    finally:
        os.close(write_fd)
    assert proc.stdin is not None
    stdin_pipe = proc.stdin
    stderr_pipe = asyncio.StreamReader()
    try:
        transport, _ = await asyncio.get_running_loop().connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(stderr_pipe), os.fdopen(read_fd, "rb", buffering=0)
        )
    except BaseException:  # cancelled already (a shutdown): the run it started must not outlive it
        await _kill_group(proc)
        raise
    tail = _Tail(STDERR_TAIL_BYTES)

    async def feed() -> None:
        try:
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # a command need not read its stdin
                stdin_pipe.write(stdin)
                await stdin_pipe.drain()
        finally:
            stdin_pipe.close()

    async def read_stderr() -> None:
        while chunk := await stderr_pipe.read(4096):
            tail.add(chunk)
            echo(chunk)

    feeder = asyncio.create_task(feed())
    reader = asyncio.create_task(read_stderr())
    timed_out = False
    try:
        try:
            await asyncio.wait_for(proc.wait(), timeout)
        except TimeoutError:
            timed_out = True
            await _kill_group(proc)
    except asyncio.CancelledError:
        await _kill_group(proc)
        raise
    finally:
        feeder.cancel()
        with contextlib.suppress(TimeoutError, asyncio.CancelledError):
            await asyncio.wait_for(asyncio.shield(reader), STDERR_LINGER)
        reader.cancel()
        await asyncio.gather(feeder, reader, return_exceptions=True)
        transport.close()
    assert proc.returncode is not None
    return RunResult(proc.returncode, timed_out, tail.text(), time.monotonic() - started)


def stdin_for(address: str, records: list[Record]) -> bytes:
    """A run's stdin: the newest message's summary plus `address` and `earlier` (the burst's others, oldest first).

    One object in every case, so `jq .subject` or `.codes[0].value` reads a single message and
    a burst alike; `earlier` is `[]` for a single message.
    """
    messages: list[dict[str, Any]] = []
    for record in records:
        assert record.payload is not None
        messages.append(msgspec.json.decode(record.payload, type=dict[str, Any]))
    newest = messages[-1] | {"address": address, "earlier": messages[:-1]}
    return msgspec.json.encode(newest) + b"\n"


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return "".join(c if c.isprintable() else " " for c in lines[-1][:300]) if lines else "(no stderr)"


class Watcher:
    """Reads `streams`, runs `command` as the dispatcher decides, keeps `state`; :meth:`run` until a signal."""

    def __init__(
        self,
        streams: list[Stream],
        rules: Rules,
        command: str,
        state: StateFile,
        *,
        timeout: float | None,
        grace: float,
        environ: Mapping[str, str],
        clock: Callable[[], float] = time.time,
        echo: Callable[[bytes], None] | None = None,
    ) -> None:
        self.streams = streams
        self.rules = rules
        self.command = command
        self.state = state
        self.timeout = timeout
        self.grace = grace
        self.environ = dict(environ)
        self.clock = clock
        self.echo = echo or _to_stderr
        self.dispatcher = Dispatcher(rules)
        self._tokens = {a: t for s in streams for a, t in s.tokens.items()}
        self._wake = asyncio.Event()
        self._stopping = asyncio.Event()
        self._abandon = asyncio.Event()
        self._runs: dict[asyncio.Task[None], Batch] = {}
        self._dirty = False
        self._saved_at = 0.0
        self.failure: str | None = None

    async def run(self) -> int:
        """Watch until SIGINT/SIGTERM (0) or until a stream fails for good (2, logged)."""
        self.state.lock()
        try:
            saved = self.state.load()
            if saved is not None:
                self.dispatcher = Dispatcher.restore(self.rules, saved, self.clock())
            queued = sum(1 for r in self.dispatcher.records.values() if r.status in ("queued", "retrying"))
            log.info(
                "watching %s (state %s)%s",
                ", ".join(s.key if s.key != "*" else "every identity" for s in self.streams),
                self.state.path,
                f"; {queued} message(s) from before run first" if queued else "",
            )
            loop = asyncio.get_running_loop()
            for signum in (signal.SIGINT, signal.SIGTERM):
                loop.add_signal_handler(signum, self._signal, signum)
            readers = [asyncio.create_task(self._read(stream)) for stream in self.streams]
            try:
                await self._loop(readers)
            finally:
                for reader in readers:
                    reader.cancel()
                await asyncio.gather(*readers, return_exceptions=True)
                await self._drain()  # still under our handlers: a second Ctrl-C abandons the runs
                self._save()
                for signum in (signal.SIGINT, signal.SIGTERM):
                    loop.remove_signal_handler(signum)
        finally:
            self.state.close()
        if self.failure is not None:
            return 2
        log.info("stopped; cursor saved in %s", self.state.path)
        return 0

    def _signal(self, signum: int) -> None:
        name = signal.Signals(signum).name
        if not self._stopping.is_set():
            how = f"waiting up to {self.grace:g} s for the runs going on" if self._runs else "nothing is running"
            log.info("%s: stopping (%s; again to abandon them)", name, how)
            self._stopping.set()
        else:
            self._abandon.set()

    async def _loop(self, readers: list[asyncio.Task[None]]) -> None:
        while not self._stopping.is_set():
            self._wake.clear()
            for decision in self.dispatcher.ready(self.clock()):
                if isinstance(decision, Trip):
                    batch = decision.batch
                    ids = ", ".join(m for _, m in batch.keys)
                    log.warning("%s: %s (message(s) %s)", batch.address, decision.reason, ids)
                    self._dirty = True
                else:
                    task = asyncio.create_task(self._run(decision.batch))
                    self._runs[task] = decision.batch
                    task.add_done_callback(self._ran)
            timeout: float | None = None
            if self._dirty:
                if self.clock() - self._saved_at >= SAVE_EVERY:
                    self._save()
                else:
                    timeout = SAVE_EVERY
            due = self.dispatcher.next_due()
            if due is not None:
                left = max(0.0, due - self.clock())
                timeout = left if timeout is None else min(timeout, left)
            wake = asyncio.create_task(self._wake.wait())
            stop = asyncio.create_task(self._stopping.wait())
            try:
                await asyncio.wait([wake, stop, *readers], timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
            finally:
                wake.cancel()
                stop.cancel()
            for reader in readers:
                if reader.done():
                    exc = reader.exception()
                    detail = getattr(exc, "detail", None) or str(exc) or type(exc).__name__
                    self.failure = f"the event stream stopped: {detail}" if exc else "the event stream ended"
                    log.error("%s", self.failure)
                    self._stopping.set()

    def _ran(self, task: asyncio.Task[None]) -> None:
        self._runs.pop(task, None)
        if not task.cancelled() and task.exception() is not None:
            log.error("a run failed inside the watcher: %r", task.exception())
        self._wake.set()

    async def _drain(self) -> None:
        """On the way out: let the runs finish for `grace` seconds (a second signal: no longer), then abandon them."""
        if self._runs:
            loop = asyncio.get_running_loop()
            deadline = loop.time() + self.grace
            abandon = asyncio.create_task(self._abandon.wait())
            pending: set[asyncio.Task[Any]] = set(self._runs)
            while pending and not abandon.done() and (left := deadline - loop.time()) > 0:
                _, pending = await asyncio.wait([abandon, *pending], timeout=left, return_when=asyncio.FIRST_COMPLETED)
                pending.discard(abandon)
            abandon.cancel()
        running = list(self._runs)
        for task in running:
            task.cancel()
        await asyncio.gather(*running, return_exceptions=True)

    async def _read(self, stream: Stream) -> None:
        async for event in stream.open(self.dispatcher.cursors.get(stream.key)):
            message = event.message
            wanted = stream.addresses is None or event.address.lower() in stream.addresses
            if wanted and message.direction == "received":  # never a run for the identity's own sent mail
                payload = msgspec.json.encode(message)
                if self.dispatcher.offer(event.address, message.id, message.thread_id, payload, self.clock()):
                    log.debug("%s: message %s queued", event.address, message.id)
            self.dispatcher.cursors[stream.key] = event.id
            self._dirty = True
            self._wake.set()

    async def _run(self, batch: Batch) -> None:
        records = self.dispatcher.messages(batch)
        newest = records[-1]
        env = dict(self.environ)
        env.update(
            AGENTMAIL_ADDRESS=batch.address,
            AGENTMAIL_MESSAGE_ID=newest.message_id,
            AGENTMAIL_MESSAGE_IDS=" ".join(r.message_id for r in records),
            AGENTMAIL_THREAD_ID=newest.thread_id or "",
        )
        token = self._tokens.get(batch.address.lower())
        if token:
            env["AGENTMAIL_IDENTITY_TOKEN"] = token
        else:  # one of another identity would go with this AGENTMAIL_ADDRESS
            env.pop("AGENTMAIL_IDENTITY_TOKEN", None)
        again = f" (run {batch.failures + 1})" if batch.failures else ""
        log.info(
            "%s: run%s for %d message(s) %s",
            batch.address,
            again,
            len(records),
            " ".join(r.message_id for r in records),
        )
        try:
            result = await run_command(self.command, stdin_for(batch.address, records), env, self.timeout, self.echo)
        except asyncio.CancelledError:
            self.dispatcher.abandoned(batch, self.clock())
            self._save()
            log.warning("%s: run abandoned; its message(s) run again at the next start", batch.address)
            raise
        except OSError as exc:  # the shell could not be started (no processes left, no memory)
            result = RunResult(127, False, f"cannot start the command: {exc.strerror}", 0.0)
        ok = result.returncode == 0 and not result.timed_out
        reason = None
        if result.timed_out:
            reason = f"timed out after {self.timeout:g} s (its process group was killed)"
        elif result.returncode < 0:
            reason = f"killed by {signal.Signals(-result.returncode).name}"
        elif result.returncode != 0:
            reason = f"exit status {result.returncode}"
        verdict = self.dispatcher.finished(
            batch,
            self.clock(),
            ok=ok,
            exit_code=result.returncode,
            stderr_tail=result.stderr_tail or None,
            reason=reason,
        )
        self._save()  # at once: a message whose run succeeded must never run again
        if isinstance(verdict, Done):
            log.info("%s: done in %.1f s", batch.address, result.seconds)
        elif isinstance(verdict, Retry):
            log.warning(
                "%s: run failed (%s; %s); retry %d of %d in %g s",
                batch.address,
                reason,
                _last_line(result.stderr_tail),
                verdict.failures,
                self.rules.retries,
                verdict.delay,
            )
        elif isinstance(verdict, Parked):
            log.error(
                "%s: parked message(s) %s after %d failed run(s): %s; stderr ends: %s",
                batch.address,
                " ".join(r.message_id for r in records),
                verdict.failures,
                reason,
                _last_line(result.stderr_tail),
            )

    def _save(self) -> None:
        self.state.save(self.dispatcher.snapshot(self.clock()))
        self._dirty = False
        self._saved_at = self.clock()


def _to_stderr(chunk: bytes) -> None:
    with contextlib.suppress(OSError, ValueError):
        sys.stderr.buffer.write(chunk)
        sys.stderr.buffer.flush()
