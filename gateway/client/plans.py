"""The client's logic, written once for both twins: every operation is a *plan*.

A plan is a generator that yields the HTTP requests (:class:`Call`) and pauses (:class:`Pause`)
it needs and is sent back what came of each; it returns the result or raises a
:class:`~gateway.client.errors.GatewayError`. :class:`~gateway.client.Gateway` carries plans out
with blocking httpx, :class:`~gateway.client.AsyncGateway` with async httpx: retrying on
`Retry-After`, re-arming waits and naming what arrived on a timeout behave the same in both.
No I/O here, and no clock but the one the policy is given.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Final, Literal, TypeVar
from urllib.parse import quote

import msgspec

from gateway import wire
from gateway.client.errors import AuthError, BadAnswer, GatewayError, Unreachable, WaitTimeout, error_for

# `__tracebackhide__`: pytest shows a failed wait at the caller's line, not the client's insides.

__all__ = [
    "WAIT_SEGMENT_SECONDS",
    "Call",
    "NoReply",
    "Pause",
    "Picker",
    "Plan",
    "Policy",
    "Reply",
    "attachment_path",
    "create_identity",
    "create_webhook",
    "decode",
    "delete_webhook",
    "error_of",
    "first_code",
    "forward_message",
    "get_delivery",
    "get_thread",
    "get_webhook",
    "identity_path",
    "link_containing",
    "list_deliveries",
    "list_identities",
    "list_messages",
    "list_threads",
    "list_webhooks",
    "message_path",
    "next_message",
    "perform",
    "reply_to_message",
    "request",
    "retry_delivery",
    "rotate_webhook_secret",
    "save",
    "search_messages",
    "send",
    "send_message",
    "wait_for",
    "webhook_path",
    "webhooks_path",
]

WAIT_SEGMENT_SECONDS: Final = 50.0
"""Longest single `wait` request: proxies and client timeouts commonly cut idle requests at 60 s."""

READ_GRACE_SECONDS: Final = 15.0
"""How much longer than a wait segment the client waits for its answer."""

IDLE_CUT_SECONDS: Final = 0.5
"""A wait lost sooner than this after it was sent was not cut for idling: a proxy whose
gateway is down answers 502 at once, and that is an error to report, not a reason to re-arm."""

_RETRYABLE: Final = frozenset({429, 502, 503, 504})
_MAIL_RETRYABLE: Final = frozenset({429})
"""A send is retried only when refused before anything was done (the rate limit): a 503 or a
proxy's page may come after the mail went out, and mail must never go out twice."""
_IDEMPOTENT: Final = frozenset({"GET", "DELETE", "PATCH"})
_IDENTITY_PAGE: Final = 500
_THREAD_PAGE: Final = 100
_ARRIVALS_SHOWN: Final = 10

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Call:
    """One HTTP request; `read_timeout` overrides the client's for long waits."""

    method: Literal["GET", "POST", "DELETE", "PATCH"]
    path: str
    token: str | None
    params: Mapping[str, str | int | float] | None = None
    body: bytes | None = None
    read_timeout: float | None = None
    save_to: str | None = None
    """A 2xx answer's body is streamed into this file (replaced whole, never left half written)
    instead of being held in memory; the Reply then carries no content."""

    def __repr__(self) -> str:  # never the token
        return f"Call({self.method} {self.path})"


@dataclass(frozen=True, slots=True)
class Pause:
    seconds: float


@dataclass(frozen=True, slots=True)
class Reply:
    status: int
    content: bytes
    retry_after: str | None = None
    """The `Retry-After` header, as sent."""


@dataclass(frozen=True, slots=True)
class NoReply:
    """The request got no answer.

    `cut`: it reached the gateway (or a proxy) but the answer timed out or the connection was
    closed before it came; otherwise the gateway could not be reached at all.
    """

    cut: bool


Answer = Reply | NoReply
Plan = Generator[Call | Pause, Answer | None, T]
Picker = Callable[["wire.Message"], T | None]
"""What a wait looks for in a message: None to read on to the next one."""
Direction = Literal["received", "sent", "all"]
"""Which of an identity's messages a listing shows: mail it received, copies of mail it sent, or both."""


@dataclass(frozen=True, slots=True)
class Policy:
    """How plans behave: where the gateway is (for messages), how long to retry, the wait segment, the clock."""

    where: str
    clock: Callable[[], float]
    retry_for: float = 30.0
    wait_segment: float = WAIT_SEGMENT_SECONDS


