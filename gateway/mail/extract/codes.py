# ruff: noqa: RUF001 - the vocabularies are multilingual: Cyrillic, fullwidth and dotless letters are meant
"""One-time codes: the keywords near each token, the verdict its neighbourhood gives, and the
ranking of the codes that survive (steps 3 and 4 of the package docstring).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable, Iterator
from typing import Final, NamedTuple

from gateway.mail.extract.scanner import PhraseScanner
from gateway.mail.extract.text import Source, Text, quoted
from gateway.mail.extract.tokens import Kind, Token, ascii_digits, bad_neighbours, find_tokens
from gateway.mail.extract.words import (
    FILLER,
    KEYWORD_KINDS,
    LABEL_FILLER,
    REFERENCES,
    RIGHT_FILLER,
    STALE_GAP,
    KeywordKind,
    about_commerce,
    keyword_key,
    phrases,
)
from gateway.mail.models import Code

__all__ = ["KEYWORD_WINDOW", "MAX_CODES", "rank_codes"]

MAX_CODES: Final = 10

KEYWORD_WINDOW: Final = 80
"""Characters between a code and its keyword (150 for a code alone on its line)."""

_WIDE_WINDOW: Final = 150
_WEAK_WINDOW: Final = 40  # "verify", "security", "login" are everywhere in such mail: only close by


# --- keywords ----------------------------------------------------------------------------


def _keyword_table() -> dict[str, KeywordKind]:
    table: dict[str, KeywordKind] = {}
    for kind, block in KEYWORD_KINDS:
        for phrase in phrases(block):
            table.setdefault(keyword_key(phrase), kind)
    return table


_KEYWORD_OF: Final = _keyword_table()
_KEYWORD: Final = PhraseScanner.of(p for _, block in KEYWORD_KINDS for p in phrases(block))


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
            kind = _KEYWORD_OF.get(phrase) or _KEYWORD_OF[keyword_key(phrase)]  # every match is a phrase
            a, b = match.span()
            if a and _word_char(low[a]) and _word_char(low[a - 1]) and phrase not in _SUFFIX_LABELS:
                continue  # "barcode", "decode" (but "Bewerbernummer" is a number of something)
            if b < len(low) and _word_char(low[b - 1]) and _word_char(low[b]) and not low[b].isdigit():
                continue  # "codec", "pinned"
            found.append(_Keyword(a, b, kind))
    return _label_compounds(low, found)


_SUFFIX_LABELS: Final = frozenset({"nummer"})
"""Labels that German, Dutch and Scandinavian glue to the name of what is numbered."""
_COMPOUND_GAP: Final = frozenset(" -")
_CONNECTORS: Final = frozenset({"de", "di", "du", "do", "da", "del", "des", "van", "von", "of", "der"})


def _connects(gap: str) -> bool:
    """Whether a gap joins two words into one name: nothing, a dash, or "de" ("Código de envío")."""
    if len(gap) <= 2:
        return set(gap) <= _COMPOUND_GAP
    return len(gap) <= 6 and gap[0] == gap[-1] == " " and gap.strip() in _CONNECTORS


def _label_compounds(low: str, found: list[_Keyword]) -> list[_Keyword]:
    """A plain code word written against the name of a reference is that reference's label: "PNR
    kodu", "Codice biglietto", "Mã đơn hàng", "Código de envío". Only names of references count
    (``REFERENCES``): "account code", "transaction code" or "phone code" are one-time codes."""
    merged: list[_Keyword] = []
    for keyword in found:
        previous = merged[-1] if merged else None
        if previous is not None and {previous.kind, keyword.kind} & {"plain"}:
            other = keyword if previous.kind == "plain" else previous
            if (
                other.kind in ("label", "near-label")
                and keyword_key(low[other.start : other.end]) in REFERENCES
                and _connects(low[previous.end : keyword.start])
            ):
                merged[-1] = _Keyword(previous.start, keyword.end, other.kind)
                continue
        merged.append(keyword)
    return merged


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


# --- scoring and ranking -------------------------------------------------------------------

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


class _Verdict(NamedTuple):
    """What a token's neighbourhood says of it: its keyword score, and the keyword that vouches."""

    score: float
    lone: bool  # no keyword near it
    kind: KeywordKind | None  # the strongest code word near it (None when lone)
    phrase: str  # that code word as written ('' when lone)
    bound: bool  # only filler words stand between that code word and the token: it labels the token


