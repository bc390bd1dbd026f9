"""`agentmail-gateway serve` as a user runs it: a real process, its output, Ctrl-C."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from gateway.config import Settings
from tests.conftest import DOMAIN, make_message, run_gateway
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
            if "Uvicorn running on" in line:
                break
        output = "".join(seen)
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
    finally:
        proc.send_signal(signal.SIGINT)
        access, rest = proc.communicate(timeout=20)
    assert proc.returncode == 0, rest
    assert "Traceback" not in rest
    assert '"GET /ui/login?token&view HTTP/1.1" 400' in access, access
    assert token not in output + rest + access


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
