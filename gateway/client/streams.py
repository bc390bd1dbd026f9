"""Event streams, written once for both twins: the SSE reading, the resuming and the backoff.

`GET /v1/events` (every identity the token manages) and `GET /v1/identities/{address}/events`
(one identity) send `event: message` with a summary as data. :class:`EventStream` holds one
iteration's state: it builds each (re)connection's request with `Last-Event-ID` set to the last
event handed out, turns the lines read into :class:`StreamEvent` values, and says how long to
wait before the next connection (doubling from BACKOFF_FIRST to BACKOFF_MAX seconds, back to
the start once a connection delivers again). A refusal (400, 401, 403, 404) is raised as the
client's error; 429 and 503 wait for `Retry-After`. Until the first connection succeeds it gives
up after the policy's `retry_for` (a wrong URL is said at once); after that it reconnects for as
long as the caller iterates. No I/O here: :mod:`gateway.client.aio` and :mod:`gateway.client.sync`
carry it out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

import msgspec

from gateway import wire
from gateway.client.errors import AuthError, BadAnswer, GatewayError, RateLimited, Unavailable, Unreachable
from gateway.client.plans import Policy, Reply, error_of

__all__ = [
    "BACKOFF_FIRST",
    "BACKOFF_MAX",
    "MAX_EVENT_CHARS",
    "STREAM_READ_SECONDS",
    "EventStream",
    "SseParser",
    "SseRecord",
    "StreamEvent",
    "StreamRequest",
]

BACKOFF_FIRST: Final = 0.5
BACKOFF_MAX: Final = 30.0
"""The longest pause between two reconnections."""
STREAM_READ_SECONDS: Final = 45.0
"""No byte for this long (the gateway sends a comment every 15 s) means the connection is dead."""
MAX_EVENT_CHARS: Final = 4 * 2**20
"""One event's data beyond this is no gateway's (a summary is a few KB)."""


@dataclass(frozen=True, slots=True)
class StreamEvent:
    """One message for one identity, as an event stream delivered it."""

    id: str
    """The event id: what the stream resumes after (`address/message id` on the all-identities stream,
    the message id on an identity's own)."""
    address: str
    """The identity the message is for."""
    message: wire.Summary


@dataclass(frozen=True, slots=True)
class SseRecord:
    """One dispatched Server-Sent Event."""

    id: str | None
    event: str
    data: str


@dataclass(slots=True)
class SseParser:
    """Lines of a `text/event-stream` in, events out (the HTML standard's parsing, minus `retry`)."""

    last_id: str | None = None
    _event: str = ""
    _data: list[str] = field(default_factory=list)
    _size: int = 0

    def feed(self, line: str) -> SseRecord | None:
        """The event a blank line dispatches, else None (fields are gathered, comments skipped)."""
        if not line:
            if not self._data:
                self._event = ""
                return None
            record = SseRecord(self.last_id, self._event or "message", "\n".join(self._data))
            self._event, self._data, self._size = "", [], 0
            return record
        if line.startswith(":"):
            return None
        name, sep, value = line.partition(":")
        if sep and value.startswith(" "):
            value = value[1:]
        if name == "data":
            self._size += len(value) + 1
            if self._size > MAX_EVENT_CHARS:
                raise BadAnswer(0, "bad_answer", "an event of the stream is too large to be the gateway's")
            self._data.append(value)
        elif name == "event":
            self._event = value
        elif name == "id" and "\x00" not in value:
            self.last_id = value
        return None


@dataclass(frozen=True, slots=True)
class StreamRequest:
    """One connection's request: path, query and headers (the token among them)."""

    path: str
    params: dict[str, str]
    headers: dict[str, str] = field(repr=False)  # the token: never in a repr


class _Addressed(msgspec.Struct):
    address: str


_SUMMARY = msgspec.json.Decoder(wire.Summary)
_ADDRESSED = msgspec.json.Decoder(_Addressed)


class EventStream:
    """One iteration over an event stream: where it resumes, what it hands out, how long it waits."""

    def __init__(
        self,
        policy: Policy,
        path: str,
        token: str | None,
        *,
        address: str | None = None,
        last_event_id: str | None = None,
        q: str | None = None,
    ) -> None:
        """`address`: the identity of a one-identity stream (None: each event names its own)."""
        if token is None:
            raise AuthError(0, "no_token", "no token: pass token= or set AGENTMAIL_TOKEN")
        self._policy = policy
        self._path = path
        self._token = token
        self._address = address
        self.last_event_id = last_event_id
        """The last event handed out (or the one the caller gave): where a reconnection resumes."""
        self._q = q
        self._failures = 0
        self._connected = False  # once: reconnect for as long as the caller iterates
        self._deadline = policy.clock() + policy.retry_for
        self._parser = SseParser()

    def request(self) -> StreamRequest:
        """The next connection's request; its parser starts afresh."""
        self._parser = SseParser()
        headers = {"Authorization": f"Bearer {self._token}", "Accept": "text/event-stream"}
        if self.last_event_id is not None:
            headers["Last-Event-ID"] = self.last_event_id
        params = {"q": self._q} if self._q is not None else {}
        return StreamRequest(self._path, params, headers)

    def opened(self, content_type: str | None) -> None:
        """A 200 came: BadAnswer unless it is an event stream (another server at AGENTMAIL_URL)."""
        if not (content_type or "").startswith("text/event-stream"):
            raise BadAnswer(0, "bad_answer", f"{self._policy.where} did not answer as an agentmail gateway")
        self._connected = True

    def line(self, line: str) -> StreamEvent | None:
        """Read one line of the stream; the event it completes, if any (then it is the resume point)."""
        self._failures = 0  # bytes flow: the next drop starts the backoff afresh
        record = self._parser.feed(line)
        # Litestar sends each keep-alive comment with an empty `data:` line (an empty event): not mail.
        if record is None or record.event != "message" or record.id is None or not record.data:
            return None
        try:
            message = _SUMMARY.decode(record.data)
            address = self._address or _ADDRESSED.decode(record.data).address
        except (msgspec.DecodeError, msgspec.ValidationError):
            raise BadAnswer(0, "bad_answer", f"{self._policy.where} sent an event that is not a message") from None
        self.last_event_id = record.id
        return StreamEvent(record.id, address, message)

    def refused(self, reply: Reply) -> float:
        """A non-200 answer: the seconds to wait before trying again (429, 502-504), else its error raised."""
        err = error_of(self._policy, reply)
        if not isinstance(err, RateLimited | Unavailable):
            raise err
        pause = max(self._backoff(), err.retry_after or 0.0)
        self._check_deadline(err, pause)
        return pause

    def dropped(self) -> float:
        """The connection failed, or the stream ended (rebuild, restart): the seconds to wait before reconnecting."""
        pause = self._backoff()
        self._check_deadline(
            Unreachable(0, "unreachable", f"the gateway at {self._policy.where} cannot be reached"), pause
        )
        return pause

    def _backoff(self) -> float:
        pause = min(BACKOFF_MAX, BACKOFF_FIRST * (1 << self._failures))
        self._failures = min(self._failures + 1, 16)
        return pause

    def _check_deadline(self, err: GatewayError, pause: float) -> None:
        if not self._connected and self._policy.clock() + pause >= self._deadline:
            raise err
