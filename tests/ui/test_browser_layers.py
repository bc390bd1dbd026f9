"""Each defence layer alone against every poison file, in Chromium, with the other two disabled.

- sanitizer alone: `sanitize_html(payload).html` served as a plain page (no policy, no
  sandbox) makes no request to the beacon, or anywhere else, and runs no script;
- policy alone: the unsanitized payload in `<iframe srcdoc=…>` (no sandbox attribute) on a
  page served with exactly `gateway.ui.policy.CSP` sends no request and runs no script. The
  mail sits in a frame as it does in /ui: served as the top-level document instead, a
  `<meta http-equiv=refresh>` navigates the whole tab to the beacon, since no CSP directive
  governs a document's own navigation (`navigate-to` never shipped), while a frame's every
  navigation is checked against the embedding page's `frame-src` (here `default-src 'none'`);
- sandbox alone: the unsanitized payload in `<iframe sandbox srcdoc=…>` on a page with no
  policy runs no script, submits no form, opens no popup and never navigates: not the top
  page ever, and not the mail's own frame by itself. A user's clicks on every submitter and
  link are tried too. Loads that need none of those (images, styles, a nested frame's first
  document, a script file that is fetched but never run, a link's ping) may reach the
  beacon here: blocking loads is the other two layers' work.

The control tests at the end show that the harness sees each kind of breach when the
layer under test is absent, so none of these can pass because nothing was looked at.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

import pytest
import pytest_asyncio
from playwright.async_api import Browser

from tests.ui.browser import (
    Beacon,
    Outcome,
    Probe,
    Record,
    Site,
    Visit,
    aim,
    assert_observed,
    bullet,
    click_everything,
    content_frame,
    explain,
    file_key,
    framed_page,
    inert_problems,
    note_layer,
    poison_files,
    sandbox_problems,
    settle,
    visit_all,
)

pytestmark = [
    pytest.mark.asyncio(loop_scope="session"),
    # The first test of a layer carries its whole run (every file, ~15 s) and maybe Chromium's install.
    pytest.mark.timeout(900),
]

POISON = {p.name: p for p in poison_files()}
NAMES = sorted(POISON)
MIN_POISON_FILES = 150


@dataclass
class Layer:
    """One layer's run over the whole corpus: its beacon and each file's outcome."""

    beacon: Beacon
    outcomes: dict[str, Outcome]

    def record(self, name: str) -> Record:
        return self.outcomes[name].checked()


def payload(name: str, beacon: Beacon) -> str:
    return aim(POISON[name].read_text(encoding="utf-8"), beacon)


# -- the corpus is there ---------------------------------------------------------------------


async def test_poison_corpus_is_present() -> None:
    assert len(NAMES) >= MIN_POISON_FILES, f"corpus/poison has {len(NAMES)} files, the issue asks for >= 150"


# -- (1) the sanitizer alone -----------------------------------------------------------------


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def sanitizer_layer(browser: Browser, site: Site) -> Layer:
    """Every poison file's sanitized output, served alone as a page with no policy and no sandbox."""
    from gateway.mail.sanitize import sanitize_html

    with Beacon() as beacon:
        assert isinstance(beacon, Beacon)

        def visit(name: str) -> Visit:
            async def run(probe: Probe, outcome: Outcome) -> None:
                url = site.add(f"/sanitized/{name}", sanitize_html(payload(name, beacon)).html)
                await settle(probe, url)

            return run

        outcomes = await visit_all(browser, NAMES, visit)
    note_layer("sanitizer alone", beacon, outcomes)
    return Layer(beacon, outcomes)


@pytest.mark.parametrize("name", NAMES)
async def test_sanitized_output_alone_is_inert(sanitizer_layer: Layer, name: str) -> None:
    record = sanitizer_layer.record(name)
    problems = inert_problems(record, sanitizer_layer.beacon, file_key(POISON[name]))
    assert not problems, explain(name, problems, record)


async def test_sanitizer_layer_left_the_beacon_silent(sanitizer_layer: Layer) -> None:
    beacon = sanitizer_layer.beacon
    assert (beacon.hits, beacon.connections) == ([], 0), bullet(beacon.hits)


# -- (3a) the policy alone -------------------------------------------------------------------


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def policy_layer(browser: Browser, site: Site) -> Layer:
    """Every unsanitized poison file in an unsandboxed srcdoc frame on a page with exactly the /ui policy."""
    from gateway.ui.policy import CSP

    with Beacon() as beacon:
        assert isinstance(beacon, Beacon)

        def visit(name: str) -> Visit:
            async def run(probe: Probe, outcome: Outcome) -> None:
                page = framed_page(payload(name, beacon), sandbox=None, title=name)
                url = site.add(f"/policy/{name}", page, {"Content-Security-Policy": CSP})
                response = await settle(probe, url)
                assert response is not None
                outcome.extra["csp"] = await response.header_value("content-security-policy")
                await content_frame(probe.page)

            return run

        outcomes = await visit_all(browser, NAMES, visit)
    note_layer("policy alone", beacon, outcomes)
    return Layer(beacon, outcomes)


