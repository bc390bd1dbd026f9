"""Who may see a message: exact addr-specs, read only from a whitelist of recipient headers.

Every identity shares one catch-all mailbox, so this module is the only boundary between
them. Each rule fails closed: a header value we cannot read unambiguously grants nothing.

How one header value is read: the address-list of RFC 5322 section 3.4, with the obsolete
forms of section 4.4 that a reader must accept, and UTF-8 in atoms and quoted strings (RFC 6532).

1. Tokens, left to right, in one pass (sections 3.2.1 to 3.2.5): atoms, quoted strings and
   domain literals (each with quoted-pairs), comments (nested, with quoted-pairs), folding white
   space (CRLF only before a space or tab) and the specials. Comments and white space only
   separate tokens: ``a(x)b`` is two atoms, never ``ab``. An unterminated quoted string, comment,
   domain literal or ``<``; a ``<`` inside ``<...>``; a stray ``)``, ``]`` or ``>``; a control
   character (a CR or LF that is no fold) or a backslash outside quotes and comments; or comments
   nested deeper than MAX_COMMENT_DEPTH make the whole value grant nothing.
2. The value is a list of elements separated by ``,`` or ``;``; empty elements are skipped
   (obs-addr-list, obs-mbox-list, obs-group-list). A ``:`` opens a group: what came before it in
   the element is the group's name, and is dropped.
3. An element holding ``<...>`` counts only by what is inside: an optional obs-route
   (``@a.test,@b.test:``, dropped) then one addr-spec. The rest of the element is a display name
   (any tokens: an unquoted ``victim@d`` there too) and never grants. Two ``<...>`` grant nothing.
4. An element without ``<...>`` must be exactly one addr-spec.
5. An addr-spec is words (atoms or quoted strings) joined by dots, ``@``, then atoms joined by
   dots (obs-local-part, obs-domain: comments and white space may stand around every token). Its
   canonical form joins the words' values (quoted strings unquoted, quoted-pairs resolved): it
   grants only when that local part is a dot-atom, so ``"fox"@d`` is ``fox@d`` but ``"a b"@d``
   and ``"a@b"@d`` grant nothing (an identity's local part is always a dot-atom, see
   ``gateway.names``). A domain literal grants nothing; one trailing dot in the domain is kept,
   so ``a@d.`` is another address than ``a@d``. The result is lowercased (ASCII only), at most
   MAX_ADDRESS_CHARS long and holds no RFC 2047 encoded word: what :func:`normalize_address` accepts.

Display and group names (steps 2 and 3) are read leniently on purpose: they never grant, so
the strict grammar applies only where an address is. Work is linear in the value's length: one
regular-expression pass without backtracking (see ``_TOKEN``), then one step per token. Every
address in a list counts, however late: MAX_ITEMS_PER_VALUE is out of reach of any value within
``parse.MAX_HEADER_BYTES``.
"""

from __future__ import annotations

import re
import string
import unicodedata
from collections.abc import Iterable
from typing import Final, NamedTuple

__all__ = [
    "GRANTING_HEADERS",
    "MAX_ADDRESS_CHARS",
    "MAX_COMMENT_DEPTH",
    "MAX_ITEMS_PER_VALUE",
    "addresses_in",
    "granted_addresses",
    "normalize_address",
]

GRANTING_HEADERS: Final[frozenset[str]] = frozenset(
    {"delivered-to", "x-original-to", "envelope-to", "x-forwarded-to", "to", "cc", "bcc"}
)
"""Lowercase names of the only headers whose addresses grant access to a message.

A mail source may fetch more headers than these (for display, threading, ...): widening
what is fetched never widens trust, because only this constant decides. Subject, From,
Reply-To, Resent-* and every other X-* header never grant.
"""

MAX_COMMENT_DEPTH: Final = 8
"""Deepest comment nesting we strip; real mail never nests deeper, so the value grants nothing."""

MAX_ITEMS_PER_VALUE: Final = 65_536
"""Addresses read from one header value; the rest are ignored.

Not reached by any value within ``parse.MAX_HEADER_BYTES`` (256 KiB): an address takes three
characters and a separator at least, so such a value holds 65,536 at most. Time is linear in
the value's length whatever it holds; this bounds only the list returned for longer values.
"""

