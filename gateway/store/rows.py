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

__all__ = [
    "IDENTITY_COLUMNS",
    "OUTBOX_COLUMNS",
    "SEND_SCOPES",
    "ascii_lower",
    "check_choice",
    "decode_addresses",
    "delivery_of",
    "encode_json",
    "entry_of",
    "identity_of",
    "retry_after",
    "summary_of",
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