class _Scored(NamedTuple):
    token: Token
    text: Text
    score: float
    lone: bool  # no keyword near it: counts only as the one candidate of a message about a code
    alone: bool  # alone on its line
    verdict: _Verdict

    @property
    def key(self) -> str:
        """Occurrences with one key are one code: "G-774102" and "774102" are one."""
        if self.token.kind == "prefixed":
            return ascii_digits("".join(c for c in self.token.value if c.isdigit()))
        return self.token.value.upper()


def rank_codes(texts: list[Text], emphasized: frozenset[str]) -> tuple[Code, ...]:
    """The codes of ``texts`` (the subject first), best first, one per code, capped."""
    commerce = about_commerce(texts[0].low)
    scored = [item for text in texts for item in _score_text(text, emphasized, commerce)]
    keyed = [item for item in scored if not item.lone]
    lone_reason = ""
    if keyed:
        scored = keyed
    elif scored:
        scored, lone_reason = _lone_candidate(scored, texts, commerce)

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
    for rank, (*_, best) in enumerate(ranked[:MAX_CODES]):
        if rank and not _same_kind(best, ranked[0][3]):
            continue
        token, text = best.token, best.text
        reason = lone_reason or _reason(best)
        context = _context(text.text, token.start, token.end)
        codes.append(Code(value=token.value, context=context, source=text.source, reason=reason))
    return tuple(codes)


def _same_kind(item: _Scored, first: _Scored) -> bool:
    """Whether a further code is one the mail labels as a code of the first one's kind: a code
    word right before or after it ("Code for your second device: 4829 1034"), as strong as the first's."""
    verdict = item.verdict
    if item.lone or not verdict.bound or verdict.kind not in _TIER or item.token.year:
        return False
    return first.verdict.kind not in _TIER or _TIER[verdict.kind] >= _TIER[first.verdict.kind]


_PLACE: Final[dict[Source, str]] = {"subject": "in the subject", "text": "in the text part", "html": "in the mail"}


def _reason(item: _Scored) -> str:
    """Why a reader would type it, in their words."""
    verdict = item.verdict
    if verdict.bound:
        return f'labelled "{verdict.phrase}" {_PLACE[item.text.source]}'
    return f'next to "{verdict.phrase}" {_PLACE[item.text.source]}'


def _lone_candidate(scored: list[_Scored], texts: list[Text], commerce: bool) -> tuple[list[_Scored], str]:
    """The occurrences of the one keyword-less candidate, if the message is about a code, and why.

    A code word in the subject vouches for the one candidate of the body; a code word anywhere
    else (a heading: "Confirm your email") vouches for it only when it stands alone on its line.
    Two distinct candidates: neither is trusted.
    """
    found = _message_kind(texts[:1], commerce)
    reason = 'the one code-like value in a mail whose subject says "{}"'
    if found is None:
        scored = [item for item in scored if item.alone]
        found = _message_kind(texts[1:], commerce) if scored else None
        reason = 'alone on its line in a mail that says "{}"'
    if found is None or len({item.key for item in scored}) != 1:
        return [], ""
    kind, phrase = found
    return [item._replace(score=item.score + _TIER[kind] - 8) for item in scored], reason.format(phrase)


