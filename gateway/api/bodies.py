"""Request bodies: decoded once, strictly, straight into the handler's declared type.

Litestar would decode a JSON body into plain Python values first (msgspec's untyped decoder,
which recurses once per nesting level: a body nested ~1,000 deep raised RecursionError, a 500)
and then convert those values leniently (`"60"` became 60, `1` became `true`). `StrictRequest`
(the app's `request_class`, so every route with a body goes through it) decodes the bytes
into the handler's `data` type in one step with msgspec's strict mode: a string is not a
number and a number is not a bool; nesting deeper than the type has stops at the first
value of the wrong type; and whatever still recurses too deep is a 400, never a 500.
Unknown fields are refused by the structs themselves (`forbid_unknown_fields`).
"""

from __future__ import annotations

from typing import Any, Final

import msgspec
from litestar import Request
from litestar.exceptions import ValidationException
from litestar.types import Empty

__all__ = ["StrictRequest", "decode_body"]

_AT: Final = " - at `"  # msgspec's ValidationError ends with the path of the offending value


def decode_body(raw: bytes, target: Any) -> Any:
    """`raw` JSON decoded strictly into `target`; ValidationException (400) naming the field otherwise."""
    try:
        return msgspec.json.decode(raw, type=target, strict=True)
    except msgspec.ValidationError as exc:
        message, _, path = str(exc).partition(_AT)
        key = path.rstrip("`").removeprefix("$").lstrip(".") or "body"
        raise _invalid(key, message) from None
    except msgspec.DecodeError as exc:  # msgspec names the position, never the text
        raise _invalid("body", f"not valid JSON ({exc})") from None
    except RecursionError:
        raise _invalid("body", "the JSON is nested too deeply") from None


def _invalid(key: str, message: str) -> ValidationException:
    # The shape Litestar's own validation errors have: api/exceptions.py turns it into the body.
    return ValidationException("invalid request body", extra=[{"key": key, "message": message, "source": "body"}])


class StrictRequest(Request[Any, Any, Any]):
    """A Request whose `json()` is the body decoded by `decode_body` into the handler's `data` type."""

    async def json(self) -> Any:
        """The body as the handler's `data` type (any JSON value when the handler declares none)."""
        if self._json is Empty:
            field = self.route_handler.parsed_data_field
            target = field.annotation if field is not None else Any
            # Cached on this request only: the connection state is shared with other Request
            # objects of the same scope, which expect plain values.
            self._json = decode_body(await self.body() or b"null", target)
        return self._json
