"""Durable Maildir writes: what one acknowledged message costs under each way of syncing.

    .venv/bin/python bench/maildir_sync.py [--rounds 40] [--messages 96] [--groups 1,8,32] [--dirty MB/s]

Every strategy leaves each message complete in new/ before it counts as written: its bytes
are synced before the rename, and new/ is synced after it. What differs is how many syncs a
group of concurrent deliveries shares:

- `per-message`: today's `Maildir.deliver` (write, fsync, rename, fsync new/) for each message,
  from `--concurrency` threads at once, as `asyncio.to_thread` runs concurrent deliveries;
- `group-serial`: a committer takes every pending message (a group of G), writes them all,
  fdatasyncs each in one thread, renames them all, and fsyncs new/ once;
- `group-threads`: the same, the fdatasyncs spread over 4 threads (jbd2 can merge their commits);
- `group-syncfs`: the same, one Linux `syncfs` on the Maildir's filesystem instead of a
  sync per file (it also flushes whatever else is dirty on that filesystem);
- `group-sfr`: the same as `group-serial`, with Linux `sync_file_range(WRITE)` started on
  every file before the first fdatasync (one journal commit can then cover the group).

Short rounds rotate through the strategies (the machine is shared and noisy); the medians of
messages a second are printed per group size.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import ctypes
import itertools
import os
import shutil
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

_libc = ctypes.CDLL(None, use_errno=True)
_counter = itertools.count()


def _syncfs(fd: int) -> None:
    if _libc.syncfs(fd) != 0:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err))


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _write(root: Path, body: bytes, *, sync: bool) -> tuple[str, int]:
    name = f"{time.time():.6f}.{next(_counter)}"
    fd = os.open(root / "tmp" / name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    os.write(fd, body)
    if sync:
        os.fsync(fd)
        os.close(fd)
        return name, -1
    return name, fd


_POOLS: dict[int, concurrent.futures.ThreadPoolExecutor] = {}


def per_message(root: Path, body: bytes, count: int, group: int) -> None:
    """Today: each message in its own thread (`group` at once), two syncs each."""

    def one(_: int) -> None:
        name, _fd = _write(root, body, sync=True)
        os.rename(root / "tmp" / name, root / "new" / name)
        _fsync_dir(root / "new")

    pool = _POOLS.setdefault(group, concurrent.futures.ThreadPoolExecutor(group))
    list(pool.map(one, range(count)))


def _grouped(sync_files: Callable[[Path, list[int]], None]) -> Callable[[Path, bytes, int, int], None]:
    def run(root: Path, body: bytes, count: int, group: int) -> None:
        for start in range(0, count, group):
            written = [_write(root, body, sync=False) for _ in range(min(group, count - start))]
            fds = [fd for _, fd in written]
            sync_files(root, fds)
            for fd in fds:
                os.close(fd)
            for name, _ in written:
                os.rename(root / "tmp" / name, root / "new" / name)
            _fsync_dir(root / "new")

    return run


def _serial(root: Path, fds: list[int]) -> None:
    for fd in fds:
        os.fdatasync(fd)


_POOL = concurrent.futures.ThreadPoolExecutor(4)


def _threads(root: Path, fds: list[int]) -> None:
    list(_POOL.map(os.fdatasync, fds))


def _syncfs_once(root: Path, fds: list[int]) -> None:
    _syncfs(fds[0])


_SYNC_FILE_RANGE_WRITE = 2  # <fcntl.h>: start writeback of the range's dirty pages, do not wait


def _range_then_serial(root: Path, fds: list[int]) -> None:
    # Writeback of every file starts first, so their block allocations land in one journal
    # transaction: the first fdatasync commits it, the others find little left to do.
    for fd in fds:
        if _libc.sync_file_range(fd, ctypes.c_longlong(0), ctypes.c_longlong(0), _SYNC_FILE_RANGE_WRITE) != 0:
            err = ctypes.get_errno()
            raise OSError(err, os.strerror(err))
    for fd in fds:
        os.fdatasync(fd)


STRATEGIES: dict[str, Callable[[Path, bytes, int, int], None]] = {
    "per-message": per_message,
    "group-serial": _grouped(_serial),
    "group-threads": _grouped(_threads),
    "group-syncfs": _grouped(_syncfs_once),
    "group-sfr": _grouped(_range_then_serial),
}


def _dirty(path: Path, mb_per_s: float, stop: threading.Event) -> None:
    """Another program's writes: `mb_per_s` of page cache dirtied and never synced (rewritten in place)."""
    chunk = b"u" * (1 << 20)
    with path.open("wb") as file:
        while not stop.wait(1 / mb_per_s):
            if file.tell() > 256 << 20:
                file.seek(0)
            file.write(chunk)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=40, help="short rounds, interleaved (a loaded machine)")
    parser.add_argument("--messages", type=int, default=96, help="messages a strategy writes per round")
    parser.add_argument("--size", type=int, default=3000, help="bytes a message")
    parser.add_argument("--groups", default="1,8,32", help="group sizes (per-message: threads at once)")
    parser.add_argument("--dir", default=None, help="where to write (default: a temporary dir under /tmp)")
    parser.add_argument(
        "--dirty", type=float, default=0.0, help="MB/s of unrelated unsynced writes on the same filesystem meanwhile"
    )
    args = parser.parse_args()
    body = b"x" * args.size
    groups = [int(g) for g in args.groups.split(",")]
    rates: dict[tuple[str, int], list[float]] = {}
    base = Path(tempfile.mkdtemp(prefix="maildir-sync-", dir=args.dir))
    stop = threading.Event()
    if args.dirty:
        threading.Thread(target=_dirty, args=(base / "unrelated", args.dirty, stop), daemon=True).start()
    names = list(STRATEGIES)
    try:
        for r in range(args.rounds):
            for group in groups:
                # Each round rotates the order, so no strategy always follows the same one.
                for name in names[r % len(names) :] + names[: r % len(names)]:
                    root = base / f"{name}-{group}"
                    for sub in ("tmp", "new", "cur"):
                        (root / sub).mkdir(parents=True, exist_ok=True)
                    started = time.perf_counter()
                    STRATEGIES[name](root, body, args.messages, group)
                    rates.setdefault((name, group), []).append(args.messages / (time.perf_counter() - started))
                    for entry in os.scandir(root / "new"):
                        os.unlink(entry.path)
            if (r + 1) % 10 == 0:
                print(f"round {r + 1}/{args.rounds} done", flush=True)
    finally:
        stop.set()
        shutil.rmtree(base, ignore_errors=True)
    print(f"{'strategy':<14}" + "".join(f"{f'G={g} msg/s':>16}" for g in groups))
    for name in STRATEGIES:
        row = [statistics.median(rates[(name, g)]) for g in groups]
        print(f"{name:<14}" + "".join(f"{v:>16,.0f}" for v in row))


if __name__ == "__main__":
    main()
