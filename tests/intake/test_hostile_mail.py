"""Hostile mail through real SMTP into a real embedded gateway (cases: corpus/malformed/).

Each message is indexed with what can be read (its `truncated` flag in the API message says
whether a bound cut it) or refused at SMTP time with a 5xx; mail to another identity is not
held up behind the costliest of them; the sync keeps running.
"""

from __future__ import annotations

import asyncio
import smtplib
import time

import pytest

from corpus.malformed.cases import CASES, red_team
from tests.conftest import DOMAIN, RunningGateway, make_message

WAIT_BOUND = 15.0
"""Seconds another identity's mail may take behind the red team's message: proves "not stalled"
(before the fix it took about 70 s) even on a loaded two-core machine. The 1 s the issue asks
for is measured, not asserted, in bench/parse.py (indexed in milliseconds there)."""


def _send(gateway: RunningGateway, raw: bytes, rcpts: list[str]) -> int:
    """Send `raw` in its own SMTP session; the reply code to its DATA."""
    with smtplib.SMTP(gateway.smtp_host, gateway.smtp_port, timeout=60) as client:
        try:
            client.sendmail("red@attacker.test", rcpts, raw)
        except smtplib.SMTPResponseException as exc:
            return exc.smtp_code
    return 250


async def _healthy(gateway: RunningGateway) -> None:
    response = await gateway.http.get("/health")
    assert response.status_code == 200, response.text
    assert response.json()["status"] == "ok", response.text


@pytest.mark.timeout(180)
async def test_each_hostile_message_is_indexed_with_what_can_be_read_or_refused(gateway: RunningGateway) -> None:
    victim, token = await gateway.create_identity("victim")
    async with gateway.client(token) as client:
        for case in CASES:
            code = await asyncio.to_thread(_send, gateway, case.build(), [victim])
            if case.smtp_refused:
                assert 500 <= code < 600, (case.name, code)
                continue
            assert code == 250, (case.name, code)
            response = await client.get(f"/v1/identities/{victim}/wait", params={"timeout": 20}, timeout=30)
            assert response.status_code == 200, (case.name, response.text)
            message = response.json()
            if case.truncated is not None:
                assert message["truncated"] is case.truncated, (case.name, case.must)
            if case.text_contains is not None:
                assert case.text_contains in message["text"], (case.name, case.must)
            if case.subject is not None:
                assert message["subject"] == case.subject, (case.name, case.must)
            await _healthy(gateway)
    await _healthy(gateway)


@pytest.mark.timeout(180)
@pytest.mark.parametrize("copies", [6, 100])
async def test_mail_behind_the_red_team_message_is_not_held_up(gateway: RunningGateway, copies: int) -> None:
    other, token = await gateway.create_identity("other")
    first, first_token = await gateway.create_identity("rt0")
    rcpts = [first] + [f"rt{i}@{DOMAIN}" for i in range(1, copies)]
    hostile = red_team()
    normal = make_message(to=other, subject="right behind it", text="Your code is 482913").as_bytes()

    def deliver() -> float:
        with smtplib.SMTP(gateway.smtp_host, gateway.smtp_port, timeout=60) as smtp:
            smtp.sendmail("red@attacker.test", rcpts, hostile)
            accepted = time.monotonic()  # its 250
            smtp.sendmail("shop@example.com", [other], normal)
        return accepted

    async with gateway.client(token) as client:
        waiting = asyncio.create_task(client.get(f"/v1/identities/{other}/wait", params={"timeout": 10}, timeout=30))
        accepted = await asyncio.to_thread(deliver)
        response = await waiting
        elapsed = time.monotonic() - accepted
    assert response.status_code == 200, response.text
    assert response.json()["subject"] == "right behind it"
    assert elapsed < WAIT_BOUND, f"{elapsed:.1f} s behind a red-team message to {copies}"

    await gateway.settled()  # and every copy of the hostile message is indexed too
    async with gateway.client(first_token) as client:
        listing = (await client.get(f"/v1/identities/{first}/messages")).json()["messages"]
        assert [m["subject"] for m in listing] == ["malformed red-team"]
        full = (await client.get(f"/v1/identities/{first}/messages/{listing[0]['id']}")).json()
    assert full["truncated"] is True
    assert full["text"] == "part 0"
    assert len(await gateway.mailbox_ids()) == copies + 1
    await _healthy(gateway)
