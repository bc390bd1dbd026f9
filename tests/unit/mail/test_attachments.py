"""Attachments in the pure core: safe names, served types, the download header, text, and the
parse's ids, hashes and bytes (the listing and `attachment_content` always agree)."""

from __future__ import annotations

import base64
import hashlib
import re
from email.message import EmailMessage
from urllib.parse import quote, unquote

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gateway.mail import attachments
from gateway.mail.attachments import (
    MAX_FILENAME_CHARS,
    attachment_text,
    content_disposition,
    fallback_filename,
    is_text_like,
    message_filename,
    safe_filename,
    served_type,
)
from gateway.mail.parse import attachment_content, parse_message

BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f"


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# --- safe_filename ------------------------------------------------------------------------

NAMES = [
    ("report.pdf", "report.pdf"),
    ("../../etc/passwd", "passwd"),
    ("..\\..\\boot.ini", "boot.ini"),
    ("C:\\Users\\me\\evil.exe", "evil.exe"),
    ("dir/", None),
    ("bad\x00name.txt", "badname.txt"),
    ("line\r\nbreak.txt", "line  break.txt"),
    ("tab\there.txt", "tab here.txt"),
    ("invoice\u202efdp.exe", "invoicefdp.exe"),
    ("a\u2066b\u2069c\u200e\u200f.txt", "abc.txt"),
    ("zero\u200bwidth\ufeff.txt", "zerowidth.txt"),
    (".bashrc", "bashrc"),
    ("...hidden", "hidden"),
    (". .hidden", "hidden"),
    ("..", None),
    (".", None),
    ("", None),
    (None, None),
    ("   ", None),
    ("trailing. . ", "trailing"),
    ("請求書 2026年.pdf", "請求書 2026年.pdf"),
    ("Résumé final.docx", "Résumé final.docx"),
    ("\x7f\x85\x9f", None),
]


@pytest.mark.parametrize(("name", "expected"), NAMES)
def test_safe_filename(name: str | None, expected: str | None) -> None:
    assert safe_filename(name) == expected


def test_long_names_are_cut_keeping_the_extension() -> None:
    assert safe_filename("a" * 296 + ".pdf") == "a" * 196 + ".pdf"
    assert safe_filename("b" * 300) == "b" * MAX_FILENAME_CHARS
    # An "extension" longer than 16 characters is part of the name.
    assert safe_filename("c" * 250 + "." + "d" * 30) == ("c" * 250 + "." + "d" * 30)[:MAX_FILENAME_CHARS]
    assert safe_filename("名" * 300 + ".csv") == "名" * 196 + ".csv"


UNSAFE = re.compile("[/\\\\\x00-\x1f\x7f-\x9f" + BIDI + "]")


@given(st.text(max_size=400) | st.text(st.sampled_from(["/", "\\", ".", " ", "\x00", "a", "\u202e", "é"]), max_size=40))
def test_safe_filename_properties(name: str) -> None:
    safe = safe_filename(name)
    if safe is None:
        return
    assert not UNSAFE.search(safe), safe
    assert safe not in ("", ".", "..")
    assert not safe.startswith((".", " ")) and not safe.endswith((".", " "))
    assert len(safe) <= MAX_FILENAME_CHARS
    assert safe_filename(safe) == safe  # idempotent: a name made safe stays itself


# --- names of attached and unnamed parts ----------------------------------------------------


def test_message_filename() -> None:
    assert message_filename("fwd.eml", "") == "fwd.eml"
    assert message_filename("fwd.EML", "") == "fwd.EML"
    assert message_filename("note", "ignored") == "note.eml"
    assert message_filename(None, "Re: part 1/2") == "Re: part 1_2.eml"
    assert message_filename(None, "") == "message.eml"
    assert message_filename("../..", "\u202e") == "message.eml"
    long = message_filename(None, "s" * 500)
    assert long.endswith(".eml") and len(long) <= MAX_FILENAME_CHARS


