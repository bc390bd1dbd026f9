"""`wait`: block until a matching message is indexed for an identity, then hand it over once.

Subscribe first, then look: a message indexed between the look and the wait still rings the
subscription, so none is missed. The claim makes concurrent waits of one identity get
distinct messages; the caller settles it once it knows whether the answer went out.
"""

from __future__ import annotations

import asyncio

from gateway.errors import WaitTimeout
from gateway.hub import Hub
from gateway.identities import Identity
from gateway.inbox import Inbox, WaitQuery
from gateway.index import Summary

__all__ = ["MAX_WAIT_SECONDS", "wait_for_message"]

MAX_WAIT_SECONDS = 600.0


async def wait_for_message(inbox: Inbox, hub: Hub, identity: Identity, query: WaitQuery, timeout: float) -> Summary:
    """The claimed message (see `Inbox.claim`); WaitTimeout when none arrives in `timeout` s."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + min(timeout, MAX_WAIT_SECONDS)
    with hub.subscribe(identity.address) as subscription:
        while True:
            found = inbox.claim(identity, query)
            if found is not None:
                return found
            remaining = deadline - loop.time()
            if remaining <= 0 or not await subscription.wait(remaining):
                raise WaitTimeout(f"no matching message arrived within {timeout:g} s")
