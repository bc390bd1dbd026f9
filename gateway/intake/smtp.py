"""The embedded SMTP intake: accepts `*@domain` and stores one Maildir copy per recipient.

Each copy is stamped the way Postfix + Dovecot stamp a catch-all delivery (`Return-Path`,
`Delivered-To`, `X-Original-To`, `Received`: `gateway/mail/stamp.py`), so the code above the
source cannot tell the embedded intake from a real mail server.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime
from typing import Any, Final

from aiosmtpd.smtp import SMTP, Envelope, Session

from gateway.intake import replies
from gateway.mail.recipients import normalize_address
from gateway.mail.stamp import delivery_stamp, received_header, with_message_id

__all__ = ["MAX_LINE_BYTES", "MAX_RECIPIENTS", "IntakeHandler", "start_smtp_server"]

log = logging.getLogger(__name__)

MAX_RECIPIENTS: Final = 100  # RFC 5321 §4.5.3.1.8: servers must take at least 100
MAX_LINE_BYTES: Final = 64 * 1024  # real HTML mail has long lines; aiosmtpd's 1001 bounces it

Deliver = Callable[[Sequence[tuple[bytes, bytes]]], Awaitable[list[str]]]
"""Stores (stamp, body) copies durably; the copies share one body object."""


class _GatewaySMTP(SMTP):
    line_length_limit = MAX_LINE_BYTES


class IntakeHandler:
    """aiosmtpd handler: domain policy at RCPT, stamping and durable storage at DATA."""

    def __init__(self, *, domain: str, hostname: str, deliver: Deliver) -> None:
        self._domain = domain.lower()
        self._hostname = hostname
        self._deliver = deliver

    async def handle_RCPT(
        self, server: SMTP, session: Session, envelope: Envelope, address: str, options: list[str]
    ) -> str:
        """Accept any address at our domain, at most MAX_RECIPIENTS per message."""
        if len(envelope.rcpt_tos) >= MAX_RECIPIENTS:
            return replies.TOO_MANY_RECIPIENTS
        normalized = normalize_address(address)
        if normalized is None:
            return replies.BAD_ADDRESS
        if normalized.rpartition("@")[2] != self._domain:
            return replies.RELAY_DENIED
        envelope.rcpt_tos.append(normalized)
        envelope.rcpt_options.extend(options)
        return replies.OK

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        """Store one stamped copy per recipient; acknowledge only once all are durable."""
        content: bytes = envelope.original_content or b""
        queue_id = secrets.token_hex(6).upper()
        body = with_message_id(content, domain=self._domain, unique=secrets.token_hex(12))
        peer = session.peer[0] if isinstance(session.peer, tuple) else str(session.peer)
        received = received_header(
            by=self._hostname,
            queue_id=queue_id,
            when=datetime.now(UTC),
            protocol="ESMTP",
            helo=str(session.host_name or "unknown"),
            peer=peer,
        )
        sender = envelope.mail_from or ""
        copies = [
            (delivery_stamp(rcpt, return_path=sender, received=received), body)  # one body object shared
            for rcpt in envelope.rcpt_tos
        ]
        try:
            await self._deliver(copies)
        except OSError:
            log.exception("storing a message failed")
            return replies.STORE_FAILED
        return f"250 2.0.0 Ok: queued as {queue_id}"


async def start_smtp_server(
    *, host: str, port: int, domain: str, max_message_bytes: int, deliver: Deliver
) -> asyncio.Server:
    """Listen on the running loop (aiosmtpd's controllers would start a loop of their own)."""
    # An explicit hostname: aiosmtpd would otherwise call socket.getfqdn() per connection,
    # a reverse-DNS lookup that stalls for seconds on hosts without DNS.
    hostname = domain
    handler = IntakeHandler(domain=domain, hostname=hostname, deliver=deliver)

    def factory() -> Any:
        return _GatewaySMTP(
            handler,
            hostname=hostname,
            ident="agentmail-gateway ESMTP",
            data_size_limit=max_message_bytes,
            enable_SMTPUTF8=True,
            decode_data=False,
            timeout=60,
        )

    loop = asyncio.get_running_loop()
    return await loop.create_server(factory, host=host, port=port)
