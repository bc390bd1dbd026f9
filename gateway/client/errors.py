"""What a call to the gateway can raise: one tree under :class:`GatewayError`, never carrying a token."""

from __future__ import annotations

from datetime import UTC
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gateway.wire import Summary

__all__ = [
    "AuthError",
    "BadAnswer",
    "Conflict",
    "GatewayError",
    "InvalidRequest",
    "NotFound",
    "RateLimited",
    "Unavailable",
    "Unreachable",
    "WaitTimeout",
    "error_for",
]


class GatewayError(Exception):
    """The gateway refused or could not answer.

    `status` is the HTTP status (0 when there was no answer), `error` the gateway's stable code
    to match on, `detail` its sentence for people, `retry_after` seconds it asked to wait.
    """

    def __init__(self, status: int, error: str, detail: str, retry_after: float | None = None) -> None:
        super().__init__(detail)
        self.status = status
        self.error = error
        self.detail = detail
        self.retry_after = retry_after

    def __repr__(self) -> str:
        return f"{type(self).__name__}(status={self.status}, error={self.error!r}, detail={self.detail!r})"


class AuthError(GatewayError):
    """401: no token, or an unknown, revoked or expired one; 403: a token that may not do this."""


class NotFound(GatewayError):
    """404: no such identity, message or cursor (for this token)."""


class Conflict(GatewayError):
    """409: the name is taken or still quarantined."""


class InvalidRequest(GatewayError):
    """400, 413, 422: the gateway refused the input; `detail` names what."""


class RateLimited(GatewayError):
    """429: over a limit, and `Retry-After` did not fit in the caller's deadline."""


class Unavailable(GatewayError):
    """503 (or a proxy's 502/504): the gateway cannot answer now, and retrying did not fit the deadline."""


class Unreachable(GatewayError):
    """No answer at all: the gateway is down, the URL is wrong, or it did not answer in time."""


class BadAnswer(GatewayError):
    """Something answered that is not an agentmail gateway (check AGENTMAIL_URL)."""


class WaitTimeout(GatewayError):
    """Nothing matching arrived in time; the message lists what *did* arrive for the identity.

    `arrived` holds those messages (newest first, at most ten), for a test to inspect.
    """

    def __init__(self, address: str, waited: float, wanted: str, arrived: list[Summary] | None) -> None:
        self.address = address
        self.arrived = list(arrived or [])
        lines = [f"no unseen message{wanted} arrived for {address} within {waited:g} s"]
        if arrived is None:
            lines.append("(what did arrive could not be listed)")
        elif not arrived:
            lines.append("nothing at all arrived for this address")
        else:
            lines.append(f"what did arrive (newest first, {len(arrived)}):")
            for m in arrived:
                when = m.received_at.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S")
                lines.append(f"  {when}Z  from {m.from_ or '(none)'}  subject {m.subject!r}{_found(m)}")
        super().__init__(408, "timeout", "\n".join(lines))


def _found(m: Summary) -> str:
    parts = []
    if m.codes:
        parts.append("a code")
    if m.links:
        parts.append(f"{len(m.links)} link(s)")
    return f"  [{', '.join(parts)}]" if parts else "  [no code, no link]"


_BY_STATUS: dict[int, type[GatewayError]] = {
    400: InvalidRequest,
    401: AuthError,
    403: AuthError,
    404: NotFound,
    409: Conflict,
    413: InvalidRequest,
    422: InvalidRequest,
    429: RateLimited,
    502: Unavailable,
    503: Unavailable,
    504: Unavailable,
}


def error_for(status: int, error: str, detail: str, retry_after: float | None = None) -> GatewayError:
    """The exception for an answer with this status (a plain :class:`GatewayError` for any other)."""
    return _BY_STATUS.get(status, GatewayError)(status, error, detail, retry_after)