def test_fallback_filename() -> None:
    assert fallback_filename("2.1", "image/png") == "attachment-2.1.png"
    assert fallback_filename("3", "text/html") == "attachment-3.bin"
    assert fallback_filename("4", "message/rfc822") == "attachment-4.eml"
    assert fallback_filename("5", "application/x-whatever") == "attachment-5.bin"


# --- served_type -------------------------------------------------------------------------

SERVED = [
    ("image/png", "image/png"),
    ("image/jpeg", "image/jpeg"),
    ("image/gif", "image/gif"),
    ("image/webp", "image/webp"),
    ("text/plain", "text/plain"),
    ("text/plain; charset=utf-8", "text/plain"),
    ("TEXT/CSV", "text/csv"),
    ("application/json", "application/json"),
    ("text/calendar", "text/calendar"),
    ("application/zip", "application/zip"),
    ("application/octet-stream", "application/octet-stream"),
    # Everything a browser renders or runs, and everything unknown or malformed:
    ("text/html", "application/octet-stream"),
    ("application/xhtml+xml", "application/octet-stream"),
    ("image/svg+xml", "application/octet-stream"),
    ("text/xml", "application/octet-stream"),
    ("application/xml", "application/octet-stream"),
    ("application/rss+xml", "application/octet-stream"),
    ("text/javascript", "application/octet-stream"),
    ("application/javascript", "application/octet-stream"),
    ("application/ecmascript", "application/octet-stream"),
    ("application/pdf", "application/octet-stream"),
    ("text/xsl", "application/octet-stream"),
    ("multipart/mixed", "application/octet-stream"),
    ("message/rfc822", "application/octet-stream"),
    ("message/global", "application/octet-stream"),
    ("application/x-shockwave-flash", "application/octet-stream"),
    ("text/vtt", "application/octet-stream"),
    ("application/vnd.ms-excel", "application/octet-stream"),
    ("", "application/octet-stream"),
    ("image/png\r\nX-Evil: 1", "application/octet-stream"),
    ("image", "application/octet-stream"),
    ("image/png/x", "application/octet-stream"),
    ("ïmage/png", "application/octet-stream"),
]


@pytest.mark.parametrize(("declared", "served"), SERVED)
def test_served_type(declared: str, served: str) -> None:
    assert served_type(declared) == served


@given(st.text(max_size=300))
def test_served_type_is_always_inert(declared: str) -> None:
    served = served_type(declared)
    assert served in attachments.INERT_TYPES


# --- content_disposition ------------------------------------------------------------------

DISPOSITIONS = [
    ("report.pdf", "attachment; filename=\"report.pdf\"; filename*=UTF-8''report.pdf"),
    ("Résumé.pdf", "attachment; filename=\"Resume.pdf\"; filename*=UTF-8''R%C3%A9sum%C3%A9.pdf"),
    ("請求書.pdf", "attachment; filename=\"___.pdf\"; filename*=UTF-8''%E8%AB%8B%E6%B1%82%E6%9B%B8.pdf"),
    ('say "hi".txt', "attachment; filename=\"say _hi_.txt\"; filename*=UTF-8''say%20%22hi%22.txt"),
    ("100%.txt", "attachment; filename=\"100_.txt\"; filename*=UTF-8''100%25.txt"),
    ("a;b,c.txt", "attachment; filename=\"a;b,c.txt\"; filename*=UTF-8''a%3Bb%2Cc.txt"),
    (
        "x\r\nSet-Cookie: a=b",
        "attachment; filename=\"x  Set-Cookie: a=b\"; filename*=UTF-8''x%20%20Set-Cookie%3A%20a%3Db",
    ),
    ("../../etc/passwd", "attachment; filename=\"passwd\"; filename*=UTF-8''passwd"),
    # Fullwidth full stops and solidi are no path, and NFKD must not make them one in the fallback.
    (
        "x\uff0e\uff0e\uff0f\uff0ebashrc",
        "attachment; filename=\"x.._.bashrc\"; filename*=UTF-8''x%EF%BC%8E%EF%BC%8E%EF%BC%8F%EF%BC%8Ebashrc",
    ),
    ("..\uff0e\uff0fetc", "attachment; filename=\"_etc\"; filename*=UTF-8''%EF%BC%8E%EF%BC%8Fetc"),
    ("", "attachment; filename=\"attachment\"; filename*=UTF-8''attachment"),
]


