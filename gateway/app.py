"""The composition root: `create_app(settings)` builds and wires everything, once.

Opening the store happens here (SQLite: its files are checked at once) and in the lifespan's
first step (`engine.start()`, the admin token), so a corrupt store stops start-up before
anything listens. The lifespan then starts the source, the sync and what listens for mail
(the SMTP intake, or Dovecot's push hints) in that order and stops them in reverse.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Literal

from litestar import Litestar, Router
from litestar.di import Provide

from gateway import __version__
from gateway.admin_token import configured_admin_token, ensure_admin_token
from gateway.api.auth import PUBLIC_PATHS, TokenAuth
from gateway.api.bodies import StrictRequest
from gateway.api.controllers.attachments import AttachmentController
from gateway.api.controllers.events import EventController
from gateway.api.controllers.identities import IdentityController
from gateway.api.controllers.messages import MessageController
from gateway.api.controllers.sending import SendController
from gateway.api.controllers.system import HealthOut, ReadyOut, health, ready
from gateway.api.controllers.threads import ThreadController
from gateway.api.controllers.tokens import TokenController
from gateway.api.controllers.waits import WaitController
from gateway.api.controllers.webhooks import IdentityWebhookController, WebhookController
from gateway.api.exceptions import EXCEPTION_HANDLERS
from gateway.api.hangups import client_gone_mid_body
from gateway.api.openapi import openapi_config
from gateway.api.queries import one_value_each
from gateway.config import Settings
from gateway.feed import EventFeed
from gateway.fsutil import ensure_private_dir
from gateway.hub import Hub
from gateway.inbox import Inbox
from gateway.outbound.outbox import Outbox
from gateway.outbound.relay import RelayConfig
from gateway.outbound.sending import Sending
from gateway.push.feeder import Feeder
from gateway.push.webhooks import Webhooks
from gateway.push.worker import Deliverer
from gateway.retention import Retention
from gateway.roles import Roles
from gateway.sources.base import Listeners, MailSource
from gateway.sources.imap import ImapConfig, ImapSource
from gateway.sources.local import LocalSource
from gateway.store import Store
from gateway.store.lineage import mark_mailbox
from gateway.store.open import open_store
from gateway.sync import FAILING_AFTER, Sync, build_records
from gateway.ui import security_headers, ui_router, with_ui_pages
from gateway.workers import RecordBuilder

__all__ = ["Gateway", "create_app"]

log = logging.getLogger(__name__)

READY_TIMEOUT = 2.0  # seconds /ready waits for the database before it says unreachable
MAX_REQUEST_BYTES = 64 * 1024  # JSON bodies here are tiny; anything bigger is a mistake or abuse


def send_body_limit(max_message_bytes: int) -> int:
    """The body limit of the send routes: a message's worth of base64 attachments, and the JSON around them."""
    return max_message_bytes * 4 // 3 + MAX_REQUEST_BYTES


@dataclass(slots=True)
class Gateway:
    """Everything one running gateway holds; the lifespan fills in what listens."""

    settings: Settings
    store: Store
    source: MailSource
    sync: Sync
    inbox: Inbox
    retention: Retention
    hub: Hub
    outbox: Outbox
    sending: Sending
    webhooks: Webhooks
    feeder: Feeder
    deliverer: Deliverer
    roles: Roles
    smtp_address: tuple[str, int] | None = None
    essential: list[asyncio.Task[None]] = field(default_factory=list)
    """The tasks without which this gateway is broken (its role, its news): /health fails if one ends."""

    def health(self) -> HealthOut:
        """What /health reports: failing once the reader's sync task ended while the gateway runs
        (or its catch-ups keep failing: it retries, but a supervisor should look), rebuilding
        while the index is built from the mailbox (mail reads answer 503 meanwhile)."""
        status: Literal["ok", "rebuilding", "failing"] = "rebuilding" if self.roles.rebuilding else "ok"
        ended = any(task.done() and not task.cancelled() and task.exception() for task in self.essential)
        cannot_read = self.roles.failed_starts >= FAILING_AFTER
        if ended or cannot_read or self.roles.stopped or (self.roles.role == "reader" and self.sync.failing):
            status = "failing"
        return HealthOut(status, self.source.kind, "ok" if self.source.reachable else "unreachable")

    async def readiness(self) -> ReadyOut:
        """What /ready reports: whether a load balancer should send this gateway requests.

        Not the index being rebuilt: that is every gateway's state at once (the index is shared),
        and calls other than mail reads work meanwhile, as on a single gateway (reads say 503)."""
        coordination = self.store.coordination
        if coordination.shared:
            # Its own connection, checked every second: the request pool may be busy, not gone.
            database = coordination.hearing
        else:
            try:
                async with asyncio.timeout(READY_TIMEOUT):
                    database = await self.store.engine.ping()
            except TimeoutError:
                database = False
        reason = None
        if not database:
            reason = "the database does not answer (or this gateway cannot hear the others on it)"
        elif self.health().status == "failing":
            reason = "this gateway read the mailbox but no longer indexes new mail"
        return ReadyOut(
            "not ready" if reason else "ready", self.roles.role, "ok" if database else "unreachable", reason
        )


