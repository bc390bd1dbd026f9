"""Identities: an address, its lifetime and who made it. Durable: the mailbox cannot give them back."""

from __future__ import annotations

from typing import Protocol

from gateway.store.models import Identity

__all__ = ["Identities"]


class Identities(Protocol):
    """Create, find, list and delete identities; names are unique and quarantined after use."""

    domain: str

    async def create(
        self,
        local_part: str | None = None,
        *,
        ttl_seconds: float | None = None,
        label: str | None = None,
        created_by: str | None = None,
        force: bool = False,
        fence: tuple[str, str] | None = None,
        send_scope: str = "local",
    ) -> tuple[Identity, str]:
        """A new identity and its token (plaintext, returned only here); a random name when none.

        `send_scope` is `none`, `local` or `any` (InvalidInput otherwise); who may give which is
        the caller's rule, not the store's.

        InvalidName for a malformed or reserved name; Conflict when it is taken or quarantined
        (`force`, the admin's, overrides a quarantine, never a live identity).
        """

    async def get(self, address: str) -> Identity:
        """The live identity at `address`; NotFound when none (or it has expired)."""

    async def find(self, address: str) -> Identity | None:
        """The identity at `address`, expired or not, or None."""

    async def list(
        self, *, created_by: str | None = None, after: str | None = None, limit: int = 100
    ) -> list[Identity]:
        """Identities by address after the address `after`; only `created_by`'s when given."""

    async def delete(self, identity: Identity) -> None:
        """Remove `identity` with its token, marks, claims and /ui sessions; its name is quarantined."""
