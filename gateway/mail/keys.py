"""The message key: the same for every copy of one message, whatever its copy id. Pure."""

from __future__ import annotations

import hashlib

from gateway.mail.models import ParsedMessage
from gateway.mail.parse import parse_message

__all__ = ["message_key", "message_key_of"]


def message_key_of(parsed: ParsedMessage, raw: bytes) -> str:
    """The key of a parsed copy (`raw` is its bytes)."""
    if parsed.message_id:
        # Copies of one message (one per envelope recipient) differ only in the headers the
        # delivery stamped on top: same Message-ID header and same body means the same message.
        return hashlib.sha256(f"{parsed.message_id}\0{parsed.body_sha256}".encode()).hexdigest()
    # No Message-ID header (the intake and Postfix add one, so rare): this copy's own bytes name it.
    return "raw:" + hashlib.sha256(raw).hexdigest()


def message_key(raw: bytes, *, max_bytes: int) -> str:
    """The key of one copy's bytes."""
    return message_key_of(parse_message(raw, max_bytes=max_bytes), raw)