def _log_end(task: asyncio.Task[None]) -> None:
    if task.cancelled() or task.exception() is None:
        return  # stopped, or (the role) the sync ended: the roles say so themselves
    log.error(
        "the %s task ended: this gateway is broken (/health says failing)", task.get_name(), exc_info=task.exception()
    )


def _build(settings: Settings, source: MailSource | None) -> Gateway:
    ensure_private_dir(settings.data_dir)
    configured_admin_token(settings)  # a bad one is a SettingError now, before anything starts
    store = open_store(settings)
    if source is None:
        if settings.source_kind == "imap":
            source = ImapSource(ImapConfig.from_settings(settings))
        else:
            source = LocalSource(settings.data_dir / "maildir")
    builder = RecordBuilder(
        build_records, catchall=settings.catchall, max_bytes=settings.max_message_bytes, workers=settings.index_workers
    )
    sync = Sync(source, store.index, catchall=settings.catchall, max_bytes=settings.max_message_bytes, builder=builder)
    inbox = Inbox(
        store,
        source,
        max_bytes=settings.max_message_bytes,
        rebuilding=lambda: roles.rebuilding,
        max_attachments=settings.max_attachments,
        max_attachment_bytes=settings.attachment_limit,
        attachment_text_chars=settings.attachment_text_chars,
    )
    retention = Retention(source, store, days=settings.retention_days, index_ready=lambda: sync.caught_up)
    # Wake-ups go through the store's coordination: to this gateway at once, and to the others.
    hub = Hub(
        per_address=settings.wait_max_per_address,
        total=settings.wait_max_total,
        announce=store.coordination.announce,
    )
    store.coordination.subscribe(hub.heard)
    # Sent copies wake nobody: waits and event streams are for mail that arrives.
    sync.on_indexed(lambda records: hub.publish(a for r in records if r.direction == "received" for a in r.grants))
    deliverer = Deliverer(
        store,
        allow=settings.webhook_allow,
        timeout=settings.webhook_timeout,
        retry_first=settings.webhook_retry_first,
        concurrency=settings.webhook_concurrency,
        disable_after=settings.webhook_disable_after,
        clock=time.time,
    )
    feeder = Feeder(store, inbox, clock=time.time, on_enqueued=deliverer.wake)
    sync.on_indexed(lambda _: feeder.wake())  # sent copies too: `message.sent`
    webhooks = Webhooks(
        store,
        allow=settings.webhook_allow,
        per_owner=settings.webhooks_per_identity,
        clock=time.time,
        on_retry=deliverer.wake,
    )
    outbox = Outbox(
        store,
        source,
        domain=settings.domain,
        relay_config=RelayConfig.from_settings(settings),
        per_hour=settings.send_per_hour,
        max_bytes=settings.max_message_bytes,
        clock=time.time,
        retry_first=settings.relay_retry_first,
        on_failed=lambda entry, state: feeder.delivery_failed(
            entry.identity_id, entry.sender, entry.message_id, entry.id, state.address, state.detail
        ),
    )
    sending = Sending(store, inbox, outbox, sync, max_bytes=settings.max_message_bytes, clock=time.time)
    # One gateway on the store reads the mailbox: the sync, retention and the feeder are its duties.
    roles = Roles(
        store.coordination,
        source,
        sync,
        store.index,
        duties=[("retention", retention.run), ("webhook feeder", feeder.run)],
        exclusive=source.kind == "local",
    )
    store.coordination.subscribe(roles.heard)
    return Gateway(
        settings, store, source, sync, inbox, retention, hub, outbox, sending, webhooks, feeder, deliverer, roles
    )


