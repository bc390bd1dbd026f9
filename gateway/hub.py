"""In-process publish/subscribe keyed by address: one IDLE connection serves any number of waiters.

The sync publishes every indexed batch; each `wait` and each event stream holds a
`Subscription` to its identity's address and is woken when mail granted to that address is
indexed; a stream over every identity (`/v1/events`) holds one `subscribe_all` rung by
mail for any address. News also comes from the other gateways on the store (`heard`), token
changes included: every subscription is rung then, and each checks that it may go on. A wake-up
carries nothing: the subscriber looks in the index itself, so a message can never be
half-delivered through the hub, and one that is indexed between a subscriber's check and its
wait still wakes it (subscribe first, then check).
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Callable, Iterable
from types import TracebackType

from gateway.errors import TooManyWaiters
from gateway.store.coordination import News

__all__ = ["Hub", "Subscription"]


class Subscription:
    """One subscriber's doorbell for one address; a context manager that unsubscribes on exit."""

    def __init__(self, hub: Hub, address: str | None) -> None:
        self._hub = hub
        self.address = address
        """None: rung by mail for any address (`Hub.subscribe_all`)."""
        self._rang = asyncio.Event()

    def ring(self) -> None:
        """Mail for this address was indexed (called by the hub)."""
        self._rang.set()

    async def wait(self, timeout: float) -> bool:
        """Wait until rung (True) or `timeout` seconds pass (False); then reset the bell."""
        try:
            async with asyncio.timeout(timeout):
                await self._rang.wait()
        except TimeoutError:
            return False
        self._rang.clear()
        return True

    def __enter__(self) -> Subscription:
        return self

    def __exit__(self, *_: type[BaseException] | BaseException | TracebackType | None) -> None:
        self._hub.unsubscribe(self)


class Hub:
    """Subscriptions by address, bounded per address and in all (memory, not IMAP, is the limit)."""

    def __init__(self, *, per_address: int, total: int, announce: Callable[[News], None] | None = None) -> None:
        self._per_address = per_address
        self._announce = announce  # to every gateway on the store (this one too), when it has company
        self._total = total
        self._subs: defaultdict[str, set[Subscription]] = defaultdict(set)
        self._everything: set[Subscription] = set()  # rung for any address
        self._count = 0
        self._counted = asyncio.Event()  # set on every change of `count`

    @property
    def count(self) -> int:
        """Open subscriptions right now."""
        return self._count

    def subscribe(self, address: str) -> Subscription:
        """A new subscription for `address`; TooManyWaiters over either limit."""
        if self._count >= self._total:
            raise TooManyWaiters(f"{self._total} waits are open on this gateway; retry shortly")
        if len(self._subs[address]) >= self._per_address:
            raise TooManyWaiters(f"{self._per_address} waits are open for {address}; retry shortly")
        sub = Subscription(self, address)
        self._subs[address].add(sub)
        self._count += 1
        self._counted.set()
        return sub

    def subscribe_all(self) -> Subscription:
        """A new subscription rung by mail for any address; TooManyWaiters over the total limit, or
        when as many of these are open as one address may hold (each costs a look at every batch)."""
        if self._count >= self._total:
            raise TooManyWaiters(f"{self._total} waits are open on this gateway; retry shortly")
        if len(self._everything) >= self._per_address:
            raise TooManyWaiters(f"{self._per_address} streams over every identity are open; retry shortly")
        sub = Subscription(self, None)
        self._everything.add(sub)
        self._count += 1
        self._counted.set()
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        """Forget `sub` (idempotent)."""
        if sub.address is None:
            if sub in self._everything:
                self._everything.discard(sub)
                self._count -= 1
                self._counted.set()
            return
        subs = self._subs.get(sub.address)
        if subs is not None and sub in subs:
            subs.discard(sub)
            self._count -= 1
            self._counted.set()
            if not subs:
                del self._subs[sub.address]

    async def wait_for_count(self, predicate: Callable[[int], bool], timeout: float) -> None:
        """Return once `predicate(count)` holds; TimeoutError after `timeout` (tests, bench)."""
        async with asyncio.timeout(timeout):
            while not predicate(self._count):
                self._counted.clear()
                await self._counted.wait()

    def publish(self, addresses: Iterable[str]) -> None:
        """Mail granted to these addresses was indexed (or a claim on it given back): ring their
        subscriptions here, and on every other gateway on the store."""
        news = News(frozenset(addresses))
        if not news:
            return
        if self._announce is None:
            self.heard(news)
        else:
            self._announce(news)  # delivered here at once, then to the others (heard)

    def heard(self, news: News) -> None:
        """Ring the subscriptions `news` concerns: those of its addresses (mail, or their identity's
        token changed), or all of them when the admin's or a provisioner's token changed or news
        may have been missed (each looks, and checks its access)."""
        if news.everything or (news.tokens and not news.addresses):
            for subs in self._subs.values():
                for sub in subs:
                    sub.ring()
        else:
            for address in news.addresses:
                for sub in self._subs.get(address, ()):
                    sub.ring()
        if news.addresses or news.tokens or news.everything:
            for sub in self._everything:
                sub.ring()
