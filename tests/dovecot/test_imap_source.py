"""The imap source against a real Postfix + Dovecot: outages, renumbering, outside expunges.

Every test leaves the session's stack running as it found it (Dovecot restarted in `finally`).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import os
import smtplib
import threading
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from gateway.config import Settings
from gateway.sources.imap import RECENT_BYTES, ImapConfig, ImapSource, connect
from tests.conftest import DOMAIN, RunningGateway, assert_error, mailstack_settings, make_message, run_gateway
from tests.mailstack import MailStack
from tests.serve import wait_until


@pytest.fixture
def stack_settings(mailstack: MailStack, make_settings: Callable[..., Settings]) -> Callable[..., Settings]:
    """Settings for a gateway on the session's stack (push on unless overridden)."""

    def make(**more: Any) -> Settings:
        return make_settings(**{**mailstack_settings(mailstack), **more})

    return make


@pytest.fixture
async def gateway(stack_settings: Callable[..., Settings]) -> AsyncIterator[RunningGateway]:
    async with run_gateway(stack_settings()) as running:
        yield running


@contextlib.contextmanager
def dovecot_down(stack: MailStack) -> Any:
    """Dovecot stopped for the block (Postfix queues what arrives), started again after it."""
    stack.stop_dovecot()
    try:
        yield
    finally:
        stack.start_dovecot()


