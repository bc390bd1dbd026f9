# ruff: noqa: RUF001 - the vocabularies are multilingual: Cyrillic, fullwidth and dotless letters are meant
"""One-time codes and verification links, pulled out of a parsed message: pure, bounded, ranked.

The pipeline, in the order the code reads:

1. **Render.** The texts a reader reads: the subject, the text part, and the HTML part as a
   reader sees it (:func:`gateway.mail.render.render`: hidden preheaders left out, inline
   elements joined, blocks and cells on their own lines). Each is *prepared* for scanning:
   zero-width characters dropped, NFKC-normalised (fullwidth digits and colons become ASCII),
   URLs and e-mail addresses masked so their digits are never read.
2. **Tokenize candidates.** Every digit run is grown into the token the writer wrote (digit
   groups joined by one space or dash, letters and dashes around it) and classified:
   4-8 digit codes, grouped digits (``123 456``), letter-spaced digits (``4 8 2 9 1 3``),
   prefixed codes (``G-774102``), alphanumeric codes (``AB3X9K``, ``K7D2-QW9P``). Shapes that
   are dates, times, prices, phone numbers, versions and the like are dropped here, and so
   is a token touching a currency sign, a unit, ``#``, ``No.``, a URL or U+FFFD.
3. **Score.** Near each candidate (about 80 characters) the keywords are looked up: code
   words in 14+ languages (strong: "verification code", "验证码"; plain: "code", "PIN"; weak:
   "verify") raise it; a bound label ("order number: 123456", "Bestellnummer") disqualifies
   it, and a promo, meeting, address or amount word closer than the code word sinks it. No
   keyword: no code, except the one lone candidate of a message that names a code (in its
   subject; or anywhere, for a candidate standing alone on its line).
4. **Rank.** Occurrences of one code collapse; the best wins by keyword strength and
   distance, format (6 digits first), position (subject, then early body), prominence (alone
   on its line, a heading, large or letter-spaced type) and repetition across subject, text
   and HTML. A year ("2024") is kept only when nothing better exists.

Links come from ``<a href>`` and from bare ``http(s)`` URLs in the text, exactly as written,
and qualify by intent (verify, confirm, reset, sign in ... in many languages) in the URL or
in the link's text; unsubscribe, privacy, terms, help, view-in-browser, social and app-store
links never do.

Bounds: each text is examined up to :data:`MAX_TEXT_CHARS`, HTML up to
:data:`gateway.mail.render.MAX_HTML_CHARS`; candidates, URLs and results are capped, and
every regular expression is linear (possessive quantifiers, anchored scans), so hostile
input costs time proportional to the capped size.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Final, Literal, NamedTuple

from gateway.mail.models import Code, Link, ParsedMessage
from gateway.mail.render import MAX_HTML_CHARS, Rendered, render, visible_text, without_zero_width

__all__ = [
    "KEYWORD_WINDOW",
    "MAX_CANDIDATES",
    "MAX_CODES",
    "MAX_HTML_CHARS",
    "MAX_LINKS",
    "MAX_SUBJECT_CHARS",
    "MAX_TEXT_CHARS",
    "MAX_URL_CHARS",
    "extract",
    "extract_with_text",
    "visible_text",
]

MAX_TEXT_CHARS: Final = 256 * 1024
"""Characters examined per text (the text part, the rendered HTML); the rest is not read."""

MAX_SUBJECT_CHARS: Final = 2048
"""Characters of the subject examined: subjects are a line; a longer one is hostile."""

MAX_CODES: Final = 10
MAX_LINKS: Final = 10

MAX_CANDIDATES: Final = 1000
"""Digit tokens examined per text: real mail has a few dozen; a statement full of numbers stops here."""

MAX_URL_CHARS: Final = 8192
"""Longer URLs are skipped, never cut: a cut signed URL is useless."""

KEYWORD_WINDOW: Final = 80
"""Characters between a code and its keyword (150 for a code alone on its line)."""

_WIDE_WINDOW: Final = 150
_WEAK_WINDOW: Final = 40  # "verify", "security", "login" are everywhere in such mail: only close by

Source = Literal["subject", "text", "html"]


def _words(block: str) -> frozenset[str]:
    """The whitespace-separated words of ``block``: vocabularies are written as prose blocks."""
    return frozenset(block.split())


def extract(message: ParsedMessage) -> tuple[tuple[Code, ...], tuple[Link, ...]]:
    """The message's one-time codes and verification links, best first, deduplicated, capped."""
    codes, links, _ = extract_with_text(message)
    return codes, links


def extract_with_text(message: ParsedMessage) -> tuple[tuple[Code, ...], tuple[Link, ...], str | None]:
    """`extract`, and the HTML part's rendered text (None without HTML): what search indexes.

    One render serves both, so the index searches exactly the text the extractor read, and
    the sync pays for the render once.
    """
    rendered = render(message.html) if message.html else None
    texts = [_Text.of("subject", message.subject[:MAX_SUBJECT_CHARS]), _Text.of("text", message.text)]
    if rendered is not None:
        texts.append(_Text.of("html", rendered.text))
    codes = _rank_codes(texts, rendered.emphasized if rendered else frozenset())
    return codes, _rank_links(message, rendered), None if rendered is None else rendered.text


# === 1. the texts ==========================================================================


@dataclass(frozen=True, slots=True)
class _Text:
    """One text prepared for scanning: ``low`` is ``text`` lower-cased, offset for offset."""

    source: Source
    text: str
    low: str

    @classmethod
    def of(cls, source: Source, raw: str) -> _Text:
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


# === 2. candidates =========================================================================

Kind = Literal["digits", "grouped", "spaced", "prefixed", "alnum", "alnum-dash"]


class _Token(NamedTuple):
    """A code-shaped token at ``text[start:end]``; ``value`` is what to type."""

    start: int
    end: int
    value: str
    kind: Kind

    @property
    def year(self) -> bool:
        return self.kind == "digits" and len(self.value) == 4 and self.value[:2] in ("19", "20")


_DIGIT: Final = re.compile(r"[0-9]")
# A token and what is glued to it: alphanumeric runs joined by one dash; digit groups joined
# by one space, dot, comma, slash or colon (a digit group followed by a letter is not taken).
_CHAIN: Final = re.compile(r"[A-Za-z\d]++(?:[-\u2010\u2011\u2013][A-Za-z\d]++|[ .,/:]\d++(?![A-Za-z]))*+")
_PIECE: Final = re.compile(r"[A-Za-z\d]+|.", re.DOTALL)
_DASHES: Final = "-\u2010\u2011\u2013"
_GLUE: Final = re.compile(r"[A-Za-z0-9\-\u2010\u2011\u2013]")  # what may join a digit to what is before it
_MAX_CHAIN: Final = 48  # "1234 5678" is 9 characters; anything this long is not one code
_MAX_GLUE: Final = 12  # letters glued before the first digit ("K7D2", "AB3X9K")


def _tokens(text: str) -> Iterator[_Token]:
    """Code-shaped tokens of ``text``, left to right (at most :data:`MAX_CANDIDATES` digit runs)."""
    pos = 0
    for _ in range(MAX_CANDIDATES):
        found = _DIGIT.search(text, pos)
        if found is None:
            return
        digit = found.start()
        # Most digit runs stand alone ("10 minutes", "© 2024"): no walk to the left for them.
        start = digit if digit == pos or not _GLUE.match(text, digit - 1) else _chain_start(text, digit, pos)
        chain = _CHAIN.match(text, start if start >= 0 else digit)
        pos = chain.end() if chain else found.end()
        if start >= 0 and 4 <= pos - start <= _MAX_CHAIN:  # "4829" is the shortest code there is
            yield from _classify(text, start, pos)


def _chain_start(text: str, digit: int, floor: int) -> int:
    """Where the token holding the digit at ``digit`` starts; -1 when glued to a long word."""
    start = digit
    for _ in range(4):  # at most 4 dash-joined parts to the left
        stop = max(floor, start - _MAX_GLUE)
        while start > stop and text[start - 1].isascii() and text[start - 1].isalnum():
            start -= 1
        if start > floor and text[start - 1].isascii() and text[start - 1].isalpha():
            return -1  # "verificationcode123456": a word, not a code
        if (
            start - 2 >= floor
            and text[start - 1] in _DASHES
            and text[start - 2].isascii()
            and text[start - 2].isalnum()
        ):
            start -= 1
            continue
        return start
    return -1


