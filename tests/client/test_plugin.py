"""The pytest plugin tested as users meet it: a generated test file run by pytest in a subprocess.

The subprocess loads the plugin through the installed `pytest11` entry point, as in any project
that installs agentmail-gateway (nothing here registers it). Its tests mail their identity over
real SMTP and wait through the real client; the gateway is either one this module starts
(`served`, a real `python -m gateway serve`, reached through AGENTMAIL_URL) or the one the
plugin embeds when nothing is configured. What the inner tests saw comes back as JSON files.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from gateway.client import Conflict, Gateway
from gateway.client.pytest_plugin import LABEL_MAX, label_for
from tests.serve import ServeProcess

pytest_plugins = ["pytester"]

ADMIN_TOKEN = "am_plugin-test-admin-token-0123456789"
DOMAIN = "plugin.test"
INNER_TIMEOUT = 150.0
"""Seconds one inner pytest run may take (the xdist one starts four workers on two cores)."""

# What every generated test file starts with: a sender like an app's, and a record of what the
# test saw (a JSON file per test in OUT, named by its node id) for the outer test to check.
PREAMBLE = """
import json, os, re, smtplib
from email.message import EmailMessage
from pathlib import Path

import pytest

OUT = Path(os.environ["PLUGIN_TEST_OUT"])


def send(agentmail, to, subject, text, sender="shop@example.com"):
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = subject
    msg.set_content(text)
    with smtplib.SMTP(agentmail.smtp_host, agentmail.smtp_port, timeout=30) as smtp:
        smtp.send_message(msg)


def record(request, **seen):
    name = re.sub(r"[^A-Za-z0-9_.-]", "_", request.node.nodeid)
    (OUT / f"{name}.json").write_text(json.dumps(seen))
"""


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    """A real gateway process for the inner runs that are given AGENTMAIL_URL."""
    base = tmp_path_factory.mktemp("plugin-served")
    with ServeProcess(base / "data", base / "logs", domain=DOMAIN, admin_token=ADMIN_TOKEN) as gateway:
        yield gateway


@pytest.fixture(scope="module")
def provisioner(served: ServeProcess) -> str:
    """A provisioner token of `served`: what AGENTMAIL_TOKEN holds in a CI that uses a shared gateway."""
    with served.client() as admin:
        response = admin.post("/v1/tokens", json={"scope": "provision", "label": "plugin tests"})
    assert response.status_code == 201, response.text
    token: str = response.json()["token"]
    return token


@pytest.fixture
def inner(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A clean project for the inner run: none of our AGENTMAIL_* settings; returns the dir results land in."""
    for name in list(os.environ):
        if name.startswith("AGENTMAIL_"):
            monkeypatch.delenv(name)
    out = pytester.path / "out"
    out.mkdir()
    monkeypatch.setenv("PLUGIN_TEST_OUT", str(out))
    # The inner project's own settings, as a user's would be (pytest-asyncio strict, its loop scope set).
    pytester.makeini("[pytest]\nasyncio_mode = strict\nasyncio_default_fixture_loop_scope = function\n")
    return out


def use_served(
    monkeypatch: pytest.MonkeyPatch, served: ServeProcess, token: str, *, by_option: bool = False
) -> list[str]:
    """Point the inner run at `served` (by environment, or by --agentmail-url); returns the extra pytest args."""
    monkeypatch.setenv("AGENTMAIL_TOKEN", token)
    monkeypatch.setenv("AGENTMAIL_SMTP_HOST", "127.0.0.1")
    monkeypatch.setenv("AGENTMAIL_SMTP_PORT", str(served.smtp_port))
    monkeypatch.setenv("AGENTMAIL_DOMAIN", DOMAIN)
    if by_option:
        return [f"--agentmail-url={served.base_url}"]
    monkeypatch.setenv("AGENTMAIL_URL", served.base_url)
    return []


def results(out: Path) -> list[dict[str, Any]]:
    """What each inner test recorded."""
    return [json.loads(p.read_text()) for p in sorted(out.glob("*.json"))]


