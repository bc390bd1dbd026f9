"""Managing webhooks: who may create, read, rotate and delete which, and what a new one must pass.

The rule mirrors managing identities (DESIGN.md "Who may do what"): the admin manages every
webhook; an identity token its own identity's; a provisioner token the ones it created
(token-wide) and those of the identities it created. A webhook the caller may not manage is
answered exactly like one that does not exist, so ids leak nothing. A target URL is checked
when it is created (the scheme, the host, what its name resolves to now) and again on every
call, since names move.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from gateway import wire
from gateway.errors import Conflict, Forbidden, NotFound, TargetRefused
from gateway.push.guard import Resolver, check_url, resolve
from gateway.push.signing import new_keypair, new_secret
from gateway.store import Identity, Principal, Store
from gateway.store.webhooks import Attempt, Delivery, Webhook, WebhookScope

__all__ = ["DEFAULT_EVENTS", "DeliveryView", "Webhooks"]

DEFAULT_EVENTS: Final = ("message.received",)
MAX_DELIVERY_PAGE: Final = 200
ATTEMPTS_SHOWN: Final = 50
RESOLVE_TIMEOUT: Final = 5.0  # a new webhook's name must resolve this fast (calls have their own deadline)


@dataclass(frozen=True, slots=True)
class DeliveryView:
    """One delivery with its attempt log, newest attempt first."""

    delivery: Delivery
    attempts: list[Attempt]


class Webhooks:
    """Create, list, rotate, delete webhooks, read their deliveries and retry one; permissions checked here."""

    def __init__(
        self,
        store: Store,
        *,
        allow: Sequence[str],
        per_owner: int,
        clock: Callable[[], float],
        resolver: Resolver | None = None,
        on_retry: Callable[[], None] = lambda: None,
    ) -> None:
        self._store = store
        self._allow = tuple(allow)
        self._per_owner = per_owner
        self._clock = clock
        self._resolver = resolver
        self._on_retry = on_retry  # wakes the delivery worker

    async def create(self, principal: Principal, identity: Identity | None, body: wire.WebhookIn) -> Webhook:
        """A new webhook for `identity` (None: token-wide, for the admin or a provisioner); its secret is set once."""
        scope: WebhookScope
        if identity is None and principal.kind not in ("admin", "provisioner"):
            raise Forbidden("a webhook for every identity needs the admin token or a provisioner token")
        target = check_url(body.url, self._allow)
        try:
            async with asyncio.timeout(RESOLVE_TIMEOUT):  # refused now, not at the first mail
                await resolve(target, self._allow, resolver=self._resolver)
        except TimeoutError:
            raise TargetRefused(f"{target.host} did not resolve within {RESOLVE_TIMEOUT:g} s") from None
        if identity is None:
            scope = "admin" if principal.kind == "admin" else "provisioner"
            owned = await self._store.webhooks.listing(
                scope=scope, token_id=None if scope == "admin" else principal.token_id
            )
        else:
            scope = "identity"
            owned = await self._store.webhooks.listing(identity_id=identity.id)
        if len(owned) >= self._per_owner:
            raise Conflict(
                f"{len(owned)} webhooks exist already, the most one owner may hold"
                f" (AGENTMAIL_WEBHOOKS_PER_IDENTITY={self._per_owner}); delete one first"
            )
        if body.signing == "v1a":
            secret, public_key = new_keypair()
        else:
            secret, public_key = new_secret(), None
        hook = Webhook(
            id="wh_" + secrets.token_hex(12),
            scope=scope,
            identity_id=identity.id if identity is not None else None,
            token_id=principal.token_id if scope == "provisioner" else None,
            url=target.url,
            events=tuple(dict.fromkeys(body.events or DEFAULT_EVENTS)),
            description=body.description,
            signing=body.signing,
            secret=secret,
            public_key=public_key,
            created_ts=self._clock(),
            address=identity.address if identity is not None else None,
        )
        await self._store.webhooks.create(hook)
        return hook

    async def listing(self, principal: Principal, identity: Identity | None = None) -> list[Webhook]:
        """The webhooks of `identity`, or (None) every one `principal` may manage."""
        if identity is not None:
            return await self._store.webhooks.listing(identity_id=identity.id)
        if principal.kind == "admin":
            return await self._store.webhooks.listing()
        if principal.kind == "identity" and principal.identity is not None:
            return await self._store.webhooks.listing(identity_id=principal.identity.id)
        hooks = await self._store.webhooks.listing()
        return [h for h in hooks if await self._may_manage(principal, h)]

    async def get(self, principal: Principal, webhook_id: str, identity: Identity | None = None) -> Webhook:
        """A webhook `principal` may manage (and, with `identity`, of that identity); else NotFound."""
        hook = await self._store.webhooks.get(webhook_id)
        if hook is None or not await self._may_manage(principal, hook):
            raise NotFound("no such webhook")
        if identity is not None and hook.identity_id != identity.id:
            raise NotFound("no such webhook for this identity")
        return hook

    async def delete(self, principal: Principal, webhook_id: str, identity: Identity | None = None) -> None:
        """Forget a webhook, its queued deliveries and its log."""
        hook = await self.get(principal, webhook_id, identity)
        await self._store.webhooks.delete(hook.id)

    async def rotate(self, principal: Principal, webhook_id: str, grace_seconds: int) -> tuple[Webhook, float]:
        """A new secret (or key pair); the old one keeps signing alongside for `grace_seconds`."""
        hook = await self.get(principal, webhook_id)
        if hook.signing == "v1a":
            secret, public_key = new_keypair()
        else:
            secret, public_key = new_secret(), None
        until = self._clock() + grace_seconds
        return await self._store.webhooks.rotate(hook.id, secret, public_key, old_until=until), until

    async def deliveries(
        self, principal: Principal, webhook_id: str, *, limit: int, before_id: str | None
    ) -> list[Delivery]:
        """Up to `limit` of a webhook's deliveries, newest first, older than `before_id` (its own, else NotFound)."""
        hook = await self.get(principal, webhook_id)
        if before_id is not None:
            await self._delivery_of(hook, before_id, "before_id is no delivery of this webhook")
        return await self._store.webhooks.deliveries(hook.id, limit=limit, before_id=before_id)

    async def delivery(self, principal: Principal, webhook_id: str, delivery_id: str) -> DeliveryView:
        """One delivery of a webhook with its attempts."""
        hook = await self.get(principal, webhook_id)
        delivery = await self._delivery_of(hook, delivery_id, "no such delivery of this webhook")
        return DeliveryView(delivery, await self._store.webhooks.attempts(delivery.id, limit=ATTEMPTS_SHOWN))

    async def retry(self, principal: Principal, webhook_id: str, delivery_id: str) -> Delivery:
        """Send a delivery again now, whatever became of it; a disabled webhook is enabled again."""
        hook = await self.get(principal, webhook_id)
        await self._delivery_of(hook, delivery_id, "no such delivery of this webhook")
        if hook.disabled_ts is not None:
            await self._store.webhooks.set_disabled(hook.id, at=None, reason=None)
        delivery = await self._store.webhooks.retry(delivery_id, now=self._clock())
        self._on_retry()
        return delivery

    async def _delivery_of(self, hook: Webhook, delivery_id: str, missing: str) -> Delivery:
        """One of `hook`'s deliveries; NotFound(`missing`) for any other id."""
        delivery = await self._store.webhooks.get_delivery(delivery_id)
        if delivery is None or delivery.webhook_id != hook.id:
            raise NotFound(missing)
        return delivery

    async def _may_manage(self, principal: Principal, hook: Webhook) -> bool:
        if principal.kind == "admin":
            return True
        if principal.kind == "identity":
            return (
                principal.identity is not None
                and hook.scope == "identity"
                and hook.identity_id == principal.identity.id
            )
        if hook.scope == "provisioner":
            return hook.token_id == principal.token_id
        if hook.scope == "identity" and hook.address is not None:
            owner = await self._store.identities.find(hook.address)
            return owner is not None and owner.id == hook.identity_id and owner.created_by == principal.token_id
        return False
