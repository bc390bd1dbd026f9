"""A capturing SMTP server on loopback: what a relay (or the Internet behind it) would receive.

`CaptureServer` runs aiosmtpd's threaded Controller on 127.0.0.1 with a free port. Its handler
records each accepted transaction (envelope and the exact bytes) and answers on demand with a
chosen reply: for one recipient at RCPT, or for the whole transaction at MAIL or DATA. It can
require AUTH (over TLS only, as real relays do) and speak TLS (STARTTLS, or implicit) with a
certificate from `make_certificates`.
"""

from __future__ import annotations

import asyncio
import ssl
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

__all__ = ["CaptureHandler", "CaptureServer", "Captured", "make_certificates"]

LOOPBACK = "127.0.0.1"


@dataclass(frozen=True)
class Captured:
    """One transaction the server accepted."""

    mail_from: str
    rcpt_tos: tuple[str, ...]
    data: bytes
    """The message exactly as received (CRLF line ends, dot-stuffing undone)."""
    mail_options: tuple[str, ...]
    helo: str
    login: str | None
    """The AUTH user name, when the client authenticated."""
    tls: bool
    """Whether the transaction ran over TLS (STARTTLS)."""


@dataclass
class CaptureHandler:
    """aiosmtpd handler: records transactions; replies set here are answered instead of 250."""

    mail_reply: str | None = None
    """Answer to MAIL FROM (e.g. "451 4.3.0 try later"); None accepts."""
    rcpt_replies: dict[str, str] = field(default_factory=dict)
    """Recipient (lowercase) → answer to its RCPT TO; others are accepted."""
    data_reply: str | None = None
    """Answer after the message data; None accepts and records it."""
    data_delay: float = 0.0
    """Seconds to think before answering the message data (a slow content filter, say)."""
    hangup_at_rcpt: set[str] = field(default_factory=set)
    """Recipients (lowercase) at whose RCPT TO the server answers 421 and closes the connection."""
    messages: list[Captured] = field(default_factory=list)
    _changed: threading.Condition = field(default_factory=threading.Condition)

    async def handle_MAIL(self, server: Any, session: Any, envelope: Any, address: str, mail_options: list[str]) -> str:
        if self.mail_reply is not None:
            return self.mail_reply
        envelope.mail_from = address
        envelope.mail_options.extend(mail_options)
        return "250 OK"

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str, rcpt_options: list[str]) -> str:
        if address.lower() in self.hangup_at_rcpt:
            server.transport.close()
            return "421 4.3.0 closing"
        reply = self.rcpt_replies.get(address.lower())
        if reply is not None:
            return reply
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        if self.data_delay:
            await asyncio.sleep(self.data_delay)
        if self.data_reply is not None:
            return self.data_reply
        login = session.auth_data.login.decode() if isinstance(session.auth_data, LoginPassword) else None
        captured = Captured(
            mail_from=envelope.mail_from,
            rcpt_tos=tuple(envelope.rcpt_tos),
            data=bytes(envelope.original_content),
            mail_options=tuple(envelope.mail_options),
            helo=session.host_name or "",
            login=login,
            tls=session.ssl is not None,
        )
        with self._changed:
            self.messages.append(captured)
            self._changed.notify_all()
        return "250 2.0.0 Ok: captured"

    def wait_for(self, count: int, timeout: float = 20.0) -> list[Captured]:
        """Block until at least `count` transactions were captured (AssertionError after `timeout`)."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while len(self.messages) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"captured {len(self.messages)} messages, expected {count} in {timeout}s")
                self._changed.wait(left)
            return list(self.messages)


class _Controller(Controller):
    """aiosmtpd's Controller, but port 0 works: the real port is read back before the first connection."""

    def _trigger_server(self) -> None:
        assert isinstance(self.server, asyncio.Server)
        self.port = self.server.sockets[0].getsockname()[1]
        super()._trigger_server()  # type: ignore[no-untyped-call]


class CaptureServer:
    """A capturing SMTP server on 127.0.0.1; `port` is known once started. Restartable on the same port."""

    def __init__(
        self,
        *,
        auth: tuple[str, str] | None = None,
        tls_context: ssl.SSLContext | None = None,
        implicit_tls: bool = False,
        smtputf8: bool = True,
        host: str = LOOPBACK,
        port: int = 0,
    ) -> None:
        if auth is not None and tls_context is None:
            raise ValueError("AUTH is offered only over TLS here, as a real relay does: pass tls_context")
        self.handler = CaptureHandler()
        self.auth = auth
        self.tls_context = tls_context
        self.implicit_tls = implicit_tls
        self.smtputf8 = smtputf8
        self.host = host
        self.port = port
        self._controller: _Controller | None = None

    def _authenticate(self, server: Any, session: Any, envelope: Any, mechanism: str, data: Any) -> AuthResult:
        ok = (
            self.auth is not None
            and isinstance(data, LoginPassword)
            and (data.login.decode(), data.password.decode()) == self.auth
        )
        return AuthResult(success=ok, handled=False, auth_data=data)

    def start(self) -> None:
        """Listen (again, on the same port once one was chosen)."""
        kwargs: dict[str, Any] = {"enable_SMTPUTF8": self.smtputf8}
        if self.auth is not None:
            kwargs.update(authenticator=self._authenticate, auth_required=True)
        if self.tls_context is not None and self.implicit_tls:
            kwargs.update(ssl_context=self.tls_context)
        elif self.tls_context is not None:
            kwargs.update(tls_context=self.tls_context, require_starttls=True)
        controller = _Controller(self.handler, hostname=self.host, port=self.port, **kwargs)
        controller.start()
        self.port = controller.port
        self._controller = controller

    def stop(self) -> None:
        """Stop listening; connections are then refused."""
        if self._controller is not None:
            self._controller.stop()
            self._controller = None

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()


def make_certificates(directory: Path) -> tuple[Path, ssl.SSLContext]:
    """A throwaway CA and a server certificate for 127.0.0.1 and localhost, made with the openssl CLI.

    Returns the CA file (what a client must trust, e.g. through SSL_CERT_FILE) and a server context.
    """
    ca_key, ca, key, csr, cert = (directory / n for n in ("ca.key", "ca.pem", "key.pem", "req.csr", "cert.pem"))
    ext = directory / "ext.cnf"
    ext.write_text("subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=critical,CA:FALSE\n")
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    for argv in (
        ["req", "-x509", *ec, "-keyout", ca_key, "-out", ca, "-days", "2", "-subj", "/CN=capture test CA"],
        ["req", *ec, "-keyout", key, "-out", csr, "-subj", "/CN=localhost"],
        ["x509", "-req", "-in", csr, "-CA", ca, "-CAkey", ca_key, "-CAcreateserial", "-out", cert, "-days", "2",
         "-extfile", ext],
    ):  # fmt: skip
        subprocess.run(["openssl", *map(str, argv)], check=True, capture_output=True, timeout=30)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    return ca, context
