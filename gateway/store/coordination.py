"""Coordination: what the gateways sharing one store agree on through it, besides rows.

Two things: which gateway reads the mailbox (exactly one at a time: it runs the sync, retention
and the webhook feeder), and news that long requests elsewhere must hear at once. News is
content-free, like Dovecot's push hint: which addresses have new mail to look at, that a token
or identity changed (every wait, stream and `/ui` page checks it may go on), that the mailbox
may hold new mail (the reader looks), that the index's state changed (rebuilding or not). A
listener always reads the store itself; news only says when.

Engines: SQLite is one process, so its coordination is in-process (`LocalCoordination`: the
reader role is held from the start, news is delivered to this process's listeners). PostgreSQL's
(gateway/store/postgres/coordination.py) holds the reader role as an advisory lock and carries
news by LISTEN/NOTIFY.

`encode` and `decode` are the wire form of news between gateways, pure and bounded.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Final, Protocol

__all__ = [
    "MAX_PAYLOAD_BYTES",
    "Coordination",
    "LocalCoordination",
    "News",
    "decode",
    "encode",
    "new_origin",
]

log = logging.getLogger(__name__)

MAX_PAYLOAD_BYTES: Final = 7900
"""PostgreSQL refuses a NOTIFY payload of 8000 bytes or more; news longer than this is split."""
_KINDS: Final = {"tokens": "t", "hint": "h", "state": "s", "everything": "e"}


@dataclass(frozen=True, slots=True)
class News:
    """What changed; a listener looks in the store itself for what it means."""

    addresses: frozenset[str] = frozenset()
    """Mail granted to these was indexed, or a claim on mail of theirs was given back; with
    `tokens`, whose identity (token) changed."""
    tokens: bool = False
    """A token or an identity changed: long requests check that they may go on (those about
    `addresses` when some are named, else every one: the admin's or a provisioner's token)."""
    hint: bool = False
    """The mailbox may hold new mail: the reader looks now (a push hint heard by another gateway)."""
    state: bool = False
    """The index's state changed (a rebuild began or ended)."""
    everything: bool = False
    """News may have been missed (a connection was lost): every listener looks again."""

    def __bool__(self) -> bool:
        return bool(self.addresses) or self.tokens or self.hint or self.state or self.everything

    def merge(self, other: News) -> News:
        """Both pieces of news in one (never narrower: a token change that concerned every
        request does not become one about the other piece's addresses)."""
        everyone = any(n.tokens and not n.addresses for n in (self, other))
        return News(
            self.addresses | other.addresses,
            self.tokens or other.tokens,
            self.hint or other.hint,
            self.state or other.state,
            self.everything or other.everything or (everyone and bool(self.addresses | other.addresses)),
        )


def new_origin() -> str:
    """A random id for one gateway process, so it can tell its own news from the others'."""
    return secrets.token_hex(6)


def encode(news: News, origin: str) -> list[str]:
    """`news` as NOTIFY payloads, each under MAX_PAYLOAD_BYTES: `origin|flags|address\\naddress…`.

    Addresses are ASCII (the gateway's own, checked when created), so characters are bytes here.
    """
    flags = "".join(code for name, code in _KINDS.items() if getattr(news, name))
    head = f"{origin}|{flags}|"
    payloads: list[str] = []
    chunk: list[str] = []
    size = len(head)
    for address in sorted(news.addresses):
        if chunk and size + 1 + len(address) > MAX_PAYLOAD_BYTES:
            payloads.append(head + "\n".join(chunk))
            chunk, size = [], len(head)
        chunk.append(address)
        size += len(address) + 1
    if chunk or not payloads:
        payloads.append(head + "\n".join(chunk))
    return payloads


def decode(payload: str) -> tuple[str, News] | None:
    """The origin and news of one payload; None for anything `encode` does not write."""
    parts = payload.split("|", 2)
    if len(parts) != 3 or not parts[0] or not set(parts[1]) <= set(_KINDS.values()):
        return None
    origin, flags, rest = parts
    addresses = frozenset(a for a in rest.split("\n") if a)
    return origin, News(addresses, "t" in flags, "h" in flags, "s" in flags, "e" in flags)


class Coordination(Protocol):
    """Who reads the mailbox, and news between the gateways on one store."""

    shared: bool
    """Whether other gateway processes may run on this store (PostgreSQL) or not (SQLite)."""

    @property
    def hearing(self) -> bool:
        """Whether news from the other gateways reaches this one right now (readiness)."""

    def reader(self) -> contextlib.AbstractAsyncContextManager[asyncio.Event]:
        """Entered once this gateway holds the reader role (waiting as long as another does);
        the event it gives is set if the role is lost (the store unreachable). Left: given up."""

    def announce(self, news: News) -> None:
        """Tell every gateway, this one included (this one at once, without waiting for the store)."""

    def subscribe(self, deliver: Callable[[News], None]) -> None:
        """Call `deliver` with every piece of news from now on, this gateway's own included."""

    async def run(self) -> None:
        """Keep hearing the other gateways until cancelled (nothing to do for a gateway alone)."""

    async def close(self) -> None:
        """Stop sending news (before the store closes)."""


class LocalCoordination:
    """One process alone on its store: the reader role from the start, news delivered in-process."""

    shared = False
    hearing = True

    def __init__(self) -> None:
        self._listeners: list[Callable[[News], None]] = []

    @contextlib.asynccontextmanager
    async def reader(self) -> AsyncIterator[asyncio.Event]:
        yield asyncio.Event()  # never set: nobody else can take it

    def announce(self, news: News) -> None:
        if news:
            for deliver in self._listeners:
                deliver(news)

    def subscribe(self, deliver: Callable[[News], None]) -> None:
        self._listeners.append(deliver)

    async def run(self) -> None:
        await asyncio.Future()  # nobody else to hear: until cancelled

    async def close(self) -> None:
        """Nothing to stop."""
