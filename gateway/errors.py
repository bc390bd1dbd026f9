"""The gateway's errors: one base, each with a stable API `code` and a human `detail`.

    GatewayError
    ├── InvalidInput        400  malformed or invalid input
    │   └── InvalidName     422  a local part that is malformed or reserved
    ├── Unauthorized        401  no token, or one that is unknown, revoked or expired
    ├── Forbidden           403  a valid token on a path it may not use
    ├── NotFound            404  no such identity, message or token
    ├── WaitTimeout         408  nothing matching arrived before the wait's timeout
    ├── Conflict            409  the name is taken or quarantined
    ├── TooLarge            413  a body over the limit
    ├── TooManyWaiters      429  over the open-wait limits (Retry-After)
    ├── ClientGone          499  the client left during a wait (nobody reads the answer)
    ├── SourceUnavailable   503  the mailbox (Dovecot) cannot be reached right now
    └── StoreError          the durable store is unreadable or corrupt (stops start-up)

`api/exceptions.py` maps these to HTTP in one place; the SMTP intake maps its own.
"""

from __future__ import annotations

__all__ = [
    "ClientGone",
    "Conflict",
    "Forbidden",
    "GatewayError",
    "InvalidInput",
    "InvalidName",
    "NotFound",
    "SourceUnavailable",
    "StoreError",
    "TooLarge",
    "TooManyWaiters",
    "Unauthorized",
    "WaitTimeout",
]


class GatewayError(Exception):
    """Base of every error the gateway raises on purpose."""

    code: str = "error"
    status: int = 500
    retry_after: int | None = None
    """Seconds a client should wait before trying again (sent as Retry-After), if any."""

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


class InvalidInput(GatewayError):
    """The request is malformed or a value is out of range."""

    code = "invalid_request"
    status = 400


class InvalidName(InvalidInput):
    """A local part that breaks the naming rules or is reserved."""

    code = "invalid_local_part"
    status = 422


class Unauthorized(GatewayError):
    """No token, or a token that does not authenticate."""

    code = "unauthorized"
    status = 401


class Forbidden(GatewayError):
    """A valid token used where it has no right."""

    code = "forbidden"
    status = 403


class NotFound(GatewayError):
    """An unknown identity, message or token."""

    code = "not_found"
    status = 404


class WaitTimeout(GatewayError):
    """A wait ended without a matching message."""

    code = "timeout"
    status = 408


class TooManyWaiters(GatewayError):
    """Too many waits or event streams are open (per address or in all)."""

    code = "rate_limited"
    status = 429
    retry_after = 1


class ClientGone(GatewayError):
    """The client disconnected while waiting; the answer goes nowhere."""

    code = "client_closed_request"
    status = 499


class Conflict(GatewayError):
    """A name that is already taken or still quarantined."""

    code = "conflict"
    status = 409


class TooLarge(GatewayError):
    """A request or message over its size limit."""

    code = "too_large"
    status = 413


class SourceUnavailable(GatewayError):
    """The mailbox cannot be reached right now; the sync retries on its own."""

    code = "mail_unavailable"
    status = 503
    retry_after = 5


class StoreError(GatewayError):
    """The durable store cannot be trusted; the gateway refuses to run on it."""

    code = "store_error"
    status = 503
