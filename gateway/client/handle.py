"""What both client twins share outside the plans: configuration from the environment, and the handle's state."""

from __future__ import annotations

import math
import os
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Final

from gateway.client.plans import NoReply

if TYPE_CHECKING:
    import httpx

__all__ = [
    "DEFAULT_URL",
    "IdentityState",
    "Token",
    "no_reply",
    "resolve_token",
    "resolve_url",
    "ttl_seconds",
    "where",
]

DEFAULT_URL: Final = "http://127.0.0.1:8025"


def resolve_url(url: str | None) -> str:
    """`url`, else AGENTMAIL_URL, else the local default."""
    return (url or os.environ.get("AGENTMAIL_URL", "").strip() or DEFAULT_URL).rstrip("/")


class Token(str):
    """A token as the client's own frames hold it: a `str` in every use, but its `repr` hides it.

    Tracebacks that show locals (`pytest -l`, debuggers, error trackers) print reprs, and those
    reports end up in CI logs. Never handed out: msgspec encodes no `str` subclass, so the public
    `Identity.token` is a plain `str`.
    """

    __slots__ = ()

    def __repr__(self) -> str:
        return "Token('***')"


def resolve_token(token: str | None) -> Token | None:
    """`token`, else AGENTMAIL_TOKEN (a provisioner or the admin token), else None."""
    if token is not None:
        return Token(token)
    found = os.environ.get("AGENTMAIL_TOKEN", "").strip()
    return Token(found) if found else None


def where(url: str) -> str:
    """The URL as error messages name it: never the user:password it may carry."""
    import httpx

    try:
        return str(httpx.URL(url).copy_with(userinfo=b""))
    except httpx.InvalidURL:
        return "the configured AGENTMAIL_URL"


def ttl_seconds(ttl: float | timedelta | None) -> int | None:
    """A lifetime as whole seconds (rounded up: a ttl never ends early)."""
    if ttl is None:
        return None
    seconds = ttl.total_seconds() if isinstance(ttl, timedelta) else float(ttl)
    return max(1, math.ceil(seconds))


def no_reply(exc: httpx.RequestError) -> NoReply:
    """How a failed request counts: `cut` once it reached a server (a wait re-arms), else unreachable."""
    import httpx

    reached = isinstance(exc, httpx.ReadTimeout | httpx.WriteTimeout | httpx.RemoteProtocolError | httpx.ReadError)
    return NoReply(cut=reached)


class IdentityState:
    """An identity's address, token and record; `repr` never shows the token."""

    def __init__(
        self,
        address: str,
        token: str,
        *,
        created_at: datetime | None = None,
        expires_at: datetime | None = None,
        label: str | None = None,
    ) -> None:
        self.address = address
        self._secret = Token(token)
        self.created_at = created_at
        self.expires_at = expires_at
        self.label = label

    @property
    def token(self) -> str:
        """The identity's own token (a plain `str`): reads its mail and nothing else. Keep it out of logs."""
        return str(self._secret)

    @token.setter
    def token(self, value: str) -> None:
        self._secret = Token(value)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.address!r})"

    def __str__(self) -> str:
        return self.address
