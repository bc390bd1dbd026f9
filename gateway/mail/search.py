"""The search language of `?q=` and what a message offers to it: parse, fold, match. Pure.

A query is what Gmail and Mailpit users type: free words and ``"quoted phrases"`` (over the
subject and the text), ``from:`` and ``to:`` (an exact address, or ``@domain``: never a
substring), ``subject:``, ``filename:``, ``has:attachment|code|link``, ``is:seen|unseen``,
``before:`` and ``after:`` (a date or an ISO instant, UTC unless it says otherwise), ``-`` to
negate, ``OR`` between terms, parentheses to group; terms are ANDed. ``OR`` binds tighter than
the implicit AND, as in Gmail: ``a OR b c`` is ``(a OR b) AND c``.

Words match whole words, in order for a phrase, case and width folded (NFKC, casefold);
``verif*`` matches words that start with ``verif``. Chinese, Japanese and Korean have no spaces
between words, so every CJK, kana and hangul character is a word of its own and a CJK word is
a phrase of its characters: ``验证码`` finds ``您的验证码是``. The folded form of a text
(:func:`fold`) is that sequence of words with one space around each, so "phrase P is in text
T" is exactly "`` P `` is a substring of fold(T)"; :func:`matches` states the meaning every
store must give a query (the index translates the same tree to SQL; a property test holds
them equal).

Everything is bounded: query length, term count, nesting, and the text folded per message.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Final, Literal

from gateway.errors import InvalidQuery
from gateway.mail.models import Attachment, ParsedMessage

__all__ = [
    "MAX_QUERY_CHARS",
    "MAX_TERMS",
    "MAX_TERM_CHARS",
    "MAX_TEXT_CHARS",
    "And",
    "Candidate",
    "Node",
    "Not",
    "Or",
    "Query",
    "QueryError",
    "SearchFields",
    "Term",
    "address_keys",
    "counts_as_attachment",
    "fold",
    "matches",
    "parse_query",
    "phrase_needle",
    "search_fields",
    "terms",
]

MAX_QUERY_CHARS: Final = 1000
MAX_TERMS: Final = 32
MAX_DEPTH: Final = 8
"""Parentheses nested at most this deep."""
MAX_TERM_CHARS: Final = 120
"""Folded characters of one term (about 15 words): a substring test costs up to text x needle
per message, so a longer needle is refused rather than scanned."""
MAX_TEXT_CHARS: Final = 16_000
"""Folded characters kept of one message's text (subject, text part and rendered HTML): the
index stays proportional to the mail count, and a verification mail fits many times over."""
_MAX_INPUT_CHARS: Final = 4 * MAX_TEXT_CHARS  # read of each source text before folding

Field = Literal["text", "subject", "filename", "from", "to", "has", "is", "before", "after"]
_PHRASE_FIELDS: Final = frozenset({"text", "subject", "filename"})
_FIELDS: Final[dict[str, Field]] = {
    "subject": "subject",
    "filename": "filename",
    "from": "from",
    "to": "to",
    "has": "has",
    "is": "is",
    "before": "before",
    "after": "after",
    "older": "before",
    "newer": "after",
}
_HAS: Final = {
    "attachment": "attachment",
    "attachments": "attachment",
    "code": "code",
    "codes": "code",
    "link": "link",
    "links": "link",
}
_IS: Final = {"seen": "seen", "read": "seen", "unseen": "unseen", "unread": "unseen"}


QueryError = InvalidQuery
"""A query that cannot be read (400 `invalid_query`); its detail says why and quotes the term."""


def _error(message: str, *, term: str, position: int) -> InvalidQuery:
    shown = term if len(term) <= 60 else term[:57] + "..."
    return InvalidQuery(f"{message} (at character {position + 1}: {shown!r})", term=term, position=position)


@dataclass(frozen=True, slots=True)
class Term:
    """One condition. `value` is folded words (text fields), an address key, or a keyword."""

    field: Field
    value: str
    prefix: bool = False
    """Text fields: the last word is a prefix (`verif*`)."""
    ts: float = 0.0
    """before/after: the instant, epoch seconds."""


@dataclass(frozen=True, slots=True)
class Not:
    item: Node


@dataclass(frozen=True, slots=True)
class And:
    items: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Or:
    items: tuple[Node, ...]


Node = Term | Not | And | Or


@dataclass(frozen=True, slots=True)
class Query:
    """A parsed query: what was typed, and its tree."""

    text: str
    root: Node


# --- folding --------------------------------------------------------------------------

_WORD: Final = re.compile(r"[^\W_]+")
# Han (with extensions and compatibility forms), kana, bopomofo, hangul: written without spaces.
_CJK: Final = re.compile(
    "[\u3040-\u30ff\u3100-\u312f\u31a0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af"
    "\uf900-\ufaff\uff66-\uff9f\U00020000-\U0003134f]"
)


_CJK_RUN: Final = re.compile(_CJK.pattern + "+")


def _spaced(run: re.Match[str]) -> str:
    return " " + " ".join(run[0]) + " "


def fold(text: str, *, cap: int = MAX_TEXT_CHARS) -> str:
    """`text` as searched: its words folded, one space around each (" stripe receipt "), at most ~`cap` chars."""
    folded = unicodedata.normalize("NFKC", text[:_MAX_INPUT_CHARS]).casefold()
    if _CJK.search(folded):
        # Each CJK character a word of its own: spaced a run at a time (a call per character,
        # or a template expanded per character, costs milliseconds on a page of Chinese).
        folded = _CJK_RUN.sub(_spaced, folded)
    words = _WORD.findall(folded)
    if not words:
        return ""
    out = " " + " ".join(words) + " "
    if len(out) > cap:
        cut = out.rfind(" ", 0, cap)
        out = out[: cut + 1] if cut > 0 else ""
    return out


def address_keys(addresses: Iterable[str | None]) -> tuple[str, ...]:
    """The keys `from:` / `to:` compare with equality: each address (lowercased) and its "@domain"."""
    keys: dict[str, None] = {}
    for address in addresses:
        if not address or "@" not in address:
            continue
        lowered = address.lower()
        keys.setdefault(lowered)
        keys.setdefault("@" + lowered.rpartition("@")[2])
    return tuple(keys)


@dataclass(frozen=True, slots=True)
class SearchFields:
    """What one message offers to search (the index stores it per copy)."""

    text: str
    """The folded subject, text part and rendered HTML, each on its own line (a phrase never
    spans two), capped at MAX_TEXT_CHARS."""
    subject: str
    filenames: str
    """The folded attachment file names, one per line."""
    from_keys: tuple[str, ...]
    to_keys: tuple[str, ...]
    """To and Cc addresses and their domains."""
    attachments: int
    """Attachments that count for `has:attachment`: not an image the HTML shows inline."""


def counts_as_attachment(attachment: Attachment) -> bool:
    """Whether `has:attachment` counts it: every part but one made to be shown inside the message,
    i.e. with a Content-ID (what an HTML body embeds) and not marked `attachment`."""
    return not (attachment.disposition != "attachment" and attachment.content_id)


def search_fields(parsed: ParsedMessage, rendered_html_text: str | None) -> SearchFields:
    """The search fields of a parsed message; `rendered_html_text` is its HTML as the extractor rendered it."""
    subject = fold(parsed.subject)
    parts = [subject]
    room = MAX_TEXT_CHARS - len(subject)
    for source in (parsed.text, rendered_html_text or ""):
        if room <= 0:
            break
        folded = fold(source, cap=room)
        if folded:
            parts.append(folded)
            room -= len(folded) + 1
    return SearchFields(
        text="\n".join(p for p in parts if p),
        subject=subject,
        filenames="\n".join(f for a in parsed.attachments if a.filename and (f := fold(a.filename, cap=512))),
        from_keys=address_keys([parsed.from_address]),
        to_keys=address_keys([*parsed.to, *parsed.cc]),
        attachments=sum(1 for a in parsed.attachments if counts_as_attachment(a)),
    )


# --- matching -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Candidate:
    """One message as one identity sees it: its fields, receipt time and that identity's mark."""

    fields: SearchFields
    received_ts: float
    seen: bool
    has_code: bool
    has_link: bool


