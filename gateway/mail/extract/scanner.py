"""Many phrases found in one pass of a regular expression: the phrases compiled as a trie, those
starting with an ASCII character apart from the others.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import NamedTuple

__all__ = ["PhraseScanner"]


def _trie_pattern(phrases: Iterable[str], sep: str = r"[\s\-]?") -> str:
    """One regular expression for many phrases, as a trie: one branch per letter, not per phrase.

    A space or dash in a phrase becomes ``sep``. Python's engine tries alternatives one by one,
    so a trie (few branches at each step) is several times faster than a flat alternation.
    """
    trie: _Trie = {}
    for phrase in phrases:
        node = trie
        for char in phrase:
            node = node.setdefault(" " if char in " -" else char, {})
        node[""] = {}  # a phrase ends here
    return _trie_branches(trie, sep)


_Trie = dict[str, "_Trie"]


def _trie_branches(node: _Trie, sep: str) -> str:
    branches = [
        (sep if char == " " else re.escape(char)) + _trie_branches(child, sep)
        for char, child in sorted(node.items())
        if char
    ]
    if not branches:
        return ""
    body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
    return f"(?:{body})?" if "" in node else body  # greedy: the longer phrase is tried first


class PhraseScanner(NamedTuple):
    """Many phrases found in one pass of a regular expression (a trie, see :func:`_trie_pattern`).

    Phrases starting with an ASCII character and the others are two expressions: the second
    runs only on text that is not ASCII, and starts with a one-character test, so English
    text never pays for the Chinese, Korean or Cyrillic branches.
    """

    ascii_first: re.Pattern[str]
    other_first: re.Pattern[str]

    @classmethod
    def of(cls, phrases: Iterable[str], sep: str = r"[\s\-]?") -> PhraseScanner:
        chosen = sorted(set(phrases))
        ascii_first = [p for p in chosen if p[0].isascii()]
        other_first = [p for p in chosen if not p[0].isascii()]
        return cls(
            re.compile(_trie_pattern(ascii_first, sep)),
            re.compile(r"(?=[^\x00-\x7f])" + _trie_pattern(other_first, sep)),
        )

    def finditer(self, text: str, start: int = 0, end: int | None = None) -> list[re.Match[str]]:
        """The phrases found in ``text[start:end]``, in order of position."""
        end = len(text) if end is None else end
        found = list(self.ascii_first.finditer(text, start, end))
        if not text.isascii() and not text[start:end].isascii():  # the first test reads a flag
            found.extend(self.other_first.finditer(text, start, end))
            found.sort(key=lambda m: m.start())
        return found
