"""`agentmail-gateway serve` as a user runs it: a real process, its output, Ctrl-C."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import select
import signal
import smtplib
import socket
import sqlite3
import stat
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from gateway.config import Settings
from tests.conftest import DOMAIN, make_message, run_gateway
from tests.intake.conftest import loop_factories
from tests.store.conftest import flip_in_btree


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_serve_prints_where_it_listens_generates_admin_token_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    data = tmp_path / "data"
    http_port, smtp_port = _free_port(), _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGENTMAIL_")}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gateway",
            "serve",
            "--env-file",
            str(tmp_path / "none"),
            "--data-dir",
            str(data),
            "--http-port",
            str(http_port),
            "--smtp-port",
            str(smtp_port),
            "--domain",
            "serve.test",
        ],
        env=env,
        stdout=subprocess.PIPE,  # uvicorn's access log
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stderr is not None
        seen = []
        for line in proc.stderr:  # blocks until the next line: no sleeping, no polling
            seen.append(line)
            if ": API on http://" in line:  # the banner, printed once everything listens
                break
        output = "".join(seen)
        assert "Uvicorn running on" in output
        assert f"API on http://127.0.0.1:{http_port}" in output
        assert f"SMTP intake listening on 127.0.0.1:{smtp_port}" in output

        token_file = data / "admin-token"
        assert str(token_file) in output
        assert stat.S_IMODE(token_file.stat().st_mode) == 0o600
        token = token_file.read_text().strip()
        assert token.startswith("am_") and token not in output

        health = httpx.get(f"http://127.0.0.1:{http_port}/health")
        assert health.json() == {"status": "ok", "source": "local", "mailbox": "ok"}
        created = httpx.post(
            f"http://127.0.0.1:{http_port}/v1/identities",
            json={"local_part": "first"},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert created.status_code == 201
        # A token pasted into a URL is refused, and the access log keeps no query values.
        pasted = httpx.get(f"http://127.0.0.1:{http_port}/ui/login", params={"token": token, "view": "text"})
        assert pasted.status_code == 400
        # No proxy is trusted by default: a client's X-Forwarded-For never names it in the log.
        forged = httpx.get(f"http://127.0.0.1:{http_port}/health", headers={"X-Forwarded-For": "forged-client"})
        assert forged.status_code == 200
    finally:
        proc.send_signal(signal.SIGINT)
        access, rest = proc.communicate(timeout=20)
    assert proc.returncode == 0, rest
    assert "Traceback" not in rest
    assert '"GET /ui/login?token&view HTTP/1.1" 400' in access, access
    assert token not in output + rest + access
    assert "forged-client" not in access and "127.0.0.1:" in access, access


def test_with_port_0_the_banner_shows_the_ports_bound(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGENTMAIL_")}
    argv = [sys.executable, "-m", "gateway", "serve", "--env-file", str(tmp_path / "none")]
    argv += ["--data-dir", str(tmp_path / "data"), "--http-port", "0", "--smtp-port", "0", "--domain", "serve.test"]
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        banner = next((line for line in proc.stderr if ": API on http://" in line), "")  # blocks line by line
        found = re.search(r"API on http://127\.0\.0\.1:(\d+)  SMTP on 127\.0\.0\.1:(\d+)  domain serve\.test", banner)
        assert found, banner
        http_port, smtp_port = int(found[1]), int(found[2])
        assert http_port != 0 and smtp_port != 0
        assert httpx.get(f"http://127.0.0.1:{http_port}/health").status_code == 200
        with smtplib.SMTP("127.0.0.1", smtp_port, timeout=10) as smtp:
            assert smtp.noop()[0] == 250
    finally:
        proc.send_signal(signal.SIGINT)
        _, rest = proc.communicate(timeout=20)
    assert proc.returncode == 0, rest


# --- hostile clients against a real `serve` ---------------------------------------------------


class _Served:
    """A `python -m gateway serve` process with its whole output in files (read, never piped)."""

    def __init__(self, tmp_path: Path, **settings: str) -> None:
        self.data = tmp_path / "data"
        self.http_port, self.smtp_port = _free_port(), _free_port()
        self.out_path, self.err_path = tmp_path / "stdout.log", tmp_path / "stderr.log"
        flags = ["--env-file", str(tmp_path / "none"), "--data-dir", str(self.data), "--domain", "serve.test"]
        flags += ["--http-port", str(self.http_port), "--smtp-port", str(self.smtp_port)]
        for name, value in settings.items():
            flags += ["--" + name.replace("_", "-"), value]
        env = {k: v for k, v in os.environ.items() if not k.startswith("AGENTMAIL_")}
        with self.out_path.open("wb") as out, self.err_path.open("wb") as err:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "gateway", "serve", *flags], env=env, stdout=out, stderr=err
            )
        self.url = f"http://127.0.0.1:{self.http_port}"
        self.wait_for_log("Uvicorn running on")
        self.admin = (self.data / "admin-token").read_text().strip()

    def log(self) -> str:
        """Everything the process has written so far (access log and application log)."""
        return self.out_path.read_text(errors="replace") + self.err_path.read_text(errors="replace")

    def wait_for_log(self, text: str) -> None:
        deadline = time.monotonic() + 30
        while text not in self.log():
            assert self.proc.poll() is None, self.log()
            assert time.monotonic() < deadline, f"{text!r} never logged:\n{self.log()}"
            time.sleep(0.05)  # polling a file for a condition, with a deadline

    def identity(self, local_part: str) -> tuple[str, str]:
        created = httpx.post(
            f"{self.url}/v1/identities",
            json={"local_part": local_part},
            headers={"Authorization": f"Bearer {self.admin}"},
        )
        assert created.status_code == 201, created.text
        return created.json()["address"], created.json()["token"]

    def raw(self) -> socket.socket:
        sock = socket.create_connection(("127.0.0.1", self.http_port), timeout=10)
        return sock

    def stop(self) -> str:
        self.proc.send_signal(signal.SIGINT)
        self.proc.wait(timeout=20)
        return self.log()


def _read_until_closed(sock: socket.socket, limit: float = 10) -> bytes:
    """What the server sends until it closes the connection (socket.timeout: it did not, within `limit` s)."""
    sock.settimeout(limit)
    received = b""
    while chunk := sock.recv(65536):
        received += chunk
    return received


def _trickled(sock: socket.socket, data: bytes) -> bytes:
    """Send `data` a byte at a time, 20 a second (the attack itself); the answer once the server hangs up."""
    for byte in data:
        try:
            sock.sendall(bytes([byte]))
        except ConnectionError:
            break
        readable, _, _ = select.select([sock], [], [], 0.05)  # the pace, and a look for an answer
        if readable:
            return _read_until_closed(sock)
    raise AssertionError(f"the server read a {len(data)}-byte trickle to the end")


def test_tokens_never_reach_the_log_and_ui_refuses_token_shaped_urls(tmp_path: Path) -> None:
    served = _Served(tmp_path)
    try:
        _, token = served.identity("leaky")
        # 1. in the URL path; 2. as a bare query key; 3. as a value under an innocent name;
        # 4. in X-Forwarded-For (uvicorn logs it as the client when it trusts the peer).
        in_path = httpx.get(f"{served.url}/v1/{token}")
        assert in_path.status_code in (401, 404)
        bare = httpx.get(f"{served.url}/ui/login?{token}")
        named = httpx.get(f"{served.url}/ui/login", params={"t": token})
        spelt = httpx.get(f"{served.url}/ui/login?%61m_{token[3:]}")  # `a` percent-encoded
        encoded = httpx.get(f"{served.url}/ui/identities?next=%61m_{token[3:]}")
        for refused in (bare, named, spelt, encoded):
            assert refused.status_code == 400, (refused.request.url, refused.status_code)
            assert token not in refused.text and "rotate it" in refused.text
        forwarded = httpx.get(f"{served.url}/health", headers={"X-Forwarded-For": token})
        assert forwarded.status_code == 200
        served.wait_for_log("/health")
    finally:
        log = served.stop()
    assert token[3:23] not in log  # not the token, nor a piece of its random part, however spelt
    # The lines were written, with the token replaced: redacted, not merely unlogged.
    assert "GET /v1/am_[hidden] HTTP/1.1" in log, log
    assert "GET /ui/login?am_[hidden] HTTP/1.1" in log, log


def test_idle_and_slow_loris_connections_are_closed(tmp_path: Path) -> None:
    served = _Served(tmp_path, http_header_timeout="1s", http_body_timeout="1s")
    try:
        # Connected, never a byte: closed (quietly) by the header clock.
        with served.raw() as idle:
            assert _read_until_closed(idle) == b""
        # A request line and headers trickled: bytes do not restart the clock; 408, closed.
        with served.raw() as loris:
            assert _trickled(loris, b"GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 400).startswith(
                b"HTTP/1.1 408 "
            )
        # A body that stops half-way: 408, closed; the request is dropped, not failed.
        with served.raw() as stalled:
            stalled.sendall(
                b"POST /v1/identities HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                b"Authorization: Bearer " + served.admin.encode() + b'\r\nContent-Length: 100\r\n\r\n{"local'
            )
            answer = _read_until_closed(stalled)
            assert answer.startswith(b"HTTP/1.1 408 ") and answer.endswith(
                b'{"error":"timeout","detail":"the request was not sent in time"}'
            )
        # A keep-alive connection after its answer: closed too (the next head is due within the timeout).
        with served.raw() as kept:
            kept.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            assert b" 200 OK" in _read_until_closed(kept)
        # The gateway still serves.
        assert httpx.get(f"{served.url}/health").status_code == 200
    finally:
        log = served.stop()
    assert "Traceback" not in log and " 500" not in log and "ERROR" not in log, log


def test_a_client_aborting_mid_body_is_a_quiet_line_not_a_500(tmp_path: Path) -> None:
    served = _Served(tmp_path)
    try:
        with served.raw() as aborting:
            aborting.sendall(
                b"POST /v1/identities HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                b"Authorization: Bearer " + served.admin.encode() + b'\r\nContent-Length: 5000\r\n\r\n{"local'
            )
        served.wait_for_log("its body ended early")
        assert httpx.get(f"{served.url}/health").status_code == 200
    finally:
        log = served.stop()
    assert "ERROR" not in log and " 500" not in log and "Traceback" not in log, log
    assert "INFO gateway.api.hangups: POST /v1/identities: dropped, its body ended early" in log


def test_connection_cap_answers_503_and_recovers(tmp_path: Path) -> None:
    cap = 6
    served = _Served(tmp_path, http_max_connections=str(cap))
    held: list[socket.socket] = []
    try:
        address, token = served.identity("capped")
        for _ in range(cap):  # open waits: each holds a connection, the cap is full
            sock = served.raw()
            held.append(sock)
            sock.sendall(
                f"GET /v1/identities/{address}/wait?timeout=60 HTTP/1.1\r\nHost: x\r\n"
                f"Authorization: Bearer {token}\r\n\r\n".encode()
            )
        deadline = time.monotonic() + 10
        while (refused := httpx.get(f"{served.url}/health")).status_code != 503:  # until the server saw them all
            assert refused.status_code == 200 and time.monotonic() < deadline, "no 503 over the connection cap"
        assert refused.headers["Retry-After"] == "1" and refused.headers["Connection"] == "close"
        assert refused.json()["error"] == "over_capacity", refused.text
        for sock in held:
            sock.close()  # (closing twice is harmless)
        deadline = time.monotonic() + 10
        while httpx.get(f"{served.url}/health").status_code != 200:
            assert time.monotonic() < deadline, "the cap did not recover once connections closed"
    finally:
        for sock in held:
            sock.close()
        served.stop()


@pytest.mark.parametrize("limit", ["wait_max_per_address", "wait_max_total"])
def test_too_many_waits_and_streams_get_429_not_a_hang(tmp_path: Path, limit: str) -> None:
    """Two open (a wait and an event stream), the limit 2: a third of either is refused at once."""
    served = _Served(tmp_path, **{limit: "2"})
    held: list[socket.socket] = []
    try:
        first, first_token = served.identity("crowded")
        # Over the total, the third comes from another identity: the limit is the gateway's.
        third, token = (first, first_token) if limit == "wait_max_per_address" else served.identity("other")
        for path in (f"/v1/identities/{first}/wait?timeout=60", f"/v1/identities/{first}/events"):
            sock = served.raw()
            held.append(sock)
            sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {first_token}\r\n\r\n".encode())
        headers = {"Authorization": f"Bearer {token}"}
        deadline = time.monotonic() + 10
        while True:  # refused at once (the short timeout only covers the race with the first two)
            over = httpx.get(f"{served.url}/v1/identities/{third}/wait", params={"timeout": 1}, headers=headers)
            if over.status_code == 429:
                break
            assert over.status_code == 408 and time.monotonic() < deadline, over.text
        assert over.headers["Retry-After"] and over.json()["error"] == "rate_limited"
        stream = httpx.get(f"{served.url}/v1/identities/{third}/events", headers=headers, timeout=10)
        assert stream.status_code == 429
    finally:
        for sock in held:
            sock.close()
        served.stop()


# --- a store that cannot be trusted: the process refuses to start -----------------------


def _flipped_byte_in_a_name(data: Path) -> None:
    flip_in_btree(data / "identities.db", "identities", b"alice")  # passes quick_check


def _garbled_page(data: Path) -> None:
    path = data / "identities.db"
    with contextlib.closing(sqlite3.connect(path)) as conn:
        (page_size,) = conn.execute("PRAGMA page_size").fetchone()
        (root,) = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'identities'").fetchone()
    raw = bytearray(path.read_bytes())
    raw[(root - 1) * page_size : root * page_size] = b"\xa5" * page_size
    path.write_bytes(bytes(raw))


def _truncated(data: Path) -> None:
    path = data / "identities.db"
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def _foreign_file(data: Path) -> None:
    (data / "identities.db").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 64)


def _other_apps_database(data: Path) -> None:
    path = data / "identities.db"
    path.unlink()
    with contextlib.closing(sqlite3.connect(path)) as conn:
        conn.execute("CREATE TABLE users (name TEXT)")
        conn.commit()


def _directory(data: Path) -> None:
    (data / "identities.db").unlink()
    (data / "identities.db").mkdir()


def _missing(data: Path) -> None:
    (data / "identities.db").unlink()  # the index, the Maildir and the admin token stay


async def _populate(settings: Settings) -> None:
    """A data directory a real gateway used: a generated admin token, identities, mail."""
    async with run_gateway(settings) as gateway:
        for name in ("alice", "bobby"):
            await gateway.gw.store.identities.create(name)
        await gateway.send(make_message(to=f"alice@{DOMAIN}"), [f"alice@{DOMAIN}"])


@pytest.mark.parametrize(
    ("spoil", "why"),
    [
        pytest.param(_flipped_byte_in_a_name, "failed its integrity check", id="flipped-byte-in-a-name"),
        pytest.param(_garbled_page, "corrupt", id="garbled-page"),
        pytest.param(_truncated, "corrupt", id="truncated"),
        pytest.param(_foreign_file, "corrupt", id="foreign-file"),
        pytest.param(_other_apps_database, "not ours", id="other-apps-sqlite"),
        pytest.param(_directory, "cannot be opened", id="directory"),
        pytest.param(_missing, "store init --new", id="missing-beside-index-and-mailbox"),
    ],
)
def test_serve_refuses_a_store_it_cannot_trust(
    tmp_path: Path, make_settings: Callable[..., Settings], spoil: Callable[[Path], None], why: str
) -> None:
    settings = make_settings(admin_token=None)
    data = settings.data_dir
    asyncio.run(_populate(settings))
    admin = (data / "admin-token").read_bytes()
    spoil(data)
    before = sorted((p.name, p.is_dir(), p.read_bytes() if p.is_file() else b"") for p in data.glob("identities.db*"))

    command = [sys.executable, "-m", "gateway", "serve", "--env-file", str(tmp_path / "none")]
    with subprocess.Popen(
        [*command, "--data-dir", str(data), "--http-port", "0", "--smtp-port", "0", "--domain", DOMAIN],
        env={k: v for k, v in os.environ.items() if not k.startswith("AGENTMAIL_")},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    ) as proc:
        assert proc.stderr is not None
        lines = []
        for line in proc.stderr:  # until it exits (EOF), or says it serves: never a fixed wait
            lines.append(line)
            if "Uvicorn running on" in line:
                proc.send_signal(signal.SIGINT)
                proc.communicate(timeout=20)
                pytest.fail("the gateway started on a store it cannot trust:\n" + "".join(lines))
        code = proc.wait(timeout=20)
    output = "".join(lines)
    assert code == 2, output
    assert output.startswith("agentmail-gateway: ") and why in output, output
    assert "Traceback" not in output
    assert (data / "admin-token").read_bytes() == admin  # never rewritten
    after = sorted((p.name, p.is_dir(), p.read_bytes() if p.is_file() else b"") for p in data.glob("identities.db*"))
    assert after == before  # left exactly as found: nothing made, nothing repaired


# --- the event loop (AGENTMAIL_LOOP) ------------------------------------------------------------

_LOOPS_HERE = list(loop_factories())
"""The loops importable here: asyncio always, uvloop where installed (tests/intake/conftest.py)."""


@pytest.mark.parametrize(
    ("setting", "expected"),
    [(name, name) for name in _LOOPS_HERE] + [("auto", "uvloop" if "uvloop" in _LOOPS_HERE else "asyncio")],
)
def test_serve_runs_on_the_loop_agentmail_loop_names(tmp_path: Path, setting: str, expected: str) -> None:
    served = _Served(tmp_path, loop=setting)
    try:
        # Logged from inside the running loop (the one the lifespan starts the SMTP intake on).
        found = re.search(r"event loop: (\w+) \(([\w.]+)\)", served.log())
        assert found, served.log()
        assert found[1] == expected, found[0]
        assert found[2].startswith("uvloop." if expected == "uvloop" else "asyncio."), found[0]
        address, token = served.identity("loop")
        with smtplib.SMTP("127.0.0.1", served.smtp_port, timeout=10) as smtp:
            smtp.sendmail("a@example.com", [address], make_message(to=address, subject=f"on {setting}").as_bytes())
        listing = httpx.get(
            f"{served.url}/v1/identities/{address}/messages", headers={"Authorization": f"Bearer {token}"}
        )
        assert listing.status_code == 200 and listing.json()["messages"], listing.text
    finally:
        log = served.stop()
    assert served.proc.returncode == 0, log


def test_asking_for_uvloop_without_it_stops_the_start_with_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from gateway.cli import main

    monkeypatch.setitem(sys.modules, "uvloop", None)  # `import uvloop` now raises ImportError
    data = tmp_path / "data"
    argv = ["serve", "--env-file", str(tmp_path / "none"), "--data-dir", str(data), "--loop", "uvloop"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "AGENTMAIL_LOOP='uvloop': uvloop cannot be imported" in err, err
    assert not data.exists(), "nothing is opened or created before the loop is known"


def test_uvloop_is_installed_wherever_pyproject_declares_it() -> None:
    import tomllib

    from packaging.requirements import Requirement

    pyproject = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())
    (uvloop,) = [Requirement(r) for r in pyproject["project"]["dependencies"] if r.startswith("uvloop")]
    assert uvloop.marker is not None and not uvloop.marker.evaluate({"sys_platform": "win32"})
    if uvloop.marker.evaluate():
        assert "uvloop" in _LOOPS_HERE, "uvloop is a dependency on this platform but cannot be imported"
