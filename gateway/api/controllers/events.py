"""/v1/events: the mail of every identity the caller manages, as one Server-Sent Events stream."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated, Any

import msgspec
from litestar import Controller, Request, get
from litestar.background_tasks import BackgroundTask
from litestar.di import NamedDependency, Provide
from litestar.params import QueryParameter
from litestar.response import ServerSentEvent, ServerSentEventMessage

from gateway.api import schemas
from gateway.api.auth import feed_scope, token_lost
from gateway.api.controllers import waits
from gateway.api.controllers.messages import Q, search
from gateway.api.schemas import error_responses
from gateway.errors import IndexRebuilding, NotFound
from gateway.feed import MAX_EVENT_ID_CHARS, EventFeed, FeedPosition, Scope
from gateway.hub import Hub, Subscription
from gateway.mail.search import MAX_QUERY_CHARS, Node
from gateway.store import Principal

__all__ = ["EventController"]


class EventController(Controller):
    path = "/v1/events"
    tags = ["messages"]
    dependencies = {"feed_scope": Provide(feed_scope, sync_to_thread=False)}

    @get(
        "/",
        operation_id="streamAllMessages",
        response_description="An endless stream: `event: message`, `id: <address>/<message id>`,"
        " `data: <summary JSON with its address>`.",
        summary="Stream new messages of every identity the token manages",
        media_type="text/event-stream",
        responses=error_responses(403, 404),
    )
    async def events(
        self,
        request: Request[Principal, Any, Any],
        feed: NamedDependency[EventFeed],
        hub: NamedDependency[Hub],
        feed_scope: NamedDependency[Scope],
        last_event_id: Annotated[
            str | None,
            QueryParameter(
                max_length=MAX_EVENT_ID_CHARS,
                description="Resume after this event id (as the `Last-Event-ID` header does).",
            ),
        ] = None,
        q: Annotated[str | None, QueryParameter(max_length=MAX_QUERY_CHARS, description=Q)] = None,
    ) -> ServerSentEvent:
        """A `text/event-stream` that never ends: one `message` event per message received by an
        identity the token manages, its data the summary as the identity's own stream sends it plus
        `address`, its event id `address/message id`; a comment every 15 s keeps it open.

        The admin token: every identity; a provisioner token: the identities it created (one it
        creates later joins the stream, a deleted one leaves it). An identity token gets 403 (its
        own stream is `GET /v1/identities/{address}/events`). Messages come in the order the
        gateway indexed them. A new stream starts with mail arriving from now on;
        `Last-Event-ID` (header or query) replays every message after that event first, across
        identities, none skipped and none twice (an unknown or malformed id: 404 or 400 before
        the stream starts). With `q`, only messages matching that search are sent. The stream
        ends when the token is rotated or revoked, or while the index is rebuilt (resume with
        `Last-Event-ID`). 429 when too many streams and waits are open.
        """
        query = search(q)  # 400 before the stream starts
        after = request.headers.get("last-event-id") or last_event_id
        position = await feed.start(feed_scope, after)  # 400/404 for a bad cursor, now
        subscription = hub.subscribe_all()  # 429 over the limits, before streaming
        return ServerSentEvent(
            _stream(request, feed, feed_scope, subscription, position, query),
            background=BackgroundTask(_leave, hub, subscription),
        )


async def _leave(hub: Hub, subscription: Subscription) -> None:
    hub.unsubscribe(subscription)


async def _stream(
    request: Request[Principal, Any, Any],
    feed: EventFeed,
    scope: Scope,
    subscription: Subscription,
    position: FeedPosition,
    query: Node | None,
) -> AsyncIterator[ServerSentEventMessage]:
    with subscription:  # leaves the hub when the client goes (Litestar cancels the stream)
        while True:
            if await token_lost(request) is not None:
                return  # token rotated or revoked: the stream ends
            try:
                events, more = await feed.next(scope, position, query=query)
            except (IndexRebuilding, NotFound):
                return  # the index is being rebuilt, or its position left: the client resumes later
            for event in events:
                data = msgspec.json.encode(schemas.addressed_summary(event.address, event.summary)).decode()
                yield ServerSentEventMessage(data=data, event="message", id=event.id)
            if more:
                continue  # a page of grants was read: read on before sleeping
            if not await subscription.wait(waits.KEEPALIVE_SECONDS):
                yield ServerSentEventMessage(comment="keep-alive")
