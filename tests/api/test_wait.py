"""`wait` and `events`: block until the mail arrives, exactly once, never the stale one.

Runs on both sources (tests/api/conftest.py). Waiters are known to be subscribed through the
hub's count, never by sleeping.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from gateway.api.controllers import waits
from gateway.config import Settings
from gateway.inbox import WaitQuery
from gateway.sources.base import stamped_copies
from gateway.sources.local import LocalSource
from gateway.sync import build_record
from gateway.waiting import settle
from tests.conftest import RunningGateway, assert_error, make_message, run_gateway


def code_mail(address: str, code: str, subject: str = "Your code", sender: str = "Shop <no-reply@shop.example>") -> Any:
    return make_message(to=address, subject=subject, sender=sender, text=f"Your verification code is {code}.")


async def wait(client: httpx.AsyncClient, address: str, **params: Any) -> httpx.Response:
    params.setdefault("timeout", 20)
    return await client.get(f"/v1/identities/{address}/wait", params=params, timeout=60)


async def waiting(gateway: RunningGateway, count: int) -> None:
    """Until `count` waits or streams are subscribed in the hub."""
    await gateway.gw.hub.wait_for_count(lambda n: n == count, timeout=20)


async def test_wait_before_delivery_returns_the_message_with_its_code(gateway: RunningGateway) -> None:
    address, token = await gateway.create_identity("early-bird")
    async with gateway.client(token) as client:
        pending = asyncio.create_task(wait(client, address))
        await waiting(gateway, 1)
        await gateway.send(code_mail(address, "482913"), [address])
        response = await pending
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["subject"] == "Your code" and body["codes"][0]["value"] == "482913"
    assert body["text"].strip() == "Your verification code is 482913."
    assert gateway.gw.hub.count == 0
    # Returned by wait = seen for the identity.
    assert (await gateway.messages(address, token))["messages"][0]["seen"] is True


async def test_wait_after_delivery_returns_at_once(gateway: RunningGateway) -> None:
    address, token = await gateway.create_identity("late")
    await gateway.send(code_mail(address, "111222"), [address])
    async with gateway.client(token) as client:
        response = await wait(client, address, timeout=0)
    assert response.status_code == 200 and response.json()["codes"][0]["value"] == "111222"


async def test_the_answer_says_seen_as_the_listing_does_after_it(gateway: RunningGateway) -> None:
    """The identity's own wait marks the message seen and says so; the admin's marks nothing and says so."""
    address, token = await gateway.create_identity("says-seen")
    await gateway.send(code_mail(address, "310001", subject="first"), [address])
    await gateway.send(code_mail(address, "310002", subject="second"), [address])
    admin = await wait(gateway.http, address, timeout=0)
    assert admin.json()["subject"] == "first" and admin.json()["seen"] is False
    async with gateway.client(token) as client:
        own = await wait(client, address, timeout=0)
    assert own.json()["subject"] == "first" and own.json()["seen"] is True
    seen = {m["subject"]: m["seen"] for m in (await gateway.messages(address, token))["messages"]}
    assert seen == {"first": True, "second": False}
    # Seen already and asked for again: still seen.
    async with gateway.client(token) as client:
        again = await wait(client, address, subject="first", include_seen="true", timeout=0)
    assert again.json()["seen"] is True


async def test_two_codes_in_a_row_come_in_order_and_a_third_wait_times_out(gateway: RunningGateway) -> None:
    address, token = await gateway.create_identity("sequence")
    await gateway.send(code_mail(address, "100001", subject="first"), [address])
    await gateway.send(code_mail(address, "100002", subject="second"), [address])
    async with gateway.client(token) as client:
        first, second = await wait(client, address), await wait(client, address)
        third = await wait(client, address, timeout=0.3)
    assert [first.json()["subject"], second.json()["subject"]] == ["first", "second"]
    assert_error(third, 408, "timeout")


async def test_a_re_requested_code_is_never_answered_with_the_old_mail(gateway: RunningGateway) -> None:
    address, token = await gateway.create_identity("resend")
    await gateway.send(code_mail(address, "555111"), [address])
    async with gateway.client(token) as client:
        assert (await wait(client, address)).json()["codes"][0]["value"] == "555111"
        # The user asks for a new code: the wait blocks (the old mail is seen) until it comes.
        pending = asyncio.create_task(wait(client, address))
        await waiting(gateway, 1)
        await gateway.send(code_mail(address, "555222"), [address])
        assert (await pending).json()["codes"][0]["value"] == "555222"
        # include_seen restores "newest match, seen or not".
        newest = await wait(client, address, include_seen="true", timeout=0)
        assert newest.json()["codes"][0]["value"] == "555222"


async def test_filters_from_subject_since_and_after_id(gateway: RunningGateway) -> None:
    address, token = await gateway.create_identity("filtered")
    await gateway.send(code_mail(address, "700001", subject="Welcome", sender="news@other.example"), [address])
    await gateway.send(code_mail(address, "700002", subject="Reset your password"), [address])
    listing = (await gateway.messages(address, token))["messages"]
    welcome = next(m for m in listing if m["subject"] == "Welcome")
    async with gateway.client(token) as client:
        by_sender = await wait(client, address, **{"from": "SHOP.example"}, include_seen="true", timeout=0)
        assert by_sender.json()["subject"] == "Reset your password"
        by_subject = await wait(client, address, subject="welcome", include_seen="true", timeout=0)
        assert by_subject.json()["subject"] == "Welcome"
        nothing = await wait(client, address, subject="invoice", timeout=0)
        assert_error(nothing, 408, "timeout")
        future = await wait(client, address, since="2099-01-01T00:00:00Z", include_seen="true", timeout=0)
        assert_error(future, 408)
        after = await wait(client, address, after_id=welcome["id"], include_seen="true", timeout=0)
        assert after.json()["subject"] == "Reset your password"
        assert_error(await wait(client, address, since="2026-01-01T00:00:00", timeout=0), 400)
        for number in ("1.2e-25", "1700000000"):  # not seconds since 1970: the schema promises RFC 3339
            assert "RFC 3339" in assert_error(await wait(client, address, since=number, timeout=0), 400)["detail"]
        assert_error(await wait(client, address, after_id="no-such-id", timeout=0), 404)


async def test_mail_for_another_identity_never_satisfies_a_waiter(gateway: RunningGateway) -> None:
    alice, alice_token = await gateway.create_identity("alice")
    bob, bob_token = await gateway.create_identity("bob")
    async with gateway.client(alice_token) as client:
        pending = asyncio.create_task(wait(client, alice, timeout=60))
        await waiting(gateway, 1)
        # To bob, and "alice" in the subject and display name: none of it grants.
        await gateway.send(make_message(to=f"alice <{bob}>", subject=f"for {alice}"), [bob])
        # send() returns once the message is indexed: had it woken alice's wait for good,
        # the wait would be answering now. It is still open, still subscribed.
        assert not pending.done() and gateway.gw.hub.count == 1
        assert (await gateway.subjects(alice)) == []
        pending.cancel()
        with pytest.raises(asyncio.CancelledError):
            await pending
        await waiting(gateway, 0)
    async with gateway.client(bob_token) as client:
        assert (await wait(client, bob, timeout=0)).json()["subject"] == f"for {alice}"


async def test_two_hundred_waiters_on_two_hundred_identities(gateway: RunningGateway) -> None:
    identities = [await gateway.create_identity(f"many-{i:03d}") for i in range(200)]
    clients = [gateway.client(token) for _, token in identities]
    try:
        pending = [asyncio.create_task(wait(c, a, timeout=60)) for c, (a, _) in zip(clients, identities, strict=True)]
        await waiting(gateway, 200)

        await gateway.send_many(
            [(code_mail(address, f"{300000 + i}"), [address]) for i, (address, _) in enumerate(identities)],
            settle=False,
        )
        responses = await asyncio.gather(*pending)
    finally:
        for c in clients:
            await c.aclose()
    assert [r.json()["codes"][0]["value"] for r in responses] == [f"{300000 + i}" for i in range(200)]
    assert [r.json()["to"] for r in responses] == [[a] for a, _ in identities]
    assert gateway.gw.hub.count == 0


async def test_timeout_is_408_and_frees_the_waiter(gateway: RunningGateway) -> None:
    address, token = await gateway.create_identity("patient")
    async with gateway.client(token) as client:
        response = await wait(client, address, timeout=0.2)
    assert_error(response, 408, "timeout")
    assert gateway.gw.hub.count == 0


@pytest.mark.parametrize("timeout", ["-1", "601", "soon"])
async def test_bad_timeout_is_400(gateway: RunningGateway, timeout: str) -> None:
    address, token = await gateway.create_identity("picky")
    async with gateway.client(token) as client:
        assert_error(await wait(client, address, timeout=timeout), 400)


async def test_disconnect_frees_the_waiter_and_the_next_wait_gets_the_mail(gateway: RunningGateway) -> None:
    address, token = await gateway.create_identity("vanishing")
    async with gateway.client(token) as client:
        gone = asyncio.create_task(wait(client, address, timeout=30))
        await waiting(gateway, 1)
        gone.cancel()  # the client hangs up: httpx closes the connection
        with pytest.raises(asyncio.CancelledError):
            await gone
    await waiting(gateway, 0)
    # Whether the gateway saw the hang-up before or after the mail: the message is not lost.
    await gateway.send(code_mail(address, "808080"), [address])
    async with gateway.client(token) as client:
        response = await wait(client, address, timeout=5)
    assert response.status_code == 200 and response.json()["codes"][0]["value"] == "808080"


async def test_twenty_concurrent_waits_on_one_identity_get_twenty_distinct_messages(
    gateway: RunningGateway,
) -> None:
    address, token = await gateway.create_identity("crowd")
    async with gateway.client(token) as client:
        pending = [asyncio.create_task(wait(client, address, timeout=60)) for _ in range(20)]
        await waiting(gateway, 20)

        await gateway.send_many([(code_mail(address, f"{400000 + i}"), [address]) for i in range(20)], settle=False)
        responses = await asyncio.gather(*pending)
    assert {r.status_code for r in responses} == {200}
    assert sorted(r.json()["codes"][0]["value"] for r in responses) == [f"{400000 + i}" for i in range(20)]


async def test_over_the_limit_is_429_with_retry_after(make_settings: Callable[..., Settings]) -> None:
    async with run_gateway(make_settings(wait_max_per_address=2, wait_max_total=3)) as gateway:
        address, token = await gateway.create_identity("limited")
        other, other_token = await gateway.create_identity("other")
        async with gateway.client(token) as client, gateway.client(other_token) as other_client:
            pending = [asyncio.create_task(wait(client, address, timeout=30)) for _ in range(2)]
            await waiting(gateway, 2)
            body = assert_error(await wait(client, address, timeout=1), 429, "rate_limited")
            third = asyncio.create_task(wait(other_client, other, timeout=30))
            await waiting(gateway, 3)
            assert_error(await wait(other_client, other, timeout=1), 429)  # the gateway-wide limit
            response = await wait(client, address, timeout=1)
            assert response.headers["retry-after"] == "1" and response.json()["retry_after_sec"] == 1
            assert body["retry_after_sec"] == 1
            for task in [*pending, third]:
                task.cancel()
            await asyncio.gather(*pending, third, return_exceptions=True)
        await waiting(gateway, 0)


async def test_another_identity_token_cannot_wait_on_an_address(gateway: RunningGateway) -> None:
    alice, _ = await gateway.create_identity("alice")
    _, bob_token = await gateway.create_identity("bob")
    async with gateway.client(bob_token) as client:
        assert_error(await wait(client, alice, timeout=0), 403)
        assert_error(await client.get(f"/v1/identities/{alice}/events"), 403)


# --- events ---------------------------------------------------------------------------


async def read_events(response: httpx.Response, count: int) -> list[dict[str, str]]:
    """The next `count` SSE events (comments skipped) as {id, event, data}."""
    events: list[dict[str, str]] = []
    current: dict[str, str] = {}
    async for line in response.aiter_lines():
        if not line:
            if current:
                events.append(current)
                current = {}
                if len(events) == count:
                    return events
            continue
        if line.startswith(":"):
            continue
        field, _, value = line.partition(":")
        current[field] = value.removeprefix(" ")
    raise AssertionError(f"the stream ended after {len(events)} events")


async def test_event_stream_and_replay_after_reconnect(gateway: RunningGateway) -> None:
    address, token = await gateway.create_identity("streamer")
    await gateway.send(code_mail(address, "000000", subject="before the stream"), [address])
    url = f"/v1/identities/{address}/events"
    async with gateway.client(token) as client:
        async with asyncio.timeout(30), client.stream("GET", url, timeout=60) as stream:
            assert stream.status_code == 200
            assert stream.headers["content-type"].startswith("text/event-stream")
            await waiting(gateway, 1)
            await gateway.send(code_mail(address, "900001", subject="one"), [address])
            await gateway.send(code_mail(address, "900002", subject="two"), [address])
            position, *first = await read_events(stream, 3)
        await waiting(gateway, 0)  # the stream left the hub with the client
        # A new stream first says where it starts (the newest message so far): a client whose
        # connection drops before any mail resumes from there and loses nothing.
        (before,) = (await gateway.messages(address, token))["messages"][2:]
        assert position["event"] == "position" and position["id"] == before["id"]
        assert [e["event"] for e in first] == ["message", "message"]
        assert [json.loads(e["data"])["subject"] for e in first] == ["one", "two"]
        assert json.loads(first[0]["data"])["codes"][0]["value"] == "900001"

        # While away: two more. Reconnecting with Last-Event-ID replays exactly those.
        await gateway.send(code_mail(address, "900003", subject="three"), [address])
        await gateway.send(code_mail(address, "900004", subject="four"), [address])
        headers = {"Last-Event-ID": first[1]["id"]}
        async with asyncio.timeout(30), client.stream("GET", url, headers=headers, timeout=60) as stream:
            replay = await read_events(stream, 2)
        assert [json.loads(e["data"])["subject"] for e in replay] == ["three", "four"]
        # The query parameter works the same; an unknown id is a 404 before any streaming.
        async with (
            asyncio.timeout(30),
            client.stream("GET", url, params={"last_event_id": first[0]["id"]}, timeout=60) as stream,
        ):
            again = await read_events(stream, 3)
        assert [json.loads(e["data"])["subject"] for e in again] == ["two", "three", "four"]
        assert_error(await client.get(url, params={"last_event_id": "nope"}), 404)
    assert gateway.gw.hub.count == 0


async def test_a_claim_that_was_not_delivered_goes_to_the_next_wait(gateway: RunningGateway) -> None:
    address, _ = await gateway.create_identity("claims")
    await gateway.send(code_mail(address, "616161"), [address])
    inbox, identity = gateway.gw.inbox, await gateway.gw.store.identities.get(address)
    claimed = await inbox.claim(identity, WaitQuery())
    assert claimed is not None
    assert await inbox.claim(identity, WaitQuery()) is None  # held for the first wait's answer
    await inbox.settle(identity, claimed, delivered=False, mark_seen=True)  # the answer never went out
    again = await inbox.claim(identity, WaitQuery())
    assert again is not None and again.id == claimed.id
    await inbox.settle(identity, again, delivered=True, mark_seen=True)
    assert await inbox.claim(identity, WaitQuery()) is None  # seen now: a wait blocks for new mail
    assert await inbox.claim(identity, WaitQuery(include_seen=True)) is not None


async def test_rotating_the_token_closes_open_waits_and_streams(gateway: RunningGateway) -> None:
    address, token = await gateway.create_identity("rotated")
    async with gateway.client(token) as client:
        pending = asyncio.create_task(wait(client, address, timeout=30))
        async with asyncio.timeout(30), client.stream("GET", f"/v1/identities/{address}/events") as stream:
            await waiting(gateway, 2)
            rotated = await client.post(f"/v1/identities/{address}/rotate")
            assert rotated.status_code == 200
            await gateway.send(code_mail(address, "343434"), [address])
            # The old token's stream ends without the message; its wait gets a 401, not the code.
            tail = [line async for line in stream.aiter_lines() if line and not line.startswith(":")]
            assert tail == []
        assert_error(await pending, 401, "unauthorized")
    async with gateway.client(rotated.json()["token"]) as client:
        response = await wait(client, address, timeout=5)  # released: the new token gets it
    assert response.json()["codes"][0]["value"] == "343434"


async def test_a_rotation_alone_ends_open_waits_and_streams_at_once(gateway: RunningGateway) -> None:
    address, token = await gateway.create_identity("rotated-quietly")
    async with gateway.client(token) as client:
        pending = asyncio.create_task(wait(client, address, timeout=60))
        # Under the stream's keep-alive (15 s) and the wait's timeout: only the rotation ends them.
        async with asyncio.timeout(10), client.stream("GET", f"/v1/identities/{address}/events") as stream:
            await waiting(gateway, 2)
            assert (await gateway.http.post(f"/v1/identities/{address}/rotate")).status_code == 200
            tail = [line async for line in stream.aiter_lines() if line and not line.startswith(":")]
            assert tail == []
            assert_error(await pending, 401, "unauthorized")


async def test_an_idle_stream_sends_keep_alive_comments(
    gateway: RunningGateway, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(waits, "KEEPALIVE_SECONDS", 0.05)
    address, token = await gateway.create_identity("quiet")
    url = f"/v1/identities/{address}/events"
    async with gateway.client(token) as client, asyncio.timeout(20), client.stream("GET", url) as stream:
        comment = await anext(line async for line in stream.aiter_lines() if line)
    assert comment == ": keep-alive"


async def test_an_event_stream_dropped_at_once_leaves_the_hub(gateway: RunningGateway) -> None:
    address, token = await gateway.create_identity("hasty")
    host, port = gateway.http.base_url.host, gateway.http.base_url.port
    for _ in range(5):
        _, writer = await asyncio.open_connection(host, port)
        writer.write(
            f"GET /v1/identities/{address}/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\n\r\n".encode()
        )
        await writer.drain()
        writer.close()  # gone before the first byte of the stream
        await writer.wait_closed()
    await waiting(gateway, 0)


async def test_a_released_claim_wakes_the_other_open_waits(gateway: RunningGateway) -> None:
    address, token = await gateway.create_identity("handover")
    await gateway.send(code_mail(address, "727272"), [address])
    inbox, identity = gateway.gw.inbox, await gateway.gw.store.identities.get(address)
    held = await inbox.claim(identity, WaitQuery())  # what a first wait holds while answering
    assert held is not None
    async with gateway.client(token) as client:
        pending = asyncio.create_task(wait(client, address, timeout=30))
        await waiting(gateway, 1)
        assert not pending.done()  # it skips the claimed message and sleeps
        await settle(inbox, gateway.gw.hub, identity, held, delivered=False, mark_seen=True)  # never went out
        response = await pending
    assert response.status_code == 200 and response.json()["codes"][0]["value"] == "727272"


async def test_a_copy_gone_from_the_mailbox_is_skipped_not_a_404_forever(gateway: RunningGateway) -> None:
    address, token = await gateway.create_identity("vanished")
    await gateway.send(code_mail(address, "131313", subject="gone"), [address])
    (gone_id,) = await gateway.mailbox_ids()
    # Behind the gateway's back: the copy leaves the mailbox, the index does not know yet.
    if gateway.stack is None:
        gateway.gw.source.maildir.remove(gone_id)  # type: ignore[attr-defined]
    else:
        with gateway.stack.imap() as imap:
            imap.select_folder("INBOX")
            uid = int(gone_id.split(".")[1])
            imap.add_flags([uid], [b"\\Deleted"])
            imap.uid_expunge([uid])
    await gateway.send(code_mail(address, "141414", subject="here"), [address])
    # The vanished one is skipped, or (imap) still answered from the copy the sync read
    # moments ago; either way no wait is stuck on a 404 and the new mail comes through.
    answers = []
    async with gateway.client(token) as client:
        for _ in range(2):
            response = await wait(client, address, timeout=5)
            assert response.status_code == 200, response.text
            answers.append(response.json()["subject"])
            if answers[-1] == "here":
                break
    assert answers in (["here"], ["gone", "here"])


@pytest.mark.parametrize("source", ["local"])  # writes the Maildir behind the sync's back
async def test_a_stream_that_starts_empty_delivers_all_that_arrived_before_its_first_wake_up(
    gateway: RunningGateway,
) -> None:
    address, token = await gateway.create_identity("burst")
    source = gateway.gw.source
    assert isinstance(source, LocalSource)
    url = f"/v1/identities/{address}/events"
    async with gateway.client(token) as client, asyncio.timeout(30), client.stream("GET", url, timeout=30) as stream:
        await waiting(gateway, 1)
        # More than a page (200) is indexed before the stream wakes once (a burst on a busy
        # gateway): written into the Maildir, indexed in one batch, then one wake-up.
        ids: list[str] = []
        for i in range(250):
            raw = make_message(to=address, subject=f"burst {i:03d}").as_bytes()
            ids += await asyncio.to_thread(source.maildir.deliver, stamped_copies(raw, [address]))
        settings = gateway.settings
        records = [
            build_record(m, catchall=settings.catchall, max_bytes=settings.max_message_bytes)
            for m in await source.fetch(ids)
        ]
        await gateway.gw.store.index.add(records)
        gateway.gw.hub.publish([address])
        events = await read_events(stream, 250)
    # Every one, oldest first (before: only the newest 200).
    assert [json.loads(e["data"])["subject"] for e in events] == [f"burst {i:03d}" for i in range(250)]
    assert [e["id"] for e in events] == ids


async def test_an_admin_wait_on_an_identity_deleted_ends_at_once_and_says_so(gateway: RunningGateway) -> None:
    address, _ = await gateway.create_identity("phoenix")
    pending = asyncio.create_task(wait(gateway.http, address, timeout=30))
    await waiting(gateway, 1)
    assert (await gateway.http.delete(f"/v1/identities/{address}")).status_code == 204
    # The admin's token is fine: what went is the identity this wait was for (not "the token was
    # revoked or rotated", a 401 that sends an admin looking at the wrong thing). The deletion
    # itself ends it: no mail has to come first.
    body = assert_error(await asyncio.wait_for(pending, 20), 404, "not_found")
    assert "was deleted while waiting" in body["detail"], body
    created = await gateway.http.post("/v1/identities", json={"local_part": "phoenix", "force": True})
    assert created.status_code == 201, created.text
    await gateway.send(code_mail(address, "565656"), [address])
    async with gateway.client(created.json()["token"]) as client:
        response = await wait(client, address, timeout=5)  # the new identity gets its mail
    assert response.status_code == 200 and response.json()["codes"][0]["value"] == "565656"


@pytest.mark.parametrize("source", ["local"])  # writes the Maildir behind the sync's back
async def test_a_resumed_stream_gets_mail_received_earlier_but_indexed_after_its_last_event(
    gateway: RunningGateway,
) -> None:
    address, token = await gateway.create_identity("racer")
    source, settings = gateway.gw.source, gateway.settings
    assert isinstance(source, LocalSource)
    ids: list[str] = []
    for subject in ("received first", "received second"):
        raw = make_message(to=address, subject=subject).as_bytes()
        ids += await asyncio.to_thread(source.maildir.deliver, stamped_copies(raw, [address]))
    first, second = [
        build_record(m, catchall=settings.catchall, max_bytes=settings.max_message_bytes)
        for m in await source.fetch(ids)
    ]
    assert first.received_ts <= second.received_ts
    # Two deliveries racing through indexing: the second is indexed first, and a client's
    # stream delivers it (its last event) and drops.
    await gateway.gw.store.index.add([second])
    (last,) = (await gateway.messages(address, token))["messages"]
    assert last["id"] == second.copy_id
    await gateway.gw.store.index.add([first])
    # Resumed after the last event it got: the earlier-received one still comes (before: skipped).
    url = f"/v1/identities/{address}/events"
    async with gateway.client(token) as client:
        headers = {"Last-Event-ID": last["id"]}
        async with asyncio.timeout(10), client.stream("GET", url, headers=headers, timeout=10) as stream:
            (event,) = await read_events(stream, 1)
    assert event["id"] == first.copy_id and json.loads(event["data"])["subject"] == "received first"
