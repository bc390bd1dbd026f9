# ruff: noqa: RUF001 - link texts in many languages: a dotless i is meant
"""HTML rendered to the text a reader sees, plus its links: pure, bounded, built on lexbor.

One pass over a lexbor tree (selectolax), most of it in C:

1. the markup is bounded (:data:`MAX_HTML_CHARS`, :data:`MAX_HTML_TAGS`, :data:`MAX_HTML_DEPTH`,
   and the formatting it would re-create: :mod:`gateway.mail.htmlcost`),
   its ``<head>`` and comments are dropped, and the start tags whose inline style matters are
   marked (found by fast string search, not by CSS matching on every element);
2. what a reader never sees is removed: ``<style>``, ``<script>``, ``<template>``, ``<svg>`` ...
   and elements styled ``display:none``, ``visibility:hidden``, ``max-height:0``,
   ``font-size:0``/``1px``, ``opacity:0`` or carrying the ``hidden`` attribute (preheaders);
3. links (``<a href>``) are read with their visible text, and headings and large or
   letter-spaced elements (where mail shows its code) with theirs;
4. inline elements are unwrapped and adjacent text merged, so ``G-<span>77</span><span>4102</span>``
   reads ``G-774102``; every element left (blocks, cells, ``<br>``) separates lines;
5. whitespace is collapsed as a browser does, zero-width characters are dropped, and runs of
   one-character lines (one digit per table cell or per inline-block box) are joined.

Entities are decoded by the parser (``&amp;`` in text and in ``href`` alike).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, NamedTuple

from selectolax.lexbor import LexborDocumentOptions, LexborHTMLParser, LexborNode

from gateway.mail.htmlcost import lowercase, parse_cost

__all__ = [
    "MAX_ANCHORS",
    "MAX_HTML_CHARS",
    "MAX_HTML_DEPTH",
    "MAX_HTML_TAGS",
    "ZERO_WIDTH",
    "Anchor",
    "Rendered",
    "render",
    "visible_text",
    "without_zero_width",
]

MAX_HTML_CHARS: Final = 1_000_000
"""Characters of HTML given to the parser; the rest is not read."""

MAX_HTML_TAGS: Final = 40_000
"""Tags (``<`` characters) parsed; a 1 MB newsletter has about 30,000. The rest is not read."""

MAX_HTML_DEPTH: Final = 512
"""Element nesting followed (Chromium's parser stops at 512 too); real mail nests 10 to 40 deep.

Deeper mark-up is cut where it gets that deep: lexbor, like every HTML tree builder, scans
the stack of open elements on many tags, so 100,000 nested ``<div>`` cost it 20 s.
"""

MAX_ANCHORS: Final = 500
"""``<a href>`` elements read; real mail has a few dozen, the rest are ignored."""

ZERO_WIDTH: Final = "\u200b\u200c\u200d\u2060\ufeff\u00ad\u034f\u180e\u2061\u2062\u2063\u2064"
"""Characters a reader never sees (zero-width space/joiners, BOM, soft hyphen, CGJ): dropped."""


def _words(block: str) -> frozenset[str]:
    return frozenset(block.split())


def _phrases(block: str) -> frozenset[str]:
    return frozenset(phrase.strip() for phrase in block.split("|"))


class Anchor(NamedTuple):
    """One ``<a href>`` as written (entities decoded), with the text a reader clicks on.

    (A NamedTuple, not a dataclass: a newsletter has dozens, and tuples are built 3x faster.)
    """

    href: str
    text: str
    """Visible text, whitespace collapsed; the image ``alt`` (or ``title``) when there is no text."""
    button: bool
    """Styled as a call to action (background, padding or a button class)."""


@dataclass(frozen=True, slots=True)
class Rendered:
    """An HTML part as a reader sees it."""

    text: str
    """Lines separated by ``\\n`` (blocks, cells, ``<br>``), spaces collapsed within a line."""
    anchors: tuple[Anchor, ...]
    emphasized: frozenset[str]
    """Short texts of headings and of large or letter-spaced elements: where mail shows its code."""


def visible_text(html: str) -> str:
    """The HTML rendered to text the way a reader sees it (hidden parts left out), one block a line."""
    return render(html).text


def render(html: str) -> Rendered:
    """Render ``html`` to visible text, its links and its emphasized texts; never raises."""
    html = _without_comments(_without_head(html[:MAX_HTML_CHARS]))
    # Lowered once for the bounds and the marks, unless "İ" (its lower case is two characters
    # long) makes the copy longer, or the bounds cut the mark-up.
    lowered = lowercase(html)
    bounded = _bounded(html, lowered)
    html = _marked(bounded, lowered if len(bounded) == len(html) == len(lowered) else None)
    tree = LexborHTMLParser(html, options=LexborDocumentOptions.WO_EVENTS)
    root = tree.root
    if root is None:
        return Rendered(text="", anchors=(), emphasized=frozenset())

    emphasized: list[LexborNode] = []
    kept_blocks: set[int] = set()
    if _MARK in html:
        for node in tree.css(f"[{_MARK}]"):
            mark = node.attrs.get(_MARK)
            if mark == _HIDDEN:
                node.decompose()  # a descendant met later is already detached: decomposing it is a no-op
            elif mark == _EMPHASIS:
                emphasized.append(node)
            elif mark == _AS_BLOCK:
                kept_blocks.add(node.mem_id)

    noise: list[LexborNode] = []
    unwrap: list[LexborNode] = []
    anchors: list[LexborNode] = []
    for node in root.traverse():
        tag_id = node.tag_id
        if tag_id in _BLOCK_IDS:
            if tag_id in _EMPHASIS_IDS:
                emphasized.append(node)
        elif tag_id in _NOISE_IDS:
            noise.append(node)
        else:
            if tag_id == _A_ID:
                anchors.append(node)
            if not kept_blocks or node.mem_id not in kept_blocks:
                unwrap.append(node)
    for node in noise:
        node.decompose()

    # Read before unwrapping: an unwrapped element leaves the tree. Anything inside a removed
    # element is detached (no parent) and skipped; unwrapping it is a no-op.
    links = tuple(a for a in map(_anchor, (n for n in anchors[:MAX_ANCHORS] if n.parent)) if a is not None)
    strong = frozenset(
        text
        for text in (_collapse(n.text(separator="")[:80]) for n in emphasized[:_MAX_EMPHASIZED] if n.parent)
        if 0 < len(text) <= 40
    )
    for node in unwrap:
        node.unwrap()
    tree.merge_text_nodes()
    # Whitespace-only text left after merging lies between blocks: it is no text a reader reads.
    return Rendered(text=_lines(root.text(separator=_SEP, skip_empty=True)), anchors=links, emphasized=strong)


# --- bounds --------------------------------------------------------------------------------

_SEP: Final = "\x00"  # between the texts of two elements that stay (blocks); lexbor drops NUL from text

_MAX_RECREATED_CHARS: Final = 1_000_000
"""Characters of formatting mark-up the tree builder would re-create (see :mod:`gateway.mail.htmlcost`).

A million cost lexbor about 0.1 s; real mail, sloppy mail included, re-creates a few thousand."""

_MAX_ATTRIBUTES: Final = 1000
"""Attributes on one element; real mail puts a dozen at most."""


def _bounded(html: str, lowered: str | None = None) -> str:
    """``html`` cut where it passes a parsing bound: tags, depth, re-created formatting, attributes.

    Always scanned (about a third of the rendering time of a typical mail): a few hundred tags
    with long attributes, left open, already cost seconds when re-created in every paragraph.
    """
    cost = parse_cost(
        html,
        max_depth=MAX_HTML_DEPTH,
        max_recreated=_MAX_RECREATED_CHARS,
        max_attributes=_MAX_ATTRIBUTES,
        max_tags=MAX_HTML_TAGS,
        lowered=lowered,
    )
    return html if cost is None else html[: cost.at]


_HEAD_START: Final = re.compile(r"<head[\s>]", re.IGNORECASE)
_HEAD_END: Final = re.compile(r"</head\s*>", re.IGNORECASE)
_BODY_START: Final = re.compile(r"<body[\s>]", re.IGNORECASE)


def _without_head(html: str) -> str:
    """``html`` from its ``</head>`` on: the head (often 10 KB of CSS) shows nothing, so it is not parsed."""
    end = _HEAD_END.search(html, 0, 300_000)
    if end is None or not _HEAD_START.search(html, 0, end.start()) or _BODY_START.search(html, 0, end.start()):
        return html  # no head, or a body inside it: malformed, left to the parser
    return html[end.end() :]


def _without_comments(html: str) -> str:
    """``html`` without ``<!-- ... -->``: a comment left in the tree would split "a<!-- -->b" in two.

    Conditional comments go too (``<!--[if mso]>`` content is Outlook's alone); what
    ``<!--[if !mso]><!-->`` shows to everyone else stays. An unclosed comment is left to the
    parser (inside a ``<script>`` it is no comment at all).
    """
    if "<!--" not in html:
        return html
    kept: list[str] = []
    pos = 0
    while (start := html.find("<!--", pos)) >= 0:
        if html.startswith(">", start + 4) or html.startswith("->", start + 4):  # "<!-->", "<!--->"
            end = html.find(">", start + 4) + 1
        else:
            close = html.find("-->", start + 4)
            if close < 0:
                break
            end = close + 3
        kept.append(html[pos:start])
        pos = end
    kept.append(html[pos:])
    return "".join(kept)


# --- what a reader never sees, and what stands out ------------------------------------------

# The inline styles that matter are found in the HTML string itself (fast: each pattern starts
# with a literal), and the start tag that carries one gets a marker attribute; one CSS query then
# finds the marked elements in the tree. Asking lexbor to match [style*=...] on every element
# costs ten times more.
_MARK: Final = "data-agentmail-x"
_HIDDEN, _AS_BLOCK, _EMPHASIS = "h", "b", "e"
_STYLE_MARKERS: Final = (
    re.compile(r"display\s*:\s*(?:none|block|flex|grid|table|list-item)"),
    re.compile(r"visibility\s*:\s*(?:hidden|collapse)"),
    re.compile(r"max-height\s*:\s*0(?![.\d])"),
    re.compile(r"font-size\s*:\s*(?:0|1px|[2-9]\d(?:\.\d+)?px|[1-9]\d\d(?:\.\d+)?px)(?![.\d])"),
    re.compile(r"opacity\s*:\s*0(?:\.0+)?(?![.\d])"),
    re.compile(r"letter-spacing\s*:\s*[1-9.]"),
    re.compile(r" hidden"),
)
_PRIORITY: Final = {_HIDDEN: 3, _AS_BLOCK: 2, _EMPHASIS: 1}
_HIDDEN_ATTRIBUTE: Final = re.compile(r"\shidden(?:[\s/=]|$)")
_QUOTED: Final = re.compile(r"\"[^\"]*\"|'[^']*'")
_TAG_NAME: Final = re.compile(r"<([a-z][^\s/>]*)")
_MAX_MARKS: Final = 2000  # style occurrences examined; a heavy 1 MB template has a few hundred
_TAG_REACH: Final = 4096  # characters between a tag's "<" and a style in it (data: URIs aside)


def _marked(html: str, lowered: str | None = None) -> str:
    """``html`` with :data:`_MARK` on start tags styled hidden, as a block, large or letter-spaced.

    ``lowered``: ``html.lower()``, when the caller has it and ``html`` holds no "İ".
    """
    # Inline styles live in <body>: the <head> (often 10 KB of CSS) is not searched.
    if lowered is None:
        lowered = lowercase(html.replace("\u0130", "I"))  # same length as html: offsets match
    body = max(0, lowered.find("<body"))
    marks: dict[int, tuple[int, str]] = {}  # tag start -> (where the mark goes, which mark)
    examined = 0
    for pattern in _STYLE_MARKERS:
        for found in pattern.finditer(lowered, body):
            examined += 1
            if examined > _MAX_MARKS:
                break
            # Style attributes sit near their tag's "<": look back a bounded way only.
            start = lowered.rfind("<", max(0, found.start() - _TAG_REACH), found.start())
            name = _TAG_NAME.match(lowered, start) if start >= 0 else None
            if name is None or lowered.find(">", start, found.end()) >= 0:
                continue  # not inside a start tag: text, or CSS in a <style> block
            mark = _mark_of(found.group(), name.group(1), lowered, name.end())
            if mark is not None and (start not in marks or _PRIORITY[mark] > _PRIORITY[marks[start][1]]):
                marks[start] = (name.end(), mark)
    if not marks:
        return html
    pieces: list[str] = []
    pos = 0
    for at, mark in sorted(marks.values()):
        pieces.append(html[pos:at])
        pieces.append(f' {_MARK}="{mark}"')
        pos = at
    pieces.append(html[pos:])
    return "".join(pieces)


def _mark_of(style: str, tag: str, lowered: str, attributes_at: int) -> str | None:
    """The mark one style declaration (``display:none``, ``font-size:24px`` ...) gives its tag."""
    if style == " hidden":  # the attribute, not "overflow: hidden"
        end = lowered.find(">", attributes_at, attributes_at + _TAG_REACH)
        attributes = _QUOTED.sub('""', lowered[attributes_at : end if end >= 0 else attributes_at])
        return _HIDDEN if _HIDDEN_ATTRIBUTE.search(attributes) else None
    if style.startswith("display"):
        if style.endswith("none"):
            return _HIDDEN
        return _AS_BLOCK if tag not in _BLOCK_NAMES else None  # an inline element shown as a block
    if style.startswith("letter-spacing"):
        return _EMPHASIS
    if style.startswith("font-size") and not (style.endswith(("0", "1px"))):
        return _EMPHASIS  # 20px and up
    return _HIDDEN  # visibility:hidden, max-height:0, font-size:0 or 1px, opacity:0


# --- structure -----------------------------------------------------------------------------


def _tag_ids(names: str) -> frozenset[int]:
    """lexbor's ids of the named tags (stable constants of the library), each read off a tiny document.

    One document per tag, tried in the places the parser accepts it (table parts only inside a
    table): in one shared document the parser drops tags that land where they may not stand,
    so which ones survived depended on the order of the names (a set's, so on PYTHONHASHSEED).
    """
    ids = set()
    for name in names.split():
        for shell in ("{}", "<table>{}</table>", "<table><tr>{}</tr></table>"):
            tree = LexborHTMLParser(shell.format(f"<{name}></{name}>"))
            found = [node.tag_id for node in tree.root.traverse() if node.tag == name] if tree.root else []
            if found:
                ids.add(found[0])
                break
        else:
            raise LookupError(f"lexbor has no tag {name!r}")
    return frozenset(ids)


# Elements that end a line. Everything else (span, a, b, font, unknown tags, o:p ...) is inline
# and unwrapped, as browsers render unknown elements inline.
_BLOCK_NAMES: Final = _words(
    """html body address article aside blockquote br caption center dd details dialog dir div dl dt
    fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr legend li main menu
    nav ol p pre section summary table tbody td tfoot th thead tr ul option textarea button"""
)
_BLOCK_IDS: Final = _tag_ids(" ".join(_BLOCK_NAMES))
# What a reader never sees: removed with everything inside.
_NOISE_IDS: Final = _tag_ids("head title style script template iframe object embed svg math noembed noframes")
# Headings stand out; so do elements styled large or letter-spaced (marked in _marked). Not
# <b>/<strong>: a newsletter bolds dozens of words, and a bold code sits next to its keyword.
_EMPHASIS_IDS: Final = _tag_ids("h1 h2 h3")
_A_ID: Final = next(iter(_tag_ids("a")))
_IMG_ID: Final = next(iter(_tag_ids("img")))
_MAX_LABEL: Final = 200  # characters of a link's text kept: a label, not a page
_MAX_EMPHASIZED: Final = 200


def _anchor(node: LexborNode) -> Anchor | None:
    """The link of one ``<a>``, or None without ``href``."""
    attrs = node.attributes
    href = attrs.get("href")
    if not href:
        return None
    text = _collapse(node.text(separator="")[:_MAX_LABEL])[:_MAX_LABEL]
    if not text:  # an image button: its alt text is what a reader is told
        alt = next((n.attributes.get("alt") for n in node.traverse() if n.tag_id == _IMG_ID), None)
        text = _collapse((alt or attrs.get("title") or "")[:_MAX_LABEL])
    elif text.lower().strip(" .!:>»→") in _GENERIC_LABELS:
        text = _sentence(node) or text  # "To verify your address, <a>click here</a>."
    style = (attrs.get("style") or "").lower()
    kind = (attrs.get("class") or "").lower()
    button = "background" in style or "padding" in style or "btn" in kind or "button" in kind
    return Anchor(href, text, button)


# Link texts that say nothing: the sentence around them says what the link does.
_GENERIC_LABELS: Final = _phrases(
    """click here|here|this link|link|click|tap here|press here|click this link|follow this link|open link
    |hier|hier klicken|klicken sie hier|ici|cliquez ici|aquí|aqui|haz clic aquí|haga clic aquí|clique aqui|qui
    |clicca qui|klik hier|здесь|сюда|по ссылке|ссылке|tutaj|kliknij tutaj|kliknij|buraya|buraya tıklayın
    |这里|點擊這裡|点击这里|点击此处|此处|ここ|こちら|ここをクリック|여기|이곳|여기를 클릭|di sini|klik di sini|sini
    |tại đây|nhấn vào đây|här|klicka här|her|klik her|tästä|klikkaa tästä|zde|klikněte zde|itt|kattints ide|ide
    |aici|faceți clic aici|εδώ|πατήστε εδώ|тут|натисніть тут"""
)


def _sentence(node: LexborNode) -> str:
    """The text of the block around ``node`` (its paragraph or cell), if short enough to be one."""
    block = node.parent
    for _ in range(4):
        if block is None or block.tag_id in _BLOCK_IDS:
            break
        block = block.parent
    text = _collapse(block.text(separator="")[: 2 * _MAX_LABEL]) if block is not None else ""
    return text if len(text) <= _MAX_LABEL else ""


# --- text ----------------------------------------------------------------------------------

# A run of 4 to 10 one-character lines, neither preceded nor followed by another one:
# one digit per table cell or per inline-block box, which a reader reads as one code.
# The pattern opens with the newline (a literal the engine searches fast), not a look-behind for it.
_CELL_RUN: Final = re.compile(r"\n(?<![\n][^\W_]\n)([^\W_](?:\n[^\W_]){3,9})(?=\n)(?!\n[^\W_]\n)")
_ONE_CHAR_LINE: Final = re.compile(r"\n[^\W_]\n")


def without_zero_width(text: str) -> str:
    """``text`` without the characters of :data:`ZERO_WIDTH`.

    One ``str.replace`` per character present: ``str.translate`` costs ~50 ns a character.
    """
    if text.isascii():
        return text
    for char in ZERO_WIDTH:
        if char in text:
            text = text.replace(char, "")
    return text


def _collapse(text: str) -> str:
    return " ".join(without_zero_width(text).split())


def _lines(raw: str) -> str:
    """lexbor's text (elements separated by ``_SEP``) as lines, the way a reader reads them.

    Whitespace collapses as in a browser, NBSP included (a reader sees a space either way).
    """
    text = " ".join(without_zero_width(raw).split()).replace(f" {_SEP}", _SEP).replace(f"{_SEP} ", _SEP)
    text = "\n".join(filter(None, text.split(_SEP)))
    if _ONE_CHAR_LINE.search(f"\n{text}\n"):
        text = _CELL_RUN.sub(_join_cells, f"\n{text}\n")[1:-1]
    return text


def _join_cells(match: re.Match[str]) -> str:
    run = match.group(1).replace("\n", "")
    return "\n" + (run if any(c.isdigit() for c in run) else match.group(1))