@pytest.mark.parametrize(("name", "header"), DISPOSITIONS)
def test_content_disposition(name: str, header: str) -> None:
    assert content_disposition(name) == header


_HEADER = re.compile(r"attachment; filename=\"([ !#-\[\]-~]*)\"; filename\*=UTF-8''([A-Za-z0-9!#$&+\-.^_`|~%]*)")


@given(st.text(max_size=300))
def test_content_disposition_is_always_one_well_formed_header(name: str) -> None:
    header = content_disposition(name)
    assert "\r" not in header and "\n" not in header
    match = _HEADER.fullmatch(header)
    assert match is not None, header  # no unescaped quote or backslash in the quoted name
    assert unquote(match[2]) == (safe_filename(name) or "attachment")
    assert "/" not in match[1] and not match[1].startswith(".")
    header.encode("latin-1")  # fits an HTTP header


# --- is_text_like and attachment_text -------------------------------------------------------

TEXT_LIKE = [
    ("text/plain", None, True),
    ("text/csv", None, True),
    ("text/calendar", None, True),
    ("text/html", None, True),
    ("application/json", None, True),
    ("application/vnd.api+json", None, True),
    ("application/xml", None, True),
    ("image/svg+xml", None, True),
    ("application/octet-stream", "data.csv", True),
    ("application/vnd.ms-excel", "export.CSV", True),
    ("application/octet-stream", "invite.ics", True),
    ("application/octet-stream", "blob.bin", False),
    ("application/octet-stream", None, False),
    ("application/pdf", "looks.txt", False),
    ("image/png", None, False),
    ("message/rfc822", "fwd.eml", False),
]


@pytest.mark.parametrize(("content_type", "filename", "expected"), TEXT_LIKE)
def test_is_text_like(content_type: str, filename: str | None, expected: bool) -> None:
    assert is_text_like(content_type, filename) is expected


def test_attachment_text_decodes_with_charset_bom_and_cap() -> None:
    assert attachment_text("Café\r\nnext".encode("latin-1"), "iso-8859-1", 100) == ("Café\nnext", False)
    assert attachment_text("Café".encode(), None, 100) == ("Café", False)
    assert attachment_text(b"\xef\xbb\xbfwith bom", "iso-8859-1", 100) == ("with bom", False)
    assert attachment_text("\ufeffutf16".encode("utf-16-le"), None, 100) == ("utf16", False)
    assert attachment_text("日本語".encode("shift_jis"), "Shift_JIS", 100) == ("日本語", False)
    assert attachment_text(b"\xff\xfe\xfd", "no-such-charset", 100)[0].count("\ufffd") >= 1
    assert attachment_text(b"abcdef", None, 3) == ("abc", True)
    assert attachment_text(b"abc", None, 3) == ("abc", False)
    text, truncated = attachment_text(b"x" * 10_000_000, None, 5)
    assert (text, truncated) == ("xxxxx", True)


@given(st.binary(max_size=2000), st.sampled_from([None, "utf-8", "latin-1", "utf-16", "gb18030", "bogus"]))
def test_attachment_text_never_raises_and_respects_the_cap(data: bytes, charset: str | None) -> None:
    text, _ = attachment_text(data, charset, 50)
    assert len(text) <= 50
    text.encode("utf-8")  # no lone surrogates: JSON can carry it


# --- the parse: ids, disposition, Content-ID, SHA-256 ---------------------------------------


