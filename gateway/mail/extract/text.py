"""The texts the code finder reads, prepared for scanning: cut to a bound, NFKC-normalised,
other scripts' digits made ASCII, URLs and e-mail addresses masked (step 1 of the package docstring).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Final, Literal

from gateway.mail.htmlcost import lowercase
from gateway.mail.render import without_zero_width

__all__ = ["MAX_SUBJECT_CHARS", "MAX_TEXT_CHARS", "Source", "Text", "quoted"]

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
            for mark, spaced in _CJK_PUNCTUATION:
                if mark in text:  # str.translate costs ~50 ns a character; a search costs ~1
                    text = text.replace(mark, spaced)
            # NFKC: fullwidth digits, letters and colons, NBSP and ideographic spaces become
            # ASCII. U+0130 is the one character whose lower case is two characters long.
            text = unicodedata.normalize("NFKC", text).replace("\u0130", "I")
            if not _latin1(text):  # Latin-1 holds no digits but ASCII ones
                text = _OTHER_DIGIT.sub(lambda m: str(unicodedata.decimal(m.group(), 0)), text)  # "١٢٣" -> "123"
        text = _masked(text)
        return cls(source, text, lowercase(text))


_CJK_PUNCTUATION: Final = (("\uff0c", ", "), ("\u3001", ", "), ("\uff1b", "; "), ("\u3002", ". "))
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


_QUOTES: Final = (
    ("\u201c", "\u201d"),
    ("\u300c", "\u300d"),
    ("\u300e", "\u300f"),
    ("\u00ab", "\u00bb"),
    ("\u201e", "\u201c"),
)
_QUOTE_REACH: Final = 300  # characters looked at on each side: a quoted message is a line or two
_QUOTED_MESSAGE: Final = 24  # a quotation this long holds more than the value: a message being quoted


def quoted(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` stands inside a quoted message in its paragraph: a warning that
    quotes a scam ("Chase: your code is 123456 ..."), an example of a mail, never the mail's own value.

    Only a quotation of at least 24 characters counts: "Enter “482913”" quotes the value itself.
    """
    # A quoted message may be wrapped over a few lines; it does not run on past its paragraph.
    reach = max(0, start - _QUOTE_REACH)
    blank = text.rfind("\n\n", reach, start)
    line_start = blank + 2 if blank >= 0 else reach
    line_end = text.find("\n\n", end, end + _QUOTE_REACH)
    before = text[line_start:start]
    after = text[end : line_end if line_end >= 0 else end + _QUOTE_REACH]
    for opener, closer in (*_QUOTES, ('"', '"')):
        opened = before.rfind(opener)
        if opened < 0 or (opener == '"' and before.count('"') % 2 == 0):
            continue
        if opener != '"' and before.rfind(closer) > opened:
            continue  # that quotation closed before the value
        closed = after.find(closer)
        if closed >= 0 and (len(before) - opened) + (end - start) + closed >= _QUOTED_MESSAGE:
            return True
    return False
