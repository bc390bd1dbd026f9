# ruff: noqa: RUF001 - the vocabularies are multilingual: Cyrillic, fullwidth and dotless letters are meant
"""Verification links: ``<a href>`` anchors and bare http(s) URLs, qualified by the intent words
in their text and path, never by a footer's (unsubscribe, privacy, social, stores), and ranked.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterator
from typing import Final, Literal, NamedTuple

from gateway.mail.extract.scanner import PhraseScanner
from gateway.mail.extract.text import MAX_SUBJECT_CHARS, MAX_TEXT_CHARS
from gateway.mail.extract.words import LINK_WHOLE_WORDS, LINK_WORDS, about_commerce, keyword_key, phrases
from gateway.mail.models import Link, ParsedMessage
from gateway.mail.render import Rendered

__all__ = ["MAX_LINKS", "MAX_URL_CHARS", "rank_links"]

MAX_LINKS: Final = 10

MAX_URL_CHARS: Final = 8192
"""Longer URLs are skipped, never cut: a cut signed URL is useless."""


_LINK_KIND: Final = {keyword_key(p): kind for kind, block in LINK_WORDS for p in phrases(block)}
_LINK_SCAN: Final = PhraseScanner.of((p for _, block in LINK_WORDS for p in phrases(block)), sep=r"[\s\-_]?")
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


def rank_links(message: ParsedMessage, rendered: Rendered | None) -> tuple[Link, ...]:
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
        if phrase in LINK_WHOLE_WORDS and (
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
    commerce = about_commerce(subject)
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
    return keyword_key(words.replace("_", " "))


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
