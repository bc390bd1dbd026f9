"""pytest plugin `agentmail`: an address of its own for every test. Installing the distribution is enough.

Fixtures:

- ``agentmail`` (session): a :class:`~gateway.client.embedded.SessionGateway` (a
  :class:`~gateway.client.Gateway` that also has ``smtp_host``, ``smtp_port`` and ``domain``).
  With ``--agentmail-url`` or AGENTMAIL_URL set it is a client of that gateway, creating
  identities with AGENTMAIL_TOKEN (a provisioner token, or the admin's); ``smtp_host``,
  ``smtp_port`` and ``domain`` then come from AGENTMAIL_SMTP_HOST, AGENTMAIL_SMTP_PORT and
  AGENTMAIL_DOMAIN, and are None when those are unset. With nothing set, an embedded gateway
  (:mod:`gateway.client.embedded`) runs for the session on free loopback ports in a temporary
  directory, serving the domain AGENTMAIL_DOMAIN or ``agentmail.test``; under pytest-xdist each
  worker starts its own.
- ``agentmail_identity`` (function): a fresh :class:`~gateway.client.Identity` labelled with the
  test's node id, deleted after the test whatever its outcome.
- ``agentmail_async_identity`` (function, only where pytest-asyncio is installed): the same as an
  :class:`~gateway.client.AsyncIdentity`, on a client of its own closed after the test.

``--agentmail-keep`` keeps the identities (and an embedded gateway's data directory) and lists
their addresses, never their tokens, at the end of the run.

    def test_signup(agentmail, agentmail_identity):
        signup(agentmail_identity.address, smtp=(agentmail.smtp_host, agentmail.smtp_port))
        assert agentmail_identity.wait_for_code(timeout=30) == "482913"

It is loaded in every pytest run of a project that installs agentmail-gateway, so importing it
costs little: pytest and the :mod:`gateway.client` package (msgspec, no httpx, nothing of the
server); httpx and the embedded gateway are imported by the fixtures that need them.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import TYPE_CHECKING, Final, NoReturn

import pytest

from gateway.client.handle import where as safe_url

if TYPE_CHECKING:
    from gateway.client.embedded import SessionGateway
    from gateway.client.sync import Identity

__all__ = [
    "agentmail",
    "agentmail_identity",
    "pytest_addoption",
    "pytest_configure",
    "pytest_report_header",
]

LABEL_MAX: Final = 200
"""The API's limit on an identity's label, in characters."""
KEPT: Final = "agentmail_kept"
"""The `user_properties` key of a kept identity: (address, where its gateway is).

Reports carry it to xdist's controller, which lists them."""

_embedded_key = pytest.StashKey[str]()


def pytest_addoption(parser: pytest.Parser) -> None:
    """The options `--agentmail-url` and `--agentmail-keep`."""
    group = parser.getgroup("agentmail", "agentmail-gateway: an address per test")
    group.addoption(
        "--agentmail-url",
        default=None,
        help="the gateway the agentmail fixtures use (default: AGENTMAIL_URL, else an embedded one per session)",
    )
    group.addoption(
        "--agentmail-keep",
        action="store_true",
        default=False,
        help="keep the identities the fixtures create (their addresses are listed at the end)",
    )


def pytest_configure(config: pytest.Config) -> None:
    """Register the async fixture (with pytest-asyncio) and the kept-identities summary (with --agentmail-keep)."""
    if config.getoption("agentmail_keep"):
        config.pluginmanager.register(KeptSummary(), "agentmail-kept")
    # The async fixture exists only where pytest-asyncio runs (and `-p no:asyncio` means it does not).
    if config.pluginmanager.has_plugin("asyncio"):
        from gateway.client import pytest_async

        config.pluginmanager.register(pytest_async, "agentmail-asyncio")


def pytest_report_header(config: pytest.Config) -> str | None:
    """Say when the fixtures will use a configured gateway: AGENTMAIL_URL may be set for agentmail-mcp."""
    if config.getoption("agentmail_url"):
        return f"agentmail: fixtures use the gateway at {safe_url(config.getoption('agentmail_url'))} (--agentmail-url)"
    if url := os.environ.get("AGENTMAIL_URL", "").strip():
        return f"agentmail: fixtures use the gateway at {safe_url(url)} (AGENTMAIL_URL)"
    return None


def _fail(message: str) -> NoReturn:
    """A setup error for a user's mistake: the message, without a traceback into the plugin."""
    pytest.fail(f"agentmail: {message}", pytrace=False)


def _remote_smtp_port() -> int | None:
    raw = os.environ.get("AGENTMAIL_SMTP_PORT", "").strip()
    if not raw:
        return None
    try:
        port = int(raw)
    except ValueError:
        port = -1
    if not 0 < port < 65536:
        _fail(f"AGENTMAIL_SMTP_PORT={raw!r} is not a port number (1 to 65535)")
    return port


