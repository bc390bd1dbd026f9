# ruff: noqa: RUF001 - multilingual keywords: Cyrillic, fullwidth and dotless letters are meant
"""Properties of code and link extraction that must hold for every input, not just the table."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from gateway.mail.extract import MAX_CODES, MAX_LINKS, extract
from gateway.mail.models import ParsedMessage


def _message(subject: str = "", text: str = "", html: str | None = None) -> ParsedMessage:
    return ParsedMessage(
        message_id=None,
        from_header="",
        from_address=None,
        to=(),
        cc=(),
        subject=subject,
        date=None,
        headers=(),
        text=text,
        html=html,
    )


# Code words of every tier and language, as mails write them before a code.
KEYWORDS = [
    "code",
    "Code",
    "CODE",
    "verification code",
    "Verification Code",
    "security code",
    "one-time passcode",
    "OTP",
    "passcode",
    "PIN",
    "2FA code",
    "login code",
    "sign-in code",
    "confirmation code",
    "Your code is",
    "验证码",
    "校验码",
    "动态码",
    "驗證碼",
    "認証コード",
    "確認コード",
    "ワンタイムパスワード",
    "인증번호",
    "인증 코드",
    "Bestätigungscode",
    "Sicherheitscode",
    "code de vérification",
    "código de verificación",
    "código de verificação",
    "codice di verifica",
    "verificatiecode",
    "код подтверждения",
    "код",
    "kod weryfikacyjny",
    "doğrulama kodu",
    "tek kullanımlık şifre",
    "engångskod",
    "kode verifikasi",
    "mã xác minh",
]
# Prose without digits and without any word the extractor reads (no code words, labels,
# promotions, addresses, amounts, dates, meetings, words calling a code old).
_PROSE = """hello there we are glad you joined the team today thanks for reading this short note about our little
garden and the river near the quiet mill where blue birds sing every morning while green leaves dance"""
PROSE_WORDS = sorted(set(_PROSE.split()))

prose = st.lists(st.sampled_from(PROSE_WORDS), max_size=40).map(" ".join)
punctuated = st.tuples(prose, st.sampled_from(["", ".", ",", "!", "\n", "\n\n"])).map("".join)
# A code that is no year: 4 to 8 digits, leading zeros allowed.
codes = (
    st.integers(min_value=4, max_value=8)
    .flatmap(lambda n: st.text("0123456789", min_size=n, max_size=n))
    .filter(lambda c: not (len(c) == 4 and c[:2] in ("19", "20")))
)
separators = st.sampled_from([" ", ": ", " is ", "：", " - ", ":\n", "\n", " is: "])


# --- never raises ---------------------------------------------------------------------------

HTML_PIECES = [
    "<p>", "</p>", "<div>", "</div>", "<span>", "</span>", "<br>", "<td>", "</td>", "<tr>", "<table>", "<b>",
    '<a href="https://x.test/verify?a=1&amp;b=2">', "</a>", '<a href="', '">', "<style>", "</style>", "<script>",
    '<div style="display:none">', '<span style="font-size:0">', "<!--", "-->", "&amp;", "&#", "&#x", ";", "&nbsp;",
    "\u200b", "\ufffd", "code", "verify", "验证码", "123456", "4", " ", "\n", "G-", "-", "#", "€", "2024",
    "https://", "@", "www.", "<", ">", "'", '"', "\x00", "\r", "İ", "ﬀ", "１２３",
]  # fmt: skip
html_like = st.lists(st.one_of(st.sampled_from(HTML_PIECES), st.text(max_size=8)), max_size=60).map("".join)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(), st.text(), st.one_of(st.none(), st.text()))
def test_never_raises_on_any_text(subject: str, text: str, html: str | None) -> None:
    codes, links = extract(_message(subject, text, html))
    assert len(codes) <= MAX_CODES and len(links) <= MAX_LINKS


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(html_like, html_like, html_like)
def test_never_raises_on_html_like_input_and_keeps_its_promises(subject: str, text: str, html: str) -> None:
    codes, links = extract(_message(subject, text, html))
    assert len(codes) <= MAX_CODES and len(links) <= MAX_LINKS
    assert len({c.value.upper() for c in codes}) == len(codes)  # deduplicated
    assert len({link.url for link in links}) == len(links)
    for code in codes:
        assert code.value and code.source in ("subject", "text", "html")
        assert "\ufffd" not in code.value
        assert len(code.context) <= 130
        assert code.reason  # every code says why
    for link in links:
        assert link.url[:8].lower().startswith(("http://", "https://"))
        assert link.source in ("text", "html")
        assert link.reason  # every link says why


# --- a planted code is found ----------------------------------------------------------------


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(punctuated, st.sampled_from(KEYWORDS), separators, codes, punctuated)
def test_code_beside_a_keyword_is_found_first(before: str, keyword: str, sep: str, code: str, after: str) -> None:
    text = f"{before} {keyword}{sep}{code} {after}"
    assert extract(_message(text=text))[0][0].value == code


# How mails say a code is no longer the one to use: before it, and after it.
STALE_BEFORE = ["previous", "old", "earlier", "vorheriger", "ancien", "предыдущий", "poprzedni", "以前の"]
STALE_AFTER = ["is no longer valid", "has expired", "ist nicht mehr gültig", "n'est plus valide", "已失效"]


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(prose, st.sampled_from(STALE_BEFORE), st.sampled_from(STALE_AFTER), st.sampled_from(KEYWORDS), codes, codes)
def test_a_code_the_mail_calls_old_is_never_reported(
    before: str, old: str, expired: str, keyword: str, stale: str, fresh: str
) -> None:
    assume(stale != fresh)
    text = f"{before} Your {old} {keyword} {stale} no longer works. {keyword}: {fresh}. The code {stale} {expired}."
    values = [c.value for c in extract(_message(text=text))[0]]
    assert values[:1] == [fresh] and stale not in values


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(prose, st.sampled_from(KEYWORDS), codes, prose)
def test_code_beside_a_keyword_in_html_is_found_first(before: str, keyword: str, code: str, after: str) -> None:
    html = f'<div style="display:none">{after}</div><p>{before}</p><p>{keyword}: <b>{code}</b></p><p>{after}</p>'
    assert extract(_message(html=html))[0][0].value == code


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(prose, st.sampled_from(KEYWORDS), codes, prose)
def test_letter_spaced_code_is_found(before: str, keyword: str, code: str, after: str) -> None:
    spaced = " ".join(code)
    html = f"<p>{before}</p><p>{keyword}:</p><p style='letter-spacing:6px'>{spaced}</p><p>{after}</p>"
    assert extract(_message(html=html))[0][0].value == code


# --- no keyword, no code -------------------------------------------------------------------

digits = st.text("0123456789", min_size=1, max_size=4)
numbers = st.one_of(
    st.integers(min_value=0, max_value=10**12).map(str),
    st.text("0123456789", min_size=1, max_size=10),
    st.tuples(digits, st.sampled_from(" -./:,"), digits).map("".join),
)
prose_and_numbers = st.lists(st.one_of(st.sampled_from(PROSE_WORDS), numbers), max_size=60).map(" ".join)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(prose, prose_and_numbers, prose_and_numbers)
def test_digits_without_any_keyword_are_never_reported(subject: str, text: str, html_text: str) -> None:
    html = "".join(f"<p>{line}</p>" for line in html_text.split(" the "))
    assert extract(_message(subject, text, html))[0] == ()


# --- hostile input stays fast (a guard against blow-ups, not a benchmark) -----------------

MEGABYTE = 10**6
HOSTILE = {
    "digits": "1" * MEGABYTE,
    "spaced-digits": "1 " * (MEGABYTE // 2),
    "dashed-digits": "-1" * (MEGABYTE // 2),
    "code-words": "code " * (2 * MEGABYTE // 10),
    "code-and-digits": "code 1 " * (MEGABYTE // 7),
    "alnum": "a1" * (MEGABYTE // 2),
    "letters": "a" * MEGABYTE,
    "at-signs": "@" * MEGABYTE,
    "urls": "https://" * (MEGABYTE // 8),
    "zero-width": "\u200b1" * (MEGABYTE // 2),
    "fffd": "\ufffd1" * (MEGABYTE // 2),
}
HOSTILE_HTML = {
    "spans": "<span>1</span>" * (MEGABYTE // 14),
    "nested-divs": "<div>" * (MEGABYTE // 10) + "x" + "</div>" * (MEGABYTE // 10),
    "nested-spans": "<span>" * (MEGABYTE // 6),
    "unclosed-and-stray": "<span></b>" * (MEGABYTE // 10),
    "cells": "<td>1</td>" * (MEGABYTE // 10),
    "huge-href": '<a href="https://x.test/verify?' + "a" * MEGABYTE + '">Verify</a>',
    "many-links": '<a href="https://x.test/verify">Verify</a>' * (MEGABYTE // 42),
    "hidden": '<p style="display:none">1</p>' * (MEGABYTE // 30),
    "comments": "<!--" * (MEGABYTE // 4),
    "entities": "&#49;" * (MEGABYTE // 5),
    "letter-spaced": "<p style='letter-spacing:2px'>" + "1 " * (MEGABYTE // 2),
}


@pytest.mark.timeout(10)
@pytest.mark.parametrize("text", HOSTILE.values(), ids=HOSTILE.keys())
def test_hostile_text_is_bounded(text: str) -> None:
    extract(_message(text[:1000], text, text))


@pytest.mark.timeout(10)
@pytest.mark.parametrize("html", HOSTILE_HTML.values(), ids=HOSTILE_HTML.keys())
def test_hostile_html_is_bounded(html: str) -> None:
    extract(_message("Your verification code", "", html))
