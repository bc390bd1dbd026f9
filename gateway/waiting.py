"""`wait`: block until a matching message is indexed for an identity, then hand it over once.

Subscribe first, then look: a message indexed between the look and the wait still rings the
subscription, so none is missed. The claim makes concurrent waits of one identity get
distinct messages; it ends once the caller knows whether the answer went out, and the other
waits are rung when the message goes back to them.

`handover` is the whole of one HTTP wait: the race with the client hanging up, the token
re-checked before answering, and a `Handover` whose `settle` runs after the response went out.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from gateway.errors import ClientGone, GatewayError, NotFound, WaitTimeout
from gateway.hub import Hub
from gateway.inbox import FullMessage, Inbox, WaitQuery
from gateway.store import Identity, Summary

__all__ = ["MAX_WAIT_SECONDS", "Handover", "handover", "settle", "wait_for_message"]

MAX_WAIT_SECONDS = 600.0


async def wait_for_message(
    inbox: Inbox,
    hub: Hub,
    identity: Identity,
    query: WaitQuery,
    timeout: float,
    *,
    access_lost: Callable[[], Awaitable[GatewayError | None]] | None = None,
) -> FullMessage:
    """The claimed message, read in full (see `Inbox.claim`); WaitTimeout after `timeout` s.

    After each wake-up, before claiming, the error `access_lost` gives (if any) ends the wait:
    an identity deleted (or deleted and created again) meanwhile is no longer this wait's to claim for.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + min(timeout, MAX_WAIT_SECONDS)
    with hub.subscribe(identity.address) as subscription:
        first = True
        while True:
            if not first and access_lost is not None and (lost := await access_lost()) is not None:
                raise lost
            first = False
            found = await _claim(inbox, hub, identity, query)
            if found is not None:
                try:
                    return await inbox.read_claimed(identity, found)
                except NotFound:
                    # Its copy left the mailbox before the index learnt of it: forget it and
                    # keep waiting, rather than answer 404 to every wait from now on.
                    await _shielded(inbox.forget_vanished(identity, found))
                    continue
                except BaseException:
                    await _shielded(settle(inbox, hub, identity, found, delivered=False, mark_seen=False))
                    raise
            remaining = deadline - loop.time()
            # Mail held by another wait's claim comes back when it is settled (and rings), or,
            # if the gateway holding it died, when the claim lapses: look again then.
            lapse = await inbox.claim_lapses_in(identity)
            budget = remaining if lapse is None else min(remaining, lapse)
            if remaining <= 0 or (not await subscription.wait(budget) and budget == remaining):
                raise WaitTimeout(f"no matching message arrived within {timeout:g} s")


async def _claim(inbox: Inbox, hub: Hub, identity: Identity, query: WaitQuery) -> Summary | None:
    """`inbox.claim`, finished even when the wait is cancelled meanwhile: a claim the store
    took for a wait that is gone is given back at once (and the other waits rung)."""
    task = asyncio.ensure_future(inbox.claim(identity, query))
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        found = await task
        if found is not None:
            await settle(inbox, hub, identity, found, delivered=False, mark_seen=False)
        raise


async def settle(
    inbox: Inbox, hub: Hub, identity: Identity, summary: Summary, *, delivered: bool, mark_seen: bool
) -> None:
    """End a claim; when the message stays unseen, ring the identity's other waits for it."""
    await inbox.settle(identity, summary, delivered=delivered, mark_seen=mark_seen)
    if not (delivered and mark_seen):
        hub.publish([identity.address])


@dataclass(slots=True)
class Handover:
    """A claimed message on its way to the client; `settle` once the response is out."""

    message: FullMessage
    _inbox: Inbox
    _hub: Hub
    _identity: Identity
    _gone: asyncio.Task[None]
    _mark_seen: bool

    async def settle(self) -> None:
        """Runs right after the answer was handed to the server: seen if the client was still there.

        Checked before yielding once: the server also reports a disconnect as soon as a
        response is complete, so only a disconnect seen *before* that counts as "never received".
        """
        delivered = not self._gone.done()
        self._gone.cancel()
        await settle(
            self._inbox, self._hub, self._identity, self.message.summary, delivered=delivered, mark_seen=self._mark_seen
        )


async def handover(
    inbox: Inbox,
    hub: Hub,
    identity: Identity,
    query: WaitQuery,
    timeout: float,
    *,
    disconnected: Callable[[], Coroutine[Any, Any, None]],
    access_lost: Callable[[], Awaitable[GatewayError | None]],
    mark_seen: bool,
) -> Handover:
    """Wait for a message for one HTTP request: ClientGone if the client leaves, the error
    `access_lost` gives if the request may no longer read `identity`'s mail (token revoked,
    identity deleted or replaced); what the wait held is released either way.
    """
    gone = asyncio.create_task(disconnected())
    waiting = asyncio.create_task(wait_for_message(inbox, hub, identity, query, timeout, access_lost=access_lost))
    try:
        await asyncio.wait({gone, waiting}, return_when=asyncio.FIRST_COMPLETED)
        if not waiting.done():  # the client left: the wait releases what it held
            waiting.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await waiting
            raise ClientGone("the client went away while waiting")
        full = waiting.result()  # WaitTimeout and the like go to the error mapping
        try:
            if (lost := await access_lost()) is not None:
                raise lost
            await asyncio.sleep(0)  # a hang-up that came with the answer is noticed here
            if gone.done():
                raise ClientGone("the client went away while the answer was being read")
        except BaseException:  # those two, a store error, or this handler being cancelled
            await _shielded(settle(inbox, hub, identity, full.summary, delivered=False, mark_seen=False))
            raise
    except BaseException:
        gone.cancel()
        if not waiting.done():  # this handler itself was cancelled
            waiting.cancel()
        raise
    if mark_seen:  # the answer says what it is once received: seen, as GET of the message says
        full = dataclasses.replace(full, summary=dataclasses.replace(full.summary, seen=True))
    return Handover(full, inbox, hub, identity, gone, mark_seen)


async def _shielded(work: Coroutine[Any, Any, None]) -> None:
    """Finish `work` even when the caller is being cancelled (a claim must not outlive its wait)."""
    task = asyncio.ensure_future(work)
    try:
        await asyncio.shield(task)
    except asyncio.CancelledError:
        await task
        raise
