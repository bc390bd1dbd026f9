"""A throwaway PostgreSQL cluster on loopback, for the tests of the PostgreSQL engine.

Debian's server binaries (`/usr/lib/postgresql/<major>/bin`, newest major) build a cluster
with `initdb` in a fresh temporary folder and run it with `pg_ctl` on a free 127.0.0.1 port,
its unix socket inside that folder, durability switched off for speed (`fsync`,
`synchronous_commit`, `full_page_writes`). Authentication is `trust`: the superuser
`postgres` connects without a password, from loopback only. Each test gets its own database
(`create_database` / `drop_database`); `stop()` ends the server and removes the folder.

As tests/mailstack does for Postfix and Dovecot, `ensure_postgres` installs Debian's
`postgresql` package with apt when the binaries are missing and we are root (a policy-rc.d
guard keeps the package's own cluster service from starting); without root it fails with
a message naming the package, so the suite fails instead of skipping. PostgreSQL refuses to
run as root: as root, every server command runs as the Debian `postgres` system user (or a
dedicated one when that is missing) through `runuser`.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from types import TracebackType
from typing import Self

import psycopg
from psycopg import sql

from tests.mailstack import free_port
from tests.mailstack.stack import POLICY_RC_D

__all__ = [
    "APT_PACKAGE",
    "SUPERUSER",
    "PostgresCluster",
    "PostgresError",
    "ensure_postgres",
    "find_postgres",
]

APT_PACKAGE = "postgresql"
PG_LIB = Path("/usr/lib/postgresql")
SERVER_BINARIES = ("initdb", "pg_ctl", "postgres")
SUPERUSER = "postgres"
"""The cluster's superuser (initdb -U): every DSN connects as it."""
SYSTEM_USER = "postgres"
"""The OS user the Debian package creates; the server runs as it when we are root."""
FALLBACK_USER = "agentmail-pg"
"""The OS user created to run the server when we are root and `postgres` does not exist."""
LOOPBACK = "127.0.0.1"
APT_TIMEOUT = 900.0
COMMAND_TIMEOUT = 120.0
START_TIMEOUT_S = 60
"""pg_ctl start -w waits this long for the server to accept connections."""
START_ATTEMPTS = 3
"""Tries with a fresh port when the one picked was taken before the server bound it."""
LOG_TAIL_LINES = 40
SETTINGS = {
    "listen_addresses": LOOPBACK,
    # Nothing here must survive a crash: no fsync, no waiting for WAL, no full-page images.
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "wal_level": "minimal",
    "max_wal_senders": "0",
    "shared_buffers": "16MB",
    "max_connections": "100",
    "log_min_messages": "warning",
    "logging_collector": "off",
}
DURABLE_SETTINGS = {
    **{k: v for k, v in SETTINGS.items() if k not in ("fsync", "synchronous_commit", "full_page_writes")},
    "shared_buffers": "128MB",
}
"""For benchmarks: every commit waits for its WAL on disk, as a production server would."""
_DBNAME_RE = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")
# The socket is <root>/run/.s.PGSQL.<port>, and unix socket paths are capped at 107 bytes.
_MAX_ROOT_LEN = 80


class PostgresError(RuntimeError):
    """The cluster could not be installed, created, started, stopped or driven; the message says why."""


# -- installation ----------------------------------------------------------------------------


def find_postgres(lib: Path = PG_LIB) -> Path | None:
    """The `bin` folder of the newest installed major holding initdb, pg_ctl and postgres; None when none does."""
    majors: list[tuple[int, Path]] = []
    with contextlib.suppress(FileNotFoundError):
        for entry in lib.iterdir():
            if entry.name.isdigit() and all((entry / "bin" / name).is_file() for name in SERVER_BINARIES):
                majors.append((int(entry.name), entry / "bin"))
    return max(majors)[1] if majors else None


def ensure_postgres(lib: Path = PG_LIB) -> Path:
    """The server binaries' folder; apt-installs Debian's `postgresql` when missing (root only).

    Without root and without the binaries it raises PostgresError (the suite must fail, not skip).
    """
    found = find_postgres(lib)
    if found is not None:
        return found
    if os.geteuid() != 0:
        raise PostgresError(
            f"PostgreSQL's server binaries ({', '.join(SERVER_BINARIES)} under {lib}/<major>/bin) are missing"
            f" and installing them needs root. Run as root, or: apt-get install {APT_PACKAGE}"
        )
    _apt_install()
    found = find_postgres(lib)
    if found is None:
        raise PostgresError(f"apt-get install {APT_PACKAGE} finished but {lib}/<major>/bin/initdb is still missing")
    return found