def phrase_needle(term: Term) -> str:
    """What a text term looks for in a folded text: " words " (a prefix term: " words")."""
    return " " + term.value + ("" if term.prefix else " ")


def matches(node: Node, c: Candidate) -> bool:
    """Whether the message matches the query: the meaning every store's search must have."""
    if isinstance(node, And):
        return all(matches(item, c) for item in node.items)
    if isinstance(node, Or):
        return any(matches(item, c) for item in node.items)
    if isinstance(node, Not):
        return not matches(node.item, c)
    f = c.fields
    match node.field:
        case "text":
            return phrase_needle(node) in f.text
        case "subject":
            return phrase_needle(node) in f.subject
        case "filename":
            return phrase_needle(node) in f.filenames
        case "from":
            return node.value in f.from_keys
        case "to":
            return node.value in f.to_keys
        case "has":
            return {"attachment": f.attachments > 0, "code": c.has_code, "link": c.has_link}[node.value]
        case "is":
            return c.seen == (node.value == "seen")
        case "after":
            return c.received_ts >= node.ts
        case "before":
            return c.received_ts < node.ts
    raise AssertionError(node.field)  # pragma: no cover


def terms(node: Node) -> Iterator[Term]:
    """Every term of a tree."""
    if isinstance(node, Term):
        yield node
    elif isinstance(node, Not):
        yield from terms(node.item)
    else:
        for item in node.items:
            yield from terms(item)


