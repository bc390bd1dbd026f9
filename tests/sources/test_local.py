"""The embedded Maildir: private files, group commit, and what a crash may leave behind."""

from __future__ import annotations

import concurrent.futures
import errno
import os
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from gateway.sources.local import MAX_COMMITTERS, MAX_GROUP_COPIES, STALE_TMP, LocalSource, Maildir


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_every_directory_it_makes_is_0700_and_every_message_0600(tmp_path: Path) -> None:
    root = tmp_path / "data" / "maildir"  # neither exists yet
    box = Maildir(root)
    (copy_id,) = box.deliver([(b"Delivered-To: a@d.test\r\n", b"Subject: hi\r\n\r\nbody\r\n")])
    for directory in (tmp_path / "data", root, root / "tmp", root / "new", root / "cur"):
        assert _mode(directory) == 0o700, directory
    assert _mode(root / "new" / copy_id) == 0o600


def test_an_older_readable_maildir_is_made_private(tmp_path: Path) -> None:
    root = tmp_path / "maildir"
    root.mkdir(mode=0o755)
    root.chmod(0o755)  # as earlier releases left it
    Maildir(root)
    assert _mode(root) == 0o700


# --- group commit ---------------------------------------------------------------------------


class _Recorder:
    """The committer's file-system calls, in order, with a gate that holds the first data sync."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, root: Path) -> None:
        self.events: list[tuple[str, str]] = []
        self.gate = threading.Event()
        self.in_first_sync = threading.Event()
        self.held = threading.Condition()
        self.syncs_entered = 0
        self._root = root
        real_fdatasync, real_fsync, real_rename = os.fdatasync, os.fsync, os.rename

        def fdatasync(fd: int) -> None:
            self.in_first_sync.set()
            with self.held:
                self.syncs_entered += 1
                self.held.notify_all()
            assert self.gate.wait(10), "the test never opened the gate"
            real_fdatasync(fd)
            self.events.append(("data", os.readlink(f"/proc/self/fd/{fd}").rpartition("/")[2]))

        def fsync(fd: int) -> None:
            real_fsync(fd)
            path = os.readlink(f"/proc/self/fd/{fd}")
            if path == str(root / "new"):
                self.events.append(("dir", ""))

        def rename(src: str | Path, dst: str | Path) -> None:
            real_rename(src, dst)
            self.events.append(("rename", Path(dst).name))

        monkeypatch.setattr(os, "fdatasync", fdatasync)
        monkeypatch.setattr(os, "fsync", fsync)
        monkeypatch.setattr(os, "rename", rename)

    def hold_every_committer(self, box: Maildir) -> list[concurrent.futures.Future[list[str]]]:
        """One message per committer, each held at its data sync: what is submitted next waits for a group."""
        held = []
        for i in range(MAX_COMMITTERS):
            held.append(box.submit(_copies(1, f"held{i}")))
            with self.held:
                assert self.held.wait_for(lambda n=i: self.syncs_entered > n, 10)
        return held

    def done(self, future: concurrent.futures.Future[list[str]]) -> None:
        future.add_done_callback(lambda f: self.events.append(("done", ",".join(f.result()))))


def _copies(n: int, tag: str) -> list[tuple[bytes, bytes]]:
    body = f"Subject: {tag}\r\n\r\nbody of {tag}\r\n".encode()
    return [(f"Delivered-To: r{i}@d.test\r\n".encode(), body) for i in range(n)]


def test_messages_waiting_during_a_commit_share_the_next_groups_syncs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    box = Maildir(tmp_path / "maildir")
    rec = _Recorder(monkeypatch, box.root)
    held = rec.hold_every_committer(box)
    waiting = [box.submit(_copies(1 + i % 3, f"m{i}")) for i in range(30)]
    for future in waiting:
        rec.done(future)
    rec.gate.set()
    ids = [f.result(10) for f in waiting]
    for future in held:
        future.result(10)
    assert [len(i) for i in ids] == [1 + i % 3 for i in range(30)]
    # One group per held committer, then the thirty that waited: one sync of new/ each, not thirty.
    dir_syncs = [kind for kind, _ in rec.events].count("dir")
    assert MAX_COMMITTERS + 1 <= dir_syncs <= MAX_COMMITTERS + 2, rec.events
    last_group = rec.events[[i for i, (kind, _) in enumerate(rec.events) if kind == "dir"][-2] + 1 :]
    assert [kind for kind, _ in last_group].count("done") >= 15, rec.events


def test_no_message_is_acknowledged_before_its_bytes_and_its_name_in_new_are_durable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    box = Maildir(tmp_path / "maildir")
    rec = _Recorder(monkeypatch, box.root)
    rec.gate.set()
    futures = [box.submit(_copies(2, f"m{i}")) for i in range(20)]
    for future in futures:
        rec.done(future)
    for future in futures:
        future.result(10)
    for kind, names in rec.events:
        if kind != "done":
            continue
        done_at = rec.events.index((kind, names))
        for name in names.split(","):
            synced = rec.events.index(("data", name))
            renamed = rec.events.index(("rename", name))
            dir_synced = next(i for i, (k, _) in enumerate(rec.events) if k == "dir" and i > renamed)
            assert synced < renamed < dir_synced < done_at, (name, rec.events)


@pytest.mark.parametrize("stage", ["write", "data sync", "rename"])
def test_a_failed_message_leaves_no_copy_and_the_rest_of_its_group_is_stored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stage: str
) -> None:
    box = Maildir(tmp_path / "maildir")
    rec = _Recorder(monkeypatch, box.root)  # holds the first group so that the next three share one
    poisoned: list[str] = []  # the poisoned message's copies, in the order they were written
    real_write, real_fdatasync, real_rename = os.write, os.fdatasync, os.rename

    def is_poisoned(fd: int) -> bool:
        return os.readlink(f"/proc/self/fd/{fd}").rpartition("/")[2] in poisoned

    def write(fd: int, data: bytes | memoryview) -> int:
        if b"Subject: poison" in bytes(data) and stage == "write":
            raise OSError(errno.ENOSPC, "No space left on device")
        if b"Subject: poison" in bytes(data):
            poisoned.append(os.readlink(f"/proc/self/fd/{fd}").rpartition("/")[2])
        return real_write(fd, data)

    def fdatasync(fd: int) -> None:
        if stage == "data sync" and is_poisoned(fd):
            raise OSError(errno.EIO, "Input/output error")
        real_fdatasync(fd)

    def rename(src: str | Path, dst: str | Path) -> None:
        # The poisoned message's second copy cannot be moved: its first is in new/ already.
        if stage == "rename" and poisoned and Path(src).name == poisoned[-1]:
            raise OSError(errno.EIO, "Input/output error")
        real_rename(src, dst)

    monkeypatch.setattr(os, "write", write)
    monkeypatch.setattr(os, "fdatasync", fdatasync)
    monkeypatch.setattr(os, "rename", rename)
    held = rec.hold_every_committer(box)
    good = box.submit(_copies(2, "good"))
    bad = box.submit(_copies(2, "poison"))
    after = box.submit(_copies(1, "after"))
    rec.gate.set()
    stored = [i for f in held for i in f.result(10)] + good.result(10) + after.result(10)
    with pytest.raises(OSError):
        bad.result(10)
    assert sorted(box.ids()) == sorted(stored)
    assert os.listdir(box.root / "tmp") == []
    for copy_id in stored:
        message = box.read(copy_id)
        assert message is not None and b"poison" not in message.raw


def test_a_failed_sync_of_new_fails_the_whole_group_and_removes_its_copies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    box = Maildir(tmp_path / "maildir")
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        if os.readlink(f"/proc/self/fd/{fd}") == str(box.root / "new"):
            raise OSError(errno.EIO, "Input/output error")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    with pytest.raises(OSError):
        box.deliver(_copies(3, "unsure"))
    assert box.ids() == [] and os.listdir(box.root / "tmp") == []


def test_a_message_whose_caller_gave_up_before_its_group_is_not_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    box = Maildir(tmp_path / "maildir")
    rec = _Recorder(monkeypatch, box.root)
    held = rec.hold_every_committer(box)
    gone = box.submit(_copies(1, "gone"))
    assert gone.cancel()
    kept = box.submit(_copies(1, "kept"))
    rec.gate.set()
    stored = [i for f in held for i in f.result(10)] + kept.result(10)
    assert sorted(box.ids()) == sorted(stored)
    assert not any(box.read(i).raw.endswith(b"body of gone\r\n") for i in stored)  # type: ignore[union-attr]


def test_a_message_with_more_copies_than_a_group_holds_is_stored_whole(tmp_path: Path) -> None:
    box = Maildir(tmp_path / "maildir")
    futures = [box.submit(_copies(MAX_GROUP_COPIES + 5, "wide")), box.submit(_copies(2, "narrow"))]
    ids = [f.result(30) for f in futures]
    assert [len(i) for i in ids] == [MAX_GROUP_COPIES + 5, 2]
    assert len(box.ids()) == MAX_GROUP_COPIES + 7


def test_deliver_keeps_its_contract_ids_in_recipient_order_and_nothing_for_no_copies(tmp_path: Path) -> None:
    box = Maildir(tmp_path / "maildir")
    assert box.deliver([]) == []
    ids = box.deliver(_copies(3, "three"))
    for i, copy_id in enumerate(ids):
        stored = box.read(copy_id)
        assert stored is not None and stored.raw.startswith(f"Delivered-To: r{i}@d.test\r\n".encode())


# --- what a crash leaves in tmp/ ----------------------------------------------------------------


def test_clear_tmp_removes_what_dead_writers_and_this_process_left_and_keeps_a_live_writers(tmp_path: Path) -> None:
    box = Maildir(tmp_path / "maildir")
    with subprocess.Popen([sys.executable, "-c", "pass"]) as dead:
        pass
    live = os.getppid()  # our parent: alive, and not us
    names = {
        "dead": f"1700000000.M000001P{dead.pid}Q1.agentmail",
        "ours": f"1700000000.M000002P{os.getpid()}Q1.agentmail",
        "live": f"1700000000.M000003P{live}Q1.agentmail",
        "live-but-abandoned": f"1700000000.M000004P{live}Q2.agentmail",
    }
    for name in names.values():
        (box.root / "tmp" / name).write_bytes(b"Subject: half")
    old = time.time() - STALE_TMP - 60
    os.utime(box.root / "tmp" / names["live-but-abandoned"], (old, old))
    assert box.clear_tmp() == 3
    assert os.listdir(box.root / "tmp") == [names["live"]]


async def test_the_local_source_clears_tmp_when_it_starts(tmp_path: Path) -> None:
    source = LocalSource(tmp_path / "maildir")
    for box in (source.maildir, source.sent):
        (box.root / "tmp" / f"1700000000.M000001P{os.getpid()}Q9.agentmail").write_bytes(b"Subject: half")
    await source.start()
    assert os.listdir(source.maildir.root / "tmp") == [] and os.listdir(source.sent.root / "tmp") == []