def _classify(text: str, start: int, end: int) -> Iterator[_Token]:
    """The codes a chain of pieces can be; nothing for dates, times, numbers, phones, UUIDs."""
    pieces: list[tuple[int, str]] = []  # (offset, piece): alphanumeric runs and 1-char separators
    at = start
    for piece in _PIECE.findall(text, start, end):
        pieces.append((at, piece))
        at += len(piece)
    seps = [p for _, p in pieces[1::2]]
    if any(sep in ".,/:" for sep in seps):
        return  # 10:30, 1.299,00, 01/05/2024, 1.2.3, 192.168.0.1
    digit_groups = [p for _, p in pieces[0::2] if any(c.isdigit() for c in p)]
    if len(digit_groups) >= 3 and sum(c.isdigit() for p in digit_groups for c in p) >= 9:
        return  # "0571-8815 8198", "DE89 3704 0044 0532 0130 00": a phone or an account number
    if " " not in seps:
        yield from _compound(pieces[0::2], text[start:end])
        return
    # Space-separated groups: all digits is one spaced code (or none); otherwise each group
    # ("K7D2 1234", "2024-05-01 483920") is a token of its own.
    groups: list[list[tuple[int, str]]] = [[]]
    for index, (offset, piece) in enumerate(pieces):
        if index % 2 and piece == " ":
            groups.append([])
        elif index % 2 == 0:
            groups[-1].append((offset, piece))
    if all(len(group) == 1 and group[0][1].isdigit() for group in groups):
        yield from _digit_groups([group[0] for group in groups])
        return
    for group in groups:
        first, last = group[0], group[-1]
        yield from _compound(group, text[first[0] : last[0] + len(last[1])])


def _digit_groups(groups: list[tuple[int, str]]) -> Iterator[_Token]:
    """Digit groups separated by single spaces: "4 8 2 9 1 3", "123 456", "12 34 56"."""
    lengths = [len(piece) for _, piece in groups]
    start, end = groups[0][0], groups[-1][0] + lengths[-1]
    joined = _ascii_digits("".join(piece for _, piece in groups))
    if all(n == 1 for n in lengths):
        if 4 <= len(groups) <= 8:
            yield _Token(start, end, joined, "spaced")
    elif len(set(lengths)) == 1 and lengths[0] in (2, 3, 4) and len(groups) <= 4 and len(joined) <= 8:
        yield _Token(start, end, joined, "grouped")
    elif len(groups) == 2 and min(lengths) <= 2 and 4 <= max(lengths) <= 8:
        # "验证码 483920 5分钟": a code next to a small number, not one group of it.
        offset, piece = groups[0] if lengths[0] > lengths[1] else groups[1]
        yield _Token(offset, offset + len(piece), _ascii_digits(piece), "digits")
    # Anything else (3+ uneven groups, "555 0100", "030 12345678") reads as a phone number.


def _compound(parts: list[tuple[int, str]], written: str) -> Iterator[_Token]:
    """Alphanumeric parts joined by dashes (or a single part)."""
    start, end = parts[0][0], parts[-1][0] + len(parts[-1][1])
    if len(parts) == 1:
        token = parts[0][1]
        if token.isdigit():
            if 4 <= len(token) <= 8:
                yield _Token(start, end, _ascii_digits(token), "digits")
        elif _alnum_code(token):
            yield _Token(start, end, token, "alnum")
        return
    if len(parts) == 2:
        (_, first), (second_at, second) = parts
        if first.isdigit() and second.isdigit():
            if len(first) == len(second) and len(first) in (3, 4):  # 123-456, 1234-5678
                yield _Token(start, end, _ascii_digits(first + second), "grouped")
        elif first.isalpha() and second.isdigit():
            if 4 <= len(second) <= 8 and first.upper().strip("X"):  # "XXXX-1234" is a masked number
                if len(first) <= 3 and first.isupper() and first not in _NOT_PREFIXES:  # G-774102
                    yield _Token(start, end, written, "prefixed")
                else:  # "Ref-123456", "OTP-482913": the number, judged with its label or keyword
                    yield _Token(second_at, end, _ascii_digits(second), "digits")
        elif not (first.isdigit() and second.isalpha()) and _alnum_pair(first, second):  # not "10-day"
            yield _Token(start, end, written, "alnum-dash")  # K7D2-QW9P
        return
    if 4 <= len(parts) <= 8 and all(len(p) == 1 and p.isdigit() for _, p in parts):  # 4-8-2-9-1-3
        yield _Token(start, end, _ascii_digits("".join(p for _, p in parts)), "spaced")
    # 3+ dash-joined parts: dates (2024-05-01), phones (415-555-0100), UUIDs, serial keys.


# Words, not prefixes of a code: "OTP-482913" is the code 482913, "ID-48291" an identifier.
_NOT_PREFIXES: Final = _words("OTP PIN TAN MFA SMS ID NO NR REF TEL FAX")


def _ascii_digits(digits: str) -> str:
    return digits if digits.isascii() else "".join(str(unicodedata.decimal(c, 0)) for c in digits)


_RUNS: Final = re.compile(r"[A-Za-z]+|\d+")
# Letters-and-digits words that are not codes (formats, standards, products, units).
_NOT_CODES: Final = _words(
    """SHA1 SHA256 SHA384 SHA512 MD5 AES128 AES256 UTF8 UTF16 UTF32 ISO8601 ISO9001 X509 HTML5 CSS3 MP3 MP4
    H264 H265 IPV4 IPV6 COVID19 1080P 720P 480P 2160P WIN10 WIN11 WIN32 WIN64 X86 X64 ARM64 PS4 PS5
    B2B B2C P2P E2E 2FA MFA 4K 8K 5G 4G 3G LTE USB3 HDMI2 WIFI6 RFC5322 RFC2047 RFC822"""
)


def _alnum_code(token: str) -> bool:
    """Whether a single letters-and-digits token looks like a generated code, not a word."""
    if not 5 <= len(token) <= 12 or token.upper() in _NOT_CODES or not token.isascii():
        return False
    runs = _RUNS.findall(token)
    letters = [run for run in runs if run.isalpha()]
    if not letters or len(letters) == len(runs) or not _code_like_letters(token, letters):
        return False
    if len(runs) == 2:
        # One letter part and one digit part: "ABC123" and "RTX4090" are codes; "SAVE20",
        # "HTML5", "iOS17" are words with a number, and "100MB", "1080P", "3RD" are units.
        # "ES2024", "FY2025": a year with a prefix.
        year = len(runs[1]) == 4 and runs[1][:2] in ("19", "20")
        return runs[0].isalpha() and runs[0].isupper() and len(runs[0]) <= 3 and len(runs[1]) >= 3 and not year
    if token.islower() and len(token) >= 7 and _HEX.fullmatch(token):
        return False  # "4f2a9c1": a commit or a hash
    return not _DIMENSION.fullmatch(token)


def _alnum_pair(first: str, second: str) -> bool:
    """Whether two dash-joined parts look like one generated code ("K7D2-QW9P", "AB12-CD34")."""
    joined = first + second
    if not (2 <= len(first) <= 8 and 2 <= len(second) <= 8 and 5 <= len(joined) <= 16 and joined.isascii()):
        return False
    runs = _RUNS.findall(joined)
    letters = [run for run in runs if run.isalpha()]
    return bool(letters) and len(letters) < len(runs) and _code_like_letters(joined, letters)


_VOWELS: Final = frozenset("AEIOUY")
_CAMEL: Final = re.compile(r"[A-Z][a-z]")
_DIMENSION: Final = re.compile(r"\d+[xX]\d+")
_HEX: Final = re.compile(r"[0-9a-f]+")


def _code_like_letters(token: str, letters: list[str]) -> bool:
    """Generated codes use one case and no words: not "iPhone15", "covid19x", "WINDOWS10"."""
    if token.isupper():  # "QXAB7K" is a code; "SAVE20NOW", "COVID19" hold words (two vowels in a run)
        return not any(len(run) >= 4 and sum(c in _VOWELS for c in run) >= 2 for run in letters)
    if token.islower():  # "4lmz8c3p" is a code; "mp3player" and "h264video" hold words (a run with a vowel)
        return not any(len(run) >= 4 and any(c in "aeiouy" for c in run) for run in letters)
    return not _CAMEL.search(token) and not any(len(run) >= 3 and run.islower() for run in letters)


# --- what is next to a token ---------------------------------------------------------------

