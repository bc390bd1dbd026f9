"""/ui search and attachment downloads in Chromium, as a person uses them (issue 17, point 5).

A person types a query in the list's search box and sees only the mail it matches; a query
that cannot be read is the same page with its error and the box still holding it. On a
message page, clicking an attachment saves a file (the headless browser's download) whose
bytes are the attachment's, served with the API route's headers and the pages' policy; the
page stays where it is, and nothing runs or opens. The pages' CSP is unchanged: a download
is a plain navigation to our own origin.
"""

from __future__ import annotations

import hashlib
from collections.abc import AsyncIterator
from email.message import EmailMessage
from pathlib import Path

import pytest
import pytest_asyncio
from playwright.async_api import Browser, BrowserContext, Page
from playwright.async_api import Response as PageResponse

from gateway.config import load_settings
from gateway.ui.policy import CSP
from tests.conftest import ADMIN_TOKEN, DOMAIN, make_message, run_gateway
from tests.ui.browser import DESKTOP
from tests.ui.viewer import UiGateway

pytestmark = [pytest.mark.asyncio(loop_scope="session"), pytest.mark.timeout(300)]

RECEIPT_PDF = b"%PDF-1.4\n" + bytes(range(256)) * 16
HOSTILE_SVG = (
    b'<svg xmlns="http://www.w3.org/2000/svg" onload="console.log(\'XSS:svg\')"><script>alert(1)</script></svg>'
)


