"""Golden test: every mail in corpus/otp/ against corpus/otp/expected.json.

A case passes when the extractor's first code and first link are among the acceptable ones
(or nothing is reported where nothing should be), every further code and link it reports is one
the mail itself offers for the same purpose (`also_codes`, `also_links`: "rank, then cut"), and
no "never" string is reported at all. The precision/recall table is printed at the end of the run;
its precision counts every reported code and link, not only the first.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from gateway.mail.extract import extract
from gateway.mail.parse import parse_message

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "otp"
CASES: list[dict[str, Any]] = json.loads((CORPUS / "expected.json").read_text(encoding="utf-8"))


@dataclass
class Tally:
    """Counts for one kind of answer (codes or links), for the precision/recall table."""

    right: int = 0  # the primary answer is an acceptable one
    wrong: int = 0  # something reported where nothing, or something else, was expected
    missed: int = 0  # nothing reported where something was expected
    quiet: int = 0  # nothing reported, nothing expected
    extra: int = 0  # further answers after the first that the mail does not offer for the same purpose

    def row(self, name: str) -> str:
        reported = self.right + self.wrong + self.extra
        expected = self.right + self.missed + self.wrong
        precision = self.right / reported if reported else 1.0
        recall = self.right / max(expected, 1)
        return (
            f"{name:<6} right {self.right:4d}  wrong {self.wrong:3d}  extra {self.extra:3d}  missed {self.missed:3d}  "
            f"quiet {self.quiet:3d}  precision {precision:.3f}  recall {recall:.3f}"
        )


@dataclass
class Results:
    codes: Tally = field(default_factory=Tally)
    links: Tally = field(default_factory=Tally)
    failures: list[str] = field(default_factory=list)


RESULTS = Results()


def _tally(tally: Tally, reported: list[str], acceptable: list[str], also: list[str]) -> bool:
    extra = [r for r in reported[1:] if r not in acceptable and r not in also]
    tally.extra += len(extra)
    return _tally_first(tally, reported, acceptable) and not extra


def _tally_first(tally: Tally, reported: list[str], acceptable: list[str]) -> bool:
    if not acceptable:
        if reported:
            tally.wrong += 1
            return False
        tally.quiet += 1
        return True
    if not reported:
        tally.missed += 1
        return False
    if reported[0] in acceptable:
        tally.right += 1
        return True
    tally.wrong += 1
    return False


def _bare(value: str) -> str:
    """A code without separators, so a forbidden `845 2913` also catches `8452913`."""
    return value.replace(" ", "").replace("-", "")


@pytest.mark.parametrize("case", CASES, ids=[c["file"] for c in CASES])
def test_corpus_case(case: dict[str, Any]) -> None:
    codes, links = extract(parse_message((CORPUS / case["file"]).read_bytes()))
    code_values = [c.value for c in codes]
    urls = [link.url for link in links]
    codes_ok = _tally(RESULTS.codes, code_values, case["codes"], case.get("also_codes", []))
    links_ok = _tally(RESULTS.links, urls, case["links"], case.get("also_links", []))
    bare = {_bare(v) for v in code_values}
    leaked = [s for s in case["never"] if s in code_values or _bare(s) in bare or s in urls]
    if not (codes_ok and links_ok and not leaked):
        RESULTS.failures.append(case["file"])
    also_codes, also_links = case.get("also_codes", []), case.get("also_links", [])
    assert codes_ok, f"codes {code_values[:3]}, expected first one of {case['codes']}, then only {also_codes}"
    assert links_ok, f"links {urls[:3]}, expected first one of {case['links']}, then only {also_links}"
    assert not leaked, f"reported what must never be: {leaked}"


def test_corpus_is_large_and_varied() -> None:
    files = {p.name for p in CORPUS.glob("*.eml")}
    assert files == {c["file"] for c in CASES}, "every .eml needs one expectation and vice versa"
    negatives = [c for c in CASES if c["kind"] == "negative"]
    assert len(CASES) - len(negatives) >= 120
    assert len(negatives) >= 40
    assert len({c["lang"] for c in CASES}) >= 12


def summary() -> list[str]:
    """The table printed at the end of the run (see conftest.pytest_terminal_summary)."""
    if not (RESULTS.codes.right + RESULTS.codes.wrong + RESULTS.codes.missed + RESULTS.codes.quiet):
        return []
    return [RESULTS.codes.row("codes"), RESULTS.links.row("links"), f"failing files: {len(RESULTS.failures)}"]
