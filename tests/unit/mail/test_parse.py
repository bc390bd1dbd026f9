"""Parsing real-shaped messages into ParsedMessage, and the bounds that keep it safe."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta, timezone
from email import policy
from email.message import EmailMessage

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gateway.mail import parse
from gateway.mail.models import Attachment, Header, ParsedMessage
from gateway.mail.parse import (
    MAX_HEADER_BYTES,
    MAX_HEADER_FIELDS,
    MAX_MIME_DEPTH,
    MAX_MIME_PARTS,
    parse_message,
    raw_headers,
)

PDF = b"%PDF-1.4\n" + bytes(range(256)) * 4


def _message(
    *,
    subject: str = "Your code",
    to: str = "Agent <k7d2@d.test>",
    cc: str | None = None,
    text: str | None = "Your code is 123456.\n",
    html: str | None = None,
) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = "Service <NoReply@Service.Test>"
    msg["To"] = to
    if cc is not None:
        msg["Cc"] = cc
    msg["Subject"] = subject
    msg["Date"] = "Mon, 01 Jan 2024 10:00:00 +0100"
    msg["Message-ID"] = "<abc.123@service.test>"
    if text is not None:
        msg.set_content(text)
        if html is not None:
            msg.add_alternative(html, subtype="html")
    elif html is not None:
        msg.set_content(html, subtype="html")
    return msg


def _crlf(msg: EmailMessage) -> bytes:
    return msg.as_bytes(policy=policy.SMTP)


# --- every field of a well-formed message -------------------------------------------------


def test_alternative_text_and_html() -> None:
    msg = _message(cc="a@d.test, B <B@D.Test>", html="<p>Your code is <b>123456</b></p>\n")
    parsed = parse_message(_crlf(msg))

    assert isinstance(parsed, ParsedMessage)
    assert parsed.message_id == "<abc.123@service.test>"
    assert parsed.from_header == "Service <NoReply@Service.Test>"
    assert parsed.from_address == "noreply@service.test"
    assert parsed.to == ("k7d2@d.test",)
    assert parsed.cc == ("a@d.test", "b@d.test")
    assert parsed.subject == "Your code"
    assert parsed.date == datetime(2024, 1, 1, 10, 0, tzinfo=timezone(timedelta(hours=1)))
    assert parsed.text == "Your code is 123456.\n"
    assert parsed.html == "<p>Your code is <b>123456</b></p>\r\n"
    assert parsed.attachments == ()
    assert parsed.truncated is False
    assert Header("Subject", "Your code") in parsed.headers
    assert [h.name for h in parsed.headers][:3] == ["From", "To", "Cc"]
    body = _crlf(msg).split(b"\r\n\r\n", 1)[1]
    assert parsed.body_sha256 == hashlib.sha256(body).hexdigest()


def test_html_only_leaves_text_empty() -> None:
    parsed = parse_message(_crlf(_message(text=None, html="<p>only html</p>\n")))
    assert parsed.text == ""
    assert parsed.html == "<p>only html</p>\r\n"


def test_text_only_has_no_html() -> None:
    parsed = parse_message(_message().as_bytes())
    assert parsed.text == "Your code is 123456.\n"
    assert parsed.html is None


def test_text_line_endings_become_lf() -> None:
    parsed = parse_message(_crlf(_message(text="one\ntwo\n")))
    assert parsed.text == "one\ntwo\n"


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_attachments_are_listed_with_decoded_size() -> None:
    msg = _message(html="<p>hi</p>")
    msg.add_attachment(PDF, maintype="application", subtype="pdf", filename="résumé.pdf")
    msg.add_attachment("a,b\n1,2\n", subtype="csv", filename="data.csv")
    msg.add_attachment(b"\x89PNG....", maintype="image", subtype="png")  # no file name
    parsed = parse_message(_crlf(msg))

    assert parsed.text == "Your code is 123456.\n"
    assert parsed.html == "<p>hi</p>\r\n"
    csv, png = b"a,b\r\n1,2\r\n", b"\x89PNG...."
    assert parsed.attachments == (
        Attachment("résumé.pdf", "application/pdf", len(PDF), "2", "attachment", None, _sha(PDF)),
        Attachment("data.csv", "text/csv", len(csv), "3", "attachment", None, _sha(csv)),
        Attachment(None, "image/png", len(png), "4", "attachment", None, _sha(png)),
    )


def test_text_part_marked_as_attachment_is_not_the_text() -> None:
    msg = EmailMessage()
    msg["Subject"] = "s"
    msg.add_attachment("secret notes\n", filename="notes.txt")
    msg.add_attachment("the body\n", disposition="inline")
    parsed = parse_message(msg.as_bytes())
    assert parsed.text == "the body\n"
    notes = b"secret notes\n"
    assert parsed.attachments == (
        Attachment("notes.txt", "text/plain", len(notes), "1", "attachment", None, _sha(notes)),
    )


def test_attached_message_is_one_attachment_and_not_the_text() -> None:
    inner = _message(subject="inner", text="inner text\n")
    outer = EmailMessage()
    outer["Subject"] = "outer"
    outer.set_content("outer text\n")
    outer.add_attachment(inner, filename="forwarded.eml")
    parsed = parse_message(_crlf(outer))
    assert parsed.text == "outer text\n"
    [attached] = parsed.attachments
    assert attached.content_type == "message/rfc822"
    assert attached.filename == "forwarded.eml"
    assert attached.size > len("inner text\n")


def test_inline_forwarded_message_is_read() -> None:
    raw = (
        b"Subject: fwd\r\nContent-Type: message/rfc822\r\n\r\n"
        b"Subject: inner\r\nContent-Type: text/plain\r\n\r\ninner text\r\n"
    )
    parsed = parse_message(raw)
    assert parsed.subject == "fwd"
    assert parsed.text == "inner text\n"
    assert parsed.attachments == ()


def test_delivery_report_is_listed_not_read_as_text() -> None:
    raw = (
        b'Content-Type: multipart/report; report-type=delivery-status; boundary="b"\r\n\r\n'
        b"--b\r\nContent-Type: message/delivery-status\r\n\r\n"
        b"Reporting-MTA: dns; mx.test\r\n\r\nFinal-Recipient: rfc822; a@d.test\r\n\r\n"
        b"--b\r\nContent-Type: text/plain\r\n\r\nYour mail bounced.\r\n"
        b"--b--\r\n"
    )
    parsed = parse_message(raw)
    assert parsed.text == "Your mail bounced."
    assert [a.content_type for a in parsed.attachments] == ["message/delivery-status"]


def test_rfc2047_and_rfc2231_file_names() -> None:
    raw = (
        b'Content-Type: multipart/mixed; boundary="b"\r\n\r\n'
        b"--b\r\nContent-Type: application/octet-stream\r\n"
        b'Content-Disposition: attachment; filename="=?utf-8?q?r=C3=A9sum=C3=A9?=.bin"\r\n\r\nx\r\n'
        b"--b\r\nContent-Type: application/octet-stream\r\n"
        b"Content-Disposition: attachment; filename*=iso-8859-1''caf%E9.bin\r\n\r\ny\r\n"
        b'--b\r\nContent-Type: application/octet-stream; name="plain.bin"\r\n\r\nz\r\n'
        b"--b\r\nContent-Type: application/octet-stream\r\n"
        b"Content-Disposition: attachment; filename*=x-bogus''caf%C3%A9.bin\r\n\r\nw\r\n"
        b"--b--\r\n"
    )
    names = [a.filename for a in parse_message(raw).attachments]
    assert names == ["résumé.bin", "café.bin", "plain.bin", "café.bin"]


# --- charsets -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "charset", "cte"),
    [
        pytest.param("café déjà vu\n", "iso-8859-1", "8bit", id="latin-1-8bit"),
        pytest.param("café déjà vu\n", "iso-8859-1", "quoted-printable", id="latin-1-qp"),
        pytest.param("日本語のテキスト\n", "shift_jis", "base64", id="shift-jis"),
        pytest.param("日本語のテキスト\n", "iso-2022-jp", "7bit", id="iso-2022-jp"),
        pytest.param("中文邮件正文\n", "gb2312", "base64", id="gb2312"),
        pytest.param("Привет\n", "koi8-r", "8bit", id="koi8-r"),
        pytest.param("Привет\n", "windows-1251", "quoted-printable", id="windows-1251"),
        pytest.param("ünïcödé ✓\n", "utf-8", "8bit", id="utf-8-8bit"),
    ],
)
def test_body_charsets(text: str, charset: str, cte: str) -> None:
    msg = EmailMessage()
    msg["Subject"] = "s"
    msg.set_content(text, charset=charset, cte=cte)
    assert parse_message(msg.as_bytes()).text == text


@pytest.mark.parametrize(
    ("content_type", "body", "expected"),
    [
        pytest.param("text/plain; charset=x-unknown", b"caf\xe9 ok", "caf\ufffd ok", id="unknown"),
        pytest.param("text/plain; charset=punycode", b"abc-xyz", "abc-xyz", id="not-a-charset"),
        pytest.param("text/plain; charset=base64", b"aGk=", "aGk=", id="binary-codec"),
        pytest.param("text/plain; charset=us-ascii", b"caf\xc3\xa9", "café", id="ascii-as-utf8"),
        pytest.param("text/plain", b"caf\xc3\xa9", "café", id="missing-charset"),
        pytest.param("text/plain; charset=utf-8", b"bad \xff\xfe end", "bad \ufffd\ufffd end", id="broken-utf8"),
        pytest.param("text/plain; charset*=utf-8''utf-8", b"caf\xc3\xa9", "café", id="rfc2231-charset"),
        pytest.param("text/plain; charset=" + "x" * 500, b"a\xff", "a\ufffd", id="long-name"),
    ],
)
def test_odd_charsets_decode_with_replacement(content_type: str, body: bytes, expected: str) -> None:
    raw = b"Content-Type: " + content_type.encode() + b"\r\n\r\n" + body
    assert parse_message(raw).text == expected


def test_broken_base64_and_quoted_printable_do_not_crash() -> None:
    raw = (
        b'Content-Type: multipart/mixed; boundary="b"\r\n\r\n'
        b"--b\r\nContent-Type: text/plain\r\nContent-Transfer-Encoding: base64\r\n\r\n"
        b"SGVsbG8gV29ybGQ!!!*\r\n"
        b"--b\r\nContent-Type: text/html\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n"
        b"<p>a=ZZb=\r\nc=3D</p>=\r\n"
        b"--b\r\nContent-Type: application/pdf\r\nContent-Transfer-Encoding: base64\r\n\r\n"
        b"J\r\n"
        b"--b--\r\n"
    )
    parsed = parse_message(raw)
    assert parsed.text.startswith("Hello World")
    assert parsed.html == "<p>a=ZZbc=</p>"
    assert [a.content_type for a in parsed.attachments] == ["application/pdf"]


# --- headers ------------------------------------------------------------------------------


def test_encoded_words_in_headers() -> None:
    raw = (
        b"From: =?utf-8?q?J=C3=B6rg?= <J@D.test>\r\n"
        b"Subject: =?utf-8?b?w6nDqQ==?= =?utf-8?b?w6k=?= and\r\n =?iso-8859-1?q?caf=E9?=\r\n"
        b"X-Split: =?utf-8?b?4pw=?= =?utf-8?b?kw==?=\r\n"
        b"X-Unknown: =?x-unknown?q?caf=E9?=\r\n"
        b"X-Broken: =?utf-8?b?A?=\r\n"
        b"\r\nbody"
    )
    parsed = parse_message(raw)
    assert parsed.from_header == "Jörg <J@D.test>"
    assert parsed.from_address == "j@d.test"
    assert parsed.subject == "ééé and café"
    headers = {h.name: h.value for h in parsed.headers}
    assert headers["X-Split"] == "✓"  # one character split across two words
    assert headers["X-Unknown"] == "caf\ufffd"
    assert headers["X-Broken"] == "=?utf-8?b?A?="


def test_eight_bit_headers() -> None:
    raw = "Subject: café ✓\r\nFrom: Jörg <j@d.test>\r\n\r\nbody".encode()
    parsed = parse_message(raw)
    assert parsed.subject == "café ✓"
    assert parsed.from_header == "Jörg <j@d.test>"
    assert parse_message(b"Subject: caf\xe9\r\n\r\n").subject == "caf\ufffd"


def test_subject_control_characters_are_removed() -> None:
    raw = b"Subject: a\x00b\x1b[31mc =?utf-8?q?d=0D=0AX-Evil:_1?=\r\n\r\n"
    assert parse_message(raw).subject == "ab[31mc d  X-Evil: 1"


def test_display_only_to_and_cc_ignore_spoofed_names() -> None:
    msg = _message(to='"victim@d.test" <x@d.test>, Y <Y@D.TEST>', cc="undisclosed-recipients:;")
    parsed = parse_message(msg.as_bytes())
    assert parsed.to == ("x@d.test", "y@d.test")
    assert parsed.cc == ()


def test_missing_headers() -> None:
    parsed = parse_message(b"\r\nbody only\r\n")
    assert parsed.message_id is None
    assert parsed.from_header == ""
    assert parsed.from_address is None
    assert parsed.to == ()
    assert parsed.cc == ()
    assert parsed.subject == ""
    assert parsed.date is None
    assert parsed.headers == ()
    assert parsed.text == "body only\n"
    assert parsed.body_sha256 == hashlib.sha256(b"body only\r\n").hexdigest()


def test_empty_input() -> None:
    parsed = parse_message(b"")
    assert parsed.headers == ()
    assert parsed.text == ""
    assert parsed.body_sha256 == hashlib.sha256(b"").hexdigest()


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        pytest.param("Tue, 02 Jan 2024 03:04:05 +0200", datetime(2024, 1, 2, 1, 4, 5, tzinfo=UTC), id="offset"),
        pytest.param("Tue, 02 Jan 2024 03:04:05 -0000", datetime(2024, 1, 2, 3, 4, 5, tzinfo=UTC), id="naive-is-utc"),
        pytest.param("2 Jan 2024 03:04:05 GMT", datetime(2024, 1, 2, 3, 4, 5, tzinfo=UTC), id="gmt"),
        pytest.param("yesterday", None, id="garbage"),
        pytest.param("Tue, 99 Foo 2024 99:99:99 +9999", None, id="out-of-range"),
        pytest.param("", None, id="empty"),
    ],
)
def test_date(value: str, expected: datetime | None) -> None:
    parsed = parse_message(f"Date: {value}\r\n\r\n".encode())
    assert parsed.date == expected
    if parsed.date is not None:
        assert parsed.date.tzinfo is not None


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        pytest.param("<a.b@c.test>", "<a.b@c.test>", id="plain"),
        pytest.param("  <a.b@c.test> (comment)", "<a.b@c.test>", id="spaces-and-comment"),
        pytest.param("a.b@c.test", "<a.b@c.test>", id="missing-brackets"),
        pytest.param("not an id", None, id="garbage"),
        pytest.param("<>", None, id="empty-brackets"),
        pytest.param("<a b@c>", None, id="space-inside"),
        pytest.param("", None, id="empty"),
    ],
)
def test_message_id(value: str, expected: str | None) -> None:
    assert parse_message(f"Message-ID: {value}\r\n\r\n".encode()).message_id == expected


def test_body_hash_ignores_stamped_headers() -> None:
    raw = _crlf(_message(html="<p>x</p>"))
    copy_a = b"Delivered-To: a@d.test\r\nX-Original-To: a@d.test\r\n" + raw
    copy_b = b"Delivered-To: bb@d.test\r\nReturn-Path: <s@s.test>\r\n" + raw
    assert parse_message(copy_a).body_sha256 == parse_message(copy_b).body_sha256
    other = _crlf(_message(text="another body\n"))
    assert parse_message(other).body_sha256 != parse_message(raw).body_sha256


# --- bounds -------------------------------------------------------------------------------


def _nested(depth: int, leaf: bytes = b"Content-Type: text/plain\r\n\r\ndeep text\r\n") -> bytes:
    part = leaf
    for level in range(depth):
        boundary = b"b%d" % level
        part = (
            b'Content-Type: multipart/mixed; boundary="' + boundary + b'"\r\n\r\n'
            b"--" + boundary + b"\r\n" + part + b"\r\n--" + boundary + b"--\r\n"
        )
    return b"Subject: nested\r\n" + part


def test_nesting_within_the_depth_bound_is_read() -> None:
    parsed = parse_message(_nested(MAX_MIME_DEPTH))
    assert parsed.text == "deep text\n"
    assert parsed.truncated is False


def test_nesting_beyond_the_depth_bound_is_cut() -> None:
    parsed = parse_message(_nested(MAX_MIME_DEPTH + 5))
    assert parsed.text == ""
    assert parsed.truncated is True


def test_max_depth_argument() -> None:
    assert parse_message(_nested(3), max_depth=3).text == "deep text\n"
    cut = parse_message(_nested(3), max_depth=2)
    assert (cut.text, cut.truncated) == ("", True)


def test_part_count_is_bounded() -> None:
    msg = _message()
    for i in range(MAX_MIME_PARTS + 20):
        msg.add_attachment(b"x", maintype="application", subtype="octet-stream", filename=f"{i}.bin")
    parsed = parse_message(msg.as_bytes())
    assert parsed.truncated is True
    assert len(parsed.attachments) < MAX_MIME_PARTS
    assert parsed.text == "Your code is 123456.\n"


def test_input_over_max_bytes_is_cut() -> None:
    raw = _crlf(_message(text="start " + "x" * 5000 + " end\n"))
    parsed = parse_message(raw, max_bytes=1000)
    assert parsed.truncated is True
    assert parsed.text.startswith("start ")
    assert not parsed.text.endswith(" end\n")
    assert parsed.subject == "Your code"
    assert parsed.body_sha256 == parse_message(raw).body_sha256


MEGABYTE = 1_000_000


def _tiny_parts() -> bytes:
    parts = b"--b\r\n\r\nx\r\n" * (MEGABYTE // 10)
    return b'Content-Type: multipart/mixed; boundary="b"\r\n\r\n' + parts + b"--b--\r\n"


def _deep_multipart_with_many_lines() -> bytes:
    return _nested(200, leaf=b"Content-Type: text/plain\r\n\r\n" + b"\n" * 600_000)


def _parameter_bomb(header: bytes) -> bytes:
    field = b'multipart/mixed; boundary="' + b"; " * 200_000
    return header + b": " + field + b"\r\n\r\nbody"


def _part_parameter_bomb() -> bytes:
    bomb = b'Content-Type: text/plain; charset="' + b"; " * 200_000
    return b'Content-Type: multipart/mixed; boundary="b"\r\n\r\n--b\r\n' + bomb + (b"\r\n\r\nhello\r\n--b--\r\n")


def _part_with_many_header_lines() -> bytes:
    fields = b"X: y\r\n" * 150_000
    return b'Content-Type: multipart/mixed; boundary="b"\r\n\r\n--b\r\n' + fields + (b"\r\nhello\r\n--b--\r\n")


def _deep_attached_messages() -> bytes:
    raw = b"Content-Type: text/plain\r\n\r\ninner\r\n"
    for _ in range(5000):
        raw = b"Content-Type: message/rfc822\r\n\r\n" + raw
    return raw


HOSTILE = [
    pytest.param(_tiny_parts, id="tiny-parts"),
    pytest.param(_deep_multipart_with_many_lines, id="deep-nesting-many-lines"),
    pytest.param(lambda: _parameter_bomb(b"Content-Type"), id="content-type-parameters"),
    pytest.param(lambda: _parameter_bomb(b"Content-Disposition"), id="disposition-parameters"),
    pytest.param(_part_parameter_bomb, id="part-content-type-parameters"),
    pytest.param(_part_with_many_header_lines, id="part-header-lines"),
    pytest.param(_deep_attached_messages, id="deep-message-rfc822"),
    pytest.param(lambda: b"Subject: " + b"=?utf-8?q?a?= " * 80_000 + b"\r\n\r\n", id="encoded-words"),
    pytest.param(lambda: b"Subject: x\r\n" + b" (\r\n" * 300_000 + b"\r\n", id="continuations"),
    pytest.param(lambda: b"X: y\r\n" * 200_000 + b"\r\n", id="many-fields"),
    pytest.param(lambda: b"\r\n" + b"\n" * MEGABYTE, id="empty-lines"),
    pytest.param(lambda: b"Content-Type: text/plain; charset=punycode\r\n\r\n" + b"a" * MEGABYTE, id="punycode"),
]


@pytest.mark.timeout(5)
@pytest.mark.parametrize("build", HOSTILE)
def test_hostile_megabyte_parses_in_bounded_time(build: object) -> None:
    assert callable(build)
    raw = build()
    assert isinstance(raw, bytes)
    assert isinstance(parse_message(raw), ParsedMessage)


# --- raw_headers --------------------------------------------------------------------------


def test_raw_headers_unfold_and_keep_raw_values() -> None:
    raw = b"Subject: first\r\n  second\r\n\tthird\r\nTo: =?utf-8?q?J=C3=B6rg?= <j@d.test>\r\n\r\nNot: a header\r\n"
    assert raw_headers(raw) == [
        ("Subject", "first second third"),
        ("To", "=?utf-8?q?J=C3=B6rg?= <j@d.test>"),
    ]


def test_raw_headers_lf_only() -> None:
    raw = b"A: 1\n b\nB:2\n\nC: body\n"
    assert raw_headers(raw) == [("A", "1 b"), ("B", "2")]


def test_raw_headers_skip_invalid_lines_and_their_continuations() -> None:
    raw = (
        b" leading continuation\r\n"
        b"no colon here\r\n"
        b" continuation of garbage\r\n"
        b"Bad Name: x\r\n"
        b": empty name\r\n"
        b"From foo@bar Mon Jan  1 00:00:00 2024\r\n"
        b"Good: yes\r\n"
        b"\r\n"
    )
    assert raw_headers(raw) == [("Good", "yes")]


def test_raw_headers_decode_eight_bit_as_utf8() -> None:
    assert raw_headers(b"A: caf\xc3\xa9\r\nB: caf\xe9\r\n\r\n") == [("A", "café"), ("B", "caf\ufffd")]


def test_raw_headers_without_body() -> None:
    assert raw_headers(b"A: 1\r\nB: 2") == [("A", "1"), ("B", "2")]
    assert raw_headers(b"") == []


def test_raw_headers_field_bound() -> None:
    raw = b"".join(b"X-%d: v\r\n" % i for i in range(10)) + b"\r\n"
    assert [name for name, _ in raw_headers(raw, max_fields=3)] == ["X-0", "X-1", "X-2"]
    many = b"X: v\r\n" * (MAX_HEADER_FIELDS + 5) + b"\r\n"
    assert len(raw_headers(many)) == MAX_HEADER_FIELDS
    assert parse_message(many).truncated is True


def test_raw_headers_byte_bound_never_keeps_a_cut_field() -> None:
    raw = b"A: 1\r\nTo: victim@example.com\r\n .evil\r\nB: 2\r\n\r\n"
    cut_inside_to = raw.index(b" .evil") + 3
    assert raw_headers(raw, max_bytes=cut_inside_to) == [("A", "1")]
    assert raw_headers(raw) == [("A", "1"), ("To", "victim@example.com .evil"), ("B", "2")]
    big = b"X: " + b"v" * MAX_HEADER_BYTES + b"\r\nY: 1\r\n\r\n"
    assert raw_headers(big) == []
    assert parse_message(big).truncated is True


@pytest.mark.timeout(5)
@pytest.mark.parametrize(
    "raw",
    [
        pytest.param(b":" * MEGABYTE, id="colons"),
        pytest.param(b" \r\n" * (MEGABYTE // 3), id="continuations"),
        pytest.param(b"A:" + b"\r\n x" * (MEGABYTE // 4), id="one-long-folded-field"),
        pytest.param(b"\r" * MEGABYTE, id="carriage-returns"),
        pytest.param(b"x" * MEGABYTE, id="one-line"),
    ],
)
def test_raw_headers_linear_on_hostile_input(raw: bytes) -> None:
    assert len(raw_headers(raw, max_bytes=MEGABYTE, max_fields=MEGABYTE)) <= 1


# --- never raises -------------------------------------------------------------------------


def _assert_clean(parsed: ParsedMessage) -> None:
    """Every string can be written as UTF-8 JSON: no surrogates escaped from raw bytes."""
    texts = [parsed.from_header, parsed.subject, parsed.text, parsed.html or ""]
    texts += [h.name + h.value for h in parsed.headers]
    texts += [a.filename or "" for a in parsed.attachments] + [a.content_type for a in parsed.attachments]
    for text in texts:
        text.encode("utf-8")


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=4096))
def test_never_raises_on_arbitrary_bytes(raw: bytes) -> None:
    _assert_clean(parse_message(raw))


def _seed() -> bytes:
    msg = _message(cc="c@d.test", subject="Grüße =?x?", html="<p>hé</p>")
    msg.add_attachment(PDF[:64], maintype="application", subtype="pdf", filename="résumé.pdf")
    inner = _message(subject="inner", text="inner\n")
    msg.add_attachment(inner, filename="f.eml")
    return _crlf(msg)


SEED = _seed()


@st.composite
def mutations(draw: st.DrawFn) -> bytes:
    """SEED with random edits: byte flips, insertions of MIME-significant bytes, cuts."""
    data = bytearray(SEED)
    for _ in range(draw(st.integers(1, 8))):
        at = draw(st.integers(0, len(data)))
        kind = draw(st.sampled_from(["flip", "insert", "delete", "cut"]))
        if kind == "flip" and at < len(data):
            data[at] = draw(st.integers(0, 255))
        elif kind == "insert":
            snippet = draw(
                st.sampled_from(
                    [
                        b"\r\n",
                        b"\r\n\r\n",
                        b"--",
                        b";",
                        b'"',
                        b"=?",
                        b"?=",
                        b"\xff",
                        b"\x00",
                        b"boundary=",
                        b"charset=x-unknown",
                        b"Content-Type: multipart/mixed",
                        b"message/rfc822",
                        b"base64",
                        b"*0*=",
                        b"'",
                        b"%",
                    ]
                )
            )
            data[at:at] = snippet
        elif kind == "delete":
            del data[at : at + draw(st.integers(1, 40))]
        else:
            del data[at:]
    return bytes(data)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(mutations())
def test_never_raises_on_mutated_messages(raw: bytes) -> None:
    _assert_clean(parse_message(raw))


@given(st.binary(max_size=2048))
def test_raw_headers_never_raise(raw: bytes) -> None:
    for name, value in raw_headers(raw):
        assert name and ":" not in name
        assert "\n" not in value


def test_public_names() -> None:
    assert set(parse.__all__) == {
        "MAX_HEADER_BYTES",
        "MAX_HEADER_FIELDS",
        "MAX_MESSAGE_BYTES",
        "MAX_MIME_DEPTH",
        "MAX_MIME_PARTS",
        "AttachmentContent",
        "ParsedBody",
        "attachment_content",
        "mime_view",
        "parse_body",
        "parse_message",
        "parse_with_headers",
        "raw_headers",
    }