_CURRENCY: Final = "$€£¥₩₹₽₺₴₪฿₫¢"
# Immediately before a token: a number sign, sign, path, query, mask or currency.
_BAD_BEFORE: Final = frozenset("#№+/=&?_@\\*•●~%^" + _CURRENCY)
_BAD_AFTER: Final = frozenset("%‰°@_=/\\+*" + _CURRENCY)
_MARKDOWN: Final = frozenset("*_`")
# Right before a token: a currency code or a number sign ("USD 1299", "No. 12345", "Nr.: 12345").
_SIGN_BEFORE: Final = re.compile(
    r"(?:(?<![a-z])(?:usd|us\$|eur|gbp|chf|jpy|cny|rmb|krw|inr|rs\.?|rub|pln|brl|r\$|mxn|cad|aud|hkd|hk\$|twd|nt\$"
    r"|sgd|no\.?|nr\.?|num\.?)|руб\.?|zł|n[°º]\.?)\s?[:#]?\s?$"
)
# Right after a token (one optional space): a currency or a unit (amounts, durations, sizes).
_UNIT_AFTER: Final = re.compile(
    r" ?(?:[%‰°€$£¥₩₹₽₺₴円元块塊원]|(?:eur|usd|gbp|chf|jpy|cny|rmb|krw|inr|rub|pln|brl|mxn|cad|aud|tl|kr|kč|ft|lei"
    r"|zł|zl|руб|грн|dollars?|euros?|yen|yuan|won|rupees?|pesos?|reais|francs?|pounds?|rubles?|roubles?|złotych|lira"
    r"|minutes?|mins?|hours?|hrs?|seconds?|secs?|days?|weeks?|months?|years?|yrs?|km|cm|mm|kg|lbs?|mb|gb|kb|tb"
    r"|px|ms|mph|kwh|mah|miles?|points?|pts|steps|calories|kcal|users|people|members|followers|views|likes"
    r"|items?|pcs|times|stück|stk|minuten|stunden|tage|uhr|heures?|jours?|minutos|horas|días|dias|minuti|giorni"
    r"|uur|dagen|минут[аы]?|мин|час(?:а|ов)?|дн(?:я|ей)|minut|godzin|dni|dakika|saat|gün)(?![^\W\d_])"
    r"|(?:분|시간|초|일|개|년|월|分|秒|小时|小時|天|日|年|月|号|號|時|点|點|个|個|件|次|人|名|歳|岁|歲|ヶ月|か月))"
)
_STREET_AFTER: Final = re.compile(
    r" (?:[A-Z][\w'.-]*+ ){0,2}(?:St|Street|Ave|Avenue|Rd|Road|Blvd|Boulevard|Ln|Lane|Dr|Drive|Pkwy|Parkway|Way|Ct"
    r"|Court|Pl|Place|Sq|Square|Hwy|Highway|Terrace|Circle|Camino|Real|Plaza|Via|Calle|Rue|Strasse|Straße|Weg)\b"
)
# A postal code: after a house number and a comma, before a city name.
_HOUSE_BEFORE: Final = re.compile(r"\d[^\n,]{0,40}, $")
_TIME_H: Final = re.compile(r"[0-2]?\d[hH][0-5]\d")
_NL_POSTCODE_AFTER: Final = re.compile(r" [A-Z]{2}(?![A-Za-z])")
_CITY_AFTER: Final = re.compile(r",? [A-ZÀ-ÖØ-ÞА-ЯЁ][a-zà-öø-ÿа-яё]")
_US_STATE: Final = re.compile(
    r"(?<![A-Za-z])(?:AL|AK|AZ|AR|CA|CO|CT|DE|DC|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ"
    r"|NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY),? $"
)


def _bad_neighbours(text: str, low: str, token: _Token) -> bool:
    """Whether what touches the token makes it a number of another kind (or a broken one)."""
    start, end = token.start, token.end
    before = text[start - 1] if start else ""
    after = text[end] if end < len(text) else ""
    if _TIME_H.fullmatch(token.value):
        return True  # "09h30": a time in French and Portuguese
    if before == "\ufffd" or after == "\ufffd":
        return True  # a broken character is dropped, never "recovered" into a code
    if before in _MARKDOWN and after == before:
        pass  # "**482913**", "`482913`": a text part's bold or code span, not a masked number
    elif before in _BAD_BEFORE or after in _BAD_AFTER:
        return True
    if before == " " and start >= 2 and text[start - 2] in _BAD_BEFORE:
        return True  # "# 12345", "€ 1299", "*** 1234"
    if before == "." and start >= 2 and text[start - 2].isalnum():
        return True  # "v.2024", "file.1234"
    if after == "." and end + 1 < len(text) and text[end + 1].isascii() and text[end + 1].islower():
        return True  # "123456.pdf" (but "482913.Thanks" is a code and a sentence)
    if _SIGN_BEFORE.search(low, max(0, start - 10), start) or _UNIT_AFTER.match(low, end, end + 14):
        return True
    if _STREET_AFTER.match(text, end, end + 40):
        return True  # "1234 Market St", "1600 Amphitheatre Parkway"
    if (
        len(token.value) in (4, 5, 6)
        and _CITY_AFTER.match(text, end)
        and (_HOUSE_BEFORE.search(text, max(0, start - 60), start) or text.endswith(("», ", '", '), 0, start))
    ):
        return True  # "Valeska-Gert-Straße 5, 10243 Berlin", "24 rue des Jeûneurs, 75002 Paris"
    if len(token.value) == 4 and _NL_POSTCODE_AFTER.match(text, end):
        return True  # "1017 CE Amsterdam": four digits and two capitals are a Dutch postcode
    return len(token.value) == 5 and bool(_US_STATE.search(text, max(0, start - 4), start))  # "CA 94103"


# === 3. keywords ===========================================================================

# Phrases are lower case; a space or dash inside one matches a space, a dash or nothing.
# Latin, Greek and Cyrillic phrases must stand as words ("code" is not in "barcode");
# CJK, Thai, Arabic and Hebrew ones match inside words, as those scripts glue words together.

