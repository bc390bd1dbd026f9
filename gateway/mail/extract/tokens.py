# ruff: noqa: RUF001 - the vocabularies are multilingual: Cyrillic, fullwidth and dotless letters are meant
"""Code-shaped tokens of a prepared text (step 2 of the package docstring): digit runs grown into
what the writer wrote and classified, or dropped when their shape or what touches them makes them
a date, a price, a phone number, an address or another kind of number.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from typing import Final, Literal, NamedTuple

from gateway.mail.extract.words import NOT_CODES, NOT_PREFIXES

__all__ = ["MAX_CANDIDATES", "Kind", "Token", "ascii_digits", "bad_neighbours", "find_tokens"]

MAX_CANDIDATES: Final = 1000
"""Digit tokens examined per text: real mail has a few dozen; a statement full of numbers stops here."""


Kind = Literal["digits", "grouped", "spaced", "prefixed", "alnum", "alnum-dash"]


class Token(NamedTuple):
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


def find_tokens(text: str) -> Iterator[Token]:
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


def _classify(text: str, start: int, end: int) -> Iterator[Token]:
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
        yield from _digit_groups([group[0] for group in groups], unit_after=end < len(text) and text[end].isalpha())
        return
    for group in groups:
        first, last = group[0], group[-1]
        yield from _compound(group, text[first[0] : last[0] + len(last[1])])


def _digit_groups(groups: list[tuple[int, str]], *, unit_after: bool = False) -> Iterator[Token]:
    """Digit groups separated by single spaces: "4 8 2 9 1 3", "123 456", "12 34 56", "4821 09".

    ``unit_after``: a letter follows the last group ("5分钟", "10min"): it is a quantity, not a part.
    """
    lengths = [len(piece) for _, piece in groups]
    start, end = groups[0][0], groups[-1][0] + lengths[-1]
    joined = ascii_digits("".join(piece for _, piece in groups))
    if all(n == 1 for n in lengths):
        if 4 <= len(groups) <= 8:
            yield Token(start, end, joined, "spaced")
    elif len(set(lengths)) == 1 and lengths[0] in (2, 3, 4) and len(groups) <= 4 and len(joined) <= 8:
        yield Token(start, end, joined, "grouped")
    elif lengths == [4, 2] and not unit_after:
        yield Token(start, end, joined, "grouped")  # "4821 09": six digits written four and two
    elif len(groups) == 2 and min(lengths) <= 2 and 4 <= max(lengths) <= 8:
        # "验证码 483920 5分钟": a code next to a small number, not one group of it.
        offset, piece = groups[0] if lengths[0] > lengths[1] else groups[1]
        yield Token(offset, offset + len(piece), ascii_digits(piece), "digits")
    # Anything else (3+ uneven groups, "555 0100", "030 12345678") reads as a phone number.


def _compound(parts: list[tuple[int, str]], written: str) -> Iterator[Token]:
    """Alphanumeric parts joined by dashes (or a single part)."""
    start, end = parts[0][0], parts[-1][0] + len(parts[-1][1])
    if len(parts) == 1:
        token = parts[0][1]
        if token.isdigit():
            if 4 <= len(token) <= 8:
                yield Token(start, end, ascii_digits(token), "digits")
        elif _alnum_code(token):
            yield Token(start, end, token, "alnum")
        return
    if len(parts) == 2:
        (_, first), (second_at, second) = parts
        if first.isdigit() and second.isdigit():
            if _year(first) and _year(second) and first <= second:
                return  # "© 2006-2025" (any dash): a span of years
            if len(first) == len(second) and len(first) in (3, 4):  # 123-456, 1234-5678
                yield Token(start, end, ascii_digits(first + second), "grouped")
        elif first.isalpha() and second.isdigit():
            if 4 <= len(second) <= 8 and first.upper().strip("X"):  # "XXXX-1234" is a masked number
                if len(first) <= 3 and first.isupper() and first not in NOT_PREFIXES:  # G-774102
                    yield Token(start, end, written, "prefixed")
                else:  # "Ref-123456", "OTP-482913": the number, judged with its label or keyword
                    yield Token(second_at, end, ascii_digits(second), "digits")
        elif _TIME_OF_DAY.fullmatch(first) or _TIME_OF_DAY.fullmatch(second):
            return  # "8am-6pm", "9h-18h": opening hours
        elif not (first.isdigit() and second.isalpha()) and _alnum_pair(first, second):  # not "10-day"
            yield Token(start, end, written, "alnum-dash")  # K7D2-QW9P
        return
    if 4 <= len(parts) <= 8 and all(len(p) == 1 and p.isdigit() for _, p in parts):  # 4-8-2-9-1-3
        yield Token(start, end, ascii_digits("".join(p for _, p in parts)), "spaced")
    # 3+ dash-joined parts: dates (2024-05-01), phones (415-555-0100), UUIDs, serial keys.


_TIME_OF_DAY: Final = re.compile(r"(?:[01]?\d|2[0-3])(?:am|pm|h)", re.IGNORECASE)


def _year(digits: str) -> bool:
    return len(digits) == 4 and digits[:2] in ("19", "20")


def ascii_digits(digits: str) -> str:
    """``digits`` as ASCII digits (any script's decimal digits are mapped)."""
    return digits if digits.isascii() else "".join(str(unicodedata.decimal(c, 0)) for c in digits)


_RUNS: Final = re.compile(r"[A-Za-z]+|\d+")


def _alnum_code(token: str) -> bool:
    """Whether a single letters-and-digits token looks like a generated code, not a word."""
    if not 5 <= len(token) <= 12 or token.upper() in NOT_CODES or not token.isascii():
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
_LINE_END: Final = re.compile(r"[ \t]*(?:\n|$)")
_CITY_AFTER: Final = re.compile(r",? [A-ZÀ-ÖØ-ÞА-ЯЁ][a-zà-öø-ÿа-яё]")
_US_STATE: Final = re.compile(
    r"(?<![A-Za-z])(?:AL|AK|AZ|AR|CA|CO|CT|DE|DC|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ"
    r"|NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY),? $"
)


def bad_neighbours(text: str, low: str, token: Token) -> bool:
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
    if (
        (before in _DASHES or before == " ")
        and start >= 2
        and text[start - 2] in "*•●xX"
        and text[start - 2] != text[start - 1]
    ):
        return True  # "****-****-****-1234", "xxxx 1234": the end of a masked card or account number
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
        and (_CITY_AFTER.match(text, end) or (len(token.value) == 5 and _LINE_END.match(text, end)))
        and (_HOUSE_BEFORE.search(text, max(0, start - 60), start) or text.endswith(("», ", '", '), 0, start))
    ):
        return True  # "Valeska-Gert-Straße 5, 10243 Berlin", "24 rue des Jeûneurs, 75002 Paris", "Sucursal 21, 28014"
    if len(token.value) == 4 and _NL_POSTCODE_AFTER.match(text, end):
        return True  # "1017 CE Amsterdam": four digits and two capitals are a Dutch postcode
    return len(token.value) == 5 and bool(_US_STATE.search(text, max(0, start - 4), start))  # "CA 94103"
