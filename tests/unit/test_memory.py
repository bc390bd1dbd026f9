"""gateway/memory.py on this machine's glibc (the CI image is Debian: glibc)."""

from __future__ import annotations

from gateway import memory


def test_the_allocator_takes_the_mmap_threshold() -> None:
    assert memory.tune_allocator() is True


def test_a_trim_after_big_work_runs_and_small_work_skips_it() -> None:
    memory.release_after_big(memory.BIG_BYTES)  # a real malloc_trim(0): returns, raises nothing
    memory.release_after_big(0)
