"""`agentmail-gateway backup DIR` (gateway/store/backup.py): taken under a running gateway, restored, and trusted.

Real `python -m gateway serve` processes (tests/serve.py) and the real CLI in a child process:
the backup is taken while the gateway serves and writes, restored into a fresh data directory
and into the data directory that lost its store, and the tokens issued before it still work.
"""

from __future__ import annotations

import contextlib
import shutil
import sqlite3
import stat
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from gateway.config import Settings
from gateway.errors import StoreError
from gateway.store.backup import backup_store
from tests.conftest import ADMIN_TOKEN, make_message
from tests.serve import ServeProcess, wait_until

DOMAIN = "agents.test"
SETTLE = 20.0
"""Seconds for a delivered mail to be listed on a loaded machine."""


def run_backup(data_dir: Path, target: Path) -> subprocess.CompletedProcess[str]:
    """The CLI, as an operator runs it next to the gateway."""
    argv = [sys.executable, "-m", "gateway", "backup", str(target), "--data-dir", str(data_dir)]
    argv += ["--env-file", str(target.parent / "no-such.env")]
    return subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)


def create_identity(client: httpx.Client, local_part: str) -> str:
    response = client.post("/v1/identities", json={"local_part": local_part})
    assert response.status_code == 201, response.text
    token = response.json()["token"]
    assert isinstance(token, str)
    return token


def deliver(gateway: ServeProcess, to: str, subject: str) -> None:
    with gateway.smtp() as smtp:
        smtp.send_message(make_message(to=to, subject=subject), to_addrs=[to])


def subjects(gateway: ServeProcess, token: str, address: str) -> dict[str, bool]:
    """Subject → seen, of everything `address` is shown."""
    with gateway.client(token) as client:
        return {m["subject"]: m["seen"] for m in gateway.listing(client, address)}


def restored_files(backup: Path) -> list[str]:
    return sorted(p.name for p in backup.iterdir())


def test_an_online_backup_restores_into_a_fresh_data_dir_with_every_token_working(tmp_path: Path) -> None:
    alice = f"alice@{DOMAIN}"
    backup = tmp_path / "backup"
    with ServeProcess(tmp_path / "data", tmp_path / "logs", admin_token=ADMIN_TOKEN) as gateway:
        with gateway.client() as admin:
            alice_token = create_identity(admin, "alice")
            made = admin.post("/v1/tokens", json={"scope": "provision", "label": "ci"})
            assert made.status_code == 201, made.text
            provisioner = made.json()["token"]
        deliver(gateway, alice, "before")
        wait_until(lambda: "before" in subjects(gateway, alice_token, alice), SETTLE, "the mail to be listed")

        # The gateway keeps writing while the copy is taken: each write is wholly in it or not.
        stop, written = threading.Event(), []

        def writer() -> None:
            with gateway.client() as admin:
                while not stop.is_set() and len(written) < 200:
                    written.append(create_identity(admin, f"busy{len(written)}"))

        thread = threading.Thread(target=writer)
        thread.start()
        try:
            wait_until(lambda: len(written) >= 3, SETTLE, "the writer to start")
            result = run_backup(gateway.data_dir, backup)
        finally:
            stop.set()
            thread.join(timeout=30)
        assert result.returncode == 0, result.stderr
        assert "copied to" in result.stdout and str(backup / "identities.db") in result.stdout
        with gateway.client() as admin:
            late_token = create_identity(admin, "late")  # after the backup: not in it

    # The durable file only (the admin token is configured, so there is no generated one to copy).
    assert restored_files(backup) == ["identities.db"]
    assert stat.S_IMODE((backup / "identities.db").stat().st_mode) == 0o600
    assert stat.S_IMODE(backup.stat().st_mode) == 0o700
    with contextlib.closing(sqlite3.connect(backup / "identities.db")) as copy:
        assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert copy.execute("PRAGMA journal_mode").fetchone() == ("delete",)  # one file, no -wal to carry
        names = {r[0] for r in copy.execute("SELECT local_part FROM identities")}
    copied_busy = {n for n in names if n.startswith("busy")}
    assert copied_busy == {f"busy{i}" for i in range(len(copied_busy))}, "a snapshot: a prefix of the writes"
    assert "alice" in names and "late" not in names

    fresh = tmp_path / "restored"
    fresh.mkdir(mode=0o700)
    shutil.copy2(backup / "identities.db", fresh / "identities.db")
    with ServeProcess(fresh, tmp_path / "logs2", admin_token=ADMIN_TOKEN) as restored:
        with restored.client(alice_token) as client:
            assert client.get(f"/v1/identities/{alice}/messages").status_code == 200
        with restored.client(provisioner) as client:
            assert client.post("/v1/identities", json={"local_part": "after"}).status_code == 201
        with restored.client(late_token) as client:
            assert client.get(f"/v1/identities/late@{DOMAIN}/messages").status_code == 401
        # The old mail stayed in the old mailbox; new mail reaches alice on the restored gateway.
        deliver(restored, alice, "after restore")
        wait_until(lambda: "after restore" in subjects(restored, alice_token, alice), SETTLE, "the new mail")


