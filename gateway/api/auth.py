"""Who is calling, and whether they may use this path: DESIGN.md's "Who may do what".

Every route is authenticated unless excluded (health, schema): a route that forgets a check
still needs a valid token. A token on another identity's path is refused with 403 before any
lookup, so it learns nothing about that identity or its messages. `mail_identity` is the one
rule for "whose mail may this request read", used by the API and the /ui pages alike.
"""

from __future__ import annotations

import time
from typing import Annotated, Any, Final

from litestar import Request
from litestar.connection import ASGIConnection
from litestar.handlers.base import BaseRouteHandler
from litestar.middleware import AbstractAuthenticationMiddleware, AuthenticationResult
from litestar.openapi.spec import SecurityScheme
from litestar.params import PathParameter

from gateway.api.throttle import BadTokenThrottle, client_of
from gateway.errors import Forbidden, GatewayError, InvalidInput, InvalidName, NotFound, Unauthorized
from gateway.feed import Scope
from gateway.mail.recipients import normalize_address
from gateway.names import check_local_part
from gateway.redact import looks_like_token
from gateway.store import Identity, Principal, Store
from gateway.store.models import MAX_TOKEN_CHARS

__all__ = [
    "BEARER",
    "BEARER_SCHEME",
    "PUBLIC_PATHS",
    "Address",
    "TokenAuth",
    "access_lost",
    "admin_only",
    "admin_or_provisioner",
    "feed_scope",
    "mail_identity",
    "managed_identity",
    "still_authorized",
    "store_of",
    "token_lost",
]

PUBLIC_PATHS: Final = ["^/health$", "^/ready$", "^/schema"]

Address = Annotated[
    str,
    PathParameter(description="The identity's full address, `local-part@domain` (as created; case-insensitive)."),
]
"""The `{address}` path parameter, as documented in /schema."""

BEARER: Final = "bearer"
"""The OpenAPI document's name for the token scheme."""
BEARER_SCHEME: Final = SecurityScheme(
    type="http",
    scheme="bearer",
    description="`Authorization: Bearer <token>`: the admin, a provisioner or an identity token (`am_…`).",
)


class TokenAuth(AbstractAuthenticationMiddleware):
    """Bearer token from the Authorization header only (never a query string or cookie).

    An unknown token is counted against its client (`BadTokenThrottle`): past the limit it is
    answered 429 instead of 401. A valid token is served at once, whatever its address did.
    """

    async def authenticate_request(self, connection: ASGIConnection[Any, Any, Any, Any]) -> AuthenticationResult:
        try:
            principal = await _authenticate(connection)
        except Unauthorized:
            if _presented_token(connection):  # no token at all is a mistake, not a guess
                await BadTokenThrottle(store_of(connection).limits).failed(client_of(connection))
            raise
        return AuthenticationResult(user=principal, auth=None)


def store_of(connection: ASGIConnection[Any, Any, Any, Any]) -> Store:
    """The running gateway's store (the middleware has no dependency injection; this is its one path)."""
    store: Store = connection.app.state.gateway.store
    return store