def run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    """The inner pytest run, in a subprocess (so the plugin comes from the installed entry point)."""
    return pytester.runpytest_subprocess("-p", "no:cacheprovider", *args, timeout=INNER_TIMEOUT)


def identities(served: ServeProcess) -> set[str]:
    """The addresses of every identity `served` holds (the admin's listing)."""
    with Gateway(served.base_url, ADMIN_TOKEN) as admin:
        return {i.address for i in admin.identities()}


def existed_and_was_deleted(served: ServeProcess, address: str) -> bool:
    """Whether `address` is gone from `served` yet was made there: its name is quarantined (409)."""
    if address in identities(served):
        return False
    with Gateway(served.base_url, ADMIN_TOKEN) as admin:
        try:
            admin.create_identity(address.split("@")[0]).delete()
        except Conflict:
            return True
    return False


SIGNUP_TEST = (
    PREAMBLE
    + """

def test_signup(agentmail, agentmail_identity, request):
    send(agentmail, agentmail_identity.address, "Confirm your account", "Your code is 482913.")
    code = agentmail_identity.wait_for_code(timeout=60)
    record(request, address=agentmail_identity.address, code=code, url=agentmail.url,
           embedded=agentmail.embedded, domain=agentmail.domain, label=agentmail_identity.label)
    assert code == "482913"
"""
)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("by_option", [False, True], ids=["AGENTMAIL_URL", "--agentmail-url"])
def test_a_configured_gateway_is_used(
    pytester: pytest.Pytester,
    inner: Path,
    monkeypatch: pytest.MonkeyPatch,
    served: ServeProcess,
    provisioner: str,
    by_option: bool,
) -> None:
    pytester.makepyfile(test_signup=SIGNUP_TEST)
    result = run(pytester, *use_served(monkeypatch, served, provisioner, by_option=by_option))
    result.assert_outcomes(passed=1)
    (seen,) = results(inner)
    assert seen["code"] == "482913"
    assert seen["url"] == served.base_url and seen["embedded"] is False and seen["domain"] == DOMAIN
    assert seen["label"] == "test_signup.py::test_signup"
    assert seen["address"].endswith("@" + DOMAIN)
    assert existed_and_was_deleted(served, seen["address"])


@pytest.mark.timeout(120)
def test_with_nothing_configured_an_embedded_gateway_runs_for_the_session(
    pytester: pytest.Pytester, inner: Path
) -> None:
    pytester.makepyfile(test_signup=SIGNUP_TEST)
    result = run(pytester)
    result.assert_outcomes(passed=1)
    (seen,) = results(inner)
    assert seen["code"] == "482913"
    assert seen["embedded"] is True and seen["domain"] == "agentmail.test"
    assert seen["address"].endswith("@agentmail.test")
    # It was stopped at the end of the session: nothing answers there any more.
    with pytest.raises(httpx.TransportError):
        httpx.get(f"{seen['url']}/health", timeout=5)


FAILING_WAIT_TEST = (
    PREAMBLE
    + """

def test_waits_for_a_code_that_never_comes(agentmail, agentmail_identity, request):
    record(request, address=agentmail_identity.address, token=agentmail_identity.token)
    send(agentmail, agentmail_identity.address, "Welcome aboard, friend", "Thanks for joining.",
         sender="hello@shop.example")
    agentmail_identity.wait_for_code(timeout=3)
"""
)


@pytest.mark.timeout(120)
def test_a_failing_wait_shows_what_arrived_and_the_identity_is_deleted(
    pytester: pytest.Pytester, inner: Path, monkeypatch: pytest.MonkeyPatch, served: ServeProcess, provisioner: str
) -> None:
    pytester.makepyfile(test_wait=FAILING_WAIT_TEST)
    result = run(pytester, "-l", *use_served(monkeypatch, served, provisioner))  # -l: locals shown too
    result.assert_outcomes(failed=1)
    (seen,) = results(inner)
    output = result.stdout.str() + result.stderr.str()
    assert "WaitTimeout" in output
    assert f"no unseen message with a code arrived for {seen['address']} within 3 s" in output
    assert "from hello@shop.example  subject 'Welcome aboard, friend'  [no code, no link]" in output
    assert seen["token"] not in output
    # Teardown ran although the test failed.
    assert existed_and_was_deleted(served, seen["address"])


