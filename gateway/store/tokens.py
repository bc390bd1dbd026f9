"""Tokens: the admin token, provisioner tokens and identity tokens, kept as SHA-256 only."""

from __future__ import annotations

from typing import Literal, Protocol

from gateway.store.models import ApiToken, Identity, Principal

__all__ = ["Tokens"]


class Tokens(Protocol):
    """Authenticate bearer tokens and manage the admin's and provisioners' tokens."""

    async def authenticate(self, token: str) -> Principal:
        """The principal a bearer token stands for; Unauthorized when it stands for none (or expired)."""

    async def admin_origin(self) -> Literal["configured", "generated"] | None:
        """Where the stored admin token came from, or None when there is none."""

    async def set_admin(self, token: str, *, origin: Literal["configured", "generated"]) -> None:
        """Make `token` the one admin token (ending the /ui sessions of any other)."""

    async def create_provisioner(self, label: str | None = None, *, send: str = "local") -> tuple[ApiToken, str]:
        """A new provisioner token: its record and the plaintext (shown once).

        `send` (`local` or `any`, InvalidInput otherwise): the widest scope its identities may get.
        """

    async def list_provisioners(self) -> list[ApiToken]:
        """Every provisioner token's record, oldest first."""

    async def delete_provisioner(self, token_id: str) -> None:
        """Revoke a provisioner token at once (NotFound if unknown); its identities stay."""

    async def rotate(self, identity: Identity) -> str:
        """A new token for `identity`; the old one and its /ui sessions end at once."""