def _segment(value: str, safe: str = "") -> str:
    """`value` as one path segment: "/" and "?" escaped, and "." / ".." too.

    httpx removes dot segments (RFC 3986 §5.2.4), so an id of ".." would otherwise turn
    `DELETE …/messages/..` into `DELETE /v1/identities/{address}`: the identity itself.
    """
    encoded = quote(value, safe=safe)
    return encoded.replace(".", "%2E") if encoded in (".", "..") else encoded


def identity_path(address: str) -> str:
    return f"/v1/identities/{_segment(address, safe='@')}"


def message_path(address: str, message_id: str) -> str:
    return f"{identity_path(address)}/messages/{_segment(message_id)}"


def attachment_path(address: str, message_id: str, attachment_id: str) -> str:
    return f"{message_path(address, message_id)}/attachments/{_segment(attachment_id)}"


def _params(**values: str | int | float | datetime | None) -> dict[str, str | int | float]:
    out: dict[str, str | int | float] = {}
    for name, value in values.items():
        if value is None:
            continue
        if isinstance(value, datetime):
            if value.tzinfo is None:
                raise ValueError(f"{name} needs a time zone (e.g. datetime.now(UTC))")
            value = value.isoformat()
        out["from" if name == "sender" else name] = value
    return out


def error_of(policy: Policy, reply: Reply) -> GatewayError:
    """The error a refused call raises (the gateway's envelope decoded, else a proxy's page said)."""
    return _error(policy, reply)


def _error(policy: Policy, reply: Reply) -> GatewayError:
    # `Retry-After` counts on any answer: a proxy's or load balancer's 503 page carries it too.
    header: float | None = None
    if reply.retry_after is not None:
        try:
            header = float(reply.retry_after)
        except ValueError:
            header = None  # an HTTP date: the gateway never sends one
    try:
        body = msgspec.json.decode(reply.content, type=wire.ErrorBody)
    except msgspec.DecodeError:  # not the gateway's envelope (a proxy's page, another server)
        detail = f"{policy.where} answered HTTP {reply.status}, not as the gateway"
        return error_for(reply.status, "http_error", detail, header)
    retry = header if body.retry_after_sec is msgspec.UNSET else float(body.retry_after_sec)
    return error_for(reply.status, body.error, body.detail, retry)


def decode(policy: Policy, content: bytes, shape: type[T]) -> T:
    """`content` as `shape`; a 2xx that is not the gateway's answer means AGENTMAIL_URL is wrong."""
    try:
        return msgspec.json.decode(content, type=shape)
    except (msgspec.DecodeError, msgspec.ValidationError):
        raise BadAnswer(
            0, "bad_answer", f"{policy.where} did not answer as an agentmail gateway (check AGENTMAIL_URL)"
        ) from None


def send(
    policy: Policy,
    call: Call | Callable[[], Call],
    *,
    deadline: float | None = None,
    accept: frozenset[int] = frozenset(),
    cut_ok: bool = False,
    retry_on: frozenset[int] = _RETRYABLE,
) -> Plan[Reply | None]:
    """Send `call` until it succeeds: 2xx (or a status in `accept`) is returned, anything else raised.

    429 and 503 (and a proxy's 502/504 for idempotent calls) are retried after `Retry-After`
    (1 s when absent) while that still ends before `deadline` (default: now + `retry_for`).
    With `cut_ok`, an answer lost (timed out, connection cut, a proxy's 502/504) after the request
    was open a while (see :data:`IDLE_CUT_SECONDS`) returns None: a wait re-arms.
    `call` may be a function making the request, called again for each retry (a wait's
    segment is what is left of its deadline after the pause, not what was left before it).
    `retry_on` narrows the statuses retried (a send retries only 429).
    """
    __tracebackhide__ = True
    if deadline is None:
        deadline = policy.clock() + policy.retry_for
    while True:
        current = call() if callable(call) else call
        if current.token is None:  # said here: the gateway's 401 could not name the setting
            raise AuthError(0, "no_token", "no token: pass token= or set AGENTMAIL_TOKEN")
        asked = policy.clock()
        answer = yield current
        cut_ok_now = cut_ok and policy.clock() - asked >= IDLE_CUT_SECONDS
        if not isinstance(answer, Reply):
            if cut_ok_now and isinstance(answer, NoReply) and answer.cut:
                return None
            what = "did not answer" if isinstance(answer, NoReply) and answer.cut else "cannot be reached"
            raise Unreachable(0, "unreachable", f"the gateway at {policy.where} {what}")
        if 200 <= answer.status < 300 or answer.status in accept:
            return answer
        err = _error(policy, answer)
        proxy_cut = answer.status in (502, 504) and err.error == "http_error"
        if cut_ok_now and proxy_cut:
            return None
        retryable = answer.status in retry_on and (not proxy_cut or current.method in _IDEMPOTENT)
        pause = max(0.05, err.retry_after if err.retry_after is not None else 1.0)
        if not retryable or policy.clock() + pause >= deadline:
            raise err
        yield Pause(pause)


