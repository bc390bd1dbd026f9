"""Hand a built message to the configured SMTP relay and report each recipient's outcome.

One SMTP transaction per call, run with the stdlib's `smtplib` in a worker thread. The relay is
`AGENTMAIL_RELAY_URL`: `smtp://` (STARTTLS, required unless the host is loopback) or `smtps://`
(implicit TLS); certificates are verified against the system's trust store (`SSL_CERT_FILE`
adds a private CA). Outcomes follow the relay's replies: 2xx accepted, 4xx temporary (retry),
5xx permanent. Trouble before the message itself is discussed (connection, greeting, EHLO, TLS,
AUTH) is temporary for every recipient: it is the relay's or the operator's to fix, and the
outbox retries for up to a day. Nothing here logs a password or a message body.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import re
import smtplib
import ssl
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final
from urllib.parse import unquote, urlsplit

if TYPE_CHECKING:
    from gateway.config import Settings

__all__ = [
    "DETAIL_MAX_CHARS",
    "RelayConfig",
    "RelayResult",
    "is_loopback",
    "parse_relay_url",
    "relay",
]

log = logging.getLogger(__name__)

DEFAULT_PORTS: Final = {"smtp": 587, "smtps": 465}
"""Submission ports: 587 speaks STARTTLS, 465 implicit TLS (RFC 8314)."""
DETAIL_MAX_CHARS: Final = 300
"""A relay's reply is stored on the sent message and shown to agents: one bounded line."""
DATA_DONE_TIMEOUT: Final = 600.0
"""How long to wait for the reply after the final "." (RFC 5321 4.5.3.2: ten minutes). Giving up
sooner makes a slow but successful relay look failed, and the retry would deliver twice."""
MIN_TRANSFER_RATE: Final = 64 * 1024
"""Bytes per second below which sending the message body counts as stalled (the intake's rule)."""

_HOST_RE: Final = re.compile(
    r"^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?$"
)
_BARE_NEWLINE: Final = re.compile(rb"\r(?!\n)|(?<!\r)\n")
_LEADING_DOT: Final = re.compile(rb"(?m)^\.")
_WHITESPACE: Final = re.compile(r"\s+")


@dataclass(frozen=True, slots=True)
class RelayConfig:
    """Where and how to reach the relay; built from the settings by `from_settings`."""

    host: str
    port: int
    implicit_tls: bool
    """smtps: TLS from the first byte; otherwise STARTTLS after EHLO."""
    username: str | None = None
    """AUTH is used when this is set."""
    password: str | None = field(default=None, repr=False)
    """Never in a repr or a log; `**********` shows that one is set."""
    require_tls: bool = True
    """Refuse to send in clear. False only for a loopback host (see `from_settings`)."""

    def __repr__(self) -> str:
        shown = "'**********'" if self.password is not None else "None"
        return (
            f"RelayConfig(host={self.host!r}, port={self.port}, implicit_tls={self.implicit_tls},"
            f" username={self.username!r}, password={shown}, require_tls={self.require_tls})"
        )

    @classmethod
    def from_settings(cls, settings: Settings) -> RelayConfig | None:
        """The relay the settings name, or None when AGENTMAIL_RELAY_URL is unset."""
        if settings.relay_url is None:
            return None
        password = settings.relay_password.reveal() if settings.relay_password is not None else None
        return parse_relay_url(settings.relay_url.reveal(), password=password)


@dataclass(frozen=True, slots=True)
class RelayResult:
    """What became of one recipient."""

    address: str
    ok: bool
    """The relay accepted the message for this recipient."""
    temporary: bool
    """A failure worth retrying (4xx, or the relay could not be reached). False when ok."""
    detail: str
    """The relay's reply (code and text, one line, at most DETAIL_MAX_CHARS) or the connection error."""