def mails() -> list[EmailMessage]:
    receipt = make_message(subject="Your Stripe receipt", sender="Stripe <billing@stripe.com>", text="Paid 12 EUR.")
    receipt.add_attachment(RECEIPT_PDF, maintype="application", subtype="pdf", filename="receipt 2026-12.pdf")
    receipt.add_attachment(HOSTILE_SVG, maintype="image", subtype="svg+xml", filename="logo.svg")
    return [
        receipt,
        make_message(subject="Verify your address", sender="noreply@shop.example", text="Your code is 482913."),
        make_message(subject="Lookalike receipt", sender="billing@stripe.com.evil.example", text="A receipt."),
        make_message(subject="Team lunch", sender="pat@colleague.example", text="Friday?"),
    ]


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def searcher(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[UiGateway]:
    """A gateway of its own with one identity mailed `mails()` over SMTP."""
    data = tmp_path_factory.mktemp("ui-search")
    env = {
        "AGENTMAIL_DOMAIN": DOMAIN,
        "AGENTMAIL_DATA_DIR": str(data / "data"),
        "AGENTMAIL_HTTP_PORT": "0",
        "AGENTMAIL_SMTP_PORT": "0",
        "AGENTMAIL_ADMIN_TOKEN": ADMIN_TOKEN,
    }
    async with run_gateway(load_settings(env, env_file=None)) as running:
        address, token = await running.create_identity("searcher")
        ui = UiGateway(running, address, token)
        await running.send_many([(mail, [address]) for mail in mails_to(address)])
        listing = await running.messages(address)
        ui.ids = {m["subject"]: m["id"] for m in listing["messages"]}
        assert len(ui.ids) == len(mails())
        yield ui


def mails_to(address: str) -> list[EmailMessage]:
    out = []
    for mail in mails():
        mail["To"] = address
        out.append(mail)
    return out


@pytest_asyncio.fixture(loop_scope="session")
async def context(browser: Browser, searcher: UiGateway) -> AsyncIterator[BrowserContext]:
    logged_in = await searcher.logged_in(browser, viewport=DESKTOP, accept_downloads=True)
    try:
        yield logged_in
    finally:
        await logged_in.close()


async def shown_subjects(page: Page) -> list[str]:
    return [s.strip() for s in await page.locator("ol.list a.subject").all_inner_texts()]


async def search(page: Page, typed: str) -> PageResponse | None:
    """Type `typed` in the search box and press Enter, as a person does; the answer to that GET."""
    await page.fill("input[name=q]", typed)
    async with page.expect_navigation(wait_until="load") as navigation:
        await page.press("input[name=q]", "Enter")
    return await navigation.value


async def test_typing_a_query_shows_only_the_mail_it_matches(context: BrowserContext, searcher: UiGateway) -> None:
    page = await context.new_page()
    await page.goto(searcher.list_url(), wait_until="load")
    assert sorted(await shown_subjects(page)) == sorted(searcher.ids)
    expected = {
        "receipt": ["Lookalike receipt", "Your Stripe receipt"],
        "from:@stripe.com": ["Your Stripe receipt"],  # the exact domain, never the look-alike
        "has:attachment": ["Your Stripe receipt"],
        "filename:receipt": ["Your Stripe receipt"],
        "verif* OR lunch": ["Team lunch", "Verify your address"],
        "-receipt -lunch": ["Verify your address"],
        "nothing-like-this": [],
    }
    for typed, subjects in expected.items():
        response = await search(page, typed)
        assert response is not None and response.status == 200, typed
        assert await response.header_value("content-security-policy") == CSP
        assert sorted(await shown_subjects(page)) == subjects, typed
        assert await page.input_value("input[name=q]") == typed  # what was typed stays in the box
        assert page.url.startswith(f"{searcher.list_url()}?q=")
    assert await page.locator("text=No messages match this search.").count() == 1


async def test_an_unreadable_query_says_why_on_the_same_page(context: BrowserContext, searcher: UiGateway) -> None:
    page = await context.new_page()
    await page.goto(searcher.list_url(), wait_until="load")
    response = await search(page, 'from:"bob')
    assert response is not None and response.status == 400
    assert await response.header_value("content-security-policy") == CSP
    alert = page.locator("[role=alert]")
    assert "unterminated quote" in await alert.inner_text()
    assert await page.input_value("input[name=q]") == 'from:"bob'
    assert await shown_subjects(page) == []
    # Fixed in place: the box is right there.
    response = await search(page, "from:billing@stripe.com")
    assert response is not None and response.status == 200
    assert await shown_subjects(page) == ["Your Stripe receipt"]


async def test_clicking_an_attachment_saves_it_and_the_page_stays(
    context: BrowserContext, searcher: UiGateway, tmp_path: Path
) -> None:
    page = await context.new_page()
    responses: list[PageResponse] = []
    console: list[str] = []
    page.on("response", lambda response: responses.append(response))
    page.on("console", lambda message: console.append(message.text))
    message_url = searcher.message_url("Your Stripe receipt", "text")
    await page.goto(message_url, wait_until="load")
    saved: dict[str, tuple[str, bytes]] = {}
    for name in ("receipt 2026-12.pdf", "logo.svg"):
        async with page.expect_download() as info:
            await page.click(f"a.subject:text-is('{name}')")
        download = await info.value
        target = tmp_path / f"{len(saved)}.bin"
        await download.save_as(target)
        saved[name] = (download.suggested_filename, target.read_bytes())
        assert download.url.startswith(f"{searcher.list_url()}/messages/")
        assert "/attachments/" in download.url
    assert saved["receipt 2026-12.pdf"] == ("receipt 2026-12.pdf", RECEIPT_PDF)
    assert saved["logo.svg"] == ("logo.svg", HOSTILE_SVG)
    assert page.url == message_url  # a download, not a navigation: the message page stays
    assert context.pages == [page]  # no window opened
    assert not [text for text in console if "XSS:" in text]

    # The headers the browser got for each download: the API route's, with the pages' policy.
    downloads = [r for r in responses if "/attachments/" in r.url]
    assert len(downloads) == 2, [r.url for r in responses]
    async with searcher.running.client(searcher.token) as api:
        for response in downloads:
            api_url = response.url.replace(f"{searcher.origin}/ui/", "/v1/", 1)
            expected = await api.get(api_url)
            assert expected.status_code == 200, api_url
            headers = await response.all_headers()
            for name in ("content-type", "content-disposition", "x-content-type-options", "content-security-policy"):
                assert headers[name] == expected.headers[name], name
            assert headers["content-disposition"].startswith("attachment; ")
            assert headers["content-type"] == "application/octet-stream"  # neither PDF nor SVG is served renderable
            assert headers["content-security-policy"] == CSP
            assert hashlib.sha256(expected.content).hexdigest() in {
                hashlib.sha256(body).hexdigest() for _, body in saved.values()
            }
