"""Rows into the store's values, the same for every engine (both select the same columns in the same order)."""

from __future__ import annotations

import string
from collections.abc import Sequence
from typing import Any, Final

import msgspec

from gateway.mail.models import Code, Link
from gateway.store.models import Identity, Summary

__all__ = ["IDENTITY_COLUMNS", "ascii_lower", "encode_json", "identity_of", "retry_after", "summary_of"]

IDENTITY_COLUMNS: Final = (
    "id, local_part, created_at, expires_at, label, created_by, reused, fence_generation, fence_id"
)
"""What `identity_of` reads, in its order; `summary_of` reads what each engine's listing selects:
copy id, message key, received at, size, From, To (JSON), Subject, codes and links (JSON), seen."""

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
    )


def retry_after(event_times: Sequence[Any], limit: int, window: float, now: float) -> int | None:
    """Seconds until a key with these newest event times (at most `limit`, newest first) is under `limit`."""
    if len(event_times) < limit:
        return None
    # The oldest of the last `limit` events leaving the window brings the key under it;
    # a whole second past that moment, so a client that waits exactly this long gets in.
    return max(1, int(float(event_times[-1]) + window - now) + 1)
