"""Tokens never reach a log: every formatted log line is rewritten before a handler writes it.

A token can arrive anywhere a client can put text (a URL path, a bare query key, an
`X-Forwarded-For` header, a field of a bad request echoed in an exception), so the rule is
applied to the whole formatted line (message, arguments and traceback alike), not to one
logger's arguments. `install_redaction` wraps the formatter of every handler configured so
far; the CLI calls it once logging (its own and uvicorn's) is set up.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from typing import Final

__all__ = ["HIDDEN", "TOKEN_SHAPED", "RedactingFormatter", "install_redaction", "looks_like_token", "redact"]

TOKEN_SHAPED: Final = re.compile(r"(?:(?<![A-Za-z0-9_-])|(?<=%[0-9A-Fa-f]{2}))am_[A-Za-z0-9_-]{16,}")
"""A bearer token (`am_` + 24 random bytes base64url = 32 characters), or a piece of one
(half a token is still half a secret): a run of base64url characters that starts with `am_`.
A run that only contains `am_` further in is a word, not a token: an identity named
`stream_notifications_bot` is neither refused by /ui nor blanked in the log. A percent escape
just before it (`Bearer%20am_…`, `x%3Aam_…` in a logged URL) ends a word too. Kept in step with
`gateway.store.models.new_token` by a test."""

HIDDEN: Final = "am_[hidden]"
MIN_SECRET_CHARS: Final = 8
"""Configured secrets shorter than this are not redacted literally (they would blank common words)."""


def looks_like_token(text: str) -> bool:
    """Whether `text` holds something token-shaped anywhere."""
    return TOKEN_SHAPED.search(text) is not None


def redact(text: str, secrets: Iterable[str] = ()) -> str:
    """`text` with every token-shaped run, and every one of `secrets`, replaced by a marker."""
    for secret in secrets:
        if len(secret) >= MIN_SECRET_CHARS and secret in text:
            text = text.replace(secret, "[hidden]")
    return TOKEN_SHAPED.sub(HIDDEN, text)


class RedactingFormatter(logging.Formatter):
    """Formats with the handler's own formatter, then redacts the finished line."""

    def __init__(self, inner: logging.Formatter, secrets: Iterable[str] = ()) -> None:
        super().__init__()
        self.inner = inner
        self.secrets = tuple(s for s in secrets if len(s) >= MIN_SECRET_CHARS)

    def format(self, record: logging.LogRecord) -> str:
        line = self.inner.format(record)
        # The inner formatter caches the traceback text on the record; another handler's
        # formatter may reuse it, and it is redacted again there.
        return redact(line, self.secrets)


def _handlers() -> list[logging.Handler]:
    found: list[logging.Handler] = list(logging.getLogger().handlers)
    for logger in list(logging.Logger.manager.loggerDict.values()):
        if isinstance(logger, logging.Logger):
            found.extend(logger.handlers)
    return found


def install_redaction(secrets: Iterable[str] = ()) -> None:
    """Redact tokens (and `secrets`, e.g. a configured admin token) in every handler configured so far.

    Idempotent: a handler already redacting keeps one wrapper (with the new secrets).
    """
    secrets = tuple(secrets)
    for handler in _handlers():
        inner = handler.formatter
        if isinstance(inner, RedactingFormatter):
            inner = inner.inner
        # A handler without a formatter uses logging's default one: make that explicit.
        handler.setFormatter(RedactingFormatter(inner or logging.Formatter(), secrets))
