"""What an HTML part would cost a tree builder to parse, measured by one linear scan of its tags.

Mark-up can be built to stall any HTML tree builder (lexbor and html5ever alike): nesting
100,000 deep, formatting left open and re-created in every following paragraph (300
unclosed ``<b title=N>`` ahead of 40,000 ``<p>`` cost lexbor 22 s), or thousands of
attributes on one tag. Both readers of mail HTML, :mod:`gateway.mail.render` (for agents)
and :mod:`gateway.mail.sanitize` (for people), ask :func:`parse_cost` first: the first cuts
the mark-up where a bound is passed, the second refuses it. Pure; every regular expression
here starts with a literal or has bounded repetition, so none rescans text from each position.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from itertools import islice
from typing import Final, Literal, NamedTuple

__all__ = ["Cost", "lowercase", "parse_cost"]


def _words(block: str) -> frozenset[str]:
    return frozenset(block.split())


_Bound = Literal["attributes", "depth", "formatting", "tags"]


class Cost(NamedTuple):
    """A bound the mark-up passes, and the offset of the tag where it does (what precedes is cheap)."""

    bound: _Bound
    at: int


# Elements that never hold others (void) or that close their open sibling (p, li, td ...):
# they do not deepen the stack of open elements, so they are not counted.
_FLAT: Final = _words(
    """area base br col embed hr img input link meta param source track wbr
    p li dd dt td th tr option optgroup thead tbody tfoot caption colgroup rb rt rp"""
)
_END_TAG_REACH: Final = 16

# A tag, its attributes whole (quoted values may hold "<" and ">"), and the text after it (of
# which only the first character is kept: whether there is any). The pattern starts with "<":
# one that started with the text would rescan it from every position.
_SCANNED_TAG: Final = re.compile(r"""<(/?)([a-z][^\s/>]{0,40})((?:[^<>"']++|"[^"]*+"|'[^']*+')*+)>?([^<])?[^<]*+""")
_FORMATTING: Final = _words("a b big code em font i nobr s small strike strong tt u")
_ELEMENT_CHARS: Final = 8  # "<", ">" and the end tag around a re-created element's name and attributes
_NOAHS_ARK: Final = 3  # entries alike (same start tag) kept in the list of active formatting elements
_CELLS: Final = _words("td th caption")
_TABLE_PARTS: Final = _CELLS | _words("table tbody thead tfoot tr")
_QUOTED: Final = re.compile(r""""[^"]*+"|'[^']*+'""")
_BETWEEN_ATTRIBUTES: Final = re.compile(r"[\s/]+")
# Start tags that close no paragraph: the parser re-creates formatting before inserting them.
_INLINE: Final = _words(
    """span br img image wbr input label abbr cite q sub sup mark bdi bdo time var kbd samp dfn data
    area embed source track keygen select textarea button ruby rt rp"""
)
_ASCII_LOWER: Final = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")

# What the scan needs to know of a tag name, in one lookup (bits of _KINDS' values).
_FORMATTING_KIND, _TABLE_KIND, _CELL_KIND, _INLINE_KIND, _FLAT_KIND = 1, 2, 4, 8, 16
_KINDS: Final = {
    name: (
        _FORMATTING_KIND * (name in _FORMATTING)
        | _TABLE_KIND * (name in _TABLE_PARTS)
        | _CELL_KIND * (name in _CELLS)
        | _INLINE_KIND * (name in _INLINE)
        | _FLAT_KIND * (name in _FLAT or name in _TABLE_PARTS)
    )
    for name in _FORMATTING | _TABLE_PARTS | _INLINE | _FLAT
}


class _Formatting:
    """The active formatting elements since the last table cell (a marker), as :func:`parse_cost` counts them."""

    __slots__ = ("keys", "names", "off_stack", "size", "tables")

    def __init__(self, tables: int) -> None:
        self.tables = tables  # tables open when the cell was entered
        self.size = 0  # characters of the entries' mark-up
        self.off_stack = 0  # characters of the entries a block closed: re-created before the next text
        self.keys: dict[str, int] = {}  # start tag as written -> entries (three alike at most)
        self.names: dict[str, list[str]] = {}  # element name -> its start tags, latest last


def parse_cost(
    html: str,
    *,
    max_depth: int,
    max_recreated: int,
    max_attributes: int,
    max_tags: int | None = None,
    lowered: str | None = None,
) -> Cost | None:
    """The first parsing bound ``html`` passes, and where, by one linear scan; None when it passes none.

    A model of the HTML tree builder, erring towards cost; it decides cost, never safety (tags
    inside comments or scripts count as tags here).

    - Attributes per element, against `max_attributes` (only long attribute strings are
      counted).
    - Depth, elements open at once, against `max_depth`; a cell or row closes what was left
      open in the one before.
    - Formatting, the standard's "reconstruct the active formatting elements", against
      `max_recreated` characters: a formatting start tag adds an entry (three alike at most),
      its end tag removes one, a block boundary takes them all off the stack, and the next
      text or inline element re-creates every entry off the stack. Table cells start afresh.
    - Tags, against `max_tags` when given.

    ``lowered``: ``html.lower()`` (or :func:`lowercase` of it), when the caller has it.
    """
    if lowered is None:
        lowered = lowercase(html)
    if len(lowered) != len(html):  # a few non-ASCII letters lower to two characters: keep offsets exact
        lowered = html.translate(_ASCII_LOWER)
    if len(lowered) <= _LISTED_CHARS and (max_tags is None or len(lowered) <= max_tags):
        # Mail-sized mark-up, with fewer characters (so tags) than max_tags: one C call lists
        # the tags as tuples, and only a bound passed needs the scan again, for the offset.
        found = _scan(_SCANNED_TAG.findall(lowered), max_depth, max_recreated, max_attributes, None)
        if found is None:
            return None
        bound, index = found
        at = next(islice(_SCANNED_TAG.finditer(lowered), index, None)).start() if index >= 0 else len(html)
        return Cost(bound, at)
    last: list[re.Match[str] | None] = [None]  # the match the scan read last: where a bound is passed
    scanned: Iterable[tuple[str, ...]] = _remembered(_SCANNED_TAG.finditer(lowered), last)
    if max_tags is not None:
        scanned = islice(scanned, max_tags + 1)
    found = _scan(scanned, max_depth, max_recreated, max_attributes, max_tags)
    if found is None:
        return None
    bound, index = found
    match = last[0]
    return Cost(bound, match.start() if index >= 0 and match is not None else len(html))


def _remembered(matches: Iterable[re.Match[str]], last: list[re.Match[str] | None]) -> Iterator[tuple[str, ...]]:
    """The groups of each match, the match kept in ``last[0]``."""
    for match in matches:
        last[0] = match
        yield match.groups()


_LATIN1_LOWER: Final = bytes(ord(chr(code).lower()) for code in range(256))  # each stays one Latin-1 character


def lowercase(text: str) -> str:
    """``text.lower()``, several times faster for Latin-1 text (German, French, Spanish mail).

    ``str.lower`` looks each non-ASCII character up in the Unicode database (~7 ns each); a
    Latin-1 text is lowered by one byte table instead, with the same result.
    """
    if text.isascii():
        return text.lower()
    try:
        latin1 = text.encode("latin-1")
    except UnicodeEncodeError:
        return text.lower()
    return latin1.translate(_LATIN1_LOWER).decode("latin-1")


_LISTED_CHARS: Final = 50_000  # mark-up this long (25,000 tags at most: "<a" is one) is listed in one call


def _scan(
    scanned: Iterable[tuple[str, ...]],
    max_depth: int,
    max_recreated: int,
    max_attributes: int,
    max_tags: int | None,
) -> tuple[_Bound, int] | None:
    """The bound the scanned tags pass and the index of the tag where (-1: past the end), or None."""
    open_tags: list[str] = []
    table_at: list[int] = []  # where in open_tags each open <table> is
    levels = [_Formatting(tables=0)]
    top = levels[0]
    recreated = 0
    long_attributes = 2 * max_attributes
    kinds = _KINDS
    for count, (closing, name, attributes, text) in enumerate(scanned):
        if max_tags is not None and count >= max_tags:
            return "tags", count
        if (
            len(attributes) > long_attributes
            and len(_BETWEEN_ATTRIBUTES.split(_QUOTED.sub("", attributes))) > max_attributes
        ):
            return "attributes", count
        kind = kinds.get(name, 0)
        if kind & _FORMATTING_KIND:
            if not closing:
                recreated += top.off_stack
                top.off_stack = 0
                key = name + attributes
                if top.keys.get(key, 0) < _NOAHS_ARK:
                    top.keys[key] = top.keys.get(key, 0) + 1
                    top.size += len(key) + _ELEMENT_CHARS
                top.names.setdefault(name, []).append(key)
            elif written := top.names.get(name):
                key = written.pop()
                if top.keys.get(key, 0) > 0:
                    top.keys[key] -= 1
                    top.size -= len(key) + _ELEMENT_CHARS
                    top.off_stack = min(top.off_stack, top.size)
        elif kind & _TABLE_KIND:
            if name == "table":
                if closing:
                    if table_at:
                        del open_tags[table_at.pop() :]
                else:
                    open_tags.append(name)
                    table_at.append(len(open_tags) - 1)
            elif table_at:
                del open_tags[table_at[-1] + 1 :]  # a cell or row closes what the last one left open
            tables = len(table_at)
            if closing or name != "table":
                # Leaving a cell drops its formatting; </table> leaves the cells of that table.
                while len(levels) > 1 and levels[-1].tables > tables - (name != "table"):
                    levels.pop()
                if kind & _CELL_KIND and not closing and tables:
                    levels.append(_Formatting(tables))
            top = levels[-1]
            top.off_stack = top.size
        elif closing or not kind & _INLINE_KIND:
            top.off_stack = top.size  # a block (or an end tag) may close what was opened in it
        else:
            recreated += top.off_stack
            top.off_stack = 0
        if text and top.off_stack:  # even white space re-creates what is off the stack
            recreated += top.off_stack
            top.off_stack = 0
        if recreated > max_recreated:
            return "formatting", count
        if kind & _FLAT_KIND:  # table parts were counted above
            continue
        if not closing:
            open_tags.append(name)
            if len(open_tags) > max_depth:
                return "depth", count
        elif open_tags and open_tags[-1] == name:
            open_tags.pop()
        else:
            # Close the nearest open element of that name, as the tree builder does; a stray
            # end tag closes nothing (looked for a few levels down only, to stay linear).
            for back in range(len(open_tags) - 2, max(len(open_tags) - _END_TAG_REACH, -1), -1):
                if open_tags[back] == name:
                    del open_tags[back:]
                    while table_at and table_at[-1] >= back:
                        table_at.pop()
                    break
    return ("formatting", -1) if recreated > max_recreated else None
