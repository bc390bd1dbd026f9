"""Who a client is for throttling, and the REST API's throttle on unknown bearer tokens.

A client is its address as the server saw it: the TCP peer, or what a trusted proxy put in
`X-Forwarded-For` (`AGENTMAIL_TRUSTED_PROXIES`; by default no proxy is trusted, so a client
cannot name itself). Counts are rows in the store's `RateLimits` (they expire with their
window), so every gateway on one store counts together.
"""

from __future__ import annotations

from typing import Any, Final

from litestar.connection import ASGIConnection

from gateway.clients import client_key
from gateway.errors import TooManyAttempts
from gateway.store import RateLimits

__all__ = ["BAD_TOKEN_WINDOW", "MAX_BAD_TOKENS", "BadTokenThrottle", "client_key", "client_of"]

MAX_BAD_TOKENS: Final = 60
"""Unknown tokens one client may present per BAD_TOKEN_WINDOW before they are answered 429.

A CI farm behind one NAT whose jobs start with a stale token makes a burst of a few dozen
at most; a guesser makes thousands. A valid token is never counted and never held back."""
BAD_TOKEN_WINDOW: Final = 60.0


def client_of(connection: ASGIConnection[Any, Any, Any, Any]) -> str:
    """The `client_key` of the connection's client."""
    return client_key(connection.client.host) if connection.client is not None else "unknown"


class BadTokenThrottle:
    """Unknown bearer tokens per client: past MAX_BAD_TOKENS within the window, 429 instead of 401.

    Only a token that failed is counted, after it failed: a client presenting a valid token is
    served whatever its address did before, so good clients behind the same NAT as a broken
    or hostile one are never slowed. A valid token does not clear the count either (anyone
    holding one could otherwise reset it between guesses). This cannot stop a guesser from
    learning that a guess was right (a valid token must work); what keeps tokens out of reach
    is their 192 random bits. The throttle turns a flood of bad tokens into cheap 429s that
    tell a misconfigured client to back off, and keeps it out of the log.
    """

    def __init__(self, limits: RateLimits) -> None:
        self._limits = limits

    async def failed(self, client: str) -> None:
        """Count one unknown token from `client`; TooManyAttempts when it is over the limit."""
        wait = await self._limits.acquire(_key(client), limit=MAX_BAD_TOKENS, window=BAD_TOKEN_WINDOW)
        if wait is not None:
            raise TooManyAttempts(f"too many unknown tokens from this address; try again in {wait} s", retry_after=wait)


def _key(client: str) -> str:
    return f"api-token:{client}"
