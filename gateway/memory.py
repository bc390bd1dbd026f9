"""Handing the memory of big messages back to the system (glibc's allocator; elsewhere a no-op).

Parsing a 20 MB message allocates hundreds of megabytes in small and large blocks. CPython
frees them, but glibc keeps freed heap pages mapped, and after the first big block is freed
it raises its mmap threshold (up to 32 MB), so later big blocks land in the heaps too: five
20 MB messages left an idle gateway at 266 MB (bench/parse.py). Two measures, measured there:
`malloc_trim(0)` after big work (266 -> about 106-157 MB), and a fixed 1 MB mmap threshold,
so blocks that large are unmapped when freed (-> 75 MB; big parses about 15 % slower).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import threading
from typing import Final

__all__ = ["BIG_BYTES", "MMAP_THRESHOLD", "release_after_big", "tune_allocator"]

BIG_BYTES: Final = 1024 * 1024
"""Work on a message this large (or larger) is followed by a trim; smaller ones leave little."""


MMAP_THRESHOLD: Final = 1024 * 1024
"""Blocks this large or larger are mapped on their own, and so unmapped as soon as freed."""

_M_MMAP_THRESHOLD: Final = -3  # mallopt's parameter number, from glibc's malloc.h


@functools.cache  # looked up at first use: find_library may run ldconfig, importing does nothing
def _libc() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        libc = ctypes.CDLL(name)
        libc.malloc_trim.argtypes = [ctypes.c_size_t]
        libc.malloc_trim.restype = ctypes.c_int
        libc.mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
        libc.mallopt.restype = ctypes.c_int
    except (OSError, AttributeError):  # not glibc
        return None
    return libc


def tune_allocator() -> bool:
    """Fix glibc's mmap threshold at MMAP_THRESHOLD for this process; False where it cannot."""
    libc = _libc()
    return libc is not None and libc.mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD) == 1


_LOCK: Final = threading.Lock()  # one trim at a time: two would walk the same heaps twice


def release_after_big(size: int) -> None:
    """Trim the heaps when `size` bytes of mail were just worked on (blocking: call it off the loop)."""
    libc = _libc()
    if libc is None or size < BIG_BYTES:
        return
    if _LOCK.acquire(blocking=False):
        try:
            libc.malloc_trim(0)
        finally:
            _LOCK.release()