def create_app(settings: Settings, *, source: MailSource | None = None) -> Litestar:
    """The Litestar app for `settings`; `source` replaces the configured mail source (tests)."""
    gw = _build(settings, source)
    feed = EventFeed(gw.store, gw.inbox)

    @contextlib.asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        listeners = Listeners()
        coordination = gw.store.coordination
        try:
            await gw.store.engine.start()
            if isinstance(gw.source, LocalSource) and gw.store.engine.store_id is not None:
                # The mailbox side remembers the store: losing the store alone stops the next start.
                mark_mailbox(gw.source.maildir.root, gw.store.engine.store_id)
            await ensure_admin_token(settings, gw.store.tokens)
            if coordination.shared and gw.source.kind == "local":
                log.warning(
                    "the embedded SMTP intake is single-process: this gateway alone reads this database's"
                    " mail; to run several gateways on it, use AGENTMAIL_SOURCE=imap (Dovecot)"
                )
            await gw.source.start()
            await gw.roles.prepare()  # before anything is served: is the index about to be rebuilt?
        except BaseException:
            await gw.store.engine.close()
            raise
        news = asyncio.create_task(coordination.run(), name="news")
        roles = asyncio.create_task(gw.roles.run(), name="roles")
        gw.essential[:] = [news, roles]
        for task in gw.essential:
            task.add_done_callback(_log_end)
        outbox = deliverer = None
        try:
            await gw.outbox.start()
            outbox = asyncio.create_task(gw.outbox.run(), name="outbox")
            await gw.deliverer.start()
            deliverer = asyncio.create_task(gw.deliverer.run(), name="webhook deliveries")
            # SMTP intake (local), push listener (imap): a push heard by a standby goes to the reader.
            listeners = await gw.source.listen(settings, hint=gw.roles.hint)
            gw.smtp_address = listeners.smtp_address
            yield
        finally:
            await listeners.close()
            workers = [task for task in (outbox, deliverer) if task is not None]
            for task in workers:  # what they were doing is in the store: the next start finishes it
                task.cancel()
            await gw.source.stop()  # the reader's sync ends (next_batch returns None), and so its role
            if gw.roles.role != "reader":
                roles.cancel()  # a standby waits for the role: nothing of its own to finish
            _, pending = await asyncio.wait([roles, *workers], timeout=5)
            for task in pending:  # never close the stores under a running task
                task.cancel()
            news.cancel()
            await asyncio.wait([*pending, news], timeout=10)
            await coordination.close()
            await gw.roles.release()
            await gw.sync.close()
            await gw.store.engine.close()

    app = Litestar(
        route_handlers=[
            IdentityController,
            MessageController,
            AttachmentController,
            ThreadController,
            WaitController,
            EventController,
            TokenController,
            IdentityWebhookController,
            WebhookController,
            # Mail to send carries its attachments in the body: its own, larger limit.
            Router(
                "/", route_handlers=[SendController], request_max_body_size=send_body_limit(settings.max_message_bytes)
            ),
            health,
            ready,
            ui_router(),
        ],
        dependencies={
            "store": Provide(lambda: gw.store, sync_to_thread=False),
            "inbox": Provide(lambda: gw.inbox, sync_to_thread=False),
            "hub": Provide(lambda: gw.hub, sync_to_thread=False),
            "feed": Provide(lambda: feed, sync_to_thread=False),
            "sending": Provide(lambda: gw.sending, sync_to_thread=False),
            "webhooks": Provide(lambda: gw.webhooks, sync_to_thread=False),
            "health_state": Provide(gw.health, sync_to_thread=False),
            "readiness": Provide(gw.readiness),
        },
        middleware=[client_gone_mid_body, lambda app: TokenAuth(app, exclude=PUBLIC_PATHS)],
        exception_handlers=with_ui_pages(EXCEPTION_HANDLERS),  # /ui errors are HTML pages
        before_request=one_value_each,  # `?q=a&q=b` is a 400, not half a search
        before_send=[security_headers],  # CSP & co. on every /ui response, errors and 404s included
        lifespan=[lifespan],
        request_max_body_size=MAX_REQUEST_BYTES,
        request_class=StrictRequest,  # every JSON body decoded strictly, into its type, in one step
        openapi_config=openapi_config(__version__),
        debug=False,
        logging_config=None,  # the CLI configures logging once, for every module
    )
    app.state.gateway = gw  # the one path to the store outside dependency injection (api/auth.py)
    return app