@pytest.mark.parametrize("name", NAMES)
async def test_policy_alone_stops_scripts_and_requests(policy_layer: Layer, name: str) -> None:
    from gateway.ui.policy import CSP

    record = policy_layer.record(name)
    assert policy_layer.outcomes[name].extra["csp"] == CSP
    assert_observed(record)
    problems = inert_problems(record, policy_layer.beacon, file_key(POISON[name]))
    assert not problems, explain(name, problems, record)


async def test_policy_layer_left_the_beacon_silent(policy_layer: Layer) -> None:
    """No request at all. (Connections are not counted here: for a frame whose navigation the
    policy refuses (`<iframe src>`, `<frame>`, a refresh inside the frame) Chromium opens a TCP
    connection to the host before it checks `frame-src`, and sends nothing on it. The
    sanitizer removes every such frame, so the /ui layer test does count connections.)"""
    assert policy_layer.beacon.hits == [], bullet(policy_layer.beacon.hits)


# -- (3b) the sandbox alone ------------------------------------------------------------------


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def sandbox_layer(browser: Browser, site: Site) -> Layer:
    """Every unsanitized poison file in an empty-sandbox srcdoc frame on a page with no policy; then clicked."""
    with Beacon() as beacon:
        assert isinstance(beacon, Beacon)

        def visit(name: str) -> Visit:
            async def run(probe: Probe, outcome: Outcome) -> None:
                url = site.add(f"/sandbox/{name}", framed_page(payload(name, beacon), sandbox="", title=name))
                await settle(probe, url)
                await click_everything(probe, await content_frame(probe.page))

            return run

        outcomes = await visit_all(browser, NAMES, visit)
    note_layer("sandbox alone", beacon, outcomes)
    return Layer(beacon, outcomes)


@pytest.mark.parametrize("name", NAMES)
async def test_sandbox_alone_stops_scripts_forms_popups_navigation(sandbox_layer: Layer, name: str) -> None:
    record = sandbox_layer.record(name)
    assert_observed(record)
    problems = sandbox_problems(record, sandbox_layer.beacon, file_key(POISON[name]))
    assert not problems, explain(name, problems, record)


async def test_sandbox_layer_clicked_forms_and_links(sandbox_layer: Layer) -> None:
    """The clicks of the sandbox layer were real: submitters and links were hit by the pointer."""
    clicked = [
        c for o in sandbox_layer.outcomes.values() if o.record for c in o.record.clicks if c.endswith(": clicked")
    ]
    assert any(c.startswith("forms") for c in clicked) and any(c.startswith("links") for c in clicked), clicked


# -- controls: the harness sees what it is meant to see --------------------------------------

CONTROL_LOADS = (
    '<p>control</p><img src="//beacon.invalid/ctl-img"><script>console.log("XSS:ctl-inline")</script>'
    '<script src="//beacon.invalid/ctl-script"></script>'
)
CONTROL_FORM = (
    '<form action="//beacon.invalid/ctl-form" method="post"><input name="a" value="b"><button>Send</button></form>'
)
CONTROL_POPUP = '<a href="//beacon.invalid/ctl-popup" target="_blank">open</a>'
CONTROL_TOP = '<a href="//beacon.invalid/ctl-top" target="_top">leave</a>'
CONTROL_REFRESH = '<meta http-equiv="refresh" content="0;url=//beacon.invalid/ctl-refresh"><p>refresh</p>'
ALLOW_ALL = "allow-scripts allow-forms allow-popups allow-top-navigation allow-modals"


async def control_visit(
    browser: Browser, site: Site, path: str, body: str, *, click: bool = False, headers: dict[str, str] | None = None
) -> tuple[Record, Beacon]:
    """Visit `body` (aimed at a fresh beacon) served at `path`, as the layers do; optionally click in its frame."""
    with Beacon() as beacon:
        assert isinstance(beacon, Beacon)
        url = site.add(path, aim(body, beacon), headers)

        def visit(name: str) -> Visit:
            async def run(probe: Probe, outcome: Outcome) -> None:
                await settle(probe, url)
                if click and await probe.page.query_selector("iframe"):
                    await click_everything(probe, await content_frame(probe.page))
                elif click:
                    await click_everything(probe, probe.page.main_frame, home=url)

            return run

        (outcome,) = (await visit_all(browser, [path], visit)).values()
    return outcome.checked(), beacon