_STRONG: Final = """
verification code|verify code|security code|authentication code|auth code|login code|log in code
|sign in code|sign on code|one time code|one time password|one time passcode|one time pin|otp|2fa code
|two factor code|two factor authentication code|2 step verification code|mfa code|activation code|pin code
|temporary code|single use code|magic code|approval code
|bestätigungscode|sicherheitscode|verifizierungscode|verifikationscode|einmalcode|anmeldecode|authentifizierungscode
|aktivierungscode|freischaltcode|einmalpasswort|einmal passwort|prüfcode|zugangscode|bestätigungs code
|code de vérification|code de verification|code de sécurité|code de securite
|code à usage unique|code a usage unique|code de connexion|code d'authentification|code de validation
|code d'activation|code d'accès|mot de passe à usage unique|code unique
|código de verificación|codigo de verificacion|código de seguridad|codigo de seguridad|código de un solo uso
|código de acceso|código de inicio de sesión|código de autenticación
|código de activación|contraseña de un solo uso|código de validación
|código de verificação|codigo de verificacao|código de segurança|código de autenticação
|código de uso único|código de ativação|código de validação|senha de uso único
|codice di verifica|codice di sicurezza|codice otp|codice di accesso|codice monouso
|codice di autenticazione|codice di attivazione|codice di convalida
|verificatiecode|beveiligingscode|inlogcode|bevestigingscode|toegangscode|eenmalige code|authenticatiecode
|activeringscode|aanmeldcode|verificatie code
|код подтверждения|код проверки|проверочный код|одноразовый код|код безопасности|код для входа|код авторизации
|одноразовый пароль|код верификации|код активации|код подтвердження|код підтвердження|код перевірки
|одноразовий код
|kod weryfikacyjny|kod potwierdzający|kod potwierdzajacy|kod jednorazowy|kod bezpieczeństwa|kod logowania
|kod autoryzacyjny|hasło jednorazowe|kod aktywacyjny|kod dostępu
|doğrulama kodu|doğrulama kodunuz|dogrulama kodu|onay kodu|onay kodunuz|güvenlik kodu|güvenlik kodunuz
|tek kullanımlık|tek kullanimlik|giriş kodu|giriş kodunuz|aktivasyon kodu
|verifieringskod|säkerhetskod|engångskod|bekräftelsekod|inloggningskod|bekræftelseskode|sikkerhedskode
|engangskode|verifikationskode|bekreftelseskode|verifiseringskode|påloggingskode|vahvistuskoodi|turvakoodi
|kertakäyttökoodi|ověřovací kód|bezpečnostní kód|potvrzovací kód|jednorázový kód|ellenőrző kód|biztonsági kód
|megerősítő kód|cod de verificare|cod de securitate|cod de confirmare|κωδικός επαλήθευσης|κωδικός επιβεβαίωσης
|κωδικός ασφαλείας|kode verifikasi|kode otp|kode keamanan|kod pengesahan|kode konfirmasi|mã xác minh|mã xác nhận
|mã xác thực|mã otp|mã bảo mật|رمز التحقق|رمز التأكيد|كود التحقق|رمز الأمان|קוד אימות|รหัสยืนยัน|รหัส otp
|รหัสผ่านครั้งเดียว|सत्यापन कोड|ओटीपी
|验证码|校验码|动态码|驗證碼|校驗碼|動態碼|认证码|認證碼|安全码|安全碼|登录码|登入碼|动态密码|動態密碼
|一次性密码|一次性密碼|認証コード|確認コード|ワンタイム|検証コード|認証番号|パスコード|セキュリティコード
|ログインコード|確認用コード|認証キー|인증번호|인증 번호|인증 코드|인증코드|확인 코드|확인코드|보안 코드|보안코드
|일회용 비밀번호|일회용 코드|로그인 코드
"""
# "Confirmation code" is a one-time code in a sign-up mail and a booking reference in a
# booking mail: strong, unless the subject is about an order, a booking or a trip.
_CONFIRMATION: Final = """
confirmation code|code de confirmation|código de confirmación|codigo de confirmacion|código de confirmação
|codice di conferma|确认码|確認碼|確認番号
"""
_PLAIN: Final = """
code|codes|pin|passcode|access code|2fa|mfa|2sv|kód|kódu|kod|kodu|kodem|kody|kodzie|kodun|kodunuz|kodunu|kode
|koden|koodi|код|кода|коду|кодом|коде|коды|código|codigo|códigos|codice|codici|cod|κωδικός|κωδικό|קוד|رمز|كود|รหัส|कोड|mã
|şifre|şifreniz|sifre|コード|코드
"""
_WEAK: Final = """
verification|verify|verifying|authenticate|authentication|one time|sign in|log in|login
|two factor|2 step|two step|security|identity|token|bestätigung|bestätigen|verifizierung|anmeldung
|vérification|vérifier|connexion|verificación|verificar|verificação|verifica|verificare|verificatie|проверка
|вход|weryfikacja|logowanie|doğrulama|giriş|xác minh|verifikasi|επαλήθευση|אימות|التحقق|सत्यापन
|验证|驗證|认证|認證|登录|登入|認証|ログイン|인증|로그인
"""
_CONFIRM: Final = """
confirm|confirmation|confirmación|confirmação|conferma|bevestiging|подтверждение|подтвердить|potwierdzenie|onay
|xác nhận|ยืนยัน|确认|確認|확인
"""
# "code" that is not a one-time code; matched as a whole phrase, so its "code" never counts.
_NOT_CODE_PHRASES: Final = """
promo code|promotional code|coupon code|discount code|gift code|gift card code|voucher code|referral code|invite code
|invitation code|reward code|redemption code|redeem code|qr code|bar code|zip code|postal code|post code|area code
|country code|dial code|dialing code|dress code|source code|error code|status code|response code|exit code
|tracking code|order code|product code|item code|article code|booking code|reservation code|tax code|sort code
|swift code|bank code|bic code|routing code|html code|embed code|color code|colour code|pickup code|pick up code
|code review|code owners|code of conduct|code snippet|code block|code base|codebase|code change|code changes
|code coverage|code quality|code sample|code samples|code editor|code examples|code example
|gutscheincode|rabattcode|aktionscode|promocode|postleitzahl|fehlercode|buchungscode|code promo|code promotionnel
|code de réduction|code postal|code d'erreur|code de réservation|code cadeau|código promocional|código de descuento
|código postal|código de error|código de reserva|cupón|cupom|código de desconto|codice sconto|codice promozionale
|codice postale|codice fiscale|codice di prenotazione|codice coupon|kortingscode|actiecode|promotiecode|промокод
|почтовый индекс|код купона|код скидки|код заказа|kod rabatowy|kod promocyjny|kod pocztowy|indirim kodu
|promosyon kodu|kupon kodu|posta kodu|优惠码|優惠碼|折扣码|邀请码|邀請碼|邮编|邮政编码|兑换码|兌換碼|优惠券|取件码|券码
|クーポンコード|郵便番号|割引コード|プロモーションコード|招待コード|프로모션 코드|할인 코드|쿠폰 코드|우편번호|쿠폰 번호
|campaign code|キャンペーンコード|캠페인 코드|活动码|活動碼
"""
# Labels of numbers that are not codes: they disqualify a number bound to them ("Customer ID:
# 48291", "48291 is your account number").
_LABELS: Final = """
reference|ref|account|acct|customer|client|member|membership|ticket|case|claim|serial|model|sku|item|policy
|contract|loan|iban|card|ending in|ends in|ending with|last four|last 4|zip|postal|postcode|p.o. box|po box|suite
|apt|apartment|unit|room|gate|seat|terminal|platform|vat|tax|id|request|application|patient|student|employee
|license|licence|vin|imei|version|pnr|record locator|confirmation number|confirmation no|commit|sha|hash
|pull request|pr|issue|build|run|job|kundennummer|kunde
|konto|kontonummer|referenz|vorgang|vorgangsnummer|référence|compte|referencia|cuenta|cliente|conta|riferimento
|conto|referentie|rekening|klant|klantnummer|hesap|계좌|末四位|尾号|尾號|末尾|下4桁|下四桁|끝자리|뒷자리|末四碼|末四码|後四碼|后四码|統一編號|统一编号|統一編号
|税号|稅號|инн|огрн|кпп|(우)
"""
# Labels that also sink a number merely near them (within a few words, same phrase): orders,
# bills, parcels, trips, phones. "Order 4829-1234", "客服 400-123-4567", "고객센터 1577-3754".
_NEAR_LABELS: Final = """
order|orders|invoice|bill|tracking|track|shipment|shipping|parcel|package|delivery|consignment|waybill|flight
|booking|reservation|receipt|transaction|txn|phone|telephone|tel|fax|mobile|cell|call|hotline|helpline
|customer service|customer support|bestellung|bestellnummer|auftrag|auftragsnummer|rechnung|rechnungsnummer
|sendung|sendungsnummer|paket|lieferung|buchung|buchungsnummer|telefon|handy|mobil|commande|facture|suivi|colis
|livraison|réservation|téléphone|tél|pedido|factura|seguimiento|envío|envio|paquete|reserva|teléfono|encomenda
|fatura|rastreamento|entrega|telefone|ordine|fattura|spedizione|pacco|prenotazione|telefono|bestelling
|bestelnummer|factuur|zending|pakket|boeking|telefoon|заказ|заказа|счёт|счет|счета|отслеживания|трек|посылка
|посылки|бронирование|бронирования|телефон|zamówienie|zamówienia|faktura|faktury|przesyłka|przesyłki|rezerwacja
|rezerwacji|sipariş|siparişiniz|siparis|kargo|takip|rezervasyon|订单|訂單|发票|發票|运单|運單|快递|快遞|单号|單號
|电话|電話|手机|手機|客服|热线|注文|請求書|追跡|予約|伝票|お問い合わせ番号|お問い合わせ|주문|송장|운송장|예약
|청구서|전화|고객센터|appelez|appeler|llame|llamar|ligue|chiami|chiamare|bel|звоните|позвоните|zadzwoń|arayın
"""
# Words that make a nearby number something else (a meeting, a trip, an address, an amount,
# a date) when they are closer to it than the code word.
_CONTEXT: Final = """
boarding|itinerary|departure|arrival|airline|street|avenue|ave
|road|blvd|boulevard|lane|parkway|floor|st.|straße|strasse|str.|platz|gasse|postfach|rue|calle|avenida|rua
|piazza|straat|ulica|улица|cadde|sokak|丁目|番地|price|total|subtotal|amount|balance|paid|payment|charged|refund
|fee|cost|summe|betrag|gesamt|montant|prix|importe|precio|valor|preço|importo|prezzo|bedrag|prijs|сумма|цена
|kwota|cena|tutar|fiyat|金额|金額|价格|合計|料金|금액|가격|date|dated|datum|fecha|дата|tarih|日期
"""
# Meetings: a number near one of these words is a meeting ID or a dial-in, unless a code word
# names it right before ("Passcode: 739210" is what a guest types, so it is a code).
_MEETING: Final = """
meeting|webinar|conference call|dial in|join by phone|zoom meeting|teams meeting|besprechung|réunion|reunión
|reunião|riunione|vergadering|встреча|spotkanie|toplantı|会议|會議|会議|회의
"""
# Promotions: a code near one of these words (and not named a verification code) is a promo
# code, whatever the word order.
_OFFTOPIC: Final = """
promo|promotion|promotional|coupon
|discount|voucher|% off|percent off|gift card|redeem|referral|cashback|checkout|shop now|rabatt|gutschein
|réduction|remise|soldes|descuento|cupón|cupom|desconto|sconto|korting|скидк|купон|акция
|rabat|zniżk|promocja|indirim|kampanya|优惠|折扣|促销|クーポン|割引|セール|할인|쿠폰|campaign|キャンペーン
|캠페인|活动代码|活動代碼
"""