def request(policy: Policy, call: Call, shape: type[T]) -> Plan[T]:
    """`call`, retried as :func:`send` does, its answer decoded as `shape`."""
    __tracebackhide__ = True
    reply = yield from send(policy, call)
    assert reply is not None
    return decode(policy, reply.content, shape)


def perform(policy: Policy, call: Call) -> Plan[bytes]:
    """`call`, retried as :func:`send` does; the answer's bytes."""
    __tracebackhide__ = True
    reply = yield from send(policy, call)
    assert reply is not None
    return reply.content


def encode(body: msgspec.Struct) -> bytes:
    """`body` as JSON without the fields left at their defaults.

    The gateway reads an absent field as its default, and a gateway older than a field (which
    refuses unknown fields) still takes a request that does not use it.
    """
    out: dict[str, object] = {}
    for field in msgspec.structs.fields(body):
        value = getattr(body, field.name)
        if field.default is not msgspec.NODEFAULT:
            default = field.default
        elif field.default_factory is not msgspec.NODEFAULT:
            default = field.default_factory()
        else:
            out[field.encode_name] = value
            continue
        if value != default:
            out[field.encode_name] = value
    return msgspec.json.encode(out)


def create_identity(
    policy: Policy,
    token: str | None,
    local_part: str | None,
    ttl_seconds: int | None,
    label: str | None,
    force: bool,
    send: wire.SendScope | None = None,
) -> Plan[wire.CreatedIdentity]:
    body = encode(wire.CreateIdentityIn(local_part, ttl_seconds, label, force, send))
    return (yield from request(policy, Call("POST", "/v1/identities", token, body=body), wire.CreatedIdentity))


def list_identities(policy: Policy, token: str | None) -> Plan[list[wire.IdentityInfo]]:
    found: list[wire.IdentityInfo] = []
    after: str | None = None
    while True:
        call = Call("GET", "/v1/identities", token, params=_params(limit=_IDENTITY_PAGE, after=after))
        page = yield from request(policy, call, wire.IdentityPage)
        found.extend(page.identities)
        if page.next_after is None:
            return found
        after = page.next_after


def list_messages(
    policy: Policy,
    address: str,
    token: str | None,
    *,
    limit: int,
    sender: str | None,
    subject: str | None,
    since: datetime | None,
    before_id: str | None = None,
    direction: Direction | None = None,
) -> Plan[list[wire.Summary]]:
    """One page of summaries, newest first; `direction` None is the gateway's default (received)."""
    params = _params(limit=limit, sender=sender, subject=subject, since=since, before_id=before_id, direction=direction)
    call = Call("GET", f"{identity_path(address)}/messages", token, params=params)
    return (yield from request(policy, call, wire.MessagePage)).messages


def search_messages(
    policy: Policy, address: str, token: str | None, query: str, *, limit: int, before_id: str | None = None
) -> Plan[wire.MessagePage]:
    """One page of the messages matching `query` (the gateway's `?q=` language), newest first."""
    params = _params(q=query, limit=limit, before_id=before_id)
    call = Call("GET", f"{identity_path(address)}/messages", token, params=params)
    return (yield from request(policy, call, wire.MessagePage))


def save(policy: Policy, call: Call) -> Plan[None]:
    """`call`, retried as :func:`send` does, its answer streamed into `call.save_to`."""
    __tracebackhide__ = True
    assert call.save_to is not None
    yield from send(policy, call)


def _mail(policy: Policy, call: Call) -> Plan[wire.SendResult]:
    """A send, reply or forward: retried only on 429 (nothing was sent), its result decoded."""
    __tracebackhide__ = True
    reply = yield from send(policy, call, retry_on=_MAIL_RETRYABLE)
    assert reply is not None
    return decode(policy, reply.content, wire.SendResult)


def send_message(policy: Policy, address: str, token: str | None, body: wire.SendIn) -> Plan[wire.SendResult]:
    """`POST …/send`: a new mail from `address`."""
    return (yield from _mail(policy, Call("POST", f"{identity_path(address)}/send", token, body=encode(body))))


