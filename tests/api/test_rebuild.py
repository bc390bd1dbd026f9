"""The index is a cache: delete it, restart, and every identity sees what it saw, marks intact."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path

import pytest

from gateway.config import Settings
from gateway.sources.base import StoredMessage, stamped_copies
from gateway.sources.local import LocalSource
from tests.conftest import DOMAIN, assert_error, make_message, run_gateway


async def test_index_rebuilds_from_the_mailbox_and_marks_survive(make_settings: Callable[..., Settings]) -> None:
    settings = make_settings()
    alice, bob = f"alice@{DOMAIN}", f"bob@{DOMAIN}"
    async with run_gateway(settings) as gateway:
        _, alice_token = await gateway.create_identity("alice")
        await gateway.create_identity("bob")
        await gateway.send(make_message(to=alice, subject="one"), [alice])
        # "two" reaches bob too: alice's delete then only hides it (no expunge), so after
        # the rebuild only her deleted mark keeps it hidden.
        await gateway.send(make_message(to=[alice, bob], subject="two"), [alice, bob])
        await gateway.send(make_message(to=[alice, bob], subject="both"), [alice, bob])
        before = await gateway.messages(alice, alice_token)
        ids = {m["subject"]: m["id"] for m in before["messages"]}
        async with gateway.client(alice_token) as client:
            assert (await client.get(f"/v1/identities/{alice}/messages/{ids['one']}")).status_code == 200
            assert (await client.delete(f"/v1/identities/{alice}/messages/{ids['two']}")).status_code == 204

    for suffix in ("", "-wal", "-shm"):
        (settings.data_dir / f"index.db{suffix}").unlink(missing_ok=True)

    async with run_gateway(settings, keep_mailbox=True) as gateway:
        await gateway.settled()
        after = await gateway.messages(alice, alice_token)
        assert {m["subject"]: (m["id"], m["seen"]) for m in after["messages"]} == {
            "one": (ids["one"], True),
            "both": (ids["both"], False),
        }
        assert await gateway.subjects(bob) == ["both", "two"]


class HeldSource(LocalSource):
    """The real embedded source, whose reads wait for `release`: a catch-up the test can watch."""

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self.release = asyncio.Event()

    async def fetch(self, ids: Sequence[str], *, max_bytes: int | None = None) -> list[StoredMessage]:
        await self.release.wait()
        return await super().fetch(ids, max_bytes=max_bytes)


@pytest.mark.parametrize("source", ["local"])  # the held source is the embedded one
async def test_while_the_index_is_rebuilt_mail_reads_answer_503_and_health_says_so(
    make_settings: Callable[..., Settings], monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = make_settings()
    alice = f"alice@{DOMAIN}"
    others = [f"other{i}@{DOMAIN}" for i in range(99)]
    async with run_gateway(settings) as gateway:
        _, token = await gateway.create_identity("alice")
        await gateway.send(make_message(to=alice, subject="known"), [alice])
        (known,) = (await gateway.messages(alice, token))["messages"]
        # A few thousand copies: 25 messages to alice, each also Bcc'd to 99 others (one copy
        # per envelope recipient), written as the intake writes them (minus the fsyncs: the
        # test needs the files, not their durability).
        maildir = gateway.gw.source.maildir  # type: ignore[attr-defined]
        with monkeypatch.context() as patch:
            patch.setattr(os, "fsync", lambda fd: None)
            for i in range(25):
                raw = make_message(to=alice, subject=f"bulk {i}").as_bytes()
                maildir.deliver(stamped_copies(raw, [alice, *others]))
    for suffix in ("", "-wal", "-shm"):
        (settings.data_dir / f"index.db{suffix}").unlink(missing_ok=True)

    held = HeldSource(settings.data_dir / "maildir")
    assert len(held.maildir.ids()) == 2501
    async with run_gateway(settings, keep_mailbox=True, source=held) as gateway:
        health = await gateway.http.get("/health")
        assert health.status_code == 200 and health.json()["status"] == "rebuilding"
        url = f"/v1/identities/{alice}"
        async with gateway.client(token) as client:
            # Before: [] for the listing, 404 for the known id and the cursors; now the truth.
            for response in (
                await client.get(f"{url}/messages"),
                await client.get(f"{url}/messages/{known['id']}"),
                await client.get(f"{url}/messages/{known['id']}/raw"),
                await client.get(f"{url}/messages", params={"after_id": known["id"]}),
                await client.get(f"{url}/events", headers={"Last-Event-ID": known["id"]}),
                await client.get(f"{url}/wait", params={"timeout": 5}),
            ):
                body = assert_error(response, 503, "index_rebuilding")
                assert response.headers["retry-after"] == "5" and body["retry_after_sec"] == 5
            # Identities are managed as ever.
            created = await gateway.http.post("/v1/identities", json={"local_part": "newcomer"})
            assert created.status_code == 201, created.text

            held.release.set()
            await gateway.gw.sync.wait_until(_async(lambda: not gateway.gw.sync.rebuilding), timeout=60)
            health = await gateway.http.get("/health")
            assert health.status_code == 200 and health.json()["status"] == "ok"
            listing = await client.get(f"{url}/messages", params={"limit": 200})
            assert listing.status_code == 200
            subjects = [m["subject"] for m in listing.json()["messages"]]
            assert sorted(subjects) == sorted(["known", *(f"bulk {i}" for i in range(25))])
            assert (await client.get(f"{url}/messages/{known['id']}")).status_code == 200
            after = await client.get(f"{url}/messages", params={"after_id": known["id"]})
            assert after.status_code == 200 and len(after.json()["messages"]) == 25
        assert await gateway.gw.store.index.count() == 2501


def _async(predicate: Callable[[], bool]) -> Callable[[], Awaitable[bool]]:
    async def check() -> bool:
        return predicate()

    return check
