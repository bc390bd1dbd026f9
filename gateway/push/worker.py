"""Delivering webhooks: claim what is due, sign it, call it, record what happened.

Calls run concurrently (up to MAX_IN_FLIGHT in all, `concurrency` per webhook); the store
hands out only the oldest unfinished delivery of each webhook and address, so one identity's
events reach a receiver in order, and a failing one holds back only that identity's later
events at that webhook. A failed call is retried on the schedule of `gateway.push.schedule`
(fast first, then backing off, for 3 days) and then recorded failed; a webhook whose calls
have all failed for `disable_after` is disabled with the reason, and enabled again by a
manual retry. Every attempt is logged in the store without our secret or our headers.

Each call is signed when it is made (Standard Webhooks: a fresh `webhook-timestamp`, the same
`webhook-id` and body every time), with the current secret and, during a rotation's grace
period, the previous one too.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Callable, Sequence
from typing import Final

from gateway.push.call import CallResult, call_webhook
from gateway.push.guard import Resolver
from gateway.push.schedule import next_attempt
from gateway.store import Store
from gateway.store.webhooks import Attempt, Delivery, Webhook

__all__ = ["Deliverer"]

log = logging.getLogger(__name__)

MAX_IN_FLIGHT: Final = 64
IDLE_CHECK: Final = 1.0  # looks for due retries at least this often, woken sooner by new work
GONE: Final = 410
LEASE_MARGIN: Final = 60.0  # a claim outlives its call by this much: a live call never loses its claim


class Deliverer:
    """The webhook outbox's worker; one per gateway process (several processes share the store safely)."""

    def __init__(
        self,
        store: Store,
        *,
        allow: Sequence[str],
        timeout: float,
        retry_first: float,
        concurrency: int,
        disable_after: float,
        clock: Callable[[], float],
        resolver: Resolver | None = None,
    ) -> None:
        self._store = store
        self._allow = tuple(allow)
        self._timeout = timeout
        self._retry_first = retry_first
        self._concurrency = concurrency
        self._disable_after = disable_after
        self._clock = clock
        self._resolver = resolver
        self._due = asyncio.Event()
        self._in_flight: set[asyncio.Task[None]] = set()

    def wake(self) -> None:
        """New or retried deliveries: look now."""
        self._due.set()

    async def start(self) -> None:
        """Before the worker runs: a store only this process uses holds no live claim (a crash left them)."""
        if self._store.engine.kind == "sqlite":
            await self._store.webhooks.release_all()

    async def run(self) -> None:
        """Deliver what is due, now and whenever something is due, until cancelled (calls in flight are
        cancelled with it: their claims lapse and they are made again, at least once)."""
        try:
            while True:
                self._due.clear()
                room = MAX_IN_FLIGHT - len(self._in_flight)
                claimed: list[Delivery] = []
                if room > 0:
                    try:
                        claimed = await self._store.webhooks.claim(
                            now=self._clock(),
                            lease=self._timeout + LEASE_MARGIN,
                            limit=room,
                            per_webhook=self._concurrency,
                        )
                    except Exception:
                        log.exception("the webhook worker could not read the outbox; trying again shortly")
                for delivery in claimed:
                    task = asyncio.create_task(self._deliver(delivery), name=f"webhook {delivery.id}")
                    self._in_flight.add(task)
                    task.add_done_callback(self._in_flight.discard)
                # Sleep until a call ends (its address's next event may be due, or a slot freed), new
                # work comes, or IDLE_CHECK passes (a retry fell due).
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(min(IDLE_CHECK, self._retry_first)):
                        await self._due.wait()
        finally:
            for task in self._in_flight:
                task.cancel()
            if self._in_flight:
                await asyncio.wait(self._in_flight)

    async def _deliver(self, delivery: Delivery) -> None:
        try:
            hook = await self._store.webhooks.get(delivery.webhook_id)
            if hook is None:
                return  # deleted meanwhile: its deliveries went with it
            result = await self._call(hook, delivery)
            await self._record(hook, delivery, result)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception(
                "webhook delivery %s failed unexpectedly; its claim lapses and it is tried again", delivery.id
            )
        finally:
            self._due.set()  # the next event of its address may be due now

    async def _call(self, hook: Webhook, delivery: Delivery) -> CallResult:
        keys = [hook.secret]
        if hook.previous_secret is not None and hook.previous_until is not None and hook.previous_until > self._clock():
            keys.append(hook.previous_secret)
        return await call_webhook(
            hook.url,
            delivery.payload,
            msg_id=delivery.id,
            secrets=keys,
            timeout=self._timeout,
            allow=self._allow,
            resolver=self._resolver,
        )

    async def _record(self, hook: Webhook, delivery: Delivery, result: CallResult) -> None:
        now = self._clock()
        attempt = Attempt(delivery.id, now, result.latency_ms, result.status_code, result.error, result.response_head)
        attempts = delivery.attempts + 1
        if result.ok:
            await self._store.webhooks.record(delivery.id, attempt, status="delivered", next_ts=now)
            log.info("webhook %s: %s delivered (%s)", hook.id, delivery.id, result.status_code)
            return
        reason = result.error or f"HTTP {result.status_code}"
        jitter = random.random()  # noqa: S311 - spreads retries, secures nothing
        retry_at = next_attempt(attempts, delivery.created_ts, now, jitter=jitter, first=self._retry_first)
        if retry_at is None:
            await self._store.webhooks.record(
                delivery.id, attempt, status="failed", next_ts=now, error=f"gave up after 3 days: {reason}"
            )
        else:
            await self._store.webhooks.record(delivery.id, attempt, status="queued", next_ts=retry_at, error=reason)
        # The URL is never logged: many receivers (chat and automation hooks) keep a secret in it.
        log.info(
            "webhook %s: %s failed (%s), attempt %d%s",
            hook.id,
            delivery.id,
            reason,
            attempts,
            "" if retry_at is None else f"; again in {retry_at - now:.1f} s",
        )
        failing_since = hook.failing_since if hook.failing_since is not None else now
        if result.status_code == GONE:
            # The receiver says this endpoint is gone for good (the Standard Webhooks convention):
            # calling it again would only fail again.
            why = "the receiver answered 410 Gone; a manual retry enables it again"
            await self._store.webhooks.set_disabled(hook.id, at=now, reason=why)
            log.warning("webhook %s disabled: %s", hook.id, why)
        elif now - failing_since >= self._disable_after:
            days = self._disable_after / 86400
            why = f"every call failed for {days:g} days (last: {reason}); a manual retry enables it again"
            await self._store.webhooks.set_disabled(hook.id, at=now, reason=why)
            log.warning("webhook %s disabled: %s", hook.id, why)
