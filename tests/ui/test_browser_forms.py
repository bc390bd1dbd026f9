"""The /ui's actions in Chromium, with no script: what a person does with the forms and links.

The admin creates an identity through the form and reads its token off the answer page (in no
URL the browser ever requested), then deletes it behind a ticked box; an identity's list marks
unread mail, a message is deleted with its button, the list reloads itself when asked (the
browser follows our `Refresh` header under the page policy), and on a message page the code is
the largest text and one click selects all of it (no copy button: that would need script).
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from playwright.async_api import Browser, BrowserContext, Page, Request

from gateway.ui.policy import CSP
from tests.conftest import ADMIN_TOKEN, DOMAIN, make_message
from tests.ui.browser import DESKTOP, PHONE
from tests.ui.viewer import LOGIN_PATH, UiGateway

pytestmark = [pytest.mark.asyncio(loop_scope="session"), pytest.mark.timeout(300)]

CODE = "739154"
REFRESH_SEEN_MS = 45_000
"""How long the auto-refreshing list may take to show new mail: it reloads every 10 s (generous:
two cores, a shared machine); a bound against a hang, not a timing assertion."""


@pytest_asyncio.fixture(loop_scope="session")
async def admin(browser: Browser, ui_gateway: UiGateway) -> AsyncIterator[Page]:
    """A page logged in to /ui as the admin, through the login form."""
    context = await browser.new_context(viewport=DESKTOP)
    page = await context.new_page()
    try:
        await page.goto(ui_gateway.origin + LOGIN_PATH, wait_until="load")
        await page.fill("input[name=token]", ADMIN_TOKEN)
        async with page.expect_navigation(wait_until="load"):
            await page.click("form[action='/ui/login'] button[type=submit]")
        assert page.url == f"{ui_gateway.origin}/ui/identities", page.url
        yield page
    finally:
        await context.close()


async def reader(ui_gateway: UiGateway, name: str, *subjects: str, text: str = "Hello.") -> UiGateway:
    """A new identity of the shared gateway, mailed one message per subject."""
    address, token = await ui_gateway.running.create_identity(name)
    mails = [(make_message(to=address, subject=subject, text=text), [address]) for subject in subjects]
    if mails:
        await ui_gateway.running.send_many(mails)
    return UiGateway(ui_gateway.running, address, token)


async def api_subjects(ui: UiGateway) -> list[str]:
    return await ui.running.subjects(ui.address, ui.token)


# --- the admin creates and deletes an identity ------------------------------------------


async def test_the_admin_creates_an_identity_reads_its_token_once_and_deletes_it(
    admin: Page, ui_gateway: UiGateway
) -> None:
    requested: list[str] = []

    def record(request: Request) -> None:
        requested.append(request.url)

    admin.on("request", record)
    await admin.click("details.create summary")
    await admin.fill("#local_part", "made-in-chromium")
    await admin.fill("#label", "from the browser test")
    async with admin.expect_navigation(wait_until="load") as navigation:
        await admin.click("form[action='/ui/identities/create'] button[type=submit]")
    response = await navigation.value
    assert response is not None and response.status == 201
    assert await response.header_value("content-security-policy") == CSP
    token = (await admin.locator("code.token").text_content() or "").strip()
    address = f"made-in-chromium@{DOMAIN}"
    assert token.startswith("am_") and address in await admin.content()

    # One click selects the whole token (user-select: all): what stands in for a copy button.
    await admin.click("code.token")
    assert await admin.evaluate("window.getSelection().toString()") == token

    # The token works, and it was in no URL the browser asked for, nor on any page after this one.
    async with ui_gateway.running.client(token) as agent:
        assert (await agent.get(f"/v1/identities/{address}/messages")).status_code == 200
    await admin.goto(f"{ui_gateway.origin}/ui/identities", wait_until="load")
    assert token not in await admin.content()
    await admin.click(f"a.addr:text-is('{address}')")
    await admin.wait_for_url(f"**/ui/identities/{address}")
    assert token not in await admin.content()
    assert requested and not [url for url in requested if token in url]

    # Deleting asks for a ticked box, which the browser itself insists on (no script needed).
    form = admin.locator("form.danger")
    assert await form.evaluate("f => f.checkValidity()") is False
    await admin.check("form.danger input[name=confirm]")
    async with admin.expect_navigation(wait_until="load"):
        await admin.click("form.danger button[type=submit]")
    assert admin.url == f"{ui_gateway.origin}/ui/identities"
    assert address not in await admin.content()
    async with ui_gateway.running.client(token) as agent:
        assert (await agent.get(f"/v1/identities/{address}/messages")).status_code == 401


async def test_a_refused_create_is_a_page_that_says_why(admin: Page, ui_gateway: UiGateway) -> None:
    await ui_gateway.running.create_identity("taken-in-chromium")
    await admin.click("details.create summary")
    await admin.fill("#local_part", "taken-in-chromium")
    async with admin.expect_navigation(wait_until="load") as navigation:
        await admin.click("form[action='/ui/identities/create'] button[type=submit]")
    response = await navigation.value
    assert response is not None and response.status == 409
    assert await admin.locator("p.error").count() == 1
    assert await admin.locator("code.token").count() == 0


# --- an identity's list: unread, delete, refresh ----------------------------------------


@pytest_asyncio.fixture(loop_scope="session")
async def context_of(browser: Browser) -> AsyncIterator[list[BrowserContext]]:
    """Contexts a test opened, closed after it."""
    contexts: list[BrowserContext] = []
    try:
        yield contexts
    finally:
        for context in contexts:
            await context.close()


async def test_unread_mail_is_marked_until_the_agent_sees_it(
    browser: Browser, ui_gateway: UiGateway, context_of: list[BrowserContext]
) -> None:
    ui = await reader(ui_gateway, "unread-in-chromium", "first mail", "second mail")
    context = await ui.logged_in(browser, viewport=DESKTOP)
    context_of.append(context)
    page = await context.new_page()
    await page.goto(ui.list_url(), wait_until="load")
    assert await page.locator("li.unread .badge").count() == 2
    await page.click("a.subject:text-is('first mail')")  # a person reading: still unread
    await page.goto(ui.list_url(), wait_until="load")
    assert await page.locator("li.unread").count() == 2
    listing = await ui.running.messages(ui.address, ui.token)
    (first,) = [m["id"] for m in listing["messages"] if m["subject"] == "first mail"]
    async with ui.running.client(ui.token) as agent:  # the agent reading: seen
        assert (await agent.get(f"/v1/identities/{ui.address}/messages/{first}")).status_code == 200
    await page.reload(wait_until="load")
    unread = page.locator("li.unread .subject")
    assert await unread.all_text_contents() == ["second mail"]
    badge = await page.locator("li.unread .badge").evaluate("b => getComputedStyle(b).display")
    assert badge != "none"


async def test_a_message_is_deleted_with_its_button(
    browser: Browser, ui_gateway: UiGateway, context_of: list[BrowserContext]
) -> None:
    ui = await reader(ui_gateway, "delete-in-chromium", "keep me", "delete me")
    context = await ui.logged_in(browser, viewport=DESKTOP)
    context_of.append(context)
    page = await context.new_page()
    await page.goto(ui.list_url(), wait_until="load")
    await page.click("a.subject:text-is('delete me')")
    async with page.expect_navigation(wait_until="load"):
        await page.click("form.delete button[type=submit]")
    assert page.url == ui.list_url()
    assert await page.locator("a.subject").all_text_contents() == ["keep me"]
    assert await api_subjects(ui) == ["keep me"]


async def test_the_list_reloads_itself_when_asked_and_shows_new_mail(
    browser: Browser, ui_gateway: UiGateway, context_of: list[BrowserContext]
) -> None:
    ui = await reader(ui_gateway, "refresh-in-chromium", "already here")
    context = await ui.logged_in(browser, viewport=DESKTOP)
    context_of.append(context)
    page = await context.new_page()
    plain = await page.goto(ui.list_url(), wait_until="load")
    assert plain is not None and await plain.header_value("refresh") is None
    async with page.expect_navigation(wait_until="load") as navigation:
        await page.click("nav.refresh a:text-is('10 s')")
    turned_on = await navigation.value
    assert turned_on is not None and (await turned_on.header_value("refresh") or "").startswith("10; url=")
    assert await page.locator("nav.refresh a[aria-current]").text_content() == "10 s"

    await ui.running.send(make_message(to=ui.address, subject="arrived later"), [ui.address])
    # No click from here on: only the browser following the Refresh header can show it.
    await page.locator("a.subject:text-is('arrived later')").wait_for(timeout=REFRESH_SEEN_MS)
    assert "until=" in page.url  # the reload the header asked for

    listing = await ui.running.messages(ui.address, ui.token)
    (later,) = [m["id"] for m in listing["messages"] if m["subject"] == "arrived later"]
    ui.ids["arrived later"] = later
    on_mail = await page.goto(ui.message_url("arrived later", "text") + "?refresh=10", wait_until="load")
    assert on_mail is not None and on_mail.status == 200
    assert await on_mail.header_value("refresh") is None  # never on a mail


# --- the code on a message page ---------------------------------------------------------


@pytest.mark.parametrize(("size", "viewport"), [("desktop", DESKTOP), ("phone", PHONE)])
async def test_the_code_is_the_largest_text_on_the_message_page_and_one_click_selects_it(
    browser: Browser, ui_gateway: UiGateway, context_of: list[BrowserContext], size: str, viewport: dict[str, int]
) -> None:
    ui = await reader(
        ui_gateway,
        f"code-in-chromium-{size}",
        "Your sign-in code",
        text=f"Your code is {CODE}. Or open https://shop.example/verify?t=abc to verify.",
    )
    listing = await ui.running.messages(ui.address, ui.token)
    (message_id,) = [m["id"] for m in listing["messages"]]
    ui.ids["code"] = message_id
    context = await ui.logged_in(browser, viewport=viewport, is_mobile=size == "phone")
    context_of.append(context)
    page = await context.new_page()
    await page.goto(ui.message_url("code", "text"), wait_until="load")
    code = page.locator("ul.codes code.value")
    assert await code.text_content() == CODE
    sizes = await page.evaluate(
        """() => {
            const code = document.querySelector('ul.codes code.value');
            const px = e => parseFloat(getComputedStyle(e).fontSize);
            const others = [...document.body.querySelectorAll('*')]
                .filter(e => e !== code && !code.contains(e) && e.textContent.trim() && e.offsetParent !== null)
                .map(e => [e.tagName + '.' + e.className, px(e)]);
            return {code: px(code), largest: others.reduce((a, b) => (b[1] > a[1] ? b : a), ['', 0])};
        }"""
    )
    assert sizes["code"] > sizes["largest"][1], sizes
    assert await code.evaluate("c => getComputedStyle(c).userSelect") == "all"
    box = await code.bounding_box()
    assert box is not None and box["y"] + box["height"] <= viewport["height"], (box, "the code is below the fold")
    await code.click()
    assert await page.evaluate("window.getSelection().toString()") == CODE
    width = await page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"]


async def test_a_message_links_its_thread_where_sent_mail_is_marked(
    browser: Browser, ui_gateway: UiGateway, context_of: list[BrowserContext]
) -> None:
    ui = await reader(ui_gateway, "thread-in-chromium")
    peer, peer_token = await ui.running.create_identity("thread-peer")
    async with ui.running.client(peer_token) as client:
        asked = await client.post(
            f"/v1/identities/{peer}/send", json={"to": [ui.address], "subject": "Which day?", "text": "Tuesday?"}
        )
        assert asked.status_code == 201, asked.text
    await ui.running.settled()
    (question,) = (await ui.running.messages(ui.address, ui.token))["messages"]
    async with ui.running.client(ui.token) as client:
        answered = await client.post(
            f"/v1/identities/{ui.address}/messages/{question['id']}/reply", json={"text": "Yes."}
        )
        assert answered.status_code == 201, answered.text
    context = await ui.logged_in(browser, viewport=DESKTOP)
    context_of.append(context)
    page = await context.new_page()
    await page.goto(ui.list_url(), wait_until="load")
    await page.click("a.subject:text-is('Which day?')")
    async with page.expect_navigation(wait_until="load"):
        await page.click("a:text-is('View the thread')")
    assert await page.locator("a.subject").all_text_contents() == ["Which day?", "Re: Which day?"]
    sent = page.locator("li:has(.badge:text-is('sent')) a.subject")
    assert await sent.all_text_contents() == ["Re: Which day?"]
    async with page.expect_navigation(wait_until="load"):
        await sent.click()
    assert await page.locator("h1 .badge").text_content() == "sent"
    assert await page.locator("h2:text-is('Delivery') + ul li code").all_text_contents() == [peer]
