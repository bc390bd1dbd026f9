"""The embedded gateway the plugin starts: a hermetic child that never outlives its parent."""

from __future__ import annotations

import json
import os
import smtplib
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from gateway.client.embedded import EmbeddedGateway
from tests.serve import wait_until

ROOT = Path(__file__).resolve().parents[2]

ORPHAN = """
import json, os
from gateway.client.embedded import EmbeddedGateway
gw = EmbeddedGateway()
gw.start()
print(json.dumps({"pid": gw._proc.pid, "url": gw.url, "dir": str(gw.data_dir)}), flush=True)
os._exit(0)  # as a crash or pytest-timeout's thread method would: no teardown at all
"""


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie (exited, not yet reaped by init) counts as gone.
    stat = Path(f"/proc/{pid}/stat")
    return stat.exists() and stat.read_text().split(")")[-1].split()[0] != "Z"


@pytest.mark.timeout(120)
def test_it_serves_mail_and_stops_with_its_token_never_in_argv(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENTMAIL_DATA_DIR", "/nonexistent/of/the/user")  # the user's settings do not leak in
    with EmbeddedGateway(domain="embedded.test") as embedded, embedded.client() as gw:
        assert embedded.running and embedded.data_dir is not None and embedded.data_dir.is_dir()
        assert embedded.admin_token not in repr(embedded) and embedded.admin_token not in repr(gw)
        assert embedded._proc is not None
        argv = Path(f"/proc/{embedded._proc.pid}/cmdline").read_bytes()
        assert embedded.admin_token.encode() not in argv
        me = gw.create_identity()
        assert me.address.endswith("@embedded.test")
        with smtplib.SMTP(gw.smtp_host, gw.smtp_port, timeout=30) as smtp:  # type: ignore[arg-type]
            smtp.sendmail("a@shop.example", [me.address], b"Subject: hi\r\n\r\nYour code is 318204.\r\n")
        assert me.wait_for_code(timeout=30) == "318204"
        data_dir, url = embedded.data_dir, embedded.url
    assert not embedded.running and not data_dir.exists()
    with pytest.raises(httpx.TransportError):
        httpx.get(f"{url}/health", timeout=5)


@pytest.mark.timeout(120)
def test_it_stops_by_itself_when_its_parent_dies() -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)}
    done = subprocess.run(
        [sys.executable, "-c", ORPHAN], env=env, capture_output=True, text=True, timeout=90, check=True
    )
    child = json.loads(done.stdout)
    wait_until(lambda: not alive(child["pid"]), 60, "the orphaned gateway to stop")
    assert not Path(child["dir"]).exists()  # nor does it leave its temporary directory behind
    with pytest.raises(httpx.TransportError):
        httpx.get(f"{child['url']}/health", timeout=5)


def test_importing_the_plugin_imports_neither_httpx_nor_the_embedded_gateway() -> None:
    probe = (
        "import sys, pytest\n"
        "import gateway.client.pytest_plugin\n"
        "print([m for m in ('httpx', 'gateway.client.embedded', 'gateway.client.aio', 'gateway.app')"
        " if m in sys.modules])\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.strip() == "[]", done.stdout + done.stderr
