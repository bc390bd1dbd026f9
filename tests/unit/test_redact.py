"""Token redaction in log lines: the pattern, the formatter, and its installation on handlers."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator

import pytest

from gateway.redact import HIDDEN, RedactingFormatter, install_redaction, looks_like_token, redact
from gateway.store.models import new_token


def test_every_issued_token_is_token_shaped() -> None:
    for _ in range(200):
        token = new_token()
        assert looks_like_token(token)
        assert redact(f"GET /v1/{token}?x={token} from {token}") == f"GET /v1/{HIDDEN}?x={HIDDEN} from {HIDDEN}"


@pytest.mark.parametrize(
    "text",
    [
        "am_session=1",
        "program_files",
        "am_short_1234",
        "nothing here",
        "gateway.api.hangups: POST /v1/identities",
        # `am_` inside a word: an identity's name, not a token.
        "GET /ui/identities/stream_notifications_bot@agents.test",
        "team_am_projectalpha12345@agents.test",
    ],
)
def test_ordinary_text_is_left_alone(text: str) -> None:
    assert redact(text) == text


@pytest.mark.parametrize(
    "template",
    [
        "GET /v1/{} HTTP/1.1",
        "?{}",
        "t={}",
        "Bearer {}",
        '{{"token": "{}"}}',
        "'{}'",
        "{}, 10.0.0.1",
        "x.{}",
        # uvicorn logs the path percent-quoted: the escape's last character is a letter or digit.
        "GET /v1/Bearer%20{} HTTP/1.1",
        "GET /v1/x%3A{} HTTP/1.1",
        "GET /ui/%2F{}",
    ],
)
def test_a_token_after_any_separator_is_hidden(template: str) -> None:
    token = new_token()
    assert token not in redact(template.format(token))


def test_a_piece_of_a_token_is_still_hidden() -> None:
    token = new_token()
    assert token[:20] not in redact(f"truncated: {token[:20]}")


def test_configured_secrets_are_hidden_literally_but_not_short_ones() -> None:
    assert redact("admin hunter2-long-secret here", ["hunter2-long-secret"]) == "admin [hidden] here"
    assert redact("a short pw", ["pw"]) == "a short pw"


def test_the_formatter_covers_arguments_and_tracebacks() -> None:
    token = new_token()
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(RedactingFormatter(logging.Formatter("%(levelname)s %(message)s")))
    logger = logging.getLogger("tests.redact.formatter")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        logger.warning("client %s sent %r", token, {"token": token})
        try:
            raise ValueError(f"bad value {token}")
        except ValueError:
            logger.exception("failed")
    finally:
        logger.removeHandler(handler)
    output = stream.getvalue()
    assert token not in output
    assert output.count(HIDDEN) == 3 and "ValueError: bad value am_[hidden]" in output


@pytest.fixture
def restored_formatters() -> Iterator[None]:
    """install_redaction changes every handler in the process (pytest's too): put them back."""
    loggers = [
        logging.getLogger(),
        *(v for v in logging.Logger.manager.loggerDict.values() if isinstance(v, logging.Logger)),
    ]
    saved = [(h, h.formatter) for logger in loggers for h in logger.handlers]
    yield
    for handler, formatter in saved:
        handler.setFormatter(formatter)


@pytest.mark.usefixtures("restored_formatters")
def test_install_wraps_every_handler_once() -> None:
    logger = logging.getLogger("tests.redact.install")
    handler = logging.StreamHandler(io.StringIO())
    logger.addHandler(handler)
    try:
        install_redaction()
        install_redaction(["another-secret-value"])
        assert isinstance(handler.formatter, RedactingFormatter)
        assert not isinstance(handler.formatter.inner, RedactingFormatter)
        assert handler.formatter.secrets == ("another-secret-value",)
    finally:
        logger.removeHandler(handler)
