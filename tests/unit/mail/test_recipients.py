"""Recipient matching: the corpus of named cases, the isolation rules, and the bounds."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gateway.mail import recipients
from gateway.mail.parse import raw_headers
from gateway.mail.recipients import (
    GRANTING_HEADERS,
    MAX_COMMENT_DEPTH,
    MAX_ITEMS_PER_VALUE,
    addresses_in,
    granted_addresses,
    normalize_address,
)

CORPUS = Path(__file__).parents[3] / "corpus" / "addresses" / "cases.json"
CATCHALL = "catchall@d.test"


def _load_cases() -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = json.loads(CORPUS.read_text(encoding="utf-8"))
    return cases


CASES = _load_cases()


# --- the corpus ---------------------------------------------------------------------------


@pytest.mark.parametrize("case", [pytest.param(c, id=c["id"]) for c in CASES])
def test_corpus_case(case: dict[str, Any]) -> None:
    headers = [(name, value) for name, value in case["headers"]]
    assert granted_addresses(headers, catchall=case["catchall"]) == frozenset(case["grants"])


def test_corpus_is_well_formed() -> None:
    assert len(CASES) >= 40
    ids = [case["id"] for case in CASES]
    assert len(ids) == len(set(ids))
    for case in CASES:
        assert set(case) == {"id", "headers", "catchall", "grants", "why"}, case["id"]
        assert case["why"].strip(), case["id"]
        for granted in case["grants"]:
            assert normalize_address(granted) == granted, case["id"]


# --- isolation, from an identity's point of view ------------------------------------------

ISOLATION = [
    pytest.param("k7d2@d", [("To", "fox-k7d2@d")], False, id="substring"),
    pytest.param("fox-k7d2@d", [("To", "k7d2@d")], False, id="superstring"),
    pytest.param("k7d2@d", [("To", "k7d2@d.evil")], False, id="domain-prefix"),
    pytest.param("a@d", [("To", "a+x@d")], False, id="plus-tag-does-not-grant-base"),
    pytest.param("a+x@d", [("To", "a@d")], False, id="base-does-not-grant-plus-tag"),
    pytest.param("a@d", [("To", "a@sub.d")], False, id="subdomain-does-not-grant-parent"),
    pytest.param("a@sub.d", [("To", "a@d")], False, id="parent-does-not-grant-subdomain"),
    pytest.param("victim@d", [("To", '"victim@d" <x@d>')], False, id="quoted-display-spoof"),
    pytest.param("victim@d", [("To", "victim@d <x@d>")], False, id="unquoted-display-spoof"),
    pytest.param("victim@d", [("To", "(victim@d) x@d")], False, id="comment-before"),
    pytest.param("victim@d", [("To", "x@d (victim@d)")], False, id="comment-after"),
    pytest.param("victim@d", [("To", "x@d (a (victim@d) b)")], False, id="nested-comment"),
    pytest.param("victim@d", [("To", "<x@d (victim@d)>")], False, id="comment-inside-angle"),
    pytest.param("victim@d", [("To", "=?utf-8?q?victim=40d?= <x@d>")], False, id="encoded-display"),
    pytest.param("victim@d", [("To", "=?utf-8?q?victim=40d?=")], False, id="encoded-bare"),
    pytest.param("ent@d", [("Delivered-To", "agent@d")], False, id="catchall-suffix"),
    pytest.param("agent@d", [("Delivered-To", "agent@d")], False, id="catchall-itself"),
    pytest.param("victim@d", [("Reply-To", "victim@d")], False, id="reply-to"),
    pytest.param("victim@d", [("Subject", "for victim@d")], False, id="subject"),
    pytest.param("victim@d", [("From", "victim@d")], False, id="from"),
    pytest.param("victim@d", [("Resent-To", "victim@d")], False, id="resent-to"),
    pytest.param("victim@d", [("Resent-Cc", "victim@d")], False, id="resent-cc"),
    pytest.param("victim@d", [("X-Original-Recipient", "victim@d")], False, id="x-orig-recipient"),
    pytest.param("k7d2@d", [("Delivered-To", "K7D2@D")], True, id="address-case"),
    pytest.param("k7d2@d", [("dElIvErEd-To", "k7d2@d")], True, id="header-name-case"),
    pytest.param("k7d2@d", [("X-Original-To", "k7d2@d")], True, id="x-original-to"),
    pytest.param("k7d2@d", [("To", "Agent <k7d2@d>")], True, id="name-addr"),
    pytest.param("b@d", [("To", "a@d"), ("To", "b@d")], True, id="second-to-header"),
    pytest.param("b@d", [("Bcc", "team: a@d, b@d;")], True, id="group-member"),
    pytest.param("a@d", [("To", "<@relay:a@d>")], True, id="source-route"),
]


@pytest.mark.parametrize(("identity", "headers", "visible"), ISOLATION)
def test_identity_sees_only_its_own_mail(identity: str, headers: list[tuple[str, str]], visible: bool) -> None:
    assert (identity in granted_addresses(headers, catchall="agent@d")) is visible


def test_folded_header_from_raw_bytes() -> None:
    raw = b"To: Agent One <a@d>,\r\n\tAgent Two\r\n <b@d>\r\nSubject: x\r\n\r\nbody\r\n"
    assert granted_addresses(raw_headers(raw), catchall="agent@d") == {"a@d", "b@d"}


def test_granting_headers_are_exactly_the_whitelist() -> None:
    # Widening this set widens what every identity may read: it must be a deliberate change.
    assert (
        frozenset({"delivered-to", "x-original-to", "envelope-to", "x-forwarded-to", "to", "cc", "bcc"})
        == GRANTING_HEADERS
    )


def test_granted_addresses_accepts_any_iterable_and_returns_frozenset() -> None:
    headers = (pair for pair in [("To", "a@d"), ("Cc", "b@d")])
    result = granted_addresses(headers, catchall=" AGENT@D ")
    assert isinstance(result, frozenset)
    assert result == {"a@d", "b@d"}


def test_no_headers_grant_nothing() -> None:
    assert granted_addresses([], catchall="agent@d") == frozenset()


# --- addresses_in -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        pytest.param("a@d, B@D, a@d", ["a@d", "b@d", "a@d"], id="order-and-repeats-kept"),
        pytest.param("", [], id="empty"),
        pytest.param("   ", [], id="blank"),
        pytest.param("Name <a@d>", ["a@d"], id="name-addr"),
        pytest.param("  <  a@d  >  ", ["a@d"], id="spaces-inside-angle"),
        pytest.param("a@d (c), (c) b@d", ["a@d", "b@d"], id="comments-either-side"),
        pytest.param('"x, y" <a@d>, b@d', ["a@d", "b@d"], id="comma-in-quotes"),
        pytest.param('"x \\" y" <a@d>', ["a@d"], id="escaped-quote"),
        pytest.param('"x \\', [], id="escape-at-end"),
        pytest.param("(c \\", [], id="escape-at-end-of-comment"),
        pytest.param("g: a@d; b@d", ["a@d", "b@d"], id="group-then-item"),
        pytest.param("<a@d>:b@d;", ["b@d"], id="angle-before-colon-is-group-name"),
        pytest.param("a@d\r\n b@d", [], id="unfolding-left-whitespace-inside-item"),
        pytest.param("a@d,\r\n b@d", ["a@d", "b@d"], id="folded-after-comma"),
        pytest.param("<a@d>>", [], id="stray-gt"),
        pytest.param("a@d (", [], id="open-comment"),
        pytest.param("<@relay a@d>", [], id="route-without-colon"),
        pytest.param("<@r1:@r2:a@d>", [], id="two-route-colons"),
    ],
)
def test_addresses_in(value: str, expected: list[str]) -> None:
    assert addresses_in(value) == expected


def test_comment_depth_bound_is_exact() -> None:
    at_bound = "(" * MAX_COMMENT_DEPTH + ")" * MAX_COMMENT_DEPTH + " a@d"
    over_bound = "(" * (MAX_COMMENT_DEPTH + 1) + ")" * (MAX_COMMENT_DEPTH + 1) + " a@d"
    assert addresses_in(at_bound) == ["a@d"]
    assert addresses_in(over_bound) == []


def test_items_per_value_are_capped() -> None:
    value = ", ".join(f"u{i}@d" for i in range(MAX_ITEMS_PER_VALUE + 10))
    found = addresses_in(value)
    assert len(found) == MAX_ITEMS_PER_VALUE
    assert found[-1] == f"u{MAX_ITEMS_PER_VALUE - 1}@d"


# --- normalize_address --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("addr", "expected"),
    [
        pytest.param("a@d", "a@d", id="plain"),
        pytest.param("K7D2@Agents.Example", "k7d2@agents.example", id="lowercased"),
        pytest.param("first.last+tag@d", "first.last+tag@d", id="atext-kept"),
        pytest.param("a@b@d", None, id="two-at"),
        pytest.param("@d", None, id="no-local"),
        pytest.param("a@", None, id="no-domain"),
        pytest.param("ad", None, id="no-at"),
        pytest.param("", None, id="empty"),
        pytest.param(" a@d", None, id="leading-space"),
        pytest.param("a@d ", None, id="trailing-space"),
        pytest.param("<a@d>", None, id="angle"),
        pytest.param('"a"@d', None, id="quoted-local"),
        pytest.param("a@[127.0.0.1]", None, id="domain-literal"),
        pytest.param("a(b)@d", None, id="comment"),
        pytest.param("a,b@d", None, id="comma"),
        pytest.param("a;b@d", None, id="semicolon"),
        pytest.param("a:b@d", None, id="colon"),
        pytest.param("a\\b@d", None, id="backslash"),
        pytest.param("a\tb@d", None, id="tab"),
        pytest.param("a\x7fb@d", None, id="delete"),
        pytest.param("a\u2028b@d", None, id="line-separator"),
        pytest.param("a\u202eb@d", None, id="bidi-override"),
        pytest.param("=?utf-8?q?a?=@d", None, id="encoded-word"),
        pytest.param("\u212a@d", "\u212a@d", id="kelvin-sign-not-folded"),
        pytest.param("x" * 250 + "@d.ex", None, id="too-long"),
        pytest.param("x" * 249 + "@d.ex", "x" * 249 + "@d.ex", id="longest"),
    ],
)
def test_normalize_address(addr: str, expected: str | None) -> None:
    assert normalize_address(addr) == expected


# --- bounds on hostile input --------------------------------------------------------------

MEGABYTE = 1_000_000

HOSTILE = [
    pytest.param("(" * MEGABYTE, id="open-parens"),
    pytest.param("()" * (MEGABYTE // 2), id="empty-comments"),
    pytest.param("(" * 8 + "x" * MEGABYTE, id="long-comment"),
    pytest.param('"' * MEGABYTE, id="quotes"),
    pytest.param('"\\' * (MEGABYTE // 2), id="escaped-quotes"),
    pytest.param("<" * MEGABYTE, id="open-angles"),
    pytest.param("<a@d>" * (MEGABYTE // 5), id="angles-in-one-item"),
    pytest.param("," * MEGABYTE, id="commas"),
    pytest.param(":" * MEGABYTE, id="colons"),
    pytest.param("g:" + "a@d," * (MEGABYTE // 4) + ";", id="huge-group"),
    pytest.param("a" * MEGABYTE + "@d", id="long-local-part"),
    pytest.param('"(<,:;>)\\' * (MEGABYTE // 9), id="mixed-specials"),
]


@pytest.mark.timeout(5)
@pytest.mark.parametrize("value", HOSTILE)
def test_hostile_megabyte_value_returns(value: str) -> None:
    found = addresses_in(value)
    assert len(found) <= MAX_ITEMS_PER_VALUE
    assert granted_addresses([("To", value), ("Cc", value)], catchall="agent@d") <= set(found)


def test_public_names() -> None:
    assert set(recipients.__all__) == {
        "GRANTING_HEADERS",
        "MAX_ADDRESS_CHARS",
        "MAX_COMMENT_DEPTH",
        "MAX_ITEMS_PER_VALUE",
        "addresses_in",
        "granted_addresses",
        "normalize_address",
    }
