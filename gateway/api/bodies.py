"""Request bodies: decoded once, strictly, straight into the handler's declared type.

Litestar would decode a JSON body into plain Python values first (msgspec's untyped decoder,
which recurses once per nesting level: a body nested ~1,000 deep raised RecursionError, a 500)
and then convert those values leniently (`"60"` became 60, `1` became `true`). `StrictRequest`
(the app's `request_class`, so every route with a body goes through it) decodes the bytes
into the handler's `data` type in one step with msgspec's strict mode: a string is not a
number and a number is not a bool; nesting deeper than the type has stops at the first
value of the wrong type; and whatever still recurses too deep is a 400, never a 500.
Unknown fields are refused by the structs themselves (`forbid_unknown_fields`).

Every refusal says what to fix: broken JSON by line, column and byte offset; an unknown field
by name (unless it could be a token), with the nearest known field and the ones the body takes.
"""

from __future__ import annotations

import difflib
import re
from typing import Any, Final

import msgspec
from litestar import Request
from litestar.exceptions import ValidationException
from litestar.types import Empty

__all__ = ["StrictRequest", "decode_body"]

_AT: Final = " - at `"  # msgspec's ValidationError ends with the path of the offending value
_UNKNOWN: Final = re.compile(r"Object contains unknown field `(.*)`", re.DOTALL)
_SHOWN_NAME: Final = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,14}")
"""An unknown field's name is repeated only when it cannot be a token: shorter than any admin
token (16 characters at least) and made of a name's characters (api/exceptions.py agrees)."""
_BYTE: Final = re.compile(r"\s*\(byte (\d+)\)$")
_QUOTED_CHAR: Final = re.compile(r"'(.)'")


def decode_body(raw: bytes, target: Any) -> Any:
    """`raw` JSON decoded strictly into `target`; ValidationException (400) naming the field otherwise."""
    try:
        return msgspec.json.decode(raw, type=target, strict=True)
    except msgspec.ValidationError as exc:
        message, _, path = str(exc).partition(_AT)
        key = path.rstrip("`").removeprefix("$").lstrip(".") or "body"
        if (unknown := _UNKNOWN.fullmatch(message)) is not None:
            message = _unknown_field(unknown[1], target if key == "body" else None)
        raise _invalid(key, message) from None
    except msgspec.DecodeError as exc:  # msgspec names the position, never the text
        raise _invalid("body", _not_json(raw, str(exc))) from None
    except RecursionError:
        raise _invalid("body", "the JSON is nested too deeply") from None


def _not_json(raw: bytes, message: str) -> str:
    """Where the JSON breaks (line, column, byte offset) and why, in msgspec's words (never the text)."""
    found = _BYTE.search(message)
    offset = int(found[1]) if found else len(raw)  # no position: the input ended early
    why = _BYTE.sub("", message).removeprefix("JSON is malformed: ")
    # msgspec quotes the characters it expected ('}'); api/exceptions.py drops quoted text (values).
    why = _QUOTED_CHAR.sub(r"`\1`", why)
    if found is None:
        why = "it ends before it is complete (a closing quote, ] or } missing?)"
    line_start = raw.rfind(b"\n", 0, offset) + 1
    line = raw.count(b"\n", 0, offset) + 1
    column = len(raw[line_start:offset].decode("utf-8", "replace")) + 1
    return f"not valid JSON at line {line}, column {column} (byte {offset}): {why}"


def _unknown_field(name: str, target: Any) -> str:
    """The unknown field named (when it cannot be a token), the nearest known one, and what the body takes."""
    shown = _SHOWN_NAME.fullmatch(name) is not None
    parts = [f"unknown field `{name}`" if shown else "unknown field (its name is not repeated: it could be a token)"]
    if isinstance(target, type) and issubclass(target, msgspec.Struct):
        known = [f.encode_name for f in msgspec.structs.fields(target)]
        near = difflib.get_close_matches(name.lower(), known, n=1)
        if near:
            parts.append(f"did you mean `{near[0]}`?")
        parts.append(f"this body takes {', '.join(known)}")
    return "; ".join(parts)


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
