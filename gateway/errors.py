"""The gateway's errors: one base, each with a stable API `code` and a human `detail`.

    GatewayError
    ├── InvalidInput        400  malformed or invalid input
    │   └── InvalidName     422  a local part that is malformed or reserved
    ├── Unauthorized        401  no token, or one that is unknown, revoked or expired
    ├── Forbidden           403  a valid token on a path it may not use
    ├── NotFound            404  no such identity, message or token
    ├── Conflict            409  the name is taken or quarantined
    ├── TooLarge            413  a body over the limit
    ├── SourceUnavailable   503  the mailbox (Dovecot) cannot be reached right now
    └── StoreError          the durable store is unreadable or corrupt (stops start-up)

`api/exceptions.py` maps these to HTTP in one place; the SMTP intake maps its own.
"""

from __future__ import annotations

__all__ = [
    "Conflict",
    "Forbidden",
    "GatewayError",
    "InvalidInput",
    "InvalidName",
    "NotFound",
    "SourceUnavailable",
    "StoreError",
    "TooLarge",
    "Unauthorized",
]


class GatewayError(Exception):
    """Base of every error the gateway raises on purpose."""

    code: str = "error"
    status: int = 500

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