def parse_relay_url(url: str, *, password: str | None = None) -> RelayConfig:
    """A RelayConfig from `smtp[s]://[user[:password]@]host[:port]`; `password` wins over the URL's.

    Raises ValueError with a message that never repeats the URL (it may hold a password).
    """
    if not url.isascii() or any(ch.isspace() or ord(ch) < 0x20 or ord(ch) == 0x7F for ch in url):
        raise ValueError("must be plain ASCII without spaces or control characters")
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not url.lower().startswith(scheme + "://"):
        raise ValueError("must start with smtp:// or smtps://")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ValueError("use smtp[s]://[user[:password]@]host[:port], with nothing after the port")
    host = (parts.hostname or "").lower()
    if not host:
        raise ValueError("names no host")
    if not _is_ip(host) and not _HOST_RE.match(host):
        raise ValueError("the host is not a host name or an IP address")
    try:
        port = parts.port
    except ValueError:
        raise ValueError("the port must be a number from 1 to 65535") from None
    if port is None:
        port = DEFAULT_PORTS[scheme]
    elif not 1 <= port <= 65535:
        raise ValueError("the port must be a number from 1 to 65535")
    username = unquote(parts.username) if parts.username else None
    url_password = unquote(parts.password) if parts.password is not None else None
    if password is None:
        password = url_password or None
    if password is not None and username is None:
        raise ValueError("a relay password needs a user name in the URL (smtp://user@host)")
    return RelayConfig(
        host=host.rstrip("."),
        port=port,
        implicit_tls=scheme == "smtps",
        username=username,
        password=password,
        require_tls=not is_loopback(host),
    )


def is_loopback(host: str) -> bool:
    """`localhost`, 127.0.0.0/8 or ::1: traffic that never leaves this machine."""
    host = host.lower().rstrip(".")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


async def relay(
    config: RelayConfig,
    *,
    envelope_from: str,
    recipients: Sequence[str],
    raw: bytes,
    helo: str,
    timeout: float = 60.0,
) -> list[RelayResult]:
    """Send `raw` to `recipients` through the relay in one transaction; one result per distinct recipient.

    `timeout` bounds every socket operation (the body transfer earns more time by its size, the
    final reply waits up to DATA_DONE_TIMEOUT). Never raises for anything the relay or the
    network does: every failure is a result.
    """
    if isinstance(recipients, str):
        raise TypeError("recipients is a sequence of addresses, not one string")
    unique = list(dict.fromkeys(recipients))
    if not unique:
        return []
    results = await asyncio.to_thread(_relay_blocking, config, envelope_from, unique, raw, helo, timeout)
    log.debug(
        "relay %s:%d: %s",
        config.host,
        config.port,
        ", ".join(f"{'ok' if r.ok else 'temporary' if r.temporary else 'failed'}" for r in results),
    )
    return results


# -- the transaction ------------------------------------------------------------------------


class _Abort(Exception):
    """The session failed before the message was discussed; every recipient gets this outcome."""

    def __init__(self, temporary: bool, detail: str) -> None:
        super().__init__(detail)
        self.temporary = temporary
        self.detail = detail


def _relay_blocking(
    config: RelayConfig, envelope_from: str, recipients: list[str], raw: bytes, helo: str, timeout: float
) -> list[RelayResult]:
    if not _envelope_safe(envelope_from, empty_ok=True):
        return [RelayResult(a, False, False, "not a valid envelope sender") for a in recipients]
    results = {a: RelayResult(a, False, False, "not a valid envelope address") for a in recipients}
    todo = [a for a in recipients if _envelope_safe(a)]
    if not todo:
        return list(results.values())
    where = f"{config.host}:{config.port}"
    try:
        client = _open(config, helo, timeout)
    except _Abort as abort:
        results.update({a: RelayResult(a, False, abort.temporary, abort.detail) for a in todo})
        return list(results.values())
    healthy = False
    try:
        outcome, healthy = _transact(client, where, envelope_from, todo, _to_crlf(raw), timeout)
        results.update(outcome)
    finally:
        _close(client, polite=healthy)
    return list(results.values())


