"""Private files and folders: 0700 directories, 0600 files, written atomically."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["ensure_private_dir", "write_private_file"]


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
