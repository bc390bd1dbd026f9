"""Hostile and broken mail: each case builds its bytes and states what must hold.

Small cases are written out here; large ones (up to the red team's 1.2 MiB message) are
generated when asked, so no multi-megabyte file is committed. Every case, parsed by
`gateway.mail.parse.parse_message`, must return within a bounded time and never raise;
`truncated` says whether a bound must have cut it (None: either is right). Through SMTP each
is indexed with what can be read, or refused at SMTP time with a 5xx code (`smtp_refused`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["CASES", "Case", "red_team"]

CRLF = b"\r\n"


@dataclass(frozen=True)
class Case:
    """One hostile message and what must hold for it."""

    name: str
    must: str
    """What must hold, in words (the tests check the fields below)."""
    build: Callable[[], bytes]
    truncated: bool | None
    """True: a bound must cut it; False: it must be read whole; None: either."""
    text_contains: str | None = None
    """Text the first text/plain part must still contain (what can be read is read)."""
    subject: str | None = None
    """The Subject that must be read; None when the Subject itself is garbage."""
    smtp_refused: bool = False
    """The embedded SMTP intake refuses it (5xx) instead of indexing it."""


def _top(name: str, *fields: bytes) -> bytes:
    """Ordinary top-level fields with a Subject naming the case, then `fields`."""
    return (
        b"From: Red Team <red@attacker.test>" + CRLF + b"Subject: malformed " + name.encode() + CRLF
        + b"Message-ID: <" + name.encode() + b"@attacker.test>" + CRLF + b"MIME-Version: 1.0" + CRLF
        + b"".join(f + CRLF for f in fields)
    )  # fmt: skip


def _multipart(name: str, boundary: bytes, body: bytes, *fields: bytes) -> bytes:
    return _top(name, *fields, b'Content-Type: multipart/mixed; boundary="' + boundary + b'"') + CRLF + body


def _part(text: bytes, content_type: bytes = b"text/plain; charset=utf-8") -> bytes:
    return b"Content-Type: " + content_type + CRLF + CRLF + text + CRLF


def red_team(header_lines: int = 20_000, parts: int = 9_900) -> bytes:
    """The red team's message: 20,000 top-level header lines and 9,900 tiny parts (1.2 MiB).

    The stdlib parser looked up the top-level Content-Type for every part, scanning every
    header line each time: ten seconds per copy.
    """
    filler = b"".join(b"X-Filler-%05d: %s" % (i, b"v" * 40) + CRLF for i in range(header_lines))
    body = b"".join(b"--rt" + CRLF + _part(b"part %d" % i) for i in range(parts)) + b"--rt--" + CRLF
    return _multipart("red-team", b"rt", body, filler.removesuffix(CRLF))


def _nested(name: str, depth: int, leaf: bytes) -> bytes:
    part = leaf
    for level in range(depth, 0, -1):
        boundary = b"n%d" % level
        part = (
            b'Content-Type: multipart/mixed; boundary="' + boundary + b'"' + CRLF + CRLF
            + b"--" + boundary + CRLF + part + CRLF + b"--" + boundary + b"--" + CRLF
        )  # fmt: skip
    return _top(name) + part


def _many_parts(count: int) -> bytes:
    body = _part(b"first part") + b"".join(b"--m" + CRLF + _part(b"p%d" % i) for i in range(count))
    return _multipart("parts-10000", b"m", b"--m" + CRLF + body + b"--m--" + CRLF)


def _deep_lines() -> bytes:
    """100-deep nesting around 200,000 lines: every line is checked against every boundary."""
    return _nested("nested-lines", 100, _part(b"deep\r\n" * 200_000))


def _deep_messages() -> bytes:
    inner = _part(b"innermost")
    for _ in range(3_000):
        inner = b"Content-Type: message/rfc822" + CRLF + CRLF + inner
    return _top("deep-rfc822") + inner


CASES: list[Case] = [
    Case(
        "bad-boundary",
        "delimiters that match no declared boundary: one unreadable multipart, subject still read",
        lambda: _multipart("bad-boundary", b"declared", b"--other" + CRLF + _part(b"hidden") + b"--other--" + CRLF),
        truncated=None,
        subject="malformed bad-boundary",
    ),
    Case(
        "no-boundary-parameter",
        "multipart without a boundary parameter: parsed as one opaque part",
        lambda: _top("no-boundary-parameter", b"Content-Type: multipart/mixed") + CRLF + b"--x" + CRLF + b"body",
        truncated=None,
        subject="malformed no-boundary-parameter",
    ),
    Case(
        "missing-terminator",
        "no closing delimiter: the parts before the end are still read",
        lambda: _multipart("missing-terminator", b"t", b"--t" + CRLF + _part(b"readable text") + b"--t" + CRLF),
        truncated=None,
        text_contains="readable text",
        subject="malformed missing-terminator",
    ),
    Case(
        "nested-100",
        "100-deep nesting: read to the depth bound, the rest cut",
        lambda: _nested("nested-100", 100, _part(b"too deep")),
        truncated=True,
        subject="malformed nested-100",
    ),
    Case(
        "nested-lines",
        "100-deep nesting around 200,000 lines: the parse is cut where its cost bound says",
        _deep_lines,
        truncated=True,
        subject="malformed nested-lines",
    ),
    Case(
        "deep-rfc822",
        "3,000 message/rfc822 parts inside each other: bounded, never a recursion error",
        _deep_messages,
        truncated=None,
        subject="malformed deep-rfc822",
    ),
    Case(
        "parts-10000",
        "10,000 parts: the first ones read (the first text part is the text), the rest cut",
        lambda: _many_parts(10_000),
        truncated=True,
        text_contains="first part",
        subject="malformed parts-10000",
    ),
    Case(
        "header-1mb-folded",
        "a 1 MB header field folded over lines: cut at the header bound, body read",
        lambda: (
            _top("header-1mb-folded", b"X-Big: " + (b"a" * 1000 + CRLF + b" ") * 1000 + b"end")
            + CRLF
            + b"body after a big header"
        ),
        truncated=True,
        text_contains="body after a big header",
        subject="malformed header-1mb-folded",
    ),
    Case(
        "header-1mb-line",
        "one 1 MB header line: longer than any SMTP line may be, refused at SMTP time",
        lambda: _top("header-1mb-line", b"X-Big: " + b"a" * 1_000_000) + CRLF + b"body",
        truncated=True,
        subject="malformed header-1mb-line",
        smtp_refused=True,
    ),
    Case(
        "header-lines-20000",
        "20,000 header fields: the first 1,000 read, body read",
        lambda: _top("header-lines-20000", *(b"X-H: %d" % i for i in range(20_000))) + CRLF + b"body of many fields",
        truncated=True,
        text_contains="body of many fields",
        subject="malformed header-lines-20000",
    ),
    Case(
        "red-team",
        "20,000 header lines and 9,900 tiny parts: bounded (was 10 s), first parts read",
        red_team,
        truncated=True,
        text_contains="part 0",
        subject="malformed red-team",
    ),
    Case(
        "eight-bit-garbage",
        "undeclared 8-bit bytes in headers and body: replacement characters, no error",
        lambda: _top("eight-bit-garbage", b"X-Garbage: \xff\xfe\x80\x81") + CRLF + b"text \xff\xc3\x28 tail",
        truncated=False,
        text_contains="tail",
        subject="malformed eight-bit-garbage",
    ),
    Case(
        "invalid-charsets",
        "unknown and dangerous charsets (punycode, base64 as a charset): read as UTF-8",
        lambda: _multipart(
            "invalid-charsets",
            b"c",
            b"--c"
            + CRLF
            + _part(b"caf\xc3\xa9 plain", b"text/plain; charset=x-no-such-charset")
            + b"--c"
            + CRLF
            + _part(b"aaaa", b"text/html; charset=punycode")
            + b"--c"
            + CRLF
            + _part(b"x", b"text/plain; charset=base64")
            + b"--c--"
            + CRLF,
        ),
        truncated=False,
        text_contains="café plain",
        subject="malformed invalid-charsets",
    ),
    Case(
        "base64-junk",
        "base64 with junk characters and bad padding: decoded as far as it goes",
        lambda: (
            _top("base64-junk", b"Content-Type: text/plain", b"Content-Transfer-Encoding: base64")
            + CRLF
            + b"aGVsbG8g!!d29y#bGQ=\x00===*\r\n%%%\r\nAAA"
        ),
        truncated=False,
        subject="malformed base64-junk",
    ),
    Case(
        "encoded-word-bomb",
        "80,000 RFC 2047 words in one folded Subject (1.3 MB): cut at the header bound, linear time",
        lambda: (
            b"Subject: malformed encoded-word-bomb "
            + (b"=?utf-8?q?a?= =?utf-8?b?YQ==?=" + CRLF + b" ") * 40_000
            + CRLF
            + b"X-After: 1"
            + CRLF
            + CRLF
            + b"body"
        ),
        truncated=True,
    ),
    Case(
        "broken-header-block",
        "a byte-order mark before the first field and lines that are no field before the Content-Type: "
        "the fields after them read (the structure too), the body after the first empty line",
        lambda: (
            b"\xef\xbb\xbf"
            + _multipart(
                "broken-header-block",
                b"h",
                b"--h"
                + CRLF
                + _part(b"the real body")
                + b"--h"
                + CRLF
                + _part(b"<p>html</p>", b"text/html")
                + b"--h--"
                + CRLF,
                b"this is not a header",
                b">From red@attacker.test Mon Jan  1 00:00:00 2024",
            )
        ),
        truncated=False,
        text_contains="the real body",
        subject="malformed broken-header-block",
    ),
    Case(
        "nul-bytes",
        "NUL bytes in the Subject, the From and the body: kept out of the index's text",
        lambda: (
            b"From: a\x00b <nul@attacker.test>"
            + CRLF
            + b"Subject: malformed nul-bytes \x00 here"
            + CRLF
            + CRLF
            + b"body\x00with\x00nul"
        ),
        truncated=False,
        text_contains="with",
        subject="malformed nul-bytes  here",  # the NUL dropped from display text
    ),
]
