"""Liveness for probes and load balancers."""

from __future__ import annotations

from typing import Literal

import msgspec
from litestar import Response, get
from litestar.di import NamedDependency
from litestar.openapi import ResponseSpec

__all__ = ["HealthOut", "health"]


class HealthOut(msgspec.Struct):
    status: Literal["ok", "rebuilding", "failing"]
    """`failing` (503) when the gateway no longer indexes new mail, or catching up with the
    mailbox failed three times in a row (it keeps retrying): restarting it may help.
    `rebuilding` (still 200: alive and working) while the message index is built from the
    mailbox after it was deleted or renumbered; mail reads answer 503 with Retry-After until then."""
    source: str
    """`local` (embedded SMTP + Maildir) or `imap` (Dovecot)."""
    mailbox: Literal["ok", "unreachable"]
    """Whether the mailbox answers right now; the gateway reconnects on its own."""


@get(
    "/health",
    operation_id="health",
    response_description="`ok`, or `rebuilding` while the index is rebuilt from the mailbox.",
    summary="Is the gateway alive",
    tags=["system"],
    sync_to_thread=False,
    security=[{}],  # no token
    responses={
        503: ResponseSpec(HealthOut, generate_examples=False, description="The gateway no longer indexes new mail.")
    },
)
def health(health_state: NamedDependency[HealthOut]) -> Response[HealthOut]:
    """`ok` while the gateway serves requests and indexes new mail; needs no token.

    503 with `failing` when it no longer indexes new mail (a supervisor may restart it);
    `rebuilding` (200) while the message index is rebuilt from the mailbox.
    """
    return Response(health_state, status_code=503 if health_state.status == "failing" else 200)