def _message_kind(texts: list[Text], commerce: bool) -> tuple[KeywordKind, str] | None:
    """The strongest code word in ``texts`` and how it is written, unless they speak of a promotion or a meeting."""
    found = [
        (_effective(k.kind, commerce), text.text[k.start : k.end])
        for text in texts
        for k in _keywords(text.low, [(0, len(text.low))])
    ]
    kinds = {kind for kind, _ in found}
    if kinds & {"offtopic", "meeting", "not-code"}:
        return None
    return next(
        ((kind, phrase) for want in ("strong", "plain", "weak") for kind, phrase in found if kind == want), None
    )


def _effective(kind: KeywordKind, commerce: bool) -> KeywordKind:
    """What a keyword means in this message: "confirmation code" of a booking is a reference."""
    if kind == "confirmation":
        return "label" if commerce else "strong"
    if kind == "confirm":
        return "context" if commerce else "weak"
    if kind == "plain" and commerce:
        return "label"  # "Confirmación de su cita - Código 48213": a booking's own code is its reference
    return kind


def _score_text(text: Text, emphasized: frozenset[str], commerce: bool) -> Iterator[_Scored]:
    """Every acceptable occurrence of a code in one text, with its score."""
    tokens = [
        t
        for t in find_tokens(text.text)
        if not bad_neighbours(text.text, text.low, t) and not quoted(text.text, t.start, t.end)
    ]
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
        verdict = _judge(text, token, keywords, starts, window, commerce)
        if verdict is None:
            continue
        score, lone = verdict.score, verdict.lone
        if lone and (token.year or not _strong_alone(token)):
            continue
        if token.year:
            score -= 40
        score += _format_score(token) + _position_score(text, token)
        if on_own_line:
            score += 8
        if text.source == "html" and text.text[token.start : token.end] in emphasized:
            score += 4
        yield _Scored(token, text, score, lone, on_own_line, verdict)


def _judge(
    text: Text, token: Token, keywords: list[_Keyword], starts: list[int], window: int, commerce: bool
) -> _Verdict | None:
    """What the keywords around a token say of it, or None when its neighbourhood disqualifies it."""
    low = text.low
    best: float | None = None
    best_gap = window + 1
    best_kind: KeywordKind | None = None
    best_bound = False
    best_left = False
    # The strongest code word near the token (the nearest of its tier) says what the token is.
    named: tuple[int, int, KeywordKind, str, bool] | None = None  # (-tier, gap, kind, phrase, bound)
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
        # A word after the token on a later line opens what follows it ("Koden gælder i 15
        # minutter", "Datum: 14.03."): it speaks of the paragraph, not of this token.
        later_line = not left and "\n" in gap_text
        if kind in _TIER and not left and _introduces(low, keyword.end):
            continue  # "HB-4821 一次性密碼:719402": a code word with a colon names what follows it
        if kind in _TIER:
            if gap > (window if kind != "weak" else _WEAK_WINDOW):
                continue
            bound = gap <= 16 and not later_line and _bound(gap_text, FILLER if left else RIGHT_FILLER)
            # "code is 482913" and "code 771234" are equally close: distance counts past 4 characters.
            score = _TIER[kind] - max(0, gap - 4) / 4 + (6 if bound else 0) - (6 if later_line else 0)
            if best is None or score > best:
                best, best_gap, best_kind, best_bound, best_left = score, gap, kind, bound, left
            candidate = (-_TIER[kind], gap, kind, text.text[keyword.start : keyword.end], bound)
            if named is None or candidate[:2] < named[:2]:
                named = candidate
        elif kind == "stale-before" and left and gap <= 30 and _stale_bound(gap_text):
            return None  # "your previous code 483920", "el código anterior 483920": the mail says it is old
        elif (
            kind == "stale-after"
            and not left
            and gap <= 20
            and _stale_bound(gap_text)
            and low[keyword.end : keyword.end + 2].strip()[:1] not in ("?", "？")
        ):
            return None  # "483920 is no longer valid", "483920 已失效"; not "Code expired? Get a new one"
        elif kind in ("label", "near-label", "not-code"):
            # Across a line break a label binds only when it opens its line: "Account:\n48291"
            # is an account number, "... to your account:\n\n305 918" is a sentence and a code.
            heads = "\n" not in gap_text or (left and _heads_line(low, keyword.start))
            if heads and _bound(gap_text, LABEL_FILLER if left else RIGHT_FILLER):
                return None  # "order number: 123456", "123456 is your order number", "promo code SAVE20"
            if kind != "label" and gap <= _LABEL_REACH and _same_phrase(gap_text) and not later_line:
                nearest_negative = min(nearest_negative, gap)
        elif kind == "context" and gap <= _CONTEXT_REACH and _same_phrase(gap_text) and not later_line:
            nearest_negative = min(nearest_negative, gap)
        elif kind in ("offtopic", "meeting") and (left or "\n\n" not in gap_text) and gap <= _OFFTOPIC_REACH:
            # A paragraph further down ("Use promo RIDE15 on your next ride") speaks of its own numbers.
            offtopic, meeting = offtopic or kind == "offtopic", meeting or kind == "meeting"
    if best is None:
        return None if offtopic or nearest_negative <= _CONTEXT_REACH else _Verdict(0.0, True, None, "", False)
    if token.year and (best_gap > 12 or best_kind == "weak" or not best_left):
        return None  # a year is a code only right after a code word: "PIN: 2024"
    if (offtopic and best_kind != "strong") or (meeting and best_kind != "strong" and not best_bound):
        return None
    if nearest_negative <= _CONTEXT_REACH and nearest_negative < best_gap:
        if best_kind != "strong" or (nearest_negative <= 8 and best_gap > 16):
            return None  # "appelez le 3646": a label right before it wins over a code word further off
        best -= 10
    assert named is not None  # set with best
    return _Verdict(best, False, named[2], named[3], named[4])


