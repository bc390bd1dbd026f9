"""Query strings: every parameter of the API takes one value.

Litestar reads a parameter given twice (`?q=a&q=b`, `?subject=x&subject=y`) as one of its
values and drops the other without a word: the caller's search or filter would silently be
half of what was sent. The API declares no list parameter, so a repeated one is a 400 that
names it (unless the name could be a token pasted in the wrong place).

A time parameter (`since`) is an RFC 3339 time: Litestar would also read a bare number as
seconds since 1970, which the schema does not promise and a caller never means.
"""

from __future__ import annotations

import re
from typing import Any, Final

from litestar import Request

from gateway.errors import InvalidInput

__all__ = ["one_value_each"]

_SHOWN_NAME: Final = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,14}")
TIME_PARAMETERS: Final = ("since",)
_RFC3339_START: Final = re.compile(r"\s*[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ]")
"""Shorter than any token and made of a name's characters (as api/bodies.py names fields)."""


async def one_value_each(request: Request[Any, Any, Any]) -> None:
    """InvalidInput when a `/v1` request repeats a query parameter (the `before_request` of the app)."""
    if not request.url.path.startswith("/v1/"):
        return  # /ui forms and /schema keep their own rules
    for name, values in request.query_params.dict().items():
        if len(values) > 1:
            shown = f"`{name}`" if _SHOWN_NAME.fullmatch(name) else "(not named: it could be a token)"
            raise InvalidInput(f"the query parameter {shown} is given {len(values)} times; it takes one value")
    for name in TIME_PARAMETERS:
        value = request.query_params.get(name)
        if value is not None and not _RFC3339_START.match(value):
            raise InvalidInput(f"{name} is an RFC 3339 time with its zone, e.g. 2026-01-01T00:00:00Z")
