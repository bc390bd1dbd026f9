"""Hostile HTML made safe for a human to look at: pure, bounded, built on nh3 (ammonia + html5ever).

Agents get the raw HTML; the ``/ui`` viewer shows this instead. It is the first of three
independent layers (sanitizer, Content-Security-Policy, sandboxed iframe), and it must stop
every script and every request on its own. So nothing is trusted to a block-list: the
output holds only the elements and attributes listed here, and **no attribute that carries
a URL** (absolute, relative or ``//host`` alike: nh3 keeps relative URLs whatever its
``url_schemes`` say, so those attributes are simply never allowed).

Two nh3 passes, the second being the one that decides:

1. **Read.** nh3 parses the mail as a browser would and keeps the allow-list plus ``<a>``,
   ``<img>``, ``<input>``, ``<video>``, ``<audio>``, ``<source>`` with their URL attributes.
   Its ``attribute_filter`` callback records every URL (images and other resources go to
   :attr:`Sanitized.blocked`) and writes a short numeric token in its place. ``script``,
   ``style``, ``iframe``, ``svg``, ``math``, ``template``, ``noscript``, ``object``, ``form``
   ... are dropped with their contents, comments too.
2. **Show.** In that output (html5ever's serialization: every ``<`` and ``>`` in text and in
   attribute values is escaped, every value is double-quoted) each ``<a>`` becomes a
   ``<span>`` followed by its URL as text (``Confirm [https://...]``) and each image a
   placeholder naming its source (``[image "Logo" blocked: https://...]``). Presentation
   only: the result goes through
3. **Clean.** nh3 again, with the final allow-lists: no URL attribute at all, no ``id`` or
   ``name`` (DOM clobbering), no event handler, no ``class`` but the two this module writes,
   and inline ``style`` reduced to :data:`ALLOWED_CSS_PROPERTIES`. nh3 keeps hostile *values*
   of an allowed property (``color:expression(...)``, ``background:image-set(...)``, and it
   turns ``\\75 rl(`` into ``url(``), so a style whose filtered value still holds a URL,
   a backslash, an at-rule or any CSS function but colour and arithmetic ones is dropped whole.

Mail classes are dropped: the ``<style>`` blocks they refer to are gone (they are where
``@import``, ``@font-face`` and ``url()`` live), so a class could only borrow the viewer's
own look, such as the placeholders'. The output may be put in an ``<iframe srcdoc="...">``
once escaped as an attribute value.

**Bounds.** Mark-up can be built to stall any HTML tree builder (deep nesting, formatting
re-opened in every paragraph, thousands of attributes on one tag, long runs of character
references), so before nh3 sees a mail it is held to :data:`MAX_SANITIZE_BYTES`,
:data:`MAX_CHARACTER_REFERENCES`, and, by one linear scan of its tags, :data:`MAX_DEPTH`,
:data:`MAX_RECREATED_CHARS` and :data:`MAX_ATTRIBUTES`; the first pass's output is held to
:data:`MAX_EXPANDED_CHARS`. Past any bound the HTML is refused with a sentence saying why.
The scan decides cost, never safety. Every regular expression here starts with a literal or
has bounded repetition, so none rescans a long run of text from each of its positions.
"""

from __future__ import annotations

import html as html_escaping
import re
from dataclasses import dataclass
from itertools import islice
from typing import Final

import nh3

from gateway.mail.htmlcost import parse_cost

__all__ = [
    "ALLOWED_ATTRIBUTES",
    "ALLOWED_CSS_PROPERTIES",
    "ALLOWED_TAGS",
    "BLOCKED_CLASS",
    "DROPPED_WITH_CONTENTS",
    "LINK_CLASS",
    "MAX_ATTRIBUTES",
    "MAX_BLOCKED",
    "MAX_CHARACTER_REFERENCES",
    "MAX_DEPTH",
    "MAX_EXPANDED_CHARS",
    "MAX_RECREATED_CHARS",
    "MAX_SANITIZE_BYTES",
    "MAX_SHOWN_LINKS",
    "MAX_URL_CHARS",
    "Sanitized",
    "sanitize_html",
]

MAX_SANITIZE_BYTES: Final = 512 * 1024
"""UTF-8 bytes of HTML accepted; a larger part is refused, not cut (a cut table misleads)."""

MAX_DEPTH: Final = 512
"""Elements open at once (as counted by a quick scan of the tags); deeper mark-up is refused.

Real mail nests 10 to 40 deep. html5ever, like every HTML tree builder, scans the stack of
open elements on most block tags: 100,000 nested ``<div>`` cost it 25 s, 512 levels 80 ms.
"""

