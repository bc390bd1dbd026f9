"""The embedded mailbox: a Maildir under the data directory, fed by the SMTP intake (`listen`).

Ids are Maildir unique names (`<sec>.M<usec>P<pid>Q<n>.agentmail`): stable across index
rebuilds, and they carry the receipt time to the microsecond. What identities send is kept in a
second Maildir, `sent/` inside the first, its ids the same names prefixed with `sent.`.
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import logging
import os
import re
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Final

from gateway.fsutil import ensure_private_dir
from gateway.intake.smtp import start_smtp_server
from gateway.sources.base import Changes, Listeners, StoredMessage, stamped_copies

if TYPE_CHECKING:
    from gateway.config import Settings

__all__ = ["LocalSource", "Maildir"]

log = logging.getLogger(__name__)

_NAME_RE: Final = re.compile(r"^(\d{1,12})\.M(\d{6})P\d+Q\d+\.agentmail$")
SENT_PREFIX: Final = "sent."  # ids of the Sent Maildir; "s" sorts after every digit-led inbox name


class Maildir:
    """A Maildir (tmp/new/cur) whose writes are durable before they are acknowledged."""

    def __init__(self, root: Path) -> None:
        self.root = ensure_private_dir(root)  # also an older data directory's 0755 one
        self._counter = itertools.count(1)
        for sub in ("tmp", "new", "cur"):
            ensure_private_dir(root / sub)

    def deliver(self, copies: Sequence[tuple[bytes, bytes]]) -> list[str]:
        """Write each (stamp, body) copy (tmp → fsync → rename into new/); returns their ids. Blocking.

        The copies of one message share one body object: a 25 MiB message to 100 recipients
        costs one body in memory, not a hundred.
        """
        ids: list[str] = []
        try:
            for stamp, body in copies:
                ids.append(self._write(stamp, body))
        except OSError:
            for written in ids:  # all or nothing: the client is told to retry the whole message
                (self.root / "new" / written).unlink(missing_ok=True)
            raise
        # The renames are durable only once the directory itself is synced.
        dir_fd = os.open(self.root / "new", os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
        return ids

    def _write(self, stamp: bytes, body: bytes) -> str:
        now = time.time()
        sec = int(now)
        usec = int((now - sec) * 1_000_000)
        name = f"{sec}.M{usec:06d}P{os.getpid()}Q{next(self._counter)}.agentmail"
        tmp = self.root / "tmp" / name
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            _write_all(fd, memoryview(stamp))
            _write_all(fd, memoryview(body))
            os.fsync(fd)
        finally:
            os.close(fd)
        os.rename(tmp, self.root / "new" / name)
        return name

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
        """Nothing to connect: the Maildir exists from construction."""

    async def listen(self, settings: Settings) -> Listeners:
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
        """Store stamped copies durably (in a worker thread) and announce them; the intake's hook."""
        ids = await asyncio.to_thread(self.maildir.deliver, copies)
        self._arrived.put_nowait(ids)
        return ids

    async def deliver(self, raw: bytes, recipients: Sequence[str]) -> list[str]:
        """One stamped Maildir copy per recipient, all or none; their ids in recipient order."""
        copies = stamped_copies(raw, recipients)
        return await self.store(copies) if copies else []

    async def keep_sent(self, raw: bytes) -> str | None:
        """Write `raw` durably into the Sent Maildir and announce it."""
        (name,) = await asyncio.to_thread(self.sent.deliver, [(b"", raw)])
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
