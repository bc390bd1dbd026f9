"""The watch runner's state file: one JSON document, replaced whole (never half written), one watcher at a time."""

from __future__ import annotations

import contextlib
import fcntl
import os
import tempfile
from pathlib import Path
from typing import IO

import msgspec

from gateway.client.watch.core import Saved

__all__ = ["StateError", "StateFile"]


class StateError(Exception):
    """The state file cannot be used; the message says which file and what to do."""


class StateFile:
    """`path`, written atomically (a temporary file beside it, fsynced, renamed over it, the folder fsynced).

    A watcher killed at any instant leaves the previous state or the new one, never a mix.
    :meth:`lock` keeps a second watcher off the same file (both would run every message).
    The file is private (0600, in a folder made 0700): it holds the summaries of queued mail.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock: IO[bytes] | None = None

    def lock(self) -> None:
        """Take the file for this process; StateError when another watcher holds it (released at exit, even kill -9)."""
        self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        holder = open(self.path.with_name(self.path.name + ".lock"), "ab")  # noqa: SIM115 (held until close)
        try:
            fcntl.flock(holder.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder.close()
            raise StateError(
                f"another watcher is using the state file {self.path} (give this one its own --state)"
            ) from None
        self._lock = holder

    def close(self) -> None:
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    def load(self) -> Saved | None:
        """What was saved, or None when there is no file yet."""
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise StateError(f"cannot read the state file {self.path}: {exc.strerror}") from None
        try:
            return msgspec.json.decode(data, type=Saved)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            # Never start over silently: that would forget what is queued and what failed.
            raise StateError(
                f"the state file {self.path} is not a watch state ({exc}); move it away to start afresh"
            ) from None

    def save(self, saved: Saved) -> None:
        data = msgspec.json.encode(saved)
        fd, temporary = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".tmp", dir=self.path.parent)
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(data)
                out.flush()
                os.fsync(out.fileno())
            os.replace(temporary, self.path)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temporary)
            raise
        folder = os.open(self.path.parent, os.O_RDONLY)
        try:
            os.fsync(folder)  # the rename itself survives a crash
        finally:
            os.close(folder)
