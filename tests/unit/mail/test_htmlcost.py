"""The parse-cost scan both HTML readers ask first, and the renderer's use of it."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gateway.mail.htmlcost import Cost, lowercase, parse_cost
from gateway.mail.render import render

LIMITS = {"max_depth": 512, "max_recreated": 1_000_000, "max_attributes": 1000}

OPEN_FORMATTING = "<p>" + "".join(f'<b title="{i}">' for i in range(300)) + "x" + "<p>y" * 40_000


def test_ordinary_mark_up_passes() -> None:
    html = "<table><tr><td><b>Hi</b> <a href='https://x.test'>there</a></td></tr></table>" * 200
    assert parse_cost(html, **LIMITS) is None


def test_formatting_left_open_is_found_where_it_gets_costly() -> None:
    cost = parse_cost(OPEN_FORMATTING, **LIMITS)
    assert cost is not None and cost.bound == "formatting"
    assert OPEN_FORMATTING[cost.at] == "<", "the offset is a tag's start"
    assert parse_cost(OPEN_FORMATTING[: cost.at], **LIMITS) is None, "what precedes it is cheap"


def test_depth_attributes_and_tags() -> None:
    deep = "<div>" * 600
    cost = parse_cost(deep, **LIMITS)
    assert cost == Cost("depth", 512 * len("<div>"))
    crowded = "<p " + " ".join(f"a{i}=1" for i in range(1500)) + ">hi</p>"
    assert parse_cost(crowded, **LIMITS) == Cost("attributes", 0)
    assert parse_cost("<br>" * 10, **LIMITS, max_tags=4) == Cost("tags", 16)


def test_offsets_stay_exact_when_lowercasing_would_change_the_length() -> None:
    # "İ".lower() is two characters: offsets into a lowered copy would drift.
    html = "İ" * 50 + "<div>" * 600
    cost = parse_cost(html, **LIMITS)
    assert cost is not None and html[cost.at : cost.at + 5] == "<div>"
    assert cost.at == 50 + 512 * len("<div>")


@pytest.mark.timeout(5)  # was 22 s: lexbor re-created 300 elements in each of 40,000 paragraphs
def test_the_renderer_cuts_formatting_built_to_stall_it() -> None:
    rendered = render(OPEN_FORMATTING)
    assert rendered.text.startswith("x")
    assert rendered.text.count("y") < 40_000, "cut where re-creating would get costly"


def test_the_renderer_cuts_long_attributes_left_open_even_with_few_tags() -> None:
    # 400 tags, but 120 MB of mark-up to re-create: no tag-count threshold may skip the scan.
    html = "<p>" + "".join(f'<font face="{"x" * 4000}{i}">' for i in range(100)) + "a" + "<p>b" * 300
    assert parse_cost(html, **LIMITS) is not None
    rendered = render(html)
    assert rendered.text.startswith("a")
    assert 0 < rendered.text.count("b") < 300


# Letters whose lower case differs by script and context: Latin-1 capitals and signs, the Kelvin
# sign (lowers to ASCII "k"), "İ" (lowers to two characters), sigma (final or not), Cyrillic;
# and tag soup around them.
_LETTERS = "aZ\u00c4\u00d6\u00dc\u00df\u00c0\u00ff\u00b5\u00d7\u212a\u0130\u03a3\u0391\u03c3\u0416"
_PIECES = [*_LETTERS, *"<>/=\"' \n", "<b>", "<td>", "</p>", "<a x='", "<div>", "<table>", "</table>"]
_TEXT = st.lists(st.sampled_from(_PIECES), max_size=80).map("".join)


@given(_TEXT)
def test_lowercase_is_str_lower(text: str) -> None:
    assert lowercase(text) == text.lower()


@given(_TEXT)
def test_a_lowered_copy_given_by_the_caller_changes_nothing(html: str) -> None:
    limits = {**LIMITS, "max_depth": 8, "max_recreated": 40, "max_tags": 30}
    assert parse_cost(html, **limits, lowered=html.lower()) == parse_cost(html, **limits)


def test_a_bound_passed_deep_in_many_tags_has_its_exact_offset() -> None:
    # Past the tags listed at once, the scan reads match by match: the offsets stay the same.
    html = "<br>" * 60_000 + "<div>" * 600
    assert parse_cost(html, **LIMITS) == Cost("depth", 60_000 * len("<br>") + 512 * len("<div>"))
    assert parse_cost(html, **LIMITS, max_tags=50_001) == Cost("tags", 50_001 * len("<br>"))
