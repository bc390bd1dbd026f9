"""The HTTP server: uvicorn, with the limits a server on the open internet needs.

uvicorn closes an idle keep-alive connection (`timeout_keep_alive`) and answers 503 over
`limit_concurrency`, but never closes a connection that has not finished sending a request:
one that sends nothing, or trickles its request line and headers, or stops half-way through
a body, stays open for ever. `GuardedH11Protocol` adds the two missing clocks:

- **header**: a request's line and headers must be complete within `header_timeout` of the
  connection opening (or of the previous response ending); a partial request then gets
  408 and the connection closes; one that sent nothing is closed quietly. Trickling bytes
  does not restart this clock.
- **body**: while a request body is due, a pause of `body_timeout` without a byte closes the
  connection (408 when no answer has started). Time the server itself is not reading (flow
  control, or a client waiting for `100 Continue`) does not count.

It also caps open connections itself (uvicorn's `limit_concurrency` answers in plain text):
over `max_connections`, a request gets the API's JSON error, 503 with `Retry-After`, and its
connection closes.

The protocol is pinned to h11 (uvicorn's default here): httptools, when installed, would
otherwise be picked and the clocks would be silently gone.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import resource
import socket
from collections.abc import Callable
from typing import Any, ClassVar, Final, Literal
from urllib.parse import unquote_plus

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from gateway.config import SettingError, Settings
from gateway.redact import install_redaction

__all__ = [
    "GuardedH11Protocol",
    "QueryValuesHidden",
    "ReportingServer",
    "event_loop",
    "guarded_protocol",
    "loop_name",
    "proxy_options",
    "uvicorn_config",
]

log = logging.getLogger(__name__)

KEEP_ALIVE_SECONDS: Final = 5  # uvicorn's default: an idle connection between requests
FD_HEADROOM: Final = 256  # descriptors beyond the connection caps: stores, Maildir files, logs
_TIMEOUT_BODY: Final = b'{"error":"timeout","detail":"the request was not sent in time"}'


OVER_CAPACITY_BODY: Final = (
    b'{"error":"over_capacity","detail":"too many open connections; try again in a moment","retry_after_sec":1}'
)
_REFUSALS_LOGGED_EVERY: Final = 10.0  # seconds: a flood over the cap is one log line per period, not one per request


async def _over_capacity(scope: Any, receive: Any, send: Any) -> None:
    """The answer over the connection cap: the API's error envelope, 503, Retry-After, then close."""
    _Refusals.count += 1
    now = asyncio.get_running_loop().time()
    if now - _Refusals.logged_at >= _REFUSALS_LOGGED_EVERY:
        log.warning(
            "over AGENTMAIL_HTTP_MAX_CONNECTIONS: %d request(s) answered 503 since the last such line", _Refusals.count
        )
        _Refusals.count, _Refusals.logged_at = 0, now
    await send(
        {
            "type": "http.response.start",
            "status": 503,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(OVER_CAPACITY_BODY)).encode()),
                (b"retry-after", b"1"),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": OVER_CAPACITY_BODY, "more_body": False})


