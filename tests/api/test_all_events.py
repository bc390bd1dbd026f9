"""`GET /v1/events`: every identity's mail (admin) or a provisioner's, one stream, resumable exactly.

Runs on both sources (tests/api/conftest.py). Streams are known to be open through the hub's
count, never by sleeping; "nothing else came" is shown by the next event being the next mail.
"""

from __future__ import annotations

import asyncio
import json
import weakref
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
import pytest

from gateway.config import Settings
from gateway.sync import build_record
from tests.conftest import DOMAIN, RunningGateway, assert_error, make_message, run_gateway

URL = "/v1/events"


_LINES: weakref.WeakKeyDictionary[httpx.Response, AsyncIterator[str]] = weakref.WeakKeyDictionary()


async def read_events(response: httpx.Response, count: int) -> list[dict[str, Any]]:
    """The next `count` SSE message events (comments, the start's position skipped) as {id, event, data (decoded)}."""
    events: list[dict[str, Any]] = []
    current: dict[str, Any] = {}
    lines = _LINES.setdefault(response, response.aiter_lines())  # one reader per response: read on
    async for line in lines:
        if not line:
            if current.get("event") == "position":  # where the stream starts: no mail (its own tests)
                current = {}
                continue
            if current:
                current["data"] = json.loads(current["data"])
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


