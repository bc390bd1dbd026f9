"""/v1/identities/{address}/wait and /events: block until mail arrives, or stream it as it does."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import datetime
from typing import Annotated, Any, Final

import msgspec
from litestar import Controller, Request, Response, get
from litestar.background_tasks import BackgroundTask
from litestar.di import NamedDependency, Provide
from litestar.params import QueryParameter
from litestar.response import ServerSentEvent, ServerSentEventMessage
from litestar.types import Receive

from gateway import wire
from gateway.api import schemas
from gateway.api.auth import access_lost, mail_identity, still_authorized
from gateway.api.controllers.messages import FROM, SINCE, SUBJECT, Q, search
from gateway.api.schemas import error_responses
from gateway.errors import IndexRebuilding, InvalidInput, NotFound
from gateway.hub import Hub, Subscription
from gateway.inbox import MAX_PAGE, Inbox, ListQuery, WaitQuery
from gateway.mail.search import MAX_QUERY_CHARS, Node
from gateway.store import Identity, Principal
from gateway.waiting import MAX_WAIT_SECONDS, handover

__all__ = ["WaitController"]

KEEPALIVE_SECONDS: Final = 15.0  # an SSE comment this often keeps proxies from cutting the stream


class WaitController(Controller):
    path = "/v1/identities/{address:str}"
    tags = ["messages"]
    dependencies = {"identity": Provide(mail_identity)}

    @get(
        "/wait",
        operation_id="waitForMessage",
        response_description="The message that arrived (or was already there), whole; claimed for this wait.",
        summary="Wait for the next matching message",
        responses=error_responses(403, 404, 408),
    )
    async def wait(
        self,
        request: Request[Principal, Any, Any],
        inbox: NamedDependency[Inbox],
        hub: NamedDependency[Hub],
        identity: NamedDependency[Identity],
        timeout: Annotated[
            float,
            QueryParameter(
                ge=0,
                le=MAX_WAIT_SECONDS,
                description="Seconds to wait, 0 to 600 (0: answer at once). Set the HTTP client's own"
                " timeout above it.",
            ),
        ] = 120.0,
        include_seen: Annotated[
            bool, QueryParameter(description="Also return a message the identity has already seen.")
        ] = False,
        since: Annotated[datetime | None, QueryParameter(description=SINCE)] = None,
        after_id: Annotated[
            str | None, QueryParameter(description="Only mail newer than this message id (seen or not).")
        ] = None,
        sender: Annotated[str | None, QueryParameter(name="from", max_length=256, description=FROM)] = None,
        subject: Annotated[str | None, QueryParameter(max_length=256, description=SUBJECT)] = None,
        q: Annotated[str | None, QueryParameter(max_length=MAX_QUERY_CHARS, description=Q)] = None,
    ) -> Response[wire.Message]:
        """Block until a matching unseen message exists, then return it whole (the oldest such first).

        The admin or the identity's own token. Answers at once when one is there already. The
        message is claimed: concurrent waits never get the same one, and the identity's own wait
        marks it seen, so asking again waits for the next mail (a re-sent code, not the old one).
        408 when none arrives within `timeout` seconds; 429 (with `Retry-After`) when too many
        waits are open. Behind a proxy, keep `timeout` under its read timeout and wait again.
        `q` narrows it to mail matching a search (400 `invalid_query` at once when it cannot be read).
        """
        if since is not None and since.tzinfo is None:
            raise InvalidInput("since needs a time zone (RFC 3339, e.g. 2026-01-01T00:00:00Z)")
        answer = await handover(
            inbox,
            hub,
            identity,
            WaitQuery(include_seen, since, after_id, sender, subject, search(q)),
            timeout,
            disconnected=lambda: _disconnected(request.receive),
            access_lost=lambda: access_lost(request, identity),
            mark_seen=request.user.kind == "identity",
        )
        return Response(schemas.message(answer.message), background=BackgroundTask(answer.settle))

    @get(
        "/events",
        operation_id="streamMessages",
        response_description="An endless stream: `event: message`, `id: <message id>`, `data: <summary JSON>`.",
        summary="Stream new messages as Server-Sent Events",
        media_type="text/event-stream",
        responses=error_responses(403, 404),
    )
    async def events(
        self,
        request: Request[Principal, Any, Any],
        inbox: NamedDependency[Inbox],
        hub: NamedDependency[Hub],
        identity: NamedDependency[Identity],
        last_event_id: Annotated[
            str | None,
            QueryParameter(
                max_length=256,
                description="Resume after this message id (as the `Last-Event-ID` header does).",
            ),
        ] = None,
        q: Annotated[str | None, QueryParameter(max_length=MAX_QUERY_CHARS, description=Q)] = None,
    ) -> ServerSentEvent:
        """A `text/event-stream` that never ends: one `message` event per new message, its data the
        message's summary as JSON and its event id the message id; a comment every 15 s keeps it open.

        The admin or the identity's own token. A new stream starts with mail arriving from now on
        (it first says where with an `event: position` whose id resumes like a message's);
        `Last-Event-ID` (header or query) replays every message after that one first. The stream
        ends when the token is rotated or revoked or the identity deleted. 429 when too many
        streams and waits are open. With `q`, only messages matching that search are sent (the
        event ids stay message ids, so `Last-Event-ID` resumes after the last match delivered).
        """
        query = search(q)  # 400 before the stream starts
        after = request.headers.get("last-event-id") or last_event_id
        announce = False
        if after is None:  # a new stream starts at "now": the newest message so far
            newest = (await inbox.listing(identity, ListQuery(limit=1))).summaries
            after = newest[0].id if newest else None
            announce = after is not None  # said first, so a drop before the first message loses nothing
        else:
            await inbox.listing(identity, ListQuery(limit=1, after_id=after))  # 404 for an unknown cursor, now
        subscription = hub.subscribe(identity.address)  # 429 over the limits, before streaming
        # The stream's own `with` leaves the hub, but a client that hangs up at once cancels
        # the stream before it ever starts: the background task covers that (idempotent).
        return ServerSentEvent(
            _stream(request, inbox, identity, subscription, after, query, announce=announce),
            background=BackgroundTask(_leave, hub, subscription),
        )


async def _disconnected(receive: Receive) -> None:
    """Return once the client has gone away (ASGI `http.disconnect`)."""
    while (await receive())["type"] != "http.disconnect":
        pass


async def _leave(hub: Hub, subscription: Subscription) -> None:
    hub.unsubscribe(subscription)


async def _stream(
    request: Request[Principal, Any, Any],
    inbox: Inbox,
    identity: Identity,
    subscription: Subscription,
    after: str | None,
    query: Node | None,
    *,
    announce: bool = False,
) -> AsyncIterator[ServerSentEventMessage]:
    with subscription:  # leaves the hub when the client goes (Litestar cancels the stream)
        if announce and after is not None:
            yield ServerSentEventMessage(event="position", id=after)
        while True:
            if not await still_authorized(request, identity):
                return  # token rotated or revoked, identity gone: the stream ends
            try:
                # Oldest first from the cursor, or from the first message when nothing existed
                # at the start: however many arrived before this wake-up, all go out, in order.
                summaries = await inbox.newer(identity, after, query=query)
            except (IndexRebuilding, NotFound):
                return  # the index is being rebuilt, or the cursor is gone: the client resumes later
            for summary in summaries:
                data = msgspec.json.encode(schemas.summary(summary)).decode()
                yield ServerSentEventMessage(data=data, event="message", id=summary.id)
                after = summary.id
            if len(summaries) == MAX_PAGE:
                continue  # more than a page arrived at once
            if not await subscription.wait(KEEPALIVE_SECONDS):
                yield ServerSentEventMessage(comment="keep-alive")
