"""/v1/identities: create, list, rotate and delete identities."""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Controller, Request, delete, get, post
from litestar.di import NamedDependency, Provide
from litestar.params import FromQuery, JSONBody, QueryParameter

from gateway import wire
from gateway.api import schemas
from gateway.api.auth import admin_or_provisioner, managed_identity
from gateway.api.schemas import error_responses
from gateway.errors import Forbidden
from gateway.inbox import Inbox
from gateway.store import Identity, Principal, Store

__all__ = ["IdentityController"]


class IdentityController(Controller):
    path = "/v1/identities"
    tags = ["identities"]

    @post(
        "/",
        guards=[admin_or_provisioner],
        operation_id="createIdentity",
        status_code=201,
        responses=error_responses(403, 409, 413, 422),
    )
    async def create(
        self,
        request: Request[Principal, Any, Any],
        store: NamedDependency[Store],
        inbox: NamedDependency[Inbox],
        data: JSONBody[wire.CreateIdentityIn],
    ) -> wire.CreatedIdentity:
        """Create an identity; its token is in this response only."""
        principal = request.user
        if data.force and principal.kind != "admin":
            raise Forbidden("only the admin may force a quarantined name")
        identity, token = await store.identities.create(
            data.local_part,
            ttl_seconds=data.ttl_seconds,
            label=data.label,
            created_by=principal.token_id if principal.kind == "provisioner" else None,
            force=data.force,
            fence=await inbox.fence(),  # taken first: nothing arriving after creation is hidden
        )
        return schemas.created_identity(identity, token)

    @get("/", guards=[admin_or_provisioner], operation_id="listIdentities", responses=error_responses(403))
    async def list_identities(
        self,
        request: Request[Principal, Any, Any],
        store: NamedDependency[Store],
        limit: Annotated[int, QueryParameter(ge=1, le=1000)] = 100,
        after: FromQuery[str | None] = None,
    ) -> wire.IdentityPage:
        """Identities by address; a provisioner sees only those it created. Never tokens."""
        principal = request.user
        created_by = principal.token_id if principal.kind == "provisioner" else None
        rows = await store.identities.list(created_by=created_by, after=after, limit=limit + 1)
        more = len(rows) > limit
        rows = rows[:limit]
        return wire.IdentityPage([schemas.identity_info(i) for i in rows], rows[-1].address if more else None)

    @post(
        "/{address:str}/rotate",
        dependencies={"identity": Provide(managed_identity)},
        operation_id="rotateIdentityToken",
        responses=error_responses(403, 404),
        status_code=200,
    )
    async def rotate(self, store: NamedDependency[Store], identity: NamedDependency[Identity]) -> wire.RotatedToken:
        """A new token for the identity; the old one stops working at once."""
        return wire.RotatedToken(identity.address, await store.tokens.rotate(identity))

    @delete(
        "/{address:str}",
        dependencies={"identity": Provide(managed_identity)},
        operation_id="deleteIdentity",
        responses=error_responses(403, 404),
    )
    async def remove(self, store: NamedDependency[Store], identity: NamedDependency[Identity]) -> None:
        """Delete the identity; its name is quarantined, its mail stays until retention."""
        await store.identities.delete(identity)