def _open(config: RelayConfig, helo: str, timeout: float) -> smtplib.SMTP:
    """A connected client past EHLO, then TLS and AUTH as the config asks; _Abort (temporary) otherwise."""
    where = f"{config.host}:{config.port}"
    context = ssl.create_default_context()
    client: smtplib.SMTP | None = None
    try:
        if config.implicit_tls:
            client = smtplib.SMTP_SSL(config.host, config.port, local_hostname=helo, timeout=timeout, context=context)
        else:
            client = smtplib.SMTP(config.host, config.port, local_hostname=helo, timeout=timeout)
        code, reply = client.ehlo()
        if code != 250:
            raise _Abort(True, "relay refused EHLO: " + _reply(code, reply))
        if not config.implicit_tls and config.require_tls:
            if not client.has_extn("starttls"):
                raise _Abort(True, f"relay offers no STARTTLS; refusing to send in clear to {where}")
            client.starttls(context=context)
            code, reply = client.ehlo()
            if code != 250:
                raise _Abort(True, "relay refused EHLO after STARTTLS: " + _reply(code, reply))
        if config.username is not None:
            if not client.has_extn("auth"):
                raise _Abort(True, f"relay {where} offers no AUTH, but a user name is configured")
            client.login(config.username, config.password or "")
        return client
    except BaseException as exc:
        if client is not None:
            _close(client, polite=False)
        if isinstance(exc, _Abort):
            raise
        if isinstance(exc, smtplib.SMTPAuthenticationError):
            raise _Abort(True, "relay refused the credentials: " + _reply(exc.smtp_code, exc.smtp_error)) from None
        if isinstance(exc, smtplib.SMTPResponseException):  # a refused greeting or STARTTLS
            raise _Abort(True, "relay refused the session: " + _reply(exc.smtp_code, exc.smtp_error)) from None
        if isinstance(exc, (OSError, smtplib.SMTPException)):
            raise _Abort(True, _connection_error(where, exc, timeout)) from None
        raise


def _transact(
    client: smtplib.SMTP, where: str, envelope_from: str, recipients: list[str], raw: bytes, timeout: float
) -> tuple[dict[str, RelayResult], bool]:
    """MAIL, one RCPT per recipient, DATA: each recipient's outcome, and whether the session is still sound.

    A failure of the whole transaction goes to every recipient the relay had not refused itself.
    """
    results: dict[str, RelayResult] = {}

    def fail_rest(temporary: bool, detail: str) -> dict[str, RelayResult]:
        for address in recipients:
            if address not in results or results[address].ok:
                results[address] = RelayResult(address, False, temporary, detail)
        return results

    options = []
    if client.has_extn("size"):
        options.append(f"SIZE={len(raw)}")
    if any(b > 0x7F for b in raw) and client.has_extn("8bitmime"):
        options.append("BODY=8BITMIME")
    if not all(a.isascii() for a in (envelope_from, *recipients)):
        if not client.has_extn("smtputf8"):
            return fail_rest(False, "relay does not support SMTPUTF8, needed for an internationalized address"), True
        options.append("SMTPUTF8")
        client.command_encoding = "utf-8"
    try:
        code, reply = client.docmd("MAIL", f"FROM:<{envelope_from}>" + "".join(" " + o for o in options))
        if not _ok(code):
            return fail_rest(_temporary(code), _reply(code, reply)), True
        for address in recipients:
            code, reply = client.docmd("RCPT", f"TO:<{address}>")
            results[address] = RelayResult(address, _ok(code), not _ok(code) and _temporary(code), _reply(code, reply))
        accepted = [a for a, r in results.items() if r.ok]
        if not accepted:
            return results, True
        code, reply = client.docmd("DATA")
        if code != 354:
            return fail_rest(_temporary(code), _reply(code, reply)), True
        sock = client.sock
        if sock is None:
            raise smtplib.SMTPServerDisconnected("connection closed")
        # The socket timeout bounds the whole sendall: a big body earns time by its size.
        sock.settimeout(timeout + len(raw) / MIN_TRANSFER_RATE)
        body = _LEADING_DOT.sub(b"..", raw)
        client.send(body + (b"" if body.endswith(b"\r\n") else b"\r\n") + b".\r\n")
        sock.settimeout(max(timeout, DATA_DONE_TIMEOUT))
        code, reply = client.getreply()
        sock.settimeout(timeout)
        done = _reply(code, reply)
        for address in accepted:
            results[address] = RelayResult(address, _ok(code), not _ok(code) and _temporary(code), done)
        return results, True
    except smtplib.SMTPResponseException as exc:
        return fail_rest(_temporary(exc.smtp_code), _reply(exc.smtp_code, exc.smtp_error)), False
    except (OSError, smtplib.SMTPException) as exc:
        return fail_rest(True, _connection_error(where, exc, timeout)), False