def _presented_token(connection: ASGIConnection[Any, Any, Any, Any]) -> str:
    """The bearer token of the request, or "" when it sends none."""
    scheme, _, token = connection.headers.get("authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


async def _authenticate(connection: ASGIConnection[Any, Any, Any, Any]) -> Principal:
    token = _presented_token(connection)
    if not token:
        raise Unauthorized("send 'Authorization: Bearer <token>'")
    if len(token) > MAX_TOKEN_CHARS:
        raise Unauthorized("unknown or revoked token")
    return await store_of(connection).tokens.authenticate(token)


async def still_authorized(connection: ASGIConnection[Any, Any, Any, Any], identity: Identity) -> bool:
    """Whether a long request (wait, event stream) may still see `identity`'s mail (see `access_lost`)."""
    return await access_lost(connection, identity) is None


async def access_lost(connection: ASGIConnection[Any, Any, Any, Any], identity: Identity) -> GatewayError | None:
    """Why a long request (wait, event stream) may no longer see `identity`'s mail; None while it may.

    Its token rotated or revoked (401), or the identity deleted, expired or re-created since the
    request began (404: the admin's token is fine, the identity it waited on is gone): none of
    those may keep a door open.
    """
    lost = await token_lost(connection)
    if lost is not None:
        return lost
    current = await store_of(connection).identities.find(identity.address)
    if current is None:
        return NotFound(f"the identity {identity.address} was deleted while waiting")
    if current.id != identity.id:
        return NotFound(
            f"the identity {identity.address} was deleted and created again while waiting;"
            " the new one's mail is not this request's"
        )
    if current.expired(time.time()):
        return NotFound(f"the identity {identity.address} expired while waiting")
    return None


async def token_lost(connection: ASGIConnection[Any, Any, Any, Any]) -> Unauthorized | None:
    """Why a long request's token no longer holds (rotated, revoked, its identity deleted); None while it does."""
    try:
        principal = await _authenticate(connection)
    except Unauthorized:
        return Unauthorized("the token was revoked or rotated, or its identity deleted, while waiting")
    if principal.token_id != _principal(connection).token_id:
        return Unauthorized("the token was revoked or rotated while waiting")
    return None


def feed_scope(request: Request[Any, Any, Any]) -> Scope:
    """What `GET /v1/events` streams for this caller: every identity (admin), or the ones it made (a provisioner)."""
    principal = _principal(request)
    if principal.kind == "admin":
        return Scope()
    if principal.kind == "provisioner":
        return Scope(created_by=principal.token_id)
    raise Forbidden(
        "/v1/events streams the mail of every identity a provisioner or the admin manages; an identity"
        " token streams its own mail at /v1/identities/{address}/events"
    )


def _principal(connection: ASGIConnection[Any, Any, Any, Any]) -> Principal:
    principal = connection.scope.get("user")
    if not isinstance(principal, Principal):
        raise Unauthorized("authentication required")
    return principal


def admin_only(connection: ASGIConnection[Any, Any, Any, Any], _: BaseRouteHandler) -> None:
    """Guard: the admin token only."""
    if _principal(connection).kind != "admin":
        raise Forbidden("this needs the admin token")


def admin_or_provisioner(connection: ASGIConnection[Any, Any, Any, Any], _: BaseRouteHandler) -> None:
    """Guard: the admin or a provisioner token."""
    if _principal(connection).kind not in ("admin", "provisioner"):
        raise Forbidden("this needs the admin token or a provisioner token")


def _path_address(connection: ASGIConnection[Any, Any, Any, Any], raw: str) -> str:
    address = normalize_address(raw)
    if address is None:
        raise InvalidInput(_bad_path_address(connection, raw))
    return address


def _bad_path_address(connection: ASGIConnection[Any, Any, Any, Any], raw: str) -> str:
    """Why the path's address is refused; for a bare local part, the address it probably meant.

    The path is echoed only when it is a valid local part as written and neither token-shaped
    nor the caller's own token: a token pasted into the path never comes back in the answer.
    """
    try:
        local = check_local_part(raw, reserved=())
    except InvalidName:
        return "the path does not hold a valid address"
    if local != raw or looks_like_token(raw) or raw == _presented_token(connection):
        return "the path holds no domain: the identity's whole address goes there (name@domain)"
    domain = connection.app.state.gateway.settings.domain
    return f"the path holds no domain: did you mean {raw}@{domain}?"


def _own_identity(principal: Principal, wanted: str) -> Identity | None:
    """For an identity token: itself when the path is its own, else 403 (before any lookup)."""
    if principal.kind != "identity" or principal.identity is None:
        return None
    if principal.identity.address != wanted:
        raise Forbidden("this token belongs to another identity")
    return principal.identity


async def mail_identity(request: Request[Any, Any, Any], address: Address) -> Identity:
    """The identity whose mail this request touches: the admin's pick, or the caller itself."""
    principal = _principal(request)
    wanted = _path_address(request, address)
    if (own := _own_identity(principal, wanted)) is not None:
        return own
    if principal.kind != "admin":
        raise Forbidden("provisioner tokens never read mail")
    return await store_of(request).identities.get(wanted)


async def managed_identity(request: Request[Any, Any, Any], address: Address) -> Identity:
    """The identity this request manages (delete, rotate): admin, itself, or its provisioner."""
    principal = _principal(request)
    wanted = _path_address(request, address)
    if (own := _own_identity(principal, wanted)) is not None:
        return own
    identity = await store_of(request).identities.find(wanted)
    if principal.kind == "provisioner" and (identity is None or identity.created_by != principal.token_id):
        # Same answer whether or not it exists: a provisioner learns only about its own.
        raise Forbidden("this provisioner token did not create that identity")
    if identity is None:
        raise NotFound("no such identity")
    return identity
