"""One header block for both readers: where it ends, which lines are fields, what is skipped.

The header fields (our reader) and the body (the stdlib's MIME parser) must come from one split
of the bytes, whatever breaks the header block: a byte-order mark, a stray line, odd line ends.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from email import message_from_bytes, policy
from email.message import EmailMessage

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gateway.mail.models import Header, ParsedMessage
from gateway.mail.parse import MAX_HEADER_FIELDS, parse_body, parse_message, raw_headers
from gateway.mail.stamp import delivery_stamp, received_header

BOM = b"\xef\xbb\xbf"
MEGABYTE = 1024 * 1024


def _alternative(*, text: str = "the real body\n", html: str = "<p>the real html</p>\n") -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = "Service <noreply@service.test>"
    msg["To"] = "agent@d.test"
    msg["Subject"] = "Your code"
    msg["Message-ID"] = "<m1@service.test>"
    msg.set_content(text)
    msg.add_alternative(html, subtype="html")
    return msg


def _crlf(msg: EmailMessage) -> bytes:
    return msg.as_bytes(policy=policy.SMTP)


def _insert_before(raw: bytes, field: bytes, line: bytes) -> bytes:
    """``raw`` with ``line`` (line break included) inserted before the line starting ``field``."""
    at = raw.index(b"\n" + field) + 1 if not raw.startswith(field) else 0
    return raw[:at] + line + raw[at:]


def _stamped(raw: bytes, rcpt: str = "agent@d.test") -> bytes:
    received = received_header(
        by="mx.d.test", queue_id="Q1", when=datetime(2026, 1, 1, tzinfo=UTC), protocol="ESMTP", helo="h", peer="1.2.3.4"
    )
    return delivery_stamp(rcpt, return_path="s@service.test", received=received) + raw


def _assert_reads_the_message(parsed: ParsedMessage, clean: ParsedMessage) -> None:
    """``parsed`` (a broken copy) reads what the well-formed ``clean`` reads: fields and body."""
    assert parsed.from_address == "noreply@service.test"
    assert parsed.subject == "Your code"
    assert parsed.message_id == "<m1@service.test>"
    assert parsed.text == clean.text == "the real body\n"
    assert parsed.html == clean.html
    assert clean.html is not None and "the real html" in clean.html
    assert parsed.body_sha256 == clean.body_sha256
    assert parsed.truncated is False


# --- a byte-order mark --------------------------------------------------------------------


@pytest.mark.parametrize("line_end", [b"\r\n", b"\n"], ids=["crlf", "lf"])
def test_a_leading_byte_order_mark_is_ignored_and_not_counted(line_end: bytes) -> None:
    raw = _crlf(_alternative()).replace(b"\r\n", line_end)
    clean = parse_message(raw)
    parsed = parse_message(BOM + raw)
    _assert_reads_the_message(parsed, clean)
    assert parsed.headers == clean.headers
    assert parsed.headers[0] == Header("From", "Service <noreply@service.test>")
    assert parsed.skipped_header_lines == clean.skipped_header_lines == 0


def test_a_byte_order_mark_under_stamped_trace_fields_is_ignored() -> None:
    # The intake stamps its trace fields on top: the sender's BOM then starts a line inside the block.
    raw = _crlf(_alternative())
    clean = parse_message(_stamped(raw))
    parsed = parse_message(_stamped(BOM + raw))
    _assert_reads_the_message(parsed, clean)
    assert parsed.headers == clean.headers
    assert parsed.skipped_header_lines == 0
    assert ("From", "Service <noreply@service.test>") in raw_headers(_stamped(BOM + raw))


def test_a_byte_order_mark_before_the_content_type_keeps_the_structure() -> None:
    # The top-level Content-Type is the first field: the MIME parser must still get it.
    raw = (
        BOM + b'Content-Type: multipart/alternative; boundary="b"\r\nFrom: a@d.test\r\n\r\n'
        b"--b\r\nContent-Type: text/plain\r\n\r\nplain part\r\n"
        b"--b\r\nContent-Type: text/html\r\n\r\n<p>html part</p>\r\n--b--\r\n"
    )
    parsed = parse_message(raw)
    assert parsed.text == "plain part"
    assert parsed.html == "<p>html part</p>"
    assert parsed.from_address == "a@d.test"
    assert parsed.headers[0].name == "Content-Type"
    assert parsed.skipped_header_lines == 0


@pytest.mark.parametrize(
    ("raw", "body"),
    [
        pytest.param(BOM + b"\r\nonly a body\r\n", b"only a body\r\n", id="leading-bom-then-empty-line"),
        pytest.param(b"From: a@d.test\r\n" + BOM + b"\r\nthe body\r\n", b"the body\r\n", id="bom-only-line-ends-block"),
    ],
)
def test_a_line_of_only_a_byte_order_mark_is_an_empty_line(raw: bytes, body: bytes) -> None:
    parsed = parse_message(raw)
    assert parsed.text == body.decode().replace("\r\n", "\n")
    assert parsed.body_sha256 == hashlib.sha256(body).hexdigest()
    assert parsed.skipped_header_lines == 0


# --- lines that are no field --------------------------------------------------------------


@pytest.mark.parametrize(
    "broken",
    [
        pytest.param(b"this is not a header", id="no-colon"),
        pytest.param(b">From someone@else.test Mon Jan  1 00:00:00 2024", id="escaped-mbox-from"),
        pytest.param(b"From someone@else.test Mon Jan  1 00:00:00 2024", id="mbox-envelope-line"),
        pytest.param(b"Bad Name: a space inside the name", id="space-in-name"),
        pytest.param(b"X-J\xffunk: 8-bit byte in the name", id="eight-bit-name"),
        pytest.param(b": no name", id="empty-name"),
    ],
)
@pytest.mark.parametrize("field", [b"From:", b"Content-Type:"], ids=["before-from", "before-content-type"])
@pytest.mark.parametrize("line_end", [b"\r\n", b"\n"], ids=["crlf", "lf"])
def test_a_broken_line_is_skipped_and_the_fields_after_it_and_the_body_are_read(
    broken: bytes, field: bytes, line_end: bytes
) -> None:
    raw = _crlf(_alternative())
    clean = parse_message(raw)
    parsed = parse_message(_insert_before(raw, field, broken + line_end))
    _assert_reads_the_message(parsed, clean)
    assert parsed.headers == clean.headers
    assert parsed.skipped_header_lines == 1


def test_continuations_of_a_broken_line_are_skipped_and_counted() -> None:
    raw = _crlf(_alternative())
    clean = parse_message(raw)
    parsed = parse_message(_insert_before(raw, b"Subject:", b"not a header\r\n folded on\r\n\tand on\r\n"))
    _assert_reads_the_message(parsed, clean)
    assert parsed.headers == clean.headers
    assert parsed.skipped_header_lines == 3


def test_a_continuation_before_any_field_is_skipped_and_counted() -> None:
    parsed = parse_message(b" dangling\r\nSubject: s\r\n\r\nbody")
    assert parsed.headers == (Header("Subject", "s"),)
    assert parsed.text == "body"
    assert parsed.skipped_header_lines == 1


def test_several_broken_lines_are_each_counted() -> None:
    raw = _crlf(_alternative())
    broken = _insert_before(_insert_before(raw, b"To:", b"one\r\n"), b"Subject:", b"two\n")
    parsed = parse_message(BOM + broken)
    _assert_reads_the_message(parsed, parse_message(raw))
    assert parsed.skipped_header_lines == 2


# --- obsolete but valid syntax ------------------------------------------------------------


def test_spaces_before_the_colon_are_obsolete_syntax_and_read() -> None:
    # RFC 5322 section 4.5.3: obs-optional = field-name *WSP ":" unstructured CRLF
    raw = (
        b"From : a@d.test\r\nSubject\t: obsolete\r\n"
        b'Content-Type  : multipart/alternative; boundary="b"\r\nMIME-Version : 1.0\r\n\r\n'
        b"--b\r\nContent-Type: text/plain\r\n\r\nplain part\r\n"
        b"--b\r\nContent-Type: text/html\r\n\r\n<p>html part</p>\r\n--b--\r\n"
    )
    parsed = parse_message(raw)
    assert parsed.from_address == "a@d.test"
    assert parsed.subject == "obsolete"
    assert [h.name for h in parsed.headers] == ["From", "Subject", "Content-Type", "MIME-Version"]
    assert parsed.text == "plain part"
    assert parsed.html == "<p>html part</p>"
    assert parsed.skipped_header_lines == 0


# --- where the block ends -----------------------------------------------------------------


@pytest.mark.parametrize(
    "raw",
    [
        pytest.param(b"From: a@d.test\r\nSubject: no body\r\n", id="crlf"),
        pytest.param(b"From: a@d.test\nSubject: no body\n", id="lf"),
        pytest.param(b"From: a@d.test\nSubject: no body", id="no-final-line-break"),
        pytest.param(BOM + b"From: a@d.test\r\nSubject: no body\r\n", id="bom"),
    ],
)
def test_a_message_without_an_empty_line_is_all_headers(raw: bytes) -> None:
    parsed = parse_message(raw)
    assert parsed.from_address == "a@d.test"
    assert parsed.subject == "no body"
    assert parsed.text == ""
    assert parsed.html is None
    assert parsed.body_sha256 == hashlib.sha256(b"").hexdigest()
    assert parsed.skipped_header_lines == 0


@pytest.mark.parametrize(
    ("raw", "body"),
    [
        pytest.param(b"Subject: s\r\nX: 1\r\n\r\nbody\r\n", b"body\r\n", id="crlf"),
        pytest.param(b"Subject: s\nX: 1\n\nbody\n", b"body\n", id="lf"),
        pytest.param(b"Subject: s\r\nX: 1\n\r\nbody\r\n", b"body\r\n", id="lf-then-crlf"),
        pytest.param(b"Subject: s\nX: 1\r\n\nbody\n", b"body\n", id="crlf-then-lf"),
        pytest.param(
            b"Subject: s\r\nX: 1\r\n\r\nbody\r\n\r\nNot: a header\r\n", b"body\r\n\r\nNot: a header\r\n", id="first"
        ),
    ],
)
def test_the_block_ends_at_the_first_empty_line_whatever_the_line_ends(raw: bytes, body: bytes) -> None:
    parsed = parse_message(raw)
    assert parsed.headers == (Header("Subject", "s"), Header("X", "1"))
    assert parsed.text == body.decode().replace("\r\n", "\n")
    assert parsed.body_sha256 == hashlib.sha256(body).hexdigest()
    assert parse_body(raw).body_start == len(raw) - len(body)
    assert parsed.skipped_header_lines == 0


def test_eight_bit_bytes_in_a_value_are_read_not_skipped() -> None:
    parsed = parse_message(b"X-Garbage: \xff\xfe caf\xc3\xa9\r\nSubject: s\r\n\r\nbody")
    assert parsed.headers[0] == Header("X-Garbage", "\ufffd\ufffd café")
    assert parsed.subject == "s"
    assert parsed.skipped_header_lines == 0


def test_a_well_formed_message_counts_nothing() -> None:
    parsed = parse_message(_crlf(_alternative()))
    assert parsed.skipped_header_lines == 0


def test_copies_split_alike_share_one_body_parse() -> None:
    # Stamped copies of a broken message: one body parse serves both, as for well-formed mail.
    broken = BOM + _insert_before(_crlf(_alternative()), b"From:", b">From x\r\n")
    first, second = _stamped(broken, "one@d.test"), _stamped(broken, "another@d.test")
    body = parse_body(first)
    assert body.serves(second, max_bytes=body.limits[0], max_depth=body.limits[1])
    assert parse_message(second, body=body) == parse_message(second)
    assert parse_message(second).skipped_header_lines == 1


# --- bounded on hostile header blocks -----------------------------------------------------


@pytest.mark.timeout(5)
@pytest.mark.parametrize(
    ("raw", "text", "skipped"),
    [
        # The first line, a BOM alone, is the empty line: all the others are the body.
        pytest.param((BOM + b"\r\n") * (MEGABYTE // 5), "\ufeff\n" * (MEGABYTE // 5 - 1), 0, id="bom-lines"),
        pytest.param((BOM + b"X: y\r\n") * 20_000 + b"\r\nbody", "body", 0, id="bom-fields"),
        pytest.param(b"not a header\r\n" * 20_000 + b"From: a@d.test\r\n\r\nbody", "body", 18_724, id="broken-lines"),
        pytest.param(b"Content-Type : text/plain\r\n" * 40_000 + b"\r\nbody", "body", 0, id="spaced-content-types"),
        pytest.param(b"Content-Type: text/plain" + b" " * MEGABYTE + b"\r\n\r\nbody", "body", 0, id="long-spaces"),
        pytest.param(b"Content-Type" + b" " * MEGABYTE + b":x\r\n\r\nbody", "body", 0, id="spaces-before-colon"),
    ],
)
def test_hostile_header_blocks_parse_in_bounded_time(raw: bytes, text: str, skipped: int) -> None:
    parsed = parse_message(raw)
    assert parsed.text == text
    assert parsed.skipped_header_lines == skipped


def test_skipped_lines_are_counted_within_the_header_bounds() -> None:
    raw = b"broken\r\n" * 5 + b"X: 1\r\n" * (MAX_HEADER_FIELDS + 10) + b"broken\r\n" * 7 + b"\r\nbody"
    parsed = parse_message(raw)
    assert parsed.skipped_header_lines == 5  # the field bound stopped the reading before the last 7
    assert parsed.truncated is True
    assert parsed.text == "body"


# --- property: breaking the block changes nothing the message says --------------------------

_WORDS = st.text(st.characters(codec="utf-8", categories=("L", "N")), min_size=1, max_size=12)
_PHRASE = st.lists(_WORDS, min_size=1, max_size=6).map(" ".join)
_BODY = st.lists(_PHRASE, min_size=1, max_size=5).map("\n".join)
_FIELD_NAMES = st.from_regex(r"X-[A-Za-z0-9-]{1,20}", fullmatch=True)

_BROKEN_LINES = st.one_of(
    st.sampled_from(
        [
            b"this is not a header",
            b">From someone@else.test Mon Jan  1 00:00:00 2024",
            b"From someone@else.test Mon Jan  1 00:00:00 2024",
            b"Bad Name: value",
            b"X-J\xffunk: 8-bit name",
            b"\xff\xfe\x00garbage",
            b": no name",
        ]
    ),
    # Printable text without a colon that does not start with a space or a tab.
    st.from_regex(rb"[\x21-\x39\x3b-\x7e][\x20-\x39\x3b-\x7e]{0,60}", fullmatch=True),
)


@st.composite
def _messages(draw: st.DrawFn) -> tuple[EmailMessage, bytes]:
    """A well-formed message (random fields, text and HTML) and its bytes, CRLF or LF."""
    msg = EmailMessage()
    msg["From"] = "Service <noreply@service.test>"
    msg["To"] = "agent@d.test"
    msg["Subject"] = draw(_PHRASE)
    for name in draw(st.lists(_FIELD_NAMES, max_size=4)):
        msg[name] = draw(_PHRASE)
    msg["Message-ID"] = "<m1@service.test>"
    msg.set_content(draw(_BODY))
    if draw(st.booleans()):
        msg.add_alternative(f"<p>{draw(_BODY)}</p>", subtype="html")
        msg.set_boundary("boundary-of-the-test")  # "-" is never in a body; no random one in a strategy
    raw = _crlf(msg) if draw(st.booleans()) else msg.as_bytes(policy=policy.default)
    return msg, raw


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(
    message=_messages(),
    bom=st.booleans(),
    stamped=st.booleans(),
    broken=st.none() | _BROKEN_LINES,
    broken_end=st.sampled_from([b"\r\n", b"\n"]),
    where=st.integers(min_value=0),
)
def test_a_bom_or_a_broken_line_changes_nothing_the_message_says(
    message: tuple[EmailMessage, bytes],
    bom: bool,
    stamped: bool,
    broken: bytes | None,
    broken_end: bytes,
    where: int,
) -> None:
    msg, raw = message
    eol = b"\r\n" if b"\r\n" in raw else b"\n"
    header, _, body = raw.partition(eol + eol)
    lines = [line + eol for line in header.split(eol)]
    if broken is not None:
        # Before a field or at the end of the block: never between a field and its continuation.
        starts = [i for i, line in enumerate(lines) if not line.startswith((b" ", b"\t"))] + [len(lines)]
        at = starts[where % len(starts)]
        lines.insert(at, broken + broken_end)
    changed = (BOM if bom else b"") + b"".join(lines) + eol + body
    if stamped:
        raw, changed = _stamped(raw), _stamped(changed)

    clean, parsed = parse_message(raw), parse_message(changed)
    # The clean copy reads what was written...
    plain = msg.get_body(preferencelist=("plain",))
    html = msg.get_body(preferencelist=("html",))
    assert plain is not None
    assert clean.text == plain.get_content()
    assert (clean.html or "").replace("\r\n", "\n") == ("" if html is None else html.get_content())
    # (The stdlib's folding can lose a space between encoded words: its own reading is the reference.)
    assert clean.subject == " ".join(str(message_from_bytes(raw, policy=policy.default)["Subject"]).split())
    assert clean.skipped_header_lines == 0
    # ...and the broken one the same, with the skipped line counted.
    assert parsed.text == clean.text
    assert parsed.html == clean.html
    assert parsed.from_address == clean.from_address == "noreply@service.test"
    assert parsed.subject == clean.subject
    assert parsed.headers == clean.headers
    assert parsed.body_sha256 == clean.body_sha256
    assert parsed.skipped_header_lines == (0 if broken is None else 1)