async def test_dovecot_restart_mid_run_loses_nothing(gateway: RunningGateway, mailstack: MailStack) -> None:
    address, token = await gateway.create_identity("outage")
    await gateway.send(make_message(to=address, subject="before"), [address])
    # Too big for the source's cache of recent copies: reading it needs Dovecot itself.
    big = make_message(to=address, subject="big", text="x" * (RECENT_BYTES // 8 + 1024))
    await gateway.send(big, [address])
    ids = {m["subject"]: m["id"] for m in (await gateway.messages(address, token))["messages"]}

    with dovecot_down(mailstack):
        # Postfix accepts and queues; the gateway answers 503, never 500 or a hang.
        await gateway.send(make_message(to=address, subject="during"), [address], settle=False)  # nothing can settle
        async with gateway.client(token) as client:
            response = await client.get(f"/v1/identities/{address}/messages/{ids['big']}/raw")
            assert_error(response, 503, "mail_unavailable")
            assert response.headers["retry-after"] == "5"
            # A copy the sync read moments ago is still served, from the cache.
            cached = await client.get(f"/v1/identities/{address}/messages/{ids['before']}/raw")
            assert cached.status_code == 200 and b"Subject: before" in cached.content
        assert await gateway.subjects(address, token) == ["big", "before"]  # the index still answers
        await asyncio.to_thread(mailstack.wait_deferred, 1)

    mailstack.flush()  # Postfix retries the deferred mail now that Dovecot is back
    await gateway.settled()  # "during" is in and indexed before "after" is sent
    await gateway.send(make_message(to=address, subject="after"), [address])
    assert await gateway.subjects(address, token) == ["after", "during", "big", "before"]
    async with gateway.client(token) as client:
        response = await client.get(f"/v1/identities/{address}/messages/{ids['big']}/raw")
    assert response.status_code == 200 and b"Subject: big" in response.content
    health = await gateway.http.get("/health")
    assert health.status_code == 200 and health.json()["status"] == "ok"


async def test_new_uidvalidity_rebuilds_the_index_and_marks_follow(
    gateway: RunningGateway, mailstack: MailStack
) -> None:
    address, token = await gateway.create_identity("renumbered")
    other, other_token = await gateway.create_identity("witness")
    for subject in ("one", "two", "three"):
        # "two" goes to a second identity too: deleting it then only hides it (no expunge),
        # so after the renumbering only the deleted mark can keep it hidden.
        rcpts = [address, other] if subject == "two" else [address]
        await gateway.send(make_message(to=rcpts, subject=subject), rcpts)
    ids = {m["subject"]: m["id"] for m in (await gateway.messages(address, token))["messages"]}
    async with gateway.client(token) as client:
        assert (await client.get(f"/v1/identities/{address}/messages/{ids['one']}")).status_code == 200
        assert (await client.delete(f"/v1/identities/{address}/messages/{ids['two']}")).status_code == 204
    old_generation = gateway.gw.source.generation

    await asyncio.to_thread(mailstack.reset_uidvalidity)
    new_ids = set(await gateway.mailbox_ids())
    assert not new_ids & set(ids.values())  # every id changed

    async def rebuilt() -> bool:
        return await gateway.gw.store.index.known_ids() == new_ids

    await gateway.gw.sync.wait_until(rebuilt, timeout=20)
    assert gateway.gw.source.generation != old_generation

    listing = (await gateway.messages(address, token))["messages"]
    # The deleted message stays hidden and the read one stays seen, under their new ids.
    assert {m["subject"]: m["seen"] for m in listing} == {"three": False, "one": True}
    assert {m["id"] for m in listing} <= new_ids
    assert await gateway.subjects(other, other_token) == ["two"]  # the copy is still there
    async with gateway.client(token) as client:
        assert_error(await client.get(f"/v1/identities/{address}/messages/{ids['three']}"), 404)
    # ...and new mail after the renumbering is visible (the identity's fence was in the old ids).
    await gateway.send(make_message(to=address, subject="four"), [address])
    assert await gateway.subjects(address, token) == ["four", "three", "one"]


async def test_expunge_from_outside_leaves_the_index(gateway: RunningGateway, mailstack: MailStack) -> None:
    address, token = await gateway.create_identity("outsider")
    for subject in ("keep", "drop"):
        await gateway.send(make_message(to=address, subject=subject), [address])
    ids = {m["subject"]: m["id"] for m in (await gateway.messages(address, token))["messages"]}
    uid = int(ids["drop"].split(".")[1])

    def expunge() -> None:
        with mailstack.imap() as client:
            client.select_folder("INBOX")
            client.add_flags([uid], [b"\\Deleted"])
            client.uid_expunge([uid])

    await asyncio.to_thread(expunge)

    async def forgotten() -> bool:
        return ids["drop"] not in await gateway.gw.store.index.known_ids()

    await gateway.gw.sync.wait_until(forgotten, timeout=20)
    assert await gateway.subjects(address, token) == ["keep"]
    async with gateway.client(token) as client:
        assert_error(await client.get(f"/v1/identities/{address}/messages/{ids['drop']}"), 404)


async def test_delete_expunges_exactly_that_uid(gateway: RunningGateway) -> None:
    alice, alice_token = await gateway.create_identity("alice")
    bob, _ = await gateway.create_identity("bob")
    await gateway.send(make_message(to=alice, subject="alice only"), [alice])
    await gateway.send(make_message(to=bob, subject="bob only"), [bob])
    (alice_id,) = [m["id"] for m in (await gateway.messages(alice, alice_token))["messages"]]
    before = await gateway.mailbox_ids()
    async with gateway.client(alice_token) as client:
        assert (await client.delete(f"/v1/identities/{alice}/messages/{alice_id}")).status_code == 204
    assert await gateway.mailbox_ids() == [i for i in before if i != alice_id]
    assert await gateway.subjects(bob) == ["bob only"]


async def test_bcc_identities_in_one_transaction_each_see_it(gateway: RunningGateway) -> None:
    a, a_token = await gateway.create_identity("bcc-a")
    b, b_token = await gateway.create_identity("bcc-b")
    # One SMTP transaction; neither address is in any header: only Delivered-To grants.
    await gateway.send(make_message(to=f"list@{DOMAIN}", subject="Your code 424242"), [a, b])
    assert len(await gateway.mailbox_ids()) == 2  # Dovecot kept one copy per recipient
    for address, token in ((a, a_token), (b, b_token)):
        (summary,) = (await gateway.messages(address, token))["messages"]
        assert summary["subject"] == "Your code 424242"
        assert [c["value"] for c in summary["codes"]] == ["424242"]


async def test_mail_is_indexed_while_the_idle_connection_is_down(
    mailstack: MailStack, stack_settings: Callable[..., Settings]
) -> None:
    # Fault injection on a real Dovecot: the watcher (IDLE) connection is refused while
    # `watcher_blocked` is set; the reader connects as usual. No push, so only polling is left.
    watcher_blocked = threading.Event()
    watcher_blocked.set()

    def connector(config: ImapConfig, *, watcher: bool = False) -> Any:
        if watcher and watcher_blocked.is_set():
            raise ConnectionRefusedError("test: the IDLE connection is down")
        return connect(config, watcher=watcher)

    settings = stack_settings(push_listen="", push_secret="")
    source = ImapSource(ImapConfig.from_settings(settings), connector=connector)
    async with run_gateway(settings, source=source) as gateway:
        assert not source.idle
        address, token = await gateway.create_identity("noidle")
        await gateway.send(make_message(to=address, subject="polled"), [address])
        assert await gateway.subjects(address, token) == ["polled"]
        assert source.woken_by["poll"] == 1 and source.woken_by["idle"] == 0
        health = (await gateway.http.get("/health")).json()
        assert health["mailbox"] == "ok"  # the reader answers even while nobody idles


async def test_wrong_password_keeps_the_gateway_up_and_says_so(stack_settings: Callable[..., Settings]) -> None:
    settings = stack_settings(imap_password="not-the-password", push_listen="", push_secret="")
    async with run_gateway(settings) as gateway:
        assert isinstance(gateway.gw.source, ImapSource)
        health = await gateway.http.get("/health")
        assert health.status_code == 200
        # A first start that cannot read the mailbox cannot know what it holds: the index counts
        # as being built (never an empty listing that may be a lie), and the reason is the mailbox.
        assert health.json() == {"status": "rebuilding", "source": "imap", "mailbox": "unreachable"}
        # Identities can still be made (the fence falls back to receipt times).
        address, token = await gateway.create_identity("nomail")
        listing = await gateway.http.get(
            f"/v1/identities/{address}/messages", headers={"Authorization": f"Bearer {token}"}
        )
        assert listing.status_code == 503 and listing.json()["error"] == "mail_unavailable"
        assert listing.headers["Retry-After"] == "5"


async def test_never_more_than_two_imap_sessions_however_many_clients(
    gateway: RunningGateway, mailstack: MailStack
) -> None:
    address, token = await gateway.create_identity("busy")
    for i in range(3):
        await gateway.send(make_message(to=address, subject=f"m{i}", text=f"Your code is 55555{i}."), [address])
    ids = [m["id"] for m in (await gateway.messages(address, token))["messages"]]
    async with gateway.client(token) as client:
        # 60 concurrent reads, lists and raw fetches, each needing the mailbox or the index.
        requests = [
            client.get(f"/v1/identities/{address}/messages/{ids[i % 3]}" + ("/raw" if i % 2 else "")) for i in range(40)
        ] + [client.get(f"/v1/identities/{address}/messages") for _ in range(20)]
        load = asyncio.gather(*requests)
        during = []
        while not load.done():  # counted while the load runs, not only after it
            during.append(await asyncio.to_thread(mailstack.imap_sessions))
        responses = await load
    assert {r.status_code for r in responses} == {200}
    assert during and max(during) <= 2
    assert await asyncio.to_thread(mailstack.imap_sessions) == 2  # the watcher and the reader


async def test_fifty_waits_survive_a_dovecot_restart(gateway: RunningGateway, mailstack: MailStack) -> None:
    identities = [await gateway.create_identity(f"restart-{i:02d}") for i in range(50)]
    clients = [gateway.client(token) for _, token in identities]
    try:
        pending = [
            asyncio.create_task(client.get(f"/v1/identities/{address}/wait", params={"timeout": 60}, timeout=90))
            for client, (address, _) in zip(clients, identities, strict=True)
        ]
        await gateway.gw.hub.wait_for_count(lambda n: n == 50, timeout=20)
        with dovecot_down(mailstack):
            pass  # down and up again: both IMAP connections are gone
        await gateway.send_many(
            [
                (make_message(to=address, subject=f"after restart {i}"), [address])
                for i, (address, _) in enumerate(identities)
            ],
            settle=False,
        )
        responses = await asyncio.gather(*pending)
    finally:
        for client in clients:
            await client.aclose()
    assert {r.status_code for r in responses} == {200}
    assert [r.json()["subject"] for r in responses] == [f"after restart {i}" for i in range(50)]
    assert await asyncio.to_thread(mailstack.imap_sessions) <= 2


async def test_raw_is_whole_even_when_the_sync_read_only_the_first_bytes(
    stack_settings: Callable[..., Settings], mailstack: MailStack
) -> None:
    # The sync fetches at most max_message_bytes per copy; a cut copy must never be what
    # GET raw answers with (the source caches only whole copies).
    async with run_gateway(stack_settings(max_message_bytes=4096)) as gateway:
        address, token = await gateway.create_identity("long")
        await gateway.send(make_message(to=address, subject="long", text="y" * 20_000), [address])
        (copy_id,) = await gateway.mailbox_ids()

        def whole() -> bytes:
            with mailstack.imap() as client:
                client.select_folder("INBOX", readonly=True)
                uid = int(copy_id.split(".")[1])
                return bytes(client.fetch([uid], [b"BODY.PEEK[]"])[uid][b"BODY[]"])

        async with gateway.client(token) as client:
            response = await client.get(f"/v1/identities/{address}/messages/{copy_id}/raw")
        assert response.status_code == 200
        assert len(response.content) > 20_000 and response.content == await asyncio.to_thread(whole)


# -- restarts under load ---------------------------------------------------------------------


@dataclass
class MailLoad:
    """Mail sent through Postfix over several connections; every subject Postfix answered 250."""

    identities: list[tuple[str, str]]
    stop: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)
    accepted: dict[str, str] = field(default_factory=dict)
    """subject → recipient address."""
    failures: int = 0

    def count(self) -> int:
        with self.lock:
            return len(self.accepted)


def _send_load(stack: MailStack, load: MailLoad, conn: int) -> None:
    """Send until `stop`; a refused or broken connection (Postfix restarting) is retried shortly."""
    for n in range(2000):  # bounded; `stop` ends it long before
        if load.stop.is_set():
            return
        address = load.identities[(conn + n) % len(load.identities)][0]
        subject = f"load-c{conn}-{n}"
        try:
            with smtplib.SMTP(stack.host, stack.smtp_port, timeout=10) as client:
                client.sendmail("load@example.com", [address], bytes(make_message(to=address, subject=subject)))
        except (smtplib.SMTPException, OSError):
            with load.lock:
                load.failures += 1
            load.stop.wait(0.1)  # back off while Postfix is down (an SMTP client's retry, not a sync)
            continue
        with load.lock:
            load.accepted[subject] = address


async def _waits_for(gateway: RunningGateway, address: str, token: str, woken: Counter[str]) -> None:
    """Wait after wait for one identity, counting the subject each answers; 503 and 408 re-arm."""
    async with gateway.client(token) as client:
        for _ in range(10_000):  # bounded; cancelled once everything arrived
            try:
                response = await client.get(f"/v1/identities/{address}/wait", params={"timeout": 10}, timeout=20)
            except httpx.TransportError:
                continue
            if response.status_code == 200:
                woken[response.json()["subject"]] += 1
            elif response.status_code == 503:  # the mailbox is restarting: the claim went back
                await asyncio.sleep(0.2)
            else:
                assert response.status_code == 408, response.text


async def _restart_under_load(
    gateway: RunningGateway, mailstack: MailStack, restart: Callable[[MailLoad], None]
) -> None:
    """Mail flowing and waits open; `restart` mid-flight; then every 250'd message indexed and
    handed to a wait exactly once."""
    identities = [await gateway.create_identity(f"load-{i}") for i in range(6)]
    load = MailLoad(identities)
    woken: Counter[str] = Counter()
    waits = [asyncio.create_task(_waits_for(gateway, a, t, woken)) for a, t in identities]
    senders = [threading.Thread(target=_send_load, args=(mailstack, load, c), daemon=True) for c in range(4)]
    try:
        for sender in senders:
            sender.start()
        await _poll(_at_least(load, 20), timeout=20)
        await asyncio.to_thread(restart, load)
        before = load.count()
        await _poll(_at_least(load, before + 20), timeout=20)
        load.stop.set()
        for sender in senders:
            await asyncio.to_thread(sender.join, 15)
            assert not sender.is_alive()
        mailstack.flush()  # what Postfix deferred while Dovecot was down is retried now
        await asyncio.to_thread(mailstack.wait_queue_empty, 60)  # a cut LMTP session times out in 20 s
        await gateway.settled()

        async def all_woken() -> bool:
            return all(woken[s] for s in load.accepted)

        await _poll(all_woken, timeout=30)
    finally:
        load.stop.set()
        for task in waits:
            task.cancel()
        await asyncio.gather(*waits, return_exceptions=True)

    assert len(load.accepted) >= 40
    for address, _ in identities:
        listed = Counter(m["subject"] for m in await _all_messages(gateway, address))
        mine = {s for s, a in load.accepted.items() if a == address}
        assert {s: listed[s] for s in mine if listed[s] != 1} == {}, f"{address}: not listed exactly once"
        assert {s for s, n in listed.items() if n > 1} == set(), f"{address}: listed twice"
    assert {s: n for s, n in woken.items() if n != 1} == {}, "a wait was handed a message twice"


async def _all_messages(gateway: RunningGateway, address: str) -> list[dict[str, Any]]:
    """Every summary of `address`'s listing, page by page."""
    found: list[dict[str, Any]] = []
    params: dict[str, Any] = {"limit": 200}
    for _ in range(100):
        page = await gateway.messages(address, **params)
        found += page["messages"]
        if page["next_before_id"] is None:
            return found
        params["before_id"] = page["next_before_id"]
    raise AssertionError("the listing never ended")


async def _poll(condition: Callable[[], Awaitable[bool]], timeout: float) -> None:
    """Return once `condition` holds; TimeoutError after `timeout` seconds."""
    async with asyncio.timeout(timeout):
        while not await condition():
            await asyncio.sleep(0.05)


def _at_least(load: MailLoad, n: int) -> Callable[[], Awaitable[bool]]:
    async def enough() -> bool:
        return load.count() >= n

    return enough


@pytest.mark.timeout(90)  # two restarts' worth of Postfix retries on a shared machine
async def test_dovecot_restarted_under_load_loses_nothing(gateway: RunningGateway, mailstack: MailStack) -> None:
    def restart(load: MailLoad) -> None:
        with dovecot_down(mailstack):
            mailstack.wait_deferred(1)  # the outage really met deliveries in flight

    await _restart_under_load(gateway, mailstack, restart)


@pytest.mark.timeout(90)
async def test_postfix_restarted_under_load_loses_nothing(gateway: RunningGateway, mailstack: MailStack) -> None:
    def restart(load: MailLoad) -> None:
        mailstack.stop_postfix()  # what it queued stays on disk
        try:
            with load.lock:
                failures = load.failures
            wait_until(lambda: load.failures > failures, 10, "a sender to be refused while Postfix is down")
        finally:
            mailstack.start_postfix()

    await _restart_under_load(gateway, mailstack, restart)


async def test_an_attachment_downloads_byte_for_byte_from_dovecot_under_its_imap_section(
    gateway: RunningGateway, mailstack: MailStack
) -> None:
    # Too big for the source's cache of recent copies: the download reads Dovecot itself, and the
    # attachment's id is the section number Dovecot's own BODY[2] fetch names.
    address, token = await gateway.create_identity("files")
    blob = os.urandom(RECENT_BYTES // 8 + 4096)
    msg = make_message(to=address, subject="big file")
    msg.add_attachment(blob, maintype="application", subtype="pdf", filename="scan.pdf")
    await gateway.send(msg, [address])
    (copy_id,) = await gateway.mailbox_ids()

    def section_2() -> bytes:
        with mailstack.imap() as client:
            client.select_folder("INBOX", readonly=True)
            uid = int(copy_id.split(".")[1])
            return bytes(client.fetch([uid], [b"BODY.PEEK[2]"])[uid][b"BODY[2]"])

    async with gateway.client(token) as client:
        message = (await client.get(f"/v1/identities/{address}/messages/{copy_id}")).json()
        (listed,) = message["attachments"]
        assert (listed["attachment_id"], listed["filename"], listed["size"]) == ("2", "scan.pdf", len(blob))
        assert listed["sha256"] == hashlib.sha256(blob).hexdigest()
        response = await client.get(f"/v1/identities/{address}/messages/{copy_id}/attachments/2")
    assert response.status_code == 200
    assert response.content == blob == base64.b64decode(await asyncio.to_thread(section_2))
    assert response.headers["content-type"] == "application/octet-stream"
    assert response.headers["content-disposition"] == "attachment; filename=\"scan.pdf\"; filename*=UTF-8''scan.pdf"
