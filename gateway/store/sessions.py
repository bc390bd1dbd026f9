"""/ui sessions: the hash of a random session id, tied to the hash of the token that opened it."""

from __future__ import annotations

from typing import Protocol

from gateway.store.models import Principal

__all__ = ["UiSessions"]


class UiSessions(Protocol):
    """Sessions die with their token: rotation, revocation, deletion or expiry ends them at once."""

    async def add(self, session_hash: str, token: str, *, keep: int) -> None:
        """Store a new session opened with `token`; past `keep` sessions of it, the least recently used ends."""

    async def get(self, session_hash: str, *, max_age: float, idle: float) -> Principal | None:
        """The principal of a live session (touching its last use), or None; a dead one is deleted."""

    async def delete(self, session_hash: str) -> None:
        """End one session (logout); nothing happens when it is already gone."""

    async def prune(self, *, max_age: float, idle: float) -> int:
        """Remove every session that can no longer be used; returns how many."""
