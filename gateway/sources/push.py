"""Dovecot's push notifications: a content-free "look now" hint for the imap source.

Dovecot's `push_notification` plugin (OX driver) POSTs a small JSON document on every LMTP
delivery. IDLE is debounced by ~0.5 s in Dovecot; this hint arrives within milliseconds of
delivery. Whatever the body says (from, subject, snippet) is ignored: it is read, bounded,
and thrown away, and the hint only makes the source search for new UIDs (coalesced).

The listener speaks just enough HTTP/1.1 for that driver, on its own socket (loopback or the
internal network only), and wants the shared secret as the Basic-auth password of the URL
Dovecot is configured with, compared in constant time.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import hmac
import logging
import time
from collections.abc import Callable
from typing import Final

__all__ = ["start_push_listener"]

log = logging.getLogger(__name__)

MAX_HEAD_BYTES: Final = 8 * 1024  # request line + headers; the driver sends a few hundred bytes
MAX_BODY_BYTES: Final = 64 * 1024  # the JSON carries a snippet; anything bigger is not Dovecot
READ_TIMEOUT: Final = 5.0  # a client that stalls longer is dropped
MAX_CONNECTIONS: Final = 64  # Dovecot's LMTP processes each hold one at most
WARN_EVERY: Final = 60.0  # seconds between two warnings about a wrong secret

_RESPONSES: Final = {
    200: b"HTTP/1.1 200 OK",
    400: b"HTTP/1.1 400 Bad Request",
    401: b'HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Basic realm="agentmail-push"',
    405: b"HTTP/1.1 405 Method Not Allowed\r\nAllow: POST, PUT",
    413: b"HTTP/1.1 413 Content Too Large",
}


async def start_push_listener(host: str, port: int, secret: str, on_push: Callable[[], None]) -> asyncio.Server:
    """Serve push hints on host:port; each authenticated POST calls `on_push()`."""
    expected = secret.encode()
    open_connections = 0
    last_warning = -WARN_EVERY

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal open_connections, last_warning
        if open_connections >= MAX_CONNECTIONS:  # Dovecot opens a few; a flood is dropped
            writer.close()
            return
        open_connections += 1
        try:
            await _serve(reader, writer)
        finally:
            open_connections -= 1

    async def _serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal last_warning
        try:
            async with asyncio.timeout(READ_TIMEOUT):
                status = await _read_request(reader, expected)
        except (TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError, ValueError):
            status = 400
        if status == 200:
            on_push()
        elif status == 401 and time.monotonic() - last_warning >= WARN_EVERY:  # no log flood
            last_warning = time.monotonic()
            log.warning("push notification with a wrong secret refused (further ones for a minute unlogged)")
        try:
            writer.write(_RESPONSES[status] + b"\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            async with asyncio.timeout(READ_TIMEOUT):
                await writer.drain()
        except (TimeoutError, ConnectionError):
            pass
        finally:
            writer.close()

    return await asyncio.start_server(handle, host, port, limit=MAX_HEAD_BYTES)


async def _read_request(reader: asyncio.StreamReader, expected: bytes) -> int:
    """The status one request earns; its body is read (bounded) and ignored."""
    head = await reader.readuntil(b"\r\n\r\n")
    request_line, *header_lines = head[:-4].split(b"\r\n")
    method = request_line.split(b" ", 1)[0]
    headers: dict[bytes, bytes] = {}
    for line in header_lines:
        name, sep, value = line.partition(b":")
        if not sep:
            return 400
        headers[name.strip().lower()] = value.strip()
    length_text = headers.get(b"content-length", b"0")
    if not length_text.isdigit():
        return 400  # chunked bodies are not something Dovecot's driver sends
    length = int(length_text)
    if length > MAX_BODY_BYTES:
        return 413
    if method not in (b"POST", b"PUT"):
        return 405
    if not _authorized(headers.get(b"authorization", b""), expected):
        return 401
    await reader.readexactly(length)
    return 200


def _authorized(header: bytes, expected: bytes) -> bool:
    scheme, _, encoded = header.partition(b" ")
    if scheme.lower() != b"basic":
        return False
    try:
        decoded = base64.b64decode(encoded.strip(), validate=True)
    except (binascii.Error, ValueError):
        return False
    _, _, password = decoded.partition(b":")
    return hmac.compare_digest(password, expected)
