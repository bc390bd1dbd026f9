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
   words in 24 languages (strong: "verification code", "验证码"; plain: "code", "PIN"; weak:
   "verify", "enter") raise it; a bound label ("order number: 123456", "Bestellnummer", a code
   word glued to a reference: "PNR kodu") disqualifies it, and so does a word calling it old
   in its clause ("the previous code 118347", "118347 is no longer valid"); a promo, meeting,
   address or amount word closer than the code word sinks it. A code inside a quoted message
   (a scam warning's example) is none. No keyword: no code, except the one lone candidate of a
   message that names a code (in its subject; or anywhere, for one alone on its line).
4. **Rank, then cut.** Occurrences of one code collapse; the best wins by keyword strength
   and distance, format (6 digits first), position (subject, then early body), prominence
   (alone on its line, a heading, large or letter-spaced type) and repetition across subject,
   text and HTML. A year ("2024") is kept only when nothing better exists. A further code is
   reported only when a code word of the first one's strength labels it. Every code carries
   the reason a reader would give.

Links come from ``<a href>`` and from bare ``http(s)`` URLs in the text, exactly as written,
and qualify by intent (verify, confirm, approve, reset, sign in ... in 24 languages) in the
URL's host and path (percent-decoded; also without diacritics) or in the link's text (its
sentence, when the text is only "click here"); unsubscribe, privacy, terms, view-in-browser,
social, app-store, download and deny links never do. Account management is no verification:
"Forgot your password?", security settings, "Wasn't you?" links and sign-in history need their
own words to ask to verify or sign in, and a reset link counts in a mail that gives a code only
when the subject asks for the reset. One target (utm_* parameters and ``&amp;`` aside) is one
link, written as the mail's button writes it; the bare page beside its tokenised link and any
link much less sure than the best are cut. Every link carries its reason.

Bounds: each text is examined up to :data:`MAX_TEXT_CHARS`, HTML up to
:data:`gateway.mail.render.MAX_HTML_CHARS`; candidates, URLs and results are capped, and
every regular expression is linear (possessive quantifiers, anchored scans), so hostile
input costs time proportional to the capped size.

The package reads in that order: :mod:`.text` prepares the texts, :mod:`.tokens` finds the
candidates, :mod:`.codes` scores and ranks them, :mod:`.links` finds and ranks the links;
:mod:`.words` holds every vocabulary (edit the rules' words there) and :mod:`.scanner` the
one-pass phrase matcher both use.
"""

from __future__ import annotations

from gateway.mail.extract.codes import KEYWORD_WINDOW, MAX_CODES, rank_codes
from gateway.mail.extract.links import MAX_LINKS, MAX_URL_CHARS, rank_links
from gateway.mail.extract.text import MAX_SUBJECT_CHARS, MAX_TEXT_CHARS, Text
from gateway.mail.extract.tokens import MAX_CANDIDATES
from gateway.mail.models import Code, Link, ParsedMessage
from gateway.mail.render import MAX_HTML_CHARS, render, visible_text

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
    texts = [Text.of("subject", message.subject[:MAX_SUBJECT_CHARS]), Text.of("text", message.text)]
    if rendered is not None:
        texts.append(Text.of("html", rendered.text))
    codes = rank_codes(texts, rendered.emphasized if rendered else frozenset())
    links = rank_links(message, rendered, has_code=bool(codes))
    return codes, links, None if rendered is None else rendered.text
