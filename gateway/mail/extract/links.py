# ruff: noqa: RUF001 - the vocabularies are multilingual: Cyrillic, fullwidth and dotless letters are meant
"""Verification links: ``<a href>`` anchors and bare http(s) URLs, qualified by the intent words
in their text and path, never by a footer's (unsubscribe, privacy, social, stores), and ranked.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterator
from typing import Final, Literal, NamedTuple
from urllib.parse import unquote, urlsplit

from gateway.mail.extract.scanner import PhraseScanner
from gateway.mail.extract.text import MAX_SUBJECT_CHARS, MAX_TEXT_CHARS, quoted
from gateway.mail.extract.words import LINK_WHOLE_WORDS, LINK_WORDS, about_commerce, keyword_key, phrases
from gateway.mail.models import Link, ParsedMessage
from gateway.mail.render import Rendered

__all__ = ["MAX_LINKS", "MAX_URL_CHARS", "rank_links"]

MAX_LINKS: Final = 10

MAX_URL_CHARS: Final = 8192
"""Longer URLs are skipped, never cut: a cut signed URL is useless."""


_FOLD: Final = str.maketrans({"ı": "i", "ł": "l", "ø": "o", "đ": "d", "ß": "ss", "æ": "ae", "œ": "oe"})


def _folded(phrase: str) -> str:
    """``phrase`` without diacritics, as URL paths write words: "återställ" is "aterstall" there."""
    decomposed = unicodedata.normalize("NFKD", phrase.translate(_FOLD))
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _link_phrases() -> dict[str, str]:
    """Every link word (as written, spaces kept) and its kind; also without diacritics when that is
    long enough to stay a word of its own ("ověř" folds to "over", another word: not added)."""
    table: dict[str, str] = {}
    for kind, block in LINK_WORDS:
        for phrase in phrases(block):
            if table.get(phrase) != "never":
                table[phrase] = kind  # a later kind wins a phrase listed twice, but never "never"
    for phrase, kind in list(table.items()):
        folded = _folded(phrase)
        if folded != phrase and len(keyword_key(folded)) >= 6 and folded.isascii():
            table.setdefault(folded, kind)
    return table


_LINK_PHRASES: Final = _link_phrases()
_LINK_KIND: Final = {keyword_key(phrase): kind for phrase, kind in _LINK_PHRASES.items()}
_LINK_SCAN: Final = PhraseScanner.of(_LINK_PHRASES, sep=r"[\s\-_]?")
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


class _Said(NamedTuple):
    """What one link says: each kind of word found, with the first phrase of that kind."""

    label: dict[str, str]
    url: dict[str, str]  # host and path
    path: dict[str, str]


class _Why(NamedTuple):
    """What made a link qualify, kept to say it in words for the links that are reported."""

    item: _LinkSeen
    said: _Said
    wanted: frozenset[str]
    label_intent: bool
    path_intent: bool


class _Mail(NamedTuple):
    """What the whole mail says that decides how its links are read."""

    commerce: bool  # about an order, a booking, a bill: "confirm" confirms those
    about_login: bool  # the subject speaks of signing in, a code, a password
    about_reset: bool  # the subject asks to reset a password
    has_code: bool  # the mail gives a one-time code: its purpose is the code


def rank_links(message: ParsedMessage, rendered: Rendered | None, *, has_code: bool = False) -> tuple[Link, ...]:
    """Every link that qualifies by intent, best first, one entry per target, cut to those as
    good as the best. ``has_code``: the mail gives a one-time code (reset links are then account
    management, unless the subject asks for a reset)."""
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
    said = _what_links_say(seen)
    subject = message.subject[:MAX_SUBJECT_CHARS].replace("\u0130", "I").lower()
    commerce = about_commerce(subject)
    subject_words = {_LINK_KIND.get(_link_key(m.group())): m.group() for m in reversed(_LINK_SCAN.finditer(subject))}
    in_subject = set(subject_words)
    signs = {"intent", "reset", "login"} if commerce else {"intent", "reset", "confirm", "login"}
    if has_code:
        signs.add("topic")  # "Your Acme code" with a "Log in" button; a newsletter on codes is no sign-in mail
    about_reset = "reset" in in_subject or bool(_FORGOT.search(subject))
    mail = _Mail(commerce, bool(in_subject & signs), about_reset, has_code)

    # One target in several places (text and HTML part, with and without utm_* parameters):
    # the best reason wins, and it is shown as the mail's button (else its HTML link) writes it.
    best: dict[str, tuple[float, _Why, int]] = {}  # target -> score, why, index in seen
    shown: dict[str, _LinkSeen] = {}
    places: Counter[str] = Counter()
    targets: dict[str, str] = {}  # a mail repeats its URLs: each is read once
    for index, item in enumerate(seen):
        target = targets.get(item.url) or targets.setdefault(item.url, _target(item.url))
        places[target] += 1
        if target not in shown or _form_rank(item) > _form_rank(shown[target]):
            shown[target] = item  # also when this writing says nothing itself ("Continue")
        verdict = _link_score(item, said[index], mail) if index in said else None
        if verdict is None:
            continue
        score, why = verdict
        if target not in best or score > best[target][0]:
            best[target] = (score, why, index)
    if not best:
        return _only_action(seen, said, shown, mail, subject_words)
    ranked = sorted(
        (
            (score + 4 * min(places[target] - 1, 2), target, why, index, shown[target])
            for target, (score, why, index) in best.items()
        ),
        key=lambda entry: -entry[0],
    )
    top = ranked[0][0]
    kept = [entry for entry in ranked[:MAX_LINKS] if entry[0] >= top - _TIE]
    kept_targets = [entry[1] for entry in kept]
    return tuple(
        Link(url=form.url, context=_label(seen[index].label), source=seen[index].source, reason=_reason(why))
        for _, target, why, index, form in kept
        if not any(_landing_page(target, other) for other in kept_targets)
    )


_TOKEN_PART: Final = re.compile(r"[A-Za-z0-9_\-]{16,}")
_NOT_AN_ACTION: Final = frozenset({"never", "soft-never", "settings", "manage", "activity", "not-account", "app"})


def _only_action(
    seen: list[_LinkSeen],
    said: dict[int, _Said],
    shown: dict[str, _LinkSeen],
    mail: _Mail,
    subject: dict[str | None, str],
) -> tuple[Link, ...]:
    """When no link says what it does: the one link carrying a token in a mail whose subject asks
    to confirm or verify ("メールアドレス変更のご確認" over "下記URLにアクセスして…" and its URL).
    Never in a mail that gives a code or is about an order; never one of several such links."""
    asks = next((subject[k] for k in ("intent", "confirm") if k in subject), None)
    if asks is None or mail.has_code or mail.commerce or "not-account" in subject:
        return ()  # "Ordrebekræftelse", "Anmeldebestätigung: Webinar …" confirm an order, an event
    found: dict[str, _LinkSeen] = {}
    for index, item in enumerate(seen):
        words = said.get(index, _Said({}, {}, {}))
        if _NOT_AN_ACTION & (words.label.keys() | words.path.keys()) or "unsub" in item.url.lower():
            continue
        host_match = _HOST.match(item.url)
        host = host_match.group(1).lower() if host_match else ""
        if _on(host, _SOCIAL) or _on(host, _APP_STORES) or host.split(".", 1)[0] in _HELP_HOSTS:
            continue
        if _TOKEN_PART.search(item.url, host_match.end() if host_match else 0):
            found.setdefault(_target(item.url), item)
    if len(found) != 1:
        return ()
    ((target, item),) = found.items()
    form = shown.get(target, item)
    reason = f'the only link with a token in a mail whose subject says "{asks}"'
    return (Link(url=form.url, context=_label(item.label), source=item.source, reason=reason),)


# A subject about a forgotten password or recovering an account asks for a reset, in its words.
_FORGOT: Final = re.compile(
    r"forgot|recover|vergessen|wiederherstell|oublié|récupér|olvid|recuper|esquec|dimentica|vergeten|herstel|забыл"
    r"|восстановл|zapomn|odzysk|unuttu|glömt|glemt|unohd|zapomně|elfelejt|uitat|ξεχάσ|забул|віднов|quên|lupa|忘|잊"
)

_TIE: Final = 6
"""A further link is reported only when it is about as sure as the best (two buttons for two
ways to verify); a weaker one is the mail's footer or a link to ask for a new mail."""


