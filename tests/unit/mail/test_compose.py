# ruff: noqa: RUF001 - Chinese subjects: fullwidth commas and colons are meant
"""Outbound mail (gateway/mail/compose.py): exact bytes, every injection refused, reply and forward."""

from __future__ import annotations

import email
import email.header
import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from email import policy
from email.message import EmailMessage
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gateway import wire
from gateway.errors import TooLarge
from gateway.mail import compose as compose_module
from gateway.mail.attachments import safe_filename
from gateway.mail.compose import (
    MAX_EXTRA_HEADERS,
    MAX_RECIPIENTS,
    ComposeError,
    Outgoing,
    OutgoingFile,
    compose,
    forward,
    forward_subject,
    new_message_id,
    reply,
    reply_subject,
)
from gateway.mail.keys import message_key
from gateway.mail.parse import parse_message, raw_headers
from gateway.mail.recipients import GRANTING_HEADERS
from gateway.mail.threads import MAX_REFERENCES, normalize_subject

WHEN = datetime(2030, 1, 2, 3, 4, 5, tzinfo=UTC)
ME = "agent@agents.test"
PDF = b"%PDF-1.4\n" + bytes(range(256)) * 8
CHINESE = "关于明天的会议安排和其他一些非常重要的事项，请大家务必在今天下午五点之前回复确认，谢谢大家的配合与支持"
SECRET = "tok_ZZSECRETZZ"  # a token-shaped value: never echoed by an error


def build(**overrides: Any) -> Outgoing:
    args: dict[str, Any] = {
        "sender": ME,
        "from_name": None,
        "to": ["bob@example.org"],
        "subject": "Hello",
        "text": "Hi Bob.\n",
        "html": None,
        "message_id": "<m1@agents.test>",
        "date": WHEN,
    }
    args.update(overrides)
    return compose(**args)


def header_block(raw: bytes) -> bytes:
    return raw[: raw.index(b"\r\n\r\n") + 2]


def body_of(raw: bytes) -> bytes:
    return raw[raw.index(b"\r\n\r\n") + 4 :]


def assert_wire_shape(raw: bytes, *, body_lines: int = 78) -> None:
    """CRLF everywhere, no bare CR or LF, 7-bit, header lines within 78 columns, body lines within `body_lines`."""
    assert b"\n" not in raw.replace(b"\r\n", b""), "bare LF"
    assert b"\r" not in raw.replace(b"\r\n", b""), "bare CR"
    assert raw.isascii()
    for line in header_block(raw).split(b"\r\n"):
        assert len(line) <= 78, line
    for line in raw.split(b"\r\n"):
        assert len(line) <= body_lines, line


def stdlib(raw: bytes) -> EmailMessage:
    message = email.message_from_bytes(raw, policy=policy.default)
    assert isinstance(message, EmailMessage)
    return message


def names(raw: bytes) -> list[str]:
    return [name for name, _ in raw_headers(raw)]


def test_exported_names_exist() -> None:
    assert all(hasattr(compose_module, name) for name in compose_module.__all__)


def test_recipient_cap_is_the_wire_one() -> None:
    assert MAX_RECIPIENTS == wire.MAX_RECIPIENTS


# --- what a plain send looks like, byte for byte ------------------------------------------------


def test_plain_send_is_exact() -> None:
    out = build(to=["Bob@Example.org"], cc=["carol@example.org"], bcc=["dave@example.org"], headers={"X-Ticket": "42"})
    assert out.raw == (
        b"From: agent@agents.test\r\n"
        b"To: bob@example.org\r\n"
        b"Cc: carol@example.org\r\n"
        b"Subject: Hello\r\n"
        b"Date: Wed, 02 Jan 2030 03:04:05 +0000\r\n"
        b"Message-ID: <m1@agents.test>\r\n"
        b"X-Ticket: 42\r\n"
        b"MIME-Version: 1.0\r\n"
        b'Content-Type: text/plain; charset="utf-8"\r\n'
        b"Content-Transfer-Encoding: 7bit\r\n"
        b"\r\n"
        b"Hi Bob.\r\n"
    )
    assert out.sent_copy == header_block(out.raw) + b"Bcc: dave@example.org\r\n\r\n" + body_of(out.raw)
    assert out.recipients == ("bob@example.org", "carol@example.org", "dave@example.org")
    assert (out.to, out.cc, out.bcc) == (("bob@example.org",), ("carol@example.org",), ("dave@example.org",))
    assert (out.sender, out.message_id, out.subject) == (ME, "<m1@agents.test>", "Hello")


def test_bcc_only_in_the_sent_copy_and_both_copies_are_one_message() -> None:
    out = build(to=["a@example.org"], bcc=["hidden@example.org", "other@example.org"], html="<p>x</p>")
    assert b"bcc" not in out.raw.lower() and b"hidden" not in out.raw
    copy = stdlib(out.sent_copy)
    assert [a.addr_spec for a in copy["Bcc"].addresses] == ["hidden@example.org", "other@example.org"]
    assert stdlib(out.raw)["Bcc"] is None
    assert body_of(out.raw) == body_of(out.sent_copy)
    assert stdlib(out.raw)["Message-ID"] == copy["Message-ID"] == "<m1@agents.test>"
    assert message_key(out.raw, max_bytes=10**6) == message_key(out.sent_copy, max_bytes=10**6)
    assert_wire_shape(out.sent_copy)


def test_chinese_subject_and_a_display_name_with_a_comma_round_trip() -> None:
    out = build(subject=CHINESE, from_name='Doe, John "JD" 张', to=["bob@example.org"])
    assert_wire_shape(out.raw)
    head = header_block(out.raw)
    assert b"=?utf-8?" in head  # RFC 2047 encoded words, not raw UTF-8
    parsed = stdlib(out.raw)
    assert parsed["Subject"] == CHINESE
    (sender,) = parsed["From"].addresses
    assert (sender.display_name, sender.addr_spec) == ('Doe, John "JD" 张', ME)
    ours = parse_message(out.raw)
    assert ours.subject == CHINESE
    assert ours.from_address == ME
    assert ours.to == ("bob@example.org",)
    assert ours.message_id == "<m1@agents.test>"
    assert ours.date == WHEN