async def test_control_unprotected_page_shows_requests_and_scripts(browser: Browser, site: Site) -> None:
    record, beacon = await control_visit(browser, site, "/control/loads", CONTROL_LOADS)
    assert [h.path for h in beacon.hits_for("ctl-img")] == ["/ctl-img"]
    assert [h.path for h in beacon.hits_for("ctl-script")] == ["/ctl-script"]
    assert "console.log: XSS:ctl-inline" in record.scripts_ran
    assert "console.log: XSS:beacon-script" in record.scripts_ran
    assert {urlsplit(s.url).path for s in record.sent_to(beacon.netloc)} == {"/ctl-img", "/ctl-script"}
    assert len(inert_problems(record, beacon, "ctl-img")) >= 3


async def test_control_unprotected_meta_refresh_is_a_navigation(browser: Browser, site: Site) -> None:
    record, beacon = await control_visit(browser, site, "/control/refresh", CONTROL_REFRESH)
    assert [h.dest for h in beacon.hits_for("ctl-refresh")] == ["document"]
    assert record.top_navigations() == [f"{beacon.origin}/ctl-refresh"]
    assert "console.log: XSS:beacon-page" in record.scripts_ran


async def test_control_unprotected_form_is_sent_and_link_opens_a_window(browser: Browser, site: Site) -> None:
    record, beacon = await control_visit(browser, site, "/control/form", CONTROL_FORM, click=True)
    assert [(h.method, h.body) for h in beacon.hits_for("ctl-form")] == [("POST", b"a=b")], record.report()
    record, beacon = await control_visit(browser, site, "/control/popup", CONTROL_POPUP, click=True)
    assert record.popups, record.report()
    assert [h.dest for h in beacon.hits_for("ctl-popup")] == ["document"]


@pytest.mark.parametrize(
    ("label", "body", "key", "evidence"),
    [
        ("scripts", CONTROL_LOADS, "ctl-script", "XSS:ctl-inline"),
        ("form", CONTROL_FORM, "ctl-form", "POST"),
        ("popup", CONTROL_POPUP, "ctl-popup", "popup"),
        ("top", CONTROL_TOP, "ctl-top", "top-level"),
        ("refresh", CONTROL_REFRESH, "ctl-refresh", "frame navigated"),
    ],
    ids=["scripts", "form", "popup", "top", "refresh"],
)
async def test_control_sandbox_checks_see_each_breach_when_permitted(
    browser: Browser, site: Site, label: str, body: str, key: str, evidence: str
) -> None:
    """The sandbox page and clicks of the layer, with the permission granted: the check sees the breach.

    Without the permission (the empty sandbox) the very same page and clicks are clean.
    """
    page_body = framed_page(body, sandbox=ALLOW_ALL, title=label)
    record, beacon = await control_visit(browser, site, f"/control/sandbox-{label}", page_body, click=True)
    problems = sandbox_problems(record, beacon, key)
    assert any(evidence in p for p in problems), f"{label}: {problems}\n{record.report()}"
    if label in {"form", "popup", "top"}:  # the breach needed a user's click, and got one
        assert [c.split(": ", 1)[1] for c in record.clicks] == ["clicked"], record.report()
    page_body = framed_page(body, sandbox="", title=label)
    record, beacon = await control_visit(browser, site, f"/control/empty-sandbox-{label}", page_body, click=True)
    problems = sandbox_problems(record, beacon, key)
    assert not problems, f"{label}: {problems}\n{record.report()}"


@pytest.mark.parametrize(
    ("label", "body", "key"), [("loads", CONTROL_LOADS, "ctl-img"), ("refresh", CONTROL_REFRESH, "ctl-refresh")]
)
async def test_control_policy_header_is_what_blocks(
    browser: Browser, site: Site, label: str, body: str, key: str
) -> None:
    """The policy layer's page without its header leaks; with exactly the /ui policy nothing leaves and nothing runs."""
    from gateway.ui.policy import CSP

    page_body = framed_page(body, sandbox=None, title=label)
    record, beacon = await control_visit(browser, site, f"/control/no-policy-{label}", page_body)
    assert beacon.hits_for(key) and inert_problems(record, beacon, key), record.report()
    headers = {"Content-Security-Policy": CSP}
    record, beacon = await control_visit(browser, site, f"/control/policy-{label}", page_body, headers=headers)
    assert not inert_problems(record, beacon, key) and beacon.hits == [], record.report()
    refused = {urlsplit(s.url).path for s in record.requests if not s.sent}
    assert label != "loads" or refused == {"/ctl-img", "/ctl-script"}, record.report()