def _phrases(block: str) -> list[str]:
    return [p.strip() for p in block.replace("\n", "").split("|") if p.strip()]


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


class _PhraseScanner(NamedTuple):
    """Many phrases found in one pass of a regular expression (a trie, see :func:`_trie_pattern`).

    Phrases starting with an ASCII character and the others are two expressions: the second
    runs only on text that is not ASCII, and starts with a one-character test, so English
    text never pays for the Chinese, Korean or Cyrillic branches.
    """

    ascii_first: re.Pattern[str]
    other_first: re.Pattern[str]

    @classmethod
    def of(cls, phrases: Iterable[str], sep: str = r"[\s\-]?") -> _PhraseScanner:
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
        if not text[start:end].isascii():
            found.extend(self.other_first.finditer(text, start, end))
            found.sort(key=lambda m: m.start())
        return found


KeywordKind = Literal[
    "strong",
    "confirmation",
    "plain",
    "weak",
    "confirm",
    "not-code",
    "label",
    "near-label",
    "context",
    "offtopic",
    "meeting",
]
_KEYWORD_KINDS: Final[tuple[tuple[KeywordKind, str], ...]] = (
    # Earlier kinds win a phrase spelled alike ("code" is plain; "promo code" is not-code).
    ("not-code", _NOT_CODE_PHRASES),
    ("strong", _STRONG),
    ("confirmation", _CONFIRMATION),
    ("plain", _PLAIN),
    ("weak", _WEAK),
    ("confirm", _CONFIRM),
    ("label", _LABELS),
    ("near-label", _NEAR_LABELS),
    ("offtopic", _OFFTOPIC),
    ("meeting", _MEETING),
    ("context", _CONTEXT),
)


def _keyword_table() -> dict[str, KeywordKind]:
    table: dict[str, KeywordKind] = {}
    for kind, block in _KEYWORD_KINDS:
        for phrase in _phrases(block):
            table.setdefault(_keyword_key(phrase), kind)
    return table


def _keyword_key(phrase: str) -> str:
    return "".join(phrase.replace("-", " ").split())


_KEYWORD_OF: Final = _keyword_table()
_KEYWORD: Final = _PhraseScanner.of(p for _, block in _KEYWORD_KINDS for p in _phrases(block))


def _word_char(char: str) -> bool:
    """A letter or digit of a script that separates words with spaces (Latin, Greek, Cyrillic)."""
    return char.isalnum() and (char < "\u0530" or "\u1e00" <= char <= "\u1eff")


_TIER: Final = {"strong": 30, "plain": 22, "weak": 14}


class _Keyword(NamedTuple):
    start: int
    end: int
    kind: KeywordKind


def _keywords(low: str, spans: Iterable[tuple[int, int]]) -> list[_Keyword]:
    """The keywords in ``low`` inside the (sorted, possibly overlapping) spans, in order."""
    found: list[_Keyword] = []
    for start, end in _merged(spans):
        for match in _KEYWORD.finditer(low, start, end):
            phrase = match.group()
            kind = _KEYWORD_OF.get(phrase) or _KEYWORD_OF.get(_keyword_key(phrase))
            if kind is None:
                continue  # cannot happen (every match is a phrase); kept as a guard
            a, b = match.span()
            if a and _word_char(low[a]) and _word_char(low[a - 1]):
                continue  # "barcode", "decode"
            if b < len(low) and _word_char(low[b - 1]) and _word_char(low[b]) and not low[b].isdigit():
                continue  # "codec", "pinned"
            found.append(_Keyword(a, b, kind))
    return found


def _merged(spans: Iterable[tuple[int, int]]) -> Iterator[tuple[int, int]]:
    current: tuple[int, int] | None = None
    for start, end in sorted(spans):
        if current is not None and start <= current[1]:
            current = (current[0], max(current[1], end))
            continue
        if current is not None:
            yield current
        current = (start, end)
    if current is not None:
        yield current


# Words that may stand between a code word and its code ("code is", "code below:", "码是").
_FILLER: Final = _words(
    """is was are be the your our my this of for a an code codes here below follows as please enter use number
    id no nr ist lautet lauten ihr ihre dein deine unten est sont votre vos ton ta ci dessous es son su sus tu
    abajo é è são seu sua abaixo il la le lo sotto de du da del di van je uw hieronder to jest twój twoj sizin
    ваш это ниже poniżej aşağıda 是 为 為 如下 以下 は が 는 은 이 가 을 를 아래 #"""
)
# Words that may stand between a label and its number ("Order No.", "numéro de commande").
# Not "code": "your order. Your code is 123456" binds the code to "code", not to "order".
_LABEL_FILLER: Final = _words(
    """number numbers num no nr n nº n° id is was the your our my of for a ist lautet ihr ihre est votre es su tu
    é è de du da del di van uw numéro numero número nummer номер ваш numer twój numarası numarasi numaranız
    sizin 番号 号 號 번호 号码 號碼 编号 編號 是 为 は が 는 은 이 # №"""
)
# After a number, before its label: "123456 is your order number".
_RIGHT_FILLER: Final = _words(
    """is ist est es é è was are be your the our this that ihre ihr votre vos tu su sus il la le de du of die der
    das это ваш twój sizin 您的 你的 是 为 は が 는 은 이"""
)
_PUNCTUATION_GAP: Final = " \t\n:-–—([{【「=,\"'"
_GAP_WORDS: Final = re.compile(r"[^\W\d_]+|\d|[#№]")
_ABBREVIATION: Final = re.compile(r"(?<![a-z])(?:no|nr|num|n[°º])\.")


def _same_phrase(gap: str) -> bool:
    """Whether a word and a number are in one phrase: no other number, no sentence end between.

    "Reference 7788 is for support. Your code: 4 8 2 9" - the label belongs to 7788.
    """
    return not any(c.isdigit() or c in ".!?;。！？" for c in gap)


def _bound(gap: str, filler: frozenset[str]) -> bool:
    """Whether only filler words stand in ``gap``: no digit, no sentence end, at most 30 characters."""
    if len(gap) > 30:
        return False
    if not gap.strip(_PUNCTUATION_GAP):
        return True  # ": ", " - ", "\n"
    if "." in gap:
        gap = _ABBREVIATION.sub(" ", gap)
    return not any(c in gap for c in ".!?;。！？") and all(word in filler for word in _GAP_WORDS.findall(gap))


# === 4. scoring and ranking ================================================================

_FORMAT: Final[dict[Kind, int]] = {
    "grouped": 5,
    "spaced": 5,
    "prefixed": 6,
    "alnum": 2,
    "alnum-dash": 4,
}
_DIGITS_FORMAT: Final = {4: 1, 5: 2, 6: 6, 7: 2, 8: 3}
_SOURCE_ORDER: Final[dict[Source, int]] = {"subject": 0, "text": 1, "html": 2}
_NEAREST: Final = 8  # keywords looked at on each side of a token
_LABEL_REACH: Final = 25  # an unbound label this close, and closer than the code word, sinks a number
_CONTEXT_REACH: Final = 60
_OFFTOPIC_REACH: Final = 60


class _Scored(NamedTuple):
    token: _Token
    text: _Text
    score: float
    lone: bool  # no keyword near it: counts only as the one candidate of a message about a code
    alone: bool  # alone on its line

    @property
    def key(self) -> str:
        """Occurrences with one key are one code: "G-774102" and "774102" are one."""
        if self.token.kind == "prefixed":
            return _ascii_digits("".join(c for c in self.token.value if c.isdigit()))
        return self.token.value.upper()


