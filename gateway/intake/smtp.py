"""The embedded SMTP intake: accepts `*@domain` and stores one Maildir copy per recipient.

Each copy is stamped the way Postfix + Dovecot stamp a catch-all delivery (`Return-Path`,
`Delivered-To`, `X-Original-To`, `Received`: `gateway/mail/stamp.py`), so the code above the
source cannot tell the embedded intake from a real mail server.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime
from typing import Any, Final

from aiosmtpd.smtp import SMTP, Envelope, Session

from gateway.clients import client_key
from gateway.intake import replies
from gateway.mail.recipients import normalize_address
from gateway.mail.stamp import delivery_stamp, received_header, with_message_id

__all__ = ["MAX_LINE_BYTES", "MAX_RECIPIENTS", "ConnectionLimits", "IntakeHandler", "start_smtp_server"]

log = logging.getLogger(__name__)

MAX_RECIPIENTS: Final = 100  # RFC 5321 §4.5.3.1.8: servers must take at least 100
MAX_LINE_BYTES: Final = 64 * 1024  # real HTML mail has long lines; aiosmtpd's 1001 bounces it

MIN_TRANSFER_RATE: Final = 64 * 1024
"""Bytes a second that earn a connection time beyond its command timeout: each 64 KiB received
since the last command adds a second, so a large message on a slow link is not cut at the
timeout (RFC 5321 §4.5.3.2 gives DATA minutes), while a trickle earns nothing. The time earned
stops at what the largest message takes at this rate: streaming junk past the size limit
cannot hold a connection either."""

Deliver = Callable[[Sequence[tuple[bytes, bytes]]], Awaitable[list[str]]]
"""Stores (stamp, body) copies durably; the copies share one body object."""


class ConnectionLimits:
    """Open intake connections, in all and per client address: a flood of idle connections is refused early."""

    def __init__(self, *, max_total: int, max_per_client: int) -> None:
        self.max_total = max_total
        self.max_per_client = max_per_client
        self._open: Counter[str] = Counter()
        self._total = 0

    def admit(self, client: str) -> str | None:
        """Count a new connection from `client`: None when admitted, else the 421 reply to send."""
        if self._total >= self.max_total:
            return replies.TOO_MANY_CONNECTIONS
        if self._open[client] >= self.max_per_client:
            return replies.TOO_MANY_CONNECTIONS_FROM_CLIENT
        self._open[client] += 1
        self._total += 1
        return None

    def release(self, client: str) -> None:
        """An admitted connection from `client` has closed."""
        self._total -= 1
        self._open[client] -= 1
        if self._open[client] <= 0:
            del self._open[client]


class _GatewaySMTP(SMTP):
    line_length_limit = MAX_LINE_BYTES

    def __init__(self, handler: IntakeHandler, *, limits: ConnectionLimits, **kwargs: Any) -> None:
        super().__init__(handler, **kwargs)
        self._limits = limits
        self._client: str | None = None  # set once admitted (counted), for the release
        self._refusal: str | None = None
        # The command clock (aiosmtpd restarts it at each valid command, never for bytes).
        self._received = 0
        self._received_at_reset = 0
        self._clock_started = 0.0
        self._max_earned = ((self.data_size_limit or 0) + MAX_LINE_BYTES) / MIN_TRANSFER_RATE

    def data_received(self, data: bytes) -> None:
        self._received += len(data)
        super().data_received(data)

    def _reset_timeout(self, duration: float | None = None) -> None:
        self._received_at_reset = self._received
        self._clock_started = self.loop.time()
        super()._reset_timeout(duration)

    def _timeout_cb(self) -> None:
        # aiosmtpd's timeout, plus the time the bytes since the last command earned (MIN_TRANSFER_RATE).
        earned = min((self._received - self._received_at_reset) / MIN_TRANSFER_RATE, self._max_earned)
        remaining = self._clock_started + self._timeout_duration + earned - self.loop.time()
        if remaining > 0 and self.transport is not None:
            self._timeout_handle = self.loop.call_later(remaining, self._timeout_cb)
            return
        super()._timeout_cb()  # type: ignore[no-untyped-call]  # aiosmtpd leaves it unannotated

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # Counted here, synchronously, so a burst of connections cannot all slip under the cap.
        # (aiosmtpd calls this again after STARTTLS, which the intake does not offer.)
        if self._client is None and self._refusal is None:
            peer = transport.get_extra_info("peername")
            # An IPv6 host routinely holds a whole /64: counted by it, as the HTTP throttles count.
            client = client_key(str(peer[0]) if isinstance(peer, tuple) else str(peer))
            self._refusal = self._limits.admit(client)
            if self._refusal is None:
                self._client = client
        super().connection_made(transport)

    def connection_lost(self, error: Exception | None) -> None:
        if self._client is not None:
            self._limits.release(self._client)
            self._client = None
        super().connection_lost(error)

    async def _handle_client(self) -> None:
        # aiosmtpd's session loop (private, pinned by tests/intake): a refused connection gets
        # its 421 instead of the greeting (RFC 5321 §3.1), then the server closes it.
        if self._refusal is None:
            await super()._handle_client()
            return
        log.debug("SMTP connection from %s refused: %s", self.session.peer if self.session else "?", self._refusal)
        await self.push(self._refusal)
        if self.transport is not None:
            self.transport.close()


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
    *,
    host: str,
    port: int,
    domain: str,
    max_message_bytes: int,
    deliver: Deliver,
    timeout: float,
    max_connections: int,
    max_connections_per_client: int,
) -> asyncio.Server:
    """Listen on the running loop (aiosmtpd's controllers would start a loop of their own).

    `timeout`: aiosmtpd closes a connection that completes no command for this long; it is
    not restarted by bytes, so a command or DATA trickled byte by byte is cut at `timeout`.
    A transfer at MIN_TRANSFER_RATE or faster earns the time it needs (a large DATA).
    """
    limits = ConnectionLimits(max_total=max_connections, max_per_client=max_connections_per_client)
    # An explicit hostname: aiosmtpd would otherwise call socket.getfqdn() per connection,
    # a reverse-DNS lookup that stalls for seconds on hosts without DNS.
    hostname = domain
    handler = IntakeHandler(domain=domain, hostname=hostname, deliver=deliver)

    def factory() -> Any:
        return _GatewaySMTP(
            handler,
            limits=limits,
            hostname=hostname,
            ident="agentmail-gateway ESMTP",
            data_size_limit=max_message_bytes,
            enable_SMTPUTF8=True,
            decode_data=False,
            timeout=timeout,
        )

    loop = asyncio.get_running_loop()
    return await loop.create_server(factory, host=host, port=port)
