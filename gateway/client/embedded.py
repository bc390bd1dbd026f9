"""A throwaway gateway for a test session: `python -m gateway serve` in a child process.

    with EmbeddedGateway() as embedded, embedded.client() as gw:
        me = gw.create_identity()
        smtplib.SMTP(gw.smtp_host, gw.smtp_port).sendmail(..., [me.address], ...)

The child gets a fresh data directory, free loopback ports for HTTP and SMTP, a random admin
token (in its environment, never on its command line) and none of the caller's AGENTMAIL_*
settings or .env file, so it is the same on every machine. It stops with the parent: SIGTERM
then SIGKILL at :meth:`EmbeddedGateway.stop`, and by itself when the parent dies (it watches
its stdin, a pipe from the parent, for end of file). This is what the pytest plugin's
`agentmail` fixture starts when no gateway is configured.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from types import TracebackType
from typing import IO, Final, Self

from gateway.client.sync import Gateway

__all__ = ["DEFAULT_DOMAIN", "EmbeddedGateway", "EmbeddedGatewayError", "SessionGateway"]

DEFAULT_DOMAIN: Final = "agentmail.test"
"""The embedded gateway's mail domain unless AGENTMAIL_DOMAIN names another (`.test` is reserved for tests)."""
START_TIMEOUT: Final = 60.0
"""Seconds the child may take to answer /health (a cold start on a loaded two-core CI box takes a few)."""
STOP_TIMEOUT: Final = 15.0
"""Seconds between SIGTERM and SIGKILL."""
PORT_TRIES: Final = 3
"""Starts tried when the free ports picked were taken by someone else before the child bound them."""
STDERR_TAIL: Final = 4000
"""Characters of the child's output an error shows."""


class EmbeddedGatewayError(RuntimeError):
    """The embedded gateway did not start (or died); the message ends with the tail of its output."""


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class SessionGateway(Gateway):
    """A :class:`~gateway.client.Gateway` that also says where the app under test sends mail.

    `smtp_host` / `smtp_port`: the gateway's SMTP intake; `domain`: its mail domain. Each is
    None when unknown (a remote gateway without AGENTMAIL_SMTP_HOST, AGENTMAIL_SMTP_PORT or
    AGENTMAIL_DOMAIN set); `embedded` says whether the plugin started it for this session.
    """

    def __init__(
        self,
        url: str | None = None,
        token: str | None = None,
        *,
        smtp_host: str | None = None,
        smtp_port: int | None = None,
        domain: str | None = None,
        embedded: bool = False,
        timeout: float = 10.0,
    ) -> None:
        super().__init__(url, token, timeout=timeout)
        self.smtp_host = smtp_host
        self.smtp_port = smtp_port
        self.domain = domain
        self.embedded = embedded

    def __repr__(self) -> str:
        kind = "embedded" if self.embedded else "remote"
        return f"SessionGateway({self._policy.where!r}, {kind}, smtp={self.smtp_host}:{self.smtp_port})"


