"""/v1/tokens: the admin's provisioner tokens."""

from __future__ import annotations

from typing import Annotated

from litestar import Controller, delete, get, post
from litestar.di import NamedDependency
from litestar.params import JSONBody, PathParameter

from gateway import wire
from gateway.api import schemas
from gateway.api.auth import admin_only
from gateway.api.schemas import error_responses
from gateway.store import Store

__all__ = ["TokenController"]


class TokenController(Controller):
    path = "/v1/tokens"
    tags = ["tokens"]
    guards = [admin_only]

    @post(
        "/",
        operation_id="createToken",
        response_description="The new provisioner token (shown this once).",
        summary="Create a provisioner token",
        status_code=201,
        responses=error_responses(403, 413),
    )
    async def create(self, store: NamedDependency[Store], data: JSONBody[wire.CreateTokenIn]) -> wire.CreatedApiToken:
        """A provisioner token, in this response only: for a service that hands out identities.

        Admin token. A provisioner creates identities and lists, rotates and deletes only those it
        created; it never reads mail. Body: `scope` (always `provision`), `label` (optional, up to
        200 characters), `send` (`local`, the default, or `any`: it may then create identities
        that send beyond this gateway's domain).
        """
        record, token = await store.tokens.create_provisioner(data.label, send=data.send)
        return wire.CreatedApiToken(record.id, "provision", token, record.label, record.created_at, record.send)

    @get(
        "/",
        operation_id="listTokens",
        response_description="Every provisioner token's record.",
        summary="List provisioner tokens",
        responses=error_responses(403),
    )
    async def list_tokens(self, store: NamedDependency[Store]) -> list[wire.ApiToken]:
        """Every provisioner token's record: id, label, creation time; never the token itself. Admin token."""
        return [schemas.api_token(t) for t in await store.tokens.list_provisioners()]

    @delete(
        "/{token_id:str}",
        operation_id="deleteToken",
        response_description="Revoked.",
        summary="Revoke a provisioner token",
        responses=error_responses(403, 404),
    )
    async def remove(
        self,
        store: NamedDependency[Store],
        token_id: Annotated[str, PathParameter(description="The token's `id` from create or list.")],
    ) -> None:
        """Revoke a provisioner token at once. Admin token.

        The identities it created stay (the admin manages them from now on).
        """
        await store.tokens.delete_provisioner(token_id)
