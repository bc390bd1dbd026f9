"""Liveness (`/health`) and readiness (`/ready`) for probes and load balancers."""

from __future__ import annotations

from typing import Literal

import msgspec
from litestar import Response, get
from litestar.di import NamedDependency
from litestar.openapi import ResponseSpec

__all__ = ["HealthOut", "ReadyOut", "health", "ready"]


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


class ReadyOut(msgspec.Struct):
    status: Literal["ready", "not ready"]
    """`ready` (200): send this gateway requests. `not ready` (503): send them to another."""
    role: Literal["reader", "standby"]
    """`reader`: this gateway reads the mailbox (one per store); `standby`: it serves the API and
    takes over reading when the reader goes."""
    database: Literal["ok", "unreachable"]
    """Whether the store answers right now (authenticated calls answer 503 while it does not)."""
    reason: str | None = None
    """Why it is not ready."""


@get(
    "/ready",
    operation_id="ready",
    response_description="`ready`: the store answers and this gateway's view of it is current.",
    summary="Should a load balancer send this gateway requests",
    tags=["system"],
    security=[{}],  # no token
    responses={503: ResponseSpec(ReadyOut, generate_examples=False, description="Send requests elsewhere.")},
)
async def ready(readiness: NamedDependency[ReadyOut]) -> Response[ReadyOut]:
    """`ready` while the store answers, this gateway hears the others (their wake-ups and token
    changes) and, on the reader, new mail is indexed; needs no token.

    503 `not ready` with the reason otherwise: it recovers on its own. An index being rebuilt
    keeps it ready (mail reads answer 503 meanwhile; everything else works).
    """
    return Response(readiness, status_code=200 if readiness.status == "ready" else 503)