def _rank_codes(texts: list[_Text], emphasized: frozenset[str]) -> tuple[Code, ...]:
    commerce = _about_commerce(texts[0].low)
    scored = [item for text in texts for item in _score_text(text, emphasized, commerce)]
    keyed = [item for item in scored if not item.lone]
    if keyed:
        scored = keyed
    elif scored:
        scored = _lone_candidate(scored, texts, commerce)

    groups: dict[str, list[_Scored]] = {}
    for item in scored:
        groups.setdefault(item.key, []).append(item)
    ranked: list[tuple[float, int, int, _Scored]] = []
    for items in groups.values():
        sources = {s.text.source for s in items}
        total = max(s.score for s in items) + 3 * (len(sources) - 1) + min(len(items) - 1, 2)
        # The occurrence shown: the best one outside the HTML part if there is one (the HTML part
        # is read where it gives more), written with its prefix if any ("G-774102").
        shown = [s for s in items if s.token.kind == "prefixed"] or [s for s in items if s.text.source != "html"]
        best = max(shown or items, key=lambda s: (s.score, -_SOURCE_ORDER[s.text.source]))
        ranked.append((-total, _SOURCE_ORDER[best.text.source], best.token.start, best))
    ranked.sort(key=lambda r: r[:3])
    if any(not r[3].token.year for r in ranked):
        ranked = [r for r in ranked if not r[3].token.year]  # a year only when nothing better exists
    codes = []
    for *_, best in ranked[:MAX_CODES]:
        token, text = best.token, best.text
        codes.append(Code(value=token.value, context=_context(text.text, token.start, token.end), source=text.source))
    return tuple(codes)


def _lone_candidate(scored: list[_Scored], texts: list[_Text], commerce: bool) -> list[_Scored]:
    """The occurrences of the one keyword-less candidate, if the message is about a code.

    A code word in the subject vouches for the one candidate of the body; a code word anywhere
    else (a heading: "Confirm your email") vouches for it only when it stands alone on its line.
    Two distinct candidates: neither is trusted.
    """
    kind = _message_kind(texts[:1], commerce)
    if kind is None:
        scored = [item for item in scored if item.alone]
        kind = _message_kind(texts[1:], commerce) if scored else None
    if kind is None or len({item.key for item in scored}) != 1:
        return []
    return [item._replace(score=item.score + _TIER[kind] - 8) for item in scored]


def _message_kind(texts: list[_Text], commerce: bool) -> KeywordKind | None:
    """The strongest code word in ``texts``, unless they speak of a promotion or a meeting."""
    kinds = {_effective(k.kind, commerce) for text in texts for k in _keywords(text.low, [(0, len(text.low))])}
    if kinds & {"offtopic", "meeting", "not-code"}:
        return None
    return next((kind for kind in ("strong", "plain", "weak") if kind in kinds), None)


# Orders, bookings, trips, bills: a subject about one of these makes "confirmation" a reference.
_COMMERCE: Final = re.compile(
    r"order|booking|reservation|flight|trip|itinerary|receipt|invoice|shipping|shipment|shipped|delivery"
    r"|delivered|payment|purchase|ticket|appointment|bestellung|buchung|rechnung|commande|réservation|facture"
    r"|pedido|reserva|factura|ordine|prenotazione|fattura|bestelling|boeking|factuur|заказ|бронир|счёт|счет"
    r"|zamówien|rezerwac|faktur|sipariş|rezervasyon|fatura|订单|訂單|预订|預訂|发票|發票|注文|予約|請求|주문|예약|영수증"
)


def _about_commerce(subject_low: str) -> bool:
    return bool(_COMMERCE.search(subject_low))


def _effective(kind: KeywordKind, commerce: bool) -> KeywordKind:
    """What a keyword means in this message: "confirmation code" of a booking is a reference."""
    if kind == "confirmation":
        return "label" if commerce else "strong"
    if kind == "confirm":
        return "context" if commerce else "weak"
    return kind


def _score_text(text: _Text, emphasized: frozenset[str], commerce: bool) -> Iterator[_Scored]:
    """Every acceptable occurrence of a code in one text, with its score."""
    tokens = [t for t in _tokens(text.text) if not _bad_neighbours(text.text, text.low, t)]
    if not tokens:
        return
    alone = [_alone_on_line(text.text, t) for t in tokens]
    # Keywords are looked for within the window (+ the longest keyword: one across the edge is whole).
    margins = [(_WIDE_WINDOW if on_own_line else KEYWORD_WINDOW) + 40 for on_own_line in alone]
    keywords = _keywords(
        text.low, ((max(0, t.start - margin), t.end + margin) for t, margin in zip(tokens, margins, strict=True))
    )
    starts = [k.start for k in keywords]
    for token, on_own_line in zip(tokens, alone, strict=True):
        window = _WIDE_WINDOW if on_own_line else KEYWORD_WINDOW
        verdict = _judge(text.low, token, keywords, starts, window, commerce)
        if verdict is None:
            continue
        score, lone = verdict
        if lone and (token.year or not _strong_alone(token)):
            continue
        if token.year:
            score -= 40
        score += _format_score(token) + _position_score(text, token)
        if on_own_line:
            score += 8
        if text.source == "html" and text.text[token.start : token.end] in emphasized:
            score += 4
        yield _Scored(token, text, score, lone, on_own_line)


def _judge(
    low: str, token: _Token, keywords: list[_Keyword], starts: list[int], window: int, commerce: bool
) -> tuple[float, bool] | None:
    """(keyword score, lone) for a token, or None when its neighbourhood disqualifies it."""
    best: float | None = None
    best_gap = window + 1
    best_kind: KeywordKind | None = None
    best_bound = False
    nearest_negative = _CONTEXT_REACH + 1
    offtopic = False
    meeting = False
    # The nearest keywords on each side decide; a run of "code code code" cannot cost more.
    first = max(bisect_left(starts, token.start - window - 40), bisect_left(starts, token.start) - _NEAREST)
    for keyword in keywords[first : bisect_left(starts, token.end) + _NEAREST]:
        if keyword.start >= token.end + window:
            break
        if keyword.end <= token.start:
            gap_text, left = low[keyword.end : token.start], True
        elif keyword.start >= token.end:
            gap_text, left = low[token.end : keyword.start], False
        else:
            continue
        gap = len(gap_text)
        kind = _effective(keyword.kind, commerce)
        if kind in _TIER:
            if gap > (window if kind != "weak" else _WEAK_WINDOW):
                continue
            bound = gap <= 16 and _bound(gap_text, _FILLER if left else _RIGHT_FILLER)
            # "code is 482913" and "code 771234" are equally close: distance counts past 4 characters.
            score = _TIER[kind] - max(0, gap - 4) / 4 + (6 if bound else 0)
            if best is None or score > best:
                best, best_gap, best_kind, best_bound = score, gap, kind, bound
        elif kind in ("label", "near-label", "not-code"):
            # Across a line break a label binds only when it opens its line: "Account:\n48291"
            # is an account number, "... to your account:\n\n305 918" is a sentence and a code.
            heads = "\n" not in gap_text or (left and _heads_line(low, keyword.start))
            if heads and _bound(gap_text, _LABEL_FILLER if left else _RIGHT_FILLER):
                return None  # "order number: 123456", "123456 is your order number", "promo code SAVE20"
            if kind != "label" and gap <= _LABEL_REACH and _same_phrase(gap_text):
                nearest_negative = min(nearest_negative, gap)
        elif kind == "context" and gap <= _CONTEXT_REACH and _same_phrase(gap_text):
            nearest_negative = min(nearest_negative, gap)
        elif kind == "offtopic" and gap <= _OFFTOPIC_REACH:
            offtopic = True
        elif kind == "meeting" and gap <= _OFFTOPIC_REACH:
            meeting = True
    if best is None:
        return None if offtopic or nearest_negative <= _CONTEXT_REACH else (0.0, True)
    if token.year and (best_gap > 12 or best_kind == "weak"):
        return None  # a year is a code only right beside a code word: "PIN: 2024"
    if (offtopic and best_kind != "strong") or (meeting and best_kind != "strong" and not best_bound):
        return None
    if nearest_negative < best_gap:
        if best_kind != "strong" or (nearest_negative <= 8 and best_gap > 16):
            return None  # "appelez le 3646": a label right before it wins over a code word further off
        best -= 10
    return best, False


def _heads_line(low: str, start: int) -> bool:
    """Whether a label opens its line ("Account number: 48291", "Your account: 48291"), as
    opposed to ending a sentence ("Use this code to log in to your account:\n\n305 918")."""
    line_start = low.rfind("\n", max(0, start - 60), start) + 1
    if line_start == 0 and start > 60:
        return False
    return len(low[line_start:start].split()) <= 3


def _strong_alone(token: _Token) -> bool:
    """Whether a token without a keyword is code-like enough to trust the subject for it."""
    return token.kind != "alnum" or (token.value.isupper() and sum(c.isdigit() for c in token.value) >= 2)


def _format_score(token: _Token) -> int:
    if token.kind == "digits":
        return _DIGITS_FORMAT.get(len(token.value), 0)
    return _FORMAT[token.kind]