@pytest.mark.parametrize(
    ("name", "field"),
    [
        ("Agent Smith", b"From: Agent Smith <agent@agents.test>\r\n"),
        ("Doe, John", b'From: "Doe, John" <agent@agents.test>\r\n'),
        ('say "hi" \\ bye', b'From: "say \\"hi\\" \\\\ bye" <agent@agents.test>\r\n'),
        ("ceo@bank.example", b'From: "ceo@bank.example" <agent@agents.test>\r\n'),
        ("=?utf-8?q?x?=", b"From: =?utf-8?b?PT91dGYtOD9xP3g/PQ==?= <agent@agents.test>\r\n"),
    ],
)
def test_display_names_are_written_exactly(name: str, field: bytes) -> None:
    out = build(from_name=name)
    assert field in out.raw
    assert display_name_of(out.raw) == name
    assert parse_message(out.raw).from_address == ME
    assert [a.addr_spec for a in stdlib(out.raw)["From"].addresses] == [ME]


@pytest.mark.parametrize("subject", [CHINESE * 4, "x" * 500, "word " * 150, "Ünïcødé " * 60, "a\tb"])
def test_long_subjects_fold_under_78_columns_and_round_trip(subject: str) -> None:
    out = build(subject=subject)
    assert_wire_shape(out.raw)
    assert stdlib(out.raw)["Subject"] == subject.strip()
    assert parse_message(out.raw).subject == subject.strip().replace("\t", " ")  # parse.py reads a tab as a space


subjects = st.text(
    st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp"), blacklist_characters="\x85"),
    max_size=300,
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(subject=subjects, from_name=subjects.map(lambda s: s[:200]), value=subjects.map(lambda s: s[:900]))
def test_any_subject_display_name_and_header_value_fold_and_round_trip(
    subject: str, from_name: str, value: str
) -> None:
    out = build(subject=subject, from_name=from_name, headers={"X-Note": value})
    assert_wire_shape(out.raw)
    # Readers drop the spaces around a value: the builder strips them, and says so.
    subject, from_name, value = subject.strip(), from_name.strip(), value.strip()
    assert out.subject == subject
    parsed = stdlib(out.raw)
    assert str(parsed["Subject"]) == subject
    assert str(parsed["X-Note"]) == value
    assert parsed["From"].addresses[0].addr_spec == ME
    # The stdlib reads adjacent encoded words in a display name with a space between them
    # (RFC 2047 §6.2 says to drop it): compare it without spaces, and exactly through our parser.
    assert "".join(parsed["From"].addresses[0].display_name.split()) == "".join(from_name.split())
    ours = parse_message(out.raw)
    assert ours.subject == subject
    assert ours.from_address == ME
    assert display_name_of(out.raw) == from_name


def display_name_of(raw: bytes) -> str:
    """The From display name decoded strictly: a quoted string, or RFC 2047 words joined as §6.2 says."""
    value = dict(raw_headers(raw))["From"]
    name = value.rpartition(" <")[0] if value.endswith(">") else ""
    if name.startswith('"') and name.endswith('"'):
        return re.sub(r"\\(.)", r"\1", name[1:-1])
    return str(email.header.make_header(email.header.decode_header(name)))


FILENAME_CHARS = st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp"), blacklist_characters="\x85/\\")


@settings(max_examples=200, deadline=None)
@given(name=st.text(FILENAME_CHARS, min_size=1, max_size=255).filter(lambda n: n.strip() not in ("", ".", "..")))
def test_any_filename_is_written_per_rfc_2231_and_comes_back(name: str) -> None:
    out = build(attachments=[OutgoingFile(name, "application/pdf", b"%PDF")])
    assert_wire_shape(out.raw)  # parameter continuations keep every line within 78 columns
    (attached,) = stdlib(out.raw).iter_attachments()
    # The stdlib reader unquotes every parameter value once more (email.utils.unquote): a name
    # written as "<a>" or '"a"' comes back from it without those marks, however it is encoded.
    assert attached.get_filename() == email.utils.unquote(name.strip()).strip()
    # The listing shows the name made safe (no leading dots, no bidi controls, 200 characters at most).
    assert parse_message(out.raw).attachments[0].filename == safe_filename(name.strip())


@settings(max_examples=100, deadline=None)
@given(text=st.text(st.characters(blacklist_characters="\x00", blacklist_categories=("Cs",)), max_size=2000))
def test_any_text_body_goes_out_7bit_clean_and_comes_back(text: str) -> None:
    out = build(text=text)
    assert_wire_shape(out.raw)
    body = stdlib(out.raw).get_body(("plain",))
    assert body is not None
    # Every line break (CRLF, CR, LF) becomes one CRLF on the wire and comes back as LF.
    expected = re.sub(r"\r\n|\r|\n", "\n", text)
    got = body.get_content().replace("\r\n", "\n")
    assert got.rstrip("\n") == expected.rstrip("\n")


def test_same_inputs_same_bytes() -> None:
    files = [OutgoingFile("a.pdf", "application/pdf", PDF)]
    assert build(html="<b>x</b>", attachments=files).raw == build(html="<b>x</b>", attachments=files).raw


# --- body shapes ------------------------------------------------------------------------------


def test_text_and_html_are_alternatives() -> None:
    out = build(text="plain words", html="<p>rich words</p>")
    parsed = stdlib(out.raw)
    assert parsed.get_content_type() == "multipart/alternative"
    assert [p.get_content_type() for p in parsed.iter_parts()] == ["text/plain", "text/html"]
    ours = parse_message(out.raw)
    assert (ours.text.strip(), (ours.html or "").strip()) == ("plain words", "<p>rich words</p>")


def test_html_only_gets_its_visible_text_as_the_plain_alternative() -> None:
    out = build(text=None, html="<p>Hello <b>there</b></p><style>p{}</style>")
    parsed = stdlib(out.raw)
    assert parsed.get_content_type() == "multipart/alternative"
    assert parse_message(out.raw).text.strip() == "Hello there"


def test_attachments_make_it_mixed_and_come_back_byte_exact() -> None:
    files = [
        OutgoingFile("报告 2030.pdf", "application/pdf", PDF),
        OutgoingFile("notes.txt", "Text/Plain", "ünï\r\nbare\rcr".encode()),
        OutgoingFile("mail.eml", "message/rfc822", b"Subject: inner\r\nFrom: x@y.test\r\n\r\nhello\r\n"),
    ]
    out = build(text="see attached", html="<p>see attached</p>", attachments=files)
    assert_wire_shape(out.raw)
    parsed = stdlib(out.raw)
    assert parsed.get_content_type() == "multipart/mixed"
    attached = list(parsed.iter_attachments())
    assert [a.get_filename() for a in attached] == ["报告 2030.pdf", "notes.txt", "mail.eml"]
    assert attached[0].get_content() == PDF
    assert attached[1].get_payload(decode=True) == "ünï\r\nbare\rcr".encode()
    assert attached[2].get_content_type() == "message/rfc822"
    assert attached[2]["Content-Transfer-Encoding"] == "7bit"  # RFC 2046 §5.2.1: never base64
    assert b"filename*=utf-8''%E6%8A%A5%E5%91%8A%202030.pdf" in out.raw  # RFC 2231
    ours = parse_message(out.raw)
    assert [(a.filename, a.content_type, a.size) for a in ours.attachments][:2] == [
        ("报告 2030.pdf", "application/pdf", len(PDF)),
        ("notes.txt", "text/plain", len("ünï\r\nbare\rcr".encode())),
    ]
    assert ours.text.strip() == "see attached"


def test_too_large_is_413() -> None:
    files = [OutgoingFile("a.bin", "application/octet-stream", b"x" * 5000)]
    small = build(attachments=files)
    assert build(attachments=files, max_bytes=len(small.raw)).raw == small.raw
    with pytest.raises(TooLarge):
        build(attachments=files, max_bytes=len(small.raw) - 1)
    with pytest.raises(TooLarge):
        build(attachments=files, max_bytes=4000)  # the attachments alone: refused before building


# --- addresses --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "bob",
        "Bob <bob@example.org>",
        "bob@example.org, eve@example.org",
        " bob@example.org",
        "bob@example.org ",
        '"bob"@example.org',
        "bob@[192.0.2.1]",
        "a..b@example.org",
        ".a@example.org",
        "a@example..org",
        "bob@example.org\r\nBcc: eve@example.org",
        "bob@exa\nmple.org",
        "bob(c)@example.org",
        "=?utf-8?q?bob?=@example.org",
        "bob@example.org@evil.test",
        "x" * 250 + "@example.org",
    ],
)
@pytest.mark.parametrize("field", ["to", "cc", "bcc"])
def test_an_address_must_be_one_plain_addr_spec(field: str, bad: str) -> None:
    values = ["ok@example.org", bad]
    with pytest.raises(ComposeError) as caught:
        build(**({"to": ["first@example.org"]} | {field: values}))
    assert str(caught.value) == f"{field}[1] is not one plain address"


