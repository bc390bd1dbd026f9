"""Every case of corpus/malformed/ through the pure parser: bounded, never raising, cut when it must be."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from corpus.malformed.cases import CASES, Case, red_team
from gateway.mail.parse import ParsedBody, parse_body, parse_message
from gateway.mail.stamp import delivery_stamp, received_header
from tests.unit.mail.test_parse import _assert_clean


@pytest.mark.timeout(5)  # each case used to take up to ten seconds: bounded, not hung
@pytest.mark.parametrize("case", [pytest.param(c, id=c.name) for c in CASES])
def test_malformed_case(case: Case) -> None:
    parsed = parse_message(case.build())
    _assert_clean(parsed)
    if case.truncated is not None:
        assert parsed.truncated is case.truncated, case.must
    if case.text_contains is not None:
        assert case.text_contains in parsed.text, case.must
    if case.subject is not None:
        assert parsed.subject == case.subject, case.must


def test_the_red_team_message_keeps_its_first_parts() -> None:
    # Its Content-Type comes after 20,000 other fields: the structure is still found.
    parsed = parse_message(red_team(header_lines=2_000, parts=3))
    assert parsed.text == "part 0"
    assert parsed.truncated is True  # the header bound (1,000 fields) cut the filler


def test_a_cut_keeps_what_came_before() -> None:
    # 10,000 parts cost more than the budget: the parse stops there instead of refusing all.
    (case,) = [c for c in CASES if c.name == "parts-10000"]
    parsed = parse_message(case.build())
    assert parsed.text == "first part"
    assert parsed.truncated is True


def _copy(rcpt: str, content: bytes) -> bytes:
    received = received_header(by="mx.d.test", queue_id="Q1", when=_WHEN, protocol="ESMTP", helo="h", peer="1.2.3.4")
    return delivery_stamp(rcpt, return_path="s@example.com", received=received) + content


_WHEN = datetime(2026, 1, 1, tzinfo=UTC)
_CONTENT = (
    b"From: a@example.com\r\nSubject: shared\r\nMessage-ID: <m@example.com>\r\n"
    b'Content-Type: multipart/mixed; boundary="b"\r\n\r\n'
    b"--b\r\nContent-Type: text/plain\r\n\r\nYour code is 123456\r\n"
    b"--b\r\nContent-Type: application/pdf\r\nContent-Disposition: attachment; filename=a.pdf\r\n\r\nxx\r\n--b--\r\n"
)


def test_copies_share_one_body_parse() -> None:
    first, second = _copy("one@d.test", _CONTENT), _copy("another-longer@d.test", _CONTENT)
    body = parse_body(first)
    assert body.serves(second, max_bytes=body.limits[0], max_depth=body.limits[1])
    shared = parse_message(second, body=body)
    assert shared == parse_message(second)  # the same result as a parse of its own
    assert shared.text == "Your code is 123456"
    assert [h.value for h in shared.headers if h.name == "Delivered-To"] == ["another-longer@d.test"]


@pytest.mark.parametrize(
    "other",
    [
        pytest.param(_CONTENT.replace(b"123456", b"654321"), id="another-body"),
        pytest.param(_CONTENT.replace(b'boundary="b"', b'boundary="c"'), id="another-content-type"),
        pytest.param(_CONTENT + b"x", id="longer"),
    ],
)
def test_a_body_serves_no_other_message(other: bytes) -> None:
    body = parse_body(_copy("one@d.test", _CONTENT))
    raw = _copy("one@d.test", other)
    assert not body.serves(raw, max_bytes=body.limits[0], max_depth=body.limits[1])
    assert parse_message(raw, body=body) == parse_message(raw)  # a body that does not serve is ignored


def test_a_body_serves_only_its_own_bounds() -> None:
    raw = _copy("one@d.test", _CONTENT)
    body: ParsedBody = parse_body(raw)
    assert not body.serves(raw, max_bytes=1000, max_depth=body.limits[1])
    assert not body.serves(raw, max_bytes=body.limits[0], max_depth=2)


def test_a_broken_header_block_keeps_its_fields_and_its_body() -> None:
    (case,) = [c for c in CASES if c.name == "broken-header-block"]
    parsed = parse_message(case.build())
    assert parsed.from_address == "red@attacker.test"  # the first field, behind the byte-order mark
    assert (parsed.text, parsed.html) == ("the real body", "<p>html</p>")
    assert parsed.skipped_header_lines == 2
