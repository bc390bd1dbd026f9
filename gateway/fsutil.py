"""Private files and folders: 0700 directories, 0600 files, written atomically."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["ensure_private_dir", "write_private_file"]


def ensure_private_dir(path: Path) -> Path:
    """Create `path` (and parents) and make it 0700; returns it."""
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
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