@pytest.fixture(scope="session")
def agentmail(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[SessionGateway]:
    """The gateway of this test session: AGENTMAIL_URL's (with AGENTMAIL_TOKEN), else an embedded one.

    Mail for the identities goes to `agentmail.smtp_host`:`agentmail.smtp_port`, addresses are at
    `agentmail.domain` (for a remote gateway: AGENTMAIL_SMTP_HOST / _PORT / AGENTMAIL_DOMAIN, else None).
    """
    from gateway.client.embedded import DEFAULT_DOMAIN, EmbeddedGateway, EmbeddedGatewayError, SessionGateway

    config = request.config
    url = (config.getoption("agentmail_url") or os.environ.get("AGENTMAIL_URL", "")).strip()
    if url:
        token = os.environ.get("AGENTMAIL_TOKEN", "").strip()
        if not token:
            given = "--agentmail-url" if config.getoption("agentmail_url") else "AGENTMAIL_URL"
            _fail(
                f"a gateway is configured ({given})"
                " but AGENTMAIL_TOKEN is not set: give it a provisioner token (`agentmail-gateway token create`)"
                " or the admin token"
            )
        remote = SessionGateway(
            url,
            token,
            smtp_host=os.environ.get("AGENTMAIL_SMTP_HOST", "").strip() or None,
            smtp_port=_remote_smtp_port(),
            domain=os.environ.get("AGENTMAIL_DOMAIN", "").strip().lower() or None,
        )
        with remote:
            yield remote
        return

    keep = bool(config.getoption("agentmail_keep"))
    data_dir = tmp_path_factory.mktemp("agentmail") / "data" if keep else None
    domain = os.environ.get("AGENTMAIL_DOMAIN", "").strip().lower() or DEFAULT_DOMAIN
    embedded = EmbeddedGateway(domain=domain, data_dir=data_dir)
    try:
        embedded.start()
    except EmbeddedGatewayError as exc:
        _fail(str(exc))
    if data_dir is not None:
        config.stash[_embedded_key] = f"embedded gateway, data kept in {data_dir} (domain {domain})"
    try:
        with embedded.client() as gw:
            yield gw
    finally:
        embedded.stop()


def label_for(nodeid: str) -> str:
    """The label an identity gets: the test's node id, its middle cut to fit the API's 200 characters."""
    if len(nodeid) <= LABEL_MAX:
        return nodeid
    head = (LABEL_MAX - 1) // 2
    return nodeid[:head] + "…" + nodeid[-(LABEL_MAX - 1 - head) :]


def where_kept(request: pytest.FixtureRequest, gateway: SessionGateway) -> str:
    """How the summary names the gateway a kept identity lives on."""
    return request.config.stash.get(_embedded_key, "") if gateway.embedded else safe_url(gateway.url)


def creation_failed(gateway: SessionGateway, exc: Exception) -> NoReturn:
    """Fail the test's setup with what the gateway said (a wrong token, a full gateway), not a traceback."""
    _fail(f"could not create an identity on {gateway!r}: {type(exc).__name__}: {exc}")


@pytest.fixture
def agentmail_identity(agentmail: SessionGateway, request: pytest.FixtureRequest) -> Iterator[Identity]:
    """A fresh identity for this test (label: its node id), deleted afterwards even if the test failed.

    `--agentmail-keep` keeps it and lists its address at the end of the run.
    """
    from gateway.client.errors import GatewayError, NotFound

    try:
        identity = agentmail.create_identity(label=label_for(request.node.nodeid))
    except GatewayError as exc:
        creation_failed(agentmail, exc)
    try:
        yield identity
    finally:
        if request.config.getoption("agentmail_keep"):
            request.node.user_properties.append((KEPT, (identity.address, where_kept(request, agentmail))))
        else:
            with contextlib.suppress(NotFound):  # the test deleted it itself
                identity.delete()


class KeptSummary:
    """Collects the kept identities from the test reports (on xdist's controller too) and lists them at the end."""

    def __init__(self) -> None:
        self.kept: list[tuple[str, str, str]] = []
        """(address, where its gateway is, test node id)."""

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Note the identities a test's teardown kept."""
        if report.when != "teardown":
            return
        for key, value in report.user_properties:
            if key == KEPT and isinstance(value, tuple | list) and len(value) == 2:
                self.kept.append((str(value[0]), str(value[1]), report.nodeid))

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        """List the kept addresses, grouped by gateway (never a token)."""
        if not self.kept:
            return
        terminalreporter.section("agentmail: identities kept (--agentmail-keep)")
        for where in sorted({w for _, w, _ in self.kept}):
            terminalreporter.write_line(f"on {where}:")
            for address, w, nodeid in self.kept:
                if w == where:
                    terminalreporter.write_line(f"  {address}  {nodeid}")
        if any(w.startswith("embedded") for _, w, _ in self.kept):
            terminalreporter.write_line(
                "to read their mail: `agentmail-gateway serve --data-dir DIR --domain DOMAIN`, and"
                " `agentmail-gateway identity rotate ADDRESS --data-dir DIR` for a token (none is shown here)"
            )
