"""/v1/tokens: the admin's provisioner tokens."""

from __future__ import annotations

from litestar import Controller, delete, get, post
from litestar.di import NamedDependency
from litestar.params import FromPath, JSONBody

from gateway.api.auth import admin_only
from gateway.api.schemas import CreatedTokenOut, CreateTokenIn, TokenOut
from gateway.identities import IdentityStore

__all__ = ["TokenController"]


class TokenController(Controller):
    path = "/v1/tokens"
    tags = ["tokens"]
    guards = [admin_only]

    @post("/", operation_id="createToken", status_code=201)
    async def create(self, store: NamedDependency[IdentityStore], data: JSONBody[CreateTokenIn]) -> CreatedTokenOut:
        """A provisioner token: creates identities and manages only its own; reads no mail."""
        record, token = store.create_api_token(data.label)
        return CreatedTokenOut(record.id, "provision", token, record.label, record.created_at)

    @get("/", operation_id="listTokens")
    async def list_tokens(self, store: NamedDependency[IdentityStore]) -> list[TokenOut]:
        """Every provisioner token's record (never the token)."""
        return [TokenOut.of(t) for t in store.list_api_tokens()]

    @delete("/{token_id:str}", operation_id="deleteToken")
    async def remove(self, store: NamedDependency[IdentityStore], token_id: FromPath[str]) -> None:
        """Revoke a provisioner token at once."""
        store.delete_api_token(token_id)
