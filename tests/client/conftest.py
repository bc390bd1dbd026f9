"""Real HTTP servers in front of the gateway: a reverse proxy that cuts long requests, and canned first answers.

`Front` is a small ASGI reverse proxy served by uvicorn on a loopback port in the test's event
loop (as the `gateway` fixture serves the gateway): it forwards every request to the gateway
over real HTTP, cuts any request still unanswered after `cut_after` seconds with a 504 page
(as nginx's `proxy_read_timeout` does), and can answer the first requests itself (a 429 or
503 with `Retry-After`, another web server's 200 page) before it starts forwarding.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
import uvicorn

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]

_HOP_BY_HOP = {b"host", b"connection", b"keep-alive", b"content-length", b"transfer-encoding"}


@dataclass(frozen=True)
class Canned:
    """An answer the front gives itself instead of forwarding."""

    status: int
    body: bytes
    headers: tuple[tuple[str, str], ...] = ()


@dataclass
class Front:
    """A reverse proxy to `upstream`; `canned` answers go first (in order), `always` for every request."""

    upstream: str
    cut_after: float | None = None
    canned: list[Canned] = field(default_factory=list)
    always: Canned | None = None
    requests: list[httpx.URL] = field(default_factory=list)
    """Every request that came in (path and query), in order."""
    cuts: int = 0
    """Requests cut for being open longer than `cut_after`."""

    def waits(self) -> list[httpx.URL]:
        return [url for url in self.requests if url.path.endswith("/wait")]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        assert scope["type"] == "http"
        body = b""
        while True:
            event = await receive()
            body += event.get("body", b"")
            if not event.get("more_body"):
                break
        target = scope["raw_path"].decode() + (f"?{scope['query_string'].decode()}" if scope["query_string"] else "")
        self.requests.append(httpx.URL(target))
        answer = self.canned.pop(0) if self.canned else self.always
        if answer is None:
            answer = await self._forward(scope["method"], target, scope["headers"], body)
        await send(
            {
                "type": "http.response.start",
                "status": answer.status,
                "headers": [(k.encode(), v.encode()) for k, v in answer.headers],
            }
        )
        await send({"type": "http.response.body", "body": answer.body})

    async def _forward(self, method: str, target: str, headers: list[tuple[bytes, bytes]], body: bytes) -> Canned:
        passed = [(k, v) for k, v in headers if k.lower() not in _HOP_BY_HOP]
        # A fresh connection per request: cutting one (the timeout closes it) tells the gateway
        # its client went away, as a real proxy closing its upstream connection does.
        async with httpx.AsyncClient(base_url=self.upstream, timeout=None) as http:
            try:
                async with asyncio.timeout(self.cut_after):
                    response = await http.request(method, target, headers=passed, content=body)
            except TimeoutError:
                self.cuts += 1
                return Canned(504, b"<html><h1>504 Gateway Time-out</h1></html>", (("content-type", "text/html"),))
        kept = tuple((k, v) for k, v in response.headers.items() if k.encode() not in _HOP_BY_HOP)
        return Canned(response.status_code, response.content, kept)


@contextlib.asynccontextmanager
async def serving(app: Callable[[Scope, Receive, Send], Awaitable[None]]) -> AsyncIterator[str]:
    """Serve the ASGI `app` on a free loopback port in this event loop; yields its base URL."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    config = uvicorn.Config(app, lifespan="off", log_level="warning")
    server = uvicorn.Server(config)
    config.load()
    server.lifespan = config.lifespan_class(config)  # what Server.serve() sets before startup()
    await server.startup(sockets=[sock])
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        await server.shutdown(sockets=[sock])
        sock.close()


async def poll(condition: Callable[[], bool], timeout: float, what: str) -> None:
    """Wait (without blocking the loop) until `condition` holds; AssertionError naming `what` after `timeout` s."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        await asyncio.sleep(0.02)


@dataclass
class Cutter:
    """A TCP proxy to `upstream_port` closing a connection whose request is unanswered after `cut_after` s.

    The other kind of proxy cut: no 504 page, the connection just goes (a load balancer's idle timeout).
    """

    upstream_port: int
    cut_after: float
    cuts: int = 0
    requests: int = 0
    """Chunks the client sent that started a new request (a request after the last answer)."""

    async def handle(self, client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        upstream_reader, upstream_writer = await asyncio.open_connection("127.0.0.1", self.upstream_port)
        asked_at: list[float] = []  # when the request now open was sent; empty once it was answered
        loop = asyncio.get_running_loop()

        async def pump(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, asking: bool) -> None:
            while data := await reader.read(65536):
                if asking and not asked_at:
                    asked_at.append(loop.time())
                    self.requests += 1
                elif not asking:
                    asked_at.clear()
                writer.write(data)
                await writer.drain()

        async def watchdog() -> None:
            while not asked_at or loop.time() - asked_at[0] < self.cut_after:
                await asyncio.sleep(0.02)
            self.cuts += 1

        tasks = [
            asyncio.create_task(pump(client_reader, upstream_writer, True)),
            asyncio.create_task(pump(upstream_reader, client_writer, False)),
            asyncio.create_task(watchdog()),
        ]
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            for writer in (client_writer, upstream_writer):
                writer.close()
                with contextlib.suppress(OSError):
                    await writer.wait_closed()


@contextlib.asynccontextmanager
async def cutting(upstream_port: int, cut_after: float) -> AsyncIterator[tuple[str, Cutter]]:
    """A :class:`Cutter` on a free loopback port; yields (its base URL, it)."""
    cutter = Cutter(upstream_port, cut_after)
    server = await asyncio.start_server(cutter.handle, "127.0.0.1", 0)
    try:
        yield f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}", cutter
    finally:
        server.close()
        await server.wait_closed()
