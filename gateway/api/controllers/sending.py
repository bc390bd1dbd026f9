"""/v1/identities/{address}/send, …/messages/{id}/reply and …/forward: mail from an identity."""

from __future__ import annotations

from typing import Annotated

from litestar import Controller, post
from litestar.di import NamedDependency, Provide
from litestar.params import JSONBody, PathParameter

from gateway import wire
from gateway.api import schemas
from gateway.api.auth import mail_identity
from gateway.api.controllers.messages import MESSAGE_ID
from gateway.api.schemas import error_responses
from gateway.outbound.sending import Sending
from gateway.store import Identity

__all__ = ["SendController"]


class SendController(Controller):
    path = "/v1/identities/{address:str}"
    tags = ["sending"]
    dependencies = {"identity": Provide(mail_identity)}

    @post(
        "/send",
        operation_id="sendMessage",
        response_description="Sent: the sent copy's id, the Message-ID, its thread and its recipients.",
        summary="Send mail from an identity",
        status_code=201,
        responses=error_responses(403, 404, 413, 422),
    )
    async def send(
        self, sending: NamedDependency[Sending], identity: NamedDependency[Identity], data: JSONBody[wire.SendIn]
    ) -> wire.SendResult:
        """Send a new mail from the identity: `to`, `cc`, `bcc` (at most 50 in all), `subject`,
        `text` and/or `html`, `attachments` (`filename`, `content_type`, base64 `content`),
        `reply_to`, `headers` (`X-*` only), `from_name`. From, Message-ID and Date are the gateway's;
        a line break in any field is refused (422 `invalid_mail`), never sent.

        The identity's own token or the admin's (a provisioner never sends). Every recipient must be
        in the identity's send scope (`local`: addresses at the gateway's domain; `any`: anywhere,
        through the configured relay), else nothing is sent (422 `recipient_refused`). Local
        recipients get it at once, others through the relay, retried for a day (see `delivery` on
        the sent message). 429 past the identity's hourly sending limit.
        """
        return schemas.send_result(await sending.send(identity, data))

    @post(
        "/messages/{message_id:str}/reply",
        operation_id="replyToMessage",
        response_description="Sent, threaded under the original.",
        summary="Reply to a message",
        status_code=201,
        responses=error_responses(403, 404, 413, 422),
    )
    async def reply(
        self,
        sending: NamedDependency[Sending],
        identity: NamedDependency[Identity],
        message_id: Annotated[str, PathParameter(description=MESSAGE_ID)],
        data: JSONBody[wire.ReplyIn],
    ) -> wire.SendResult:
        """Reply to one of the identity's messages: to its Reply-To (else its sender), with `all`
        also to its other recipients (never to the identity itself); `Re:` once, `In-Reply-To` and
        `References` set, the original quoted below `text`.
        """
        return schemas.send_result(await sending.reply(identity, message_id, data))

    @post(
        "/messages/{message_id:str}/forward",
        operation_id="forwardMessage",
        response_description="Sent: the original forwarded with its attachments.",
        summary="Forward a message",
        status_code=201,
        responses=error_responses(403, 404, 413, 422),
    )
    async def forward(
        self,
        sending: NamedDependency[Sending],
        identity: NamedDependency[Identity],
        message_id: Annotated[str, PathParameter(description=MESSAGE_ID)],
        data: JSONBody[wire.ForwardIn],
    ) -> wire.SendResult:
        """Forward one of the identity's messages to `to`/`cc`/`bcc`, with an optional note (`text`)
        above it and its attachments re-attached; `Fwd:` once.
        """
        return schemas.send_result(await sending.forward(identity, message_id, data))