MAX_RECREATED_CHARS: Final = 1_000_000
"""Characters of mark-up the tree builder would re-create (as estimated by a quick scan); more is refused.

An unclosed ``<b>``, ``<font>`` or ``<a href=...>`` is re-opened, attributes and all, in every
following paragraph (the "active formatting elements" of the HTML standard): 300 distinct
ones ahead of 100,000 paragraphs would cost html5ever minutes and gigabytes. A million
characters (at most about 110,000 elements) cost it a tenth of a second; real mail, sloppy
mail included, re-creates a few thousand.
"""

MAX_ATTRIBUTES: Final = 1000
"""Attributes on one element (as counted by a quick scan); more is refused.

html5ever compares each attribute with every one before it on the element: 60,000 on one tag
cost it seconds. Real mail puts a dozen at most.
"""

MAX_EXPANDED_CHARS: Final = 4 * MAX_SANITIZE_BYTES
"""Characters of HTML after the first pass; more is refused.

A backstop behind :data:`MAX_RECREATED_CHARS`: real mail shrinks when parsed (head, ``<style>``
and comments go), and escaping adds little (:data:`MAX_CHARACTER_REFERENCES`).
"""

MAX_CHARACTER_REFERENCES: Final = 30_000
"""``&`` and U+00A0 characters accepted, in the mail, and ``&`` again after the first pass (where
``<``, ``>`` and U+00A0 in text become ``&lt;``, ``&gt;``, ``&nbsp;``); more is refused.

html5ever slows quadratically on many references in one text or attribute: 50,000 ``&nbsp;``
in one paragraph cost it half a second, 500,000 ten seconds. Real mail has a few thousand.
"""

MAX_BLOCKED: Final = 50
"""Distinct blocked resource URLs reported in :attr:`Sanitized.blocked`; the rest are still blocked."""

MAX_URL_CHARS: Final = 512
"""Characters of a URL shown (as text, and in :attr:`Sanitized.blocked`); a longer one ends in "…"."""

MAX_SHOWN_LINKS: Final = 1000
"""Links whose URL is written out after their text; later links show their text only.

Real mail has a few hundred at most; the tree builder can clone one ``<a>`` into many paragraphs.
"""

LINK_CLASS: Final = "link"
"""Class of the ``<span>`` holding a link's URL as text, for the viewer's stylesheet."""

BLOCKED_CLASS: Final = "blocked-image"
"""Class of the ``<span>`` standing for a blocked image, video or audio, for the viewer's stylesheet."""


def _words(block: str) -> frozenset[str]:
    return frozenset(block.split())


ALLOWED_TAGS: Final = _words(
    """p div span br hr wbr h1 h2 h3 h4 h5 h6
    b i u s strike strong em small big sub sup mark tt kbd samp var code pre
    blockquote q cite dfn abbr acronym del ins bdi bdo ruby rt rp time
    ul ol li dl dt dd details summary center font address article section header footer main nav aside figure figcaption
    table thead tbody tfoot tr td th caption colgroup col"""
)
"""Text, structure and table elements: none loads anything, runs anything or takes input."""

DROPPED_WITH_CONTENTS: Final = _words(
    """script style iframe frame frameset noframes noembed noscript object embed applet
    svg math template title head xmp plaintext textarea select option optgroup datalist
    form canvas portal"""
)
"""Elements removed with everything inside: code, CSS, embedded documents, foreign (SVG,
MathML) content, raw-text elements behind most mutation XSS, and form controls whose text
is no message text. Every other unlisted element is unwrapped: its text stays."""

_GLOBAL_ATTRIBUTES: Final = _words("style title lang dir align")
_CELL_ATTRIBUTES: Final = _words("colspan rowspan valign width height bgcolor nowrap scope abbr")
_ROW_ATTRIBUTES: Final = _words("valign bgcolor height")

ALLOWED_ATTRIBUTES: Final[dict[str, frozenset[str]]] = {
    "*": _GLOBAL_ATTRIBUTES,
    "table": _words("width height border cellpadding cellspacing bgcolor summary frame rules"),
    "thead": _ROW_ATTRIBUTES,
    "tbody": _ROW_ATTRIBUTES,
    "tfoot": _ROW_ATTRIBUTES,
    "tr": _ROW_ATTRIBUTES,
    "td": _CELL_ATTRIBUTES,
    "th": _CELL_ATTRIBUTES,
    "col": _words("span width valign"),
    "colgroup": _words("span width valign"),
    "font": _words("color size face"),
    "hr": _words("size width noshade color"),
    "br": _words("clear"),
    "ol": _words("start type reversed"),
    "ul": _words("type"),
    "li": _words("value type"),
    "blockquote": _words("type"),
    "details": _words("open"),
}
"""Attributes kept, by element (``*``: on all): presentation only; not one carries a URL."""