def _apt_install() -> None:
    # Without this guard the package's maintainer scripts would create and start the
    # system-wide cluster on port 5432; policy-rc.d exiting 101 forbids starting it.
    if not POLICY_RC_D.exists():
        POLICY_RC_D.write_text("#!/bin/sh\n# Written by tests/postgres: never start daemons from packages.\nexit 101\n")
        POLICY_RC_D.chmod(0o755)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    install = ["apt-get", "install", "-y", "-q", "--no-install-recommends", APT_PACKAGE]
    out = _run(install, env=env, timeout=APT_TIMEOUT, check=False)
    if out.returncode != 0:  # stale or missing package lists: refresh once and retry
        _run(["apt-get", "update", "-q"], env=env, timeout=APT_TIMEOUT)
        _run(install, env=env, timeout=APT_TIMEOUT)


def _server_user() -> str | None:
    """Who runs the server: None (ourselves) unless we are root, who may not."""
    if os.geteuid() != 0:
        return None
    for name in (SYSTEM_USER, FALLBACK_USER):
        with contextlib.suppress(KeyError):
            pwd.getpwnam(name)
            return name
    _run(
        [
            "useradd", "--system", "--user-group", "--no-create-home",
            "--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin", FALLBACK_USER,
        ]
    )  # fmt: skip
    return FALLBACK_USER


# -- the cluster -----------------------------------------------------------------------------


