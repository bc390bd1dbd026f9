"""Handing freed heap memory back to the system after big messages (glibc's malloc_trim).

Parsing a 20 MB message allocates hundreds of megabytes in small and large blocks. CPython
frees them, but glibc keeps the freed pages of its heaps (one per thread that parsed) mapped:
five 20 MB messages left an idle gateway at 246-331 MB. `malloc_trim(0)` returns every free
page of every heap, in a few milliseconds. Elsewhere (musl, macOS) this does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import threading
from collections.abc import Callable
from typing import Final

__all__ = ["BIG_BYTES", "release_after_big"]

BIG_BYTES: Final = 1024 * 1024
"""Work on a message this large (or larger) is followed by a trim; smaller ones leave little."""


def _malloc_trim() -> Callable[[], object] | None:
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        trim = ctypes.CDLL(name).malloc_trim
    except (OSError, AttributeError):  # not glibc
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return lambda: trim(0)


_TRIM: Final = _malloc_trim()
_LOCK: Final = threading.Lock()  # one trim at a time: two would walk the same heaps twice


def release_after_big(size: int) -> None:
    """Trim the heaps when `size` bytes of mail were just worked on (blocking: call it off the loop)."""
    if _TRIM is None or size < BIG_BYTES:
        return
    if _LOCK.acquire(blocking=False):
        try:
            _TRIM()
        finally:
            _LOCK.release()