MAX_ADDRESS_CHARS: Final = 254
"""RFC 5321 limits a path to 256 octets including the angle brackets."""

# Characters that are structure in RFC 5322, never part of a plain addr-spec.
_SPECIALS: Final = frozenset('<>,;:"()[]\\')

# Lowercase ASCII only: Unicode lowercasing folds distinct characters together
# (KELVIN SIGN U+212A lowercases to "k"), which would let one address match another.
_ASCII_LOWER: Final = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)


def _ascii_lower(text: str) -> str:
    """``text`` with only A-Z lowercased."""
    # On ASCII text str.lower() changes exactly A-Z, and is many times faster than translate.
    return text.lower() if text.isascii() else text.translate(_ASCII_LOWER)


# ASCII atext (RFC 5322 section 3.2.3). Every non-ASCII character may stand in an atom too
# (RFC 6532); those of categories C* and Z* are refused when an element is read (_is_forbidden).
_ATEXT: Final = r"A-Za-z0-9!#$%&'*+\-/=?^_`{|}~"


def _comment_pattern(depth: int) -> str:
    """A comment nested at most ``depth`` deep: ctext runs, quoted-pairs and inner comments."""
    pattern = r"\((?:[^()\\]++|\\.)*+\)"
    for _ in range(depth - 1):
        pattern = r"\((?:[^()\\]++|\\.|" + pattern + r")*+\)"
    return pattern


_CFWS_PATTERN: Final = r"(?:[ \t]|\r\n[ \t]|" + _comment_pattern(MAX_COMMENT_DEPTH) + r")++"
_QUOTED_PATTERN: Final = r'"(?:[^"\\]++|\\.)*+"'
_LITERAL_PATTERN: Final = r"\[(?:[^\[\]\\]++|\\.)*+\]"

# One token of a header value: the alternative that matches first at a position. Every
# repetition is possessive and its alternatives start with different characters, so the engine
# never backtracks: a token costs what it scans. A comment, quoted string or domain literal that
# does not close (or a comment nested too deep) is scanned once, then the rest of the value is
# one token that makes it grant nothing: nothing is scanned twice.
_TOKEN: Final = re.compile(
    _CFWS_PATTERN  # white space, folding (the CRLF of FWS is invisible), comments: separate only
    + r"|["
    + _ATEXT
    + r".@\u0080-\U0010ffff]++"  # atoms with the dots and "@" between them
    + "|"
    + _QUOTED_PATTERN
    + "|"
    + _LITERAL_PATTERN  # obs-dtext: quoted-pairs too
    + r"|[,;:][,;: \t]*+"  # list separators and group colons; a run acts as its first character
    # <...> holding one word and white space at most, "<a@d>": the common case, in one token.
    + r"|<[ \t]*+["
    + _ATEXT
    + r".@\u0080-\U0010ffff]*+[ \t]*+>"
    + r"|[<>]"
    # Controls (a CR or LF that is no folding) and "\" outside quotes, with the word after them:
    # an element holding one is no addr-spec, so its characters do not matter.
    + r"|[\x00-\x08\x0a-\x1f\x7f\\][\x00-\x08\x0a-\x1f\x7f\\"
    + _ATEXT
    + r".@\u0080-\U0010ffff]*+"
    + r'|[("\[].*+'  # one that does not close: the rest of the value
    + r"|.",  # what is left: a stray ")" or "]"
    re.DOTALL,
)
# What a token starting with "(", '"' or "[" must be to be whole (checked on the last token).
_WHOLE: Final = {
    "(": re.compile(_CFWS_PATTERN, re.DOTALL),
    '"': re.compile(_QUOTED_PATTERN, re.DOTALL),
    "[": re.compile(_LITERAL_PATTERN, re.DOTALL),
}
_STRUCTURE: Final = re.compile(r'[()"<>,;:]')
_FOLDING: Final = re.compile(_CFWS_PATTERN, re.DOTALL)
_COMMAS: Final = re.compile(",+")
# A list of plain addresses and nothing else, "a@d, b@d": the common value, read without tokens.
_PLAIN_LIST: Final = re.compile(
    r"[ \t]*+(?:[" + _ATEXT + r"]++(?:\.[" + _ATEXT + r"]++)*+@[" + _ATEXT + r"]++(?:\.[" + _ATEXT + r"]++)*+"
    r"[ \t]*+(?:,[ \t]*+|$))++"
)
_WORD_PARTS: Final = re.compile(r"([.@])")
_QUOTED_PAIR: Final = re.compile(r"\\(.)", re.DOTALL)
_DOT_ATOM: Final = re.compile(r"[" + _ATEXT + r"\u0080-\U0010ffff]++(?:\.[" + _ATEXT + r"\u0080-\U0010ffff]++)*+")
_PLAIN: Final = re.compile(
    r"[" + _ATEXT + r"]++(?:\.[" + _ATEXT + r"]++)*+@[" + _ATEXT + r"]++(?:\.[" + _ATEXT + r"]++)*+"
)

