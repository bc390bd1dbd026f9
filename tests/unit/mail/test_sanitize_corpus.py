"""The sanitizer against the corpora: every hostile body in corpus/poison, every real-looking mail in corpus/benign.

Poison: the output holds only allow-listed elements and attributes, and the beacon host is in
no attribute value and no style (it may be text: links and images are shown as their URL).
Benign: every string the reader must see survives. The corpus conventions are checked too,
since the browser tests under tests/ui rely on them.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from selectolax.lexbor import LexborHTMLParser, LexborNode

from gateway.mail.sanitize import ALLOWED_ATTRIBUTES, ALLOWED_TAGS, BLOCKED_CLASS, LINK_CLASS, sanitize_html

CORPUS = Path(__file__).resolve().parents[3] / "corpus"
POISON = sorted((CORPUS / "poison").glob("*.html"))
BENIGN = sorted((CORPUS / "benign").glob("*.html"))
BEACON = "beacon.invalid"


def _elements(html: str) -> list[LexborNode]:
    body = LexborHTMLParser(f"<!DOCTYPE html><html><body>{html}</body></html>").body
    assert body is not None
    return [node for node in body.traverse(include_text=False) if node.tag != "body"]


def _allowed(tag: str, name: str, value: str) -> bool:
    if tag == "span" and name == "class":
        return value in {LINK_CLASS, BLOCKED_CLASS}
    return name in ALLOWED_ATTRIBUTES["*"] or name in ALLOWED_ATTRIBUTES.get(tag, frozenset())


def _visible_text(html: str) -> str:
    body = LexborHTMLParser(f"<html><body>{html}</body></html>").body
    assert body is not None
    return " ".join(body.text(separator=" ").split())


# --- the poison corpus and its conventions ---------------------------------------------------


def test_the_poison_corpus_is_large_and_named_by_convention() -> None:
    assert len(POISON) >= 150
    numbers = [path.name[:3] for path in POISON]
    assert all(re.fullmatch(r"\d{3}-[a-z0-9]+(?:-[a-z0-9]+)*\.html", path.name) for path in POISON)
    assert len(set(numbers)) == len(numbers)


def test_every_poison_file_is_described_in_the_manifest_and_the_readme() -> None:
    manifest = json.loads((CORPUS / "poison" / "manifest.json").read_text(encoding="utf-8"))
    readme = (CORPUS / "poison" / "README.md").read_text(encoding="utf-8")
    assert sorted(manifest) == [path.name for path in POISON]
    assert all(description.strip() for description in manifest.values())
    assert [name for name in manifest if f"`{name}`" not in readme] == []


@pytest.mark.parametrize("path", POISON, ids=lambda path: path.name)
def test_every_poison_file_follows_the_beacon_convention(path: Path) -> None:
    html = path.read_text(encoding="utf-8")
    number = path.name[:3]
    assert f"{BEACON}/{number}" in html
    # Every beacon reference names this file: a copied case must not report as another.
    assert set(re.findall(rf"{re.escape(BEACON)}/(\d{{3}})", html)) == {number}
    assert set(re.findall(r"XSS:(\d{3})", html)) <= {number}
    # Code that runs (a script body, a handler, a script URL) also logs, in case requests are blocked.
    if re.search(r"<script[^>]*>[^<]|\bon[a-z]+\s*=|javascript:|vbscript:|expression\(", html, re.IGNORECASE):
        assert f"XSS:{number}" in html


@pytest.mark.parametrize("path", POISON, ids=lambda path: path.name)
def test_nothing_hostile_survives_sanitizing(path: Path) -> None:
    result = sanitize_html(path.read_text(encoding="utf-8"))
    assert result.refused is None  # a refusal would pass the checks below without sanitizing
    found = _elements(result.html)
    assert sorted({node.tag or "" for node in found} - ALLOWED_TAGS) == []
    attributes = [(node.tag or "", name, value or "") for node in found for name, value in node.attributes.items()]
    assert [a for a in attributes if not _allowed(*a)] == []
    assert [a for a in attributes if BEACON in a[2].lower()] == []
    assert "<script" not in result.html.lower()
    assert "<!--" not in result.html


def test_the_poison_corpus_reports_what_it_blocked() -> None:
    # Tracking pixels are the commonest attack: the viewer tells the reader what was blocked.
    reporting = [path.name for path in POISON if any(BEACON in url for url in sanitize_html(path.read_text()).blocked)]
    assert len(reporting) >= 40


# --- the benign corpus ---------------------------------------------------------------------------


def test_the_benign_corpus_is_large_enough() -> None:
    assert len(BENIGN) >= 6
    for path in BENIGN:
        expected = json.loads(path.with_suffix(".expected.json").read_text(encoding="utf-8"))
        assert len(expected["text"]) >= 10
        assert any(not text.isascii() for text in expected["text"])
        assert BEACON not in path.read_text(encoding="utf-8")


@pytest.mark.parametrize("path", BENIGN, ids=lambda path: path.name)
def test_benign_mail_keeps_what_a_reader_must_see(path: Path) -> None:
    expected = json.loads(path.with_suffix(".expected.json").read_text(encoding="utf-8"))["text"]
    result = sanitize_html(path.read_text(encoding="utf-8"))
    assert result.refused is None
    visible = _visible_text(result.html)
    assert [text for text in expected if " ".join(text.split()) not in visible] == []


@pytest.mark.parametrize("path", BENIGN, ids=lambda path: path.name)
def test_benign_mail_keeps_its_tables_and_styles(path: Path) -> None:
    found = _elements(sanitize_html(path.read_text(encoding="utf-8")).html)
    assert any(node.tag == "table" for node in found)
    assert sum("style" in node.attributes for node in found) >= 5
    assert any(node.attributes.get("class") == LINK_CLASS for node in found)
