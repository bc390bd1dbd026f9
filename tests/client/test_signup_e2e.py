"""End to end: a signup through headless Chromium, the code read from the identity's mail and typed in.

The shop (tests/client/signup_app.py) is a real web app on loopback that mails a random code
over SMTP to the gateway of the plugin's `agentmail` fixture (the embedded one, nothing being
configured); the test uses `agentmail_identity` as any project that installs
agentmail-gateway would: the plugin comes from its entry point.
"""

from __future__ import annotations

from playwright.sync_api import Page, expect

from gateway.client import Identity
from tests.client.signup_app import SENDER, SUBJECT, Shop, page, shop, signup_url, sync_browser

__all__ = ["page", "shop", "signup_url", "sync_browser"]  # the fixtures this module uses


def sign_up(page: Page, signup_url: str, address: str) -> None:
    page.goto(signup_url)
    page.fill("#email", address)
    page.click("text=Sign up")
    expect(page.locator("h1")).to_have_text("Check your mail")


def test_signup_through_the_browser(page: Page, agentmail_identity: Identity, signup_url: str, shop: Shop) -> None:
    sign_up(page, signup_url, agentmail_identity.address)
    code = agentmail_identity.wait_for_code(timeout=60)
    assert code == shop.codes[agentmail_identity.address]  # the code the shop mailed, nothing else
    page.fill("#code", code)
    page.click("text=Verify")
    expect(page.locator("h1")).to_have_text(f"Welcome, {agentmail_identity.address}!")
    (mail,) = agentmail_identity.messages()
    assert mail.from_ == SENDER and mail.subject == SUBJECT


def test_a_wrong_code_is_refused_and_the_mailed_one_accepted(
    page: Page, agentmail_identity: Identity, signup_url: str
) -> None:
    # The control: the page tells a wrong code from the right one, so the test above can fail.
    sign_up(page, signup_url, agentmail_identity.address)
    code = agentmail_identity.wait_for_code(timeout=60)
    page.fill("#code", f"{(int(code) + 1) % 1_000_000:06d}")
    page.click("text=Verify")
    expect(page.locator("h1")).to_have_text("Wrong code")
    page.fill("#code", code)
    page.click("text=Verify")
    expect(page.locator("h1")).to_have_text(f"Welcome, {agentmail_identity.address}!")
