"""The push listener: a real socket, real HTTP clients, hostile requests bounded."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import httpx
import pytest

from gateway.sources.push import MAX_BODY_BYTES, MAX_CONNECTIONS, start_push_listener

SECRET = "s3cret-push-token-0123456789"


class Listener:
    def __init__(self) -> None:
        self.hints = 0
        self.hinted = asyncio.Event()
        self.url = ""

    def on_push(self) -> None:
        self.hints += 1
        self.hinted.set()


@pytest.fixture
async def listener() -> AsyncIterator[Listener]:
    state = Listener()
    server = await start_push_listener("127.0.0.1", 0, SECRET, state.on_push)
    host, port = server.sockets[0].getsockname()[:2]
    state.url = f"http://{host}:{port}/push"
    try:
        yield state
    finally:
        server.close()
        await server.wait_closed()


# What Dovecot's OX driver sends: JSON about the message, which the gateway ignores.
DOVECOT_BODY = b'{"user":"catchall@agents.test","unseen":1,"folder":"INBOX","event":"messageNew","subject":"hi"}'


async def test_authenticated_post_hints_once(listener: Listener) -> None:
    async with httpx.AsyncClient() as client:
        response = await client.post(listener.url, content=DOVECOT_BODY, auth=("dovecot", SECRET))
    assert response.status_code == 200
    assert listener.hints == 1


@pytest.mark.parametrize(
    "auth",
    [None, ("dovecot", "wrong"), ("dovecot", SECRET[:-1]), ("dovecot", SECRET + "x"), ("", "")],
)
async def test_wrong_or_missing_secret_is_401_and_no_hint(listener: Listener, auth: tuple[str, str] | None) -> None:
    async with httpx.AsyncClient() as client:
        response = await client.post(listener.url, content=DOVECOT_BODY, auth=auth)
    assert response.status_code == 401
    assert "basic" in response.headers["www-authenticate"].lower()
    assert listener.hints == 0


async def test_bearer_or_garbage_authorization_is_401(listener: Listener) -> None:
    async with httpx.AsyncClient() as client:
        for value in (f"Bearer {SECRET}", "Basic !!!not-base64!!!", "Basic"):
            response = await client.post(listener.url, content=b"{}", headers={"Authorization": value})
            assert response.status_code == 401, value
    assert listener.hints == 0


async def test_get_is_405(listener: Listener) -> None:
    async with httpx.AsyncClient() as client:
        response = await client.get(listener.url, auth=("dovecot", SECRET))
    assert response.status_code == 405
    assert listener.hints == 0


async def test_oversized_body_is_413_before_reading_it(listener: Listener) -> None:
    async with httpx.AsyncClient() as client:
        response = await client.post(listener.url, content=b"x" * (MAX_BODY_BYTES + 1), auth=("dovecot", SECRET))
    assert response.status_code == 413
    assert listener.hints == 0


async def test_oversized_head_and_garbage_get_400(listener: Listener) -> None:
    host, port = listener.url.split("/")[2].split(":")
    oversized = b"POST /push HTTP/1.1\r\nX: " + b"a" * 20_000 + b"\r\n\r\n"
    for request in (oversized, b"\x00\xff garbage\r\nno colon\r\n\r\n"):
        reader, writer = await asyncio.open_connection(host, int(port))
        writer.write(request)
        await writer.drain()
        reply = await asyncio.wait_for(reader.read(), 10)
        writer.close()
        assert reply.startswith(b"HTTP/1.1 400"), reply
    assert listener.hints == 0


async def test_a_stalled_client_does_not_block_others(listener: Listener) -> None:
    host, port = listener.url.split("/")[2].split(":")
    _, stalled = await asyncio.open_connection(host, int(port))
    stalled.write(b"POST /push HTTP/1.1\r\n")  # and never more
    await stalled.drain()
    async with httpx.AsyncClient() as client:
        response = await client.post(listener.url, content=DOVECOT_BODY, auth=("dovecot", SECRET))
    assert response.status_code == 200 and listener.hints == 1
    stalled.close()


async def test_a_flood_of_idle_connections_is_capped_and_service_goes_on(listener: Listener) -> None:
    host, port = listener.url.split("/")[2].split(":")
    idle = []
    for _ in range(MAX_CONNECTIONS):
        _, writer = await asyncio.open_connection(host, int(port))
        writer.write(b"POST /push HTTP/1.1\r\n")  # and never more
        idle.append(writer)
    # One more is closed at once, unanswered: nothing past the cap is held open.
    reader, extra = await asyncio.open_connection(host, int(port))
    assert await asyncio.wait_for(reader.read(), 10) == b""
    extra.close()
    for writer in idle:
        writer.close()
    # Once they are gone, Dovecot's request is served as before.
    for writer in idle:
        await writer.wait_closed()
    async with httpx.AsyncClient() as client:
        for _ in range(50):  # the server learns of the closes as it reads them: retry briefly
            try:
                response = await client.post(listener.url, content=DOVECOT_BODY, auth=("dovecot", SECRET))
                break
            except httpx.TransportError:  # still at the cap: closed unanswered
                continue
    assert response.status_code == 200 and listener.hints == 1
