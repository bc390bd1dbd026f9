"""Private files and folders: 0700 directories, 0600 files, written atomically."""

from __future__ import annotations

import ctypes
import functools
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Final

__all__ = ["ensure_private_dir", "start_writeback", "write_private_file"]

_SYNC_FILE_RANGE_WRITE: Final = 2  # <fcntl.h>: start writeback of the range's dirty pages, do not wait


def ensure_private_dir(path: Path) -> Path:
    """Create `path` and any missing parents, each 0700, and make `path` 0700; returns it.

    `mkdir(parents=True, mode=...)` gives the mode to the last directory only: the parents it
    makes get the umask's 0755, so `data/maildir/new` would leave `data/maildir` readable.
    """
    missing = []
    for parent in (path, *path.parents):
        if parent.exists():
            break
        missing.append(parent)
    for directory in reversed(missing):
        directory.mkdir(mode=0o700, exist_ok=True)
    if path.stat().st_mode & 0o077:
        path.chmod(0o700)
    return path


def write_private_file(path: Path, data: bytes) -> None:
    """Write `data` to `path` as a 0600 file, atomically and durably (temp file, fsync, rename)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        view = memoryview(data)
        while view:  # os.write may write less than asked
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)


def start_writeback(fd: int) -> None:
    """Start writing `fd`'s dirty pages to disk without waiting for them (Linux); elsewhere nothing.

    Only a head start, never a durability step: the fdatasync that follows is what makes the
    data durable. Started on every file of a group first, their block allocations fall into one
    ext4 journal commit, which the group's first fdatasync pays for all (bench/maildir_sync.py).
    """
    sync_file_range = _sync_file_range()
    if sync_file_range is not None:
        sync_file_range(fd, 0, 0, _SYNC_FILE_RANGE_WRITE)  # an error here shows again at the fdatasync


@functools.cache
def _sync_file_range() -> Callable[[int, int, int, int], int] | None:
    """libc's sync_file_range(2), on Linux only (the stdlib has no binding for it)."""
    if not sys.platform.startswith("linux"):
        return None
    function = getattr(ctypes.CDLL(None, use_errno=True), "sync_file_range", None)
    if function is None:
        return None
    function.argtypes = [ctypes.c_int, ctypes.c_int64, ctypes.c_int64, ctypes.c_uint]
    function.restype = ctypes.c_int
    return function  # type: ignore[no-any-return]