def seen(events: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """(address, subject) of each event, checking its id and shape on the way."""
    for event in events:
        assert event["event"] == "message"
        assert event["id"] == f"{event['data']['address']}/{event['data']['id']}"
    return [(e["data"]["address"], e["data"]["subject"]) for e in events]


async def streams_open(gateway: RunningGateway, count: int) -> None:
    await gateway.gw.hub.wait_for_count(lambda n: n == count, timeout=20)


async def mail(gateway: RunningGateway, subject: str, *to: str) -> None:
    await gateway.send(make_message(to=list(to), subject=subject), list(to))


async def provisioner(gateway: RunningGateway) -> tuple[str, str]:
    """(id, token) of a new provisioner token."""
    response = await gateway.http.post("/v1/tokens", json={"scope": "provision", "label": "events"})
    assert response.status_code == 201, response.text
    return response.json()["id"], response.json()["token"]


async def test_replay_across_identities_after_a_reconnect_is_exact(gateway: RunningGateway) -> None:
    alice, _ = await gateway.create_identity("alice")
    bob, _ = await gateway.create_identity("bob")
    carol, _ = await gateway.create_identity("carol")
    await mail(gateway, "before the stream", alice)  # a new stream starts at "now"
    http = gateway.http
    async with asyncio.timeout(60):
        async with http.stream("GET", URL, timeout=60) as stream:
            assert stream.status_code == 200
            assert stream.headers["content-type"].startswith("text/event-stream")
            await streams_open(gateway, 1)
            await mail(gateway, "one", alice)
            await mail(gateway, "two", bob, carol)  # one message, two identities: two events
            first = await read_events(stream, 3)
        await streams_open(gateway, 0)
        assert seen(first) == [(alice, "one"), (bob, "two"), (carol, "two")]
        assert first[0]["data"]["codes"] == [] and first[0]["data"]["from"].endswith("<noreply@example.com>")

        # While away: mail for each, and for an address that is no identity.
        await mail(gateway, "three", carol)
        await mail(gateway, "nobody's", f"nobody@{DOMAIN}")
        await mail(gateway, "four", alice, bob)
        async with http.stream("GET", URL, headers={"Last-Event-ID": first[-1]["id"]}, timeout=60) as stream:
            replay = await read_events(stream, 3)
            assert seen(replay) == [(carol, "three"), (alice, "four"), (bob, "four")]
            await mail(gateway, "five", bob)  # nothing else was pending: the next event is the new mail
            assert seen(await read_events(stream, 1)) == [(bob, "five")]
        # The query parameter resumes the same, from the middle of one message's events.
        async with http.stream("GET", URL, params={"last_event_id": first[1]["id"]}, timeout=60) as stream:
            again = await read_events(stream, 5)
        assert seen(again) == [(carol, "two"), (carol, "three"), (alice, "four"), (bob, "four"), (bob, "five")]
        # An identity's own stream and the all-identities one agree on the message ids.
        assert again[-1]["data"]["id"] == (await gateway.messages(bob))["messages"][0]["id"]
    await streams_open(gateway, 0)


async def test_a_provisioner_sees_only_its_identities_including_one_made_later(gateway: RunningGateway) -> None:
    _, token = await provisioner(gateway)
    other, _ = await gateway.create_identity("admins")
    await mail(gateway, "for the admin's", other)
    (other_mail,) = (await gateway.messages(other))["messages"]
    async with gateway.client(token) as client:
        made = await client.post("/v1/identities", json={"local_part": "mine"})
        assert made.status_code == 201, made.text
        mine = made.json()["address"]
        async with asyncio.timeout(60), client.stream("GET", URL, timeout=60) as stream:
            await streams_open(gateway, 1)
            await mail(gateway, "not yours", other)
            await mail(gateway, "yours", mine, other)
            assert seen(await read_events(stream, 1)) == [(mine, "yours")]
            later = await client.post("/v1/identities", json={"local_part": "later"})
            assert later.status_code == 201, later.text
            late = later.json()["address"]
            await mail(gateway, "to the new one", late)
            assert seen(await read_events(stream, 1)) == [(late, "to the new one")]
            # Deleted: its mail leaves the stream (the next event is the other identity's).
            assert (await client.delete(f"/v1/identities/{mine}")).status_code == 204
            await mail(gateway, "after the deletion", mine)
            await mail(gateway, "still here", late)
            assert seen(await read_events(stream, 1)) == [(late, "still here")]
        # Another's event id is no cursor of this stream: the same 404 as an unknown one.
        foreign = assert_error(await client.get(URL, params={"last_event_id": f"{other}/{other_mail['id']}"}), 404)
        unknown = assert_error(await client.get(URL, params={"last_event_id": f"{late}/nope"}), 404)
        assert foreign["detail"] == unknown["detail"]


async def test_identity_tokens_get_403_pointing_at_their_own_stream(gateway: RunningGateway) -> None:
    _, token = await gateway.create_identity("solo")
    async with gateway.client(token) as client:
        body = assert_error(await client.get(URL), 403, "forbidden")
    assert "/v1/identities/{address}/events" in body["detail"]
    async with gateway.client(None) as client:
        assert_error(await client.get(URL), 401)
    assert gateway.gw.hub.count == 0


async def test_bad_cursors_are_refused_before_the_stream_starts(gateway: RunningGateway) -> None:
    alice, _ = await gateway.create_identity("alice")
    await mail(gateway, "one", alice)
    (message,) = (await gateway.messages(alice))["messages"]
    malformed = ["nope", f"{alice}/", "/x", "not an address/x", f"{'a' * 700}@{DOMAIN}/x"]
    for cursor in malformed:
        assert_error(await gateway.http.get(URL, headers={"Last-Event-ID": cursor}), 400)
    assert_error(await gateway.http.get(URL, params={"last_event_id": "x" * 5000}), 400)
    for cursor in (f"{alice}/nope", f"ghost@{DOMAIN}/{message['id']}", f"{alice}/{message['id']}x"):
        assert_error(await gateway.http.get(URL, headers={"Last-Event-ID": cursor}), 404)
    assert_error(await gateway.http.get(URL, params={"q": 'subject:"unclosed'}), 400)
    assert gateway.gw.hub.count == 0
    # The real one is fine, upper case too (addresses are case-insensitive).
    async with asyncio.timeout(30):
        cursor = f"{alice.upper()}/{message['id']}"
        async with gateway.http.stream("GET", URL, headers={"Last-Event-ID": cursor}, timeout=30) as stream:
            assert stream.status_code == 200
            await mail(gateway, "two", alice)
            assert seen(await read_events(stream, 1)) == [(alice, "two")]


async def test_q_keeps_only_matching_mail_and_resumes_after_the_last_match(gateway: RunningGateway) -> None:
    alice, _ = await gateway.create_identity("alice")
    bob, _ = await gateway.create_identity("bob")
    params = {"q": "subject:invoice"}
    async with asyncio.timeout(60):
        async with gateway.http.stream("GET", URL, params=params, timeout=60) as stream:
            await streams_open(gateway, 1)
            await mail(gateway, "hello", alice)
            await mail(gateway, "Invoice 1", bob)
            (first,) = await read_events(stream, 1)
        assert seen([first]) == [(bob, "Invoice 1")]
        await mail(gateway, "invoice 2", alice)
        await mail(gateway, "news", bob)
        await mail(gateway, "invoice 3", bob)
        async with gateway.http.stream(
            "GET", URL, params=params, headers={"Last-Event-ID": first["id"]}, timeout=60
        ) as stream:
            assert seen(await read_events(stream, 2)) == [(alice, "invoice 2"), (bob, "invoice 3")]


async def test_revoking_the_token_ends_the_stream(gateway: RunningGateway) -> None:
    token_id, token = await provisioner(gateway)
    async with gateway.client(token) as client:
        made = await client.post("/v1/identities", json={"local_part": "kept"})
        assert made.status_code == 201, made.text
        async with asyncio.timeout(30), client.stream("GET", URL, timeout=30) as stream:
            await streams_open(gateway, 1)
            assert (await gateway.http.delete(f"/v1/tokens/{token_id}")).status_code == 204
            await mail(gateway, "after the revocation", made.json()["address"])
            tail = [line async for line in stream.aiter_lines() if line and not line.startswith(":")]
            assert tail == []  # ended, without the message
    await streams_open(gateway, 0)


async def test_a_stream_dropped_at_once_leaves_the_hub(gateway: RunningGateway) -> None:
    host, port = gateway.http.base_url.host, gateway.http.base_url.port
    for _ in range(3):
        _, writer = await asyncio.open_connection(host, port)
        request = f"GET {URL} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {gateway.settings.admin_token}\r\n\r\n"
        writer.write(request.encode())
        await writer.drain()
        writer.close()
        await writer.wait_closed()
    await streams_open(gateway, 0)


async def test_resuming_after_an_index_rebuild_neither_skips_nor_repeats(
    make_settings: Callable[..., Settings],
) -> None:
    settings = make_settings()
    async with run_gateway(settings) as gateway:
        alice, _ = await gateway.create_identity("alice")
        bob, _ = await gateway.create_identity("bob")
        async with asyncio.timeout(60), gateway.http.stream("GET", URL, timeout=60) as stream:
            await streams_open(gateway, 1)
            await mail(gateway, "one", alice)
            await mail(gateway, "two", bob)
            await mail(gateway, "three", alice)
            events = await read_events(stream, 3)
        assert seen(events) == [(alice, "one"), (bob, "two"), (alice, "three")]

    for suffix in ("", "-wal", "-shm"):
        (settings.data_dir / f"index.db{suffix}").unlink(missing_ok=True)

    async with run_gateway(settings, keep_mailbox=True) as gateway:
        await gateway.settled()
        await mail(gateway, "four", bob)
        headers = {"Last-Event-ID": events[0]["id"]}
        async with asyncio.timeout(60), gateway.http.stream("GET", URL, headers=headers, timeout=60) as stream:
            assert seen(await read_events(stream, 3)) == [(bob, "two"), (alice, "three"), (bob, "four")]
            await mail(gateway, "five", alice)
            assert seen(await read_events(stream, 1)) == [(alice, "five")]


@pytest.mark.parametrize("source", ["local"])  # renumbers the index under an open stream
async def test_an_open_stream_follows_its_position_through_a_renumbering(gateway: RunningGateway) -> None:
    alice, _ = await gateway.create_identity("alice")
    bob, _ = await gateway.create_identity("bob")
    async with asyncio.timeout(60), gateway.http.stream("GET", URL, timeout=60) as stream:
        await streams_open(gateway, 1)
        await mail(gateway, "one", alice)
        await mail(gateway, "two", bob)
        assert seen(await read_events(stream, 2)) == [(alice, "one"), (bob, "two")]
        # What a rebuild between two wake-ups does: the same copies again, under new positions.
        index = gateway.gw.store.index
        settings = gateway.settings
        records = [
            build_record(m, catchall=settings.catchall, max_bytes=settings.max_message_bytes)
            for m in await gateway.gw.source.fetch(await gateway.mailbox_ids())
        ]
        await index.clear()
        await index.add(records)
        await mail(gateway, "three", alice)
        assert seen(await read_events(stream, 1)) == [(alice, "three")]


async def test_the_admin_resumes_after_an_event_of_an_identity_deleted_since(gateway: RunningGateway) -> None:
    alice, _ = await gateway.create_identity("alice")
    bob, _ = await gateway.create_identity("bob")
    async with asyncio.timeout(60):
        async with gateway.http.stream("GET", URL, timeout=60) as stream:
            await streams_open(gateway, 1)
            await mail(gateway, "one", alice)
            (last,) = await read_events(stream, 1)
        assert (await gateway.http.delete(f"/v1/identities/{alice}")).status_code == 204
        await mail(gateway, "two", bob, alice)
        async with gateway.http.stream("GET", URL, headers={"Last-Event-ID": last["id"]}, timeout=60) as stream:
            assert seen(await read_events(stream, 1)) == [(bob, "two")]


async def test_a_provisioner_resumes_after_an_event_of_an_identity_it_deleted_since(gateway: RunningGateway) -> None:
    _, token = await provisioner(gateway)
    async with gateway.client(token) as client, asyncio.timeout(60):
        made = [(await client.post("/v1/identities", json={"local_part": n})).json()["address"] for n in ("a1", "b1")]
        async with client.stream("GET", URL, timeout=60) as stream:
            await streams_open(gateway, 1)
            await mail(gateway, "code", made[0])
            (last,) = await read_events(stream, 1)
        # Create, read the code, delete: the everyday pattern. Its last event is still a cursor.
        assert (await client.delete(f"/v1/identities/{made[0]}")).status_code == 204
        await mail(gateway, "next", made[1])
        async with client.stream("GET", URL, headers={"Last-Event-ID": last["id"]}, timeout=60) as stream:
            assert seen(await read_events(stream, 1)) == [(made[1], "next")]


async def test_the_admins_stream_names_where_it_starts_and_a_provisioners_does_not(gateway: RunningGateway) -> None:
    alice, _ = await gateway.create_identity("alice")
    await mail(gateway, "before", alice)
    (before,) = (await gateway.messages(alice))["messages"]
    _, token = await provisioner(gateway)

    async def first_lines(client: httpx.AsyncClient) -> list[str]:
        async with asyncio.timeout(60), client.stream("GET", URL, timeout=60) as stream:
            lines: list[str] = []
            async for line in stream.aiter_lines():
                lines.append(line)
                if not line or line.startswith(":"):
                    return lines  # the first record (or the first keep-alive)
        return lines

    assert await first_lines(gateway.http) == [f"id: {alice}/{before['id']}", "event: position", "data: ", ""]
    async with gateway.client(token) as client:
        mine = (await client.post("/v1/identities", json={"local_part": "mine"})).json()["address"]
        head = asyncio.create_task(first_lines(client))
        await streams_open(gateway, 1)
        await mail(gateway, "after", alice)  # not the provisioner's: nothing of it may show
        await mail(gateway, "yours", mine)
        # No position first (the newest grant is the admin's: not the provisioner's to see): its mail.
        lines = await head
        assert lines[0].startswith(f"id: {mine}/") and lines[1] == "event: message", lines