FAILING_TEST = (
    PREAMBLE
    + """

def test_fails(agentmail_identity, request):
    record(request, address=agentmail_identity.address, token=agentmail_identity.token)
    assert False, "the app under test broke"
"""
)


@pytest.mark.timeout(120)
def test_agentmail_keep_keeps_the_identity_and_lists_its_address_never_its_token(
    pytester: pytest.Pytester, inner: Path, monkeypatch: pytest.MonkeyPatch, served: ServeProcess, provisioner: str
) -> None:
    # The control of the test above: without teardown's delete the identity is still there.
    pytester.makepyfile(test_keep=FAILING_TEST)
    result = run(pytester, "--agentmail-keep", *use_served(monkeypatch, served, provisioner))
    result.assert_outcomes(failed=1)
    (seen,) = results(inner)
    assert seen["address"] in identities(served)
    output = result.stdout.str() + result.stderr.str()
    assert "identities kept (--agentmail-keep)" in output
    result.stdout.fnmatch_lines([f"on {served.base_url}:", f"  {seen['address']}  test_keep.py::test_fails"])
    assert seen["token"] not in output
    with Gateway(served.base_url, ADMIN_TOKEN) as admin:  # leave nothing behind for the other tests
        admin.delete_identity(seen["address"])


XDIST_TESTS = (
    PREAMBLE
    + """

@pytest.mark.parametrize("n", range(40))
def test_own_code(agentmail, agentmail_identity, request, n, worker_id):
    code = f"{n:02d}{int.from_bytes(os.urandom(4), 'big') % 10_000:04d}"  # distinct across the 40 tests
    send(agentmail, agentmail_identity.address, f"Code for test {n}", f"Your verification code is {code}.")
    got = agentmail_identity.wait_for_code(timeout=60)
    listing = agentmail_identity.messages()
    record(request, n=n, worker=worker_id, address=agentmail_identity.address, code=code, got=got,
           url=agentmail.url, subjects=[m.subject for m in listing])
    assert got == code
    assert [m.subject for m in listing] == [f"Code for test {n}"]
"""
)


@pytest.mark.timeout(300)
@pytest.mark.parametrize("where", ["embedded", "served"])
def test_under_xdist_every_test_has_its_own_identity_and_code(
    pytester: pytest.Pytester,
    inner: Path,
    monkeypatch: pytest.MonkeyPatch,
    served: ServeProcess,
    provisioner: str,
    where: str,
) -> None:
    # "served": four workers share one gateway, the harder case; "embedded": each worker starts its own.
    args = use_served(monkeypatch, served, provisioner) if where == "served" else []
    pytester.makepyfile(test_parallel=XDIST_TESTS)
    result = run(pytester, "-n", "4", *args)
    result.assert_outcomes(passed=40)
    seen = results(inner)
    assert sorted(s["n"] for s in seen) == list(range(40))
    assert all(s["got"] == s["code"] and s["subjects"] == [f"Code for test {s['n']}"] for s in seen)
    assert len({s["address"] for s in seen}) == 40 and len({s["code"] for s in seen}) == 40
    workers = {s["worker"] for s in seen}
    assert len(workers) > 1, workers  # it did run in parallel
    urls = {s["url"] for s in seen}
    if where == "served":
        assert urls == {served.base_url}
        assert all(existed_and_was_deleted(served, s["address"]) for s in seen)
    else:  # one embedded gateway per worker
        by_worker = {w: {s["url"] for s in seen if s["worker"] == w} for w in workers}
        assert all(len(u) == 1 for u in by_worker.values()) and len(urls) == len(workers), by_worker