def _position_score(text: _Text, token: _Token) -> int:
    if text.source == "subject":
        return 5
    size = len(text.text)
    if token.start < 500 or token.start < 0.3 * size:
        return 4
    return -4 if size > 1500 and token.start > 0.8 * size else 0


_LINE_TRIM: Final = " \t:.-–—*\"'()[]【】「」<>"


def _alone_on_line(text: str, token: _Token) -> bool:
    """Whether the token is all its (short) line says: "Your code:\n\n483920\n"."""
    reach = 40
    line_start = text.rfind("\n", max(0, token.start - reach), token.start)
    if line_start < 0 and token.start > reach:
        return False
    line_end = text.find("\n", token.end, token.end + reach)
    if line_end < 0 and len(text) - token.end > reach:
        return False
    line = text[line_start + 1 : line_end if line_end >= 0 else len(text)]
    return line.strip(_LINE_TRIM) == text[token.start : token.end]


def _context(text: str, start: int, end: int, side: int = 50) -> str:
    """The words around ``text[start:end]``: whole words (a cut one is dropped), whitespace collapsed."""
    low, high = max(0, start - side), min(len(text), end + side)
    left, right = text[low:start], text[end:high]
    if low > 0 and (space := _SPACE.search(left)):
        left = left[space.end() :]  # CJK text has no spaces: then it is cut mid-"word", as it must
    if high < len(text) and (space := _LAST_SPACE.search(right)):
        right = right[: space.start()]
    return " ".join((left + text[start:end] + right).split())


_SPACE: Final = re.compile(r"\s")
_LAST_SPACE: Final = re.compile(r"\s(?=\S*$)")


# === links =================================================================================

# Words read in a link's text and in its URL (lower-cased). A space or dash in a phrase also
# matches "_" or nothing: "sign in" finds "signin", "sign-in", "sign_in".
_LINK_WORDS: Final[tuple[tuple[str, str], ...]] = (
    # What a verification link does: verify, confirm, activate, reset, validate, approve.
    (
        "intent",
        """verif|activat|reset|magic|validat|approv|passwordless|aktivier|zurücksetz|zuruecksetz|vérif|activer
        |réinitialis|reinitialis|valider|activar|ativar|restablec|redefinir|attiva|reimposta|activeer|verifieer
        |активир|сброс|восстанов|aktywuj|weryfik|resetuj|doğrula|dogrula|etkinleştir|sıfırla|验证|驗證|激活|啟用
        |重置|认证|認證|認証|有効化|再設定|リセット|인증|활성화|재설정""",
    ),
    # Confirming: an address in a sign-up mail, an order in an order mail (then it does not count).
    (
        "confirm",
        "confirm|bestätig|bestaetig|conferm|bevestig|подтвер|potwierdz|onayla|确认|確認|확인",
    ),
    # Signing in: a verification link in a mail about signing in, a header link in a newsletter.
    (
        "login",
        """sign in|log in|sign on|auth|token|otp|anmeld|einlogg|connexion|se connecter|iniciar sesi
        |inicia sesi|entrar|accedi|inloggen|aanmelden|войти|вход|zaloguj|logowanie|giriş|登录|登入|登錄|ログイン
        |로그인""",
    ),
    # Never a verification link, whatever else it says.
    (
        "never",
        """unsub|opt out|abmeld|abbestell|désabonn|desabonn|désinscri|desinscri|darse de baja|dar de baja
        |cancelar suscrip|cancelar la suscrip|descadastr|disiscri|annulla iscrizione|annulla l'iscrizione
        |uitschrijv|afmeld|отпис|wypisz|rezygn|abonelik|退订|退訂|取消订阅|配信停止|購読解除|수신 거부|privacy
        |datenschutz|confidentialit|privacidad|privacidade|riservatezza|конфиденц|prywatn|gizlilik|隐私|隱私
        |プライバシー|개인정보|terms|impressum|imprint|agb|nutzungsbedingungen|términos|terminos|termos|termini
        |voorwaarden|regulamin|koşullar|条款|條款|規約|약관|view in browser|view in your browser|view in a browser
        |view it in your browser|view this email in your browser|view this email in a browser|view online
        |view email online|web version|webversion|online version|webansicht|im browser|navigateur|navegador
        |app store|google play|download the app|download our app|follow us""",
    ),
    # Not a verification link unless it says verify, confirm, reset ... itself.
    (
        "soft-never",
        """help|support|faq|contact|hilfe|kontakt|aide|ayuda|ajuda|aiuto|помощ|pomoc|yardım|帮助|幫助
        |ヘルプ|도움말|고객센터|preferences|einstellungen|settings|report|legal""",
    ),
    # Confirming an order, a booking or a meeting is not confirming an address.
    (
        "not-account",
        """order|booking|reservation|shipping|shipment|delivery|payment|purchase|appointment|attendance
        |rsvp|meeting|event|ticket|flight|trip|bestellung|buchung|commande|réservation|pedido|reserva|ordine
        |prenotazione|bestelling|boeking|заказ|бронир|zamówien|rezerwac|sipariş|rezervasyon|订单|訂單|预订|預訂
        |注文|予約|주문|예약""",
    ),
    # What a subject says when the mail is about signing in.
    ("topic", "code|password|passwort|mot de passe|contraseña|senha|пароль|hasło|şifre|密码|密碼|パスワード|비밀번호"),
    # Longer words that hold a shorter one above without its meaning.
    ("ignore", "author|authority|supported|supporter|helpful|reorder|border|eventually|contacts"),
)
# Short words that count only as whole words ("otp" is not in "footprint", "aide" not in "aided").
_LINK_WHOLE_WORDS: Final = _words("otp entrar вход aide agb help faq order event trip report legal token")
_LINK_KIND: Final = {_keyword_key(p): kind for kind, block in _LINK_WORDS for p in _phrases(block)}
_LINK_SCAN: Final = _PhraseScanner.of((p for _, block in _LINK_WORDS for p in _phrases(block)), sep=r"[\s\-_]?")
_LETTER: Final = re.compile(r"[^\W\d_]")

_SOCIAL: Final = (
    "facebook.com", "fb.com", "fb.me", "twitter.com", "x.com", "instagram.com", "linkedin.com", "lnkd.in",
    "youtube.com", "youtu.be", "tiktok.com", "pinterest.com", "t.me", "telegram.me", "wa.me", "whatsapp.com",
    "weibo.com", "vk.com", "line.me", "threads.net", "snapchat.com", "reddit.com", "medium.com",
)  # fmt: skip
# Documentation and help centres: their articles speak of authentication, never perform it.
_HELP_HOSTS: Final = frozenset(
    {"docs", "doc", "help", "support", "kb", "developer", "developers", "learn", "community"}
)
_HELP_PATHS: Final = ("/articles/", "/answer/", "/docs/", "/help/", "/hc/", "/kb/", "/faq")
_APP_STORES: Final = ("apps.apple.com", "itunes.apple.com", "play.google.com", "appgallery.huawei.com",
                      "apps.microsoft.com")  # fmt: skip
_SCHEME: Final = re.compile(r"https?://", re.IGNORECASE)
_HOST: Final = re.compile(r"https?://(?:[^@/?#\s]*@)?([^/?#:\s]+)", re.IGNORECASE)
_PIXEL: Final = (".gif", ".png", ".jpg", ".jpeg", ".webp", ".bmp", ".svg", ".ico")
# The rest of a bare URL after "://": up to whitespace, quotes, angle brackets, CJK or
# fullwidth text (an URL glued to a Chinese sentence ends where the sentence starts).
_URL_REST: Final = re.compile(
    r"[^\s<>\"\u2018-\u201f\u00ab\u00bb\u2039\u203a\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\ufe30-\ufe4f"
    r"\uff00-\uffef\ufffd\u200b-\u200d\u2060\ufeff]*+"
)
_TRAILING: Final = ".,;:!?'*"
_CLOSERS: Final = {")": "(", "]": "[", "}": "{"}
_MAX_BARE_URLS: Final = 500
# What of a URL is read for intent: host and path. Not the query: a tracking blob, or the
# address of the link's own destination, which its text names anyway.
_INTENT_PART: Final = re.compile(r"[^?#]{0,256}")
_C0_AND_SPACE: Final = "".join(map(chr, range(33)))


class _LinkSeen(NamedTuple):
    """A link as found: ``label`` is its text, or the words before it in text."""

    url: str
    label: str
    source: Literal["text", "html"]
    order: int
    button: bool