def test_ids_follow_imap_section_numbers() -> None:
    inner = EmailMessage()
    inner["Subject"] = "Inner"
    inner.set_content("inner\n")
    inner.add_attachment(b"inner file", maintype="application", subtype="octet-stream", filename="in.bin")
    msg = EmailMessage()
    msg["Subject"] = "outer"
    msg.set_content("text\n")
    msg.add_alternative("<p>html</p>", subtype="html")
    html = msg.get_body(("html",))
    assert isinstance(html, EmailMessage)
    html.add_related(b"\x89PNGlogo", maintype="image", subtype="png", cid="<logo@x>")
    msg.add_attachment(b"%PDF", maintype="application", subtype="pdf", filename="a.pdf")
    msg.add_attachment(inner)
    parsed = parse_message(msg.as_bytes())
    # mixed[ alternative[ text 1.1, related[ html 1.2.1, png 1.2.2 ] ], pdf 2, message 3 ]
    assert [(a.attachment_id, a.content_type, a.filename) for a in parsed.attachments] == [
        ("1.2.2", "image/png", None),
        ("2", "application/pdf", "a.pdf"),
        ("3", "message/rfc822", "Inner.eml"),
    ]
    logo, pdf, _ = parsed.attachments
    assert (logo.disposition, logo.content_id, logo.sha256) == ("inline", "logo@x", sha(b"\x89PNGlogo"))
    assert (pdf.disposition, pdf.content_id, pdf.sha256) == ("attachment", None, sha(b"%PDF"))


def test_a_single_part_message_is_part_1() -> None:
    raw = (
        b"Subject: x\r\nContent-Type: application/pdf; name=doc.pdf\r\nContent-Transfer-Encoding: base64\r\n\r\n"
        + base64.b64encode(b"%PDF-1.7 whole")
        + b"\r\n"
    )
    (attachment,) = parse_message(raw).attachments
    assert (attachment.attachment_id, attachment.filename, attachment.disposition) == ("1", "doc.pdf", None)
    found = attachment_content(raw, "1")
    assert found is not None and found.data == b"%PDF-1.7 whole" and found.attachment == attachment


def test_inline_forwarded_message_parts_are_numbered_under_it() -> None:
    raw = (
        b'Subject: fwd\r\nContent-Type: multipart/mixed; boundary="o"\r\n\r\n'
        b"--o\r\nContent-Type: text/plain\r\n\r\nouter\r\n"
        b"--o\r\nContent-Type: message/rfc822\r\n\r\n"
        b'Subject: inner\r\nContent-Type: multipart/mixed; boundary="i"\r\n\r\n'
        b"--i\r\nContent-Type: text/plain\r\n\r\ninner\r\n"
        b'--i\r\nContent-Type: image/gif; name="a.gif"\r\n\r\nGIF89a\r\n'
        b"--i--\r\n"
        b"--o--\r\n"
    )
    parsed = parse_message(raw)
    assert [(a.attachment_id, a.filename) for a in parsed.attachments] == [("2.2", "a.gif")]
    found = attachment_content(raw, "2.2")
    assert found is not None and found.data == b"GIF89a"


def test_attached_message_downloads_as_its_own_bytes() -> None:
    embedded = (
        b"From: a@b.test\r\nSubject: =?utf-8?q?Caf=C3=A9?=\r\nX-Long: "
        + b"folded\r\n  header " * 3
        + b"\r\nContent-Type: text/plain\r\n\r\nbody line\r\n\r\n"
    )
    raw = (
        b'Subject: outer\r\nContent-Type: multipart/mixed; boundary="b"\r\n\r\npreamble\r\n'
        b"--b\r\nContent-Type: text/plain\r\n\r\ntext\r\n"
        b"--b\r\nContent-Type: message/rfc822\r\nContent-Disposition: attachment\r\n\r\n"
        + embedded
        + b"\r\n--b--\r\nepilogue\r\n"
    )
    (attachment,) = parse_message(raw).attachments
    assert attachment.filename == "Café.eml"
    assert (attachment.size, attachment.sha256) == (len(embedded), sha(embedded))
    found = attachment_content(raw, attachment.attachment_id)
    assert found is not None and found.data == embedded  # never refolded or regenerated


