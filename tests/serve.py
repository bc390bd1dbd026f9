"""`python -m gateway serve` as a separate process: started, killed and restarted on one data dir.

Fault tests (tests/test_faults.py), the secrets scan (tests/test_secrets.py) and the soak
(bench/soak.py) need the real process: SIGKILL, a restart on the same files, and every line
it writes. Output goes to files (appended across restarts) so nothing is lost with the process.
"""

from __future__ import annotations

import os
import signal
import smtplib
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, Self

import httpx

from tests.mailstack import free_port

ROOT = Path(__file__).resolve().parents[1]
START_TIMEOUT = 30.0
"""Seconds a start may take on a loaded 2-core machine (a rebuild of a small index included)."""
STOP_TIMEOUT = 20.0


class Unavailable(Exception):
    """The gateway answered 503 (with Retry-After): not ready yet, not broken."""


def wait_until(condition: Callable[[], bool], timeout: float, what: str | Callable[[], str]) -> None:
    """Poll `condition` until it holds; raise AssertionError naming `what` after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what if isinstance(what, str) else what()}")
        time.sleep(0.05)


class ServeProcess:
    """One gateway process at a time over `data_dir`, on ports kept across restarts.

    `env` adds AGENTMAIL_* settings (the caller's AGENTMAIL_* variables are dropped); output is
    appended to `log_dir/serve.stdout` and `log_dir/serve.stderr`.
    """

    def __init__(
        self,
        data_dir: Path,
        log_dir: Path,
        *,
        domain: str = "agents.test",
        env: Mapping[str, str] | None = None,
        admin_token: str | None = None,
        python_args: Sequence[str] = (),
    ) -> None:
        self.python_args = list(python_args)
        """Inserted before `-m gateway`, e.g. `-m cProfile -o FILE` (bench/soak.py --profile)."""
        self.data_dir = data_dir
        self.log_dir = log_dir
        self.domain = domain
        self.admin_token = admin_token
        self.http_port, self.smtp_port = free_port(), free_port()
        self.extra_env = dict(env or {})
        self.proc: subprocess.Popen[bytes] | None = None
        log_dir.mkdir(parents=True, exist_ok=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.http_port}"

    @property
    def stdout_path(self) -> Path:
        return self.log_dir / "serve.stdout"

    @property
    def stderr_path(self) -> Path:
        return self.log_dir / "serve.stderr"

    def output(self) -> str:
        """Everything every run wrote so far, stdout then stderr."""
        return "".join(p.read_text(errors="replace") for p in (self.stdout_path, self.stderr_path) if p.exists())

    def env(self) -> dict[str, str]:
        """The process environment: ours without AGENTMAIL_*, this worktree first on PYTHONPATH."""
        env = {k: v for k, v in os.environ.items() if not k.startswith("AGENTMAIL_")}
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
        if self.admin_token is not None:
            env["AGENTMAIL_ADMIN_TOKEN"] = self.admin_token
        env.update(self.extra_env)
        return env

    def start(self) -> None:
        """Start the process and return once /health answers 200 (raises with its output if it dies)."""
        assert self.proc is None or self.proc.poll() is not None, "already running"
        argv = [
            sys.executable,
            *self.python_args,
            "-m",
            "gateway",
            "serve",
            "--env-file",
            str(self.log_dir / "no-such.env"),
            "--data-dir",
            str(self.data_dir),
            "--http-port",
            str(self.http_port),
            "--smtp-port",
            str(self.smtp_port),
            "--domain",
            self.domain,
        ]
        with self.stdout_path.open("ab") as out, self.stderr_path.open("ab") as err:
            self.proc = subprocess.Popen(argv, env=self.env(), stdout=out, stderr=err, cwd=self.log_dir)
        proc = self.proc

        def healthy() -> bool:
            if proc.poll() is not None:
                raise AssertionError(f"serve exited {proc.returncode}:\n{self.output()[-4000:]}")
            try:
                return httpx.get(f"{self.base_url}/health", timeout=2).status_code == 200
            except httpx.TransportError:
                return False

        wait_until(healthy, START_TIMEOUT, lambda: f"serve to answer /health:\n{self.output()[-4000:]}")

    def kill(self) -> None:
        """SIGKILL: no lifespan shutdown, no flush, as a crash or the OOM killer would."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=STOP_TIMEOUT)

    def stop(self) -> int:
        """Ctrl-C and wait; returns the exit status (SIGKILL if it does not stop in time)."""
        proc = self.proc
        if proc is None or proc.poll() is not None:
            return proc.returncode if proc is not None else 0
        proc.send_signal(signal.SIGINT)
        try:
            return proc.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError(f"serve ignored SIGINT for {STOP_TIMEOUT}s:\n{self.output()[-4000:]}") from None

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if exc_type is None:
            self.stop()
        else:
            self.kill()

    # -- clients -------------------------------------------------------------------------------

    def client(self, token: str | None = None, **kwargs: Any) -> httpx.Client:
        """A client of this gateway sending `token` (default: the admin token, if known)."""
        token = token or self.admin_token
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        kwargs.setdefault("timeout", 10)
        return httpx.Client(base_url=self.base_url, headers=headers, **kwargs)

    def smtp(self) -> smtplib.SMTP:
        """A connected SMTP client of the embedded intake."""
        return smtplib.SMTP("127.0.0.1", self.smtp_port, timeout=10)

    def listing(self, client: httpx.Client, address: str) -> Iterator[dict[str, Any]]:
        """Every summary of `address`'s listing, newest first, page by page (asserts 200 each)."""
        params: dict[str, Any] = {"limit": 200}
        for _ in range(10_000):  # bounded: a page is never empty while next_before_id is set
            response = client.get(f"/v1/identities/{address}/messages", params=params)
            if response.status_code == 503:  # e.g. an index rebuild in progress: ask again
                raise Unavailable(response.text)
            assert response.status_code == 200, response.text
            page = response.json()
            yield from page["messages"]
            if page["next_before_id"] is None:
                return
            params["before_id"] = page["next_before_id"]
        raise AssertionError("listing never ended")
