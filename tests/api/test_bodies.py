"""`decode_body`: strict, typed decoding whose every failure is a 400 naming the field (unit tests)."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from litestar.exceptions import ValidationException

from gateway.api.bodies import decode_body
from gateway.wire import CreateIdentityIn


def refusal(raw: bytes, target: Any) -> dict[str, str]:
    """The one error item `decode_body` raises for `raw`."""
    with pytest.raises(ValidationException) as caught:
        decode_body(raw, target)
    (item,) = caught.value.extra  # type: ignore[misc]
    assert isinstance(item, dict)
    return item


@pytest.mark.parametrize("depth", [100, 900, 1000, 10000, 100000])
def test_untyped_nesting_of_any_depth_is_a_value_or_a_400(depth: int) -> None:
    """A field of type Any recurses: past the interpreter's limit it is a 400, never RecursionError.

    Where the limit falls depends on the stack the decoder runs on; 100 is far below it and
    10,000 far above.
    """
    raw = b'{"a": ' + b"[" * depth + b"]" * depth + b"}"
    too_deep = {"key": "body", "message": "the JSON is nested too deeply", "source": "body"}
    if depth <= 100:
        assert decode_body(raw, dict[str, Any])["a"]
    elif depth >= 10000:
        assert refusal(raw, dict[str, Any]) == too_deep
    else:
        try:
            decode_body(raw, dict[str, Any])
        except ValidationException as exc:
            assert exc.extra == [too_deep]


def test_typed_nesting_stops_at_the_first_wrong_value() -> None:
    assert refusal(b'{"label": ' + b"[" * 100000 + b"]" * 100000 + b"}", CreateIdentityIn)["key"] == "label"


@pytest.mark.parametrize(
    ("raw", "key"),
    [
        (b'{"ttl_seconds": "60"}', "ttl_seconds"),
        (b'{"ttl_seconds": 60.0}', "ttl_seconds"),
        (b'{"force": 1}', "force"),
        (b'{"force": "true"}', "force"),
        (b'{"ttl_seconds": 0}', "ttl_seconds"),
        (b'{"nope": 1}', "body"),
        (b"[]", "body"),
        (b"{", "body"),
    ],
)
def test_strict_refusals_name_the_field(raw: bytes, key: str) -> None:
    assert refusal(raw, CreateIdentityIn)["key"] == key


def test_a_valid_body_becomes_its_type() -> None:
    assert decode_body(b'{"ttl_seconds": 60, "force": true}', CreateIdentityIn) == CreateIdentityIn(
        ttl_seconds=60, force=True
    )
    assert msgspec.json.decode(b'{"ttl_seconds": "60"}', type=CreateIdentityIn, strict=False).ttl_seconds == 60
