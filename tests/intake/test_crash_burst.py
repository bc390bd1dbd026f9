"""kill -9 in the middle of a burst over eight SMTP connections: what each 250 promised is on disk, once, whole.

The real `serve` process (tests/serve.py) on a scratch data directory, on each event loop
available (tests/intake/conftest.py). Eight smtplib clients in threads send distinct messages,
some to two recipients; the gateway is killed as soon as the clients have counted KILL_AFTER
250s, then restarted on the same directory. Checked: every file in new/ and cur/ is a whole
message that was sent; every 250'd message is there exactly once per recipient, its bytes
intact; tmp/ is empty after the start; the index lists every 250'd message exactly once.
"""

from __future__ import annotations

import os
import secrets
import smtplib
import threading
from collections import Counter
from dataclasses import dataclass, field
from email.parser import BytesHeaderParser
from email.policy import default
from pathlib import Path

import httpx
import pytest

from tests.intake.conftest import loop_factories
from tests.serve import ServeProcess, Unavailable, wait_until

DOMAIN = "agents.test"
ADMIN = "am_crash-burst-admin-token-0123456789ab"
CONNECTIONS = 8
KILL_AFTER = 300
"""250s the clients count before the kill: hundreds, so that groups of concurrent commits are in flight."""
SETTLE_TIMEOUT = 30.0
"""Seconds the restarted gateway may take to index what the Maildir holds (a loaded 2-core machine)."""


@dataclass
class Burst:
    """What was sent, and what was acknowledged, keyed by subject."""

    receivers: list[str]
    sent: dict[str, tuple[bytes, tuple[str, ...]]] = field(default_factory=dict)
    """subject → (the DATA bytes, the recipients), for every message whose DATA began."""
    accepted: set[str] = field(default_factory=set)
    lock: threading.Lock = field(default_factory=threading.Lock)
    enough: threading.Event = field(default_factory=threading.Event)
    refusals: list[str] = field(default_factory=list)


def _message(subject: str, rcpts: tuple[str, ...], conn: int, n: int) -> bytes:
    # Sizes from 1 KB to ~40 KB, random bodies: a torn write cannot pass for a whole message.
    filler = secrets.token_hex(256 + (conn * 997 + n * 131) % 20_000)
    lines = [filler[i : i + 76] for i in range(0, len(filler), 76)]
    head = (
        f"From: burst@example.com\r\nTo: {', '.join(rcpts)}\r\nSubject: {subject}\r\n"
        f"Message-ID: <{subject}@example.com>\r\n"
    )
    return (head + "\r\n" + "\r\n".join(lines) + "\r\nend of " + subject + "\r\n").encode()


def _send(gateway: ServeProcess, burst: Burst, conn: int) -> None:
    """One connection sending distinct messages until the gateway dies; records each 250."""
    own = burst.receivers[conn]
    other = burst.receivers[(conn + 1) % CONNECTIONS]
    try:
        with gateway.smtp() as client:
            for n in range(100_000):  # bounded; the kill ends it long before
                subject = f"c{conn}-{n}"
                rcpts = (own, other) if n % 4 == 3 else (own,)
                data = _message(subject, rcpts, conn, n)
                with burst.lock:
                    burst.sent[subject] = (data, rcpts)
                try:
                    client.sendmail("burst@example.com", list(rcpts), data)
                except smtplib.SMTPResponseException as exc:
                    if exc.smtp_code != 421:  # 421: the server is going away
                        burst.refusals.append(f"{subject}: {exc.smtp_code} {exc.smtp_error!r}")
                    return
                with burst.lock:
                    burst.accepted.add(subject)
                    if len(burst.accepted) >= KILL_AFTER:
                        burst.enough.set()
    except (smtplib.SMTPException, OSError):
        return  # killed mid-transaction: that message got no 250


def _on_disk(maildir: Path) -> dict[str, list[tuple[str, bytes]]]:
    """Every file of new/ and cur/ as subject → [(Delivered-To, whole file)]."""
    found: dict[str, list[tuple[str, bytes]]] = {}
    parser = BytesHeaderParser(policy=default)
    for sub in ("new", "cur"):
        for entry in os.scandir(maildir / sub):
            raw = Path(entry.path).read_bytes()
            headers = parser.parsebytes(raw)
            subject = str(headers["Subject"])
            found.setdefault(subject, []).append((str(headers["Delivered-To"]), raw))
    return found