# What the first character of a token says it is; any other character starts a word.
_CFWS, _FAIL, _OPEN, _CLOSE, _SEPARATOR = "cfws", "fail", "<", ">", "sep"
_FIRST: Final[dict[str, str]] = {
    " ": _CFWS,
    "\t": _CFWS,
    "(": _CFWS,  # or, as the last token, a comment that does not close
    ")": _FAIL,
    "]": _FAIL,
    "<": _OPEN,
    ">": _CLOSE,
    ",": _SEPARATOR,
    ";": _SEPARATOR,
    ":": _SEPARATOR,
}

# The kinds of the parts of an element, for the addr-spec grammar; punctuation is its own
# character (".", "@", ",", ":", ";").
_ATOM: Final = "atom"
_QUOTED: Final = "quoted"
_LITERAL: Final = "literal"
_BAD: Final = "bad"  # a character the grammar allows nowhere outside quotes and comments
_WORDS: Final = (_ATOM, _QUOTED)

_Part = tuple[str, str]
"""(kind, text): an atom's text, a quoted string as written."""


def normalize_address(addr: str) -> str | None:
    """Return ``addr`` lowercased if it is exactly one plain addr-spec ``local@domain``, else None.

    No surrounding whitespace, display name, quoted local part or domain literal is accepted.
    """
    if not addr or len(addr) > MAX_ADDRESS_CHARS or "=?" in addr:
        # "=?" starts an RFC 2047 encoded word: encoded text is never an address.
        return None
    local, _, domain = addr.partition("@")
    if not local or not domain or "@" in domain:
        return None
    if any(_is_forbidden(ch) for ch in addr):
        return None
    return _ascii_lower(addr)


def addresses_in(value: str) -> list[str]:
    """Parse one raw header value (not RFC 2047-decoded) into lowercased addr-specs, in order.

    A value without a single reading (unbalanced quotes, comments or brackets, comments
    nested too deep, a stray ``>``) grants nothing; the module docstring gives the grammar.
    """
    return _read(value).addresses or []


def granted_addresses(headers: Iterable[tuple[str, str]], *, catchall: str) -> frozenset[str]:
    """Every address the message grants access to, from the GRANTING_HEADERS only.

    The catch-all's own address never grants; ``a+tag@d`` is simply another address.
    """
    granted: set[str] = set()
    for name, value in headers:
        if _ascii_lower(name.strip()) in GRANTING_HEADERS:
            granted.update(addresses_in(value))
    granted.discard(_ascii_lower(catchall.strip()))
    return frozenset(granted)


class _Reading(NamedTuple):
    """What one header value says, and the work it took to read it."""

    addresses: list[str] | None
    """Canonical addr-specs in order (at most MAX_ITEMS_PER_VALUE); None: no single reading."""
    steps: int
    """Python-level steps: one for the last token's check, one per token (one character or more)."""


