"""Send, reply and forward as the API asks them: requests turned into mail, submitted, answered.

The originals of replies and forwards are read through the identity's own view (`Inbox`), so a
reply can only quote mail the identity may see. The answer waits (briefly) for the sent copy
to be indexed, so it can name the thread the mail joined.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Final

from gateway import wire
from gateway.errors import InvalidMail, TooLarge
from gateway.inbox import Inbox
from gateway.mail.compose import Outgoing, OutgoingFile, compose, forward, reply
from gateway.outbound.outbox import Outbox, Submitted
from gateway.store import Filters, Identity, Store
from gateway.sync import Sync

__all__ = ["Sending", "Sent"]

INDEX_WAIT: Final = 5.0  # seconds an answer waits for its sent copy to be indexed (for its thread id)


@dataclass(frozen=True, slots=True)
class Sent:
    """What a send answers: the sent copy's id, its Message-ID, its thread, its recipients."""

    id: str | None
    message_id: str
    thread_id: str | None
    accepted: tuple[str, ...]


class Sending:
    """The API's entry point for outbound mail."""

    def __init__(
        self, store: Store, inbox: Inbox, outbox: Outbox, sync: Sync, *, max_bytes: int, clock: Callable[[], float]
    ) -> None:
        self._store = store
        self._inbox = inbox
        self._outbox = outbox
        self._sync = sync
        self._max_bytes = max_bytes
        self._clock = clock

    async def send(self, identity: Identity, request: wire.SendIn) -> Sent:
        """A new mail from `identity`."""
        outgoing = compose(
            sender=identity.address,
            from_name=request.from_name,
            to=request.to,
            cc=request.cc,
            bcc=request.bcc,
            subject=request.subject,
            text=request.text,
            html=request.html,
            attachments=self._files(request.attachments),
            reply_to=request.reply_to,
            headers=request.headers,
            message_id=self._outbox.new_message_id(),
            date=self._now(),
            max_bytes=self._max_bytes,
        )
        return await self._submit(identity, outgoing)

    async def reply(self, identity: Identity, message_id: str, request: wire.ReplyIn) -> Sent:
        """A reply to one of `identity`'s messages (received or sent), threaded and quoted."""
        original = await self._inbox.read(identity, message_id, mark_seen=False)
        outgoing = reply(
            original.parsed,
            identity=identity.address,
            reply_all=request.all,
            text=request.text,
            html=request.html,
            attachments=self._files(request.attachments),
            from_name=request.from_name,
            message_id=self._outbox.new_message_id(),
            date=self._now(),
            max_bytes=self._max_bytes,
        )
        return await self._submit(identity, outgoing)

    async def forward(self, identity: Identity, message_id: str, request: wire.ForwardIn) -> Sent:
        """One of `identity`'s messages sent on to new recipients, its attachments kept."""
        original = await self._inbox.read(identity, message_id, mark_seen=False)
        raw = await self._inbox.raw(identity, message_id, summary=original.summary)
        outgoing = forward(
            original.parsed,
            raw,
            identity=identity.address,
            to=request.to,
            cc=request.cc,
            bcc=request.bcc,
            note=request.text,
            from_name=request.from_name,
            message_id=self._outbox.new_message_id(),
            date=self._now(),
            max_bytes=self._max_bytes,
        )
        return await self._submit(identity, outgoing)

    async def _submit(self, identity: Identity, outgoing: Outgoing) -> Sent:
        submitted = await self._outbox.submit(identity, outgoing)
        return Sent(
            submitted.copy_id, submitted.message_id, await self._thread_of(identity, submitted), submitted.accepted
        )

    async def _thread_of(self, identity: Identity, submitted: Submitted) -> str | None:
        """The thread the sent copy joined, once indexed (None if that takes longer than INDEX_WAIT)."""
        copy_id = submitted.copy_id
        if copy_id is None:
            return None
        filters = Filters(0.0, direction="sent")
        found = None

        async def indexed() -> bool:
            nonlocal found
            found = await self._store.index.visible(identity, copy_id, filters)
            return found is not None

        try:
            await self._sync.wait_until(indexed, INDEX_WAIT)
        except TimeoutError:
            return None
        return None if found is None else found.thread_id

    def _files(self, attachments: list[wire.OutAttachment]) -> list[OutgoingFile]:
        files = []
        total = 0
        for n, attachment in enumerate(attachments):
            try:
                data = base64.b64decode(_padded(attachment.content), validate=True)
            except (binascii.Error, ValueError):
                raise InvalidMail(f"attachments[{n}].content is not base64") from None
            total += len(data)
            if total > self._max_bytes:
                raise TooLarge(f"the attachments come to more than the {self._max_bytes}-byte message limit")
            files.append(OutgoingFile(attachment.filename, attachment.content_type, data))
        return files

    def _now(self) -> datetime:
        return datetime.fromtimestamp(self._clock(), UTC)


def _padded(text: str) -> str:
    """Base64 text with its padding restored (clients often drop it) and line breaks removed."""
    compact = "".join(text.split())
    return compact + "=" * (-len(compact) % 4)
