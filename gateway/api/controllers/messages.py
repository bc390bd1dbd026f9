"""/v1/identities/{address}/messages: an identity's mail (admin or the identity itself)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from litestar import Controller, Request, Response, delete, get, patch
from litestar.di import NamedDependency, Provide
from litestar.params import FromPath, FromQuery, JSONBody, QueryParameter

from gateway import wire
from gateway.api import schemas
from gateway.api.auth import mail_identity
from gateway.api.schemas import error_responses
from gateway.errors import InvalidInput
from gateway.inbox import MAX_PAGE, Inbox, ListQuery
from gateway.store import Identity, Principal

__all__ = ["MessageController"]


class MessageController(Controller):
    path = "/v1/identities/{address:str}/messages"
    tags = ["messages"]
    dependencies = {"identity": Provide(mail_identity)}

    @get("/", operation_id="listMessages", responses=error_responses(403, 404))
    async def list_messages(
        self,
        inbox: NamedDependency[Inbox],
        identity: NamedDependency[Identity],
        limit: Annotated[int, QueryParameter(ge=1, le=MAX_PAGE)] = 50,
        before_id: FromQuery[str | None] = None,
        after_id: FromQuery[str | None] = None,
        since: FromQuery[datetime | None] = None,
        sender: Annotated[str | None, QueryParameter(name="from", max_length=256)] = None,
        subject: Annotated[str | None, QueryParameter(max_length=256)] = None,
    ) -> wire.MessagePage | wire.MessagePageAfter:
        """Newest first (page with `before_id`), or oldest first after `after_id`."""
        if since is not None and since.tzinfo is None:
            raise InvalidInput("since needs a time zone (RFC 3339, e.g. 2026-01-01T00:00:00Z)")
        query = ListQuery(limit, before_id, after_id, since, sender, subject)
        page = await inbox.listing(identity, query)
        return schemas.message_page_after(page) if after_id is not None else schemas.message_page(page)

    @get("/{message_id:str}", operation_id="getMessage", responses=error_responses(403, 404))
    async def get_message(
        self,
        request: Request[Principal, Any, Any],
        inbox: NamedDependency[Inbox],
        identity: NamedDependency[Identity],
        message_id: FromPath[str],
    ) -> wire.Message:
        """The whole message; marks it seen for the identity (admin reads do not)."""
        mark = request.user.kind == "identity"
        return schemas.message(await inbox.read(identity, message_id, mark_seen=mark))

    @patch("/{message_id:str}", operation_id="markMessage", responses=error_responses(403, 404, 413))
    async def mark(
        self,
        inbox: NamedDependency[Inbox],
        identity: NamedDependency[Identity],
        message_id: FromPath[str],
        data: JSONBody[wire.SeenIn],
    ) -> wire.Summary:
        """Set the identity's `seen` mark."""
        return schemas.summary(await inbox.set_seen(identity, message_id, data.seen))

    @get(
        "/{message_id:str}/raw",
        operation_id="getRawMessage",
        media_type="message/rfc822",
        responses=error_responses(403, 404),
    )
    async def raw(
        self, inbox: NamedDependency[Inbox], identity: NamedDependency[Identity], message_id: FromPath[str]
    ) -> Response[bytes]:
        """The message exactly as the mailbox holds it."""
        return Response(await inbox.raw(identity, message_id), media_type="message/rfc822")

    @delete("/{message_id:str}", operation_id="deleteMessage", responses=error_responses(403, 404))
    async def remove(
        self, inbox: NamedDependency[Inbox], identity: NamedDependency[Identity], message_id: FromPath[str]
    ) -> None:
        """Hide the message from this identity; the mailbox copy goes once nobody sees it."""
        await inbox.delete(identity, message_id)
