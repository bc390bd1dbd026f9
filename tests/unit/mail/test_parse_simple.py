"""The parse's shortcuts read mail exactly as the long way does: a single text part read without
the stdlib parser, header values with nothing to decode, and one header read serving both the
parse and recipient matching."""

from __future__ import annotations

import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gateway.mail import parse, recipients
from gateway.mail.charsets import clean
from gateway.mail.parse import ParsedBody, parse_message, parse_with_headers, raw_headers

MAX = parse.MAX_MESSAGE_BYTES
DEPTH = parse.MAX_MIME_DEPTH


def _both(raw: bytes, max_bytes: int = MAX) -> tuple[ParsedBody, ParsedBody]:
    fast = parse._parse_body(raw, max_bytes=max_bytes, max_depth=DEPTH, want=None)[0]
    slow = parse._parse_body(raw, max_bytes=max_bytes, max_depth=DEPTH, want=None, simple=False)[0]
    return fast, slow


def _same(fast: ParsedBody, slow: ParsedBody) -> None:
    assert (fast.text, fast.html, fast.attachments, fast.truncated, fast.sha256) == (
        slow.text,
        slow.html,
        slow.attachments,
        slow.truncated,
        slow.sha256,
    )
    assert (fast.structure, fast.body_start, fast.limits) == (slow.structure, slow.body_start, slow.limits)


def _simple(raw: bytes) -> bool:
    """Whether the shortcut reads this message (rather than handing it to the stdlib parser)."""
    header_end, body_start = parse._header_bounds(raw)
    structure = parse._structure_fields(raw, header_end)
    return parse._simple_text(structure, structure + raw[body_start:], body_start=len(structure)) is not None


HEAD = b"From: a@d.test\r\nTo: b@d.test\r\nSubject: hi\r\n"
TAKEN = {
    "no content type": b"",
    "plain": b"Content-Type: text/plain\r\n",
    "plain utf-8": b"Content-Type: text/plain; charset=utf-8\r\n",
    "quoted charset": b'Content-Type: text/plain; charset="ISO-8859-1"\r\n',
    "upper case": b"CONTENT-TYPE: TEXT/PLAIN; CHARSET=UTF-8\r\n",
    "blanks": b"Content-Type:   text/html ;\tcharset = windows-1252 ; format=flowed  \r\n",
    "two charsets": b"Content-Type: text/plain; charset=koi8-r; charset=utf-8\r\n",
    "empty charset": b'Content-Type: text/plain; charset=""\r\n',
    "unknown charset": b"Content-Type: text/plain; charset=x-nonsense\r\n",
    "unreadable type": b"Content-Type: nonsense\r\n",
    "empty type": b"Content-Type:\r\n",
    "two types": b"Content-Type: text/html\r\nContent-Type: multipart/mixed; boundary=b\r\n",
    "html": b"Content-Type: text/html; charset=utf-8\r\nMIME-Version: 1.0\r\n",
    "qp": b"Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n",
    "qp upper": b"Content-Transfer-Encoding: Quoted-Printable\r\nContent-Type: text/html\r\n",
    "base64": b"Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n",
    "8bit": b"Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n",
    "cte with a blank after it": b"Content-Transfer-Encoding: base64 \r\n",
    "empty cte": b"Content-Transfer-Encoding:\r\n",
    "content id": b"Content-Type: text/plain\r\nContent-ID: <x@d.test>\r\n",
}
LEFT = {
    "disposition": b"Content-Type: text/plain\r\nContent-Disposition: inline\r\n",
    "named": b'Content-Type: text/plain; name="a.txt"\r\n',
    "rfc 2231 charset": b"Content-Type: text/plain; charset*=utf-8''x\r\n",
    "quote before the parameters": b'Content-Type: "text/plain"; charset=utf-8\r\n',
    "angle charset": b"Content-Type: text/plain; charset=<utf-8>\r\n",
    "trailing semicolon": b"Content-Type: text/plain; charset=utf-8;\r\n",
    "folded": b"Content-Type: text/plain;\r\n charset=utf-8\r\n",
    "8-bit structure": b"Content-Type: text/plain; charset=\xe9\r\n",
    "multipart": b"Content-Type: multipart/mixed; boundary=b\r\n",
    "message": b"Content-Type: message/rfc822\r\n",
    "application": b"Content-Type: application/pdf\r\n",
    "uuencode": b"Content-Type: text/plain\r\nContent-Transfer-Encoding: x-uuencode\r\n",
}
BODIES = [
    b"Hello, your code is 123456.\r\n",
    b"",
    b"no final line break",
    b"caf\xc3\xa9 =C3=A9 =\r\nsoft break\r\n\xff\xfe bad bytes\n\rlone\rbreaks\r\n",
    b"SGVsbG8sIHlvdXIgY29kZSBpcyAxMjM0NTYu\r\n",  # base64 of a line of text
    b"SGVsbG8\r\nsIHlvdXI=\r\n",  # base64 without its padding where the stdlib expects it
    b"not base64 at all !!!\r\n",
]


@pytest.mark.parametrize("fields", list(TAKEN.values()), ids=list(TAKEN))
@pytest.mark.parametrize("body", BODIES)
def test_a_single_text_part_reads_as_the_parser_reads_it(fields: bytes, body: bytes) -> None:
    raw = HEAD + fields + b"\r\n" + body
    fast, slow = _both(raw)
    _same(fast, slow)