class EmbeddedGateway:
    """One `python -m gateway serve` child on loopback, for as long as the `with` block (or until :meth:`stop`).

    `data_dir`: where its stores live (default: a temporary directory removed at :meth:`stop`;
    one given is kept). `domain`: its mail domain. `admin_token` is random per start and never
    shown by `repr`.
    """

    def __init__(
        self,
        *,
        domain: str = DEFAULT_DOMAIN,
        data_dir: Path | None = None,
        start_timeout: float = START_TIMEOUT,
        python: str = sys.executable,
    ) -> None:
        self.domain = domain
        self.start_timeout = start_timeout
        self.python = python
        self._given_dir = data_dir
        self._work: Path | None = None
        self.data_dir: Path | None = data_dir
        self.http_port = 0
        self.smtp_port = 0
        self.smtp_host = "127.0.0.1"
        self.admin_token = ""
        self._proc: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None

    def __repr__(self) -> str:
        state = "running" if self.running else "stopped"
        return f"EmbeddedGateway({self.url!r}, smtp={self.smtp_host}:{self.smtp_port}, {state})"

    @property
    def url(self) -> str:
        """The base URL of its API."""
        return f"http://127.0.0.1:{self.http_port}"

    @property
    def running(self) -> bool:
        """Whether the child is alive."""
        return self._proc is not None and self._proc.poll() is None

    def client(self, *, timeout: float = 10.0) -> SessionGateway:
        """A client of this gateway with its admin token, knowing its SMTP intake and domain."""
        return SessionGateway(
            self.url,
            self.admin_token,
            smtp_host=self.smtp_host,
            smtp_port=self.smtp_port,
            domain=self.domain,
            embedded=True,
            timeout=timeout,
        )

    def output(self) -> str:
        """What the child wrote so far (stdout and stderr, interleaved), for error messages."""
        if self._work is None:
            return ""
        path = self._work / "gateway.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def start(self) -> None:
        """Start the child and return once /health answers; EmbeddedGatewayError (with its output) if it cannot."""
        if self.running:
            raise EmbeddedGatewayError("the embedded gateway is already running")
        self._work = Path(tempfile.mkdtemp(prefix="agentmail-embedded-"))
        if self._given_dir is None:
            self.data_dir = self._work / "data"
        self.admin_token = "am_" + secrets.token_urlsafe(24)
        deadline = time.monotonic() + self.start_timeout
        for attempt in range(1, PORT_TRIES + 1):
            self.http_port, self.smtp_port = _free_port(), _free_port()
            self._spawn()
            try:
                self._wait_healthy(deadline)
                return
            except EmbeddedGatewayError:
                self._kill()
                in_use = "address already in use" in self.output().lower()
                if not in_use or attempt == PORT_TRIES or time.monotonic() > deadline:
                    self._cleanup()
                    raise

    def _env(self) -> dict[str, str]:
        # The child is hermetic: none of the caller's AGENTMAIL_* settings (a remote gateway's, or
        # a production data dir) reach it; the admin token goes by environment, never argv.
        env = {k: v for k, v in os.environ.items() if not k.startswith("AGENTMAIL_")}
        assert self.data_dir is not None
        env.update(
            {
                "AGENTMAIL_DATA_DIR": str(self.data_dir),
                "AGENTMAIL_DOMAIN": self.domain,
                "AGENTMAIL_HTTP_HOST": "127.0.0.1",
                "AGENTMAIL_HTTP_PORT": str(self.http_port),
                "AGENTMAIL_SMTP_HOST": self.smtp_host,
                "AGENTMAIL_SMTP_PORT": str(self.smtp_port),
                "AGENTMAIL_ADMIN_TOKEN": self.admin_token,
                "AGENTMAIL_LOG_LEVEL": "warning",
            }
        )
        return env

    def _spawn(self) -> None:
        assert self._work is not None
        if self._log is not None:
            self._log.close()
        # A file, not a pipe: a chatty child can never block on a full pipe nobody reads.
        self._log = (self._work / "gateway.log").open("ab")
        argv = [self.python, "-m", "gateway.client.embedded"]
        if self._given_dir is None:  # (a data dir the caller gave is theirs to keep)
            argv += ["--remove-when-orphaned", str(self._work)]
        argv += ["--env-file", str(self._work / "no.env")]
        self._proc = subprocess.Popen(  # noqa: S603 (our own interpreter and module)
            argv,
            env=self._env(),
            cwd=self._work,
            stdin=subprocess.PIPE,  # its end of file tells the child its parent is gone
            stdout=self._log,
            stderr=subprocess.STDOUT,
            # Its own session: a Ctrl-C in the terminal reaches pytest only, which then tears the
            # fixtures down (deleting identities) before stopping the child.
            start_new_session=True,
        )

    def _wait_healthy(self, deadline: float) -> None:
        import httpx

        proc = self._proc
        assert proc is not None
        with httpx.Client(timeout=2.0) as http:
            while True:
                if proc.poll() is not None:
                    raise EmbeddedGatewayError(self._failure(f"exited with status {proc.returncode} while starting"))
                try:
                    if http.get(f"{self.url}/health").status_code == 200:
                        return
                except httpx.TransportError:
                    pass
                if time.monotonic() > deadline:
                    raise EmbeddedGatewayError(self._failure(f"did not answer /health within {self.start_timeout:g} s"))
                time.sleep(0.05)  # polling a condition (is it up?) with the deadline above

    def _failure(self, what: str) -> str:
        tail = self.output()[-STDERR_TAIL:].replace(self.admin_token, "***") or "(it wrote nothing)"
        return f"the embedded agentmail gateway ({self.python} -m gateway serve) {what}; its output:\n{tail}"

    def _kill(self) -> None:
        proc = self._proc
        if proc is None:
            return
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=STOP_TIMEOUT)
        if proc.stdin is not None:
            proc.stdin.close()

    def _cleanup(self) -> None:
        if self._log is not None:
            self._log.close()
            self._log = None
        if self._work is not None:  # its log, and the data dir unless one was given
            shutil.rmtree(self._work, ignore_errors=True)
            self._work = None

    def stop(self) -> int | None:
        """Stop the child (SIGTERM, then SIGKILL after STOP_TIMEOUT s); its exit status, None if never started."""
        proc = self._proc
        self._kill()
        self._cleanup()
        self._proc = None
        return proc.returncode if proc is not None else None

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.stop()


def _exit_with_parent(orphaned: threading.Event) -> None:
    """SIGTERM ourselves when stdin (a pipe from the parent) ends: the parent died or let go of us."""

    def watch() -> None:
        try:
            while sys.stdin.buffer.read(4096):
                pass
        except (OSError, ValueError):
            pass
        orphaned.set()
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch, name="agentmail-parent-watch", daemon=True).start()


def main(argv: list[str] | None = None) -> int:
    """The child: `gateway serve` with the given flags, ended by SIGTERM or by its parent's death.

    `--remove-when-orphaned DIR` (first): a directory only the parent would have removed, removed
    by the child when the parent died first.
    """
    from gateway.cli import main as cli_main

    args = list(sys.argv[1:] if argv is None else argv)
    leftover = None
    if args[:1] == ["--remove-when-orphaned"]:
        leftover, args = Path(args[1]), args[2:]
    orphaned = threading.Event()
    _exit_with_parent(orphaned)
    # uvicorn re-raises the signal that stopped it once it has shut down: as an exception here
    # (not a death by signal) it lets the `finally` below run.
    signal.signal(signal.SIGTERM, _raise_exit)
    try:
        return cli_main(["serve", *args])
    finally:
        if orphaned.is_set() and leftover is not None:
            shutil.rmtree(leftover, ignore_errors=True)


def _raise_exit(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


if __name__ == "__main__":
    sys.exit(main())