ASYNC_TEST = (
    PREAMBLE
    + """
import asyncio

from gateway.client import AsyncIdentity


@pytest.mark.asyncio
async def test_async_signup(agentmail, agentmail_async_identity, request):
    assert isinstance(agentmail_async_identity, AsyncIdentity)
    waiting = asyncio.create_task(agentmail_async_identity.wait_for_code(timeout=60))
    await asyncio.to_thread(send, agentmail, agentmail_async_identity.address, "Your code", "Code: 913577")
    code = await waiting
    record(request, address=agentmail_async_identity.address, code=code)
    assert code == "913577"
"""
)


@pytest.mark.timeout(120)
def test_the_async_fixture_serves_pytest_asyncio_tests(
    pytester: pytest.Pytester, inner: Path, monkeypatch: pytest.MonkeyPatch, served: ServeProcess, provisioner: str
) -> None:
    pytester.makepyfile(test_async=ASYNC_TEST)
    result = run(pytester, *use_served(monkeypatch, served, provisioner))
    result.assert_outcomes(passed=1)
    (seen,) = results(inner)
    assert seen["code"] == "913577"
    assert existed_and_was_deleted(served, seen["address"])


@pytest.mark.timeout(120)
def test_without_pytest_asyncio_there_is_no_async_fixture(pytester: pytest.Pytester, inner: Path) -> None:
    pytester.makeini("[pytest]\n")  # no asyncio_* keys: the plugin that knows them is off
    pytester.makepyfile(test_async="def test_a(agentmail_async_identity):\n    pass\n")
    result = run(pytester, "-p", "no:asyncio")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*fixture 'agentmail_async_identity' not found*"])
    assert "agentmail_identity" in result.stdout.str()  # listed among the fixtures that do exist


@pytest.mark.timeout(120)
def test_a_url_without_a_token_is_a_clear_error(
    pytester: pytest.Pytester, inner: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AGENTMAIL_URL", "http://127.0.0.1:9")
    pytester.makepyfile(test_x="def test_x(agentmail_identity):\n    pass\n")
    result = run(pytester)
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*agentmail: a gateway is configured (AGENTMAIL_URL) but AGENTMAIL_TOKEN is not set*"])
    assert "pytest_plugin.py" not in result.stdout.str()  # no traceback into the plugin


@pytest.mark.timeout(120)
def test_an_embedded_gateway_that_cannot_start_says_why(
    pytester: pytest.Pytester, inner: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AGENTMAIL_DOMAIN", "not a domain!")
    pytester.makepyfile(test_x="def test_x(agentmail_identity):\n    pass\n")
    result = run(pytester)
    result.assert_outcomes(errors=1)
    output = result.stdout.str()
    assert "the embedded agentmail gateway" in output and "exited with status" in output
    assert "AGENTMAIL_DOMAIN='not a domain!'" in output  # the gateway's own sentence, from its output


def test_labels_name_the_test_and_fit_the_api() -> None:
    assert label_for("tests/test_a.py::test_b[1]") == "tests/test_a.py::test_b[1]"
    long = "tests/" + "d" * 300 + "/test_x.py::test_the_end[param]"
    label = label_for(long)
    assert len(label) == LABEL_MAX
    assert label.startswith("tests/ddd") and label.endswith("test_x.py::test_the_end[param]") and "…" in label


def test_the_header_says_when_a_configured_gateway_is_used_without_its_credentials(
    pytester: pytest.Pytester, inner: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makepyfile(test_nothing="def test_nothing():\n    pass\n")
    quiet = run(pytester, "--collect-only", "-q")
    assert "agentmail:" not in quiet.stdout.str()  # nothing configured: nothing said
    monkeypatch.setenv("AGENTMAIL_URL", "http://ci:hunter2@127.0.0.1:9")
    told = run(pytester, "--collect-only")
    told.stdout.fnmatch_lines(["agentmail: fixtures use the gateway at http://127.0.0.1:9 (AGENTMAIL_URL)"])
    assert "hunter2" not in told.stdout.str()