@pytest.mark.parametrize("bad", ["josé@example.org", "bob@例え.jp", "bob@bücher.example"])
def test_international_addresses_are_refused_clearly(bad: str) -> None:
    with pytest.raises(ComposeError, match=r"^to\[0\] is not an ASCII address .*SMTPUTF8"):
        build(to=[bad])


def test_the_sender_and_reply_to_are_checked_too() -> None:
    with pytest.raises(ComposeError, match=r"^sender "):
        build(sender="Agent <agent@agents.test>")
    with pytest.raises(ComposeError, match=r"^reply_to "):
        build(reply_to="help@example.org\r\nBcc: eve@example.org")
    out = build(reply_to="Help@Example.org")
    assert b"Reply-To: help@example.org\r\n" in out.raw


def test_an_error_never_echoes_the_value() -> None:
    for kwargs in (
        {"to": [f"{SECRET} <x@y.test>"]},
        {"subject": f"{SECRET}\r\n"},
        {"headers": {f"X-{SECRET}\n": "v"}},
        {"headers": {"X-A": f"{SECRET}\n"}},
        {"attachments": [OutgoingFile(f"{SECRET}\n", "a/b", b"")]},
    ):
        with pytest.raises(ComposeError) as caught:
            build(**kwargs)
        assert SECRET not in str(caught.value)


ATEXT = "abcdefghijklmnopqrstuvwxyz0123456789!#$%&'*+/=?^_`{|}~-"
dot_atoms = st.lists(st.text(ATEXT, min_size=1, max_size=8), min_size=1, max_size=3).map(".".join)
plain_addresses = st.builds(
    lambda local, labels: f"{local}@{'.'.join(labels)}",
    dot_atoms.filter(lambda s: "=?" not in s),
    st.lists(st.text("abcdefghijklmnopqrstuvwxyz0123456789-", min_size=1, max_size=10), min_size=1, max_size=3),
)


@settings(max_examples=150, deadline=None)
@given(to=st.lists(plain_addresses, min_size=1, max_size=25, unique=True), cc=st.lists(plain_addresses, max_size=5))
def test_every_plain_address_reaches_the_headers_as_written(to: list[str], cc: list[str]) -> None:
    out = build(to=to, cc=cc)
    assert_wire_shape(out.raw)
    cc_kept = tuple(dict.fromkeys(a for a in cc if a not in to))
    assert out.to == tuple(to) and out.cc == cc_kept
    ours = parse_message(out.raw)
    assert (ours.to, ours.cc) == (tuple(to), cc_kept)
    assert [a.addr_spec for a in stdlib(out.raw)["To"].addresses] == to


