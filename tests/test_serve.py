"""`agentmail-gateway serve` as a user runs it: a real process, its output, Ctrl-C."""

from __future__ import annotations

import os
import signal
import socket
import stat
import subprocess
import sys
from pathlib import Path

import httpx


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
