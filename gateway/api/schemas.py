"""How the API answers: converters from domain values to the /v1 wire structs, and error specs.

The structs themselves live in :mod:`gateway.wire`, shared with the client and agentmail-mcp.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from types import MappingProxyType
from typing import Final, Literal

import msgspec
from litestar.openapi import ResponseSpec

from gateway import wire
from gateway.inbox import AttachmentText, FullMessage, Page
from gateway.mail.models import Attachment
from gateway.outbound.sending import Sent
from gateway.store import ApiToken, Identity, Summary, ThreadSummary
from gateway.store.outbox import DeliveryState
from gateway.store.webhooks import Attempt, Delivery, Webhook

__all__ = [
    "AUTHENTICATED_ERRORS",
    "addressed_summary",
    "api_token",
    "attachment",
    "attachment_text",
    "created_identity",
    "created_webhook",
    "delivery_detail",
    "error_responses",
    "identity_info",
    "message",
    "message_page",
    "message_page_after",
    "send_result",
    "summary",
    "thread",
    "thread_summary",
    "time_of",
    "webhook_delivery",
    "webhook_info",
]

_ERRORS: Final[Mapping[int, str]] = MappingProxyType(
    {
        400: "`invalid_request`: malformed or invalid input, the body or a path or query value (`detail` names"
        " which and why).",
        401: "`unauthorized`: no token, or one that is unknown, revoked or expired (or was rotated while waiting).",
        403: "`forbidden`: a valid token on a path or an action it may not use (answered before any lookup).",
        404: "`not_found`: no such identity, message, cursor or token on a path the token may use.",
        408: "`timeout`: nothing matching arrived before the wait's `timeout`; wait again.",
        409: "`conflict`: the name is taken, or still quarantined after a deletion (or the owner holds the most"
        " webhooks it may).",
        413: "`too_large`: the request body is over its limit (64 KiB; mail to send: the message size limit), or"
        " an attachment to download is over the gateway's download limit.",
        422: "`invalid_local_part`: the local part is malformed or reserved (`detail` says which rule);"
        " `invalid_mail`: mail to send that cannot be built as asked (a line break in a field, not one plain"
        " address); `recipient_refused`: a recipient out of the identity's send scope, or no relay (nothing"
        " was sent); `not_text`: the text of an attachment that is not text (download it instead);"
        " `webhook_target_refused`: a webhook URL that is not https, or whose host is (or resolves to) a"
        " private, loopback, link-local or metadata address.",
        429: "`rate_limited`: too many open waits and streams, or unknown tokens from this address; retry after"
        " `Retry-After` seconds (also `retry_after_sec`).",
        503: "`mail_unavailable`, `store_unavailable`, `index_rebuilding` (retry after `Retry-After` seconds, also"
        " `retry_after_sec`) or `store_error` (the store cannot be trusted: see the gateway's log).",
    }
)
AUTHENTICATED_ERRORS: Final = (400, 401, 429, 503)
"""What any route behind a token may answer: bad input, a bad token (429 past a burst), a store away."""


def error_responses(*statuses: int, authenticated: bool = True) -> dict[int, ResponseSpec]:
    """OpenAPI entries for the error statuses a route answers, each with the `ErrorBody` body."""
    wanted = sorted({*statuses, *(AUTHENTICATED_ERRORS if authenticated else ())})
    return {s: ResponseSpec(wire.ErrorBody, generate_examples=False, description=_ERRORS[s]) for s in wanted}


def identity_info(identity: Identity) -> wire.IdentityInfo:
    return wire.IdentityInfo(
        identity.address, identity.created_at, identity.expires_at, identity.label, identity.send_scope
    )


def created_identity(identity: Identity, token: str) -> wire.CreatedIdentity:
    return wire.CreatedIdentity(
        identity.address, token, identity.created_at, identity.expires_at, identity.label, identity.send_scope
    )


def api_token(token: ApiToken) -> wire.ApiToken:
    return wire.ApiToken(token.id, "provision", token.label, token.created_at, token.send)


def summary(s: Summary) -> wire.Summary:
    return wire.Summary(
        id=s.id,
        from_=s.from_header,
        to=list(s.to),
        subject=s.subject,
        received_at=datetime.fromtimestamp(s.received_ts, UTC),
        size=s.size,
        seen=s.seen,
        codes=[wire.Code(c.value, c.context, c.source, c.reason) for c in s.codes],
        links=[wire.Link(link.url, link.context, link.source, link.reason) for link in s.links],
        direction=s.direction,
        thread_id=s.thread_id,
    )


def addressed_summary(address: str, s: Summary) -> wire.AddressedSummary:
    """An event of `GET /v1/events`: the summary as the identity's own stream sends it, and its address."""
    return wire.AddressedSummary(**msgspec.structs.asdict(summary(s)), address=address)