ALLOWED_CSS_PROPERTIES: Final = _words(
    """color background background-color opacity
    font font-family font-size font-style font-weight font-variant line-height letter-spacing word-spacing
    text-align text-decoration text-transform text-indent text-overflow white-space vertical-align direction
    word-break word-wrap overflow-wrap
    padding padding-top padding-right padding-bottom padding-left
    margin margin-top margin-right margin-bottom margin-left
    border border-top border-right border-bottom border-left border-color border-style border-width border-radius
    border-top-color border-right-color border-bottom-color border-left-color
    border-top-style border-right-style border-bottom-style border-left-style
    border-top-width border-right-width border-bottom-width border-left-width
    border-collapse border-spacing table-layout caption-side empty-cells
    width height min-width max-width min-height max-height
    display visibility overflow list-style-type list-style-position"""
)
"""Inline CSS properties kept: colours, type, boxes and tables. Nothing that positions over the
page (``position``, ``z-index``), nothing whose value is an image or a resource
(``background-image``, ``list-style-image``, ``content``, ``cursor``, ``border-image``,
``mask``, ``filter``, ``behavior``, ``-moz-binding``). ``background`` is kept for the
everyday ``background:#f4f4f4``; a value with ``url(`` loses the whole style (see module doc)."""

_SAFE_CSS_FUNCTIONS: Final = _words("rgb rgba hsl hsla calc min max clamp linear-gradient radial-gradient")
_HOSTILE_CSS: Final = ("\\", "//", "@", "url(", "expression", "image-set", "-moz-binding", "behavior", "script:")
_CSS_NAME_CHARS: Final = "abcdefghijklmnopqrstuvwxyz0123456789_-"
_SCRIPT_URL: Final = re.compile(r"(?:java|vb|live)script\s*:", re.IGNORECASE)

# First pass only: the elements and attributes that carry what is shown as text or reported.
_LINK_OR_MEDIA_TAGS: Final = _words("a img input video audio source")
_READ_ATTRIBUTES: Final[dict[str, frozenset[str]]] = {
    **ALLOWED_ATTRIBUTES,
    "*": _GLOBAL_ATTRIBUTES | {"background"},
    "a": frozenset({"href"}),
    "img": _words("src srcset lowsrc dynsrc alt"),
    "input": _words("type src alt"),
    "video": _words("src poster"),
    "audio": frozenset({"src"}),
    "source": _words("src srcset"),
}
# Schemes the first pass lets through to the callback, so that a link shows where it went
# (javascript: included: as text it is harmless and tells the reader what the mail tried).
_READ_URL_SCHEMES: Final = _words(
    """http https mailto tel sms cid mid data javascript vbscript ftp ftps sftp file blob about
    ws wss webcal callto skype sip sips news nntp irc ircs geo magnet market intent"""
)
_TOKENIZED: Final = frozenset({"href", "src", "srcset", "alt", "poster"})  # read back by the rewrite
_REPORTED: Final = _words("src srcset lowsrc dynsrc poster background")  # resources a mail would load
_CSS_URL: Final = re.compile(
    r"""url\(\s{0,64}(?:"([^"]{0,2048})"|'([^']{0,2048})'|([^)\s]{0,2048}))""", re.IGNORECASE
)  # bounded: a value may repeat url( without ever closing it

_REWRITTEN_TAG: Final = re.compile(r"<(/?)(a|img|input|video|audio)(?=[\s/>])([^>]*)>")
_ATTRIBUTE: Final = re.compile(r'([^\s="/>]+)(?:="([^"]*)")?')
_UNSHOWN: Final = {
    c: "\ufffd" for c in [*range(0x20), *range(0x7F, 0xA0), *range(0x202A, 0x202F), *range(0x2066, 0x206A)]
}
_MAX_ALT_CHARS: Final = 300

