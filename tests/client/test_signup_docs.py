"""The signup-test examples of the docs run as written: each ```python block that defines a test.

They run in a pytest subprocess with the installed plugin and nothing configured (so the
embedded gateway), against the shop of tests/client/signup_app.py as `signup_url` and Debian's
Chromium as `page` (standing in for pytest-playwright's fixture).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "README.md"

pytest_plugins = ["pytester"]

CONFTEST = "from tests.client.signup_app import page, shop, signup_url, sync_browser  # noqa: F401\n"


def signup_section(text: str) -> str:
    """README's "## Signup tests" section, up to the next second-level heading."""
    match = re.search(r"^## Signup tests\n(.*?)(?=^## )", text, flags=re.MULTILINE | re.DOTALL)
    assert match is not None, "README.md has no '## Signup tests' section"
    return match.group(1)


def example_tests(text: str) -> list[str]:
    """The ```python blocks of `text` that define a test function."""
    text = signup_section(text)
    blocks = re.findall(r"^```python\n(.*?)^```", text, flags=re.MULTILINE | re.DOTALL)
    return [b for b in blocks if re.search(r"^(async )?def test_", b, flags=re.MULTILINE)]


@pytest.mark.browser
@pytest.mark.timeout(180)
def test_the_examples_run_as_written(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    examples = example_tests(DOC.read_text(encoding="utf-8"))
    assert len(examples) >= 3, "the docs lost their examples"
    for name in list(os.environ):
        if name.startswith("AGENTMAIL_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p))
    pytester.makeini("[pytest]\nasyncio_mode = strict\nasyncio_default_fixture_loop_scope = function\n")
    pytester.makeconftest(CONFTEST)
    for i, code in enumerate(examples):
        pytester.makepyfile(**{f"test_example_{i}": code})
    tests = sum(len(re.findall(r"^(?:async )?def test_", code, flags=re.MULTILINE)) for code in examples)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-v", timeout=150)
    result.assert_outcomes(passed=tests)


def test_ten_lines_at_most_for_the_first_example() -> None:
    first = example_tests(DOC.read_text(encoding="utf-8"))[0]
    assert len(first.strip().splitlines()) <= 10, first
