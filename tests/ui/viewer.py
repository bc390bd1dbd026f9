"""The gateway side of the browser tests: one identity mailed the corpus, and a browser logged in as it.

The routes and form fields are the /ui pages' own (gateway/ui/pages.py): the login form posts
`token` (and its CSRF nonce) to /ui/login; an identity's mail is /ui/identities/ADDRESS and a
message /ui/identities/ADDRESS/messages/ID?view=html.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from playwright.async_api import Browser, BrowserContext

from tests.conftest import RunningGateway, make_message

LOGIN_PATH = "/ui/login"


@dataclass
class UiGateway:
    """A running gateway and the identity whose mail the browser reads."""

    running: RunningGateway
    address: str
    token: str
    ids: dict[str, str] = field(default_factory=dict)
    """Message id of each delivered body, by the label it was mailed under (its subject)."""

    @property
    def origin(self) -> str:
        return str(self.running.http.base_url).rstrip("/")

    def list_url(self) -> str:
        return f"{self.origin}/ui/identities/{quote(self.address, safe='@')}"

    def message_url(self, label: str, view: str = "html") -> str:
        url = f"{self.list_url()}/messages/{quote(self.ids[label], safe='')}"
        return url if view == "text" else f"{url}?view={view}"

    async def deliver(self, bodies: dict[str, str]) -> None:
        """Mail each `{label: html}` (label = subject) to the identity in one SMTP session."""
        mails: list[tuple[Any, list[str]]] = [
            (make_message(to=self.address, subject=label, text=f"The text part of {label}.", html=body), [self.address])
            for label, body in bodies.items()
        ]
        await self.running.send_many(mails)
        before: str | None = None
        while True:
            params: dict[str, Any] = {"limit": 100}
            if before is not None:
                params["before_id"] = before
            listing = await self.running.messages(self.address, **params)
            for summary in listing["messages"]:
                if summary["subject"] in bodies:
                    self.ids[summary["subject"]] = summary["id"]
            before = listing.get("next_before_id")
            if before is None:
                break
        missing = sorted(set(bodies) - set(self.ids))
        assert not missing, f"delivered but not listed: {missing}"

    async def logged_in(self, browser: Browser, **context_options: Any) -> BrowserContext:
        """A new browser context logged in to /ui with the identity's token, through the login form."""
        context = await browser.new_context(**context_options)
        page = await context.new_page()
        try:
            await page.goto(self.origin + LOGIN_PATH, wait_until="load")
            await page.fill("input[name=token]", self.token)
            async with page.expect_navigation(wait_until="load"):
                await page.click("form[action='/ui/login'] button[type=submit]")
            assert page.url.startswith(self.list_url()), f"login did not land on the mail list: {page.url}"
        finally:
            await page.close()
        return context
