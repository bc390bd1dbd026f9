"""The security headers of every /ui response, whoever produced it (page, redirect or error).

The policy is one of the three independent layers of DESIGN.md's "Agents get raw, humans
get sanitized": nothing may be fetched (`default-src 'none'`, `img-src 'none'`), no script
may run (`script-src 'none'`), styles only inline (the stylesheet is a `<style>` element and
mail keeps its `style` attributes), the pages may not be framed, and forms post only here.
The sanitized mail is shown in an `<iframe sandbox srcdoc=…>`: a srcdoc document inherits
this policy, while a route of its own would be blocked by `default-src 'none'`.
"""

from __future__ import annotations

import re
from typing import Final

from litestar.enums import ScopeType
from litestar.types import Message, Scope

__all__ = ["CSP", "SECURITY_HEADERS", "UI_PREFIX", "is_ui_path", "security_headers"]

CSP: Final = (
    "default-src 'none'; script-src 'none'; img-src 'none'; style-src 'unsafe-inline'; "
    "frame-ancestors 'none'; form-action 'self'; base-uri 'none'"
)
"""The Content-Security-Policy of every /ui response, exactly (the browser tests import it)."""

UI_PREFIX: Final = "/ui"

SECURITY_HEADERS: Final = {
    "content-security-policy": CSP,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    # Pages hold private mail and CSRF tokens: no browser or proxy cache keeps them.
    "cache-control": "no-store",
}

_UI_PATH: Final = re.compile(r"^/ui(?:/|$)")
_ENCODED: Final = [(name.encode("latin-1"), value.encode("latin-1")) for name, value in SECURITY_HEADERS.items()]
_NAMES: Final = frozenset(name for name, _ in _ENCODED)


def is_ui_path(path: str) -> bool:
    """Whether `path` belongs to the /ui pages (`/ui`, `/ui/…`; not `/uix`)."""
    return _UI_PATH.match(path) is not None


async def security_headers(message: Message, scope: Scope) -> None:
    """Litestar `before_send` hook: put SECURITY_HEADERS on the start of every /ui response.

    A hook of the application sees every response, including the router's own 404 and 405
    for paths no handler serves; headers of the same names set elsewhere are replaced.
    """
    if message["type"] != "http.response.start" or scope["type"] != ScopeType.HTTP or not is_ui_path(scope["path"]):
        return
    kept = [(name, value) for name, value in message.get("headers", []) if bytes(name).lower() not in _NAMES]
    message["headers"] = [*kept, *_ENCODED]
