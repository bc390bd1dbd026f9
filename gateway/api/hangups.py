"""A client that hangs up half-way through its request body: a quiet ClientGone, not a 500.

Litestar reads a body until the server says the client disconnected, then raises a 500
("client disconnected prematurely"), which the error mapping logs as a failure with its
traceback. Nobody is there to read any answer, and nothing failed on our side: `receive`
raises ClientGone instead (answered 499, never sent), and one INFO line says what happened.
"""

from __future__ import annotations

import logging

from litestar.enums import ScopeType
from litestar.types import ASGIApp, Receive, ReceiveMessage, Scope, Send

from gateway.errors import ClientGone

__all__ = ["client_gone_mid_body"]

log = logging.getLogger(__name__)


def _announces_body(scope: Scope) -> bool:
    for name, value in scope.get("headers", ()):
        if name == b"transfer-encoding" or (name == b"content-length" and value.strip() not in (b"", b"0")):
            return True
    return False


def client_gone_mid_body(app: ASGIApp) -> ASGIApp:
    """ASGI middleware: a disconnect before the announced body is complete raises ClientGone."""

    async def guarded(scope: Scope, receive: Receive, send: Send) -> None:
        # No body announced: a disconnect is what a streaming handler listens for, leave it be.
        if scope["type"] != ScopeType.HTTP or not _announces_body(scope):
            await app(scope, receive, send)
            return
        complete = False

        async def receive_body() -> ReceiveMessage:
            nonlocal complete
            message = await receive()
            if message["type"] == "http.request":
                complete = not message.get("more_body", False)
            elif message["type"] == "http.disconnect" and not complete:
                log.info(
                    "%s %s: dropped, its body ended early (the client left, or stalled and was cut off)",
                    scope.get("method"),
                    scope["path"],
                )
                raise ClientGone("the client closed the connection before its request body was complete")
            return message

        await app(scope, receive_body, send)

    return guarded