def test_message_global_in_base64_is_served_decoded() -> None:
    embedded = "From: a@b.test\r\nSubject: 日本\r\n\r\nbody\r\n".encode()
    raw = (
        b'Content-Type: multipart/mixed; boundary="b"\r\n\r\n'
        b"--b\r\nContent-Type: message/global\r\nContent-Transfer-Encoding: base64\r\n"
        b"Content-Disposition: attachment\r\n\r\n" + base64.encodebytes(embedded) + b"--b--\r\n"
    )
    (attachment,) = parse_message(raw).attachments
    found = attachment_content(raw, attachment.attachment_id)
    assert found is not None and found.data == embedded and attachment.sha256 == sha(embedded)


def test_delivery_report_downloads_as_its_body() -> None:
    report = b"Reporting-MTA: dns; mx.test\r\n\r\nFinal-Recipient: rfc822; a@d.test\r\n"
    raw = (
        b'Content-Type: multipart/report; report-type=delivery-status; boundary="b"\r\n\r\n'
        b"--b\r\nContent-Type: text/plain\r\n\r\nYour mail bounced.\r\n"
        b"--b\r\nContent-Type: message/delivery-status\r\n\r\n" + report + b"\r\n--b--\r\n"
    )
    (attachment,) = parse_message(raw).attachments
    assert (attachment.attachment_id, attachment.filename) == ("2", None)
    found = attachment_content(raw, "2")
    assert found is not None and found.data == report


def test_lf_only_and_no_closing_delimiter() -> None:
    embedded = b"Subject: s\n\nhi\n"
    raw = (
        b'Content-Type: multipart/mixed; boundary="b"\n\n'
        b"--b\nContent-Type: text/plain\n\nt\n"
        b"--b  \nContent-Type: message/rfc822; name=x.eml\n\n" + embedded
    )
    (attachment,) = parse_message(raw).attachments
    found = attachment_content(raw, attachment.attachment_id)
    assert found is not None and found.data == embedded and attachment.filename == "x.eml"


def test_unknown_disposition_counts_as_attachment_and_content_ids_are_cleaned() -> None:
    raw = (
        b'Content-Type: multipart/mixed; boundary="b"\r\n\r\n'
        b"--b\r\nContent-Type: image/png\r\nContent-Disposition: weird; filename=a.png\r\n"
        b"Content-ID: bare-id@host\r\n\r\npng\r\n"
        b"--b\r\nContent-Type: image/png\r\nContent-Disposition: inline\r\nContent-ID: <<bad>\r\n\r\npng\r\n"
        b"--b--\r\n"
    )
    first, second = parse_message(raw).attachments
    assert (first.disposition, first.content_id) == ("attachment", "bare-id@host")
    assert (second.disposition, second.content_id) == ("inline", "bad")


def test_attachment_content_refuses_ids_it_does_not_list() -> None:
    msg = EmailMessage()
    msg.set_content("text\n")
    msg.add_attachment(b"x", maintype="application", subtype="octet-stream", filename="x.bin")
    raw = msg.as_bytes()
    assert attachment_content(raw, "2") is not None
    for unknown in ("1", "3", "0", "", "2.", ".2", "02", "2.1", "a", "1" * 100, "2" + ".1" * 40):
        assert attachment_content(raw, unknown) is None


# --- agreement between the listing and the download ------------------------------------------

_PARTS = st.lists(
    st.tuples(
        st.sampled_from(["application/pdf", "image/png", "text/csv", "text/plain", "message/rfc822"]),
        st.binary(max_size=300),
        st.booleans(),  # nested one level deeper
    ),
    min_size=1,
    max_size=6,
)


def _build(parts: list[tuple[str, bytes, bool]]) -> bytes:
    msg = EmailMessage()
    msg["Subject"] = "generated"
    msg.set_content("body\n")
    msg.make_mixed()
    for index, (content_type, data, nested) in enumerate(parts):
        holder = msg
        if nested:  # inside a multipart/mixed of its own: ids such as "3.1"
            holder = EmailMessage()
            holder.make_mixed()
            msg.attach(holder)
        if content_type == "message/rfc822":
            inner = EmailMessage()
            inner["Subject"] = f"inner {index}"
            inner.set_content(data.decode("latin-1"))
            holder.add_attachment(inner)
        else:
            maintype, subtype = content_type.split("/")
            holder.add_attachment(data, maintype=maintype, subtype=subtype, filename=f"f{index}.{subtype}")
    return msg.as_bytes()


