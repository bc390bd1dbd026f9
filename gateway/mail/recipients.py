"""Who may see a message: exact addr-specs, read only from a whitelist of recipient headers.

Every identity shares one catch-all mailbox, so this module is the only boundary between
them. Each rule fails closed: a header value we cannot read unambiguously grants nothing.

How one header value is read (RFC 5322 section 3.4, simplified on purpose):

1. Comments ``( ... )`` are removed (nested, with ``\\`` escapes, never inside quoted strings).
2. The value splits into items at ``,`` and ``;`` outside quotes, comments and ``<...>``.
   A ``name:`` prefix opens a group; the group's name, like every display name, is dropped.
3. An item holding ``<...>`` counts only by what is inside the brackets; the text around it
   is a display name and never grants, even when it looks like an address.
4. What remains must be one plain addr-spec (:func:`normalize_address`), compared lowercase.
"""

from __future__ import annotations

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

MAX_ITEMS_PER_VALUE: Final = 1000
"""Items read from one header value; the rest are ignored. Bounds the work on hostile input."""

MAX_ADDRESS_CHARS: Final = 254
"""RFC 5321 limits a path to 256 octets including the angle brackets."""

# Characters that are structure in RFC 5322, never part of a plain addr-spec.
_SPECIALS: Final = frozenset('<>,;:"()[]\\')

# Lowercase ASCII only: Unicode lowercasing folds distinct characters together
# (KELVIN SIGN U+212A lowercases to "k"), which would let one address match another.
_ASCII_LOWER: Final = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)


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
    return addr.translate(_ASCII_LOWER)


def addresses_in(value: str) -> list[str]:
    """Parse one raw header value (not RFC 2047-decoded) into lowercased addr-specs, in order.

    Unbalanced or too deeply nested comments, an unterminated quoted string or ``<``, and
    a stray ``>`` make the whole value grant nothing.
    """
    items = _split_items(value)
    if items is None:
        return []
    found: list[str] = []
    for item in items:
        addr = _item_address(item)
        if addr is not None:
            found.append(addr)
    return found


def granted_addresses(headers: Iterable[tuple[str, str]], *, catchall: str) -> frozenset[str]:
    """Every address the message grants access to, from the GRANTING_HEADERS only.

    The catch-all's own address never grants; ``a+tag@d`` is simply another address.
    """
    granted: set[str] = set()
    for name, value in headers:
        if name.strip().translate(_ASCII_LOWER) in GRANTING_HEADERS:
            granted.update(addresses_in(value))
    granted.discard(catchall.strip().translate(_ASCII_LOWER))
    return frozenset(granted)


class _Item(NamedTuple):
    """One comma-separated item of a header value, comments removed."""

    text: str
    """Everything outside angle brackets: a bare addr-spec, or else a display name."""
    angles: list[str]
    """The content of each ``<...>`` in the item (normally none or one)."""


def _split_items(value: str) -> list[_Item] | None:
    """Split a header value into items, or None when its structure is ambiguous.

    One left-to-right pass over the characters; each state below is one RFC 5322 construct.
    """
    items: list[_Item] = []
    text: list[str] = []  # current item, outside <...>
    angles: list[str] = []  # finished <...> contents of the current item
    angle: list[str] | None = None  # inside <...>: its content so far
    depth = 0  # comment nesting; inside a comment every character is dropped
    in_quote = False
    escaped = False  # the previous character was a backslash inside a quote or comment

    for ch in value:
        current = text if angle is None else angle
        if escaped:
            escaped = False
            if depth == 0:
                current.append(ch)
        elif depth:
            if ch == "\\":
                escaped = True
            elif ch == "(":
                depth += 1
                if depth > MAX_COMMENT_DEPTH:
                    return None
            elif ch == ")":
                depth -= 1
                if depth == 0:
                    current.append(" ")  # "a(x)b" is "a b", not "ab": a comment separates
        elif in_quote:
            # Quoted text is kept verbatim (quotes included) so that it can never pass as
            # an addr-spec, and ",", "<" or ":" inside it split nothing.
            current.append(ch)
            if ch == "\\":
                escaped = True
            elif ch == '"':
                in_quote = False
        elif ch == "(":
            depth = 1
        elif ch == ")":
            return None
        elif ch == '"':
            in_quote = True
            current.append(ch)
        elif angle is not None:
            if ch == ">":
                angles.append("".join(angle))
                angle = None
            elif ch == "<":
                return None
            else:
                angle.append(ch)  # "," and ":" belong here: "<@relay1,@relay2:a@d>"
        elif ch == "<":
            angle = []
        elif ch == ">":
            return None
        elif ch in ",;":
            items.append(_Item("".join(text), angles))
            text, angles = [], []
            if len(items) >= MAX_ITEMS_PER_VALUE:
                return items
        elif ch == ":":
            # "name: a@d, b@d;" opens a group; what came before is the group's name.
            text, angles = [], []
        else:
            text.append(ch)

    if depth or in_quote or escaped or angle is not None:
        return None
    items.append(_Item("".join(text), angles))
    return items


def _item_address(item: _Item) -> str | None:
    """The one addr-spec an item names, or None."""
    if len(item.angles) > 1:
        return None  # "<a@d> <b@d>": which one is meant would be a guess
    if not item.angles:
        return normalize_address(item.text.strip())
    inner = item.angles[0].strip()
    if inner.startswith("@"):
        # Obsolete source route "<@relay:a@d>" (RFC 5322 section 4.4): only a@d is the address.
        _route, colon, inner = inner.partition(":")
        if not colon:
            return None
    return normalize_address(inner.strip())


def _is_forbidden(ch: str) -> bool:
    """Whether ``ch`` can never appear in an addr-spec we accept."""
    # Categories C* (controls, format characters such as zero-width or bidi marks,
    # surrogates, unassigned) and Z* (separators) have no place in an address.
    return ch in _SPECIALS or ch.isspace() or unicodedata.category(ch)[0] in "CZ"
