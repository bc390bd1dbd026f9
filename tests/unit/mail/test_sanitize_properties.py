"""Properties of the HTML sanitizer that must hold for every input, not just the tables and the corpus."""

from __future__ import annotations

import html as html_escaping
import re
import time

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from selectolax.lexbor import LexborHTMLParser, LexborNode

from gateway.mail.sanitize import (
    ALLOWED_ATTRIBUTES,
    ALLOWED_TAGS,
    BLOCKED_CLASS,
    LINK_CLASS,
    MAX_BLOCKED,
    MAX_SANITIZE_BYTES,
    MAX_URL_CHARS,
    sanitize_html,
)

# Pieces of hostile and ordinary mark-up; hypothesis glues them into tag soup.
FRAGMENTS = [
    "<a href='//t.example/a'>", "<a href=javascript:alert(1) ping=//t.example/p>", "</a>", "<a name=top id=x>",
    "<img src=x onerror=alert(1)>", "<img srcset='//t.example/1 1x, /2 2x' alt='A'>", "<image src=//t.example>",
    "<script>", "</script>", "<script src=//t.example/s.js>", "<style>", "</style>", "@import url(//t.example);",
    "<svg>", "</svg>", "<svg onload=alert(1)>", "<math>", "<mtext>", "<mglyph>", "<annotation-xml encoding=text/html>",
    "<foreignObject>", "<desc>", "<table>", "<tr>", "<td colspan=2 background=//t.example/b>", "</td>", "</table>",
    "<p>", "</p>", "<b>", "</b>", "<i title=x>", "<font face=Arial>", "<div>", "</div>", "<br>", "<li>", "<ul>",
    "<div style='color:red;background:url(//t.example/u)'>", "<p style=\"width:expression(alert(1))\">",
    "<span style='background:\\75 rl(//t.example/e)'>", "<td style=\"background:image-set('//t.example/i' 1x)\">",
    "<!--", "-->", "<!-->", "<![CDATA[", "]]>", "<?xml x?>", "<noscript>", "</noscript>", "<template>",
    "</template>", "<textarea>", "</textarea>", "<title>", "</title>", "<xmp>", "</xmp>", "<plaintext>",
    "<iframe srcdoc='<script>alert(1)</script>'>", "</iframe>", "<noembed>", "<select>", "<option>",
    "<form action=//t.example/f>", "<button formaction=javascript:alert(1)>", "<input type=image src=//t.example/i>",
    "<input autofocus onfocus=alert(1)>", "<base href=//t.example/>",
    "<meta http-equiv=refresh content='0;url=//t.example'>", "<link rel=stylesheet href=//t.example/c>",
    "<video poster=//t.example/v><source src=//t.example/s>", "<audio src=x>",
    "<object data=//t.example/o>", "<embed src=//t.example/e>", "<details open ontoggle=alert(1)>",
    "<span class=link>", "<span class=blocked-image>", "<blockquote cite=//t.example/q>", "<html manifest=//t.example>",
    "<body background=//t.example/b onload=alert(1)>", "<frameset>", "<frame src=//t.example/f>",
    '"', "'", "=", ">", "<", "/", "&", "&lt;", "&amp;", "&#106;avascript:", "jav&#x09;ascript:", "javascript:",
    " onerror=alert(1) ", "style=", "href=", "src=", "url(", "expression(", "\\", " ", "\n", "\t", "\x00", "\xa0",
    "Grüße", "確認コード", "عزيزتي", "482913",
]  # fmt: skip

tag_soup = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=6)), max_size=40).map("".join)

