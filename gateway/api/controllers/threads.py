"""/v1/identities/{address}/threads: an identity's conversations, sent and received mail together."""

from __future__ import annotations

from typing import Annotated

from litestar import Controller, get
from litestar.di import NamedDependency, Provide
from litestar.params import PathParameter, QueryParameter

from gateway import wire
from gateway.api import schemas
from gateway.api.auth import mail_identity
from gateway.api.schemas import error_responses
from gateway.inbox import MAX_PAGE, Inbox
from gateway.store import Identity

__all__ = ["ThreadController"]


class ThreadController(Controller):
    path = "/v1/identities/{address:str}/threads"
    tags = ["threads"]
    dependencies = {"identity": Provide(mail_identity)}

    @get(
        "/",
        operation_id="listThreads",
        response_description="A page of threads, latest activity first, and the cursor for the next one.",
        summary="List an identity's threads",
        responses=error_responses(403, 404),
    )
    async def list_threads(
        self,
        inbox: NamedDependency[Inbox],
        identity: NamedDependency[Identity],
        limit: Annotated[int, QueryParameter(ge=1, le=MAX_PAGE, description="Threads per page (1 to 200).")] = 50,
        before: Annotated[
            str | None, QueryParameter(max_length=200, description="The previous page's `next_before`.")
        ] = None,
    ) -> wire.ThreadPage:
        """The identity's threads, latest activity first: subject, participants, message and unseen
        counts, last message time. A message joins a thread by `References`/`In-Reply-To`, else by
        its subject when it comes from someone already in that thread (within 30 days).

        The admin or the identity's own token. Pass `next_before` as `before` for the next page.
        """
        threads, next_before = await inbox.threads(identity, limit=limit, before=before)
        return wire.ThreadPage([schemas.thread_summary(t) for t in threads], next_before)

    @get(
        "/{thread_id:str}",
        operation_id="getThread",
        response_description="The thread's messages, oldest first, sent and received.",
        summary="Read a thread",
        responses=error_responses(403, 404),
    )
    async def get_thread(
        self,
        inbox: NamedDependency[Inbox],
        identity: NamedDependency[Identity],
        thread_id: Annotated[str, PathParameter(description="A `thread_id` from a summary or the thread list.")],
    ) -> wire.Thread:
        """One thread: its subject, participants and messages (summaries), oldest first, sent
        (`direction: "sent"`) and received. Marks nothing seen. The admin or the identity's own token.
        """
        summary, messages = await inbox.thread(identity, thread_id)
        return schemas.thread(summary, messages)