def _introduces(low: str, end: int) -> bool:
    """Whether the keyword ending at ``end`` labels another value after a colon ("HB-4821
    一次性密碼:719402"), not the token before it ("602913 is your code: don't share it")."""
    return _INTRODUCES.match(low, end, end + 60) is not None


# Up to three words may finish the keyword's phrase first ("Codul de autentificare este: 5730").
# Possessive and bounded: a run of letters is split one way only.
_INTRODUCES: Final = re.compile(r"(?:[ \t]*+[^\W\d_]++){0,3}+[ \t]*+[:：][ \t\n]*+(?=[a-z]{0,4}-?\d{3})")


def _stale_bound(gap: str) -> bool:
    """Whether a word calling a code old binds the token across ``gap``: the same clause on the same
    line ("the code we sent earlier (5024)"), nothing but code nouns and copulas between."""
    return not any(c in gap for c in "\n,;-–—") and _bound(gap, STALE_GAP)


def _heads_line(low: str, start: int) -> bool:
    """Whether a label opens its line ("Account number: 48291", "Your account: 48291"), as
    opposed to ending a sentence ("Use this code to log in to your account:\n\n305 918")."""
    line_start = low.rfind("\n", max(0, start - 60), start) + 1
    if line_start == 0 and start > 60:
        return False
    return len(low[line_start:start].split()) <= 3


def _strong_alone(token: Token) -> bool:
    """Whether a token without a keyword is code-like enough to trust the subject for it."""
    return token.kind != "alnum" or (token.value.isupper() and sum(c.isdigit() for c in token.value) >= 2)


def _format_score(token: Token) -> int:
    if token.kind == "digits":
        return _DIGITS_FORMAT.get(len(token.value), 0)
    return _FORMAT[token.kind]


def _position_score(text: Text, token: Token) -> int:
    if text.source == "subject":
        return 5
    size = len(text.text)
    if token.start < 500 or token.start < 0.3 * size:
        return 4
    return -4 if size > 1500 and token.start > 0.8 * size else 0


_LINE_TRIM: Final = " \t:.-–—*\"'()[]【】「」<>"


def _alone_on_line(text: str, token: Token) -> bool:
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