@pytest.mark.timeout(180)
@pytest.mark.parametrize("loop", list(loop_factories()))
def test_kill_9_mid_burst_keeps_every_acknowledged_message_once_and_whole(tmp_path: Path, loop: str) -> None:
    data = tmp_path / "data"
    gateway = ServeProcess(data, tmp_path / "logs", domain=DOMAIN, admin_token=ADMIN, env={"AGENTMAIL_LOOP": loop})
    gateway.start()
    try:
        assert f"event loop: {loop} (" in gateway.output()
        with gateway.client() as admin:
            receivers = []
            for i in range(CONNECTIONS):
                response = admin.post("/v1/identities", json={"local_part": f"burst-{i}"})
                assert response.status_code == 201, response.text
                receivers.append(response.json()["address"])
        burst = Burst(receivers)
        senders = [threading.Thread(target=_send, args=(gateway, burst, c), daemon=True) for c in range(CONNECTIONS)]
        for sender in senders:
            sender.start()
        try:
            assert burst.enough.wait(60), f"only {len(burst.accepted)} 250s, refusals: {burst.refusals[:5]}"
        finally:
            gateway.kill()
        for sender in senders:
            sender.join(timeout=15)
            assert not sender.is_alive(), "a sender hung after the kill"
        assert not burst.refusals, burst.refusals
        accepted, sent = set(burst.accepted), dict(burst.sent)
        assert len(accepted) >= KILL_AFTER

        # On disk, before any restart: whole messages only, each 250'd one once per recipient.
        maildir = data / "maildir"
        stored = _on_disk(maildir)
        for subject, copies in stored.items():
            assert subject in sent, f"a file in the Maildir that was never sent: {subject!r}"
            body, rcpts = sent[subject]
            for delivered_to, raw in copies:
                assert raw.endswith(body), f"{subject} to {delivered_to}: not the bytes sent (torn or altered)"
                assert raw[: -len(body)].endswith(b"\r\n") and b"\r\n\r\n" not in raw[: -len(body)]
            assert sorted(d for d, _ in copies) == sorted(set(d for d, _ in copies)), f"{subject} stored twice"
            assert {d for d, _ in copies} <= set(rcpts), subject
        for subject in accepted:
            _, rcpts = sent[subject]
            assert sorted(d for d, _ in stored.get(subject, [])) == sorted(rcpts), f"{subject} got 250 but is lost"
        unacknowledged = {s for s in stored if s not in accepted}
        assert len(unacknowledged) <= CONNECTIONS, unacknowledged  # at most one in flight per connection

        gateway.start()
        assert os.listdir(maildir / "tmp") == [], "what the crash left in tmp/ is cleared at start"
        with gateway.client() as admin:
            _check_index(gateway, admin, accepted, sent, stored)
    finally:
        gateway.kill()
    assert "Traceback" not in gateway.output()


def _check_index(
    gateway: ServeProcess,
    admin: httpx.Client,
    accepted: set[str],
    sent: dict[str, tuple[bytes, tuple[str, ...]]],
    stored: dict[str, list[tuple[str, bytes]]],
) -> None:
    """Each recipient's listing holds each of its 250'd messages exactly once, and nothing half-present."""
    expected: dict[str, set[str]] = {}
    for subject in accepted:
        for rcpt in sent[subject][1]:
            expected.setdefault(rcpt, set()).add(subject)
    listed: dict[str, Counter[str]] = {}

    def all_indexed() -> bool:
        try:
            for rcpt in gateway_receivers(sent):
                listed[rcpt] = Counter(m["subject"] for m in gateway.listing(admin, rcpt))
        except Unavailable:
            return False
        return all(subjects <= set(listed.get(rcpt, Counter())) for rcpt, subjects in expected.items())

    wait_until(all_indexed, SETTLE_TIMEOUT, "every 250'd message to be listed")
    for rcpt, counts in listed.items():
        twice = {s: n for s, n in counts.items() if n > 1}
        assert not twice, f"{rcpt}: listed more than once: {twice}"
        on_disk = {s for s, copies in stored.items() if any(d == rcpt for d, _ in copies)}
        assert set(counts) == on_disk, f"{rcpt}: the index and the Maildir disagree"
    # The bytes the API serves are the bytes sent, for a sample of every connection's mail.
    sample = sorted(accepted)[:: max(1, len(accepted) // 40)]
    for subject in sample:
        rcpt = sent[subject][1][0]
        summary = next(m for m in gateway.listing(admin, rcpt) if m["subject"] == subject)
        raw = admin.get(f"/v1/identities/{rcpt}/messages/{summary['id']}/raw")
        assert raw.status_code == 200, raw.text
        assert raw.content.endswith(sent[subject][0]), subject


def gateway_receivers(sent: dict[str, tuple[bytes, tuple[str, ...]]]) -> list[str]:
    """Every address mail was sent to."""
    return sorted({rcpt for _, rcpts in sent.values() for rcpt in rcpts})
