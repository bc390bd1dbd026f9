"""/v1/tokens: the admin's provisioner tokens."""

from __future__ import annotations

from litestar import Controller, delete, get, post
from litestar.di import NamedDependency
from litestar.params import FromPath, JSONBody

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

    @post("/", operation_id="createToken", status_code=201, responses=error_responses(403, 413))
    async def create(self, store: NamedDependency[Store], data: JSONBody[wire.CreateTokenIn]) -> wire.CreatedApiToken:
        """A provisioner token: creates identities and manages only its own; reads no mail."""
        record, token = await store.tokens.create_provisioner(data.label)
        return wire.CreatedApiToken(record.id, "provision", token, record.label, record.created_at)

    @get("/", operation_id="listTokens", responses=error_responses(403))
    async def list_tokens(self, store: NamedDependency[Store]) -> list[wire.ApiToken]:
        """Every provisioner token's record (never the token)."""
        return [schemas.api_token(t) for t in await store.tokens.list_provisioners()]

    @delete("/{token_id:str}", operation_id="deleteToken", responses=error_responses(403, 404))
    async def remove(self, store: NamedDependency[Store], token_id: FromPath[str]) -> None:
        """Revoke a provisioner token at once."""
        await store.tokens.delete_provisioner(token_id)