def _rank_links(message: ParsedMessage, rendered: Rendered | None) -> tuple[Link, ...]:
    """Every link that qualifies by intent, best first, one entry per URL."""
    seen: list[_LinkSeen] = []
    if rendered is not None:
        for order, anchor in enumerate(rendered.anchors):
            url = _href(anchor.href)
            if url is not None:
                seen.append(_LinkSeen(url, anchor.text, "html", order, anchor.button))
        seen.extend(_bare_links(rendered.text, "html"))
    seen.extend(_bare_links(message.text[:MAX_TEXT_CHARS], "text"))
    if not seen:
        return ()

    # One scan over every label and URL together: one regex call instead of dozens per link.
    label_at: list[int] = []
    url_at: list[int] = []
    pieces = [f"{item.label}\n{_INTENT_PART.match(item.url).group()}\n" for item in seen]  # type: ignore[union-attr]
    at = 0
    for item, piece in zip(seen, pieces, strict=True):
        label_at.append(at)
        url_at.append(at + len(item.label) + 1)
        at += len(piece)
    haystack = "".join(pieces).replace("\u0130", "I").lower()  # lower() keeps every offset
    found: dict[int, tuple[set[str], set[str], set[str]]] = {}  # link -> kinds in label, URL, URL path
    for match in _LINK_SCAN.finditer(haystack):
        phrase = match.group()
        kind = _LINK_KIND.get(phrase) or _LINK_KIND.get(_link_key(phrase))
        start, end = match.span()
        index = bisect_left(label_at, start + 1) - 1
        in_url = start >= url_at[index]
        if kind is None or kind == "ignore" or (kind == "soft-never" and in_url):
            continue  # a "support." host says nothing; "Support" as a link's text does
        if phrase in _LINK_WHOLE_WORDS and (
            (start and _LETTER.match(haystack, start - 1)) or _LETTER.match(haystack, end)
        ):
            continue
        label_kinds, url_kinds, path_kinds = found.setdefault(index, (set(), set(), set()))
        if not in_url:
            label_kinds.add(kind)
        else:
            url_kinds.add(kind)
            if kind != "login" and _in_path(seen[index].url, start - url_at[index]):
                path_kinds.add(kind)

    subject = message.subject[:MAX_SUBJECT_CHARS].lower()
    commerce = _about_commerce(subject)
    signs = {"intent", "login", "topic"} if commerce else {"intent", "confirm", "login", "topic"}
    about_login = any(_LINK_KIND.get(_link_key(m.group())) in signs for m in _LINK_SCAN.finditer(subject))
    best: dict[str, tuple[float, _LinkSeen]] = {}
    for index, (label_kinds, url_kinds, path_kinds) in found.items():
        item = seen[index]
        if not commerce:  # confirming an address; in an order mail, confirming the order
            for kinds in (label_kinds, url_kinds, path_kinds):
                if "confirm" in kinds:
                    kinds.add("intent")
        score = _link_score(item, label_kinds, url_kinds, path_kinds, about_login)
        # One link in several places: the best reason wins, and the HTML anchor's text is the better label.
        if score is not None and (
            item.url not in best
            or (score, item.source == "html") > (best[item.url][0], best[item.url][1].source == "html")
        ):
            best[item.url] = (score, item)
    if not best:
        return ()
    places = Counter(item.url for item in seen)
    ranked = sorted(best.values(), key=lambda entry: -(entry[0] + 4 * min(places[entry[1].url] - 1, 2)))
    return tuple(Link(url=item.url, context=_label(item.label), source=item.source) for _, item in ranked[:MAX_LINKS])


def _link_score(item: _LinkSeen, label: set[str], url: set[str], path: set[str], about_login: bool) -> float | None:
    """How surely the link is the one to open; None when it does not qualify."""
    if "never" in label or "never" in path or "unsub" in item.url.lower():
        return None
    label_intent = "intent" in label and "not-account" not in label
    if "soft-never" in label and not label_intent:
        return None
    url_intent = "intent" in url and "not-account" not in path
    path_intent = url_intent and "intent" in path
    if not (label_intent or url_intent or (about_login and ("login" in label or "login" in url))):
        return None
    host_match = _HOST.match(item.url)
    host = host_match.group(1).lower() if host_match else ""
    path_text = item.url[host_match.end() :].split("?", 1)[0].split("#", 1)[0].lower() if host_match else ""
    if _on(host, _APP_STORES) or path_text.endswith(_PIXEL):
        return None  # a store, a tracking pixel
    if _on(host, _SOCIAL) and not (path_intent or (about_login and "login" in label)):
        return None  # "follow us", even when it says "Verify us on ..."; "Sign in to Medium" stays
    if (host.split(".", 1)[0] in _HELP_HOSTS or path_text.startswith(_HELP_PATHS)) and not path_intent:
        return None  # documentation and help articles about verifying are not a verification
    return (
        30 * label_intent + (20 if path_intent else 14 if url_intent else 0)
        + 16 * ("login" in label) + 8 * ("login" in url) + 6 * item.button - 0.3 * min(item.order, 30)
    )  # fmt: skip


def _link_key(words: str) -> str:
    return _keyword_key(words.replace("_", " "))


def _in_path(url: str, offset: int) -> bool:
    """Whether ``url[offset]`` is in the path (not the host, the query or the fragment)."""
    scheme = _SCHEME.match(url)
    path_start = url.find("/", scheme.end()) if scheme else -1
    if path_start < 0 or offset < path_start:
        return False
    query = min((i for i in (url.find("?", path_start), url.find("#", path_start)) if i >= 0), default=len(url))
    return offset < query


def _on(host: str, domains: tuple[str, ...]) -> bool:
    return any(host == domain or host.endswith("." + domain) for domain in domains)


def _label(label: str) -> str:
    return label if len(label) <= 120 else label[:120].rpartition(" ")[0]


def _href(href: str) -> str | None:
    """The URL a click opens, or None when not http(s): surrounding whitespace and inner tabs
    and newlines dropped (WHATWG), nothing else touched."""
    url = href.strip(_C0_AND_SPACE)
    if "\t" in url or "\n" in url or "\r" in url:
        url = url.replace("\t", "").replace("\n", "").replace("\r", "")
    return url if len(url) <= MAX_URL_CHARS and _http(url) else None


def _http(url: str) -> bool:
    """Whether ``url`` is absolute http(s) with a host."""
    head = url[:8].lower()
    rest = 8 if head == "https://" else 7 if head.startswith("http://") else 0
    return bool(rest) and len(url) > rest and url[rest] not in "/?#\\ "


def _bare_links(text: str, source: Literal["text", "html"]) -> Iterator[_LinkSeen]:
    """Bare http(s) URLs in ``text``, trailing punctuation peeled, labelled by the words before them."""
    previous_end = 0
    pos = 0
    for order in range(_MAX_BARE_URLS):
        colon = text.find("://", pos)
        if colon < 0:
            return
        end = _URL_REST.match(text, colon + 3).end()  # type: ignore[union-attr]
        pos = max(end, colon + 3)
        start = colon - 5 if text[colon - 5 : colon].lower() == "https" else colon - 4
        if text[start:colon].lower() not in ("http", "https") or (
            start and text[start - 1].isascii() and text[start - 1].isalnum()
        ):
            continue
        url = _peel(text[start:end])
        if len(url) <= MAX_URL_CHARS and _http(url):
            label = _words_before(text, start, previous_end) or _words_after(text, start + len(url))
            yield _LinkSeen(url, label, source, order, False)
        previous_end = end


def _words_after(text: str, end: int) -> str:
    """The rest of the URL's line (up to the next URL): its label when nothing comes before it."""
    line = text[end : end + 100].split("\n", 1)[0].split("://", 1)[0]
    return " ".join(line.strip(" \t>)]-–—:|").split())


def _peel(url: str) -> str:
    """``url`` without the sentence punctuation a writer put after it (".", ")", "?" ...)."""
    while url:
        last = url[-1]
        if last in _TRAILING:
            url = url[:-1]
        elif last in _CLOSERS and url.count(last) > url.count(_CLOSERS[last]):
            url = url[:-1]  # "(see https://x.test/verify)"; "wiki/Foo_(bar)" keeps its ")"
        else:
            return url
    return url


def _words_before(text: str, start: int, floor: int) -> str:
    """The text a reader reads as the URL's label: before it on its line, else the last line above."""
    line_start = text.rfind("\n", floor, start) + 1 or floor
    before = text[max(line_start, start - 100) : start].strip(" \t<([:-")
    if not before and line_start > floor:
        above = text[max(floor, line_start - 200) : line_start].splitlines()
        before = next((line.strip(" \t<([:-") for line in reversed(above) if line.strip()), "")
    return " ".join(before.split())[-120:]