_COSTLY: Final = {
    "attributes": (
        f"This HTML part has an element with more than {MAX_ATTRIBUTES:,} attributes (the sign of a "
        "mail built to stall readers), so it is not shown."
    ),
    "depth": (
        f"This HTML part nests elements more than {MAX_DEPTH} deep (the sign of a mail built "
        "to stall readers), so it is not shown."
    ),
    "formatting": (
        "This HTML part leaves so much formatting open that it would be repeated in every "
        "paragraph (the sign of a mail built to stall readers), so it is not shown."
    ),
    "growth": (
        f"This HTML part grows past {MAX_EXPANDED_CHARS // (1024 * 1024)} MB when parsed "
        "(the sign of a mail built to stall readers), so it is not shown."
    ),
    "references": (
        f"This HTML part holds more than {MAX_CHARACTER_REFERENCES:,} character references "
        "(such as &nbsp;), more than the viewer parses in good time, so it is not shown."
    ),
}
_MAX_SRCSET_CANDIDATES: Final = 8


@dataclass(frozen=True, slots=True)
class Sanitized:
    """An HTML part made safe to show to a human, or the reason it is not shown."""

    html: str
    """A safe HTML fragment (no scripts, no URLs in attributes); ``""`` when refused."""
    refused: str | None
    """A sentence for the reader saying why the HTML is not shown (too large, or built to stall
    the parser), else ``None``."""
    blocked: tuple[str, ...]
    """Image and resource URLs the mail would have loaded, in order, distinct, at most :data:`MAX_BLOCKED`."""


def sanitize_html(html: str) -> Sanitized:
    """``html`` reduced to the allow-lists, links and images shown as text; never raises."""
    html = _encodable(html)
    size = len(html) if html.isascii() else len(html.encode("utf-8"))
    if size > MAX_SANITIZE_BYTES:
        return Sanitized(
            html="",
            refused=(
                f"This HTML part is {_kib(size)} KB, more than the {MAX_SANITIZE_BYTES // 1024} KB "
                "the viewer sanitizes, so it is not shown."
            ),
            blocked=(),
        )
    if not html:
        return Sanitized(html="", refused=None, blocked=())
    references = html.count("&") + html.count("\xa0")  # html5ever writes U+00A0 back as &nbsp;
    if references > MAX_CHARACTER_REFERENCES:
        return Sanitized(html="", refused=_COSTLY["references"], blocked=())
    cost = parse_cost(html, max_depth=MAX_DEPTH, max_recreated=MAX_RECREATED_CHARS, max_attributes=MAX_ATTRIBUTES)
    if cost is not None:
        return Sanitized(html="", refused=_COSTLY[cost.bound], blocked=())

    reading = _Reading()
    read = nh3.clean(
        html,
        tags=set(ALLOWED_TAGS | _LINK_OR_MEDIA_TAGS),
        clean_content_tags=set(DROPPED_WITH_CONTENTS),
        attributes={tag: set(names) for tag, names in _READ_ATTRIBUTES.items()},
        attribute_filter=reading.attribute,
        strip_comments=True,
        link_rel=None,
        url_schemes=set(_READ_URL_SCHEMES),
        filter_style_properties=set(ALLOWED_CSS_PROPERTIES),
    )
    if len(read) > MAX_EXPANDED_CHARS:
        return Sanitized(html="", refused=_COSTLY["growth"], blocked=tuple(reading.blocked))
    if read.count("&") > MAX_CHARACTER_REFERENCES:
        return Sanitized(html="", refused=_COSTLY["references"], blocked=tuple(reading.blocked))
    shown = _REWRITTEN_TAG.sub(_Rewrite(reading.values), read)
    clean = nh3.clean(
        shown,
        tags=set(ALLOWED_TAGS),
        clean_content_tags=set(DROPPED_WITH_CONTENTS),
        attributes={tag: set(names) for tag, names in ALLOWED_ATTRIBUTES.items()},
        attribute_filter=_final_attribute,
        strip_comments=True,
        link_rel=None,
        url_schemes=set(),
        url_relative="deny",
        allowed_classes={"span": {LINK_CLASS, BLOCKED_CLASS}},
        filter_style_properties=set(ALLOWED_CSS_PROPERTIES),
    )
    return Sanitized(html=clean, refused=None, blocked=tuple(reading.blocked))


def _encodable(html: str) -> str:
    """``html`` with lone surrogates (from a lenient decode) as U+FFFD: nh3 takes only valid Unicode."""
    try:
        html.encode("utf-8")
    except UnicodeEncodeError:
        return html.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return html