URL_ATTRIBUTES = frozenset(
    {"href", "src", "srcset", "action", "formaction", "background", "poster", "cite", "longdesc", "lowsrc",
     "dynsrc", "data", "codebase", "xlink:href", "usemap", "manifest", "ping", "srcdoc"}
)  # fmt: skip
HOSTILE_CSS = ("url(", "expression", "image-set", "\\", "@", "behavior", "binding", "src(")
DANGEROUS_TAG = re.compile(
    r"<\s*/?\s*(?:script|style|iframe|frame|svg|math|img|image|a|object|embed|form|input|button|link|meta|base|"
    r"template|noscript|video|audio|source|textarea|select|title|xmp|plaintext)[\s/>]",
    re.IGNORECASE,
)


def _elements(html: str) -> list[LexborNode]:
    body = LexborHTMLParser(f"<!DOCTYPE html><html><body>{html}</body></html>").body
    assert body is not None
    return [node for node in body.traverse(include_text=False) if node.tag != "body"]


def _text(html: str) -> str:
    body = LexborHTMLParser(f"<html><body>{html}</body></html>").body
    assert body is not None
    return " ".join(body.text(separator=" ").split())


def _assert_safe(html: str) -> None:
    """No element or attribute outside the allow-lists, no URL, handler or hostile CSS anywhere."""
    assert DANGEROUS_TAG.search(html) is None
    for node in _elements(html):
        tag = node.tag or ""
        assert tag in ALLOWED_TAGS
        for name, value in node.attributes.items():
            value = (value or "").lower()
            assert name not in URL_ATTRIBUTES
            assert not name.startswith("on")
            if name == "class":
                assert (tag, value) in {("span", LINK_CLASS), ("span", BLOCKED_CLASS)}
            else:
                assert name in ALLOWED_ATTRIBUTES["*"] or name in ALLOWED_ATTRIBUTES.get(tag, frozenset())
            assert "//" not in value
            assert "javascript:" not in value
            if name == "style":
                assert [token for token in HOSTILE_CSS if token in value] == []


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(tag_soup)
def test_output_is_always_within_the_allow_lists(html: str) -> None:
    result = sanitize_html(html)
    assert result.refused is None  # small soup is never refused: the checks below are not vacuous
    _assert_safe(result.html)
    assert len(result.blocked) <= MAX_BLOCKED
    assert all(0 < len(url) <= MAX_URL_CHARS for url in result.blocked)
    assert len(set(result.blocked)) == len(result.blocked)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(tag_soup)
def test_sanitizing_again_stays_safe_and_shows_the_same_text(html: str) -> None:
    once = sanitize_html(html).html
    twice = sanitize_html(once).html
    _assert_safe(twice)
    assert _text(twice) == _text(once)
    assert sanitize_html(twice).html == twice  # the second pass reaches a fixed point


@settings(max_examples=300)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00\r")))
def test_plain_text_comes_back_exactly(text: str) -> None:
    # Escaped text is text: every character, in every script, survives (entities decoded).
    result = sanitize_html(html_escaping.escape(text))
    assert result.refused is None
    assert html_escaping.unescape(result.html) == text


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.sampled_from(["https://t.example/a", "/b", "//c.example/d", "mailto:e@f.example", "#g"]), max_size=8)
)
def test_every_link_url_is_shown_and_none_is_clickable(urls: list[str]) -> None:
    html = "".join(f'<p><a href="{url}">link {i}</a></p>' for i, url in enumerate(urls))
    result = sanitize_html(html)
    shown = _text(result.html)
    for i, url in enumerate(urls):
        assert f"link {i} [{url}]" in shown
    assert not [node for node in _elements(result.html) if node.tag == "a"]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=4).map("".join), st.sampled_from([3_000, 300_000]))
def test_repeated_mark_up_costs_bounded_time(unit: str, times: int) -> None:
    html = (unit * times)[: MAX_SANITIZE_BYTES // 2]
    started = time.perf_counter()
    result = sanitize_html(html)
    elapsed = time.perf_counter() - started
    assert elapsed < 3, f"{elapsed:.2f}s for {unit!r} x {times}"  # 10-300 ms on a quiet laptop
    assert result.refused is None or result.html == ""