def test_a_single_string_is_not_a_list_of_addresses() -> None:
    with pytest.raises(ComposeError, match="lists of addresses"):
        build(to="bob@example.org")


def test_recipient_count_bounds_and_duplicates() -> None:
    with pytest.raises(ComposeError, match="at least one recipient"):
        build(to=[])
    fifty = [f"r{i}@example.org" for i in range(50)]
    assert len(build(to=fifty[:20], cc=fifty[20:40], bcc=fifty[40:]).recipients) == 50
    with pytest.raises(ComposeError, match="at most 50"):
        build(to=fifty, bcc=["one-more@example.org"])
    out = build(to=["a@x.test", "A@X.test"], cc=["a@x.test", "b@x.test"], bcc=["B@x.test", "c@x.test"])
    assert (out.to, out.cc, out.bcc) == (("a@x.test",), ("b@x.test",), ("c@x.test",))
    assert out.recipients == ("a@x.test", "b@x.test", "c@x.test")


def test_only_bcc_is_enough_and_has_no_to_field() -> None:
    out = build(to=[], bcc=["hidden@example.org"])
    assert "To" not in names(out.raw) and "Bcc" not in names(out.raw)
    assert out.recipients == ("hidden@example.org",)


def test_a_body_is_required() -> None:
    with pytest.raises(ComposeError, match="text or html"):
        build(text=None, html=None)
    with pytest.raises(ComposeError, match=r"^text holds a NUL"):
        build(text="a\x00b")
    with pytest.raises(ComposeError, match=r"^html holds an unpaired surrogate"):
        build(html="a\ud800b")


# --- header injection -------------------------------------------------------------------------

BREAKS = st.sampled_from(["\r", "\n", "\r\n", "\x85", "\u2028", "\u2029", "\x0b", "\x0c"])


@st.composite
def with_break(draw: st.DrawFn) -> str:
    text = draw(st.text(max_size=20))
    at = draw(st.integers(0, len(text)))
    return text[:at] + draw(BREAKS) + draw(st.text(max_size=20)) + text[at:]


def _field_setters() -> dict[str, Callable[[str], dict[str, Any]]]:
    return {
        "subject": lambda v: {"subject": v},
        "from_name": lambda v: {"from_name": v},
        "reply_to": lambda v: {"reply_to": v},
        "to": lambda v: {"to": [v]},
        "cc": lambda v: {"cc": [v]},
        "bcc": lambda v: {"bcc": [v]},
        "header name": lambda v: {"headers": {"X-" + v: "value"}},
        "header value": lambda v: {"headers": {"X-Note": v}},
        "filename": lambda v: {"attachments": [OutgoingFile(v, "text/plain", b"x")]},
        "content_type": lambda v: {"attachments": [OutgoingFile("a.txt", v, b"x")]},
        "message_id": lambda v: {"message_id": f"<{v}@agents.test>"},
    }


@settings(max_examples=400, deadline=None)
@given(data=st.data(), field=st.sampled_from(sorted(_field_setters())))
def test_a_line_break_in_any_field_is_refused(data: st.DataObject, field: str) -> None:
    value = data.draw(with_break())
    with pytest.raises(ComposeError):
        build(**_field_setters()[field](value))


@pytest.mark.parametrize("char", ["\x00", "\x1b", "\x7f", "\x9b", "\ud800"])
@pytest.mark.parametrize("field", ["subject", "from_name", "header value", "filename"])
def test_other_control_characters_are_refused(field: str, char: str) -> None:
    with pytest.raises(ComposeError, match="holds a control character"):
        build(**_field_setters()[field](f"a{char}b"))


def test_a_tab_is_harmless_in_subject_and_header_values() -> None:
    out = build(subject="a\tb", headers={"X-Note": "c\td"})
    assert stdlib(out.raw)["Subject"] == "a\tb"
    assert stdlib(out.raw)["X-Note"] == "c\td"


# --- extra headers ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        *sorted(GRANTING_HEADERS),
        "X-Original-To",
        "x-ORIGINAL-to",
        "X-Forwarded-To",
        "X-Original-From",
        "Message-ID",
        "Date",
        "From",
        "MIME-Version",
        "Received",
        "Return-Path",
        "Content-Type",
        "Content-Transfer-Encoding",
        "Reply-To",
        "Subject",
        "References",
        "Foo",
        "X-",
        "X-a b",
        "X-a:b",
        "X-ü",
        "X-" + "a" * 80,
    ],
)
def test_extra_headers_the_gateway_trusts_or_stamps_are_refused(name: str) -> None:
    with pytest.raises(ComposeError, match=r"^headers\[1\] name"):
        build(headers={"X-Fine": "1", name: "eve@agents.test"})


def test_extra_headers_are_bounded() -> None:
    many = {f"X-H{i}": "v" for i in range(MAX_EXTRA_HEADERS)}
    out = build(headers=many)
    assert [n for n in names(out.raw) if n.startswith("X-")] == list(many)
    with pytest.raises(ComposeError, match="at most"):
        build(headers=many | {"X-One-More": "v"})
    with pytest.raises(ComposeError, match="repeats"):
        build(headers={"X-A": "1", "x-a": "2"})
    with pytest.raises(ComposeError, match="longer than one header line"):
        build(headers={"X-Long": "v" * 995})
    long = build(headers={"X-Long": "v " * 400}).raw
    assert_wire_shape(long)
    assert stdlib(long)["X-Long"] == ("v " * 400).strip()


def test_an_extra_header_never_grants() -> None:
    out = build(to=["bob@example.org"], headers={"X-Note": "victim@agents.test"})
    from gateway.mail.recipients import granted_addresses

    assert granted_addresses(raw_headers(out.raw), catchall="all@agents.test") == {"bob@example.org"}