# --- parsing --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Lexeme:
    kind: Literal["word", "phrase", "field", "lparen", "rparen", "or", "and", "not"]
    text: str
    """As typed (for errors)."""
    position: int
    name: str = ""
    """field: the operator's name as typed (lowercased)."""
    value: str = ""
    """word/phrase/field: the value, quotes removed."""
    quoted: bool = False


_OPERATOR: Final = re.compile(r"([A-Za-z_]+):")
_SCHEMES: Final = frozenset({"http", "https", "mailto", "ftp", "tel"})


def _lex(text: str) -> list[_Lexeme]:
    out: list[_Lexeme] = []
    at, end = 0, len(text)
    while at < end:
        ch = text[at]
        if ch.isspace():
            at += 1
            continue
        if ch in "()":
            out.append(_Lexeme("lparen" if ch == "(" else "rparen", ch, at))
            at += 1
            continue
        if ch == "-" and at + 1 < end and not text[at + 1].isspace():
            out.append(_Lexeme("not", ch, at))
            at += 1
            continue
        start = at
        name = ""
        operator = _OPERATOR.match(text, at)
        if operator is not None:
            name = operator[1].lower()
            bare = operator.end() == end or text[operator.end()].isspace()
            if name in _SCHEMES or (bare and name not in _FIELDS):
                # A URL typed as words, or a word before a colon ("Re: hello"): no operator.
                name = ""
            elif name not in _FIELDS:
                raise _error(
                    f"unknown operator {operator[1]}: (known: {', '.join(sorted(set(_FIELDS) - {'older', 'newer'}))});"
                    " put the words in quotes to search for them as text",
                    term=_word_at(text, start),
                    position=start,
                )
            else:
                at = operator.end()
        if at < end and text[at] == '"':
            close = text.find('"', at + 1)
            if close < 0:
                raise _error("unterminated quote", term=text[start:], position=start)
            value, quoted, at = text[at + 1 : close], True, close + 1
        else:
            stop = at
            while stop < end and not text[stop].isspace() and text[stop] not in '()"':
                stop += 1
            value, quoted, at = text[at:stop], False, stop
        typed = text[start:at]
        if name:
            out.append(_Lexeme("field", typed, start, name=name, value=value, quoted=quoted))
        elif quoted:
            out.append(_Lexeme("phrase", typed, start, value=value, quoted=True))
        elif value == "OR":
            out.append(_Lexeme("or", typed, start))
        elif value == "AND":
            out.append(_Lexeme("and", typed, start))
        else:
            out.append(_Lexeme("word", typed, start, value=value))
    return out


