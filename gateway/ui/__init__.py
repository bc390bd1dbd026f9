"""/ui: server-rendered pages for people to read an identity's mail safely (no JavaScript).

`controller` (routes), `sessions` (login, cookies, CSRF, throttle), `pages` (HTML),
`style` (the inline stylesheet), `policy` (CSP and the other headers of every /ui
response), `errors` (HTML error pages). `app.py` wires `ui_router`, `security_headers` and
`with_ui_pages`.
"""

from __future__ import annotations

from gateway.ui.controller import ui_router
from gateway.ui.errors import with_ui_pages
from gateway.ui.policy import CSP, security_headers

__all__ = ["CSP", "security_headers", "ui_router", "with_ui_pages"]