class _Refusals:
    """Requests refused over the cap since the last log line (shared by every connection)."""

    count = 0
    logged_at = float("-inf")


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a request-header deadline, a body idle timeout and a connection cap."""

    header_timeout: ClassVar[float] = 10.0
    body_timeout: ClassVar[float] = 30.0
    max_connections: ClassVar[int] = 2000

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_timer: asyncio.TimerHandle | None = None
        self._body_timer: asyncio.TimerHandle | None = None

    # Clocks, re-set after every step that can change what the client owes us.

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm_head()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._follow_state()

    def handle_events(self) -> None:
        # uvicorn runs `self.app` for each request it parses here: the cap decides which app.
        # This connection is one of `connections`; `tasks` are the requests already running.
        over = len(self.connections) > self.max_connections or len(self.tasks) >= self.max_connections
        self.app = _over_capacity if over else self.config.loaded_app
        super().handle_events()

    def on_response_complete(self) -> None:
        super().on_response_complete()  # may start the next (pipelined) request
        if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
            self._arm_head()  # the keep-alive timer closes an idle connection sooner
        self._follow_state()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_head()
        self._cancel_body()
        super().connection_lost(exc)

    def _follow_state(self) -> None:
        state = self.conn.their_state
        if state is not h11.IDLE:
            self._cancel_head()  # the request's head is in
        if state is h11.SEND_BODY and not self.transport.is_closing():
            self._cancel_body()
            self._body_timer = self.loop.call_later(self.body_timeout, self._body_expired)
        else:
            self._cancel_body()

    def _arm_head(self) -> None:
        self._cancel_head()
        self._head_timer = self.loop.call_later(self.header_timeout, self._head_expired)

    def _cancel_head(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _cancel_body(self) -> None:
        if self._body_timer is not None:
            self._body_timer.cancel()
            self._body_timer = None

    # Expiry.

    def _head_expired(self) -> None:
        self._head_timer = None
        if self.transport.is_closing() or self.conn.their_state is not h11.IDLE:
            return
        partial = bool(self.conn.trailing_data[0])
        log.debug("%s: no complete request head in %g s, closed", _peer(self.client), self.header_timeout)
        if partial:
            # h11 cannot answer a request it has not parsed: the 408 is written by hand.
            self.transport.write(
                b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\n"
                b"connection: close\r\ncontent-length: %d\r\n\r\n%s" % (len(_TIMEOUT_BODY), _TIMEOUT_BODY)
            )
        with contextlib.suppress(h11.LocalProtocolError):
            self.conn.send(h11.ConnectionClosed())
        self.transport.close()

    def _body_expired(self) -> None:
        self._body_timer = None
        if self.transport.is_closing() or self.conn.their_state is not h11.SEND_BODY:
            return
        cycle = self.cycle
        if self.flow.read_paused or (cycle is not None and cycle.waiting_for_100_continue):
            # We are not reading (or the client waits for our go-ahead): not the client's stall.
            self._body_timer = self.loop.call_later(self.body_timeout, self._body_expired)
            return
        log.info("%s: request body stalled for %g s, closed", _peer(self.client), self.body_timeout)
        if cycle is not None and not cycle.response_started:
            with contextlib.suppress(h11.LocalProtocolError):
                headers = [
                    (b"content-type", b"application/json"),
                    (b"connection", b"close"),
                    (b"content-length", str(len(_TIMEOUT_BODY)).encode()),
                ]
                self.transport.write(self.conn.send(h11.Response(status_code=408, headers=headers)) or b"")
                self.transport.write(self.conn.send(h11.Data(data=_TIMEOUT_BODY)) or b"")
                self.transport.write(self.conn.send(h11.EndOfMessage()) or b"")
        if cycle is not None:
            # The application's next receive() says the client is gone; whatever it answers is dropped.
            cycle.disconnected = True
            cycle.message_event.set()
        self.transport.close()


def _peer(client: tuple[str, int] | None) -> str:
    return f"{client[0]}:{client[1]}" if client else "client"


def guarded_protocol(*, header_timeout: float, body_timeout: float, max_connections: int) -> type[GuardedH11Protocol]:
    """A GuardedH11Protocol class with these limits (uvicorn builds protocols from a class)."""
    return type(
        "GuardedH11Protocol",
        (GuardedH11Protocol,),
        {"header_timeout": header_timeout, "body_timeout": body_timeout, "max_connections": max_connections},
    )


class QueryValuesHidden(logging.Filter):
    """Access-log lines keep the query's names, not its values: a token pasted into a URL never reaches a log."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        # uvicorn's access record: (client, method, path with query, http version, status).
        if isinstance(args, tuple) and len(args) == 5 and isinstance(args[2], str) and "?" in args[2]:
            path, query = args[2].split("?", 1)
            # Names decoded, so that a token spelt `%61m_…` is seen (and redacted) as one.
            names = "&".join(unquote_plus(part.split("=", 1)[0]) for part in query.split("&"))
            record.args = (*args[:2], f"{path}?{names}", *args[3:])
        return True


