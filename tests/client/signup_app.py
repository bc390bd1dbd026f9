"""A tiny web shop with an e-mail verified signup, and the fixtures that drive it in Chromium.

`Shop` is the app under test of the signup examples: `GET /` is a signup form (`#email`,
"Sign up"); `POST /signup` mails a random six-digit code over SMTP (smtplib, to wherever it
is told: here the `agentmail` fixture's intake) and shows the code form (`#code`, "Verify");
`POST /verify` answers "Welcome, ADDRESS!" for the right code and "Wrong code" (400) for any
other. Fixtures, for a test module or a conftest to import:

- `signup_url`: the shop's base URL, sending its mail to `agentmail.smtp_host:smtp_port`;
- `page`: a fresh page of headless Debian Chromium (launched as tests/ui launch it), in
  the shape of pytest-playwright's `page` fixture, so tests read as a user's would.
"""

from __future__ import annotations

import html
import secrets
import smtplib
import threading
from collections.abc import Iterator
from email.message import EmailMessage
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import TYPE_CHECKING, Self
from urllib.parse import parse_qs

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from tests.ui.conftest import CHROMIUM_ARGS, ensure_chromium

if TYPE_CHECKING:
    from gateway.client.embedded import SessionGateway

__all__ = ["SENDER", "SUBJECT", "Shop", "page", "signup_url", "sync_browser"]

SENDER = "Shop <no-reply@shop.example>"
SUBJECT = "Your Shop verification code"
MAX_FORM_BYTES = 4096
"""Largest form the shop reads (its forms are two short fields)."""
PAGE_TIMEOUT_MS = 60_000
"""Playwright's default 30 s is short for a first page on a saturated two-core machine."""

SIGNUP_PAGE = """<!doctype html><title>Shop: sign up</title>
<h1>Create your account</h1>
<form method="post" action="/signup">
  <label>Email <input id="email" name="email" type="email" required></label>
  <button type="submit">Sign up</button>
</form>"""

CODE_PAGE = """<!doctype html><title>Shop: verify</title>
<h1>{heading}</h1>
<p>We sent a six-digit code to {email}.</p>
<form method="post" action="/verify">
  <input type="hidden" name="email" value="{email}">
  <label>Code <input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" required></label>
  <button type="submit">Verify</button>
</form>"""

WELCOME_PAGE = """<!doctype html><title>Shop: welcome</title>
<h1>Welcome, {email}!</h1>"""


class Shop:
    """The shop on a loopback port in a thread, mailing its codes to `smtp_host:smtp_port`."""

    def __init__(self, smtp_host: str, smtp_port: int) -> None:
        self.smtp_host = smtp_host
        self.smtp_port = smtp_port
        self.codes: dict[str, str] = {}
        """The code last mailed to each address."""
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(target=self._server.serve_forever, name="shop", daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=10)

    def send_code(self, email: str) -> None:
        """Mail a fresh code to `email`, as a real signup does."""
        code = f"{secrets.randbelow(1_000_000):06d}"
        with self._lock:
            self.codes[email] = code
        msg = EmailMessage()
        msg["From"] = SENDER
        msg["To"] = email
        msg["Subject"] = SUBJECT
        msg.set_content(f"Welcome to Shop!\n\nYour verification code is {code}. It expires in 10 minutes.\n")
        with smtplib.SMTP(self.smtp_host, self.smtp_port, timeout=30) as smtp:
            smtp.send_message(msg)

    def check(self, email: str, code: str) -> bool:
        with self._lock:
            expected = self.codes.get(email)
        return expected is not None and secrets.compare_digest(expected, code.strip())

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        shop = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: object) -> None:  # quiet: pytest shows failures
                pass

            def _answer(self, status: int, body: str) -> None:
                data = body.encode()
                self.send_response(status)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _form(self) -> dict[str, str]:
                length = min(int(self.headers.get("Content-Length") or 0), MAX_FORM_BYTES)
                fields = parse_qs(self.rfile.read(length).decode(errors="replace"))
                return {name: values[0] for name, values in fields.items()}

            def do_GET(self) -> None:
                if self.path == "/":
                    self._answer(200, SIGNUP_PAGE)
                else:
                    self._answer(404, "<h1>Not found</h1>")

            def do_POST(self) -> None:
                form = self._form()
                email = form.get("email", "")
                shown = html.escape(email)
                if self.path == "/signup" and email:
                    shop.send_code(email)
                    self._answer(200, CODE_PAGE.format(heading="Check your mail", email=shown))
                elif self.path == "/verify" and shop.check(email, form.get("code", "")):
                    self._answer(200, WELCOME_PAGE.format(email=shown))
                elif self.path == "/verify":
                    self._answer(400, CODE_PAGE.format(heading="Wrong code", email=shown))
                else:
                    self._answer(404, "<h1>Not found</h1>")

        return Handler


@pytest.fixture
def shop(agentmail: SessionGateway) -> Iterator[Shop]:
    """The shop, mailing its codes to the `agentmail` gateway's SMTP intake."""
    if agentmail.smtp_host is None or agentmail.smtp_port is None:
        pytest.fail("the shop needs the gateway's SMTP intake: set AGENTMAIL_SMTP_HOST and AGENTMAIL_SMTP_PORT")
    with Shop(agentmail.smtp_host, agentmail.smtp_port) as running:
        yield running


@pytest.fixture
def signup_url(shop: Shop) -> str:
    """Where the app under test serves its signup form."""
    return shop.url


@pytest.fixture(scope="module")
def sync_browser() -> Iterator[Browser]:
    """Headless Debian Chromium through Playwright's blocking API, for a module's tests."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(ensure_chromium()), headless=True, args=list(CHROMIUM_ARGS)
        )
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def page(sync_browser: Browser) -> Iterator[Page]:
    """A fresh page in a context of its own (as pytest-playwright's `page`)."""
    context = sync_browser.new_context()
    context.set_default_timeout(PAGE_TIMEOUT_MS)
    expect.set_options(timeout=PAGE_TIMEOUT_MS)  # assertions retry as long as actions may take
    try:
        yield context.new_page()
    finally:
        context.close()