# --- attachments ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("filename", "content_type", "error"),
    [
        ("", "text/plain", "filename is empty"),
        ("..", "text/plain", "filename is empty"),
        ("a/b.txt", "text/plain", "path separator"),
        ("a\\b.txt", "text/plain", "path separator"),
        ("a" * 256, "text/plain", "longer than"),
        ("a.txt", "text", "not one type/subtype"),
        ("a.txt", "text/plain; charset=utf-8", "not one type/subtype"),
        ("a.txt", "text/pl ain", "not one type/subtype"),
        ("a.txt", "multipart/mixed", "cannot be multipart"),
    ],
)
def test_bad_attachments_are_refused(filename: str, content_type: str, error: str) -> None:
    with pytest.raises(ComposeError, match=rf"^attachments\[0\]\..*{re.escape(error)}"):
        build(attachments=[OutgoingFile(filename, content_type, b"x")])


# --- Message-ID, threading headers --------------------------------------------------------------


def test_new_message_id() -> None:
    assert new_message_id("agents.test", "abc.123") == "<abc.123@agents.test>"
    for domain, unique in (("agents.test", "a b"), ("agents.test", "a>b"), ("a\r\nb", "x"), ("agents.test", "")):
        with pytest.raises(ComposeError):
            new_message_id(domain, unique)


@pytest.mark.parametrize("bad", ["m1@agents.test", "<m1>", "<m 1@agents.test>", "<m1@agents.test", "<é@a.test>"])
def test_message_ids_are_checked(bad: str) -> None:
    with pytest.raises(ComposeError, match=r"^message_id "):
        build(message_id=bad)
    with pytest.raises(ComposeError, match=r"^in_reply_to "):
        build(in_reply_to=bad)
    with pytest.raises(ComposeError, match=r"^references\[1\] "):
        build(references=["<ok@x.test>", bad])


def test_a_naive_date_is_refused_and_an_offset_is_kept() -> None:
    with pytest.raises(ComposeError, match="time zone"):
        build(date=datetime(2030, 1, 2))
    out = build(date=WHEN.astimezone(timezone(timedelta(hours=8))))
    assert b"Date: Wed, 02 Jan 2030 11:04:05 +0800\r\n" in out.raw


def test_long_references_fold_between_ids_never_as_encoded_words() -> None:
    refs = [f"<{i:02d}-{'r' * 40}@example.org>" for i in range(MAX_REFERENCES + 5)]
    long_id = "<" + "L" * 200 + "@example.org>"
    out = build(in_reply_to=long_id, references=[*refs, long_id])
    assert b"=?" not in header_block(out.raw)
    parsed = stdlib(out.raw)
    kept = str(parsed["References"]).split()
    assert kept[0] == refs[0] and kept[-1] == long_id and len(kept) == MAX_REFERENCES
    assert kept == [refs[0], *refs[-(MAX_REFERENCES - 2) :], long_id]
    assert str(parsed["In-Reply-To"]) == long_id
    for line in header_block(out.raw).split(b"\r\n"):
        assert len(line) <= 78 or line.strip() in (long_id.encode(), b"In-Reply-To: " + long_id.encode())


# --- subjects ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("subject", "expected"),
    [
        ("Lunch", "Re: Lunch"),
        ("Re: Lunch", "Re: Lunch"),
        ("RE: re: Lunch", "Re: Lunch"),
        ("Re: AW: Lunch", "Re: Lunch"),
        ("AW: Lunch", "Re: Lunch"),
        ("SV: Antw: Lunch", "Re: Lunch"),
        ("Re[2]: Lunch", "Re: Lunch"),
        ("回复：午饭", "Re: 午饭"),
        ("答复: 回复: 午饭", "Re: 午饭"),
        ("[dev] Re: Lunch", "Re: [dev] Lunch"),
        ("Re: [dev] Re: Lunch", "Re: [dev] Lunch"),
        ("[dev] Lunch", "Re: [dev] Lunch"),
        ("Fwd: Lunch", "Re: Lunch"),
        ("Fwd: Re: Re: Lunch", "Re: Lunch"),
        ("Lunch Re: Re: soon", "Re: Lunch Re: Re: soon"),
        ("Reply needed", "Re: Reply needed"),
        ("", "Re:"),
    ],
)
def test_reply_subject(subject: str, expected: str) -> None:
    assert reply_subject(subject) == expected


@pytest.mark.parametrize(
    ("subject", "expected"),
    [
        ("Invoice", "Fwd: Invoice"),
        ("Fwd: Invoice", "Fwd: Invoice"),
        ("FW: WG: TR: Invoice", "Fwd: Invoice"),
        ("Fw: 转发: Invoice", "Fwd: Invoice"),
        ("Re: Invoice", "Fwd: Invoice"),
        ("[billing] RE: AW: Invoice", "Fwd: [billing] Invoice"),
    ],
)
def test_forward_subject(subject: str, expected: str) -> None:
    assert forward_subject(subject) == expected


REPLY_WORDS = ["Re", "RE", "re", "AW", "Aw", "SV", "Antw", "VS", "回复", "答复", "Re[3]", "RE^2"]
FORWARD_WORDS = ["Fwd", "FW", "Fw", "WG", "TR", "转发"]


@st.composite
def stacked(draw: st.DrawFn, words: list[str]) -> str:
    pieces = draw(
        st.lists(
            st.one_of(
                st.sampled_from(words).flatmap(lambda w: st.sampled_from([f"{w}: ", f"{w}:", f"{w} : ", f"{w}："])),
                st.sampled_from(["[dev] ", "[ops-list] "]),
            ),
            max_size=8,
        )
    )
    rest = draw(st.text(st.characters(blacklist_categories=("Cc", "Cs")), max_size=30))
    return "".join(pieces) + rest


@settings(max_examples=500)
@given(subject=stacked(REPLY_WORDS + FORWARD_WORDS))
def test_re_is_never_stacked(subject: str) -> None:
    result = reply_subject(subject)
    assert result.startswith("Re:")
    after = re.sub(r"^(?:\s*\[[^\[\]]{1,64}\])*", "", result[3:])
    assert not compose_module._PREFIX.match(after)
    assert "Re: Re:" not in result and "Re: AW:" not in result
    assert reply_subject(result) == result
    assert normalize_subject(result) == normalize_subject(subject)


