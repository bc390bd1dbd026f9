"""The embedded mailbox: a Maildir under the data directory, fed by the SMTP intake (`listen`).

Ids are Maildir unique names (`<sec>.M<usec>P<pid>Q<n>.agentmail`): stable across index
rebuilds, and they carry the receipt time to the microsecond. What identities send is kept in a
second Maildir, `sent/` inside the first, its ids the same names prefixed with `sent.`.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import dataclasses
import itertools
import logging
import os
import re
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Final

from gateway.fsutil import ensure_private_dir, start_writeback
from gateway.intake.smtp import start_smtp_server
from gateway.sources.base import Changes, Listeners, StoredMessage, stamped_copies

if TYPE_CHECKING:
    from gateway.config import Settings

__all__ = ["LocalSource", "Maildir"]

log = logging.getLogger(__name__)

_NAME_RE: Final = re.compile(r"^(\d{1,12})\.M(\d{6})P\d+Q\d+\.agentmail$")
_TMP_WRITER_RE: Final = re.compile(r"^\d{1,12}\.M\d{6}P(\d+)Q\d+\.agentmail$")
SENT_PREFIX: Final = "sent."  # ids of the Sent Maildir; "s" sorts after every digit-led inbox name


MAX_GROUP_COPIES: Final = 256
"""Copies one group commit writes before its durable step: bounds the descriptors it holds open.
A message is never split across groups, so one with more recipients is a group of its own."""
COMMITTER_IDLE: Final = 2.0  # seconds a committer thread waits for work before it ends
MAX_COMMITTERS: Final = 4
"""Groups committed at once. One committer alone serialises every group behind the previous
group's syncs; while one waits for the journal, the next takes what has arrived meanwhile, and
ext4 merges their commits. More than one matters most when other writes make commits slow
(bench/maildir_sync.py, `--dirty`)."""
STALE_TMP: Final = 36 * 3600.0  # Maildir's rule: a tmp/ file this old is abandoned, whoever wrote it


@dataclasses.dataclass(slots=True)
class _Delivery:
    """One message waiting for a group: its copies, and the future its caller waits on."""

    copies: Sequence[tuple[bytes, bytes]]
    future: concurrent.futures.Future[list[str]]
    names: list[str] = dataclasses.field(default_factory=list)
    """Copies written to tmp/ so far, in recipient order."""
    fds: list[int] = dataclasses.field(default_factory=list)
    renamed: int = 0
    """How many of `names` are in new/ already."""


class Maildir:
    """A Maildir (tmp/new/cur) whose writes are durable before they are acknowledged.

    Concurrent deliveries are group-committed: a committer thread takes every message waiting,
    writes all their copies to tmp/, syncs each copy's data, renames them all into new/ and
    syncs new/ once; every message of the group is then acknowledged. Up to MAX_COMMITTERS
    groups are in flight at once. A file reaches new/ only after its bytes are durable, so a
    crash leaves new/ holding whole messages and tmp/ the rest, which `clear_tmp` removes at
    the next start.
    """

    def __init__(self, root: Path) -> None:
        self.root = ensure_private_dir(root)  # also an older data directory's 0755 one
        self._counter = itertools.count(1)
        for sub in ("tmp", "new", "cur"):
            ensure_private_dir(root / sub)
        self._waiting: list[_Delivery] = []
        self._wakeup = threading.Condition()
        self._committers = 0
        self._idle = 0  # committers waiting for work

    def submit(self, copies: Sequence[tuple[bytes, bytes]]) -> concurrent.futures.Future[list[str]]:
        """Queue one message's (stamp, body) copies for the next group commit; the future gets their ids once durable.

        All or nothing: on OSError no copy of the message stays in new/ (the future holds the
        error), and the other messages of its group are unaffected. A future cancelled before
        its group starts is not written at all.
        """
        delivery = _Delivery(copies, concurrent.futures.Future())
        if not copies:
            delivery.future.set_result([])
            return delivery.future
        with self._wakeup:
            self._waiting.append(delivery)
            if self._idle or self._committers >= MAX_COMMITTERS:
                self._wakeup.notify()
                return delivery.future
            self._committers += 1
        threading.Thread(target=self._commit_loop, name=f"maildir committer {self.root.name}", daemon=True).start()
        return delivery.future

    def deliver(self, copies: Sequence[tuple[bytes, bytes]]) -> list[str]:
        """Write each (stamp, body) copy durably into new/ (all or none); returns their ids. Blocking.

        The copies of one message share one body object: a 25 MiB message to 100 recipients
        costs one body in memory, not a hundred.
        """
        return self.submit(copies).result()

    def clear_tmp(self) -> int:
        """Remove what deliveries cut short left in tmp/ (the writer is gone, or it is our own start); returns how many.

        Call before anything is delivered: this process's own leftovers count as cut short.
        """
        removed = 0
        now = time.time()
        for entry in os.scandir(self.root / "tmp"):
            match = _TMP_WRITER_RE.match(entry.name)
            try:
                stale = now - entry.stat(follow_symlinks=False).st_mtime > STALE_TMP
                if stale or (match is not None and not _other_process_alive(int(match.group(1)))):
                    os.unlink(entry.path)
                    removed += 1
            except FileNotFoundError:
                continue
        return removed

    def _commit_loop(self) -> None:
        while True:
            with self._wakeup:
                if not self._waiting:
                    self._idle += 1
                    self._wakeup.wait(COMMITTER_IDLE)
                    self._idle -= 1
                if not self._waiting:
                    self._committers -= 1
                    return
                group = self._take_group()
            try:
                self._commit(group)
            except BaseException as exc:  # never leave a caller waiting, whatever went wrong
                for delivery in group:
                    if not delivery.future.done():
                        self._undo(delivery)
                        delivery.future.set_exception(exc)
                if not isinstance(exc, Exception):
                    with self._wakeup:
                        self._committers -= 1
                    raise
                log.exception("a Maildir group commit failed")

    def _take_group(self) -> list[_Delivery]:
        """The oldest waiting messages, up to MAX_GROUP_COPIES copies (at least one message). Lock held."""
        count = 0
        taken = 0
        for delivery in self._waiting:
            if taken and count + len(delivery.copies) > MAX_GROUP_COPIES:
                break
            count += len(delivery.copies)
            taken += 1
        group, self._waiting = self._waiting[:taken], self._waiting[taken:]
        return group

    def _commit(self, group: list[_Delivery]) -> None:
        live = [d for d in group if d.future.set_running_or_notify_cancel()]
        try:
            for delivery in live:
                self._step(delivery, self._write_tmp)
            for delivery in live:
                self._step(delivery, _sync_data)
        finally:
            for delivery in live:
                _close_all(delivery)
        for delivery in live:
            self._step(delivery, self._rename)
        renamed = [d for d in live if not d.future.done()]
        if not renamed:
            return
        try:
            # The renames are durable only once the directory itself is synced: once for the group.
            dir_fd = os.open(self.root / "new", os.O_RDONLY)
            try:
                os.fsync(dir_fd)
            finally:
                os.close(dir_fd)
        except OSError as exc:
            for delivery in renamed:
                self._undo(delivery)
                delivery.future.set_exception(exc)
            return
        for delivery in renamed:
            delivery.future.set_result(delivery.names)

    def _step(self, delivery: _Delivery, action: Callable[[_Delivery], None]) -> None:
        """Run one stage for a message still on its way; an OSError fails that message alone."""
        if delivery.future.done():
            return
        try:
            action(delivery)
        except OSError as exc:
            _close_all(delivery)
            self._undo(delivery)
            delivery.future.set_exception(exc)

    def _write_tmp(self, delivery: _Delivery) -> None:
        for stamp, body in delivery.copies:
            now = time.time()
            sec = int(now)
            usec = int((now - sec) * 1_000_000)
            name = f"{sec}.M{usec:06d}P{os.getpid()}Q{next(self._counter)}.agentmail"
            fd = os.open(self.root / "tmp" / name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            delivery.names.append(name)
            delivery.fds.append(fd)
            _write_all(fd, memoryview(stamp))
            _write_all(fd, memoryview(body))
            start_writeback(fd)  # while the group's other copies are written

    def _rename(self, delivery: _Delivery) -> None:
        for name in delivery.names[delivery.renamed :]:
            os.rename(self.root / "tmp" / name, self.root / "new" / name)
            delivery.renamed += 1

    def _undo(self, delivery: _Delivery) -> None:
        """Remove every copy of a failed message, from new/ and tmp/: the client is told to retry it whole."""
        for i, name in enumerate(delivery.names):
            with contextlib.suppress(OSError):
                (self.root / ("new" if i < delivery.renamed else "tmp") / name).unlink(missing_ok=True)

    def ids(self) -> list[str]:
        """Every message id in new/ and cur/, oldest first."""
        found = []
        for sub in ("new", "cur"):
            for entry in os.scandir(self.root / sub):
                name = entry.name.partition(":")[0]
                if _NAME_RE.match(name):
                    found.append(name)
        return sorted(found, key=received_ts)

    def _path(self, message_id: str) -> Path | None:
        if not _NAME_RE.match(message_id):
            return None
        new = self.root / "new" / message_id
        if new.exists():
            return new
        for entry in os.scandir(self.root / "cur"):
            if entry.name.partition(":")[0] == message_id:
                return Path(entry.path)
        return None

    def read(self, message_id: str, max_bytes: int | None = None) -> StoredMessage | None:
        """The copy with this id (its first `max_bytes`), or None when it is not (or no longer) here. Blocking."""
        path = self._path(message_id)
        if path is None:
            return None
        try:
            with path.open("rb") as file:
                size = os.fstat(file.fileno()).st_size
                raw = file.read() if max_bytes is None else file.read(max_bytes)
        except FileNotFoundError:
            return None
        return StoredMessage(message_id, received_ts(message_id), raw, size)

    def remove(self, message_id: str) -> None:
        """Delete the copy with this id, if present. Blocking."""
        path = self._path(message_id)
        if path is not None:
            path.unlink(missing_ok=True)


def _write_all(fd: int, view: memoryview) -> None:
    while view:
        view = view[os.write(fd, view) :]


def _sync_data(delivery: _Delivery) -> None:
    for fd in delivery.fds:
        os.fdatasync(fd)


def _close_all(delivery: _Delivery) -> None:
    while delivery.fds:
        os.close(delivery.fds.pop())


def _other_process_alive(pid: int) -> bool:
    """Whether `pid` is a running process other than this one.

    At start our own pid in tmp/ is an earlier run's (a container's gateway is pid 1 each time).
    """
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process
    return True


def received_ts(message_id: str) -> float:
    """Receipt time encoded in a Maildir name we wrote (a sent id's too)."""
    match = _NAME_RE.match(message_id.removeprefix(SENT_PREFIX))
    if match is None:
        return 0.0
    return int(match.group(1)) + int(match.group(2)) / 1_000_000


class LocalSource:
    """The embedded Maildir as a MailSource; the SMTP intake hands it new mail."""

    kind = "local"
    resolution = 1e-6
    generation = "maildir"  # Maildir names never change meaning
    reachable = True  # a local directory

    def __init__(self, root: Path) -> None:
        self.maildir = Maildir(root)
        self.sent = Maildir(root / "sent")
        self._arrived: asyncio.Queue[list[str]] = asyncio.Queue()
        self._stopped = False

    async def fence(self) -> str | None:
        """None: receipt times have microseconds, fine enough to order mail around a creation."""
        return None

    async def start(self) -> None:
        """Nothing to connect (the Maildir exists from construction): clears what a crash left in tmp/."""
        cleared = await asyncio.to_thread(lambda: self.maildir.clear_tmp() + self.sent.clear_tmp())
        if cleared:
            log.info("removed %d unfinished deliver%s from tmp/", cleared, "y" if cleared == 1 else "ies")

    async def follow(self) -> None:
        """Nothing to watch: the intake in this process hands every copy over itself."""

    async def unfollow(self) -> None:
        """Nothing to stop (the intake is single-process)."""

    async def listen(self, settings: Settings, *, hint: Callable[[], None] | None = None) -> Listeners:
        """Start the embedded SMTP intake on the running loop; it stores through `store`."""
        smtp = await start_smtp_server(
            host=settings.smtp_host,
            port=settings.smtp_port,
            domain=settings.domain,
            max_message_bytes=settings.max_message_bytes,
            deliver=self.store,
            timeout=settings.smtp_timeout,
            max_connections=settings.smtp_max_connections,
            max_connections_per_client=settings.smtp_max_connections_per_client,
        )
        host, port = smtp.sockets[0].getsockname()[:2]
        log.info("SMTP intake listening on %s:%d for *@%s", host, port, settings.domain)
        return Listeners((smtp,), (host, port))

    async def stop(self) -> None:
        """Wake any `next_batch` waiter: it returns None."""
        self._stopped = True
        self._arrived.put_nowait([])

    def hint(self, reason: str = "push") -> None:
        """Ignored: every arrival goes through `store`, which announces it."""

    async def store(self, copies: Sequence[tuple[bytes, bytes]]) -> list[str]:
        """Store stamped copies durably (group-committed with concurrent ones) and announce them; the intake's hook."""
        written = asyncio.wrap_future(self.maildir.submit(copies))
        # Announced from the loop once written, even when the caller has gone meanwhile (a
        # connection closed while its message was being committed): shielded, it is written anyway.
        written.add_done_callback(self._announce)
        return await asyncio.shield(written)

    def _announce(self, written: asyncio.Future[list[str]]) -> None:
        if not written.cancelled() and written.exception() is None and written.result():
            self._arrived.put_nowait(written.result())

    async def deliver(self, raw: bytes, recipients: Sequence[str]) -> list[str]:
        """One stamped Maildir copy per recipient, all or none; their ids in recipient order."""
        copies = stamped_copies(raw, recipients)
        return await self.store(copies) if copies else []

    async def keep_sent(self, raw: bytes) -> str | None:
        """Write `raw` durably into the Sent Maildir and announce it."""
        (name,) = await asyncio.wrap_future(self.sent.submit([(b"", raw)]))
        copy_id = SENT_PREFIX + name
        self._arrived.put_nowait([copy_id])
        return copy_id

    async def snapshot(self) -> list[str]:
        """Every id in both Maildirs, in receipt order: a rebuild indexes mail in the order it came
        (threads are joined in that order, so a rebuild finds the same threads)."""

        def both() -> list[str]:
            return sorted(self.maildir.ids() + [SENT_PREFIX + name for name in self.sent.ids()], key=received_ts)

        return await asyncio.to_thread(both)

    async def next_batch(self) -> Changes | None:
        """Wait for deliveries, then return every id delivered since the last call."""
        if self._stopped:
            return None
        batch = list(await self._arrived.get())
        while not self._arrived.empty():
            batch.extend(self._arrived.get_nowait())
        if self._stopped:
            return None
        return Changes(batch)

    async def fetch(self, ids: Sequence[str], *, max_bytes: int | None = None) -> list[StoredMessage]:
        """Read these copies from disk, each cut at `max_bytes`."""

        def read_all() -> list[StoredMessage]:
            found = []
            for copy_id in ids:
                name = copy_id.removeprefix(SENT_PREFIX)
                if name == copy_id:
                    found.append(self.maildir.read(copy_id, max_bytes))
                    continue
                kept = self.sent.read(name, max_bytes)
                found.append(None if kept is None else dataclasses.replace(kept, id=copy_id, sent=True))
            return [m for m in found if m is not None]

        return await asyncio.to_thread(read_all)

    async def expunge(self, ids: Sequence[str]) -> list[str]:
        """Delete these copies from disk (all of them: Maildir names never go stale)."""

        def remove_all() -> None:
            for message_id in ids:
                name = message_id.removeprefix(SENT_PREFIX)
                (self.maildir if name == message_id else self.sent).remove(name)

        await asyncio.to_thread(remove_all)
        return list(ids)
