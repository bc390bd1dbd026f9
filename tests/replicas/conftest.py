"""Two real gateway processes over one Dovecot and one PostgreSQL database (issue 21).

Each replica is `python -m gateway serve` (tests/serve.py) with the imap source on the session's
mail stack and `AGENTMAIL_DATABASE_URL` on a fresh database of the session's PostgreSQL cluster.
Only the first hears Dovecot's push hints (Dovecot pushes to one URL); the second has none, as a
replica behind a load balancer whose push goes to another would.
"""

from __future__ import annotations

import asyncio
import os
import smtplib
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import ADMIN_TOKEN
from tests.mailstack import MailStack
from tests.serve import ServeProcess, wait_until

READY_TIMEOUT = 60.0
"""Seconds a replica may take to become ready: a fresh index catches up with the whole mailbox."""


def replica_env(stack: MailStack, dsn: str, *, push: bool) -> dict[str, str]:
    """The settings of one replica: the stack's mailbox, the shared database, the test admin token."""
    env = {k: v for k, v in stack.gateway_env().items() if k.startswith("AGENTMAIL_")}
    if not push:
        env.pop("AGENTMAIL_PUSH_LISTEN", None)
        env.pop("AGENTMAIL_PUSH_SECRET", None)
    env["AGENTMAIL_DATABASE_URL"] = dsn
    # One wait or stream per address and gateway: a test knows a wait is open there when a probe
    # `wait?timeout=0` for the same address answers 429 (`open_wait`).
    env["AGENTMAIL_WAIT_MAX_PER_ADDRESS"] = "1"
    env["AGENTMAIL_LOG_LEVEL"] = os.environ.get("DBG_LEVEL", "info")
    return env


def ready(replica: ServeProcess) -> dict[str, Any] | None:
    """The replica's /ready body when it answers 200, else None."""
    try:
        response = httpx.get(f"{replica.base_url}/ready", timeout=5)
    except httpx.TransportError:
        return None
    body: dict[str, Any] = response.json()
    return body if response.status_code == 200 else None


def roles(replicas: list[ServeProcess]) -> list[str | None]:
    """Each replica's role as its /ready says (None: not ready)."""
    return [(r or {}).get("role") for r in map(ready, replicas)]


@dataclass
class Replicas:
    """Two gateways on one store and one mailbox, and what the tests do to them."""

    stack: MailStack
    dsn: str
    gateways: list[ServeProcess]

    def reader(self) -> ServeProcess:
        """The replica that reads the mailbox now (waits until exactly one does)."""
        found: list[ServeProcess] = []

        def one_reader() -> bool:
            found[:] = [g for g, role in zip(self.gateways, roles(self.gateways), strict=True) if role == "reader"]
            return len(found) == 1

        wait_until(one_reader, READY_TIMEOUT, lambda: f"one reader among {roles(self.gateways)}")
        return found[0]

    def other(self, replica: ServeProcess) -> ServeProcess:
        (other,) = [g for g in self.gateways if g is not replica]
        return other

    def create_identity(self, replica: ServeProcess, local_part: str) -> tuple[str, str]:
        with replica.client() as client:
            response = client.post("/v1/identities", json={"local_part": local_part})
        assert response.status_code == 201, response.text
        body = response.json()
        return body["address"], body["token"]

    def send(self, mails: Sequence[tuple[str | tuple[str, ...], str]]) -> list[str]:
        """Send (recipients, subject) mails through Postfix in one session; their Message-IDs."""
        ids = []
        with smtplib.SMTP(self.stack.host, self.stack.smtp_port, timeout=30) as smtp:
            for rcpts, subject in mails:
                to = [rcpts] if isinstance(rcpts, str) else list(rcpts)
                msg = EmailMessage()
                msg["From"] = "sender@example.com"
                msg["To"] = ", ".join(to)
                msg["Subject"] = subject
                msg["Message-ID"] = f"<{subject.replace(' ', '-')}.{time.monotonic_ns()}@example.com>"
                msg.set_content(f"body of {subject}")
                smtp.send_message(msg, "sender@example.com", to)
                ids.append(msg["Message-ID"])
        return ids


def replica_processes(stack: MailStack, dsn: str, tmp_path: Path) -> list[ServeProcess]:
    """Two replicas on `stack` and the database `dsn`, not started; the first hears Dovecot's push."""
    return [
        ServeProcess(
            tmp_path / f"data-{i}",
            tmp_path / f"log-{i}",
            domain=stack.domain,
            env=replica_env(stack, dsn, push=i == 0),
            admin_token=ADMIN_TOKEN,
        )
        for i in range(2)
    ]


@pytest.fixture
def replicas(mailstack: MailStack, postgres_dsn: str, tmp_path: Path) -> Iterator[Replicas]:
    """Two replicas, both ready: one reader, one standby."""
    gateways = replica_processes(mailstack, postgres_dsn, tmp_path)
    try:
        for gateway in gateways:
            gateway.start()
        group = Replicas(mailstack, postgres_dsn, gateways)
        wait_until(lambda: None not in roles(gateways), READY_TIMEOUT, lambda: f"both ready: {roles(gateways)}")
        yield group
    finally:
        for gateway in gateways:
            gateway.kill()


async def wait_all(coroutines: list[Any]) -> list[Any]:
    """Run coroutines together; their results in order."""
    return list(await asyncio.gather(*coroutines))