def _close(client: smtplib.SMTP, *, polite: bool) -> None:
    """QUIT when the session is sound (never wait on one that just failed), then close the socket."""
    if polite:
        with contextlib.suppress(OSError, smtplib.SMTPException):
            client.quit()
    client.close()


# -- small pure helpers ---------------------------------------------------------------------


def _ok(code: int) -> bool:
    return 200 <= code < 300


def _temporary(code: int) -> bool:
    """Only a 5xx is permanent; a 4xx, or a reply no standard allows here, is worth a retry."""
    return not 500 <= code < 600


def _reply(code: int, text: bytes | str) -> str:
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    return _clean(f"{code} {text}")


def _clean(text: str) -> str:
    """One line of at most DETAIL_MAX_CHARS: control and format characters become spaces, runs collapse."""
    text = "".join(" " if unicodedata.category(ch) in ("Cc", "Cf") else ch for ch in text[: DETAIL_MAX_CHARS * 4])
    text = _WHITESPACE.sub(" ", text).strip()
    if len(text) > DETAIL_MAX_CHARS:
        text = text[: DETAIL_MAX_CHARS - 1] + "…"
    return text


def _connection_error(where: str, exc: BaseException, timeout: float) -> str:
    """What went wrong with the connection, in words an operator can act on (never a traceback)."""
    if isinstance(exc, smtplib.SMTPServerDisconnected) and isinstance(exc.__context__, OSError):
        exc = exc.__context__  # smtplib reports a timeout or reset while reading a reply as a disconnect
    if isinstance(exc, TimeoutError):
        text = f"relay {where} did not answer within {timeout:g} s"
    elif isinstance(exc, ConnectionRefusedError):
        text = f"cannot connect to relay {where}: connection refused"
    elif isinstance(exc, smtplib.SMTPServerDisconnected):
        text = f"relay {where} closed the connection"
    elif isinstance(exc, ssl.SSLCertVerificationError):
        text = f"relay {where}'s TLS certificate failed verification: {exc.verify_message}"
    elif isinstance(exc, ssl.SSLError):
        text = f"TLS with relay {where} failed: {exc.reason or exc}"
    elif isinstance(exc, OSError):
        text = f"cannot reach relay {where}: {exc.strerror or type(exc).__name__}"
    else:
        text = f"relay {where}: {exc}"
    return _clean(text)


def _envelope_safe(address: str, *, empty_ok: bool = False) -> bool:
    """Fit for `MAIL FROM:<…>` / `RCPT TO:<…>`: no control characters or brackets, within the path limit."""
    if not address:
        return empty_ok
    if len(address.encode()) > 254 or "@" not in address:
        return False
    return not any(ch in "<>" or unicodedata.category(ch) == "Cc" for ch in address)


def _to_crlf(raw: bytes) -> bytes:
    """SMTP wants CRLF line ends; a bare CR or LF becomes one (CRLF already in place is untouched)."""
    return _BARE_NEWLINE.sub(b"\r\n", raw)