def _read(value: str) -> _Reading:
    """Read ``value`` token by token (module docstring, steps 1 to 4) in one pass."""
    if _PLAIN_LIST.fullmatch(value):
        # Only plain addresses, commas and blanks: what the tokens would give, at regex speed.
        plain = [item.strip(" \t") for item in value.split(",", MAX_ITEMS_PER_VALUE)[:MAX_ITEMS_PER_VALUE]]
        return _Reading([a for a in map(_canonical, plain) if a], 1)  # "a@d," ends with an empty element
    found: list[str] = []
    text: list[str] = []  # the tokens of the current element, outside <...>
    angles: list[list[str]] = []  # the finished <...> of the current element
    angle: list[str] | None = None  # inside <...>: its tokens so far
    tokens = _TOKEN.findall(value)
    if tokens and tokens[-1][0] in _WHOLE and not _WHOLE[tokens[-1][0]].fullmatch(tokens[-1]):
        return _Reading(None, 1)  # an unterminated comment, quoted string or domain literal
    steps = 1
    for token in tokens:
        steps += 1
        kind = _FIRST.get(token[0])
        if kind is None:
            if token[0] == "\r" and _FOLDING.fullmatch(token):
                continue  # CFWS that starts with a fold
            if token[0] < " " or token[0] in "\x7f\\":
                # A control (a CR or LF that is no fold) or a "\" outside quotes: RFC 5322 has no
                # reading for it, and readers differ (a bare CR ends the field for some, "\,"
                # escapes the comma for Postfix): the value grants nothing.
                return _Reading(None, steps)
            current = text if angle is None else angle
            if token[0] == "[" and not (current and current[-1][-1] == "@") and _STRUCTURE.search(token):
                # Brackets outside a domain are no domain literal in RFC 5322: read as text,
                # what they hold would be structure. Two readings: the value grants nothing.
                return _Reading(None, steps)
            current.append(token)
        elif kind == _CFWS:
            continue
        elif kind == _SEPARATOR:
            if angle is not None:
                angle.append(token)  # in <...>, "," and ":" belong to an obs-route
            elif token[0] == ":":
                text, angles = [], []  # "name: a@d, b@d;": what came before is the group's name
            else:
                # "," or ";" (which ends a group, and separates like "," where none is open).
                if (text or angles) and len(found) < MAX_ITEMS_PER_VALUE:
                    address = _element_address(text, angles)
                    if address is not None:
                        found.append(address)
                text, angles = [], []
        elif kind == _OPEN:
            if angle is not None:
                return _Reading(None, steps)  # "<<a@d>>": which brackets count would be a guess
            if len(token) == 1:
                angle = []
            else:
                word = token[1:-1].strip(" \t")
                angles.append([word] if word else [])
        elif kind == _CLOSE:
            if angle is None:
                return _Reading(None, steps)
            angles.append(angle)
            angle = None
        else:
            return _Reading(None, steps)  # a stray ")" or "]"
    if angle is not None:
        return _Reading(None, steps)
    if (text or angles) and len(found) < MAX_ITEMS_PER_VALUE:
        address = _element_address(text, angles)
        if address is not None:
            found.append(address)
    return _Reading(found, steps)


def _element_address(text: list[str], angles: list[list[str]]) -> str | None:
    """The one addr-spec a list element names, or None."""
    if len(angles) > 1:
        return None  # "<a@d> <b@d>": which one is meant would be a guess
    tokens = angles[0] if angles else text
    if len(tokens) == 1 and _PLAIN.fullmatch(tokens[0]):
        return _canonical(tokens[0])  # the common case, "a@d" or "<a@d>", read at once
    if angles and sum(len(t) for t in tokens) > _MAX_ANGLE_CHARS:
        return None  # a route and an address longer than a line of mail may be: hostile
    if not angles and (
        len(tokens) > MAX_ADDRESS_CHARS or sum(len(t) for t in tokens if t[0] not in '"[') > MAX_ADDRESS_CHARS
    ):
        # Each token of an addr-spec that can grant adds a character to it or more, and every
        # character of its atoms, dots and "@" (comments and white space are no tokens): this
        # one is too long. Saves reading hostile elements.
        return None
    if not any("@" in token for token in tokens):
        return None  # no addr-spec without an "@"
    parts = _parts(tokens)
    at = 0
    if angles and parts and parts[0][0] in ",@":
        # obs-route = *(CFWS / ",") "@" domain *("," [CFWS] ["@" domain]) ":" (RFC 5322
        # section 4.4); it is dropped: only the addr-spec after it is the address.
        while at < len(parts) and parts[at][0] == ",":
            at += 1
        if at == len(parts) or parts[at][0] != "@":
            return None
        at = _domain(parts, at + 1, trailing_dot=False)[0]
        while 0 <= at < len(parts) and parts[at][0] == ",":
            at += 1
            if at < len(parts) and parts[at][0] == "@":
                at = _domain(parts, at + 1, trailing_dot=False)[0]
        if not 0 <= at < len(parts) or parts[at][0] != ":":
            return None
        at += 1
    return _addr_spec(parts, at)


