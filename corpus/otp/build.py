#!/usr/bin/env python3
# Mail content is data: long literal lines and non-ASCII look-alike characters are intended.
# ruff: noqa: E501, RUF001
"""Generate the one-time-code / verification-link corpus: every ``*.eml`` and ``expected.json``.

Run from anywhere: ``python corpus/otp/build.py``. Standard library only (Python 3.11+),
deterministic (fixed dates, ids and boundaries; tokens derived from the case name with
SHA-256), so running it again rewrites byte-identical files. It ends with a self-check:
every file parses, every expected code / link / never-string is really in the decoded
message, and the coverage floor (120 positives, 40 negatives, 12 languages) holds.

Each case is a small function decorated with :func:`case`; the file is named after the
function. The function fills a :class:`Case` (subject, sender, text and/or HTML bodies,
expected codes and links, never-strings) using the HTML helpers below; the MIME structure,
charset, transfer encoding and subject encoding come from the decorator's options.
All content is synthetic: fictional people, tokens and numbers, modelled on the public shape
of such mails. See README.md for the schema and the decisions on ambiguous categories.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import quopri
import re
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, timezone
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import format_datetime
from html.parser import HTMLParser
from pathlib import Path
from textwrap import dedent
from typing import Any

HERE = Path(__file__).resolve().parent
BASE_DATE = datetime(2025, 3, 14, 8, 3, 17, tzinfo=UTC)
MIN_POSITIVES, MIN_NEGATIVES, MIN_LANGUAGES = 120, 40, 12

# Sender time zones by language (hours from UTC), for realistic Date headers.
_TZ = {
    "en": -7, "zh-Hans": 8, "zh-Hant": 8, "ja": 9, "ko": 9, "de": 1, "fr": 1, "es": 1, "pt": -3,
    "it": 1, "nl": 1, "ru": 3, "pl": 1, "tr": 3,
    "sv": 1, "cs": 1, "uk": 2, "vi": 7, "da": 1, "fi": 2, "hu": 1, "ro": 2, "el": 2, "id": 7,
}  # fmt: skip

KINDS = ("code", "link", "code+link", "negative")


# --- deterministic fake data ----------------------------------------------------------------

_B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def tok(seed: str, n: int = 32, alphabet: str = "b64url") -> str:
    """A deterministic token of ``n`` characters derived from ``seed``."""
    out: list[str] = []
    counter = 0
    while len(out) < n:
        digest = hashlib.sha256(f"{seed}/{counter}".encode()).digest()
        counter += 1
        if alphabet == "b64url":
            out.extend(base64.urlsafe_b64encode(digest).decode().rstrip("="))
        elif alphabet == "hex":
            out.extend(digest.hex())
        elif alphabet == "b62":
            out.extend(_B62[b % 62] for b in digest)
        elif alphabet == "b64":
            out.extend(base64.b64encode(digest).decode().rstrip("="))
        else:
            out.extend(alphabet[b % len(alphabet)] for b in digest)
    return "".join(out[:n])


# --- HTML helpers ---------------------------------------------------------------------------


def esc(url: str) -> str:
    """An attribute value as a careful sender writes it: ``&`` as ``&amp;``, quotes escaped."""
    return html.escape(url, quote=True)


def a(url: str, label: str, style: str = "color:#1a73e8;text-decoration:underline") -> str:
    return f'<a href="{esc(url)}" style="{style}" target="_blank" rel="noopener">{label}</a>'


def button(url: str, label: str, bg: str = "#1a73e8", fg: str = "#ffffff", radius: int = 4, vml: bool = False) -> str:
    """A "bulletproof" table button, optionally with the Outlook VML twin in a conditional comment."""
    link = (
        f'<a href="{esc(url)}" target="_blank" style="display:inline-block;padding:12px 28px;'
        f"background-color:{bg};color:{fg};font-weight:600;font-size:16px;text-decoration:none;"
        f'border-radius:{radius}px;mso-padding-alt:0">{label}</a>'
    )
    mso = ""
    if vml:
        mso = (
            f'<!--[if mso]><v:roundrect xmlns:v="urn:schemas-microsoft-com:vml" href="{esc(url)}" '
            f'style="height:44px;v-text-anchor:middle;width:240px;" arcsize="10%" stroke="f" fillcolor="{bg}">'
            f'<w:anchorlock/><center style="color:{fg};font-size:16px;">{label}</center></v:roundrect>'
            "<![endif]-->\n<!--[if !mso]><!-- -->"
        )
    tail = "<!--<![endif]-->" if vml else ""
    return (
        '<table role="presentation" border="0" cellpadding="0" cellspacing="0" style="margin:24px 0">'
        f'<tr><td align="center" bgcolor="{bg}" style="border-radius:{radius}px">{mso}{link}{tail}</td></tr></table>'
    )


def preheader(text: str) -> str:
    """Hidden inbox-preview text, padded the way ESPs pad it so body text does not leak in."""
    pad = "&#847;&zwnj;&nbsp;" * 12
    return (
        '<div style="display:none;font-size:1px;color:#ffffff;line-height:1px;max-height:0px;'
        f'max-width:0px;opacity:0;overflow:hidden;mso-hide:all">{text}{pad}</div>'
    )


def pixel(c: Case, url: str) -> str:
    """An open-tracking pixel; its URL must never be reported."""
    c.never(url)
    return f'<img src="{esc(url)}" width="1" height="1" alt="" style="display:block;border:0;width:1px;height:1px">'


def big(code_html: str, size: int = 32, spacing: int = 6, bg: str = "#f3f4f6", font: str = "monospace") -> str:
    """A code in a big styled block; ``code_html`` may hold spans or entities."""
    return (
        f'<div style="font-family:{font};font-size:{size}px;font-weight:700;letter-spacing:{spacing}px;'
        f'background:{bg};border-radius:8px;padding:16px 24px;margin:16px 0;text-align:center;color:#111">'
        f"{code_html}</div>"
    )


def cells(code: str, style: str = "border:1px solid #d0d7de;border-radius:6px;width:40px;height:48px") -> str:
    """One character per table cell, as many providers render a code."""
    tds = "".join(
        f'<td align="center" style="{style};font-size:28px;font-weight:700;font-family:Arial,sans-serif">{ch}</td>'
        f'<td style="width:8px">&nbsp;</td>'
        for ch in code
    )
    return (
        '<table role="presentation" cellpadding="0" cellspacing="0" border="0" align="center" '
        f'style="margin:20px auto"><tr>{tds}</tr></table>'
    )


def spans(*pieces: str, style: str = "") -> str:
    """Adjacent inline spans with no whitespace between them."""
    st = f' style="{style}"' if style else ""
    return "".join(f"<span{st}>{p}</span>" for p in pieces)


def card(
    c: Case,
    body: str,
    *,
    brand: str,
    accent: str = "#111111",
    pre: str | None = None,
    footer: str = "",
    logo: str | None = None,
    width: int = 600,
    title: str = "",
    lang: str | None = None,
    font: str = "-apple-system,BlinkMacSystemFont,'Segoe UI',Helvetica,Arial,sans-serif",
) -> str:
    """A modern table-based ESP layout: head styles, hidden preheader, logo row, card, footer."""
    lang = lang or c.lang
    logo_row = ""
    if logo:
        logo_row = (
            f'<tr><td style="padding:28px 32px 8px"><img src="{esc(logo)}" alt="{brand}" width="120" '
            f'style="display:block;border:0;height:auto"></td></tr>'
        )
    return f"""<!DOCTYPE html>
<html lang="{lang}" xmlns="http://www.w3.org/1999/xhtml" xmlns:v="urn:schemas-microsoft-com:vml">
<head>
<meta http-equiv="Content-Type" content="text/html; charset={c.charset}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="x-apple-disable-message-reformatting">
<title>{title or brand}</title>
<style type="text/css">
  body {{ margin:0; padding:0; -webkit-text-size-adjust:100%; }}
  table, td {{ border-collapse:collapse; mso-table-lspace:0pt; mso-table-rspace:0pt; }}
  @media only screen and (max-width:{width}px) {{ .container {{ width:100% !important; }} }}
</style>
<!--[if mso]><xml><o:OfficeDocumentSettings><o:PixelsPerInch>96</o:PixelsPerInch></o:OfficeDocumentSettings></xml><![endif]-->
</head>
<body style="margin:0;padding:0;background-color:#f4f5f7">
{preheader(pre) if pre else ""}
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#f4f5f7">
<tr><td align="center" style="padding:24px 8px">
<!--[if mso]><table role="presentation" width="{width}"><tr><td><![endif]-->
<table role="presentation" class="container" width="{width}" cellpadding="0" cellspacing="0" border="0"
 style="background-color:#ffffff;border-top:4px solid {accent};border-radius:6px">
{logo_row}
<tr><td style="padding:16px 32px 32px;font-family:{font};font-size:15px;line-height:24px;color:#24292f">
{body}
</td></tr>
</table>
{footer}
<!--[if mso]></td></tr></table><![endif]-->
</td></tr>
</table>
</body>
</html>
"""


def plain_html(body: str, *, font: str = "Arial,Helvetica,sans-serif", size: int = 14, head: bool = True) -> str:
    """A simple hand-written HTML mail (transactional systems, small senders)."""
    if not head:
        return body
    return (
        f'<html><head><meta charset="utf-8"></head><body style="font-family:{font};font-size:{size}px;color:#222">\n'
        f"{body}\n</body></html>\n"
    )


def foot(
    c: Case,
    lines: list[str],
    links: Sequence[tuple[str, str]] = (),
    decoys: Sequence[str] = (),
    *,
    sep: str = " &middot; ",
    color: str = "#6e7781",
) -> str:
    """A small-print footer. Its links and ``decoys`` become never-strings of the case."""
    c.never(*decoys)
    for _label, url in links:
        c.never(url)
    link_row = sep.join(a(url, label, f"color:{color};text-decoration:underline") for label, url in links)
    text = "<br>".join(lines)
    return (
        f'<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0"><tr>'
        f'<td align="center" style="padding:20px 24px;font-family:Arial,sans-serif;font-size:12px;'
        f'line-height:18px;color:{color}">{text}'
        f"{'<br><br>' + link_row if link_row else ''}</td></tr></table>"
    )


def social(c: Case, *urls: str) -> str:
    """A row of social icons; every URL is a never-string."""
    icons = []
    for url in urls:
        c.never(url)
        name = re.sub(r"^https?://(www\.)?([^./]+).*$", r"\2", url)
        icons.append(
            f'<a href="{esc(url)}" target="_blank"><img src="https://static.mailcdn.example/icons/{name}.png" '
            f'alt="{name}" width="24" height="24" style="border:0"></a>'
        )
    return '<p style="text-align:center;margin:12px 0">' + "&nbsp;&nbsp;".join(icons) + "</p>"


# --- rendering (shared by auto-generated text parts and the self-check) ---------------------

_BLOCK = frozenset(
    [
        "p",
        "div",
        "br",
        "tr",
        "li",
        "ul",
        "ol",
        "table",
        "tbody",
        "thead",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "section",
        "article",
        "header",
        "footer",
        "center",
        "blockquote",
        "pre",
        "hr",
        "dt",
        "dd",
        "dl",
        "address",
        "main",
        "nav",
        "aside",
        "form",
        "title",
    ]
)
_CELL = frozenset({"td", "th"})
_VOID = frozenset(["br", "img", "hr", "meta", "link", "input", "area", "base", "col", "wbr", "source"])
_SKIP = frozenset({"style", "script", "head", "template", "xml"})
CELL_SEP = "\x1f"


class Render(HTMLParser):
    """HTML to the text a reader sees: hidden elements apart, links with their anchor text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, bool]] = []
        self.visible: list[str] = []
        self.hidden: list[str] = []
        self.links: list[tuple[str, str]] = []
        self.images: list[str] = []
        self.all_text: list[str] = []
        self._anchor: tuple[str, list[str]] | None = None

    def _is_hidden(self) -> bool:
        return any(h for _, h in self.stack)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        at = {k: v or "" for k, v in attrs}
        style = at.get("style", "").replace(" ", "").lower()
        hidden = tag in _SKIP or "display:none" in style or "visibility:hidden" in style or "hidden" in at
        if tag in _BLOCK:
            self.visible.append("\n")
        elif tag in _CELL:
            self.visible.append(CELL_SEP)
        if tag == "a" and "href" in at:
            self._anchor = (at["href"], [])
        if tag == "img" and at.get("src"):
            self.images.append(at["src"])
        if tag not in _VOID:
            self.stack.append((tag, hidden))

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break
        if tag == "a" and self._anchor is not None:
            self.links.append((self._anchor[0], " ".join("".join(self._anchor[1]).split())))
            self._anchor = None
        if tag in _BLOCK:
            self.visible.append("\n")
        elif tag in _CELL:
            self.visible.append(CELL_SEP)

    def handle_data(self, data: str) -> None:
        self.all_text.append(data)
        if self._is_hidden():
            self.hidden.append(data)
            return
        self.visible.append(data)
        if self._anchor is not None:
            self._anchor[1].append(data)


def render(markup: str) -> Render:
    r = Render()
    r.feed(markup)
    r.close()
    return r


def auto_text(markup: str, style: str = "paren") -> str:
    """A text alternative generated from the HTML the way ESPs generate one.

    ``paren``: ``Label ( url )`` (Mailchimp-like); ``bracket``: ``Label [url]`` (Postmark-like);
    ``angle``: ``Label <url>``. Hidden text is left out; cells become spaces.
    """

    class _Text(Render):
        def handle_endtag(self, tag: str) -> None:
            if tag == "a" and self._anchor is not None and not self._is_hidden():
                url = self._anchor[0]
                label = " ".join("".join(self._anchor[1]).split())
                if url.startswith("http") and label != url:
                    self.visible.append({"paren": f" ( {url} )", "bracket": f" [{url}]", "angle": f" <{url}>"}[style])
            super().handle_endtag(tag)

    r = _Text()
    r.feed(markup)
    r.close()
    text = "".join(r.visible).replace(CELL_SEP, " ").replace("\xa0", " ").replace("\u200c", "").replace("\u034f", "")
    lines = [" ".join(line.split()) for line in text.split("\n")]
    out: list[str] = []
    for line in lines:
        if line or (out and out[-1]):
            out.append(line)
    return "\n".join(out).strip() + "\n"


def std(
    c: Case,
    body: str,
    *,
    brand: str,
    lines: list[str],
    links: Sequence[tuple[str, str]] = (),
    decoys: Sequence[str] = (),
    accent: str = "#111111",
    pre: str | None = None,
    soc: tuple[str, ...] = (),
    logo_url: str | None = None,
    track: str | None = None,
) -> str:
    """card() with a social row, a footer and optionally a tracking pixel."""
    footer = (social(c, *soc) if soc else "") + foot(c, lines, links, decoys)
    if track:
        footer += pixel(c, track)
    return card(c, body, brand=brand, accent=accent, pre=pre, footer=footer, logo=logo_url)


def p(text: str, style: str = "margin:0 0 16px") -> str:
    return f'<p style="{style}">{text}</p>'


def h1(text: str) -> str:
    return f'<h1 style="font-size:22px;line-height:30px;margin:0 0 16px;font-weight:600">{text}</h1>'


# --- MIME -----------------------------------------------------------------------------------


@dataclass
class Leaf:
    """One MIME leaf part."""

    ctype: str
    body: str | bytes
    charset: str | None = None
    cte: str = "7bit"
    params: str = ""
    headers: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class Multi:
    subtype: str
    parts: list[Leaf | Multi]
    params: str = ""


def _encode_body(data: bytes, cte: str) -> bytes:
    if cte == "base64":
        return base64.encodebytes(data)
    if cte == "quoted-printable":
        out = quopri.encodestring(data)
        return out if out.endswith(b"\n") else out + b"\n"
    if cte == "7bit" and not data.isascii():
        raise ValueError("7bit body with 8-bit data")
    if any(len(line) > 998 for line in data.split(b"\n")):
        raise ValueError(f"{cte} body with a line over 998 octets")
    return data if data.endswith(b"\n") else data + b"\n"


def _leaf_bytes(leaf: Leaf) -> bytes:
    ctype = leaf.ctype
    if leaf.charset:
        ctype += f"; charset={leaf.charset}" if leaf.charset.isalnum() else f'; charset="{leaf.charset}"'
    ctype += leaf.params
    head = [f"Content-Type: {ctype}"]
    if leaf.cte:
        head.append(f"Content-Transfer-Encoding: {leaf.cte}")
    head += [f"{k}: {v}" for k, v in leaf.headers]
    data = leaf.body.encode(leaf.charset or "ascii") if isinstance(leaf.body, str) else leaf.body
    return ("\n".join(head) + "\n\n").encode("ascii") + _encode_body(data, leaf.cte)


def _boundary(name: str, depth: int) -> str:
    h = hashlib.sha1(f"{name}/{depth}".encode(), usedforsecurity=False).hexdigest()
    style = int(h[0], 16) % 4
    if style == 0:
        return f"000000000000{h[1:13]}"
    if style == 1:
        return f"----=_Part_{int(h[1:6], 16)}_{int(h[6:11], 16)}.17419{int(h[11:19], 16) % 100000000:08d}"
    if style == 2:
        return f"=_{h[1:29]}"
    return f"--==_mimepart_{h[1:14]}_{int(h[14:19], 16)}"


def _part_bytes(part: Leaf | Multi, name: str, depth: int = 0) -> bytes:
    if isinstance(part, Leaf):
        return _leaf_bytes(part)
    b = _boundary(name, depth)
    out = [f'Content-Type: multipart/{part.subtype}; boundary="{b}"{part.params}\n\n'.encode()]
    if depth == 0 and int(hashlib.sha1(name.encode(), usedforsecurity=False).hexdigest()[5], 16) % 2:
        out.append(b"This is a multi-part message in MIME format.\n\n")
    for child in part.parts:
        out.append(f"--{b}\n".encode())
        out.append(_part_bytes(child, name, depth + 1))
        out.append(b"\n")
    out.append(f"--{b}--\n".encode())
    return b"".join(out)


def encoded_words(text: str, charset: str, mode: str) -> str:
    """RFC 2047 encoded words (B or Q), split on character boundaries, each at most 75 chars."""

    def word(chunk: str) -> str:
        data = chunk.encode(charset)
        if mode == "B":
            payload = base64.b64encode(data).decode()
        else:
            payload = "".join(
                "_" if byte == 0x20 else chr(byte) if chr(byte).isalnum() and byte < 128 else f"={byte:02X}"
                for byte in data
            )
        return f"=?{charset}?{mode}?{payload}?="

    words: list[str] = []
    chunk = ""
    for ch in text:
        if chunk and len(word(chunk + ch)) > 75:
            words.append(word(chunk))
            chunk = ch
        else:
            chunk += ch
    if chunk:
        words.append(word(chunk))
    return "\n ".join(words)


def header_text(text: str, charset: str, mode: str | None) -> str:
    """A header value: ASCII as is (unless a mode forces encoding), else encoded words."""
    if mode is None:
        if text.isascii():
            return text
        mode = "B"
    return encoded_words(text, charset, mode)


# --- cases ----------------------------------------------------------------------------------


class Case:
    """What one case function fills in."""

    def __init__(self, name: str, lang: str, kind: str, why: str, index: int, opts: dict[str, Any]) -> None:
        self.name, self.lang, self.kind, self.why, self.index = name, lang, kind, why, index
        self.charset: str = opts.pop("charset", "UTF-8")
        self.text_cte: str | None = opts.pop("text_cte", None)
        self.html_cte: str | None = opts.pop("html_cte", None)
        self.subject_mode: str | None = opts.pop("subject_mode", None)
        self.subject_charset: str | None = opts.pop("subject_charset", None)
        self.structure: str | None = opts.pop("structure", None)
        self.crlf: bool = opts.pop("crlf", index % 3 == 0)
        self.tz: float = opts.pop("tz", _TZ[lang])
        if opts:
            raise TypeError(f"{name}: unknown options {sorted(opts)}")
        self.subject = ""
        self.raw_subject: str | None = None
        self.sender = ""
        self.to = f"agent-{tok(name, 6, '0123456789abcdefghijklmnopqrstuvwxyz')}@inbox.agentmail.test"
        self.text: str | None = None
        self.html: str | None = None
        self.codes: list[str] = []
        self.links: list[str] = []
        self.never_list: list[str] = []
        self.pieces: list[str] = []
        # Further answers a reader accepts *after* the primary (a second labelled code, a second
        # button for the same action); written to expected.json only when non-empty.
        self.also_codes: list[str] = []
        self.also_links: list[str] = []
        self.headers: list[tuple[str, str]] = []
        self.attachments: list[Leaf] = []
        self.inline_images: list[Leaf] = []
        self.text_params = ""

    def never(self, *items: str) -> str:
        """Register never-strings (decoy numbers, footer links); returns the first one."""
        for item in items:
            if re.fullmatch(r"\d{1,3}", item):
                continue  # too short to be mistaken for a 4-8 digit code: not worth listing
            if item not in self.never_list:
                self.never_list.append(item)
        return items[0] if items else ""

    def t(self, seed: str, n: int = 32, alphabet: str = "b64url") -> str:
        """A token unique to this case."""
        return tok(f"{self.name}/{seed}", n, alphabet)

    # -- serialization

    def _cte(self, body: str, explicit: str | None) -> str:
        if explicit:
            return explicit
        data = body.encode(self.charset)
        if data.isascii() and all(len(line) <= 998 for line in data.split(b"\n")):
            return "7bit"
        return "quoted-printable" if self.charset.upper().startswith(("UTF", "ISO-8859", "WINDOWS")) else "base64"

    def mime(self) -> Leaf | Multi:
        if self.html is not None:
            # What senders do with characters their charset lacks: numeric character references.
            codec = "cp949" if self.charset.lower() == "ks_c_5601-1987" else self.charset
            self.html = self.html.encode(codec, "xmlcharrefreplace").decode(codec)
        parts: list[Leaf | Multi] = []
        if self.text is not None:
            parts.append(
                Leaf("text/plain", self.text, self.charset, self._cte(self.text, self.text_cte), self.text_params)
            )
        if self.html is not None:
            parts.append(Leaf("text/html", self.html, self.charset, self._cte(self.html, self.html_cte)))
        if not parts:
            raise ValueError(f"{self.name}: no body")
        body: Leaf | Multi = parts[0] if len(parts) == 1 else Multi("alternative", parts)
        if self.inline_images or self.structure == "related":
            body = Multi("related", [body, *self.inline_images], '; type="multipart/alternative"')
        if self.attachments:
            body = Multi("mixed", [body, *self.attachments])
        return body

    def to_bytes(self) -> bytes:
        tzinfo = timezone(timedelta(hours=self.tz))
        date = (BASE_DATE + timedelta(minutes=41 * self.index)).astimezone(tzinfo)
        domain = re.sub(r"^.*@([^>]+)>?$", r"\1", self.sender).strip()
        mid = f"<{tok(self.name, 20, 'hex')}.{int(date.timestamp())}@{domain}>"
        scs = self.subject_charset or self.charset
        subject = (
            self.raw_subject if self.raw_subject is not None else header_text(self.subject, scs, self.subject_mode)
        )
        name, _, addr = self.sender.rpartition(" <")
        sender = self.sender if name.isascii() else f"{header_text(name, scs, None)} <{addr}"
        head = [
            ("From", sender),
            ("To", self.to),
            ("Subject", subject),
            ("Date", format_datetime(date)),
            ("Message-ID", mid),
            *self.headers,
            ("MIME-Version", "1.0"),
        ]
        data = "".join(f"{k}: {v}\n" for k, v in head).encode("ascii") + _part_bytes(self.mime(), self.name)
        if self.crlf:
            data = data.replace(b"\n", b"\r\n")
        return data

    def expected(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "file": f"{self.name}.eml",
            "lang": self.lang,
            "kind": self.kind,
            "codes": self.codes,
            "links": self.links,
        }
        if self.also_codes:
            out["also_codes"] = self.also_codes
        if self.also_links:
            out["also_links"] = self.also_links
        out["never"] = self.never_list
        out["why"] = self.why
        return out


CaseFn = Callable[[Case], None]
CASES: list[tuple[str, str, str, dict[str, Any], CaseFn]] = []


def case(lang: str, kind: str, why: str, **opts: Any) -> Callable[[CaseFn], CaseFn]:
    """Register a case; the function's name is the file name."""
    if lang not in _TZ or kind not in KINDS:
        raise ValueError(f"bad lang/kind {lang}/{kind}")

    def deco(fn: CaseFn) -> CaseFn:
        CASES.append((lang, kind, why, opts, fn))
        return fn

    return deco


def png(seed: str) -> bytes:
    """A tiny valid-looking PNG (signature + deterministic filler) for inline logos."""
    return b"\x89PNG\r\n\x1a\n" + hashlib.sha256(seed.encode()).digest() * 3


def logo(c: Case, cid: str = "logo") -> str:
    """An inline (cid:) logo image part; returns the img tag."""
    c.inline_images.append(
        Leaf(
            "image/png",
            png(c.name),
            None,
            "base64",
            f'; name="{cid}.png"',
            [("Content-ID", f"<{cid}@{c.name}>"), ("Content-Disposition", f'inline; filename="{cid}.png"')],
        )
    )
    return f'<img src="cid:{cid}@{c.name}" alt="" width="140" height="36" style="display:block;border:0">'


# ============================================================================================
# CASES
# ============================================================================================

# --------------------------------------------------------------------------------------------
# English: login / verification codes
# --------------------------------------------------------------------------------------------

GH_FOOT = ["GitHub, Inc. &#12539;88 Colin P Kelly Jr Street &#12539;San Francisco, CA 94107"]


@case("en", "code", "GitHub device verification: labelled code, IP and docs links around it")
def en_github_device_verification(c: Case) -> None:
    c.sender = "GitHub <noreply@github.com>"
    c.subject = "[GitHub] Please verify your device"
    c.codes = ["482913"]
    sec = c.never("https://github.com/settings/security")
    docs = c.never("https://docs.github.com/articles/configuring-two-factor-authentication")
    c.never("203.0.113.42", "94107")
    c.text = dedent(f"""\
        Hey octo-jane!

        A sign in attempt requires further verification because we did not recognize your device.
        To complete the sign in, enter the verification code on the unrecognized device.

        Device: Chrome on macOS (IP 203.0.113.42)
        Verification code: 482913

        If you did not attempt to sign in to your account, your password may be compromised.
        Visit {sec} to create a new, strong password for your GitHub account.

        If you'd like to automatically verify devices in the future, consider enabling two-factor
        authentication on your account. Visit {docs} to learn about two-factor authentication.

        Thanks,
        The GitHub Team
        """)
    body = (
        h1("Please verify your identity, <strong>octo-jane</strong>")
        + p(
            "A sign in attempt requires further verification because we did not recognize your device. "
            "To complete the sign in, enter the verification code on the unrecognized device."
        )
        + p("<strong>Device:</strong> Chrome on macOS<br><strong>IP:</strong> 203.0.113.42")
        + p("<strong>Verification code:</strong>", "margin:16px 0 4px")
        + big("482913", size=28, spacing=4, bg="#f6f8fa")
        + p(
            f"If you did not attempt to sign in to your account, your password may be compromised. Visit "
            f"{a(sec, 'github.com/settings/security')} to create a new, strong password for your GitHub account."
        )
        + p(
            f"If you'd like to automatically verify devices in the future, consider enabling "
            f"{a(docs, 'two-factor authentication')} on your account."
        )
        + p("Thanks,<br>The GitHub Team")
    )
    c.html = std(
        c,
        body,
        brand="GitHub",
        lines=GH_FOOT,
        accent="#24292f",
        logo_url="https://github.githubassets.example/images/email/global/octocat-logo.png",
    )


@case("en", "code", "GitHub launch code: 8 digits, 'Open GitHub' link is not a verification link", html_cte="base64")
def en_github_launch_code(c: Case) -> None:
    c.sender = "GitHub <noreply@github.com>"
    c.subject = "🚀 Your GitHub launch code"
    c.codes = ["73915684"]
    home = c.never("https://github.com/")
    c.never("2025", "94107")
    body = (
        h1("Here's your GitHub launch code, @octo-jane!")
        + p("Continue signing up for GitHub by entering the code below:")
        + big(spans(*"73915684", style="padding:0 2px"), size=30, spacing=2)
        + button(home, "Open GitHub", bg="#2da44e")
        + p("The code will expire after 15 minutes on March 14, 2025.", "margin:0;color:#57606a;font-size:13px")
    )
    c.pieces = list("73915684")
    c.html = std(
        c, body, brand="GitHub", lines=GH_FOOT, accent="#2da44e", pre="Here's your GitHub launch code, @octo-jane!"
    )
    c.text = dedent(f"""\
        Here's your GitHub launch code, @octo-jane!

        Continue signing up for GitHub by entering the code below:

        73915684

        Open GitHub: {home}

        The code will expire after 15 minutes on March 14, 2025.

        ---
        GitHub, Inc. 88 Colin P Kelly Jr Street, San Francisco, CA 94107
        """)


@case("en", "code", "Google recovery-email code; digits in the address and the Google footer are decoys")
def en_google_recovery_email_code(c: Case) -> None:
    c.sender = "Google <no-reply@accounts.google.com>"
    c.subject = "Email verification code: 582047"
    c.codes = ["582047"]
    c.never("1987", "2025", "1600", "94043", "24")
    body = (
        logo(c) + '<div style="border-bottom:1px solid #dadce0;padding-bottom:16px;text-align:center;'
        'font-family:Google Sans,Roboto,Arial;font-size:24px">Verify your email</div>'
        + p(
            "Google received a request to use <a style='color:#1a73e8'>jane.doe.1987@example.com</a> as a "
            "recovery email for Google Account <b>jane.doe.work@example.net</b>.",
            "margin:20px 0",
        )
        + p("Use this code to finish setting up this recovery email:")
        + big("582047", size=36, spacing=8, bg="#ffffff", font="Google Sans,Roboto,Arial")
        + p("This code will expire in 24 hours.")
        + p(
            "If you don’t recognize <b>jane.doe.work@example.net</b>, you can safely ignore this email.",
            "color:#5f6368;font-size:13px",
        )
    )
    c.html = std(
        c,
        body,
        brand="Google",
        accent="#4285f4",
        lines=[
            "You received this email to let you know about important changes to your Google Account and services.",
            "© 2025 Google LLC, 1600 Amphitheatre Parkway, Mountain View, CA 94043, USA",
        ],
    )
    c.text = auto_text(c.html)


@case("en", "code", "Google SMS-style G- prefix, code split across spans", html_cte="base64")
def en_google_g_prefix_spans(c: Case) -> None:
    c.sender = "Google <no-reply@accounts.google.com>"
    c.subject = "G-774102 is your Google verification code"
    c.codes = ["G-774102", "774102"]
    c.pieces = ["G-", "77", "4102"]
    help_url = c.never("https://support.google.com/accounts/answer/185833?hl=en")
    c.never("185833", "2025", "94043", "1600")
    body = (
        p("Hi Jane,")
        + p("Someone is trying to sign in to your Google Account <b>jane.doe.work@example.net</b>.")
        + p("Your verification code is:")
        + '<div style="font-size:32px;font-weight:500;letter-spacing:3px;text-align:center;margin:20px 0">'
        + 'G-<span style="color:#1a73e8">77</span><span style="color:#1a73e8">4102</span></div>'
        + p(f"Don't share this code with anyone. {a(help_url, 'Learn more about verification codes')}.")
    )
    c.html = std(
        c,
        body,
        brand="Google",
        accent="#4285f4",
        lines=["© 2025 Google LLC, 1600 Amphitheatre Parkway, Mountain View, CA 94043"],
    )


MS_FOOT_LINKS = [
    ("Privacy Statement", "https://go.microsoft.com/fwlink/?LinkId=521839"),
]


@case("en", "code", "Microsoft account security code (7 digits); 'remove your email' link is not a verification link")
def en_microsoft_security_code(c: Case) -> None:
    c.sender = "Microsoft account team <account-security-noreply@accountprotection.microsoft.com>"
    c.subject = "Microsoft account security code"
    c.codes = ["5537210"]
    remove = c.never(f"https://account.live.com/dp?ft={c.t('ft', 40)}&uaid={c.t('uaid', 32, 'hex')}")
    c.never("521839", "98052")
    font = "font-family:'Segoe UI Semibold','Segoe UI Bold','Segoe UI','Helvetica Neue Medium',Arial,sans-serif"
    body = (
        f'<p style="{font};font-size:17px;color:#707070;margin:0">Microsoft account</p>'
        f'<p style="{font};font-size:41px;color:#2672ec;margin:8px 0 24px">Security code</p>'
        + p(
            "Please use the following security code for the Microsoft account <a style='color:#2672ec'>"
            "ja**e@example.com</a>."
        )
        + p("Security code: <span style='font-weight:bold'>5537210</span>")
        + p(
            f"If you don't recognize the Microsoft account ja**e@example.com, you can {a(remove, 'click here')} "
            "to remove your email address from that account."
        )
        + p("Thanks,<br>The Microsoft account team")
    )
    c.html = std(
        c,
        body,
        brand="Microsoft",
        accent="#2672ec",
        links=MS_FOOT_LINKS,
        lines=["Microsoft Corporation | One Microsoft Way Redmond, WA 98052"],
    )
    c.text = auto_text(c.html, "bracket")


@case(
    "en",
    "code",
    "Microsoft single-use code, 4 digits, text-only windows-1252 with curly quotes",
    charset="windows-1252",
    text_cte="quoted-printable",
)
def en_microsoft_single_use_code(c: Case) -> None:
    c.sender = "Microsoft account team <account-security-noreply@accountprotection.microsoft.com>"
    c.subject = "Your single-use code"
    c.codes = ["2745"]
    c.never("98052", "521839", "https://go.microsoft.com/fwlink/?LinkId=521839")
    c.text = dedent("""\
        Microsoft account

        Your single-use code

        Hi ja**e@outlook.example,

        We received your request for a single-use code to use with your Microsoft account.

        Your single-use code is: 2745

        Only enter this code on an official website or app. Don’t share it with anyone. We’ll never ask
        for it outside an official platform.

        If you didn’t request a code, you can safely ignore this email. Someone else might have typed your
        email address by mistake.

        Thanks,
        The Microsoft account team

        Privacy Statement: https://go.microsoft.com/fwlink/?LinkId=521839
        Microsoft Corporation, One Microsoft Way, Redmond, WA 98052
        """)


@case("en", "code", "Apple ID email verification; inline logo (multipart/related), Apple footer decoys")
def en_apple_id_verify_email(c: Case) -> None:
    c.sender = "Apple <appleid@id.apple.com>"
    c.subject = "Verify your Apple ID email address"
    c.codes = ["638201"]
    links = [
        ("Apple ID", "https://appleid.apple.com/"),
        ("Support", "https://support.apple.com/"),
        ("Privacy Policy", "https://www.apple.com/legal/privacy/"),
    ]
    img = logo(c)
    body = (
        img
        + h1("Verify your email address.")
        + p("Dear Jane Doe,")
        + p(
            "You have selected this email address as your new Apple ID. To verify this email address belongs "
            "to you, enter the code below on the email verification page:"
        )
        + '<p style="font-size:19px;font-weight:bold;margin:0 0 16px">638201</p>'
        + p("This code will expire three hours after this email was sent.")
        + p(
            "<b>Why you received this email.</b><br>Apple requires verification whenever an email address is "
            "selected as an Apple ID. Your Apple ID cannot be used until you verify it."
        )
        + p(
            "If you did not make this request, you can ignore this email. No Apple ID will be created without "
            "verification."
        )
        + p("Apple Support")
    )
    c.html = std(
        c,
        body,
        brand="Apple",
        accent="#ffffff",
        links=links,
        decoys=["2025", "95014"],
        lines=[
            "Copyright © 2025 Apple Inc. One Apple Park Way, Cupertino, CA 95014, United States. All rights reserved."
        ],
    )
    c.text = auto_text(c.html, "angle")


@case("en", "code", "Amazon OTP (password assistance); Amazon address and year in footer")
def en_amazon_otp_password_assistance(c: Case) -> None:
    c.sender = "Amazon <account-update@amazon.com>"
    c.subject = "Amazon password assistance"
    c.codes = ["318804"]
    body = (
        '<h2 style="font-size:20px;color:#c45500;margin:0 0 12px">Password assistance</h2>'
        + p("To authenticate, please use the following One Time Password (OTP):")
        + '<p style="font-size:24px;font-weight:bold;margin:0 0 16px">318804</p>'
        + p(
            "Don't share this OTP with anyone. Our customer service team will never ask you for your password, "
            "OTP, credit card, or banking info."
        )
        + p("We hope to see you again soon.")
    )
    c.html = std(
        c,
        body,
        brand="Amazon",
        accent="#ff9900",
        decoys=["2025", "98109"],
        lines=[
            "©2025 Amazon.com, Inc. or its affiliates. Amazon and all related marks are trademarks of "
            "Amazon.com, Inc. or its affiliates.",
            "Amazon.com, 410 Terry Avenue N., Seattle, WA 98109.",
        ],
    )
    c.text = auto_text(c.html)


@case("en", "code", "code only in the subject; the body has no code and no keyword")
def en_uber_code_in_subject(c: Case) -> None:
    c.sender = "Uber <noreply@uber.com>"
    c.subject = "Your Uber code: 4821"
    c.codes = ["4821"]
    c.never("1725", "94158")
    c.text = dedent("""\
        Hi Jane,

        Enter it in the Uber app to continue. It expires in 5 minutes.

        If this wasn't you, you can ignore this email.

        Uber Technologies Inc., 1725 3rd Street, San Francisco, CA 94158
        """)


@case("en", "code", "keyword only in the subject; the body holds the code alone", structure=None)
def en_acme_keyword_subject_only(c: Case) -> None:
    c.sender = "Acme Cloud <no-reply@acmecloud.example>"
    c.subject = "Your Acme Cloud verification code"
    c.codes = ["729164"]
    c.never("09:30")
    c.html = plain_html(
        '<h1 style="font-size:36px;letter-spacing:6px;margin:24px 0">729164</h1>'
        "<p>It expires at 09:30 UTC.</p><p style='color:#888'>Acme Cloud &middot; Suite 500</p>"
    )


SLACK_LINKS = [
    ("Our Blog", "https://slack.com/blog"),
    ("Policies", "https://slack.com/legal"),
    ("Help Center", "https://slack.com/help"),
    ("Slack Community", "https://slack.com/community"),
]
SLACK_FOOT = [
    "©2025 Slack Technologies, LLC, a Salesforce company.",
    "415 Mission Street, 3rd Floor, San Francisco, CA 94105",
    "All rights reserved.",
]


@case("en", "code", "Slack confirmation code XXX-XXX alphanumeric with dash, in subject, preheader and box")
def en_slack_confirmation_code(c: Case) -> None:
    c.sender = "Slack <no-reply@email.slackhq.com>"
    c.subject = "Slack confirmation code: 7XJ-K2P"
    c.codes = ["7XJ-K2P", "7XJK2P"]
    body = (
        h1("Confirm your email address")
        + p("Your confirmation code is below — enter it in your open browser window and we'll help you get signed in.")
        + '<table role="presentation" width="100%"><tr><td align="center" style="background:#f5f4f5;'
        'border-radius:4px;padding:40px 0;font-size:30px;line-height:36px;font-family:Lato,Helvetica,sans-serif">'
        "7XJ-K2P</td></tr></table>"
        + p(
            "If you didn't request this email, there's nothing to worry about — you can safely ignore it.",
            "margin:24px 0;color:#434245",
        )
    )
    c.html = std(
        c,
        body,
        brand="Slack",
        accent="#4a154b",
        links=SLACK_LINKS,
        lines=SLACK_FOOT,
        decoys=["2025", "94105"],
        pre="Confirmation code: 7XJ-K2P",
        track=f"https://slack.com/emails/px/{c.t('px', 48)}.png",
    )
    c.text = auto_text(c.html)


@case("en", "link", "Slack magic sign-in link with digits in the URL; help/blog links are not primary")
def en_slack_magic_link(c: Case) -> None:
    c.sender = "Slack <feedback@slack.com>"
    c.subject = "Slack sign-in link for acme-corp"
    url = f"https://acme-corp.slack.com/z-app-4821937150-2210593847361?x=x-p4821937150-{c.t('x', 24, 'hex')}"
    c.links = [url]
    c.never("4821937150", "2210593847361")
    body = (
        h1("Sign in to Slack")
        + p(
            "Click the button below to sign in to the <b>acme-corp</b> workspace. This link will expire in "
            "24 hours and can only be used once."
        )
        + button(url, "Sign in to Slack", bg="#611f69", vml=True)
        + p(f"Or copy and paste this link into your browser:<br><span style='font-size:12px'>{html.escape(url)}</span>")
    )
    c.html = std(
        c, body, brand="Slack", accent="#4a154b", links=SLACK_LINKS, lines=SLACK_FOOT, decoys=["2025", "94105"]
    )
    c.text = auto_text(c.html)


@case("en", "code+link", "Notion magic link plus a letter-spaced temporary login code")
def en_notion_magic_link_and_code(c: Case) -> None:
    c.sender = "Notion Team <notify@mail.notion.so>"
    c.subject = "Your Notion login link"
    url = f"https://www.notion.so/loginwithemail?state={c.t('state', 36)}&token={c.t('token', 60)}"
    c.links = [url]
    c.codes = ["493271"]
    c.never("2300")
    body = (
        h1("Login link")
        + p(a(url, "Click here to log in with this magic link", "color:#2eaadc;font-size:16px"))
        + p("Or, copy and paste this temporary login code:")
        + '<code style="display:inline-block;padding:16px 4.5%;width:90%;background:#f4f4f4;border-radius:4px;'
        'border:1px solid #eee;color:#333;letter-spacing:0.4em;font-size:22px">493271</code>'
        + p("If you didn't try to login, you can safely ignore this email.", "color:#aaa;margin-top:14px")
        + p("Hint: You can set a permanent password in Settings &amp; members → My account.", "color:#aaa")
    )
    c.html = std(
        c,
        body,
        brand="Notion",
        lines=["Notion Labs, Inc., 2300 Harrison Street, San Francisco, CA 94110"],
        decoys=["94110"],
    )
    c.text = auto_text(c.html, "bracket")


@case("en", "link", "Discord verify-email via an opaque SendGrid click-tracking redirect; blog link shares the host")
def en_discord_verify_email(c: Case) -> None:
    c.sender = "Discord <noreply@discord.com>"
    c.subject = "Verify Email Address for Discord"

    def upn(seed: str) -> str:
        return (
            f"https://click.discord.com/ls/click?upn=u001.{c.t(seed + 'a', 46)}-2F{c.t(seed + 'b', 38)}"
            f"-2BU-3D{c.t(seed + 'c', 24)}"
        )

    verify, blog, tw = upn("verify"), upn("blog"), upn("tw")
    c.links = [verify]
    c.never(blog, tw, "94107")
    body = (
        h1("Hey jane_doe,")
        + p(
            "Thanks for registering for an account on Discord! Before we get started, we just need to confirm "
            "that this is you. Click below to verify your email address:"
        )
        + button(verify, "Verify Email", bg="#5865f2", radius=3)
    )
    footer = foot(
        c,
        [
            f"Sent by Discord • {a(blog, 'check our blog')} • {a(tw, '@discord')}",
            "444 De Haro Street, Suite 200, San Francisco, CA 94107",
        ],
    )
    footer += pixel(c, f"https://click.discord.com/wf/open?upn={c.t('open', 120)}")
    c.html = card(c, body, brand="Discord", accent="#5865f2", footer=footer)
    c.text = f"Hey jane_doe,\n\nThanks for registering for an account on Discord! Click below to verify your email address:\n\nVerify Email: {verify}\n\nSent by Discord\n"


@case("en", "link", "Discord new-location login approval; IP address and location are decoys")
def en_discord_new_location(c: Case) -> None:
    c.sender = "Discord <noreply@discord.com>"
    c.subject = "Verify Discord Login from New Location"
    url = f"https://discord.com/authorize-ip?token={c.t('t1', 28)}.{c.t('t2', 6)}.{c.t('t3', 27)}"
    c.links = [url]
    c.never("198.51.100.23", "94107")
    body = (
        h1("Hey jane_doe,")
        + p(
            "It looks like someone tried to log into your Discord account from a new location. If this is "
            "you, follow the link below to authorize logging in from this location on your account. If this "
            "isn't you, we suggest changing your password as soon as possible."
        )
        + p("<b>IP Address:</b> 198.51.100.23<br><b>Location:</b> Frankfurt am Main, Hesse, Germany")
        + button(url, "Verify Login", bg="#5865f2", radius=3)
    )
    c.html = std(
        c,
        body,
        brand="Discord",
        accent="#5865f2",
        lines=["Sent by Discord", "444 De Haro Street, Suite 200, San Francisco, CA 94107"],
    )
    c.text = auto_text(c.html)


@case("en", "code", "Stripe code written '305 918' with a space; support link only", structure=None)
def en_stripe_verification_code(c: Case) -> None:
    c.sender = "Stripe <notifications@stripe.com>"
    c.subject = "Your Stripe verification code"
    c.codes = ["305918", "305 918"]
    support = "https://support.stripe.com/contact"
    body = (
        p("Hi Jane,")
        + p("Use this code to finish logging in to your Stripe account:")
        + big("305&nbsp;918", size=30, spacing=2, bg="#f6f9fc", font="SF Mono,Menlo,monospace")
        + p(
            "This code expires in 10 minutes. If you didn't try to log in, "
            f"{a(support, 'contact Stripe support')} right away."
        )
        + p("— The Stripe team")
    )
    c.html = std(
        c,
        body,
        brand="Stripe",
        accent="#635bff",
        links=[("Support", support)],
        decoys=["94080", "354"],
        lines=["Stripe, 354 Oyster Point Blvd, South San Francisco, CA 94080"],
        pre="Use this code to finish logging in.",
    )
    c.text = auto_text(c.html)


@case("en", "code", "Shopify login code rendered one digit per table cell; postal code K2P 2L8", html_cte="base64")
def en_shopify_login_code_cells(c: Case) -> None:
    c.sender = "Shopify <mailer@shopify.com>"
    c.subject = "Your Shopify login code"
    c.codes = ["581204"]
    c.pieces = list("581204")
    body = (
        h1("Log in to Shopify")
        + p("Here's your login code. It will expire in 20 minutes.")
        + cells("581204")
        + p(
            "If you didn't request this code, you can safely ignore this email. Someone else might have typed "
            "your email address by mistake.",
            "color:#616161;font-size:13px",
        )
    )
    c.html = std(
        c,
        body,
        brand="Shopify",
        accent="#008060",
        links=[("Help Center", "https://help.shopify.com/")],
        lines=["Shopify Inc., 151 O'Connor Street, Ground floor, Ottawa, ON K2P 2L8, Canada"],
        decoys=["K2P 2L8", "K2P2L8", "K2P"],
    )


@case("en", "code", "X (Twitter) lowercase alphanumeric code in subject and body; street numbers in footer")
def en_x_confirmation_code(c: Case) -> None:
    c.sender = "X <info@x.com>"
    c.subject = "Your X confirmation code is qf8x2mtk"
    c.codes = ["qf8x2mtk"]
    nma = f"https://x.com/i/not_my_account/{c.t('nma', 20, 'hex')}"
    helpu = "https://help.x.com/"
    c.never(nma)
    body = (
        h1("Confirm your email address")
        + p(
            "There’s one quick step you need to complete before creating your X account. Let’s make sure this "
            "is the right email address for you — please confirm this is the right address to use for your new "
            "account."
        )
        + p("Please enter this verification code to get started on X:")
        + '<p style="font-size:32px;font-weight:bold;line-height:36px;margin:0 0 16px">qf8x2mtk</p>'
        + p("Verification codes expire after two hours.")
        + p(f"Thanks,<br>X<br><br>{a(nma, 'Not my account')}")
    )
    c.html = std(
        c,
        body,
        brand="X",
        accent="#000000",
        links=[("Help", helpu)],
        decoys=["1355", "94103", "900"],
        lines=["X Corp. 1355 Market Street, Suite 900 San Francisco, CA 94103"],
    )
    c.text = auto_text(c.html)


IG_FOOT = [
    "© Instagram. Meta Platforms, Inc., 1601 Willow Road, Menlo Park, CA 94025",
    "This message was sent to jane.doe+ig94@example.com.",
]


@case("en", "code", "Instagram login code; its 'wasn't you? reset your password' link is account management")
def en_instagram_login_code(c: Case) -> None:
    c.sender = "Instagram <security@mail.instagram.com>"
    c.subject = "164905 is your Instagram code"
    c.codes = ["164905"]
    reset = f"https://www.instagram.com/accounts/password/reset/?uidb36=1a2b3c&token={c.t('rt', 26)}&s=security_code"
    c.links = []
    c.never(reset)
    body = (
        p("Hi jane_doe_94,")
        + p(
            "Someone tried to log in to your Instagram account. If this was you, please use the following code "
            "to confirm your identity:"
        )
        + '<p style="font-size:32px;font-weight:600;letter-spacing:2px;margin:8px 0 24px">164905</p>'
        + p(f"If this wasn't you, please {a(reset, 'reset your password')} to secure your account.")
    )
    c.html = std(
        c,
        body,
        brand="Instagram",
        accent="#e1306c",
        lines=IG_FOOT,
        decoys=["1601", "94025"],
        links=[("Unsubscribe", f"https://www.instagram.com/emails/unsubscribe/?token={c.t('u', 30)}")],
    )
    c.text = auto_text(c.html)


@case("en", "code+link", "Facebook FB- prefixed confirmation code (subject) and Confirm button with &amp; in href")
def en_facebook_confirmation(c: Case) -> None:
    c.sender = "Facebook <registration@facebookmail.com>"
    c.subject = "FB-48291 is your Facebook confirmation code"
    c.codes = ["48291", "FB-48291"]
    url = (
        f"https://www.facebook.com/confirmemail.php?e=jane.doe%40example.com&c=48291&z=0&gfid="
        f"{c.t('gfid', 40)}&cuid={c.t('cuid', 64)}"
    )
    c.links = [url]
    body = (
        p("Hi Jane,")
        + p(
            "You recently registered for Facebook. To complete your Facebook registration, please confirm your account."
        )
        + button(url, "Confirm your account", bg="#1877f2", radius=6)
        + p("You may be asked to enter this confirmation code:")
        + '<p style="font-size:20px;font-weight:bold;background:#f2f2f2;display:inline-block;padding:10px">'
        "48291</p>"
        + p(
            "Facebook helps you communicate and stay in touch with all of your friends. Once you join Facebook, "
            "you'll be able to share photos, plan events and more."
        )
    )
    c.html = std(
        c,
        body,
        brand="Facebook",
        accent="#1877f2",
        decoys=["94025"],
        lines=[
            "This message was sent to jane.doe@example.com at your request.",
            "Meta Platforms, Inc., Attention: Community Support, 1 Meta Way, Menlo Park, CA 94025",
        ],
    )
    c.text = auto_text(c.html)


@case("en", "code", "Facebook 8-digit account recovery code, text-only")
def en_facebook_recovery_code(c: Case) -> None:
    c.sender = "Facebook <security@facebookmail.com>"
    c.subject = "48291357 is your Facebook account recovery code"
    c.codes = ["48291357"]
    c.never("94025")
    c.text = dedent("""\
        Hi Jane,

        We received a request to reset your Facebook password.
        Enter the following password reset code:

            48291357

        Didn't request this change?
        If you didn't request a new password, let us know.

        This message was sent to jane.doe@example.com at your request.
        Meta Platforms, Inc., Attention: Community Support, 1 Meta Way, Menlo Park, CA 94025
        To help keep your account secure, please don't forward this email.
        """)


@case("en", "code", "TikTok verification: subject keyword, '48 hours', footer street address")
def en_tiktok_verification(c: Case) -> None:
    c.sender = "TikTok <no-reply@account.tiktok.com>"
    c.subject = "274039 is your verification code"
    c.codes = ["274039"]
    body = (
        '<p style="font-size:20px;font-weight:bold;margin:0 0 16px">Verification code</p>'
        + p("To verify your account, enter this code in TikTok:")
        + '<p style="font-size:20px;font-weight:bold">274039</p>'
        + p("Verification codes expire after 48 hours.")
        + p("If you didn't request this code, you can ignore this message.")
        + p("TikTok Support Team")
    )
    c.html = std(
        c,
        body,
        brand="TikTok",
        accent="#fe2c55",
        links=[("Help center", "https://support.tiktok.com/")],
        decoys=["5800", "90230"],
        lines=[
            "Have a question? Check out our help center.",
            "This email was generated automatically. Please do not reply to this email.",
            "5800 Bristol Pkwy, Culver City, CA 90230",
        ],
    )
    c.text = auto_text(c.html)


@case("en", "code", "LinkedIn PIN; help link carries 'midToken' (must not count), year and address in footer")
def en_linkedin_pin(c: Case) -> None:
    c.sender = "LinkedIn <security-noreply@linkedin.com>"
    c.subject = "Jane, here's your PIN 809124"
    c.codes = ["809124"]
    mid = c.t("mid", 42)
    help_url = (
        f"https://www.linkedin.com/help/linkedin/answer/4788?lang=en&lipi=urn%3Ali%3Apage%3Aemail_"
        f"security_pin%3BcHxX9r2kQ%2BuL7e1Yw%3D%3D&midToken={mid}&midSig=2Jq1xj_Y7EYqE1&trk=eml-"
        f"email_security_pin_01-footer-0-learn_why&trkEmail=eml-email_security_pin_01-footer-0"
    )
    unsub = (
        f"https://www.linkedin.com/comm/psettings/email-unsubscribe?lipi=urn%3Ali%3Apage%3Aemail_"
        f"security_pin&midToken={mid}&loid={c.t('loid', 40)}"
    )
    body = (
        p("Hi Jane,")
        + p("Please use this verification code to complete your sign in:")
        + '<p style="font-size:24px;font-weight:bold;margin:0 0 16px">809124</p>'
        + p("If you didn't try to sign in, someone may know your password.")
    )
    c.html = std(
        c,
        body,
        brand="LinkedIn",
        accent="#0a66c2",
        links=[("Learn why we included this.", help_url), ("Unsubscribe", unsub)],
        decoys=["4788", "2025", "1000", "94085"],
        lines=[
            "This email was intended for Jane Doe (Software Engineer at Acme).",
            "© 2025 LinkedIn Corporation, 1000 West Maude Avenue, Sunnyvale, CA 94085.",
            "LinkedIn and the LinkedIn logo are registered trademarks of LinkedIn.",
        ],
    )
    c.text = auto_text(c.html)


@case("en", "code", "Dropbox security code '730 661', text-only 7bit, PO box and ZIP decoys")
def en_dropbox_security_code(c: Case) -> None:
    c.sender = "Dropbox <no-reply@dropbox.com>"
    c.subject = "Your Dropbox security code"
    c.codes = ["730661", "730 661"]
    c.never("77767", "94107")
    c.text = dedent("""\
        Hi Jane,

        Someone (hopefully you) is trying to sign in to Dropbox from a new device.
        To finish signing in, enter this security code:

        730 661

        This code will expire in 1 hour.

        Happy Dropboxing!
        - The Dropbox Team

        Dropbox, Inc., PO Box 77767, San Francisco, CA 94107
        """)


@case("en", "code", "Atlassian uppercase alphanumeric code; Sydney postcode 2000 looks like a year")
def en_atlassian_verification(c: Case) -> None:
    c.sender = "Atlassian <noreply@id.atlassian.com>"
    c.subject = "Your Atlassian verification code"
    c.codes = ["Q5ZV9R"]
    body = (
        h1("Verify your email to continue")
        + p(
            "We've received a request to create an Atlassian account for jane.doe@example.com. "
            "To finish signing up, enter this verification code:"
        )
        + '<div style="font-size:28px;font-weight:600;letter-spacing:0.3em;padding:12px 0">'
        "<strong>Q5ZV9R</strong></div>" + p("This code expires in 30 minutes.")
    )
    c.html = std(
        c,
        body,
        brand="Atlassian",
        accent="#0052cc",
        links=[("Privacy Policy", "https://www.atlassian.com/legal/privacy-policy")],
        decoys=["2000", "341"],
        lines=[
            "This message was sent to you by Atlassian Cloud",
            "Atlassian. Level 6, 341 George Street, Sydney NSW 2000, Australia",
        ],
    )
    c.text = auto_text(c.html)


@case("en", "link", "Zoom account activation: button and pasted URL with &; phone number and ZIP decoys")
def en_zoom_activate(c: Case) -> None:
    c.sender = "Zoom <no-reply@zoom.us>"
    c.subject = "Please activate your Zoom account"
    url = f"https://zoom.us/activate?code={c.t('code', 43)}&fr=signup&email=jane.doe%40example.com"
    c.links = [url]
    body = (
        p("Hello jane.doe@example.com,")
        + p("Welcome to Zoom!")
        + p("To activate your account please click the button below to verify your email address:")
        + button(url, "Activate Account", bg="#0e72ed", radius=8)
        + p(f"Or paste this link into your browser:<br>{a(url, html.escape(url), 'color:#0e72ed;font-size:12px')}")
        + p("Questions? Call +1.888.799.9666 or visit the Zoom Help Center.")
    )
    c.html = std(
        c,
        body,
        brand="Zoom",
        accent="#0e72ed",
        links=[("Help Center", "https://support.zoom.com/hc")],
        decoys=["888.799.9666", "9666", "2025", "95113"],
        lines=[
            "Copyright ©2025 Zoom Video Communications, Inc. All rights reserved.",
            "55 Almaden Blvd, 6th Floor, San Jose, CA 95113",
        ],
    )
    c.text = auto_text(c.html)


@case("en", "code+link", "Okta email magic link with a code fallback; request metadata (IP, OS version, time) decoys")
def en_okta_email_link_and_code(c: Case) -> None:
    c.sender = "Okta <noreply@okta.com>"
    c.subject = "Sign in to Acme"
    url = (
        f"https://acme.okta.com/email/verify/00ub0oNGTSWTBKOLGLNR?token=ftr{c.t('tok', 40)}"
        f"&state=02.id.{c.t('st', 30)}&redirect_uri=https%3A%2F%2Facme.okta.com%2Fapp%2FUserHome"
    )
    c.links = [url]
    c.codes = ["601842"]
    c.never("203.0.113.87", "14.3", "08:12", "2025")
    body = (
        h1("Hi Jane,")
        + p(
            "You have requested an email link to sign in to Acme. To finish signing in, click the button below "
            "or enter the provided code. If you did not request this email, please contact an administrator."
        )
        + button(url, "Sign In", bg="#1662dd", radius=3)
        + p("This link expires in 5 minutes.")
        + p("Can't use the link? Enter a code instead: <b style='font-size:18px'>601842</b>")
        + '<table role="presentation" style="font-size:13px;color:#6e6e78"><tr><td>Request made from:</td>'
        "<td>Chrome, macOS 14.3</td></tr><tr><td>IP:</td><td>203.0.113.87 (Frankfurt, Germany)</td></tr>"
        "<tr><td>Time:</td><td>14 March 2025 08:12 UTC</td></tr></table>"
    )
    c.html = std(
        c,
        body,
        brand="Okta",
        accent="#1662dd",
        lines=["This is an automatically generated message from Okta. Replies are not monitored or answered."],
    )
    c.text = auto_text(c.html, "bracket")


@case("en", "code", "Auth0 passwordless template: subject without keyword, '#4821' suite number decoy")
def en_auth0_passwordless(c: Case) -> None:
    c.sender = "Acme Notes <no-reply@acmenotes.example>"
    c.subject = "Welcome to Acme Notes"
    c.codes = ["908134"]
    body = (
        '<img src="https://cdn.auth0.example/styleguide/components/1.0.8/media/logos/img/badge.png" width="50">'
        + h1("Welcome to Acme Notes")
        + p("Your verification code is: <b>908134</b>")
        + p(
            "This code will expire in five minutes. If you are having any issues with your account, please "
            "don't hesitate to contact us by replying to this mail."
        )
        + p("Thanks!")
    )
    c.html = plain_html(
        body + '<p style="color:#999;font-size:12px">Acme Notes Inc. · 2261 Market St #4821 · '
        "San Francisco, CA 94114</p>"
    )
    c.never("4821", "2261", "94114", "1.0.8")


@case("en", "code", "Twilio Verify 4-digit code, text-only, toll-free number decoy")
def en_twilio_verify_4digit(c: Case) -> None:
    c.sender = "Acme Health <verify@acmehealth.example>"
    c.subject = "Your Acme Health verification code"
    c.codes = ["9734"]
    c.never("1-800-555-0199", "0199", "8005550199", "555-0199")
    c.text = (
        "9734 is your Acme Health verification code. Do not share it.\n\n"
        "Need help? Call 1-800-555-0199 (Mon-Fri, 8am-6pm CT).\n\n-- \nSent with Twilio Verify\n"
    )


@case("en", "link", "Coinbase new-device confirmation; device, IP and UTC time decoys")
def en_coinbase_new_device(c: Case) -> None:
    c.sender = "Coinbase <no-reply@coinbase.com>"
    c.subject = "Confirm your new device"
    url = f"https://www.coinbase.com/device_confirmations/{c.t('dc', 32, 'hex')}?email=jane.doe%40example.com"
    c.links = [url]
    c.never("198.51.100.144", "2025-03-14", "08:44:12", "17.3", "10.15.7", "1250", "94111")
    body = (
        h1("Confirm new device")
        + p("We noticed a new sign-in attempt to your Coinbase account. If this was you, confirm the device below.")
        + '<table role="presentation" cellpadding="4" style="font-size:14px;background:#f5f8ff;width:100%">'
        "<tr><td><b>Device</b></td><td>Safari 17.3 on Mac OS X 10.15.7</td></tr>"
        "<tr><td><b>IP address</b></td><td>198.51.100.144</td></tr>"
        "<tr><td><b>Location</b></td><td>Berlin, DE</td></tr>"
        "<tr><td><b>Time</b></td><td>2025-03-14 08:44:12 UTC</td></tr></table>"
        + button(url, "Confirm this device", bg="#0052ff", radius=24)
        + p("If you did not try to sign in, do not click the button and change your password immediately.")
    )
    c.html = std(
        c,
        body,
        brand="Coinbase",
        accent="#0052ff",
        lines=["Coinbase, Inc. 100 Pine Street, Suite 1250, San Francisco, CA 94111"],
    )
    c.text = auto_text(c.html)


@case("en", "code", "Binance: user's anti-phishing code (alphanumeric) sits above the real verification code")
def en_binance_registration(c: Case) -> None:
    c.sender = "Binance <do-not-reply@ses.binance.com>"
    c.subject = "[Binance] Confirm Your Registration"
    c.codes = ["613375"]
    soc = ("https://twitter.com/binance", "https://www.facebook.com/binance", "https://t.me/binanceexchange")
    body = (
        '<p style="background:#fcd535;padding:6px 12px;font-size:13px">Anti-Phishing Code: <b>Blue7Fox</b></p>'
        + h1("Confirm Your Registration")
        + p("Welcome to Binance!")
        + p("Your verification code:")
        + '<p style="font-size:26px;color:#f0b90b;font-weight:bold;margin:0 0 16px">613375</p>'
        + p("The verification code will be valid for 30 minutes. Please do not share this code with anyone.")
        + p("<i>This is an automated message, please do not reply.</i>", "color:#888")
    )
    c.html = std(
        c,
        body,
        brand="Binance",
        accent="#f0b90b",
        soc=soc,
        decoys=["2017", "2025"],
        lines=["Stay connected!", "© 2017 - 2025 Binance.com, All Rights Reserved."],
    )
    c.text = auto_text(c.html)


@case(
    "en",
    "link",
    "PayPal password reset; signed token URL soft-broken by QP; template id 'RT000238' decoy",
    html_cte="quoted-printable",
)
def en_paypal_password_reset(c: Case) -> None:
    c.sender = "PayPal <service@paypal.com>"
    c.subject = "Reset your PayPal password"
    url = (
        f"https://www.paypal.com/authflow/password-recovery/?token={c.t('tok', 64)}&country.x=US"
        f"&locale.x=en_US&redirectUri=%252Fsignin&v=1&utm_source=unp&utm_medium=email&utm_campaign=RT000238"
        f"&utm_unptid={c.t('unptid', 36)}&ppid=RT000238&cnac=US&rsta=en_US"
    )
    contact = "https://www.paypal.com/us/smarthelp/contact-us"
    c.links = [url]
    body = (
        p("Hello, Jane Doe")
        + h1("Let's reset your password")
        + p(
            "We received a request to reset the password for your PayPal account. Click the button below to "
            "create a new password."
        )
        + button(url, "Reset password", bg="#0070e0", radius=24)
        + p(f"This link expires in 2 hours. If you didn't request a password reset, {a(contact, 'contact us')}.")
    )
    c.html = std(
        c,
        body,
        brand="PayPal",
        accent="#003087",
        links=[("Help & Contact", contact)],
        decoys=["1999", "2025", "2211", "95131", "RT000238"],
        lines=[
            "Copyright © 1999-2025 PayPal, Inc. All rights reserved. PayPal is located at 2211 North "
            "First Street, San Jose, California 95131.",
            "PayPal RT000238:en_US(en-US):1.4.0:f1c9e8b0d",
        ],
    )


@case("en", "link", "Medium magic sign-in link; PMB number and ZIP+4 decoys")
def en_medium_magic_link(c: Case) -> None:
    c.sender = "Medium <noreply@medium.com>"
    c.subject = "Sign in to Medium"
    url = (
        f"https://medium.com/m/callback/email?token={c.t('tok', 32, 'hex')}&operation=login&state=medium"
        "&source=-----email_signin-----------"
    )
    c.links = [url]
    body = (
        h1("Sign in to Medium.")
        + p("Click below to sign in to your Medium account.")
        + p("This link will expire in 15 minutes and can only be used once.")
        + button(url, "Sign in to Medium", bg="#1a8917", radius=99)
        + p("If you did not make this request, you can safely disregard this email.", "color:#757575")
    )
    c.html = std(
        c,
        body,
        brand="Medium",
        accent="#000000",
        decoys=["42419", "94104-5401"],
        links=[("Privacy policy", "https://policy.medium.com/medium-privacy-policy-f03bf92035c9")],
        lines=["Sent by Medium · 548 Market St #42419 · San Francisco, CA 94104-5401"],
        pre="Sign in to Medium",
    )
    c.text = auto_text(c.html)


@case("en", "link", "Substack sign-in link with %2F and %40 in query; PMB number decoy")
def en_substack_sign_in(c: Case) -> None:
    c.sender = "Substack <no-reply@substack.com>"
    c.subject = "Your Substack sign-in link"
    url = f"https://substack.com/sign-in/redirect?token={c.t('tok', 48)}&redirect=%2Finbox&email=jane.doe%40example.com"
    c.links = [url]
    body = (
        p("Click the link below to sign in to Substack. This link will expire in 1 hour.")
        + button(url, "Sign in", bg="#ff6719", radius=6)
        + p(
            "You're receiving this email because someone requested a sign-in link for jane.doe@example.com. If "
            "this wasn't you, you can ignore this email.",
            "color:#777;font-size:13px",
        )
    )
    c.html = std(
        c,
        body,
        brand="Substack",
        accent="#ff6719",
        decoys=["72296", "94104"],
        lines=["Substack Inc., 548 Market Street PMB 72296, San Francisco, CA 94104"],
    )
    c.text = auto_text(c.html)


@case("en", "link", "Vercel login verification; the 'security code' is three words, no digits")
def en_vercel_login(c: Case) -> None:
    c.sender = "Vercel <notifications@vercel.com>"
    c.subject = "Vercel Login Verification"
    url = f"https://vercel.com/notifications/email-login?email=jane.doe%40example.com&token={c.t('tok', 24)}"
    c.links = [url]
    c.never("2025")
    body = (
        h1("Verify your login")
        + p("To complete the login process, please click the button below:")
        + button(url, "VERIFY", bg="#000000", radius=5)
        + p(f"Or copy and paste this URL into a new tab of your browser:<br>{a(url, html.escape(url))}")
        + p("Verify the following security code matches the one shown on the login page: <b>Frosty Red Panda</b>")
        + p("Requested from San Francisco, California, United States on March 14, 2025 at 1:44 AM (PDT).")
        + p("If you didn't attempt to log in but received this email, please ignore this email.")
    )
    c.html = std(
        c,
        body,
        brand="Vercel",
        accent="#000000",
        lines=["Vercel Inc., 440 N Barranca Ave #4133, Covina, CA 91723"],
        decoys=["4133", "91723"],
    )
    c.text = auto_text(c.html)


@case("en", "link", "GitHub password reset, text-only: tokenized link first, generic reset page second")
def en_github_password_reset(c: Case) -> None:
    c.sender = "GitHub <noreply@github.com>"
    c.subject = "[GitHub] Please reset your password"
    url = f"https://github.com/password_reset/{c.t('pr', 40, 'hex')}"
    c.links = [url]
    c.text = dedent(f"""\
        We heard that you lost your GitHub password. Sorry about that!

        But don't worry! You can use the following button to reset your password:

        {url}

        If you don't use this link within 3 hours, it will expire. To get a new password reset link, visit:
        https://github.com/password_reset

        Thanks,
        The GitHub Team
        """)


@case("en", "code", "npm 8-digit one-time password for login")
def en_npm_otp(c: Case) -> None:
    c.sender = "npm <support@npmjs.com>"
    c.subject = "OTP for logging in to your account"
    c.codes = ["59281734"]
    body = (
        p("Hi octo-jane!")
        + p(
            "Someone is attempting to log in to your npm account. If this was you, use the following one-time "
            "password to complete your login:"
        )
        + big("59281734", size=26, spacing=4)
        + p("This one-time password expires in 5 minutes.")
        + p("If you did not initiate this login, please contact npm support immediately and change your password.")
    )
    c.html = std(
        c,
        body,
        brand="npm",
        accent="#cb3837",
        links=[("npm support", "https://www.npmjs.com/support")],
        lines=["npm, Inc. is a subsidiary of GitHub, Inc., 88 Colin P Kelly Jr St, San Francisco CA 94107"],
        decoys=["94107"],
    )
    c.text = auto_text(c.html)


@case("en", "code", "AWS sign-up verification code on its own line after a 'Verification code' heading")
def en_aws_signup_code(c: Case) -> None:
    c.sender = "Amazon Web Services <no-reply@signup.aws>"
    c.subject = "AWS Email Verification"
    c.codes = ["482071"]
    body = (
        h1("Verify your identity")
        + p(
            "Thanks for starting the new AWS account creation process. We want to make sure it's really you. "
            "Please enter the following verification code when prompted. If you don't want to create an "
            "account, you can ignore this message."
        )
        + '<div style="text-align:center"><b>Verification code</b></div>'
        + '<div style="text-align:center;font-size:36px;font-weight:bold;padding:12px 0">482071</div>'
        + '<div style="text-align:center">(This code is valid for 10 minutes)</div>'
        + p(
            "Amazon Web Services will never email you and ask you to disclose or verify your password, credit "
            "card, or banking account number.",
            "margin:24px 0;color:#555",
        )
    )
    c.html = std(
        c,
        body,
        brand="AWS",
        accent="#ff9900",
        decoys=["98109", "2025"],
        lines=[
            "This message was produced and distributed by Amazon Web Services, Inc., 410 Terry Avenue "
            "North, Seattle, WA 98109.",
            "© 2025, Amazon Web Services, Inc. or its affiliates.",
        ],
    )
    c.text = auto_text(c.html)


@case(
    "en",
    "link",
    "Amazon SES identity verification: long SigV4 URL (%2F, =, &) in a QP text part",
    text_cte="quoted-printable",
)
def en_aws_ses_verification(c: Case) -> None:
    c.sender = "Amazon Web Services <no-reply-aws@amazon.com>"
    c.subject = "Amazon Web Services – Email Address Verification Request in region EU (Frankfurt)"
    url = (
        "https://email-verification.eu-central-1.amazonaws.com/?Context=123456789012&X-Amz-Date=20250314T080317Z"
        "&Identity.IdentityName=jane.doe%40example.com&X-Amz-Algorithm=AWS4-HMAC-SHA256"
        "&Identity.IdentityType=EmailAddress&X-Amz-SignedHeaders=host"
        f"&X-Amz-Credential=AKIA{c.t('cred', 16, '234567ABCDEFGHIJKLMNOPQRSTUVWXYZ')}%2F20250314%2Feu-central-1"
        f"%2Fses%2Faws4_request&Operation=ConfirmVerification&Namespace=Bacon"
        f"&X-Amz-Signature=3d{c.t('sig', 62, 'hex')}"
    )
    c.links = [url]
    c.never("123456789012", "20250314", "24")
    c.text = dedent(f"""\
        Dear Amazon Web Services Customer,

        We have received a request to authorize this email address for use with Amazon SES and Amazon Pinpoint in region EU (Frankfurt). If you requested this verification, please go to the following URL to confirm that you are authorized to use this email address:

        {url}

        Your request will not be processed unless you confirm the address using this URL. This link expires 24 hours after your original verification request.

        If you did NOT request to verify this email address, do not click on the link. Please note that many times, the situation isn't a phishing attempt, but either a misunderstanding of how to use our service, or someone setting up email-sending capabilities on your behalf as part of a legitimate service, but without having fully communicated the procedure first.

        Sincerely,

        The Amazon Web Services Team
        """)


@case("en", "code", "Steam Guard 5-character code; username with a year and the login IP are decoys")
def en_steam_guard(c: Case) -> None:
    c.sender = "Steam Support <noreply@steampowered.com>"
    c.subject = "Your Steam account: Access from new web or mobile device"
    c.codes = ["F7K2Q"]
    body = (
        p("Dear jane_doe1987,", "color:#c6d4df;font-size:18px")
        + p("Here is the Steam Guard code you need to login to account jane_doe1987:", "color:#c6d4df")
        + '<div style="background:#3a3e44;padding:18px;text-align:center;font-size:48px;color:#ffffff;'
        'font-family:Arial Black,sans-serif;letter-spacing:2px">F7K2Q</div>'
        + p(
            "This email was generated because of a login attempt from a web or mobile device located at "
            "Berlin, DE (198.51.100.77). The login attempt included your correct account name and password.",
            "color:#c6d4df;margin-top:20px",
        )
        + p(
            "The Steam Guard code is required to complete the login. No one can access your account without "
            "also accessing this email.",
            "color:#c6d4df",
        )
        + p(
            "If you are not attempting to login then please change your Steam password, and consider changing "
            "your email password as well to ensure your account security.",
            "color:#c6d4df",
        )
    )
    c.html = std(
        c,
        body,
        brand="Steam",
        accent="#171a21",
        decoys=["1987", "doe1987", "jane_doe1987", "198.51.100.77", "1688", "98009"],
        links=[("Steam Support", "https://help.steampowered.com/")],
        lines=["© Valve Corporation. PO Box 1688 Bellevue, WA 98009. All rights reserved."],
    )
    c.text = auto_text(c.html)


@case("en", "code", "Epic Games 2FA code, each digit in its own styled span", html_cte="base64")
def en_epic_2fa_spans(c: Case) -> None:
    c.sender = "Epic Games <help@acct.epicgames.com>"
    c.subject = "Your two-factor sign in code"
    c.codes = ["290417"]
    c.pieces = list("290417")
    digits = spans(*"290417", style="display:inline-block;margin:0 4px;padding:8px 10px;background:#f2f2f2")
    body = (
        p("Hello,")
        + p("Here is the two-factor sign in code you requested:")
        + f'<p style="font-size:32px;font-weight:bold;text-align:center">{digits}</p>'
        + p(
            "This code expires in 15 minutes. If you did not request this code, please reset your password "
            "from your account settings."
        )
        + p("Thanks,<br>The Epic Games Team")
    )
    c.html = std(
        c,
        body,
        brand="Epic Games",
        accent="#313131",
        decoys=["27518", "620"],
        lines=["Epic Games, Inc. 620 Crossroads Blvd. Cary, NC 27518"],
    )
    c.text = "Your two-factor sign in code: 290417\n\nThis code expires in 15 minutes.\n"


@case("en", "code", "Netflix 4-digit sign-in code; support phone, template SRC id and ZIP decoys")
def en_netflix_signin_code(c: Case) -> None:
    c.sender = "Netflix <info@account.netflix.com>"
    c.subject = "Your sign-in code"
    c.codes = ["4073"]
    body = (
        h1("Enter this code to sign in")
        + '<p style="font-size:40px;font-weight:bold;letter-spacing:6px;margin:8px 0 16px">4073</p>'
        + p("Enter this code on the device you're signing in to. This code will expire in 15 minutes.")
        + p("Netflix Account: jane.doe@example.com")
        + p("Questions? Call 1-866-555-0173")
    )
    c.html = std(
        c,
        body,
        brand="Netflix",
        accent="#e50914",
        decoys=["1-866-555-0173", "555-0173", "0173", "48129_en_US", "48129", "95032"],
        lines=[
            "This message was mailed to [jane.doe@example.com] by Netflix as part of your Netflix membership.",
            "SRC: 48129_en_US",
            "Netflix, Inc., 121 Albright Way, Los Gatos, CA 95032",
        ],
    )
    c.text = auto_text(c.html)


@case("en", "link", "Spotify password reset through a SendGrid click-tracking redirect (anchor says reset)")
def en_spotify_reset_tracked(c: Case) -> None:
    c.sender = "Spotify <no-reply@spotify.com>"
    c.subject = "Reset your password"

    def click(seed: str) -> str:
        return f"https://wl.spotify.com/ls/click?upn={c.t(seed + 'u', 60)}-3D-3D{c.t(seed + 'v', 40)}"

    reset, terms, privacy = click("reset"), click("terms"), click("privacy")
    c.links = [reset]
    body = (
        h1("Reset your password")
        + p("Hello,")
        + p("No need to worry, you can reset your Spotify password by clicking the link below:")
        + button(reset, "RESET PASSWORD", bg="#1db954", radius=500)
        + p("Your username is: janedoe1987x")
        + p("If you didn't ask to reset your password, you can ignore this email.")
    )
    c.html = std(
        c,
        body,
        brand="Spotify",
        accent="#1db954",
        links=[("Terms of Use", terms), ("Privacy Policy", privacy)],
        decoys=["janedoe1987x", "111 53", "11153"],
        lines=["Spotify AB, Regeringsgatan 19, 111 53, Stockholm, Sweden"],
    )
    c.text = auto_text(c.html)


@case("en", "code", "Airbnb code with &nbsp; between the halves")
def en_airbnb_nbsp_code(c: Case) -> None:
    c.sender = "Airbnb <automated@airbnb.com>"
    c.subject = "Your Airbnb security code"
    c.codes = ["604228", "604 228"]
    body = (
        h1("Your security code")
        + p("Enter this security code to finish logging in:")
        + '<p style="font-size:34px;font-weight:800;margin:0 0 16px">604&nbsp;228</p>'
        + p("For your security, don't share this code with anyone. Airbnb will never ask you for it.")
    )
    c.html = std(
        c,
        body,
        brand="Airbnb",
        accent="#ff385c",
        decoys=["94103", "888"],
        lines=["Sent with ♥ from Airbnb", "Airbnb, Inc., 888 Brannan St, San Francisco, CA 94103"],
    )
    c.text = "Your security code is 604 228\n\nEnter this security code to finish logging in.\n"


@case("en", "link", "Booking.com confirm-email link; affiliate id in the URL and Amsterdam postcode decoys")
def en_booking_confirm_email(c: Case) -> None:
    c.sender = "Booking.com <noreply@booking.com>"
    c.subject = "Confirm your email address"
    url = f"https://secure.booking.com/confirm_email.html?token={c.t('tok', 54)}&lang=en-gb&aid=304142"
    c.links = [url]
    body = (
        h1("Welcome to Booking.com!")
        + p("Please confirm your email address to complete your account and start planning your next trip.")
        + button(url, "Confirm", bg="#006ce4")
        + p("Your next stay: Amsterdam, 18–21 April · from € 129 per night", "color:#6b6b6b")
    )
    c.html = std(
        c,
        body,
        brand="Booking.com",
        accent="#003580",
        decoys=["304142", "1017 CE", "1017", "597"],
        links=[("Privacy and Cookie Statement", "https://www.booking.com/content/privacy.html")],
        lines=["Booking.com B.V., Herengracht 597, 1017 CE Amsterdam, Netherlands"],
    )
    c.text = auto_text(c.html)


@case("en", "link", "Reddit email verification; unsubscribe link carries a token")
def en_reddit_verify(c: Case) -> None:
    c.sender = "Reddit <noreply@reddit.com>"
    c.subject = "Verify your Reddit email address"
    url = (
        f"https://www.reddit.com/verification/{c.t('v', 43)}?correlation_id={c.t('cid', 36, 'hex')}"
        "&ref=verify_email&ref_campaign=verify_email&ref_source=email"
    )
    unsub = f"https://www.reddit.com/unsubscribe/{c.t('u', 48)}?token={c.t('ut', 40)}"
    c.links = [url]
    body = (
        p("Hi u/jane_doe_94,")
        + h1("Ready to go?")
        + p("Verify your email address to finish setting up your account.")
        + button(url, "Verify Email Address", bg="#0079d3", radius=4)
    )
    c.html = std(
        c,
        body,
        brand="Reddit",
        accent="#ff4500",
        links=[("Unsubscribe", unsub)],
        decoys=["94107"],
        lines=["Reddit Inc, 303 2nd Street, South Tower, 5th Floor, San Francisco, CA 94107"],
        soc=("https://twitter.com/reddit", "https://www.instagram.com/reddit/"),
    )
    c.text = auto_text(c.html)


@case("en", "code", "OpenAI: code in subject and body; footer address decoys")
def en_openai_code(c: Case) -> None:
    c.sender = "OpenAI <noreply@tm.openai.com>"
    c.subject = "Your ChatGPT code is 731905"
    c.codes = ["731905"]
    body = (
        h1("Your ChatGPT code is 731905")
        + p("Enter this temporary verification code to continue:")
        + big("731905", size=28, spacing=2, bg="#f3f3f3")
        + p("If you were not trying to log in to ChatGPT, you can safely ignore this email.")
        + p("Best,<br>The ChatGPT team")
    )
    c.html = std(
        c,
        body,
        brand="OpenAI",
        accent="#10a37f",
        decoys=["1455", "94158"],
        lines=["OpenAI, 1455 3rd Street, San Francisco, CA 94158"],
    )
    c.text = auto_text(c.html)


@case("en", "code+link", "Claude magic link (URL fragment with base64 padding) plus a verification code")
def en_claude_magic_link_and_code(c: Case) -> None:
    c.sender = "Anthropic <no-reply@mail.anthropic.com>"
    c.subject = "Secure link to log in to Claude.ai"
    email_b64 = base64.b64encode(b"jane.doe@example.com").decode()
    url = f"https://claude.ai/magic-link#{c.t('ml', 40, 'hex')}:{email_b64}"
    c.links = [url]
    c.codes = ["820473"]
    body = (
        h1("Log in to Claude.ai")
        + button(url, "Sign in to Claude.ai", bg="#c96442", radius=8)
        + p("Or enter this verification code:")
        + big("820473", size=28, spacing=4)
        + p(
            "This link and code will only be valid for the next 10 minutes. If the link does not work, you can "
            "use the login verification code directly."
        )
        + p("If you didn't try to log in, you can safely ignore this email.", "color:#777")
    )
    c.html = std(
        c,
        body,
        brand="Anthropic",
        accent="#c96442",
        decoys=["90375", "94104"],
        lines=["Anthropic PBC, 548 Market St, PMB 90375, San Francisco, CA 94104"],
    )
    c.text = auto_text(c.html)


@case("en", "link", "Auth0 email-verification ticket link that ends with '#'", html_cte="base64")
def en_docker_verify_ticket(c: Case) -> None:
    c.sender = "Docker <noreply@notify.docker.com>"
    c.subject = "Verify your Docker account"
    url = f"https://login.docker.com/u/email-verification?ticket={c.t('ticket', 32)}#"
    c.links = [url]
    body = (
        h1("Verify your email address")
        + p("You're almost there! Confirm your email address to finish creating your Docker account.")
        + button(url, "Verify email address", bg="#1d63ed", radius=4)
        + p("If you did not create a Docker account, you can ignore this email.")
    )
    c.html = std(
        c,
        body,
        brand="Docker",
        accent="#1d63ed",
        decoys=["3790", "94301"],
        lines=["Docker, Inc. 3790 El Camino Real #1052, Palo Alto, CA 94301"],
    )
    c.never("1052")


@case("en", "link", "GitLab (Devise) confirmation_token link, text+HTML")
def en_gitlab_confirm(c: Case) -> None:
    c.sender = "GitLab <gitlab@mg.gitlab.com>"
    c.subject = "Confirmation instructions"
    url = f"https://gitlab.com/users/confirmation?confirmation_token={c.t('ct', 20)}"
    c.links = [url]
    c.html = plain_html(
        "<p>Welcome, Jane Doe!</p>"
        f"<p>You can confirm your email (jane.doe@example.com) through the link below:</p>"
        f"<p>{a(url, 'Confirm your account')}</p>"
        "<p>If you did not register for GitLab, please ignore this email.</p>"
    )
    c.text = (
        "Welcome, Jane Doe!\n\nYou can confirm your email (jane.doe@example.com) through the link below:\n\n"
        f"{url}\n\nIf you did not register for GitLab, please ignore this email.\n"
    )


@case("en", "code", "Zoom meeting passcode (README decision: a code the user types); meeting ID, dial-ins decoys")
def en_zoom_meeting_passcode(c: Case) -> None:
    c.sender = "Jane Doe <jane.doe@acme.example>"
    c.subject = "Zoom meeting invitation - Design sync"
    c.codes = ["739210"]
    join = f"https://us06web.zoom.us/j/84529134471?pwd={c.t('pwd', 32)}.1"
    c.never(
        "84529134471",
        "845 2913 4471",
        "8452913",
        "2913 4471",
        "29134471",
        "2025",
        "10:00",
        "6833",
        "900 6833",
        "9006833",
        "669 900 6833",
        "16699006833",
        "929 205 6099",
        "2056099",
        "6099",
        "4471",
        "929 205",
        "929205",
    )
    c.text = dedent(f"""\
        Jane Doe is inviting you to a scheduled Zoom meeting.

        Topic: Design sync
        Time: Mar 14, 2025 10:00 AM Pacific Time (US and Canada)

        Join Zoom Meeting
        {join}

        Meeting ID: 845 2913 4471
        Passcode: 739210

        ---

        One tap mobile
        +16699006833,,84529134471#,,,,*739210# US (San Jose)
        +19292056099,,84529134471#,,,,*739210# US (New York)

        ---

        Dial by your location
        • +1 669 900 6833 US (San Jose)
        • +1 929 205 6099 US (New York)

        Meeting ID: 845 2913 4471
        Passcode: 739210

        Find your local number: https://us06web.zoom.us/u/kdX3vB9aQ
        """)
    c.never("https://us06web.zoom.us/u/kdX3vB9aQ")


@case("en", "code", "bank OTP for a card purchase: amount and 'card ending in 4021' sit between keyword and code")
def en_bank_otp_card_ending(c: Case) -> None:
    c.sender = "Northwind Bank <alerts@northwindbank.example>"
    c.subject = "Your one-time passcode"
    c.codes = ["582640"]
    c.never("4021", "1,299.00", "1299", "129900", "1-800-555-0142", "555-0142", "0142", "08:51")
    body = (
        p(
            "Your one-time passcode (OTP) for a purchase of $1,299.00 at ELECTRO WORLD ONLINE on 03/14 08:51 with "
            "your card ending in 4021 is <b>582640</b>."
        )
        + p("This passcode expires in 5 minutes. Never share it with anyone, including Northwind Bank staff.")
        + p("Didn't make this purchase? Call us right away at 1-800-555-0142.")
    )
    c.html = plain_html(body)
    c.text = auto_text(c.html)
    c.never("03/14")


@case("en", "code", "hidden preheader holds a template placeholder '000000' next to a keyword")
def en_acmepay_placeholder_preheader(c: Case) -> None:
    c.sender = "Acme Pay <security@acmepay.example>"
    c.subject = "Confirm it's you"
    c.codes = ["318402"]
    c.never("000000")
    body = (
        h1("Confirm it's you")
        + p("Use this verification code to finish signing in:")
        + big("318402")
        + p("It expires in 10 minutes.")
    )
    c.html = std(
        c, body, brand="Acme Pay", accent="#3b5bdb", pre="Your verification code is 000000", lines=["Acme Pay Ltd."]
    )


@case("en", "code", "anti-copy trick: a hidden digit inside the code must be dropped", html_cte="base64")
def en_kraken_hidden_digit(c: Case) -> None:
    c.sender = "Kraken <noreply@kraken.com>"
    c.subject = "Kraken email verification code"
    c.codes = ["264718"]
    c.pieces = ["26", "4718"]
    c.never("2694718")
    body = (
        p("Hello,")
        + p("Your email verification code is:")
        + big('26<span style="display:none">9</span>4718', size=30)
        + p("Enter it in the Kraken app within 10 minutes.")
    )
    c.html = std(c, body, brand="Kraken", accent="#5741d9", lines=["Payward, Inc."])


@case("en", "code", "zero-width space (&#8203;) between the code's halves", html_cte="quoted-printable")
def en_revolut_zwsp(c: Case) -> None:
    c.sender = "Revolut <no-reply@revolut.com>"
    c.subject = "Your Revolut verification code"
    c.codes = ["482913"]
    c.pieces = ["482", "913"]
    body = (
        p("Hi Jane,")
        + p("Your Revolut verification code is <b>482&#8203;913</b>.")
        + p("Never share this code with anyone, not even Revolut support.")
    )
    c.html = std(
        c,
        body,
        brand="Revolut",
        accent="#191c1f",
        decoys=["E14 5AB"],
        lines=["Revolut Ltd, 7 Westferry Circus, London E14 5AB"],
    )
    c.text = "Your Revolut verification code is 482\u200b913.\n\nNever share this code with anyone.\n"


@case("en", "code", "code on a <br>-separated line; validity timestamp and request reference decoys")
def en_proton_br_lines(c: Case) -> None:
    c.sender = "Proton <no-reply@verify.proton.me>"
    c.subject = "Proton Verification Code"
    c.codes = ["581046"]
    c.never("2025-03-14", "2025", "15:30", "REQ-20250314-7731", "20250314-7731", "20250314", "7731")
    c.html = plain_html(
        "Hello,<br><br>Your Proton verification code is:<br><b style='font-size:20px'>581046</b><br>"
        "Valid until 2025-03-14 15:30 UTC<br>Reference: REQ-20250314-7731<br><br>"
        "If you did not request this, you can ignore this message.<br><br>Proton AG, Route de la Galaise 32, "
        "1228 Plan-les-Ouates, Geneva, Switzerland",
        head=False,
    )
    c.never("1228")


@case("en", "code", "a new code and an expired earlier code in one mail: the new one is primary")
def en_mailchimp_login_new_code(c: Case) -> None:
    c.sender = "Mailchimp <noreply@mailchimp.com>"
    c.subject = "Your Mailchimp verification code"
    c.codes = ["602913"]
    body = (
        p("Hi Jane,")
        + p("Your new verification code is")
        + big("602913", size=28)
        + p("The code we sent you earlier (118347) no longer works.", "color:#6a6a6a")
    )
    c.html = std(
        c,
        body,
        brand="Mailchimp",
        accent="#ffe01b",
        decoys=["405", "30308"],
        lines=["Intuit Mailchimp, 405 N Angier Ave NE, Atlanta, GA 30308 USA"],
    )
    c.text = auto_text(c.html)


@case("en", "code", "Salesforce 5-digit code; 15-character org ID and username decoys")
def en_salesforce_5digit(c: Case) -> None:
    c.sender = "Salesforce <noreply@salesforce.com>"
    c.subject = "Sandbox: Verify your identity in Salesforce"
    c.codes = ["74219"]
    c.never("00D5g000004JqX2", "94105")
    c.text = dedent("""\
        Verify Your Identity

        Hello Jane Doe,

        You're trying to Log In to Salesforce. To complete your login, enter the verification code below.

        Verification Code: 74219

        Expires in 24 hours.

        Username: jane.doe@acme.example.com.sandbox
        Org ID: 00D5g000004JqX2

        If you didn't recognize this activity, contact your Salesforce administrator.

        Thanks,
        Salesforce Customer Support

        Salesforce, Inc., Salesforce Tower, 415 Mission Street, 3rd Floor, San Francisco, CA 94105
        """)


@case("en", "link", "Cognito confirm link with the code only inside the URL: digits in URLs are not codes")
def en_cognito_code_in_url(c: Case) -> None:
    c.sender = "no-reply@verificationemail.com"
    c.subject = "Your verification link"
    url = (
        f"https://acme-auth.auth.us-east-1.amazoncognito.com/confirmUser?client_id={c.t('cid', 26, 'b62')}"
        f"&user_name={c.t('un', 8, 'hex')}-{c.t('un2', 4, 'hex')}-{c.t('un3', 4, 'hex')}&confirmation_code=482916"
    )
    c.links = [url]
    c.never("482916")
    c.html = f"Please click the link below to verify your email address. {a(url, 'Verify Email')} "


@case("en", "link", "Mailman confirmation, text-only: hex token in subject, bare URL, requester IP")
def en_mailman_confirm(c: Case) -> None:
    token = c.t("tok", 40, "hex")
    c.sender = "dev-announce-request@lists.example.org"
    c.subject = f"confirm {token}"
    url = f"https://lists.example.org/mailman/confirm/dev-announce/{token}"
    c.links = [url]
    c.never("203.0.113.5")
    c.text = dedent(f"""\
        Mailing list subscription confirmation notice for mailing list dev-announce

        We have received a request from 203.0.113.5 for subscription of your email address,
        "jane.doe@example.com", to the dev-announce@lists.example.org mailing list. To confirm that you
        want to be added to this mailing list, simply reply to this message, keeping the Subject: header
        intact. Or visit this web page:

            {url}

        Or include the following line -- and only the following line -- in a message to
        dev-announce-request@lists.example.org:

            confirm {token}

        If you do not wish to be subscribed to this list, please simply disregard this message.
        """)


@case("en", "link", "Mailchimp double opt-in: 'Yes, subscribe me' confirm link; eepurl badge is not an action")
def en_mailchimp_double_optin(c: Case) -> None:
    c.sender = "The Weekly Byte <hello@weeklybyte.example>"
    c.subject = "The Weekly Byte: Please Confirm Subscription"
    url = (
        f"https://weeklybyte.us21.list-manage.com/subscribe/confirm?u={c.t('u', 25, 'hex')}"
        f"&id={c.t('id', 10, 'hex')}&e={c.t('e', 10, 'hex')}"
    )
    badge = c.never("http://eepurl.com/iKx7Qz")
    c.links = [url]
    body = (
        h1("Please Confirm Subscription")
        + button(url, "Yes, subscribe me to this list.", bg="#5d5d5d", radius=3)
        + p(
            "If you received this email by mistake, simply delete it. You won't be subscribed if you don't "
            "click the confirmation link above."
        )
        + p("For questions about this list, please contact:<br>hello@weeklybyte.example")
        + '<p style="text-align:center">'
        + a(badge, '<img src="https://eep.io/mc-cdn-images/template_images/gdpr/intuitMcLogo.png" width="120">')
        + "</p>"
    )
    c.html = std(
        c,
        body,
        brand="The Weekly Byte",
        accent="#241c15",
        lines=["The Weekly Byte · 100 Main St · Springfield, OR 97477 · USA"],
        decoys=["97477"],
    )
    c.text = auto_text(c.html)


@case("en", "link", "SendGrid-tracked 'Verify email' button: opaque URL, digits in the tracking host", subject_mode="Q")
def en_calendly_sendgrid(c: Case) -> None:
    c.sender = "Calendly <notifications@calendly.com>"
    c.subject = "Verify your email address"

    def click(seed: str) -> str:
        return (
            f"https://u4821937.ct.sendgrid.net/ls/click?upn=u001.{c.t(seed + '1', 44)}-2B{c.t(seed + '2', 30)}"
            f"-3D-3D{c.t(seed + '3', 4)}_{c.t(seed + '4', 90)}"
        )

    verify, help_url, view = click("v"), click("h"), click("w")
    c.links = [verify]
    c.never("4821937", view)
    body = (
        p(a(view, "View in browser", "color:#999;font-size:11px"), "text-align:right;margin:0")
        + p("Hi Jane,")
        + p("Please verify your email address so we know it's really you.")
        + button(verify, "Verify your email", bg="#006bff", radius=40)
        + p(f"Questions? Visit our {a(help_url, 'Help Center')}.")
    )
    c.never(help_url)
    c.html = std(
        c,
        body,
        brand="Calendly",
        accent="#006bff",
        decoys=["30308", "271"],
        lines=["Calendly LLC, 271 17th St NW, Atlanta, GA 30308"],
        track=f"https://u4821937.ct.sendgrid.net/wf/open?upn=u001.{c.t('open', 200)}",
    )
    c.text = auto_text(c.html, "bracket")


@case("en", "link", "Amazon SES awstrack redirect wrapping a %-encoded verify URL; anchor says verify")
def en_airtable_awstrack(c: Case) -> None:
    c.sender = "Airtable <noreply@airtable.com>"
    c.subject = "Please confirm your email"
    mid = f"0100018e3b2a1c4d-{c.t('m1', 8, 'hex')}-{c.t('m2', 4, 'hex')}-{c.t('m3', 4, 'hex')}-000000"
    inner = (
        f"https:%2F%2Fairtable.com%2Fverify-email%3Ftoken={c.t('tok', 32)}%26uid=usr{c.t('uid', 14, 'b62')}"
        "%26exp=1741943000"
    )
    url = f"https://a8b2c3d4.r.us-east-1.awstrack.me/L0/{inner}/1/{mid}/{c.t('sig', 28)}=371"
    c.links = [url]
    c.never("1741943000", "371")
    body = (
        h1("Confirm your email")
        + p("Hi Jane, welcome to Airtable! Please confirm your email address to finish setting up your account.")
        + button(url, "Verify email address", bg="#2d7ff9", radius=6)
    )
    c.html = std(
        c,
        body,
        brand="Airtable",
        accent="#2d7ff9",
        decoys=["94103"],
        lines=["Airtable, 799 Market Street, 8th Floor, San Francisco, CA 94103"],
    )
    c.text = auto_text(c.html)


@case("en", "code+link", "Linear: href written with raw '&' (not &amp;) plus an XXXX-XXXX login code")
def en_linear_raw_amp(c: Case) -> None:
    c.sender = "Linear <notifications@linear.app>"
    c.subject = "Log in to Linear"
    url = (
        f"https://linear.app/auth/email/verify?token={c.t('tok', 40, 'hex')}&uid={c.t('uid', 12, 'hex')}"
        "&redirect=%2Facme%2Finbox"
    )
    c.links = [url]
    c.codes = ["7QK4-M2XD", "7QK4M2XD"]
    body = (
        h1("Log in to Linear")
        + f'<p><a href="{url}" style="background:#5e6ad2;color:#fff;padding:10px 20px;border-radius:4px;'
        'text-decoration:none">Log in to Linear</a></p>'
        + p("Or enter this temporary login code:")
        + big("7QK4-M2XD", size=24, spacing=3)
        + p("This link and code expire in 15 minutes.")
    )
    c.html = std(c, body, brand="Linear", accent="#5e6ad2", lines=["Linear Orbit, Inc."])
    c.text = auto_text(c.html)


@case("en", "link", "Clerk sign-in link carrying a JWT (dots, base64url); request metadata decoys")
def en_clerk_jwt_link(c: Case) -> None:
    c.sender = "Acme <notifications@accounts.acme.example>"
    c.subject = "Sign in to Acme"
    header = base64.urlsafe_b64encode(b'{"alg":"RS256","kid":"ins_2dF4kX","typ":"JWT"}').decode().rstrip("=")
    payload = (
        base64.urlsafe_b64encode(b'{"exp":1741943817,"iid":"ins_2dF4kX","sid":"sia_2eJ8","st":"verification"}')
        .decode()
        .rstrip("=")
    )
    jwt = f"{header}.{payload}.{c.t('sig', 86)}"
    url = f"https://clerk.acme.example/v1/verify?token={jwt}"
    c.links = [url]
    c.never("203.0.113.14", "2025", "08:12")
    body = (
        h1("Sign in to Acme")
        + p("Click the link below to sign in. This link will expire in 10 minutes.")
        + button(url, "Sign in to Acme", bg="#6c47ff", radius=6)
        + p(
            "Requested from Chrome, macOS at 203.0.113.14 on March 14, 2025 08:12 UTC. If you didn't request "
            "this, you can safely ignore this email.",
            "color:#777;font-size:13px",
        )
    )
    c.html = std(c, body, brand="Acme", accent="#6c47ff", lines=["Powered by Clerk"])
    c.text = auto_text(c.html)


@case("en", "link", "Supabase default magic-link template: minimal HTML-only, unencoded redirect_to", html_cte="7bit")
def en_supabase_magic_link(c: Case) -> None:
    c.sender = "Supabase Auth <noreply@mail.app.supabase.io>"
    c.subject = "Your Magic Link"
    url = (
        f"https://abcdefghijklmnop.supabase.co/auth/v1/verify?token=pkce_{c.t('tok', 56, 'hex')}"
        "&type=magiclink&redirect_to=https://app.acme.example/auth/callback"
    )
    c.links = [url]
    c.html = f'<h2>Magic Link</h2>\n\n<p>Follow this link to login:</p>\n<p><a href="{esc(url)}">Log In</a></p>\n'


@case("en", "link", "Firebase verify-email default template: URL is both href and anchor text; oobCode param")
def en_firebase_verify_email(c: Case) -> None:
    c.sender = "noreply@acme-app-4821.firebaseapp.com"
    c.subject = "Verify your email for acme-app"
    url = (
        f"https://acme-app-4821.firebaseapp.com/__/auth/action?mode=verifyEmail&oobCode={c.t('oob', 56)}"
        f"&apiKey=AIzaSy{c.t('key', 33)}&lang=en"
    )
    c.links = [url]
    c.never("4821")
    c.html = (
        "<p>Hello,</p>\n<p>Follow this link to verify your email address.</p>\n"
        f"<p><a href='{esc(url)}'>{html.escape(url)}</a></p>\n"
        "<p>If you didn’t ask to verify this address, you can ignore this email.</p>\n"
        "<p>Thanks,</p>\n<p>Your acme-app team</p>\n"
    )


@case("en", "link", "WordPress new-user mail, text-only: set-password URL in <angle brackets> before the login URL")
def en_wordpress_set_password(c: Case) -> None:
    c.sender = "WordPress <wordpress@blog.acme.example>"
    c.subject = "[Acme Blog] Login Details"
    url = f"https://blog.acme.example/wp-login.php?action=rp&key={c.t('key', 20, 'b62')}&login=jdoe"
    c.links = [url]
    c.text = dedent(f"""\
        Username: jdoe

        To set your password, visit the following address:

        <{url}>

        https://blog.acme.example/wp-login.php
        """)


@case("en", "link", "Django default password reset, text-only: uidb64/token path")
def en_django_password_reset(c: Case) -> None:
    c.sender = "webmaster@app.acme.example"
    c.subject = "Password reset on app.acme.example"
    url = f"https://app.acme.example/reset/MQ/cl8k2m-{c.t('tok', 32, 'hex')}/"
    c.links = [url]
    c.text = dedent(f"""\

        You're receiving this email because you requested a password reset for your user account at app.acme.example.

        Please go to the following page and choose a new password:

        {url}

        Your username, in case you’ve forgotten: jdoe

        Thanks for using our site!

        The app.acme.example team

        """)


@case("en", "code", "password reset by code; Australian postcode 2010 looks like a year")
def en_canva_reset_code(c: Case) -> None:
    c.sender = "Canva <no-reply@canva.com>"
    c.subject = "Reset your Canva password"
    c.codes = ["318274"]
    body = (
        h1("Reset your password")
        + p("Use this code to reset your password:")
        + big("318274", size=30, spacing=8, bg="#f0f1f5")
        + p("This code expires in 1 hour. If you didn't ask to reset your password, you can ignore this email.")
    )
    c.html = std(
        c,
        body,
        brand="Canva",
        accent="#7d2ae8",
        decoys=["2010", "110"],
        lines=["Canva Pty Ltd, 110 Kippax Street, Surry Hills NSW 2010, Australia"],
    )
    c.text = auto_text(c.html)


@case("en", "link", "password-changed notice whose only action is 'not you? reset' (README decision: qualifies)")
def en_dropbox_password_changed(c: Case) -> None:
    c.sender = "Dropbox <no-reply@dropbox.com>"
    c.subject = "Your Dropbox password was changed"
    url = f"https://www.dropbox.com/forgot?email_sig={c.t('sig', 32)}&reset=1&email=jane.doe%40example.com"
    c.links = [url]
    c.never("2025", "10:14")
    body = (
        p("Hi Jane,")
        + p(
            "The password for your Dropbox account jane.doe@example.com was changed on March 14, 2025 at 10:14 "
            "AM (GMT+01:00)."
        )
        + p("If you made this change, you don't need to do anything.")
        + p(f"If you didn't change your password, please {a(url, 'reset your password')} right away.")
        + p("- The Dropbox Team")
    )
    c.html = std(
        c,
        body,
        brand="Dropbox",
        accent="#0061fe",
        decoys=["77767", "94107"],
        lines=["Dropbox, Inc., PO Box 77767, San Francisco, CA 94107"],
    )
    c.text = auto_text(c.html)


@case("en", "code", "Shop Pay: code '903 117' in a key/value table with merchant total and order reference")
def en_shoppay_table(c: Case) -> None:
    c.sender = "Shop <no-reply@shop.app>"
    c.subject = "Shop Pay verification"
    c.codes = ["903117", "903 117"]
    c.never("135.00", "13500", "#1042", "1042")
    row = '<tr><td style="padding:6px 12px;color:#707070">{}</td><td style="padding:6px 12px;font-weight:600">{}</td></tr>'
    body = (
        h1("Confirm it's you")
        + p("Use this code to log in to Shop Pay at Allbirds:")
        + '<table role="presentation" style="border:1px solid #e5e5e5;border-radius:8px;width:100%">'
        + row.format("Merchant", "Allbirds")
        + row.format("Cart", "#1042 · 2 items")
        + row.format("Total", "$135.00 USD")
        + row.format("Verification code", '<span style="font-size:22px;letter-spacing:2px">903 117</span>')
        + "</table>"
        + p("The code expires in 10 minutes.", "margin-top:16px")
    )
    c.html = std(c, body, brand="Shop", accent="#5a31f4", lines=["Shopify Inc."])
    c.text = auto_text(c.html)


@case("en", "code", "4-digit code with a phone number whose last group is also 4 digits, near 'code'")
def en_tmobile_phone_decoy(c: Case) -> None:
    c.sender = "T-Mobile <noreply@t-mobile.com>"
    c.subject = "T-Mobile ID verification code"
    c.codes = ["6029"]
    c.never("2847", "010-2847", "(555) 010-2847", "5550102847", "0102847")
    c.text = dedent("""\
        Your T-Mobile ID one-time verification code is 6029.

        Call us at (555) 010-2847 if you did not request this code.

        T-Mobile will never ask for this code by phone.
        """)


@case("en", "code", "1Password: alphanumeric code with dash; brand name '1Password' has a digit")
def en_onepassword_alnum_dash(c: Case) -> None:
    c.sender = "1Password <hello@1password.com>"
    c.subject = "Your 1Password verification code"
    c.codes = ["K7D2-QW9P", "K7D2QW9P"]
    c.never("1Password")
    body = (
        p("Hi Jane,")
        + p("Enter this verification code in 1Password to sign in on your new device:")
        + big("K7D2-QW9P", size=26, spacing=2, bg="#eef4ff")
        + p("If you didn't try to sign in, contact 1Password Support.")
    )
    c.html = std(c, body, brand="1Password", accent="#0572ec", lines=["AgileBits Inc. dba 1Password"])
    c.text = auto_text(c.html)


@case("en", "code", "Azure AD B2C code in Outlook/Word-generated HTML (MsoNormal, o:p)", subject_mode="Q")
def en_azure_b2c_code(c: Case) -> None:
    c.sender = "Microsoft on behalf of Contoso <msonlineservicesteam@microsoftonline.com>"
    c.subject = "Contoso account email verification code"
    c.codes = ["491663"]
    c.never("98052")
    c.html = dedent("""\
        <html xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office" xmlns:w="urn:schemas-microsoft-com:office:word">
        <head><meta name=Generator content="Microsoft Word 15 (filtered medium)">
        <style><!-- p.MsoNormal {margin:0cm; font-size:11.0pt; font-family:"Calibri",sans-serif;} --></style></head>
        <body lang=EN-US link="#0563C1" vlink="#954F72">
        <div class=WordSection1>
        <p class=MsoNormal><span style='font-size:18.0pt;color:#333333'>Verify your email address<o:p></o:p></span></p>
        <p class=MsoNormal><o:p>&nbsp;</o:p></p>
        <p class=MsoNormal>Thanks for verifying your jane.doe@example.com account!<o:p></o:p></p>
        <p class=MsoNormal>Your code is: <b><span style='font-size:14.0pt'>491663</span></b><o:p></o:p></p>
        <p class=MsoNormal><o:p>&nbsp;</o:p></p>
        <p class=MsoNormal>Sincerely,<br>Contoso<o:p></o:p></p>
        <p class=MsoNormal><span style='font-size:8.0pt;color:gray'>Microsoft Corporation | One Microsoft Way, Redmond, WA 98052<o:p></o:p></span></p>
        </div></body></html>
        """)


@case("en", "code", "Expensify 'magic code' (keyword 'magic' is a link word, here it names a code)")
def en_expensify_magic_code(c: Case) -> None:
    c.sender = "Expensify <concierge@expensify.com>"
    c.subject = "Your magic code"
    c.codes = ["517024"]
    body = (
        p("Hey there,")
        + p("Here's your magic code:")
        + big("517024", size=36, spacing=4, bg="#e6f5ee")
        + p("It will expire in 24 hours. Just enter it into the Expensify app to sign in.")
    )
    c.html = std(
        c,
        body,
        brand="Expensify",
        accent="#03d47c",
        decoys=["94104"],
        lines=["Expensify, Inc. · 548 Market St · San Francisco, CA 94104"],
    )
    c.text = auto_text(c.html)


@case("en", "code", "eBay security code; eBay's street number is '2025' (year-like)")
def en_ebay_security_code(c: Case) -> None:
    c.sender = "eBay <ebay@ebay.com>"
    c.subject = "eBay: Your security code"
    c.codes = ["884206"]
    body = (
        h1("Your security code")
        + p("Use security code <b>884206</b> to verify your identity. It expires in 10 minutes.")
        + p("Don't share this code with anyone. eBay will never call or text you asking for it.")
    )
    c.html = std(
        c,
        body,
        brand="eBay",
        accent="#e53238",
        decoys=["2025", "95125"],
        links=[
            ("User Agreement", "https://www.ebay.com/help/policies/member-behaviour-policies/user-agreement?id=4259")
        ],
        lines=[
            "Copyright © 1995-2025 eBay Inc. All Rights Reserved.",
            "eBay Inc., 2025 Hamilton Avenue, San Jose, CA 95125",
        ],
    )
    c.never("1995", "1995-2025", "4259")
    c.text = auto_text(c.html)


@case("en", "link", "tracked button and direct pasted URL are both acceptable primaries")
def en_figma_tracked_and_direct(c: Case) -> None:
    c.sender = "Figma <support@figma.com>"
    c.subject = "Verify your email to start using Figma"
    direct = f"https://www.figma.com/verify_email?token={c.t('tok', 40, 'b62')}&user_id=1248093718"
    tracked = f"https://email.figma.com/c/eJx{c.t('trk', 140)}"
    c.links = [tracked, direct]
    c.never("1248093718")
    body = (
        h1("Verify your email")
        + p("Hi Jane, please verify your email address to start using Figma.")
        + button(tracked, "Verify email", bg="#0d99ff", radius=6)
        + p(
            f"Button not working? Paste this link into your browser:<br><span style='font-size:12px'>"
            f"{html.escape(direct)}</span>"
        )
    )
    c.html = std(
        c,
        body,
        brand="Figma",
        accent="#0d99ff",
        decoys=["94102"],
        lines=["Figma, Inc. 760 Market St, Floor 10, San Francisco, CA 94102"],
    )
    c.text = auto_text(c.html)


@case("en", "code", "Twitch code in inline spans with margins; HTML-only, quoted-printable")
def en_twitch_code_spans(c: Case) -> None:
    c.sender = "Twitch <no-reply@twitch.tv>"
    c.subject = "Your Twitch Verification Code"
    c.codes = ["582041"]
    c.pieces = list("582041")
    digits = "".join(
        f'<span style="display:inline-block;width:36px;margin:0 3px;border-bottom:2px solid #9147ff">{d}</span>'
        for d in "582041"
    )
    body = (
        p("Hey jane_doe_94!")
        + p("Here's your verification code:")
        + f'<div style="font-size:30px;font-weight:700;text-align:center">{digits}</div>'
        + p("Enter it on Twitch to verify your email. It expires in 30 minutes.")
    )
    c.html = std(
        c,
        body,
        brand="Twitch",
        accent="#9147ff",
        decoys=["2025", "94104", "350"],
        lines=["© 2025 Twitch Interactive, Inc. 350 Bush Street, 2nd Floor, San Francisco, CA 94104"],
    )


@case("en", "code", "text-only format=flowed mail from a small sender; code after a colon on its own line")
def en_flowed_text_code(c: Case) -> None:
    c.sender = "Hackerspace Door <door@hackspace.example>"
    c.subject = "Door access PIN request"
    c.codes = ["7315"]
    c.text_params = "; format=flowed"
    c.never("12", "14")
    c.text = (
        "Hi Jane, \n\nyou (or someone) asked for a temporary door PIN for the Hackspace at \nStation Road "
        "12. Your one-time PIN:\n\n7315\n\nIt works once, today only, for door 14.\n\n-- \nHackspace "
        "infra bot\n"
    )


# --------------------------------------------------------------------------------------------
# Chinese (Simplified / Traditional)
# --------------------------------------------------------------------------------------------


@case(
    "zh-Hans",
    "code",
    "WeChat 验证码, GB2312 text-only base64, B-encoded GB2312 subject",
    charset="GB2312",
    text_cte="base64",
)
def zh_hans_wechat_email_code(c: Case) -> None:
    c.sender = "微信团队 <wechat@weixin.qq.com>"
    c.subject = "微信邮箱验证"
    c.codes = ["639015"]
    c.never("2025", "10")
    c.text = dedent("""\
        亲爱的微信用户：

        你好！你正在进行邮箱验证操作，验证码为：639015

        该验证码10分钟内有效，请勿将验证码泄露给他人。
        如非本人操作，请忽略此邮件。

        此为系统邮件，请勿回复。
        微信团队
        2025年3月14日
        """)


@case(
    "zh-Hans",
    "code",
    "Alipay 校验码 in GBK quoted-printable HTML; hotline 95188 and ICP licence decoys",
    charset="GBK",
    html_cte="quoted-printable",
)
def zh_hans_alipay_check_code(c: Case) -> None:
    c.sender = "支付宝 <service@mail.alipay.com>"
    c.subject = "支付宝：找回登录密码校验码"
    c.codes = ["739104"]
    c.never("95188", "2021025453", "浙ICP备2021025453号-1")
    c.html = plain_html(
        "<p>尊敬的支付宝用户：</p>"
        "<p>您正在使用邮箱找回登录密码，本次操作的校验码为：</p>"
        '<p><span style="font-size:24px;color:#1677ff;font-weight:bold">739104</span></p>'
        "<p>校验码30分钟内有效。为保障您的账户安全，请勿将校验码告诉任何人，包括支付宝客服。</p>"
        '<p style="color:#999;font-size:12px">如有疑问请致电客服热线 95188<br>'
        "支付宝（中国）网络技术有限公司　浙ICP备2021025453号-1</p>",
        font="'Microsoft YaHei',SimSun,sans-serif",
    ).replace('charset="utf-8"', 'charset="gbk"')
    c.text = (
        "尊敬的支付宝用户：\n\n您正在使用邮箱找回登录密码，本次操作的校验码为：739104\n\n"
        "校验码30分钟内有效。请勿将校验码告诉任何人。\n客服热线 95188\n"
    )


@case("zh-Hans", "code", "Taobao 动态码 with a hotline written in groups", text_cte="base64")
def zh_hans_taobao_dynamic_code(c: Case) -> None:
    c.sender = "淘宝网 <no-reply@service.taobao.com>"
    c.subject = "淘宝网登录动态码"
    c.codes = ["582047"]
    c.never("0571-8815 8198", "0571-8815", "8815 8198", "88158198", "8198", "0571")
    c.text = dedent("""\
        亲爱的会员：

        您正在登录淘宝网，本次登录的动态码为：582047，5分钟内有效。
        请勿将动态码告知他人，淘宝工作人员不会向您索取动态码。

        客服电话：0571-8815 8198
        淘宝网
        """)


@case(
    "zh-Hans",
    "code",
    "bilibili code in a big block; ICP and public-security filing numbers in footer",
    html_cte="quoted-printable",
)
def zh_hans_bilibili_code_big(c: Case) -> None:
    c.sender = "哔哩哔哩 <noreply@service.bilibili.com>"
    c.subject = "【哔哩哔哩】邮箱验证码"
    c.codes = ["846120"]
    body = (
        p("亲爱的用户，你好：")
        + p("你正在绑定邮箱，本次验证码为：")
        + big("846120", size=34, spacing=10, bg="#f1f2f3")
        + p("验证码有效期为 15 分钟，请尽快完成验证。如非本人操作，请忽略本邮件。")
    )
    c.html = std(
        c,
        body,
        brand="哔哩哔哩",
        accent="#fb7299",
        decoys=["13002172", "沪ICP备13002172号-3", "31011002002436"],
        lines=["上海宽娱数码科技有限公司", "沪ICP备13002172号-3　沪公网安备31011002002436号"],
    )
    c.text = auto_text(c.html)


@case("zh-Hans", "code", "JD 验证码 in GB18030 text; customer-service phone decoy", charset="GB18030")
def zh_hans_jd_code_phone(c: Case) -> None:
    c.sender = "京东 <jd@jd.com>"
    c.subject = "京东账户安全验证"
    c.codes = ["904328"]
    c.never("400-606-5500", "606-5500", "6065500", "4006065500", "5500")
    c.text = (
        "【京东】验证码：904328，您正在进行京东账户登录，切勿将验证码泄露于他人，本条验证码有效期15分钟。\n\n"
        "如有疑问请联系京东客服：400-606-5500\n"
    )


@case("zh-Hans", "code", "DingTalk 验证码 split across three spans", html_cte="base64")
def zh_hans_dingtalk_spans(c: Case) -> None:
    c.sender = "钉钉 <noreply@dingtalk.com>"
    c.subject = "钉钉邮箱验证码"
    c.codes = ["358219"]
    c.pieces = ["35", "82", "19"]
    body = (
        p("您好！")
        + p("您的验证码是：")
        + '<p style="font-size:30px;font-weight:bold;color:#0089ff">'
        + spans("35", "82", "19")
        + "</p>"
        + p("请在 10 分钟内完成验证。钉钉不会以任何理由向您索要验证码。")
    )
    c.html = std(c, body, brand="钉钉", accent="#0089ff", lines=["钉钉（中国）信息技术有限公司"])


@case(
    "zh-Hans",
    "link",
    "Weibo account activation link (激活); UID in the URL; GB2312 HTML base64",
    charset="GB2312",
    html_cte="base64",
)
def zh_hans_weibo_activate(c: Case) -> None:
    c.sender = "新浪微博 <service@weibo.com>"
    c.subject = "请激活您的微博帐号"
    url = f"https://login.sina.com.cn/signup/activate.php?entry=weibo&code={c.t('code', 32, 'hex')}&uid=7312908456"
    c.links = [url]
    c.never("7312908456")
    c.html = (
        '<html><head><meta http-equiv="Content-Type" content="text/html; charset=gb2312"></head><body>'
        "<p>亲爱的用户：</p><p>感谢您注册新浪微博！请点击以下链接激活您的微博帐号：</p>"
        f'<p><a href="{esc(url)}" target="_blank">{html.escape(url)}</a></p>'
        "<p>（如果链接无法点击，请将它复制到浏览器地址栏中打开）</p>"
        "<p>该链接 48 小时内有效。</p><p>新浪微博</p></body></html>\n"
    )


@case("zh-Hans", "link", "Aliyun password reset (重置密码) button; token URL")
def zh_hans_aliyun_reset(c: Case) -> None:
    c.sender = "阿里云 <noreply@notice.aliyun.com>"
    c.subject = "阿里云账号重置密码"
    url = f"https://account.aliyun.com/reset/resetPassword.htm?token={c.t('tok', 48)}&lang=zh"
    c.links = [url]
    body = (
        p("尊敬的阿里云用户：")
        + p("我们收到了重置您的阿里云账号密码的请求。请点击下方按钮设置新密码，该链接24小时内有效。")
        + button(url, "重置密码", bg="#ff6a00", radius=2)
        + p("如果这不是您本人的操作，请忽略本邮件，您的密码不会被更改。")
    )
    c.html = std(
        c, body, brand="阿里云", accent="#ff6a00", decoys=["95187"], lines=["阿里云计算有限公司　客服热线 95187"]
    )
    c.text = auto_text(c.html)


@case("zh-Hans", "code", "Xiaohongshu: code only in the subject; body has no code", charset="GBK")
def zh_hans_xiaohongshu_subject_code(c: Case) -> None:
    c.sender = "小红书 <no-reply@xiaohongshu.com>"
    c.subject = "【小红书】验证码 275916"
    c.codes = ["275916"]
    c.text = "请在页面中输入以完成操作。如非本人操作，请忽略本邮件。\n\n小红书团队\n"


@case(
    "zh-Hant",
    "code",
    "Shopee TW 驗證碼 in Big5 base64 HTML; business number 統一編號 decoy",
    charset="Big5",
    html_cte="base64",
)
def zh_hant_shopee_code(c: Case) -> None:
    c.sender = "蝦皮購物 <info@mail.shopee.tw>"
    c.subject = "蝦皮購物 驗證碼通知"
    c.codes = ["482917"]
    c.never("53226543", "09:00", "21:00")
    c.html = plain_html(
        "<p>親愛的會員您好：</p>"
        "<p>您的驗證碼為 <b style='font-size:22px;color:#ee4d2d'>482917</b>，請於 5 分鐘內輸入。</p>"
        "<p>請勿將驗證碼提供給任何人，蝦皮客服不會向您索取驗證碼。</p>"
        "<p style='color:#888;font-size:12px'>客服時間 09:00-21:00<br>台灣蝦皮拍賣有限公司　統一編號 53226543</p>"
    ).replace('charset="utf-8"', 'charset="big5"')


@case("zh-Hant", "code", "HK bank 一次性密碼 (OTP) with transaction amount and reference decoys")
def zh_hant_hk_bank_otp(c: Case) -> None:
    c.sender = "匯通銀行 <otp@wingtong-bank.example.hk>"
    c.subject = "一次性密碼 (OTP) 通知"
    c.codes = ["591836"]
    c.never("2,380.00", "238000", "TX-20250314-88213", "20250314-88213", "20250314", "88213")
    c.text = dedent("""\
        親愛的客戶：

        你正在進行網上交易，金額 HKD 2,380.00。
        一次性密碼 (OTP) 為 591836，有效時間為 100 秒。
        參考編號：TX-20250314-88213

        本行職員不會要求你提供一次性密碼。
        """)


@case(
    "zh-Hant",
    "link",
    "Dcard email verification (驗證) in Big5 quoted-printable HTML",
    charset="Big5",
    html_cte="quoted-printable",
)
def zh_hant_dcard_verify(c: Case) -> None:
    c.sender = "Dcard <noreply@dcard.tw>"
    c.subject = "Dcard 信箱驗證信"
    url = f"https://www.dcard.tw/service/email/verify?token={c.t('tok', 40)}&uid=18839201"
    c.links = [url]
    c.never("18839201")
    c.html = plain_html(
        "<p>嗨！</p><p>請點擊下方按鈕完成信箱驗證：</p>"
        + button(url, "點此驗證信箱", bg="#3397cf")
        + "<p>若按鈕無法使用，請複製以下網址貼到瀏覽器：<br>"
        + html.escape(url)
        + "</p><p>Dcard 團隊</p>"
    ).replace('charset="utf-8"', 'charset="big5"')


@case("zh-Hant", "code", "Taiwan bank 交易驗證碼 with card last-four (末四碼) and NT$ amount decoys")
def zh_hant_bank_card_last4(c: Case) -> None:
    c.sender = "玉山銀行 <service@esunbank.example.tw>"
    c.subject = "網路交易驗證碼"
    c.codes = ["205738"]
    c.never("4021", "3,560", "3560", "14:05")
    body = (
        p("親愛的客戶您好：")
        + p("您於 14:05 使用末四碼 4021 之信用卡進行網路交易，金額 NT$3,560。")
        + p("本次交易驗證碼：<b style='font-size:20px'>205738</b>（5 分鐘內有效）")
        + p("如非本人交易，請立即與本行聯繫。")
    )
    c.html = std(c, body, brand="玉山銀行", accent="#00a29a", lines=["本郵件由系統自動發送，請勿直接回覆。"])
    c.text = auto_text(c.html)


@case("zh-Hant", "link", "beanfun! password reset (重設密碼) anchor, Big5 text+HTML", charset="Big5")
def zh_hant_beanfun_reset(c: Case) -> None:
    c.sender = "beanfun! <service@beanfun.com>"
    c.subject = "beanfun! 重設密碼通知"
    url = f"https://tw.beanfun.com/member/reset_pwd.aspx?token={c.t('tok', 36, 'hex')}&t=1741939397"
    c.links = [url]
    c.never("1741939397")
    c.html = plain_html(
        "<p>親愛的會員您好：</p><p>我們收到您重設密碼的申請，請於 30 分鐘內點選以下連結重新設定密碼：</p>"
        f"<p>{a(url, '重設密碼')}</p><p>若您未提出申請，請忽略此信。</p>"
    ).replace('charset="utf-8"', 'charset="big5"')
    c.text = f"親愛的會員您好：\n\n請於 30 分鐘內點選以下連結重新設定密碼：\n{url}\n\n若您未提出申請，請忽略此信。\n"


# --------------------------------------------------------------------------------------------
# Japanese
# --------------------------------------------------------------------------------------------


@case(
    "ja",
    "code",
    "Rakuten 認証コード, ISO-2022-JP 7bit text-only; postal code 〒158-0094 decoy",
    charset="ISO-2022-JP",
    text_cte="7bit",
)
def ja_rakuten_auth_code(c: Case) -> None:
    c.sender = "楽天会員サービス <info@rakuten.co.jp>"
    c.subject = "【楽天会員】認証コードのお知らせ"
    c.codes = ["271864"]
    c.never("158-0094", "1580094", "30")
    c.text = dedent("""\
        楽天会員 様

        いつも楽天をご利用いただきありがとうございます。
        ログインのための認証コードをお送りします。

        認証コード：271864

        このコードの有効期限は30分です。
        ※本メールは送信専用です。ご返信いただいてもお答えできませんのでご了承ください。

        楽天グループ株式会社
        〒158-0094 東京都世田谷区玉川一丁目14番1号
        """)


@case(
    "ja",
    "code",
    "Mercari 確認コード one digit per cell, Shift_JIS base64 HTML; Roppongi address decoys",
    charset="Shift_JIS",
    html_cte="base64",
)
def ja_mercari_confirm_code_cells(c: Case) -> None:
    c.sender = "メルカリ <no-reply@mercari.jp>"
    c.subject = "【メルカリ】確認コードのお知らせ"
    c.codes = ["512740"]
    c.pieces = list("512740")
    body = (
        p("メルカリをご利用いただきありがとうございます。")
        + p("以下の確認コードを画面に入力してください。")
        + cells("512740")
        + p("確認コードの有効期限は発行から10分間です。")
    )
    c.html = std(
        c,
        body,
        brand="メルカリ",
        accent="#ff0211",
        decoys=["106-6118", "1066118", "6118", "6-10-1"],
        lines=[
            "このメールは送信専用です。",
            "株式会社メルカリ　〒106-6118 東京都港区六本木6-10-1 六本木ヒルズ森タワー",
        ],
    )


@case("ja", "code", "LINE 認証番号, 4 digits, UTF-8 text")
def ja_line_auth_number(c: Case) -> None:
    c.sender = "LINE <no-reply@line.me>"
    c.subject = "LINE メールアドレス登録のための認証番号"
    c.codes = ["5847"]
    c.text = dedent("""\
        LINEアカウントのメールアドレス登録のための認証番号です。

        認証番号：5847

        上記の認証番号をLINEアプリの画面に入力してください。
        心当たりのない場合は、このメールを破棄してください。

        LINEヤフー株式会社
        """)


@case("ja", "code", "Amazon.co.jp ワンタイムパスワード (OTP), UTF-8 QP HTML", html_cte="quoted-printable")
def ja_amazon_jp_otp(c: Case) -> None:
    c.sender = "Amazon.co.jp <account-update@amazon.co.jp>"
    c.subject = "Amazon.co.jp: サインインを完了してください"
    c.codes = ["905321"]
    body = (
        p("Amazon.co.jp へのサインインを完了するには、次のワンタイムパスワード（OTP）を入力してください。")
        + '<p style="font-size:26px;font-weight:bold">905321</p>'
        + p("このOTPは10分間有効です。OTPは誰にも教えないでください。")
    )
    c.html = std(
        c,
        body,
        brand="Amazon.co.jp",
        accent="#ff9900",
        decoys=["153-0064", "1530064", "0064", "2025"],
        lines=["アマゾンジャパン合同会社 〒153-0064 東京都目黒区下目黒1-8-1", "© 2025 Amazon.com, Inc."],
    )
    c.text = auto_text(c.html)


@case(
    "ja",
    "code",
    "Yahoo! JAPAN 確認コード '7293 1046' (8 digits, one space), EUC-JP base64 text",
    charset="EUC-JP",
    text_cte="base64",
)
def ja_yahoo_jp_confirm_code(c: Case) -> None:
    c.sender = "Yahoo! JAPAN <yahoo-account@mail.yahoo.co.jp>"
    c.subject = "Yahoo! JAPAN ID 確認コードのお知らせ"
    c.codes = ["72931046", "7293 1046"]
    c.never("14:52")
    c.text = dedent("""\
        Yahoo! JAPAN IDのログインに必要な確認コードをお知らせします。

        確認コード：7293 1046

        有効期限：14:52まで
        このメールに心当たりがない場合は破棄してください。
        """)


@case("ja", "code", "docomo セキュリティコード（ワンタイムパスワード）, UTF-8 HTML-only", html_cte="base64")
def ja_docomo_security_code(c: Case) -> None:
    c.sender = "dアカウント <d-account@docomo.ne.jp>"
    c.subject = "dアカウントのセキュリティコード"
    c.codes = ["583016"]
    c.html = plain_html(
        "<p>dアカウントのセキュリティコード（ワンタイムパスワード）をお知らせします。</p>"
        "<p style='font-size:24px'><b>583016</b></p>"
        "<p>このコードの有効期限は30分です。</p><p>株式会社NTTドコモ</p>"
    )


@case("ja", "code", "PayPay 認証コード with yen amount and a long transaction number decoy")
def ja_paypay_code_amount(c: Case) -> None:
    c.sender = "PayPay <noreply@paypay.ne.jp>"
    c.subject = "PayPay 認証コード"
    c.codes = ["430297"]
    c.never("1,500", "1500", "04123456789012345678")
    body = (
        p("PayPayをご利用いただきありがとうございます。")
        + p("お支払い（¥1,500）を完了するには、以下の認証コードを入力してください。")
        + big("430297", size=30)
        + p("取引番号：04123456789012345678")
    )
    c.html = std(c, body, brand="PayPay", accent="#ff0033", lines=["PayPay株式会社"])
    c.text = auto_text(c.html)


@case(
    "ja",
    "link",
    "Nintendo Account メールアドレスの確認: bare URL in ISO-2022-JP text",
    charset="ISO-2022-JP",
    text_cte="7bit",
)
def ja_nintendo_verify_link(c: Case) -> None:
    c.sender = "ニンテンドーアカウント <no-reply@accounts.nintendo.com>"
    c.subject = "メールアドレスの確認"
    url = f"https://accounts.nintendo.com/email/verify?token={c.t('tok', 40)}&lang=ja-JP"
    c.links = [url]
    c.text = dedent(f"""\
        ニンテンドーアカウントをご利用いただきありがとうございます。

        下記URLにアクセスして、メールアドレスの確認を完了してください。
        {url}
        （URLの有効期限は24時間です）

        任天堂株式会社
        """)


@case("ja", "link", "Mizuho password reset: opaque URL, intent only in the anchor (パスワード再設定)")
def ja_mizuho_reset(c: Case) -> None:
    c.sender = "みずほダイレクト <direct@mizuhobank.example.jp>"
    c.subject = "パスワード再設定のご案内"
    url = f"https://www.mizuhobank.example.jp/direct/pwd/rs?k={c.t('k', 40, 'b62')}"
    c.links = [url]
    c.never("0120-324-555", "324-555", "0120324555")
    body = (
        p("みずほダイレクトをご利用いただきありがとうございます。")
        + p("以下のリンクから60分以内にお手続きください。")
        + p(a(url, "パスワード再設定はこちら"))
        + p("お問い合わせ：0120-324-555（平日9:00〜17:00）")
    )
    c.html = std(c, body, brand="みずほ銀行", accent="#002c8c", lines=["株式会社みずほ銀行"])
    c.text = auto_text(c.html)


# --------------------------------------------------------------------------------------------
# Korean
# --------------------------------------------------------------------------------------------


@case(
    "ko",
    "code",
    "Kakao 인증번호 in brackets, EUC-KR base64 HTML; business registration number decoy",
    charset="EUC-KR",
    html_cte="base64",
)
def ko_kakao_auth_number(c: Case) -> None:
    c.sender = "카카오 <noreply@kakaocorp.com>"
    c.subject = "[카카오] 카카오계정 인증번호 안내"
    c.codes = ["482917"]
    c.never("120-81-47521", "1208147521", "242")
    body = (
        p("카카오계정 이메일 인증을 위한 인증번호입니다.")
        + p("아래 인증번호 <b>[482917]</b>를 입력해 주세요.")
        + p("이 인증번호는 발송 시점부터 10분간 유효합니다.")
    )
    c.html = std(
        c,
        body,
        brand="카카오",
        accent="#fee500",
        lines=["(주)카카오 | 제주특별자치도 제주시 첨단로 242 | 사업자등록번호 120-81-47521"],
    )


@case("ko", "code", "Naver 인증 코드 '629 014', UTF-8 QP HTML", html_cte="quoted-printable")
def ko_naver_auth_code(c: Case) -> None:
    c.sender = "네이버 <navercorp@navercorp.com>"
    c.subject = "네이버 인증 코드 안내"
    c.codes = ["629014", "629 014"]
    body = (
        logo(c, "naver")
        + h1("인증 코드 안내")
        + p("요청하신 인증 코드를 알려드립니다. 아래 인증 코드를 입력해 주세요.")
        + big("629 014", size=30, spacing=4)
        + p("인증 코드는 30분간 유효합니다.")
    )
    c.html = std(
        c,
        body,
        brand="NAVER",
        accent="#03c75a",
        decoys=["13561", "1588-3820", "15883820"],
        lines=["네이버(주) 경기도 성남시 분당구 정자일로 95 (우)13561 | 고객센터 1588-3820"],
    )
    c.text = auto_text(c.html)


@case(
    "ko",
    "code",
    "Coupang 인증번호, EUC-KR QP text; customer-centre number decoy",
    charset="EUC-KR",
    text_cte="quoted-printable",
)
def ko_coupang_auth_number(c: Case) -> None:
    c.sender = "쿠팡 <noreply@coupang.com>"
    c.subject = "[쿠팡] 인증번호 안내"
    c.codes = ["573920"]
    c.never("1588-0000", "15880000", "3")
    c.text = dedent("""\
        안녕하세요, 쿠팡입니다.

        요청하신 인증번호는 573920 입니다.
        인증번호는 3분간 유효합니다.

        고객센터: 1588-0000 (365일 09:00~18:00)
        """)


@case("ko", "code", "Toss 인증번호 split into spans, UTF-8 HTML-only", html_cte="base64")
def ko_toss_spans(c: Case) -> None:
    c.sender = "토스 <noreply@toss.im>"
    c.subject = "토스 인증번호"
    c.codes = ["860317"]
    c.pieces = ["860", "317"]
    body = (
        p("토스 로그인을 위한 인증번호예요.")
        + '<p style="font-size:32px;font-weight:700;letter-spacing:4px">'
        + spans("860", "317")
        + "</p>"
        + p("인증번호를 다른 사람에게 알려주지 마세요.")
    )
    c.html = std(c, body, brand="토스", accent="#3182f6", lines=["비바리퍼블리카"])


@case("ko", "link", "Baemin 이메일 인증하기 button")
def ko_baemin_verify_link(c: Case) -> None:
    c.sender = "배달의민족 <noreply@baemin.com>"
    c.subject = "[배달의민족] 이메일 인증을 완료해 주세요"
    url = f"https://member.baemin.example/email/verify?key={c.t('key', 48)}"
    c.links = [url]
    body = (
        p("안녕하세요, 배달의민족입니다.")
        + p("아래 버튼을 눌러 이메일 인증을 완료해 주세요. 인증 링크는 24시간 동안 유효합니다.")
        + button(url, "이메일 인증하기", bg="#2ac1bc")
    )
    c.html = std(
        c,
        body,
        brand="배달의민족",
        accent="#2ac1bc",
        decoys=["120-87-65763", "1208765763", "65763"],
        lines=["(주)우아한형제들 | 사업자등록번호 120-87-65763"],
    )
    c.text = auto_text(c.html)


@case("ko", "link", "Nexon password reset: URL has no intent word, the anchor says 비밀번호 재설정")
def ko_nexon_reset(c: Case) -> None:
    c.sender = "넥슨 <noreply@nexon.com>"
    c.subject = "[넥슨] 비밀번호 재설정 안내"
    url = f"https://member.nexon.example/find/pwdchange.aspx?tk={c.t('tk', 40, 'b62')}"
    c.links = [url]
    c.html = plain_html(
        "<p>안녕하세요. 넥슨입니다.</p><p>아래 링크를 클릭하여 비밀번호를 변경해 주세요. (1시간 동안 유효)</p>"
        f"<p>{a(url, '비밀번호 재설정하기')}</p>"
    )
    c.text = auto_text(c.html, "angle")


@case(
    "ko",
    "code",
    "Samsung 인증 코드 alphanumeric, ks_c_5601-1987 label (Outlook-style)",
    charset="ks_c_5601-1987",
    html_cte="base64",
)
def ko_samsung_alnum_code(c: Case) -> None:
    c.sender = "삼성 계정 <sa.noreply@samsung-mail.com>"
    c.subject = "삼성 계정 인증 코드"
    c.codes = ["K3R7P2"]
    body = (
        p("삼성 계정 로그인을 완료하려면 아래 인증 코드를 입력하세요.")
        + p("인증 코드는 <b style='font-size:22px'>K3R7P2</b> 입니다.")
        + p("이 코드는 15분 후 만료됩니다.")
    )
    c.html = std(
        c,
        body,
        brand="Samsung",
        accent="#1428a0",
        decoys=["16677", "129"],
        lines=["삼성전자(주) 경기도 수원시 영통구 삼성로 129 (우)16677"],
    )
    c.text = auto_text(c.html)


# --------------------------------------------------------------------------------------------
# German, French, Spanish, Portuguese, Italian, Dutch
# --------------------------------------------------------------------------------------------


@case(
    "de",
    "code",
    "Zalando Bestätigungscode, ISO-8859-15 QP; Impressum with HRB, USt-IdNr. and postcode",
    charset="ISO-8859-15",
    subject_mode="Q",
)
def de_zalando_bestaetigungscode(c: Case) -> None:
    c.sender = "Zalando <info@service-mail.zalando.de>"
    c.subject = "Dein Bestätigungscode für Zalando"
    c.codes = ["482917"]
    body = (
        p("Hallo Max,")
        + p("dein Bestätigungscode lautet:")
        + big("482917", size=30, bg="#f5f5f5")
        + p(
            "Der Code ist 15 Minuten gültig. Gib ihn niemals an Dritte weiter - auch nicht an den Zalando "
            "Kundenservice."
        )
        + p("Viele Grüße<br>Dein Zalando-Team")
    )
    c.html = std(
        c,
        body,
        brand="Zalando",
        accent="#ff6900",
        decoys=["10243", "158855", "260543043", "DE 260543043"],
        links=[
            ("Datenschutz", "https://www.zalando.de/zalando-datenschutz/"),
            ("Impressum", "https://www.zalando.de/zalando-impressum/"),
        ],
        lines=[
            "Zalando SE, Valeska-Gert-Straße 5, 10243 Berlin",
            "Amtsgericht Charlottenburg, HRB 158855 B · USt-IdNr. DE 260543043",
        ],
    )
    c.text = auto_text(c.html)


@case("de", "code", "DHL Bestätigungscode; 20-digit parcel number and Bonn postcode decoys")
def de_dhl_bestaetigungscode(c: Case) -> None:
    c.sender = "DHL <noreply@dhl.de>"
    c.subject = "Ihr Bestätigungscode für Ihr DHL Kundenkonto"
    c.codes = ["306192"]
    c.never("00340434161094042557", "53113")
    body = (
        p("Guten Tag Max Mustermann,")
        + p(
            "Sie möchten die E-Mail-Adresse für Ihr DHL Kundenkonto ändern. Bitte geben Sie den folgenden "
            "Bestätigungscode ein:"
        )
        + '<p style="font-size:28px;font-weight:bold;color:#d40511">306192</p>'
        + p("Ihre zuletzt verfolgte Sendung: 00340434161094042557 (zugestellt)")
    )
    c.html = std(
        c, body, brand="DHL", accent="#ffcc00", lines=["Deutsche Post AG, Charles-de-Gaulle-Straße 20, 53113 Bonn"]
    )
    c.text = auto_text(c.html)


@case(
    "de",
    "code",
    "Deutsche Bank Sicherheitscode '739 204' in ISO-8859-1 text; IBAN in 4-digit groups",
    charset="ISO-8859-1",
    text_cte="quoted-printable",
)
def de_deutsche_bank_sicherheitscode(c: Case) -> None:
    c.sender = "Deutsche Bank <noreply@db.com>"
    c.subject = "Ihr Sicherheitscode"
    c.codes = ["739204", "739 204"]
    c.never(
        "DE89 3704 0044 0532 0130 00",
        "3704 0044",
        "37040044",
        "0532 0130",
        "05320130",
        "069 910-10000",
        "069 910",
        "910-10000",
        "91010000",
        "10000",
        "DE89",
        "3704",
        "0044",
        "0532",
        "0130",
    )
    c.text = dedent("""\
        Sehr geehrter Herr Mustermann,

        Ihr Sicherheitscode für die Änderung Ihrer Kontaktdaten lautet: 739 204

        Betroffenes Konto: DE89 3704 0044 0532 0130 00

        Geben Sie diesen Code niemals telefonisch weiter. Bei Fragen erreichen Sie uns unter
        069 910-10000.

        Mit freundlichen Grüßen
        Ihre Deutsche Bank
        """)


@case("de", "link", "GMX Passwort zurücksetzen, ISO-8859-1 QP HTML", charset="ISO-8859-1", subject_mode="Q")
def de_gmx_passwort_link(c: Case) -> None:
    c.sender = "GMX <service@gmx.net>"
    c.subject = "Passwort zurücksetzen für Ihr GMX Postfach"
    url = f"https://passwort.gmx.net/recovery/reset?token={c.t('tok', 44)}&locale=de_DE"
    c.links = [url]
    body = (
        p("Guten Tag,")
        + p(
            "Sie haben angefordert, das Passwort für Ihr GMX Postfach zurückzusetzen. Klicken Sie auf den "
            "folgenden Button. Der Link ist 24 Stunden gültig."
        )
        + button(url, "Passwort zurücksetzen", bg="#1c449b")
        + p("Falls Sie dies nicht angefordert haben, ignorieren Sie diese E-Mail.")
    )
    c.html = std(
        c,
        body,
        brand="GMX",
        accent="#1c449b",
        decoys=["76135", "48"],
        lines=["1&amp;1 Mail &amp; Media GmbH, Brauerstraße 48, 76135 Karlsruhe"],
    )
    c.text = auto_text(c.html)


@case("de", "link", "OTTO: opaque tracking URL, intent only in the German anchor (bestätigen)")
def de_otto_email_bestaetigen(c: Case) -> None:
    c.sender = "OTTO <service@otto.de>"
    c.subject = "Bitte bestätige deine E-Mail-Adresse"
    url = f"https://newsletter.otto.example/r/?id=h{c.t('a', 8, 'hex')},{c.t('b', 6, 'hex')},{c.t('d', 6, 'hex')}"
    c.links = [url]
    body = (
        p("Hallo Max,")
        + p("schön, dass du da bist! Bitte bestätige noch kurz deine E-Mail-Adresse.")
        + button(url, "E-Mail-Adresse bestätigen", bg="#f00020")
    )
    c.html = std(
        c,
        body,
        brand="OTTO",
        accent="#f00020",
        decoys=["22179"],
        lines=["Otto (GmbH &amp; Co KG), Werner-Otto-Straße 1-7, 22179 Hamburg"],
    )
    c.text = auto_text(c.html)


@case("de", "code", "N26 Verifizierungscode; brand 'N26' and Berlin postcode decoys")
def de_n26_verifizierungscode(c: Case) -> None:
    c.sender = "N26 <no-reply@n26.com>"
    c.subject = "Dein N26 Verifizierungscode"
    c.codes = ["158302"]
    c.never("N26", "10179")
    body = (
        p("Hallo Max,")
        + p("hier ist dein Verifizierungscode: <b>158302</b>")
        + p("Er ist 5 Minuten gültig. N26 wird dich niemals nach diesem Code fragen.")
    )
    c.html = std(c, body, brand="N26", accent="#36a18b", lines=["N26 Bank AG, Voltairestraße 8, 10179 Berlin"])
    c.text = auto_text(c.html)


@case("de", "code", "CHECK24 Einmal-Code; tariff price per month decoy", charset="ISO-8859-15")
def de_check24_einmalcode(c: Case) -> None:
    c.sender = "CHECK24 <kundenkonto@check24.de>"
    c.subject = "Ihr CHECK24 Einmal-Code"
    c.codes = ["6402"]
    c.never("29,99", "2999", "CHECK24", "80636")
    c.text = dedent("""\
        Guten Tag,

        Ihr Einmal-Code für die Anmeldung lautet: 6402

        Ihr gemerkter Tarif: DSL 250 für 29,99 € / Monat

        CHECK24 Vergleichsportal GmbH, Erika-Mann-Str. 62-66, 80636 München
        """)


@case(
    "de",
    "link",
    "Kleinanzeigen activation: anchor 'Konto aktivieren', URL with uuid and hash",
    charset="ISO-8859-1",
    html_cte="quoted-printable",
)
def de_kleinanzeigen_aktivieren(c: Case) -> None:
    c.sender = "Kleinanzeigen <noreply@kleinanzeigen.de>"
    c.subject = "Aktiviere dein Konto bei Kleinanzeigen"
    url = (
        f"https://www.kleinanzeigen.example/m-aktivieren.html?uuid={c.t('u1', 8, 'hex')}-{c.t('u2', 4, 'hex')}-"
        f"{c.t('u3', 4, 'hex')}&hash={c.t('h', 40, 'hex')}"
    )
    c.links = [url]
    c.html = plain_html(
        "<p>Hallo,</p><p>vielen Dank für deine Registrierung. Bitte klicke auf den folgenden Link, um dein Konto "
        "zu aktivieren:</p>"
        + button(url, "Konto aktivieren", bg="#326916")
        + "<p>Der Link ist 7 Tage gültig.</p><p>Dein Kleinanzeigen-Team</p>"
    ).replace('charset="utf-8"', 'charset="iso-8859-1"')


@case(
    "fr",
    "code",
    "Orange code de vérification, ISO-8859-1; RCS number written '380 129 866'",
    charset="ISO-8859-1",
    subject_mode="Q",
)
def fr_orange_code_verification(c: Case) -> None:
    c.sender = "Orange <ne-pas-repondre@orange.fr>"
    c.subject = "Votre code de vérification Orange"
    c.codes = ["518427"]
    c.never("380 129 866", "380129866", "380 129", "129 866", "129866", "92130")
    body = (
        p("Bonjour,")
        + p("Voici votre code de vérification : <b style='font-size:20px'>518427</b>")
        + p("Ce code est valable 15 minutes. Ne le communiquez à personne.")
        + p("L'équipe Orange")
    )
    c.html = std(
        c,
        body,
        brand="Orange",
        accent="#ff7900",
        lines=["Orange SA, 111 quai du Président Roosevelt, 92130 Issy-les-Moulineaux", "RCS Nanterre 380 129 866"],
    )
    c.text = auto_text(c.html)


@case("fr", "code", "La Poste code de sécurité; 4-digit customer-service number 3631 nearby")
def fr_laposte_code_securite(c: Case) -> None:
    c.sender = "La Poste <noreply@laposte.fr>"
    c.subject = "Votre code de sécurité"
    c.codes = ["5093"]
    c.never("3631", "75015")
    c.text = dedent("""\
        Bonjour,

        Votre code de sécurité pour vous connecter à votre espace laposte.fr : 5093

        Service client : 3631 (service gratuit + prix appel)

        La Poste, 9 rue du Colonel Pierre Avia, 75015 Paris
        """)


@case("fr", "code", "Doctolib code de vérification next to an appointment date and time")
def fr_doctolib_code(c: Case) -> None:
    c.sender = "Doctolib <no-reply@doctolib.fr>"
    c.subject = "Code de vérification Doctolib"
    c.codes = ["306814"]
    c.never("14/03/2025", "09h30", "2025")
    body = (
        logo(c, "doctolib-logo")
        + p("Bonjour,")
        + p("Pour confirmer votre rendez-vous du 14/03/2025 à 09h30, saisissez le code de vérification suivant :")
        + big("306814", size=28, bg="#e8f3fe")
        + p("Ce code expire dans 10 minutes.")
    )
    c.html = std(
        c,
        body,
        brand="Doctolib",
        accent="#107aca",
        lines=["Doctolib SAS, 54 quai Charles Pasqua, 92300 Levallois-Perret"],
        decoys=["92300"],
    )
    c.text = auto_text(c.html)


@case(
    "fr",
    "link",
    "SNCF Connect réinitialisation, windows-1252 QP HTML; RCS number decoy",
    charset="windows-1252",
    html_cte="quoted-printable",
)
def fr_sncf_reinitialisation(c: Case) -> None:
    c.sender = "SNCF Connect <noreply@sncf-connect.com>"
    c.subject = "Réinitialisation de votre mot de passe"
    url = f"https://www.sncf-connect.com/app/account/password/new?token={c.t('tok', 40)}&lang=fr"
    c.links = [url]
    body = (
        p("Bonjour,")
        + p("Vous avez demandé la réinitialisation de votre mot de passe. Ce lien est valable 1 heure.")
        + button(url, "Réinitialiser mon mot de passe", bg="#0c131f")
        + p("Si vous n’êtes pas à l’origine de cette demande, ignorez cet e-mail.")
    )
    c.html = std(
        c,
        body,
        brand="SNCF Connect",
        accent="#82be00",
        decoys=["93200", "519 037 584", "519037584"],
        lines=["SNCF Voyageurs SA, 9 rue Jean-Philippe Rameau, 93200 Saint-Denis – RCS Bobigny 519 037 584"],
    )
    c.text = auto_text(c.html)


@case("fr", "link", "leboncoin: click-tracking URL, intent in the anchor (Confirmer mon adresse e-mail)")
def fr_leboncoin_confirm(c: Case) -> None:
    c.sender = "leboncoin <noreply@leboncoin.fr>"
    c.subject = "Confirmez votre adresse e-mail"
    url = f"https://link.leboncoin.example/ls/click?upn={c.t('upn', 120)}"
    c.links = [url]
    body = (
        p("Bonjour,")
        + p("Il ne vous reste plus qu'une étape pour finaliser la création de votre compte.")
        + button(url, "Confirmer mon adresse e-mail", bg="#ec5a13", radius=8)
    )
    c.html = std(
        c,
        body,
        brand="leboncoin",
        accent="#ec5a13",
        decoys=["75009"],
        lines=["LBC France, 24 rue Saint-Georges, 75009 Paris"],
    )
    c.text = auto_text(c.html)


@case(
    "fr",
    "code",
    "Free code à usage unique; French phone number in pairs and a € price",
    charset="ISO-8859-15",
    text_cte="quoted-printable",
)
def fr_free_code_usage_unique(c: Case) -> None:
    c.sender = "Free <noreply@free.fr>"
    c.subject = "Votre code à usage unique"
    c.codes = ["741298"]
    c.never("09 78 56 34 12", "0978563412", "29,99", "2999")
    c.text = dedent("""\
        Bonjour,

        Votre code à usage unique pour accéder à votre Espace Abonné : 741298

        Votre offre actuelle : Freebox Pop à 29,99 €/mois.
        Assistance : 09 78 56 34 12

        L'équipe Free
        """)


@case("fr", "code", "Ameli code provisoire; masked social-security number in groups")
def fr_ameli_code(c: Case) -> None:
    c.sender = "Ameli <ne-pas-repondre@assurance-maladie.fr>"
    c.subject = "Votre code de sécurité ameli"
    c.codes = ["6J4K2P"]
    c.never("2 85 03 75 *** *** 91", "3646")
    body = (
        p("Madame, Monsieur,")
        + p("Numéro de sécurité sociale : 2 85 03 75 *** *** 91")
        + p("Votre code de sécurité provisoire est : <b>6J4K2P</b>")
        + p("Pour toute question, appelez le 3646.")
    )
    c.html = std(c, body, brand="ameli", accent="#0c419a", lines=["L'Assurance Maladie"])
    c.text = auto_text(c.html)


@case(
    "es",
    "code",
    "Mercado Libre código de verificación; prices with '.' thousands separator",
    html_cte="quoted-printable",
)
def es_mercadolibre_codigo(c: Case) -> None:
    c.sender = "Mercado Libre <info@mercadolibre.com.ar>"
    c.subject = "Tu código de verificación de Mercado Libre"
    c.codes = ["482917"]
    c.never("12.999", "12999")
    body = (
        p("Hola, Juan:")
        + p("Tu código de verificación es:")
        + big("482917", size=32, bg="#fff159")
        + p("Vence en 10 minutos. No lo compartas con nadie.")
        + p("Mientras tanto, mirá lo que guardaste: Auriculares Bluetooth $ 12.999", "color:#666")
    )
    c.html = std(
        c,
        body,
        brand="Mercado Libre",
        accent="#fff159",
        lines=["MercadoLibre S.R.L., Av. Caseros 3039, C1264AAO, CABA, Argentina"],
        decoys=["3039", "C1264AAO"],
    )
    c.text = auto_text(c.html)


@case(
    "es",
    "code",
    "BBVA código de verificación, ISO-8859-1 text; amount and long reference decoys",
    charset="ISO-8859-1",
    subject_mode="Q",
)
def es_bbva_codigo(c: Case) -> None:
    c.sender = "BBVA <bbva@comunicaciones.bbva.es>"
    c.subject = "Código de verificación BBVA"
    c.codes = ["29508134"]
    c.never("1.250,00", "125000", "2025031400231")
    c.text = dedent("""\
        Hola,

        Para autorizar la transferencia de 1.250,00 EUR introduce el código de verificación 29508134.

        Referencia de la operación: 2025031400231

        BBVA nunca te pedirá este código por teléfono.
        """)


@case("es", "link", "Glovo magic-login link (Iniciar sesión)")
def es_glovo_magic_login(c: Case) -> None:
    c.sender = "Glovo <no-reply@glovoapp.com>"
    c.subject = "Inicia sesión en Glovo"
    url = f"https://glovoapp.com/es/es/magic-login?t={c.t('t', 44)}"
    c.links = [url]
    body = (
        p("¡Hola!")
        + p("Pulsa el botón para iniciar sesión. El enlace caduca en 15 minutos.")
        + button(url, "Iniciar sesión", bg="#00a082", radius=24)
    )
    c.html = std(
        c,
        body,
        brand="Glovo",
        accent="#ffc244",
        decoys=["08005"],
        lines=["Glovoapp23, S.A., C/ Pallars 190, 08005 Barcelona"],
    )
    c.text = auto_text(c.html)


@case(
    "es",
    "link",
    "idealista confirmar correo, ISO-8859-1 QP HTML; 'codigo' as a URL parameter",
    charset="ISO-8859-1",
    html_cte="quoted-printable",
)
def es_idealista_confirmar(c: Case) -> None:
    c.sender = "idealista <noreply@idealista.com>"
    c.subject = "Confirma tu correo electrónico"
    url = f"https://www.idealista.com/usuario/confirmar?codigo={c.t('cod', 32, 'hex')}&idUsuario=8812734"
    c.links = [url]
    c.never("8812734")
    c.html = plain_html(
        "<p>Hola,</p><p>Gracias por registrarte en idealista. Para activar tu cuenta confirma tu correo:</p>"
        f"<p>{a(url, 'Confirmar correo')}</p><p>Un saludo,<br>el equipo de idealista</p>"
    ).replace('charset="utf-8"', 'charset="iso-8859-1"')


@case("es", "code", "Rappi 4-digit código with a Colombian phone number decoy")
def es_rappi_codigo(c: Case) -> None:
    c.sender = "Rappi <no-reply@rappi.com>"
    c.subject = "Tu código Rappi"
    c.codes = ["3058"]
    c.never("+57 601 555 0199", "601 555", "555 0199", "5550199", "0199")
    c.text = "Tu código de verificación Rappi es: 3058\n\n¿Necesitas ayuda? Llámanos al +57 601 555 0199.\n"


@case("es", "code+link", "Santander: reset link and a código with a space; both acceptable")
def es_santander_restablecer(c: Case) -> None:
    c.sender = "Santander <avisos@gruposantander.es>"
    c.subject = "Restablece tu contraseña"
    url = f"https://www.bancosantander.example/particulares/restablecer?sid={c.t('sid', 40)}"
    c.links = [url]
    c.codes = ["702415", "702 415"]
    body = (
        p("Hola,")
        + p("Has solicitado restablecer tu contraseña. Pulsa el botón e introduce el código 702 415 cuando se te pida.")
        + button(url, "Restablecer contraseña", bg="#ec0000")
    )
    c.html = std(
        c,
        body,
        brand="Santander",
        accent="#ec0000",
        decoys=["28660"],
        lines=["Banco Santander, S.A. – Ciudad Grupo Santander, 28660 Boadilla del Monte (Madrid)"],
    )
    c.text = auto_text(c.html)


@case(
    "pt",
    "code",
    "Mercado Livre código de verificação, ISO-8859-1 QP; R$ price decoy",
    charset="ISO-8859-1",
    html_cte="quoted-printable",
)
def pt_mercadolivre_codigo(c: Case) -> None:
    c.sender = "Mercado Livre <info@mercadolivre.com.br>"
    c.subject = "Seu código de verificação"
    c.codes = ["482917"]
    c.never("1.299,90", "129990", "06460-040", "06460040")
    c.html = plain_html(
        "<p>Olá, João!</p><p>Seu código de verificação é <b style='font-size:20px'>482917</b>.</p>"
        "<p>Ele vence em 10 minutos.</p><p style='color:#666'>Você ainda tem no carrinho: Smart TV 50\" por "
        "R$ 1.299,90</p><p style='font-size:11px;color:#999'>Ebazar.com.br Ltda. – Av. das Nações Unidas, "
        "3.003, Osasco/SP – CEP 06460-040</p>"
    ).replace('charset="utf-8"', 'charset="iso-8859-1"')


@case("pt", "link", "Nubank confirmar e-mail; CNPJ number decoy")
def pt_nubank_confirmar(c: Case) -> None:
    c.sender = "Nubank <meajuda@nubank.com.br>"
    c.subject = "Confirme seu e-mail"
    url = f"https://nubank.example/confirmar-email?token={c.t('tok', 48)}"
    c.links = [url]
    body = (
        p("Oi, João!")
        + p("Falta pouco. Confirme seu e-mail para continuar:")
        + button(url, "Confirmar e-mail", bg="#820ad1", radius=24)
    )
    c.html = std(
        c,
        body,
        brand="Nubank",
        accent="#820ad1",
        decoys=["18.236.120/0001-58", "0001-58", "000158", "18236120000158"],
        lines=["Nu Pagamentos S.A. – CNPJ 18.236.120/0001-58"],
    )
    c.text = auto_text(c.html)


@case("pt", "code", "iFood código de acesso, 4 digits; CEP decoy")
def pt_ifood_codigo_acesso(c: Case) -> None:
    c.sender = "iFood <naoresponder@ifood.com.br>"
    c.subject = "Seu código de acesso iFood"
    c.codes = ["5163"]
    c.never("06454-000", "06454000")
    body = (
        p("Olá!")
        + p("Use o código abaixo para entrar no iFood:")
        + '<p style="font-size:36px;font-weight:bold;letter-spacing:10px;color:#ea1d2c">5163</p>'
        + p("O código expira em 15 minutos.")
    )
    c.html = std(
        c,
        body,
        brand="iFood",
        accent="#ea1d2c",
        lines=["iFood.com Agência de Restaurantes Online S.A. – Osasco/SP – CEP 06454-000"],
    )
    c.text = auto_text(c.html)


@case("pt", "link", "OLX redefinir senha, text-only")
def pt_olx_redefinir_senha(c: Case) -> None:
    c.sender = "OLX <noreply@olx.com.br>"
    c.subject = "Redefinição de senha"
    url = f"https://conta.olx.com.br/redefinir-senha?token={c.t('tok', 36)}"
    c.links = [url]
    c.text = f"Olá,\n\nRecebemos uma solicitação para redefinir a sua senha. Acesse o link abaixo:\n\n{url}\n\nO link expira em 2 horas.\n\nEquipe OLX\n"


@case(
    "pt",
    "code",
    "CTT (pt-PT) código de confirmação '931 402', windows-1252; NIF decoy",
    charset="windows-1252",
    subject_mode="Q",
)
def pt_ctt_codigo_confirmacao(c: Case) -> None:
    c.sender = "CTT <noreply@ctt.pt>"
    c.subject = "CTT – código de confirmação"
    c.codes = ["931402", "931 402"]
    c.never("500 077 568", "500077568", "077 568", "1999-001")
    c.text = dedent("""\
        Olá,

        O seu código de confirmação é 931 402. É válido durante 10 minutos.

        CTT – Correios de Portugal, S.A. · NIF 500 077 568 · Av. D. João II, 13, 1999-001 Lisboa
        """)


@case("pt", "link", "Firebase pt-BR password reset template (mode=resetPassword)")
def pt_firebase_redefinir(c: Case) -> None:
    c.sender = "noreply@loja-exemplo-2291.firebaseapp.com"
    c.subject = "Redefinir sua senha do loja-exemplo"
    url = (
        f"https://loja-exemplo-2291.firebaseapp.com/__/auth/action?mode=resetPassword&oobCode={c.t('oob', 56)}"
        f"&apiKey=AIzaSy{c.t('key', 33)}&lang=pt-BR"
    )
    c.links = [url]
    c.never("2291")
    c.html = (
        "<p>Olá,</p>\n<p>Acesse este link para redefinir a senha de login no loja-exemplo com a sua conta "
        "joao.silva@example.com.</p>\n"
        f"<p><a href='{esc(url)}'>{html.escape(url)}</a></p>\n"
        "<p>Se você não solicitou a redefinição da sua senha, ignore este e-mail.</p>\n<p>Obrigado,</p>\n"
        "<p>Equipe do loja-exemplo</p>\n"
    )


@case(
    "it",
    "code",
    "Poste Italiane codice di verifica, ISO-8859-15 QP; CAP and P.IVA decoys",
    charset="ISO-8859-15",
    subject_mode="Q",
)
def it_poste_codice_verifica(c: Case) -> None:
    c.sender = "Poste Italiane <noreply@posteitaliane.it>"
    c.subject = "Il tuo codice di verifica Poste Italiane"
    c.codes = ["482917"]
    body = (
        p("Gentile Cliente,")
        + p("il tuo codice di verifica è <b style='font-size:20px'>482917</b>. È valido per 5 minuti.")
        + p("Poste Italiane non ti chiederà mai questo codice via telefono o e-mail.")
    )
    c.html = std(
        c,
        body,
        brand="Poste Italiane",
        accent="#0047bb",
        decoys=["00144", "01114601006"],
        lines=["Poste Italiane S.p.A. - Viale Europa, 190 - 00144 Roma - P.IVA 01114601006"],
    )
    c.text = auto_text(c.html)


@case("it", "code", "Intesa Sanpaolo codice OTP (8 digits) with amount decoy")
def it_intesa_codice_otp(c: Case) -> None:
    c.sender = "Intesa Sanpaolo <notifiche@intesasanpaolo.com>"
    c.subject = "Codice di sicurezza per la tua operazione"
    c.codes = ["83920514"]
    c.never("249,00", "24900")
    c.text = dedent("""\
        Gentile cliente,

        per confermare il pagamento di 249,00 EUR inserisci il codice OTP: 83920514

        Il codice scade tra 3 minuti. Non comunicarlo a nessuno.

        Intesa Sanpaolo
        """)


@case("it", "link", "Subito conferma la tua email")
def it_subito_conferma(c: Case) -> None:
    c.sender = "Subito <noreply@subito.it>"
    c.subject = "Conferma la tua email"
    url = f"https://areariservata.subito.example/conferma?token={c.t('tok', 40)}&src=email"
    c.links = [url]
    body = (
        p("Ciao!")
        + p("Per completare la registrazione conferma il tuo indirizzo email.")
        + button(url, "Conferma email", bg="#f9423a")
    )
    c.html = std(
        c,
        body,
        brand="Subito",
        accent="#f9423a",
        decoys=["20121"],
        lines=["Subito.it S.r.l., Via Benigno Crespi 19, 20121 Milano"],
    )
    c.text = auto_text(c.html)


@case(
    "it",
    "link",
    "Trenitalia reimposta password; opaque URL, intent in anchor; capital amount decoy",
    charset="ISO-8859-1",
    html_cte="quoted-printable",
)
def it_trenitalia_reimposta(c: Case) -> None:
    c.sender = "Trenitalia <noreply@trenitalia.it>"
    c.subject = "Reimposta la tua password"
    url = f"https://www.trenitalia.example/r/{c.t('r', 24, 'b62')}"
    c.links = [url]
    c.never("1.654.464.685", "1654464685")
    c.html = plain_html(
        "<p>Gentile cliente,</p><p>abbiamo ricevuto una richiesta di modifica della password.</p>"
        f"<p>{a(url, 'Reimposta la password')}</p><p>Il link è valido 24 ore.</p>"
        "<p style='font-size:11px;color:#999'>Trenitalia S.p.A. – Capitale sociale Euro 1.654.464.685</p>"
    ).replace('charset="utf-8"', 'charset="iso-8859-1"')


@case(
    "nl",
    "code",
    "bol.com verificatiecode, windows-1252 QP; Utrecht postcode decoy",
    charset="windows-1252",
    html_cte="quoted-printable",
)
def nl_bolcom_verificatiecode(c: Case) -> None:
    c.sender = "bol.com <noreply@bol.com>"
    c.subject = "Je verificatiecode voor bol.com"
    c.codes = ["482917"]
    body = (
        p("Hoi Jan,")
        + p("Je verificatiecode is:")
        + big("482917", size=28, bg="#eff4fa")
        + p("De code is 15 minuten geldig. Deel ’m met niemand.")
    )
    c.html = std(
        c,
        body,
        brand="bol.com",
        accent="#0000a4",
        decoys=["3528 BJ", "3528", "100"],
        lines=["bol.com b.v., Papendorpseweg 100, 3528 BJ Utrecht"],
    )
    c.text = auto_text(c.html)


@case("nl", "code", "Dutch compound keyword 'bevestigingscode' with '552 918'")
def nl_ing_bevestigingscode(c: Case) -> None:
    c.sender = "ING <noreply@ing.nl>"
    c.subject = "Je ING bevestigingscode"
    c.codes = ["552918", "552 918"]
    c.never("1102 MG", "1102")
    c.text = dedent("""\
        Beste klant,

        Je bevestigingscode is: 552 918

        Vul deze code in de app in. ING vraagt je nooit om deze code telefonisch door te geven.

        ING Bank N.V., Bijlmerdreef 106, 1102 MG Amsterdam
        """)


@case("nl", "link", "Marktplaats bevestig je e-mailadres")
def nl_marktplaats_bevestig(c: Case) -> None:
    c.sender = "Marktplaats <noreply@marktplaats.nl>"
    c.subject = "Bevestig je e-mailadres"
    url = f"https://www.marktplaats.nl/account/bevestig?code={c.t('code', 32, 'hex')}"
    c.links = [url]
    body = (
        p("Hoi,")
        + p("Bevestig je e-mailadres om je account te activeren.")
        + button(url, "Bevestig e-mailadres", bg="#eda566")
    )
    c.html = std(
        c,
        body,
        brand="Marktplaats",
        accent="#2d3c4d",
        decoys=["1017 DA", "1017"],
        lines=["Marktplaats B.V., Wibautstraat 224, 1017 DA Amsterdam"],
    )
    c.never("224")
    c.text = auto_text(c.html)


@case("nl", "code", "PostNL inlogcode (4 digits) with a Track & Trace barcode decoy")
def nl_postnl_inlogcode(c: Case) -> None:
    c.sender = "PostNL <noreply@postnl.nl>"
    c.subject = "Je PostNL inlogcode"
    c.codes = ["6043"]
    c.never("3SABCD1234567", "1234567")
    body = (
        p("Hallo,")
        + p("Je inlogcode is <b>6043</b>. Hij is 10 minuten geldig.")
        + p("Je pakket met Track &amp; Trace-code 3SABCD1234567 wordt morgen bezorgd.", "color:#666")
    )
    c.html = std(c, body, brand="PostNL", accent="#ff6200", lines=["PostNL Holding B.V."])
    c.text = auto_text(c.html)


# --------------------------------------------------------------------------------------------
# Russian, Polish, Turkish
# --------------------------------------------------------------------------------------------


@case(
    "ru", "code", "Yandex код подтверждения, KOI8-R 8bit text-only; postcode decoy", charset="KOI8-R", text_cte="8bit"
)
def ru_yandex_kod_podtverzhdeniya(c: Case) -> None:
    c.sender = "Яндекс ID <noreply@id.yandex.ru>"
    c.subject = "Код подтверждения для Яндекс ID"
    c.codes = ["482917"]
    c.never("119021")
    c.text = dedent("""\
        Здравствуйте!

        Код подтверждения: 482917

        Введите его на странице входа. Никому не сообщайте этот код.
        Если вы не запрашивали код, просто проигнорируйте это письмо.

        С уважением,
        команда Яндекс ID
        119021, Москва, ул. Льва Толстого, 16
        """)


@case(
    "ru",
    "code",
    "VK код для входа '639 027', windows-1251 base64 HTML; copyright years",
    charset="windows-1251",
    html_cte="base64",
)
def ru_vk_kod_dlya_vhoda(c: Case) -> None:
    c.sender = "ВКонтакте <admin@notify.vk.com>"
    c.subject = "Код для входа во ВКонтакте"
    c.codes = ["639027", "639 027"]
    body = (
        p("Здравствуйте, Иван!")
        + p("Ваш код для входа:")
        + big("639 027", size=30, bg="#f0f2f5")
        + p("Никому не сообщайте этот код, даже сотрудникам ВКонтакте.")
    )
    c.html = std(c, body, brand="ВКонтакте", accent="#0077ff", decoys=["2006", "2025"], lines=["ВКонтакте © 2006–2025"])


@case(
    "ru",
    "code",
    "Sber одноразовый пароль; rouble amount with a space thousands separator and card ••4021",
    html_cte="quoted-printable",
)
def ru_sber_odnorazoviy_parol(c: Case) -> None:
    c.sender = "СберБанк <noreply@sberbank.ru>"
    c.subject = "Одноразовый пароль для подтверждения покупки"
    c.codes = ["58120934"]
    c.never("12 499,00", "12 499", "1249900", "12499", "4021", "900")
    body = (
        p("Покупка на сумму 12 499,00 ₽ в магазине TECHNOPARK, карта МИР ••4021.")
        + p("Одноразовый пароль для подтверждения: <b>58120934</b>")
        + p("Никому не сообщайте пароль. Сотрудники банка его не запрашивают.")
        + p("Телефон поддержки: 900")
    )
    c.html = std(c, body, brand="СберБанк", accent="#21a038", lines=["ПАО Сбербанк"])
    c.text = auto_text(c.html)


@case(
    "ru",
    "code",
    "Ozon код для входа (4 digits), windows-1251 QP; postcode and ИНН decoys",
    charset="windows-1251",
    text_cte="quoted-printable",
    subject_mode="Q",
)
def ru_ozon_kod(c: Case) -> None:
    c.sender = "OZON <noreply@sender.ozon.ru>"
    c.subject = "Код для входа в Ozon"
    c.codes = ["5731"]
    c.never("123112", "7704217370")
    c.text = dedent("""\
        Ваш код для входа: 5731

        Код действует 5 минут.

        ООО «Интернет Решения», 123112, Москва, Пресненская наб., д. 10, ИНН 7704217370
        """)


@case("ru", "link", "Mail.ru восстановление пароля: anchor Восстановить пароль", html_cte="base64")
def ru_mailru_vosstanovlenie(c: Case) -> None:
    c.sender = "Mail <security@corp.mail.ru>"
    c.subject = "Восстановление пароля"
    url = f"https://account.mail.ru/recovery/reset?token={c.t('tok', 44)}&email=ivan.petrov%40mail.example"
    c.links = [url]
    body = (
        p("Здравствуйте!")
        + p("Для вашего ящика ivan.petrov@mail.example был запрошен сброс пароля. Ссылка действительна 24 часа.")
        + button(url, "Восстановить пароль", bg="#005ff9")
        + p("Если вы не запрашивали восстановление, просто проигнорируйте это письмо.")
    )
    c.html = std(c, body, brand="Mail", accent="#005ff9", lines=["ООО «ВК»"])


@case(
    "ru",
    "link",
    "Avito: opaque click URL, anchor Подтвердить почту; KOI8-R 8bit HTML",
    charset="KOI8-R",
    html_cte="8bit",
)
def ru_avito_podtverdite(c: Case) -> None:
    c.sender = "Авито <noreply@avito.ru>"
    c.subject = "Подтвердите адрес электронной почты"
    url = f"https://clck.avito.example/t/{c.t('t', 30, 'b62')}"
    c.links = [url]
    c.html = (
        '<html><head><meta http-equiv="Content-Type" content="text/html; charset=koi8-r"></head><body>\n'
        "<p>Здравствуйте!</p>\n<p>Чтобы завершить регистрацию, подтвердите адрес электронной почты:</p>\n"
        f'<p><a href="{esc(url)}">Подтвердить почту</a></p>\n<p>Команда Авито</p>\n</body></html>\n'
    )


@case("ru", "code", "Gosuslugi код подтверждения with a SNILS number whose groups look like codes")
def ru_gosuslugi_kod(c: Case) -> None:
    c.sender = "Госуслуги <no-reply@gosuslugi.ru>"
    c.subject = "Госуслуги: код подтверждения"
    c.codes = ["7382"]
    c.never("112-233-445 95", "112-233", "112233", "11223344595", "233-445")
    c.text = dedent("""\
        Код подтверждения: 7382

        Вы меняете адрес электронной почты в учётной записи (СНИЛС 112-233-445 95).
        Никому не сообщайте код.
        """)


@case(
    "pl",
    "code",
    "Allegro kod weryfikacyjny, ISO-8859-2 QP HTML; NIP, KRS and postcode decoys",
    charset="ISO-8859-2",
    subject_mode="Q",
)
def pl_allegro_kod_weryfikacyjny(c: Case) -> None:
    c.sender = "Allegro <powiadomienia@allegro.pl>"
    c.subject = "Twój kod weryfikacyjny Allegro"
    c.codes = ["482917"]
    body = (
        p("Cześć!")
        + p("Twój kod weryfikacyjny: <b style='font-size:22px'>482917</b>")
        + p("Kod jest ważny przez 15 minut. Nie podawaj go nikomu.")
    )
    c.html = std(
        c,
        body,
        brand="Allegro",
        accent="#ff5a00",
        decoys=["60-166", "5252674798", "0000635012"],
        lines=["Allegro.pl sp. z o.o., ul. Grunwaldzka 182, 60-166 Poznań, NIP 5252674798, KRS 0000635012"],
    )
    c.never("182")
    c.text = auto_text(c.html)


@case(
    "pl",
    "code",
    "mBank kod jednorazowy with a złoty amount written with spaces, ISO-8859-2 text",
    charset="ISO-8859-2",
    text_cte="quoted-printable",
)
def pl_mbank_kod(c: Case) -> None:
    c.sender = "mBank <kontakt@mbank.pl>"
    c.subject = "mBank: kod jednorazowy"
    c.codes = ["73921048"]
    c.never("1 250,00", "125000", "1250")
    c.text = dedent("""\
        Dzień dobry,

        przelew na kwotę 1 250,00 zł. Twój kod jednorazowy: 73921048

        Nie przekazuj kodu nikomu.
        mBank S.A.
        """)


@case("pl", "link", "OLX.pl potwierdź adres e-mail")
def pl_olx_potwierdz(c: Case) -> None:
    c.sender = "OLX <noreply@olx.pl>"
    c.subject = "Potwierdź swój adres e-mail"
    url = f"https://www.olx.pl/konto/potwierdz/?token={c.t('tok', 40)}"
    c.links = [url]
    body = (
        p("Cześć!")
        + p("Kliknij poniższy przycisk, aby potwierdzić adres e-mail i aktywować konto.")
        + button(url, "Potwierdź e-mail", bg="#002f34")
    )
    c.html = std(
        c,
        body,
        brand="OLX",
        accent="#23e5db",
        decoys=["61-131"],
        lines=["Grupa OLX sp. z o.o., ul. Królowej Jadwigi 43, 61-131 Poznań"],
    )
    c.text = auto_text(c.html)


@case("pl", "link", "InPost zresetuj hasło, text-only ISO-8859-2", charset="ISO-8859-2")
def pl_inpost_reset_hasla(c: Case) -> None:
    c.sender = "InPost <noreply@inpost.pl>"
    c.subject = "Zresetuj hasło do konta InPost"
    url = f"https://inpost.pl/reset-hasla?token={c.t('tok', 40)}"
    c.links = [url]
    c.text = f"Cześć,\n\nAby ustawić nowe hasło, kliknij w link:\n{url}\n\nLink jest ważny przez 60 minut.\n\nZespół InPost\n"


@case(
    "tr",
    "code",
    "Trendyol doğrulama kodu, ISO-8859-9 QP HTML; MERSİS number decoy",
    charset="ISO-8859-9",
    subject_mode="Q",
)
def tr_trendyol_dogrulama_kodu(c: Case) -> None:
    c.sender = "Trendyol <bilgi@trendyol.com>"
    c.subject = "Trendyol doğrulama kodunuz"
    c.codes = ["482917"]
    body = (
        p("Merhaba,")
        + p("Doğrulama kodunuz: <b style='font-size:22px'>482917</b>")
        + p("Bu kod 3 dakika geçerlidir. Kodu kimseyle paylaşmayın.")
    )
    c.html = std(
        c,
        body,
        brand="Trendyol",
        accent="#f27a1a",
        decoys=["0313055729100017"],
        lines=["DSM Grup Danışmanlık İletişim ve Satış Ticaret A.Ş. · Mersis No: 0313055729100017"],
    )
    c.text = auto_text(c.html)


@case("tr", "code", "Getir doğrulama kodu (4 digits), windows-1254 text", charset="windows-1254")
def tr_getir_kod(c: Case) -> None:
    c.sender = "Getir <noreply@getir.com>"
    c.subject = "Getir doğrulama kodun"
    c.codes = ["7164"]
    c.never("0850 532 50 50", "08505325050", "0850")
    c.text = "Getir doğrulama kodun: 7164\n\nBu kodu kimseyle paylaşma.\nYardım: 0850 532 50 50\n"


@case("tr", "link", "Hepsiburada şifre sıfırlama")
def tr_hepsiburada_sifre(c: Case) -> None:
    c.sender = "Hepsiburada <bilgilendirme@hepsiburada.com>"
    c.subject = "Şifre sıfırlama talebiniz"
    url = f"https://giris.hepsiburada.com/sifre-yenile?token={c.t('tok', 44)}"
    c.links = [url]
    body = (
        p("Merhaba,")
        + p("Şifrenizi sıfırlamak için aşağıdaki butona tıklayın. Bağlantı 1 saat geçerlidir.")
        + button(url, "Şifremi sıfırla", bg="#ff6000")
    )
    c.html = std(
        c, body, brand="Hepsiburada", accent="#ff6000", lines=["D-Market Elektronik Hizmetler ve Ticaret A.Ş."]
    )
    c.text = auto_text(c.html)


@case(
    "tr",
    "code",
    "Garanti BBVA tek kullanımlık şifre with TL amount, ISO-8859-9 text",
    charset="ISO-8859-9",
    text_cte="quoted-printable",
)
def tr_garanti_tek_kullanimlik(c: Case) -> None:
    c.sender = "Garanti BBVA <bilgi@garantibbva.com.tr>"
    c.subject = "Tek kullanımlık şifreniz"
    c.codes = ["58201934"]
    c.never("1.250,00", "125000", "444 0 333", "4440333")
    c.text = dedent("""\
        Sayın müşterimiz,

        1.250,00 TL tutarındaki işleminiz için tek kullanımlık doğrulama kodunuz: 58201934

        Müşteri hizmetleri: 444 0 333
        """)


# --------------------------------------------------------------------------------------------
# Hard negatives: no code and no action link may be reported
# --------------------------------------------------------------------------------------------


def pdf(c: Case, filename: str, text: str) -> None:
    """Attach a small fake PDF (its numbers are not the message's text)."""
    body = (
        b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n% "
        + text.encode()
        + b"\n"
        + hashlib.sha256(c.name.encode()).digest()
        + b"\n%%EOF\n"
    )
    c.attachments.append(
        Leaf(
            "application/pdf",
            body,
            None,
            "base64",
            f'; name="{filename}"',
            [("Content-Disposition", f'attachment; filename="{filename}"')],
        )
    )


def ics(c: Case, text: str) -> None:
    c.attachments.append(
        Leaf(
            "text/calendar",
            text,
            "UTF-8",
            "7bit",
            "; method=REQUEST",
            [("Content-Disposition", 'attachment; filename="invite.ics"')],
        )
    )


@case("en", "negative", "Amazon order confirmation: order number, total, delivery date; no code")
def en_neg_amazon_order_confirmation(c: Case) -> None:
    c.sender = "Amazon.com <auto-confirm@amazon.com>"
    c.subject = "Your Amazon.com order #112-4829137-5530617"
    order = "112-4829137-5530617"
    view = c.never(f"https://www.amazon.com/gp/css/order-details?orderID={order}&ref_=pe_386300_440135490_TE_simp_od")
    c.never(order, "4829137", "5530617", "1,299.00", "1299", "129900", "2025", "98109")
    body = (
        h1("Order Confirmation")
        + p("Hello Jane Doe,")
        + p("Thank you for shopping with us. We'll send a confirmation when your item ships.")
        + '<table role="presentation" style="width:100%;font-size:14px"><tr><td>Arriving:</td>'
        "<td><b>Tuesday, March 18, 2025</b></td></tr><tr><td>Order #</td><td>112-4829137-5530617</td></tr>"
        "<tr><td>Order Total:</td><td><b>$1,299.00</b></td></tr></table>"
        + button(view, "View or manage order", bg="#ffd814", fg="#0f1111")
    )
    c.html = std(
        c,
        body,
        brand="Amazon",
        accent="#ff9900",
        lines=["©2025 Amazon.com, Inc. or its affiliates. Amazon.com, 410 Terry Avenue N., Seattle, WA 98109."],
    )
    c.text = auto_text(c.html)


@case("en", "negative", "UPS delivery notice: 1Z tracking number, date range and times")
def en_neg_ups_shipping(c: Case) -> None:
    c.sender = "UPS <mcinfo@ups.com>"
    c.subject = "UPS Update: Package Scheduled for Delivery Today"
    track = c.never("https://www.ups.com/track?tracknum=1Z999AA10123456784&loc=en_US&requester=ST/trackdetails")
    c.never(
        "1Z999AA10123456784", "1Z 999 AA1 01 2345 6784", "2345 6784", "23456784", "03/14/2025", "10:30", "2:30", "30328"
    )
    body = (
        h1("Your package is scheduled for delivery today")
        + p("Scheduled Delivery: <b>Friday, 03/14/2025</b><br>Estimated Time: Between 10:30 AM - 2:30 PM")
        + p(
            "Tracking Number: <b>1Z 999 AA1 01 2345 6784</b><br>Ship To: Jane Doe, Berlin, DE<br>"
            "Number of Packages: 1<br>Weight: 2.3 LBS"
        )
        + button(track, "Track Package", bg="#ffc400", fg="#000")
    )
    c.html = std(
        c,
        body,
        brand="UPS",
        accent="#351c15",
        lines=["© 2025 United Parcel Service of America, Inc. 55 Glenlake Parkway NE, Atlanta, GA 30328"],
    )
    c.text = auto_text(c.html)


@case("en", "negative", "Stripe-style invoice with PDF attachment: invoice numbers, amount, due date")
def en_neg_stripe_invoice(c: Case) -> None:
    c.sender = "Acme Cloud <invoice+statements@acmecloud.example>"
    c.subject = "Your invoice from Acme Cloud #4A7C2E19-0042"
    pay = c.never(f"https://invoice.stripe.com/i/acct_1Mx4Q2Lk8e3R9zAb/live_{c.t('inv', 60)}?s=em")
    c.never("4A7C2E19-0042", "0042", "INV-2025-0042", "49.00", "4900", "2025", "94107")
    body = (
        h1("Invoice from Acme Cloud")
        + p("<b>$49.00</b> due March 31, 2025")
        + p("Invoice number 4A7C2E19-0042<br>Reference INV-2025-0042<br>Pro plan · Mar 14 – Apr 13, 2025")
        + button(pay, "Pay this invoice", bg="#635bff")
        + p("Questions? Contact Acme Cloud at billing@acmecloud.example.")
    )
    c.html = std(
        c,
        body,
        brand="Acme Cloud",
        accent="#635bff",
        lines=["Acme Cloud Inc., 510 Townsend St, San Francisco, CA 94107", "Powered by Stripe"],
    )
    c.text = auto_text(c.html)
    pdf(c, "Invoice-4A7C2E19-0042.pdf", "Invoice 4A7C2E19-0042 Amount due 49.00 USD")


@case("en", "negative", "flight booking: booking reference, flight and e-ticket numbers, times, fare")
def en_neg_flight_booking(c: Case) -> None:
    c.sender = "Lufthansa <online@booking-lufthansa.com>"
    c.subject = "Your booking is confirmed: Frankfurt – New York, 14 Mar 2025"
    manage = c.never("https://www.lufthansa.com/de/en/my-bookings?pnr=X7K2QP&lastName=DOE")
    c.never(
        "X7K2QP",
        "LH401",
        "LH 401",
        "220-2345678901",
        "2345678901",
        "10:55",
        "13:40",
        "1,289.40",
        "128940",
        "2025",
        "14C",
        "B44",
    )
    body = (
        h1("Thank you for your booking")
        + p("Booking reference: <b>X7K2QP</b>")
        + '<table role="presentation" style="width:100%;font-size:14px">'
        "<tr><td>Flight</td><td>LH 401</td></tr><tr><td>Departure</td><td>Fri, 14 Mar 2025 10:55 Frankfurt (FRA) "
        "Terminal 1</td></tr><tr><td>Arrival</td><td>Fri, 14 Mar 2025 13:40 New York (JFK) Terminal 1</td></tr>"
        "<tr><td>Seat</td><td>14C · Gate B44</td></tr><tr><td>E-ticket number</td><td>220-2345678901</td></tr>"
        "<tr><td>Total price</td><td>EUR 1,289.40</td></tr></table>" + button(manage, "Manage booking", bg="#05164d")
    )
    c.html = std(
        c,
        body,
        brand="Lufthansa",
        accent="#05164d",
        lines=["Deutsche Lufthansa AG, Venloer Str. 151-153, 50672 Köln"],
        decoys=["50672"],
    )
    c.text = auto_text(c.html)


@case("en", "negative", "Google Calendar invitation with Meet link, phone dial-in and an .ics attachment")
def en_neg_google_calendar_invite(c: Case) -> None:
    c.sender = "Max Mustermann <max@acme.example>"
    c.subject = "Invitation: Quarterly review @ Fri Mar 14, 2025 3pm - 4pm (CET) (jane.doe@example.com)"
    meet = c.never("https://meet.google.com/xqz-kdpr-wmt")
    more = c.never("https://tel.meet/xqz-kdpr-wmt?pin=4829137512690")
    eid = c.t("eid", 60)
    yes = c.never(
        f"https://calendar.google.com/calendar/event?action=RESPOND&eid={eid}&rst=1&tok={c.t('tok', 40)}&ctz=Europe%2FBerlin&hl=en&es=0"
    )
    no = c.never(
        f"https://calendar.google.com/calendar/event?action=RESPOND&eid={eid}&rst=2&tok={c.t('tok', 40)}&ctz=Europe%2FBerlin&hl=en&es=0"
    )
    c.never("2025", "650-555-0143", "555-0143", "0143", "6505550143", "4829137512690", "3pm", "4pm")
    body = (
        h1("Quarterly review")
        + p("Friday Mar 14, 2025 ⋅ 3pm – 4pm<br>Central European Time - Berlin")
        + p(f"Join with Google Meet<br>{a(meet, 'meet.google.com/xqz-kdpr-wmt')}")
        + p(f"Join by phone<br>(US) +1 650-555-0143<br>{a(more, 'More phone numbers')}")
        + p("Guests: Max Mustermann (organizer), jane.doe@example.com")
        + p(f"Reply for jane.doe@example.com: {a(yes, 'Yes')} · {a(no, 'No')}")
        + p("Invitation from Google Calendar", "color:#70757a;font-size:12px")
    )
    c.html = card(c, body, brand="Google Calendar", accent="#1a73e8")
    c.text = auto_text(c.html)
    ics(
        c,
        dedent(f"""\
        BEGIN:VCALENDAR
        PRODID:-//Google Inc//Google Calendar 70.9054//EN
        VERSION:2.0
        METHOD:REQUEST
        BEGIN:VEVENT
        DTSTART:20250314T140000Z
        DTEND:20250314T150000Z
        DTSTAMP:20250310T091500Z
        ORGANIZER;CN=Max Mustermann:mailto:max@acme.example
        UID:{c.t("uid", 26, "b62")}@google.com
        DESCRIPTION:Join with Google Meet: {meet}
        SUMMARY:Quarterly review
        END:VEVENT
        END:VCALENDAR
        """).replace("\n", "\r\n"),
    )


@case("en", "negative", "Microsoft Teams invite: conference ID '482 913 771#' and call-in numbers, no passcode")
def en_neg_teams_invite(c: Case) -> None:
    c.sender = "Jane Doe <jane.doe@acme.example>"
    c.subject = "Design review"
    join = c.never(
        f"https://teams.microsoft.com/l/meetup-join/19%3ameeting_{c.t('m', 48)}%40thread.v2/0?context="
        "%7b%22Tid%22%3a%2272f988bf-86f1-41af-91ab-2d7cd011db47%22%2c%22Oid%22%3a%22"
        "5b4c3d2e-1f0a-4b9c-8d7e-6f5a4b3c2d1e%22%7d"
    )
    local = c.never(f"https://dialin.teams.microsoft.com/{c.t('d', 8, 'hex')}-{c.t('d2', 4, 'hex')}?id=482913771")
    c.never("482 913 771", "482913771", "482 913", "913 771", "323-555-0166", "555-0166", "3235550166")
    c.html = dedent(f"""\
        <html><body><div>
        <p>Let's walk through the new onboarding flow.</p>
        <div style="width:100%;height:20px"><span style="white-space:nowrap;color:#5F5F5F;opacity:.36">________________________________________________________________________________</span></div>
        <div class="me-email-text" lang="en-US" style="color:#252424;font-family:'Segoe UI'">
        <div style="margin-top:24px;margin-bottom:20px"><span style="font-size:24px;color:#252424">Microsoft Teams meeting</span></div>
        <div style="margin-bottom:20px"><div style="margin-top:0px;margin-bottom:0px;font-weight:bold"><span style="font-size:14px;color:#252424">Join on your computer, mobile app or room device</span></div>
        <a class="me-email-headline" style="font-size:14px;font-family:'Segoe UI Semibold';text-decoration:underline;color:#6264a7" href="{esc(join)}" target="_blank" rel="noreferrer noopener">Click here to join the meeting</a></div>
        <div style="margin-bottom:20px;margin-top:20px"><div style="margin-bottom:4px;margin-top:0px;font-weight:bold"><span style="font-size:14px;color:#252424">Or call in (audio only)</span></div>
        <div style="margin-bottom:0px;margin-top:0px"><a class="me-email-link" style="font-size:14px;text-decoration:underline;color:#6264a7" href="tel:+13235550166,,482913771#" target="_blank">+1 323-555-0166,,482913771#</a> <span style="font-size:12px;color:#252424">&nbsp;&nbsp;United States, Los Angeles</span></div>
        <div style="margin-bottom:4px;margin-top:4px"><span style="font-size:12px;color:#252424">Phone Conference ID: </span><span style="font-size:14px;color:#252424">482 913 771# </span></div>
        <a class="me-email-link" style="font-size:14px;text-decoration:underline;color:#6264a7" href="{esc(local)}" target="_blank">Find a local number</a></div>
        </div></div></body></html>
        """)


@case("en", "negative", "credit-card statement: account ending, balances, due date", html_cte="base64")
def en_neg_bank_statement(c: Case) -> None:
    c.sender = "Northwind Bank <statements@northwindbank.example>"
    c.subject = "Your February 2025 statement is ready"
    view = c.never("https://secure.northwindbank.example/statements/2025-02?acct=xxxx4821")
    c.never("4821", "12,480.22", "1248022", "35.00", "03/28/2025", "7,519.78", "751978", "2025", "2025-02")
    body = (
        h1("Your statement is ready")
        + p("Your February 2025 statement for the account ending in 4821 is now available.")
        + '<table role="presentation" style="width:100%;font-size:14px">'
        "<tr><td>Statement balance</td><td align='right'><b>$12,480.22</b></td></tr>"
        "<tr><td>Minimum payment due</td><td align='right'>$35.00</td></tr>"
        "<tr><td>Payment due date</td><td align='right'>03/28/2025</td></tr>"
        "<tr><td>Available credit</td><td align='right'>$7,519.78</td></tr></table>"
        + button(view, "View statement", bg="#1b4f9c")
        + p(
            "Please do not reply to this email. Northwind Bank will never ask for your PIN or passwords by email.",
            "color:#666;font-size:12px",
        )
    )
    c.html = std(c, body, brand="Northwind Bank", accent="#1b4f9c", lines=["Northwind Bank, N.A. Member FDIC."])


@case("en", "negative", "marketing: promo code SAVE20 is not a one-time verification code (README decision)")
def en_neg_promo_save20(c: Case) -> None:
    c.sender = "Allbirds <hello@email.allbirds.com>"
    c.subject = "20% off everything ends Sunday"
    shop = c.never(f"https://email.allbirds.com/c/{c.t('c', 80)}")
    unsub = f"https://email.allbirds.com/unsubscribe?token={c.t('u', 40)}"
    c.never("SAVE20", "03/31/2025", "2025")
    body = (
        h1("Spring sale: 20% off everything")
        + p("Use code <b>SAVE20</b> at checkout. Offer ends 03/31/2025 at 11:59 PM PT.")
        + button(shop, "Shop now", bg="#212121")
    )
    c.html = std(
        c,
        body,
        brand="Allbirds",
        accent="#212121",
        links=[("Unsubscribe", unsub)],
        lines=["Allbirds, Inc. 730 Montgomery St, San Francisco, CA 94111"],
        decoys=["94111"],
        track=f"https://email.allbirds.com/o/{c.t('o', 60)}",
    )
    c.text = auto_text(c.html)


@case("en", "negative", "marketing: 'Enter promo code SPRING25' plus free-shipping threshold")
def en_neg_promo_spring25(c: Case) -> None:
    c.sender = "Acme Outdoor <deals@acmeoutdoor.example>"
    c.subject = "Your exclusive code inside"
    shop = c.never("https://acmeoutdoor.example/sale?utm_source=email&utm_campaign=spring25")
    view = f"https://view.acmeoutdoor.example/?qs={c.t('qs', 64, 'hex')}"
    c.never("SPRING25", "50", "2025")
    body = (
        preheader("Spring is here — 25% off tents and packs")
        + h1("25% off tents and packs")
        + p("Enter promo code <b>SPRING25</b> at checkout. Free shipping on orders over $50.")
        + button(shop, "Shop the sale", bg="#2f5d50")
        + p("Valid through April 6, 2025. Cannot be combined with other offers.", "font-size:12px;color:#777")
    )
    c.html = std(
        c, body, brand="Acme Outdoor", accent="#2f5d50", links=[("View in browser", view)], lines=["Acme Outdoor Co."]
    )
    c.text = auto_text(c.html)


@case("en", "negative", "LinkedIn weekly stats: counts, follower numbers, midToken links")
def en_neg_linkedin_social(c: Case) -> None:
    c.sender = "LinkedIn <notifications-noreply@linkedin.com>"
    c.subject = "Jane, you appeared in 48 searches this week"
    mid = c.t("mid", 42)
    prof = c.never(f"https://www.linkedin.com/comm/me/search-appearances?midToken={mid}&trk=eml-search_appearances")
    unsub = c.never(f"https://www.linkedin.com/comm/psettings/email-unsubscribe?midToken={mid}")
    c.never("10,482", "10482", "2025", "94085")
    body = (
        h1("You appeared in 48 searches this week")
        + p("Your profile was found by people from Acme Corp (10,482 followers) and 12 other companies.")
        + button(prof, "See all searches", bg="#0a66c2", radius=24)
    )
    c.html = std(
        c,
        body,
        brand="LinkedIn",
        accent="#0a66c2",
        links=[("Unsubscribe", unsub)],
        lines=["© 2025 LinkedIn Corporation, 1000 West Maude Avenue, Sunnyvale, CA 94085."],
    )
    c.never("1000")
    c.text = auto_text(c.html)


@case("en", "negative", "GitHub PR notification: 'code' keyword near a commit SHA, PR numbers and a date")
def en_neg_github_pr_notification(c: Case) -> None:
    c.sender = "octo-max <notifications@github.com>"
    c.subject = "[acme/widgets] Fix crash on 2024-12-31 rollover (PR #5678)"
    pr = c.never("https://github.com/acme/widgets/pull/5678")
    c.never("7f3c2e1", "5678", "2024-12-31", "2024", "1234")
    c.text = dedent(f"""\
        @octo-max requested your review on: acme/widgets#5678 Fix crash on 2024-12-31 rollover.

        Closes #1234.

        You can view, comment on, or merge this pull request online at:

          {pr}

        Commit Summary

          * 7f3c2e1 Handle year rollover in code generator

        File Changes (1 file)

          * M src/codegen.py (12)

        Patch Links:

          * {pr}.patch
          * {pr}.diff

        --
        Reply to this email directly, view it on GitHub:
        {pr}#pullrequestreview-2718293041
        You are receiving this because your review was requested.
        """)
    c.never(f"{pr}.patch", f"{pr}.diff", f"{pr}#pullrequestreview-2718293041", "2718293041")


@case("en", "negative", "Google password-changed alert: only a 'Check activity' link (no reset link)")
def en_neg_google_password_changed(c: Case) -> None:
    c.sender = "Google <no-reply@accounts.google.com>"
    c.subject = "Security alert"
    check = c.never(
        "https://accounts.google.com/AccountChooser?Email=jane.doe.work@example.net&continue=https://"
        "myaccount.google.com/alert/nt/1741939397000?rfn%3D31%26rfnc%3D1%26eid%3D-48291370251%26et%3D0"
    )
    c.never("1741939397000", "48291370251", "2025", "1600", "94043")
    body = (
        '<div style="text-align:center;font-size:24px">Your password was changed</div>'
        + p("jane.doe.work@example.net", "text-align:center;color:#5f6368")
        + p(
            "The password for your Google Account jane.doe.work@example.net was changed. If you did this, you "
            "don't need to do anything. If you didn't, Google will help you secure your account."
        )
        + button(check, "Check activity", bg="#4184f3")
    )
    c.html = std(
        c,
        body,
        brand="Google",
        accent="#4285f4",
        lines=["© 2025 Google LLC, 1600 Amphitheatre Parkway, Mountain View, CA 94043, USA"],
    )
    c.text = auto_text(c.html)


@case("en", "negative", "Microsoft new sign-in alert: IP, date, time, OS version next to 'sign-in'")
def en_neg_new_signin_alert(c: Case) -> None:
    c.sender = "Microsoft account team <account-security-noreply@accountprotection.microsoft.com>"
    c.subject = "New sign-in to your Microsoft account"
    review = c.never("https://account.live.com/Activity")
    c.never("203.0.113.9", "3/14/2025", "8:42", "2025", "98052")
    body = (
        p("Microsoft account", "color:#707070;font-size:17px")
        + h1("New sign-in detected")
        + p("We noticed a new sign-in to your Microsoft account ja**e@example.com.")
        + p(
            "Country/region: Germany<br>IP address: 203.0.113.9<br>Date: 3/14/2025 8:42 AM (GMT)<br>"
            "Platform: Windows 11<br>Browser: Edge"
        )
        + p(f"If this was you, you can safely ignore this email. {a(review, 'Review recent activity')}")
    )
    c.html = std(
        c,
        body,
        brand="Microsoft",
        accent="#2672ec",
        lines=["Microsoft Corporation | One Microsoft Way Redmond, WA 98052"],
    )
    c.text = auto_text(c.html)


@case("en", "negative", "GitHub 2FA enabled notice: 'recovery codes', a count and a date, but no code")
def en_neg_2fa_enabled(c: Case) -> None:
    c.sender = "GitHub <noreply@github.com>"
    c.subject = "[GitHub] Two-factor authentication enabled"
    sec = c.never("https://github.com/settings/security")
    docs = c.never("https://docs.github.com/en/authentication/securing-your-account-with-two-factor-authentication-2fa")
    c.never("2025-03-14", "2025", "94107")
    c.text = dedent(f"""\
        Hey octo-jane!

        Two-factor authentication (2FA) has been enabled for your account.

        You generated 16 recovery codes on 2025-03-14. Store them somewhere safe: if you lose access to your
        2FA device and your recovery codes, you will lose access to your account.

        Review your security settings: {sec}
        Learn more: {docs}

        Thanks,
        The GitHub Team

        GitHub, Inc. 88 Colin P Kelly Jr Street, San Francisco, CA 94107
        """)


@case("en", "negative", "welcome mail after verification: 'verified' near an 8-digit account ID")
def en_neg_email_verified_welcome(c: Case) -> None:
    c.sender = "Acme CRM <welcome@acmecrm.example>"
    c.subject = "Your email is verified — welcome to Acme CRM"
    dash = c.never("https://app.acmecrm.example/dashboard")
    c.never("48291374", "4821", "acme-4821")
    body = (
        h1("You're all set!")
        + p("Thanks for verifying your email. Your account ID is 48291374.")
        + p("Your workspace acme-4821 is ready. Invite your team and import your contacts.")
        + button(dash, "Go to dashboard", bg="#ff7a59")
    )
    c.html = std(c, body, brand="Acme CRM", accent="#ff7a59", lines=["Acme CRM Inc."])
    c.text = auto_text(c.html)


@case("en", "negative", "security-tips newsletter about codes: keyword 'code' beside years and counts")
def en_neg_security_tips_newsletter(c: Case) -> None:
    c.sender = "Acme Security <newsletter@acmebank.example>"
    c.subject = "How to spot fake verification code requests"
    more = c.never("https://www.acmebank.example/security/tips?utm_source=newsletter&utm_medium=email")
    unsub = f"https://www.acmebank.example/email/unsubscribe?token={c.t('u', 36)}"
    c.never("2024", "1,200,000", "1200000", "1-800-555-0177", "555-0177", "0177")
    body = (
        h1("Stay one step ahead of phone scams")
        + p(
            "In 2024 we blocked 1,200,000 phishing attempts against our customers, most of them by phone and "
            "by text message."
        )
        + p(
            "Scammers often pretend to be our staff and ask you to read out the verification code we send you. "
            "We will never ask for a code by phone."
        )
        + p("Suspicious call? Hang up and call 1-800-555-0177.")
        + button(more, "Read more security tips", bg="#004b87")
    )
    c.html = std(c, body, brand="Acme Bank", accent="#004b87", links=[("Unsubscribe", unsub)], lines=["Acme Bank"])
    c.text = auto_text(c.html)


@case("en", "negative", "Uber trip receipt: fare lines, card last four, distance and duration")
def en_neg_uber_receipt(c: Case) -> None:
    c.sender = "Uber Receipts <noreply@uber.com>"
    c.subject = "Your Friday morning trip with Uber"
    c.never("23.47", "2347", "18.20", "2.77", "4821", "1455", "8:14", "8:32", "94158")
    body = (
        h1("Thanks for riding, Jane") + '<table role="presentation" style="width:100%;font-size:15px">'
        "<tr><td><b>Total</b></td><td align='right'><b>$23.47</b></td></tr>"
        "<tr><td>Trip fare</td><td align='right'>$18.20</td></tr>"
        "<tr><td>Booking fee</td><td align='right'>$2.77</td></tr>"
        "<tr><td>Tip</td><td align='right'>$2.50</td></tr>"
        "<tr><td>Visa ••••4821</td><td align='right'>$23.47</td></tr></table>"
        + p("UberX · 4.2 mi · 18 min<br>8:14 AM 1455 Market St, San Francisco<br>8:32 AM 501 Twin Peaks Blvd")
    )
    c.html = std(
        c,
        body,
        brand="Uber",
        accent="#000000",
        lines=["Uber Technologies Inc., 1725 3rd Street, San Francisco, CA 94158"],
    )
    c.never("1725")
    c.text = auto_text(c.html)


@case("en", "negative", "utility bill: account number with dashes, amount, due and statement dates")
def en_neg_utility_bill(c: Case) -> None:
    c.sender = "PG&E <customerservice@pge.com>"
    c.subject = "Your PG&E Energy Statement is Ready to View"
    view = c.never("https://m.pge.com/#myaccount/dashboard/summary/4829103755")
    c.never("4829-1037-55", "4829103755", "87.13", "8713", "04/15/2025", "03/14/2025", "2025")
    c.text = dedent(f"""\
        Your Energy Statement is ready to view

        Account No: 4829-1037-55
        Statement Date: 03/14/2025
        Amount Due: $87.13
        Due Date: 04/15/2025

        View and pay your bill: {view}

        Pacific Gas and Electric Company
        """)


@case("en", "negative", "event ticket order: a 6-digit order number after '#', event date and price")
def en_neg_eventbrite_ticket_order(c: Case) -> None:
    c.sender = "Eventbrite <orders@eventbrite.com>"
    c.subject = "Order #482913 — Your tickets for JSConf EU"
    tickets = c.never("https://www.eventbrite.com/mytickets/482913")
    c.never("482913", "129.00", "12900", "2025", "9:00")
    body = (
        h1("You're going to JSConf EU")
        + p("Order #482913 · Sat, Apr 12, 2025 9:00 AM CEST")
        + p("2 x General Admission — $129.00 each")
        + button(tickets, "View your tickets", bg="#d1410c")
    )
    c.html = std(c, body, brand="Eventbrite", accent="#d1410c", lines=["Eventbrite, Inc."])
    c.text = auto_text(c.html)


@case("en", "negative", "appointment reminder: date, time, room, reschedule phone number")
def en_neg_appointment_reminder(c: Case) -> None:
    c.sender = "Riverside Dental <reminders@riversidedental.example>"
    c.subject = "Reminder: your appointment on 03/14/2025"
    c.never("03/14/2025", "09:30", "204", "(555) 010-4821", "010-4821", "4821", "5550104821", "0104821")
    c.text = dedent("""\
        Hi Jane,

        This is a reminder of your appointment on 03/14/2025 at 09:30 with Dr. Patel, Room 204.

        To reschedule, call (555) 010-4821 at least 24 hours in advance.

        Riverside Dental
        """)


@case("en", "negative", "Apple receipt: alphanumeric order ID, document number, price, card last four")
def en_neg_apple_receipt(c: Case) -> None:
    c.sender = "Apple <no_reply@email.apple.com>"
    c.subject = "Your receipt from Apple."
    c.never("MK7T2QX9PL", "182736450921", "2.99", "299", "4021", "2025", "95014")
    body = (
        h1("Receipt") + '<table role="presentation" style="width:100%;font-size:13px">'
        "<tr><td>APPLE ID</td><td>jane.doe@example.com</td></tr>"
        "<tr><td>DATE</td><td>14 Mar 2025</td></tr>"
        "<tr><td>ORDER ID</td><td>MK7T2QX9PL</td></tr>"
        "<tr><td>DOCUMENT NO.</td><td>182736450921</td></tr>"
        "<tr><td>iCloud+ with 200 GB (Monthly)</td><td>$2.99</td></tr>"
        "<tr><td>Billed to</td><td>Visa •••• 4021</td></tr></table>"
    )
    c.html = std(
        c,
        body,
        brand="Apple",
        accent="#ffffff",
        links=[("Privacy Policy", "https://www.apple.com/legal/privacy/")],
        lines=["Copyright © 2025 Apple Inc. One Apple Park Way, Cupertino, CA 95014, United States."],
    )
    c.text = auto_text(c.html)


@case("en", "negative", "Netflix renewal notice: date and monthly price", subject_mode="Q")
def en_neg_netflix_renewal(c: Case) -> None:
    c.sender = "Netflix <info@mailer.netflix.com>"
    c.subject = "Your membership renews on April 2, 2025"
    manage = c.never("https://www.netflix.com/YourAccount?lnktrk=EMP&g=8C1F4D2A&lkid=MANAGE_MEMBERSHIP")
    c.never("2025", "15.49", "1549", "95032")
    body = (
        h1("Your membership renews soon")
        + p("Your Standard plan renews on April 2, 2025 for $15.49/month.")
        + button(manage, "Manage membership", bg="#e50914")
    )
    c.html = std(
        c, body, brand="Netflix", accent="#e50914", lines=["Netflix, Inc., 121 Albright Way, Los Gatos, CA 95032"]
    )
    c.text = auto_text(c.html)


@case("en", "negative", "Slack digest: channel counts, times, a build number and a commit hash")
def en_neg_slack_digest(c: Case) -> None:
    c.sender = "Slack <feedback@slack.com>"
    c.subject = "You have 12 unread messages in acme-corp"
    open_url = c.never("https://acme-corp.slack.com/archives/C04KZ2E5Q/p1741939397000100")
    c.never("4821", "a1b2c3d", "09:41", "9:41", "1741939397000100")
    body = (
        h1("12 unread messages")
        + p("<b>#deploys</b> · deploy-bot 9:41 AM<br>Build 4821 deployed to production at 09:41 UTC (commit a1b2c3d).")
        + p("<b>#general</b> · Max 9:43 AM<br>Coffee machine on floor 3 is fixed ☕")
        + button(open_url, "Open Slack", bg="#611f69")
    )
    c.html = std(
        c, body, brand="Slack", accent="#4a154b", links=SLACK_LINKS, lines=SLACK_FOOT, decoys=["2025", "94105"]
    )
    c.text = auto_text(c.html)


@case("en", "negative", "payslip notice: employee number, tax year, net pay, NI number")
def en_neg_payslip(c: Case) -> None:
    c.sender = "Acme Payroll <payroll@acme.example>"
    c.subject = "Your payslip for March 2025 is available"
    c.never("004821", "2024/25", "2024", "2,481.37", "248137", "QQ 12 34 56 C", "2025")
    c.text = dedent("""\
        Hello Jane,

        Your payslip for March 2025 is now available in the employee portal.

        Employee number: 004821
        Tax year: 2024/25
        Net pay: £2,481.37
        NI number: QQ 12 34 56 C

        Acme Payroll Team
        """)


@case("en", "negative", "Shopify shipping confirmation: USPS tracking number in 4-digit groups")
def en_neg_shopify_order_shipped(c: Case) -> None:
    c.sender = "Allbirds <store+62801903@t.shopifyemail.com>"
    c.subject = "A shipment from order #1042 is on the way"
    track = c.never("https://tools.usps.com/go/TrackConfirmAction?tLabels=9400100000000000000000")
    c.never("9400 1000 0000 0000 0000 00", "9400100000000000000000", "9400 1000", "94001000", "1042")
    body = (
        h1("Your order is on the way")
        + p("Order #1042")
        + p("USPS tracking number: 9400 1000 0000 0000 0000 00")
        + button(track, "Track your shipment", bg="#212121")
    )
    c.html = std(c, body, brand="Allbirds", accent="#212121", lines=["Allbirds · San Francisco"])
    c.text = auto_text(c.html)


@case("en", "negative", "password-changed notice with only a support link (no reset link)")
def en_neg_password_changed_support_only(c: Case) -> None:
    c.sender = "Microsoft account team <account-security-noreply@accountprotection.microsoft.com>"
    c.subject = "Your password changed"
    support = c.never("https://support.microsoft.com/contactus")
    c.never("98052", "2025")
    body = (
        h1("Your password changed")
        + p("The password for the Microsoft account ja**e@example.com was changed on 3/14/2025.")
        + p(f"If you did this, you can safely disregard this email. If you didn't, {a(support, 'contact support')}.")
    )
    c.html = std(
        c,
        body,
        brand="Microsoft",
        accent="#2672ec",
        lines=["Microsoft Corporation | One Microsoft Way Redmond, WA 98052"],
    )
    c.never("3/14/2025")
    c.text = auto_text(c.html)


@case("en", "negative", "Substack newsletter: prose with years, latencies and counts next to the word 'code'")
def en_neg_substack_newsletter(c: Case) -> None:
    c.sender = "The Pragmatic Stack <pragmaticstack@substack.com>"
    c.subject = "What we learned rewriting 40,000 lines in 2024"
    post = c.never("https://pragmaticstack.substack.com/p/what-we-learned-rewriting?utm_source=post-email-title")
    app = c.never(
        "https://substack.com/app-link/post?publication_id=1234567&post_id=150123456&utm_campaign=email-read-in-app"
    )
    unsub = f"https://pragmaticstack.substack.com/action/disable_email?token={c.t('u', 60)}"
    c.never("2024", "40,000", "40000", "4,210", "4210", "1998", "1234567", "150123456", "72296", "94104")
    body = (
        f"<h1>{a(post, 'What we learned rewriting 40,000 lines in 2024', 'color:#111;text-decoration:none')}</h1>"
        + p(
            "I spent most of 2024 rewriting our ingestion code in Rust. It cut p99 latency from 820 ms to 140 ms "
            "and our CI build went from 4,210 s to 380 s."
        )
        + p("The original system dates from 1998, when the team was three people and a fax machine.")
        + button(app, "Read in app", bg="#ff6719")
    )
    c.html = std(
        c,
        body,
        brand="The Pragmatic Stack",
        accent="#ff6719",
        links=[("Unsubscribe", unsub)],
        lines=["© 2025 Jane Doe", "548 Market Street PMB 72296, San Francisco, CA 94104"],
        decoys=["2025"],
    )
    c.text = auto_text(c.html)


@case("en", "negative", "Zoom webinar reminder: webinar ID in groups, date, time, dial-in; no passcode")
def en_neg_zoom_webinar_reminder(c: Case) -> None:
    c.sender = "Acme Observability <no-reply@zoom.us>"
    c.subject = "Reminder: Intro to Observability starts in 1 hour"
    join = c.never(f"https://us06web.zoom.us/w/84529134471?tk={c.t('tk', 60)}")
    c.never("845 2913 4471", "84529134471", "8452913", "2913 4471", "646 555 0188", "5550188", "0188", "2025", "11:00")
    c.text = dedent(f"""\
        Hi Jane,

        This is a reminder that "Intro to Observability" will begin in 1 hour on:
        Date & Time: Mar 14, 2025 11:00 AM Eastern Time (US and Canada)

        Join from PC, Mac, iPad, or Android:
        {join}

        Or join by phone:
            US: +1 646 555 0188
        Webinar ID: 845 2913 4471

        You can cancel your registration at any time.
        """)


@case("zh-Hans", "negative", "Taobao shipping notice: order and courier numbers, amount, timestamp", text_cte="base64")
def zh_hans_neg_taobao_order_shipped(c: Case) -> None:
    c.sender = "淘宝网 <no-reply@service.taobao.com>"
    c.subject = "您的订单已发货"
    c.never("286591034522", "SF1234567890123", "128.00", "12800", "2025-03-14", "10:22")
    c.text = dedent("""\
        亲爱的用户：

        您的订单已发货，请注意查收。
        订单号：286591034522
        快递公司：顺丰速运　快递单号：SF1234567890123
        实付款：¥128.00
        发货时间：2025-03-14 10:22

        淘宝网
        """)


@case(
    "zh-Hans",
    "negative",
    "credit-card e-statement: amounts and dates; '验证码' warning beside hotline 95555",
    charset="GB2312",
    html_cte="base64",
)
def zh_hans_neg_card_statement(c: Case) -> None:
    c.sender = "招商银行信用卡 <ccsvc@message.cmbchina.com>"
    c.subject = "招商银行信用卡电子账单（2025年02月）"
    c.never("95555", "3,482.19", "348219", "2025", "348.22", "4821")
    c.html = (
        '<html><head><meta http-equiv="Content-Type" content="text/html; charset=gb2312"></head><body>'
        "<p>尊敬的张先生：</p><p>您的2025年02月信用卡电子账单已生成。</p>"
        "<table border='1' cellpadding='6'><tr><td>本期应还金额</td><td>¥3,482.19</td></tr>"
        "<tr><td>最低还款额</td><td>¥348.22</td></tr><tr><td>到期还款日</td><td>2025年03月14日</td></tr>"
        "<tr><td>卡号末四位</td><td>4821</td></tr></table>"
        "<p style='color:#999'>温馨提示：请勿向任何人透露短信验证码。客服热线 95555</p></body></html>\n"
    )


@case("zh-Hans", "negative", "coupon mail: 优惠码 SPRING88 (a promo code, not a verification code)")
def zh_hans_neg_coupon(c: Case) -> None:
    c.sender = "京东 <newsletter@jd.com>"
    c.subject = "春季大促：输入优惠码立减30元"
    shop = c.never("https://pro.jd.com/mall/active/spring2025/index.html?utm_source=email")
    c.never("SPRING88", "2025", "199")
    body = (
        h1("春季大促")
        + p("下单时输入优惠码 <b>SPRING88</b>，满199元立减30元。活动截止2025年3月31日。")
        + button(shop, "立即抢购", bg="#e1251b")
    )
    c.html = std(
        c,
        body,
        brand="京东",
        accent="#e1251b",
        links=[("退订", f"https://edm.jd.com/unsubscribe?token={c.t('u', 32)}")],
        lines=["京东商城"],
    )
    c.text = auto_text(c.html)


@case(
    "zh-Hant",
    "negative",
    "PChome order confirmation in Big5: order number, NT$ amount, date",
    charset="Big5",
    text_cte="base64",
)
def zh_hant_neg_pchome_order(c: Case) -> None:
    c.sender = "PChome 24h購物 <service@pchome.com.tw>"
    c.subject = "PChome 24h購物 訂購完成通知"
    c.never("20250314123456", "DGBJ2A-A900H4821", "1,280", "1280", "2025/03/16")
    c.text = dedent("""\
        親愛的顧客您好：

        感謝您的訂購！
        訂單編號：20250314123456
        商品編號：DGBJ2A-A900H4821
        訂單金額：NT$1,280
        預計到貨：2025/03/16

        PChome 24h購物
        """)


@case("zh-Hant", "negative", "marketing: 優惠碼 SAVE100 is a promo code")
def zh_hant_neg_promo(c: Case) -> None:
    c.sender = "momo購物網 <edm@momoshop.com.tw>"
    c.subject = "全館85折，輸入優惠碼再折100"
    shop = c.never("https://www.momoshop.com.tw/edm/cmmedm.jsp?lpn=O1K5FBOqsvN&n=1")
    c.never("SAVE100", "100", "2025")
    body = (
        h1("春季購物節")
        + p("全館 85 折，結帳輸入優惠碼 <b>SAVE100</b> 再折 NT$100（2025/3/31 止）。")
        + button(shop, "立即選購", bg="#d62872")
    )
    c.html = std(c, body, brand="momo", accent="#d62872", lines=["富邦媒體科技股份有限公司"])
    c.text = auto_text(c.html)


@case(
    "ja",
    "negative",
    "Amazon.co.jp order confirmation in ISO-2022-JP: order number, total, date",
    charset="ISO-2022-JP",
    text_cte="7bit",
)
def ja_neg_amazon_order(c: Case) -> None:
    c.sender = "Amazon.co.jp <auto-confirm@amazon.co.jp>"
    c.subject = "Amazon.co.jp ご注文の確認"
    c.never("249-1234567-1234567", "1234567", "3,980", "3980", "2025/03/16")
    c.text = dedent("""\
        山田 太郎 様

        Amazon.co.jpをご利用いただき、ありがとうございます。
        ご注文の確認をお知らせします。

        注文番号：249-1234567-1234567
        お届け予定：2025/03/16
        注文合計：￥3,980

        Amazon.co.jp
        """)


@case(
    "ja",
    "negative",
    "Yamato delivery notice in Shift_JIS: slip number in groups, time window",
    charset="Shift_JIS",
    text_cte="base64",
)
def ja_neg_yamato_delivery(c: Case) -> None:
    c.sender = "ヤマト運輸 <mail@kuronekoyamato.co.jp>"
    c.subject = "お荷物お届けのお知らせ"
    c.never("4829-1037-5512", "482910375512", "14", "16")
    c.text = dedent("""\
        山田 太郎 様

        お荷物のお届け予定をお知らせします。

        伝票番号：4829-1037-5512
        お届け予定日時：3月15日 14時〜16時

        ヤマト運輸株式会社
        """)


@case("ja", "negative", "Rakuten points mail: キャンペーンコード is a campaign code, not a verification code")
def ja_neg_rakuten_campaign_code(c: Case) -> None:
    c.sender = "楽天市場 <event@emagazine.rakuten.co.jp>"
    c.subject = "【楽天市場】ポイント最大10倍キャンペーン"
    entry = c.never("https://event.rakuten.co.jp/campaign/point-up/?scid=rm_190122")
    c.never("RKT2025SP", "1,200", "1200", "2025", "190122")
    body = (
        h1("ポイント最大10倍")
        + p("エントリー時にキャンペーンコード <b>RKT2025SP</b> を入力すると、1,200ポイントをプレゼント。")
        + button(entry, "エントリーはこちら", bg="#bf0000")
    )
    c.html = std(c, body, brand="楽天市場", accent="#bf0000", lines=["楽天グループ株式会社"])
    c.text = auto_text(c.html)


@case(
    "ko",
    "negative",
    "Coupang delivery notice in EUC-KR: waybill and order numbers",
    charset="EUC-KR",
    text_cte="base64",
)
def ko_neg_coupang_delivery(c: Case) -> None:
    c.sender = "쿠팡 <noreply@coupang.com>"
    c.subject = "[쿠팡] 배송 안내"
    c.never("5829 1037 4821", "582910374821", "20250314-00482913", "00482913", "25,900", "25900")
    c.text = dedent("""\
        고객님, 주문하신 상품이 배송을 시작했습니다.

        주문번호: 20250314-00482913
        운송장번호: 5829 1037 4821
        결제금액: 25,900원

        쿠팡
        """)


@case("ko", "negative", "card statement: amount in won, payment date, masked card number")
def ko_neg_card_statement(c: Case) -> None:
    c.sender = "신한카드 <statement@shinhancard.example>"
    c.subject = "3월 카드 이용대금 명세서"
    c.never("1,248,300", "1248300", "2025", "9410-****-****-4821", "4821", "9410")
    body = h1("3월 이용대금 명세서") + p(
        "결제하실 금액: <b>1,248,300원</b><br>결제일: 2025년 3월 25일<br>카드번호: 9410-****-****-4821"
    )
    c.html = std(c, body, brand="신한카드", accent="#0046ff", lines=["신한카드"])
    c.text = auto_text(c.html)


@case("de", "negative", "Rechnung with PDF: invoice number, customer number K-482913, amount", charset="ISO-8859-15")
def de_neg_rechnung(c: Case) -> None:
    c.sender = "Telekom <rechnung@telekom.de>"
    c.subject = "Ihre Rechnung Nr. 2025-004711"
    c.never("2025-004711", "004711", "K-482913", "482913", "49,90", "4990", "31.03.2025", "2025")
    body = (
        p("Guten Tag Herr Mustermann,")
        + p("Ihre Rechnung für März 2025 ist da.")
        + p(
            "Rechnungsnummer: 2025-004711<br>Kundennummer: K-482913<br>Rechnungsbetrag: 49,90 €<br>"
            "Abbuchung am 31.03.2025"
        )
    )
    c.html = std(c, body, brand="Telekom", accent="#e20074", lines=["Telekom Deutschland GmbH"])
    c.text = auto_text(c.html)
    pdf(c, "Rechnung_2025-004711.pdf", "Rechnung 2025-004711 Kundennummer K-482913 Betrag 49,90 EUR")


@case("de", "negative", "Bestellbestätigung: the word 'Bestätigung' next to an order number")
def de_neg_bestellbestaetigung(c: Case) -> None:
    c.sender = "Zalando <info@service-mail.zalando.de>"
    c.subject = "Deine Bestellbestätigung"
    order = c.never("https://www.zalando.de/myaccount/orders/10482-4471-2025")
    c.never("10482-4471-2025", "10482", "4471", "89,95", "8995", "2025", "10243")
    body = (
        h1("Danke für deine Bestellung!")
        + p("Bestellbestätigung zu deiner Bestellung 10482-4471-2025 vom 14.03.2025.")
        + p("Gesamtsumme: 89,95 € · Voraussichtliche Lieferung: 17.–18.03.")
        + button(order, "Bestellung ansehen", bg="#ff6900")
    )
    c.html = std(c, body, brand="Zalando", accent="#ff6900", lines=["Zalando SE, Valeska-Gert-Straße 5, 10243 Berlin"])
    c.text = auto_text(c.html)


@case("de", "negative", "Gutscheincode SOMMER25: a compound of 'code' that is a promo code", subject_mode="Q")
def de_neg_gutscheincode(c: Case) -> None:
    c.sender = "OTTO <newsletter@otto.de>"
    c.subject = "Dein Gutscheincode: 25 % Rabatt"
    shop = c.never("https://www.otto.de/sale/?wt_mc=email.newsletter.20250314")
    c.never("SOMMER25", "20250314", "2025", "22179")
    body = (
        h1("25 % auf Sommermode")
        + p("Mit dem Gutscheincode <b>SOMMER25</b> sparst du bis 31.03.2025.")
        + button(shop, "Jetzt shoppen", bg="#f00020")
    )
    c.html = std(
        c,
        body,
        brand="OTTO",
        accent="#f00020",
        links=[("Abmelden", f"https://www.otto.de/newsletter/abmelden?token={c.t('u', 30)}")],
        lines=["Otto (GmbH &amp; Co KG), Werner-Otto-Straße 1-7, 22179 Hamburg"],
    )
    c.text = auto_text(c.html)


@case(
    "fr",
    "negative",
    "facture: invoice number, amount, due date, customer reference",
    charset="ISO-8859-15",
    subject_mode="Q",
)
def fr_neg_facture(c: Case) -> None:
    c.sender = "EDF <facture@edf.fr>"
    c.subject = "Votre facture n° FA-2025-0142 est disponible"
    c.never("FA-2025-0142", "0142", "59,99", "5999", "31/03/2025", "4829137", "2025")
    c.text = dedent("""\
        Bonjour,

        Votre facture n° FA-2025-0142 d'un montant de 59,99 € est disponible dans votre espace client.
        Date d'échéance : 31/03/2025
        Référence client : 4829137

        EDF
        """)


@case("fr", "negative", "Colissimo tracking: parcel number and delivery date")
def fr_neg_colissimo(c: Case) -> None:
    c.sender = "Colissimo <noreply@notif-colissimo-laposte.info>"
    c.subject = "Votre colis est en route"
    track = c.never("https://www.laposte.fr/outils/suivre-vos-envois?code=6A12345678901")
    c.never("6A12345678901", "15/03/2025", "2025")
    body = (
        h1("Votre colis arrive bientôt")
        + p("Numéro de suivi : 6A12345678901<br>Livraison prévue le 15/03/2025 entre 9h et 13h.")
        + button(track, "Suivre mon colis", bg="#ffd400", fg="#000")
    )
    c.html = std(c, body, brand="Colissimo", accent="#ffd400", lines=["La Poste – Colissimo"])
    c.text = auto_text(c.html)


@case("fr", "negative", "code promo PRINTEMPS20 in a newsletter")
def fr_neg_code_promo(c: Case) -> None:
    c.sender = "Fnac <newsletter@fnac.com>"
    c.subject = "-20 % avec le code promo PRINTEMPS20"
    shop = c.never("https://www.fnac.com/promo?origin=nl_20250314")
    c.never("PRINTEMPS20", "20250314", "2025", "94200")
    body = (
        h1("Le printemps est là")
        + p("Profitez de -20 % sur une sélection avec le code promo <b>PRINTEMPS20</b>, jusqu'au 31/03/2025.")
        + button(shop, "J'en profite", bg="#e1a925")
    )
    c.html = std(
        c,
        body,
        brand="Fnac",
        accent="#e1a925",
        links=[("Se désinscrire", f"https://www.fnac.com/newsletter/desinscription?token={c.t('u', 30)}")],
        lines=["Fnac Darty, 9 rue des Bateaux-Lavoirs, 94200 Ivry-sur-Seine"],
    )
    c.text = auto_text(c.html)


@case("es", "negative", "pedido confirmado: long order number, total, delivery date")
def es_neg_pedido(c: Case) -> None:
    c.sender = "El Corte Inglés <pedidos@elcorteingles.es>"
    c.subject = "Hemos recibido tu pedido"
    c.never("2000008123456789", "89,95", "8995", "18/03/2025", "2025")
    c.text = dedent("""\
        Hola Juan,

        Gracias por tu compra.
        Número de pedido: 2000008123456789
        Total: 89,95 €
        Entrega estimada: 18/03/2025

        El Corte Inglés
        """)


@case(
    "es",
    "negative",
    "'código promocional VERANO10' (código keyword, promo context)",
    charset="ISO-8859-1",
    html_cte="quoted-printable",
)
def es_neg_codigo_promocional(c: Case) -> None:
    c.sender = "Zara <newsletter@zara.com>"
    c.subject = "10% de descuento con tu código promocional"
    shop = c.never("https://www.zara.com/es/es/rebajas-l1314.html?utm_campaign=verano10")
    c.never("VERANO10", "2025")
    c.html = plain_html(
        "<h1>Rebajas de verano</h1><p>Usa el código promocional <b>VERANO10</b> y obtén un 10% de descuento hasta "
        "el 31 de marzo de 2025.</p>" + button(shop, "Comprar ahora", bg="#000")
    ).replace('charset="utf-8"', 'charset="iso-8859-1"')


@case("pt", "negative", "nota fiscal: NF number, amount and the 44-digit access key in groups of four")
def pt_neg_nota_fiscal(c: Case) -> None:
    c.sender = "Magazine Luiza <nfe@magazineluiza.com.br>"
    c.subject = "Sua nota fiscal eletrônica"
    key = "3525 0314 4821 9100 0123 5500 1000 4829 1310 0482 9131"
    c.never("000.482.913", "000482913", "482913", "349,90", "34990", key, "3525 0314", "4821 9100", "2025")
    c.text = dedent(f"""\
        Olá, João!

        Sua nota fiscal já está disponível.
        Nota fiscal nº 000.482.913 – Série 1
        Valor total: R$ 349,90
        Chave de acesso: {key}
        Emitida em 14/03/2025

        Magazine Luiza
        """)
    c.never("14/03/2025")


@case("pt", "negative", "cupom FRETE10 (promo) in a Portuguese newsletter")
def pt_neg_cupom(c: Case) -> None:
    c.sender = "Americanas <news@americanas.com.br>"
    c.subject = "Frete grátis com o cupom FRETE10"
    shop = c.never("https://www.americanas.com.br/hotsite/frete-gratis?chave=em_20250314")
    c.never("FRETE10", "20250314", "99")
    body = (
        h1("Frete grátis!")
        + p("Use o cupom <b>FRETE10</b> em compras acima de R$ 99.")
        + button(shop, "Aproveitar", bg="#e60014")
    )
    c.html = std(c, body, brand="Americanas", accent="#e60014", lines=["Americanas S.A."])
    c.text = auto_text(c.html)


@case(
    "it",
    "negative",
    "fattura: 'Codice fiscale' and 'Codice cliente' are codes in name only; IBAN in groups",
    charset="ISO-8859-15",
    text_cte="quoted-printable",
)
def it_neg_fattura_codice_fiscale(c: Case) -> None:
    c.sender = "Enel Energia <fatture@enel.it>"
    c.subject = "La tua bolletta n. 2025/000482"
    c.never(
        "2025/000482",
        "000482",
        "120,00",
        "12000",
        "RSSMRA85C14H501Z",
        "4821937",
        "IT60 X054 2811 1010 0000 0123 456",
        "IT60",
        "X054",
        "2811",
        "1010",
        "0000 0123",
        "2025",
    )
    c.text = dedent("""\
        Gentile Mario Rossi,

        è disponibile la bolletta n. 2025/000482 di importo 120,00 EUR.
        Codice cliente: 4821937
        Codice fiscale: RSSMRA85C14H501Z
        Addebito su IBAN IT60 X054 2811 1010 0000 0123 456

        Enel Energia S.p.A.
        """)


@case("it", "negative", "spedizione BRT: 12-digit shipment number and delivery window")
def it_neg_spedizione(c: Case) -> None:
    c.sender = "BRT <noreply@brt.it>"
    c.subject = "La tua spedizione è in consegna"
    track = c.never("https://vas.brt.it/vas/sped_det_show.hsm?referer=sped_numspe_par.htm&Nspediz=123456789012")
    c.never("123456789012", "14:00", "18:00")
    body = (
        h1("In consegna oggi")
        + p("Numero di spedizione: 123456789012<br>Fascia oraria prevista: 14:00 - 18:00")
        + button(track, "Segui la spedizione", bg="#c8102e")
    )
    c.html = std(c, body, brand="BRT", accent="#c8102e", lines=["BRT S.p.A."])
    c.text = auto_text(c.html)


@case("nl", "negative", "bestelling onderweg: order number, Track & Trace code, amount")
def nl_neg_bestelling(c: Case) -> None:
    c.sender = "Coolblue <noreply@coolblue.nl>"
    c.subject = "Je bestelling 4829137520 is onderweg"
    c.never("4829137520", "3SABCD7654321", "24,99", "2499")
    c.text = dedent("""\
        Hoi Jan,

        Je bestelling 4829137520 is onderweg.
        Track & Trace: 3SABCD7654321
        Totaalbedrag: € 24,99

        Coolblue
        """)


@case("nl", "negative", "kortingscode LENTE15 (promo compound of 'code')", charset="ISO-8859-1")
def nl_neg_kortingscode(c: Case) -> None:
    c.sender = "HEMA <nieuwsbrief@hema.nl>"
    c.subject = "15% korting met je kortingscode"
    c.never("LENTE15", "2025")
    c.text = "Hoi!\n\nGebruik kortingscode LENTE15 voor 15% korting, geldig tot 31 maart 2025.\n\nHEMA\n"


@case(
    "ru",
    "negative",
    "заказ доставлен: order number with a dash and a rouble amount",
    charset="windows-1251",
    text_cte="base64",
)
def ru_neg_zakaz(c: Case) -> None:
    c.sender = "OZON <noreply@sender.ozon.ru>"
    c.subject = "Заказ № 29381047-0012 доставлен"
    c.never("29381047-0012", "29381047", "0012", "1 299", "1299")
    c.text = dedent("""\
        Здравствуйте!

        Ваш заказ № 29381047-0012 доставлен в пункт выдачи.
        Сумма заказа: 1 299 руб.

        OZON
        """)


@case("ru", "negative", "промокод VESNA25: 'промокод' contains 'код' but is a promo code")
def ru_neg_promokod(c: Case) -> None:
    c.sender = "Wildberries <news@wildberries.ru>"
    c.subject = "Промокод на скидку 25%"
    shop = c.never("https://www.wildberries.ru/promotions/vesna?utm_source=email")
    c.never("VESNA25", "2025")
    body = (
        h1("Весенняя распродажа")
        + p("Введите промокод <b>VESNA25</b> при оформлении заказа до 31 марта 2025 года.")
        + button(shop, "За покупками", bg="#cb11ab")
    )
    c.html = std(c, body, brand="Wildberries", accent="#cb11ab", lines=["ООО «Вайлдберриз»"])
    c.text = auto_text(c.html)


@case("ru", "negative", "выписка по счёту: 20-digit account number, balance, period", charset="KOI8-R", text_cte="8bit")
def ru_neg_vypiska(c: Case) -> None:
    c.sender = "Т-Банк <statement@tbank.example>"
    c.subject = "Выписка по счёту за февраль 2025"
    c.never("40817810099910004312", "48 213,17", "4821317", "2025", "01.02.2025", "28.02.2025")
    c.text = dedent("""\
        Здравствуйте, Иван!

        Выписка по счёту 40817810099910004312 за период 01.02.2025 - 28.02.2025.
        Остаток на конец периода: 48 213,17 руб.

        Т-Банк
        """)


@case(
    "pl",
    "negative",
    "zamówienie wysłane: order and parcel numbers, amount",
    charset="ISO-8859-2",
    text_cte="quoted-printable",
)
def pl_neg_zamowienie(c: Case) -> None:
    c.sender = "Allegro <powiadomienia@allegro.pl>"
    c.subject = "Zamówienie nr 1029384756 zostało wysłane"
    c.never("1029384756", "620123456789012345678912", "129,99", "12999")
    c.text = dedent("""\
        Cześć!

        Zamówienie nr 1029384756 zostało wysłane.
        Numer przesyłki: 620123456789012345678912
        Kwota: 129,99 zł

        Allegro
        """)


@case("pl", "negative", "kod rabatowy WIOSNA20: 'kod' keyword in a promo context")
def pl_neg_kod_rabatowy(c: Case) -> None:
    c.sender = "Empik <newsletter@empik.com>"
    c.subject = "Twój kod rabatowy na wiosnę"
    shop = c.never("https://www.empik.com/promocje?utm_campaign=wiosna20")
    c.never("WIOSNA20", "2025")
    body = (
        h1("Wiosenna promocja")
        + p("Użyj kodu rabatowego <b>WIOSNA20</b>, aby otrzymać 20% zniżki. Oferta ważna do 31.03.2025.")
        + button(shop, "Kupuję", bg="#e30613")
    )
    c.html = std(c, body, brand="Empik", accent="#e30613", lines=["Empik S.A."])
    c.text = auto_text(c.html)


@case("tr", "negative", "sipariş kargoda: order and cargo tracking numbers, amount", charset="ISO-8859-9")
def tr_neg_siparis(c: Case) -> None:
    c.sender = "Trendyol <bilgi@trendyol.com>"
    c.subject = "Siparişiniz kargoya verildi"
    c.never("482913207", "7240 1837 2910", "724018372910", "1.299,90", "129990")
    c.text = dedent("""\
        Merhaba,

        482913207 numaralı siparişiniz kargoya verildi.
        Kargo takip no: 7240 1837 2910
        Toplam: 1.299,90 TL

        Trendyol
        """)


@case("tr", "negative", "indirim kodu BAHAR25: 'kodu' keyword in a promo context")
def tr_neg_indirim_kodu(c: Case) -> None:
    c.sender = "Getir <kampanya@getir.com>"
    c.subject = "Sana özel indirim kodu"
    c.never("BAHAR25", "2025", "150")
    c.html = plain_html(
        "<p>Merhaba!</p><p>BAHAR25 indirim kodu ile 150 TL ve üzeri siparişlerde %25 indirim. Son gün: 31 Mart 2025.</p>"
    )


# --------------------------------------------------------------------------------------------
# More English shapes: dash form, forwarded mail, HTML-only code with a stub text part, passwordless
# --------------------------------------------------------------------------------------------


@case("en", "code", "code written '218-604' with a dash; canonical form drops it")
def en_wise_dash_code(c: Case) -> None:
    c.sender = "Wise <noreply@wise.com>"
    c.subject = "Your Wise verification code"
    c.codes = ["218604", "218-604"]
    c.never("07209813")
    body = (
        p("Hi Jane,")
        + p("Here's your verification code: <b style='font-size:22px;letter-spacing:1px'>218-604</b>")
        + p("It's valid for 10 minutes. Wise will never call you to ask for this code.")
    )
    c.html = std(
        c,
        body,
        brand="Wise",
        accent="#9fe870",
        lines=[
            "Wise Payments Limited, 1st Floor, Worship Square, 65 Clifton Street, London EC2A 4JE",
            "Company number 07209813",
        ],
        decoys=["EC2A 4JE"],
    )
    c.text = auto_text(c.html)


@case("en", "code", "Gmail inline forward of a GitHub code mail: forwarded header dates and times are decoys")
def en_gmail_forwarded_code(c: Case) -> None:
    c.sender = "Max Mustermann <max@acme.example>"
    c.subject = "Fwd: [GitHub] Please verify your device"
    c.codes = ["640385"]
    c.never("2025", "9:02", "203.0.113.61")
    fwd = (
        "---------- Forwarded message ---------<br>From: <b class='gmail_sendername'>GitHub</b> "
        "&lt;noreply@github.com&gt;<br>Date: Fri, Mar 14, 2025 at 9:02 AM<br>Subject: [GitHub] Please verify "
        "your device<br>To: &lt;max@acme.example&gt;<br>"
    )
    c.html = (
        '<div dir="ltr">Can the bot use this? It\'s for the shared CI account.<br><br>'
        f'<div class="gmail_quote"><div dir="ltr" class="gmail_attr">{fwd}</div><br><br>'
        "<div>Hey acme-ci!<br><br>A sign in attempt requires further verification because we did not recognize "
        "your device. To complete the sign in, enter the verification code on the unrecognized device.<br><br>"
        "Device: Firefox on Linux (IP 203.0.113.61)<br>Verification code: 640385<br><br>Thanks,<br>The GitHub "
        "Team</div></div></div>\n"
    )
    c.text = auto_text(c.html)


@case(
    "en",
    "code",
    "code only in HTML; the text part is a 'view online' stub whose link must not count",
    html_cte="base64",
)
def en_disney_html_only_stub(c: Case) -> None:
    c.sender = "Disney+ <disneyplus@trx.mail2.disneyplus.com>"
    c.subject = "Your one-time passcode for Disney+"
    view = c.never(f"https://view.mail2.disneyplus.example/?qs={c.t('qs', 96, 'hex')}")
    c.codes = ["917352"]
    c.text = f"Your email client cannot display this message. View it online:\n{view}\n"
    body = (
        h1("Your one-time passcode")
        + p("You requested a one-time passcode to log in to your Disney+ account.")
        + '<p style="font-size:40px;font-weight:bold;letter-spacing:8px;color:#ffffff;background:#0e0b14;'
        'text-align:center;padding:16px">917352</p>' + p("This passcode will expire in 15 minutes.")
    )
    c.html = std(
        c,
        body,
        brand="Disney+",
        accent="#0e0b14",
        decoys=["91521"],
        lines=["Disney+, 500 South Buena Vista Street, Burbank, CA 91521"],
    )


@case("en", "link", "Auth0 passwordless magic link whose URL holds 'verification_code=' digits (not a code)")
def en_auth0_passwordless_link(c: Case) -> None:
    c.sender = "Acme <no-reply@auth0user.net>"
    c.subject = "Sign in to Acme"
    url = (
        f"https://acme.us.auth0.com/passwordless/verify_redirect?scope=openid%20profile&response_type=code"
        f"&redirect_uri=https%3A%2F%2Fapp.acme.example%2Fcallback&state={c.t('st', 32)}&verification_code="
        f"482913&connection=email&client_id={c.t('cid', 32, 'b62')}&email=jane.doe%40example.com"
    )
    c.links = [url]
    c.never("482913")
    body = (
        h1("Welcome to Acme!")
        + p("Click and confirm that you want to sign in to Acme. This link will expire in five minutes.")
        + button(url, "Sign In", bg="#635dff")
        + p(
            "If you are having any issues with your account, please don't hesitate to contact us by replying to "
            "this mail."
        )
    )
    c.html = plain_html(body)


@case("en", "link", "Discourse activation, text-only: the URL ends a sentence, the full stop is not part of it")
def en_discourse_activate_sentence(c: Case) -> None:
    c.sender = "Acme Forum <noreply@forum.acme.example>"
    c.subject = "[Acme Forum] Confirm your new account"
    url = f"https://forum.acme.example/u/activate-account/{c.t('act', 32, 'hex')}"
    c.links = [url]
    c.text = dedent(f"""\
        Welcome to Acme Forum!

        To confirm and activate your new account, please visit {url}.

        If the link above is not clickable, try copying and pasting it into the address bar of your web browser.
        """)


# ---- issue 19 blind cases ----
#
# Written blind to the extractor: what a careful reader of each mail would type or click. Traps:
# account-management and help links beside a code, labelled numbers that are not the code
# (anti-phishing phrases, references, customer numbers, replaced codes), opaque ESP click-tracking
# links whose meaning is only in the anchor text, non-English link paths, the same action twice.

_B19_TONES = frozenset("\u0300\u0301\u0303\u0309\u0323")


def b19_vi1258(text: str) -> str:
    """Vietnamese as windows-1258 carries it: base letters precomposed, tone marks combining."""
    import unicodedata

    out: list[str] = []
    for ch in text:
        try:
            ch.encode("cp1258")
            out.append(ch)
            continue
        except UnicodeEncodeError:
            pass
        parts = unicodedata.normalize("NFD", ch)
        tones = "".join(m for m in parts[1:] if m in _B19_TONES)
        base = unicodedata.normalize("NFC", parts[0] + "".join(m for m in parts[1:] if m not in _B19_TONES))
        out.append(base + tones)
    return "".join(out)


def b19_trk(c: Case, esp: str, domain: str, seed: str) -> str:
    """An opaque click-tracking URL of one ESP: only the anchor text says where it leads."""
    if esp == "sendgrid":
        return f"https://u{c.t(seed + '/u', 7, '0123456789')}.ct.sendgrid.net/ls/click?upn=u001.{c.t(seed, 180)}"
    if esp == "braze":
        return f"https://ablink.{domain}/ls/click?upn=u001.{c.t(seed, 200)}"
    if esp == "mailgun":
        return f"https://email.{domain}/c/eJw{c.t(seed, 150)}"
    if esp == "mandrill":
        return f"https://mandrillapp.com/track/click/3{c.t(seed + '/n', 7, '0123456789')}/{domain}?p=eyJzIjoi{c.t(seed, 220)}"
    if esp == "hubspot":
        h = c.t(seed + "/h", 8, "abcdefghijklmnopqrstuvwxyz0123456789")
        return f"https://{h}.na1.hubspotlinks.com/Ctc/RG+113/{h}/VWnk{c.t(seed, 60)}/{c.t(seed + '/b', 90)}"
    if esp == "salesforce":
        return f"https://click.{domain}/?qs={c.t(seed, 192, 'hex')}"
    if esp == "ses":
        return (
            f"https://{c.t(seed + '/r', 8, 'hex')}.r.eu-west-1.awstrack.me/L0/{c.t(seed + '/l', 24, 'b62')}/1/"
            f"0102018e{c.t(seed + '/m', 8, 'hex')}-{c.t(seed + '/g', 8, 'hex')}-{c.t(seed + '/k', 4, 'hex')}-000000/"
            f"{c.t(seed, 28)}=394"
        )
    raise ValueError(esp)


def b19_small(text: str) -> str:
    """Footer-sized small print inside the card (unsubscribe, preferences, hotline)."""
    return p(text, "margin:0 0 12px;font-size:12px;line-height:18px;color:#6e7781")


# Swedish


@case(
    "sv",
    "code",
    "Klarna verifieringskod; 'Glömt lösenordet?' and security-settings links are not the action",
    charset="ISO-8859-1",
    html_cte="quoted-printable",
)
def sv_b19_klarna_verifieringskod(c: Case) -> None:
    c.sender = "Klarna <noreply@klarna.example>"
    c.subject = "Din verifieringskod: 738 204"
    c.codes = ["738204", "738 204"]
    forgot = c.never("https://app.klarna.example/sv/konto/glomt-losenord")
    settings = c.never("https://app.klarna.example/sv/konto/sakerhet/installningar")
    c.never("556737-0431", "5567370431", "08-120 120 10", "0812012010")
    body = (
        h1("Din verifieringskod")
        + p("Hej Anna! Ange koden nedan i appen för att logga in. Koden gäller i 10 minuter.")
        + big("738&nbsp;204", size=34)
        + p("Dela aldrig koden med någon. Klarna ringer dig aldrig och ber om den.")
        + p(f"{a(forgot, 'Glömt lösenordet?')} &middot; {a(settings, 'Säkerhetsinställningar')}")
    )
    c.html = std(
        c,
        body,
        brand="Klarna",
        accent="#ffa8cd",
        lines=[
            "Klarna Bank AB (publ), org.nr 556737-0431, Sveavägen 46, 111 34 Stockholm",
            "Kundservice: 08-120 120 10",
        ],
        links=[("Integritetspolicy", "https://www.klarna.example/sv/integritet/")],
    )
    c.text = auto_text(c.html)


@case(
    "sv",
    "link",
    "Blocket: SendGrid click-tracking URL; only the anchor 'Bekräfta e-postadress' says what it is",
    html_cte="base64",
)
def sv_b19_blocket_bekrafta_sendgrid(c: Case) -> None:
    c.sender = "Blocket <no-reply@blocket.example>"
    c.subject = "Bekräfta din e-postadress"
    url = b19_trk(c, "sendgrid", "blocket.example", "confirm")
    c.links = [url]
    help_url = c.never(b19_trk(c, "sendgrid", "blocket.example", "help"))
    unsub = c.never(b19_trk(c, "sendgrid", "blocket.example", "unsub"))
    body = (
        h1("Välkommen till Blocket!")
        + p("Du är nästan klar. Bekräfta att det är din e-postadress genom att klicka på knappen nedan.")
        + button(url, "Bekräfta e-postadress", bg="#e60000")
        + p("Länken är giltig i 48 timmar.")
        + p(f"Frågor? Besök vårt {a(help_url, 'Hjälpcenter')}.")
    )
    c.html = std(
        c,
        body,
        brand="Blocket",
        accent="#e60000",
        lines=["Blocket AB, Box 1234, 111 79 Stockholm", f"{a(unsub, 'Avsluta prenumeration')}"],
        decoys=["111 79", "1234"],
    )
    c.text = auto_text(c.html)


@case(
    "sv",
    "code",
    "PostNord inloggningskod; the earlier code is said to be invalid, customer number and postcode decoys",
    charset="windows-1257",
    text_cte="8bit",
    subject_mode="Q",
)
def sv_b19_postnord_ny_kod(c: Case) -> None:
    c.sender = "PostNord <noreply@postnord.example>"
    c.subject = "Ny inloggningskod till PostNord"
    c.codes = ["264817"]
    c.never("591730", "4408123", "105 00", "10500")
    c.text = dedent("""\
        Hej Erik,

        Du bad om en ny inloggningskod. Din tidigare kod 591730 är inte längre giltig.

        Din nya inloggningskod: 264817

        Koden gäller i 15 minuter. Ange den i appen PostNord eller på postnord.example.

        Kundnummer: 4408123

        Med vänliga hälsningar
        PostNord Sverige AB, 105 00 Stockholm
        """)


@case("sv", "link", "Tradera password reset: Swedish path /aterstall-losenord/, same URL in text and HTML")
def sv_b19_tradera_aterstall(c: Case) -> None:
    c.sender = "Tradera <info@tradera.example>"
    c.subject = "Återställ ditt lösenord"
    url = f"https://www.tradera.example/aterstall-losenord/{c.t('rs', 40, 'b62')}?e=anna.svensson%40example.se"
    c.links = [url]
    support = c.never("https://info.tradera.example/kundservice/kontakta-oss")
    c.html = plain_html(
        p("Hej anna_s84,")
        + p("Vi har fått en begäran om att återställa lösenordet för ditt Tradera-konto.")
        + p(a(url, "Välj ett nytt lösenord"))
        + p("Om du inte har begärt detta kan du bortse från det här mejlet. Länken slutar gälla om 2 timmar.")
        + p(f"{a(support, 'Kontakta kundservice')}")
        + p("Hälsningar,<br>Tradera")
    )
    c.text = dedent(f"""\
        Hej anna_s84,

        Vi har fått en begäran om att återställa lösenordet för ditt Tradera-konto.

        Välj ett nytt lösenord:
        {url}

        Om du inte har begärt detta kan du bortse från det här mejlet. Länken slutar gälla om 2 timmar.

        Kontakta kundservice: {support}

        Hälsningar,
        Tradera
        """)


@case("sv", "link", "magic sign-in link with a Swedish path (/logga-in/); 'web' and 'app' buttons for the same sign-in")
def sv_b19_mentimeter_logga_in(c: Case) -> None:
    c.sender = "Mentimeter <hello@mentimeter.example>"
    c.subject = "Din inloggningslänk till Mentimeter"
    web = f"https://www.mentimeter.example/sv/logga-in/lank?t={c.t('t', 48)}"
    app = f"https://app.mentimeter.example/auth/email-link?t={c.t('t', 48)}&platform=desktop"
    c.links = [web]
    c.also_links = [app]
    privacy = c.never("https://www.mentimeter.example/sv/trust/privacy-policy")
    body = (
        h1("Logga in på Mentimeter")
        + p("Klicka på knappen för att logga in. Länken kan bara användas en gång och gäller i 15 minuter.")
        + button(web, "Logga in", bg="#196cff")
        + p(f"Använder du skrivbordsappen? {a(app, 'Öppna i skrivbordsappen')}")
        + p("Om du inte försökte logga in kan du ignorera det här mejlet.")
    )
    c.html = std(
        c,
        body,
        brand="Mentimeter",
        accent="#196cff",
        lines=["Mentimeter AB, Stockholm"],
        links=[("Integritet", privacy)],
    )
    c.text = auto_text(c.html, "bracket")


@case("sv", "negative", "new sign-in alert: 'Var det inte du? Skydda ditt konto' and activity links, IP and time")
def sv_b19_neg_ny_inloggning(c: Case) -> None:
    c.sender = "Spotify <no-reply@spotify.example>"
    c.subject = "Ny inloggning på ditt Spotify-konto"
    secure = c.never(b19_trk(c, "braze", "spotify.example", "secure"))
    activity = c.never("https://www.spotify.example/se/account/security/?utm_source=email&utm_campaign=new_login")
    c.never("198.51.100.23", "2025-03-14", "09:41")
    body = (
        h1("Ny inloggning upptäckt")
        + p("Vi såg en inloggning på ditt konto från en ny enhet.")
        + p(
            "<b>Enhet:</b> Chrome på Windows<br><b>Plats:</b> Göteborg, Sverige<br><b>IP-adress:</b> 198.51.100.23<br><b>Tid:</b> 2025-03-14 09:41"
        )
        + p("Om det var du behöver du inte göra något.")
        + p(f"Var det inte du? {a(secure, 'Skydda ditt konto')}")
        + button(activity, "Granska aktivitet", bg="#1ed760", fg="#000000")
    )
    c.html = std(
        c,
        body,
        brand="Spotify",
        accent="#1ed760",
        lines=["Spotify AB, Regeringsgatan 19, 111 53 Stockholm"],
        decoys=["111 53"],
    )
    c.text = auto_text(c.html)


@case(
    "sv",
    "negative",
    "orderbekräftelse: order number, parcel id, amounts, 'Spåra paket' and review links",
    charset="ISO-8859-15",
    html_cte="quoted-printable",
)
def sv_b19_neg_orderbekraftelse(c: Case) -> None:
    c.sender = "Apotea <order@apotea.example>"
    c.subject = "Orderbekräftelse - order 7719204"
    track = c.never(b19_trk(c, "salesforce", "apotea.example", "track"))
    order = c.never("https://www.apotea.example/mina-sidor/ordrar/7719204")
    c.never("7719204", "00370726201234567891", "349,00", "34900", "39,00", "3900", "388,00", "38800")
    body = (
        h1("Tack för din beställning!")
        + p("Ordernummer: <b>7719204</b><br>Orderdatum: 2025-03-14")
        + '<table style="width:100%;font-size:14px"><tr><td>Solskyddskräm SPF 50, 2 st</td><td align="right">349,00 kr</td></tr>'
        '<tr><td>Frakt</td><td align="right">39,00 kr</td></tr><tr><td><b>Totalt</b></td><td align="right"><b>388,00 kr</b></td></tr></table>'
        + p("Kolli-ID: 00370726201234567891")
        + button(track, "Spåra paket", bg="#00843d")
        + p(f"Se din order på {a(order, 'Mina sidor')}.")
    )
    c.html = std(
        c, body, brand="Apotea", accent="#00843d", lines=["Apotea AB, Box 202, 751 04 Uppsala"], decoys=["751 04"]
    )
    c.text = auto_text(c.html)


@case("sv", "negative", "newsletter whose footer asks to 'bekräfta dina prenumerationsinställningar' (not an action)")
def sv_b19_neg_nyhetsbrev(c: Case) -> None:
    c.sender = "SJ <nyhetsbrev@sj.example>"
    c.subject = "Vårens resor – upp till 30 % rabatt"
    offer = c.never(b19_trk(c, "salesforce", "sj.example", "offer"))
    prefs = c.never(b19_trk(c, "salesforce", "sj.example", "prefs"))
    unsub = c.never(b19_trk(c, "salesforce", "sj.example", "unsub"))
    c.never("2025", "0771-75 75 75", "0771757575", "195", "VAR30")
    body = (
        h1("Res bort i vår")
        + p("Boka senast 31 mars 2025 och res Stockholm–Göteborg från 195 kr. Ange rabattkoden VAR30 vid bokning.")
        + button(offer, "Se erbjudanden", bg="#00643c")
        + b19_small(
            f"Vill du fortsätta få våra nyheter? {a(prefs, 'Bekräfta dina prenumerationsinställningar')} eller "
            f"{a(unsub, 'avsluta prenumerationen')}. Kundtjänst: 0771-75 75 75."
        )
    )
    c.html = std(c, body, brand="SJ", accent="#00643c", lines=["SJ AB, 105 50 Stockholm"], decoys=["105 50"])
    c.text = auto_text(c.html)


# Czech


@case(
    "cs",
    "code",
    "Seznam ověřovací kód; 'Zapomenuté heslo', security settings and support links beside it",
    charset="windows-1250",
    html_cte="quoted-printable",
)
def cs_b19_seznam_overovaci_kod(c: Case) -> None:
    c.sender = "Seznam.cz <no-reply@seznam.example>"
    c.subject = "Váš ověřovací kód je 590 318"
    c.codes = ["590318", "590 318"]
    forgot = c.never("https://login.seznam.example/zapomenute-heslo")
    sec = c.never("https://ucet.seznam.example/nastaveni/zabezpeceni")
    support = c.never("https://napoveda.seznam.example/cz/kontakt/")
    c.never("26168685", "150 00", "15000")
    body = (
        h1("Ověření přihlášení")
        + p(
            "Dobrý den, pro dokončení přihlášení k účtu <b>jana.novakova@seznam.example</b> zadejte tento ověřovací kód:"
        )
        + big("590 318", size=32)
        + p("Kód je platný 10 minut. Nikomu ho nesdělujte.")
        + p(
            f"{a(forgot, 'Zapomenuté heslo')} | {a(sec, 'Nastavení zabezpečení')} | {a(support, 'Kontaktovat podporu')}"
        )
    )
    c.html = std(
        c,
        body,
        brand="Seznam.cz",
        accent="#cc0000",
        lines=["Seznam.cz, a.s., IČO 26168685, Radlická 3294/10, 150 00 Praha 5"],
    )
    c.text = auto_text(c.html)


@case("cs", "link", "Alza e-mail confirmation: Czech path /potvrdit-email, text copy adds utm_* (same target)")
def cs_b19_alza_potvrdit_email(c: Case) -> None:
    c.sender = "Alza.cz <info@alza.example>"
    c.subject = "Potvrďte svou e-mailovou adresu"
    t = c.t("t", 40, "b62")
    url = f"https://www.alza.example/muj-ucet/potvrdit-email?t={t}"
    url_utm = f"{url}&utm_source=email&utm_medium=transactional&utm_campaign=potvrzeni"
    c.links = [url, url_utm]
    c.never("27082440")
    body = (
        h1("Už jen jeden krok")
        + p("Děkujeme za registraci. Potvrďte prosím, že tato e-mailová adresa patří vám.")
        + button(url, "Potvrdit e-mail", bg="#009a3d")
        + p("Pokud jste se neregistrovali, tento e-mail ignorujte.")
    )
    c.html = std(
        c, body, brand="Alza.cz", accent="#009a3d", lines=["Alza.cz a.s., IČO 27082440, Jankovcova 1522/53, Praha 7"]
    )
    c.text = dedent(f"""\
        Už jen jeden krok

        Děkujeme za registraci. Potvrďte prosím, že tato e-mailová adresa patří vám:
        {url_utm}

        Pokud jste se neregistrovali, tento e-mail ignorujte.

        Alza.cz a.s., IČO 27082440, Jankovcova 1522/53, Praha 7
        """)


@case(
    "cs",
    "code",
    "ČSOB autorizační kód for a payment: amount, account number, date and hotline are decoys",
    charset="ISO-8859-2",
    text_cte="base64",
)
def cs_b19_csob_autorizacni_kod(c: Case) -> None:
    c.sender = "ČSOB <info@csob.example>"
    c.subject = "Autorizační kód pro platbu"
    c.codes = ["84917305"]
    c.never("1 249,00", "124900", "1234567890/0300", "1234567890", "14.03.2025", "800 300 300", "800300300")
    c.text = dedent("""\
        Dobrý den,

        pro potvrzení platby z účtu 1234567890/0300 ve výši 1 249,00 Kč zadejte autorizační kód:

        84917305

        Datum požadavku: 14.03.2025 09:12
        Kód platí 5 minut. ČSOB vás nikdy nebude žádat o sdělení kódu telefonem.

        Klientská linka: 800 300 300
        Československá obchodní banka, a. s.
        """)


@case("cs", "link", "Rohlík magic sign-in via a Mailgun opaque redirect; only 'Přihlásit se' says what it is")
def cs_b19_rohlik_prihlaseni_mailgun(c: Case) -> None:
    c.sender = "Rohlik.cz <ahoj@rohlik.example>"
    c.subject = "Váš odkaz pro přihlášení"
    url = b19_trk(c, "mailgun", "rohlik.example", "login")
    c.links = [url]
    faq = c.never(b19_trk(c, "mailgun", "rohlik.example", "faq"))
    c.never("800 730 740", "800730740")
    body = (
        p("Ahoj Jano,")
        + p("klikněte na tlačítko níže a budete přihlášeni. Odkaz platí 20 minut.")
        + button(url, "Přihlásit se", bg="#6da30c")
        + p(f"Máte dotaz? {a(faq, 'Časté dotazy')} nebo volejte 800 730 740.")
    )
    c.html = std(c, body, brand="Rohlik.cz", accent="#6da30c", lines=["Velká pecka s.r.o., Praha"])
    c.text = auto_text(c.html)


@case(
    "cs",
    "code",
    "mojeID: the user's own anti-phishing phrase is shown first, then the real kód",
    charset="windows-1250",
    text_cte="quoted-printable",
)
def cs_b19_mojeid_antiphishing(c: Case) -> None:
    c.sender = "mojeID <podpora@mojeid.example>"
    c.subject = "Bezpečnostní kód pro přihlášení"
    c.codes = ["417092", "417 092"]
    c.never("ORLIK58", "222 745 111", "222745111")
    c.text = dedent("""\
        Dobrý den,

        Vaše bezpečnostní fráze: ORLIK58
        (Tuto frázi jste si zvolili sami. Pokud ji v e-mailu nevidíte, nejde o zprávu od nás.)

        Váš kód pro přihlášení: 417 092

        Kód zadejte na stránce přihlášení do 10 minut.

        Zákaznická podpora: 222 745 111
        mojeID, CZ.NIC, z. s. p. o.
        """)


@case(
    "cs",
    "negative",
    "faktura: variabilní symbol, amount, IBAN, 'Zaplatit' and PDF links",
    charset="ISO-8859-2",
    html_cte="base64",
)
def cs_b19_neg_faktura(c: Case) -> None:
    c.sender = "O2 Czech Republic <faktura@o2.example>"
    c.subject = "Vyúčtování služeb za únor 2025"
    pay = c.never(b19_trk(c, "salesforce", "o2.example", "pay"))
    pdf_url = c.never("https://moje.o2.example/vyuctovani/2025-02/pdf?id=7710394821")
    c.never(
        "2025031401",
        "7710394821",
        "CZ65 0800 0000 1920 0014 5399",
        "CZ6508000000192000145399",
        "599,00",
        "59900",
        "28.03.2025",
    )
    body = (
        h1("Vaše vyúčtování je připraveno")
        + p(
            "Číslo smlouvy: 7710394821<br>Variabilní symbol: 2025031401<br>Částka k úhradě: <b>599,00 Kč</b><br>Splatnost: 28.03.2025"
        )
        + p("Účet: CZ65 0800 0000 1920 0014 5399")
        + button(pay, "Zaplatit online", bg="#0050ff")
        + p(a(pdf_url, "Stáhnout vyúčtování (PDF)"))
    )
    c.html = std(c, body, brand="O2", accent="#0050ff", lines=["O2 Czech Republic a.s., Za Brumlovkou 266/2, Praha 4"])
    c.text = auto_text(c.html)


@case("cs", "negative", "Zásilkovna shipment: parcel number with letters and digits, 'Sledovat zásilku' tracking link")
def cs_b19_neg_zasilka(c: Case) -> None:
    c.sender = "Zásilkovna <info@zasilkovna.example>"
    c.subject = "Zásilka Z 482 9137 520 je na cestě"
    track = c.never("https://tracking.zasilkovna.example/Z4829137520")
    c.never("Z 482 9137 520", "Z4829137520", "4829137520", "17.03.2025", "216 216 516", "216216516")
    body = (
        p("Dobrý den,")
        + p("Vaše zásilka <b>Z 482 9137 520</b> od e-shopu Knihy Dobrovský je na cestě.")
        + p("Předpokládané doručení na výdejní místo: 17.03.2025")
        + button(track, "Sledovat zásilku", bg="#ba1b02")
        + p("Zákaznická linka: 216 216 516")
    )
    c.html = std(
        c, body, brand="Zásilkovna", accent="#ba1b02", lines=["Zásilkovna s.r.o., Českomoravská 2408/1a, Praha 9"]
    )
    c.text = auto_text(c.html)


@case(
    "cs",
    "negative",
    "password-changed alert: 'Nebyli jste to vy?' leads to support and security overview, no action to use",
)
def cs_b19_neg_zmena_hesla(c: Case) -> None:
    c.sender = "Mall.cz <ucet@mall.example>"
    c.subject = "Vaše heslo bylo změněno"
    help_url = c.never(b19_trk(c, "sendgrid", "mall.example", "help"))
    sec = c.never("https://www.mall.example/muj-ucet/zabezpeceni?utm_source=email")
    c.never("14.03.2025", "203.0.113.88")
    body = (
        p("Dobrý den,")
        + p("heslo k vašemu účtu bylo 14.03.2025 v 10:22 změněno (IP adresa 203.0.113.88).")
        + p(
            f"Nebyli jste to vy? {a(help_url, 'Kontaktujte zákaznickou podporu')}. Přehled přihlášení najdete v {a(sec, 'nastavení zabezpečení')}."
        )
    )
    c.html = std(c, body, brand="Mall.cz", accent="#e50000", lines=["Internet Mall, a.s."])
    c.text = auto_text(c.html)


# Ukrainian


@case(
    "uk",
    "code",
    "Приватбанк код підтвердження, KOI8-U 8bit text; card ending, amount and hotline decoys",
    charset="KOI8-U",
    text_cte="8bit",
)
def uk_b19_privat_kod_pidtverdzhennia(c: Case) -> None:
    c.sender = "Приват24 <noreply@privatbank.example>"
    c.subject = "Код підтвердження Приват24"
    c.codes = ["6271"]
    c.never("4021", "1 250,00", "125000", "3700")
    c.text = dedent("""\
        Шановний клієнте!

        Для підтвердження платежу з картки *4021 на суму 1 250,00 грн
        введіть код підтвердження: 6271

        Нікому не повідомляйте цей код, навіть співробітникам банку.

        Контакт-центр: 3700
        АТ КБ "ПриватБанк"
        """)


@case("uk", "code", "Rozetka код для входу; 'Забули пароль?', security settings and support links are not the action")
def uk_b19_rozetka_kod_vkhodu(c: Case) -> None:
    c.sender = "ROZETKA <noreply@rozetka.example>"
    c.subject = "Ваш код для входу: 305 817"
    c.codes = ["305817", "305 817"]
    forgot = c.never("https://rozetka.example/ua/forgot-password/")
    sec = c.never("https://rozetka.example/ua/cabinet/security/")
    support = c.never("https://help.rozetka.example/ua/contact")
    c.never("0 800 303 344", "0800303344")
    body = (
        h1("Код для входу")
        + p("Вітаємо! Щоб увійти до кабінету, введіть цей код:")
        + big("305 817")
        + p("Код дійсний 5 хвилин.")
        + p(
            f"{a(forgot, 'Забули пароль?')}<br>{a(sec, 'Налаштування безпеки')}<br>{a(support, 'Служба підтримки')}: 0 800 303 344"
        )
    )
    c.html = std(c, body, brand="ROZETKA", accent="#00a046", lines=["ТОВ «Розетка.УА», Київ"])
    c.text = auto_text(c.html)


@case(
    "uk",
    "code",
    "Нова пошта code beside a 14-digit ТТН waybill number, ISO-8859-5 base64 text",
    charset="ISO-8859-5",
    text_cte="base64",
)
def uk_b19_novaposhta_kod_ttn(c: Case) -> None:
    c.sender = "Нова пошта <info@novaposhta.example>"
    c.subject = "Код для отримання посилки"
    c.codes = ["8406"]
    c.never("20451234567890", "2045 1234 5678 90", "15.03.2025", "0 800 500 609", "0800500609")
    c.text = dedent("""\
        Доброго дня!

        Посилка ТТН 2045 1234 5678 90 прибула до відділення № 12.
        Для отримання в поштоматі введіть код: 8406

        Термін безкоштовного зберігання: до 15.03.2025.

        Гаряча лінія: 0 800 500 609
        """)


@case("uk", "link", "OLX e-mail confirmation with a percent-encoded Cyrillic path (/підтвердити/)", html_cte="base64")
def uk_b19_olx_pidtverdyty_cyrillic_path(c: Case) -> None:
    c.sender = "OLX <no-reply@olx.example>"
    c.subject = "Підтвердіть свою електронну пошту"
    url = f"https://www.olx.example/uk/%D0%BF%D1%96%D0%B4%D1%82%D0%B2%D0%B5%D1%80%D0%B4%D0%B8%D1%82%D0%B8/?t={c.t('t', 44)}"
    c.links = [url]
    help_url = c.never("https://help.olx.example/hc/uk")
    body = (
        h1("Майже готово!")
        + p("Натисніть кнопку, щоб підтвердити адресу електронної пошти для вашого облікового запису OLX.")
        + button(url, "Підтвердити пошту", bg="#002f34")
        + p(f"Потрібна допомога? {a(help_url, 'Центр допомоги')}")
    )
    c.html = std(c, body, brand="OLX", accent="#23e5db", lines=["OLX Ukraine"])
    c.text = auto_text(c.html)


@case(
    "uk",
    "link",
    "Prom.ua password reset through a Mandrill click-tracking URL; anchor 'Відновити пароль'",
    charset="windows-1251",
    html_cte="quoted-printable",
)
def uk_b19_prom_vidnovyty_parol_mandrill(c: Case) -> None:
    c.sender = "Prom.ua <noreply@prom.example>"
    c.subject = "Відновлення пароля"
    url = b19_trk(c, "mandrill", "prom.example", "reset")
    c.links = [url]
    unsub = c.never(b19_trk(c, "mandrill", "prom.example", "unsub"))
    body = (
        p("Добрий день, Олено!")
        + p("Ми отримали запит на відновлення пароля до вашого облікового запису. Посилання дійсне 1 годину.")
        + button(url, "Відновити пароль", bg="#7b2cbf")
        + p("Якщо ви не надсилали запит, просто проігноруйте цей лист — пароль не зміниться.")
        + b19_small(a(unsub, "Відписатися від розсилки"))
    )
    c.html = std(c, body, brand="Prom.ua", accent="#7b2cbf", lines=["© 2008–2025 Prom.ua"], decoys=["2008", "2025"])
    c.text = auto_text(c.html)


@case(
    "uk",
    "code",
    "Kyivstar: the previous code is said to be no longer valid; the new one is the answer",
    subject_mode="Q",
)
def uk_b19_kyivstar_novyi_kod(c: Case) -> None:
    c.sender = "Київстар <noreply@kyivstar.example>"
    c.subject = "Новий код підтвердження"
    c.codes = ["552190"]
    c.never("771203", "+380 67 123 45 67", "380671234567", "466")
    c.text = dedent("""\
        Вітаємо!

        Ви запросили новий код. Попередній код 771203 більше не дійсний.

        Ваш код підтвердження: 552190

        Номер: +380 67 123 45 67
        Якщо це були не ви, зателефонуйте на 466.

        Київстар
        """)


@case(
    "uk",
    "negative",
    "bank statement, windows-1251: IBAN, amounts, period, 'Переглянути' link",
    charset="windows-1251",
    text_cte="quoted-printable",
)
def uk_b19_neg_vypyska(c: Case) -> None:
    c.sender = "monobank <statement@monobank.example>"
    c.subject = "Виписка за лютий 2025"
    c.never(
        "UA21 3220 0100 0002 6201 2345 6789 1",
        "UA213220010000026201234567891",
        "12 480,55",
        "1248055",
        "01.02.2025",
        "28.02.2025",
        "0 800 205 205",
    )
    c.text = dedent("""\
        Вітаємо, Олено!

        Виписка по рахунку UA21 3220 0100 0002 6201 2345 6789 1
        Період: 01.02.2025 – 28.02.2025
        Залишок на кінець періоду: 12 480,55 грн

        Підтримка: 0 800 205 205
        АТ «Universal Bank»
        """)


@case("uk", "negative", "new sign-in alert: 'Це були не ви? Захистіть обліковий запис' and activity links, device id")
def uk_b19_neg_novyi_vkhid(c: Case) -> None:
    c.sender = "Укрпошта <security@ukrposhta.example>"
    c.subject = "Новий вхід до облікового запису"
    secure = c.never("https://ukrposhta.example/kabinet/bezpeka/zakhystyty?src=email")
    activity = c.never("https://ukrposhta.example/kabinet/aktyvnist")
    c.never("198.51.100.77", "A7F3-9921", "A7F39921")
    body = (
        h1("Новий вхід")
        + p("Виконано вхід з нового пристрою.<br>Пристрій: Android (ID A7F3-9921)<br>IP: 198.51.100.77<br>Місто: Львів")
        + p(f"Це були не ви? {a(secure, 'Захистіть обліковий запис')}.")
        + p(a(activity, "Переглянути останні дії"))
    )
    c.html = std(c, body, brand="Укрпошта", accent="#ffcc00", lines=["АТ «Укрпошта», Київ"])
    c.text = auto_text(c.html)


# Vietnamese


@case("vi", "code", "Zalo mã xác minh; 'Quên mật khẩu?' and support links beside it, hotline decoy")
def vi_b19_zalo_ma_xac_minh(c: Case) -> None:
    c.sender = "Zalo <no-reply@zalo.example>"
    c.subject = "Mã xác minh của bạn là 482 916"
    c.codes = ["482916", "482 916"]
    forgot = c.never("https://id.zalo.example/account/quen-mat-khau")
    support = c.never("https://help.zalo.example/lien-he")
    c.never("1900 561 558", "1900561558")
    body = (
        h1("Mã xác minh của bạn")
        + p("Xin chào Nguyễn Văn An, vui lòng nhập mã dưới đây để hoàn tất đăng nhập:")
        + big("482 916")
        + p("Mã có hiệu lực trong 5 phút. Tuyệt đối không chia sẻ mã này cho bất kỳ ai.")
        + p(f"{a(forgot, 'Quên mật khẩu?')} &middot; {a(support, 'Liên hệ hỗ trợ')} (1900 561 558)")
    )
    c.html = std(c, body, brand="Zalo", accent="#0068ff", lines=["Công ty Cổ phần VNG, TP. Hồ Chí Minh"])
    c.text = auto_text(c.html)


@case(
    "vi",
    "code",
    "Vietcombank mã OTP in windows-1258 (combining tone marks); amount, account and transaction numbers",
    charset="windows-1258",
    text_cte="quoted-printable",
)
def vi_b19_vietcombank_otp_cp1258(c: Case) -> None:
    c.sender = "Vietcombank <vcbdigibank@vietcombank.example>"
    c.subject = b19_vi1258("Mã OTP xác thực giao dịch")
    c.codes = ["93815207"]
    c.never("2.500.000", "2500000", "0071000123456", "FT25073912845", "1900 545 413", "1900545413", "14/03/2025")
    c.text = b19_vi1258(
        dedent("""\
        Kính gửi Quý khách,

        Quý khách đang thực hiện giao dịch chuyển tiền 2.500.000 VND từ tài khoản 0071000123456.
        Mã giao dịch: FT25073912845
        Thời gian: 14/03/2025 15:02

        Mã OTP của Quý khách là: 93815207

        Mã có hiệu lực trong 2 phút. Không cung cấp mã OTP cho bất kỳ ai.
        Tổng đài: 1900 545 413
        """)
    )


@case("vi", "link", "Shopee e-mail confirmation via a SendGrid opaque URL; anchor 'Xác nhận email'", html_cte="base64")
def vi_b19_shopee_xac_nhan_sendgrid(c: Case) -> None:
    c.sender = "Shopee <info@mail.shopee.example>"
    c.subject = "Xác nhận địa chỉ email của bạn"
    url = b19_trk(c, "sendgrid", "shopee.example", "confirm")
    c.links = [url]
    help_url = c.never(b19_trk(c, "sendgrid", "shopee.example", "help"))
    unsub = c.never(b19_trk(c, "sendgrid", "shopee.example", "unsub"))
    body = (
        p("Xin chào an_nguyen92,")
        + p("Vui lòng xác nhận địa chỉ email để nhận thông báo về đơn hàng và khuyến mãi.")
        + button(url, "Xác nhận email", bg="#ee4d2d")
        + p(f"Cần hỗ trợ? Truy cập {a(help_url, 'Trung tâm trợ giúp')}.")
        + b19_small(a(unsub, "Hủy đăng ký nhận email"))
    )
    c.html = std(c, body, brand="Shopee", accent="#ee4d2d", lines=["Công ty TNHH Shopee, Hà Nội"])
    c.text = auto_text(c.html)


@case("vi", "link", "Tiki password reset: Vietnamese path /dat-lai-mat-khau, HTML &amp; and text & forms of one URL")
def vi_b19_tiki_dat_lai_mat_khau(c: Case) -> None:
    c.sender = "Tiki <hotro@tiki.example>"
    c.subject = "Yêu cầu đặt lại mật khẩu"
    url = f"https://tiki.example/tai-khoan/dat-lai-mat-khau?token={c.t('t', 40, 'hex')}&email=an.nguyen%40example.vn"
    c.links = [url]
    c.never("1900 6035", "19006035")
    c.html = plain_html(
        p("Chào Nguyễn Văn An,")
        + p("Chúng tôi nhận được yêu cầu đặt lại mật khẩu cho tài khoản Tiki của bạn.")
        + p(a(url, "Đặt lại mật khẩu"))
        + p("Liên kết sẽ hết hạn sau 30 phút. Nếu bạn không yêu cầu, hãy bỏ qua email này.")
        + p("Hotline: 1900 6035")
    )
    c.text = f"Chào Nguyễn Văn An,\n\nĐặt lại mật khẩu: {url}\n\nLiên kết sẽ hết hạn sau 30 phút.\nHotline: 1900 6035\n"


@case("vi", "link", "MoMo magic sign-in link with a Vietnamese path /dang-nhap/email; privacy and FAQ links")
def vi_b19_momo_dang_nhap(c: Case) -> None:
    c.sender = "Ví MoMo <no-reply@momo.example>"
    c.subject = "Liên kết đăng nhập MoMo Business"
    url = f"https://business.momo.example/dang-nhap/email?t={c.t('t', 48)}"
    c.links = [url]
    faq = c.never("https://business.momo.example/cau-hoi-thuong-gap")
    body = (
        h1("Đăng nhập MoMo Business")
        + p("Nhấn vào nút bên dưới để đăng nhập. Liên kết chỉ dùng được một lần trong 15 phút.")
        + button(url, "Đăng nhập", bg="#a50064")
        + p(f"Bạn có câu hỏi? Xem {a(faq, 'câu hỏi thường gặp')}.")
    )
    c.html = std(
        c,
        body,
        brand="MoMo",
        accent="#a50064",
        lines=["Công ty CP Dịch vụ Di Động Trực Tuyến"],
        links=[("Chính sách bảo mật", "https://momo.example/chinh-sach-bao-mat")],
    )
    c.text = auto_text(c.html)


@case(
    "vi",
    "code",
    "FPT Telecom mã xác thực beside 'Mã hợp đồng' and 'Mã khách hàng' (both 'mã' = code)",
    html_cte="quoted-printable",
)
def vi_b19_fpt_ma_xac_thuc_ma_hop_dong(c: Case) -> None:
    c.sender = "FPT Telecom <cskh@fpt.example>"
    c.subject = "Mã xác thực đăng nhập Hi FPT"
    c.codes = ["730582"]
    c.never("SGH123456", "KH0048213", "0048213", "1900 6600", "19006600")
    body = (
        p("Kính chào Quý khách,")
        + p("Mã hợp đồng: <b>SGH123456</b><br>Mã khách hàng: <b>KH0048213</b>")
        + p("Mã xác thực đăng nhập ứng dụng Hi FPT của Quý khách là:")
        + big("730582")
        + p("Mã có hiệu lực trong 3 phút. Tổng đài hỗ trợ: 1900 6600")
    )
    c.html = std(c, body, brand="FPT Telecom", accent="#f37021", lines=["Công ty Cổ phần Viễn thông FPT"])
    c.text = auto_text(c.html)


@case(
    "vi",
    "negative",
    "order mail: 'Mã đơn hàng' (order code) and tracking code, windows-1258 text",
    charset="windows-1258",
    text_cte="8bit",
)
def vi_b19_neg_ma_don_hang(c: Case) -> None:
    c.sender = "Lazada <order@lazada.example>"
    c.subject = b19_vi1258("Đơn hàng của bạn đã được giao cho đơn vị vận chuyển")
    c.never("250314ABC7K9", "GHN7K2M9Q4", "349.000", "349000", "18/03/2025")
    c.text = b19_vi1258(
        dedent("""\
        Xin chào An,

        Mã đơn hàng: 250314ABC7K9
        Mã vận đơn: GHN7K2M9Q4
        Tổng tiền: 349.000 ₫
        Dự kiến giao: 18/03/2025

        Cảm ơn bạn đã mua sắm tại Lazada!
        """)
    )


@case("vi", "negative", "promo: 'Mã giảm giá GIAM50K' is a discount code, tracked shop and unsubscribe links")
def vi_b19_neg_ma_giam_gia(c: Case) -> None:
    c.sender = "Grab <no-reply@grab.example>"
    c.subject = "Tặng bạn mã giảm giá 50K"
    shop = c.never(b19_trk(c, "braze", "grab.example", "shop"))
    unsub = c.never(b19_trk(c, "braze", "grab.example", "unsub"))
    c.never("GIAM50K", "50.000", "50000", "31/03/2025")
    body = (
        h1("Ưu đãi tháng 3")
        + p("Nhập mã giảm giá <b>GIAM50K</b> để được giảm 50.000 ₫ cho đơn GrabFood. Hạn dùng: 31/03/2025.")
        + button(shop, "Đặt món ngay", bg="#00b14f")
        + b19_small(a(unsub, "Hủy đăng ký"))
    )
    c.html = std(c, body, brand="Grab", accent="#00b14f", lines=["Grab Vietnam"])
    c.text = auto_text(c.html)


# German


@case(
    "de",
    "code",
    "Sparkasse Sicherheitscode after the customer's own Sicherheitsmerkmal; BLZ, IBAN, Kundennummer, hotline",
    charset="ISO-8859-15",
    html_cte="quoted-printable",
)
def de_b19_sparkasse_sicherheitsmerkmal(c: Case) -> None:
    c.sender = "Sparkasse KölnBonn <noreply@sparkasse-koelnbonn.example>"
    c.subject = "Ihr Sicherheitscode für das Online-Banking"
    c.codes = ["846201", "846 201"]
    forgot = c.never("https://www.sparkasse-koelnbonn.example/de/home/service/pin-vergessen.html")
    c.never(
        "Blaue Tasse 47",
        "37050198",
        "DE12 3705 0198 0012 3456 78",
        "DE12370501980012345678",
        "4401827",
        "0221 22 60",
        "0221226",
    )
    body = (
        p("Guten Tag Herr Mustermann,")
        + p(
            "Ihr persönliches Sicherheitsmerkmal: <b>Blaue Tasse 47</b><br><span style='font-size:12px'>(Nur wenn Sie diesen Satz sehen, stammt die E-Mail von uns.)</span>"
        )
        + p("Ihr Sicherheitscode für die Anmeldung lautet:")
        + big("846 201")
        + p("Der Code ist 5 Minuten gültig.")
        + p("Konto: DE12 3705 0198 0012 3456 78 (BLZ 37050198)<br>Kundennummer: 4401827")
        + p(f"{a(forgot, 'PIN vergessen?')} Rufen Sie uns an: 0221 22 60")
    )
    c.html = std(
        c,
        body,
        brand="Sparkasse",
        accent="#ff0000",
        lines=["Sparkasse KölnBonn, Hahnenstraße 57, 50667 Köln"],
        decoys=["50667"],
    )
    c.text = auto_text(c.html)


@case("de", "link", "Zalando: Salesforce click.<domain>/?qs= URL; only 'E-Mail-Adresse bestätigen' says what it is")
def de_b19_zalando_bestaetigen_salesforce(c: Case) -> None:
    c.sender = "Zalando <info@service-mail.zalando.example>"
    c.subject = "Bitte bestätige deine E-Mail-Adresse"
    url = b19_trk(c, "salesforce", "service-mail.zalando.example", "confirm")
    c.links = [url]
    faq = c.never(b19_trk(c, "salesforce", "service-mail.zalando.example", "faq"))
    imprint = c.never(b19_trk(c, "salesforce", "service-mail.zalando.example", "imprint"))
    body = (
        h1("Fast geschafft!")
        + p(
            "Hallo Max, bitte bestätige noch deine E-Mail-Adresse, damit wir dich über deine Bestellungen informieren können."
        )
        + button(url, "E-Mail-Adresse bestätigen", bg="#ff6900")
        + p(f"{a(faq, 'Hilfe &amp; FAQ')} &middot; {a(imprint, 'Impressum')}")
    )
    c.html = std(
        c,
        body,
        brand="Zalando",
        accent="#ff6900",
        lines=["Zalando SE, Valeska-Gert-Straße 5, 10243 Berlin"],
        decoys=["10243"],
    )
    c.text = auto_text(c.html)


@case("de", "link", "idealo magic sign-in: German path /anmelden/link, text copy carries utm_* (same target)")
def de_b19_idealo_anmelden_link(c: Case) -> None:
    c.sender = "idealo <noreply@idealo.example>"
    c.subject = "Dein Anmelde-Link für idealo"
    base = f"https://account.idealo.example/anmelden/link?t={c.t('t', 44)}"
    utm = f"{base}&utm_source=transactional&utm_medium=email&utm_campaign=magic_login"
    c.links = [base, utm]
    body = (
        h1("Jetzt anmelden")
        + p("Klicke auf den Button, um dich ohne Passwort bei idealo anzumelden. Der Link ist 15 Minuten gültig.")
        + button(base, "Anmelden", bg="#0a3761")
        + p("Du hast keinen Link angefordert? Dann kannst du diese E-Mail ignorieren.")
    )
    c.html = std(
        c,
        body,
        brand="idealo",
        accent="#0a3761",
        lines=["idealo internet GmbH, Zionskirchstraße 73, 10119 Berlin"],
        decoys=["10119"],
    )
    c.text = f"Jetzt anmelden\n\nKlicke auf den Link, um dich ohne Passwort anzumelden:\n{utm}\n\nDer Link ist 15 Minuten gültig.\n"


@case(
    "de",
    "link",
    "DKB e-mail change: path /bestaetigen?t=, plus 'Passwort vergessen?' and security-settings links",
    subject_mode="Q",
)
def de_b19_dkb_email_bestaetigen(c: Case) -> None:
    c.sender = "DKB <info@dkb.example>"
    c.subject = "Neue E-Mail-Adresse bestätigen"
    url = f"https://banking.dkb.example/kontakt/email/bestaetigen?t={c.t('t', 36, 'hex')}&lang=de"
    c.links = [url]
    forgot = c.never("https://banking.dkb.example/login/passwort-vergessen")
    sec = c.never("https://banking.dkb.example/einstellungen/sicherheit")
    c.never("030 120 300 00", "03012030000")
    body = (
        p("Hallo Max Mustermann,")
        + p("Sie haben eine neue E-Mail-Adresse für Ihr DKB-Konto hinterlegt. Bitte bestätigen Sie die Änderung:")
        + button(url, "Jetzt bestätigen", bg="#148dea")
        + p(f"{a(forgot, 'Passwort vergessen?')} &middot; {a(sec, 'Sicherheitseinstellungen')}")
        + p("Fragen? 030 120 300 00")
    )
    c.html = std(
        c,
        body,
        brand="DKB",
        accent="#148dea",
        lines=["Deutsche Kreditbank AG, Taubenstraße 7-9, 10117 Berlin"],
        decoys=["10117"],
    )
    c.text = auto_text(c.html)


@case(
    "de",
    "code",
    "Deutsche Bahn Bestätigungscode beside Auftragsnummer, price and train number",
    charset="ISO-8859-1",
    text_cte="quoted-printable",
)
def de_b19_bahn_code_auftrag(c: Case) -> None:
    c.sender = "DB Navigator <noreply@bahn.example>"
    c.subject = "Ihr Bestätigungscode für bahn.de"
    c.codes = ["319574", "319 574"]
    c.never("482913771204", "ICE 578", "578", "89,90", "8990", "030 2970", "0302970")
    c.text = dedent("""\
        Guten Tag Frau Musterfrau,

        Sie möchten Ihr Kundenkonto mit der Buchung Auftragsnummer 482913771204
        (ICE 578, Köln Hbf -> Berlin Hbf, 89,90 EUR) verknüpfen.

        Ihr Bestätigungscode: 319 574

        Der Code ist 30 Minuten gültig.

        Service-Nummer: 030 2970
        DB Fernverkehr AG
        """)


@case("de", "code", "Backup-Codes mail: the first code is primary, the other listed codes are also acceptable")
def de_b19_ionos_backup_codes(c: Case) -> None:
    c.sender = "IONOS <noreply@ionos.example>"
    c.subject = "Ihre neuen Backup-Codes"
    codes = ["4821-7730", "9163-2058", "5507-1846", "2294-6613", "7038-5921"]
    c.codes = ["48217730", "4821-7730"]
    c.also_codes = [form for x in codes[1:] for form in (x.replace("-", ""), x)]
    sec = c.never("https://mein.ionos.example/sicherheit")
    c.never("4402893", "56410")
    rows = "".join(f"<li style='font-family:monospace;font-size:18px'>{x}</li>" for x in codes)
    body = (
        p("Guten Tag,")
        + p(
            "Sie haben die Zwei-Faktor-Authentifizierung zurückgesetzt. Verwenden Sie einen dieser Backup-Codes, falls Sie keinen Zugriff auf Ihre Authenticator-App haben. Jeder Code funktioniert nur einmal:"
        )
        + f"<ul>{rows}</ul>"
        + p("Kundennummer: 4402893")
        + p(f"Verwalten Sie Ihre Codes in den {a(sec, 'Sicherheitseinstellungen')}.")
    )
    c.html = std(c, body, brand="IONOS", accent="#003d8f", lines=["IONOS SE, Elgendorfer Str. 57, 56410 Montabaur"])
    c.text = auto_text(c.html)


@case(
    "de",
    "negative",
    "Buchungsbestätigung: Auftragsnummer, Reservierung, price, 'Ticket herunterladen' and check-in links",
    html_cte="base64",
)
def de_b19_neg_bahn_buchung(c: Case) -> None:
    c.sender = "Deutsche Bahn <buchungsbestaetigung@bahn.example>"
    c.subject = "Buchungsbestätigung (Auftrag 731904482211)"
    ticket = c.never(f"https://www.bahn.example/buchung/ticket/pdf?auftrag=731904482211&k={c.t('k', 24, 'hex')}")
    comfort = c.never("https://www.bahn.example/service/komfort-checkin")
    c.never("731904482211", "ICE 1009", "1009", "129,80", "12980", "14.03.2025", "Wagen 7", "Platz 45")
    body = (
        h1("Vielen Dank für Ihre Buchung")
        + p(
            "Auftragsnummer: <b>731904482211</b><br>Hinfahrt: 14.03.2025, München Hbf 09:28 → Hamburg Hbf 15:31, ICE 1009<br>Reservierung: Wagen 7, Platz 45<br>Gesamtpreis: 129,80 €"
        )
        + button(ticket, "Ticket herunterladen (PDF)", bg="#ec0016")
        + p(f"Sparen Sie sich die Kontrolle: {a(comfort, 'Komfort-Check-in')}")
    )
    c.html = std(
        c,
        body,
        brand="DB",
        accent="#ec0016",
        lines=["DB Fernverkehr AG, Stephensonstraße 1, 60326 Frankfurt am Main"],
        decoys=["60326"],
    )
    c.text = auto_text(c.html)


@case("de", "negative", "newsletter: 'Einstellungen bestätigen' footer, Gutscheincode and many tracked links")
def de_b19_neg_newsletter_einstellungen(c: Case) -> None:
    c.sender = "MediaMarkt <newsletter@mediamarkt.example>"
    c.subject = "Nur bis Sonntag: 20 % auf Kopfhörer"
    c.never("KOPF20", "2025", "199,99", "19999", "0800 123 48 00", "08001234800")
    links = [c.never(b19_trk(c, "salesforce", "mediamarkt.example", f"l{i}")) for i in range(4)]
    prefs = c.never(b19_trk(c, "salesforce", "mediamarkt.example", "prefs"))
    unsub = c.never(b19_trk(c, "salesforce", "mediamarkt.example", "unsub"))
    body = (
        h1("Sound-Wochen")
        + p(
            f"{a(links[0], 'Over-Ear-Kopfhörer ab 199,99 €')}<br>{a(links[1], 'In-Ear-Kopfhörer')}<br>{a(links[2], 'Alle Angebote')}"
        )
        + p("Gutscheincode <b>KOPF20</b> im Warenkorb eingeben, gültig bis 16.03.2025.")
        + button(links[3], "Jetzt shoppen", bg="#df0000")
        + b19_small(
            f"Sie erhalten diesen Newsletter, weil Sie ihn abonniert haben. {a(prefs, 'Einstellungen bestätigen oder ändern')} | "
            f"{a(unsub, 'Abmelden')} | Hotline 0800 123 48 00"
        )
    )
    c.html = std(c, body, brand="MediaMarkt", accent="#df0000", lines=["Media-Saturn Deutschland GmbH, Ingolstadt"])
    c.text = auto_text(c.html)


# French


@case(
    "fr",
    "code",
    "ameli code de sécurité; social-security number, 'Mot de passe oublié ?' and help links",
    charset="ISO-8859-15",
    html_cte="quoted-printable",
)
def fr_b19_ameli_code_securite(c: Case) -> None:
    c.sender = "l'Assurance Maladie <ne-pas-repondre@assurance-maladie.example>"
    c.subject = "Votre code de sécurité ameli"
    c.codes = ["YH7K2Q"]
    forgot = c.never("https://assure.ameli.example/PortailAS/appmanager/PortailAS/assure?_pageLabel=as_mdp_oublie")
    help_url = c.never("https://www.ameli.example/assure/adresses-et-contacts")
    c.never("1 85 03 75 112 048 27", "185037511204827", "3646")
    body = (
        p("Bonjour Jean Dupont,")
        + p("Numéro de sécurité sociale : 1 85 03 75 112 048 27")
        + p("Pour finaliser votre connexion à votre compte ameli, saisissez le code de sécurité suivant :")
        + big("YH7K2Q", spacing=8)
        + p("Ce code est valable 15 minutes.")
        + p(
            f"{a(forgot, 'Mot de passe oublié ?')} &middot; {a(help_url, 'Nous contacter')} (3646, service gratuit + prix d'un appel)"
        )
    )
    c.html = std(c, body, brand="ameli", accent="#0c419a", lines=["Caisse nationale de l'Assurance Maladie"])
    c.text = auto_text(c.html)


@case(
    "fr",
    "link",
    "leboncoin: Mailgun opaque redirect, intent only in 'Valider mon adresse e-mail'",
    charset="windows-1252",
    html_cte="quoted-printable",
)
def fr_b19_leboncoin_valider_mailgun(c: Case) -> None:
    c.sender = "leboncoin <noreply@leboncoin.example>"
    c.subject = "Validez votre adresse e-mail"
    url = b19_trk(c, "mailgun", "leboncoin.example", "validate")
    c.links = [url]
    help_url = c.never(b19_trk(c, "mailgun", "leboncoin.example", "help"))
    cgu = c.never(b19_trk(c, "mailgun", "leboncoin.example", "cgu"))
    body = (
        p("Bonjour Marie,")
        + p("Merci de vous être inscrite sur leboncoin ! Il ne vous reste plus qu’à valider votre adresse e-mail.")
        + button(url, "Valider mon adresse e-mail", bg="#ec5a13")
        + p("Ce lien expire dans 72 heures.")
        + b19_small(f"{a(help_url, 'Centre d’aide')} &middot; {a(cgu, 'Conditions générales')}")
    )
    c.html = std(
        c,
        body,
        brand="leboncoin",
        accent="#ec5a13",
        lines=["LBC France, 24 rue des Jeûneurs, 75002 Paris"],
        decoys=["75002"],
    )
    c.text = auto_text(c.html)


@case("fr", "link", "Doctolib magic sign-in with a French path /se-connecter/lien; 'Sécurité du compte' link is not it")
def fr_b19_doctolib_se_connecter(c: Case) -> None:
    c.sender = "Doctolib <no-reply@doctolib.example>"
    c.subject = "Votre lien de connexion Doctolib"
    url = f"https://www.doctolib.example/se-connecter/lien?jeton={c.t('j', 48)}"
    c.links = [url]
    sec = c.never("https://www.doctolib.example/compte/securite")
    body = (
        h1("Connectez-vous en un clic")
        + p(
            "Cliquez sur le bouton ci-dessous pour vous connecter. Ce lien est valable 10 minutes et ne peut être utilisé qu’une seule fois."
        )
        + button(url, "Se connecter", bg="#107aca")
        + p(f"Vous n’êtes pas à l’origine de cette demande ? Consultez la page {a(sec, 'Sécurité du compte')}.")
    )
    c.html = std(
        c,
        body,
        brand="Doctolib",
        accent="#107aca",
        lines=["Doctolib SAS, 54 quai Charles Pasqua, 92300 Levallois-Perret"],
        decoys=["92300"],
    )
    c.text = auto_text(c.html, "angle")


@case("fr", "code", "SNCF Connect code beside a 6-letter booking reference (Référence de dossier) and a ticket number")
def fr_b19_sncf_code_reference_dossier(c: Case) -> None:
    c.sender = "SNCF Connect <noreply@sncf-connect.example>"
    c.subject = "Votre code de vérification"
    c.codes = ["592048"]
    c.never("QXKZ7B", "3187 2093 4410", "318720934410", "49,00", "4900", "6217")
    c.text = dedent("""\
        Bonjour Jean,

        Vous souhaitez ajouter le voyage Paris -> Lyon (TGV INOUI 6217, 49,00 EUR) à votre compte.
        Référence de dossier : QXKZ7B
        Numéro de billet : 3187 2093 4410

        Votre code de vérification : 592048

        Ce code expire dans 10 minutes.

        SNCF Connect
        """)


@case(
    "fr", "negative", "facture Free: numéro client, référence de paiement, montant, 'Payer' and 'Espace abonné' links"
)
def fr_b19_neg_facture(c: Case) -> None:
    c.sender = "Free <factures@free.example>"
    c.subject = "Votre facture Freebox de mars 2025"
    pay = c.never(b19_trk(c, "salesforce", "free.example", "pay"))
    space = c.never("https://subscribe.free.example/login/?link=facture")
    c.never("7720481935", "FA-2025-03-4829137", "20250348291", "39,99", "3999", "3244")
    body = (
        p("Bonjour,")
        + p(
            "Votre facture du mois de mars 2025 est disponible.<br>Numéro client : 7720481935<br>Référence de paiement : FA-2025-03-4829137<br>Montant : 39,99 €"
        )
        + button(pay, "Payer ma facture", bg="#cd1e25")
        + p(f"Retrouvez toutes vos factures dans votre {a(space, 'Espace abonné')}. Assistance : 3244")
    )
    c.html = std(
        c,
        body,
        brand="Free",
        accent="#cd1e25",
        lines=["Free SAS, 8 rue de la Ville l’Évêque, 75008 Paris"],
        decoys=["75008"],
    )
    c.text = auto_text(c.html)


@case(
    "fr",
    "negative",
    "new sign-in alert: 'Ce n’était pas vous ? Sécurisez votre compte' and activity link",
    charset="windows-1252",
)
def fr_b19_neg_nouvelle_connexion(c: Case) -> None:
    c.sender = "Vinted <no-reply@vinted.example>"
    c.subject = "Nouvelle connexion à votre compte"
    secure = c.never(b19_trk(c, "sendgrid", "vinted.example", "secure"))
    activity = c.never("https://www.vinted.example/settings/security/sessions")
    c.never("192.0.2.145", "14/03/2025", "10:52")
    body = (
        p("Bonjour marie_d,")
        + p(
            "Une nouvelle connexion à votre compte a eu lieu le 14/03/2025 à 10:52 depuis un iPhone (Lyon, France, IP 192.0.2.145)."
        )
        + p("Si c’était bien vous, vous n’avez rien à faire.")
        + p(f"Ce n’était pas vous ? {a(secure, 'Sécurisez votre compte')}")
        + p(a(activity, "Voir les appareils connectés"))
    )
    c.html = std(c, body, brand="Vinted", accent="#007782", lines=["Vinted UAB, Vilnius"])
    c.text = auto_text(c.html)


# Spanish


@case(
    "es",
    "code",
    "BBVA código de firma: the earlier code is invalid; amount, masked IBAN and date decoys",
    charset="ISO-8859-1",
    text_cte="base64",
)
def es_b19_bbva_codigo_firma(c: Case) -> None:
    c.sender = "BBVA <bbva@comunicaciones.bbva.example>"
    c.subject = "Código de firma de operación"
    c.codes = ["71928453"]
    c.never(
        "40183921",
        "1.500,00",
        "150000",
        "ES76 **** **** **** **** 4021",
        "4021",
        "14/03/2025",
        "91 224 94 26",
        "912249426",
    )
    c.text = dedent("""\
        Hola, Juan:

        El código que solicitaste antes (40183921) ya no es válido.

        Para firmar la transferencia de 1.500,00 EUR desde la cuenta ES76 **** **** **** **** 4021
        el 14/03/2025, introduce este código de firma:

        71928453

        BBVA nunca te pedirá este código por teléfono.
        Atención al cliente: 91 224 94 26
        """)


@case("es", "link", "Wallapop e-mail confirmation: Spanish path /confirmar-email/, help and privacy links")
def es_b19_wallapop_confirmar_email(c: Case) -> None:
    c.sender = "Wallapop <noreply@wallapop.example>"
    c.subject = "Confirma tu correo electrónico"
    url = f"https://es.wallapop.example/confirmar-email/{c.t('t', 40, 'b62')}"
    c.links = [url]
    help_url = c.never("https://ayuda.wallapop.example/hc/es-es")
    body = (
        h1("¡Ya casi estás!")
        + p("Confirma tu correo electrónico para empezar a comprar y vender en Wallapop.")
        + button(url, "Confirmar correo", bg="#13c1ac")
        + p(f"¿Tienes dudas? Visita nuestro {a(help_url, 'centro de ayuda')}.")
    )
    c.html = std(
        c,
        body,
        brand="Wallapop",
        accent="#13c1ac",
        lines=["Wallapop S.L., Barcelona"],
        links=[("Política de privacidad", "https://es.wallapop.example/privacidad")],
    )
    c.text = auto_text(c.html)


@case(
    "es",
    "link",
    "Glovo password reset via a Mailgun opaque URL; anchor 'Restablecer contraseña'",
    charset="windows-1252",
    html_cte="quoted-printable",
)
def es_b19_glovo_restablecer_mailgun(c: Case) -> None:
    c.sender = "Glovo <no-reply@glovoapp.example>"
    c.subject = "Restablece tu contraseña"
    url = b19_trk(c, "mailgun", "glovoapp.example", "reset")
    c.links = [url]
    support = c.never(b19_trk(c, "mailgun", "glovoapp.example", "support"))
    body = (
        p("Hola Lucía,")
        + p("Hemos recibido una solicitud para restablecer la contraseña de tu cuenta. El enlace caduca en 1 hora.")
        + button(url, "Restablecer contraseña", bg="#ffc244", fg="#000000")
        + p(f"¿No has sido tú? Ignora este mensaje o {a(support, 'contacta con soporte')}.")
    )
    c.html = std(c, body, brand="Glovo", accent="#ffc244", lines=["Glovoapp23 S.A., Barcelona"])
    c.text = auto_text(c.html)


@case(
    "es",
    "code",
    "Mercado Libre código in cells; '¿Olvidaste tu contraseña?', security center and help links",
    html_cte="base64",
)
def es_b19_mercadolibre_codigo_celdas(c: Case) -> None:
    c.sender = "Mercado Libre <info@mercadolibre.example>"
    c.subject = "Tu código de verificación"
    c.codes = ["604817"]
    c.pieces = list("604817")
    forgot = c.never("https://www.mercadolibre.example/jms/mla/lgz/recovery")
    sec = c.never("https://myaccount.mercadolibre.example/security")
    help_url = c.never("https://www.mercadolibre.example/ayuda")
    c.never("30-70308853-4", "30703088534")
    body = (
        p("Hola, Juan:")
        + p("Usa este código para verificar que eres tú:")
        + cells("604817")
        + p("Vence en 10 minutos. No lo compartas con nadie.")
        + p(
            f"{a(forgot, '¿Olvidaste tu contraseña?')} &middot; {a(sec, 'Centro de seguridad')} &middot; {a(help_url, 'Ayuda')}"
        )
    )
    c.html = std(c, body, brand="Mercado Libre", accent="#ffe600", lines=["MercadoLibre S.R.L., CUIT 30-70308853-4"])


@case(
    "es",
    "negative",
    "Iberia boarding pass: 'Código de reserva' locator, flight, seat, gate and check-in links",
    charset="ISO-8859-15",
)
def es_b19_neg_tarjeta_embarque(c: Case) -> None:
    c.sender = "Iberia <tarjetadeembarque@iberia.example>"
    c.subject = "Tu tarjeta de embarque IB3166 Madrid - París"
    card_url = c.never(f"https://www.iberia.example/es/tarjeta-embarque/?pnr=K7QX2P&t={c.t('t', 20, 'hex')}")
    manage = c.never("https://www.iberia.example/es/gestionar-reserva/")
    c.never("K7QX2P", "IB3166", "3166", "14MAR", "0751234567890", "23C", "K47")
    body = (
        p("Hola, JUAN GARCIA:")
        + p(
            "Código de reserva: <b>K7QX2P</b><br>Vuelo: IB3166 · 14MAR · Madrid 07:25 - París 09:30<br>Asiento: 23C · Puerta: K47<br>Billete: 0751234567890"
        )
        + button(card_url, "Descargar tarjeta de embarque", bg="#d7192d")
        + p(a(manage, "Gestionar mi reserva"))
    )
    c.html = std(c, body, brand="Iberia", accent="#d7192d", lines=["Iberia Líneas Aéreas de España"])
    c.text = auto_text(c.html)


@case(
    "es",
    "negative",
    "Amazon.es order: pedido n.º with dashes, 'Rastrear paquete' and 'Ver pedido' links",
    html_cte="quoted-printable",
)
def es_b19_neg_pedido(c: Case) -> None:
    c.sender = "Amazon.es <confirmar-envio@amazon.example>"
    c.subject = "Tu pedido 402-7719204-4829137 se ha enviado"
    track = c.never("https://www.amazon.example/gp/your-account/ship-track?orderId=402-7719204-4829137&ref_=pe_track")
    order = c.never("https://www.amazon.example/gp/css/order-details?orderID=402-7719204-4829137")
    c.never("402-7719204-4829137", "4027719204", "7719204", "4829137", "23,98", "2398", "ES1234567890")
    body = (
        p("Hola, Juan:")
        + p(
            "Tu paquete está en camino. Número de seguimiento: ES1234567890<br>Pedido n.º 402-7719204-4829137<br>Total: 23,98 €"
        )
        + button(track, "Rastrear paquete", bg="#ffa41c", fg="#0f1111")
        + p(a(order, "Ver o gestionar pedido"))
    )
    c.html = std(c, body, brand="Amazon.es", accent="#ff9900", lines=["Amazon EU S.à r.l., Luxemburgo"])
    c.text = auto_text(c.html)


# Portuguese


@case(
    "pt",
    "code",
    "Nubank código de verificação; masked CPF, 'Esqueceu sua senha?' and security-center links",
    charset="ISO-8859-1",
    html_cte="quoted-printable",
)
def pt_b19_nubank_codigo_links_conta(c: Case) -> None:
    c.sender = "Nubank <meajuda@nubank.example>"
    c.subject = "Seu código de verificação Nubank"
    c.codes = ["483920", "483 920"]
    forgot = c.never("https://app.nubank.example/#/esqueci-minha-senha")
    sec = c.never("https://nubank.example/seguranca/")
    c.never("***.482.913-**", "482913", "0800 608 6236", "08006086236", "18.236.120/0001-58", "18236120000158")
    body = (
        p("Olá, Ana!")
        + p("Recebemos um pedido de acesso à sua conta (CPF ***.482.913-**). Use o código abaixo:")
        + big("483 920")
        + p("O código expira em 10 minutos. O Nubank nunca pede esse código por telefone.")
        + p(f"{a(forgot, 'Esqueceu sua senha?')} &middot; {a(sec, 'Central de segurança')} &middot; SAC 0800 608 6236")
    )
    c.html = std(
        c, body, brand="Nubank", accent="#820ad1", lines=["Nu Pagamentos S.A., CNPJ 18.236.120/0001-58, São Paulo"]
    )
    c.text = auto_text(c.html)


@case("pt", "link", "Conta Azul: HubSpot hubspotlinks.com tracked URL, intent only in 'Confirmar e-mail'")
def pt_b19_contaazul_confirmar_hubspot(c: Case) -> None:
    c.sender = "Conta Azul <ola@contaazul.example>"
    c.subject = "Confirme seu e-mail para ativar sua conta"
    url = b19_trk(c, "hubspot", "contaazul.example", "confirm")
    c.links = [url]
    blog = c.never(b19_trk(c, "hubspot", "contaazul.example", "blog"))
    unsub = c.never(b19_trk(c, "hubspot", "contaazul.example", "unsub"))
    body = (
        h1("Falta pouco!")
        + p("Clique no botão para confirmar seu e-mail e começar o teste grátis de 15 dias.")
        + button(url, "Confirmar e-mail", bg="#2687e9")
        + p(f"Enquanto isso, veja dicas de gestão no nosso {a(blog, 'blog')}.")
        + b19_small(a(unsub, "Cancelar inscrição"))
    )
    c.html = std(c, body, brand="Conta Azul", accent="#2687e9", lines=["Conta Azul, Joinville - SC"])
    c.text = auto_text(c.html)


@case(
    "pt",
    "link",
    "Mercado Pago reset: Portuguese path /redefinir-senha/, the text copy has utm_* (same target)",
    html_cte="base64",
)
def pt_b19_mercadopago_redefinir_senha(c: Case) -> None:
    c.sender = "Mercado Pago <info@mercadopago.example>"
    c.subject = "Redefinição de senha"
    url = f"https://www.mercadopago.example/redefinir-senha/{c.t('t', 40, 'b62')}"
    utm = f"{url}?utm_source=email&utm_medium=transacional"
    c.links = [url, utm]
    help_url = c.never("https://www.mercadopago.example/ajuda")
    body = (
        p("Olá, Ana,")
        + p("Para criar uma nova senha, clique no botão abaixo. O link vale por 1 hora.")
        + button(url, "Redefinir senha", bg="#009ee3")
        + p(f"Se não foi você, ignore este e-mail. {a(help_url, 'Central de ajuda')}")
    )
    c.html = std(c, body, brand="Mercado Pago", accent="#009ee3", lines=["Mercado Pago, Osasco - SP"])
    c.text = f"Olá, Ana,\n\nPara criar uma nova senha, acesse:\n{utm}\n\nO link vale por 1 hora.\nCentral de ajuda: {help_url}\n"


@case(
    "pt",
    "code",
    "Itaú código de acesso: earlier code cancelled; agência/conta and amount decoys",
    charset="windows-1252",
    text_cte="8bit",
)
def pt_b19_itau_codigo_anterior_cancelado(c: Case) -> None:
    c.sender = "Itaú <comunicacao@itau.example>"
    c.subject = "Seu novo código de acesso"
    c.codes = ["270531"]
    c.never("918204", "0482", "12345-6", "123456", "3.200,00", "320000", "4004 4828", "40044828")
    c.text = dedent("""\
        Olá, Ana,

        Você pediu um novo código. O código anterior (918204) foi cancelado.

        Novo código de acesso: 270531

        Agência 0482 / Conta 12345-6
        Limite Pix noturno solicitado: R$ 3.200,00

        Central de atendimento: 4004 4828
        Itaú Unibanco S.A.
        """)


@case(
    "pt",
    "negative",
    "boleto: 47-digit linha digitável in groups, nosso número, amount, 'Pagar boleto' link",
    html_cte="quoted-printable",
)
def pt_b19_neg_boleto(c: Case) -> None:
    c.sender = "Vivo <fatura@vivo.example>"
    c.subject = "Sua fatura Vivo chegou - vencimento 20/03/2025"
    pay = c.never(b19_trk(c, "salesforce", "vivo.example", "pay"))
    pdf_url = c.never(f"https://meuvivo.vivo.example/fatura/pdf?id={c.t('id', 16, 'hex')}")
    line = "34191.09008 63571.277308 71444.640008 5 10270000014990"
    c.never(line, "34191.09008", "63571.277308", "10270000014990", "149,90", "14990", "20/03/2025", "99887766", "1058")
    body = (
        p("Olá, Ana!")
        + p("Valor: <b>R$ 149,90</b><br>Vencimento: 20/03/2025<br>Nosso número: 99887766")
        + p(f"Linha digitável:<br><span style='font-family:monospace'>{line}</span>")
        + button(pay, "Pagar boleto", bg="#660099")
        + p(a(pdf_url, "Baixar fatura em PDF") + " &middot; Atendimento: *8486 ou 1058")
    )
    c.html = std(c, body, brand="Vivo", accent="#660099", lines=["Telefônica Brasil S.A."])
    c.text = auto_text(c.html)


@case(
    "pt",
    "negative",
    "CTT (pt-PT) shipment: 'Código de envio' tracking code RR123456785PT is not a one-time code",
    charset="ISO-8859-15",
)
def pt_b19_neg_ctt_codigo_envio(c: Case) -> None:
    c.sender = "CTT Expresso <noreply@ctt.example>"
    c.subject = "A sua encomenda está a caminho"
    track = c.never("https://www.ctt.example/feapl_2/app/open/objectSearch/objectSearch.jspx?objects=RR123456785PT")
    c.never("RR123456785PT", "123456785", "1000-001", "1000001", "707 26 26 26", "707262626")
    body = (
        p("Caro cliente,")
        + p("Código de envio: <b>RR123456785PT</b><br>Destino: Lisboa, 1000-001")
        + button(track, "Seguir envio", bg="#df0024")
        + p("Linha CTT: 707 26 26 26")
    )
    c.html = std(c, body, brand="CTT", accent="#df0024", lines=["CTT - Correios de Portugal, S.A."])
    c.text = auto_text(c.html)


# Italian


@case(
    "it",
    "code",
    "Poste codice di conferma beside Codice cliente and an amount",
    charset="ISO-8859-1",
    text_cte="quoted-printable",
)
def it_b19_poste_codice_cliente(c: Case) -> None:
    c.sender = "Poste Italiane <noreply@posteitaliane.example>"
    c.subject = "Il tuo codice di conferma"
    c.codes = ["628417", "628 417"]
    c.never("4400128395", "250,00", "25000", "06 4526 3322", "0645263322", "14/03/2025")
    c.text = dedent("""\
        Gentile Mario Rossi,

        Codice cliente: 4400128395

        per autorizzare la ricarica della carta Postepay di 250,00 euro del 14/03/2025
        inserisci il codice di conferma:

        628 417

        Il codice scade tra 5 minuti. Poste Italiane non ti chiederà mai questo codice.

        Assistenza: 06 4526 3322
        """)


@case(
    "it",
    "code",
    "Intesa Sanpaolo codice OTP; 'Password dimenticata?', security settings and support links",
    html_cte="base64",
)
def it_b19_intesa_otp_link_account(c: Case) -> None:
    c.sender = "Intesa Sanpaolo <noreply@intesasanpaolo.example>"
    c.subject = "Codice OTP per l'accesso"
    c.codes = ["53092817"]
    forgot = c.never("https://www.intesasanpaolo.example/password-dimenticata.html")
    sec = c.never("https://www.intesasanpaolo.example/area-clienti/impostazioni-sicurezza")
    support = c.never("https://www.intesasanpaolo.example/contatti.html")
    c.never("800.303.303", "800303303", "00799960158")
    body = (
        p("Gentile Cliente,")
        + p("per completare l'accesso all'app usa il seguente codice OTP:")
        + big("53092817", spacing=4)
        + p("Il codice è valido per 3 minuti.")
        + p(
            f"{a(forgot, 'Password dimenticata?')} | {a(sec, 'Impostazioni di sicurezza')} | {a(support, 'Assistenza')} 800.303.303"
        )
    )
    c.html = std(
        c, body, brand="Intesa Sanpaolo", accent="#00884a", lines=["Intesa Sanpaolo S.p.A., P.IVA 00799960158, Torino"]
    )
    c.text = auto_text(c.html)


@case("it", "link", "Subito: SendGrid /ls/click URL, intent only in 'Conferma la tua email'")
def it_b19_subito_conferma_sendgrid(c: Case) -> None:
    c.sender = "Subito <noreply@subito.example>"
    c.subject = "Conferma la tua email"
    url = b19_trk(c, "sendgrid", "subito.example", "confirm")
    c.links = [url]
    help_url = c.never(b19_trk(c, "sendgrid", "subito.example", "help"))
    body = (
        h1("Benvenuto su Subito!")
        + p("Conferma il tuo indirizzo email per pubblicare il tuo primo annuncio.")
        + button(url, "Conferma la tua email", bg="#f9423a")
        + p(f"Serve aiuto? {a(help_url, 'Centro assistenza')}")
    )
    c.html = std(c, body, brand="Subito", accent="#f9423a", lines=["Subito.it S.r.l., Milano"])
    c.text = auto_text(c.html)


@case(
    "it",
    "link",
    "Satispay magic sign-in with an Italian path /accedi/link; privacy link",
    charset="windows-1252",
    html_cte="quoted-printable",
)
def it_b19_satispay_accedi_link(c: Case) -> None:
    c.sender = "Satispay <noreply@satispay.example>"
    c.subject = "Il tuo link di accesso"
    url = f"https://business.satispay.example/accedi/link?t={c.t('t', 48)}"
    c.links = [url]
    body = (
        p("Ciao Giulia,")
        + p(
            "ecco il link per accedere alla Dashboard Business. È valido per 10 minuti e può essere usato una sola volta."
        )
        + button(url, "Accedi", bg="#f94c43")
        + p("Se non hai richiesto l’accesso, ignora questa email.")
    )
    c.html = std(
        c,
        body,
        brand="Satispay",
        accent="#f94c43",
        lines=["Satispay Europe S.A."],
        links=[("Privacy", "https://www.satispay.example/it-it/privacy/")],
    )
    c.text = auto_text(c.html)


@case("it", "negative", "Trenitalia ticket: 'Codice PNR' and 'Codice biglietto' are booking codes, not one-time codes")
def it_b19_neg_biglietto_pnr(c: Case) -> None:
    c.sender = "Trenitalia <noreply@trenitalia.example>"
    c.subject = "Biglietto Frecciarossa 9531 Roma - Milano"
    pdf_url = c.never(f"https://www.trenitalia.example/it/biglietto/pdf?pnr=XK4Q7B&c={c.t('c', 20, 'hex')}")
    change = c.never("https://www.trenitalia.example/it/modifica-biglietto")
    c.never("XK4Q7B", "2718394021", "9531", "59,90", "5990", "14/03/2025")
    body = (
        p("Gentile Mario Rossi,")
        + p(
            "Codice PNR: <b>XK4Q7B</b><br>Codice biglietto: 2718394021<br>Frecciarossa 9531, 14/03/2025, Roma Termini 10:10 - Milano Centrale 13:15<br>Importo: 59,90 €"
        )
        + button(pdf_url, "Scarica il biglietto", bg="#c8102e")
        + p(a(change, "Modifica o cambia il biglietto"))
    )
    c.html = std(c, body, brand="Trenitalia", accent="#c8102e", lines=["Trenitalia S.p.A."])
    c.text = auto_text(c.html)


@case(
    "it",
    "negative",
    "Enel bill: Codice cliente, POD, amount, 'Paga ora' and 'Area clienti' links",
    charset="ISO-8859-15",
    html_cte="quoted-printable",
)
def it_b19_neg_bolletta_pod(c: Case) -> None:
    c.sender = "Enel Energia <bollette@enel.example>"
    c.subject = "La tua bolletta è disponibile"
    pay = c.never(b19_trk(c, "salesforce", "enel.example", "pay"))
    area = c.never("https://www.enel.example/it/login?area=clienti")
    c.never("IT001E12345678", "881203947", "87,43", "8743", "31/03/2025", "800.900.860", "800900860")
    body = (
        p("Gentile cliente,")
        + p("Codice cliente: 881203947<br>POD: IT001E12345678<br>Importo: <b>87,43 €</b><br>Scadenza: 31/03/2025")
        + button(pay, "Paga ora", bg="#008c5a")
        + p(f"Tutte le bollette nell'{a(area, 'Area clienti')}. Numero verde 800.900.860")
    )
    c.html = std(c, body, brand="Enel", accent="#008c5a", lines=["Enel Energia S.p.A."])
    c.text = auto_text(c.html)


# Dutch


@case(
    "nl",
    "code",
    "ING verificatiecode; 'Wachtwoord vergeten?', security settings and contact links",
    html_cte="quoted-printable",
)
def nl_b19_ing_verificatiecode_links(c: Case) -> None:
    c.sender = "ING <noreply@ing.example>"
    c.subject = "Je verificatiecode voor Mijn ING"
    c.codes = ["749203"]
    forgot = c.never("https://mijn.ing.example/login/wachtwoord-vergeten")
    sec = c.never("https://mijn.ing.example/instellingen/beveiliging")
    contact = c.never("https://www.ing.example/particulier/klantenservice/contact")
    c.never("NL91 INGB 0001 2345 67", "NL91INGB0001234567", "020 22 888 00", "0202288800")
    body = (
        p("Beste mevrouw De Vries,")
        + p("Gebruik deze verificatiecode om in te loggen op Mijn ING:")
        + big("749203")
        + p("De code is 10 minuten geldig. Rekening: NL91 INGB 0001 2345 67")
        + p(
            f"{a(forgot, 'Wachtwoord vergeten?')} &middot; {a(sec, 'Beveiligingsinstellingen')} &middot; {a(contact, 'Contact')} (020 22 888 00)"
        )
    )
    c.html = std(c, body, brand="ING", accent="#ff6200", lines=["ING Bank N.V., Amsterdam"])
    c.text = auto_text(c.html)


@case(
    "nl",
    "link",
    "bol: Braze ablink /ls/click URL, intent only in 'Bevestig je e-mailadres'",
    charset="ISO-8859-1",
    html_cte="quoted-printable",
)
def nl_b19_bol_bevestig_braze(c: Case) -> None:
    c.sender = "bol <klantenservice@bol.example>"
    c.subject = "Bevestig je e-mailadres"
    url = b19_trk(c, "braze", "mail.bol.example", "confirm")
    c.links = [url]
    help_url = c.never(b19_trk(c, "braze", "mail.bol.example", "help"))
    body = (
        p("Hoi Sanne,")
        + p("Bevestig je e-mailadres, dan weten we zeker dat we je kunnen bereiken over je bestellingen.")
        + button(url, "Bevestig je e-mailadres", bg="#0000a4")
        + p(f"Vragen? {a(help_url, 'Klantenservice')}")
    )
    c.html = std(c, body, brand="bol", accent="#0000a4", lines=["bol.com b.v., Utrecht"])
    c.text = auto_text(c.html)


@case(
    "nl",
    "link",
    "Marktplaats reset with a Dutch path /wachtwoord-herstellen/, plain-text only",
    charset="ISO-8859-15",
    text_cte="quoted-printable",
)
def nl_b19_marktplaats_wachtwoord_herstellen(c: Case) -> None:
    c.sender = "Marktplaats <noreply@marktplaats.example>"
    c.subject = "Je wachtwoord herstellen"
    url = f"https://www.marktplaats.example/account/wachtwoord-herstellen/{c.t('t', 40, 'hex')}"
    c.links = [url]
    help_url = c.never("https://help.marktplaats.example/s/")
    c.text = dedent(f"""\
        Hoi Sanne,

        Je hebt gevraagd om je wachtwoord te herstellen. Kies via deze link een nieuw wachtwoord:

        {url}

        De link is 24 uur geldig. Heb je dit niet gevraagd? Dan kun je deze e-mail negeren.

        Hulp nodig? {help_url}

        Groet,
        Marktplaats
        """)


@case(
    "nl",
    "code",
    "PostNL code beside a postcode, house number and a 3S barcode",
    charset="windows-1252",
    text_cte="8bit",
)
def nl_b19_postnl_code_postcode(c: Case) -> None:
    c.sender = "PostNL <noreply@postnl.example>"
    c.subject = "Je bevestigingscode voor PostNL"
    c.codes = ["5817"]
    c.never("1012 AB", "1012AB", "3SABCD0048213", "088 868 6868", "0888686868", "1012")
    c.text = dedent("""\
        Beste Sanne,

        Je wilt de bezorging van pakket 3SABCD0048213 wijzigen naar:
        Damrak 12, 1012 AB Amsterdam

        Je bevestigingscode: 5817

        De code is 15 minuten geldig.

        Klantenservice: 088 868 6868
        PostNL
        """)


@case("nl", "negative", "Ziggo invoice: klantnummer, factuurnummer, IBAN, amount, 'Bekijk factuur' link")
def nl_b19_neg_factuur(c: Case) -> None:
    c.sender = "Ziggo <factuur@ziggo.example>"
    c.subject = "Je factuur van maart staat klaar"
    view = c.never(b19_trk(c, "salesforce", "ziggo.example", "view"))
    c.never("48291370", "2025031448", "NL20 INGB 0001 2345 67", "NL20INGB0001234567", "62,50", "6250", "28-03-2025")
    body = (
        p("Beste klant,")
        + p(
            "Klantnummer: 48291370<br>Factuurnummer: 2025031448<br>Bedrag: € 62,50<br>Wordt afgeschreven op 28-03-2025 van NL20 INGB 0001 2345 67"
        )
        + button(view, "Bekijk je factuur", bg="#f48c00")
    )
    c.html = std(c, body, brand="Ziggo", accent="#f48c00", lines=["Ziggo B.V., Utrecht"])
    c.text = auto_text(c.html)


@case("nl", "negative", "new sign-in alert: 'Was jij dit niet? Beveilig je account', activity link, IP")
def nl_b19_neg_nieuwe_inlog(c: Case) -> None:
    c.sender = "Thuisbezorgd.nl <noreply@thuisbezorgd.example>"
    c.subject = "Nieuwe inlog op je account"
    secure = c.never(b19_trk(c, "sendgrid", "thuisbezorgd.example", "secure"))
    c.never("203.0.113.9", "14-03-2025")
    body = (
        p("Hoi Sanne,")
        + p(
            "Er is op 14-03-2025 om 18:40 ingelogd op je account vanaf een nieuw apparaat (Safari op iPhone, IP 203.0.113.9)."
        )
        + p(f"Was jij dit niet? {a(secure, 'Beveilig je account')}")
    )
    c.html = std(c, body, brand="Thuisbezorgd.nl", accent="#ff8000", lines=["Takeaway.com, Amsterdam"])
    c.text = auto_text(c.html)


# Russian


@case("ru", "code", "Yandex код подтверждения; 'Забыли пароль?', security settings and support links")
def ru_b19_yandex_kod_ssylki(c: Case) -> None:
    c.sender = "Яндекс ID <noreply@id.yandex.example>"
    c.subject = "Код подтверждения: 718 392"
    c.codes = ["718392", "718 392"]
    forgot = c.never("https://passport.yandex.example/auth/restore/password")
    sec = c.never("https://id.yandex.example/security")
    support = c.never("https://yandex.example/support/id/")
    body = (
        p("Здравствуйте, Иван!")
        + p("Введите этот код, чтобы войти в аккаунт:")
        + big("718 392")
        + p("Код действует 10 минут. Никому его не сообщайте.")
        + p(f"{a(forgot, 'Забыли пароль?')} · {a(sec, 'Настройки безопасности')} · {a(support, 'Служба поддержки')}")
    )
    c.html = std(c, body, brand="Яндекс", accent="#fc3f1d", lines=["© 2025 ООО «Яндекс»"], decoys=["2025"])
    c.text = auto_text(c.html)


@case(
    "ru",
    "link",
    "Avito: Mailgun opaque redirect, intent only in 'Подтвердить почту'",
    charset="KOI8-R",
    html_cte="base64",
)
def ru_b19_avito_podtverdit_mailgun(c: Case) -> None:
    c.sender = "Авито <noreply@avito.example>"
    c.subject = "Подтвердите электронную почту"
    url = b19_trk(c, "mailgun", "avito.example", "confirm")
    c.links = [url]
    help_url = c.never(b19_trk(c, "mailgun", "avito.example", "help"))
    body = (
        p("Здравствуйте!")
        + p("Чтобы завершить регистрацию на Авито, подтвердите адрес электронной почты.")
        + button(url, "Подтвердить почту", bg="#00aaff")
        + p(f"Вопросы? {a(help_url, 'Помощь')}")
    )
    c.html = std(c, body, brand="Авито", accent="#00aaff", lines=['ООО "КЕХ еКоммерц", Москва'])
    c.text = auto_text(c.html)


@case(
    "ru",
    "link",
    "VK password recovery with a transliterated path /vosstanovlenie-parolya/, windows-1251 QP",
    charset="windows-1251",
    html_cte="quoted-printable",
)
def ru_b19_vk_vosstanovlenie_path(c: Case) -> None:
    c.sender = "ВКонтакте <admin@vk.example>"
    c.subject = "Восстановление доступа к странице"
    url = f"https://id.vk.example/vosstanovlenie-parolya/?hash={c.t('h', 32, 'hex')}&uid=482913771"
    c.links = [url]
    c.never("482913771")
    body = (
        p("Здравствуйте, Иван!")
        + p("Мы получили запрос на восстановление доступа. Чтобы задать новый пароль, перейдите по ссылке:")
        + p(a(url, "Задать новый пароль"))
        + p("Если вы не запрашивали восстановление, просто проигнорируйте это письмо.")
    )
    c.html = std(c, body, brand="ВКонтакте", accent="#0077ff", lines=["ООО «В Контакте», Санкт-Петербург"])
    c.text = auto_text(c.html)


@case(
    "ru",
    "code",
    "T-Bank code: previous code invalid, contract number and amount decoys, ISO-8859-5 text",
    charset="ISO-8859-5",
    text_cte="quoted-printable",
)
def ru_b19_tbank_kod_dogovor(c: Case) -> None:
    c.sender = "Т-Банк <noreply@tbank.example>"
    c.subject = "Код для входа в Т-Банк"
    c.codes = ["3917"]
    c.never("8204", "5012345678", "15 000", "15000", "8 800 555-77-78", "88005557778")
    c.text = dedent("""\
        Здравствуйте, Иван!

        Предыдущий код 8204 больше не действует.
        Код для входа: 3917

        Договор № 5012345678
        Запрошенный перевод: 15 000 руб.

        Никому не сообщайте код. Банк: 8 800 555-77-78
        """)


@case(
    "ru",
    "negative",
    "РЖД e-ticket: номер заказа, electronic registration, seat; 'Скачать билет' link",
    html_cte="base64",
)
def ru_b19_neg_bilet_rzd(c: Case) -> None:
    c.sender = "РЖД <ticket@rzd.example>"
    c.subject = "Электронный билет, заказ № 72419038215"
    pdf_url = c.never(f"https://ticket.rzd.example/apps/pdf?order=72419038215&t={c.t('t', 20, 'hex')}")
    c.never("72419038215", "75412390471938", "752А", "4 317,20", "431720", "14.03.2025")
    body = (
        p("Заказ № 72419038215 оплачен.")
        + p(
            "Поезд 752А Москва — Санкт-Петербург, 14.03.2025 в 07:00<br>Вагон 5, место 17<br>Номер билета: 75412390471938<br>Стоимость: 4 317,20 руб."
        )
        + p("Электронная регистрация пройдена.")
        + button(pdf_url, "Скачать билет", bg="#e21a1a")
    )
    c.html = std(c, body, brand="РЖД", accent="#e21a1a", lines=["ОАО «РЖД»"])
    c.text = auto_text(c.html)


@case("ru", "negative", "new sign-in alert: 'Это были не вы? Защитите аккаунт' and sessions link")
def ru_b19_neg_novyi_vhod(c: Case) -> None:
    c.sender = "Mail.ru <security@corp.mail.example>"
    c.subject = "Вход в аккаунт с нового устройства"
    secure = c.never("https://account.mail.example/security?from=alert")
    sessions = c.never("https://account.mail.example/security/sessions")
    c.never("192.0.2.77", "14.03.2025")
    body = (
        p("Здравствуйте!")
        + p("14.03.2025 в 21:15 выполнен вход в ваш аккаунт: Firefox, Windows, Казань, IP 192.0.2.77.")
        + p(f"Это были не вы? {a(secure, 'Защитите аккаунт')}")
        + p(a(sessions, "Посмотреть активные сеансы"))
    )
    c.html = std(c, body, brand="Mail.ru", accent="#005ff9", lines=["VK, Москва"])
    c.text = auto_text(c.html)


# Polish


@case(
    "pl",
    "code",
    "mBank kod weryfikacyjny; 'Nie pamiętasz hasła?', security settings and help links",
    charset="ISO-8859-2",
    html_cte="quoted-printable",
)
def pl_b19_mbank_kod_weryfikacyjny(c: Case) -> None:
    c.sender = "mBank <powiadomienia@mbank.example>"
    c.subject = "Twój kod weryfikacyjny"
    c.codes = ["64829103"]
    forgot = c.never("https://online.mbank.example/pl/Login/PasswordReset")
    sec = c.never("https://online.mbank.example/ustawienia/bezpieczenstwo")
    help_url = c.never("https://www.mbank.example/pomoc/")
    c.never("801 300 800", "801300800", "642 21 20 00", "642212000")
    body = (
        p("Dzień dobry,")
        + p("Twój kod weryfikacyjny do logowania w serwisie transakcyjnym:")
        + big("64829103", spacing=4)
        + p("Kod jest ważny przez 5 minut. Nie podawaj go nikomu.")
        + p(
            f"{a(forgot, 'Nie pamiętasz hasła?')} | {a(sec, 'Ustawienia bezpieczeństwa')} | {a(help_url, 'Pomoc')} 801 300 800 lub 642 21 20 00"
        )
    )
    c.html = std(c, body, brand="mBank", accent="#e40613", lines=["mBank S.A., ul. Prosta 18, Warszawa"])
    c.text = auto_text(c.html)


@case(
    "pl",
    "link",
    "Allegro e-mail confirmation: Polish path /potwierdz-adres/, &amp; in the href",
    charset="windows-1250",
    html_cte="quoted-printable",
)
def pl_b19_allegro_potwierdz_adres(c: Case) -> None:
    c.sender = "Allegro <powiadomienia@allegro.example>"
    c.subject = "Potwierdź adres e-mail"
    url = f"https://allegro.example/konto/potwierdz-adres/?token={c.t('t', 40, 'hex')}&uid=8812039"
    c.links = [url]
    c.never("8812039")
    body = (
        p("Cześć!")
        + p("Potwierdź, że ten adres e-mail należy do Ciebie:")
        + button(url, "Potwierdź adres e-mail", bg="#ff5a00")
        + p("Link jest ważny przez 7 dni.")
    )
    c.html = std(
        c,
        body,
        brand="Allegro",
        accent="#ff5a00",
        lines=["Allegro.pl sp. z o.o., Poznań"],
        links=[("Pomoc", "https://allegro.example/pomoc")],
    )
    c.text = auto_text(c.html)


@case("pl", "link", "OLX magic sign-in through SendGrid; only the anchor 'Zaloguj się' says what it is")
def pl_b19_olx_zaloguj_sendgrid(c: Case) -> None:
    c.sender = "OLX <no-reply@olx.example>"
    c.subject = "Zaloguj się do OLX"
    url = b19_trk(c, "sendgrid", "olx.example", "login")
    c.links = [url]
    help_url = c.never(b19_trk(c, "sendgrid", "olx.example", "help"))
    body = (
        p("Cześć Kasia,")
        + p("Kliknij przycisk, aby zalogować się bez hasła. Link wygaśnie za 15 minut.")
        + button(url, "Zaloguj się", bg="#002f34")
        + p(f"Nie prosiłeś o link? Zignoruj tę wiadomość. {a(help_url, 'Centrum pomocy')}")
    )
    c.html = std(c, body, brand="OLX", accent="#23e5db", lines=["OLX Sp. z o.o."])
    c.text = auto_text(c.html)


@case(
    "pl",
    "code",
    "InPost locker kod odbioru: the pickup code is typed at the locker; parcel number and phone are not codes",
    charset="ISO-8859-2",
    text_cte="base64",
)
def pl_b19_inpost_kod_odbioru(c: Case) -> None:
    c.sender = "InPost <powiadomienia@inpost.example>"
    c.subject = "Paczka czeka w Paczkomacie WAW21M"
    c.codes = ["582104"]
    c.never("620481937720193847261905", "WAW21M", "600 123 456", "600123456", "17.03.2025", "722 444 000", "722444000")
    c.text = dedent("""\
        Twoja paczka 620481937720193847261905 czeka w Paczkomacie WAW21M
        (ul. Marszałkowska 10, Warszawa).

        Kod odbioru: 582104
        Numer telefonu: 600 123 456

        Odbierz do 17.03.2025 do godz. 14:00.

        Infolinia: 722 444 000
        """)


@case(
    "pl",
    "negative",
    "Play invoice: numer konta, numer klienta, amount, 'Zapłać' and PDF links",
    charset="windows-1250",
    html_cte="base64",
)
def pl_b19_neg_faktura(c: Case) -> None:
    c.sender = "Play <faktury@play.example>"
    c.subject = "Faktura za marzec 2025"
    pay = c.never(b19_trk(c, "salesforce", "play.example", "pay"))
    pdf_url = c.never("https://24.play.example/faktury/FV-2025-03-4829137.pdf")
    c.never(
        "FV-2025-03-4829137",
        "4829137",
        "48 1140 0000 0000 1234 5678 9012",
        "48114000000000123456789012",
        "59,99",
        "5999",
        "30.03.2025",
        "1000045821",
    )
    body = (
        p("Dzień dobry,")
        + p(
            "Faktura nr FV-2025-03-4829137<br>Numer klienta: 1000045821<br>Kwota do zapłaty: 59,99 zł<br>Termin: 30.03.2025<br>Numer konta: 48 1140 0000 0000 1234 5678 9012"
        )
        + button(pay, "Zapłać teraz", bg="#6a1b9a")
        + p(a(pdf_url, "Pobierz fakturę (PDF)"))
    )
    c.html = std(c, body, brand="Play", accent="#6a1b9a", lines=["P4 sp. z o.o., Warszawa"])
    c.text = auto_text(c.html)


@case("pl", "negative", "password-changed alert: 'To nie Ty? Skontaktuj się z nami' and account overview link")
def pl_b19_neg_zmiana_hasla(c: Case) -> None:
    c.sender = "Empik <konto@empik.example>"
    c.subject = "Hasło do konta zostało zmienione"
    contact = c.never("https://www.empik.example/pomoc/kontakt?temat=bezpieczenstwo")
    account = c.never("https://www.empik.example/moje-konto")
    c.never("14.03.2025", "198.51.100.4")
    body = (
        p("Cześć Kasia,")
        + p("Hasło do Twojego konta zostało zmienione 14.03.2025 o 12:03 (IP 198.51.100.4).")
        + p(
            f"To nie Ty? {a(contact, 'Skontaktuj się z nami')}. Szczegóły znajdziesz na stronie {a(account, 'Moje konto')}."
        )
    )
    c.html = std(c, body, brand="Empik", accent="#e30613", lines=["Empik S.A., Warszawa"])
    c.text = auto_text(c.html)


# Turkish


@case(
    "tr",
    "code",
    "Garanti BBVA doğrulama kodu; 'Şifremi unuttum', security settings and help links",
    charset="ISO-8859-9",
    html_cte="quoted-printable",
)
def tr_b19_garanti_dogrulama_kodu(c: Case) -> None:
    c.sender = "Garanti BBVA <bilgilendirme@garantibbva.example>"
    c.subject = "Doğrulama kodunuz"
    c.codes = ["817304"]
    forgot = c.never("https://sube.garantibbva.example/isube/sifremi-unuttum")
    sec = c.never("https://sube.garantibbva.example/isube/guvenlik-ayarlari")
    help_url = c.never("https://www.garantibbva.example/yardim")
    c.never("444 0 333", "4440333")
    body = (
        p("Sayın Ayşe Yılmaz,")
        + p("İnternet Şubesi girişiniz için doğrulama kodunuz:")
        + big("817304")
        + p("Kod 3 dakika geçerlidir. Kodu kimseyle paylaşmayınız.")
        + p(f"{a(forgot, 'Şifremi unuttum')} | {a(sec, 'Güvenlik ayarları')} | {a(help_url, 'Yardım')} 444 0 333")
    )
    c.html = std(c, body, brand="Garanti BBVA", accent="#00854a", lines=["T. Garanti Bankası A.Ş., İstanbul"])
    c.text = auto_text(c.html)


@case("tr", "link", "Hepsiburada: SendGrid opaque URL, intent only in 'E-posta adresimi onayla'")
def tr_b19_hepsiburada_onayla_sendgrid(c: Case) -> None:
    c.sender = "Hepsiburada <bilgi@hepsiburada.example>"
    c.subject = "E-posta adresinizi onaylayın"
    url = b19_trk(c, "sendgrid", "hepsiburada.example", "confirm")
    c.links = [url]
    help_url = c.never(b19_trk(c, "sendgrid", "hepsiburada.example", "help"))
    body = (
        p("Merhaba Ayşe,")
        + p("Üyeliğini tamamlamak için e-posta adresini onayla.")
        + button(url, "E-posta adresimi onayla", bg="#ff6000")
        + p(f"{a(help_url, 'Yardım merkezi')}")
    )
    c.html = std(
        c, body, brand="Hepsiburada", accent="#ff6000", lines=["D-Market Elektronik Hizmetler ve Ticaret A.Ş."]
    )
    c.text = auto_text(c.html)


@case(
    "tr",
    "link",
    "Getir password reset with a Turkish path /sifre-sifirla, windows-1254 QP",
    charset="windows-1254",
    html_cte="quoted-printable",
)
def tr_b19_getir_sifre_sifirla(c: Case) -> None:
    c.sender = "Getir <destek@getir.example>"
    c.subject = "Şifre sıfırlama talebiniz"
    url = f"https://getir.example/hesap/sifre-sifirla?token={c.t('t', 40, 'b62')}"
    c.links = [url]
    c.never("0850 532 50 50", "08505325050")
    body = (
        p("Merhaba,")
        + p("Şifreni sıfırlamak için aşağıdaki bağlantıya tıkla. Bağlantı 1 saat geçerlidir.")
        + p(a(url, "Yeni şifre belirle"))
        + p("Bu talebi sen yapmadıysan bu e-postayı dikkate alma. Destek: 0850 532 50 50")
    )
    c.html = plain_html(body)
    c.text = auto_text(c.html)


@case("tr", "code", "Turkcell: the previous code is void, phone and customer numbers beside the new code")
def tr_b19_turkcell_onceki_kod(c: Case) -> None:
    c.sender = "Turkcell <bilgi@turkcell.example>"
    c.subject = "Yeni doğrulama kodunuz"
    c.codes = ["4417"]
    c.never("9082", "0532 123 45 67", "05321234567", "10048213", "532")
    c.text = dedent("""\
        Değerli müşterimiz,

        Önceki kodunuz (9082) geçersiz kılındı.
        Hesabım girişi için yeni doğrulama kodunuz: 4417

        Hat: 0532 123 45 67
        Müşteri no: 10048213

        Turkcell
        """)


@case(
    "tr",
    "negative",
    "THY ticket: 'PNR kodu' and e-ticket number are booking codes; online check-in link",
    charset="ISO-8859-9",
    text_cte="base64",
)
def tr_b19_neg_ucak_bileti(c: Case) -> None:
    c.sender = "Turkish Airlines <noreply@thy.example>"
    c.subject = "Rezervasyonunuz onaylandı - PNR X4K7QB"
    checkin = c.never("https://www.thy.example/tr-tr/online-check-in/?pnr=X4K7QB&soyad=YILMAZ")
    c.never("X4K7QB", "2352148203917", "TK2124", "2124", "1.849,00", "184900", "14.03.2025")
    c.text = dedent(f"""\
        Sayın Ayşe Yılmaz,

        Rezervasyonunuz onaylandı.
        PNR kodu: X4K7QB
        E-bilet numarası: 2352148203917
        Uçuş: TK2124, 14.03.2025, İstanbul - Ankara
        Ücret: 1.849,00 TL

        Online check-in: {checkin}
        """)


@case("tr", "negative", "new sign-in alert: 'Bu siz değil miydiniz? Hesabınızı koruyun', device and IP")
def tr_b19_neg_yeni_giris(c: Case) -> None:
    c.sender = "Trendyol <guvenlik@trendyol.example>"
    c.subject = "Hesabınıza yeni bir cihazdan giriş yapıldı"
    secure = c.never(b19_trk(c, "braze", "trendyol.example", "secure"))
    c.never("203.0.113.201", "14.03.2025")
    body = (
        p("Merhaba Ayşe,")
        + p(
            "14.03.2025 22:05 tarihinde hesabına yeni bir cihazdan giriş yapıldı: Chrome, Windows, İzmir (IP 203.0.113.201)."
        )
        + p(f"Bu sen değil miydin? {a(secure, 'Hesabını koru')}")
    )
    c.html = std(
        c, body, brand="Trendyol", accent="#f27a1a", lines=["DSM Grup Danışmanlık İletişim ve Satış Ticaret A.Ş."]
    )
    c.text = auto_text(c.html)


# Japanese


@case(
    "ja",
    "code",
    "メルカリ 認証番号; password-reminder, security-settings and contact links beside it",
    charset="Shift_JIS",
    html_cte="base64",
)
def ja_b19_mercari_ninsho_links(c: Case) -> None:
    c.sender = "メルカリ <no-reply@mercari.example>"
    c.subject = "【メルカリ】認証番号のお知らせ"
    c.codes = ["602915"]
    forgot = c.never("https://jp.mercari.example/password/reset")
    sec = c.never("https://jp.mercari.example/mypage/security")
    contact = c.never("https://help.jp.mercari.example/contact/")
    body = (
        p("山田太郎 様")
        + p("ログインのための認証番号は以下のとおりです。")
        + big("602915")
        + p("認証番号の有効期限は10分です。第三者には絶対に教えないでください。")
        + p(f"{a(forgot, 'パスワードをお忘れの方')}<br>{a(sec, 'セキュリティ設定')}<br>{a(contact, 'お問い合わせ')}")
    )
    c.html = std(
        c,
        body,
        brand="メルカリ",
        accent="#ff0211",
        lines=["株式会社メルカリ 〒106-6118 東京都港区六本木6-10-1"],
        decoys=["106-6118", "1066118"],
    )
    c.text = auto_text(c.html)


@case("ja", "link", "楽天 sign-in link whose path is percent-encoded ログイン; ISO-2022-JP", charset="ISO-2022-JP")
def ja_b19_rakuten_login_path(c: Case) -> None:
    c.sender = "楽天会員 <member@rakuten.example>"
    c.subject = "ログイン用リンクのお知らせ"
    url = f"https://my.rakuten.example/%E3%83%AD%E3%82%B0%E3%82%A4%E3%83%B3/email?t={c.t('t', 48)}"
    c.links = [url]
    help_url = c.never("https://ichiba.faq.rakuten.example/")
    c.html = plain_html(
        p("山田太郎 様")
        + p("以下のリンクをクリックしてログインしてください。リンクの有効期限は15分です。")
        + p(a(url, "ログインする"))
        + p(f"お心当たりがない場合は、このメールを破棄してください。{a(help_url, 'よくある質問')}")
    )
    c.text = f"山田太郎 様\n\n以下のURLからログインしてください（有効期限15分）。\n{url}\n\nよくある質問：{help_url}\n"


@case("ja", "code", "Yahoo! JAPAN 確認コード: the earlier code is void; order and inquiry numbers near it")
def ja_b19_yahoo_kakunin_code_mae(c: Case) -> None:
    c.sender = "Yahoo! JAPAN <no-reply@yahoo.example.jp>"
    c.subject = "確認コードのお知らせ"
    c.codes = ["318406"]
    c.never("770512", "store-48291377", "48291377", "3,980", "3980", "0570-00-2010", "0570002010")
    c.text = dedent("""\
        Yahoo! JAPAN IDをご利用いただきありがとうございます。

        先ほどお送りした確認コード（770512）は無効になりました。
        新しい確認コード：318406

        ご注文番号：store-48291377（お支払い金額 3,980円）のお手続きに使用します。
        有効期限は30分です。

        お問い合わせ：0570-00-2010
        """)


@case(
    "ja",
    "code",
    "三井住友銀行 ワンタイムパスワード for a transfer: amount, account and 受付番号 decoys",
    charset="EUC-JP",
    text_cte="base64",
)
def ja_b19_smbc_onetime_furikomi(c: Case) -> None:
    c.sender = "三井住友銀行 <info@smbc.example.jp>"
    c.subject = "ワンタイムパスワードのご案内"
    c.codes = ["49207316"]
    c.never("150,000", "150000", "1234567", "2025031400482", "0120-56-3143", "0120563143")
    c.text = dedent("""\
        山田太郎 様

        お振込のお手続きを受け付けました。
        振込金額：150,000円
        振込先口座：普通 1234567
        受付番号：2025031400482

        ワンタイムパスワード：49207316

        有効期限は5分です。
        SMBCダイレクト 0120-56-3143
        """)


@case("ja", "negative", "注文確認: 注文番号, 伝票番号, amount, 配送状況 link; no code", html_cte="quoted-printable")
def ja_b19_neg_chumon(c: Case) -> None:
    c.sender = "ヨドバシ・ドット・コム <order@yodobashi.example>"
    c.subject = "ご注文ありがとうございます（注文番号 2503147720）"
    track = c.never("https://www.yodobashi.example/ec/support/delivery/?slip=482913770519")
    c.never("2503147720", "482913770519", "12,800", "12800", "2025/03/16")
    body = (
        p("山田太郎 様")
        + p(
            "ご注文番号：2503147720<br>お支払い金額：12,800円<br>配送業者：ヤマト運輸 伝票番号：482913770519<br>お届け予定日：2025/03/16"
        )
        + button(track, "配送状況を確認する", bg="#cc0000")
    )
    c.html = std(c, body, brand="ヨドバシ", accent="#cc0000", lines=["株式会社ヨドバシカメラ"])
    c.text = auto_text(c.html)


@case("ja", "negative", "ログイン通知: 'お心当たりがない場合はアカウントを保護' and history links, IP and time")
def ja_b19_neg_login_tsuchi(c: Case) -> None:
    c.sender = "PayPay <no-reply@paypay.example>"
    c.subject = "【PayPay】新しい端末からのログイン"
    secure = c.never("https://paypay.example/account/security/protect")
    history = c.never("https://paypay.example/account/login-history")
    c.never("192.0.2.218", "2025/03/14")
    body = (
        p("2025/03/14 23:10 に新しい端末からログインがありました。<br>端末：iPhone<br>IPアドレス：192.0.2.218")
        + p(f"お心当たりがない場合は、{a(secure, 'アカウントを保護する')}から手続きしてください。")
        + p(a(history, "ログイン履歴を確認する"))
    )
    c.html = std(c, body, brand="PayPay", accent="#ff0033", lines=["PayPay株式会社"])
    c.text = auto_text(c.html)


# Korean


@case(
    "ko",
    "code",
    "네이버 인증번호; 비밀번호 찾기, 보안 설정 and 고객센터 links beside it",
    charset="EUC-KR",
    html_cte="base64",
)
def ko_b19_naver_injeung_links(c: Case) -> None:
    c.sender = "네이버 <no-reply@navercorp.example>"
    c.subject = "[네이버] 인증번호 안내"
    c.codes = ["735019"]
    forgot = c.never("https://nid.naver.example/user2/help/pwInquiry")
    sec = c.never("https://nid.naver.example/user2/help/myInfo?m=viewSecurity")
    cs = c.never("https://help.naver.example/")
    c.never("1588-3820", "15883820")
    body = (
        p("안녕하세요, 홍길동님.")
        + p("요청하신 인증번호를 알려드립니다.")
        + big("735019")
        + p("인증번호는 3분 동안 유효합니다.")
        + p(f"{a(forgot, '비밀번호 찾기')} | {a(sec, '보안 설정')} | {a(cs, '고객센터')} 1588-3820")
    )
    c.html = std(c, body, brand="NAVER", accent="#03c75a", lines=["네이버 주식회사"])
    c.text = auto_text(c.html)


@case("ko", "link", "쿠팡: Braze tracked URL, intent only in '이메일 인증하기'")
def ko_b19_coupang_injeung_braze(c: Case) -> None:
    c.sender = "쿠팡 <no-reply@coupang.example>"
    c.subject = "이메일 인증을 완료해 주세요"
    url = b19_trk(c, "braze", "coupang.example", "verify")
    c.links = [url]
    unsub = c.never(b19_trk(c, "braze", "coupang.example", "unsub"))
    body = (
        p("홍길동님, 쿠팡 가입을 환영합니다.")
        + p("아래 버튼을 눌러 이메일 인증을 완료해 주세요.")
        + button(url, "이메일 인증하기", bg="#346aff")
        + b19_small(a(unsub, "수신거부"))
    )
    c.html = std(c, body, brand="쿠팡", accent="#346aff", lines=["쿠팡 주식회사"])
    c.text = auto_text(c.html)


@case("ko", "link", "토스 magic sign-in with a percent-encoded Korean path (로그인)")
def ko_b19_toss_login_path(c: Case) -> None:
    c.sender = "토스 <no-reply@toss.example>"
    c.subject = "토스 로그인 링크"
    url = f"https://toss.example/%EB%A1%9C%EA%B7%B8%EC%9D%B8/email?token={c.t('t', 48)}"
    c.links = [url]
    cs = c.never("https://toss.example/cs")
    c.never("1599-4905", "15994905")
    body = (
        p("아래 버튼을 누르면 토스 비즈니스에 로그인됩니다. 링크는 10분 동안 한 번만 쓸 수 있어요.")
        + button(url, "로그인", bg="#3182f6")
        + p(f"요청하지 않으셨다면 무시하세요. {a(cs, '고객센터')} 1599-4905")
    )
    c.html = std(c, body, brand="토스", accent="#3182f6", lines=["비바리퍼블리카"])
    c.text = auto_text(c.html)


@case(
    "ko", "code", "11번가 인증번호: earlier code void; 주문번호 and 결제금액 decoys", charset="EUC-KR", text_cte="8bit"
)
def ko_b19_11st_injeung_jumun(c: Case) -> None:
    c.sender = "11번가 <no-reply@11st.example>"
    c.subject = "[11번가] 결제 인증번호"
    c.codes = ["290471"]
    c.never("664028", "202503144829137", "39,800", "39800", "1599-0110", "15990110")
    c.text = dedent("""\
        홍길동 고객님,

        이전에 발송된 인증번호(664028)는 더 이상 사용할 수 없습니다.

        결제 인증번호: 290471

        주문번호: 202503144829137
        결제금액: 39,800원

        고객센터 1599-0110
        """)


@case("ko", "negative", "배송 출발: 운송장번호, 주문번호, 'Track' link; no code")
def ko_b19_neg_baesong(c: Case) -> None:
    c.sender = "마켓컬리 <noreply@kurly.example>"
    c.subject = "주문하신 상품이 배송을 시작했어요"
    track = c.never("https://www.kurly.example/mypage/order/48291377/delivery")
    c.never("48291377", "6412-3890-1172", "641238901172", "52,300", "52300")
    body = (
        p("홍길동님, 주문하신 상품이 출발했어요.")
        + p("주문번호: 48291377<br>운송장번호: 6412-3890-1172 (CJ대한통운)<br>결제금액: 52,300원")
        + button(track, "배송 조회", bg="#5f0080")
    )
    c.html = std(c, body, brand="컬리", accent="#5f0080", lines=["주식회사 컬리"])
    c.text = auto_text(c.html)


@case(
    "ko",
    "negative",
    "새 기기 로그인 알림: '본인이 아니라면 계정 보호하기' and login history links",
    charset="EUC-KR",
    html_cte="quoted-printable",
)
def ko_b19_neg_new_login(c: Case) -> None:
    c.sender = "카카오 <noreply@kakaocorp.example>"
    c.subject = "새로운 기기에서 로그인했어요"
    secure = c.never("https://accounts.kakao.example/weblogin/account/protect")
    history = c.never("https://accounts.kakao.example/weblogin/account/history")
    c.never("203.0.113.150", "2025.03.14")
    body = (
        p("2025.03.14 20:31 새로운 기기(Galaxy S24, IP 203.0.113.150)에서 카카오계정에 로그인했어요.")
        + p(f"본인이 아니라면 {a(secure, '계정 보호하기')}")
        + p(a(history, "로그인 기록 보기"))
    )
    c.html = std(c, body, brand="kakao", accent="#fee500", lines=["(주)카카오"])
    c.text = auto_text(c.html)


# Chinese (simplified and traditional)


@case(
    "zh-Hans",
    "code",
    "支付宝 验证码; 忘记密码, 安全中心 and 联系客服 links beside it",
    charset="GB18030",
    html_cte="base64",
)
def zh_hans_b19_alipay_yanzhengma_links(c: Case) -> None:
    c.sender = "支付宝 <service@mail.alipay.example>"
    c.subject = "【支付宝】您的验证码"
    c.codes = ["571930"]
    forgot = c.never("https://auth.alipay.example/login/findPassword.htm")
    sec = c.never("https://securitycenter.alipay.example/sc/index.htm")
    cs = c.never("https://cshall.alipay.example/lab/help_index.htm")
    c.never("95188")
    body = (
        p("尊敬的用户：")
        + p("您正在进行邮箱验证，本次验证码为：")
        + big("571930")
        + p("验证码15分钟内有效，请勿泄露给他人。")
        + p(f"{a(forgot, '忘记密码')} | {a(sec, '安全中心')} | {a(cs, '联系客服')} 95188")
    )
    c.html = std(c, body, brand="支付宝", accent="#1677ff", lines=["支付宝（中国）网络技术有限公司"])
    c.text = auto_text(c.html)


@case(
    "zh-Hans",
    "code",
    "京东 验证码: the earlier code expired; 订单号 and amount decoys",
    charset="GB2312",
    text_cte="8bit",
)
def zh_hans_b19_jd_dingdan_yanzhengma(c: Case) -> None:
    c.sender = "京东 <jd@jd.example>"
    c.subject = "京东账户验证码"
    c.codes = ["830274"]
    c.never("419305", "302948177120", "1,299.00", "129900", "950618")
    c.text = dedent("""\
        尊敬的京东用户：

        您之前获取的验证码419305已失效。
        新的验证码：830274（5分钟内有效）

        该验证码用于订单302948177120（金额1,299.00元）的支付确认。
        如非本人操作，请致电客服950618。
        """)


@case(
    "zh-Hans", "link", "飞书 sign-in through an Amazon SES awstrack.me redirect; anchor '登录飞书'", html_cte="base64"
)
def zh_hans_b19_feishu_denglu_ses(c: Case) -> None:
    c.sender = "飞书 <no-reply@feishu.example>"
    c.subject = "飞书登录链接"
    url = b19_trk(c, "ses", "feishu.example", "login")
    c.links = [url]
    help_url = c.never(b19_trk(c, "ses", "feishu.example", "help"))
    body = (
        p("你好，张伟：")
        + p("点击下方按钮即可登录飞书，链接10分钟内有效，仅可使用一次。")
        + button(url, "登录飞书", bg="#3370ff")
        + p(f"如非本人操作，请忽略本邮件。{a(help_url, '帮助中心')}")
    )
    c.html = std(c, body, brand="飞书", accent="#3370ff", lines=["北京飞书科技有限公司"])
    c.text = auto_text(c.html)


@case(
    "zh-Hans",
    "link",
    "哔哩哔哩 e-mail verification with a pinyin path /yanzheng/youxiang; text copy has utm_* (same target)",
)
def zh_hans_b19_bilibili_yanzheng_path(c: Case) -> None:
    c.sender = "哔哩哔哩 <noreply@bilibili.example>"
    c.subject = "请验证你的邮箱"
    url = f"https://passport.bilibili.example/yanzheng/youxiang?code_token={c.t('t', 40, 'hex')}"
    utm = f"{url}&utm_source=mail&utm_medium=verify"
    c.links = [url, utm]
    body = (
        p("亲爱的用户：") + p("请点击下面的按钮完成邮箱验证（24小时内有效）：") + button(url, "验证邮箱", bg="#fb7299")
    )
    c.html = std(c, body, brand="bilibili", accent="#fb7299", lines=["上海宽娱数码科技有限公司"])
    c.text = f"亲爱的用户：\n\n请复制以下链接到浏览器完成邮箱验证（24小时内有效）：\n{utm}\n"


@case(
    "zh-Hans",
    "negative",
    "电子发票: 发票代码 and 发票号码 ('代码' = code) and 校验码 are invoice identifiers, not one-time codes",
)
def zh_hans_b19_neg_fapiao_daima(c: Case) -> None:
    c.sender = "诺诺发票 <fapiao@nuonuo.example>"
    c.subject = "您收到一张电子发票"
    dl = c.never(f"https://fp.nuonuo.example/download?fpdm=031002400111&fphm=48291377&k={c.t('k', 16, 'hex')}")
    c.never(
        "031002400111",
        "48291377",
        "71930 48213 55902 71046",
        "71930482135590271046",
        "256.00",
        "25600",
        "91310000MA1FL4X82K",
    )
    body = (
        p("尊敬的客户：您好！")
        + p(
            "发票代码：031002400111<br>发票号码：48291377<br>校验码：71930 48213 55902 71046<br>价税合计：¥256.00<br>销方税号：91310000MA1FL4X82K"
        )
        + button(dl, "下载发票", bg="#e60012")
    )
    c.html = std(c, body, brand="诺诺", accent="#e60012", lines=["浙江爱信诺航天信息有限公司"])
    c.text = auto_text(c.html)


@case(
    "zh-Hans",
    "negative",
    "新设备登录提醒: '不是本人操作？保护账号' and login-history links",
    charset="GB18030",
    html_cte="quoted-printable",
)
def zh_hans_b19_neg_denglu_tixing(c: Case) -> None:
    c.sender = "网易邮箱 <security@service.netease.example>"
    c.subject = "账号在新设备登录提醒"
    secure = c.never("https://aq.163.example/protect?from=mail")
    history = c.never("https://aq.163.example/loginhistory")
    c.never("198.51.100.210", "2025-03-14")
    body = (
        p("您的账号于2025-03-14 19:22在新设备（Windows，杭州，IP 198.51.100.210）登录。")
        + p(f"不是本人操作？{a(secure, '立即保护账号')}")
        + p(a(history, "查看登录记录"))
    )
    c.html = std(c, body, brand="网易", accent="#d0021b", lines=["网易公司"])
    c.text = auto_text(c.html)


@case(
    "zh-Hant", "code", "國泰世華 驗證碼; 忘記密碼, 安全設定 and 客服 links beside it", charset="Big5", html_cte="base64"
)
def zh_hant_b19_cathay_yanzhengma_links(c: Case) -> None:
    c.sender = "國泰世華銀行 <service@cathaybk.example>"
    c.subject = "國泰世華 網路銀行驗證碼"
    c.codes = ["406285"]
    forgot = c.never("https://www.cathaybk.example/MyBank/ForgetPassword")
    sec = c.never("https://www.cathaybk.example/MyBank/Security/Settings")
    cs = c.never("https://www.cathaybk.example/cathaybk/service/contact-us/")
    c.never("(02)2383-1000", "0223831000")
    body = (
        p("親愛的客戶您好：")
        + p("您的網路銀行登入驗證碼為：")
        + big("406285")
        + p("驗證碼將於5分鐘後失效，請勿提供給他人。")
        + p(f"{a(forgot, '忘記密碼')} | {a(sec, '安全設定')} | {a(cs, '聯絡客服')} (02)2383-1000")
    )
    c.html = std(c, body, brand="國泰世華", accent="#00a29a", lines=["國泰世華商業銀行"])
    c.text = auto_text(c.html)


@case("zh-Hant", "link", "蝦皮 TW: SendGrid opaque URL, intent only in '驗證電子郵件'")
def zh_hant_b19_shopee_yanzheng_sendgrid(c: Case) -> None:
    c.sender = "蝦皮購物 <info@mail.shopee.example.tw>"
    c.subject = "請驗證您的電子郵件"
    url = b19_trk(c, "sendgrid", "shopee.example.tw", "verify")
    c.links = [url]
    help_url = c.never(b19_trk(c, "sendgrid", "shopee.example.tw", "help"))
    body = (
        p("親愛的用戶您好，")
        + p("請點擊下方按鈕驗證您的電子郵件地址。")
        + button(url, "驗證電子郵件", bg="#ee4d2d")
        + p(f"需要協助嗎？{a(help_url, '幫助中心')}")
    )
    c.html = std(c, body, brand="蝦皮", accent="#ee4d2d", lines=["新加坡商蝦皮娛樂電商有限公司台灣分公司"])
    c.text = auto_text(c.html)


@case("zh-Hant", "code", "LINE Pay 一次性密碼 beside 訂單編號 and 交易金額", charset="Big5", text_cte="base64")
def zh_hant_b19_linepay_otp_dingdan(c: Case) -> None:
    c.sender = "LINE Pay <noreply@linepay.example>"
    c.subject = "LINE Pay 交易驗證"
    c.codes = ["73920158"]
    c.never("2025031448291377", "NT$1,280", "1,280", "1280", "02-2326-3298", "0223263298")
    c.text = dedent("""\
        親愛的用戶您好：

        訂單編號：2025031448291377
        交易金額：NT$1,280

        您的一次性密碼：73920158

        密碼3分鐘內有效。客服專線：02-2326-3298
        """)


@case(
    "zh-Hant", "link", "momo 重設密碼 link with a percent-encoded Chinese path (重設密碼)", html_cte="quoted-printable"
)
def zh_hant_b19_momo_chongshe_path(c: Case) -> None:
    c.sender = "momo購物網 <service@momoshop.example.tw>"
    c.subject = "重設密碼通知"
    url = f"https://www.momoshop.example.tw/member/%E9%87%8D%E8%A8%AD%E5%AF%86%E7%A2%BC?t={c.t('t', 40, 'b62')}"
    c.links = [url]
    c.never("0800-066-666", "0800066666")
    body = (
        p("親愛的會員您好：")
        + p("請點選以下連結重新設定您的密碼（連結30分鐘內有效）：")
        + p(a(url, "立即重設密碼"))
        + p("若非本人操作，請忽略此信。客服專線 0800-066-666")
    )
    c.html = plain_html(body)
    c.text = auto_text(c.html)


@case(
    "zh-Hant",
    "negative",
    "電子發票: 發票號碼 and the 4-digit 隨機碼 (random code) are invoice fields, not one-time codes",
)
def zh_hant_b19_neg_fapiao_suijima(c: Case) -> None:
    c.sender = "財政部電子發票整合服務平台 <einvoice@einvoice.example.tw>"
    c.subject = "電子發票開立通知"
    q = c.never("https://www.einvoice.example.tw/APCONSUMER/BTC605W/?inv=AB48291377")
    c.never("AB-48291377", "AB48291377", "48291377", "4821", "420", "24549210")
    body = (
        p("您好，您有一張電子發票已開立：")
        + p("發票號碼：AB-48291377<br>隨機碼：4821<br>總金額：420元<br>賣方統編：24549210")
        + button(q, "查詢發票明細", bg="#2e7d32")
    )
    c.html = std(c, body, brand="財政部", accent="#2e7d32", lines=["財政部財政資訊中心"])
    c.text = auto_text(c.html)


@case(
    "zh-Hant",
    "negative",
    "台灣高鐵 ticket: 訂位代號 booking code, train and seat, amount; no code to type",
    charset="Big5",
    text_cte="base64",
)
def zh_hant_b19_neg_gaotie_dingwei(c: Case) -> None:
    c.sender = "台灣高鐵 <tickets@thsrc.example.tw>"
    c.subject = "台灣高鐵訂位成功通知（訂位代號 08123456）"
    c.never("08123456", "0817", "1,490", "1490", "2025/03/14")
    c.text = dedent("""\
        王小明 先生/小姐 您好：

        訂位代號：08123456
        車次：0817 台北 08:46 - 左營 10:20
        日期：2025/03/14
        座位：7車 12A
        票價：1,490元

        請於乘車前完成付款取票。
        """)


# English


@case("en", "code", "exchange login code below the user's own anti-phishing code; account links and support in never")
def en_b19_kraken_antiphishing_code(c: Case) -> None:
    c.sender = "Bitvault <do-not-reply@bitvault.example>"
    c.subject = "[Bitvault] Login verification code"
    c.codes = ["604182"]
    sec = c.never("https://www.bitvault.example/account/security")
    lock = c.never(f"https://www.bitvault.example/account/lock?t={c.t('lock', 32)}")
    support = c.never("https://support.bitvault.example/hc/en-us/requests/new")
    c.never("Rx7Lq2", "203.0.113.74", "2025-03-14")
    body = (
        p("<b>Anti-phishing code:</b> Rx7Lq2", "margin:0 0 16px;padding:8px;background:#fff8e1")
        + p(
            "You are trying to log in from a new IP address (203.0.113.74) on 2025-03-14 08:12 UTC. Your verification code is:"
        )
        + big("604182")
        + p("The code is valid for 30 minutes. Bitvault staff will never ask you for it.")
        + p(
            f"Don't recognize this activity? {a(lock, 'Disable your account')} immediately, then review your {a(sec, 'security settings')} or {a(support, 'contact support')}."
        )
    )
    c.html = std(c, body, brand="Bitvault", accent="#f0b90b", lines=["Bitvault Ltd."])
    c.text = auto_text(c.html)


@case(
    "en",
    "link",
    "magic sign-in with a web button and a second 'Open the desktop app' button: the second is an also_link",
)
def en_b19_linear_two_buttons(c: Case) -> None:
    c.sender = "Tracklane <notifications@tracklane.example>"
    c.subject = "Your Tracklane login link"
    t = c.t("t", 40)
    web = f"https://tracklane.example/auth/email/callback?token={t}&client=web"
    app_http = f"https://tracklane.example/auth/email/callback?token={t}&client=desktop"
    c.links = [web]
    c.also_links = [app_http]
    privacy = c.never("https://tracklane.example/privacy")
    body = (
        h1("Log in to Tracklane")
        + p("Click the button below to log in. This link expires in 10 minutes and can only be used once.")
        + button(web, "Log in to Tracklane", bg="#5e6ad2")
        + p(f"Using the desktop app? {a(app_http, 'Log in to the desktop app')}")
    )
    c.html = std(c, body, brand="Tracklane", accent="#5e6ad2", lines=["Tracklane Inc."], links=[("Privacy", privacy)])
    c.text = auto_text(c.html)


@case("en", "code", "support-desk identity check: the code, not the case number or the order number")
def en_b19_support_case_code(c: Case) -> None:
    c.sender = "Northwind Support <support@northwind.example>"
    c.subject = "Re: [Case #04829137] Verify your identity to continue"
    c.codes = ["K4P-9QX", "K4P9QX"]
    portal = c.never("https://help.northwind.example/hc/requests/04829137")
    c.never("04829137", "NW-2025-771204", "2025771204", "1-800-555-0142", "8005550142")
    c.text = dedent(f"""\
        Hi Jane,

        Thanks for contacting Northwind Support about order NW-2025-771204.

        Before we can discuss your account, please read this one-time verification code to the agent
        (or reply with it):

            K4P-9QX

        The code expires in 20 minutes.

        View your case: {portal}
        Case #04829137 | Phone: 1-800-555-0142

        Northwind Support
        """)


@case(
    "en",
    "link",
    "Mandrill reset: HTML button and text part carry different tracking URLs for the same reset (also_link)",
)
def en_b19_mandrill_reset_two_wrappers(c: Case) -> None:
    c.sender = "Pagecraft <no-reply@pagecraft.example>"
    c.subject = "Reset your Pagecraft password"
    btn = b19_trk(c, "mandrill", "pagecraft.example", "reset-html")
    txt = b19_trk(c, "mandrill", "pagecraft.example", "reset-text")
    c.links = [btn]
    c.also_links = [txt]
    help_url = c.never(b19_trk(c, "mandrill", "pagecraft.example", "help"))
    body = (
        p("Hi Jane,")
        + p("Someone asked to reset the password for your Pagecraft account. If it was you, click below:")
        + button(btn, "Reset password", bg="#ff5a5f")
        + p(f"If you didn't ask, ignore this email. Questions? {a(help_url, 'Visit our help center')}.")
    )
    c.html = std(
        c,
        body,
        brand="Pagecraft",
        accent="#ff5a5f",
        lines=["Pagecraft, 2261 Market St #4521, San Francisco, CA 94114"],
        decoys=["94114", "4521"],
    )
    c.text = f"Hi Jane,\n\nSomeone asked to reset the password for your Pagecraft account. If it was you, open:\n{txt}\n\nHelp: {help_url}\n"


@case("en", "code", "hub pairing mail with two labelled codes (one per device): the second is an also_code")
def en_b19_two_device_pairing_codes(c: Case) -> None:
    c.sender = "Hearthly Home <noreply@hearthly.example>"
    c.subject = "Your pairing codes"
    c.codes = ["48217702", "4821-7702"]
    c.also_codes = ["66301945", "6630-1945"]
    manage = c.never("https://home.hearthly.example/devices")
    c.never("HH-2203-8841", "22038841", "HH-2203-9017", "22039017")
    body = (
        p("Hi Jane,")
        + p("You are adding two hubs to your home. Enter each code on the matching hub within 15 minutes:")
        + '<table style="font-size:15px;margin:0 0 16px"><tr><td>Living room hub (serial HH-2203-8841)</td><td style="padding-left:16px;font-family:monospace;font-size:20px"><b>4821-7702</b></td></tr>'
        '<tr><td>Garage hub (serial HH-2203-9017)</td><td style="padding-left:16px;font-family:monospace;font-size:20px"><b>6630-1945</b></td></tr></table>'
        + p(f"{a(manage, 'Manage your devices')}")
    )
    c.html = std(c, body, brand="Hearthly", accent="#ff7a00", lines=["Hearthly Inc."])
    c.text = auto_text(c.html)


@case("en", "link", "Amazon SES awstrack.me redirect with 'Verify email address' anchor; FAQ and terms links")
def en_b19_ses_verify_email(c: Case) -> None:
    c.sender = "Roomly <hello@roomly.example>"
    c.subject = "Please verify your email"
    url = b19_trk(c, "ses", "roomly.example", "verify")
    c.links = [url]
    faq = c.never(b19_trk(c, "ses", "roomly.example", "faq"))
    terms = c.never(b19_trk(c, "ses", "roomly.example", "terms"))
    body = (
        h1("One more step")
        + p("Verify your email so hosts can reach you about your stays.")
        + button(url, "Verify email address", bg="#00a699")
        + b19_small(f"{a(faq, 'FAQ')} &middot; {a(terms, 'Terms of Service')}")
    )
    c.html = std(c, body, brand="Roomly", accent="#00a699", lines=["Roomly, Inc."])
    c.text = auto_text(c.html)


@case(
    "en",
    "code",
    "sign-up code mail whose footer advertises a promo code WELCOME15",
    charset="windows-1252",
    html_cte="quoted-printable",
)
def en_b19_code_and_promo_footer(c: Case) -> None:
    c.sender = "Freshbox <hello@freshbox.example>"
    c.subject = "Your Freshbox verification code"
    c.codes = ["5903"]
    shop = c.never(b19_trk(c, "braze", "freshbox.example", "shop"))
    c.never("WELCOME15", "2025")
    body = (
        p("Welcome to Freshbox!")
        + p("Enter this code in the app to verify your email:")
        + big("5903")
        + p("It’s valid for 10 minutes.")
        + b19_small(f"New here? Use promo code <b>WELCOME15</b> for 15% off your first box. {a(shop, 'Browse menus')}")
    )
    c.html = std(c, body, brand="Freshbox", accent="#7ab317", lines=["© 2025 Freshbox Ltd."])
    c.text = auto_text(c.html)


@case("en", "negative", "password-changed notice: 'Wasn't you? Secure your account' and support are not actions to use")
def en_b19_neg_password_changed_secure(c: Case) -> None:
    c.sender = "Streamly <account@streamly.example>"
    c.subject = "Your password was changed"
    secure = c.never(b19_trk(c, "sendgrid", "streamly.example", "secure"))
    support = c.never("https://help.streamly.example/contact")
    c.never("198.51.100.61", "2025")
    body = (
        p("Hi Jane,")
        + p(
            "The password for your Streamly account was changed on March 14, 2025 at 9:41 AM from Safari on macOS (198.51.100.61)."
        )
        + p(f"Wasn't you? {a(secure, 'Secure your account')} or {a(support, 'contact us')}.")
    )
    c.html = std(c, body, brand="Streamly", accent="#e50914", lines=["Streamly, Inc."])
    c.text = auto_text(c.html)


@case("en", "negative", "boarding pass: 'Confirmation code' is a booking locator; flight, seat, gate, check-in links")
def en_b19_neg_boarding_confirmation_code(c: Case) -> None:
    c.sender = "Skyward Airlines <noreply@skyward.example>"
    c.subject = "Your boarding pass - Confirmation code X7KQ2M"
    bp = c.never(f"https://www.skyward.example/checkin/boardingpass?pnr=X7KQ2M&ln=DOE&k={c.t('k', 16, 'hex')}")
    manage = c.never("https://www.skyward.example/trips/manage?pnr=X7KQ2M")
    c.never("X7KQ2M", "SW 1482", "1482", "0062481937204", "14B", "B22", "2025")
    body = (
        p("Hi JANE DOE,")
        + p(
            "Confirmation code: <b>X7KQ2M</b><br>Flight SW 1482 · Mar 14, 2025 · SFO 07:05 → SEA 09:12<br>Seat 14B · Gate B22 · Boarding 06:25<br>Ticket number 0062481937204"
        )
        + button(bp, "View boarding pass", bg="#0033a0")
        + p(a(manage, "Manage trip"))
    )
    c.html = std(c, body, brand="Skyward", accent="#0033a0", lines=["Skyward Airlines"])
    c.text = auto_text(c.html)


@case("en", "negative", "newsletter with 'Confirm your subscription preferences' footer, many links and prices")
def en_b19_neg_newsletter_confirm_prefs(c: Case) -> None:
    c.sender = "The Daily Ledger <newsletter@ledger.example>"
    c.subject = "Morning Brief: markets, March 14"
    stories = [c.never(b19_trk(c, "mailgun", "ledger.example", f"s{i}")) for i in range(5)]
    prefs = c.never(b19_trk(c, "mailgun", "ledger.example", "prefs"))
    unsub = c.never(b19_trk(c, "mailgun", "ledger.example", "unsub"))
    view = c.never(b19_trk(c, "mailgun", "ledger.example", "view"))
    c.never("5,614.22", "561422", "41,870", "41870", "2025", "10001")
    body = (
        p(a(view, "View in browser"), "font-size:12px")
        + h1("Morning Brief")
        + p(f"S&amp;P 500 closed at 5,614.22; Dow at 41,870. {a(stories[0], 'Read more')}")
        + p(
            f"{a(stories[1], 'Rates: what the Fed said')}<br>{a(stories[2], 'Earnings calendar')}<br>{a(stories[3], 'Opinion')}<br>{a(stories[4], 'Podcast')}"
        )
        + b19_small(
            f"{a(prefs, 'Confirm your subscription preferences')} · {a(unsub, 'Unsubscribe')} · The Daily Ledger, New York, NY 10001"
        )
    )
    c.html = std(c, body, brand="The Daily Ledger", accent="#222222", lines=["© 2025 Ledger Media"])
    c.text = auto_text(c.html)


# Danish


@case(
    "da",
    "code",
    "Lunar bekræftelseskode; 'Glemt adgangskode?', security settings and contact links",
    charset="ISO-8859-1",
    html_cte="quoted-printable",
)
def da_b19_lunar_bekraeftelseskode(c: Case) -> None:
    c.sender = "Lunar <noreply@lunar.example>"
    c.subject = "Din bekræftelseskode"
    c.codes = ["370915"]
    forgot = c.never("https://app.lunar.example/da/glemt-adgangskode")
    sec = c.never("https://app.lunar.example/da/indstillinger/sikkerhed")
    contact = c.never("https://www.lunar.example/da/kontakt/")
    c.never("39 10 07 00", "39100700", "35542027")
    body = (
        p("Hej Mette,")
        + p("Her er din bekræftelseskode til at logge ind:")
        + big("370915")
        + p("Koden udløber om 10 minutter. Del den aldrig med andre.")
        + p(
            f"{a(forgot, 'Glemt adgangskode?')} &middot; {a(sec, 'Sikkerhedsindstillinger')} &middot; {a(contact, 'Kontakt os')} på 39 10 07 00"
        )
    )
    c.html = std(c, body, brand="Lunar", accent="#000000", lines=["Lunar Bank A/S, CVR 35542027, Aarhus"])
    c.text = auto_text(c.html)


@case("da", "link", "DBA: SendGrid opaque URL, intent only in 'Bekræft din e-mail'")
def da_b19_dba_bekraeft_sendgrid(c: Case) -> None:
    c.sender = "DBA <noreply@dba.example>"
    c.subject = "Bekræft din e-mailadresse"
    url = b19_trk(c, "sendgrid", "dba.example", "confirm")
    c.links = [url]
    help_url = c.never(b19_trk(c, "sendgrid", "dba.example", "help"))
    body = (
        p("Hej Mette,")
        + p("Tak fordi du oprettede en profil. Bekræft din e-mail for at komme i gang.")
        + button(url, "Bekræft din e-mail", bg="#0f3c7d")
        + p(f"Brug for hjælp? {a(help_url, 'Hjælpecenter')}")
    )
    c.html = std(c, body, brand="DBA", accent="#0f3c7d", lines=["DBA ApS, København"])
    c.text = auto_text(c.html)


@case(
    "da",
    "link",
    "Danish reset path /nulstil-adgangskode/, plain text ISO-8859-15",
    charset="ISO-8859-15",
    text_cte="quoted-printable",
)
def da_b19_nulstil_adgangskode(c: Case) -> None:
    c.sender = "Coop <noreply@coop.example>"
    c.subject = "Nulstil din adgangskode"
    url = f"https://medlem.coop.example/nulstil-adgangskode/{c.t('t', 40, 'hex')}"
    c.links = [url]
    c.never("43 86 20 20", "43862020")
    c.text = dedent(f"""\
        Hej Mette,

        Du har bedt om at nulstille din adgangskode. Vælg en ny adgangskode her:

        {url}

        Linket virker i 60 minutter. Har du ikke bedt om det, kan du se bort fra denne e-mail.

        Coop Medlemsservice: 43 86 20 20
        """)


@case("da", "code", "Netto+ login code beside member number and a postcode", charset="windows-1252", text_cte="8bit")
def da_b19_netto_kode_medlemsnummer(c: Case) -> None:
    c.sender = "Netto+ <noreply@netto.example>"
    c.subject = "Din kode til Netto+"
    c.codes = ["8264"]
    c.never("4402918377", "2605", "8260")
    c.text = dedent("""\
        Hej Mette,

        Din kode til Netto+ er: 8264

        Medlemsnummer: 4402918377
        Butik: Netto Brøndby, 2605 Brøndby

        Koden gælder i 15 minutter.
        Salling Group, 8260 Viby J
        """)


@case("da", "negative", "ordrebekræftelse: ordrenummer, track-and-trace, amount and 'Følg pakke' link")
def da_b19_neg_ordrebekraeftelse(c: Case) -> None:
    c.sender = "Elgiganten <ordre@elgiganten.example>"
    c.subject = "Ordrebekræftelse 7720194831"
    track = c.never(b19_trk(c, "salesforce", "elgiganten.example", "track"))
    c.never("7720194831", "00057151270481937204", "1.499,00", "149900")
    body = (
        h1("Tak for din ordre")
        + p("Ordrenummer: 7720194831<br>Total: 1.499,00 kr.<br>Track &amp; trace: 00057151270481937204")
        + button(track, "Følg pakke", bg="#00a0e3")
    )
    c.html = std(c, body, brand="Elgiganten", accent="#00a0e3", lines=["Elgiganten A/S"])
    c.text = auto_text(c.html)


@case("da", "negative", "new sign-in alert: 'Var det ikke dig? Beskyt din konto' and device list")
def da_b19_neg_nyt_login(c: Case) -> None:
    c.sender = "TV 2 Play <noreply@tv2.example>"
    c.subject = "Nyt login på din konto"
    secure = c.never("https://play.tv2.example/konto/sikkerhed/beskyt")
    devices = c.never("https://play.tv2.example/konto/enheder")
    c.never("192.0.2.14")
    body = (
        p("Hej Mette,")
        + p("Der er logget ind på din konto fra en ny enhed (Apple TV, Odense, IP 192.0.2.14).")
        + p(f"Var det ikke dig? {a(secure, 'Beskyt din konto')}")
        + p(a(devices, "Se dine enheder"))
    )
    c.html = std(c, body, brand="TV 2", accent="#e20a17", lines=["TV 2 Danmark A/S, Odense"])
    c.text = auto_text(c.html)


# Finnish


@case(
    "fi",
    "code",
    "OP vahvistuskoodi; 'Unohditko salasanan?', security settings and contact links",
    charset="ISO-8859-15",
    html_cte="quoted-printable",
)
def fi_b19_op_vahvistuskoodi(c: Case) -> None:
    c.sender = "OP <noreply@op.example>"
    c.subject = "Vahvistuskoodisi"
    c.codes = ["491736"]
    forgot = c.never("https://www.op.example/tunnukset/unohditko-salasanan")
    sec = c.never("https://www.op.example/asetukset/turvallisuus")
    contact = c.never("https://www.op.example/yhteystiedot")
    c.never("0100 0500", "01000500")
    body = (
        p("Hei Matti,")
        + p("Vahvistuskoodisi kirjautumista varten:")
        + big("491736")
        + p("Koodi on voimassa 5 minuuttia. Älä kerro koodia kenellekään.")
        + p(
            f"{a(forgot, 'Unohditko salasanan?')} | {a(sec, 'Turvallisuusasetukset')} | {a(contact, 'Ota yhteyttä')} 0100 0500"
        )
    )
    c.html = std(c, body, brand="OP", accent="#ff6a10", lines=["OP Osuuskunta, Helsinki"])
    c.text = auto_text(c.html)


@case("fi", "link", "Tori: Mailgun opaque redirect, intent only in 'Vahvista sähköpostiosoite'")
def fi_b19_tori_vahvista_mailgun(c: Case) -> None:
    c.sender = "Tori <noreply@tori.example>"
    c.subject = "Vahvista sähköpostiosoitteesi"
    url = b19_trk(c, "mailgun", "tori.example", "confirm")
    c.links = [url]
    help_url = c.never(b19_trk(c, "mailgun", "tori.example", "help"))
    body = (
        p("Hei Matti,")
        + p("Vahvista sähköpostiosoitteesi, niin voit jättää ilmoituksia.")
        + button(url, "Vahvista sähköpostiosoite", bg="#f04e23")
        + p(f"{a(help_url, 'Ohjeet ja tuki')}")
    )
    c.html = std(c, body, brand="Tori", accent="#f04e23", lines=["Tori, Helsinki"])
    c.text = auto_text(c.html)


@case("fi", "link", "magic sign-in with a Finnish path /kirjaudu/linkki; privacy link", html_cte="base64")
def fi_b19_kirjaudu_linkki(c: Case) -> None:
    c.sender = "Yle Tunnus <tunnus@yle.example>"
    c.subject = "Kirjautumislinkki Yle Tunnukseen"
    url = f"https://tunnus.yle.example/kirjaudu/linkki?t={c.t('t', 48)}"
    c.links = [url]
    body = (
        p("Hei,")
        + p("Kirjaudu Yle Tunnukseen alla olevasta painikkeesta. Linkki on voimassa 15 minuuttia.")
        + button(url, "Kirjaudu sisään", bg="#00b4c4")
        + p("Jos et pyytänyt linkkiä, voit jättää viestin huomiotta.")
    )
    c.html = std(
        c,
        body,
        brand="Yle",
        accent="#00b4c4",
        lines=["Yleisradio Oy"],
        links=[("Tietosuoja", "https://yle.example/tietosuoja")],
    )
    c.text = auto_text(c.html)


@case("fi", "code", "Posti code beside a JJFI shipment id and a postcode", charset="ISO-8859-1", text_cte="base64")
def fi_b19_posti_koodi_lahetystunnus(c: Case) -> None:
    c.sender = "Posti <noreply@posti.example>"
    c.subject = "Vahvistuskoodi toimitusosoitteen muutokseen"
    c.codes = ["60913"]
    c.never("JJFI64829137700412955", "00100", "0200 77000", "020077000")
    c.text = dedent("""\
        Hei Matti,

        Olet muuttamassa lähetyksen JJFI64829137700412955 toimitusosoitetta:
        Mannerheimintie 10, 00100 Helsinki

        Vahvistuskoodi: 60913

        Asiakaspalvelu 0200 77000
        Posti
        """)


@case("fi", "negative", "lasku: viitenumero (reference), IBAN, eräpäivä, amount; 'Maksa lasku' link")
def fi_b19_neg_lasku_viitenumero(c: Case) -> None:
    c.sender = "Elisa <laskutus@elisa.example>"
    c.subject = "Elisan lasku maaliskuu 2025"
    pay = c.never(b19_trk(c, "salesforce", "elisa.example", "pay"))
    c.never(
        "RF18 5390 0754 7034",
        "RF18539007547034",
        "FI21 1234 5600 0007 85",
        "FI2112345600000785",
        "34,90",
        "3490",
        "31.3.2025",
    )
    body = (
        p("Hei Matti,")
        + p(
            "Summa: 34,90 €<br>Eräpäivä: 31.3.2025<br>Viitenumero: RF18 5390 0754 7034<br>Tilinumero: FI21 1234 5600 0007 85"
        )
        + button(pay, "Maksa lasku", bg="#0019af")
    )
    c.html = std(c, body, brand="Elisa", accent="#0019af", lines=["Elisa Oyj"])
    c.text = auto_text(c.html)


@case("fi", "negative", "new sign-in alert: 'Etkö se ollut sinä? Suojaa tilisi' and activity link")
def fi_b19_neg_uusi_kirjautuminen(c: Case) -> None:
    c.sender = "Wolt <no-reply@wolt.example>"
    c.subject = "Uusi kirjautuminen Wolt-tiliisi"
    secure = c.never(b19_trk(c, "braze", "wolt.example", "secure"))
    c.never("198.51.100.8")
    body = (
        p("Hei Matti,")
        + p("Tiliisi kirjauduttiin uudelta laitteelta (Android, Tampere, IP 198.51.100.8).")
        + p(f"Etkö se ollut sinä? {a(secure, 'Suojaa tilisi')}")
    )
    c.html = std(c, body, brand="Wolt", accent="#009de0", lines=["Wolt Enterprises Oy"])
    c.text = auto_text(c.html)


# Hungarian


@case(
    "hu",
    "code",
    "OTP Bank ellenőrző kód; 'Elfelejtette jelszavát?', security settings and help links",
    charset="ISO-8859-2",
    html_cte="quoted-printable",
)
def hu_b19_otp_ellenorzo_kod(c: Case) -> None:
    c.sender = "OTP Bank <ertesites@otpbank.example>"
    c.subject = "Az Ön ellenőrző kódja"
    c.codes = ["38204719"]
    forgot = c.never("https://www.otpbank.example/portal/hu/elfelejtett-jelszo")
    sec = c.never("https://www.otpbank.example/portal/hu/biztonsagi-beallitasok")
    help_url = c.never("https://www.otpbank.example/portal/hu/segitseg")
    c.never("+36 1 3 666 666", "3613666666")
    body = (
        p("Tisztelt Ügyfelünk!")
        + p("Az OTP InternetBank belépéshez szükséges ellenőrző kód:")
        + big("38204719", spacing=4)
        + p("A kód 5 percig érvényes. Soha ne adja meg senkinek.")
        + p(
            f"{a(forgot, 'Elfelejtette jelszavát?')} | {a(sec, 'Biztonsági beállítások')} | {a(help_url, 'Segítség')} +36 1 3 666 666"
        )
    )
    c.html = std(c, body, brand="OTP Bank", accent="#52ae30", lines=["OTP Bank Nyrt., Budapest"])
    c.text = auto_text(c.html)


@case("hu", "link", "HubSpot tracked URL, intent only in 'E-mail-cím megerősítése'")
def hu_b19_megerosites_hubspot(c: Case) -> None:
    c.sender = "Számlázz.hu <info@szamlazz.example>"
    c.subject = "Erősítse meg e-mail-címét"
    url = b19_trk(c, "hubspot", "szamlazz.example", "confirm")
    c.links = [url]
    unsub = c.never(b19_trk(c, "hubspot", "szamlazz.example", "unsub"))
    body = (
        p("Kedves Kovács Anna!")
        + p("A regisztráció befejezéséhez kattintson az alábbi gombra.")
        + button(url, "E-mail-cím megerősítése", bg="#ff7a00")
        + b19_small(a(unsub, "Leiratkozás"))
    )
    c.html = std(c, body, brand="Számlázz.hu", accent="#ff7a00", lines=["KBOSS.hu Kft."])
    c.text = auto_text(c.html)


@case(
    "hu",
    "link",
    "Hungarian reset path /jelszo-visszaallitas/, windows-1250 QP HTML",
    charset="windows-1250",
    html_cte="quoted-printable",
)
def hu_b19_jelszo_visszaallitas(c: Case) -> None:
    c.sender = "eMAG.hu <noreply@emag.example>"
    c.subject = "Jelszó-visszaállítás"
    url = f"https://www.emag.example/user/jelszo-visszaallitas/{c.t('t', 40, 'b62')}"
    c.links = [url]
    c.never("+36 1 999 0000", "3619990000")
    body = (
        p("Kedves Anna!")
        + p("Új jelszó beállításához kattintson az alábbi linkre (24 óráig érvényes):")
        + p(a(url, "Új jelszó beállítása"))
        + p("Ha nem Ön kérte, hagyja figyelmen kívül ezt a levelet. Ügyfélszolgálat: +36 1 999 0000")
    )
    c.html = plain_html(body)
    c.text = auto_text(c.html)


@case(
    "hu",
    "code",
    "Telekom code: the earlier code is invalid; customer number and phone decoys",
    charset="ISO-8859-2",
    text_cte="8bit",
)
def hu_b19_telekom_elozo_kod(c: Case) -> None:
    c.sender = "Telekom <ertesito@telekom.example>"
    c.subject = "Új megerősítő kód"
    c.codes = ["725041"]
    c.never("389016", "4820193377", "+36 30 123 4567", "36301234567", "1414")
    c.text = dedent("""\
        Kedves Ügyfelünk!

        A korábban küldött kód (389016) már nem érvényes.
        Az új megerősítő kód: 725041

        Ügyfélszám: 4820193377
        Telefonszám: +36 30 123 4567

        Telekom ügyfélszolgálat: 1414
        """)


@case("hu", "negative", "számla: számlaszám, ügyfélazonosító, amount, 'Számla befizetése' link", html_cte="base64")
def hu_b19_neg_szamla(c: Case) -> None:
    c.sender = "MVM Next <szamla@mvm.example>"
    c.subject = "Elkészült a márciusi számlája"
    pay = c.never(b19_trk(c, "salesforce", "mvm.example", "pay"))
    c.never("SZ-2025-0048213", "20250048213", "3000482913", "12 480", "12480", "2025.03.31")
    body = (
        p("Tisztelt Ügyfelünk!")
        + p(
            "Számlaszám: SZ-2025-0048213<br>Ügyfélazonosító: 3000482913<br>Fizetendő: 12 480 Ft<br>Határidő: 2025.03.31"
        )
        + button(pay, "Számla befizetése", bg="#e4002b")
    )
    c.html = std(c, body, brand="MVM", accent="#e4002b", lines=["MVM Next Energiakereskedelmi Zrt."])
    c.text = auto_text(c.html)


@case("hu", "negative", "new sign-in alert: 'Nem Ön volt? Védje meg fiókját' and activity link")
def hu_b19_neg_uj_bejelentkezes(c: Case) -> None:
    c.sender = "Foodora <noreply@foodora.example>"
    c.subject = "Új bejelentkezés a fiókjába"
    secure = c.never("https://www.foodora.example/hu/fiok/biztonsag/vedelem")
    c.never("203.0.113.66", "2025.03.14")
    body = (
        p("Kedves Anna!")
        + p("2025.03.14 20:14-kor új eszközről jelentkeztek be a fiókjába (iPhone, Debrecen, IP 203.0.113.66).")
        + p(f"Nem Ön volt? {a(secure, 'Védje meg fiókját')}")
    )
    c.html = std(c, body, brand="foodora", accent="#d70f64", lines=["Netpincér.hu Kft."])
    c.text = auto_text(c.html)


# Romanian


@case(
    "ro",
    "code",
    "Banca Transilvania cod de verificare; 'Ai uitat parola?', security settings and support links",
    charset="ISO-8859-16",
    html_cte="quoted-printable",
)
def ro_b19_bt_cod_verificare(c: Case) -> None:
    c.sender = "Banca Transilvania <notificari@bancatransilvania.example>"
    c.subject = "Codul tău de verificare"
    c.codes = ["952701"]
    forgot = c.never("https://neo.bancatransilvania.example/ai-uitat-parola")
    sec = c.never("https://neo.bancatransilvania.example/setari/securitate")
    support = c.never("https://www.bancatransilvania.example/contact")
    c.never("0264 308 028", "0264308028")
    body = (
        p("Bună, Andrei!")
        + p("Codul tău de verificare pentru autentificare este:")
        + big("952701")
        + p("Codul este valabil 5 minute. Nu-l comunica nimănui.")
        + p(
            f"{a(forgot, 'Ai uitat parola?')} | {a(sec, 'Setări de securitate')} | {a(support, 'Contactează-ne')} 0264 308 028"
        )
    )
    c.html = std(c, body, brand="BT", accent="#0066b3", lines=["Banca Transilvania S.A., Cluj-Napoca"])
    c.text = auto_text(c.html)


@case("ro", "link", "eMAG: Salesforce click.<domain>/?qs= URL, intent only in 'Confirmă adresa de email'")
def ro_b19_emag_confirma_salesforce(c: Case) -> None:
    c.sender = "eMAG <noreply@emag.example.ro>"
    c.subject = "Confirmă adresa de email"
    url = b19_trk(c, "salesforce", "emag.example.ro", "confirm")
    c.links = [url]
    help_url = c.never(b19_trk(c, "salesforce", "emag.example.ro", "help"))
    body = (
        p("Salut, Andrei!")
        + p("Mai ai un singur pas: confirmă adresa de email ca să primești noutăți despre comenzile tale.")
        + button(url, "Confirmă adresa de email", bg="#005eb8")
        + p(f"{a(help_url, 'Centrul de ajutor')}")
    )
    c.html = std(c, body, brand="eMAG", accent="#005eb8", lines=["Dante International S.A."])
    c.text = auto_text(c.html)


@case(
    "ro",
    "link",
    "Romanian reset path /resetare-parola/, windows-1250 with cedilla ţ/ş as old senders wrote them",
    charset="windows-1250",
    html_cte="quoted-printable",
)
def ro_b19_resetare_parola(c: Case) -> None:
    c.sender = "OLX România <no-reply@olx.example.ro>"
    c.subject = "Resetează-ţi parola"
    url = f"https://www.olx.example.ro/cont/resetare-parola/?token={c.t('t', 40, 'hex')}"
    c.links = [url]
    c.html = plain_html(
        p("Salut,")
        + p("Am primit o cerere de resetare a parolei pentru contul tău OLX.")
        + p(a(url, "Setează o parolă nouă"))
        + p("Linkul expiră în 2 ore. Dacă nu ai cerut resetarea, ignoră acest email.")
    )
    c.text = f"Salut,\n\nSetează o parolă nouă:\n{url}\n\nLinkul expiră în 2 ore.\n"


@case("ro", "code", "FAN Courier code beside an AWB number and a postcode", charset="ISO-8859-16", text_cte="base64")
def ro_b19_fancourier_cod_awb(c: Case) -> None:
    c.sender = "FAN Courier <noreply@fancourier.example>"
    c.subject = "Cod de confirmare pentru livrare"
    c.codes = ["7391"]
    c.never("2410048291377", "400604", "021 9336", "0219336")
    c.text = dedent("""\
        Bună ziua,

        Coletul cu AWB 2410048291377 va fi livrat azi la adresa:
        Str. Memorandumului 28, Cluj-Napoca, cod poștal 400604

        Comunică-i curierului codul de confirmare: 7391

        Call center: 021 9336
        """)


@case("ro", "negative", "factură: număr factură, cod client, IBAN, amount; 'Plătește acum' link")
def ro_b19_neg_factura(c: Case) -> None:
    c.sender = "Digi <facturi@digi.example>"
    c.subject = "Factura ta Digi pentru martie 2025"
    pay = c.never(b19_trk(c, "salesforce", "digi.example", "pay"))
    c.never(
        "DIG25-0048213",
        "250048213",
        "Cod client: 4820193",
        "4820193",
        "RO49 AAAA 1B31 0075 9384 0000",
        "RO49AAAA1B31007593840000",
        "48,50",
        "4850",
    )
    body = (
        p("Bună, Andrei!")
        + p(
            "Factura nr. DIG25-0048213<br>Cod client: 4820193<br>Total de plată: 48,50 lei<br>IBAN: RO49 AAAA 1B31 0075 9384 0000"
        )
        + button(pay, "Plătește acum", bg="#1d4f91")
    )
    c.html = std(c, body, brand="Digi", accent="#1d4f91", lines=["Digi Romania S.A."])
    c.text = auto_text(c.html)


@case("ro", "negative", "new sign-in alert: 'Nu ai fost tu? Securizează-ți contul' and activity link")
def ro_b19_neg_autentificare_noua(c: Case) -> None:
    c.sender = "Glovo <no-reply@glovoapp.example>"
    c.subject = "Autentificare nouă în contul tău"
    secure = c.never(b19_trk(c, "mailgun", "glovoapp.example", "secure"))
    c.never("192.0.2.99")
    body = (
        p("Salut, Andrei!")
        + p("Cineva s-a autentificat în contul tău de pe un dispozitiv nou (Android, Iași, IP 192.0.2.99).")
        + p(f"Nu ai fost tu? {a(secure, 'Securizează-ți contul')}")
    )
    c.html = std(c, body, brand="Glovo", accent="#ffc244", lines=["Glovoapp Romania S.R.L."])
    c.text = auto_text(c.html)


# Greek


@case(
    "el",
    "code",
    "Eurobank κωδικός επαλήθευσης; 'κωδικός πρόσβασης' (password) links beside it, ISO-8859-7",
    charset="ISO-8859-7",
    html_cte="quoted-printable",
)
def el_b19_eurobank_kodikos_epalithefsis(c: Case) -> None:
    c.sender = "Eurobank <noreply@eurobank.example>"
    c.subject = "Ο κωδικός επαλήθευσης σας"
    c.codes = ["604913"]
    forgot = c.never("https://ebanking.eurobank.example/xechasa-kodiko")
    sec = c.never("https://ebanking.eurobank.example/rythmiseis/asfaleia")
    c.never("210 955 5000", "2109555000")
    body = (
        p("Αγαπητέ πελάτη,")
        + p("Ο κωδικός επαλήθευσης για τη σύνδεσή σας είναι:")
        + big("604913")
        + p("Ισχύει για 3 λεπτά. Μην τον μοιραστείτε με κανέναν.")
        + p(f"{a(forgot, 'Ξεχάσατε τον κωδικό πρόσβασης;')} | {a(sec, 'Ρυθμίσεις ασφαλείας')} | Τηλ. 210 955 5000")
    )
    c.html = std(c, body, brand="Eurobank", accent="#c8102e", lines=["Eurobank S.A., Αθήνα"])
    c.text = auto_text(c.html)


@case("el", "link", "Skroutz: SendGrid opaque URL, intent only in 'Επιβεβαίωση email'")
def el_b19_skroutz_epivevaiosi_sendgrid(c: Case) -> None:
    c.sender = "Skroutz <noreply@skroutz.example>"
    c.subject = "Επιβεβαίωσε το email σου"
    url = b19_trk(c, "sendgrid", "skroutz.example", "confirm")
    c.links = [url]
    help_url = c.never(b19_trk(c, "sendgrid", "skroutz.example", "help"))
    body = (
        p("Γεια σου Νίκο,")
        + p("Πάτησε το κουμπί για να επιβεβαιώσεις τη διεύθυνση email σου.")
        + button(url, "Επιβεβαίωση email", bg="#f68b24")
        + p(f"{a(help_url, 'Βοήθεια')}")
    )
    c.html = std(c, body, brand="Skroutz", accent="#f68b24", lines=["Skroutz A.E."])
    c.text = auto_text(c.html)


@case("el", "link", "magic sign-in with a transliterated Greek path /syndesi/link", html_cte="base64")
def el_b19_syndesi_link(c: Case) -> None:
    c.sender = "efood <noreply@efood.example>"
    c.subject = "Ο σύνδεσμος σύνδεσης στο efood"
    url = f"https://www.efood.example/syndesi/link?t={c.t('t', 48)}"
    c.links = [url]
    body = (
        p("Γεια σου,")
        + p("Πάτησε το παρακάτω κουμπί για να συνδεθείς. Ο σύνδεσμος ισχύει για 15 λεπτά.")
        + button(url, "Σύνδεση", bg="#ed2e2e")
        + p("Αν δεν το ζήτησες εσύ, αγνόησε αυτό το email.")
    )
    c.html = std(
        c,
        body,
        brand="efood",
        accent="#ed2e2e",
        lines=["Delivery Hero Hellas"],
        links=[("Απόρρητο", "https://www.efood.example/aporrito")],
    )
    c.text = auto_text(c.html)


@case("el", "code", "ACS courier code beside a voucher number and a postcode", charset="windows-1253", text_cte="8bit")
def el_b19_acs_kodikos_voucher(c: Case) -> None:
    c.sender = "ACS Courier <noreply@acscourier.example>"
    c.subject = "Κωδικός παραλαβής αποστολής"
    c.codes = ["5820"]
    c.never("7204819377", "10431", "210 81 90 000", "2108190000")
    c.text = dedent("""\
        Αγαπητέ πελάτη,

        Η αποστολή με αριθμό voucher 7204819377 βρίσκεται στο ACS Point (Τ.Κ. 10431).
        Κωδικός παραλαβής: 5820

        Εξυπηρέτηση πελατών: 210 81 90 000
        """)


@case(
    "el",
    "negative",
    "τιμολόγιο: αριθμός παραστατικού, ΑΦΜ, amount; 'Πληρωμή' link",
    charset="ISO-8859-7",
    html_cte="base64",
)
def el_b19_neg_timologio(c: Case) -> None:
    c.sender = "Cosmote <billing@cosmote.example>"
    c.subject = "Ο λογαριασμός σας Μαρτίου 2025"
    pay = c.never(b19_trk(c, "salesforce", "cosmote.example", "pay"))
    c.never("482019377", "094019245", "38,40", "3840", "31/03/2025")
    body = (
        p("Αγαπητέ πελάτη,")
        + p("Αριθμός λογαριασμού: 482019377<br>ΑΦΜ: 094019245<br>Ποσό: 38,40 €<br>Λήξη: 31/03/2025")
        + button(pay, "Πληρωμή", bg="#00a651")
    )
    c.html = std(c, body, brand="Cosmote", accent="#00a651", lines=["ΟΤΕ Α.Ε."])
    c.text = auto_text(c.html)


@case("el", "negative", "new sign-in alert: 'Δεν ήσουν εσύ; Προστάτευσε τον λογαριασμό σου'")
def el_b19_neg_nea_syndesi(c: Case) -> None:
    c.sender = "Vodafone <noreply@vodafone.example.gr>"
    c.subject = "Νέα σύνδεση στον λογαριασμό σου"
    secure = c.never("https://my.vodafone.example.gr/asfaleia/prostasia")
    c.never("198.51.100.130")
    body = (
        p("Γεια σου Νίκο,")
        + p("Έγινε σύνδεση στον λογαριασμό σου από νέα συσκευή (Chrome, Θεσσαλονίκη, IP 198.51.100.130).")
        + p(f"Δεν ήσουν εσύ; {a(secure, 'Προστάτευσε τον λογαριασμό σου')}")
    )
    c.html = std(c, body, brand="Vodafone", accent="#e60000", lines=["Vodafone-Panafon"])
    c.text = auto_text(c.html)


# Indonesian


@case("id", "code", "Tokopedia kode OTP; 'Lupa kata sandi?', security settings and help links")
def id_b19_tokopedia_kode_otp(c: Case) -> None:
    c.sender = "Tokopedia <noreply@tokopedia.example>"
    c.subject = "Kode OTP Tokopedia kamu"
    c.codes = ["819204"]
    forgot = c.never("https://www.tokopedia.example/reset-password")
    sec = c.never("https://www.tokopedia.example/settings/security")
    help_url = c.never("https://www.tokopedia.example/help")
    c.never("1500 977", "1500977")
    body = (
        p("Hai Budi,")
        + p("Masukkan kode OTP berikut untuk masuk ke akunmu:")
        + big("819204")
        + p("Kode berlaku 5 menit. Jangan berikan kode ini kepada siapa pun, termasuk pihak Tokopedia.")
        + p(
            f"{a(forgot, 'Lupa kata sandi?')} | {a(sec, 'Pengaturan keamanan')} | {a(help_url, 'Pusat Bantuan')} 1500 977"
        )
    )
    c.html = std(c, body, brand="Tokopedia", accent="#03ac0e", lines=["PT Tokopedia, Jakarta"])
    c.text = auto_text(c.html)


@case("id", "link", "Gojek: Braze ablink URL, intent only in 'Verifikasi email'", html_cte="quoted-printable")
def id_b19_gojek_verifikasi_braze(c: Case) -> None:
    c.sender = "Gojek <no-reply@gojek.example>"
    c.subject = "Verifikasi email kamu"
    url = b19_trk(c, "braze", "gojek.example", "verify")
    c.links = [url]
    unsub = c.never(b19_trk(c, "braze", "gojek.example", "unsub"))
    body = (
        p("Hai Budi,")
        + p("Klik tombol di bawah untuk memverifikasi email kamu.")
        + button(url, "Verifikasi email", bg="#00aa13")
        + b19_small(a(unsub, "Berhenti berlangganan"))
    )
    c.html = std(c, body, brand="Gojek", accent="#00aa13", lines=["PT GoTo Gojek Tokopedia Tbk"])
    c.text = auto_text(c.html)


@case("id", "link", "Traveloka reset with an Indonesian path /atur-ulang-kata-sandi/", charset="ISO-8859-1")
def id_b19_traveloka_atur_ulang(c: Case) -> None:
    c.sender = "Traveloka <noreply@traveloka.example>"
    c.subject = "Atur ulang kata sandi"
    url = f"https://www.traveloka.example/id-id/atur-ulang-kata-sandi?token={c.t('t', 40, 'b62')}"
    c.links = [url]
    c.never("0804 1500 808", "08041500808")
    c.text = dedent(f"""\
        Hai Budi,

        Kami menerima permintaan untuk mengatur ulang kata sandi akun Traveloka kamu.
        Buka tautan berikut dalam 1 jam:

        {url}

        Jika kamu tidak meminta ini, abaikan email ini.
        Layanan pelanggan: 0804 1500 808
        """)


@case(
    "id",
    "code",
    "BCA kode transaksi: earlier code void; account number and amount decoys",
    charset="windows-1252",
    text_cte="quoted-printable",
)
def id_b19_bca_kode_sebelumnya(c: Case) -> None:
    c.sender = "BCA <notifikasi@bca.example>"
    c.subject = "Kode verifikasi transaksi"
    c.codes = ["40719385"]
    c.never("18204937", "8730482913", "2.750.000", "2750000", "1500888")
    c.text = dedent("""\
        Nasabah Yth.,

        Kode yang dikirim sebelumnya (18204937) sudah tidak berlaku.

        Transfer dari rekening 8730482913 sebesar Rp 2.750.000
        Kode verifikasi: 40719385

        Halo BCA 1500888
        """)


@case("id", "negative", "hotel booking: 'Kode booking' and 'No. pesanan' are booking identifiers; manage link")
def id_b19_neg_kode_booking(c: Case) -> None:
    c.sender = "tiket.com <noreply@tiket.example>"
    c.subject = "E-voucher hotel kamu - Kode booking TK7Q2X"
    manage = c.never("https://www.tiket.example/myorder/1204829137")
    c.never("TK7Q2X", "1204829137", "1.350.000", "1350000", "14/03/2025")
    body = (
        p("Hai Budi,")
        + p("Kode booking: <b>TK7Q2X</b><br>No. pesanan: 1204829137<br>Check-in: 14/03/2025<br>Total: Rp 1.350.000")
        + button(manage, "Lihat pesanan", bg="#0064d2")
    )
    c.html = std(c, body, brand="tiket.com", accent="#0064d2", lines=["PT Global Tiket Network"])
    c.text = auto_text(c.html)


@case("id", "negative", "new sign-in alert: 'Bukan kamu? Amankan akunmu' and activity link")
def id_b19_neg_login_baru(c: Case) -> None:
    c.sender = "Shopee <info@shopee.example.co.id>"
    c.subject = "Login baru ke akun Shopee kamu"
    secure = c.never("https://shopee.example.co.id/user/account/security?src=mail")
    c.never("203.0.113.44")
    body = (
        p("Hai Budi,")
        + p("Ada login baru ke akunmu dari perangkat Android (Surabaya, IP 203.0.113.44).")
        + p(f"Bukan kamu? {a(secure, 'Amankan akunmu')}")
    )
    c.html = std(c, body, brand="Shopee", accent="#ee4d2d", lines=["PT Shopee International Indonesia"])
    c.text = auto_text(c.html)


# Code and link together: the mail offers a code *and* a verify / sign-in button for the same step;
# the account-management links beside them are still never.


@case(
    "ja",
    "code+link",
    "認証コード or a Salesforce-tracked 'メールアドレスを認証する' button; password-reminder link is not it",
    charset="Shift_JIS",
    html_cte="quoted-printable",
)
def ja_b19_code_and_link_salesforce(c: Case) -> None:
    c.sender = "ZOZOTOWN <info@zozo.example>"
    c.subject = "【ZOZOTOWN】メールアドレス認証のお願い"
    c.codes = ["846120"]
    url = b19_trk(c, "salesforce", "mail.zozo.example", "verify")
    c.links = [url]
    forgot = c.never(b19_trk(c, "salesforce", "mail.zozo.example", "forgot"))
    faq = c.never(b19_trk(c, "salesforce", "mail.zozo.example", "faq"))
    c.never("263-0023", "2630023")
    body = (
        p("山田太郎 様")
        + p("アプリの画面で次の認証コードを入力するか、下のボタンから認証を完了してください。")
        + big("846120")
        + button(url, "メールアドレスを認証する", bg="#000000")
        + p("有効期限は24時間です。")
        + p(f"{a(forgot, 'パスワードを忘れた方はこちら')}｜{a(faq, 'よくある質問')}")
    )
    c.html = std(
        c, body, brand="ZOZOTOWN", accent="#000000", lines=["株式会社ZOZO 〒263-0023 千葉県千葉市稲毛区緑町1-15-16"]
    )
    c.text = auto_text(c.html)


@case(
    "de", "code+link", "Code or 'E-Mail bestätigen' button (SendGrid); 'Passwort vergessen?' and Datenschutz are not it"
)
def de_b19_code_und_bestaetigen_sendgrid(c: Case) -> None:
    c.sender = "Kleinanzeigen <noreply@kleinanzeigen.example>"
    c.subject = "Dein Bestätigungscode: 274913"
    c.codes = ["274913"]
    url = b19_trk(c, "sendgrid", "kleinanzeigen.example", "verify")
    c.links = [url]
    forgot = c.never(b19_trk(c, "sendgrid", "kleinanzeigen.example", "forgot"))
    body = (
        p("Hallo Max,")
        + p("gib diesen Code in der App ein:")
        + big("274913")
        + p("Oder bestätige deine E-Mail-Adresse direkt hier:")
        + button(url, "E-Mail bestätigen", bg="#326916")
        + p(f"{a(forgot, 'Passwort vergessen?')}")
    )
    c.html = std(
        c,
        body,
        brand="Kleinanzeigen",
        accent="#326916",
        lines=["kleinanzeigen.de GmbH, Albert-Einstein-Ring 2-6, 14532 Kleinmachnow"],
        decoys=["14532"],
        links=[("Datenschutz", "https://www.kleinanzeigen.example/datenschutz")],
    )
    c.text = auto_text(c.html)


@case(
    "es",
    "code+link",
    "código or a 'Verificar correo' link with a Spanish path /verificar/; help link is not it",
    charset="ISO-8859-1",
    html_cte="quoted-printable",
)
def es_b19_codigo_y_enlace_verificar(c: Case) -> None:
    c.sender = "Idealista <noreply@idealista.example>"
    c.subject = "Verifica tu correo"
    c.codes = ["5821"]
    url = f"https://www.idealista.example/usuario/verificar/?t={c.t('t', 36, 'hex')}"
    c.links = [url]
    help_url = c.never("https://www.idealista.example/ayuda/")
    body = (
        p("Hola, Lucía:")
        + p("Tu código de verificación es <b style='font-size:20px'>5821</b>.")
        + p(f"También puedes {a(url, 'verificar tu correo')} con un clic.")
        + p(f"¿Dudas? {a(help_url, 'Centro de ayuda')}")
    )
    c.html = std(c, body, brand="idealista", accent="#e1f56e", lines=["Idealista S.A.U., Madrid"])
    c.text = auto_text(c.html)


@case(
    "fr",
    "code+link",
    "code de connexion or 'Se connecter' magic button; 'Mot de passe oublié ?' and privacy are not it",
)
def fr_b19_code_et_lien_connexion(c: Case) -> None:
    c.sender = "Qonto <noreply@qonto.example>"
    c.subject = "Votre code de connexion Qonto"
    c.codes = ["ZK4-82M", "ZK482M"]
    url = f"https://app.qonto.example/connexion/lien?t={c.t('t', 48)}"
    c.links = [url]
    forgot = c.never("https://app.qonto.example/mot-de-passe-oublie")
    body = (
        p("Bonjour Jean,")
        + p("Saisissez ce code de connexion dans l’application :")
        + big("ZK4-82M")
        + p("ou cliquez sur le bouton depuis cet appareil :")
        + button(url, "Se connecter", bg="#1d1d1b")
        + p(f"{a(forgot, 'Mot de passe oublié ?')}")
    )
    c.html = std(
        c,
        body,
        brand="Qonto",
        accent="#1d1d1b",
        lines=["Olinda SAS, 18 rue de Navarin, 75009 Paris"],
        decoys=["75009"],
        links=[("Confidentialité", "https://qonto.example/fr/privacy")],
    )
    c.text = auto_text(c.html)


@case(
    "sv",
    "code+link",
    "kod or a link with the Swedish path /verifiera/; 'Glömt lösenord?' is not it",
    charset="windows-1252",
    html_cte="quoted-printable",
)
def sv_b19_kod_och_verifiera_lank(c: Case) -> None:
    c.sender = "Hemnet <noreply@hemnet.example>"
    c.subject = "Verifiera din e-postadress"
    c.codes = ["618402"]
    url = f"https://www.hemnet.example/konto/verifiera/{c.t('t', 36, 'hex')}"
    c.links = [url]
    forgot = c.never("https://www.hemnet.example/konto/glomt-losenord")
    body = (
        p("Hej Anna,")
        + p("Din verifieringskod är <b>618402</b>. Du kan också verifiera direkt:")
        + button(url, "Verifiera e-postadress", bg="#2aa36b")
        + p(a(forgot, "Glömt lösenord?"))
    )
    c.html = std(c, body, brand="Hemnet", accent="#2aa36b", lines=["Hemnet Group AB, Stockholm"])
    c.text = auto_text(c.html)


@case(
    "cs",
    "code+link",
    "kód or a link with the Czech path /potvrdit/; 'Zapomenuté heslo' and support are not it",
    charset="ISO-8859-2",
    html_cte="base64",
)
def cs_b19_kod_a_potvrdit_odkaz(c: Case) -> None:
    c.sender = "Bazoš <info@bazos.example>"
    c.subject = "Potvrzení e-mailu - kód 3092"
    c.codes = ["3092"]
    url = f"https://www.bazos.example/ucet/potvrdit/?k={c.t('k', 30, 'hex')}"
    c.links = [url]
    forgot = c.never("https://www.bazos.example/ucet/zapomenute-heslo")
    support = c.never("https://www.bazos.example/kontakt")
    body = (
        p("Dobrý den,")
        + p("váš potvrzovací kód je <b>3092</b>. Nebo klikněte na odkaz:")
        + p(a(url, "Potvrdit e-mail"))
        + p(f"{a(forgot, 'Zapomenuté heslo')} | {a(support, 'Kontakt')}")
    )
    c.html = std(c, body, brand="Bazoš", accent="#0055a4", lines=["Bazoš.cz"])
    c.text = auto_text(c.html)


@case("uk", "code+link", "код or 'Підтвердити' button via Mailgun; 'Налаштування безпеки' is not it")
def uk_b19_kod_i_posylannia_mailgun(c: Case) -> None:
    c.sender = "Monobank <noreply@monobank.example>"
    c.subject = "Код підтвердження пошти: 9027"
    c.codes = ["9027"]
    url = b19_trk(c, "mailgun", "monobank.example", "verify")
    c.links = [url]
    sec = c.never(b19_trk(c, "mailgun", "monobank.example", "security"))
    body = (
        p("Вітаємо!")
        + p("Введіть код <b>9027</b> у застосунку або натисніть кнопку нижче:")
        + button(url, "Підтвердити пошту", bg="#000000")
        + p(a(sec, "Налаштування безпеки"))
    )
    c.html = std(c, body, brand="monobank", accent="#000000", lines=["АТ «Universal Bank»"])
    c.text = auto_text(c.html)


@case("vi", "code+link", "mã xác minh or 'Xác minh email' link with path /xac-minh/; 'Quên mật khẩu?' is not it")
def vi_b19_ma_va_lien_ket_xac_minh(c: Case) -> None:
    c.sender = "VNPAY <no-reply@vnpay.example>"
    c.subject = "Xác minh địa chỉ email"
    c.codes = ["205817"]
    url = f"https://vnpay.example/tai-khoan/xac-minh/?t={c.t('t', 36, 'hex')}"
    c.links = [url]
    forgot = c.never("https://vnpay.example/tai-khoan/quen-mat-khau")
    body = (
        p("Xin chào,")
        + p("Mã xác minh của bạn: <b>205817</b>. Hoặc nhấn vào nút dưới đây:")
        + button(url, "Xác minh email", bg="#005baa")
        + p(a(forgot, "Quên mật khẩu?"))
    )
    c.html = std(c, body, brand="VNPAY", accent="#005baa", lines=["Công ty CP Giải pháp Thanh toán Việt Nam"])
    c.text = auto_text(c.html)


@case(
    "ko",
    "code+link",
    "인증번호 or '이메일 인증' button; '비밀번호 재설정' link is an account link, not this step's action",
    charset="EUC-KR",
    html_cte="base64",
)
def ko_b19_injeung_and_link(c: Case) -> None:
    c.sender = "당근 <noreply@daangn.example>"
    c.subject = "[당근] 이메일 인증번호 [481920]"
    c.codes = ["481920"]
    url = f"https://www.daangn.example/account/email/verify?token={c.t('t', 36, 'hex')}"
    c.links = [url]
    reset = c.never("https://www.daangn.example/account/password/reset")
    body = (
        p("안녕하세요, 당근입니다.")
        + p("인증번호 <b>481920</b>을 입력하거나 아래 버튼을 눌러 주세요.")
        + button(url, "이메일 인증", bg="#ff6f0f")
        + p(f"비밀번호를 잊으셨나요? {a(reset, '비밀번호 재설정')}")
    )
    c.html = std(c, body, brand="당근", accent="#ff6f0f", lines=["당근마켓"])
    c.text = auto_text(c.html)


@case(
    "zh-Hans",
    "code+link",
    "验证码 or '验证邮箱' button; 修改密码 and 安全设置 links are not it",
    html_cte="quoted-printable",
)
def zh_hans_b19_yanzhengma_he_lianjie(c: Case) -> None:
    c.sender = "知乎 <noreply@zhihu.example>"
    c.subject = "知乎邮箱验证"
    c.codes = ["739204"]
    url = f"https://www.zhihu.example/account/verify_email?token={c.t('t', 36, 'hex')}"
    c.links = [url]
    pw = c.never("https://www.zhihu.example/settings/account/password")
    sec = c.never("https://www.zhihu.example/settings/account/security")
    body = (
        p("你好：")
        + p("你的验证码是 <b>739204</b>，30分钟内有效。也可以直接点击下面的按钮：")
        + button(url, "验证邮箱", bg="#056de8")
        + p(f"{a(pw, '修改密码')} | {a(sec, '安全设置')}")
    )
    c.html = std(c, body, brand="知乎", accent="#056de8", lines=["北京智者天下科技有限公司"])
    c.text = auto_text(c.html)


@case(
    "en",
    "code+link",
    "sign-in code or magic button; 'Forgot password?', 'Wasn't you? Secure your account' and privacy are not it",
)
def en_b19_code_magic_and_account_links(c: Case) -> None:
    c.sender = "Canvasly <login@canvasly.example>"
    c.subject = "Your Canvasly sign-in code is 730 194"
    c.codes = ["730194", "730 194"]
    url = f"https://www.canvasly.example/login/email?token={c.t('t', 48)}&utm_source=login_email"
    c.links = [url]
    forgot = c.never("https://www.canvasly.example/password/forgot")
    secure = c.never("https://www.canvasly.example/account/security?ref=login_email")
    body = (
        h1("Sign in to Canvasly")
        + p("Enter this code to sign in:")
        + big("730 194")
        + p("Or sign in on this device with one click:")
        + button(url, "Sign in", bg="#7d2ae8")
        + p(f"{a(forgot, 'Forgot password?')}")
        + p(f"Wasn't you? {a(secure, 'Secure your account')}")
    )
    c.html = std(
        c,
        body,
        brand="Canvasly",
        accent="#7d2ae8",
        lines=["Canvasly Pty Ltd"],
        links=[("Privacy policy", "https://www.canvasly.example/policies/privacy")],
    )
    c.text = auto_text(c.html)


# More English negatives with many numbers and links


@case("en", "negative", "bank statement notice: account and routing numbers, balances, many tracked links")
def en_b19_neg_bank_statement(c: Case) -> None:
    c.sender = "Harbor Bank <statements@harborbank.example>"
    c.subject = "Your March statement is ready"
    view = c.never(b19_trk(c, "salesforce", "harborbank.example", "view"))
    sec = c.never(b19_trk(c, "salesforce", "harborbank.example", "security"))
    offers = c.never(b19_trk(c, "salesforce", "harborbank.example", "offers"))
    c.never(
        "****4021",
        "4021",
        "021000021",
        "2,481.37",
        "248137",
        "12,904.55",
        "1290455",
        "03/14/2025",
        "1-800-555-0199",
        "8005550199",
    )
    body = (
        p("Hi Jane,")
        + p(
            "Your statement for checking account ****4021 (routing 021000021) is ready.<br>Beginning balance: $12,904.55<br>Ending balance: $2,481.37<br>Statement date: 03/14/2025"
        )
        + button(view, "View statement", bg="#00447c")
        + p(f"{a(sec, 'Security center')} · {a(offers, 'Offers for you')} · 1-800-555-0199")
    )
    c.html = std(c, body, brand="Harbor Bank", accent="#00447c", lines=["Harbor Bank, Member FDIC"])
    c.text = auto_text(c.html)


@case(
    "en",
    "negative",
    "meeting invite: meeting ID in groups, dial-in numbers, 'Join meeting' link; no passcode",
    html_cte="quoted-printable",
)
def en_b19_neg_meeting_invite(c: Case) -> None:
    c.sender = "Max Mustermann <max@acme.example>"
    c.subject = "Invitation: Q1 review @ Fri Mar 14, 2025 10am - 11am (PDT)"
    join = c.never(f"https://meet.confero.example/j/48291377044?ctx={c.t('ctx', 24, 'hex')}")
    c.never("482 9137 7044", "48291377044", "+1 555-010-4821", "15550104821", "2025")
    body = (
        p("Max Mustermann invited you to <b>Q1 review</b>")
        + p("Friday, March 14, 2025 · 10:00 – 11:00 AM PDT")
        + button(join, "Join meeting", bg="#2d8cff")
        + p("Meeting ID: 482 9137 7044<br>Dial in: +1 555-010-4821")
    )
    c.html = plain_html(body)
    c.text = auto_text(c.html)


@case("en", "negative", "shipping update: tracking number, order number, delivery window, 'Track package' link")
def en_b19_neg_shipping(c: Case) -> None:
    c.sender = "Parcelway <updates@parcelway.example>"
    c.subject = "Your package is out for delivery"
    track = c.never("https://www.parcelway.example/track?num=1Z999AA10123456784")
    c.never("1Z999AA10123456784", "112-4829137-7720194", "4829137", "7720194", "2025")
    body = (
        p("Good news, Jane! Your package is out for delivery today between 2:00 PM and 6:00 PM.")
        + p("Tracking number: 1Z999AA10123456784<br>Order 112-4829137-7720194")
        + button(track, "Track package", bg="#351c15")
    )
    c.html = std(c, body, brand="Parcelway", accent="#351c15", lines=["© 2025 Parcelway"])
    c.text = auto_text(c.html)


# Device identifiers and times beside the code


@case(
    "sv",
    "code",
    "console sign-in code beside an Enhets-ID, a serial number and a time",
    charset="ISO-8859-1",
    html_cte="quoted-printable",
)
def sv_b19_konsol_kod_enhets_id(c: Case) -> None:
    c.sender = "Playverse <noreply@playverse.example>"
    c.subject = "Din inloggningskod"
    c.codes = ["58203"]
    c.never("7F3A-22B1-90C4", "7F3A22B190C4", "XAW10048213377", "10048213377", "2025-03-14", "21:07")
    devices = c.never("https://account.playverse.example/sv/enheter")
    body = (
        p("Hej anna_s84,")
        + p(
            "Någon försöker logga in på ditt konto från en ny konsol.<br>Enhets-ID: 7F3A-22B1-90C4<br>Serienummer: XAW10048213377<br>Tid: 2025-03-14 21:07"
        )
        + p("Ange den här koden på konsolen:")
        + big("58203")
        + p(f"{a(devices, 'Hantera enheter')}")
    )
    c.html = std(c, body, brand="Playverse", accent="#107c10", lines=["Playverse AB"])
    c.text = auto_text(c.html)


@case("cs", "code", "HTML-only: kód beside 'ID zařízení' and a time, no text part", html_cte="base64")
def cs_b19_kod_id_zarizeni_html(c: Case) -> None:
    c.sender = "O2 TV <noreply@o2tv.example>"
    c.subject = "Kód pro přihlášení nového zařízení"
    c.codes = ["K7P2Q9"]
    c.never("A49F227C", "A4-9F-22-7C", "14.03.2025", "20:15")
    c.html = plain_html(
        p("Dobrý den,")
        + p("na zařízení Samsung TV (ID zařízení: A4-9F-22-7C) bylo 14.03.2025 ve 20:15 požádáno o přihlášení.")
        + p("Zadejte na televizi tento kód:")
        + big("K7P2Q9", spacing=8)
        + p("Kód platí 15 minut.")
    )


@case(
    "uk",
    "code",
    "TV activation: 'Код пристрою' (device code) on screen versus the code from the mail",
    charset="KOI8-U",
    html_cte="quoted-printable",
)
def uk_b19_kod_prystroiu_tv(c: Case) -> None:
    c.sender = "Megogo <noreply@megogo.example>"
    c.subject = "Код для входу на телевізорі"
    c.codes = ["3918"]
    c.never("TV-72KQ", "72KQ", "14.03.2025")
    body = (
        p("Вітаємо!")
        + p("Ви входите на телевізорі LG (код пристрою TV-72KQ), 14.03.2025.")
        + p("Введіть на екрані цей код:")
        + big("3918")
        + p("Код дійсний 10 хвилин.")
    )
    c.html = std(c, body, brand="Megogo", accent="#e50914", lines=["Megogo"])
    c.text = auto_text(c.html)


@case("de", "code", "TV-Aktivierung: code in cells, Geräte-ID and a time beside it")
def de_b19_tv_aktivierung_geraete_id(c: Case) -> None:
    c.sender = "Joyn <service@joyn.example>"
    c.subject = "Dein Aktivierungscode für den Fernseher"
    c.codes = ["H4KW2P"]
    c.pieces = list("H4KW2P")
    c.never("GID-4821-7730-19", "4821773019", "14.03.2025", "19:58")
    help_url = c.never("https://www.joyn.example/hilfe/geraete")
    body = (
        p("Hallo Max,")
        + p("für deinen Fernseher (Geräte-ID GID-4821-7730-19) wurde am 14.03.2025 um 19:58 ein Code angefordert.")
        + p("Gib diesen Aktivierungscode auf dem Fernseher ein:")
        + cells("H4KW2P")
        + p(f"Probleme? {a(help_url, 'Hilfe zu Geräten')}")
    )
    c.html = std(c, body, brand="Joyn", accent="#e6007e", lines=["Joyn GmbH, München"])


@case("vi", "code", "'Mã thiết bị' (device code) and 'Mã khách hàng' beside the real mã xác thực")
def vi_b19_ma_thiet_bi(c: Case) -> None:
    c.sender = "FPT Play <noreply@fptplay.example>"
    c.subject = "Mã xác thực đăng nhập thiết bị mới"
    c.codes = ["640291"]
    c.never("DV-48213", "48213", "KH77120394", "77120394", "14/03/2025")
    c.text = dedent("""\
        Xin chào,

        Thiết bị mới đang đăng nhập vào tài khoản của bạn.
        Mã thiết bị: DV-48213
        Mã khách hàng: KH77120394
        Thời gian: 14/03/2025 20:45

        Mã xác thực: 640291

        Mã có hiệu lực trong 5 phút.
        """)


@case(
    "ru",
    "code",
    "'код устройства' on the TV screen versus the код подтверждения from the mail",
    charset="windows-1251",
    text_cte="8bit",
)
def ru_b19_kod_ustroistva(c: Case) -> None:
    c.sender = "Кинопоиск <noreply@kinopoisk.example>"
    c.subject = "Код подтверждения для телевизора"
    c.codes = ["702841"]
    c.never("Q7RT-2K", "Q7RT2K", "14.03.2025")
    c.text = dedent("""\
        Здравствуйте!

        На телевизоре с кодом устройства Q7RT-2K запрошен вход в аккаунт (14.03.2025, 21:30).

        Код подтверждения: 702841

        Если это были не вы, ничего не делайте.
        """)


@case("ja", "code", "HTML-only 認証コード beside 端末ID and a login time", charset="ISO-2022-JP")
def ja_b19_tanmatsu_id_html(c: Case) -> None:
    c.sender = "U-NEXT <info@unext.example>"
    c.subject = "テレビでのログイン用認証コード"
    c.codes = ["581047"]
    c.never("UNX-2203-8841", "22038841", "2025/03/14")
    c.html = plain_html(
        p("U-NEXTをご利用いただきありがとうございます。")
        + p("端末ID：UNX-2203-8841<br>日時：2025/03/14 21:12")
        + p("テレビの画面に次の認証コードを入力してください。")
        + big("581047")
        + p("有効期限は15分です。")
    )


@case("en", "negative", "new device added notice: device ID, time and 'Manage devices' link; no code to use")
def en_b19_neg_device_added(c: Case) -> None:
    c.sender = "Streamly <account@streamly.example>"
    c.subject = "A new device was added to your account"
    manage = c.never("https://www.streamly.example/account/devices")
    secure = c.never("https://www.streamly.example/account/security/signout-all")
    c.never("48213-77204", "4821377204", "2025")
    body = (
        p("Hi Jane,")
        + p(
            "A new device was added to your Streamly account on March 14, 2025 at 8:30 PM.<br>Device: Living Room TV<br>Device ID: 48213-77204"
        )
        + p(f"{a(manage, 'Manage devices')} &middot; Not you? {a(secure, 'Sign out of all devices')}")
    )
    c.html = std(c, body, brand="Streamly", accent="#e50914", lines=["Streamly, Inc."])
    c.text = auto_text(c.html)


# ---- end of issue 19 blind cases ----


# ---- issue 19 held-out cases ----
#
# Written blind to the extractor, after the blind block: other services, layouts and phrasings, to
# measure how the rules generalize. Expectations are what a careful reader would type or click.

# English


@case(
    "en",
    "code",
    "2FA fallback code by mail ('can't use your authenticator app?'); recovery-codes settings link and ticket number",
    html_cte="quoted-printable",
)
def en_h19_heroku_2fa_fallback(c: Case) -> None:
    c.sender = "Heroku <noreply@heroku.example>"
    c.subject = "Your Heroku two-factor fallback code"
    c.codes = ["58201744", "5820 1744"]
    recov = c.never("https://dashboard.heroku.example/account/security#recovery-codes")
    status = c.never("https://status.heroku.example/")
    c.never("#1184302", "1184302", "2025", "94105")
    body = (
        h1("Can't use your authenticator app?")
        + p(
            "You asked for a one-time fallback code for the account <b>jane.doe@example.com</b>. Enter it on the two-factor screen instead of the 6-digit code from your app:"
        )
        + big("5820 1744", size=30)
        + p(
            "This code works once and expires in 20 minutes. If you lost your phone, regenerate your "
            + a(recov, "recovery codes")
            + " after you sign in."
        )
        + p("Support ticket #1184302 is linked to this request.")
    )
    c.html = std(
        c,
        body,
        brand="Heroku",
        accent="#79589f",
        lines=["Heroku, 415 Mission Street, San Francisco, CA 94105", "&copy; 2025"],
        links=[("Status", status)],
    )
    c.text = auto_text(c.html)


@case(
    "en",
    "code",
    "code inside a sentence in the middle of a long text-only paragraph, with a version number, an amount and a ticket",
)
def en_h19_code_in_long_paragraph(c: Case) -> None:
    c.sender = "Miro Support <support@miro.example>"
    c.subject = "Re: [#553019] Workspace transfer"
    c.codes = ["730264"]
    c.never("553019", "4.21.3", "1,440.00", "144000", "2025", "20:00")
    c.text = dedent("""\
        Hi Jane,

        Thanks for your patience while we looked into ticket #553019. We checked the workspace on
        version 4.21.3 of the desktop app and everything is ready for the transfer of the annual plan
        (USD 1,440.00, renewing on April 2, 2025); to prove that you own the destination account,
        please type the verification code 730264 into the dialog that opened when you clicked
        "Transfer ownership", then press Continue. The code expires in 30 minutes, so if you do it
        later just start the transfer again and we will send you a new one. Nothing else changes
        for your team members, and the boards keep their links.

        We are around until 20:00 CET if anything goes wrong.

        Best,
        Tom from Miro Support
        """)


@case("en", "link", "device-approval mail with two buttons: 'Yes, it was me' is the action, 'No, block' is not")
def en_h19_device_approve_deny(c: Case) -> None:
    c.sender = "HashiCorp Cloud <no-reply@hashicorp.example>"
    c.subject = "Approve sign-in from a new device"
    rid = c.t("rid", 24, "hex")
    approve = f"https://portal.hashicorp.example/device-approval/{rid}/approve?sig={c.t('sig', 43)}"
    deny = c.never(f"https://portal.hashicorp.example/device-approval/{rid}/deny?sig={c.t('sig', 43)}")
    c.links = [approve]
    c.never("203.0.113.77", "10:42", "2025")
    body = (
        h1("Is this you signing in?")
        + p("We noticed a sign-in attempt from a device we don't recognise:")
        + p("Firefox 136 on Ubuntu<br>Berlin, Germany (203.0.113.77)<br>March 14, 2025 10:42 UTC")
        + button(approve, "Yes, it was me", bg="#000000")
        + button(deny, "No, block this sign-in", bg="#ffffff", fg="#c62828")
        + p("The approval link expires in 10 minutes.")
    )
    c.html = std(c, body, brand="HashiCorp", accent="#000000", lines=["HashiCorp, Inc."])
    c.text = auto_text(c.html, "bracket")


@case(
    "en",
    "link",
    "email-change confirmation: Outlook VML button, text part carries the same URL with utm_*; 'cancel this change' link",
    text_cte="quoted-printable",
)
def en_h19_email_change_vml_utm(c: Case) -> None:
    c.sender = "YNAB <hello@ynab.example>"
    c.subject = "Confirm your new email address"
    base = f"https://app.ynab.example/users/confirm_email_change?token={c.t('tok', 40, 'hex')}"
    with_utm = base + "&utm_source=transactional&utm_medium=email&utm_campaign=email_change"
    c.links = [base, with_utm]
    cancel = c.never(f"https://app.ynab.example/users/cancel_email_change?token={c.t('tok2', 40, 'hex')}")
    help_url = c.never("https://support.ynab.example/en_us/changing-your-email")
    body = (
        h1("One more step")
        + p("You asked to change the email on your YNAB account from j***@example.com to <b>jane.doe@example.org</b>.")
        + button(base, "Confirm new email", bg="#3b5eda", vml=True)
        + p(f"Didn't ask for this? {a(cancel, 'Cancel this change')} and the old address stays in place.")
        + p(f"{a(help_url, 'Help with email changes')}")
    )
    c.html = std(c, body, brand="YNAB", accent="#3b5eda", lines=["You Need A Budget LLC, 2025"])
    c.text = dedent(f"""\
        One more step

        You asked to change the email on your YNAB account from j***@example.com to jane.doe@example.org.

        Confirm new email:
        {with_utm}

        Didn't ask for this? Cancel this change: {cancel}

        Help with email changes: {help_url}
        """)


@case(
    "en",
    "negative",
    "flight itinerary: 'Confirmation code' locator, flight, seat, gate times, ticket number, check-in link",
)
def en_h19_neg_itinerary(c: Case) -> None:
    c.sender = "Alaska Airlines <itinerary@alaskaair.example>"
    c.subject = "Your trip confirmation: QXTRMB - Seattle to Anchorage"
    checkin = c.never("https://www.alaskaair.example/checkin?pnr=QXTRMB&lastname=DOE")
    manage = c.never("https://www.alaskaair.example/booking/reservation-lookup?pnr=QXTRMB")
    c.never(
        "QXTRMB", "0272198455310", "2025", "AS 105", "15:40", "18:32", "412.60", "41260", "800-252-7522", "8002527522"
    )
    body = (
        h1("You're all set, Jane")
        + p("Confirmation code: <b>QXTRMB</b><br>E-ticket number: 0272198455310")
        + '<table style="width:100%;font-size:14px"><tr><th align="left">Flight</th><th align="left">Depart</th><th align="left">Arrive</th><th align="left">Seat</th></tr>'
        "<tr><td>AS 105</td><td>SEA Fri, Mar 21, 2025 15:40</td><td>ANC 18:32</td><td>14C</td></tr></table>"
        + p("Total paid: $412.60")
        + button(checkin, "Check in online", bg="#01426a")
        + p(f"{a(manage, 'Manage reservation')} &middot; Reservations: 800-252-7522")
    )
    c.html = std(c, body, brand="Alaska Airlines", accent="#01426a", lines=["Alaska Airlines, Seattle, WA"])
    c.text = auto_text(c.html)


@case(
    "en",
    "negative",
    "calendar invitation with an .ics attachment: meeting code letters, dial-in number, join and RSVP links",
)
def en_h19_neg_calendar_ics(c: Case) -> None:
    c.sender = "Jane Doe (via Google Calendar) <calendar-notification@google.example>"
    c.subject = "Invitation: Q2 planning @ Thu Mar 20, 2025 2pm - 3pm (PDT)"
    join = c.never("https://meet.google.example/qvx-mjtr-pkd")
    yes = c.never(f"https://calendar.google.example/calendar/event?action=RESPOND&eid={c.t('eid', 40)}&rst=1")
    no = c.never(f"https://calendar.google.example/calendar/event?action=RESPOND&eid={c.t('eid', 40)}&rst=2")
    c.never("+1 929-555-0142", "9295550142", "2025", "qvx-mjtr-pkd")
    body = (
        h1("Q2 planning")
        + p("Thursday Mar 20, 2025 &middot; 2pm – 3pm (Pacific Time - Los Angeles)")
        + button(join, "Join with Google Meet", bg="#1a73e8")
        + p("Meeting link: meet.google.example/qvx-mjtr-pkd<br>Join by phone: (US) +1 929-555-0142")
        + p(f"Going? {a(yes, 'Yes')} - {a(no, 'No')}")
    )
    c.html = card(c, body, brand="Google Calendar")
    c.text = auto_text(c.html)
    ics(
        c,
        "BEGIN:VCALENDAR\nMETHOD:REQUEST\nBEGIN:VEVENT\nDTSTART:20250320T210000Z\nDTEND:20250320T220000Z\n"
        "SUMMARY:Q2 planning\nUID:7kq2mdl0j4v8@google.example\nEND:VEVENT\nEND:VCALENDAR\n",
    )


@case(
    "en",
    "negative",
    "Outlook/MSO HTML bank statement: account ending, balances, statement date; 'Log in to view' link",
    html_cte="quoted-printable",
)
def en_h19_neg_mso_statement(c: Case) -> None:
    c.sender = "Ally Bank <statements@ally.example>"
    c.subject = "Your February 2025 statement is ready"
    login = c.never("https://secure.ally.example/login?goto=statements&utm_source=email")
    priv = c.never("https://www.ally.example/privacy/")
    c.never("4021", "2025", "12,480.22", "1248022", "3.80", "1-877-247-2559", "18772472559")
    c.html = (
        '<html xmlns:o="urn:schemas-microsoft-com:office:office"><head><meta http-equiv="Content-Type" content="text/html; charset=utf-8">'
        '<style>p.MsoNormal{margin:0cm;font-size:11.0pt;font-family:"Calibri",sans-serif;}</style></head><body lang="EN-US">'
        '<div class="WordSection1">'
        '<p class="MsoNormal">Hi Jane,<o:p></o:p></p><p class="MsoNormal"><o:p>&nbsp;</o:p></p>'
        '<p class="MsoNormal">Your statement for Online Savings account ending in 4021 for February 2025 is ready.<o:p></o:p></p>'
        '<p class="MsoNormal">Ending balance: $12,480.22 &nbsp; Annual percentage yield: 3.80%<o:p></o:p></p>'
        f'<p class="MsoNormal"><a href="{esc(login)}">Log in to view your statement</a><o:p></o:p></p>'
        '<p class="MsoNormal">Questions? Call 1-877-247-2559.<o:p></o:p></p>'
        f'<p class="MsoNormal"><span style="font-size:8.0pt"><a href="{esc(priv)}">Privacy</a></span><o:p></o:p></p>'
        "</div></body></html>"
    )


@case(
    "en", "code", "nested-table AMP-style layout: code in the hidden preheader and one digit per cell; 'not you?' link"
)
def en_h19_nested_cells_preheader(c: Case) -> None:
    c.sender = "Canva Pro <no-reply@canva.example>"
    c.subject = "Sign in to Canva"
    c.codes = ["492817"]
    c.pieces = list("492817")
    notyou = c.never("https://www.canva.example/account/security?src=login_code_email")
    c.never("2025")
    inner = (
        '<table role="presentation" width="100%"><tr><td><table role="presentation" width="100%"><tr><td>'
        + h1("Your login code")
        + p("Enter this code to finish signing in. It expires in 10 minutes.")
        + '<table role="presentation" width="100%"><tr><td align="center">'
        + cells("492817")
        + "</td></tr></table>"
        + p(f"Not you? {a(notyou, 'Secure your account')}")
        + "</td></tr></table></td></tr></table>"
    )
    c.html = card(
        c,
        inner,
        brand="Canva",
        pre="Your Canva login code is 492817",
        accent="#7d2ae8",
        footer=foot(c, ["Canva, 110 Kippax St, Surry Hills NSW 2010", "&copy; 2025 Canva"], decoys=["2010"]),
    )
    c.text = "Your Canva login code is 492817. It expires in 10 minutes.\n"


@case("en", "negative", "security advisory: CVE and GHSA identifiers, version numbers and a 'review alert' link")
def en_h19_neg_dependabot(c: Case) -> None:
    c.sender = "GitHub <noreply@github.example>"
    c.subject = "[acme/web] Critical severity alert for lodash"
    review = c.never("https://github.example/acme/web/security/dependabot/42")
    settings = c.never("https://github.example/settings/notifications")
    c.never("CVE-2025-21987", "2025-21987", "GHSA-p6mc-m468-83gw", "4.17.20", "4.17.21", "2025")
    c.text = dedent(f"""\
        Critical severity alert for lodash

        A vulnerable version of lodash (4.17.20) is used in package-lock.json of acme/web.
        Upgrade to 4.17.21 or later.

        CVE-2025-21987 / GHSA-p6mc-m468-83gw
        Review the alert: {review}

        You are receiving this because you are subscribed to security alerts.
        Manage your notification settings: {settings}
        """)


@case(
    "en",
    "link",
    "text-only magic link in <angle brackets>, long URL soft-wrapped by quoted-printable; preferences link",
    text_cte="quoted-printable",
)
def en_h19_magic_angle_qp(c: Case) -> None:
    c.sender = "Readwise <hello@readwise.example>"
    c.subject = "Your sign-in link for Readwise"
    url = (
        f"https://readwise.example/accounts/magic_login/?email=jane.doe%40example.com&expires=1741942397"
        f"&key={c.t('k', 24, 'hex')}=&sig={c.t('s', 64, 'hex')}"
    )
    c.links = [url]
    prefs = c.never("https://readwise.example/accounts/email_preferences")
    c.never("1741942397")
    c.text = (
        "Hi Jane,\n\nClick the link below to sign in to Readwise. It can be used once and stops working in 15 minutes.\n\n"
        f"<{url}>\n\nIf you did not ask for this, ignore this email.\n\n-- \nReadwise\nEmail preferences: <{prefs}>\n"
    )


@case(
    "en",
    "code",
    "code only in the subject; the body says 'the code in the subject line' and quotes a help article number",
)
def en_h19_subject_only_code(c: Case) -> None:
    c.sender = "Bumble <noreply@bumble.example>"
    c.subject = "583920 is your Bumble verification code"
    c.codes = ["583920"]
    help_url = c.never("https://bumble.example/help/article/360014")
    c.never("360014", "2025")
    c.html = plain_html(
        p("Hi there,")
        + p(
            "Use the code in the subject line of this email to verify your account. Don't share it with anyone, not even someone who says they work for Bumble."
        )
        + p(f"Trouble? See help article {a(help_url, '360014')}.")
        + p("&copy; 2025 Bumble")
    )


# German


@case(
    "de",
    "code",
    "ING TAN for a transfer in a text-only ISO-8859-15 mail: amount, IBAN, order number, hotline",
    charset="ISO-8859-15",
    text_cte="quoted-printable",
)
def de_h19_ing_tan(c: Case) -> None:
    c.sender = "ING <noreply@ing.example.de>"
    c.subject = "Ihre TAN für die Überweisung"
    c.codes = ["739204", "739 204"]
    c.never(
        "1.250,00",
        "125000",
        "DE89 3704 0044 0532 0130 00",
        "DE89370400440532013000",
        "3704",
        "0532",
        "0130",
        "2025031488120",
        "069 / 50 500 105",
        "06950500105",
    )
    c.text = dedent("""\
        Guten Tag Herr Mustermann,

        Sie möchten folgende Überweisung freigeben:

        Betrag:          1.250,00 €
        Empfänger-IBAN:  DE89 3704 0044 0532 0130 00
        Auftragsnummer:  2025031488120

        Ihre TAN lautet: 739 204

        Die TAN ist 5 Minuten gültig. Prüfen Sie Betrag und IBAN, bevor Sie die TAN eingeben.

        Fragen? 069 / 50 500 105
        ING-DiBa AG
        """)


@case(
    "de",
    "link",
    "E-Mail-Änderung bestätigen; 'Das war nicht ich – Passwort ändern' and imprint links",
    charset="ISO-8859-1",
    html_cte="quoted-printable",
    subject_mode="Q",
)
def de_h19_xing_email_aendern(c: Case) -> None:
    c.sender = "XING <noreply@xing.example>"
    c.subject = "Bitte bestätige Deine neue E-Mail-Adresse"
    url = f"https://www.xing.example/settings/email/bestaetigen?code={c.t('c', 36, 'b62')}"
    c.links = [url]
    pw = c.never("https://www.xing.example/settings/password/aendern")
    imp = c.never("https://www.xing.example/impressum")
    c.never("20457", "HRB 148078", "148078")
    body = (
        h1("Neue E-Mail-Adresse bestätigen")
        + p("Hallo Max, Du hast die E-Mail-Adresse Deines XING-Profils in <b>max.m@example.de</b> geändert.")
        + button(url, "Jetzt bestätigen", bg="#006567")
        + p(f"Das warst nicht Du? {a(pw, 'Passwort ändern')}")
    )
    c.html = std(
        c,
        body,
        brand="XING",
        accent="#006567",
        lines=["New Work SE, Am Strandkai 1, 20457 Hamburg, HRB 148078"],
        links=[("Impressum", imp)],
    )
    c.text = auto_text(c.html)


@case("de", "negative", "Stromrechnung: Kundennummer, Vertragsnummer, Zählernummer, Abschlag, Kundenportal-Login")
def de_h19_neg_stromrechnung(c: Case) -> None:
    c.sender = "Stadtwerke München <rechnung@swm.example>"
    c.subject = "Ihre Jahresabrechnung 2024"
    portal = c.never("https://www.swm.example/kundenportal/login")
    c.never(
        "8801245733",
        "40211992",
        "1ESY1160648392",
        "89,00",
        "8900",
        "1.082,41",
        "108241",
        "2024",
        "80287",
        "0800 796 796 0",
        "08007967960",
    )
    body = (
        h1("Ihre Jahresabrechnung 2024")
        + p("Kundennummer: 8801245733<br>Vertragskonto: 40211992<br>Zählernummer: 1ESY1160648392")
        + p(
            "Verbrauch 2024: 2.314 kWh &middot; Gesamtbetrag: 1.082,41 €<br>Neuer monatlicher Abschlag ab April: 89,00 €"
        )
        + button(portal, "Zum Kundenportal", bg="#00509e")
        + p("Service: 0800 796 796 0 (kostenfrei)")
    )
    c.html = std(
        c, body, brand="SWM", accent="#00509e", lines=["Stadtwerke München GmbH, Emmy-Noether-Str. 2, 80287 München"]
    )
    c.text = auto_text(c.html)


@case(
    "de", "link", "Gerät freigeben: Mailgun-tracked approval button with VML twin; 'Das war ich nicht' and help links"
)
def de_h19_geraet_freigeben(c: Case) -> None:
    c.sender = "Trade Republic <service@traderepublic.example>"
    c.subject = "Neues Gerät freigeben"
    url = b19_trk(c, "mailgun", "traderepublic.example", "approve")
    c.links = [url]
    notme = c.never(b19_trk(c, "mailgun", "traderepublic.example", "notme"))
    help_url = c.never(b19_trk(c, "mailgun", "traderepublic.example", "help"))
    c.never("10119", "HRB 244347", "244347", "198.51.100.4")
    body = (
        h1("Anmeldung auf neuem Gerät")
        + p("Jemand möchte sich auf einem iPhone 15 (IP 198.51.100.4) bei Deinem Konto anmelden. Warst Du das?")
        + button(url, "Gerät freigeben", bg="#000000", vml=True)
        + p(f"{a(notme, 'Das war ich nicht')} &middot; {a(help_url, 'Hilfe')}")
    )
    c.html = std(
        c,
        body,
        brand="Trade Republic",
        lines=["Trade Republic Bank GmbH, Brunnenstraße 19-21, 10119 Berlin, HRB 244347"],
    )
    c.text = auto_text(c.html)


@case(
    "de",
    "negative",
    "DHL Sendungsverfolgung: Sendungsnummer, Zeitfenster, PLZ; no pickup code",
    html_cte="quoted-printable",
)
def de_h19_neg_dhl_zustellung(c: Case) -> None:
    c.sender = "DHL Paket <noreply@dhl.example.de>"
    c.subject = "Ihr Paket kommt heute zwischen 10:30 und 12:30 Uhr"
    track = c.never(
        "https://www.dhl.example.de/de/privatkunden/pakete-empfangen/verfolgen.html?piececode=00340434161234567890"
    )
    change = c.never("https://www.dhl.example.de/de/privatkunden/pakete-empfangen/zustellung-aendern.html")
    c.never("00340434161234567890", "10:30", "12:30", "53113", "2025")
    body = (
        h1("Ihr Paket kommt heute")
        + p(
            "Sendungsnummer: 00340434161234567890<br>Voraussichtliches Zeitfenster: 10:30 – 12:30 Uhr<br>Lieferadresse: 53113 Bonn"
        )
        + button(track, "Sendung verfolgen", bg="#d40511")
        + p(f"Nicht zu Hause? {a(change, 'Zustellung ändern')}")
    )
    c.html = std(
        c,
        body,
        brand="DHL",
        accent="#ffcc00",
        lines=["Deutsche Post AG, Charles-de-Gaulle-Str. 20, 53113 Bonn", "&copy; 2025"],
    )
    c.text = auto_text(c.html)


@case(
    "de",
    "code",
    "account-recovery code, alphanumeric with a dash, below a Kundennummer and above 'Passwort vergessen?'",
)
def de_h19_wiederherstellungscode(c: Case) -> None:
    c.sender = "mail.de <sicherheit@mail.example.de>"
    c.subject = "Ihr Wiederherstellungscode"
    c.codes = ["K4M7-2QXP", "K4M72QXP"]
    forgot = c.never("https://mail.example.de/passwort-vergessen")
    c.never("KD-5520194", "5520194", "2025")
    body = (
        h1("Konto wiederherstellen")
        + p("Kundennummer: KD-5520194")
        + p("Geben Sie diesen Wiederherstellungscode im Formular ein, um wieder Zugriff auf Ihr Postfach zu erhalten:")
        + big("K4M7-2QXP", size=28)
        + p("Der Code ist 24 Stunden gültig.")
        + p(a(forgot, "Passwort vergessen?"))
    )
    c.html = std(c, body, brand="mail.de", lines=["mail.de GmbH &copy; 2025"])
    c.text = auto_text(c.html)


# French


@case(
    "fr",
    "code",
    "impots.gouv code de confirmation in a text-only mail: numéro fiscal, référence d'avis, dates",
    charset="ISO-8859-1",
    text_cte="quoted-printable",
    subject_mode="Q",
)
def fr_h19_impots_code(c: Case) -> None:
    c.sender = "impots.gouv.fr <ne-pas-repondre@dgfip.example.fr>"
    c.subject = "Votre code de confirmation - espace particulier"
    c.codes = ["4827193"]
    c.never("1234567890123", "2524A123456789", "809 401 401", "809401401", "2025")
    c.text = dedent("""\
        Madame, Monsieur,

        Vous avez demandé la modification de l'adresse électronique de votre espace particulier
        (numéro fiscal 1234567890123).

        Votre code de confirmation est : 4827193

        Ce code est valable 30 minutes. Référence de votre dernier avis : 2524A123456789.

        Pour toute question : 809 401 401 (service gratuit + prix d'un appel), du lundi au vendredi.

        La Direction générale des Finances publiques - 2025
        """)


@case("fr", "link", "approbation d'un nouvel appareil: 'Approuver' button, 'Ce n'était pas moi' and settings links")
def fr_h19_qonto_approuver_appareil(c: Case) -> None:
    c.sender = "Qonto <no-reply@qonto.example>"
    c.subject = "Nouvelle connexion : approuvez-vous cet appareil ?"
    url = f"https://app.qonto.example/fr/appareils/approuver?request={c.t('r', 32, 'hex')}"
    c.links = [url]
    notme = c.never(f"https://app.qonto.example/fr/appareils/refuser?request={c.t('r', 32, 'hex')}")
    settings = c.never("https://app.qonto.example/fr/parametres/securite")
    c.never("192.0.2.81", "75009", "819 489 626", "819489626")
    body = (
        h1("Approuvez-vous cet appareil ?")
        + p("Une tentative de connexion a eu lieu depuis Safari sur macOS, Lyon (192.0.2.81).")
        + button(url, "Approuver l'appareil", bg="#1d1d1b")
        + p(f"{a(notme, 'Ce n’était pas moi')} &middot; {a(settings, 'Paramètres de sécurité')}")
    )
    c.html = std(c, body, brand="Qonto", lines=["Olinda SAS, 18 rue de Navarin, 75009 Paris, RCS 819 489 626"])
    c.text = auto_text(c.html)


@case(
    "fr",
    "negative",
    "relevé de compte: IBAN, solde, date d'arrêté, 'Se connecter' link",
    charset="ISO-8859-15",
    html_cte="quoted-printable",
)
def fr_h19_neg_releve(c: Case) -> None:
    c.sender = "Boursorama Banque <releves@boursorama.example>"
    c.subject = "Votre relevé de compte de février est disponible"
    login = c.never("https://clients.boursorama.example/connexion/?origin=releve")
    c.never(
        "FR76 4061 8802 8000 0401 2345 678",
        "FR7640618802800004012345678",
        "2 318,45",
        "231845",
        "28/02/2025",
        "2025",
        "92100",
    )
    body = (
        h1("Votre relevé est disponible")
        + p("Compte courant n° FR76 4061 8802 8000 0401 2345 678<br>Solde au 28/02/2025 : 2 318,45 €")
        + button(login, "Se connecter pour le consulter", bg="#0055a4")
    )
    c.html = std(c, body, brand="Boursorama", lines=["Boursorama, 44 rue Traversière, 92100 Boulogne-Billancourt"])
    c.text = auto_text(c.html)


@case("fr", "negative", "e-billet de train: référence de dossier (letters), numéro de train, voiture et place, total")
def fr_h19_neg_ebillet(c: Case) -> None:
    c.sender = "OUIGO <confirmation@ouigo.example>"
    c.subject = "Votre e-billet OUIGO - dossier QXRTPZ"
    dl = c.never(f"https://www.ouigo.example/e-billet/telecharger?dossier=QXRTPZ&k={c.t('k', 20)}")
    manage = c.never("https://www.ouigo.example/mes-voyages")
    c.never("QXRTPZ", "7615", "2025", "29,00", "2900", "082")
    body = (
        h1("Bon voyage !")
        + p(
            "Référence de dossier : <b>QXRTPZ</b><br>Train n° 7615 Paris Gare de Lyon → Marseille St-Charles<br>Vendredi 21 mars 2025, départ 07:52<br>Voiture 14, place 082"
        )
        + p("Total payé : 29,00 €")
        + button(dl, "Télécharger mon e-billet", bg="#e5007d")
        + p(a(manage, "Gérer mes voyages"))
    )
    c.html = std(c, body, brand="OUIGO", lines=["SNCF Voyageurs"])
    c.text = auto_text(c.html)


@case(
    "fr",
    "code",
    "code in one digit per table cell; 'Mot de passe oublié ?' link and a member number",
    html_cte="base64",
)
def fr_h19_vinted_code_cellules(c: Case) -> None:
    c.sender = "Vinted <no-reply@vinted.example>"
    c.subject = "Ton code de vérification Vinted"
    c.codes = ["3071"]
    c.pieces = list("3071")
    forgot = c.never("https://www.vinted.example/member/forgot_password")
    c.never("84512096", "2025")
    body = (
        h1("Vérifie que c'est bien toi")
        + p("Saisis ce code dans l'appli pour continuer. Il expire dans 15 minutes.")
        + cells("3071")
        + p("Numéro de membre : 84512096")
        + p(a(forgot, "Mot de passe oublié ?"))
    )
    c.html = std(c, body, brand="Vinted", accent="#09b1ba", lines=["Vinted UAB, Vilnius &copy; 2025"])


# Spanish


@case(
    "es",
    "code",
    "CaixaBank code when the SMS does not arrive: card ending, amount, merchant, 8-digit code",
    charset="windows-1252",
    html_cte="quoted-printable",
)
def es_h19_caixabank_sin_sms(c: Case) -> None:
    c.sender = "CaixaBank <avisos@caixabank.example>"
    c.subject = "¿No te ha llegado el SMS? Tu código de operación"
    c.codes = ["61829047"]
    c.never("4021", "249,90", "24990", "900 40 40 90", "900404090", "2025")
    body = (
        h1("Código para confirmar tu compra")
        + p("Compra con tu tarjeta terminada en 4021 en AMAZON EU por 249,90 EUR.")
        + p(
            "Si no has recibido el SMS, introduce este código en la página del comercio: <b style='font-size:22px'>61829047</b>"
        )
        + p("Nunca te pediremos este código por teléfono. Atención al cliente: 900 40 40 90.")
    )
    c.html = std(c, body, brand="CaixaBank", accent="#007eae", lines=["CaixaBank, S.A. &copy; 2025"])
    c.text = auto_text(c.html)


@case("es", "negative", "Correos: código de envío (alphanumeric), oficina, código postal, horario")
def es_h19_neg_correos_envio(c: Case) -> None:
    c.sender = "Correos <notificaciones@correos.example>"
    c.subject = "Tu envío PQ4F6P0712345670128001X está en camino"
    track = c.never(
        "https://www.correos.example/es/es/herramientas/localizador/envios/detalle?tracking-number=PQ4F6P0712345670128001X"
    )
    c.never("PQ4F6P0712345670128001X", "28014", "2025", "08:30", "20:30")
    body = (
        h1("Tu envío está en camino")
        + p(
            "Código de envío: PQ4F6P0712345670128001X<br>Oficina de destino: Madrid Sucursal 21, 28014<br>Horario: 08:30 a 20:30"
        )
        + button(track, "Seguir mi envío", bg="#ffcd00", fg="#002e6d")
    )
    c.html = std(c, body, brand="Correos", lines=["Sociedad Estatal Correos y Telégrafos &copy; 2025"])
    c.text = auto_text(c.html)


@case(
    "es",
    "link",
    "cambio de email: confirm link with &amp; in the href and & in the text; 'no fui yo' link",
    charset="ISO-8859-1",
)
def es_h19_idealista_cambio_email(c: Case) -> None:
    c.sender = "idealista <noreply@idealista.example>"
    c.subject = "Confirma tu nuevo email"
    url = f"https://www.idealista.example/usuario/confirmar-cambio-email?uid=7720419&t={c.t('t', 30, 'hex')}"
    c.links = [url]
    notme = c.never("https://www.idealista.example/usuario/seguridad/no-fui-yo")
    c.never("7720419")
    body = (
        h1("Confirma tu nuevo email")
        + p(
            "Has pedido usar <b>jane.doe@example.es</b> en tu cuenta. Pulsa el botón para confirmarlo (válido 24 horas)."
        )
        + button(url, "Confirmar email", bg="#e1f56e", fg="#222")
        + p(f"¿No has sido tú? {a(notme, 'Avísanos')}")
    )
    c.html = std(c, body, brand="idealista", lines=["idealista S.A.U."])
    c.text = auto_text(c.html)


@case(
    "es",
    "negative",
    "factura de luz: CUPS, número de contrato, importe, periodo, 'Ver factura' link",
    html_cte="base64",
)
def es_h19_neg_factura_luz(c: Case) -> None:
    c.sender = "Iberdrola Clientes <facturas@iberdrola.example>"
    c.subject = "Tu factura de luz de febrero: 67,42 €"
    view = c.never("https://www.iberdrola.example/clientes/facturas/ver?id=FE25093312047")
    c.never("ES0021000012345678AB", "FE25093312047", "25093312047", "67,42", "6742", "2025", "900 225 235", "900225235")
    body = (
        h1("Ya tienes tu factura")
        + p(
            "CUPS: ES0021000012345678AB<br>N.º de factura: FE25093312047<br>Periodo: 01/02/2025 - 28/02/2025<br>Importe: 67,42 €"
        )
        + button(view, "Ver factura", bg="#00a443")
        + p("Atención al cliente: 900 225 235")
    )
    c.html = std(c, body, brand="Iberdrola", lines=["Iberdrola Clientes, S.A.U."])


@case(
    "es",
    "code",
    "Cabify code in subject, hidden preheader and body; phone number and ride amount nearby",
    subject_mode="Q",
)
def es_h19_cabify_codigo(c: Case) -> None:
    c.sender = "Cabify <no-reply@cabify.example>"
    c.subject = "Tu código de acceso es 5207"
    c.codes = ["5207"]
    c.never("+34 600 123 456", "34600123456", "600123456", "12,40", "1240")
    body = (
        h1("Entra en Cabify")
        + p("Introduce este código en la app. Caduca en 5 minutos.")
        + big("5207", size=36, spacing=12)
        + p("Teléfono de la cuenta: +34 600 123 456. Tu último viaje costó 12,40 €.")
    )
    c.html = card(c, body, brand="Cabify", pre="Tu código de acceso es 5207", accent="#7145d6")


# Italian


@case(
    "it",
    "code",
    "SPID codice OTP for login: numero pratica, codice fiscale, hotline",
    charset="ISO-8859-15",
    html_cte="quoted-printable",
)
def it_h19_spid_codice_otp(c: Case) -> None:
    c.sender = "Aruba ID <noreply@arubaid.example>"
    c.subject = "Codice OTP per l'accesso con SPID"
    c.codes = ["850316"]
    c.never("RSSMRA80A01H501U", "2025-00731942", "0575 0504", "05750504", "2025")
    body = (
        h1("Accesso con SPID")
        + p(
            "Gentile Mario Rossi (codice fiscale RSSMRA80A01H501U), per completare l'accesso al servizio INPS inserisci il seguente codice OTP:"
        )
        + big("850316")
        + p("Il codice è valido 120 secondi. Numero pratica: 2025-00731942.")
        + p("Assistenza: 0575 0504")
    )
    c.html = std(c, body, brand="Aruba", lines=["Aruba PEC S.p.A."])
    c.text = auto_text(c.html)


@case(
    "it",
    "negative",
    "conferma prenotazione hotel: codice prenotazione with digits, check-in times, totale, phone and postcode",
)
def it_h19_neg_prenotazione_hotel(c: Case) -> None:
    c.sender = "Hotel Santa Croce <booking@hotelsantacroce.example>"
    c.subject = "Conferma prenotazione n. 48201-FI"
    manage = c.never(f"https://booking.hotelsantacroce.example/prenotazione/gestisci?id=48201-FI&k={c.t('k', 16)}")
    c.never(
        "48201-FI", "48201", "312,00", "31200", "15:00", "11:00", "+39 055 123 4567", "390551234567", "50122", "2025"
    )
    body = (
        h1("Grazie per aver prenotato")
        + p(
            "Codice prenotazione: <b>48201-FI</b><br>Arrivo: 21/03/2025 (check-in dalle 15:00)<br>Partenza: 23/03/2025 (check-out entro le 11:00)<br>Totale: 312,00 €"
        )
        + button(manage, "Gestisci la prenotazione", bg="#8b0000")
        + p("Via dei Benci 12, 50122 Firenze &middot; +39 055 123 4567")
    )
    c.html = std(c, body, brand="Hotel Santa Croce", lines=["Hotel Santa Croce s.r.l."])
    c.text = auto_text(c.html)


@case(
    "it",
    "link",
    "recupero account: Mailgun-tracked 'Recupera il tuo account' button; privacy and help links equally opaque",
)
def it_h19_recupero_account(c: Case) -> None:
    c.sender = "Satispay <noreply@satispay.example>"
    c.subject = "Recupera l'accesso al tuo account"
    url = b19_trk(c, "mailgun", "satispay.example", "recover")
    c.links = [url]
    help_url = c.never(b19_trk(c, "mailgun", "satispay.example", "help"))
    priv = c.never(b19_trk(c, "mailgun", "satispay.example", "privacy"))
    body = (
        h1("Recupera il tuo account")
        + p(
            "Abbiamo ricevuto una richiesta di recupero dell'account associato a questo indirizzo. Il link scade tra 1 ora."
        )
        + button(url, "Recupera il tuo account", bg="#ef4135")
        + p(f"{a(help_url, 'Centro assistenza')} &middot; {a(priv, 'Privacy')}")
    )
    c.html = std(c, body, brand="Satispay", lines=["Satispay Europe S.A."])
    c.text = auto_text(c.html)


@case(
    "it",
    "negative",
    "newsletter: 'codice sconto PRIMAVERA15', 'conferma le tue preferenze' footer, prices",
    html_cte="quoted-printable",
)
def it_h19_neg_newsletter_sconto(c: Case) -> None:
    c.sender = "Feltrinelli <newsletter@lafeltrinelli.example>"
    c.subject = "Il 15% su tutti i libri: usa il codice PRIMAVERA15"
    shop = c.never(b19_trk(c, "salesforce", "lafeltrinelli.example", "shop"))
    prefs = c.never(b19_trk(c, "salesforce", "lafeltrinelli.example", "prefs"))
    unsub = c.never(b19_trk(c, "salesforce", "lafeltrinelli.example", "unsub"))
    c.never("PRIMAVERA15", "2025", "18,90", "1890", "20121")
    body = (
        h1("Primavera di libri")
        + p("Fino al 31 marzo 2025 inserisci il codice sconto <b>PRIMAVERA15</b> al carrello. Novità da 18,90 €.")
        + button(shop, "Scopri le novità", bg="#e30613")
        + b19_small(f"{a(prefs, 'Conferma le tue preferenze')} &middot; {a(unsub, 'Annulla iscrizione')}")
    )
    c.html = std(c, body, brand="laFeltrinelli", lines=["Feltrinelli S.p.A., Via Tucidide 56, 20121 Milano"])
    c.text = auto_text(c.html)


# Japanese


@case(
    "ja",
    "code",
    "三菱UFJ ワンタイムパスワード one digit per cell in Shift_JIS HTML; お客さま番号 and 受付時間 decoys",
    charset="Shift_JIS",
    html_cte="base64",
)
def ja_h19_mufg_onetime_cells(c: Case) -> None:
    c.sender = "三菱UFJ銀行 <info@mufg.example.jp>"
    c.subject = "【三菱UFJ銀行】ワンタイムパスワードのお知らせ"
    c.codes = ["830572"]
    c.pieces = list("830572")
    faq = c.never("https://www.bk.mufg.example.jp/faq/onetime.html")
    c.never("0012345678", "0120-543-555", "0120543555", "2025")
    body = (
        p("山田太郎 様")
        + p("ご本人確認のため、以下のワンタイムパスワードを画面に入力してください。")
        + cells("830572")
        + p("有効期限：発行から10分間")
        + p("お客さま番号：0012345678")
        + p(f"受付時間 9:00-21:00 / 0120-543-555 &nbsp; {a(faq, 'よくあるご質問')}")
    )
    c.html = std(c, body, brand="三菱UFJ銀行", accent="#e60012", lines=["株式会社三菱UFJ銀行 2025"])


@case(
    "ja",
    "link",
    "メールアドレス変更の確認: URL on its own line in an ISO-2022-JP text-only mail, 問い合わせ URL below",
    charset="ISO-2022-JP",
)
def ja_h19_mail_henko_url(c: Case) -> None:
    c.sender = "ヨドバシ・ドット・コム <info@yodobashi.example.jp>"
    c.subject = "メールアドレス変更のご確認"
    url = f"https://order.yodobashi.example.jp/yc/member/mailchange/confirm.html?key={c.t('k', 40, 'b62')}"
    c.links = [url]
    contact = c.never("https://www.yodobashi.example.jp/ec/support/contact/index.html")
    c.never("2008-0157-22", "2008015722")
    c.text = dedent(f"""\
        ヨドバシ・ドット・コムをご利用いただきありがとうございます。

        会員番号 2008-0157-22 のメールアドレス変更を受け付けました。
        下記のURLにアクセスして、変更を完了してください。

        {url}

        ※このURLの有効期限は24時間です。
        ※お心当たりのない場合は、このメールを破棄してください。

        お問い合わせ
        {contact}
        """)


@case(
    "ja",
    "negative",
    "ホテル予約確認: 予約番号, チェックイン時刻, 料金, 電話番号, 予約確認 link",
    html_cte="quoted-printable",
)
def ja_h19_neg_hotel_yoyaku(c: Case) -> None:
    c.sender = "じゃらんnet <info@jalan.example.jp>"
    c.subject = "【じゃらんnet】予約確認 予約番号：0E7R4K2M"
    view = c.never(f"https://www.jalan.example.jp/uw/uwp1700/uww1701.do?yadNo=312458&rsvNo=0E7R4K2M&k={c.t('k', 12)}")
    cancel = c.never("https://www.jalan.example.jp/uw/uwp1900/cancel.do?rsvNo=0E7R4K2M")
    c.never("0E7R4K2M", "312458", "18,400", "18400", "15:00", "075-123-4567", "0751234567", "2025")
    body = (
        h1("ご予約ありがとうございます")
        + p("予約番号：0E7R4K2M<br>宿泊日：2025年3月21日から1泊<br>チェックイン：15:00<br>合計料金：18,400円（税込）")
        + p("宿泊施設 電話番号：075-123-4567")
        + button(view, "予約内容を確認する", bg="#e8490f")
        + p(a(cancel, "予約のキャンセル"))
    )
    c.html = std(c, body, brand="じゃらんnet", lines=["株式会社リクルート"])
    c.text = auto_text(c.html)


@case(
    "ja",
    "code",
    "確認コード inside a sentence of a long paragraph (base64 UTF-8 text), with 会員ID and an app version",
    text_cte="base64",
)
def ja_h19_code_bunchu(c: Case) -> None:
    c.sender = "pixiv <no-reply@pixiv.example>"
    c.subject = "pixivからのお知らせ"
    c.codes = ["604218", "604 218"]
    c.never("58201937", "6.112.0", "2025")
    c.text = dedent("""\
        いつもpixivをご利用いただきありがとうございます。会員ID 58201937 のアカウントで、アプリ（バージョン 6.112.0）から新しい端末でのログインが試みられたため、ご本人確認をお願いしております。ログインを続けるには、アプリの確認画面で 604 218 を入力してください。このコードの有効期限は発行から15分です。ご本人による操作でない場合は、このメールを破棄していただき、念のためパスワードを変更してください。

        pixiv株式会社 2025
        """)


@case(
    "ja",
    "negative",
    "カード利用明細: ご利用金額, お支払日, カード下4桁, ログインはこちら link",
    charset="EUC-JP",
    html_cte="base64",
)
def ja_h19_neg_card_meisai(c: Case) -> None:
    c.sender = "楽天カード <info@rakuten-card.example.jp>"
    c.subject = "【楽天カード】ご請求金額確定のお知らせ"
    login = c.never("https://www.rakuten-card.example.jp/e-navi/login/?l-id=mail_meisai")
    c.never("42,318", "42318", "4021", "2025", "0570-66-6910", "0570666910")
    body = (
        p("楽天 太郎 様")
        + p("2025年3月27日お支払い分のご請求金額が確定しました。")
        + p("カード：楽天カード（下4桁 4021）<br>ご請求金額：42,318円")
        + p(f"明細の確認は{a(login, 'ログインはこちら')}")
        + p("楽天カードコンタクトセンター 0570-66-6910")
    )
    c.html = std(c, body, brand="楽天カード", lines=["楽天カード株式会社"])


@case(
    "ja",
    "link",
    "新しい端末からのログイン承認: 承認 button, 拒否 link and パスワード変更 link",
    html_cte="quoted-printable",
    subject_mode="B",
)
def ja_h19_tanmatsu_shonin(c: Case) -> None:
    c.sender = "メルカリ <no-reply@mercari.example.jp>"
    c.subject = "新しい端末からのログインを承認してください"
    rid = c.t("rid", 20, "hex")
    approve = f"https://jp.mercari.example/login/approve?request_id={rid}&sig={c.t('s', 40)}"
    c.links = [approve]
    deny = c.never(f"https://jp.mercari.example/login/reject?request_id={rid}&sig={c.t('s', 40)}")
    pw = c.never("https://jp.mercari.example/mypage/personal_info/password")
    c.never("203.0.113.12", "2025")
    body = (
        h1("ログインの承認")
        + p("2025年3月14日 17:42、iPhone（203.0.113.12）からログインのリクエストがありました。")
        + button(approve, "承認する", bg="#ff0211")
        + p(f"心当たりがない場合は{a(deny, '拒否する')}を押し、{a(pw, 'パスワードを変更')}してください。")
    )
    c.html = std(c, body, brand="メルカリ", lines=["株式会社メルカリ"])
    c.text = auto_text(c.html)


# Korean


@case(
    "ko",
    "code",
    "[카카오뱅크] 인증번호 in brackets in an EUC-KR text-only mail: 계좌 끝자리, 금액, 고객센터",
    charset="EUC-KR",
    text_cte="base64",
)
def ko_h19_kakaobank_injeung(c: Case) -> None:
    c.sender = "카카오뱅크 <noreply@kakaobank.example>"
    c.subject = "[카카오뱅크] 이메일 인증번호 안내"
    c.codes = ["582941"]
    c.never("3333-01-5820194", "3333015820194", "1,500,000", "1500000", "1599-3333", "15993333", "2025")
    c.text = dedent("""\
        [카카오뱅크] 인증번호 [582941]

        이체 한도 변경을 위해 아래 인증번호를 입력해 주세요.
        계좌: 3333-01-5820194
        변경 한도: 1,500,000원

        인증번호는 3분간 유효합니다. 타인에게 절대 알려주지 마세요.

        고객센터 1599-3333
        (c) 2025 Kakaobank
        """)


@case("ko", "link", "이메일 변경 확인: VML button, 고객센터 and 비밀번호 변경 links", html_cte="quoted-printable")
def ko_h19_email_byeongyeong(c: Case) -> None:
    c.sender = "당근 <noreply@daangn.example>"
    c.subject = "이메일 주소 변경을 확인해 주세요"
    url = f"https://www.daangn.example/account/email/verify?token={c.t('t', 48)}"
    c.links = [url]
    help_url = c.never("https://www.daangn.example/support/faq")
    pw = c.never("https://www.daangn.example/account/password/change")
    body = (
        h1("새 이메일 주소를 확인해 주세요")
        + p(
            "계정의 이메일 주소를 <b>jane@example.kr</b>(으)로 변경하려면 아래 버튼을 눌러 주세요. 링크는 24시간 동안 유효합니다."
        )
        + button(url, "이메일 변경 확인", bg="#ff6f0f", vml=True)
        + p(f"본인이 요청하지 않았다면 {a(pw, '비밀번호를 변경')}해 주세요. {a(help_url, '고객센터')}")
    )
    c.html = std(c, body, brand="당근", lines=["(주)당근마켓"])
    c.text = auto_text(c.html)


@case(
    "ko",
    "negative",
    "항공권 예약 확인: 예약번호 letters+digits, 편명, 결제금액, 온라인 체크인 link",
    charset="EUC-KR",
    html_cte="base64",
)
def ko_h19_neg_hanggong(c: Case) -> None:
    c.sender = "대한항공 <reservation@koreanair.example>"
    c.subject = "[대한항공] 예약이 확정되었습니다 (예약번호 K7XQ2M)"
    checkin = c.never("https://www.koreanair.example/booking/check-in?pnr=K7XQ2M")
    c.never("K7XQ2M", "KE 123", "1802123456789", "487,300", "487300", "1588-2001", "15882001", "2025", "09:05")
    body = (
        h1("예약 확정 안내")
        + p("예약번호: K7XQ2M<br>항공권 번호: 1802123456789<br>편명: KE 123 인천 → 도쿄/나리타 2025년 3월 21일 09:05")
        + p("결제 금액: 487,300원")
        + button(checkin, "온라인 체크인", bg="#00256c")
        + p("예약센터 1588-2001")
    )
    c.html = std(c, body, brand="대한항공", lines=["(주)대한항공"])


@case("ko", "link", "비밀번호 재설정: the text part carries the button URL with utm_* (same target)")
def ko_h19_bimilbeonho_jaeseoljeong(c: Case) -> None:
    c.sender = "무신사 <help@musinsa.example>"
    c.subject = "비밀번호 재설정 안내"
    base = f"https://www.musinsa.example/member/password/reset?key={c.t('k', 32, 'hex')}"
    utm = base + "&utm_source=email&utm_medium=system&utm_campaign=pw_reset"
    c.links = [base, utm]
    cs = c.never("https://www.musinsa.example/app/cs/faq")
    c.never("1544-7199", "15447199")
    body = (
        h1("비밀번호 재설정")
        + p("아래 버튼을 눌러 새 비밀번호를 설정해 주세요. 링크는 30분 후 만료됩니다.")
        + button(base, "비밀번호 재설정하기", bg="#000000")
        + p(f"문의: 1544-7199 &middot; {a(cs, '자주 묻는 질문')}")
    )
    c.html = std(c, body, brand="무신사", lines=["(주)무신사"])
    c.text = dedent(f"""\
        비밀번호 재설정

        아래 링크에서 새 비밀번호를 설정해 주세요. 링크는 30분 후 만료됩니다.
        {utm}

        문의: 1544-7199
        자주 묻는 질문: {cs}
        """)


@case(
    "ko",
    "negative",
    "아파트 관리비 고지서: 고객번호, 납부금액, 가상계좌, 납부기한, 고지서 보기 link",
    html_cte="quoted-printable",
)
def ko_h19_neg_gwanribi(c: Case) -> None:
    c.sender = "아파트아이 <notice@aptner.example>"
    c.subject = "3월 관리비 고지서가 도착했습니다"
    view = c.never(f"https://www.aptner.example/bill/view?id={c.t('id', 16, 'hex')}")
    c.never("101-1502", "1011502", "248,910", "248910", "562-910284-73801", "56291028473801", "2025")
    body = (
        h1("관리비 고지서")
        + p("동호수: 101-1502<br>납부금액: 248,910원<br>납부기한: 2025년 3월 31일<br>가상계좌: 562-910284-73801")
        + button(view, "고지서 보기", bg="#2b6ce2")
    )
    c.html = std(c, body, brand="아파트아이", lines=["아파트아이"])
    c.text = auto_text(c.html)


# Simplified Chinese


@case(
    "zh-Hans",
    "code",
    "12306 验证码 in a GB18030 text-only mail: 订单号, 车次, 票价 and 客服电话",
    charset="GB18030",
    text_cte="base64",
)
def zh_hans_h19_12306_yanzhengma(c: Case) -> None:
    c.sender = "中国铁路12306 <service@12306.example.cn>"
    c.subject = "12306邮箱验证"
    c.codes = ["731048"]
    c.never("E382019471", "G1234", "553.5", "12306", "2025")
    c.text = dedent("""\
        尊敬的 张三 先生/女士：

        您正在进行邮箱核验，验证码为：731048，5分钟内有效。

        您最近的订单 E382019471（G1234次 北京南-上海虹桥，二等座 553.5元）不受影响。
        如非本人操作，请忽略本邮件。客服电话 12306。

        中国铁路客户服务中心 2025
        """)


@case(
    "zh-Hans", "link", "绑定邮箱确认 link in GB2312 HTML; 帮助中心 and 退订 links", charset="GB2312", html_cte="base64"
)
def zh_hans_h19_bangding_youxiang(c: Case) -> None:
    c.sender = "网易云音乐 <noreply@music.163.example>"
    c.subject = "请确认绑定邮箱"
    url = f"https://music.163.example/account/email/bind/confirm?code={c.t('c', 40, 'hex')}"
    c.links = [url]
    help_url = c.never("https://music.163.example/help/")
    unsub = c.never("https://music.163.example/mail/unsubscribe?u=4820193")
    c.never("4820193", "2025")
    body = (
        h1("绑定邮箱")
        + p("您好，您正在将此邮箱绑定到网易云音乐账号（用户ID 4820193）。请点击下方按钮完成绑定，链接24小时内有效。")
        + button(url, "确认绑定", bg="#c20c0c")
        + p(f"{a(help_url, '帮助中心')} | {a(unsub, '退订')}")
    )
    c.html = std(c, body, brand="网易云音乐", lines=["网易公司 2025"])


@case(
    "zh-Hans",
    "negative",
    "快递派送通知: 运单号, 派送员电话, 预计时间, 查看物流 link; no pickup code",
    html_cte="quoted-printable",
)
def zh_hans_h19_neg_kuaidi(c: Case) -> None:
    c.sender = "顺丰速运 <noreply@sf-express.example>"
    c.subject = "您的快件 SF1452078123456 正在派送"
    track = c.never("https://www.sf-express.example/chn/sc/waybill/list?no=SF1452078123456")
    c.never("SF1452078123456", "1452078123456", "138 0013 8000", "13800138000", "95338", "14:00", "16:00", "2025")
    body = (
        h1("快件派送中")
        + p("运单号：SF1452078123456<br>派送员：李师傅 138 0013 8000<br>预计送达：今天 14:00-16:00")
        + button(track, "查看物流详情", bg="#000000")
        + p("客服热线 95338")
    )
    c.html = std(c, body, brand="顺丰速运", lines=["顺丰速运 2025"])
    c.text = auto_text(c.html)


@case("zh-Hans", "code", "登录动态码 in cells with 忘记密码 / 修改密码 links and an 账号 ID", html_cte="base64")
def zh_hans_h19_dongtaima_cells(c: Case) -> None:
    c.sender = "美团 <noreply@meituan.example>"
    c.subject = "美团登录动态码"
    c.codes = ["290518"]
    c.pieces = list("290518")
    forgot = c.never("https://passport.meituan.example/account/findpwd")
    change = c.never("https://passport.meituan.example/account/security/password")
    c.never("mt_48201937", "48201937", "10107888", "2025")
    body = (
        p("尊敬的用户 mt_48201937：")
        + p("您本次登录的动态码如下，10分钟内有效，请勿泄露给他人：")
        + cells("290518")
        + p(f"如非本人操作，请立即{a(change, '修改密码')}。{a(forgot, '忘记密码？')}")
        + p("客服电话 10107888")
    )
    c.html = std(c, body, brand="美团", lines=["北京三快在线科技有限公司 2025"])
    c.text = auto_text(c.html)


@case(
    "zh-Hans",
    "negative",
    "信用卡电子账单: 本期应还, 最低还款, 卡号末四位, 还款日, 查看账单 link",
    charset="GB2312",
    html_cte="base64",
)
def zh_hans_h19_neg_zhangdan(c: Case) -> None:
    c.sender = "招商银行信用卡 <ccsvc@cmbchina.example>"
    c.subject = "招商银行信用卡电子账单（2025年03月）"
    view = c.never("https://cc.cmbchina.example/bill/view?month=202503")
    c.never("6,482.10", "648210", "648.21", "64821", "4021", "202503", "2025", "95555")
    body = (
        h1("2025年03月 电子账单")
        + p("卡号末四位：4021<br>本期应还金额：6,482.10 元<br>最低还款额：648.21 元<br>到期还款日：2025年04月08日")
        + button(view, "查看账单明细", bg="#c8102e")
        + p("客服热线 95555")
    )
    c.html = std(c, body, brand="招商银行", lines=["招商银行股份有限公司"])


# Traditional Chinese


@case(
    "zh-Hant",
    "code",
    "玉山 交易驗證碼 with a 4-letter 識別碼 beside it, 交易金額 and 卡號末四碼 (Big5)",
    charset="Big5",
    html_cte="base64",
)
def zh_hant_h19_esun_shibiema(c: Case) -> None:
    c.sender = "玉山銀行 <service@esunbank.example>"
    c.subject = "玉山銀行 交易驗證碼通知"
    c.codes = ["483920"]
    c.never("XKQZ", "3,280", "3280", "4021", "02-2182-1313", "0221821313", "2025")
    body = (
        p("親愛的客戶您好：")
        + p("您於網路商店刷卡消費 新臺幣 3,280 元（卡號末四碼 4021）。")
        + p("識別碼：XKQZ<br>交易驗證碼：<b>483920</b>")
        + p("請於5分鐘內輸入，並確認識別碼與交易頁面相同。")
        + p("客服專線 02-2182-1313")
    )
    c.html = std(c, body, brand="玉山銀行", lines=["玉山商業銀行 2025"])
    c.text = auto_text(c.html)


@case("zh-Hant", "link", "重設密碼 with an app button and a web button for the same reset (also_links)")
def zh_hant_h19_chongshe_app_web(c: Case) -> None:
    c.sender = "Dcard <noreply@dcard.example>"
    c.subject = "重設你的 Dcard 密碼"
    t = c.t("t", 40)
    web = f"https://www.dcard.example/password/reset?token={t}"
    app = f"https://dcard.example/app/open?route=password-reset&token={t}"
    c.links = [web]
    c.also_links = [app]
    help_url = c.never("https://dcard.example/help/hc/zh-tw")
    body = (
        h1("重設密碼")
        + p("我們收到了重設密碼的請求，連結將於 1 小時後失效。")
        + button(web, "在網頁重設密碼", bg="#006aa6")
        + button(app, "在 App 中重設", bg="#ffffff", fg="#006aa6")
        + p(a(help_url, "幫助中心"))
    )
    c.html = std(c, body, brand="Dcard", lines=["Dcard Taiwan Ltd."])
    c.text = auto_text(c.html)


@case(
    "zh-Hant",
    "negative",
    "電信帳單: 繳費代碼 (a payment code), 帳單金額, 用戶號碼, 繳費期限",
    charset="Big5",
    html_cte="base64",
)
def zh_hant_h19_neg_jiaofei_daima(c: Case) -> None:
    c.sender = "中華電信 <ebill@cht.example>"
    c.subject = "中華電信 114年3月 電子帳單"
    pay = c.never("https://www.cht.example/ebill/pay?b=11403")
    c.never("91420387", "0912-345-678", "0912345678", "1,299", "1299", "11403", "0800-080-123", "0800080123")
    body = (
        h1("114年3月 電子帳單")
        + p("用戶號碼：0912-345-678<br>帳單金額：1,299 元<br>繳費期限：114年3月31日<br>繳費代碼：91420387")
        + button(pay, "線上繳費", bg="#0066b3")
        + p("客服 0800-080-123")
    )
    c.html = std(c, body, brand="中華電信", lines=["中華電信股份有限公司"])


@case(
    "zh-Hant",
    "negative",
    "新裝置登入通知: 不是您本人？立即變更密碼 and 查看裝置 links, IP and time",
    html_cte="quoted-printable",
)
def zh_hant_h19_neg_xin_zhuangzhi(c: Case) -> None:
    c.sender = "蝦皮購物 <noreply@shopee.example.tw>"
    c.subject = "您的帳號在新裝置登入"
    change = c.never("https://shopee.example.tw/user/account/password?src=login_alert")
    devices = c.never("https://shopee.example.tw/user/account/devices")
    c.never("198.51.100.200", "2025/03/14", "21:08")
    body = (
        h1("新裝置登入通知")
        + p("您的帳號於 2025/03/14 21:08 在 Android 裝置登入（IP 198.51.100.200，台中市）。")
        + p(f"如果是您本人，無需任何動作。不是您本人？{a(change, '立即變更密碼')}")
        + p(a(devices, "查看已登入的裝置"))
    )
    c.html = std(c, body, brand="蝦皮購物", lines=["蝦皮購物"])
    c.text = auto_text(c.html)


# Russian


@case(
    "ru",
    "code",
    "4-digit code in the middle of a long KOI8-R text-only paragraph, with an order number and a price",
    charset="KOI8-R",
    text_cte="8bit",
)
def ru_h19_kod_v_abzatse(c: Case) -> None:
    c.sender = "Литрес <noreply@litres.example>"
    c.subject = "Завершите регистрацию на Литрес"
    c.codes = ["4820"]
    c.never("73019284", "349", "8 800 333-27-37", "88003332737", "2025")
    c.text = dedent("""\
        Здравствуйте!

        Спасибо за покупку: заказ 73019284 на 349 руб. уже доступен в вашей библиотеке, но чтобы читать его на всех устройствах, осталось подтвердить адрес почты. Для этого введите код 4820 в приложении или на сайте в окне "Подтверждение почты" и нажмите "Продолжить". Код действует 20 минут; если он не подошел, запросите новый. Если вы не регистрировались на Литрес, просто проигнорируйте это письмо.

        Служба поддержки: 8 800 333-27-37
        ООО "Литрес", 2025
        """)


@case(
    "ru",
    "link",
    "подтверждение смены почты: windows-1251 HTML button, 'это были не вы?' and help links",
    charset="windows-1251",
    html_cte="quoted-printable",
)
def ru_h19_smena_pochty(c: Case) -> None:
    c.sender = "Авито <noreply@avito.example>"
    c.subject = "Подтвердите новый адрес электронной почты"
    url = f"https://www.avito.example/profile/email/confirm?hash={c.t('h', 40, 'hex')}"
    c.links = [url]
    notme = c.never("https://www.avito.example/profile/security?from=email_change")
    help_url = c.never("https://support.avito.example/")
    c.never("8 800 600-00-01", "88006000001")
    body = (
        h1("Смена адреса почты")
        + p("Вы указали новый адрес почты для профиля на Авито. Подтвердите его в течение 3 дней.")
        + button(url, "Подтвердить адрес", bg="#00aaff")
        + p(f"Это были не вы? {a(notme, 'Проверьте настройки безопасности')}")
        + p(f"{a(help_url, 'Помощь')} · 8 800 600-00-01")
    )
    c.html = std(c, body, brand="Авито", lines=["ООО «КЕХ еКоммерц»"])
    c.text = auto_text(c.html)


@case(
    "ru",
    "negative",
    "штраф ГИБДД: УИН, номер постановления, сумма со скидкой, дата, оплатить link",
    charset="windows-1251",
    html_cte="base64",
)
def ru_h19_neg_shtraf(c: Case) -> None:
    c.sender = "Госуслуги <no-reply@gosuslugi.example>"
    c.subject = "Новый штраф ГИБДД"
    pay = c.never("https://www.gosuslugi.example/pay?uin=18810177250314123456")
    c.never("18810177250314123456", "18810177250314123", "250", "500", "14.03.2025", "2025")
    body = (
        h1("Новый штраф")
        + p(
            "УИН: 18810177250314123456<br>Постановление № 18810177250314123 от 14.03.2025<br>Сумма: 500 ₽, со скидкой 50% — 250 ₽ до 03.04.2025"
        )
        + button(pay, "Оплатить", bg="#0d4cd3")
    )
    c.html = std(c, body, brand="Госуслуги", lines=["Минцифры России"])


@case(
    "ru",
    "negative",
    "квитанция ЖКХ: 'код плательщика', лицевой счёт, сумма, период, личный кабинет link",
    html_cte="quoted-printable",
)
def ru_h19_neg_kvitanciya(c: Case) -> None:
    c.sender = "МосОблЕИРЦ <kvit@mosobleirc.example>"
    c.subject = "Единый платёжный документ за февраль 2025"
    lk = c.never("https://lkk.mosobleirc.example/login?from=epd")
    c.never("5820194733", "48201-977", "4820197", "6 482,17", "648217", "2025", "141400")
    body = (
        h1("ЕПД за февраль 2025")
        + p(
            "Код плательщика: 5820194733<br>Лицевой счёт: 48201-977<br>Сумма к оплате: 6 482,17 ₽<br>Оплатить до 10.03.2025"
        )
        + button(lk, "Войти в личный кабинет", bg="#e53935")
        + p("141400, Московская обл., г. Химки")
    )
    c.html = std(c, body, brand="МосОблЕИРЦ", lines=["ООО «МосОблЕИРЦ»"])
    c.text = auto_text(c.html)


@case(
    "ru",
    "code",
    "код восстановления доступа written with a dash (739-204), account name with digits and a support case",
    charset="windows-1251",
    text_cte="quoted-printable",
)
def ru_h19_kod_vosstanovleniya(c: Case) -> None:
    c.sender = "Рамблер <noreply@rambler.example>"
    c.subject = "Восстановление доступа к почте"
    c.codes = ["739204", "739-204"]
    c.never("ivan1987", "1987", "5530182", "2025")
    c.text = dedent("""\
        Здравствуйте, ivan1987!

        Вы начали восстановление доступа к ящику ivan1987@rambler.example (обращение № 5530182).

        Код восстановления: 739-204

        Введите его на странице восстановления. Код действует 1 час.
        Никому не сообщайте этот код.

        Команда Рамблер/почты, 2025
        """)


# Ukrainian


@case("uk", "code", "monobank код підтвердження: сума, картка *4021, магазин, 4-digit code in a big block")
def uk_h19_monobank_kod(c: Case) -> None:
    c.sender = "monobank <noreply@monobank.example>"
    c.subject = "Код підтвердження покупки"
    c.codes = ["7302"]
    c.never("1 250,00", "125000", "4021", "0 800 205 205", "0800205205", "2025")
    body = (
        h1("Підтвердіть покупку")
        + p("Покупка на 1 250,00 ₴ в ROZETKA з картки *4021.")
        + big("7302", size=36, spacing=10)
        + p("Код підтвердження дійсний 5 хвилин. Нікому його не повідомляйте.")
        + p("Підтримка: 0 800 205 205")
    )
    c.html = std(c, body, brand="monobank", lines=["АТ «Універсал Банк», 2025"])
    c.text = auto_text(c.html)


@case(
    "uk",
    "link",
    "Дія: SendGrid-tracked 'Підтвердити пошту' button in windows-1251, help link equally opaque",
    charset="windows-1251",
    html_cte="base64",
)
def uk_h19_diia_pidtverdyty(c: Case) -> None:
    c.sender = "Дія <noreply@diia.example>"
    c.subject = "Підтвердіть електронну пошту"
    url = b19_trk(c, "sendgrid", "diia.example", "confirm")
    c.links = [url]
    help_url = c.never(b19_trk(c, "sendgrid", "diia.example", "help"))
    body = (
        h1("Підтвердження пошти")
        + p("Щоб отримувати сповіщення від Дії на цю адресу, підтвердіть її. Посилання діє 24 години.")
        + button(url, "Підтвердити пошту", bg="#000000")
        + p(a(help_url, "Питання та відповіді"))
    )
    c.html = std(c, body, brand="Дія", lines=["Міністерство цифрової трансформації"])


@case(
    "uk",
    "negative",
    "Укрпошта: трек-номер, відділення, індекс, сума післяплати, відстежити link",
    html_cte="quoted-printable",
)
def uk_h19_neg_ukrposhta(c: Case) -> None:
    c.sender = "Укрпошта <noreply@ukrposhta.example>"
    c.subject = "Посилка 0500012345678 прибула у відділення"
    track = c.never("https://track.ukrposhta.example/?barcode=0500012345678")
    c.never("0500012345678", "01001", "320,00", "32000", "0 800 300 545", "0800300545", "2025")
    body = (
        h1("Посилка чекає на вас")
        + p(
            "Трек-номер: 0500012345678<br>Відділення: 01001, Київ, вул. Хрещатик, 22<br>Післяплата: 320,00 грн<br>Зберігання до 28.03.2025"
        )
        + button(track, "Відстежити", bg="#ffcc00", fg="#000000")
        + p("Контакт-центр: 0 800 300 545")
    )
    c.html = std(c, body, brand="Укрпошта", lines=["АТ «Укрпошта»"])
    c.text = auto_text(c.html)


# Greek


@case(
    "el",
    "code",
    "κωδικός μίας χρήσης for a card payment in ISO-8859-7 text: amount, card ending, merchant, phone",
    charset="ISO-8859-7",
    text_cte="quoted-printable",
)
def el_h19_kodikos_mias_xrisis(c: Case) -> None:
    c.sender = "Alpha Bank <noreply@alpha.example.gr>"
    c.subject = "Κωδικός μίας χρήσης για την αγορά σας"
    c.codes = ["51930274"]
    c.never("89,90", "8990", "4021", "210 326 0000", "2103260000", "2025")
    c.text = dedent("""\
        Αγαπητέ πελάτη,

        Για την αγορά 89,90 EUR στο κατάστημα SKROUTZ με την κάρτα που λήγει σε 4021,
        ο κωδικός μίας χρήσης είναι: 51930274

        Ισχύει για 5 λεπτά. Μην τον γνωστοποιήσετε σε κανέναν.

        Εξυπηρέτηση πελατών: 210 326 0000
        Alpha Bank 2025
        """)


@case(
    "el",
    "negative",
    "λογαριασμός ρεύματος: αριθμός παροχής, κωδικός πληρωμής, ποσό, προθεσμία",
    charset="ISO-8859-7",
    html_cte="base64",
)
def el_h19_neg_logariasmos(c: Case) -> None:
    c.sender = "ΔΕΗ <ebill@dei.example.gr>"
    c.subject = "Ο λογαριασμός σας είναι διαθέσιμος"
    view = c.never("https://mydei.dei.example.gr/el/logariasmoi/?ref=ebill")
    c.never(
        "1 23456789-01 2",
        "123456789012",
        "RF71 0000 4820 1937",
        "RF71000048201937",
        "48201937",
        "84,35",
        "8435",
        "2025",
        "11 770",
        "11770",
    )
    body = (
        h1("Νέος λογαριασμός")
        + p(
            "Αριθμός παροχής: 1 23456789-01 2<br>Κωδικός ηλεκτρονικής πληρωμής: RF71 0000 4820 1937<br>Ποσό: 84,35 &euro;<br>Λήξη: 31/03/2025"
        )
        + button(view, "Δείτε τον λογαριασμό", bg="#004b87")
        + p("Τηλέφωνο: 11 770")
    )
    c.html = std(c, body, brand="ΔΕΗ", lines=["ΔΕΗ Α.Ε."])


@case(
    "el",
    "link",
    "επαναφορά κωδικού πρόσβασης: Greek path /epanafora-kodikou/, same URL in text; help link",
    charset="windows-1253",
    html_cte="quoted-printable",
)
def el_h19_epanafora_kodikou(c: Case) -> None:
    c.sender = "e-food <noreply@efood.example.gr>"
    c.subject = "Επαναφορά κωδικού πρόσβασης"
    url = f"https://www.efood.example.gr/epanafora-kodikou/{c.t('r', 40, 'b62')}"
    c.links = [url]
    help_url = c.never("https://www.efood.example.gr/voitheia")
    body = (
        h1("Επαναφορά κωδικού")
        + p("Λάβαμε αίτημα για αλλαγή του κωδικού πρόσβασης. Ο σύνδεσμος ισχύει για 1 ώρα.")
        + button(url, "Ορισμός νέου κωδικού", bg="#ed2e2e")
        + p(a(help_url, "Βοήθεια"))
    )
    c.html = std(c, body, brand="e-food", lines=["Delivery Hero Hellas"])
    c.text = auto_text(c.html)


# Portuguese


@case(
    "pt",
    "code",
    "gov.br código de acesso: CPF, número de protocolo and hotline beside it",
    charset="ISO-8859-1",
    html_cte="quoted-printable",
)
def pt_h19_govbr_codigo(c: Case) -> None:
    c.sender = "gov.br <nao-responda@acesso.gov.example>"
    c.subject = "Código de acesso gov.br"
    c.codes = ["3X7K9Q"]
    c.never("123.456.789-09", "12345678909", "2025031400571", "0800 978 9001", "08009789001", "2025")
    body = (
        h1("Código de acesso")
        + p("Olá, titular do CPF 123.456.789-09. Use o código abaixo para entrar na sua conta gov.br:")
        + big("3X7K9Q", size=30)
        + p("O código expira em 10 minutos. Protocolo do atendimento: 2025031400571.")
        + p("Central de atendimento: 0800 978 9001")
    )
    c.html = std(c, body, brand="gov.br", lines=["Governo Federal 2025"])
    c.text = auto_text(c.html)


@case(
    "pt",
    "negative",
    "fatura do cartão: linha digitável, vencimento, valor, últimos dígitos, 'Acessar o app' link",
    html_cte="base64",
)
def pt_h19_neg_fatura_cartao(c: Case) -> None:
    c.sender = "Inter <fatura@bancointer.example>"
    c.subject = "Sua fatura de março fechou: R$ 1.482,90"
    app = c.never("https://inter.example/app?ref=fatura_email")
    c.never(
        "07790.00116 12345.678901 23456.789012 1 99990000148290",
        "1.482,90",
        "148290",
        "4021",
        "3003 4070",
        "30034070",
        "2025",
    )
    body = (
        h1("Fatura fechada")
        + p("Cartão final 4021<br>Valor: R$ 1.482,90<br>Vencimento: 10/04/2025")
        + p("Linha digitável:<br>07790.00116 12345.678901 23456.789012 1 99990000148290")
        + button(app, "Acessar o app", bg="#ff7a00")
        + p("Capitais: 3003 4070")
    )
    c.html = std(c, body, brand="Inter", lines=["Banco Inter S.A."])


@case(
    "pt",
    "code+link",
    "Magalu: code and a magic 'Entrar' link in one mail; 'Esqueci minha senha' and SAC links",
    html_cte="quoted-printable",
)
def pt_h19_magalu_codigo_e_link(c: Case) -> None:
    c.sender = "Magalu <naoresponda@magalu.example>"
    c.subject = "Seu código para entrar no Magalu: 820 417"
    c.codes = ["820417", "820 417"]
    url = f"https://sacola.magalu.example/entrar/link-magico?t={c.t('t', 44)}"
    c.links = [url]
    forgot = c.never("https://sacola.magalu.example/esqueci-minha-senha")
    sac = c.never("https://www.magalu.example/central-de-atendimento/")
    c.never("0800 773 3838", "08007733838")
    body = (
        h1("Entre no Magalu")
        + p("Digite o código abaixo no app ou site:")
        + big("820 417")
        + p("Ou, se preferir, entre direto por este aparelho:")
        + button(url, "Entrar", bg="#0086ff")
        + p(f"{a(forgot, 'Esqueci minha senha')} &middot; {a(sac, 'Central de atendimento')} &middot; 0800 773 3838")
    )
    c.html = std(c, body, brand="Magalu", lines=["Magazine Luiza S.A."])
    c.text = auto_text(c.html)


# Dutch


@case(
    "nl", "code", "Coolblue inlogcode in cells; 'Wachtwoord vergeten?', klantnummer and bestelnummer", html_cte="base64"
)
def nl_h19_coolblue_inlogcode(c: Case) -> None:
    c.sender = "Coolblue <noreply@coolblue.example>"
    c.subject = "Je inlogcode voor Coolblue"
    c.codes = ["58204"]
    c.pieces = list("58204")
    forgot = c.never("https://www.coolblue.example/nl/account/wachtwoord-vergeten")
    c.never("9301742", "NL-4820193", "4820193", "3014", "2025")
    body = (
        h1("Je inlogcode")
        + p("Vul deze code in om in te loggen. Hij is 15 minuten geldig.")
        + cells("58204")
        + p("Klantnummer 9301742 &middot; laatste bestelling NL-4820193")
        + p(a(forgot, "Wachtwoord vergeten?"))
    )
    c.html = std(c, body, brand="Coolblue", lines=["Coolblue B.V., Weena 664, 3014 DA Rotterdam &copy; 2025"])
    c.text = auto_text(c.html)


@case(
    "nl",
    "negative",
    "Belastingdienst aanslag: aanslagnummer, betalingskenmerk in groups of four, bedrag, Mijn Belastingdienst link",
    charset="ISO-8859-15",
    html_cte="quoted-printable",
)
def nl_h19_neg_aanslag(c: Case) -> None:
    c.sender = "Belastingdienst <noreply@belastingdienst.example>"
    c.subject = "U hebt een nieuw bericht in de Berichtenbox"
    box = c.never("https://mijn.belastingdienst.example/berichtenbox?bron=mail")
    c.never(
        "1234.56.789.H.46",
        "123456789H46",
        "5123 4567 8901 2345",
        "5123456789012345",
        "5123 4567",
        "51234567",
        "412,00",
        "41200",
        "0800 0543",
        "08000543",
        "2025",
    )
    body = (
        h1("Nieuw bericht")
        + p(
            "Voorlopige aanslag inkomstenbelasting 2025<br>Aanslagnummer: 1234.56.789.H.46<br>Betalingskenmerk: 5123 4567 8901 2345<br>Te betalen: € 412,00"
        )
        + button(box, "Naar Mijn Belastingdienst", bg="#154273")
        + p("BelastingTelefoon: 0800 0543")
    )
    c.html = std(c, body, brand="Belastingdienst", lines=["Belastingdienst"])
    c.text = auto_text(c.html)


@case(
    "nl",
    "link",
    "nieuw e-mailadres bevestigen: the text part has the same action behind a different Braze redirect (also_links)",
)
def nl_h19_email_wijzigen(c: Case) -> None:
    c.sender = "Thuisbezorgd.nl <noreply@thuisbezorgd.example>"
    c.subject = "Bevestig je nieuwe e-mailadres"
    html_url = b19_trk(c, "braze", "thuisbezorgd.example", "confirm-html")
    text_url = b19_trk(c, "braze", "thuisbezorgd.example", "confirm-text")
    c.links = [html_url]
    c.also_links = [text_url]
    help_html = c.never(b19_trk(c, "braze", "thuisbezorgd.example", "help-html"))
    help_text = c.never(b19_trk(c, "braze", "thuisbezorgd.example", "help-text"))
    body = (
        h1("Bijna klaar")
        + p("Je hebt je e-mailadres gewijzigd. Bevestig het nieuwe adres binnen 24 uur.")
        + button(html_url, "Bevestig e-mailadres", bg="#ff8000")
        + p(a(help_html, "Klantenservice"))
    )
    c.html = std(c, body, brand="Thuisbezorgd.nl", lines=["Takeaway.com"])
    c.text = f"Bijna klaar\n\nJe hebt je e-mailadres gewijzigd. Bevestig het nieuwe adres binnen 24 uur:\n{text_url}\n\nKlantenservice: {help_text}\n"


# Polish


@case(
    "pl",
    "code",
    "ePUAP kod autoryzacyjny in ISO-8859-2 text: PESEL, numer sprawy, godzina",
    charset="ISO-8859-2",
    text_cte="quoted-printable",
)
def pl_h19_kod_autoryzacyjny(c: Case) -> None:
    c.sender = "Profil Zaufany <powiadomienia@pz.gov.example>"
    c.subject = "Kod autoryzacyjny do podpisania dokumentu"
    c.codes = ["73920418"]
    c.never("80010112345", "WA-2025/03/48201", "2025", "14:32")
    c.text = dedent("""\
        Dzień dobry,

        Podpisujesz dokument w sprawie WA-2025/03/48201 (złożony 14.03.2025 o 14:32).
        Właściciel profilu: Jan Kowalski, PESEL 80010112345.

        Kod autoryzacyjny: 73920418

        Kod jest ważny przez 15 minut. Nie przekazuj go nikomu.
        """)


@case(
    "pl",
    "negative",
    "faktura Orange: kod klienta, numer konta do wpłat, kwota, termin; 'Zaloguj się do Mój Orange' link",
    charset="ISO-8859-2",
    html_cte="quoted-printable",
)
def pl_h19_neg_faktura_kod_klienta(c: Case) -> None:
    c.sender = "Orange <efaktura@orange.example.pl>"
    c.subject = "Twoja e-faktura za marzec"
    login = c.never("https://www.orange.example.pl/moj-orange/zaloguj")
    c.never(
        "4820193",
        "F/2025/03/771042",
        "771042",
        "12 1140 0000 0120 4829 3017 4455",
        "12114000000120482930174455",
        "89,99",
        "8999",
        "510 600 600",
        "510600600",
        "2025",
    )
    body = (
        h1("e-faktura za marzec 2025")
        + p(
            "Kod klienta: 4820193<br>Numer faktury: F/2025/03/771042<br>Kwota: 89,99 zł, termin płatności 28.03.2025<br>Numer konta: 12 1140 0000 0120 4829 3017 4455"
        )
        + button(login, "Zaloguj się do Mój Orange", bg="#ff7900", fg="#000000")
        + p("Infolinia: 510 600 600")
    )
    c.html = std(c, body, brand="Orange", lines=["Orange Polska S.A."])
    c.text = auto_text(c.html)


@case(
    "pl",
    "link",
    "zatwierdź nowe urządzenie: the approval button; 'To nie ja' and 'Zmień hasło' links",
    html_cte="quoted-printable",
)
def pl_h19_zatwierdz_urzadzenie(c: Case) -> None:
    c.sender = "Allegro <powiadomienia@allegro.example>"
    c.subject = "Zatwierdź logowanie na nowym urządzeniu"
    rid = c.t("rid", 24, "hex")
    url = f"https://allegro.example/logowanie/urzadzenia/zatwierdz?id={rid}"
    c.links = [url]
    notme = c.never(f"https://allegro.example/logowanie/urzadzenia/odrzuc?id={rid}")
    pw = c.never("https://allegro.example/moje-allegro/moje-konto/zmiana-hasla")
    c.never("192.0.2.140", "2025")
    body = (
        h1("Czy to Ty?")
        + p("Ktoś próbuje zalogować się na Twoje konto z przeglądarki Edge (Kraków, 192.0.2.140) 14.03.2025.")
        + button(url, "Zatwierdź urządzenie", bg="#ff5a00")
        + p(f"{a(notme, 'To nie ja')} &middot; {a(pw, 'Zmień hasło')}")
    )
    c.html = std(c, body, brand="Allegro", lines=["Allegro.pl sp. z o.o."])
    c.text = auto_text(c.html)


# Turkish


@case(
    "tr",
    "code",
    "e-Devlet doğrulama kodu in windows-1254 text: T.C. kimlik no, başvuru numarası, ALO hattı",
    charset="windows-1254",
    text_cte="8bit",
)
def tr_h19_edevlet_dogrulama(c: Case) -> None:
    c.sender = "e-Devlet Kapısı <bilgi@turkiye.gov.example>"
    c.subject = "e-Devlet doğrulama kodunuz"
    c.codes = ["592074"]
    c.never("12345678950", "2025-0314-4820", "202503144820", "ALO 160", "2025")
    c.text = dedent("""\
        Sayın AYŞE YILMAZ,

        T.C. kimlik numarası 12345678950 olan hesabınız için e-posta adresi değişikliği istendi.
        Başvuru numarası: 2025-0314-4820

        Doğrulama kodunuz: 592074

        Bu kodu kimseyle paylaşmayın. Kod 3 dakika geçerlidir.
        Bilgi için: ALO 160
        """)


@case(
    "tr",
    "negative",
    "Turkcell fatura: abone no, fatura tutarı, son ödeme tarihi, 'Faturamı öde' and Hesabım links",
    charset="ISO-8859-9",
    html_cte="quoted-printable",
)
def tr_h19_neg_fatura(c: Case) -> None:
    c.sender = "Turkcell <fatura@turkcell.example>"
    c.subject = "Mart 2025 faturanız: 349,90 TL"
    pay = c.never("https://www.turkcell.example/fatura-ode?src=email")
    acc = c.never("https://www.turkcell.example/hesabim/giris")
    c.never("349,90", "34990", "5320193847", "0532 019 38 47", "05320193847", "2025", "532")
    body = (
        h1("Mart 2025 faturanız")
        + p("Hat: 0532 019 38 47<br>Abone no: 5320193847<br>Tutar: 349,90 TL<br>Son ödeme tarihi: 02.04.2025")
        + button(pay, "Faturamı öde", bg="#ffc900", fg="#000000")
        + p(a(acc, "Hesabım'a giriş yap"))
    )
    c.html = std(c, body, brand="Turkcell", lines=["Turkcell İletişim Hizmetleri A.Ş."])
    c.text = auto_text(c.html)


@case("tr", "link", "e-posta değişikliğini onayla: Turkish path /eposta-degisikligi/onayla, VML button, yardım link")
def tr_h19_eposta_degisikligi(c: Case) -> None:
    c.sender = "Yemeksepeti <bilgi@yemeksepeti.example>"
    c.subject = "E-posta değişikliğini onayla"
    url = f"https://www.yemeksepeti.example/hesabim/eposta-degisikligi/onayla?k={c.t('k', 36, 'b62')}"
    c.links = [url]
    help_url = c.never("https://www.yemeksepeti.example/yardim")
    body = (
        h1("Yeni e-posta adresini onayla")
        + p("Hesabındaki e-posta adresini değiştirmek için aşağıdaki butona tıkla. Bağlantı 24 saat geçerli.")
        + button(url, "Onayla", bg="#ea004b", vml=True)
        + p(a(help_url, "Yardım merkezi"))
    )
    c.html = std(c, body, brand="Yemeksepeti", lines=["Yemek Sepeti Elektronik İletişim A.Ş."])
    c.text = auto_text(c.html)


# Swedish


@case(
    "sv",
    "negative",
    "1177 appointment reminder: date, time, address, phone, 'Boka om' and 'Logga in' links (calendar-like)",
    charset="ISO-8859-1",
    html_cte="quoted-printable",
)
def sv_h19_neg_kallelse(c: Case) -> None:
    c.sender = "1177 <noreply@1177.example>"
    c.subject = "Påminnelse: besök på Vårdcentralen Kungsholmen 21 mars 2025"
    rebook = c.never("https://e-tjanster.1177.example/tidbok/omboka?bokning=48201937")
    login = c.never("https://e-tjanster.1177.example/logga-in")
    c.never("48201937", "08-123 456 78", "0812345678", "112 20", "11220", "2025", "09:40")
    body = (
        h1("Påminnelse om ditt besök")
        + p(
            "Fredag 21 mars 2025 kl. 09:40<br>Vårdcentralen Kungsholmen, Fleminggatan 22, 112 20 Stockholm<br>Bokningsnummer: 48201937"
        )
        + p(f"Kan du inte komma? {a(rebook, 'Boka om eller avboka')} eller ring 08-123 456 78.")
        + p(a(login, "Logga in på 1177"))
    )
    c.html = std(c, body, brand="1177", lines=["Inera AB"])
    c.text = auto_text(c.html)


@case(
    "sv",
    "code",
    "engångskod inside a sentence, text-only ISO-8859-1 8bit; order number, amount and a pharmacy phone",
    charset="ISO-8859-1",
    text_cte="8bit",
)
def sv_h19_engangskod_mening(c: Case) -> None:
    c.sender = "Apoteket <kundservice@apoteket.example>"
    c.subject = "Logga in på Apoteket"
    c.codes = ["418302"]
    c.never("A-77104829", "77104829", "249,00", "24900", "0771-450 450", "0771450450")
    c.text = dedent("""\
        Hej!

        Du försöker logga in för att se din order A-77104829 (249,00 kr). Skriv in engångskoden 418302 i fältet på skärmen, så loggas du in direkt. Koden går ut om 10 minuter.

        Var det inte du? Då kan du bortse från det här mejlet.

        Apoteket kundservice 0771-450 450
        """)


# Czech


@case(
    "cs",
    "code",
    "datová schránka bezpečnostní kód in ISO-8859-2 HTML: ID schránky, číslo jednací",
    charset="ISO-8859-2",
    html_cte="quoted-printable",
)
def cs_h19_datovka_kod(c: Case) -> None:
    c.sender = "Datové schránky <info@mojedatovaschranka.example>"
    c.subject = "Bezpečnostní kód pro přihlášení"
    c.codes = ["28491736"]
    forgot = c.never("https://www.mojedatovaschranka.example/portal/zapomenute-heslo")
    c.never("k7xq2mb", "MV-48201/2025", "48201", "2025", "954 200 200", "954200200")
    body = (
        h1("Bezpečnostní kód")
        + p("Pro přihlášení do datové schránky ID k7xq2mb zadejte bezpečnostní kód:")
        + big("28491736", size=28)
        + p("Kód platí 5 minut. Poslední doručená zpráva: č. j. MV-48201/2025.")
        + p(f"{a(forgot, 'Zapomenuté heslo')} | Helpdesk 954 200 200")
    )
    c.html = std(c, body, brand="ISDS", lines=["Ministerstvo vnitra ČR"])
    c.text = auto_text(c.html)


@case(
    "cs",
    "negative",
    "vyúčtování: variabilní symbol, číslo účtu, částka, zákaznické číslo, 'Přihlásit se do Mojí ČEZ'",
    charset="windows-1250",
    html_cte="quoted-printable",
)
def cs_h19_neg_vyuctovani(c: Case) -> None:
    c.sender = "ČEZ Prodej <vyuctovani@cez.example>"
    c.subject = "Vaše vyúčtování elektřiny za rok 2024"
    login = c.never("https://www.cez.example/moje-cez/prihlaseni")
    c.never(
        "2025031401",
        "35-4820193017/0100",
        "48201930170100",
        "1 482,00",
        "148200",
        "8200419377",
        "2024",
        "371 100 100",
        "371100100",
    )
    body = (
        h1("Vyúčtování 2024")
        + p(
            "Zákaznické číslo: 8200419377<br>Přeplatek: 1 482,00 Kč<br>Variabilní symbol: 2025031401<br>Vrátíme na účet 35-4820193017/0100"
        )
        + button(login, "Přihlásit se do Mojí ČEZ", bg="#f24f00")
        + p("Zákaznická linka 371 100 100")
    )
    c.html = std(c, body, brand="ČEZ", lines=["ČEZ Prodej, a.s."])
    c.text = auto_text(c.html)


# Vietnamese


@case("vi", "code", "mã OTP in the middle of a long paragraph: số hợp đồng, số tiền, tổng đài")
def vi_h19_otp_trong_doan(c: Case) -> None:
    c.sender = "Home Credit <noreply@homecredit.example.vn>"
    c.subject = "Xác nhận khoản vay của bạn"
    c.codes = ["739104"]
    c.never("3900482019", "15.000.000", "15000000", "1900 633 633", "1900633633", "2025")
    c.html = plain_html(
        p("Chào anh Nguyễn Văn An,")
        + p(
            "Hợp đồng số 3900482019 với số tiền vay 15.000.000 VND đã sẵn sàng để ký. Để xác nhận, vui lòng nhập mã OTP 739104 vào ứng dụng Home Credit trong vòng 5 phút; sau khi xác nhận, số tiền sẽ được giải ngân vào tài khoản của anh trong ngày làm việc tiếp theo. Tuyệt đối không chia sẻ mã này với bất kỳ ai, kể cả nhân viên Home Credit."
        )
        + p("Tổng đài: 1900 633 633 &middot; 2025")
    )
    c.text = auto_text(c.html)


@case(
    "vi",
    "link",
    "xác nhận thiết bị mới: approve button; 'Không phải bạn?' and đổi mật khẩu links",
    charset="windows-1258",
    html_cte="quoted-printable",
)
def vi_h19_xac_nhan_thiet_bi(c: Case) -> None:
    c.sender = "VNPAY <noreply@vnpay.example>"
    c.subject = b19_vi1258("Xác nhận đăng nhập trên thiết bị mới")
    rid = c.t("rid", 24, "hex")
    url = f"https://id.vnpay.example/thiet-bi/xac-nhan?req={rid}"
    c.links = [url]
    notme = c.never(f"https://id.vnpay.example/thiet-bi/tu-choi?req={rid}")
    pw = c.never("https://id.vnpay.example/tai-khoan/doi-mat-khau")
    c.never("203.0.113.55", "2025")
    body = (
        h1(b19_vi1258("Thiết bị mới"))
        + p(
            b19_vi1258(
                "Tài khoản của bạn vừa đăng nhập trên Samsung Galaxy S24 (203.0.113.55) lúc 20:15 ngày 14/03/2025."
            )
        )
        + button(url, b19_vi1258("Xác nhận thiết bị"), bg="#005baa")
        + p(
            f"{b19_vi1258('Không phải bạn?')} {a(notme, b19_vi1258('Từ chối'))} &middot; {a(pw, b19_vi1258('Đổi mật khẩu'))}"
        )
    )
    c.html = std(c, body, brand="VNPAY", lines=["VNPAY"])
    c.text = auto_text(c.html)


@case("vi", "negative", "hóa đơn tiền điện: mã khách hàng, kỳ hóa đơn, số tiền, thanh toán link", html_cte="base64")
def vi_h19_neg_hoa_don_dien(c: Case) -> None:
    c.sender = "EVN HCMC <hoadon@evnhcmc.example.vn>"
    c.subject = "Thông báo tiền điện tháng 3/2025"
    pay = c.never("https://cskh.evnhcmc.example.vn/thanh-toan?ma=PE04000123456")
    c.never("PE04000123456", "04000123456", "1.248.320", "1248320", "19001006", "1900 1006", "2025")
    body = (
        h1("Thông báo tiền điện")
        + p("Mã khách hàng: PE04000123456<br>Kỳ: 03/2025<br>Số tiền: 1.248.320 đồng<br>Hạn thanh toán: 25/03/2025")
        + button(pay, "Thanh toán ngay", bg="#004c97")
        + p("Tổng đài: 1900 1006")
    )
    c.html = std(c, body, brand="EVN HCMC", lines=["Tổng công ty Điện lực TP.HCM"])


# Danish


@case(
    "da",
    "code",
    "engangskode beside a CPR-shaped number, a sagsnummer and a phone (ISO-8859-1 text)",
    charset="ISO-8859-1",
    text_cte="quoted-printable",
)
def da_h19_engangskode(c: Case) -> None:
    c.sender = "Borger.dk <noreply@borger.example>"
    c.subject = "Din engangskode"
    c.codes = ["830274"]
    c.never("140385-1234", "1403851234", "2025-48201", "202548201", "33 98 00 00", "33980000", "2025")
    c.text = dedent("""\
        Kære Mette Hansen (CPR 140385-1234),

        Du er ved at ændre din e-mailadresse i sag 2025-48201.
        Din engangskode er: 830274

        Koden udløber om 10 minutter.
        Spørgsmål? Ring 33 98 00 00.
        """)


@case(
    "da",
    "negative",
    "elregning: kundenummer, aftalenummer, beløb, betalingsdato, 'Log ind på Mit Andel' link",
    charset="ISO-8859-1",
    html_cte="quoted-printable",
)
def da_h19_neg_elregning(c: Case) -> None:
    c.sender = "Andel Energi <regning@andelenergi.example>"
    c.subject = "Din elregning for februar 2025"
    login = c.never("https://mit.andelenergi.example/log-ind")
    c.never("7201948", "571313104820193", "642,75", "64275", "70 29 29 29", "70292929", "2025")
    body = (
        h1("Din elregning")
        + p(
            "Kundenummer: 7201948<br>Målepunkt-ID: 571313104820193<br>Beløb: 642,75 kr.<br>Betales: 01.04.2025 via Betalingsservice"
        )
        + button(login, "Log ind på Mit Andel", bg="#00283c")
        + p("Kundeservice 70 29 29 29")
    )
    c.html = std(c, body, brand="Andel Energi", lines=["Andel Energi A/S"])
    c.text = auto_text(c.html)


# Finnish


@case(
    "fi",
    "link",
    "salasanan palautus: Finnish path /palauta-salasana/, QP text part with the same URL",
    charset="ISO-8859-15",
    text_cte="quoted-printable",
    html_cte="quoted-printable",
)
def fi_h19_salasanan_palautus(c: Case) -> None:
    c.sender = "Verkkokauppa.com <asiakaspalvelu@verkkokauppa.example>"
    c.subject = "Salasanan palautus"
    url = f"https://www.verkkokauppa.example/fi/tili/palauta-salasana?token={c.t('t', 64, 'hex')}"
    c.links = [url]
    help_url = c.never("https://www.verkkokauppa.example/fi/asiakaspalvelu")
    body = (
        h1("Palauta salasanasi")
        + p("Saimme pyynnön salasanasi vaihtamisesta. Linkki on voimassa tunnin.")
        + button(url, "Vaihda salasana", bg="#0050b4")
        + p(a(help_url, "Asiakaspalvelu"))
    )
    c.html = std(c, body, brand="Verkkokauppa.com", lines=["Verkkokauppa.com Oyj"])
    c.text = f"Palauta salasanasi\n\nSaimme pyynnön salasanasi vaihtamisesta. Linkki on voimassa tunnin:\n{url}\n\nAsiakaspalvelu: {help_url}\n"


@case(
    "fi",
    "negative",
    "tilausvahvistus: tilausnumero, summa, toimitusaika, noutopiste, seuraa link",
    html_cte="quoted-printable",
)
def fi_h19_neg_tilausvahvistus(c: Case) -> None:
    c.sender = "Prisma <verkkokauppa@prisma.example>"
    c.subject = "Tilausvahvistus 48201937"
    track = c.never("https://www.prisma.example/tilaukset/48201937")
    c.never("48201937", "129,90", "12990", "00100", "2025")
    body = (
        h1("Kiitos tilauksestasi!")
        + p(
            "Tilausnumero: 48201937<br>Yhteensä: 129,90 €<br>Toimitus: Posti, noutopiste Kamppi, 00100 Helsinki<br>Arvioitu toimitus: 18.03.2025"
        )
        + button(track, "Seuraa tilausta", bg="#00843d")
    )
    c.html = std(c, body, brand="Prisma", lines=["SOK"])
    c.text = auto_text(c.html)


# Hungarian


@case(
    "hu",
    "code",
    "Ügyfélkapu egyszer használatos kód in ISO-8859-2 HTML: adóazonosító jel, ügyszám, hotline",
    charset="ISO-8859-2",
    html_cte="quoted-printable",
)
def hu_h19_ugyfelkapu_kod(c: Case) -> None:
    c.sender = "Ügyfélkapu+ <noreply@ugyfelkapu.gov.example>"
    c.subject = "Egyszer használatos kód"
    c.codes = ["620419"]
    c.never("8412345670", "UK-2025-048201", "2025048201", "1818", "2025")
    body = (
        h1("Bejelentkezés megerősítése")
        + p("Adóazonosító jel: 8412345670<br>Ügyszám: UK-2025-048201")
        + p("Az egyszer használatos kód: <b style='font-size:24px'>620419</b>")
        + p("A kód 5 percig érvényes. Kormányzati ügyfélvonal: 1818")
    )
    c.html = std(c, body, brand="Ügyfélkapu+", lines=["Digitális Kormányzati Ügynökség"])
    c.text = auto_text(c.html)


@case(
    "hu",
    "negative",
    "GLS csomagkövetés: csomagszám, irányítószám, időablak, utánvét; 'Követés' link",
    charset="ISO-8859-2",
    html_cte="base64",
)
def hu_h19_neg_csomag(c: Case) -> None:
    c.sender = "GLS Hungary <noreply@gls.example.hu>"
    c.subject = "Csomagja ma érkezik (48201937102)"
    track = c.never("https://gls-group.example/HU/hu/csomagkovetes?match=48201937102")
    c.never("48201937102", "1138", "12 490", "12490", "08:00", "16:00")
    body = (
        h1("Csomagja úton van")
        + p(
            "Csomagszám: 48201937102<br>Cím: 1138 Budapest, Váci út 178.<br>Érkezés: ma 08:00-16:00<br>Utánvét: 12 490 Ft"
        )
        + button(track, "Csomagkövetés", bg="#061ab1")
    )
    c.html = std(c, body, brand="GLS", lines=["GLS General Logistics Systems Hungary Kft."])


# Romanian


@case(
    "ro",
    "code",
    "ANAF codul de autentificare in ISO-8859-16 HTML: CNP, număr de înregistrare, telefon",
    charset="ISO-8859-16",
    html_cte="quoted-printable",
)
def ro_h19_anaf_cod(c: Case) -> None:
    c.sender = "ANAF SPV <noreply@anaf.example.ro>"
    c.subject = "Codul de autentificare în Spațiul Privat Virtual"
    c.codes = ["57302918"]
    c.never("1850314123456", "INREG-4820193", "4820193", "031 403 91 60", "0314039160")
    body = (
        h1("Autentificare SPV")
        + p("CNP: 1850314123456<br>Număr de înregistrare: INREG-4820193")
        + p("Codul de autentificare este: <b>57302918</b>. Este valabil 10 minute.")
        + p("Call center: 031 403 91 60")
    )
    c.html = std(c, body, brand="ANAF", lines=["Agenția Națională de Administrare Fiscală"])
    c.text = auto_text(c.html)


@case("ro", "link", "confirmă noua adresă de e-mail: Romanian path /confirma-email/, 'Nu ai fost tu?' link")
def ro_h19_confirma_email_nou(c: Case) -> None:
    c.sender = "OLX România <noreply@olx.example.ro>"
    c.subject = "Confirmă noua adresă de e-mail"
    url = f"https://www.olx.example.ro/contul-meu/confirma-email/?cod={c.t('c', 40, 'hex')}"
    c.links = [url]
    notme = c.never("https://www.olx.example.ro/contul-meu/securitate/")
    body = (
        h1("Confirmă adresa de e-mail")
        + p("Ai cerut schimbarea adresei de e-mail a contului. Apasă pe buton pentru confirmare (valabil 48 de ore).")
        + button(url, "Confirmă adresa", bg="#002f34")
        + p(f"Nu ai fost tu? {a(notme, 'Verifică securitatea contului')}")
    )
    c.html = std(c, body, brand="OLX", lines=["OLX Online Services SRL"])
    c.text = auto_text(c.html)


# Indonesian


@case(
    "id", "code", "OVO kode in cells; 'jangan berikan kode ini' warning, nominal, nomor HP", html_cte="quoted-printable"
)
def id_h19_ovo_kode_sel(c: Case) -> None:
    c.sender = "OVO <noreply@ovo.example.id>"
    c.subject = "Kode verifikasi OVO kamu"
    c.codes = ["4829"]
    c.pieces = list("4829")
    c.never("0812-3456-7890", "081234567890", "250.000", "250000", "1500 696", "1500696", "2025")
    body = (
        h1("Kode verifikasi")
        + p("Untuk top up Rp250.000 ke nomor 0812-3456-7890, masukkan kode berikut:")
        + cells("4829")
        + p("JANGAN berikan kode ini kepada siapa pun, termasuk pihak yang mengaku dari OVO. Call center 1500 696.")
    )
    c.html = std(c, body, brand="OVO", lines=["PT Visionet Internasional 2025"])
    c.text = auto_text(c.html)


@case(
    "id",
    "negative",
    "tagihan listrik pascabayar: ID pelanggan, periode, total tagihan, 'Bayar sekarang' link",
    html_cte="base64",
)
def id_h19_neg_tagihan_pln(c: Case) -> None:
    c.sender = "PLN Mobile <noreply@pln.example.id>"
    c.subject = "Tagihan listrik Maret 2025"
    pay = c.never("https://pln.example.id/tagihan/bayar?idpel=532100482019")
    c.never("532100482019", "482.315", "482315", "123", "2025")
    body = (
        h1("Tagihan listrik")
        + p(
            "ID Pelanggan: 532100482019<br>Periode: Maret 2025<br>Total tagihan: Rp482.315<br>Jatuh tempo: 20 Maret 2025"
        )
        + button(pay, "Bayar sekarang", bg="#00a2e9")
        + p("Contact center PLN 123")
    )
    c.html = std(c, body, brand="PLN Mobile", lines=["PT PLN (Persero)"])


@case("id", "code+link", "kode verifikasi plus 'Masuk ke akun' Mandrill link; 'Lupa kata sandi?' and bantuan links")
def id_h19_kode_dan_tautan_masuk(c: Case) -> None:
    c.sender = "Bukalapak <noreply@bukalapak.example>"
    c.subject = "Masuk ke Bukalapak"
    c.codes = ["703918"]
    url = b19_trk(c, "mandrill", "bukalapak.example", "login")
    c.links = [url]
    forgot = c.never(b19_trk(c, "mandrill", "bukalapak.example", "forgot"))
    help_url = c.never(b19_trk(c, "mandrill", "bukalapak.example", "help"))
    body = (
        h1("Masuk ke akunmu")
        + p("Kode verifikasi: <b>703918</b> (berlaku 5 menit)")
        + p("Atau langsung masuk dengan tombol ini dari perangkat yang sama:")
        + button(url, "Masuk ke akun", bg="#e31e52")
        + p(f"{a(forgot, 'Lupa kata sandi?')} &middot; {a(help_url, 'Bantuan')}")
    )
    c.html = std(c, body, brand="Bukalapak", lines=["PT Bukalapak.com Tbk"])
    c.text = auto_text(c.html)


# More traps across languages: replaced codes, anti-phishing words, subject-only codes, newsletters


@case("en", "code", "the earlier code is said to have expired; the new one is in the box (both written with a space)")
def en_h19_previous_code_expired(c: Case) -> None:
    c.sender = "Robinhood <notifications@robinhood.example>"
    c.subject = "Your new Robinhood verification code"
    c.codes = ["902715", "902 715"]
    c.never("481 920", "481920", "2025", "94025")
    body = (
        h1("Here's a new code")
        + p("The code we sent you earlier (481 920) has expired. Use this one instead:")
        + big("902 715")
        + p("It expires in 5 minutes. Robinhood will never call you to ask for this code.")
    )
    c.html = std(
        c, body, brand="Robinhood", lines=["Robinhood Markets, Inc., 85 Willow Rd, Menlo Park, CA 94025, 2025"]
    )
    c.text = auto_text(c.html)


@case(
    "es",
    "code",
    "código anterior anulado in a text-only mail (8bit UTF-8); new code with a dash; DNI and phone decoys",
    text_cte="8bit",
)
def es_h19_codigo_anterior_anulado(c: Case) -> None:
    c.sender = "Bizum <no-reply@bizum.example>"
    c.subject = "Nuevo código de verificación"
    c.codes = ["731904", "731-904"]
    c.never("528-113", "528113", "12345678Z", "+34 611 222 333", "34611222333", "611222333")
    c.text = dedent("""\
        Hola, Laura:

        Has solicitado un nuevo código. El código anterior (528-113) ya no es válido.

        Tu nuevo código de verificación: 731-904

        Titular: Laura García, DNI 12345678Z
        Móvil asociado: +34 611 222 333

        Si no lo has pedido tú, ignora este mensaje.
        """)


@case(
    "ko",
    "code",
    "이전 인증번호는 만료: a new 인증번호 below the void one, EUC-KR HTML-only",
    charset="EUC-KR",
    html_cte="base64",
)
def ko_h19_ijeon_injeung_manryo(c: Case) -> None:
    c.sender = "배달의민족 <noreply@baemin.example>"
    c.subject = "[배달의민족] 새 인증번호 안내"
    c.codes = ["640127"]
    c.never("311859", "1600-0987", "16000987", "2025")
    body = (
        p("이전에 발송된 인증번호(311859)는 만료되었습니다.")
        + p("새 인증번호를 입력해 주세요.")
        + big("640127")
        + p("인증번호는 5분간 유효합니다. 고객센터 1600-0987")
    )
    c.html = std(c, body, brand="배달의민족", lines=["(주)우아한형제들 2025"])


@case(
    "en",
    "code",
    "exchange mail with the user's anti-phishing code above the verification code; withdrawal amount and address",
)
def en_h19_antiphishing_code(c: Case) -> None:
    c.sender = "OKX <noreply@okx.example>"
    c.subject = "[OKX] Withdrawal verification"
    c.codes = ["482019"]
    c.never("OKX-7731", "7731", "0.2500", "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh", "2493")
    lock = c.never("https://www.okx.example/account/security/freeze")
    body = (
        p("Anti-phishing code: <b>OKX-7731</b>")
        + h1("Confirm your withdrawal")
        + p("Amount: 0.2500 BTC<br>Address: bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh")
        + p("Verification code: <b style='font-size:22px'>482019</b>")
        + p(f"If you did not request this, {a(lock, 'freeze your account')} immediately.")
    )
    c.html = std(c, body, brand="OKX", lines=["OKX"])
    c.text = auto_text(c.html)


@case(
    "tr",
    "code",
    "güvenlik sözcüğü (the user's security word with digits) above the doğrulama kodu; IBAN and amount",
    charset="ISO-8859-9",
    html_cte="quoted-printable",
)
def tr_h19_guvenlik_sozcugu(c: Case) -> None:
    c.sender = "Enpara.com <bilgi@enpara.example>"
    c.subject = "Para transferi doğrulama kodu"
    c.codes = ["305817"]
    c.never(
        "MAVI42",
        "TR33 0006 1005 1978 6457 8413 26",
        "TR330006100519786457841326",
        "2.500,00",
        "250000",
        "0850 222 0 667",
        "08502220667",
    )
    body = (
        p("Güvenlik sözcüğünüz: <b>MAVI42</b>")
        + h1("Transfer onayı")
        + p("Alıcı IBAN: TR33 0006 1005 1978 6457 8413 26<br>Tutar: 2.500,00 TL")
        + p("Doğrulama kodunuz: <b>305817</b>")
        + p("Müşteri hizmetleri: 0850 222 0 667")
    )
    c.html = std(c, body, brand="Enpara.com", lines=["QNB Bank A.Ş."])
    c.text = auto_text(c.html)


@case(
    "en",
    "negative",
    "newsletter whose articles talk about verification codes and sign-in; 'Sign in to read' and promo code WELCOME10",
)
def en_h19_neg_newsletter_code_words(c: Case) -> None:
    c.sender = "The Verge <newsletter@theverge.example>"
    c.subject = "Installer: why your 6-digit codes are getting phished"
    read = c.never(b19_trk(c, "sendgrid", "theverge.example", "read"))
    signin = c.never(b19_trk(c, "sendgrid", "theverge.example", "signin"))
    unsub = c.never(b19_trk(c, "sendgrid", "theverge.example", "unsub"))
    c.never("WELCOME10", "2025", "10001", "183")
    body = (
        h1("Installer No. 183")
        + p(
            "This week: attackers now relay one-time verification codes in real time, so a 6-digit code from a text message is only as safe as the page you type it into. We tested passkeys on 12 phones from 2019 to 2025."
        )
        + button(read, "Read the full issue", bg="#5200ff")
        + p(f"Subscribers get it all: {a(signin, 'Sign in to read')} &middot; new readers save 10% with code WELCOME10")
        + b19_small(f"{a(unsub, 'Unsubscribe')} &middot; Vox Media, 1201 Connecticut Ave, New York, NY 10001")
    )
    c.html = std(c, body, brand="The Verge", lines=["Vox Media, LLC"])
    c.text = auto_text(c.html)


@case(
    "de",
    "negative",
    "Webinar-Anmeldung bestätigt: Webinar-ID in groups, Uhrzeit, 'Zum Webinar' and calendar links; no Kenncode",
    charset="ISO-8859-15",
    html_cte="quoted-printable",
)
def de_h19_neg_webinar_anmeldung(c: Case) -> None:
    c.sender = "IHK München <veranstaltungen@ihk-muenchen.example>"
    c.subject = "Anmeldebestätigung: Webinar Datenschutz am 20.03.2025"
    join = c.never(f"https://ihk-muenchen.zoom.example/w/84201937712?tk={c.t('tk', 40)}")
    cal = c.never("https://www.ihk-muenchen.example/veranstaltungen/48201/kalender.ics")
    cancel = c.never("https://www.ihk-muenchen.example/veranstaltungen/48201/abmelden")
    c.never("842 0193 7712", "84201937712", "48201", "2025", "10:00", "11:30", "80323")
    body = (
        h1("Ihre Anmeldung ist bestätigt")
        + p(
            "Webinar: Datenschutz im Mittelstand<br>Donnerstag, 20.03.2025, 10:00-11:30 Uhr<br>Webinar-ID: 842 0193 7712"
        )
        + button(join, "Zum Webinar", bg="#004a99")
        + p(f"{a(cal, 'In den Kalender eintragen')} &middot; {a(cancel, 'Von der Veranstaltung abmelden')}")
    )
    c.html = std(
        c, body, brand="IHK München", lines=["IHK für München und Oberbayern, Max-Joseph-Str. 2, 80323 München"]
    )
    c.text = auto_text(c.html)


@case(
    "ja",
    "negative",
    "キャンペーンのお知らせ: クーポンコード, 価格, 期間, ログイン link, 配信停止",
    charset="ISO-2022-JP",
)
def ja_h19_neg_coupon_campaign(c: Case) -> None:
    c.sender = "ユニクロ <news@uniqlo.example.jp>"
    c.subject = "【ユニクロ】週末限定 クーポンコードのお知らせ"
    login = c.never("https://www.uniqlo.example.jp/jp/ja/member/login?cid=mail")
    unsub = c.never("https://www.uniqlo.example.jp/jp/ja/member/mailmagazine/stop")
    c.never("SPRING500", "1,990", "1990", "2025", "5000")
    c.text = dedent(f"""\
        ユニクロ会員のみなさま

        週末限定で使えるクーポンコード SPRING500 をお届けします。
        5000円以上のお買い物で500円引き（2025年3月16日まで）。
        ドライEXクルーネックT 1,990円 など

        ログインしてクーポンを使う
        {login}

        メールマガジンの配信停止
        {unsub}
        """)


@case(
    "fr", "code+link", "code and two buttons for the same sign-in (app and web, also_links); 'Mot de passe oublié' link"
)
def fr_h19_code_lien_deux_surfaces(c: Case) -> None:
    c.sender = "Alan <connexion@alan.example>"
    c.subject = "Votre code de connexion Alan : 582 041"
    c.codes = ["582041", "582 041"]
    t = c.t("t", 40)
    web = f"https://alan.example/fr/connexion/lien?token={t}"
    app = f"https://alan.example/app/login-link?token={t}&source=email"
    c.links = [web]
    c.also_links = [app]
    forgot = c.never("https://alan.example/fr/mot-de-passe-oublie")
    body = (
        h1("Connexion")
        + p("Votre code de connexion :")
        + big("582041")
        + p("Vous pouvez aussi vous connecter en un clic :")
        + button(web, "Se connecter sur le web", bg="#282673")
        + button(app, "Ouvrir l'application", bg="#ffffff", fg="#282673")
        + p(a(forgot, "Mot de passe oublié ?"))
    )
    c.html = std(c, body, brand="Alan", lines=["Alan SA"])
    c.text = auto_text(c.html)


@case("en", "link", "HTML-only Outlook/MSO reset mail: VML button twin plus the anchor; 'forgot your username?' link")
def en_h19_mso_reset_html_only(c: Case) -> None:
    c.sender = "Fidelity Investments <noreply@fidelity.example>"
    c.subject = "Reset your password"
    url = f"https://digital.fidelity.example/prgw/digital/resetpassword?rt={c.t('rt', 48)}"
    c.links = [url]
    user = c.never("https://digital.fidelity.example/prgw/digital/forgotusername")
    c.never("800-343-3548", "8003433548", "02210")
    c.html = (
        '<html xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office">'
        '<head><meta http-equiv="Content-Type" content="text/html; charset=utf-8"></head><body>'
        '<div class="WordSection1"><p class="MsoNormal">Dear Jane Doe,<o:p></o:p></p>'
        '<p class="MsoNormal">We received a request to reset the password for your account. This link expires in 30 minutes.<o:p></o:p></p>'
        + button(url, "Reset password", bg="#368727", vml=True)
        + f'<p class="MsoNormal"><a href="{esc(user)}">Forgot your username?</a><o:p></o:p></p>'
        '<p class="MsoNormal">Questions? 800-343-3548. Fidelity, 245 Summer St, Boston, MA 02210<o:p></o:p></p></div></body></html>'
    )


@case(
    "ru",
    "code",
    "code only in the subject; the body points to it and lists an order and a phone",
    charset="KOI8-R",
    text_cte="base64",
)
def ru_h19_kod_tolko_v_teme(c: Case) -> None:
    c.sender = "Самокат <noreply@samokat.example>"
    c.subject = "Код для входа: 5820"
    c.codes = ["5820"]
    c.never("71930284", "8 800 700-82-16", "88007008216")
    c.text = dedent("""\
        Здравствуйте!

        Используйте код из темы письма, чтобы войти в приложение.
        Ваш последний заказ: 71930284.

        Поддержка: 8 800 700-82-16
        """)


@case("en", "code", "code in a key/value table between a reference number, a time and a request id")
def en_h19_code_kv_table(c: Case) -> None:
    c.sender = "Namecheap <support@namecheap.example>"
    c.subject = "Domain transfer authorization"
    c.codes = ["830144"]
    c.never("2025-0314-77", "2025031477", "10:52", "REQ-4820193", "4820193", "2025")
    body = (
        h1("Confirm the domain push")
        + '<table style="font-size:14px;border-collapse:collapse"><tr><td style="padding:4px 12px">Reference</td><td>2025-0314-77</td></tr>'
        '<tr><td style="padding:4px 12px">Domain</td><td>example-shop.com</td></tr>'
        '<tr><td style="padding:4px 12px">Verification code</td><td><b>830144</b></td></tr>'
        '<tr><td style="padding:4px 12px">Valid until</td><td>10:52 UTC</td></tr>'
        '<tr><td style="padding:4px 12px">Request ID</td><td>REQ-4820193</td></tr></table>'
        + p("Enter the verification code on the transfer page to approve the push.")
    )
    c.html = std(c, body, brand="Namecheap", lines=["Namecheap, Inc."])
    c.text = auto_text(c.html)


@case(
    "it",
    "code",
    "codice written with a dash in the middle (4820-1937), IBAN and importo nearby",
    charset="ISO-8859-1",
    text_cte="quoted-printable",
)
def it_h19_codice_trattino(c: Case) -> None:
    c.sender = "Fineco <noreply@fineco.example>"
    c.subject = "Codice di autorizzazione bonifico"
    c.codes = ["48201937", "4820-1937"]
    c.never(
        "IT60 X054 2811 1010 0000 0123 456",
        "IT60X0542811101000000123456",
        "980,00",
        "98000",
        "800 52 52 52",
        "800525252",
    )
    c.text = dedent("""\
        Gentile cliente,

        per autorizzare il bonifico di 980,00 EUR verso IT60 X054 2811 1010 0000 0123 456
        inserisci il codice di autorizzazione: 4820-1937

        Il codice scade tra 3 minuti.
        Servizio clienti 800 52 52 52
        """)


@case(
    "uk", "negative", "розсилка: промокод, ціни, 'Увійти в кабінет' and unsubscribe links", html_cte="quoted-printable"
)
def uk_h19_neg_rozsylka(c: Case) -> None:
    c.sender = "Rozetka <news@rozetka.example>"
    c.subject = "Весняний розпродаж: промокод VESNA300"
    shop = c.never(b19_trk(c, "braze", "rozetka.example", "shop"))
    login = c.never(b19_trk(c, "braze", "rozetka.example", "login"))
    unsub = c.never(b19_trk(c, "braze", "rozetka.example", "unsub"))
    c.never("VESNA300", "2 999", "2999", "2025", "0 800 303 344", "0800303344")
    body = (
        h1("Весняний розпродаж")
        + p("Знижка 300 грн з промокодом VESNA300 на покупки від 2 999 грн до 31.03.2025.")
        + button(shop, "До покупок", bg="#00a046")
        + p(a(login, "Увійти в кабінет"))
        + b19_small(f"{a(unsub, 'Відписатися від розсилки')} · 0 800 303 344")
    )
    c.html = std(c, body, brand="Rozetka", lines=["ТОВ «Розетка.УА»"])
    c.text = auto_text(c.html)


@case(
    "el",
    "code+link",
    "κωδικός επαλήθευσης and an 'Επιβεβαίωση email' button; help link",
    charset="ISO-8859-7",
    html_cte="quoted-printable",
)
def el_h19_kodikos_kai_syndesmos(c: Case) -> None:
    c.sender = "Vinted <no-reply@vinted.example>"
    c.subject = "Επιβεβαίωσε το email σου"
    c.codes = ["7391"]
    url = f"https://www.vinted.example/gr/epivevaiosi-email?token={c.t('t', 40, 'hex')}"
    c.links = [url]
    help_url = c.never("https://www.vinted.example/gr/help")
    body = (
        h1("Επιβεβαίωσε το email σου")
        + p("Κωδικός επαλήθευσης: <b>7391</b>")
        + p("Ή πάτησε το κουμπί:")
        + button(url, "Επιβεβαίωση email", bg="#09b1ba")
        + p(a(help_url, "Κέντρο βοήθειας"))
    )
    c.html = std(c, body, brand="Vinted", lines=["Vinted UAB"])
    c.text = auto_text(c.html)


@case(
    "vi",
    "code",
    "mã xác minh in the subject and the hidden preheader and the body of an HTML-only mail; hotline",
    html_cte="base64",
)
def vi_h19_ma_tieu_de_preheader(c: Case) -> None:
    c.sender = "Grab <no-reply@grab.example>"
    c.subject = "Mã xác minh Grab của bạn là 3920"
    c.codes = ["3920"]
    c.never("1900 1806", "19001806", "2025")
    body = (
        h1("Mã xác minh")
        + big("3920", size=36, spacing=12)
        + p("Mã có hiệu lực trong 5 phút. Không chia sẻ mã này cho bất kỳ ai.")
        + p("Tổng đài hỗ trợ 1900 1806 &middot; 2025")
    )
    c.html = card(c, body, brand="Grab", pre="Mã xác minh Grab của bạn là 3920", accent="#00b14f")


# Smaller languages: the kinds the first pass left out


@case("de", "link", "text-only Postmark-style mail: 'Anmelden [url]' in brackets, Datenschutz link in brackets too")
def de_h19_anmelden_klammern(c: Case) -> None:
    c.sender = "Kleinanzeigen Pro <hallo@pro.kleinanzeigen.example>"
    c.subject = "Dein Anmeldelink"
    url = f"https://pro.kleinanzeigen.example/auth/magic?token={c.t('t', 43)}&redirect=%2Fdashboard"
    c.links = [url]
    priv = c.never("https://pro.kleinanzeigen.example/datenschutz")
    c.text = (
        "Hallo Max,\n\nhier ist Dein Link zum Anmelden. Er gilt 15 Minuten und nur einmal.\n\n"
        f"Anmelden [{url}]\n\nDu hast keinen Link angefordert? Dann kannst Du diese E-Mail ignorieren.\n\n"
        f"Datenschutz [{priv}]\n"
    )


@case(
    "ko",
    "code",
    "인증번호 split into spans around a dash (482-913); 개인정보처리방침 and 고객센터 links",
    html_cte="quoted-printable",
)
def ko_h19_injeung_spans_dash(c: Case) -> None:
    c.sender = "야놀자 <noreply@yanolja.example>"
    c.subject = "야놀자 이메일 인증번호"
    c.codes = ["482913", "482-913"]
    c.pieces = ["482", "-", "913"]
    priv = c.never("https://www.yanolja.example/policy/privacy")
    cs = c.never("https://www.yanolja.example/cs")
    c.never("1644-1346", "16441346", "2025")
    body = (
        h1("이메일 인증")
        + p("아래 인증번호를 입력해 주세요. (10분간 유효)")
        + big(spans("482", "-", "913", style="display:inline-block"))
        + p(f"{a(priv, '개인정보처리방침')} | {a(cs, '고객센터')} 1644-1346")
    )
    c.html = std(c, body, brand="야놀자", lines=["(주)야놀자 2025"])
    c.text = auto_text(c.html)


@case(
    "pl",
    "negative",
    "nowe logowanie: device, IP, time; 'To nie Ty? Zabezpiecz konto' and help links",
    charset="ISO-8859-2",
    html_cte="quoted-printable",
)
def pl_h19_neg_nowe_logowanie(c: Case) -> None:
    c.sender = "OLX <powiadomienia@olx.example.pl>"
    c.subject = "Nowe logowanie na Twoje konto"
    secure = c.never("https://www.olx.example.pl/mojolx/ustawienia/bezpieczenstwo")
    help_url = c.never("https://pomoc.olx.example.pl/")
    c.never("198.51.100.99", "14.03.2025", "22:17")
    body = (
        h1("Nowe logowanie")
        + p("Urządzenie: Firefox, Windows<br>Lokalizacja: Poznań<br>IP: 198.51.100.99<br>Data: 14.03.2025, 22:17")
        + p(f"To nie Ty? {a(secure, 'Zabezpiecz konto')}")
        + p(a(help_url, "Pomoc"))
    )
    c.html = std(c, body, brand="OLX", lines=["Grupa OLX sp. z o.o."])
    c.text = auto_text(c.html)


@case(
    "sv",
    "link",
    "HubSpot-tracked 'Verifiera din e-post' button; the cookie and unsubscribe links are HubSpot redirects too",
    charset="ISO-8859-1",
    html_cte="quoted-printable",
)
def sv_h19_verifiera_hubspot(c: Case) -> None:
    c.sender = "Fortnox <noreply@fortnox.example>"
    c.subject = "Verifiera din e-postadress"
    url = b19_trk(c, "hubspot", "fortnox.example", "verify")
    c.links = [url]
    cookie = c.never(b19_trk(c, "hubspot", "fortnox.example", "cookie"))
    unsub = c.never(b19_trk(c, "hubspot", "fortnox.example", "unsub"))
    c.never("556469-6291", "5564696291", "351 04", "35104")
    body = (
        h1("Nästan klart!")
        + p("Klicka på knappen för att verifiera e-postadressen till ditt nya Fortnox-konto.")
        + button(url, "Verifiera din e-post", bg="#003824")
        + b19_small(f"{a(cookie, 'Om cookies')} &middot; {a(unsub, 'Avregistrera')}")
    )
    c.html = std(c, body, brand="Fortnox", lines=["Fortnox AB, org.nr 556469-6291, Box 427, 351 04 Växjö"])
    c.text = auto_text(c.html)


@case(
    "cs",
    "link",
    "obnovení hesla, text-only windows-1250 with the URL in <angle brackets>; helpdesk URL below",
    charset="windows-1250",
    text_cte="quoted-printable",
)
def cs_h19_obnoveni_hesla_text(c: Case) -> None:
    c.sender = "Mall.cz <info@mall.example.cz>"
    c.subject = "Obnovení hesla"
    url = f"https://www.mall.example.cz/zakaznik/obnova-hesla?hash={c.t('h', 48, 'hex')}"
    c.links = [url]
    helpdesk = c.never("https://www.mall.example.cz/napoveda")
    c.never("800 400 500", "800400500")
    c.text = (
        "Dobrý den,\n\npožádali jste o obnovení hesla. Nové heslo si nastavíte zde:\n"
        f"<{url}>\n\nOdkaz platí 2 hodiny. Pokud jste o změnu nežádali, e-mail ignorujte.\n\n"
        f"Nápověda: <{helpdesk}>\nZákaznická linka 800 400 500\n"
    )


@case(
    "hu",
    "link",
    "e-mail cím megerősítése: Hungarian path /megerosites/, 'Nem Ön volt?' link",
    charset="ISO-8859-2",
    html_cte="quoted-printable",
)
def hu_h19_email_megerosites(c: Case) -> None:
    c.sender = "eMAG.hu <noreply@emag.example.hu>"
    c.subject = "Erősítse meg az e-mail címét"
    url = f"https://www.emag.example.hu/user/email/megerosites?t={c.t('t', 40, 'hex')}"
    c.links = [url]
    notme = c.never("https://www.emag.example.hu/user/biztonsag")
    body = (
        h1("E-mail cím megerősítése")
        + p("Kattintson a gombra az új e-mail címe megerősítéséhez. A link 24 óráig érvényes.")
        + button(url, "Megerősítem", bg="#005eb8")
        + p(f"Nem Ön volt? {a(notme, 'Fiókbiztonság')}")
    )
    c.html = std(c, body, brand="eMAG", lines=["Dante International Kft."])
    c.text = auto_text(c.html)


@case("da", "link", "godkend ny enhed: approve button, 'Det var ikke mig' link, IP and time")
def da_h19_godkend_enhed(c: Case) -> None:
    c.sender = "MobilePay <noreply@mobilepay.example>"
    c.subject = "Godkend login på ny enhed"
    rid = c.t("rid", 24, "hex")
    url = f"https://www.mobilepay.example/dk/enheder/godkend?id={rid}"
    c.links = [url]
    notme = c.never(f"https://www.mobilepay.example/dk/enheder/afvis?id={rid}")
    c.never("192.0.2.33", "2025", "21:05")
    body = (
        h1("Er det dig?")
        + p("Nogen forsøger at logge ind fra en iPad (192.0.2.33) den 14.03.2025 kl. 21:05.")
        + button(url, "Godkend enhed", bg="#5a78ff")
        + p(a(notme, "Det var ikke mig"))
    )
    c.html = std(c, body, brand="MobilePay", lines=["Vipps MobilePay AS"])
    c.text = auto_text(c.html)


@case(
    "ro",
    "negative",
    "rezervare zbor: cod rezervare (letters), număr bilet, zbor, bagaj, total; check-in link",
    charset="ISO-8859-16",
    html_cte="quoted-printable",
)
def ro_h19_neg_rezervare_zbor(c: Case) -> None:
    c.sender = "TAROM <rezervari@tarom.example.ro>"
    c.subject = "Confirmarea rezervării - cod rezervare KXQ7RT"
    checkin = c.never("https://www.tarom.example.ro/check-in?pnr=KXQ7RT")
    c.never("KXQ7RT", "2812104820193", "RO 301", "1.248,00", "124800", "2025", "06:45")
    body = (
        h1("Rezervarea este confirmată")
        + p(
            "Cod rezervare: <b>KXQ7RT</b><br>Număr bilet: 2812104820193<br>Zbor RO 301 București - Paris, 21.03.2025, 06:45<br>Total: 1.248,00 RON"
        )
        + button(checkin, "Check-in online", bg="#003e7e")
    )
    c.html = std(c, body, brand="TAROM", lines=["Compania Națională de Transporturi Aeriene Române TAROM S.A."])
    c.text = auto_text(c.html)


@case(
    "fi",
    "code",
    "vahvistuskoodi inside a sentence of a text-only ISO-8859-15 mail; asiakasnumero and eräpäivä",
    charset="ISO-8859-15",
    text_cte="8bit",
)
def fi_h19_vahvistuskoodi_lauseessa(c: Case) -> None:
    c.sender = "Elisa <asiakaspalvelu@elisa.example>"
    c.subject = "Vahvista sähköpostiosoitteesi"
    c.codes = ["627014"]
    c.never("3048201", "29.03.2025", "010 190 240", "010190240")
    c.text = dedent("""\
        Hei Matti,

        vaihdoit OmaElisan sähköpostiosoitteen (asiakasnumero 3048201). Kirjoita vahvistuskoodi 627014 OmaElisan kenttään, niin muutos tulee voimaan heti. Seuraavan laskusi eräpäivä 29.03.2025 ei muutu.

        Asiakaspalvelu 010 190 240
        """)


@case(
    "zh-Hant",
    "code",
    "一次性密碼 after a 參考編號 with a letter prefix and digits, 交易金額 and 商戶 (HK bank)",
    html_cte="quoted-printable",
)
def zh_hant_h19_yicixing_mima_cankao(c: Case) -> None:
    c.sender = "恒生銀行 <noreply@hangseng.example>"
    c.subject = "恒生銀行 一次性密碼"
    c.codes = ["719402"]
    c.never("HB-4821", "4821", "1,280.00", "128000", "4021", "2822 0228", "28220228", "2025")
    body = (
        p("親愛的客戶：")
        + p("閣下正以信用卡（末四位 4021）於 HKTVMALL 簽賬 HKD 1,280.00。")
        + p("參考編號：HB-4821<br>一次性密碼：<b>719402</b>")
        + p("一次性密碼將於 100 秒後失效，切勿向任何人透露。客戶服務熱線 2822 0228")
    )
    c.html = std(c, body, brand="恒生銀行", lines=["恒生銀行有限公司 2025"])
    c.text = auto_text(c.html)


# ---- end of issue 19 held-out cases ----


# ---- issue 19 third held-out set ----
#
# A third blind set: government portals, healthcare, universities, games, exchanges, telecoms,
# admin consoles, dating, ride-hailing, developer tools; codes written in unusual ways and links
# labelled only "here". Expectations are what a careful reader would type or click.

# English


@case(
    "en",
    "link",
    "PyPI verify-email, text only: the link is a long signed token on its own line; help and account-settings URLs",
)
def en_t19_pypi_verify_email(c: Case) -> None:
    c.sender = "PyPI <noreply@pypi.example>"
    c.subject = "[PyPI] Email verification"
    url = f"https://pypi.example/account/verify-email/?token={c.t('jwt1', 36)}.{c.t('jwt2', 180)}.{c.t('jwt3', 43)}"
    c.links = [url]
    settings = c.never("https://pypi.example/manage/account/#account-emails")
    help_url = c.never("https://pypi.example/help/#verified-email")
    c.never("2025")
    c.text = dedent(f"""\
        Someone, perhaps you, has added this email address (jane.doe@example.com) to the PyPI
        account "janedoe1987".

        Please verify this address by visiting the following link:

        {url}

        This link expires in 6 hours. If you did not make this request, you can safely ignore
        this email. You can manage your addresses at {settings}

        Why do I need to verify? {help_url}

        -- The Python Package Index, 2025
        """)


@case(
    "en",
    "code",
    "CLI login code written with a space between every digit ('type 4 8 2 9 1 3'), HTML pieces; org ID and CLI version",
    html_cte="quoted-printable",
)
def en_t19_pulumi_cli_spaced_digits(c: Case) -> None:
    c.sender = "Pulumi Cloud <no-reply@pulumi.example>"
    c.subject = "Finish signing in to the Pulumi CLI"
    c.codes = ["482913"]
    c.pieces = list("482913")
    tokens = c.never("https://app.pulumi.example/account/tokens")
    docs = c.never("https://www.pulumi.example/docs/cli/commands/pulumi_login/")
    c.never("3.152.0", "org-7730214", "7730214", "2025")
    body = (
        h1("Almost there")
        + p("A <code>pulumi login</code> was started from CLI version 3.152.0 for the organization org-7730214.")
        + p(
            'To finish, go back to your terminal and type <b style="letter-spacing:3px">4 8 2 9 1 3</b> when the CLI asks for it.'
        )
        + p(f"Prefer tokens for CI? {a(tokens, 'Manage access tokens')} &middot; {a(docs, 'CLI docs')}")
    )
    c.html = std(c, body, brand="Pulumi", accent="#8a3391", lines=["Pulumi Corporation, Seattle, WA", "&copy; 2025"])
    c.text = (
        "Almost there\n\nA pulumi login was started from CLI version 3.152.0 for the organization org-7730214.\n\n"
        "To finish, go back to your terminal and type 4 8 2 9 1 3 when the CLI asks for it.\n"
    )


@case(
    "en",
    "code",
    "game sign-in code at the end of a sentence with a full stop; match ID, RP balance, player tag with digits",
)
def en_t19_riot_code_fullstop(c: Case) -> None:
    c.sender = "Riot Games <noreply@mail.riotgames.example>"
    c.subject = "Your sign-in code"
    c.codes = ["604731"]
    support = c.never("https://support-leagueoflegends.riotgames.example/hc/en-us/requests/new")
    pw = c.never("https://account.riotgames.example/reset-password")
    c.never("NA1-5098213344", "5098213344", "1,350", "1350", "Doe#4021", "4021")
    c.text = dedent(f"""\
        Hi Doe#4021,

        Someone is trying to sign in to your Riot account from a new device. If it was you, the code to enter is 604731.

        Your last match (NA1-5098213344) and your 1,350 RP balance are safe either way.

        Forgot your password? {pw}
        Need help? {support}

        GLHF,
        Riot Games
        """)


@case(
    "en",
    "code",
    "exchange withdrawal code in bold inside a long sentence; amount, BTC address, tx ID; 'cancel withdrawal' deny link",
    html_cte="quoted-printable",
)
def en_t19_gemini_withdrawal_bold(c: Case) -> None:
    c.sender = "Gemini <no-reply@gemini.example>"
    c.subject = "Confirm your BTC withdrawal"
    c.codes = ["35810427"]
    addr = "bc1q" + c.t("addr", 38, "023456789acdefghjklmnpqrstuvwxyz")
    cancel = c.never(f"https://exchange.gemini.example/withdrawals/cancel?wid={c.t('w', 24, 'hex')}")
    lock = c.never("https://exchange.gemini.example/settings/security/freeze")
    c.never(addr, "0.25000000", "25000000", "W-88120395", "88120395", "203.0.113.40")
    body = (
        h1("Withdrawal requested")
        + p(
            f"We received a request from 203.0.113.40 to withdraw 0.25000000 BTC to {addr} (request W-88120395), and to approve it you need to enter the confirmation code <b>35810427</b> in the withdrawal window within the next 15 minutes, after which the request is dropped automatically."
        )
        + p(f"Didn't request this? {a(cancel, 'Cancel this withdrawal')} and {a(lock, 'freeze your account')}.")
    )
    c.html = std(c, body, brand="Gemini", accent="#00dcfa", lines=["Gemini Trust Company, LLC"])
    c.text = auto_text(c.html)


@case(
    "en",
    "code",
    "government login portal, text only: the code between em dashes ('— 304918 —'); agency reference and phone",
)
def en_t19_logingov_em_dashes(c: Case) -> None:
    c.sender = "Login.gov <no-reply@login.example.gov>"
    c.subject = "Your one-time code"
    c.codes = ["304918"]
    help_url = c.never("https://login.example.gov/help/")
    c.never("1-844-875-6446", "18448756446", "SSA-2025-0419", "20250419")
    c.text = dedent(f"""\
        Login.gov

        Your one-time code — 304918 — expires in 10 minutes.

        You are signing in to Social Security (agency reference SSA-2025-0419).
        Do not share this code. Login.gov will never call you to ask for it.

        Contact center: 1-844-875-6446
        {help_url}
        """)


@case(
    "en",
    "code",
    "dating app: the code only in the subject after an emoji; the body refers to it; app version and member ID",
)
def en_t19_hinge_subject_emoji(c: Case) -> None:
    c.sender = "Hinge <no-reply@hinge.example>"
    c.subject = "🔐 615273 is your Hinge code"
    c.codes = ["615273"]
    safety = c.never("https://hinge.example/safety")
    c.never("9.41.0", "88104733", "2025")
    c.html = plain_html(
        p("Hi Jane,")
        + p("Type the code from this email's subject into the app to finish logging in.")
        + p("Member ID 88104733 &middot; Hinge for iOS 9.41.0")
        + p(f"Never share your code with matches. {a(safety, 'Dating safety tips')}")
        + p("&copy; 2025 Hinge")
    )


@case(
    "en",
    "link",
    "admin-console activation whose action link reads only 'here'; a second 'here' goes to the help centre",
)
def en_t19_okta_admin_here(c: Case) -> None:
    c.sender = "Okta <noreply@okta.example>"
    c.subject = "Welcome to Okta - activate your administrator account"
    url = f"https://acme.okta.example/welcome/{c.t('act', 20, 'b62')}"
    c.links = [url]
    help_url = c.never("https://help.okta.example/en-us/content/topics/settings/settings-admin-roles.htm")
    c.never("00o1a2b3c4d5e6f7g8h9", "2025")
    body = (
        h1("Your Okta admin account is ready")
        + p("Jane Doe made you a Super Administrator of acme.okta.example (user 00o1a2b3c4d5e6f7g8h9).")
        + p(f"To activate your account and choose a password, click {a(url, 'here')}. This link expires in 7 days.")
        + p(f"To learn what administrators can do, read more {a(help_url, 'here')}.")
    )
    c.html = std(c, body, brand="Okta", accent="#00297a", lines=["Okta, Inc. 2025"])


@case(
    "en",
    "code",
    "ride-hailing 4-digit login code; the previous code is said to be void; trip ID and promo in the footer",
)
def en_t19_bolt_new_code_old_void(c: Case) -> None:
    c.sender = "Bolt <no-reply@bolt.example>"
    c.subject = "Your new Bolt login code"
    c.codes = ["7391"]
    c.never("5024", "RIDE15", "TR-2291847", "2291847")
    promo = c.never("https://bolt.example/promo?code=RIDE15")
    body = (
        h1("Here's your new code")
        + p("You asked us to resend the code. The code we sent earlier (5024) no longer works.")
        + big("7391", size=36)
        + p("Your last trip TR-2291847 has been paid.")
        + b19_small(f"Use promo RIDE15 on your next ride: {a(promo, 'see offer')}")
    )
    c.html = std(c, body, brand="Bolt", accent="#34d186", lines=["Bolt Technology OÜ, Vana-Lõuna 15, Tallinn"])
    c.text = auto_text(c.html)


@case(
    "en",
    "code",
    "smart-home: verification code after an image and a line break; thermostat serial, MAC address and app version",
    html_cte="quoted-printable",
)
def en_t19_ecobee_code_under_image(c: Case) -> None:
    c.sender = "ecobee <noreply@ecobee.example>"
    c.subject = "Verify it's you"
    c.codes = ["384951"]
    c.never("411928374512", "44:61:32:0A:7B:19", "5.0.2", "2025")
    pw = c.never("https://www.ecobee.example/consumerportal/index.html#/forgot-password")
    body = (
        '<img src="https://cdn.ecobee.example/email/thermostat-hero.png" alt="" width="320" height="180" style="display:block">'
        + "<br>"
        + '<span style="font-size:30px;font-weight:700">384951</span><br>'
        + p(
            "Enter this number in the ecobee app (version 5.0.2) to add Smart Thermostat Premium, serial 411928374512 (MAC 44:61:32:0A:7B:19)."
        )
        + p(a(pw, "Forgot password?"))
    )
    c.html = std(c, body, brand="ecobee", accent="#3b3b3b", lines=["ecobee Inc., 2025"])


@case(
    "en",
    "code",
    "airline's own OTP: loyalty number and last flight number beside the code; 'not you? reset' link",
)
def en_t19_united_mileageplus_otp(c: Case) -> None:
    c.sender = "United Airlines <unitedairlines@news.united.example>"
    c.subject = "Your MileagePlus verification code"
    c.codes = ["829104"]
    reset = c.never("https://www.united.example/en/us/account/reset-password")
    c.never("XK481922", "UA 1742", "1742", "88,410", "88410", "1-800-864-8331", "18008648331")
    body = (
        p("Hello Jane,")
        + p("MileagePlus number: XK481922")
        + p("Your verification code is")
        + big("829104")
        + p("Miles balance: 88,410 &middot; Last flight: UA 1742")
        + p(f"Not you? {a(reset, 'Reset your password')} or call 1-800-864-8331.")
    )
    c.html = std(c, body, brand="United", accent="#0033a0", lines=["United Airlines, Inc."])
    c.text = auto_text(c.html)


@case("en", "negative", "ride receipt: trip ID, fare lines, times, card ending, 'report a lost item' and rating links")
def en_t19_neg_lyft_receipt(c: Case) -> None:
    c.sender = "Lyft Receipts <no-reply@lyftmail.example>"
    c.subject = "Your ride with Marcus on March 13"
    lost = c.never("https://www.lyft.example/help/lost-item?ride_id=1893304417260011")
    rate = c.never("https://www.lyft.example/rides/1893304417260011/rate")
    c.never(
        "1893304417260011", "23.47", "2347", "19.80", "1980", "3.67", "6.12", "4021", "21:14", "21:39", "94110", "94103"
    )
    body = (
        h1("Thanks for riding with Marcus") + '<table style="width:100%;font-size:14px">'
        "<tr><td>Pickup 21:14</td><td>2400 Mission St, San Francisco 94110</td></tr>"
        "<tr><td>Drop-off 21:39</td><td>801 Market St, San Francisco 94103</td></tr>"
        "<tr><td>Lyft fare (6.12 mi, 25 min)</td><td>$19.80</td></tr><tr><td>Tip</td><td>$3.67</td></tr>"
        "<tr><td><b>Total (Visa ending 4021)</b></td><td><b>$23.47</b></td></tr></table>"
        + p(f"Ride ID 1893304417260011 &middot; {a(rate, 'Rate your ride')} &middot; {a(lost, 'Report a lost item')}")
    )
    c.html = std(
        c,
        body,
        brand="Lyft",
        accent="#ff00bf",
        lines=["Lyft, Inc., 185 Berry St, San Francisco, CA 94107"],
        decoys=["94107"],
    )
    c.text = auto_text(c.html)


@case(
    "en",
    "negative",
    "scam-awareness mail that quotes an example code ('Your code is 123456') and a fake short link; security tips link",
)
def en_t19_neg_scam_advisory_example_code(c: Case) -> None:
    c.sender = "Chase <no.reply.alerts@chase.example>"
    c.subject = "We will never ask you for your one-time code"
    tips = c.never("https://www.chase.example/personal/banking/security-center")
    report = c.never("https://www.chase.example/digital/report-fraud")
    c.never("123456", "https://chase-verify.example/login", "1-800-935-9935", "18009359935", "2025")
    c.text = dedent(f"""\
        Protect yourself from impostor scams

        Scammers send texts that look like this one:

          "Chase: Your verification code is 123456. If you did not request it, call us or
          log in at https://chase-verify.example/login to cancel."

        We will never call, text or email you to ask for a one-time code. If anyone does, hang up
        and call the number on the back of your card, 1-800-935-9935.

        Security tips: {tips}
        Report fraud: {report}

        JPMorgan Chase Bank, N.A. Member FDIC. 2025
        """)


@case(
    "en",
    "negative",
    "marketplace 'you made a sale' notice: order and listing numbers, amounts, 'confirm shipping' and label links",
    html_cte="quoted-printable",
)
def en_t19_neg_etsy_sale(c: Case) -> None:
    c.sender = "Etsy <transaction@etsy.example>"
    c.subject = "You made a sale on Etsy! Ship by March 18"
    ship = c.never("https://www.etsy.example/your/orders/sold/3187249011/confirm-shipping")
    label = c.never("https://www.etsy.example/your/orders/sold/3187249011/shipping-label")
    c.never("3187249011", "1588204731", "42.00", "4200", "6.50", "650", "97214")
    body = (
        h1("Congratulations, you made a sale!")
        + p("Order #3187249011 &middot; Listing #1588204731 &middot; Hand-thrown mug (x2)")
        + p("Item total: $42.00 &middot; Shipping: $6.50<br>Ship to: J. Doe, Portland, OR 97214")
        + button(ship, "Confirm shipping", bg="#f1641e")
        + p(a(label, "Buy a shipping label"))
    )
    c.html = std(c, body, brand="Etsy", accent="#f1641e", lines=["Etsy, Inc., Brooklyn, NY"])
    c.text = auto_text(c.html)


@case(
    "en",
    "negative",
    "university course registration: course codes, CRNs, section and term codes, 'verify enrollment' portal link",
)
def en_t19_neg_course_registration(c: Case) -> None:
    c.sender = "Office of the Registrar <registrar@berkeley.example.edu>"
    c.subject = "Registration confirmed - Spring 2025"
    portal = c.never("https://calcentral.berkeley.example.edu/academics/enrollment-verification")
    c.never("CS 61A", "48213", "30611", "202530", "3034418812", "2025")
    c.text = dedent(f"""\
        Dear Jane Doe (SID 3034418812),

        Your registration for term code 202530 (Spring 2025) is confirmed:

          Course code   CRN     Section   Units
          CS 61A        48213   001       4
          MATH 54       30611   102       4

        To download an enrollment verification letter, sign in to CalCentral:
        {portal}

        Office of the Registrar
        """)


@case(
    "en",
    "negative",
    "developer newsletter: article titles with 'verify' and 'code', release numbers, footer 'confirm your preferences'",
)
def en_t19_neg_dev_newsletter(c: Case) -> None:
    c.sender = "Node Weekly <node@cooperpress.example>"
    c.subject = "Node Weekly #571: verifying package provenance"
    art1 = c.never("https://nodeweekly.example/link/164501/web")
    art2 = c.never("https://nodeweekly.example/link/164502/web")
    prefs = c.never("https://nodeweekly.example/confirm-preferences/b71c2e")
    unsub = c.never("https://nodeweekly.example/unsubscribe/b71c2e")
    c.never("23.9.0", "22.14.0", "164501", "2025")
    body = (
        h1("#571 — March 14, 2025")
        + p(
            f"{a(art1, 'How to verify npm package provenance in CI')} — and what the 2FA code prompt on publish really protects."
        )
        + p(f"{a(art2, 'Node.js 23.9.0 and 22.14.0 released')} — with security fixes.")
        + b19_small(f"{a(prefs, 'Confirm your email preferences')} &middot; {a(unsub, 'Unsubscribe')}")
    )
    c.html = std(c, body, brand="Node Weekly", accent="#43853d", lines=["Cooperpress Ltd."])
    c.text = auto_text(c.html)


# German


@case(
    "de",
    "code",
    "BundID Bestätigungscode written in pairs in HTML (pieces); Vorgangsnummer and Postfach-ID decoys",
    charset="ISO-8859-15",
    html_cte="quoted-printable",
)
def de_t19_bundid_code_paare(c: Case) -> None:
    c.sender = "BundID <noreply@id.bund.example.de>"
    c.subject = "Ihr Bestätigungscode für die BundID"
    c.codes = ["510837"]
    c.pieces = ["51", "08", "37"]
    faq = c.never("https://id.bund.example.de/de/faq")
    c.never("VG-2025-0081734", "20250081734", "PF-449102", "449102")
    body = (
        h1("Bestätigungscode")
        + p("Sie melden sich mit Benutzername und Passwort an. Bitte geben Sie diesen Code ein:")
        + big("51 08 37")
        + p("Vorgangsnummer: VG-2025-0081734<br>Postfach-ID: PF-449102")
        + p(f"Der Code ist 15 Minuten gültig. {a(faq, 'Häufige Fragen')}")
    )
    c.html = std(c, body, brand="BundID", accent="#000000", lines=["Bundesministerium des Innern und für Heimat"])


@case(
    "de",
    "link",
    "Universität: 'klicken Sie hier' is the only label of the confirm link, a second 'hier' is the privacy notice",
    charset="ISO-8859-1",
    html_cte="quoted-printable",
)
def de_t19_uni_hier_klicken(c: Case) -> None:
    c.sender = "TUM Online <noreply@campus.tum.example.de>"
    c.subject = "Bestätigung Ihrer Bewerbung - E-Mail-Adresse"
    url = f"https://campus.tum.example.de/tumonline/wbBewerbung.mailBestaetigen?pToken={c.t('t', 48, 'hex')}"
    c.links = [url]
    ds = c.never("https://www.tum.example.de/datenschutz")
    c.never("03712884", "80333")
    body = (
        p("Sehr geehrte Frau Musterfrau,")
        + p("vielen Dank für Ihre Bewerbung (Bewerbernummer 03712884) für den Masterstudiengang Informatik.")
        + p(f"Damit wir Ihnen Bescheide zustellen können, klicken Sie bitte {a(url, 'hier')}.")
        + p(f"Informationen zur Verarbeitung Ihrer Daten finden Sie {a(ds, 'hier')}.")
        + p("Technische Universität München, Arcisstraße 21, 80333 München")
    )
    c.html = plain_html(body)


@case(
    "de",
    "code",
    "Krankenkasse app: Einmalpasswort in a text-only mail after a Versichertennummer and a Beitragsbetrag",
    charset="ISO-8859-1",
    text_cte="quoted-printable",
)
def de_t19_tk_einmalpasswort(c: Case) -> None:
    c.sender = "Techniker Krankenkasse <noreply@tk.example.de>"
    c.subject = "Meine TK: Ihr Einmalpasswort"
    c.codes = ["KT4-92X", "KT492X"]
    c.never("T123456789", "123456789", "1.204,50", "120450", "0800 285 85 85", "08002858585")
    c.text = dedent("""\
        Guten Tag Frau Musterfrau,

        Versichertennummer: T123456789
        Monatlicher Beitrag: 1.204,50 EUR

        Ihr Einmalpasswort für die Anmeldung in "Meine TK" lautet:

            KT4-92X

        Es ist 10 Minuten gültig und kann nur einmal verwendet werden.

        Fragen? TK-ServiceTeam 0800 285 85 85
        """)


@case(
    "de",
    "negative",
    "Arzttermin-Erinnerung: Terminnummer, Uhrzeit, Praxistelefon, 'Termin verwalten' and 'absagen' links",
)
def de_t19_neg_arzttermin(c: Case) -> None:
    c.sender = "Doctolib <no-reply@doctolib.example.de>"
    c.subject = "Erinnerung: Ihr Termin morgen um 08:45"
    manage = c.never(f"https://www.doctolib.example.de/appointments/{c.t('apt', 16, 'hex')}/edit")
    cancel = c.never(f"https://www.doctolib.example.de/appointments/{c.t('apt', 16, 'hex')}/cancel")
    c.never("08:45", "48213077", "030 1234567", "0301234567", "10115")
    body = (
        h1("Ihr Termin bei Dr. med. Erika Beispiel")
        + p("Sa., 15. März, 08:45 Uhr &middot; Hausarztpraxis, Invalidenstr. 3, 10115 Berlin")
        + p("Terminnummer 48213077 &middot; Praxis: 030 1234567")
        + p("Bitte bringen Sie Ihre Versichertenkarte mit.")
        + p(f"{a(manage, 'Termin verwalten')} &middot; {a(cancel, 'Termin absagen')}")
    )
    c.html = std(c, body, brand="Doctolib", accent="#107aca", lines=["Doctolib GmbH"])
    c.text = auto_text(c.html)


@case(
    "de",
    "negative",
    "Mobilfunkrechnung: Kundennummer, Rechnungsnummer, Beträge, Kundenkennwort hint, 'Rechnung ansehen' link",
    charset="ISO-8859-15",
    html_cte="quoted-printable",
)
def de_t19_neg_mobilfunkrechnung(c: Case) -> None:
    c.sender = "Vodafone <rechnung@vodafone.example.de>"
    c.subject = "Ihre Vodafone-Rechnung für März 2025"
    view = c.never("https://www.vodafone.example.de/meinvodafone/services/rechnung?rn=2025031412")
    c.never("114827390", "2025031412", "39,99", "3999", "2025", "0800 172 1212", "08001721212")
    body = (
        p("Hallo Max Mustermann,")
        + p("Ihre Rechnung ist da. Kundennummer 114827390, Rechnungsnummer 2025031412.")
        + p("Betrag: 39,99 € &middot; Abbuchung am 20.03.2025")
        + p("Ihr Kundenkennwort brauchen Sie nur am Telefon (0800 172 1212).")
        + button(view, "Rechnung ansehen", bg="#e60000")
    )
    c.html = std(c, body, brand="Vodafone", accent="#e60000", lines=["Vodafone GmbH, Düsseldorf"])
    c.text = auto_text(c.html)


# French


@case(
    "fr",
    "code",
    "CAF code de confirmation followed by a full stop, numéro d'allocataire and montant; 'mot de passe oublié' link",
    charset="windows-1252",
    html_cte="quoted-printable",
)
def fr_t19_caf_code_point(c: Case) -> None:
    c.sender = "Caf.fr <ne-pas-repondre@caf.example.fr>"
    c.subject = "Votre code de confirmation"
    c.codes = ["582047"]
    mdp = c.never("https://wwwd.caf.example.fr/wps/portal/caffr/mot-de-passe-oublie")
    c.never("7412903", "312,40", "31240", "3230")
    body = (
        p("Bonjour Madame Dupont,")
        + p("Numéro d'allocataire : 7412903")
        + p("Pour valider la modification de vos coordonnées bancaires, saisissez le code suivant : <b>582047</b>.")
        + p("Montant de votre prochain versement : 312,40 €.")
        + p(f"{a(mdp, 'Mot de passe oublié ?')} &middot; Contact : 3230")
    )
    c.html = std(c, body, brand="Caf", accent="#0a5ca8", lines=["Caisse d'allocations familiales"])
    c.text = auto_text(c.html)


@case(
    "fr",
    "link",
    "covoiturage: the e-mail confirmation link is labelled only 'ici'; app-store and help links",
)
def fr_t19_blablacar_ici(c: Case) -> None:
    c.sender = "BlaBlaCar <no-reply@blablacar.example.fr>"
    c.subject = "Plus qu'une étape pour voyager"
    url = b19_trk(c, "sendgrid", "blablacar.example.fr", "confirm")
    c.links = [url]
    aide = c.never(b19_trk(c, "sendgrid", "blablacar.example.fr", "aide"))
    app = c.never("https://apps.apple.example/fr/app/blablacar/id341329033")
    c.never("341329033")
    body = (
        h1("Bienvenue Camille !")
        + p(f"Pour confirmer votre adresse e-mail et publier votre premier trajet, cliquez {a(url, 'ici')}.")
        + p(f"Une question ? Notre centre d'aide est {a(aide, 'ici')}. {a(app, 'Télécharger l’app')}")
    )
    c.html = std(c, body, brand="BlaBlaCar", accent="#00aff5", lines=["Comuto SA, 84 av. de la République, Paris"])


@case(
    "fr",
    "code",
    "Parcoursup code de vérification between 'numéro de dossier' and a date; text only",
)
def fr_t19_parcoursup_code(c: Case) -> None:
    c.sender = "Parcoursup <noreply@parcoursup.example.fr>"
    c.subject = "Parcoursup - code de vérification"
    c.codes = ["401927"]
    c.never("2025-381922", "2025381922", "0800 400 070", "0800400070")
    c.text = dedent("""\
        Bonjour,

        Numéro de dossier : 2025-381922

        Vous avez demandé à modifier l'adresse électronique de votre dossier. Votre code de
        vérification est 401927 ; il est valable 30 minutes.

        Date limite de confirmation des voeux : 2 avril 2025.

        Numéro vert : 0800 400 070
        """)


@case(
    "fr",
    "negative",
    "opérateur: the RIO portability code ('code RIO') and customer number; 'gérer ma ligne' link",
    charset="ISO-8859-15",
    html_cte="quoted-printable",
)
def fr_t19_neg_code_rio(c: Case) -> None:
    c.sender = "SFR <service-client@sfr.example.fr>"
    c.subject = "Votre code RIO"
    ligne = c.never("https://www.sfr.example.fr/mon-espace-client/ligne")
    c.never("01P4F291K7XB", "01 P 4F2 91K 7XB", "0612345678", "06 12 34 56 78", "29471882", "3179")
    body = (
        p("Bonjour,")
        + p("Voici le Relevé d'Identité Opérateur de la ligne 06 12 34 56 78 (client n° 29471882) :")
        + p("<b>Code RIO : 01 P 4F2 91K 7XB</b>")
        + p("Donnez-le à votre nouvel opérateur pour conserver votre numéro. Ce n'est pas un code de connexion.")
        + p(f"{a(ligne, 'Gérer ma ligne')} &middot; Service client : 3179")
    )
    c.html = std(c, body, brand="SFR", accent="#e2001a", lines=["SFR SA"])
    c.text = auto_text(c.html)


@case(
    "fr",
    "negative",
    "carte de fidélité: card number, points, 'code avantage' promo; 'valider mon compte fidélité' marketing link",
    html_cte="quoted-printable",
)
def fr_t19_neg_carte_fidelite(c: Case) -> None:
    c.sender = "Sephora <news@sephora.example.fr>"
    c.subject = "Vos 1 250 points vous attendent"
    shop = c.never(b19_trk(c, "salesforce", "sephora.example.fr", "shop"))
    valider = c.never(b19_trk(c, "salesforce", "sephora.example.fr", "valider"))
    unsub = c.never(b19_trk(c, "salesforce", "sephora.example.fr", "unsub"))
    c.never("2913 0045 8812", "291300458812", "BIENVENUE10", "1 250", "1250")
    body = (
        h1("Camille, vos avantages")
        + p("Carte n° 2913 0045 8812 &middot; Solde : 1 250 points")
        + p("Code avantage : <b>BIENVENUE10</b> (-10 % dès 50 €)")
        + button(shop, "J'en profite", bg="#000000")
        + b19_small(f"{a(valider, 'Valider mon compte fidélité')} &middot; {a(unsub, 'Se désabonner')}")
    )
    c.html = std(c, body, brand="Sephora", accent="#000000", lines=["Sephora SAS"])
    c.text = auto_text(c.html)


# Spanish


@case(
    "es",
    "code",
    "ClaveÚnica (Chile) alphanumeric code with a dash; RUN with check digit and a folio number",
    charset="windows-1252",
    text_cte="quoted-printable",
)
def es_t19_claveunica_codigo_alfanumerico(c: Case) -> None:
    c.sender = "ClaveÚnica <no-responder@claveunica.example.cl>"
    c.subject = "Tu código de verificación ClaveÚnica"
    c.codes = ["7Q4-9KT", "7Q49KT"]
    recuperar = c.never("https://claveunica.example.cl/recuperar")
    c.never("12.345.678-5", "123456785", "F-00481927", "00481927", "600 360 3305", "6003603305")
    c.text = dedent(f"""\
        Hola Juan Pérez (RUN 12.345.678-5):

        Estás activando ClaveÚnica en un nuevo dispositivo para el trámite folio F-00481927.
        Ingresa este código de verificación:

        7Q4-9KT

        Vence en 5 minutos. ¿Olvidaste tu ClaveÚnica? {recuperar}

        Mesa de ayuda: 600 360 3305
        """)


@case(
    "es",
    "link",
    "ride-hailing: verify link labelled 'aquí'; the text part carries the very same URL; help 'aquí' link too",
    charset="ISO-8859-1",
    html_cte="quoted-printable",
    text_cte="quoted-printable",
)
def es_t19_didi_verificar_aqui(c: Case) -> None:
    c.sender = "DiDi <no-reply@didiglobal.example>"
    c.subject = "Verifica tu correo electrónico"
    url = f"https://web.didiglobal.example/es-MX/passport/email/verify?ticket={c.t('tk', 64, 'hex')}&lang=es-MX"
    c.links = [url]
    ayuda = c.never("https://help.didiglobal.example/es-MX/passenger/index.html")
    body = (
        p("¡Hola Ana!")
        + p(f"Para verificar tu correo y recibir tus recibos de viaje, haz clic {a(url, 'aquí')}.")
        + p(f"Si tienes problemas, visita el centro de ayuda {a(ayuda, 'aquí')}.")
    )
    c.html = plain_html(body)
    c.text = auto_text(c.html)


@case(
    "es",
    "negative",
    "cita médica: 'Código de cita', número de historia clínica, hora, teléfono; 'anular cita' link",
    charset="ISO-8859-15",
    html_cte="quoted-printable",
)
def es_t19_neg_cita_medica(c: Case) -> None:
    c.sender = "Quirónsalud <citas@quironsalud.example.es>"
    c.subject = "Confirmación de su cita - Código 48213"
    anular = c.never(f"https://citas.quironsalud.example.es/anular?cita=48213&h={c.t('h', 16, 'hex')}")
    c.never("48213", "HC-0091837", "0091837", "10:30", "901 500 501", "901500501", "28040")
    body = (
        p("Estimada Sra. García:")
        + p("Código de cita: <b>48213</b><br>Historia clínica: HC-0091837")
        + p("Dermatología, lunes 17 de marzo a las 10:30, Av. Reyes Católicos 2, 28040 Madrid")
        + p(f"Si no puede acudir, {a(anular, 'anule su cita')} o llame al 901 500 501.")
    )
    c.html = std(c, body, brand="Quirónsalud", accent="#00a0af", lines=["Quirónsalud"])
    c.text = auto_text(c.html)


@case(
    "es",
    "negative",
    "telecom factura: número de cliente, número de factura, líneas, importes, 'ver factura' link",
    charset="ISO-8859-15",
    html_cte="quoted-printable",
)
def es_t19_neg_movistar_factura(c: Case) -> None:
    c.sender = "Movistar <factura@movistar.example.es>"
    c.subject = "Tu factura de marzo ya está disponible"
    ver = c.never(b19_trk(c, "salesforce", "movistar.example.es", "ver"))
    baja = c.never(b19_trk(c, "salesforce", "movistar.example.es", "baja"))
    c.never("61284930", "TA5R20250314", "612 345 678", "612345678", "54,90", "5490", "1004")
    body = (
        p("Hola Lucía,")
        + p("Nº de cliente: 61284930 &middot; Nº de factura: TA5R20250314")
        + p("Línea móvil 612 345 678 &middot; Importe: 54,90 €")
        + button(ver, "Ver factura", bg="#019df4")
        + b19_small(f"Atención al cliente: 1004 &middot; {a(baja, 'Darse de baja')}")
    )
    c.html = std(c, body, brand="Movistar", accent="#019df4", lines=["Telefónica de España, S.A.U."])
    c.text = auto_text(c.html)


# Portuguese


@case(
    "pt",
    "code",
    "Autenticação.gov código de segurança with a NIF and a process number; 'alterar palavra-passe' link",
    charset="ISO-8859-1",
    html_cte="quoted-printable",
)
def pt_t19_autenticacao_gov_codigo(c: Case) -> None:
    c.sender = "Autenticação.gov <nao-responder@autenticacao.example.pt>"
    c.subject = "Código de segurança"
    c.codes = ["273946"]
    alterar = c.never("https://autenticacao.example.pt/alterar-palavra-passe")
    c.never("123456789", "P-2025-118204", "2025118204", "300 003 990", "300003990")
    body = (
        p("Caro(a) cidadão(ã),")
        + p("Para concluir a autenticação no Portal das Finanças (NIF 123456789), introduza o código de segurança:")
        + big("273946")
        + p("Processo n.º P-2025-118204 &middot; Válido durante 5 minutos.")
        + p(f"{a(alterar, 'Alterar palavra-passe')} &middot; Linha de apoio 300 003 990")
    )
    c.html = std(
        c, body, brand="Autenticação.gov", accent="#1c4a8c", lines=["AMA - Agência para a Modernização Administrativa"]
    )


@case(
    "pt",
    "link",
    "English subject, Portuguese body: the confirm button says 'Confirmar e-mail'; 'Esqueci minha senha' link",
    html_cte="quoted-printable",
)
def pt_t19_99_subject_ingles(c: Case) -> None:
    c.sender = "99 <no-reply@99app.example>"
    c.subject = "Verify your email address"
    url = b19_trk(c, "braze", "99app.example", "confirm")
    c.links = [url]
    senha = c.never(b19_trk(c, "braze", "99app.example", "senha"))
    c.never("04538-133", "04538133")
    body = (
        h1("Falta pouco!")
        + p("Confirme seu e-mail para receber os recibos das suas corridas.")
        + button(url, "Confirmar e-mail", bg="#ffdd00", fg="#000000")
        + p(a(senha, "Esqueci minha senha"))
        + b19_small("99 Tecnologia Ltda., Av. Brigadeiro Faria Lima, 04538-133 São Paulo")
    )
    c.html = std(c, body, brand="99", accent="#ffdd00", lines=["99 Tecnologia Ltda."])
    c.text = auto_text(c.html)


@case(
    "pt",
    "negative",
    "Pix comprovante: 'Código de autenticação' hash, ID da transação, valor, CPF mascarado; 'ver comprovante' link",
    charset="ISO-8859-1",
    html_cte="quoted-printable",
)
def pt_t19_neg_pix_comprovante(c: Case) -> None:
    c.sender = "Banco Inter <comprovante@bancointer.example.br>"
    c.subject = "Comprovante de Pix enviado"
    ver = c.never("https://app.bancointer.example.br/comprovantes/pix/E00416968202503141029xK7qP2mN8a")
    auth = c.t("auth", 24, "0123456789ABCDEF")
    c.never(auth, "E00416968202503141029xK7qP2mN8a", "150,00", "15000", "***.456.789-**", "10:29")
    body = (
        p("Pix enviado com sucesso")
        + p("Valor: R$ 150,00<br>Para: Maria Silva, CPF ***.456.789-**<br>Data: 14/03/2025 10:29")
        + p(f"ID da transação: E00416968202503141029xK7qP2mN8a<br>Código de autenticação: {auth}")
        + p(a(ver, "Ver comprovante"))
    )
    c.html = std(c, body, brand="Inter", accent="#ff7a00", lines=["Banco Inter S.A."])


# Italian


@case(
    "it",
    "code",
    "INPS 5-digit codice di verifica after a protocol number with dots and a date; text only",
    charset="ISO-8859-15",
    text_cte="quoted-printable",
)
def it_t19_inps_codice_protocollo(c: Case) -> None:
    c.sender = "INPS <noreply@inps.example.it>"
    c.subject = "Codice di verifica per la domanda"
    c.codes = ["48213"]
    c.never("INPS.0080.14/03/2025.0012345", "0012345", "RSSMRA80A01H501U", "803 164", "803164")
    c.text = dedent("""\
        Gentile Mario Rossi (RSSMRA80A01H501U),

        la domanda con protocollo INPS.0080.14/03/2025.0012345 è in attesa di conferma.
        Per confermarla inserisca il codice di verifica 48213 nella pagina della domanda.

        Il codice scade tra 20 minuti.

        Contact center: 803 164
        """)


@case(
    "it",
    "link",
    "università: 'clicca qui' is the only label of the confirm link; the 'qui' of the privacy notice is not",
    charset="ISO-8859-1",
    html_cte="quoted-printable",
)
def it_t19_unibo_clicca_qui(c: Case) -> None:
    c.sender = "Studenti Online <noreply@studenti.unibo.example.it>"
    c.subject = "Conferma indirizzo email"
    url = f"https://studenti.unibo.example.it/sol/emailConfirm.htm?id={c.t('id', 40, 'b62')}"
    c.links = [url]
    privacy = c.never("https://www.unibo.example.it/it/ateneo/privacy-e-note-legali")
    c.never("0001092841", "40126")
    body = (
        p("Gentile studentessa,")
        + p(
            "matricola 0001092841: per confermare il nuovo indirizzo email associato al tuo profilo "
            + a(url, "clicca qui")
            + "."
        )
        + p("L'informativa sul trattamento dei dati personali è disponibile " + a(privacy, "qui") + ".")
        + p("Alma Mater Studiorum - Università di Bologna, Via Zamboni 33, 40126 Bologna")
    )
    c.html = plain_html(body)


@case(
    "it",
    "negative",
    "scontrino farmacia: codice AIC, codice fiscale for tax deduction, lotto, importi; 'scarica lo scontrino' link",
    charset="ISO-8859-15",
    html_cte="quoted-printable",
)
def it_t19_neg_scontrino_farmacia(c: Case) -> None:
    c.sender = "Farmacia Centrale <scontrini@farmaciacentrale.example.it>"
    c.subject = "Il tuo scontrino parlante"
    pdf_url = c.never("https://farmaciacentrale.example.it/scontrini/2025/000418.pdf")
    c.never("RSSMRA80A01H501U", "035248016", "T25B41", "12,90", "1290", "000418")
    body = (
        p("Scontrino n. 000418 del 14/03/2025")
        + p("Tachipirina 500 mg &middot; codice AIC 035248016 &middot; lotto T25B41 &middot; 12,90 €")
        + p("Codice fiscale per la detrazione: RSSMRA80A01H501U")
        + p(a(pdf_url, "Scarica lo scontrino (PDF)"))
    )
    c.html = std(c, body, brand="Farmacia Centrale", accent="#00a651", lines=["Farmacia Centrale S.n.c."])
    c.text = auto_text(c.html)


# Dutch


@case(
    "nl",
    "code",
    "Mijn Overheid controlecode; BSN-like number, zaaknummer and a 'wachtwoord vergeten' link",
)
def nl_t19_mijnoverheid_controlecode(c: Case) -> None:
    c.sender = "MijnOverheid <noreply@mijn.overheid.example.nl>"
    c.subject = "Uw controlecode"
    c.codes = ["493027"]
    vergeten = c.never("https://mijn.overheid.example.nl/wachtwoord-vergeten")
    c.never("123456782", "Z-2025-04418", "202504418", "0800 023 0503", "08000230503")
    body = (
        p("Geachte heer De Vries,")
        + p("U wijzigt uw e-mailadres voor de Berichtenbox (zaak Z-2025-04418).")
        + p("Uw controlecode: <b>493027</b>")
        + p("Burgerservicenummer op uw aanvraag: 123456782")
        + p(f"{a(vergeten, 'Wachtwoord vergeten?')} &middot; Vragen: 0800 023 0503")
    )
    c.html = std(c, body, brand="MijnOverheid", accent="#154273", lines=["Logius"])
    c.text = auto_text(c.html)


@case(
    "nl",
    "negative",
    "NS e-ticket: ticketcode, barcode number, train times, amount; 'bekijk je ticket' link",
)
def nl_t19_neg_ns_eticket(c: Case) -> None:
    c.sender = "NS <noreply@ns.example.nl>"
    c.subject = "Je e-ticket Amsterdam C - Utrecht C"
    view = c.never(f"https://www.ns.example.nl/mijnns/tickets/{c.t('tk', 12, 'hex')}")
    c.never("4K7Q9MZ2", "3145882019337", "08:16", "08:43", "8,90", "890")
    body = (
        h1("Goede reis!")
        + p("Amsterdam Centraal 08:16 → Utrecht Centraal 08:43, 2e klas, enkele reis")
        + p("Ticketcode: 4K7Q9MZ2<br>Barcode: 3145882019337<br>Prijs: € 8,90")
        + button(view, "Bekijk je ticket", bg="#ffc917", fg="#003082")
    )
    c.html = std(c, body, brand="NS", accent="#ffc917", lines=["NS Reizigers B.V., Utrecht"])
    c.text = auto_text(c.html)


# Polish


@case(
    "pl",
    "code",
    "e-Urząd Skarbowy: 'kod autoryzacyjny nr 2 dla operacji' - the sequence number and operation ID are not the code",
    charset="ISO-8859-2",
    text_cte="quoted-printable",
)
def pl_t19_eus_kod_nr_operacji(c: Case) -> None:
    c.sender = "e-Urząd Skarbowy <powiadomienia@podatki.example.pl>"
    c.subject = "Kod autoryzacyjny"
    c.codes = ["58201937"]
    c.never("OP/2025/0311/77412", "2025031177412", "22 330 03 30", "223300330")
    c.text = dedent("""\
        Dzień dobry,

        Kod autoryzacyjny nr 2 dla operacji OP/2025/0311/77412 (zmiana rachunku do zwrotu podatku) to:

        58201937

        Kod jest ważny przez 10 minut.

        Krajowa Informacja Skarbowa: 22 330 03 30
        """)


@case(
    "pl",
    "negative",
    "bilet PKP Intercity: 'kod kontrolny biletu', numer biletu, wagon/miejsce, cena; 'zwróć bilet' link",
    charset="ISO-8859-2",
    html_cte="quoted-printable",
)
def pl_t19_neg_bilet_kod_kontrolny(c: Case) -> None:
    c.sender = "PKP Intercity <bilety@intercity.example.pl>"
    c.subject = "Twój bilet na przejazd Warszawa - Kraków"
    zwrot = c.never("https://ebilet.intercity.example.pl/zwrot?nr=eIC58201744")
    c.never("eIC58201744", "58201744", "X7K2-99QF", "X7K299QF", "169,00", "16900", "07:05", "09:28")
    body = (
        p("Warszawa Centralna 07:05 - Kraków Główny 09:28, EIC 1301, wagon 7, miejsce 45")
        + p("Numer biletu: eIC58201744<br>Kod kontrolny biletu: X7K2-99QF<br>Cena: 169,00 zł")
        + p(a(zwrot, "Zwróć bilet"))
    )
    c.html = std(c, body, brand="PKP Intercity", accent="#2b2f84", lines=["PKP Intercity S.A."])
    c.text = auto_text(c.html)


# Turkish


@case(
    "tr",
    "code",
    "crypto withdrawal 'onay kodu' with amount, wallet address and a deny link ('bu işlemi ben yapmadım')",
    charset="ISO-8859-9",
    html_cte="quoted-printable",
)
def tr_t19_btcturk_cekim_onay(c: Case) -> None:
    c.sender = "BtcTurk <no-reply@btcturk.example>"
    c.subject = "Kripto para çekme onay kodunuz"
    c.codes = ["738201"]
    addr = "0x" + c.t("addr", 40, "0123456789abcdef")
    deny = c.never(f"https://pro.btcturk.example/cekim/iptal?id={c.t('id', 20, 'hex')}")
    c.never(addr, "1.250,00", "125000", "0850 333 0 400", "08503330400")
    body = (
        p("Sayın Ayşe Yılmaz,")
        + p(f"1.250,00 USDT tutarındaki çekme talebiniz {addr} adresine gönderilecek.")
        + p("Onay kodunuz: <b>738201</b>")
        + p(f"{a(deny, 'Bu işlemi ben yapmadım')} &middot; Destek: 0850 333 0 400")
    )
    c.html = std(c, body, brand="BtcTurk", accent="#1b4fd8", lines=["BtcTurk Bilişim A.Ş."])
    c.text = auto_text(c.html)


@case(
    "tr",
    "negative",
    "GSM faturası: müşteri no, fatura no, tutar, son ödeme tarihi, 'faturanı görüntüle' link",
    charset="windows-1254",
    html_cte="quoted-printable",
)
def tr_t19_neg_gsm_fatura(c: Case) -> None:
    c.sender = "Türk Telekom <fatura@turktelekom.example.tr>"
    c.subject = "Mart 2025 faturanız oluştu"
    gor = c.never("https://onlineislemler.turktelekom.example.tr/fatura?no=TT2025031488")
    c.never("TT2025031488", "2025031488", "70481223", "289,90", "28990", "444 1 444", "4441444")
    body = (
        p("Sayın Mehmet Demir,")
        + p("Müşteri no: 70481223<br>Fatura no: TT2025031488<br>Tutar: 289,90 TL &middot; Son ödeme: 27.03.2025")
        + button(gor, "Faturanı görüntüle", bg="#0050a0")
        + p("Müşteri hizmetleri: 444 1 444")
    )
    c.html = std(c, body, brand="Türk Telekom", accent="#0050a0", lines=["Türk Telekomünikasyon A.Ş."])
    c.text = auto_text(c.html)


# Swedish


@case(
    "sv",
    "code",
    "1177 Vårdguiden engångskod with one space; personnummer and a remiss number; text only",
    charset="ISO-8859-1",
    text_cte="quoted-printable",
)
def sv_t19_1177_engangskod(c: Case) -> None:
    c.sender = "1177 <noreply@1177.example.se>"
    c.subject = "Din engångskod till 1177"
    c.codes = ["482109", "4821 09"]
    c.never("19850312-2384", "198503122384", "R-2025-33018", "202533018", "0771-11 77 00", "0771117700")
    c.text = dedent("""\
        Hej!

        Du loggar in på 1177 med e-postkod för personnummer 19850312-2384.
        Din engångskod är: 4821 09

        Koden gäller i 5 minuter. Din remiss R-2025-33018 finns under Inkorgen.

        Sjukvårdsrådgivning: 1177 eller 0771-11 77 00
        """)


@case(
    "sv",
    "negative",
    "SL kvitto: kvittonummer, kortnummer, belopp, moms; 'visa kvitto' link",
    charset="ISO-8859-1",
    html_cte="quoted-printable",
)
def sv_t19_neg_sl_kvitto(c: Case) -> None:
    c.sender = "SL <kvitto@sl.example.se>"
    c.subject = "Kvitto för ditt köp"
    visa = c.never("https://sl.example.se/mitt-sl/kvitton/88120395")
    c.never("88120395", "1130 4419 2281", "113044192281", "1 060", "1060", "56,79", "5679")
    body = (
        p("Tack för ditt köp!")
        + p("Kvittonummer 88120395<br>30-dagarsbiljett vuxen &middot; SL Access 1130 4419 2281")
        + p("Belopp 1 060 kr, varav moms 6 % 56,79 kr")
        + p(a(visa, "Visa kvitto"))
    )
    c.html = std(c, body, brand="SL", accent="#0079c2", lines=["Region Stockholm, Trafikförvaltningen"])
    c.text = auto_text(c.html)


# Indonesian


@case(
    "id",
    "link",
    "marketplace verify-email link labelled 'di sini' inside a sentence; a second 'di sini' is the help centre",
)
def id_t19_bukalapak_di_sini(c: Case) -> None:
    c.sender = "Bukalapak <noreply@bukalapak.example>"
    c.subject = "Verifikasi email kamu"
    url = b19_trk(c, "mailgun", "bukalapak.example", "verify")
    c.links = [url]
    bantuan = c.never(b19_trk(c, "mailgun", "bukalapak.example", "bantuan"))
    c.never("021-5082 8080", "02150828080")
    body = (
        p("Hai Budi,")
        + p(
            f"Tinggal satu langkah lagi! Klik {a(url, 'di sini')} untuk memverifikasi email kamu. Tautan berlaku 24 jam."
        )
        + p(f"Butuh bantuan? Kunjungi Pusat Bantuan {a(bantuan, 'di sini')} atau hubungi 021-5082 8080.")
    )
    c.html = std(c, body, brand="Bukalapak", accent="#e31e52", lines=["PT Bukalapak.com Tbk"])


# Vietnamese


@case(
    "vi",
    "code",
    "Cổng Dịch vụ công mã OTP with a hồ sơ number and CCCD number; 'quên mật khẩu' link",
    html_cte="quoted-printable",
)
def vi_t19_dichvucong_ma_otp(c: Case) -> None:
    c.sender = "Cổng Dịch vụ công Quốc gia <noreply@dichvucong.example.vn>"
    c.subject = "Mã OTP xác thực hồ sơ"
    c.codes = ["615308"]
    quen = c.never("https://dichvucong.example.vn/p/home/dvc-quen-mat-khau.html")
    c.never("001085012345", "G22.41-250314-0017", "2503140017", "18001096")
    body = (
        p("Kính gửi ông/bà Nguyễn Văn An (CCCD 001085012345),")
        + p("Hồ sơ số G22.41-250314-0017 đang chờ xác thực. Mã OTP của bạn là <b>615308</b>, có hiệu lực trong 3 phút.")
        + p(f"{a(quen, 'Quên mật khẩu?')} &middot; Tổng đài 18001096")
    )
    c.html = std(c, body, brand="Dịch vụ công", accent="#a50f12", lines=["Văn phòng Chính phủ"])
    c.text = auto_text(c.html)


@case(
    "vi",
    "negative",
    "biên nhận chuyến xe: mã chuyến, giá cước, thời gian, biển số xe; 'báo cáo sự cố' link",
    charset="windows-1258",
    html_cte="quoted-printable",
)
def vi_t19_neg_grab_bien_nhan(c: Case) -> None:
    c.sender = "Grab <no-reply@grab.example.vn>"
    c.subject = b19_vi1258("Biên nhận chuyến đi GrabCar của bạn")
    suco = c.never("https://help.grab.example.vn/passenger/vi-vn/report?booking=A-5MX7K2Q9GH")
    c.never("A-5MX7K2Q9GH", "5MX7K2Q9GH", "51H-482.19", "48219", "87.000", "87000", "07:42")
    body = (
        p(b19_vi1258("Cảm ơn bạn đã đi cùng Grab!"))
        + p(b19_vi1258("Mã chuyến: A-5MX7K2Q9GH<br>Đón lúc 07:42 &middot; Xe 51H-482.19<br>Tổng cộng: 87.000 ₫"))
        + p(a(suco, b19_vi1258("Báo cáo sự cố")))
    )
    c.html = std(c, body, brand="Grab", accent="#00b14f", lines=["Grab Vietnam"])


# Greek


@case(
    "el",
    "code",
    "gov.gr κωδικός επαλήθευσης after an ΑΦΜ and an αριθμός αίτησης; text only in ISO-8859-7",
    charset="ISO-8859-7",
    text_cte="quoted-printable",
)
def el_t19_govgr_kodikos(c: Case) -> None:
    c.sender = "gov.gr <noreply@gov.example.gr>"
    c.subject = "Κωδικός επαλήθευσης gov.gr"
    c.codes = ["840216"]
    c.never("123456789", "2025/0418822", "20250418822", "1555")
    c.text = dedent("""\
        Αγαπητή κυρία Παπαδοπούλου,

        ΑΦΜ: 123456789
        Αριθμός αίτησης: 2025/0418822

        Ο κωδικός επαλήθευσης για την υποβολή της αίτησης είναι: 840216

        Ισχύει για 5 λεπτά. Μην τον κοινοποιήσετε σε κανέναν.

        Εξυπηρέτηση πολιτών: 1555
        """)


@case(
    "el",
    "negative",
    "λογαριασμός κινητής: αριθμός πελάτη, κωδικός πληρωμής, ποσό, 'δείτε τον λογαριασμό' link",
    charset="windows-1253",
    html_cte="quoted-printable",
)
def el_t19_neg_cosmote_logariasmos(c: Case) -> None:
    c.sender = "COSMOTE <ebill@cosmote.example.gr>"
    c.subject = "Ο λογαριασμός σας Μαρτίου"
    view = c.never("https://my.cosmote.example.gr/ebill?acc=4418207731")
    c.never("4418207731", "RF18 0000 4418 2077 31", "RF18000044182077", "32,50", "3250", "13888")
    body = (
        p("Αγαπητέ πελάτη,")
        + p("Αριθμός πελάτη: 4418207731<br>Κωδικός πληρωμής: RF18 0000 4418 2077 31<br>Ποσό: 32,50 €")
        + p(a(view, "Δείτε τον λογαριασμό"))
        + p("Εξυπηρέτηση: 13888")
    )
    c.html = std(c, body, brand="COSMOTE", accent="#77bc1f", lines=["ΟΤΕ Α.Ε."])
    c.text = auto_text(c.html)


# Japanese


@case(
    "ja",
    "code",
    "マイナポータル 確認コード in a Shift_JIS text-only mail; 申請番号 and 受付番号 decoys",
    charset="Shift_JIS",
    text_cte="base64",
)
def ja_t19_mynaportal_kakunin_code(c: Case) -> None:
    c.sender = "マイナポータル <noreply@myna.example.go.jp>"
    c.subject = "【マイナポータル】確認コードのお知らせ"
    c.codes = ["739120"]
    c.never("20250314-0048213", "202503140048213", "A-118204", "118204", "0120-95-0178", "0120950178")
    c.text = dedent("""\
        マイナポータルをご利用いただきありがとうございます。

        申請番号：20250314-0048213
        受付番号：A-118204

        メールアドレス登録の確認コードは以下のとおりです。
        確認コード：739120

        有効期限は30分です。

        マイナンバー総合フリーダイヤル 0120-95-0178
        """)


@case(
    "ja",
    "code",
    "ゲーム ワンタイムパスワード in 「」 brackets, ISO-2022-JP; スクウェア・エニックスID and 購入金額 decoys",
    charset="ISO-2022-JP",
)
def ja_t19_sqex_onetime_kakko(c: Case) -> None:
    c.sender = "スクウェア・エニックス <info@account.square-enix.example>"
    c.subject = "ワンタイムパスワードのお知らせ"
    c.codes = ["482913"]
    c.never("sqex_jane1987", "1987", "3,300", "3300")
    c.text = dedent("""\
        スクウェア・エニックスIDをご利用いただき、ありがとうございます。

        スクウェア・エニックスID：sqex_jane1987

        ログインのためのワンタイムパスワードは「482913」です。
        ログイン画面に入力してください。

        ※本メール送信前のご購入金額 3,300円 の決済は完了しています。
        """)


@case(
    "ja",
    "link",
    "メールアドレス確認 link labelled only 'こちら'; a second 'こちら' is the help page; UTF-8 HTML-only",
    html_cte="base64",
)
def ja_t19_au_kochira(c: Case) -> None:
    c.sender = "au ID <auid-info@au.example.jp>"
    c.subject = "【au ID】メールアドレス確認のお願い"
    url = f"https://id.auone.example.jp/id/mailaddress/confirm?rt={c.t('rt', 56, 'b62')}"
    c.links = [url]
    help_url = c.never("https://id.auone.example.jp/id/help/index.html")
    c.never("0077-7-111", "00777111")
    body = (
        p("au IDをご利用いただきありがとうございます。")
        + p(f"メールアドレスの確認手続きを完了するには、{a(url, 'こちら')}をクリックしてください。（有効期限：24時間）")
        + p(f"よくあるご質問は{a(help_url, 'こちら')}。お問い合わせ 0077-7-111")
    )
    c.html = std(c, body, brand="au", accent="#eb5505", lines=["KDDI株式会社"])


@case(
    "ja",
    "code",
    "暗号資産 出金 確認コード in EUC-JP HTML: 出金額, 送付先アドレス, 出金キャンセル deny link",
    charset="EUC-JP",
    html_cte="base64",
)
def ja_t19_coincheck_shukkin(c: Case) -> None:
    c.sender = "Coincheck <no-reply@coincheck.example>"
    c.subject = "【Coincheck】出金の確認コード"
    c.codes = ["205873"]
    addr = "bc1q" + c.t("addr", 38, "023456789acdefghjklmnpqrstuvwxyz")
    cancel = c.never(f"https://coincheck.example/ja/withdraws/cancel?token={c.t('c', 32, 'hex')}")
    c.never(addr, "0.01500000", "1500000", "203.0.113.88")
    body = (
        p("いつもCoincheckをご利用いただきありがとうございます。")
        + p(f"出金額：0.01500000 BTC<br>送付先：{addr}<br>IPアドレス：203.0.113.88")
        + p("確認コード")
        + big("205873")
        + p(f"お心当たりのない場合は{a(cancel, '出金をキャンセル')}してください。")
    )
    c.html = std(c, body, brand="Coincheck", accent="#2ba3ad", lines=["コインチェック株式会社"])


@case(
    "ja",
    "negative",
    "航空券 予約確認: 予約番号, 確認番号, 便名, 運賃; '予約確認・変更' link",
    charset="Shift_JIS",
    html_cte="base64",
)
def ja_t19_neg_ana_yoyaku(c: Case) -> None:
    c.sender = "ANA <booking@ana.example.co.jp>"
    c.subject = "【ANA】ご予約確認（予約番号：4829）"
    manage = c.never("https://www.ana.example.co.jp/ja/jp/book-plan/reservation/?pnr=4829")
    c.never("4829", "K7Q2M9", "NH 241", "241", "24,470", "24470", "0570-029-222", "0570029222")
    body = (
        p("ANAをご利用いただきありがとうございます。")
        + p("予約番号：4829<br>確認番号：K7Q2M9<br>便名：NH 241 羽田 → 福岡 3月21日 08:00発<br>運賃：24,470円")
        + p(a(manage, "予約確認・変更"))
        + p("ANA国内線予約 0570-029-222")
    )
    c.html = std(c, body, brand="ANA", accent="#13448f", lines=["全日本空輸株式会社"])


@case(
    "ja",
    "negative",
    "注意喚起: 認証コードを聞かれても教えないで, quoting an example SMS '認証コード 123456' and a fake URL",
)
def ja_t19_neg_chuui_kanki(c: Case) -> None:
    c.sender = "PayPay <info@paypay.example.ne.jp>"
    c.subject = "【重要】認証コードをだまし取る詐欺にご注意ください"
    info = c.never("https://paypay.example.ne.jp/notice/20250314/security/")
    c.never("123456", "https://paypay-kakunin.example/login", "0120-990-634", "0120990634", "20250314")
    c.text = dedent(f"""\
        PayPayをご利用いただきありがとうございます。

        最近、次のようなSMSで認証コードをだまし取る事例が発生しています。

          「【PayPay】認証コード 123456 他人には絶対に教えないでください。
           https://paypay-kakunin.example/login 」

        PayPayが電話やメールで認証コードをお尋ねすることはありません。

        詳しくはこちら
        {info}

        PayPayカスタマーサポート 0120-990-634
        """)


# Korean


@case(
    "ko",
    "code",
    "정부24 인증번호 in an EUC-KR text-only mail: 신청번호, 주민등록번호 앞자리, 민원 접수번호",
    charset="EUC-KR",
    text_cte="base64",
)
def ko_t19_gov24_injeung(c: Case) -> None:
    c.sender = "정부24 <noreply@gov.example.kr>"
    c.subject = "[정부24] 이메일 인증번호"
    c.codes = ["581730"]
    c.never("2025-0314-77120", "2025031477120", "850312", "1588-2188", "15882188")
    c.text = dedent("""\
        안녕하세요. 정부24입니다.

        신청번호: 2025-0314-77120 (주민등록표 등본 발급)
        신청인 생년월일: 850312

        이메일 인증번호는 581730 입니다.
        인증번호는 3분 동안 유효합니다.

        정부민원안내콜센터 1588-2188
        """)


@case(
    "ko",
    "code",
    "거래소 출금 인증코드 with 출금 수량, 주소, '출금 취소' deny link and a replaced earlier code",
)
def ko_t19_upbit_chulgeum(c: Case) -> None:
    c.sender = "업비트 <no-reply@upbit.example>"
    c.subject = "[업비트] 출금 인증코드"
    c.codes = ["903614"]
    addr = "0x" + c.t("addr", 40, "0123456789abcdef")
    cancel = c.never(f"https://upbit.example/withdraw/cancel?uuid={c.t('u', 32, 'hex')}")
    c.never(addr, "1,500", "1500", "118204", "1588-5682", "15885682")
    body = (
        p("업비트 출금 요청 안내")
        + p(f"출금 수량: 1,500 USDT<br>받는 주소: {addr}")
        + p("이전에 발송된 인증코드(118204)는 더 이상 사용할 수 없습니다.")
        + p("새 인증코드: <b>903614</b>")
        + p(f"본인이 요청하지 않았다면 {a(cancel, '출금 취소')} 후 고객센터(1588-5682)로 연락해 주세요.")
    )
    c.html = std(c, body, brand="업비트", accent="#093687", lines=["두나무 주식회사"])
    c.text = auto_text(c.html)


@case(
    "ko",
    "link",
    "대학 포털 이메일 인증 link labelled only '여기'; a second '여기' is the 개인정보처리방침",
    charset="EUC-KR",
    html_cte="base64",
)
def ko_t19_snu_yeogi(c: Case) -> None:
    c.sender = "서울대학교 포털 <portal@snu.example.ac.kr>"
    c.subject = "[서울대학교] 외부 이메일 인증 안내"
    url = f"https://portal.snu.example.ac.kr/member/mail/verify.do?k={c.t('k', 48, 'hex')}"
    c.links = [url]
    priv = c.never("https://www.snu.example.ac.kr/privacy")
    c.never("2025-12345", "202512345")
    body = (
        p("학번 2025-12345 님, 안녕하세요.")
        + p(f"외부 이메일 등록을 완료하려면 {a(url, '여기')}를 눌러 주세요. 링크는 24시간 동안 유효합니다.")
        + p(f"개인정보처리방침은 {a(priv, '여기')}에서 확인할 수 있습니다.")
    )
    c.html = plain_html(body)


@case(
    "ko",
    "negative",
    "통신 요금 청구서: 고객번호, 청구금액, 납부기한, 가상계좌; '청구서 보기' link",
    charset="EUC-KR",
    html_cte="base64",
)
def ko_t19_neg_kt_yogeum(c: Case) -> None:
    c.sender = "KT <bill@kt.example.com>"
    c.subject = "[KT] 3월 모바일 요금 청구서"
    view = c.never("https://bill.kt.example.com/view?cust=5018827731")
    c.never("5018827731", "68,200", "68200", "562-910123-45607", "56291012345607", "100")
    body = (
        p("고객번호: 5018827731")
        + p("청구금액: 68,200원 · 납부기한: 2025.03.25")
        + p("가상계좌: 562-910123-45607")
        + p(a(view, "청구서 보기"))
        + p("고객센터 국번없이 100")
    )
    c.html = std(c, body, brand="KT", accent="#ed1c24", lines=["주식회사 케이티"])


@case(
    "ko",
    "negative",
    "병원 진료 예약 안내: 예약번호, 진료 시간, 환자번호, '예약 변경' link",
)
def ko_t19_neg_byeongwon_yeyak(c: Case) -> None:
    c.sender = "세브란스병원 <reserve@severance.example.org>"
    c.subject = "[세브란스] 진료 예약 안내"
    change = c.never("https://sev.severance.example.org/reserve/change?no=R25031477")
    c.never("R25031477", "25031477", "01284930", "14:20", "1599-1004", "15991004")
    body = (
        p("김민수 님의 진료 예약이 완료되었습니다.")
        + p("예약번호: R25031477<br>환자번호: 01284930<br>3월 18일(화) 14:20 내과")
        + p(a(change, "예약 변경/취소"))
        + p("예약센터 1599-1004")
    )
    c.html = std(c, body, brand="세브란스", accent="#003876", lines=["연세대학교 의료원"])
    c.text = auto_text(c.html)


# Simplified Chinese


@case(
    "zh-Hans",
    "code",
    "学信网 验证码 in GB18030 HTML with 学号 and 证书编号 decoys; 找回密码 link",
    charset="GB18030",
    html_cte="base64",
)
def zh_hans_t19_chsi_yanzhengma(c: Case) -> None:
    c.sender = "学信网 <noreply@chsi.example.cn>"
    c.subject = "学信网邮箱验证码"
    c.codes = ["736150"]
    zhaohui = c.never("https://account.chsi.example.cn/account/password/retrive")
    c.never("2021113045", "102481202505001872", "010-82199588", "01082199588")
    body = (
        p("尊敬的用户：")
        + p("您正在绑定邮箱，学号 2021113045，证书编号 102481202505001872。")
        + p("本次验证码为：<b>736150</b>，10分钟内有效。")
        + p(f"{a(zhaohui, '找回密码')} &middot; 客服电话 010-82199588")
    )
    c.html = std(c, body, brand="学信网", accent="#1e6fc8", lines=["全国高等学校学生信息咨询与就业指导中心"])


@case(
    "zh-Hans",
    "code",
    "ride-hailing: 验证码 only in the subject after an emoji; the body points to it and gives an 订单号",
)
def zh_hans_t19_didi_biaoti_yanzhengma(c: Case) -> None:
    c.sender = "滴滴出行 <noreply@didichuxing.example>"
    c.subject = "【滴滴出行】🔑 验证码 582017"
    c.codes = ["582017"]
    c.never("B250314009918", "400-000-0999", "4000000999")
    c.text = dedent("""\
        您好：

        您正在登录滴滴出行企业版，请在页面输入邮件标题中的验证码，5分钟内有效。

        最近一笔行程 订单号 B250314009918 已支付。

        客服电话 400-000-0999
        """)


@case(
    "zh-Hans",
    "link",
    "代码托管平台 激活邮箱 link labelled only '点击这里'; a second '这里' is the 帮助文档; GB2312",
    charset="GB2312",
    html_cte="base64",
)
def zh_hans_t19_gitee_dianji_zheli(c: Case) -> None:
    c.sender = "Gitee <noreply@gitee.example>"
    c.subject = "请激活您的 Gitee 邮箱"
    url = f"https://gitee.example/users/confirmation?confirmation_token={c.t('tk', 20, 'b62')}"
    c.links = [url]
    docs = c.never("https://help.gitee.example/base/account/email")
    body = (
        p("您好，jane_doe：")
        + p(f"感谢注册，请{a(url, '点击这里')}激活您的邮箱，链接 24 小时内有效。")
        + p(f"如有疑问，请查看{a(docs, '这里')}的帮助文档。")
    )
    c.html = plain_html(body)


@case(
    "zh-Hans",
    "negative",
    "火车票 订单: 订单号, 取票号, 车次, 座位, 票价; '查看订单' link",
    charset="GB2312",
    html_cte="base64",
)
def zh_hans_t19_neg_huochepiao(c: Case) -> None:
    c.sender = "中国铁路12306 <service@12306.example.cn>"
    c.subject = "【铁路12306】购票成功通知"
    view = c.never("https://kyfw.12306.example.cn/otn/view/train_order.html?sequence_no=E482913077")
    c.never("E482913077", "482913077", "G103", "553.0", "5530", "07:00", "12306")
    body = (
        p("王小明 您好：")
        + p("订单号 E482913077，取票号 E482913077。")
        + p("3月21日 G103次 北京南站 07:00 开，06车11F号，二等座，票价553.0元。")
        + p(a(view, "查看订单"))
    )
    c.html = std(c, body, brand="12306", accent="#3b99fc", lines=["中国铁路客户服务中心"])


@case(
    "zh-Hans",
    "negative",
    "安全提醒: 'never share your 验证码' advisory quoting an example 验证码 and a phishing domain",
)
def zh_hans_t19_neg_anquan_tixing(c: Case) -> None:
    c.sender = "支付宝 <service@mail.alipay.example>"
    c.subject = "安全提醒：谨防验证码诈骗"
    info = c.never("https://render.alipay.example/p/safety/index.html")
    c.never("654321", "http://alipay-tuikuan.example.cn", "95188")
    c.text = dedent(f"""\
        亲爱的用户：

        近期有不法分子冒充客服，发送"【支付宝】验证码654321，退款请访问 http://alipay-tuikuan.example.cn"等短信。

        支付宝不会以任何理由向您索要验证码。

        了解更多：{info}
        客服热线 95188
        """)


# Traditional Chinese


@case(
    "zh-Hant",
    "code",
    "健保快易通 驗證碼 in Big5 text: 身分證字號, 就醫序號 decoys",
    charset="Big5",
    text_cte="base64",
)
def zh_hant_t19_nhi_yanzhengma(c: Case) -> None:
    c.sender = "健保快易通 <noreply@nhi.example.gov.tw>"
    c.subject = "健保快易通 驗證碼通知"
    c.codes = ["309275"]
    c.never("A123456789", "123456789", "0047", "0800-030-598", "0800030598")
    c.text = dedent("""\
        親愛的民眾您好：

        身分證字號：A123456789
        最近就醫序號：0047

        您的電子郵件驗證碼為 309275，請於10分鐘內輸入。

        健保諮詢服務專線 0800-030-598
        """)


@case(
    "zh-Hant",
    "link",
    "交易所 提領 確認 link, '取消提領' deny link, amount and address",
    html_cte="quoted-printable",
)
def zh_hant_t19_max_tiling_queren(c: Case) -> None:
    c.sender = "MAX 交易所 <no-reply@max.example.tw>"
    c.subject = "請確認您的提領申請"
    wid = c.t("wid", 24, "hex")
    url = f"https://max.example.tw/withdrawals/{wid}/confirm?sig={c.t('s', 43)}"
    c.links = [url]
    cancel = c.never(f"https://max.example.tw/withdrawals/{wid}/cancel?sig={c.t('s', 43)}")
    addr = "T" + c.t("addr", 33, "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz")
    c.never(addr, "2,000.00", "200000")
    body = (
        p("您好：")
        + p(f"您申請提領 2,000.00 USDT 至 {addr}。")
        + button(url, "確認提領", bg="#0f62fe")
        + p(f"若非本人操作，請{a(cancel, '取消提領')}並立即修改密碼。")
    )
    c.html = std(c, body, brand="MAX", accent="#0f62fe", lines=["現代財富科技有限公司"])
    c.text = auto_text(c.html)


@case(
    "zh-Hant",
    "negative",
    "電信帳單: 用戶號碼, 帳單金額, 繳費期限, 銷帳編號; '查看帳單' link",
    charset="Big5",
    html_cte="base64",
)
def zh_hant_t19_neg_dianxin_zhangdan(c: Case) -> None:
    c.sender = "中華電信 <ebill@cht.example.com.tw>"
    c.subject = "中華電信 114年3月 電子帳單"
    view = c.never("https://ebpps.cht.example.com.tw/view?acct=0912345678")
    c.never("0912345678", "1,288", "1288", "9507183344120", "123")
    body = (
        p("親愛的用戶您好：")
        + p("用戶號碼：0912345678<br>帳單金額：1,288 元<br>繳費期限：114/03/28<br>銷帳編號：9507183344120")
        + p(a(view, "查看帳單"))
    )
    c.html = std(c, body, brand="中華電信", accent="#005bac", lines=["中華電信股份有限公司 客服 123"])


# Russian


@case(
    "ru",
    "code",
    "mos.ru код подтверждения in windows-1251 HTML: номер заявления, ЕНП, 'забыли пароль' link",
    charset="windows-1251",
    html_cte="quoted-printable",
)
def ru_t19_mosru_kod(c: Case) -> None:
    c.sender = "mos.ru <noreply@mos.example.ru>"
    c.subject = "Код подтверждения mos.ru"
    c.codes = ["718204"]
    zabyli = c.never("https://login.mos.example.ru/sps/recovery/start")
    c.never("0101-9000003-047801-0008213/25", "7751234567890123", "+7 495 777-77-77", "74957777777")
    body = (
        p("Здравствуйте, Иван Иванович!")
        + p("Заявление № 0101-9000003-047801-0008213/25 ожидает подтверждения.")
        + p("Ваш код подтверждения: <b>718204</b>. Он действует 10 минут.")
        + p("Единый номер полиса ОМС: 7751234567890123")
        + p(f"{a(zabyli, 'Забыли пароль?')} &middot; Справочная: +7 495 777-77-77")
    )
    c.html = std(c, body, brand="mos.ru", accent="#cc2222", lines=["Правительство Москвы"])


@case(
    "ru",
    "code",
    "taxi app: code set between em dashes in a plain-text sentence; trip number and amount",
    text_cte="quoted-printable",
)
def ru_t19_yandexgo_kod_tire(c: Case) -> None:
    c.sender = "Яндекс Go <noreply@go.yandex.example>"
    c.subject = "Вход в Яндекс Go"
    c.codes = ["4829"]
    c.never("7731-0048", "77310048", "612", "8 800 600-34-74", "88006003474")
    c.text = dedent("""\
        Здравствуйте!

        Чтобы войти в приложение на новом телефоне, введите код — 4829 — на экране входа.

        Последняя поездка № 7731-0048 оплачена: 612 ₽.

        Служба поддержки: 8 800 600-34-74
        """)


@case(
    "ru",
    "link",
    "IT-community confirm link labelled only 'здесь' in KOI8-R; a second 'здесь' is the rules page",
    charset="KOI8-R",
    html_cte="base64",
)
def ru_t19_habr_zdes(c: Case) -> None:
    c.sender = "Хабр <noreply@habr.example>"
    c.subject = "Подтверждение адреса электронной почты"
    url = f"https://account.habr.example/confirm/{c.t('c', 40, 'hex')}/?consumer=habr&state={c.t('st', 16, 'b62')}"
    c.links = [url]
    rules = c.never("https://habr.example/ru/docs/help/rules/")
    body = (
        p("Здравствуйте, ivan_petrov!")
        + p(f"Чтобы подтвердить адрес и начать писать комментарии, нажмите {a(url, 'здесь')}.")
        + p(f"Правила сообщества можно прочитать {a(rules, 'здесь')}.")
    )
    c.html = plain_html(body)


@case(
    "ru",
    "negative",
    "счёт за связь: лицевой счёт, номер договора, сумма, 'оплатить' link",
    charset="windows-1251",
    html_cte="quoted-printable",
)
def ru_t19_neg_mts_schet(c: Case) -> None:
    c.sender = "МТС <bill@mts.example.ru>"
    c.subject = "Счёт за март 2025"
    pay = c.never("https://payment.mts.example.ru/pay?ls=268104477215")
    c.never("268104477215", "ДГ-0048-77120", "0048", "77120", "650,00", "65000", "8 800 250-08-90", "88002500890")
    body = (
        p("Лицевой счёт: 268104477215<br>Договор: ДГ-0048-77120")
        + p("Сумма к оплате: 650,00 руб. до 25.03.2025")
        + button(pay, "Оплатить", bg="#e30611")
        + p("Справочная: 8 800 250-08-90")
    )
    c.html = std(c, body, brand="МТС", accent="#e30611", lines=["ПАО «МТС»"])
    c.text = auto_text(c.html)


# Ukrainian


@case(
    "uk",
    "code",
    "Helsi (healthcare) код підтвердження with one space; номер декларації and лікар; KOI8-U text",
    charset="KOI8-U",
    text_cte="base64",
)
def uk_t19_helsi_kod(c: Case) -> None:
    c.sender = "Helsi <noreply@helsi.example.ua>"
    c.subject = "Код підтвердження Helsi"
    c.codes = ["592041", "5920 41"]
    c.never("0001-4T7H-2P9K", "00014T7H2P9K", "0 800 330 225", "0800330225")
    c.text = dedent("""\
        Вітаємо!

        Ви підписуєте декларацію з лікарем (номер декларації 0001-4T7H-2P9K).
        Код підтвердження: 5920 41

        Код дійсний 10 хвилин.

        Гаряча лінія: 0 800 330 225
        """)


@case(
    "uk",
    "negative",
    "рахунок за газ: особовий рахунок, EIC-код, обсяг, сума; 'сплатити' link",
    charset="windows-1251",
    html_cte="quoted-printable",
)
def uk_t19_neg_rakhunok_gaz(c: Case) -> None:
    c.sender = "Нафтогаз <bill@naftogaz.example.ua>"
    c.subject = "Рахунок за газ, березень"
    pay = c.never("https://gas.ua.example/pay?account=4401288172")
    c.never("4401288172", "56XS00012345678X", "412,80", "41280", "0 800 300 130", "0800300130")
    body = (
        p("Особовий рахунок: 4401288172<br>EIC-код точки: 56XS00012345678X")
        + p("Обсяг: 48 куб. м &middot; До сплати: 412,80 грн")
        + button(pay, "Сплатити", bg="#005bbb")
        + p("Контакт-центр: 0 800 300 130")
    )
    c.html = std(c, body, brand="Нафтогаз", accent="#005bbb", lines=["ТОВ «Газопостачальна компанія»"])
    c.text = auto_text(c.html)


# Mixed: code and link in one mail, and two more languages


@case(
    "en",
    "code+link",
    "CDN admin console: code and a 'Verify email' button; the text part has the same URL plus utm_*; security link",
    text_cte="quoted-printable",
)
def en_t19_cloudflare_code_and_button(c: Case) -> None:
    c.sender = "Cloudflare <noreply@notify.cloudflare.example>"
    c.subject = "Verify your email address for Cloudflare"
    c.codes = ["739214", "739 214"]
    base = f"https://dash.cloudflare.example/email-verification?token={c.t('tk', 64, 'hex')}"
    utm = base + "&utm_source=email&utm_medium=transactional&utm_campaign=verify"
    c.links = [base, utm]
    sec = c.never("https://dash.cloudflare.example/profile/authentication")
    c.never("4f1c0b7e22d94a8a9e13c0d5f8b71a20", "2025")
    body = (
        h1("Verify your email")
        + p("Enter this code on the verification page, or use the button below:")
        + big("739 214")
        + button(base, "Verify email", bg="#f38020")
        + p("Account ID 4f1c0b7e22d94a8a9e13c0d5f8b71a20")
        + p(f"Didn't sign up? {a(sec, 'Review your authentication settings')}")
    )
    c.html = std(c, body, brand="Cloudflare", accent="#f38020", lines=["Cloudflare, Inc. 2025"])
    c.text = dedent(f"""\
        Verify your email

        Enter this code on the verification page: 739 214

        Or open this link:
        {utm}

        Account ID 4f1c0b7e22d94a8a9e13c0d5f8b71a20
        Didn't sign up? Review your authentication settings: {sec}
        """)


@case(
    "de",
    "code+link",
    "Lieferdienst: Anmeldecode plus 'Anmelden' button and an 'In der App öffnen' twin (also_links); Bestellnummer",
    charset="ISO-8859-15",
    html_cte="quoted-printable",
)
def de_t19_lieferando_code_und_app(c: Case) -> None:
    c.sender = "Lieferando <noreply@lieferando.example.de>"
    c.subject = "Dein Anmeldecode: 2048 71"
    c.codes = ["204871", "2048 71"]
    web = f"https://www.lieferando.example.de/anmelden/link?t={c.t('web', 48)}"
    app = f"https://lieferando.example.de/app/magic-login?t={c.t('app', 48)}"
    c.links = [web]
    c.also_links = [app]
    c.never("LD-88204173", "88204173", "24,90", "2490")
    body = (
        h1("Anmelden bei Lieferando")
        + p("Gib diesen Code ein:")
        + big("2048 71")
        + p("oder melde Dich direkt an:")
        + button(web, "Anmelden", bg="#ff8000")
        + button(app, "In der App öffnen", bg="#ffffff", fg="#ff8000")
        + p("Deine letzte Bestellung LD-88204173 (24,90 €) wurde geliefert.")
    )
    c.html = std(c, body, brand="Lieferando", accent="#ff8000", lines=["yd.yourdelivery GmbH, Berlin"])


@case(
    "ja",
    "code+link",
    "確認コード and 確認URL in one UTF-8 text-only mail; 会員番号 and 解約 URL below",
)
def ja_t19_code_to_url(c: Case) -> None:
    c.sender = "U-NEXT <info@unext.example.jp>"
    c.subject = "【U-NEXT】メールアドレスの確認"
    c.codes = ["618402"]
    url = f"https://video.unext.example.jp/mail/verify?c={c.t('c', 40, 'b62')}"
    c.links = [url]
    kaiyaku = c.never("https://video.unext.example.jp/account/cancel")
    c.never("UX2025031488", "2025031488", "2,189", "2189")
    c.text = dedent(f"""\
        U-NEXTをご利用いただきありがとうございます。
        会員番号：UX2025031488

        アプリで確認コード 618402 を入力するか、下記URLにアクセスしてください。

        {url}

        月額 2,189円（税込）
        解約はこちら {kaiyaku}
        """)


@case(
    "es",
    "code+link",
    "portal inmobiliario, text only: código and enlace for the same confirmation; referencia del anuncio",
    charset="ISO-8859-1",
    text_cte="quoted-printable",
)
def es_t19_fotocasa_codigo_y_enlace(c: Case) -> None:
    c.sender = "Fotocasa <no-reply@fotocasa.example.es>"
    c.subject = "Confirma tu cuenta de Fotocasa"
    c.codes = ["840153"]
    url = f"https://www.fotocasa.example.es/es/usuario/confirmar/?t={c.t('t', 44)}"
    c.links = [url]
    baja = c.never("https://www.fotocasa.example.es/es/usuario/baja-notificaciones/")
    c.never("178204417", "1.250", "1250", "28004")
    c.text = dedent(f"""\
        Hola Lucía:

        Has contactado con el anuncio ref. 178204417 (piso, 1.250 EUR/mes, 28004 Madrid).
        Para confirmar tu cuenta, introduce el código 840153 en la web o pulsa este enlace:

        {url}

        Dejar de recibir avisos: {baja}
        """)


@case(
    "cs",
    "code",
    "pojišťovna: ověřovací kód after číslo pojištěnce and číslo smlouvy; 'zapomenuté heslo' link",
    charset="ISO-8859-2",
    html_cte="quoted-printable",
)
def cs_t19_vzp_overovaci_kod(c: Case) -> None:
    c.sender = "VZP <noreply@vzp.example.cz>"
    c.subject = "Ověřovací kód pro Moje VZP"
    c.codes = ["305718"]
    heslo = c.never("https://moje.vzp.example.cz/zapomenute-heslo")
    c.never("8503121234", "4401288172", "952 222 222", "952222222")
    body = (
        p("Dobrý den,")
        + p("číslo pojištěnce: 8503121234<br>číslo smlouvy: 4401288172")
        + p("Váš ověřovací kód je <b>305718</b>. Platí 10 minut.")
        + p(f"{a(heslo, 'Zapomenuté heslo')} | Infolinka 952 222 222")
    )
    c.html = std(c, body, brand="VZP", accent="#00529c", lines=["Všeobecná zdravotní pojišťovna ČR"])
    c.text = auto_text(c.html)


@case(
    "hu",
    "negative",
    "mobilszámla: ügyfélszám, számlaszám, összeg, befizetési azonosító; 'számla megtekintése' link",
    charset="ISO-8859-2",
    html_cte="quoted-printable",
)
def hu_t19_neg_mobilszamla(c: Case) -> None:
    c.sender = "Yettel <szamla@yettel.example.hu>"
    c.subject = "Elkészült a márciusi számlája"
    view = c.never("https://www.yettel.example.hu/fiokom/szamlak/2025031477")
    c.never("1004488127", "2025031477", "8 990", "8990", "1220")
    body = (
        p("Kedves Ügyfelünk!")
        + p("Ügyfélszám: 1004488127<br>Számlaszám: 2025031477<br>Fizetendő: 8 990 Ft")
        + p(a(view, "Számla megtekintése"))
        + p("Ügyfélszolgálat: 1220")
    )
    c.html = std(c, body, brand="Yettel", accent="#b4ff00", lines=["Yettel Magyarország Zrt."])
    c.text = auto_text(c.html)


# ---- end of issue 19 third held-out set ----


# ---- issue 19 fourth held-out set ----
#
# A fourth blind set: the everyday verification, login-code, magic-link, reset, email-change and
# 2FA mails of common services, and the everyday mail around them (receipts, parcels, statements,
# newsletters, invitations). Expectations are what a careful reader would type or click.

# English


@case("en", "code", "fitness app sign-in code in a big box; member number, class time and studio postcode nearby")
def en_q19_peloton_signin_code(c: Case) -> None:
    c.sender = "Peloton <no-reply@members.onepeloton.example>"
    c.subject = "Your Peloton sign-in code"
    c.codes = ["530917"]
    c.never("10001", "40221987", "6:30")
    body = (
        h1("Sign in to Peloton")
        + p("Use this code to finish signing in on your Bike+. It expires in 10 minutes.")
        + big("530917")
        + p("Member #40221987 &middot; Your next class: Power Zone Ride, tomorrow 6:30 AM")
    )
    c.html = std(
        c,
        body,
        brand="Peloton",
        accent="#df1c2f",
        pre="Use 530917 to sign in",
        lines=["Peloton Interactive, Inc., 441 Ninth Avenue, New York, NY 10001"],
        links=[
            ("Privacy Policy", "https://www.onepeloton.example/privacy"),
            ("Support", "https://support.onepeloton.example"),
        ],
        soc=("https://www.instagram.example/onepeloton", "https://www.facebook.example/onepeloton"),
    )
    c.text = auto_text(c.html)


@case("en", "link", "website builder magic sign-in link button; help and unsubscribe in the footer")
def en_q19_squarespace_login_link(c: Case) -> None:
    c.sender = "Squarespace <no-reply@squarespace.example>"
    c.subject = "Your login link for Squarespace"
    url = f"https://login.squarespace.example/api/1/login/magic-link?token={c.t('m', 43)}"
    c.links = [url]
    body = (
        h1("Log in to Squarespace")
        + p(
            "Click the button below to log in as jane.doe@example.com. This link can only be used once and expires in 15 minutes."
        )
        + button(url, "Log In", bg="#000000")
        + p("If you didn't request this link, you can ignore this email.")
    )
    c.html = std(
        c,
        body,
        brand="Squarespace",
        pre="Your one-time login link",
        lines=["Squarespace, Inc., 225 Varick St, New York, NY 10014"],
        links=[
            ("Help Center", "https://support.squarespace.example"),
            ("Privacy", "https://www.squarespace.example/privacy"),
        ],
        decoys=["10014"],
    )
    c.text = auto_text(c.html, "bracket")


@case(
    "en", "code", "payments app 2FA code in a sentence; last four of the phone and a payment amount; 'wasn't you' link"
)
def en_q19_venmo_2fa_code(c: Case) -> None:
    c.sender = "Venmo <venmo@venmo.example>"
    c.subject = "Venmo verification code"
    c.codes = ["882061"]
    secure = c.never("https://venmo.example/account/security")
    c.never("4417", "(555) 014-4417", "42.50")
    c.text = dedent(f"""\
        Hi Jane,

        Your Venmo verification code is 882061. We also texted it to (555) 014-4417.

        Enter it to confirm the $42.50 payment to John Doe. Venmo will never ask you for this code by phone.

        Wasn't you? Secure your account: {secure}

        Venmo is a service of PayPal, Inc.
        """)


@case(
    "en",
    "link",
    "project tool email-change confirmation; the new address, the new and the old address in the body; help and privacy links",
)
def en_q19_trello_email_change(c: Case) -> None:
    c.sender = "Trello <do-not-reply@trello.example>"
    c.subject = "Confirm your new email address"
    url = (
        f"https://id.atlassian.example/email/confirm?token={c.t('e', 64, 'hex')}&continue=https%3A%2F%2Ftrello.example"
    )
    c.links = [url]
    body = (
        h1("Confirm your new email address")
        + p("You asked to change the email address of your Trello account to <b>jane.doe@example.org</b>.")
        + button(url, "Confirm email address", bg="#0c66e4")
        + p("Until you confirm, you keep signing in with jane.doe@example.com.")
    )
    c.html = std(
        c,
        body,
        brand="Trello",
        accent="#0c66e4",
        lines=["Atlassian Pty Ltd, 350 Bush Street, San Francisco, CA 94104"],
        links=[
            ("Get help", "https://support.atlassian.example/trello/"),
            ("Privacy policy", "https://www.atlassian.example/legal/privacy-policy"),
        ],
        decoys=["94104"],
    )
    c.text = auto_text(c.html)


@case("en", "code", "creator platform login code; an 8-digit code; campaign and pledge numbers in the body")
def en_q19_patreon_login_code(c: Case) -> None:
    c.sender = "Patreon <no-reply@patreon.example>"
    c.subject = "Your Patreon login code"
    c.codes = ["63920158"]
    c.never("7.00", "2025")
    body = (
        p("Hi Jane,")
        + p("Here's the code to log in to Patreon:")
        + big("63920158", size=28)
        + p("Your membership of $7.00/month with Dave's Podcast renews on April 1.")
    )
    c.html = std(
        c,
        body,
        brand="Patreon",
        accent="#ff424d",
        lines=["Patreon, Inc. 600 Townsend St. Suite 500, San Francisco, CA 94103", "&copy; 2025"],
        links=[
            ("Help Center", "https://support.patreon.example"),
            ("Email settings", "https://www.patreon.example/settings/emails"),
        ],
        decoys=["94103"],
    )
    c.text = auto_text(c.html)


@case("en", "link", "bank password reset, text only; the reset URL in angle brackets; branch phone and last login date")
def en_q19_chase_reset_text(c: Case) -> None:
    c.sender = "Chase <no.reply.alerts@chase.example>"
    c.subject = "Reset your password"
    url = f"https://secure.chase.example/web/auth/reset?rid={c.t('r', 40, 'b62')}"
    c.links = [url]
    c.never("1-800-935-9935", "18009359935", "03/12/2025")
    c.text = dedent(f"""\
        We received a request to reset the password for your Chase online account.

        Reset your password <{url}>

        The link expires in 30 minutes. Your last sign-in was on 03/12/2025.

        If you didn't ask for this, call us at 1-800-935-9935.

        JPMorgan Chase Bank, N.A. Member FDIC
        """)


@case("en", "negative", "grocery delivery receipt: order number, items, totals, tip; 'rate your order' and help links")
def en_q19_neg_instacart_receipt(c: Case) -> None:
    c.sender = "Instacart <orders@instacart.example>"
    c.subject = "Your Instacart order receipt"
    rate = c.never("https://www.instacart.example/store/orders/771204588/rate")
    c.never("771204588", "54.18", "8.00", "62.18")
    body = (
        h1("Thanks for your order!")
        + p("Order #771204588 from Safeway was delivered at 5:42 PM.")
        + p(
            "Bananas 1.29<br>Whole milk 4.49<br>Eggs, 12 ct 5.99<br>...<br>Subtotal $54.18<br>Tip $8.00<br><b>Total $62.18</b>"
        )
        + p(a(rate, "Rate your order"))
    )
    c.html = std(
        c,
        body,
        brand="Instacart",
        accent="#43b02a",
        lines=["Maplebear Inc. dba Instacart, 50 Beale Street, San Francisco, CA 94105"],
        links=[
            ("Help Center", "https://www.instacart.example/help"),
            ("Privacy", "https://www.instacart.example/privacy"),
        ],
        decoys=["94105"],
    )
    c.text = auto_text(c.html)


@case(
    "en", "negative", "airline check-in reminder: confirmation code (locator), flight number, seat; 'check in' button"
)
def en_q19_neg_delta_checkin(c: Case) -> None:
    c.sender = "Delta Air Lines <deltaairlines@t.delta.example>"
    c.subject = "It's time to check in for your flight to Boston"
    checkin = c.never("https://www.delta.example/mytrips/checkin?confirmationNo=H7KQ2M")
    c.never("H7KQ2M", "DL 2284", "2284", "9942871034", "14C")
    body = (
        h1("Check in now")
        + p(
            "Confirmation code: <b>H7KQ2M</b><br>Flight DL 2284, Atlanta (ATL) to Boston (BOS)<br>Departs Sat, Mar 15, 7:05 AM<br>Seat 14C"
        )
        + button(checkin, "Check In", bg="#c01933")
        + p("SkyMiles #9942871034")
    )
    c.html = std(
        c,
        body,
        brand="Delta",
        accent="#003366",
        lines=["Delta Air Lines, Inc., P.O. Box 20706, Atlanta, GA 30320"],
        links=[
            ("Unsubscribe", "https://www.delta.example/unsubscribe?u=" + c.t("u", 20)),
            ("Privacy Policy", "https://www.delta.example/privacy"),
        ],
        decoys=["20706", "30320"],
    )
    c.text = auto_text(c.html)


@case("en", "negative", "streaming newsletter: new releases, a gift-card code word and a referral link; unsubscribe")
def en_q19_neg_hulu_newsletter(c: Case) -> None:
    c.sender = "Hulu <hulu@mail.hulu.example>"
    c.subject = "New this week on Hulu"
    watch = c.never("https://www.hulu.example/hub/new-this-month")
    gift = c.never("https://www.hulu.example/gift?code=GIFT2025")
    c.never("GIFT2025", "2025")
    body = (
        h1("New this week")
        + p("Season 3 of The Bear, plus 24 new movies.")
        + button(watch, "Start Watching", bg="#1ce783", fg="#000000")
        + p(f"Give Hulu: use code GIFT2025 at checkout. {a(gift, 'Buy a gift card')}")
    )
    c.html = std(
        c,
        body,
        brand="Hulu",
        accent="#1ce783",
        lines=["Hulu, LLC, 2500 Broadway, Santa Monica, CA 90404", "&copy; 2025 Hulu"],
        links=[
            ("Unsubscribe", "https://www.hulu.example/unsubscribe?e=" + c.t("u", 24)),
            ("Privacy Policy", "https://www.hulu.example/privacy"),
        ],
        decoys=["90404"],
    )
    c.text = auto_text(c.html)


@case("en", "negative", "new-device sign-in notice with no action beyond reviewing activity; IP, location, time")
def en_q19_neg_robinhood_new_device(c: Case) -> None:
    c.sender = "Robinhood <notifications@robinhood.example>"
    c.subject = "New device login"
    review = c.never("https://robinhood.example/account/security/devices")
    c.never("198.51.100.23", "2025")
    c.text = dedent(f"""\
        Hi Jane,

        Your account was just accessed from a new device.

        Device: iPhone 15
        IP address: 198.51.100.23
        Location: Austin, TX
        Time: Mar 14, 2025 at 9:12 AM CT

        If this was you, there's nothing else you need to do. If not, review your devices: {review}

        Robinhood Markets, Inc.
        """)


# German


@case(
    "de",
    "code",
    "Online-Banking Anmeldung: Bestätigungscode in einer Box; IBAN-Ende, Kundennummer und Servicenummer",
    charset="ISO-8859-15",
)
def de_q19_commerzbank_anmeldecode(c: Case) -> None:
    c.sender = "Commerzbank <noreply@commerzbank.example>"
    c.subject = "Ihr Bestätigungscode für das Online-Banking"
    c.codes = ["418266"]
    c.never("4711", "0987654321", "069 5 8000 8000", "06958000800")
    body = (
        p("Guten Tag Herr Mustermann,")
        + p("für Ihre Anmeldung im Online-Banking benötigen wir Ihren Bestätigungscode:")
        + big("418266")
        + p("Teilnehmernummer: 0987654321<br>Konto: DE** **** **** **** **47 11 (Ende 4711)")
        + p("Der Code ist 5 Minuten gültig. Geben Sie ihn niemals telefonisch weiter.")
        + b19_small("Fragen? Kundenservice 069 5 8000 8000")
    )
    c.html = std(
        c,
        body,
        brand="Commerzbank",
        accent="#ffcc00",
        lines=["Commerzbank AG, Kaiserplatz, 60311 Frankfurt am Main"],
        links=[
            ("Datenschutz", "https://www.commerzbank.example/datenschutz"),
            ("Impressum", "https://www.commerzbank.example/impressum"),
        ],
        decoys=["60311"],
    )
    c.text = auto_text(c.html)


@case(
    "de",
    "link",
    "Passwort zurücksetzen bei einem Möbelhändler; Button und Text-Link; Kundenkonto und Hotline",
    charset="ISO-8859-1",
)
def de_q19_ikea_passwort_link(c: Case) -> None:
    c.sender = "IKEA Deutschland <noreply@ikea.example.de>"
    c.subject = "Passwort zurücksetzen"
    url = f"https://www.ikea.example/de/de/profile/reset-password/?token={c.t('r', 48)}"
    c.links = [url]
    c.never("06192 9399999", "061929399999")
    body = (
        h1("Neues Passwort festlegen")
        + p("Hej Max, du hast angefordert, dein IKEA Family Passwort zurückzusetzen.")
        + button(url, "Passwort zurücksetzen", bg="#0058a3")
        + p("Der Link ist 24 Stunden gültig. Wenn du das nicht warst, ignoriere diese E-Mail einfach.")
        + b19_small("Kundenservice: 06192 9399999")
    )
    c.html = std(
        c,
        body,
        brand="IKEA",
        accent="#0058a3",
        lines=["IKEA Deutschland GmbH &amp; Co. KG, Am Wandersmann 2-4, 65719 Hofheim-Wallau"],
        links=[
            ("Datenschutz", "https://www.ikea.example/de/de/customer-service/privacy-policy/"),
            ("Abmelden", "https://www.ikea.example/de/de/unsubscribe?u=" + c.t("u", 20)),
        ],
        decoys=["65719"],
    )
    c.text = auto_text(c.html)


@case("de", "code", "Zwei-Faktor-Code eines Spieleanbieters, nur Text; Spielername mit Ziffern und Bestellnummer")
def de_q19_spiele_2fa_text(c: Case) -> None:
    c.sender = "Ubisoft Konto <AccountSupport@ubi.example>"
    c.subject = "Dein Sicherheitscode"
    c.codes = ["274509"]
    help_url = c.never("https://www.ubisoft.example/de-de/help/account/2fa")
    c.never("MaxM1987", "1987")
    c.text = dedent(f"""\
        Hallo MaxM1987,

        jemand versucht, sich mit deinem Ubisoft-Konto anzumelden.
        Dein Sicherheitscode lautet: 274509

        Der Code läuft in 15 Minuten ab.

        Hilfe zur Zwei-Faktor-Authentifizierung: {help_url}

        Ubisoft Entertainment
        """)


@case(
    "de",
    "negative",
    "Paket kommt morgen: Sendungsnummer, Zustellzeitfenster, PLZ; 'Sendung verfolgen' und 'Ablageort wählen'",
    charset="ISO-8859-15",
)
def de_q19_neg_hermes_paket(c: Case) -> None:
    c.sender = "Hermes <noreply@myhermes.example>"
    c.subject = "Ihre Sendung kommt morgen"
    track = c.never("https://www.myhermes.example/empfangen/sendungsverfolgung/?trackingNumber=H1001234567890123401")
    place = c.never("https://www.myhermes.example/empfangen/ablageort/?id=H1001234567890123401")
    c.never("H1001234567890123401", "1001234567890123401", "22089", "10:00", "14:00")
    body = (
        h1("Ihre Sendung ist bald da")
        + p(
            "Sendungsnummer: H1001234567890123401<br>Voraussichtliche Zustellung: morgen zwischen 10:00 und 14:00 Uhr<br>Lieferadresse: Musterstraße 1, 22089 Hamburg"
        )
        + button(track, "Sendung verfolgen", bg="#0091cd")
        + p(a(place, "Ablageort wählen"))
    )
    c.html = std(
        c,
        body,
        brand="Hermes",
        accent="#0091cd",
        lines=["Hermes Germany GmbH, Essener Straße 89, 22419 Hamburg"],
        decoys=["22419"],
        links=[("Datenschutz", "https://www.myhermes.example/datenschutz")],
    )
    c.text = auto_text(c.html)


@case("de", "negative", "Kontoauszug bereit: Kontonummer, Saldo, Datum; 'Im Online-Banking ansehen'")
def de_q19_neg_kontoauszug(c: Case) -> None:
    c.sender = "Volksbank <info@volksbank.example>"
    c.subject = "Neuer Kontoauszug im Postfach"
    view = c.never("https://banking.volksbank.example/services_cloud/portal/postfach")
    c.never("DE12 5009 0000 0123 4567 89", "DE12500900000123456789", "2.481,07", "03/2025")
    c.text = dedent(f"""\
        Guten Tag Frau Musterfrau,

        in Ihrem elektronischen Postfach liegt ein neuer Kontoauszug (03/2025) für das Konto
        DE12 5009 0000 0123 4567 89. Neuer Saldo: 2.481,07 EUR.

        Im Online-Banking ansehen: {view}

        Ihre Volksbank
        """)


@case(
    "de",
    "negative",
    "Newsletter eines Onlineshops mit Gutscheincode und 'Jetzt entdecken'; Abmeldelink",
    charset="windows-1252",
)
def de_q19_neg_shop_newsletter(c: Case) -> None:
    c.sender = "MediaMarkt <newsletter@mediamarkt.example.de>"
    c.subject = "Nur heute: 15 € Rabatt auf Kopfhörer"
    shop = c.never("https://www.mediamarkt.example.de/de/category/kopfhoerer-208.html")
    c.never("KOPF15", "208")
    body = (
        h1("Musik an, Preis runter")
        + p("Mit dem Gutscheincode <b>KOPF15</b> sparen Sie heute 15 € auf alle Kopfhörer ab 99 €.")
        + button(shop, "Jetzt entdecken", bg="#df0000")
    )
    c.html = std(
        c,
        body,
        brand="MediaMarkt",
        accent="#df0000",
        lines=["Media-Saturn Deutschland GmbH, Wankelstraße 5, 85046 Ingolstadt"],
        links=[
            ("Newsletter abbestellen", "https://www.mediamarkt.example.de/newsletter/abmelden?t=" + c.t("u", 24)),
            ("Datenschutz", "https://www.mediamarkt.example.de/datenschutz"),
        ],
        decoys=["85046"],
    )
    c.text = auto_text(c.html)


# French


@case("fr", "code", "code de connexion d'une banque en ligne; numéro client et montant", charset="ISO-8859-15")
def fr_q19_boursobank_code(c: Case) -> None:
    c.sender = "BoursoBank <noreply@boursobank.example>"
    c.subject = "Votre code de sécurité"
    c.codes = ["730284"]
    c.never("41092837", "01 46 09 49 49", "0146094949")
    body = (
        p("Bonjour Jean Dupont,")
        + p("Voici votre code de sécurité pour vous connecter à votre Espace Client (identifiant 41092837) :")
        + big("730284")
        + p("Ce code est valable 10 minutes. Ne le communiquez jamais, même à un conseiller.")
        + b19_small("Service client : 01 46 09 49 49")
    )
    c.html = std(
        c,
        body,
        brand="BoursoBank",
        accent="#d10074",
        lines=["BoursoBank, 44 rue Traversière, 92100 Boulogne-Billancourt"],
        links=[("Données personnelles", "https://www.boursobank.example/donnees-personnelles")],
        decoys=["92100"],
    )
    c.text = auto_text(c.html)


@case(
    "fr",
    "link",
    "confirmation d'adresse e-mail à l'inscription d'un site de vente en ligne; bouton et lien texte",
    charset="ISO-8859-1",
)
def fr_q19_cdiscount_confirmer(c: Case) -> None:
    c.sender = "Cdiscount <service-client@cdiscount.example>"
    c.subject = "Confirmez votre adresse e-mail"
    url = f"https://www.cdiscount.example/compte/confirmation-email.html?cle={c.t('k', 40, 'hex')}"
    c.links = [url]
    body = (
        h1("Bienvenue sur Cdiscount !")
        + p("Pour activer votre compte, confirmez votre adresse e-mail :")
        + button(url, "Confirmer mon adresse e-mail", bg="#0055a4")
        + p("Le lien est valable 48 heures.")
    )
    c.html = std(
        c,
        body,
        brand="Cdiscount",
        accent="#0055a4",
        lines=["Cdiscount SA, 120-126 quai de Bacalan, 33000 Bordeaux"],
        links=[
            ("Se désabonner", "https://www.cdiscount.example/desabonnement?u=" + c.t("u", 20)),
            ("Aide", "https://www.cdiscount.example/aide"),
        ],
        decoys=["33000"],
    )
    c.text = auto_text(c.html)


@case(
    "fr",
    "negative",
    "confirmation de réservation de train: référence dossier, numéro de train, voiture, place; 'gérer ma réservation'",
)
def fr_q19_neg_ouigo_reservation(c: Case) -> None:
    c.sender = "OUIGO <noreply@ouigo.example>"
    c.subject = "Votre réservation OUIGO est confirmée"
    manage = c.never("https://www.ouigo.example/mes-reservations?ref=QXPLMR")
    c.never("QXPLMR", "7812", "29,00")
    body = (
        h1("Bon voyage !")
        + p(
            "Référence de réservation : <b>QXPLMR</b><br>Train n° 7812 Paris Gare de Lyon → Marseille St-Charles<br>Samedi 22 mars, départ 07:58<br>Voiture 14, place 82<br>Total : 29,00 €"
        )
        + button(manage, "Gérer ma réservation", bg="#e5007d")
    )
    c.html = std(
        c,
        body,
        brand="OUIGO",
        accent="#e5007d",
        lines=["SNCF Voyageurs, 9 rue Jean-Philippe Rameau, 93200 Saint-Denis"],
        decoys=["93200"],
        links=[("Se désinscrire", "https://www.ouigo.example/desinscription?u=" + c.t("u", 20))],
    )
    c.text = auto_text(c.html)


@case(
    "fr",
    "negative",
    "facture d'eau: référence client, montant, date de prélèvement; lien 'voir ma facture'",
    charset="ISO-8859-15",
)
def fr_q19_neg_facture_eau(c: Case) -> None:
    c.sender = "Veolia Eau <ne-pas-repondre@eau.veolia.example>"
    c.subject = "Votre facture d'eau est disponible"
    view = c.never("https://www.service.eau.veolia.example/mon-espace/factures/2025-0314")
    c.never("1203948576", "87,42", "2025-0314", "05/04/2025")
    c.text = dedent(f"""\
        Bonjour,

        Votre facture d'eau du 14/03/2025 est disponible dans votre espace client.

        Référence client : 1203948576
        Montant : 87,42 EUR
        Prélèvement prévu le 05/04/2025

        Voir ma facture : {view}

        Veolia Eau
        """)


# Spanish


@case(
    "es",
    "code",
    "código para confirmar un Bizum en la banca móvil; importe, móvil enmascarado y teléfono de atención",
    charset="ISO-8859-15",
)
def es_q19_bizum_codigo(c: Case) -> None:
    c.sender = "ING <no-reply@ing.example.es>"
    c.subject = "Tu código de verificación"
    c.codes = ["648120"]
    c.never("91 206 66 66", "912066666", "25,00")
    body = (
        p("Hola, María:")
        + p("Para confirmar el Bizum de 25,00 € a Pedro García, introduce este código de verificación en la app:")
        + big("648120")
        + p("Móvil asociado: ******33. El código caduca en 5 minutos.")
        + b19_small("¿Dudas? Llámanos al 91 206 66 66")
    )
    c.html = std(
        c,
        body,
        brand="ING",
        accent="#ff6200",
        lines=["ING Bank NV, Sucursal en España, C/ Vía de los Poblados 1, 28033 Madrid"],
        links=[("Política de privacidad", "https://www.ing.example.es/privacidad")],
        decoys=["28033"],
    )
    c.text = auto_text(c.html)


@case("es", "link", "restablecer contraseña de una tienda de moda; botón y enlace de texto con el mismo destino")
def es_q19_zara_restablecer(c: Case) -> None:
    c.sender = "ZARA <noreply@zara.example>"
    c.subject = "Restablece tu contraseña"
    url = f"https://www.zara.example/es/es/reset-password?token={c.t('r', 40, 'b62')}"
    c.links = [url]
    body = (
        h1("¿Has olvidado tu contraseña?")
        + p("Pulsa el botón para crear una nueva contraseña. El enlace caduca en 1 hora.")
        + button(url, "RESTABLECER CONTRASEÑA", bg="#000000", radius=0)
        + p("Si no has solicitado este cambio, ignora este correo.")
    )
    c.html = std(
        c,
        body,
        brand="ZARA",
        lines=["Industria de Diseño Textil, S.A., Avda. de la Diputación, 15143 Arteixo, A Coruña"],
        links=[
            ("Ayuda", "https://www.zara.example/es/es/ayuda"),
            ("Privacidad", "https://www.zara.example/es/es/privacidad"),
        ],
        decoys=["15143"],
    )
    c.text = auto_text(c.html)


@case(
    "es",
    "negative",
    "envío en camino de una tienda online: número de seguimiento, pedido, código postal; 'seguir mi pedido'",
    charset="ISO-8859-15",
)
def es_q19_neg_pccomponentes_envio(c: Case) -> None:
    c.sender = "PcComponentes <pedidos@pccomponentes.example>"
    c.subject = "¡Tu pedido está en camino!"
    track = c.never("https://www.pccomponentes.example/seguimiento?pedido=50219384")
    c.never("50219384", "0082800082909112345", "30820", "349,99")
    body = (
        h1("Tu pedido ya ha salido")
        + p(
            "Pedido n.º 50219384 (349,99 €)<br>Transportista: SEUR, seguimiento 0082800082909112345<br>Entrega en: Calle Mayor 3, 30820 Alcantarilla"
        )
        + button(track, "Seguir mi pedido", bg="#ff6000")
    )
    c.html = std(
        c,
        body,
        brand="PcComponentes",
        accent="#ff6000",
        lines=["PC Componentes y Multimedia S.L.U., Alhama de Murcia"],
        links=[("Darse de baja", "https://www.pccomponentes.example/baja?u=" + c.t("u", 20))],
    )
    c.text = auto_text(c.html)


@case(
    "es",
    "negative",
    "invitación a un evento con fecha, aforo y enlace 'confirmar asistencia' a un formulario, sin código",
)
def es_q19_neg_invitacion_evento(c: Case) -> None:
    c.sender = "Cámara de Comercio de Madrid <eventos@camaramadrid.example>"
    c.subject = "Invitación: Jornada de digitalización para pymes"
    rsvp = c.never("https://eventos.camaramadrid.example/jornada-digitalizacion-2025/inscripcion")
    c.never("2025", "28001", "10:00")
    c.text = dedent(f"""\
        Estimada María:

        Le invitamos a la Jornada de digitalización para pymes, el jueves 3 de abril de 2025 a las 10:00,
        en nuestra sede de Calle Serrano 12, 28001 Madrid. Aforo limitado a 120 personas.

        Confirmar asistencia: {rsvp}

        Un saludo,
        Cámara Oficial de Comercio, Industria y Servicios de Madrid
        """)


# Japanese


@case("ja", "code", "ログイン用の確認コード（フリマアプリ）; 会員番号と問い合わせ番号", charset="Shift_JIS")
def ja_q19_rakuma_kakunin_code(c: Case) -> None:
    c.sender = "ラクマ <noreply@fril.example.jp>"
    c.subject = "【ラクマ】確認コードのお知らせ"
    c.codes = ["582934"]
    c.never("10293847", "0120-987-650", "0120987650")
    c.text = dedent("""\
        ラクマをご利用いただきありがとうございます。

        ログインのための確認コードは以下のとおりです。

        確認コード：582934

        有効期限は発行から30分です。
        会員番号：10293847

        ※本メールは送信専用です。
        お問い合わせ：0120-987-650（受付時間 9:00〜18:00）

        楽天グループ株式会社
        """)


@case(
    "ja",
    "link",
    "メールアドレス変更の確認URL（旅行予約サイト）、テキストのみ; 予約番号とヘルプURL",
    charset="ISO-2022-JP",
)
def ja_q19_jalan_mail_henko(c: Case) -> None:
    c.sender = "じゃらんnet <info@jalan.example.jp>"
    c.subject = "【じゃらんnet】メールアドレス変更のご確認"
    url = f"https://www.jalan.example/uw/uwp1700/uww1701.do?key={c.t('k', 48, 'hex')}"
    c.links = [url]
    help_url = c.never("https://www.jalan.example/help/")
    c.never("0Y12345678", "12345678")
    c.text = dedent(f"""\
        山田太郎 様

        メールアドレスの変更を受け付けました。
        下記URLにアクセスして、変更を完了してください。

        {url}

        ※URLの有効期限は24時間です。
        ※ご予約（予約番号：0Y12345678）の内容に変更はありません。

        ヘルプ
        {help_url}

        株式会社リクルート
        """)


@case(
    "ja", "code", "2段階認証の認証コード（証券会社）、HTML; 口座番号とカスタマーサービスの電話番号", charset="Shift_JIS"
)
def ja_q19_sbi_security_code(c: Case) -> None:
    c.sender = "SBI証券 <info@sbisec.example.jp>"
    c.subject = "【SBI証券】認証コードのお知らせ"
    c.codes = ["4821"]
    c.never("123-4567890", "1234567890", "0120-104-214", "0120104214")
    body = (
        p("山田太郎 様")
        + p("ログイン時の認証コードをお知らせします。画面に下記の認証コードを入力してください。")
        + big("4821", size=30)
        + p("口座番号：123-4567890")
        + p("お心当たりのない場合は、カスタマーサービスセンター（0120-104-214）までご連絡ください。")
    )
    c.html = std(
        c,
        body,
        brand="SBI証券",
        accent="#0a2f87",
        lines=["株式会社SBI証券"],
        links=[("よくあるご質問", "https://faq.sbisec.example.jp/")],
    )
    c.text = auto_text(c.html)


@case(
    "ja",
    "negative",
    "ご注文の発送完了（家電量販店）: 注文番号、伝票番号、郵便番号; 配送状況の確認リンク",
    charset="Shift_JIS",
)
def ja_q19_neg_yodobashi_hasso(c: Case) -> None:
    c.sender = "ヨドバシ・ドット・コム <info@yodobashi.example>"
    c.subject = "ご注文商品の発送のお知らせ"
    track = c.never("https://www.yodobashi.example/yc/orderhistory/detail/?orderNo=3017788421")
    c.never("3017788421", "4567-8901-2345", "456789012345", "160-0023", "1600023", "12,800")
    c.text = dedent(f"""\
        山田太郎 様

        ご注文いただいた商品を発送いたしました。

        ご注文番号：3017788421
        お届け先：〒160-0023 東京都新宿区西新宿1-1-1
        配送伝票番号：4567-8901-2345
        お支払金額：12,800円

        配送状況の確認
        {track}

        ヨドバシカメラ
        """)


@case(
    "ja",
    "negative",
    "クレジットカードご利用代金確定のお知らせ: 金額、引落日、カード下4桁; 明細を見るリンク",
    charset="ISO-2022-JP",
)
def ja_q19_neg_card_kakutei(c: Case) -> None:
    c.sender = "エポスカード <info@eposcard.example.jp>"
    c.subject = "ご利用代金確定のお知らせ"
    view = c.never("https://www.eposcard.example.jp/memberservice/pc/meisai")
    c.never("1234", "48,302", "2025")
    c.text = dedent(f"""\
        山田太郎 様

        2025年3月27日お支払い分のご利用代金が確定しました。

        カード番号：****-****-****-1234
        お支払金額：48,302円
        お引落日：3月27日

        ご利用明細はこちらからご確認ください。
        {view}

        株式会社エポスカード
        """)


# Simplified Chinese


@case("zh-Hans", "code", "外卖平台登录验证码; 订单号与客服电话", charset="GB2312")
def zh_hans_q19_meituan_yanzhengma(c: Case) -> None:
    c.sender = "美团 <noreply@meituan.example>"
    c.subject = "美团登录验证码"
    c.codes = ["370591"]
    c.never("10107888", "2025")
    body = (
        p("尊敬的用户：")
        + p("您正在登录美团账号，验证码为：")
        + big("370591")
        + p("验证码10分钟内有效，请勿泄露给他人。如非本人操作，请忽略本邮件。")
        + b19_small("客服电话 10107888")
    )
    c.html = std(
        c,
        body,
        brand="美团",
        accent="#ffc300",
        lines=["北京三快在线科技有限公司 2025"],
        links=[("隐私政策", "https://www.meituan.example/privacy")],
    )
    c.text = auto_text(c.html)


@case("zh-Hans", "link", "视频网站邮箱验证链接，文本和HTML; 用户ID与帮助中心", charset="GB18030")
def zh_hans_q19_iqiyi_youxiang_yanzheng(c: Case) -> None:
    c.sender = "爱奇艺 <service@iqiyi.example>"
    c.subject = "请验证您的邮箱"
    url = f"https://passport.iqiyi.example/pages/secure/email/verify.action?token={c.t('v', 40, 'hex')}"
    c.links = [url]
    c.never("1829374650")
    body = (
        p("亲爱的爱奇艺用户（ID：1829374650）：")
        + p("请点击下面的按钮完成邮箱验证，链接24小时内有效。")
        + button(url, "验证邮箱", bg="#00be06")
    )
    c.html = std(
        c,
        body,
        brand="爱奇艺",
        accent="#00be06",
        lines=["北京爱奇艺科技有限公司"],
        links=[("帮助中心", "https://help.iqiyi.example/")],
    )
    c.text = auto_text(c.html)


@case(
    "zh-Hans",
    "negative",
    "银行信用卡电子账单: 账单金额、最低还款额、卡号末四位、还款日; 查看账单链接",
    charset="GB2312",
)
def zh_hans_q19_neg_xinyongka_zhangdan(c: Case) -> None:
    c.sender = "招商银行信用卡 <ccsvc@cmbchina.example>"
    c.subject = "招商银行信用卡电子账单（2025年03月）"
    view = c.never("https://cc.cmbchina.example/bill/detail?m=202503")
    c.never("8832", "6,120.55", "612.06", "95555", "202503", "2025")
    c.text = dedent(f"""\
        尊敬的张三先生：

        您尾号8832的信用卡2025年03月账单已出。
        本期应还金额：6,120.55元
        最低还款额：612.06元
        到期还款日：2025年04月08日

        查看账单明细：{view}

        客服热线：95555
        """)


@case("zh-Hans", "negative", "会议邀请邮件（在线会议）: 会议号、时间; 加入会议链接，无密码")
def zh_hans_q19_neg_huiyi_yaoqing(c: Case) -> None:
    c.sender = "腾讯会议 <noreply@meeting.tencent.example>"
    c.subject = "李四邀请您参加腾讯会议"
    join = c.never("https://meeting.tencent.example/dm/8Kq2Zx7mNpLt")
    c.never("482 719 305", "482719305", "2025", "14:00", "15:00")
    c.text = dedent(f"""\
        李四 邀请您参加腾讯会议
        会议主题：第一季度项目复盘
        会议时间：2025/03/18 14:00-15:00 (GMT+08:00) 中国标准时间

        点击链接入会，或添加至会议列表：
        {join}

        #腾讯会议：482 719 305
        """)


# Korean


@case("ko", "code", "쇼핑몰 이메일 인증번호; 주문번호와 고객센터 번호", charset="EUC-KR")
def ko_q19_musinsa_injeung(c: Case) -> None:
    c.sender = "무신사 <no-reply@musinsa.example>"
    c.subject = "[무신사] 이메일 인증번호 안내"
    c.codes = ["904517"]
    c.never("1544-7199", "15447199")
    body = (
        p("안녕하세요, 홍길동 님.")
        + p("아래 인증번호를 입력하여 이메일 인증을 완료해 주세요.")
        + big("904517")
        + p("인증번호는 발송 후 10분간 유효합니다.")
        + b19_small("고객센터 1544-7199")
    )
    c.html = std(
        c,
        body,
        brand="무신사",
        lines=["(주)무신사"],
        links=[("개인정보처리방침", "https://www.musinsa.example/privacy")],
    )
    c.text = auto_text(c.html)


@case("ko", "link", "게임 계정 비밀번호 재설정 링크; 캐릭터 이름과 문의 번호", charset="EUC-KR")
def ko_q19_ncsoft_bimilbeonho(c: Case) -> None:
    c.sender = "NC <noreply@ncsoft.example>"
    c.subject = "[NC] 비밀번호 재설정 안내"
    url = f"https://account.ncsoft.example/password/reset?key={c.t('r', 44)}"
    c.links = [url]
    c.never("1600-0020", "16000020")
    body = (
        p("홍길동 님, 비밀번호 재설정을 요청하셨습니다.")
        + p("아래 버튼을 눌러 새 비밀번호를 설정해 주세요. 링크는 30분 동안 유효합니다.")
        + button(url, "비밀번호 재설정", bg="#2c2c2c")
        + b19_small("고객센터 1600-0020")
    )
    c.html = std(c, body, brand="NC", lines=["(주)엔씨소프트"], links=[("고객센터", "https://help.ncsoft.example/")])
    c.text = auto_text(c.html)


@case("ko", "negative", "배달 앱 영수증: 주문번호, 결제 금액, 배달 주소; 리뷰 쓰기 링크")
def ko_q19_neg_yogiyo_yeongsujeung(c: Case) -> None:
    c.sender = "요기요 <noreply@yogiyo.example>"
    c.subject = "[요기요] 주문이 완료되었습니다"
    review = c.never("https://www.yogiyo.example/mypage/orders/250314183022/review")
    c.never("250314183022", "23,500", "06236")
    body = (
        h1("주문이 완료되었습니다")
        + p(
            "주문번호: 250314183022<br>교촌치킨 강남점<br>결제 금액: 23,500원<br>배달 주소: 서울 강남구 테헤란로 1 (06236)"
        )
        + p(a(review, "리뷰 쓰기"))
    )
    c.html = std(
        c,
        body,
        brand="요기요",
        accent="#fa0050",
        lines=["위대한상상(주)"],
        links=[("수신거부", "https://www.yogiyo.example/unsubscribe?u=" + c.t("u", 16))],
    )
    c.text = auto_text(c.html)


@case("ko", "negative", "비밀번호 변경 완료 알림: 변경 시각과 IP; 본인이 아니면 고객센터", charset="EUC-KR")
def ko_q19_neg_bimilbeonho_byeongyeong(c: Case) -> None:
    c.sender = "카카오 <noreply@kakaocorp.example>"
    c.subject = "[카카오계정] 비밀번호가 변경되었습니다"
    help_url = c.never("https://cs.kakao.example/helps?service=52")
    c.never("203.0.113.77", "2025.03.14", "09:41")
    c.text = dedent(f"""\
        카카오계정(hong***@example.com)의 비밀번호가 변경되었습니다.

        변경 일시: 2025.03.14 09:41
        IP 주소: 203.0.113.77

        본인이 변경하지 않았다면 고객센터로 문의해 주세요.
        {help_url}
        """)


# Russian


@case("ru", "code", "код подтверждения входа маркетплейса; номер заказа и телефон поддержки", charset="KOI8-R")
def ru_q19_wildberries_kod(c: Case) -> None:
    c.sender = "Wildberries <noreply@wildberries.example>"
    c.subject = "Код для входа в Wildberries"
    c.codes = ["5082"]
    c.never("8 800 100-70-11", "88001007011")
    c.text = dedent("""\
        Здравствуйте!

        Ваш код для входа: 5082

        Никому не сообщайте этот код. Если вы не запрашивали вход, просто проигнорируйте письмо.

        Служба поддержки: 8 800 100-70-11
        Wildberries
        """)


@case("ru", "link", "подтверждение почты в онлайн-кинотеатре; кнопка и тот же адрес в тексте", charset="windows-1251")
def ru_q19_kinopoisk_podtverdit(c: Case) -> None:
    c.sender = "Кинопоиск <noreply@kinopoisk.example>"
    c.subject = "Подтвердите адрес электронной почты"
    url = f"https://passport.kinopoisk.example/email/confirm?key={c.t('k', 40, 'hex')}"
    c.links = [url]
    body = (
        h1("Почти готово!")
        + p("Чтобы получать уведомления о новых фильмах, подтвердите адрес jane.doe@example.com.")
        + button(url, "Подтвердить почту", bg="#ff6600")
        + p("Ссылка действует 3 дня.")
    )
    c.html = std(
        c,
        body,
        brand="Кинопоиск",
        accent="#ff6600",
        lines=["ООО «Кинопоиск»"],
        links=[("Отписаться", "https://www.kinopoisk.example/unsubscribe?u=" + c.t("u", 16))],
    )
    c.text = auto_text(c.html)


@case("ru", "negative", "электронный чек такси: сумма, номер поездки, ИНН, ФН; ссылка на чек", charset="windows-1251")
def ru_q19_neg_taksi_chek(c: Case) -> None:
    c.sender = "Ситимобил <receipts@city-mobil.example>"
    c.subject = "Кассовый чек за поездку"
    check = c.never("https://check.ofd.example/rec/7281000100298412/48213/3920184756")
    c.never("7281000100298412", "3920184756", "7704340327", "486,00", "48213")
    c.text = dedent(f"""\
        Спасибо за поездку!

        Итого: 486,00 руб.
        Поездка № 48213
        ИНН 7704340327
        ФН 7281000100298412, ФПД 3920184756

        Чек: {check}
        """)


@case(
    "ru", "negative", "рассылка банка с новостями и промокодом партнёра; ссылка 'подробнее' и отписка", charset="KOI8-R"
)
def ru_q19_neg_rassylka_banka(c: Case) -> None:
    c.sender = "Альфа-Банк <news@alfabank.example>"
    c.subject = "Новости марта: кешбэк до 10%"
    more = c.never("https://alfabank.example/get-money/credit-cards/cashback/")
    c.never("ALFA500", "0500")
    body = (
        h1("Кешбэк до 10% в марте")
        + p("Выбирайте категории кешбэка в приложении до 31 марта.")
        + p("Промокод партнёра на 500 руб.: ALFA500")
        + button(more, "Подробнее", bg="#ef3124")
        + b19_small("Звонок по России: 0500")
    )
    c.html = std(
        c,
        body,
        brand="Альфа-Банк",
        accent="#ef3124",
        lines=['АО "Альфа-Банк"'],
        links=[("Отписаться", "https://alfabank.example/unsubscribe?u=" + c.t("u", 16))],
    )
    c.text = auto_text(c.html)


# Italian


@case(
    "it",
    "code",
    "codice di verifica per l'accesso a un e-commerce; numero d'ordine e servizio clienti",
    charset="ISO-8859-15",
)
def it_q19_esselunga_codice(c: Case) -> None:
    c.sender = "Esselunga a casa <noreply@esselungaacasa.example.it>"
    c.subject = "Il tuo codice di verifica"
    c.codes = ["216804"]
    c.never("800 666 555", "800666555", "48120937")
    body = (
        p("Gentile Mario Rossi,")
        + p("per completare l'accesso inserisci il seguente codice di verifica:")
        + big("216804")
        + p("Il codice è valido per 10 minuti. La tua ultima spesa (ordine 48120937) è stata consegnata.")
        + b19_small("Servizio clienti: 800 666 555")
    )
    c.html = std(
        c,
        body,
        brand="Esselunga",
        accent="#e2001a",
        lines=["Esselunga S.p.A., Via Giambologna 1, 20096 Limito di Pioltello (MI)"],
        links=[("Privacy", "https://www.esselungaacasa.example.it/privacy")],
        decoys=["20096"],
    )
    c.text = auto_text(c.html)


@case("it", "link", "conferma del nuovo indirizzo email su un portale di annunci immobiliari; bottone; assistenza")
def it_q19_immobiliare_conferma_email(c: Case) -> None:
    c.sender = "Immobiliare.it <noreply@immobiliare.example.it>"
    c.subject = "Conferma il tuo nuovo indirizzo email"
    url = f"https://www.immobiliare.example.it/account/conferma-email/{c.t('e', 36)}"
    c.links = [url]
    body = (
        h1("Conferma la tua email")
        + p(
            "Hai chiesto di usare <b>mario.rossi@example.org</b> per il tuo account. Clicca sul pulsante per confermare."
        )
        + button(url, "Conferma email", bg="#1a4e8a")
    )
    c.html = std(
        c,
        body,
        brand="Immobiliare.it",
        accent="#1a4e8a",
        lines=["Immobiliare.it S.p.A., Milano"],
        links=[
            ("Assistenza", "https://assistenza.immobiliare.example.it/"),
            ("Cancella iscrizione", "https://www.immobiliare.example.it/unsubscribe?u=" + c.t("u", 16)),
        ],
    )
    c.text = auto_text(c.html)


@case(
    "it",
    "negative",
    "ricevuta di pagamento di un abbonamento in palestra: importo, numero ricevuta, partita IVA; 'scarica ricevuta'",
    charset="ISO-8859-1",
)
def it_q19_neg_ricevuta_palestra(c: Case) -> None:
    c.sender = "McFIT Italia <noreply@mcfit.example.it>"
    c.subject = "Ricevuta del pagamento di marzo"
    dl = c.never("https://my.mcfit.example.it/ricevute/2025-031877.pdf")
    c.never("2025-031877", "19,90", "03810500289")
    c.text = dedent(f"""\
        Ciao Mario,

        abbiamo ricevuto il pagamento della quota di marzo.

        Ricevuta n. 2025-031877
        Importo: 19,90 EUR
        P. IVA 03810500289

        Scarica la ricevuta: {dl}

        A presto in palestra!
        """)


# Portuguese


@case("pt", "code", "código de acesso de um banco digital; agência, conta e valor de um Pix")
def pt_q19_inter_codigo(c: Case) -> None:
    c.sender = "Banco Inter <naoresponda@bancointer.example>"
    c.subject = "Seu código de segurança"
    c.codes = ["719352"]
    c.never("0001", "1234567-8", "12345678", "3003 4070", "30034070", "150,00")
    body = (
        p("Olá, João!")
        + p("Use o código abaixo para autorizar o Pix de R$ 150,00:")
        + big("719352")
        + p("Agência 0001 &middot; Conta 1234567-8")
        + p("Não compartilhe este código com ninguém.")
        + b19_small("Central de atendimento: 3003 4070")
    )
    c.html = std(
        c,
        body,
        brand="Inter",
        accent="#ff7a00",
        lines=["Banco Inter S.A., Belo Horizonte - MG"],
        links=[("Privacidade", "https://www.bancointer.example/privacidade/")],
    )
    c.text = auto_text(c.html)


@case(
    "pt",
    "link",
    "link de acesso sem senha de uma loja online (Portugal); botão; apoio ao cliente",
    charset="ISO-8859-1",
)
def pt_q19_worten_link_acesso(c: Case) -> None:
    c.sender = "Worten <noreply@worten.example.pt>"
    c.subject = "O seu link de acesso"
    url = f"https://www.worten.example.pt/login/link?t={c.t('l', 48)}"
    c.links = [url]
    body = (
        h1("Entrar na sua conta")
        + p(
            "Clique no botão para entrar na sua conta Worten. O link é válido durante 15 minutos e só pode ser usado uma vez."
        )
        + button(url, "Entrar", bg="#e30613")
    )
    c.html = std(
        c,
        body,
        brand="Worten",
        accent="#e30613",
        lines=["Worten Equipamentos para o Lar, S.A."],
        links=[("Apoio ao cliente", "https://www.worten.example.pt/apoio-ao-cliente")],
    )
    c.text = auto_text(c.html)


@case(
    "pt",
    "negative",
    "confirmação de encomenda: número de pedido, NIF, código postal, total; 'acompanhar encomenda'",
    charset="ISO-8859-15",
)
def pt_q19_neg_encomenda(c: Case) -> None:
    c.sender = "Continente Online <encomendas@continente.example.pt>"
    c.subject = "A sua encomenda foi confirmada"
    track = c.never("https://www.continente.example.pt/minha-conta/encomendas/?id=7719204")
    c.never("7719204", "4100-123", "4100123", "67,35", "123456789")
    body = (
        h1("Obrigado pela sua encomenda")
        + p("Encomenda n.º 7719204<br>Entrega: Rua das Flores 10, 4100-123 Porto<br>NIF: 123456789<br>Total: 67,35 €")
        + button(track, "Acompanhar encomenda", bg="#e20613")
    )
    c.html = std(
        c,
        body,
        brand="Continente",
        accent="#e20613",
        lines=["MCRetail, SGPS, S.A."],
        links=[("Cancelar subscrição", "https://www.continente.example.pt/unsubscribe?u=" + c.t("u", 16))],
    )
    c.text = auto_text(c.html)


# Polish


@case(
    "pl",
    "code",
    "kod weryfikacyjny sklepu internetowego, tylko tekst; numer zamówienia i infolinia",
    charset="ISO-8859-2",
)
def pl_q19_empik_kod(c: Case) -> None:
    c.sender = "Empik <noreply@empik.example>"
    c.subject = "Twój kod weryfikacyjny"
    c.codes = ["603918"]
    c.never("22 462 72 50", "224627250", "1029384756")
    c.text = dedent("""\
        Cześć,

        Twój kod weryfikacyjny do logowania w Empik: 603918

        Kod jest ważny przez 10 minut. Nikomu go nie podawaj.
        Twoje ostatnie zamówienie nr 1029384756 jest w drodze.

        Infolinia: 22 462 72 50
        Zespół Empik
        """)


@case("pl", "link", "resetowanie hasła w serwisie streamingowym; przycisk; pomoc i wypis", charset="ISO-8859-2")
def pl_q19_player_reset_hasla(c: Case) -> None:
    c.sender = "Player <noreply@player.example.pl>"
    c.subject = "Zresetuj hasło do konta Player"
    url = f"https://konto.player.example.pl/reset-hasla?token={c.t('r', 40, 'hex')}"
    c.links = [url]
    body = (
        h1("Ustaw nowe hasło")
        + p("Otrzymaliśmy prośbę o zresetowanie hasła. Kliknij przycisk poniżej, aby ustawić nowe hasło.")
        + button(url, "Zresetuj hasło", bg="#ff3000")
        + p("Link jest ważny przez 24 godziny.")
    )
    c.html = std(
        c,
        body,
        brand="Player",
        accent="#ff3000",
        lines=["TVN S.A., ul. Wiertnicza 166, 02-952 Warszawa"],
        links=[("Pomoc", "https://pomoc.player.example.pl/")],
        decoys=["02-952"],
    )
    c.text = auto_text(c.html)


@case("pl", "negative", "potwierdzenie rezerwacji wizyty u fryzjera: data, godzina, numer rezerwacji; 'odwołaj wizytę'")
def pl_q19_neg_booksy_wizyta(c: Case) -> None:
    c.sender = "Booksy <noreply@booksy.example>"
    c.subject = "Twoja wizyta została potwierdzona"
    cancel = c.never("https://booksy.example/pl-pl/appointments/88213094/cancel")
    c.never("88213094", "15:30", "80,00", "00-001")
    body = (
        h1("Do zobaczenia!")
        + p(
            "Strzyżenie męskie, Salon Nożyczki, ul. Prosta 1, 00-001 Warszawa<br>Piątek, 21 marca, 15:30<br>Cena: 80,00 zł<br>Nr rezerwacji: 88213094"
        )
        + p(a(cancel, "Odwołaj wizytę"))
    )
    c.html = std(
        c,
        body,
        brand="Booksy",
        accent="#00a3ad",
        lines=["Booksy International sp. z o.o."],
        links=[("Wypisz się", "https://booksy.example/unsubscribe?u=" + c.t("u", 16))],
    )
    c.text = auto_text(c.html)


# Dutch


@case("nl", "code", "inlogcode van een zorgverzekeraar; relatienummer en polisnummer", charset="ISO-8859-1")
def nl_q19_zilveren_kruis_inlogcode(c: Case) -> None:
    c.sender = "Zilveren Kruis <noreply@zilverenkruis.example.nl>"
    c.subject = "Uw inlogcode"
    c.codes = ["385027"]
    c.never("123456789", "20190304", "071 751 00 52", "0717510052")
    body = (
        p("Beste heer De Vries,")
        + p("Gebruik deze code om in te loggen op Mijn Zilveren Kruis:")
        + big("385027")
        + p("Relatienummer: 123456789<br>Polisnummer: 20190304")
        + b19_small("Vragen? Bel 071 751 00 52")
    )
    c.html = std(
        c,
        body,
        brand="Zilveren Kruis",
        accent="#00a3e0",
        lines=["Zilveren Kruis Zorgverzekeringen N.V."],
        links=[("Privacy", "https://www.zilverenkruis.example.nl/privacy")],
    )
    c.text = auto_text(c.html)


@case("nl", "link", "e-mailadres bevestigen na inschrijving bij een supermarkt-app; knop; help en uitschrijven")
def nl_q19_ah_bevestig(c: Case) -> None:
    c.sender = "Albert Heijn <noreply@ah.example.nl>"
    c.subject = "Bevestig je e-mailadres"
    url = f"https://www.ah.example.nl/mijn/bevestig-email?code={c.t('b', 32, 'hex')}"
    c.links = [url]
    body = (
        h1("Welkom bij Albert Heijn")
        + p("Bevestig je e-mailadres om je account te activeren en je bonuskaart te koppelen.")
        + button(url, "Bevestig e-mailadres", bg="#00a0e2")
    )
    c.html = std(
        c,
        body,
        brand="Albert Heijn",
        accent="#00a0e2",
        lines=["Albert Heijn B.V., Provincialeweg 11, 1506 MA Zaandam"],
        links=[
            ("Klantenservice", "https://www.ah.example.nl/klantenservice"),
            ("Afmelden", "https://www.ah.example.nl/afmelden?u=" + c.t("u", 16)),
        ],
    )
    c.text = auto_text(c.html)


@case(
    "nl",
    "negative",
    "jaaropgaaf van een energieleverancier: klantnummer, EAN-code, bedrag; 'bekijk je jaarnota'",
    charset="ISO-8859-15",
)
def nl_q19_neg_jaarnota(c: Case) -> None:
    c.sender = "Eneco <noreply@eneco.example.nl>"
    c.subject = "Je jaarnota staat klaar"
    view = c.never("https://www.eneco.example.nl/mijn-eneco/jaarnota/2025")
    c.never("871687120053410291", "30418822", "213,46", "2025")
    body = (
        p("Beste Jan,")
        + p("Je jaarnota over 2025 staat klaar. Je krijgt € 213,46 terug.")
        + p("Klantnummer: 30418822<br>EAN-code stroom: 871687120053410291")
        + button(view, "Bekijk je jaarnota", bg="#e5384c")
    )
    c.html = std(
        c,
        body,
        brand="Eneco",
        accent="#e5384c",
        lines=["Eneco Consumenten B.V., Rotterdam"],
        links=[("Privacy", "https://www.eneco.example.nl/privacy")],
    )
    c.text = auto_text(c.html)


# Turkish


@case("tr", "code", "e-ticaret giriş doğrulama kodu; sipariş numarası ve müşteri hizmetleri", charset="ISO-8859-9")
def tr_q19_n11_dogrulama(c: Case) -> None:
    c.sender = "n11 <noreply@n11.example>"
    c.subject = "n11 doğrulama kodunuz"
    c.codes = ["427190"]
    c.never("0850 333 0 011", "08503330011", "205987341")
    body = (
        p("Merhaba Ayşe,")
        + p("Hesabına giriş yapmak için doğrulama kodun:")
        + big("427190")
        + p("Kod 3 dakika geçerlidir. Son siparişin (205987341) kargoya verildi.")
        + b19_small("Müşteri hizmetleri: 0850 333 0 011")
    )
    c.html = std(
        c,
        body,
        brand="n11",
        accent="#7c35e0",
        lines=["n11 Giyim ve Ticaret A.Ş., İstanbul"],
        links=[("Gizlilik", "https://www.n11.example/gizlilik")],
    )
    c.text = auto_text(c.html)


@case("tr", "link", "yemek uygulaması e-posta doğrulama bağlantısı; düğme; yardım bağlantısı", charset="ISO-8859-9")
def tr_q19_yemeksepeti_dogrula(c: Case) -> None:
    c.sender = "Yemeksepeti <noreply@yemeksepeti.example>"
    c.subject = "E-posta adresini doğrula"
    url = f"https://www.yemeksepeti.example/hesap/eposta-dogrula?t={c.t('v', 40)}"
    c.links = [url]
    body = (
        h1("E-posta adresini doğrula")
        + p("Yemeksepeti hesabını güvenle kullanmak için e-posta adresini doğrula.")
        + button(url, "Doğrula", bg="#ea004b")
    )
    c.html = std(
        c,
        body,
        brand="Yemeksepeti",
        accent="#ea004b",
        lines=["Yemek Sepeti Elektronik İletişim A.Ş."],
        links=[("Yardım", "https://www.yemeksepeti.example/yardim")],
    )
    c.text = auto_text(c.html)


@case(
    "tr",
    "negative",
    "banka hesap özeti: IBAN, bakiye, son ödeme tarihi; 'hesap özetini görüntüle'",
    charset="windows-1254",
)
def tr_q19_neg_hesap_ozeti(c: Case) -> None:
    c.sender = "Akbank <bilgi@akbank.example>"
    c.subject = "Mart 2025 kredi kartı hesap özetiniz"
    view = c.never("https://www.akbank.example/internet-bankaciligi/hesap-ozeti?d=202503")
    c.never("5521", "3.482,90", "444 25 25", "4442525", "202503", "2025")
    c.text = dedent(f"""\
        Sayın Ayşe Yılmaz,

        5521 ile biten kredi kartınızın Mart 2025 hesap özeti hazırlandı.
        Dönem borcu: 3.482,90 TL
        Son ödeme tarihi: 07.04.2025

        Hesap özetini görüntüle: {view}

        Akbank Müşteri İletişim Merkezi: 444 25 25
        """)


# Greek


@case(
    "el", "code", "κωδικός επαλήθευσης για σύνδεση σε ηλεκτρονικό κατάστημα· αριθμός παραγγελίας", charset="ISO-8859-7"
)
def el_q19_public_kodikos(c: Case) -> None:
    c.sender = "Public <noreply@public.example.gr>"
    c.subject = "Ο κωδικός επαλήθευσής σας"
    c.codes = ["651370"]
    c.never("210 8181333", "2108181333", "99281734")
    c.text = dedent("""\
        Γεια σας,

        Ο κωδικός επαλήθευσης για τη σύνδεσή σας είναι: 651370

        Ισχύει για 10 λεπτά. Μην τον κοινοποιήσετε σε κανέναν.
        Η παραγγελία σας 99281734 είναι καθ' οδόν.

        Εξυπηρέτηση πελατών: 210 8181333
        Public
        """)


@case("el", "link", "επαναφορά κωδικού πρόσβασης σε εφαρμογή ταξί· κουμπί", charset="windows-1253")
def el_q19_freenow_epanafora(c: Case) -> None:
    c.sender = "FREENOW <noreply@free-now.example>"
    c.subject = "Επαναφορά κωδικού πρόσβασης"
    url = f"https://account.free-now.example/gr/password/reset?token={c.t('r', 40, 'hex')}"
    c.links = [url]
    body = (
        h1("Νέος κωδικός πρόσβασης")
        + p("Πατήστε το κουμπί για να ορίσετε νέο κωδικό πρόσβασης. Ο σύνδεσμος λήγει σε 1 ώρα.")
        + button(url, "Επαναφορά κωδικού", bg="#c7003a")
    )
    c.html = std(
        c,
        body,
        brand="FREENOW",
        accent="#c7003a",
        lines=["Intelligent Apps GmbH"],
        links=[("Βοήθεια", "https://free-now.example/gr/help/")],
    )
    c.text = auto_text(c.html)


@case(
    "el",
    "negative",
    "απόδειξη διαδρομής ταξί: ποσό, αριθμός διαδρομής, ΑΦΜ· σύνδεσμος αξιολόγησης",
    charset="ISO-8859-7",
)
def el_q19_neg_apodeixi_diadromis(c: Case) -> None:
    c.sender = "Beat <receipts@beat.example.gr>"
    c.subject = "Η απόδειξη της διαδρομής σας"
    rate = c.never("https://beat.example.gr/rides/R-5520193/rate")
    c.never("R-5520193", "5520193", "12,40", "094014201")
    c.text = dedent(f"""\
        Ευχαριστούμε που ταξιδέψατε μαζί μας!

        Διαδρομή R-5520193: Σύνταγμα - Κηφισιά
        Σύνολο: 12,40 EUR
        ΑΦΜ εταιρείας: 094014201

        Αξιολογήστε τη διαδρομή: {rate}
        """)


# English (more)


@case("en", "code", "game account email code in one cell per digit; player ID and order number")
def en_q19_playstation_cells(c: Case) -> None:
    c.sender = "PlayStation <Sony@email.sonyentertainmentnetwork.example>"
    c.subject = "Your verification code"
    c.codes = ["906153"]
    c.pieces = list("906153")
    c.never("7701928344", "2025")
    body = (
        h1("Verify it's you")
        + p("Enter this code on the sign-in screen of your PS5:")
        + cells("906153")
        + p("Online ID: jdoe_plays &middot; Last order #7701928344")
    )
    c.html = std(
        c,
        body,
        brand="PlayStation",
        accent="#003791",
        lines=["Sony Interactive Entertainment LLC, San Mateo, CA", "&copy; 2025"],
        links=[
            ("Privacy Policy", "https://www.playstation.example/legal/privacy-policy/"),
            ("Support", "https://www.playstation.example/support/"),
        ],
    )
    c.text = "Verify it's you\n\nEnter this code on the sign-in screen of your PS5: 906153\n\nOnline ID: jdoe_plays - Last order #7701928344\n"


@case(
    "en",
    "code+link",
    "whiteboard app sign-in: a code written '284 716' and a 'Sign in' button for the same login; help and privacy links",
)
def en_q19_miro_code_and_signin(c: Case) -> None:
    c.sender = "Miro <no-reply@miro.example>"
    c.subject = "Your Miro sign-in code: 284 716"
    url = f"https://miro.example/sso/login/email-code/?token={c.t('s', 40)}"
    c.codes = ["284716", "284 716"]
    c.links = [url]
    body = (
        h1("Sign in to Miro")
        + p("Enter this code in the browser window where you started signing in:")
        + big("284 716")
        + p("Or sign in directly:")
        + button(url, "Sign in to Miro", bg="#4262ff")
    )
    c.html = std(
        c,
        body,
        brand="Miro",
        accent="#ffd02f",
        lines=["RealtimeBoard, Inc. dba Miro, 201 Spear St, San Francisco, CA 94105"],
        links=[
            ("Help Center", "https://help.miro.example/"),
            ("Privacy", "https://miro.example/legal/privacy-policy/"),
        ],
        decoys=["94105"],
    )
    c.text = auto_text(c.html)


# Traditional Chinese


@case("zh-Hant", "code", "購物網站登入驗證碼; 訂單編號與客服專線", charset="Big5")
def zh_hant_q19_pinkoi_yanzhengma(c: Case) -> None:
    c.sender = "Pinkoi <noreply@pinkoi.example>"
    c.subject = "Pinkoi 登入驗證碼"
    c.codes = ["830461"]
    c.never("02-2552-1234", "0225521234", "20250314A0918")
    c.text = dedent("""\
        親愛的會員您好：

        您的登入驗證碼為 830461，請於 10 分鐘內輸入。
        請勿將驗證碼提供給任何人。

        您最近的訂單編號：20250314A0918

        客服專線：02-2552-1234
        Pinkoi 團隊
        """)


@case("zh-Hant", "negative", "電信帳單繳費成功通知: 金額、帳號、交易序號; 查看帳單連結", charset="Big5")
def zh_hant_q19_neg_jiaofei_chenggong(c: Case) -> None:
    c.sender = "台灣大哥大 <ebill@taiwanmobile.example>"
    c.subject = "繳費成功通知"
    view = c.never("https://www.taiwanmobile.example/cs/bill/query?m=202503")
    c.never("1,399", "88123456", "TX20250314091233", "202503")
    c.text = dedent(f"""\
        親愛的用戶您好：

        您的 3 月份電信費 1,399 元已繳費成功。
        帳號：88123456
        交易序號：TX20250314091233

        查看帳單：{view}

        台灣大哥大
        """)


# Ukrainian


@case(
    "uk", "code", "код підтвердження входу в інтернет-магазин; номер замовлення та гаряча лінія", charset="windows-1251"
)
def uk_q19_epicentr_kod(c: Case) -> None:
    c.sender = "Епіцентр <noreply@epicentrk.example.ua>"
    c.subject = "Код для входу"
    c.codes = ["7305"]
    c.never("0 800 30 30 10", "0800303010", "112098437")
    body = (
        p("Вітаємо!")
        + p("Ваш код для входу в особистий кабінет:")
        + big("7305")
        + p("Код дійсний 5 хвилин. Ваше замовлення № 112098437 вже в дорозі.")
        + b19_small("Гаряча лінія: 0 800 30 30 10")
    )
    c.html = std(
        c,
        body,
        brand="Епіцентр",
        accent="#0d6934",
        lines=["ТОВ «Епіцентр К»"],
        links=[("Відписатися", "https://epicentrk.example.ua/unsubscribe?u=" + c.t("u", 16))],
    )
    c.text = auto_text(c.html)


# Swedish


@case("sv", "link", "bekräfta ny e-postadress hos ett resebolag; knapp; kundtjänst", charset="ISO-8859-15")
def sv_q19_sj_bekrafta_epost(c: Case) -> None:
    c.sender = "SJ <noreply@sj.example.se>"
    c.subject = "Bekräfta din nya e-postadress"
    url = f"https://www.sj.example.se/mitt-konto/bekrafta-epost?nyckel={c.t('b', 36, 'hex')}"
    c.links = [url]
    body = (
        h1("Bekräfta din e-postadress")
        + p(
            "Du har ändrat e-postadressen för ditt SJ-konto till anna.svensson@example.org. Klicka på knappen för att bekräfta."
        )
        + button(url, "Bekräfta e-postadress", bg="#00303c")
    )
    c.html = std(
        c,
        body,
        brand="SJ",
        accent="#00303c",
        lines=["SJ AB, 105 50 Stockholm"],
        links=[("Kundtjänst", "https://www.sj.example.se/kundtjanst")],
        decoys=["105 50"],
    )
    c.text = auto_text(c.html)


# Vietnamese


@case("vi", "negative", "biên lai thanh toán hóa đơn nước: số tiền, mã khách hàng, mã giao dịch; xem chi tiết")
def vi_q19_neg_bien_lai_nuoc(c: Case) -> None:
    c.sender = "ZaloPay <noreply@zalopay.example.vn>"
    c.subject = "Thanh toán hóa đơn nước thành công"
    view = c.never("https://zalopay.example.vn/giao-dich/250314000192837")
    c.never("250314000192837", "PD1234567890", "1234567890", "186.000", "186000")
    c.text = dedent(f"""\
        Chào bạn,

        Bạn đã thanh toán thành công hóa đơn nước tháng 3.
        Mã khách hàng: PD1234567890
        Số tiền: 186.000đ
        Mã giao dịch: 250314000192837

        Xem chi tiết: {view}

        ZaloPay
        """)


# English (last)


@case(
    "en",
    "code",
    "social network email-change code, text and HTML; the old address is masked; 'secure your account' link",
)
def en_q19_pinterest_email_change_code(c: Case) -> None:
    c.sender = "Pinterest <no-reply@account.pinterest.example>"
    c.subject = "Confirm your new email address"
    c.codes = ["5KD8QM"]
    secure = c.never("https://www.pinterest.example/settings/security")
    c.never("2025")
    body = (
        h1("Is this your new email?")
        + p(
            "Someone asked to change the email on your Pinterest account from j***@example.com to this address. Enter this code in Pinterest to confirm:"
        )
        + big("5KD8QM")
        + p(f"Didn't ask for this? {a(secure, 'Secure your account')}")
    )
    c.html = std(
        c,
        body,
        brand="Pinterest",
        accent="#e60023",
        lines=["Pinterest, Inc., 651 Brannan Street, San Francisco, CA 94107", "&copy; 2025"],
        links=[
            ("Privacy policy", "https://policy.pinterest.example/privacy-policy"),
            ("Help Center", "https://help.pinterest.example/"),
        ],
        decoys=["94107"],
    )
    c.text = auto_text(c.html)


# ---- end of issue 19 fourth held-out set ----


# ============================================================================================
# END OF CASES
# ============================================================================================

# --- self-check -----------------------------------------------------------------------------

_URL_IN_TEXT = re.compile(r"https?://[^\s<>\"]+")
_ZERO_WIDTH = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u034f\xad" + CELL_SEP))
# Broader than the issue's intent list on purpose: in a case that expects no link, every link
# that *might* read as an action link must be listed in ``never`` (unsubscribe, help, ...).
_INTENT = re.compile(
    r"verif|confirm|activat|reset|sign-?in|sign_in|log-?in|log_in|magic|validat|approve|passwordless|token|auth"
    r"|passw|otp|code|secur|验证|驗證|确认|確認|認証|認證|인증|확인|bestätig|verifizier|anmeld|einlogg|zurücksetz"
    r"|vérifi|connexion|connecter|réinitialis|verific|confirma|acceder|iniciar|restablec|redefin|entrar|conferm"
    r"|accedi|reimposta|bevestig|inlog|herstel|подтвер|войти|вход|восстанов|сброс|potwierd|zaloguj|logowan"
    r"|resetuj|doğrula|giriş|onayla|sıfırla|激活|啟用|登录|登錄|重置|重設|ログイン|再設定|로그인|재설정|활성화"
    r"|verifiera|bekräfta|logga|återställ|ověř|potvrd|přihlá|obnov|підтверд|увійти|вхід|віднов|скинути"
    r"|xác|đăng nhập|đặt lại|bekræft|nulstil|vahvist|kirjaudu|palauta|megerősít|bejelentkez|visszaállít"
    r"|confirmă|conectare|resetează|επιβεβαί|σύνδεση|επαναφορά|konfirmasi|masuk|atur ulang|verifikasi",
    re.IGNORECASE,
)


def _loose(s: str) -> str:
    """For presence checks: no whitespace, zero-width characters, cell breaks or dashes."""
    return "".join(s.translate(_ZERO_WIDTH).split()).replace("-", "").replace("\u2011", "")


def _bare(s: str) -> str:
    """Digits and letters only: a never-string may be the bare form of a written number (1,299.00)."""
    return re.sub(r"[\W_]", "", s)


def _text_urls(text: str) -> list[str]:
    return [u.rstrip(".,;:!?)]'\"") for u in _URL_IN_TEXT.findall(text)]


@dataclass
class Seen:
    """What the self-check read back from one file."""

    subject: str
    text: str | None
    html: str | None
    leaves: list[tuple[str, str | None, str]]  # (content type, charset, transfer encoding)
    top: str
    subject_enc: str


def read_back(data: bytes) -> tuple[Seen, list[str]]:
    errors: list[str] = []
    msg = BytesParser(policy=policy.default).parsebytes(data)
    assert isinstance(msg, EmailMessage)
    text = body_html = None
    leaves: list[tuple[str, str | None, str]] = []
    for part in msg.walk():
        if part.defects:
            errors.append(f"MIME defects: {part.defects}")
        if part.is_multipart():
            continue
        ctype = part.get_content_type()
        cte = str(part.get("Content-Transfer-Encoding", "7bit")).lower()
        leaves.append((ctype, part.get_content_charset(), cte))
        if part.get_content_disposition() == "attachment" or not ctype.startswith("text/"):
            continue
        if ctype == "text/plain" and text is None:
            text = part.get_content().replace("\r\n", "\n")
        elif ctype == "text/html" and body_html is None:
            body_html = part.get_content().replace("\r\n", "\n")
    raw_subject = re.search(rb"^Subject:(.*(?:\r?\n[ \t].*)*)", data, re.MULTILINE)
    enc = "plain"
    if raw_subject:
        words = re.findall(rb"=\?([^?]+)\?([BbQq])\?", raw_subject.group(1))
        if words:
            enc = "/".join(sorted({f"{m.upper().decode()}:{cs.decode()}" for cs, m in words}))
    return Seen(str(msg["subject"]), text, body_html, leaves, msg.get_content_type(), enc), errors


def check(c: Case, data: bytes) -> tuple[Seen, list[str]]:
    seen, errors = read_back(data)
    if c.raw_subject is None and seen.subject != c.subject:
        errors.append(f"subject reads back as {seen.subject!r}")
    if c.text is not None and (seen.text or "").rstrip("\n") != c.text.replace("\r\n", "\n").rstrip("\n"):
        errors.append("text part does not read back identically")
    if c.html is not None and (seen.html or "").rstrip("\n") != c.html.replace("\r\n", "\n").rstrip("\n"):
        errors.append("HTML part does not read back identically")

    r = render(seen.html) if seen.html else Render()
    html_visible = "".join(r.visible)
    visible = "\n".join([seen.subject, seen.text or "", html_visible]).replace("\xa0", " ")
    hrefs = [href for href, _ in r.links]
    text_urls = _text_urls(seen.text or "")
    everything = "\n".join([visible, "".join(r.all_text), seen.html or "", *hrefs, *r.images])

    # kind versus expectations
    want_codes, want_links = c.kind in ("code", "code+link"), c.kind in ("link", "code+link")
    if bool(c.codes) != want_codes or bool(c.links) != want_links:
        errors.append(f"kind {c.kind} does not match codes={c.codes} links={c.links}")

    # codes: present as written (or as pieces in order), every alternative present loosely
    if c.codes:
        if c.pieces:
            at = 0
            for piece in c.pieces:
                found = html_visible.find(piece, at)
                if found < 0:
                    errors.append(f"piece {piece!r} not in visible HTML (in order)")
                    break
                at = found + len(piece)
            if not any(_loose("".join(c.pieces)) == _loose(code) for code in c.codes):
                errors.append(f"pieces {c.pieces} do not join to an expected code")
        elif not any(code in visible for code in c.codes):
            errors.append(f"no expected code {c.codes} appears as written in subject/text/visible HTML")
        for code in c.codes:
            if _loose(code) not in _loose(visible):
                errors.append(f"code alternative {code!r} not in the visible content")
            if not re.fullmatch(r"[A-Za-z0-9]+(?:[ -][A-Za-z0-9]+)?", code) or not re.search(r"\d", code):
                errors.append(f"code {code!r} is not a plausible code")

    # further answers: a further code needs a primary code, a further link a primary link
    if (c.also_codes and not c.codes) or (c.also_links and not c.links):
        errors.append("also_codes / also_links without a primary")
    for code in c.also_codes:
        if code in c.codes or _loose(code) not in _loose(visible):
            errors.append(f"also_code {code!r} is a primary or not in the visible content")
        if not re.fullmatch(r"[A-Za-z0-9]+(?:[ -][A-Za-z0-9]+)?", code) or not re.search(r"\d", code):
            errors.append(f"also_code {code!r} is not a plausible code")
    for link in c.also_links:
        if link in c.links or (link not in hrefs and link not in text_urls):
            errors.append(f"also_link is a primary or not found exactly: {link[:80]}")

    # links: exactly an href (entities decoded once) or a URL of the text part
    for link in c.links:
        if link not in hrefs and link not in text_urls:
            errors.append(f"expected link not found exactly: {link[:80]}")
        if not link.startswith(("http://", "https://")):
            errors.append(f"expected link is not http(s): {link[:80]}")

    # never-strings: real decoys, never one of the expected answers
    loose_everything = _loose(everything)
    bare_everything = _bare(everything)
    for item in c.never_list:
        if item not in everything and _loose(item) not in loose_everything and _bare(item) not in bare_everything:
            errors.append(f"never-string {item!r} does not occur in the message")
        if any(_loose(item) == _loose(code) for code in [*c.codes, *c.also_codes]) or item in [
            *c.links,
            *c.also_links,
        ]:
            errors.append(f"never-string {item!r} is also expected")

    # a case that expects no link must hold no unlisted link that might read as an action link
    if not c.links:
        for href, label in [*r.links, *((u, "") for u in text_urls)]:
            if href.startswith("http") and (_INTENT.search(href) or _INTENT.search(label)) and href not in c.never_list:
                errors.append(f"unlisted intent-looking link in a no-link case: {label!r} {href[:90]}")
    return seen, errors


def coverage(rows: list[tuple[Case, Seen]]) -> str:
    def table(title: str, counter: Counter[str]) -> str:
        lines = [f"| {title} | files |", "|---|---:|"]
        lines += [f"| {key} | {n} |" for key, n in sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))]
        return "\n".join(lines)

    by_lang = Counter((c.lang, c.kind) for c, _ in rows)
    langs = sorted({c.lang for c, _ in rows}, key=lambda lang: (-sum(by_lang[lang, k] for k in KINDS), lang))
    matrix = ["| language | " + " | ".join(KINDS) + " | total |", "|---|" + "---:|" * (len(KINDS) + 1)]
    for lang in [*langs, "all"]:
        counts = [sum(n for (lg, k), n in by_lang.items() if k == kind and lang in (lg, "all")) for kind in KINDS]
        matrix.append(f"| {lang} | " + " | ".join(map(str, counts)) + f" | {sum(counts)} |")
    charsets = Counter(
        cs or "(none)" for _, s in rows for cs in {cs for ct, cs, _ in s.leaves if ct.startswith("text/")}
    )
    ctes = Counter(cte for _, s in rows for cte in {cte for _, _, cte in s.leaves})
    tops = Counter(s.top for _, s in rows)
    bodies = Counter(
        "+".join(sorted({ct for ct, _, _ in s.leaves if ct in ("text/plain", "text/html")})) for _, s in rows
    )
    subj = Counter(s.subject_enc.split(":")[0] if "/" not in s.subject_enc else "mixed" for _, s in rows)
    subj_cs = Counter(
        w.split(":")[1].upper() for _, s in rows if s.subject_enc != "plain" for w in s.subject_enc.split("/")
    )
    parts = [
        "\n".join(matrix),
        table("charset of text parts", charsets),
        table("transfer encoding (files using it)", ctes),
        table("top-level type", tops),
        table("readable bodies", bodies),
        table("subject encoding", subj),
        table("encoded-word charset", subj_cs),
    ]
    return "\n\n".join(parts)


def main() -> int:
    expected: list[dict[str, Any]] = []
    rows: list[tuple[Case, Seen]] = []
    failures: list[str] = []
    names: set[str] = set()
    for index, (lang, kind, why, opts, fn) in enumerate(CASES):
        c = Case(fn.__name__, lang, kind, why, index, dict(opts))
        fn(c)
        try:
            data = c.to_bytes()
        except (UnicodeError, ValueError) as exc:
            raise SystemExit(f"{c.name}: cannot serialize: {exc}") from exc
        if c.name in names:
            failures.append(f"{c.name}: duplicate name")
        names.add(c.name)
        (HERE / f"{c.name}.eml").write_bytes(data)
        expected.append(c.expected())
        seen, errors = check(c, data)
        failures += [f"{c.name}: {e}" for e in errors]
        rows.append((c, seen))
    for stale in HERE.glob("*.eml"):
        if stale.stem not in names:
            stale.unlink()
    (HERE / "expected.json").write_text(json.dumps(expected, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")

    positives = sum(c.kind != "negative" for c, _ in rows)
    negatives = len(rows) - positives
    languages = {c.lang for c, _ in rows}
    print(coverage(rows))
    print(f"\n{len(rows)} files: {positives} positives, {negatives} negatives, {len(languages)} languages")
    if positives < MIN_POSITIVES or negatives < MIN_NEGATIVES or len(languages) < MIN_LANGUAGES:
        failures.append(f"coverage below the floor ({MIN_POSITIVES}/{MIN_NEGATIVES}/{MIN_LANGUAGES})")
    if failures:
        print("\nSELF-CHECK FAILED:", *failures, sep="\n  ", file=sys.stderr)
        return 1
    print("self-check passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