def _word_at(text: str, at: int) -> str:
    stop = at
    while stop < len(text) and not text[stop].isspace():
        stop += 1
    return text[at:stop]


class _Parser:
    def __init__(self, lexemes: list[_Lexeme], text: str) -> None:
        self.lexemes = lexemes
        self.text = text
        self.at = 0
        self.terms = 0

    def peek(self) -> _Lexeme | None:
        return self.lexemes[self.at] if self.at < len(self.lexemes) else None

    def take(self) -> _Lexeme:
        lexeme = self.lexemes[self.at]
        self.at += 1
        return lexeme

    def conjunction(self, depth: int) -> Node:
        items: list[Node] = []
        while (lexeme := self.peek()) is not None and lexeme.kind != "rparen":
            if lexeme.kind == "and":
                if not items:
                    raise _error("AND needs a term before it", term=lexeme.text, position=lexeme.position)
                self.take()
                following = self.peek()
                if following is None or following.kind in ("rparen", "or", "and"):
                    raise _error("AND needs a term after it", term=lexeme.text, position=lexeme.position)
                continue
            items.append(self.disjunction(depth))
        if not items:
            lexeme = self.peek()
            if lexeme is None:
                raise _error("the query is empty", term=self.text, position=0)
            raise _error("empty parentheses", term=lexeme.text, position=lexeme.position)
        return items[0] if len(items) == 1 else And(tuple(items))

    def disjunction(self, depth: int) -> Node:
        items = [self.unary(depth)]
        while (lexeme := self.peek()) is not None and lexeme.kind == "or":
            self.take()
            following = self.peek()
            if following is None or following.kind in ("rparen", "or", "and"):
                raise _error("OR needs a term after it", term=lexeme.text, position=lexeme.position)
            items.append(self.unary(depth))
        return items[0] if len(items) == 1 else Or(tuple(items))

    def unary(self, depth: int) -> Node:
        lexeme = self.take()
        if lexeme.kind == "not":
            following = self.peek()
            if following is None or following.kind in ("rparen", "or", "and"):
                raise _error("- must stand right before a term", term=lexeme.text, position=lexeme.position)
            return Not(self.unary(depth))
        if lexeme.kind == "lparen":
            if depth >= MAX_DEPTH:
                raise _error(f"parentheses nested deeper than {MAX_DEPTH}", term=lexeme.text, position=lexeme.position)
            inner = self.conjunction(depth + 1)
            close = self.peek()
            if close is None or close.kind != "rparen":
                raise _error("unbalanced parenthesis", term="(", position=lexeme.position)
            self.take()
            return inner
        if lexeme.kind in ("or", "and"):
            raise _error(f"{lexeme.text} needs a term before it", term=lexeme.text, position=lexeme.position)
        self.terms += 1
        if self.terms > MAX_TERMS:
            raise _error(f"more than {MAX_TERMS} terms", term=lexeme.text, position=lexeme.position)
        return _term(lexeme)


