"""Rows into the store's values, the same for every engine (both select the same columns in the same order)."""

from __future__ import annotations

import string
from collections.abc import Sequence
from typing import Any, Final, Literal, cast

import msgspec

from gateway.errors import InvalidInput
from gateway.mail.models import Code, Link
from gateway.store.models import Identity, Summary
from gateway.store.outbox import DeliveryState, OutboxEntry
from gateway.store.webhooks import Attempt, Delivery, DeliveryStatus, Webhook, WebhookScope

__all__ = [
    "ATTEMPTS_KEPT",
    "ATTEMPT_COLUMNS",
    "HOOK_DELIVERY_COLUMNS",
    "IDENTITY_COLUMNS",
    "OUTBOX_COLUMNS",
    "RESPONSE_HEAD_CHARS",
    "SEND_SCOPES",
    "WEBHOOK_COLUMNS",
    "ascii_lower",
    "attempt_of",
    "check_choice",
    "check_webhook",
    "clip",
    "decode_addresses",
    "delivery_of",
    "encode_json",
    "entry_of",
    "hook_delivery_of",
    "identity_of",
    "retry_after",
    "summary_of",
    "webhook_of",
    "webhook_values",
]

IDENTITY_COLUMNS: Final = (
    "id, local_part, created_at, expires_at, label, created_by, reused, fence_generation, fence_id, send_scope"
)
"""What `identity_of` reads, in its order; `summary_of` reads what each engine's listing selects:
copy id, message key, received at, size, From, To (JSON), Subject, codes and links (JSON), seen,
direction, thread id."""
OUTBOX_COLUMNS: Final = (
    "id, identity_id, sender, message_key, message_id, raw, sent_copy, local_json, remote_json, created_at,"
    " local_done, copy_done, attempts, next_at"
)
"""What `entry_of` reads, in its order."""
SEND_SCOPES: Final = ("none", "local", "any")
WEBHOOK_COLUMNS: Final = (
    "id, scope, identity_id, token_id, url, events_json, description, signing, secret, public_key, created_at,"
    " previous_secret, previous_until, disabled_at, disabled_reason, failing_since, address"
)
"""What `webhook_of` reads, in its order."""
HOOK_DELIVERY_COLUMNS: Final = (
    "id, webhook_id, address, event, payload, created_at, status, attempts, next_at, last_code, last_error, finished_at"
)
"""What `hook_delivery_of` reads, in its order (a webhook delivery, not an outbox recipient's `delivery_of`)."""
ATTEMPT_COLUMNS: Final = "delivery_id, at, latency_ms, status_code, error, response_head"
"""What `attempt_of` reads, in its order."""
ATTEMPTS_KEPT: Final = 50
"""Attempts logged per delivery: the newest ones. A delivery retried by hand again and again
would otherwise grow its log without end (the schedule alone gives up after about 15)."""
RESPONSE_HEAD_CHARS: Final = 1024
"""What the log keeps of an answer's body, and of an error text: enough to see why, never a whole page."""

# ASCII only, as in mail/recipients.py: Unicode lowercasing folds KELVIN SIGN into "k".
_ASCII_LOWER: Final = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)
_CODES = msgspec.json.Decoder(tuple[Code, ...])
_LINKS = msgspec.json.Decoder(tuple[Link, ...])
_TO = msgspec.json.Decoder(tuple[str, ...])


def ascii_lower(text: str) -> str:
    """`text` with only A-Z lowercased, as addresses and local parts are compared."""
    return text.translate(_ASCII_LOWER)


def encode_json(value: Any) -> str:
    """A tuple of codes, links or addresses as the JSON text the index keeps."""
    return msgspec.json.encode(value).decode()


def identity_of(row: Sequence[Any], domain: str) -> Identity:
    """An identity from a row of IDENTITY_COLUMNS."""
    local = str(row[1])
    return Identity(
        int(row[0]),
        f"{local}@{domain}",
        local,
        float(row[2]),
        None if row[3] is None else float(row[3]),
        None if row[4] is None else str(row[4]),
        None if row[5] is None else str(row[5]),
        bool(row[6]),
        None if row[7] is None else (str(row[7]), str(row[8])),
        cast(Literal["none", "local", "any"], str(row[9])),
    )


def summary_of(row: Sequence[Any]) -> Summary:
    """A summary from a row of SUMMARY_COLUMNS: codes and links decoded into their types here, once."""
    return Summary(
        id=str(row[0]),
        message_key=str(row[1]),
        received_ts=float(row[2]),
        size=int(row[3]),
        from_header=str(row[4]),
        to=_TO.decode(str(row[5])),
        subject=str(row[6]),
        codes=_CODES.decode(str(row[7])),
        links=_LINKS.decode(str(row[8])),
        seen=bool(row[9]),
        direction=cast(Literal["received", "sent"], str(row[10])),
        thread_id=None if row[11] is None else str(row[11]),
    )


def check_choice(name: str, value: str, allowed: Sequence[str]) -> str:
    """`value` when it is one of `allowed`; InvalidInput naming the choices otherwise."""
    if value not in allowed:
        raise InvalidInput(f"{name} must be one of {', '.join(allowed)}")
    return value