def _form_rank(item: _LinkSeen) -> tuple[bool, bool, int]:
    """Which writing of one target to show: a button's, then an HTML link's, then the first seen."""
    return (item.button, item.source == "html", -item.order)


def _what_links_say(seen: list[_LinkSeen]) -> dict[int, _Said]:
    """The kinds of words in each link's label, address and path (percent-decoded)."""
    # One scan over every label and URL together: one regex call instead of dozens per link.
    label_at: list[int] = []
    url_at: list[int] = []
    pieces = [f"{item.label}\n{_readable(item.url)}\n" for item in seen]
    at = 0
    for item, piece in zip(seen, pieces, strict=True):
        label_at.append(at)
        url_at.append(at + len(item.label) + 1)
        at += len(piece)
    haystack = "".join(pieces).replace("\u0130", "I").lower()  # lower() keeps every offset
    said: dict[int, _Said] = {}
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
        found = said.setdefault(index, _Said({}, {}, {}))
        if not in_url:
            found.label.setdefault(kind, phrase)
        else:
            found.url.setdefault(kind, phrase)
            if kind != "login" and _in_path(pieces[index], start - label_at[index], url_at[index] - label_at[index]):
                found.path.setdefault(kind, phrase)
    return said


def _link_score(item: _LinkSeen, said: _Said, mail: _Mail) -> tuple[float, _Why] | None:
    """How surely the link is the one to open, and why; None when it does not qualify."""
    label, url, path = said.label, said.url, said.path
    if "never" in label or "never" in path or "unsub" in item.url.lower():
        return None
    # A reset link is the action of a reset mail; in a mail that gives a code, it is account management.
    reset_ok = mail.about_reset or not mail.has_code
    wanted = {"intent", "reset"} if reset_ok else {"intent"}
    if not mail.commerce:
        wanted.add("confirm")  # confirming an address; in an order mail, confirming the order
    if "settings" in label:
        wanted.discard("confirm")  # "Confirm your subscription preferences" confirms settings
    label_intent = bool(wanted & label.keys()) and "not-account" not in label
    if ("soft-never" in label or "settings" in label) and not label_intent:
        return None
    said_anywhere = label.keys() | path.keys()
    if ("manage" in label or ("manage" in path and not wanted & path.keys())) and not (
        ({"intent", "login"} | wanted) & said_anywhere
    ):
        return None  # "Forgot your password?", "Security settings", "Not you? Secure your account"
    if ("activity" in label or ("activity" in path and not wanted & path.keys())) and not (
        {"intent", "login"} & said_anywhere or wanted & path.keys()
    ):
        return None  # sign-in history, devices: only when the link's address or words ask to verify
    url_intent = bool(wanted & url.keys()) and "not-account" not in path
    path_intent = url_intent and bool(wanted & path.keys())
    login = mail.about_login and ("login" in label or "login" in url)
    if not (label_intent or url_intent or login):
        return None
    host_match = _HOST.match(item.url)
    host = host_match.group(1).lower() if host_match else ""
    path_text = item.url[host_match.end() :].split("?", 1)[0].split("#", 1)[0].lower() if host_match else ""
    if _on(host, _APP_STORES) or path_text.endswith(_PIXEL):
        return None  # a store, a tracking pixel
    if _on(host, _SOCIAL) and not (path_intent or (mail.about_login and "login" in label)):
        return None  # "follow us", even when it says "Verify us on ..."; "Sign in to Medium" stays
    if (host.split(".", 1)[0] in _HELP_HOSTS or path_text.startswith(_HELP_PATHS)) and not path_intent:
        return None  # documentation and help articles about verifying are not a verification
    score = (
        30 * label_intent + (20 if path_intent else 14 if url_intent else 0)
        + 16 * ("login" in label) + 8 * ("login" in url) + 6 * item.button - 0.3 * min(item.order, 30)
        - 12 * ("app" in label)
    )  # fmt: skip
    return score, _Why(item, said, frozenset(wanted), label_intent, path_intent)


