"""`wait`: block until a matching message is indexed for an identity, then hand it over once.

Subscribe first, then look: a message indexed between the look and the wait still rings the
subscription, so none is missed. The claim makes concurrent waits of one identity get
distinct messages; `settle` ends it once the caller knows whether the answer went out, and
rings the other waits when the message goes back to them.
"""

from __future__ import annotations

import asyncio

from gateway.errors import NotFound, WaitTimeout
from gateway.hub import Hub
from gateway.identities import Identity
from gateway.inbox import FullMessage, Inbox, WaitQuery
from gateway.index import Summary

__all__ = ["MAX_WAIT_SECONDS", "settle", "wait_for_message"]

MAX_WAIT_SECONDS = 600.0


async def wait_for_message(
    inbox: Inbox, hub: Hub, identity: Identity, query: WaitQuery, timeout: float
) -> FullMessage:
    """The claimed message, read in full (see `Inbox.claim`); WaitTimeout after `timeout` s."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + min(timeout, MAX_WAIT_SECONDS)
    with hub.subscribe(identity.address) as subscription:
        while True:
            found = inbox.claim(identity, query)
            if found is not None:
                try:
                    return await inbox.read_claimed(identity, found)
                except NotFound:
                    # Its copy left the mailbox before the index learnt of it: forget it and
                    # keep waiting, rather than answer 404 to every wait from now on.
                    inbox.forget_vanished(identity, found)
                    continue
                except BaseException:
                    settle(inbox, hub, identity, found, delivered=False, mark_seen=False)
                    raise
            remaining = deadline - loop.time()
            if remaining <= 0 or not await subscription.wait(remaining):
                raise WaitTimeout(f"no matching message arrived within {timeout:g} s")


def settle(inbox: Inbox, hub: Hub, identity: Identity, summary: Summary, *, delivered: bool, mark_seen: bool) -> None:
    """End a claim; when the message stays unseen, ring the identity's other waits for it."""
    inbox.settle(identity, summary, delivered=delivered, mark_seen=mark_seen)
    if not (delivered and mark_seen):
        hub.publish([identity.address])
