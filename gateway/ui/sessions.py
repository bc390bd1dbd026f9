"""Sessions, CSRF and login throttling of the /ui pages.

A login exchanges a token (identity or admin) for a session: a random id
(`secrets.token_urlsafe(32)`) in an HttpOnly, SameSite=Strict cookie limited to /ui (Secure
when the request came over HTTPS). The store keeps only the id's SHA-256 and the hash of the
token it was opened with, so the session dies with that token: a rotation, the identity's
deletion or expiry, or a new admin token ends it on its next request. It also ends after
SESSION_MAX_AGE in all, after SESSION_IDLE without a request, at logout, and when its token
logs in past MAX_SESSIONS_PER_TOKEN while it is the one least recently used.

CSRF: each session's form token is an HMAC of its id, so it needs no storage and tells
nothing about the id. Before a session exists, the login form uses a double-submit cookie: a
random value both in an HttpOnly, SameSite=Strict cookie and in the form. Every POST must
also come from this site when the browser says where it came from (`Sec-Fetch-Site`, or
else an `Origin` other than `null`).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final
from urllib.parse import urlsplit

from litestar.datastructures import Cookie

from gateway.api.throttle import client_key
from gateway.errors import Unauthorized
from gateway.store import Principal, RateLimits, Store
from gateway.store.models import MAX_TOKEN_CHARS

__all__ = [
    "COOKIE_PATH",
    "LOGIN_COOKIE",
    "LOGIN_FORM_MAX_AGE",
    "MAX_SESSIONS_PER_TOKEN",
    "SESSION_COOKIE",
    "SESSION_IDLE",
    "SESSION_MAX_AGE",
    "LoginRefused",
    "LoginRequired",
    "LoginThrottle",
    "UiSession",
    "clear_cookie",
    "client_key",
    "csrf_matches",
    "current_session",
    "from_this_site",
    "login",
    "login_cookie",
    "logout",
    "new_login_nonce",
    "session_cookie",
    "session_hash",
    "valid_nonce",
]

SESSION_COOKIE: Final = "am_session"
LOGIN_COOKIE: Final = "am_login"
COOKIE_PATH: Final = "/ui"

SESSION_MAX_AGE: Final = 12 * 3600.0
"""A session ends 12 hours after login whatever happens: a working day, then log in again."""
SESSION_IDLE: Final = 3600.0
"""…and after an hour without a request (a screen left open on a shared desk)."""
LOGIN_FORM_MAX_AGE: Final = 3600
"""Seconds the login form's CSRF cookie lives; an older form is refused (reload it)."""
MAX_SESSIONS_PER_TOKEN: Final = 32
"""Live sessions one token may hold (one per browser); a login past it ends the least recently
used. Logins that succeed are not throttled, so without it one token could fill the store."""

MAX_FAILED_LOGINS: Final = 10
"""Failed logins one client may make per FAILED_LOGIN_WINDOW before it must wait (429)."""
FAILED_LOGIN_WINDOW: Final = 300.0

_ID_RE: Final = re.compile(r"[A-Za-z0-9_-]{43}")  # what token_urlsafe(32) gives (fullmatch: `$` would pass a "\n")
_CSRF_CONTEXT: Final = b"agentmail-gateway /ui csrf v1"


class LoginRequired(Exception):
    """The request needs a live session and has none: the pages answer with the login page."""

    def __init__(self, *, ended: bool) -> None:
        super().__init__("log in first")
        self.ended = ended
        """A session cookie was sent but its session is over (expired, logged out, revoked)."""


class LoginRefused(Exception):
    """The token does not open a session; `reason` is for the person, never echoes the token."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class UiSession:
    """A live /ui session: who it is and the CSRF token its forms carry."""

    principal: Principal
    csrf: str
    hash: str
    """SHA-256 of the session id: what the store knows it by."""


def session_hash(session_id: str) -> str:
    """SHA-256 hex of a session id: the only form the store keeps."""
    return hashlib.sha256(session_id.encode("ascii")).hexdigest()


def _csrf_of(session_id: str) -> str:
    return hmac.new(session_id.encode("ascii"), _CSRF_CONTEXT, hashlib.sha256).hexdigest()


def valid_nonce(value: str | None) -> bool:
    """Whether a cookie value has the shape of our random ids (anything else is ignored unread)."""
    return value is not None and _ID_RE.fullmatch(value) is not None


def new_login_nonce() -> str:
    """A fresh random value for the login form's double-submit cookie and hidden field."""
    return secrets.token_urlsafe(32)


def csrf_matches(expected: str, given: str) -> bool:
    """Constant-time comparison of a form's CSRF token with the expected one."""
    return bool(given) and hmac.compare_digest(expected.encode(), given.encode("utf-8", "surrogatepass"))


