"""`gateway.client` imports nothing of the server: a test suite or script that uses it stays light."""

from __future__ import annotations

import json
import subprocess
import sys

SERVER = ("litestar", "uvicorn", "aiosmtpd", "imapclient", "nh3", "selectolax", "psycopg", "mcp")
SERVER_MODULES = ("gateway.app", "gateway.api", "gateway.store", "gateway.sources", "gateway.mail", "gateway.inbox")


def test_the_client_and_its_first_use_import_nothing_of_the_server() -> None:
    probe = (
        "import json, sys\n"
        "import gateway.client\n"
        "gateway.client.Gateway('http://127.0.0.1:9').close()\n"
        "gateway.client.AsyncGateway('http://127.0.0.1:9')\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True)
    loaded = json.loads(done.stdout)
    assert "httpx" in loaded  # the probe did make clients
    server = [m for m in loaded if m.split(".")[0] in SERVER or m.startswith(SERVER_MODULES)]
    assert server == [], server
