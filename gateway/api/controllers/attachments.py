"""/v1/identities/{address}/messages/{message_id}/attachments: a message's files, as downloads or text.

A download is always a download: `Content-Disposition: attachment` with a safe name, a type a
browser will not render (see `gateway.mail.attachments.served_type`), `nosniff`, and the /ui
page's CSP, so even a browser that opens it in place runs nothing of it.
"""

from __future__ import annotations

import re
from typing import Annotated, Final

from litestar import Controller, Response, get
from litestar.di import NamedDependency, Provide
from litestar.params import PathParameter

from gateway import wire
from gateway.api import schemas
from gateway.api.auth import mail_identity
from gateway.api.controllers.messages import MESSAGE_ID
from gateway.api.schemas import error_responses
from gateway.inbox import Inbox
from gateway.mail.attachments import content_disposition, fallback_filename, served_type
from gateway.mail.parse import AttachmentContent
from gateway.store import Identity
from gateway.ui.policy import CSP

__all__ = ["ATTACHMENT_ID", "AttachmentController", "download_headers"]

ATTACHMENT_ID: Final = "The `attachment_id` from the message's `attachments` (its MIME section, e.g. `2.1`)."

_CHARSET: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:+-]{0,39}")  # a charset name, nothing that ends the header


def download_headers(found: AttachmentContent) -> dict[str, str]:
    """The headers of a download: its served type, its name as an attachment, and no rendering, sniffing or caching."""
    attachment = found.attachment
    media_type = served_type(attachment.content_type)
    if media_type.startswith("text/") and found.charset and _CHARSET.fullmatch(found.charset):
        media_type += f"; charset={found.charset}"
    name = attachment.filename or fallback_filename(attachment.attachment_id, attachment.content_type)
    return {
        "content-type": media_type,
        "content-disposition": content_disposition(name),
        "x-content-type-options": "nosniff",
        "content-security-policy": CSP,
        "cache-control": "private, no-store",
    }


class AttachmentController(Controller):
    path = "/v1/identities/{address:str}/messages/{message_id:str}/attachments"
    tags = ["messages"]
    dependencies = {"identity": Provide(mail_identity)}

    @get(
        "/{attachment_id:str}",
        operation_id="getAttachment",
        response_description="The attachment's bytes, always as a download.",
        summary="Download an attachment",
        media_type="application/octet-stream",
        responses=error_responses(403, 404, 413),
    )
    async def download(
        self,
        inbox: NamedDependency[Inbox],
        identity: NamedDependency[Identity],
        message_id: Annotated[str, PathParameter(description=MESSAGE_ID)],
        attachment_id: Annotated[str, PathParameter(description=ATTACHMENT_ID)],
    ) -> Response[bytes]:
        """The attachment's bytes after transfer decoding (an attached message: its `.eml`), byte for
        byte; the `sha256` of the listing is theirs.

        The admin or the identity's own token. Served with the declared type when it is inert (images,
        plain text, CSV, JSON, calendars, archives), else `application/octet-stream` (HTML, SVG, XML,
        JavaScript, PDF, mail); always `Content-Disposition: attachment` with the safe file name
        (`filename*` in UTF-8; `attachment-<id>.bin` when it has none), `nosniff`, a CSP that runs
        nothing, and `Cache-Control: private, no-store`. Marks nothing seen. 404 for an id the message
        does not list; 413 past the gateway's download limit (AGENTMAIL_MAX_ATTACHMENT_BYTES).
        """
        found = await inbox.attachment(identity, message_id, attachment_id)
        return Response(found.data, headers=download_headers(found))

    @get(
        "/{attachment_id:str}/text",
        operation_id="getAttachmentText",
        response_description="The attachment's text, capped.",
        summary="Read a text attachment",
        responses=error_responses(403, 404, 422),
    )
    async def text(
        self,
        inbox: NamedDependency[Inbox],
        identity: NamedDependency[Identity],
        message_id: Annotated[str, PathParameter(description=MESSAGE_ID)],
        attachment_id: Annotated[str, PathParameter(description=ATTACHMENT_ID)],
    ) -> wire.AttachmentText:
        """The text of a text-like attachment (text/*, CSV, JSON, calendar, XML, YAML; or a generic type
        with a text file name such as `.csv`), decoded with its charset, for agents.

        The admin or the identity's own token. HTML and XML come as their source, inside JSON. At most
        AGENTMAIL_ATTACHMENT_TEXT_CHARS characters (`truncated` says when there is more). Marks nothing
        seen. 422 `not_text` for any other attachment (download it instead); 404 for an unknown id.
        """
        return schemas.attachment_text(await inbox.attachment_text(identity, message_id, attachment_id))