_MAX_ANGLE_CHARS: Final = 998
"""What ``<...>`` may hold (an obs-route and an address): RFC 5322's line limit."""


def _parts(tokens: list[str]) -> list[_Part]:
    """An element's tokens as the parts the addr-spec grammar reads."""
    parts: list[_Part] = []
    for token in tokens:
        first = token[0]
        if first == '"':
            parts.append((_QUOTED, token))
        elif first == "[":
            parts.append((_LITERAL, token))
        elif first in ",;:":
            # Only in <...>: a run of commas is one (obs-domain-list allows empty elements).
            for ch in _COMMAS.sub(",", token.replace(" ", "").replace("\t", "")):
                parts.append((ch, ch))
        elif first < " " or first == "\x7f" or first == "\\":
            parts.append((_BAD, token))  # controls, a backslash outside quotes
        else:
            for piece in _WORD_PARTS.split(token):
                if piece == "." or piece == "@":
                    parts.append((piece, piece))
                elif piece:
                    bad = not piece.isascii() and any(_is_forbidden(ch) for ch in piece)
                    parts.append((_BAD if bad else _ATOM, piece))
    return parts


def _addr_spec(parts: list[_Part], at: int) -> str | None:
    """The canonical address if ``parts[at:]`` is exactly one addr-spec that can grant, else None."""
    words: list[str] = []
    quoted = False
    while True:
        if at == len(parts) or parts[at][0] not in _WORDS:
            return None
        if parts[at][0] == _QUOTED:
            quoted = True
            words.append(_QUOTED_PAIR.sub(r"\1", parts[at][1][1:-1]))
        else:
            words.append(parts[at][1])
        at += 1
        if at == len(parts) or parts[at][0] != ".":
            break
        at += 1
    if at == len(parts) or parts[at][0] != "@":
        return None
    at, domain = _domain(parts, at + 1, trailing_dot=True)
    if at != len(parts) or domain is None:
        return None  # trailing parts, no domain, or a domain literal (never an identity's)
    local = ".".join(words)
    if quoted and not (
        len(local) <= MAX_ADDRESS_CHARS
        and _DOT_ATOM.fullmatch(local)
        and (local.isascii() or not any(_is_forbidden(ch) for ch in local))
    ):
        # A local part that still needs its quotes ("a b", "a@b", "a..b") is no identity's,
        # and written without them it would read as another address.
        return None
    return _canonical(f"{local}@{domain}")


def _domain(parts: list[_Part], at: int, *, trailing_dot: bool) -> tuple[int, str | None]:
    """Read the domain at ``parts[at]``: (index after it, its text), or (index after it, None)
    for a domain literal, or (-1, None) when there is no domain there."""
    if at < len(parts) and parts[at][0] == _LITERAL:
        return at + 1, None
    labels: list[str] = []
    while True:
        if at == len(parts) or parts[at][0] != _ATOM:
            return -1, None
        labels.append(parts[at][1])
        at += 1
        if at == len(parts) or parts[at][0] != ".":
            return at, ".".join(labels)
        at += 1
        if at == len(parts) or parts[at][0] != _ATOM:
            if not trailing_dot:
                return -1, None
            return at, ".".join(labels) + "."  # "d.test.": a name of its own, never "d.test"


def _canonical(addr: str) -> str | None:
    """``addr`` (atoms, dots and one "@" only) lowercased, or None if it cannot be an address."""
    if len(addr) > MAX_ADDRESS_CHARS or "=?" in addr:
        return None  # too long for RFC 5321, or an RFC 2047 encoded word
    return _ascii_lower(addr)


def _is_forbidden(ch: str) -> bool:
    """Whether ``ch`` can never appear in an addr-spec we accept."""
    # Categories C* (controls, format characters such as zero-width or bidi marks,
    # surrogates, unassigned) and Z* (separators) have no place in an address.
    return ch in _SPECIALS or ch.isspace() or unicodedata.category(ch)[0] in "CZ"
