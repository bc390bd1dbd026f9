"""Several gateways over one Dovecot and one PostgreSQL database: no client can tell them from one.

Real parts only: two `serve` processes, the session's Postfix + Dovecot, a PostgreSQL database.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import threading
import time
from collections import Counter
from typing import Any

import httpx
import psycopg
import pytest

from gateway.store.postgres import open_postgres
from tests.conftest import ADMIN_TOKEN
from tests.replicas.conftest import Replicas, roles
from tests.serve import ServeProcess, wait_until

pytestmark = pytest.mark.timeout(300)

FAN_WAIT = 45  # seconds each of the 200 waits may block (under CLAIM_TTL)
LAPSE = 3.0  # seconds a claim left behind by a vanished gateway holds its message
WAIT = 120  # seconds a wait may block: far above anything these tests take when the gateways are right


def _client(replica: ServeProcess, token: str) -> httpx.AsyncClient:
    return httpx.AsyncClient(base_url=replica.base_url, headers={"Authorization": f"Bearer {token}"}, timeout=WAIT + 30)


async def _wait(replica: ServeProcess, address: str, token: str, **params: Any) -> httpx.Response:
    async with _client(replica, token) as client:
        return await client.get(f"/v1/identities/{address}/wait", params={"timeout": WAIT, **params})


async def _open_wait(replica: ServeProcess, address: str, token: str) -> asyncio.Task[httpx.Response]:
    """A wait on `replica`, returned once it is open there: the replicas allow one per address,
    so a probe `wait?timeout=0` answers 429 then (408 before)."""
    async with asyncio.timeout(30):
        while True:
            task = asyncio.create_task(_wait(replica, address, token))
            while not task.done():
                probe = await _wait(replica, address, token, timeout=0)
                if probe.status_code == 429 and not task.done():
                    return task
                assert probe.status_code in (408, 429), probe.text
            # The wait came while a probe held the address's one place: send it again.
            assert (await task).status_code == 429


def _listing(replica: ServeProcess, address: str, token: str) -> list[dict[str, Any]]:
    with replica.client(token) as client:
        response = client.get(f"/v1/identities/{address}/messages", params={"limit": 200})
    assert response.status_code == 200, response.text
    messages: list[dict[str, Any]] = response.json()["messages"]
    return messages


def _copies(replicas: Replicas, message_id: str) -> int:
    """Copies of a Message-ID in the catch-all mailbox, counted beside the gateways."""
    with replicas.stack.imap() as imap:
        imap.select_folder("INBOX", readonly=True)
        return len(imap.search(["HEADER", "Message-ID", message_id]))


async def test_two_hundred_waits_over_both_replicas_each_get_a_distinct_message(replicas: Replicas) -> None:
    reader = replicas.reader()
    standby = replicas.other(reader)
    tag = secrets.token_hex(3)
    identities = [replicas.create_identity(reader if i % 2 else standby, f"fan-{tag}-{i:03d}") for i in range(100)]
    assert _listing(standby, *identities[1]) == []  # made on the reader, known to the standby: one store

    # Under the claims' 60 s: a wait that missed its wake-up is not rescued by a lapsing claim.
    waits = [
        asyncio.create_task(_wait(replica, address, token, timeout=FAN_WAIT))
        for address, token in identities
        for replica in (reader, standby)
    ]
    # Mail flows in while the waits open: one that arrived first is found by a wait's first look,
    # one that arrives later wakes it (on the standby, through the reader's NOTIFY).
    mails = [(address, f"fan {tag} {i} {n}") for i, (address, _) in enumerate(identities) for n in range(2)]
    await asyncio.to_thread(replicas.send, mails)
    answers = await asyncio.wait_for(asyncio.gather(*waits), FAN_WAIT + 30)
    failed = [(i // 2, i % 2) for i, a in enumerate(answers) if a.status_code != 200]
    assert not failed, [
        (identities[i][0], (reader, standby)[r].base_url, _listing(reader, *identities[i])) for i, r in failed
    ]
    got = [a.json() for a in answers]
    for (address, _), pair in zip(identities, zip(got[::2], got[1::2], strict=True), strict=True):
        assert {m["to"][0] for m in pair} == {address}  # each wait got its own identity's mail
        assert pair[0]["id"] != pair[1]["id"]  # and the identity's two waits different messages
    assert Counter(m["subject"] for m in got) == Counter(subject for _, subject in mails)


async def test_mail_the_reader_indexes_reaches_a_stream_on_the_standby_through_notify(replicas: Replicas) -> None:
    reader = replicas.reader()
    standby = replicas.other(reader)
    address, token = replicas.create_identity(reader, f"news-{secrets.token_hex(3)}")
    async with _client(standby, token) as client, client.stream("GET", f"/v1/identities/{address}/events") as stream:
        assert stream.status_code == 200  # subscribed on the standby before its answer began
        await asyncio.to_thread(replicas.send, [(address, "to the standby's stream")])
        # Under the stream's keep-alive (15 s), the only other time it looks: the reader's NOTIFY.
        async with asyncio.timeout(10):
            data = await anext(line async for line in stream.aiter_lines() if line.startswith("data:"))
    assert json.loads(data.removeprefix("data:"))["subject"] == "to the standby's stream"


async def test_a_rotation_on_one_replica_ends_a_stream_on_the_other(replicas: Replicas) -> None:
    reader = replicas.reader()
    standby = replicas.other(reader)
    address, token = replicas.create_identity(reader, f"rot-{secrets.token_hex(3)}")
    async with _client(standby, token) as client, client.stream("GET", f"/v1/identities/{address}/events") as stream:
        assert stream.status_code == 200  # subscribed on the standby before its answer began
        with reader.client() as admin:  # rotated through the other replica
            rotated = admin.post(f"/v1/identities/{address}/rotate")
        assert rotated.status_code == 200, rotated.text
        # The server ends the stream long before its keep-alive (15 s) would have it look again.
        # (A wait ends by the same ring: tests/api/test_wait.py shows it on one gateway.)
        async with asyncio.timeout(10):
            async for _ in stream.aiter_lines():
                pass


async def test_a_rotation_on_one_replica_ends_a_wait_on_the_other(replicas: Replicas) -> None:
    reader = replicas.reader()
    standby = replicas.other(reader)
    address, token = replicas.create_identity(reader, f"rotw-{secrets.token_hex(3)}")
    wait = await _open_wait(standby, address, token)  # open on the standby before the rotation
    with reader.client() as admin:
        assert admin.post(f"/v1/identities/{address}/rotate").status_code == 200
    answer = await asyncio.wait_for(wait, 10)  # a wait of WAIT s: only the rotation's news ends it
    assert answer.status_code == 401, answer.text


async def test_a_read_on_one_is_seen_on_the_other_and_deletes_on_both_expunge_the_copies(replicas: Replicas) -> None:
    reader = replicas.reader()
    standby = replicas.other(reader)
    tag = secrets.token_hex(3)
    (a, a_token), (b, b_token) = (replicas.create_identity(reader, f"{n}-{tag}") for n in ("del-a", "del-b"))
    (mid,) = await asyncio.to_thread(replicas.send, [((a, b), f"both {tag}")])

    first = await _wait(standby, a, a_token)  # the identity's own wait, on the standby, marks it seen
    assert first.status_code == 200, first.text
    (listed,) = _listing(reader, a, a_token)
    assert (listed["id"], listed["seen"]) == (first.json()["id"], True)  # seen on the reader too
    second = await _wait(reader, b, b_token)
    assert second.status_code == 200, second.text
    assert _copies(replicas, mid) == 2  # one copy per recipient

    async def delete(replica: ServeProcess, address: str, token: str, message_id: str) -> int:
        async with _client(replica, token) as client:
            return (await client.delete(f"/v1/identities/{address}/messages/{message_id}")).status_code

    statuses = await asyncio.gather(
        delete(reader, a, a_token, first.json()["id"]), delete(standby, b, b_token, second.json()["id"])
    )
    assert statuses == [204, 204]
    assert _copies(replicas, mid) == 0  # whichever delete came second found nobody seeing it
    for replica in (reader, standby):
        assert _listing(replica, a, a_token) == [] and _listing(replica, b, b_token) == []


async def test_killing_the_reader_hands_reading_to_the_other_and_loses_nothing(replicas: Replicas) -> None:
    reader = replicas.reader()
    standby = replicas.other(reader)
    tag = secrets.token_hex(3)
    identities = [replicas.create_identity(standby, f"kill-{tag}-{i:02d}") for i in range(20)]
    waits = [asyncio.create_task(_wait(standby, address, token)) for address, token in identities]
    mails = [(address, f"kill {tag} {i} {n}") for i, (address, _) in enumerate(identities) for n in range(5)]
    half = threading.Event()

    def send() -> None:
        replicas.send(mails[:50])
        half.set()
        replicas.send(mails[50:])

    sending = asyncio.create_task(asyncio.to_thread(send))
    await asyncio.to_thread(half.wait, 60)
    reader.kill()  # mid-flow: mail keeps arriving in the mailbox meanwhile
    assert await asyncio.to_thread(replicas.reader) is standby  # the standby took over reading
    await sending
    answers = await asyncio.wait_for(asyncio.gather(*waits), WAIT + 30)
    assert [a.status_code for a in answers] == [200] * 20  # the standby's waits never noticed

    await asyncio.to_thread(replicas.stack.wait_queue_empty)
    subjects: Counter[str] = Counter()
    for address, token in identities:
        listed: list[dict[str, Any]] = []

        def five(address: str = address, token: str = token, listed: list[dict[str, Any]] = listed) -> bool:
            listed[:] = _listing(standby, address, token)
            return len(listed) >= 5

        # Indexed by now, or in a moment: the new reader's catch-up and IDLE.
        await asyncio.to_thread(wait_until, five, 60, f"five messages listed for {address}")
        subjects.update(m["subject"] for m in listed)
    assert subjects == Counter(subject for _, subject in mails)  # every message once, none twice
    assert roles(replicas.gateways) == [None if g is reader else "reader" for g in replicas.gateways]


async def test_a_claim_left_by_a_gateway_that_vanished_lapses_and_its_mail_is_handed_out(replicas: Replicas) -> None:
    reader = replicas.reader()
    standby = replicas.other(reader)
    address, token = replicas.create_identity(standby, f"lapse-{secrets.token_hex(3)}")
    await asyncio.to_thread(replicas.send, [(address, "held by a claim")])
    listed: list[dict[str, Any]] = []

    def indexed() -> bool:
        listed[:] = _listing(standby, address, ADMIN_TOKEN)  # the admin's listing marks nothing seen
        return bool(listed)

    await asyncio.to_thread(wait_until, indexed, 60, "the mail indexed")
    with psycopg.connect(replicas.dsn) as conn:
        row = conn.execute("SELECT message_key FROM copies WHERE copy_id = %s", (listed[0]["id"],)).fetchone()
    assert row is not None
    # A third gateway on the store claims the message for one of its waits, and is gone before
    # it could answer or give the claim back (the store's own API, from this process).
    store = open_postgres(replicas.dsn, domain=replicas.stack.domain, clock=time.time)
    await store.engine.start()
    try:
        identity = await store.identities.get(address)
        assert await store.claims.take(identity, str(row[0]), ttl=LAPSE)
    finally:
        await store.engine.close()
    held = await _wait(standby, address, token, timeout=0)
    assert held.status_code == 408, held.text  # the claim holds it: no wait may take it now
    answer = await _wait(standby, address, token)  # blocks until the claim lapses, then takes it
    assert answer.status_code == 200, answer.text
    assert answer.json()["subject"] == "held by a claim"