def reply_to_message(
    policy: Policy, address: str, token: str | None, message_id: str, body: wire.ReplyIn
) -> Plan[wire.SendResult]:
    """`POST …/messages/{id}/reply`: an answer to one of `address`'s messages."""
    path = f"{message_path(address, message_id)}/reply"
    return (yield from _mail(policy, Call("POST", path, token, body=encode(body))))


def forward_message(
    policy: Policy, address: str, token: str | None, message_id: str, body: wire.ForwardIn
) -> Plan[wire.SendResult]:
    """`POST …/messages/{id}/forward`: one of `address`'s messages re-sent to new recipients."""
    path = f"{message_path(address, message_id)}/forward"
    return (yield from _mail(policy, Call("POST", path, token, body=encode(body))))


def list_threads(policy: Policy, address: str, token: str | None, *, limit: int) -> Plan[list[wire.ThreadSummary]]:
    """The `limit` threads of latest activity, latest first, read page after page."""
    if limit < 1:
        raise ValueError("limit must be at least 1")
    found: list[wire.ThreadSummary] = []
    before: str | None = None
    while len(found) < limit:
        params = _params(limit=min(_THREAD_PAGE, limit - len(found)), before=before)
        page = yield from request(
            policy, Call("GET", f"{identity_path(address)}/threads", token, params=params), wire.ThreadPage
        )
        found.extend(page.threads)
        if page.next_before is None or not page.threads:
            break
        before = page.next_before
    return found[:limit]


def get_thread(policy: Policy, address: str, token: str | None, thread_id: str) -> Plan[wire.Thread]:
    """One thread of `address`, its messages oldest first."""
    call = Call("GET", f"{identity_path(address)}/threads/{_segment(thread_id)}", token)
    return (yield from request(policy, call, wire.Thread))


def next_message(
    policy: Policy,
    address: str,
    token: str | None,
    *,
    timeout: float,
    sender: str | None = None,
    subject: str | None = None,
    since: datetime | None = None,
    after_id: str | None = None,
    q: str | None = None,
) -> Plan[wire.Message | None]:
    """The oldest unseen matching message once there is one, or None after `timeout` seconds.

    Waits longer than the policy's segment are re-armed segment after segment, so no proxy
    cuts them; a segment lost to a proxy or a read timeout is re-armed too.
    """
    __tracebackhide__ = True
    deadline = policy.clock() + max(0.0, timeout)
    path = f"{identity_path(address)}/wait"
    segments: list[float] = []

    def arm() -> Call:  # made again after every pause: a segment never runs past the deadline
        segment = round(max(0.0, min(deadline - policy.clock(), policy.wait_segment)), 3)
        segments.append(segment)
        params = _params(timeout=segment, sender=sender, subject=subject, since=since, after_id=after_id, q=q)
        return Call("GET", path, token, params=params, read_timeout=segment + READ_GRACE_SECONDS)

    while True:
        reply = yield from send(policy, arm, deadline=deadline, accept=frozenset({408}), cut_ok=True)
        if reply is not None and reply.status == 408 and _error(policy, reply).error != "timeout":
            raise _error(policy, reply)  # a front's own 408 page: re-arming at once would loop hot
        if reply is not None and reply.status != 408:
            return decode(policy, reply.content, wire.Message)
        left = deadline - policy.clock()
        if left <= 0 or (reply is not None and segments[-1] == 0):  # a last look (under a millisecond left) ends it
            return None
        if reply is None:  # cut: a moment before re-arming, so a proxy that cuts at once is not hammered
            yield Pause(min(0.2, left))


def wait_for(
    policy: Policy,
    address: str,
    token: str | None,
    pick: Picker[T],
    wanted: str,
    *,
    timeout: float,
    sender: str | None,
    subject: str | None,
    since: datetime | None,
    q: str | None = None,
) -> Plan[T]:
    """Wait for the first message `pick` finds something in (skipping the others), or raise WaitTimeout."""
    __tracebackhide__ = True
    started = policy.clock()
    deadline = started + max(0.0, timeout)
    after: str | None = None
    while True:
        message = yield from next_message(
            policy,
            address,
            token,
            timeout=max(0.0, deadline - policy.clock()),
            sender=sender,
            subject=subject,
            since=since,
            after_id=after,
            q=q,
        )
        if message is None:
            break
        found = pick(message)
        if found is not None:
            return found
        after = message.id  # read past it: an admin's wait does not mark mail seen
    named = [f"{name} containing {value!r}" for name, value in (("From", sender), ("Subject", subject)) if value]
    filters = ", ".join([*named, *([f"matching {q!r}"] if q else [])])
    try:
        arrived: list[wire.Summary] | None = yield from list_messages(
            policy, address, token, limit=_ARRIVALS_SHOWN, sender=None, subject=None, since=None
        )
    except GatewayError:
        arrived = None
    raise WaitTimeout(address, timeout, f"{wanted}{f' ({filters})' if filters else ''}", arrived)