@settings(max_examples=300)
@given(subject=stacked(FORWARD_WORDS + REPLY_WORDS))
def test_fwd_is_never_stacked(subject: str) -> None:
    result = forward_subject(subject)
    after = re.sub(r"^(?:\s*\[[^\[\]]{1,64}\])*", "", result[4:])
    assert result.startswith("Fwd:") and not compose_module._PREFIX.match(after)
    assert forward_subject(result) == result
    assert normalize_subject(result) == normalize_subject(subject)


# --- reply ------------------------------------------------------------------------------------


def original(
    *,
    sender: str = "Alice Example <alice@example.org>",
    to: str = "agent@agents.test, bob@example.org",
    cc: str | None = "Carol <carol@example.org>",
    extra: dict[str, str] | None = None,
    text: str | None = "Line one.\n\nLine three.\n",
    html: str | None = None,
    subject: str = "Lunch",
    attachments: list[tuple[str, str, bytes]] = (),  # type: ignore[assignment]
) -> tuple[bytes, Any]:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = to
    if cc:
        msg["Cc"] = cc
    msg["Subject"] = subject
    msg["Date"] = "Tue, 01 Jan 2030 10:00:00 +0000"
    msg["Message-ID"] = "<orig@example.org>"
    for name, value in (extra or {}).items():
        msg[name] = value
    if text is not None:
        msg.set_content(text)
        if html is not None:
            msg.add_alternative(html, subtype="html")
    elif html is not None:
        msg.set_content(html, subtype="html")
    for filename, content_type, data in attachments:
        maintype, subtype = content_type.split("/")
        msg.add_attachment(data, maintype=maintype, subtype=subtype, filename=filename)
    raw = msg.as_bytes(policy=policy.SMTP)
    return raw, parse_message(raw)


def do_reply(parsed: Any, **overrides: Any) -> Outgoing:
    args: dict[str, Any] = {
        "identity": ME,
        "reply_all": False,
        "text": "Sounds good.",
        "html": None,
        "message_id": "<r1@agents.test>",
        "date": WHEN,
    }
    args.update(overrides)
    return reply(parsed, **args)


def test_reply_goes_to_the_sender_with_threading_headers_and_a_quote() -> None:
    _, parsed = original(extra={"References": "<root@example.org> <mid@example.org>"})
    out = do_reply(parsed)
    assert_wire_shape(out.raw)
    assert out.to == ("alice@example.org",) and out.cc == () and out.recipients == ("alice@example.org",)
    head = header_block(out.raw)
    assert b"Subject: Re: Lunch\r\n" in head
    assert b"In-Reply-To: <orig@example.org>\r\n" in head
    assert b"References: <root@example.org> <mid@example.org> <orig@example.org>\r\n" in head
    assert parse_message(out.raw).text == (
        "Sounds good.\n\nOn Tue, 01 Jan 2030 10:00:00 +0000, Alice Example <alice@example.org> wrote:\n"
        "> Line one.\n>\n> Line three.\n"
    )


def test_reply_all_header_block_is_exact() -> None:
    _, parsed = original(extra={"References": "<root@example.org>"})
    out = do_reply(parsed, reply_all=True, from_name="张三, Agent")
    assert header_block(out.raw) == (
        b"From: =?utf-8?b?5byg5LiJLCBBZ2VudA==?= <agent@agents.test>\r\n"
        b"To: alice@example.org\r\n"
        b"Cc: bob@example.org, carol@example.org\r\n"
        b"Subject: Re: Lunch\r\n"
        b"Date: Wed, 02 Jan 2030 03:04:05 +0000\r\n"
        b"Message-ID: <r1@agents.test>\r\n"
        b"In-Reply-To: <orig@example.org>\r\n"
        b"References: <root@example.org> <orig@example.org>\r\n"
        b"MIME-Version: 1.0\r\n"
        b'Content-Type: text/plain; charset="utf-8"\r\n'
        b"Content-Transfer-Encoding: 7bit\r\n"
    )
    (sender,) = stdlib(out.raw)["From"].addresses
    assert (sender.display_name, sender.addr_spec) == ("张三, Agent", ME)
    assert parse_message(out.raw).from_header == "张三, Agent <agent@agents.test>"


def test_reply_uses_in_reply_to_when_the_original_has_no_references() -> None:
    _, parsed = original(extra={"In-Reply-To": "<parent@example.org>"})
    head = header_block(do_reply(parsed).raw)
    assert b"References: <parent@example.org> <orig@example.org>\r\n" in head


def test_reply_references_are_capped_keeping_the_first_and_the_latest() -> None:
    chain = [f"<id{i}@example.org>" for i in range(40)]
    _, parsed = original(extra={"References": " ".join(chain)})
    refs = str(stdlib(do_reply(parsed).raw)["References"]).split()
    assert len(refs) == MAX_REFERENCES
    assert refs[0] == chain[0]
    assert refs[-1] == "<orig@example.org>"
    assert refs[1:-1] == chain[-(MAX_REFERENCES - 2) :]


def test_reply_to_is_honoured() -> None:
    _, parsed = original(extra={"Reply-To": "Help Desk <help@example.org>, tickets@example.org"})
    out = do_reply(parsed)
    assert out.to == ("help@example.org", "tickets@example.org")
    assert b"alice@example.org" not in header_block(out.raw)


def test_a_reply_to_naming_only_the_identity_falls_back_to_from() -> None:
    _, parsed = original(extra={"Reply-To": "Agent@Agents.test"})
    assert do_reply(parsed).to == ("alice@example.org",)
    _, parsed = original(extra={"Reply-To": "undisclosed-recipients:;"})
    assert do_reply(parsed).to == ("alice@example.org",)