class PostgresCluster:
    """One throwaway cluster: `start()` creates and starts it, `stop()` ends it and removes its folder.

    Also a context manager (started on entry, stopped on exit, whatever happened inside).
    The folder is made in `parent` (default /tmp), which the server's user must be able to enter.
    """

    def __init__(self, *, parent: Path | None = None, lib: Path = PG_LIB, durable: bool = False) -> None:
        self.parent = parent
        self.lib = lib
        self.durable = durable
        """fsync and synchronous commits on (benchmarks); off by default (tests need no crash safety)."""
        self.root: Path | None = None
        """The scratch folder (data, socket, logs); None until `start()`, and again after `stop()`."""
        self.port = 0
        """The loopback TCP port the server listens on (0 until started)."""
        self.user: str | None = None
        """The OS user the server runs as (None: this process's own)."""
        self._bin: Path | None = None

    # where things are

    def _path(self, *parts: str) -> Path:
        if self.root is None:
            raise PostgresError("the cluster is not started")
        return self.root.joinpath(*parts)

    @property
    def data_dir(self) -> Path:
        return self._path("data")

    @property
    def socket_dir(self) -> Path:
        return self._path("run")

    @property
    def log_file(self) -> Path:
        return self._path("log", "postgres.log")

    def dsn(self, dbname: str = "postgres") -> str:
        """The libpq URL of `dbname` on this cluster, as the superuser over loopback TCP."""
        if not self.port:
            raise PostgresError("the cluster is not started")
        return f"postgresql://{SUPERUSER}@{LOOPBACK}:{self.port}/{dbname}"

    # lifecycle

    def start(self) -> None:
        """Install if needed, initdb a fresh folder and start the server; return once it accepts connections.

        On failure the folder is removed and PostgresError carries the server log's tail.
        """
        if self.root is not None:
            raise PostgresError(f"the cluster in {self.root} is already started")
        self._bin = ensure_postgres(self.lib)
        self.user = _server_user()
        root = Path(tempfile.mkdtemp(prefix="pgcluster-", dir=self.parent if self.parent is not None else "/tmp"))
        self.root = root
        try:
            if any(c.isspace() for c in str(root)) or len(str(root)) > _MAX_ROOT_LEN:
                raise PostgresError(f"root {root} must be short (<= {_MAX_ROOT_LEN}) and free of whitespace")
            for sub in ("run", "log"):
                (root / sub).mkdir(mode=0o700)
            if self.user is not None:
                entry = pwd.getpwnam(self.user)
                for path in (root, root / "run", root / "log"):
                    os.chown(path, entry.pw_uid, entry.pw_gid)
            self._as_server_user(
                [
                    str(self._bin / "initdb"), "-D", str(self.data_dir), "-U", SUPERUSER,
                    "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync",
                ],
                what="initdb",
            )  # fmt: skip
            self._start_server()
        except BaseException:
            with contextlib.suppress(PostgresError):
                self._stop_server()
            shutil.rmtree(root, ignore_errors=True)
            self.root, self.port = None, 0
            raise

    def pause(self) -> None:
        """Stop the server (fast: every session ends), keeping its files and port for `resume`."""
        self._stop_server()

    def resume(self) -> None:
        """Start a server `pause` stopped again, on the same port (clients' DSNs stay right)."""
        self._start_server(port=self.port)

    def _start_server(self, port: int | None = None) -> None:
        for attempt in range(1, START_ATTEMPTS + 1):
            port = port or free_port()
            self._write_settings(port)
            out = self._as_server_user(
                [
                    str(self._pg_ctl), "start", "-D", str(self.data_dir), "-l", str(self.log_file),
                    "-w", "-t", str(START_TIMEOUT_S),
                ],
                what="pg_ctl start",
                check=False,
            )  # fmt: skip
            if out.returncode == 0:
                self.port = port
                return
            # Someone took the port between free_port() and the server's bind: try another.
            if attempt == START_ATTEMPTS or "could not bind" not in self.log_tail():
                raise PostgresError(
                    f"pg_ctl start exited {out.returncode}: {out.stdout}{out.stderr}\n{self.log_tail()}"
                )

    def _write_settings(self, port: int) -> None:
        # postgresql.auto.conf is read last and wins; rewritten whole on every start attempt.
        base = DURABLE_SETTINGS if self.durable else SETTINGS
        settings = {**base, "port": str(port), "unix_socket_directories": str(self.socket_dir)}
        lines = [f"{name} = '{value}'" for name, value in settings.items()]
        path = self.data_dir / "postgresql.auto.conf"
        path.write_text("# Written by tests/postgres.py\n" + "\n".join(lines) + "\n")  # keeps initdb's owner

    def stop(self) -> None:
        """Stop the server (fast mode: open sessions are ended) and remove the folder.

        Safe on a cluster that never started or is already stopped. If the server will not
        stop, raises and keeps the folder: its log is the evidence.
        """
        if self.root is None:
            return
        self._stop_server()
        shutil.rmtree(self.root, ignore_errors=True)
        self.root, self.port = None, 0

    def _stop_server(self) -> None:
        if self.root is None or not (self.data_dir / "postmaster.pid").exists():
            return
        out = self._as_server_user(
            [str(self._pg_ctl), "stop", "-D", str(self.data_dir), "-m", "fast", "-w", "-t", str(START_TIMEOUT_S)],
            what="pg_ctl stop",
            check=False,
        )
        if out.returncode != 0:
            raise PostgresError(f"pg_ctl stop exited {out.returncode}: {out.stdout}{out.stderr}\n{self.log_tail()}")

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    # databases

    def create_database(self, name: str) -> str:
        """Create the empty database `name` (lowercase letters, digits, `_`); return its DSN."""
        self._admin(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(_checked(name))))
        return self.dsn(name)

    def drop_database(self, name: str) -> None:
        """Drop `name`, ending any session still connected to it (a test that failed mid-way); no-op when absent."""
        self._admin(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(_checked(name))))

    def databases(self) -> set[str]:
        """Names of the databases in the cluster, templates excepted."""
        with psycopg.connect(self.dsn(), autocommit=True) as conn:
            rows = conn.execute("SELECT datname FROM pg_database WHERE NOT datistemplate").fetchall()
        return {row[0] for row in rows}

    def _admin(self, statement: sql.Composed) -> None:
        # CREATE/DROP DATABASE cannot run inside a transaction block: autocommit.
        with psycopg.connect(self.dsn(), autocommit=True) as conn:
            conn.execute(statement)

    # plumbing

    @property
    def _pg_ctl(self) -> Path:
        assert self._bin is not None
        return self._bin / "pg_ctl"

    def log_tail(self, lines: int = LOG_TAIL_LINES) -> str:
        """The last lines of the server log, for error messages."""
        try:
            text = self.log_file.read_text(errors="replace").splitlines()[-lines:]
        except (FileNotFoundError, PostgresError):
            text = ["(no log yet)"]
        return f"--- {self.log_file if self.root else 'postgres.log'} ---\n" + "\n".join(text)

    def _as_server_user(self, argv: list[str], *, what: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        if self.user is not None:
            argv = ["runuser", "-u", self.user, "--", *argv]
        # pg_ctl's server inherits no pipe of ours (its output goes to -l), so capturing is safe;
        # cwd: the server user may not be allowed into ours.
        out = _run(argv, cwd=self.root, check=False)
        if check and out.returncode != 0:
            raise PostgresError(f"{what} exited {out.returncode}:\n{out.stdout}{out.stderr}")
        return out


def _checked(name: str) -> str:
    if not _DBNAME_RE.match(name):
        raise ValueError(f"database name {name!r} must be 1-63 lowercase letters, digits or '_'")
    return name


def _run(
    argv: list[str],
    *,
    check: bool = True,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
    timeout: float = COMMAND_TIMEOUT,
) -> subprocess.CompletedProcess[str]:
    out = subprocess.run(
        argv, stdin=subprocess.DEVNULL, capture_output=True, text=True, env=env, cwd=cwd, timeout=timeout, check=False
    )
    if check and out.returncode != 0:
        raise PostgresError(f"{' '.join(argv)} exited {out.returncode}:\n{out.stdout}{out.stderr}")
    return out
