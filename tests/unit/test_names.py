"""Local-part rules: what `check_local_part` accepts, folds and refuses."""

from __future__ import annotations

import pytest

from gateway.errors import InvalidName
from gateway.names import check_local_part


def test_ascii_capitals_fold_to_the_name_matching_uses() -> None:
    assert check_local_part("  Alice.B ", reserved=()) == "alice.b"


@pytest.mark.parametrize(
    ("raw", "code_point"),
    [
        pytest.param("\u212aelvin", "U+212A", id="kelvin-sign-lowercases-to-k"),
        pytest.param("\u0130nfo", "U+0130", id="dotted-capital-i"),
        pytest.param("caf\u00e9", "U+00E9", id="accented"),
        pytest.param("a\u00a0b", "U+00A0", id="no-break-space"),
    ],
)
def test_non_ascii_is_refused_not_folded(raw: str, code_point: str) -> None:
    with pytest.raises(InvalidName, match="ASCII") as caught:
        check_local_part(raw, reserved=())
    assert code_point in caught.value.detail