def _reason(why: _Why) -> str:
    """Why a reader would open the link, in their words."""
    item, said, wanted, label_intent, _ = why
    what = "the button" if item.button else "the link" if item.source == "html" else "the text before it"
    words = _label(" ".join(item.label.split()))[:80]
    if label_intent or ("login" in said.label and words):
        return f'{what} says "{words}"'
    phrase = next((said.url[k] for k in ("intent", "reset", "confirm") if k in said.url and k in wanted), None)
    if phrase is not None:
        return f'its address says "{phrase}"'
    return f'its address says "{said.url.get("login", "sign in")}" in a mail about signing in'


_TRACKING_PARAM: Final = re.compile(r"(?:utm_[a-z]*|mc_cid|mc_eid|_hsenc|_hsmi|gclid|fbclid|mkt_tok|yclid)=", re.I)


def _target(url: str) -> str:
    """What a URL opens, for telling two writings of one link apart from two links: scheme and
    host in lower case, ``&amp;`` read as ``&``, click-tracking parameters (``utm_*``) dropped."""
    try:
        parts = urlsplit(url.replace("&amp;", "&"))
    except ValueError:
        return url
    query = "&".join(p for p in parts.query.split("&") if p and not _TRACKING_PARAM.match(p))
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}{parts.path or '/'}?{query}#{parts.fragment}"


def _landing_page(page: str, link: str) -> bool:
    """Whether target ``page`` is the bare page that ``link`` adds a token to: "…/password_reset"
    beside "…/password_reset/f7245c…", "wp-login.php" beside "wp-login.php?action=rp&key=…". The
    page is where one asks for a new mail; the link with the token is the one this mail gives."""
    page_path, _, page_rest = page.partition("?")
    if page_rest != "#":  # the page has a query or a fragment of its own
        return False
    link_path, _, link_rest = link.partition("?")
    if link_path == page_path:
        return link_rest != "#"
    return link_path.startswith(page_path.rstrip("/") + "/")


def _readable(url: str) -> str:
    """A URL's host and path as words can be read in it: percent-escapes decoded ("/%E3%83%AD..."
    is "/ログ...")."""
    part = _INTENT_PART.match(url).group()  # type: ignore[union-attr]
    return unquote(part, errors="replace") if "%" in part else part


def _link_key(words: str) -> str:
    return keyword_key(words.replace("_", " "))


def _in_path(piece: str, offset: int, url_start: int) -> bool:
    """Whether ``piece[offset]`` is in the path of the URL read at ``piece[url_start:]`` (its host and path)."""
    scheme = _SCHEME.match(piece, url_start)
    path_start = piece.find("/", scheme.end()) if scheme else -1
    return 0 <= path_start <= offset


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
        if len(url) <= MAX_URL_CHARS and _http(url) and not quoted(text, start, start + len(url)):
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