def _kib(size: int) -> int:
    return -(-size // 1024)


def _shown_url(url: str) -> str:
    """``url`` as a reader may safely see it: controls and bidi overrides visible, length capped."""
    url = url.strip().translate(_UNSHOWN)
    return url if len(url) <= MAX_URL_CHARS else url[: MAX_URL_CHARS - 1] + "…"


class _Reading:
    """The first pass's ``attribute_filter``: tokenizes what the rewrite shows, records what was blocked."""

    __slots__ = ("blocked", "seen", "values")

    def __init__(self) -> None:
        self.values: list[str] = []
        self.blocked: list[str] = []
        self.seen: set[str] = set()

    def attribute(self, tag: str, name: str, value: str) -> str | None:
        if name == "style":
            if len(self.blocked) < MAX_BLOCKED and "url" in value.lower():
                for found in islice(_CSS_URL.finditer(value), MAX_BLOCKED):
                    self._block(found.group(1) or found.group(2) or found.group(3) or "")
            return value
        if tag not in _LINK_OR_MEDIA_TAGS and name != "background":
            return value
        if name == "srcset":
            candidates = [c.strip().partition(" ")[0] for c in value.split(",")[:_MAX_SRCSET_CANDIDATES]]
            for candidate in candidates:
                self._block(candidate)
            value = candidates[0]  # the one an image placeholder names when there is no src
        elif name in _REPORTED:
            self._block(value)
        if name in _TOKENIZED:
            self.values.append(value)
            return str(len(self.values) - 1)
        return value if name in _GLOBAL_ATTRIBUTES or name == "type" else None

    def _block(self, url: str) -> None:
        url = _shown_url(url)
        if url and url not in self.seen and len(self.blocked) < MAX_BLOCKED:
            self.seen.add(url)
            self.blocked.append(url)


class _Rewrite:
    """``re.sub`` callback over the first pass's output: links to text, media to placeholders."""

    __slots__ = ("links", "open_links", "values")

    def __init__(self, values: list[str]) -> None:
        self.values = values
        self.open_links: list[str | None] = []
        self.links = 0

    def __call__(self, match: re.Match[str]) -> str:
        closing, tag, attributes = match.groups()
        if tag == "a":
            if closing:
                return self._close_link()
            kept: list[str] = []
            href: str | None = None
            for name, value in _ATTRIBUTE.findall(attributes):
                if name == "href":
                    href = self._value(value)
                else:
                    kept.append(f' {name}="{value}"')
            self.open_links.append(href)
            return "<span" + "".join(kept) + ">"
        if closing:
            return match.group()  # </video>, </audio>: a stray end tag for the final pass to drop
        found = {
            name: value if name == "type" else self._value(value) for name, value in _ATTRIBUTE.findall(attributes)
        }
        if tag == "input" and (found.get("type") or "").lower() != "image":
            return ""  # a text field, a checkbox: nothing to show
        kind = "image" if tag in ("img", "input") else tag
        url = found.get("poster") or found.get("src") or found.get("srcset")
        alt = " ".join((found.get("alt") or "").split())[:_MAX_ALT_CHARS]
        label = f'{kind} "{alt}"' if alt else kind
        text = f"[{label} blocked: {_shown_url(url)}]" if url else f"[{label} blocked]"
        return f'<span class="{BLOCKED_CLASS}">{html_escaping.escape(text, quote=False)}</span>'

    def _value(self, token: str) -> str | None:
        """The attribute value the first pass replaced by ``token`` (html5ever escaped nothing in a number)."""
        return self.values[int(token)] if token.isdigit() and int(token) < len(self.values) else None

    def _close_link(self) -> str:
        href = self.open_links.pop() if self.open_links else None
        url = _shown_url(href) if href else ""
        if not url or self.links >= MAX_SHOWN_LINKS:
            return "</span>"
        self.links += 1
        return f'</span> <span class="{LINK_CLASS}">[{html_escaping.escape(url, quote=False)}]</span>'


def _final_attribute(tag: str, name: str, value: str) -> str | None:
    """The last pass's ``attribute_filter``: a style must be harmless CSS, no value may look like a URL."""
    if name == "class":
        return value  # nh3 keeps only LINK_CLASS and BLOCKED_CLASS, which the rewrite wrote
    if name == "style":
        return value if value.strip() and _harmless_css(value) else None
    return None if "//" in value or _SCRIPT_URL.search(value) else value


def _harmless_css(value: str) -> bool:
    """Whether a style nh3 already filtered to :data:`ALLOWED_CSS_PROPERTIES` loads and runs nothing."""
    compact = "".join(value.lower().split())
    if any(token in compact for token in _HOSTILE_CSS):
        return False
    # The name before each "(" (rstrip, not a regular expression: a long name must not be rescanned).
    for before in compact.split("(")[:-1]:
        name = before[len(before.rstrip(_CSS_NAME_CHARS)) :]
        if name and name not in _SAFE_CSS_FUNCTIONS:
            return False
    return True