def test_a_store_lost_from_its_data_dir_is_refused_then_accepted_from_the_backup(tmp_path: Path) -> None:
    """The lineage check (gateway/store/lineage.py) refuses an empty store, and takes the restored one."""
    alice = f"alice@{DOMAIN}"
    data, backup = tmp_path / "data", tmp_path / "backup"
    gateway = ServeProcess(data, tmp_path / "logs", admin_token=ADMIN_TOKEN)
    with gateway:
        with gateway.client() as admin:
            alice_token = create_identity(admin, "alice")
        deliver(gateway, alice, "kept")
        wait_until(lambda: "kept" in subjects(gateway, alice_token, alice), SETTLE, "the mail to be listed")
        with gateway.client(alice_token) as client:  # reading marks it seen: a mark lives in the store
            (summary,) = gateway.listing(client, alice)
            assert client.get(f"/v1/identities/{alice}/messages/{summary['id']}").status_code == 200
        assert run_backup(data, backup).returncode == 0
        again = run_backup(data, backup)  # a user mistake: one line and status 2, never a traceback
        assert again.returncode == 2 and again.stdout == ""
        assert again.stderr.count("\n") == 1 and "never overwritten" in again.stderr, again.stderr

    for suffix in ("", "-wal", "-shm"):  # the store is lost; the Maildir (with its mark) and the index stay
        (data / f"identities.db{suffix}").unlink(missing_ok=True)
    with pytest.raises(AssertionError, match="serve exited"):
        gateway.start()
    assert "store init --new" in gateway.output(), "the refusal names the way out"
    assert not (data / "identities.db").exists(), "a refused start leaves no empty store behind"

    shutil.copy2(backup / "identities.db", data / "identities.db")
    with gateway:
        assert subjects(gateway, alice_token, alice) == {"kept": True}


@pytest.fixture
def settings(make_settings: Callable[..., Settings], tmp_path: Path) -> Settings:
    made = make_settings()
    made.data_dir.mkdir(mode=0o700)
    with contextlib.closing(sqlite3.connect(made.data_dir / "identities.db")) as db:  # a store's tables, one identity
        db.executescript(
            "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
            "CREATE TABLE identities (id INTEGER PRIMARY KEY, local_part TEXT);"
            "CREATE TABLE tokens (id TEXT PRIMARY KEY);"
            "INSERT INTO meta VALUES ('schema_version', '4'), ('store_id', 'abc'), ('domain', 'agents.test');"
            "INSERT INTO identities (local_part) VALUES ('alice');"
        )
    return made


def test_a_generated_admin_token_is_copied_beside_the_store(settings: Settings, tmp_path: Path) -> None:
    (settings.data_dir / "admin-token").write_text("am_generated-token-0123456789\n")
    done = backup_store(settings, tmp_path / "b")
    assert (done.store_id, done.domain, done.schema_version, done.identities) == ("abc", "agents.test", "4", 1)
    assert restored_files(tmp_path / "b") == ["admin-token", "identities.db"]
    assert (tmp_path / "b" / "admin-token").read_text() == "am_generated-token-0123456789\n"
    assert stat.S_IMODE((tmp_path / "b" / "admin-token").stat().st_mode) == 0o600


def test_postgresql_is_refused_with_pg_dump(make_settings: Callable[..., Settings], tmp_path: Path) -> None:
    postgres = make_settings(database_url="postgresql://agentmail@127.0.0.1/agentmail")
    with pytest.raises(StoreError, match="pg_dump"):
        backup_store(postgres, tmp_path / "b")
    assert not (tmp_path / "b").exists()


def test_refusals_leave_everything_as_it_was(settings: Settings, tmp_path: Path) -> None:
    target = tmp_path / "b"
    backup_store(settings, target)
    before = (target / "identities.db").read_bytes()
    with pytest.raises(StoreError, match="never overwritten"):
        backup_store(settings, target)
    assert (target / "identities.db").read_bytes() == before
    with pytest.raises(StoreError, match="data directory itself"):
        backup_store(settings, settings.data_dir)
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o755)
    backup_store(settings, shared)
    assert stat.S_IMODE(shared.stat().st_mode) == 0o755, "an existing folder keeps its mode"
    assert restored_files(shared) == ["identities.db"], "no partial file is left"


def test_a_missing_store_is_refused_and_not_created(make_settings: Callable[..., Settings], tmp_path: Path) -> None:
    empty = make_settings()
    empty.data_dir.mkdir(mode=0o700)
    with pytest.raises(StoreError, match="no identity store"):
        backup_store(empty, tmp_path / "b")
    assert list(empty.data_dir.iterdir()) == []


def test_a_file_that_is_not_a_store_is_refused(make_settings: Callable[..., Settings], tmp_path: Path) -> None:
    other = make_settings()
    other.data_dir.mkdir(mode=0o700)
    with contextlib.closing(sqlite3.connect(other.data_dir / "identities.db")) as db:
        db.execute("CREATE TABLE t (x)")
    with pytest.raises(StoreError, match="not an identity store"):
        backup_store(other, tmp_path / "b")
    assert not (tmp_path / "b" / "identities.db").exists()