def decode_addresses(text: str) -> tuple[str, ...]:
    """A JSON list of addresses as the store keeps it."""
    return _TO.decode(text)


def entry_of(row: Sequence[Any]) -> OutboxEntry:
    """An outbox entry from a row of OUTBOX_COLUMNS (its bytes still there: only unfinished entries are read)."""
    return OutboxEntry(
        id=str(row[0]),
        identity_id=int(row[1]),
        sender=str(row[2]),
        message_key=str(row[3]),
        message_id=str(row[4]),
        raw=bytes(row[5] or b""),
        sent_copy=bytes(row[6] or b""),
        local=_TO.decode(str(row[7])),
        remote=_TO.decode(str(row[8])),
        created_ts=float(row[9]),
        local_done=bool(row[10]),
        copy_done=bool(row[11]),
        attempts=int(row[12]),
        next_ts=float(row[13]),
    )


def delivery_of(row: Sequence[Any]) -> DeliveryState:
    """A delivery state from (address, status, detail, attempts, updated at)."""
    return DeliveryState(
        str(row[0]),
        cast(Literal["pending", "delivered", "relayed", "queued", "failed"], str(row[1])),
        None if row[2] is None else str(row[2]),
        int(row[3]),
        float(row[4]),
    )


def retry_after(event_times: Sequence[Any], limit: int, window: float, now: float) -> int | None:
    """Seconds until a key with these newest event times (at most `limit`, newest first) is under `limit`."""
    if len(event_times) < limit:
        return None
    # The oldest of the last `limit` events leaving the window brings the key under it;
    # a whole second past that moment, so a client that waits exactly this long gets in.
    return max(1, int(float(event_times[-1]) + window - now) + 1)


def _float(value: Any) -> float | None:
    return None if value is None else float(value)


def _str(value: Any) -> str | None:
    return None if value is None else str(value)


def webhook_of(row: Sequence[Any]) -> Webhook:
    """A webhook from a row of WEBHOOK_COLUMNS."""
    return Webhook(
        id=str(row[0]),
        scope=cast(WebhookScope, str(row[1])),
        identity_id=None if row[2] is None else int(row[2]),
        token_id=_str(row[3]),
        url=str(row[4]),
        events=_TO.decode(str(row[5])),
        description=_str(row[6]),
        signing=cast(Literal["v1", "v1a"], str(row[7])),
        secret=str(row[8]),
        public_key=_str(row[9]),
        created_ts=float(row[10]),
        previous_secret=_str(row[11]),
        previous_until=_float(row[12]),
        disabled_ts=_float(row[13]),
        disabled_reason=_str(row[14]),
        failing_since=_float(row[15]),
        address=_str(row[16]),
    )


def hook_delivery_of(row: Sequence[Any]) -> Delivery:
    """A webhook delivery from a row of HOOK_DELIVERY_COLUMNS."""
    return Delivery(
        id=str(row[0]),
        webhook_id=str(row[1]),
        address=str(row[2]),
        event=str(row[3]),
        payload=bytes(row[4]),
        created_ts=float(row[5]),
        status=cast(DeliveryStatus, str(row[6])),
        attempts=int(row[7]),
        next_ts=float(row[8]),
        last_code=None if row[9] is None else int(row[9]),
        last_error=_str(row[10]),
        finished_ts=_float(row[11]),
    )


def attempt_of(row: Sequence[Any]) -> Attempt:
    """A logged webhook call from a row of ATTEMPT_COLUMNS."""
    return Attempt(
        delivery_id=str(row[0]),
        at_ts=float(row[1]),
        latency_ms=float(row[2]),
        status_code=None if row[3] is None else int(row[3]),
        error=_str(row[4]),
        response_head=str(row[5]),
    )


def clip(text: str | None, limit: int = RESPONSE_HEAD_CHARS) -> str | None:
    """`text` cut to `limit` characters (None stays None): what the attempt log keeps."""
    return None if text is None else text[:limit]


def check_webhook(hook: Webhook) -> None:
    """InvalidInput when the webhook's owner does not fit its scope (an identity's, a token's, or none for admin)."""
    check_choice("scope", hook.scope, ("identity", "provisioner", "admin"))
    check_choice("signing", hook.signing, ("v1", "v1a"))
    if (hook.identity_id is not None) != (hook.scope == "identity"):
        raise InvalidInput("an identity webhook names its identity, and only it does")
    if (hook.token_id is not None) != (hook.scope == "provisioner"):
        raise InvalidInput("a provisioner webhook names its token, and only it does")


def webhook_values(hook: Webhook) -> tuple[Any, ...]:
    """A webhook as the values of WEBHOOK_COLUMNS, in order (what `webhook_of` reads back)."""
    return (
        hook.id,
        hook.scope,
        hook.identity_id,
        hook.token_id,
        hook.url,
        encode_json(hook.events),
        hook.description,
        hook.signing,
        hook.secret,
        hook.public_key,
        hook.created_ts,
        hook.previous_secret,
        hook.previous_until,
        hook.disabled_ts,
        hook.disabled_reason,
        hook.failing_since,
        hook.address,
    )