def test_reply_all_adds_to_and_cc_without_the_identity_or_duplicates() -> None:
    _, parsed = original(
        to="AGENT@Agents.Test, bob@example.org, alice@example.org", cc="carol@example.org, Bob@example.org"
    )
    out = do_reply(parsed, reply_all=True, identity="Agent@agents.test")
    assert out.to == ("alice@example.org",)
    assert out.cc == ("bob@example.org", "carol@example.org")
    assert ME not in out.recipients
    assert b"agent@agents.test" not in header_block(out.raw).lower().replace(b"from: agent@agents.test", b"")


def test_reply_to_our_own_sent_mail_goes_to_its_recipients() -> None:
    _, parsed = original(sender=f"Me <{ME}>", to="bob@example.org, dan@example.org", cc="carol@example.org")
    assert do_reply(parsed).to == ("bob@example.org", "dan@example.org")
    everyone = do_reply(parsed, reply_all=True)
    assert everyone.recipients == ("bob@example.org", "dan@example.org", "carol@example.org")


def test_reply_with_nobody_left_is_refused() -> None:
    _, parsed = original(sender=ME, to=ME, cc=None)
    with pytest.raises(ComposeError, match="nobody to reply to"):
        do_reply(parsed, reply_all=True)


def test_reply_to_an_unwritable_sender_is_refused_and_reply_all_skips_such_others() -> None:
    utf8 = b"From: jos\xc3\xa9@example.org\r\nTo: agent@agents.test\r\nMessage-ID: <o@x.test>\r\n\r\nhi\r\n"
    parsed = parse_message(utf8)
    assert parsed.from_address == "josé@example.org"
    with pytest.raises(ComposeError, match="address to reply to is not one plain ASCII"):
        do_reply(parsed)
    _, parsed = original(to=f"{ME}, josé@example.org", cc=None)
    assert do_reply(parsed, reply_all=True).recipients == ("alice@example.org",)


@settings(max_examples=100, deadline=None)
@given(
    prefix=stacked(REPLY_WORDS),
    identity_case=st.sampled_from([ME, ME.upper(), "Agent@Agents.test"]),
)
def test_a_reply_never_stacks_re_and_never_includes_the_identity(prefix: str, identity_case: str) -> None:
    _, parsed = original(subject=(prefix + "Lunch").strip() or "Lunch", to=f"{identity_case}, x@example.org", cc=ME)
    out = do_reply(parsed, reply_all=True, identity=identity_case)
    subject = str(stdlib(out.raw)["Subject"])
    assert subject.startswith("Re: ") and not compose_module._PREFIX.match(
        re.sub(r"^(\s*\[[^\]]*\])*", "", subject[4:])
    )
    assert ME not in out.recipients


def test_html_reply_quotes_the_original_escaped_never_its_markup() -> None:
    _, parsed = original(text=None, html="<p>Hi <script>alert(1)</script><b>&lt;bold&gt;</b></p>")
    out = do_reply(parsed, text=None, html="<html><body><p>Yes.</p></body></html>")
    ours = parse_message(out.raw)
    assert ours.html is not None
    assert "<script>" not in ours.html
    assert '<blockquote type="cite"' in ours.html
    assert "Hi &lt;bold&gt;" in ours.html  # the original's visible text, escaped
    assert ours.html.replace("\r\n", "\n").rstrip().endswith("</blockquote>\n</body></html>")
    # The text part: our HTML as text, then the quote of the original as its reader saw it.
    assert ours.text.startswith("Yes.\n\nOn Tue, 01 Jan 2030")
    assert "> Hi <bold>" in ours.text


def test_reply_to_a_hostile_subject_is_cleaned_not_refused() -> None:
    _, parsed = original()
    hostile = type(parsed)(
        **{**{f: getattr(parsed, f) for f in parsed.__slots__}, "subject": "Re: x\r\nBcc: eve@x.test"}
    )
    out = do_reply(hostile)
    assert b"Subject: Re: x Bcc: eve@x.test\r\n" in out.raw
    assert "Bcc" not in names(out.raw)


# --- forward ----------------------------------------------------------------------------------


def do_forward(raw: bytes, parsed: Any, **overrides: Any) -> Outgoing:
    args: dict[str, Any] = {
        "identity": ME,
        "to": ["zed@example.net"],
        "note": "FYI, see below.",
        "message_id": "<f1@agents.test>",
        "date": WHEN,
        "max_bytes": 10**7,
    }
    args.update(overrides)
    return forward(parsed, raw, **args)


def test_forward_keeps_attachments_byte_exact_and_starts_a_new_thread() -> None:
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256))
    raw, parsed = original(
        subject="FW: Receipt",
        extra={"References": "<root@example.org>"},
        attachments=[("receipt.pdf", "application/pdf", PDF), ("收据.png", "image/png", png)],
    )
    out = do_forward(raw, parsed)
    assert_wire_shape(out.raw)
    head = header_block(out.raw)
    assert b"Subject: Fwd: Receipt\r\n" in head
    assert "In-Reply-To" not in names(out.raw) and "References" not in names(out.raw)
    attached = list(stdlib(out.raw).iter_attachments())
    assert [(a.get_filename(), a.get_content_type(), a.get_content()) for a in attached] == [
        ("receipt.pdf", "application/pdf", PDF),
        ("收据.png", "image/png", png),
    ]
    text = parse_message(out.raw).text
    assert text.startswith("FYI, see below.\n\n---------- Forwarded message ---------\n")
    assert "From: Alice Example <alice@example.org>\n" in text
    assert "Subject: FW: Receipt\n" in text
    assert "To: agent@agents.test, bob@example.org\n" in text
    assert text.rstrip().endswith("Line one.\n\nLine three.")


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda raw: b"\xef\xbb\xbf" + raw, id="byte-order-mark"),
        pytest.param(lambda raw: b"this line is no header\r\n" + raw, id="broken-first-line"),
    ],
)
def test_forward_reads_a_damaged_header_block_as_parse_does(damage: Callable[[bytes], bytes]) -> None:
    """The attachments parse lists are the ones a forward carries, however the header block reads."""
    raw, _ = original(attachments=[("receipt.pdf", "application/pdf", PDF)])
    raw = damage(raw)
    parsed = parse_message(raw)
    assert [a.filename for a in parsed.attachments] == ["receipt.pdf"]
    attached = list(stdlib(do_forward(raw, parsed).raw).iter_attachments())
    assert [(a.get_filename(), a.get_content()) for a in attached] == [("receipt.pdf", PDF)]