def first_code(message: wire.Message) -> str | None:
    return message.codes[0].value if message.codes else None


def link_containing(contains: str | None) -> Callable[[wire.Message], str | None]:
    """The first link of a message (containing `contains`, case-insensitively, when given)."""

    def pick(message: wire.Message) -> str | None:
        for link in message.links:
            if contains is None or contains.lower() in link.url.lower():
                return link.url
        return None

    return pick


# --- webhooks -------------------------------------------------------------------------------


def webhooks_path(address: str | None) -> str:
    """An identity's webhooks, or (`address` None) those of every identity the token may manage."""
    return f"{identity_path(address)}/webhooks" if address is not None else "/v1/webhooks"


def webhook_path(webhook_id: str, address: str | None = None) -> str:
    return f"{webhooks_path(address)}/{_segment(webhook_id)}"


def _delivery_path(webhook_id: str, delivery_id: str) -> str:
    return f"{webhook_path(webhook_id)}/deliveries/{_segment(delivery_id)}"


def create_webhook(
    policy: Policy, token: str | None, address: str | None, body: wire.WebhookIn
) -> Plan[wire.CreatedWebhook]:
    """`POST …/webhooks`: a new webhook and its secret, shown this once.

    Retried only on 429 (nothing was made): after a 503 or a lost answer it may exist already,
    and a second one would deliver every event twice.
    """
    call = Call("POST", webhooks_path(address), token, body=encode(body))
    reply = yield from send(policy, call, retry_on=_MAIL_RETRYABLE)
    assert reply is not None
    return decode(policy, reply.content, wire.CreatedWebhook)


def list_webhooks(policy: Policy, token: str | None, address: str | None) -> Plan[list[wire.WebhookInfo]]:
    """The webhooks of `address`, or (None) every webhook the token may manage."""
    call = Call("GET", webhooks_path(address), token)
    return (yield from request(policy, call, wire.WebhookList)).webhooks


def get_webhook(policy: Policy, token: str | None, webhook_id: str) -> Plan[wire.WebhookInfo]:
    return (yield from request(policy, Call("GET", webhook_path(webhook_id), token), wire.WebhookInfo))


def delete_webhook(policy: Policy, token: str | None, webhook_id: str, address: str | None = None) -> Plan[None]:
    """`DELETE` one webhook (under its identity's path when `address` is given): nothing more is sent to it."""
    yield from send(policy, Call("DELETE", webhook_path(webhook_id, address), token))


def rotate_webhook_secret(
    policy: Policy, token: str | None, webhook_id: str, grace_seconds: int
) -> Plan[wire.RotatedSecret]:
    """A new secret; the old one keeps signing beside it for `grace_seconds`.

    Retried only on 429: a rotation whose answer was lost cannot be asked for again without
    losing the secret it made.
    """
    body = encode(wire.RotateSecretIn(grace_seconds))
    call = Call("POST", f"{webhook_path(webhook_id)}/rotate", token, body=body)
    reply = yield from send(policy, call, retry_on=_MAIL_RETRYABLE)
    assert reply is not None
    return decode(policy, reply.content, wire.RotatedSecret)


def list_deliveries(
    policy: Policy, token: str | None, webhook_id: str, *, limit: int, before_id: str | None
) -> Plan[wire.DeliveryPage]:
    """One page of a webhook's delivery log, newest first; `before_id` is the last page's `next_before_id`."""
    if limit < 1:
        raise ValueError("limit must be at least 1")
    params = _params(limit=limit, before_id=before_id)
    call = Call("GET", f"{webhook_path(webhook_id)}/deliveries", token, params=params)
    return (yield from request(policy, call, wire.DeliveryPage))


def get_delivery(policy: Policy, token: str | None, webhook_id: str, delivery_id: str) -> Plan[wire.DeliveryDetail]:
    """One delivery with its attempts and the payload it sends."""
    call = Call("GET", _delivery_path(webhook_id, delivery_id), token)
    return (yield from request(policy, call, wire.DeliveryDetail))


def retry_delivery(policy: Policy, token: str | None, webhook_id: str, delivery_id: str) -> Plan[wire.WebhookDelivery]:
    """Queue a delivery again now (and re-enable its webhook if it was disabled)."""
    call = Call("POST", f"{_delivery_path(webhook_id, delivery_id)}/retry", token)
    return (yield from request(policy, call, wire.WebhookDelivery))