def delivery(d: DeliveryState) -> wire.Delivery:
    status = "queued" if d.status == "pending" else d.status  # a local copy not yet written
    return wire.Delivery(d.address, status, d.detail, d.attempts, datetime.fromtimestamp(d.updated_ts, UTC))


def message(m: FullMessage) -> wire.Message:
    p = m.parsed
    return wire.Message(
        **msgspec.structs.asdict(summary(m.summary)),
        headers=[wire.Header(h.name, h.value) for h in p.headers],
        text=p.text,
        html=p.html,
        attachments=[attachment(a) for a in p.attachments],
        truncated=p.truncated,
        delivery=[delivery(d) for d in m.deliveries],
        attachments_truncated=m.attachments_truncated,
    )


def attachment(a: Attachment) -> wire.Attachment:
    disposition: Literal["attachment", "inline"] | None = None
    if a.disposition == "inline":
        disposition = "inline"
    elif a.disposition is not None:
        disposition = "attachment"
    return wire.Attachment(a.filename, a.content_type, a.size, a.attachment_id, disposition, a.content_id, a.sha256)


def attachment_text(t: AttachmentText) -> wire.AttachmentText:
    a = t.attachment
    return wire.AttachmentText(a.attachment_id, a.filename, a.content_type, t.text, t.truncated)


def message_page(page: Page) -> wire.MessagePage:
    return wire.MessagePage([summary(s) for s in page.summaries], page.next_before_id)


def message_page_after(page: Page) -> wire.MessagePageAfter:
    return wire.MessagePageAfter([summary(s) for s in page.summaries], page.next_after_id)


def send_result(sent: Sent) -> wire.SendResult:
    return wire.SendResult(sent.id, sent.message_id, sent.thread_id, list(sent.accepted), [])


def thread_summary(t: ThreadSummary) -> wire.ThreadSummary:
    return wire.ThreadSummary(
        t.thread_id,
        t.subject,
        list(t.participants),
        t.message_count,
        t.unseen_count,
        datetime.fromtimestamp(t.last_ts, UTC),
    )


def thread(t: ThreadSummary, messages: Sequence[Summary]) -> wire.Thread:
    return wire.Thread(t.thread_id, t.subject, list(t.participants), [summary(s) for s in messages])


def time_of(ts: float) -> datetime:
    """A store's timestamp as the API's UTC time."""
    return datetime.fromtimestamp(ts, UTC)


def _time(ts: float | None) -> datetime | None:
    return None if ts is None else time_of(ts)


def webhook_info(h: Webhook) -> wire.WebhookInfo:
    return wire.WebhookInfo(
        id=h.id,
        url=h.url,
        events=list(h.events),
        description=h.description,
        scope=h.scope,
        address=h.address,
        signing=h.signing,
        public_key=h.public_key,
        created_at=datetime.fromtimestamp(h.created_ts, UTC),
        disabled_at=_time(h.disabled_ts),
        disabled_reason=h.disabled_reason,
        failing_since=_time(h.failing_since),
    )


def created_webhook(h: Webhook) -> wire.CreatedWebhook:
    # A v1a webhook's secret is the gateway's private signing key: it never leaves the gateway.
    return wire.CreatedWebhook(
        **msgspec.structs.asdict(webhook_info(h)), secret=h.secret if h.signing == "v1" else None
    )


def webhook_delivery(d: Delivery) -> wire.WebhookDelivery:
    return wire.WebhookDelivery(
        id=d.id,
        webhook_id=d.webhook_id,
        event=d.event,
        address=d.address,
        status=d.status,
        attempts=d.attempts,
        created_at=datetime.fromtimestamp(d.created_ts, UTC),
        next_attempt_at=_time(d.next_ts) if d.status == "queued" else None,
        last_status_code=d.last_code,
        last_error=d.last_error,
        finished_at=_time(d.finished_ts),
    )


def delivery_detail(d: Delivery, attempts: Sequence[Attempt]) -> wire.DeliveryDetail:
    return wire.DeliveryDetail(
        **msgspec.structs.asdict(webhook_delivery(d)),
        attempt_log=[
            wire.DeliveryAttempt(
                datetime.fromtimestamp(a.at_ts, UTC), round(a.latency_ms, 1), a.status_code, a.error, a.response_head
            )
            for a in attempts
        ],
        payload=d.payload.decode("utf-8", "replace"),
    )
