"""The client's `events()`: every new message once, in order, through dropped connections and restarts.

A real gateway behind `Relay`, a TCP relay on loopback the test can cut (every open connection
closed, as a proxy restarting or a network blip does) and hold (new connections closed at
once) while mail arrives, then let through again.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncGenerator, AsyncIterator, Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gateway.client import (
    AsyncGateway,
    AuthError,
    Gateway,
    InvalidRequest,
    NotFound,
    StreamEvent,
    Unreachable,
    streams,
)
from gateway.client.streams import SseParser, SseRecord
from gateway.config import Settings
from tests.conftest import ADMIN_TOKEN, RunningGateway, make_message, run_gateway


class Relay:
    """Bytes both ways between clients and the gateway at `upstream`; `cut` drops every connection."""

    def __init__(self, upstream: tuple[str, int]) -> None:
        self.upstream = upstream
        self.open = asyncio.Event()
        self.open.set()
        self.heads: list[bytes] = []
        """The first bytes of every request that got through (its request line and headers)."""
        self._writers: set[asyncio.StreamWriter] = set()
        self._server: asyncio.Server | None = None

    @property
    def url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.sockets[0].getsockname()[1]}"

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)

    async def stop(self) -> None:
        self.cut()
        assert self._server is not None
        self._server.close()
        await self._server.wait_closed()

    def cut(self) -> None:
        for writer in list(self._writers):
            writer.transport.abort()
        self._writers.clear()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if not self.open.is_set():
            writer.transport.abort()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.upstream)
        except OSError:
            writer.transport.abort()
            return
        self._writers |= {writer, up_writer}

        async def pump(src: asyncio.StreamReader, dst: asyncio.StreamWriter, record: bool) -> None:
            with contextlib.suppress(OSError, ConnectionError):
                first = True
                while chunk := await src.read(65536):
                    if record and first:
                        self.heads.append(chunk)
                        first = False
                    dst.write(chunk)
                    await dst.drain()
            dst.transport.abort()

        await asyncio.gather(pump(reader, up_writer, True), pump(up_reader, writer, False))
        self._writers -= {writer, up_writer}


@contextlib.asynccontextmanager
async def relay_to(gateway: RunningGateway) -> AsyncIterator[Relay]:
    relay = Relay((gateway.http.base_url.host, int(gateway.http.base_url.port or 80)))
    await relay.start()
    try:
        yield relay
    finally:
        await relay.stop()


async def collect(events: AsyncGenerator[StreamEvent, None], into: asyncio.Queue[StreamEvent]) -> None:
    async for event in events:
        await into.put(event)


async def take(queue: asyncio.Queue[StreamEvent], count: int) -> list[tuple[str, str]]:
    got = [await asyncio.wait_for(queue.get(), 30) for _ in range(count)]
    return [(e.address, e.message.subject) for e in got]


async def mail(gateway: RunningGateway, subject: str, *to: str) -> None:
    await gateway.send(make_message(to=list(to), subject=subject), list(to))


async def streams_open(gateway: RunningGateway, count: int) -> None:
    await gateway.gw.hub.wait_for_count(lambda n: n == count, timeout=20)


async def test_a_dropped_connection_is_resumed_without_loss_or_repeat(
    gateway: RunningGateway, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(streams, "BACKOFF_MAX", 1.0)  # the held relay makes the backoff grow: keep it short
    alice, _ = await gateway.create_identity("alice")
    bob, _ = await gateway.create_identity("bob")
    queue: asyncio.Queue[StreamEvent] = asyncio.Queue()
    async with relay_to(gateway) as relay, AsyncGateway(relay.url, ADMIN_TOKEN) as agw:
        task = asyncio.create_task(collect(agw.events(), queue))
        try:
            await streams_open(gateway, 1)
            await mail(gateway, "one", alice)
            await mail(gateway, "two", bob, alice)
            assert await take(queue, 3) == [(alice, "one"), (alice, "two"), (bob, "two")]
            # Dropped, and held down while mail arrives for both.
            relay.open.clear()
            relay.cut()
            await streams_open(gateway, 0)
            await mail(gateway, "three", bob)
            await mail(gateway, "four", alice)
            relay.open.set()
            assert await take(queue, 2) == [(bob, "three"), (alice, "four")]
            await mail(gateway, "five", alice)
            assert await take(queue, 1) == [(alice, "five")]
            assert queue.empty()
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
    # The reconnection said where it stood.
    resumed = [h for h in relay.heads if b"GET /v1/events" in h and b"last-event-id:" in h.lower()]
    assert resumed and f"{bob}/".encode() in resumed[-1]


async def test_a_restarted_gateway_is_resumed_without_loss_or_repeat(
    make_settings: Callable[..., Settings], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(streams, "BACKOFF_MAX", 1.0)  # the held relay makes the backoff grow: keep it short
    settings = make_settings()
    queue: asyncio.Queue[StreamEvent] = asyncio.Queue()
    async with run_gateway(settings) as gateway:
        alice, _ = await gateway.create_identity("alice")
        bob, _ = await gateway.create_identity("bob")
        relay = Relay((gateway.http.base_url.host, int(gateway.http.base_url.port or 80)))
        await relay.start()
        agw = AsyncGateway(relay.url, ADMIN_TOKEN)
        task = asyncio.create_task(collect(agw.events(), queue))
        await streams_open(gateway, 1)
        await mail(gateway, "one", alice)
        assert await take(queue, 1) == [(alice, "one")]
        relay.open.clear()  # the client finds nobody until the new gateway has its mail
        relay.cut()  # as the gateway going away does (uvicorn would wait for the endless stream)
        await streams_open(gateway, 0)
    try:
        async with run_gateway(settings, keep_mailbox=True) as gateway:
            relay.upstream = (gateway.http.base_url.host, int(gateway.http.base_url.port or 80))
            try:
                await mail(gateway, "two", bob)
                await mail(gateway, "three", alice)
                relay.open.set()
                assert await take(queue, 2) == [(bob, "two"), (alice, "three")]
                await mail(gateway, "four", bob)
                assert await take(queue, 1) == [(bob, "four")]
                assert queue.empty()
            finally:
                relay.cut()  # the endless stream must not hold the gateway's shutdown
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await agw.aclose()
        await relay.stop()


async def test_an_identity_stream_resumes_and_ends_with_auth_error_when_rotated(gateway: RunningGateway) -> None:
    url = str(gateway.http.base_url)
    async with AsyncGateway(url, ADMIN_TOKEN) as agw:
        me = await agw.create_identity("me")
        events = me.events()
        pending = asyncio.ensure_future(anext(events))
        await streams_open(gateway, 1)
        await mail(gateway, "hello", me.address)
        first = await asyncio.wait_for(pending, 30)
        assert (first.address, first.message.subject, first.id) == (me.address, "hello", first.message.id)
        await mail(gateway, "again", me.address)
        second = await asyncio.wait_for(anext(events), 30)
        assert second.message.subject == "again"
        # Resuming from an earlier event replays what came after it.
        replay = me.events(last_event_id=first.id)
        assert (await asyncio.wait_for(anext(replay), 30)).id == second.id
        await replay.aclose()
        rotated = await gateway.http.post(f"/v1/identities/{me.address}/rotate")
        assert rotated.status_code == 200
        await mail(gateway, "after the rotation", me.address)  # wakes the stream, which ends
        with pytest.raises(AuthError) as caught:
            await asyncio.wait_for(anext(events), 30)
        assert caught.value.status == 401
        await events.aclose()
    await streams_open(gateway, 0)


async def test_refusals_are_the_clients_errors(gateway: RunningGateway) -> None:
    url = str(gateway.http.base_url)
    alice, alice_token = await gateway.create_identity("alice")
    async with AsyncGateway(url, alice_token) as as_identity:
        with pytest.raises(AuthError) as forbidden:
            await anext(as_identity.events())
        assert forbidden.value.status == 403 and "/events" in forbidden.value.detail
    async with AsyncGateway(url, "am_not-a-real-token-at-all-000000") as stranger:
        with pytest.raises(AuthError):
            await anext(stranger.events())
    async with AsyncGateway(url, ADMIN_TOKEN) as agw:
        with pytest.raises(NotFound):
            await anext(agw.events(last_event_id=f"{alice}/nope"))
        with pytest.raises(InvalidRequest):
            await anext(agw.events(last_event_id="no slash"))
        with pytest.raises(InvalidRequest):
            await anext(agw.events(q='subject:"unclosed'))
        with pytest.raises(NotFound):
            await anext(agw.identity(alice, alice_token).events(last_event_id="nope"))
    async with AsyncGateway("http://127.0.0.1:9", ADMIN_TOKEN, retry_for=0.2) as nowhere:
        with pytest.raises(Unreachable):
            await anext(nowhere.events())
    assert gateway.gw.hub.count == 0


async def test_the_blocking_twin_streams_and_resumes(gateway: RunningGateway) -> None:
    alice, _ = await gateway.create_identity("alice")
    bob, _ = await gateway.create_identity("bob")
    url = str(gateway.http.base_url)
    got: list[StreamEvent] = []
    done = threading.Event()

    def read(count: int, **kw: Any) -> None:
        with Gateway(url, ADMIN_TOKEN) as gw:
            events = gw.events(**kw)
            for event in events:
                got.append(event)
                if len(got) == count:
                    break
            events.close()
        done.set()

    reader = asyncio.create_task(asyncio.to_thread(read, 2, q="subject:keep"))
    await streams_open(gateway, 1)
    await mail(gateway, "keep one", alice)
    await mail(gateway, "drop", bob)
    await mail(gateway, "keep two", bob)
    await asyncio.wait_for(reader, 30)
    assert [(e.address, e.message.subject) for e in got] == [(alice, "keep one"), (bob, "keep two")]
    first = got[0].id
    got.clear()
    await asyncio.wait_for(asyncio.to_thread(read, 2, last_event_id=first), 30)
    assert [(e.address, e.message.subject) for e in got] == [(bob, "drop"), (bob, "keep two")]


# --- the SSE parser (pure) ---------------------------------------------------------------

_TEXT = st.text(st.characters(exclude_categories=["Cs"], exclude_characters="\r\n\x00"), max_size=20)


@given(st.lists(st.tuples(_TEXT, st.lists(_TEXT, min_size=1, max_size=3)), max_size=5), st.booleans())
def test_the_parser_reads_back_what_a_server_writes(events: list[tuple[str, list[str]]], comments: bool) -> None:
    lines: list[str] = []
    for event_id, data in events:
        if comments:
            lines.append(": keep-alive")
            lines.append("")  # a comment alone dispatches nothing
        lines += ["event: message", f"id: {event_id}", *(f"data: {d}" for d in data), ""]
    parser = SseParser()
    parsed = [r for r in (parser.feed(line) for line in lines) if r is not None]
    assert parsed == [SseRecord(i, "message", "\n".join(d)) for i, d in events]


def test_the_parser_follows_the_standard_on_odd_lines() -> None:
    parser = SseParser()
    assert parser.feed("data:no space") is None
    assert parser.feed("retry: 10") is None  # ignored
    assert parser.feed("id: bad\x00id") is None  # an id with NUL is ignored
    assert parser.feed("data") is None  # a field with no colon: empty value
    assert parser.feed("") == SseRecord(None, "message", "no space\n")
    assert parser.feed("") is None
