"""/v1/identities: create, list, rotate and delete identities."""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Controller, Request, delete, get, post
from litestar.di import NamedDependency, Provide
from litestar.params import JSONBody, QueryParameter

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
        response_description="The new identity and its token (shown this once).",
        summary="Create an identity (an address and its token)",
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
        """Create an identity: an address on the gateway's domain and a token that reads its mail.

        The token is in this response only (only its hash is stored): keep it. Admin or provisioner
        token. Body, every field optional: `local_part` (the part before `@`, without the domain:
        up to 64 of `a-z 0-9 . - _`, starting with a letter or digit, lowercased; random when
        omitted; 422 when malformed or reserved, 409 when taken or still quarantined after a
        deletion), `ttl_seconds` (1 to 10 years; the identity
        expires then; none: it lives until deleted), `label` (up to 200 characters, for people),
        `force` (admin only: re-create a quarantined name; it still never sees earlier mail),
        `send` (whom it may mail: `none`, `local` (the default: addresses at this gateway's domain,
        agent to agent) or `any` (through the relay; only the admin or a provisioner created with
        `send: "any"` may grant it, else 403)).
        The identity sees only mail received from now on.
        """
        principal = request.user
        if data.force and principal.kind != "admin":
            raise Forbidden("only the admin may force a quarantined name")
        scope = data.send or "local"
        if scope == "any" and principal.send != "any":
            raise Forbidden(
                'only the admin, or a provisioner token created with send "any", may create such an identity'
            )
        identity, token = await store.identities.create(
            data.local_part,
            ttl_seconds=data.ttl_seconds,
            label=data.label,
            created_by=principal.token_id if principal.kind == "provisioner" else None,
            force=data.force,
            send_scope=scope,
            fence=await inbox.fence(),  # taken first: nothing arriving after creation is hidden
        )
        return schemas.created_identity(identity, token)

    @get(
        "/",
        guards=[admin_or_provisioner],
        operation_id="listIdentities",
        response_description="A page of identities and the cursor for the next one.",
        summary="List identities",
        responses=error_responses(403),
    )
    async def list_identities(
        self,
        request: Request[Principal, Any, Any],
        store: NamedDependency[Store],
        limit: Annotated[int, QueryParameter(ge=1, le=1000, description="Identities per page (1 to 1000).")] = 100,
        after: Annotated[
            str | None, QueryParameter(description="The previous page's `next_after`: the page after that address.")
        ] = None,
    ) -> wire.IdentityPage:
        """Identities in address order, a page at a time; never their tokens.

        Admin or provisioner token; a provisioner sees only the identities it created. Pass the
        answer's `next_after` as `after` for the next page; it is null on the last page.
        """
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
        response_description="The identity's address and its new token (shown this once).",
        summary="Replace an identity's token",
        responses=error_responses(403, 404),
        status_code=200,
    )
    async def rotate(self, store: NamedDependency[Store], identity: NamedDependency[Identity]) -> wire.RotatedToken:
        """A new token for the identity, in this response only; the old one stops working at once.

        The admin, the identity's own token, or the provisioner that created it. Waits and event
        streams open with the old token end.
        """
        return wire.RotatedToken(identity.address, await store.tokens.rotate(identity))

    @delete(
        "/{address:str}",
        dependencies={"identity": Provide(managed_identity)},
        operation_id="deleteIdentity",
        response_description="Deleted.",
        summary="Delete an identity",
        responses=error_responses(403, 404),
    )
    async def remove(self, store: NamedDependency[Store], identity: NamedDependency[Identity]) -> None:
        """Delete the identity and its token at once.

        The admin, the identity's own token, or the provisioner that created it. Its local part
        is quarantined (re-creating it answers 409 for a while, unless the admin forces it), and
        its mail stays in the mailbox until retention removes it.
        """
        await store.identities.delete(identity)
