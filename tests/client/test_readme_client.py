"""README's client example (the first ```python block of "## Signup tests") runs as written.

It runs as a script in its own process against a real `python -m gateway serve`, configured only
through AGENTMAIL_URL and AGENTMAIL_TOKEN as the README says; the test plays the app that
mails the code, then checks the identity was deleted when the `with` block ended.
"""

from __future__ import annotations

import os
import re
import smtplib
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.client.test_signup_docs import ROOT, signup_section
from tests.serve import ServeProcess

ADMIN = "readme-client-admin-token-0123456789abcdef"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[ServeProcess]:
    with ServeProcess(tmp_path / "data", tmp_path / "logs", domain="shop.test", admin_token=ADMIN) as gateway:
        yield gateway


def client_example() -> str:
    blocks = re.findall(r"^```python\n(.*?)^```", signup_section((ROOT / "README.md").read_text()), re.M | re.S)
    assert blocks, "the Signup tests section lost its examples"
    assert "def test_" not in blocks[0], "the first example should be the client script"
    return str(blocks[0])


def test_the_client_example_runs_as_written(served: ServeProcess, tmp_path: Path) -> None:
    script = tmp_path / "example.py"
    script.write_text(client_example())
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGENTMAIL_")}
    env |= {"AGENTMAIL_URL": served.base_url, "AGENTMAIL_TOKEN": ADMIN, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, str(script)], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()  # blocks until the example printed its address (or died)
        match = re.fullmatch(r"sign up with (\S+@shop\.test)\n", first)
        assert match, f"unexpected first line {first!r}; stderr: {proc.stderr.read() if proc.stderr else ''}"
        address = match.group(1)
        with smtplib.SMTP("127.0.0.1", served.smtp_port) as smtp:
            smtp.sendmail(
                "hello@shop.example",
                [address],
                f"From: hello@shop.example\r\nTo: {address}\r\nSubject: Your code\r\n\r\n"
                "Your verification code is 482913.\r\n".encode(),
            )
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert (proc.returncode, out, err) == (0, "code: 482913\n", "")
    listed = httpx.get(f"{served.base_url}/v1/identities", headers={"Authorization": f"Bearer {ADMIN}"}).json()
    assert address not in {i["address"] for i in listed["identities"]}, "the with block did not delete it"