@settings(max_examples=60, deadline=None)
@given(_PARTS, st.booleans())
def test_every_listed_attachment_downloads_with_its_listed_hash(
    parts: list[tuple[str, bytes, bool]], crlf: bool
) -> None:
    raw = _build(parts)
    if crlf:
        raw = raw.replace(b"\n", b"\r\n")
    parsed = parse_message(raw)
    ids = [a.attachment_id for a in parsed.attachments]
    assert len(ids) == len(set(ids))
    for attachment in parsed.attachments:
        found = attachment_content(raw, attachment.attachment_id)
        assert found is not None
        assert found.attachment == attachment
        assert sha(found.data) == attachment.sha256 and len(found.data) == attachment.size


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=3000), st.sampled_from(["1", "2", "2.1", "3"]))
def test_attachment_content_never_raises(raw: bytes, attachment_id: str) -> None:
    prefix = b'Content-Type: multipart/mixed; boundary="b"\r\n\r\n--b\r\nContent-Type: message/rfc822\r\n\r\n'
    for candidate in (raw, prefix + raw):
        found = attachment_content(candidate, attachment_id)
        listed = {a.attachment_id: a for a in parse_message(candidate).attachments}
        assert (found is None) == (attachment_id not in listed)
        if found is not None:
            assert found.attachment == listed[attachment_id]


def test_quote_round_trip_helper() -> None:  # the percent-encoding the header uses is RFC 8187's
    assert quote("a b", safe="!#$&+-.^_`|~") == "a%20b"


# --- bounded time on hostile input --------------------------------------------------------


def _many_attached_messages() -> bytes:
    """Thousands of attached messages, each among lines that look almost like delimiters."""
    part = (
        b"--b\r\nContent-Type: message/rfc822\r\nContent-Disposition: attachment\r\n\r\n"
        b"Subject: s\r\n\r\nx--b\r\n--b \r\n--bb\r\n"
    )
    return b'Content-Type: multipart/mixed; boundary="b"\r\n\r\n' + part * 1500 + b"--b--\r\n"


def _near_delimiters() -> bytes:
    """One attached message after 400 KB of near-delimiters, at the end of its multipart."""
    junk = b"x--b\r\n--bx\r\n--b-\r\n" * 20_000
    return (
        b'Content-Type: multipart/mixed; boundary="b"\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\n'
        + junk
        + b"\r\n--b\r\nContent-Type: message/rfc822; name=m.eml\r\n\r\nSubject: s\r\n\r\nhi\r\n--b--\r\n"
    )


def _deep_chain() -> bytes:
    """Ten nested multiparts, an attached message at each level, a megabyte at the bottom."""
    inner = b"Subject: deep\r\n\r\n" + b"y" * 100_000 + b"\r\n"
    body = b"--z9\r\nContent-Type: message/rfc822; name=a.eml\r\n\r\n" + inner + b"--z9--\r\n"
    for i in range(8, -1, -1):
        body = (
            f"--z{i}\r\nContent-Type: multipart/mixed; boundary=z{i + 1}\r\n\r\n".encode()
            + body
            + f"\r\n--z{i}\r\nContent-Type: message/rfc822; name=b.eml\r\n\r\n".encode()
            + inner
            + f"--z{i}--\r\n".encode()
        )
    return b"Content-Type: multipart/mixed; boundary=z0\r\n\r\n" + body


@pytest.mark.timeout(10)  # the stdlib's own parse of these takes a few tenths; quadratic work would take minutes
@pytest.mark.parametrize("build", [_many_attached_messages, _near_delimiters, _deep_chain])
def test_locating_attached_messages_is_bounded(build: object) -> None:
    assert callable(build)
    raw = build()
    assert isinstance(raw, bytes)
    parsed = parse_message(raw)
    assert parsed.attachments
    last = parsed.attachments[-1]
    found = attachment_content(raw, last.attachment_id)
    assert found is not None and sha(found.data) == last.sha256 != ""