def _raise_fd_limit(wanted: int) -> None:
    """Raise the soft open-files limit towards `wanted` (up to the hard limit): each connection is one."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or soft >= wanted:
        return
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if target > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    if target < wanted:
        log.warning(
            "open-files limit %d is below the connection caps (%d wanted): raise it (ulimit -n) or lower"
            " AGENTMAIL_HTTP_MAX_CONNECTIONS / AGENTMAIL_SMTP_MAX_CONNECTIONS",
            target,
            wanted,
        )


def proxy_options(settings: Settings) -> dict[str, Any]:
    """uvicorn's forwarded-header options: believe X-Forwarded-* only from AGENTMAIL_TRUSTED_PROXIES.

    uvicorn's own default believes them from 127.0.0.1 (or $FORWARDED_ALLOW_IPS): any local
    client could then pick the address the throttles count it by, and write what it likes
    into the access log. With no trusted proxy the headers are not read at all.
    """
    return {"proxy_headers": bool(settings.trusted_proxies), "forwarded_allow_ips": list(settings.trusted_proxies)}


def event_loop(choice: Literal["auto", "asyncio", "uvloop"]) -> Literal["asyncio", "uvloop"]:
    """The loop AGENTMAIL_LOOP=`choice` runs on; SettingError when uvloop is asked for and cannot be imported.

    Resolved here rather than by uvicorn's own "auto", so that an explicit `uvloop` that is
    missing stops the start with one line instead of a traceback, and the log can say which.
    """
    if choice == "asyncio":
        return "asyncio"
    try:
        importlib.import_module("uvloop")  # by name: uvloop is optional (no wheel for Windows)
    except ImportError as exc:
        if choice == "uvloop":
            raise SettingError(
                f"AGENTMAIL_LOOP='uvloop': uvloop cannot be imported ({exc}); install it, or use auto or asyncio"
            ) from None
        return "asyncio"
    return "uvloop"


def loop_name(loop: asyncio.AbstractEventLoop) -> str:
    """`uvloop` or `asyncio`, and the loop's class: what the start-up log line says it runs on."""
    cls = type(loop)
    kind = "uvloop" if cls.__module__.partition(".")[0] == "uvloop" else "asyncio"
    return f"{kind} ({cls.__module__}.{cls.__qualname__})"


def uvicorn_config(app: Any, settings: Settings, secrets: tuple[str, ...] = ()) -> uvicorn.Config:
    """uvicorn's configuration for `app`: timeouts, connection cap, and logs that never show a token.

    `secrets` (configured secret values) are redacted from every log line besides token-shaped text.
    """
    _raise_fd_limit(settings.http_max_connections + settings.smtp_max_connections + FD_HEADROOM)
    config = uvicorn.Config(
        app,
        loop=event_loop(settings.loop),
        host=settings.http_host,
        port=settings.http_port,
        log_level=settings.log_level,
        lifespan="on",
        server_header=False,
        # Over the cap a request gets 503 and its connection closes (open waits and event
        # streams count: keep it above the number of waits expected).
        http=guarded_protocol(
            header_timeout=settings.http_header_timeout,
            body_timeout=settings.http_body_timeout,
            max_connections=settings.http_max_connections,
        ),
        ws="none",  # no route speaks WebSocket; an upgrade would leave the guarded protocol
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
        **proxy_options(settings),
    )
    # uvicorn.Config has just (re)configured its loggers and handlers: redact all of them.
    logging.getLogger("uvicorn.access").addFilter(QueryValuesHidden())
    install_redaction(secrets)
    return config


class ReportingServer(uvicorn.Server):
    """uvicorn's server that calls `on_listening(host, port)` once it listens: the port bound, even for port 0.

    Called after the lifespan started (the SMTP intake listens by then too) and the socket is bound.
    """

    def __init__(self, config: uvicorn.Config, on_listening: Callable[[str, int], None]) -> None:
        super().__init__(config)
        self._on_listening = on_listening

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        # The loop actually running, not the setting: uvicorn builds it from a factory.
        log.info("event loop: %s", loop_name(asyncio.get_running_loop()))
        await super().startup(sockets)
        if self.started and self.servers and self.servers[0].sockets:
            host, port = self.servers[0].sockets[0].getsockname()[:2]
            self._on_listening(str(host), int(port))
