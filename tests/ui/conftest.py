"""Browser harness for the /ui proof (issue 7): Debian's Chromium driven by Playwright.

- `chromium`: the system browser at /usr/bin/chromium, apt-installed when missing and we
  are root (as tests/mailstack installs Postfix); missing and not installable is a failure,
  never a skip.
- `browser`: one headless Chromium for the whole session, launched by async Playwright on
  the session event loop. Every test module here marks itself
  `pytest.mark.asyncio(loop_scope="session")`, so its tests, the browser and the gateway
  share one loop (Playwright objects belong to the loop that made them).
- `site`: a loopback server for the test-only pages (exact bodies, exact headers);
  `tests.ui.browser.Beacon` is the loopback listener every hostile request is aimed at
  (corpus/poison names `beacon.invalid`; `aim()` swaps in the beacon's address).
- `ui_gateway`: one real gateway (embedded SMTP + uvicorn, in the session loop) holding one
  identity that was mailed every poison and benign body over SMTP, each as the HTML part of
  a message whose subject is the file name.

Each layer is run once per session over the whole corpus by a module fixture
(`visit_all`: a few worker pages at once, each file its own document and its own record);
the parametrised tests (ids = file names) then assert on each file's record, and one test
per layer on its beacon as a whole. Control tests prove the checks see each breach when
the layer is missing. Nothing waits on a clock: pages settle on the browser's
`networkidle` event and a round trip through every frame (see `settle`).
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio
from playwright.async_api import Browser, BrowserContext, async_playwright

from gateway.config import load_settings
from tests.conftest import ADMIN_TOKEN, DOMAIN, run_gateway
from tests.ui.browser import DESKTOP, LAYER_NOTES, Beacon, Site, aim, benign_files, corpus_label, poison_files
from tests.ui.viewer import UiGateway

CHROMIUM = Path("/usr/bin/chromium")
APT_PACKAGE = "chromium"
CHROMIUM_ARGS = (
    "--no-sandbox",  # we run as root in a container: Chromium's own sandbox cannot start
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    # Without these Chromium keeps trying to reach Google on this closed network.
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
APT_TIMEOUT = 900.0


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """What each browser layer run saw, in one line each (when one ran)."""
    if LAYER_NOTES:
        terminalreporter.section("tests/ui browser layers")
        for line in LAYER_NOTES:
            terminalreporter.write_line(line)


def _apt(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    return subprocess.run(["apt-get", *args], capture_output=True, text=True, env=env, timeout=APT_TIMEOUT, check=False)


def ensure_chromium() -> Path:
    """/usr/bin/chromium, apt-installed when missing; fails (never skips) when that cannot be done."""
    if CHROMIUM.exists():
        return CHROMIUM
    if os.geteuid() != 0:
        pytest.fail(
            f"{CHROMIUM} is missing and installing it needs root: run as root, or"
            f" `apt-get install --no-install-recommends {APT_PACKAGE}` first (tests/ui need a browser)",
            pytrace=False,
        )
    install = ("install", "-y", "-q", "--no-install-recommends", APT_PACKAGE)
    out = _apt(*install)
    if out.returncode != 0:  # stale package lists: refresh once and retry
        update = _apt("update", "-q")
        out = _apt(*install)
        out = subprocess.CompletedProcess(
            out.args, out.returncode, update.stdout + out.stdout, update.stderr + out.stderr
        )
    if not CHROMIUM.exists():
        pytest.fail(
            f"`apt-get install {APT_PACKAGE}` exited {out.returncode} and {CHROMIUM} is still missing:\n"
            f"{out.stdout[-3000:]}{out.stderr[-3000:]}",
            pytrace=False,
        )
    return CHROMIUM


@pytest.fixture(scope="session")
def chromium() -> Path:
    """The system Chromium (installed on demand)."""
    return ensure_chromium()


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def browser(chromium: Path) -> AsyncIterator[Browser]:
    """One headless Chromium for the session."""
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(
            executable_path=str(chromium), headless=True, args=list(CHROMIUM_ARGS)
        )
        try:
            yield launched
        finally:
            await launched.close()


@pytest.fixture(scope="session")
def site() -> Iterator[Site]:
    """The loopback server of the test-only pages."""
    with Site() as server:
        assert isinstance(server, Site)
        yield server


@pytest.fixture(scope="session")
def ui_beacon() -> Iterator[Beacon]:
    """The beacon the poison mailed to `ui_gateway` is aimed at (only the /ui layer uses it)."""
    with Beacon() as beacon:
        assert isinstance(beacon, Beacon)
        yield beacon


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def ui_gateway(tmp_path_factory: pytest.TempPathFactory, ui_beacon: Beacon) -> AsyncIterator[UiGateway]:
    """A real gateway (embedded intake) with one identity mailed every poison and benign body.

    Each body is the HTML part of a message whose subject is `poison/NAME.html` or
    `benign/NAME.html`; the poison is aimed at `ui_beacon`.
    """
    data = tmp_path_factory.mktemp("ui-gateway")
    env = {
        "AGENTMAIL_DOMAIN": DOMAIN,
        "AGENTMAIL_DATA_DIR": str(data / "data"),
        "AGENTMAIL_HTTP_PORT": "0",
        "AGENTMAIL_SMTP_PORT": "0",
        "AGENTMAIL_ADMIN_TOKEN": ADMIN_TOKEN,
    }
    async with run_gateway(load_settings(env, env_file=None)) as running:
        address, token = await running.create_identity("viewer")
        ui = UiGateway(running, address, token)
        bodies = {corpus_label(p): aim(p.read_text(encoding="utf-8"), ui_beacon) for p in poison_files()}
        bodies |= {corpus_label(p): p.read_text(encoding="utf-8") for p in benign_files()}
        if bodies:
            await ui.deliver(bodies)
        yield ui


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def ui_context(browser: Browser, ui_gateway: UiGateway) -> AsyncIterator[BrowserContext]:
    """A desktop-sized browser context logged in to /ui as the viewer identity."""
    context = await ui_gateway.logged_in(browser, viewport=DESKTOP)
    try:
        yield context
    finally:
        await context.close()
