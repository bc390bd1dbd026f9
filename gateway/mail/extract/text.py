"""The texts the code finder reads, prepared for scanning: cut to a bound, NFKC-normalised,
other scripts' digits made ASCII, URLs and e-mail addresses masked (step 1 of the package docstring).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Final, Literal

from gateway.mail.render import without_zero_width

__all__ = ["MAX_SUBJECT_CHARS", "MAX_TEXT_CHARS", "Source", "Text"]

MAX_TEXT_CHARS: Final = 256 * 1024
"""Characters examined per text (the text part, the rendered HTML); the rest is not read."""

MAX_SUBJECT_CHARS: Final = 2048
"""Characters of the subject examined: subjects are a line; a longer one is hostile."""

Source = Literal["subject", "text", "html"]


@dataclass(frozen=True, slots=True)
class Text:
    """One text prepared for scanning: ``low`` is ``text`` lower-cased, offset for offset."""

    source: Source
    text: str
    low: str

    @classmethod
    def of(cls, source: Source, raw: str) -> Text:
        """``raw`` cut to :data:`MAX_TEXT_CHARS` and prepared for scanning."""
        text = without_zero_width(raw[:MAX_TEXT_CHARS])
        if not text.isascii():
            # CJK punctuation ends a clause: after NFKC "582047<U+FF0C>5分钟" would read as the
            # decimal "582047,5". Keep them apart with a space.
            text = text.translate(_CJK_PUNCTUATION)
            # NFKC: fullwidth digits, letters and colons, NBSP and ideographic spaces become
            # ASCII. U+0130 is the one character whose lower case is two characters long.
            text = unicodedata.normalize("NFKC", text).replace("\u0130", "I")
            if not _latin1(text):  # Latin-1 holds no digits but ASCII ones
                text = _OTHER_DIGIT.sub(lambda m: str(unicodedata.decimal(m.group(), 0)), text)  # "١٢٣" -> "123"
        text = _masked(text)
        return cls(source, text, text.lower())


_CJK_PUNCTUATION: Final = str.maketrans({"\uff0c": ", ", "\u3001": ", ", "\uff1b": "; ", "\u3002": ". "})
_OTHER_DIGIT: Final = re.compile(r"[^\x00-\x7f](?<=\d)")


def _latin1(text: str) -> bool:
    try:
        text.encode("latin-1")
    except UnicodeEncodeError:
        return False
    return True


_URL_TAIL: Final = re.compile(r"[!#-;=?-~]*+")  # printable ASCII but space, quotes and angle brackets
_EMAIL_LOCAL: Final = re.compile(r"[A-Za-z0-9._%+-]{1,64}$")
_EMAIL_DOMAIN: Final = re.compile(r"[A-Za-z0-9-]++(?:\.[A-Za-z0-9-]++)++")
_MAX_MASKS: Final = 1000


def _masked(text: str) -> str:
    """``text`` with URLs as "[link]" and e-mail addresses as "[email]": their digits are no codes.

    Found by literal search ("://", "www.", "@"), which is fast, then grown around the hit.
    """
    spans: list[tuple[int, int, str]] = []
    for needle in ("://", "www.", "@"):
        pos = 0
        for _ in range(_MAX_MASKS):
            hit = text.find(needle, pos)
            if hit < 0:
                break
            pos = hit + len(needle)
            if needle == "@":
                local = _EMAIL_LOCAL.search(text, max(0, hit - 64), hit)
                domain = _EMAIL_DOMAIN.match(text, hit + 1)
                if local is not None and domain is not None:
                    spans.append((local.start(), domain.end(), "[email]"))
                    pos = domain.end()
                continue
            start = hit
            if needle == "://":
                while start > 0 and start > hit - 12 and text[start - 1].isascii() and text[start - 1].isalpha():
                    start -= 1  # the scheme
            elif start and text[start - 1].isalnum():
                continue
            end = _URL_TAIL.match(text, pos).end()  # type: ignore[union-attr]
            spans.append((start, end, "[link]"))
            pos = end
    if not spans:
        return text
    pieces: list[str] = []
    done = 0
    for start, end, mask in sorted(spans):
        if start < done:
            continue  # "www." inside an "https://" URL
        pieces.append(text[done:start])
        pieces.append(mask)
        done = end
    pieces.append(text[done:])
    return "".join(pieces)
