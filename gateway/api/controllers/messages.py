"""/v1/identities/{address}/messages: an identity's mail (admin or the identity itself)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Final, Literal

from litestar import Controller, Request, Response, delete, get, patch
from litestar.di import NamedDependency, Provide
from litestar.params import JSONBody, PathParameter, QueryParameter

from gateway import wire
from gateway.api import schemas
from gateway.api.auth import mail_identity
from gateway.api.schemas import error_responses
from gateway.errors import InvalidInput
from gateway.inbox import MAX_PAGE, Inbox, ListQuery
from gateway.mail.search import MAX_QUERY_CHARS, Node, parse_query
from gateway.store import Identity, Principal

__all__ = ["FROM", "MESSAGE_ID", "SINCE", "SUBJECT", "MessageController", "Q", "search"]

MESSAGE_ID: Final = "The message's `id` (opaque; from a listing, a wait or an event)."
SINCE: Final = "Only mail received at or after this RFC 3339 time with a zone, e.g. `2026-01-01T00:00:00Z`."
FROM: Final = "Only mail whose sender (`From`) holds this text, case-insensitively; up to 256 characters."
SUBJECT: Final = "Only mail whose subject holds this text, case-insensitively; up to 256 characters."
Q: Final = (
    'A search, up to 1000 characters: words and `"phrases"` (subject and text), `from:`/`to:` an exact address'
    " or `@domain`, `subject:`, `filename:`, `has:attachment|code|link`, `is:seen|unseen`.\n"
    "`before:`/`after:` a date or ISO instant (UTC), `-` negates, `OR` between terms, terms are ANDed;"
    " e.g. `from:@stripe.com has:attachment -refund`. A query that cannot be read is a 400 `invalid_query`."
)


class MessageController(Controller):
    path = "/v1/identities/{address:str}/messages"
    tags = ["messages"]
    dependencies = {"identity": Provide(mail_identity)}

    @get(
        "/",
        operation_id="listMessages",
        response_description="A page of summaries: `next_before_id` newest first, `next_after_id` with `after_id`.",
        summary="List an identity's messages",
        responses=error_responses(403, 404),
    )
    async def list_messages(
        self,
        inbox: NamedDependency[Inbox],
        identity: NamedDependency[Identity],
        limit: Annotated[int, QueryParameter(ge=1, le=MAX_PAGE, description="Messages per page (1 to 200).")] = 50,
        before_id: Annotated[
            str | None, QueryParameter(description="Newest first, older than this message id (`next_before_id`).")
        ] = None,
        after_id: Annotated[
            str | None, QueryParameter(description="Oldest first, newer than this message id (`next_after_id`).")
        ] = None,
        since: Annotated[datetime | None, QueryParameter(description=SINCE)] = None,
        sender: Annotated[str | None, QueryParameter(name="from", max_length=256, description=FROM)] = None,
        subject: Annotated[str | None, QueryParameter(max_length=256, description=SUBJECT)] = None,
        direction: Annotated[
            Literal["received", "sent", "all"],
            QueryParameter(description="`received` (the default), `sent` (mail this identity sent) or `all`."),
        ] = "received",
        q: Annotated[str | None, QueryParameter(max_length=MAX_QUERY_CHARS, description=Q)] = None,
    ) -> wire.MessagePage | wire.MessagePageAfter:
        """Summaries of the identity's mail, with the codes and links found in each.

        The admin or the identity's own token. Newest first, paged by `before_id` (pass the
        answer's `next_before_id`, null on the last page); or, with `after_id`, oldest first after
        that message, paged by `next_after_id`. Filters combine: `since`, `from`, `subject`,
        `direction` (received mail by default; `sent` lists what the identity sent, `all` both),
        and `q`, a search in the language its description gives (same paging, same shapes).
        Listing marks nothing seen. 404 for an unknown identity or cursor; 400 `invalid_query`
        for a query that cannot be read, its detail naming the term and where it stands.
        """
        if since is not None and since.tzinfo is None:
            raise InvalidInput("since needs a time zone (RFC 3339, e.g. 2026-01-01T00:00:00Z)")
        query = ListQuery(limit, before_id, after_id, since, sender, subject, direction, search(q))
        page = await inbox.listing(identity, query)
        return schemas.message_page_after(page) if after_id is not None else schemas.message_page(page)

    @get(
        "/{message_id:str}",
        operation_id="getMessage",
        response_description="The whole message.",
        summary="Read a message",
        responses=error_responses(403, 404),
    )
    async def get_message(
        self,
        request: Request[Principal, Any, Any],
        inbox: NamedDependency[Inbox],
        identity: NamedDependency[Identity],
        message_id: Annotated[str, PathParameter(description=MESSAGE_ID)],
    ) -> wire.Message:
        """The whole message: headers, text, the HTML exactly as sent, attachments (their names,
        types and sizes), its codes and links.

        The admin or the identity's own token; the identity's own read marks it seen (the admin's
        does not).
        """
        mark = request.user.kind == "identity"
        return schemas.message(await inbox.read(identity, message_id, mark_seen=mark))

    @patch(
        "/{message_id:str}",
        operation_id="markMessage",
        response_description="The message's summary, with its new `seen` mark.",
        summary="Mark a message seen or unseen",
        responses=error_responses(403, 404, 413),
    )
    async def mark(
        self,
        inbox: NamedDependency[Inbox],
        identity: NamedDependency[Identity],
        message_id: Annotated[str, PathParameter(description=MESSAGE_ID)],
        data: JSONBody[wire.SeenIn],
    ) -> wire.Summary:
        """Set the identity's `seen` mark (body `{"seen": true|false}`); answers the summary.

        The admin or the identity's own token. A `wait` skips seen messages unless asked not to,
        so marking one unseen lets a wait return it again.
        """
        return schemas.summary(await inbox.set_seen(identity, message_id, data.seen))

    @get(
        "/{message_id:str}/raw",
        operation_id="getRawMessage",
        response_description="The message's RFC 5322 source, byte for byte.",
        summary="Download a message's source",
        media_type="message/rfc822",
        responses=error_responses(403, 404),
    )
    async def raw(
        self,
        inbox: NamedDependency[Inbox],
        identity: NamedDependency[Identity],
        message_id: Annotated[str, PathParameter(description=MESSAGE_ID)],
    ) -> Response[bytes]:
        """The message exactly as the mailbox holds it (RFC 5322 bytes, `message/rfc822`).

        The admin or the identity's own token. Marks nothing seen.
        """
        return Response(await inbox.raw(identity, message_id), media_type="message/rfc822")

    @delete(
        "/{message_id:str}",
        operation_id="deleteMessage",
        response_description="Hidden from this identity.",
        summary="Delete a message",
        responses=error_responses(403, 404),
    )
    async def remove(
        self,
        inbox: NamedDependency[Inbox],
        identity: NamedDependency[Identity],
        message_id: Annotated[str, PathParameter(description=MESSAGE_ID)],
    ) -> None:
        """Hide the message from this identity for good; the mailbox copy goes once no identity sees it.

        The admin or the identity's own token.
        """
        await inbox.delete(identity, message_id)


def search(q: str | None) -> Node | None:
    """The tree of a `?q=` search; None for none (an empty or blank `q` is no search either)."""
    if q is None or not q.strip():
        return None
    return parse_query(q).root
