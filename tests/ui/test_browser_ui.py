"""The full /ui in Chromium: every poison mail, delivered over SMTP, shown in the HTML view, is inert.

All three layers at once, as a person meets them: log in through the form, open the
message page's HTML view, click every submitter and link in the mail's frame. Nothing may
reach the beacon or leave the gateway's origin, no script may run, no dialog or window
open, the page and the mail's frame stay where they are. The benign corpus keeps its
text in the same view; the pages fit a phone; screenshots go to test-artifacts/ui/.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from playwright.async_api import Browser, BrowserContext, Page

from tests.ui.browser import (
    ARTIFACTS,
    DESKTOP,
    PHONE,
    Beacon,
    Outcome,
    Probe,
    Visit,
    assert_observed,
    benign_files,
    bullet,
    click_everything,
    content_frame,
    corpus_label,
    expected_texts,
    explain,
    file_key,
    inert_problems,
    normalise_space,
    note_layer,
    poison_files,
    settle,
    visit_all,
)
from tests.ui.viewer import UiGateway

pytestmark = [
    pytest.mark.asyncio(loop_scope="session"),
    # The first test carries the gateway, the delivery of every body and the whole /ui run.
    pytest.mark.timeout(900),
]

POISON = {p.name: p for p in poison_files()}
NAMES = sorted(POISON)
BENIGN = {p.name: p for p in benign_files()}


@dataclass
class UiLayer:
    outcomes: dict[str, Outcome]


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def ui_layer(browser: Browser, ui_gateway: UiGateway, ui_context: BrowserContext, ui_beacon: Beacon) -> UiLayer:
    """Every poison mail's /ui message page, HTML view, as the logged-in viewer; then clicked."""
    from gateway.ui.policy import CSP

    session: Any = await ui_context.storage_state()

    def visit(name: str) -> Visit:
        async def run(probe: Probe, outcome: Outcome) -> None:
            response = await settle(probe, ui_gateway.message_url(corpus_label(POISON[name]), "html"))
            assert response is not None and response.status == 200, response and response.status
            assert await response.header_value("content-security-policy") == CSP
            frame_element = await probe.page.query_selector("iframe")
            if frame_element is None:  # the sanitizer refused the HTML: the page says so and shows text
                outcome.extra["shown"] = "refused"
                assert await probe.page.locator("section .notice").count() == 1, await probe.page.content()
                return
            assert await frame_element.get_attribute("sandbox") == "", "the mail's frame must have an empty sandbox"
            outcome.extra["shown"] = "frame"
            await click_everything(probe, await content_frame(probe.page))

        return run

    outcomes = await visit_all(browser, NAMES, visit, storage_state=session, viewport=DESKTOP)
    note_layer("full /ui", ui_beacon, outcomes)
    return UiLayer(outcomes)


@pytest.mark.parametrize("name", NAMES)
async def test_ui_message_page_is_inert(ui_layer: UiLayer, ui_beacon: Beacon, name: str) -> None:
    record = ui_layer.outcomes[name].checked()
    assert_observed(record, framed=ui_layer.outcomes[name].extra["shown"] == "frame")
    problems = inert_problems(record, ui_beacon, file_key(POISON[name]))
    assert not problems, explain(name, problems, record)


async def test_ui_layer_left_the_beacon_silent(ui_layer: UiLayer, ui_beacon: Beacon) -> None:
    shown = [outcome.extra.get("shown") for outcome in ui_layer.outcomes.values()]
    assert shown.count("frame") > len(NAMES) // 2, "most poison should be shown, sanitized, in the frame"
    assert (ui_beacon.hits, ui_beacon.connections) == ([], 0), bullet(ui_beacon.hits)


# -- the benign corpus keeps its text ----------------------------------------------------------


@pytest.mark.parametrize("name", sorted(BENIGN))
async def test_benign_mail_keeps_its_text(ui_gateway: UiGateway, ui_context: BrowserContext, name: str) -> None:
    page = await ui_context.new_page()
    try:
        await page.goto(ui_gateway.message_url(corpus_label(BENIGN[name]), "html"), wait_until="load")
        frame = await content_frame(page)
        shown = normalise_space(await frame.evaluate("document.body.innerText"))
    finally:
        await page.close()
    missing = [text for text in expected_texts(BENIGN[name]) if normalise_space(text) not in shown]
    assert not missing, f"{name}: not in the frame's text:\n{bullet(missing)}\n--- frame text ---\n{shown}"


async def test_benign_corpus_is_present() -> None:
    assert BENIGN, "corpus/benign holds no NAME.html with NAME.expected.json"


# -- how the pages look ------------------------------------------------------------------------

SHOWCASE = "shop-order-confirmation.html"
"""The benign mail the screenshots show (any benign file will do when this one is gone)."""


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def reader(browser: Browser, ui_gateway: UiGateway) -> UiGateway:
    """A second identity with a few ordinary mails (the benign corpus), for the screenshots."""
    address, token = await ui_gateway.running.create_identity("reader")
    ui = UiGateway(ui_gateway.running, address, token)
    await ui.deliver({corpus_label(p): p.read_text(encoding="utf-8") for p in BENIGN.values()})
    return ui


def showcase_label() -> str:
    name = SHOWCASE if SHOWCASE in BENIGN else sorted(BENIGN)[0]
    return corpus_label(BENIGN[name])


async def shoot(page: Page, url: str, path: Path) -> int:
    """Load `url`, save a full-page screenshot at `path`; returns the document's scroll width."""
    await page.goto(url, wait_until="load")
    path.parent.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(path), full_page=True)
    width: int = await page.evaluate("document.documentElement.scrollWidth")
    return width


@pytest.mark.parametrize(("size", "viewport"), [("desktop", DESKTOP), ("phone", PHONE)])
async def test_screenshots_and_no_sideways_scroll(
    browser: Browser, reader: UiGateway, size: str, viewport: dict[str, int]
) -> None:
    """Screenshots of the list and a message (text and HTML views) land in test-artifacts/ui/; none scrolls sideways."""
    context = await reader.logged_in(browser, viewport=viewport, is_mobile=size == "phone", device_scale_factor=1)
    try:
        page = await context.new_page()
        label = showcase_label()
        pages = {
            "list": reader.list_url(),
            "message-text": reader.message_url(label, "text"),
            "message-html": reader.message_url(label, "html"),
        }
        widths = {kind: await shoot(page, url, ARTIFACTS / f"{kind}-{size}.png") for kind, url in pages.items()}
    finally:
        await context.close()
    too_wide = {kind: width for kind, width in widths.items() if width > viewport["width"]}
    assert not too_wide, f"wider than the {viewport['width']} px viewport: {too_wide}"