def test_forward_of_an_html_only_original_carries_its_visible_text() -> None:
    raw, parsed = original(text=None, html="<p>Total: <b>42 EUR</b></p>")
    out = do_forward(raw, parsed, note=None)
    text = parse_message(out.raw).text
    assert text.startswith("---------- Forwarded message ---------\n")
    assert text.rstrip().endswith("Total: 42 EUR")


def test_forward_keeps_an_attached_mail_as_a_mail() -> None:
    inner = EmailMessage()
    inner["Subject"] = "Inner"
    inner["From"] = "x@example.org"
    inner.set_content("inner body")
    outer = EmailMessage()
    outer["From"] = "alice@example.org"
    outer["To"] = ME
    outer["Subject"] = "Outer"
    outer["Message-ID"] = "<o@example.org>"
    outer.set_content("see attached mail")
    outer.add_attachment(inner, filename="inner.eml")
    raw = outer.as_bytes(policy=policy.SMTP)
    out = do_forward(raw, parse_message(raw))
    (attached,) = stdlib(out.raw).iter_attachments()
    assert attached.get_content_type() == "message/rfc822"
    content = attached.get_content()
    assert content["Subject"] == "Inner"
    assert content.get_content().strip() == "inner body"


def test_forward_bounds() -> None:
    raw, parsed = original(attachments=[("a.bin", "application/octet-stream", b"x" * 20_000)])
    with pytest.raises(TooLarge):
        do_forward(raw, parsed, max_bytes=len(raw) - 1)
    with pytest.raises(TooLarge):
        do_forward(raw, parsed, max_bytes=len(raw) + 100)  # the original fits, the forward does not
    many = EmailMessage()
    many["From"] = "alice@example.org"
    many.set_content("x")
    for i in range(compose_module.MAX_FORWARD_PARTS + 1):
        many.add_attachment(b"x", maintype="application", subtype="octet-stream", filename=f"{i}.bin")
    raw_many = many.as_bytes(policy=policy.SMTP)
    with pytest.raises(ComposeError, match="MIME parts"):
        do_forward(raw_many, parse_message(raw_many))


def test_forward_checks_its_recipients_and_note() -> None:
    raw, parsed = original()
    with pytest.raises(ComposeError, match=r"^to\[0\] "):
        do_forward(raw, parsed, to=["Eve <eve@x.test>"])
    with pytest.raises(ComposeError, match="at least one recipient"):
        do_forward(raw, parsed, to=[])
    with pytest.raises(ComposeError, match="NUL"):
        do_forward(raw, parsed, note="a\x00")
    # Recipients are checked before the original is read: a bad one is named even when the
    # original could not be forwarded at all.
    with pytest.raises(ComposeError, match=r"^cc\[0\] "):
        do_forward(b"\xff" * 100, parsed, cc=["no"], max_bytes=10)


def test_forward_refuses_hostile_structures_quickly() -> None:
    deep = b"From: a@b.test\r\n" + b"".join(
        b"Content-Type: multipart/mixed; boundary=b%d\r\n\r\n--b%d\r\n" % (i, i) for i in range(60)
    )
    # In a part: the top-level block reaches the MIME parser as its Content-* fields only (mime_view).
    too_many_fields = (
        b"From: a@b.test\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\n"
        + b"X-A: b\r\n" * 30_000
        + b"\r\nbody\r\n--b--\r\n"
    )
    for raw, error in ((deep, "too deeply"), (too_many_fields, "too many header fields")):
        with pytest.raises(ComposeError, match=error):
            do_forward(raw, parse_message(raw))
    top_level_flood = b"From: a@b.test\r\n" + b"X-A: b\r\n" * 30_000 + b"\r\nbody\r\n"
    assert b"body" in do_forward(top_level_flood, parse_message(top_level_flood)).raw


MIME_PIECES = st.sampled_from(
    [
        b"Content-Type: multipart/mixed; boundary=b\r\n",
        b'Content-Type: multipart/alternative; boundary="c"\r\n',
        b"Content-Type: message/rfc822\r\n",
        b"Content-Type: message/delivery-status\r\n",
        b"Content-Type: text/plain; charset=utf-7\r\n",
        b"Content-Disposition: attachment; filename*=utf-8''%FF%FE\r\n",
        b"Content-Disposition: attachment; filename*0*=x'y'%\r\n",
        b"Content-Transfer-Encoding: base64\r\n",
        b"Content-Transfer-Encoding: x-uuencode\r\n",
        b"begin 644 a\r\n",
        b"\r\n",
        b"--b\r\n",
        b"--b--\r\n",
        b"--c\r\n",
        b"Subject: \xff\xfe\r\n",
        b"From: a@b.test\r\n",
    ]
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(raw=st.lists(st.one_of(MIME_PIECES, st.binary(max_size=20)), max_size=40).map(b"".join))
def test_forward_of_any_bytes_builds_or_refuses_cleanly(raw: bytes) -> None:
    try:
        out = do_forward(raw, parse_message(raw), max_bytes=10**6)
    except (ComposeError, TooLarge):
        return
    assert b"\n" not in out.raw.replace(b"\r\n", b"") and b"\r" not in out.raw.replace(b"\r\n", b"")
    assert all(len(line) <= 78 for line in header_block(out.raw).split(b"\r\n"))
    assert stdlib(out.raw)["Message-ID"] == "<f1@agents.test>"