def _term(lexeme: _Lexeme) -> Term:
    if lexeme.kind in ("word", "phrase"):
        return _phrase("text", lexeme)
    field = _FIELDS[lexeme.name]
    if not lexeme.value.strip():
        raise _error(f"{lexeme.name}: needs a value", term=lexeme.text, position=lexeme.position)
    if field in _PHRASE_FIELDS:
        return _phrase(field, lexeme)
    value = lexeme.value.strip()
    if field in ("from", "to"):
        return Term(field, _address_key(value, lexeme))
    if field == "has":
        if value.lower() not in _HAS:
            raise _error("has: takes attachment, code or link", term=lexeme.text, position=lexeme.position)
        return Term("has", _HAS[value.lower()])
    if field == "is":
        if value.lower() not in _IS:
            raise _error("is: takes seen or unseen", term=lexeme.text, position=lexeme.position)
        return Term("is", _IS[value.lower()])
    return Term(field, value, ts=_instant(value, lexeme))


def _phrase(field: Field, lexeme: _Lexeme) -> Term:
    value = lexeme.value
    prefix = not lexeme.quoted and value.endswith("*") and len(value) > 1
    folded = fold(value.removesuffix("*") if prefix else value, cap=MAX_QUERY_CHARS * 20)
    if not folded:
        raise _error(
            "nothing to search for: a term needs letters or digits", term=lexeme.text, position=lexeme.position
        )
    if len(folded) - 2 > MAX_TERM_CHARS:
        raise _error(
            f"a term longer than {MAX_TERM_CHARS} characters: search for fewer words",
            term=lexeme.text,
            position=lexeme.position,
        )
    return Term(field, folded.strip(), prefix=prefix)


_DOMAIN: Final = re.compile(r"[a-z0-9](?:[a-z0-9\-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9\-]*[a-z0-9])?)+\.?")


def _address_key(value: str, lexeme: _Lexeme) -> str:
    """An exact address or "@domain" (a bare domain such as `stripe.com` is read as `@stripe.com`)."""
    lowered = value.lower()
    if "@" not in lowered:
        if _DOMAIN.fullmatch(lowered):
            return "@" + lowered.rstrip(".")
        raise _error(
            f"{lexeme.name}: takes an exact address (bob@example.com) or a domain (@example.com);"
            " display names are not searched",
            term=lexeme.text,
            position=lexeme.position,
        )
    local, _, domain = lowered.rpartition("@")
    if not domain or any(ch.isspace() for ch in lowered):
        raise _error(f"{lexeme.name}: needs a domain after @", term=lexeme.text, position=lexeme.position)
    return f"{local}@{domain.rstrip('.')}" if local else "@" + domain.rstrip(".")


def _instant(value: str, lexeme: _Lexeme) -> float:
    """A date (its start, UTC) or an ISO instant (UTC when it names no offset), as epoch seconds."""
    try:
        if re.fullmatch(r"\d{4}[-/]\d{1,2}[-/]\d{1,2}", value):
            year, month, day = (int(p) for p in re.split(r"[-/]", value))
            moment = datetime.combine(date(year, month, day), datetime.min.time(), UTC)
        else:
            moment = datetime.fromisoformat(value)
            if moment.tzinfo is None:
                moment = moment.replace(tzinfo=UTC)
        return moment.timestamp()
    except (ValueError, OverflowError):
        raise _error(
            f"{lexeme.name}: takes a date (2026-12-01) or an ISO instant (2026-12-01T10:00:00Z)",
            term=lexeme.text,
            position=lexeme.position,
        ) from None


def parse_query(text: str) -> Query:
    """Read a query; raises QueryError (400) pointing at the term that cannot be read."""
    if len(text) > MAX_QUERY_CHARS:
        raise _error(f"the query is longer than {MAX_QUERY_CHARS} characters", term=text[:20], position=0)
    if "\x00" in text:
        raise _error("the query holds a NUL character", term=text, position=text.index("\x00"))
    parser = _Parser(_lex(text), text)
    root = parser.conjunction(0)
    leftover = parser.peek()
    if leftover is not None:
        raise _error("unbalanced parenthesis", term=leftover.text, position=leftover.position)
    return Query(text, root)