@pytest.mark.parametrize("fields", list(TAKEN.values())[:4], ids=list(TAKEN)[:4])
def test_the_shortcut_is_taken_for_plain_text(fields: bytes) -> None:
    assert _simple(HEAD + fields + b"\r\nHello\r\n")


@pytest.mark.parametrize("fields", list(LEFT.values()), ids=list(LEFT))
def test_anything_less_certain_is_left_to_the_parser(fields: bytes) -> None:
    raw = HEAD + fields + b"\r\n--b\r\nHello\r\n--b--\r\n"
    assert not _simple(raw)
    _same(*_both(raw))


def test_base64_the_stdlib_reads_leniently_is_left_to_it() -> None:
    raw = HEAD + b"Content-Transfer-Encoding: base64\r\n\r\nnot base64 at all !!!\r\n"
    assert not _simple(raw)
    _same(*_both(raw))


def test_a_body_over_the_parse_budget_is_left_to_the_parser() -> None:
    # Every line checks every "boundary" word before it: the budget cuts this input.
    raw = HEAD + b"Content-Type: text/plain\r\n\r\n" + b"boundary\n" * 2000
    assert not _simple(raw)
    fast, slow = _both(raw)
    _same(fast, slow)
    assert slow.truncated


def test_a_message_cut_at_max_bytes_is_left_to_the_parser() -> None:
    raw = HEAD + b"Content-Type: text/plain\r\n\r\n" + b"x" * 5000
    fast, slow = _both(raw, max_bytes=1000)
    _same(fast, slow)
    assert fast.truncated


_VALUE_CHARS = string.ascii_letters + string.digits + " \t;=\"'<>/\\*-_.,:()"
_field_names = st.sampled_from(
    [b"Content-Type", b"content-type", b"CONTENT-TYPE", b"Content-Transfer-Encoding", b"MIME-Version", b"Content-ID"]
)
_types = st.sampled_from(["text/plain", "TEXT/HTML", "text/html", "image/png", "nonsense", "", "multipart/x"])
_params = st.lists(
    st.tuples(
        st.sampled_from(["charset", "Charset", "format", "name", "charset*", "x"]),
        st.sampled_from(["utf-8", '"utf-8"', '"ISO-8859-2"', "koi8-r", '""', "<utf-8>", "a=b", "x y", "gb2312"]),
        st.sampled_from(["", " ", "\t", "  "]),
    ),
    max_size=3,
)
_encodings = st.sampled_from(["", "7bit", "8bit", "base64", "BASE64", "quoted-printable", "x-uuencode", "base64 "])


@st.composite
def _structure(draw: st.DrawFn) -> bytes:
    lines = []
    for _ in range(draw(st.integers(0, 3))):
        name = draw(_field_names)
        if name.lower() == b"content-type":
            value = draw(_types) + "".join(f";{blank}{k}{blank}={v}" for k, v, blank in draw(_params))
            value += draw(st.sampled_from(["", " ", ";", "\t"]))
        elif name.lower() == b"content-transfer-encoding":
            value = draw(_encodings)
        else:
            value = draw(st.text(_VALUE_CHARS, max_size=20))
        lines.append(name + b":" + draw(st.sampled_from([b"", b" ", b"\t "])) + value.encode())
    return b"".join(line + b"\r\n" for line in lines)


_bodies = st.one_of(
    st.binary(max_size=200),
    st.lists(
        st.sampled_from([b"abc", b"=3D", b"=\r\n", b"\r\n", b"\n", b"\r", b"\xc3\xa9", b"SGVsbG8=", b"==", b" "])
    ).map(b"".join),
)


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(structure=_structure(), body=_bodies)
def test_any_structure_and_body_read_alike(structure: bytes, body: bytes) -> None:
    _same(*_both(HEAD + structure + b"\r\n" + body))


@settings(max_examples=300)
@given(value=st.text(max_size=40) | st.text(string.printable, max_size=40))
def test_a_header_value_displays_as_the_long_way_shows_it(value: str) -> None:
    long_way = clean(parse._decode_words(value)).translate(parse._CONTROLS).strip()
    assert parse._display_text(value) == long_way


@settings(max_examples=300)
@given(text=st.text(max_size=30))
def test_ascii_lowering_lowers_only_a_to_z(text: str) -> None:
    assert recipients._ascii_lower(text) == text.translate(recipients._ASCII_LOWER)


_header_lines = st.lists(
    st.sampled_from(
        [
            b"From: Shop <shop@d.test>",
            b"To: a@d.test, B@D.test",
            b"Delivered-To: c@d.test",
            b"Subject : spaced",
            b"\xef\xbb\xbfSubject: after a BOM",
            b" continued",
            b"\tcontinued",
            b">From nobody",
            b"no colon here",
            b"Cc:",
            b"X-8bit: caf\xc3\xa9 \xff",
            b"Na me: spaced name",
        ]
    ),
    max_size=12,
)


@settings(max_examples=300)
@given(lines=_header_lines, newline=st.sampled_from([b"\r\n", b"\n"]))
def test_one_header_read_serves_the_parse_and_recipient_matching(lines: list[bytes], newline: bytes) -> None:
    raw = newline.join(lines) + newline + newline + b"body" + newline
    parsed, fields = parse_with_headers(raw)
    assert parsed == parse_message(raw)
    assert fields == raw_headers(raw)
