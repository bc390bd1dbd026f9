"""`agentmail-gateway backup DIR`: a consistent copy of the durable SQLite store, taken while the gateway runs.

The copy is made with SQLite's online backup API from a connection of its own, in one step,
so it is one snapshot: a write the gateway commits meanwhile is wholly in it or wholly not
(WAL readers never block the writer, so the gateway keeps serving). Only the durable file
(`identities.db`: identities, token hashes, quarantines, marks) is copied, never the index:
that is a cache the gateway rebuilds from the mailbox. A generated admin token
(`<data>/admin-token`) is copied beside it, since it is the operator's only copy.

The copy is a single file (rollback journal, no `-wal` beside it), checked with
`PRAGMA integrity_check` before it is renamed into place; an existing backup is never
overwritten. A PostgreSQL store is refused: pg_dump is the tool for that.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from gateway.admin_token import ADMIN_TOKEN_FILE
from gateway.config import Settings
from gateway.errors import StoreError
from gateway.fsutil import ensure_private_dir

__all__ = ["DURABLE_FILE", "Backup", "backup_store"]

DURABLE_FILE: Final = "identities.db"
_BUSY_TIMEOUT_MS: Final = 10_000
"""How long the copy waits for a lock (a start-up upgrade or integrity check holds one briefly)."""


@dataclass(frozen=True, slots=True)
class Backup:
    """What `backup_store` wrote, for the one line the CLI prints (no secret in it)."""

    path: Path
    admin_token: Path | None
    store_id: str
    domain: str
    schema_version: str
    identities: int


def backup_store(settings: Settings, target_dir: Path) -> Backup:
    """Copy the durable store of `settings` into `target_dir` (made 0700 if new); StoreError on any refusal."""
    if settings.database_url is not None:
        raise StoreError(
            "the store is PostgreSQL (AGENTMAIL_DATABASE_URL): back it up with PostgreSQL's own tools,"
            " e.g. `pg_dump --format=custom --file=agentmail.dump DBNAME` (restore with pg_restore);"
            " `backup` copies the SQLite store only"
        )
    source = settings.data_dir / DURABLE_FILE
    if not source.is_file():
        raise StoreError(f"there is no identity store at {source}: check AGENTMAIL_DATA_DIR (or --data-dir)")
    if target_dir.exists() and not target_dir.is_dir():
        raise StoreError(f"{target_dir} is not a directory")
    if target_dir.resolve() == settings.data_dir.resolve():
        raise StoreError("the backup directory is the data directory itself: choose another one")
    target = target_dir / DURABLE_FILE
    if target.exists():
        raise StoreError(f"{target} exists already: a backup is never overwritten; choose a new directory")
    if not target_dir.exists():
        ensure_private_dir(target_dir)  # an existing folder keeps its mode (it may be shared, like /tmp)

    tmp = target_dir / f".{DURABLE_FILE}.{os.getpid()}.partial"
    try:
        meta, identities = _copy(source, tmp)
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)
    token = _copy_admin_token(settings.data_dir / ADMIN_TOKEN_FILE, target_dir / ADMIN_TOKEN_FILE)
    return Backup(
        path=target,
        admin_token=token,
        store_id=meta.get("store_id", "?"),
        domain=meta.get("domain", "?"),
        schema_version=meta.get("schema_version", "?"),
        identities=identities,
    )


def _copy(source: Path, tmp: Path) -> tuple[dict[str, str], int]:
    """The backup itself: one snapshot of `source` into `tmp` (0600), verified; returns its meta and size."""
    os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    try:
        # mode=rw: never create a store where there is none (a plain connect would make an empty file).
        src = sqlite3.connect(f"{source.resolve().as_uri()}?mode=rw", uri=True, isolation_level=None)
    except sqlite3.Error as exc:
        raise StoreError(f"the identity store {source} cannot be opened ({exc})") from None
    try:
        src.execute(f"PRAGMA busy_timeout={_BUSY_TIMEOUT_MS}")
        dst = sqlite3.connect(tmp, isolation_level=None)
        try:
            src.backup(dst)  # pages=-1: every page in one step, under one read transaction
            dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no -wal to carry along
            problems = [str(r[0]) for r in dst.execute("PRAGMA integrity_check(10)")]
            if problems != ["ok"]:
                raise StoreError(f"the copy of {source} failed its integrity check ({'; '.join(problems[:3])})")
            tables = {str(r[0]) for r in dst.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if not {"meta", "identities", "tokens"} <= tables:
                raise StoreError(f"{source} is not an identity store (no meta, identities and tokens tables)")
            meta = {str(k): str(v) for k, v in dst.execute("SELECT key, value FROM meta")}
            (count,) = dst.execute("SELECT count(*) FROM identities").fetchone()
        finally:
            dst.close()
    except sqlite3.Error as exc:
        raise StoreError(f"the identity store {source} could not be copied ({exc})") from None
    finally:
        src.close()
    with contextlib.suppress(OSError):  # durability of the copy before it is renamed into place
        fd = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    return meta, int(count)


def _copy_admin_token(source: Path, target: Path) -> Path | None:
    """Copy a generated admin token (0600) when there is one; the configured kind is the operator's already."""
    if not source.is_file():
        return None
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as out, source.open("rb") as src:
        shutil.copyfileobj(src, out)
    return target