async def login(store: Store, token: str) -> tuple[str, UiSession]:
    """Open a session for `token`: (the new session id for the cookie, the session).

    LoginRefused when the token is unknown, revoked, expired or cannot read mail (provisioner).
    """
    token = token.strip()
    if not token or len(token) > MAX_TOKEN_CHARS:
        raise LoginRefused("That token is not valid. Paste the whole token, without spaces.")
    try:
        principal = await store.tokens.authenticate(token)
    except Unauthorized:  # one answer for every bad token: it tells nothing about any of them
        raise LoginRefused("That token is not valid: unknown, revoked or expired.") from None
    if principal.kind == "provisioner":
        raise LoginRefused("Provisioner tokens never read mail; use an identity token or the admin token.")
    await store.sessions.prune(max_age=SESSION_MAX_AGE, idle=SESSION_IDLE)  # no dead rows pile up
    session_id = secrets.token_urlsafe(32)
    digest = session_hash(session_id)
    await store.sessions.add(digest, token, keep=MAX_SESSIONS_PER_TOKEN)
    return session_id, UiSession(principal, _csrf_of(session_id), digest)


async def current_session(store: Store, session_id: str | None) -> UiSession | None:
    """The live session of a cookie value, or None (no cookie, malformed, over, or revoked)."""
    if session_id is None or not valid_nonce(session_id):
        return None
    digest = session_hash(session_id)
    principal = await store.sessions.get(digest, max_age=SESSION_MAX_AGE, idle=SESSION_IDLE)
    return None if principal is None else UiSession(principal, _csrf_of(session_id), digest)


async def logout(store: Store, session: UiSession) -> None:
    """End the session server-side (the cookie is cleared by the response)."""
    await store.sessions.delete(session.hash)


def session_cookie(session_id: str, *, secure: bool) -> Cookie:
    """The session cookie: HttpOnly, SameSite=Strict, Path=/ui, Secure over HTTPS."""
    return Cookie(
        key=SESSION_COOKIE,
        value=session_id,
        path=COOKIE_PATH,
        max_age=int(SESSION_MAX_AGE),
        httponly=True,
        samesite="strict",
        secure=secure,
    )


def login_cookie(nonce: str, *, secure: bool) -> Cookie:
    """The login form's double-submit cookie, with the session cookie's flags."""
    return Cookie(
        key=LOGIN_COOKIE,
        value=nonce,
        path=COOKIE_PATH,
        max_age=LOGIN_FORM_MAX_AGE,
        httponly=True,
        samesite="strict",
        secure=secure,
    )


def clear_cookie(key: str, *, secure: bool) -> Cookie:
    """A cookie that makes the browser forget `key` at once."""
    return Cookie(key=key, value="", path=COOKIE_PATH, max_age=0, httponly=True, samesite="strict", secure=secure)


def from_this_site(headers: Mapping[str, str]) -> bool:
    """Whether a POST may have come from our own pages, as far as the browser tells.

    `Sec-Fetch-Site` is set by the browser and cannot be forged by a page: only
    `same-origin` passes. Without it, `Origin` (when sent) must name the host the request was
    sent to; the scheme is not compared, since a TLS proxy in front changes it. With neither
    (old browsers, scripts), the CSRF token alone decides; so too with `Origin: null`, which
    tells nothing: our own pages send it, since a browser nulls the Origin of a form post from
    a page whose Referrer-Policy is `no-referrer` (Fetch, "append a request Origin header").
    """
    site = headers.get("sec-fetch-site")
    if site is not None:
        return site.strip().lower() == "same-origin"
    origin = headers.get("origin")
    if origin is None or origin.strip() == "null":
        return True
    parts = urlsplit(origin.strip())
    host = headers.get("host", "")
    return parts.scheme in ("http", "https") and bool(parts.netloc) and parts.netloc.lower() == host.strip().lower()


class LoginThrottle:
    """Failed logins per client: after MAX_FAILED_LOGINS within the window, logins wait.

    Tokens carry 192 random bits, so guessing one is hopeless; the throttle keeps a
    configured admin token (16 characters at least) out of reach too, and failed logins out
    of the log. A successful login does not clear the count: anyone holding one valid token
    (their own identity's) could otherwise reset it between guesses. Clients are keyed by
    `client_key`. The counts are rows in the store (they expire with the window), so every
    gateway on one store counts together. Behind a proxy all clients share its address
    unless the proxy is in AGENTMAIL_TRUSTED_PROXIES (by default none is: a client's own
    X-Forwarded-For is never believed).
    """

    def __init__(self, limits: RateLimits) -> None:
        self._limits = limits

    async def admit(self, client: str) -> int | None:
        """Count this login attempt as a failure before it is tried: None to go ahead, else seconds to wait.

        Counted first, in one step with the check, so guesses sent at once cannot all pass it.
        """
        return await self._limits.acquire(_key(client), limit=MAX_FAILED_LOGINS, window=FAILED_LOGIN_WINDOW)

    async def succeeded(self, client: str) -> None:
        """The admitted attempt logged in: it was no failure after all."""
        await self._limits.release(_key(client))

    async def retry_after(self, client: str) -> int | None:
        """Seconds `client` must wait before trying again, or None when it may try now."""
        return await self._limits.retry_after(_key(client), limit=MAX_FAILED_LOGINS, window=FAILED_LOGIN_WINDOW)


def _key(client: str) -> str:
    return f"ui-login:{client}"
