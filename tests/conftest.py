"""Factories shared by every test: settings, real messages, and a running gateway.

The `gateway` fixture runs the real thing in the test's event loop: uvicorn serving the
Litestar app on a free loopback port, a fresh data directory, and a mail source: the
embedded SMTP intake + Maildir, or (settings from `mailstack_settings`) the real Postfix +
Dovecot stack started once per session. Nothing here touches the process environment.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
import secrets
import smtplib
import socket
import types
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from hypothesis import settings as hypothesis_settings

from gateway.app import Gateway, create_app
from gateway.config import Settings, load_settings
from gateway.serve import proxy_options
from gateway.sources.base import MailSource
from gateway.sources.imap import message_id
from gateway.sources.local import LocalSource
from tests.mailstack import MailStack, free_port, running_stack
from tests.postgres import PostgresCluster

# Hypothesis's per-example deadline (200 ms) is a timing assertion: on a loaded two-core machine
# (xdist, CI) it fails correct code now and then. Timing belongs in bench/; properties check results.
hypothesis_settings.register_profile("agentmail", deadline=None)
hypothesis_settings.load_profile("agentmail")

ADMIN_TOKEN = "am_test-admin-token-0123456789abcdef"
DOMAIN = "agents.test"


# Stacks started in this session, by IMAP port: `run_gateway` finds the one its settings name.
_STACKS: dict[int, MailStack] = {}


@pytest.fixture(scope="session")
def mailstack() -> Iterator[MailStack]:
    """A real Postfix + Dovecot catch-all for `DOMAIN`, with Dovecot's push driver on, for the session."""
    for stack in running_stack(domain=DOMAIN, push_port=free_port(), push_secret=secrets.token_hex(16)):
        _STACKS[stack.imap_port] = stack
        try:
            yield stack
        finally:
            del _STACKS[stack.imap_port]


def mailstack_settings(stack: MailStack) -> dict[str, Any]:
    """`make_settings` overrides that put a gateway on `stack` (imap source + push listener)."""
    env = stack.gateway_env()
    return {k.removeprefix("AGENTMAIL_").lower(): v for k, v in env.items() if k.startswith("AGENTMAIL_")}


@pytest.fixture
def make_settings(base_make_settings: Callable[..., Settings]) -> Callable[..., Settings]:
    """Settings for a private data dir, free ports, a known admin token; override by field."""
    return base_make_settings


@pytest.fixture
def base_make_settings(tmp_path: Path) -> Callable[..., Settings]:
    """The embedded-source settings factory (tests/api parametrises over sources on top of it)."""

    def make(**overrides: Any) -> Settings:
        base: dict[str, Any] = {
            "domain": DOMAIN,
            "data_dir": tmp_path / "data",
            "http_port": 0,
            "smtp_port": 0,
            "admin_token": ADMIN_TOKEN,
        }
        base.update(overrides)
        if base["admin_token"] is None:
            del base["admin_token"]
        env = {f"AGENTMAIL_{k.upper()}": str(v) for k, v in base.items()}
        return load_settings(env, env_file=None)

    return make


def make_message(
    *,
    to: str | Sequence[str] = (),
    cc: str | Sequence[str] = (),
    sender: str = "Sender <noreply@example.com>",
    subject: str = "Hello",
    text: str = "Hello there.",
    html: str | None = None,
    headers: Sequence[tuple[str, str]] = (),
) -> EmailMessage:
    """A real RFC 5322 message built with the email package."""
    msg = EmailMessage()
    msg["From"] = sender
    if to:
        msg["To"] = to if isinstance(to, str) else ", ".join(to)
    if cc:
        msg["Cc"] = cc if isinstance(cc, str) else ", ".join(cc)
    msg["Subject"] = subject
    for name, value in headers:
        msg[name] = value
    msg.set_content(text)
    if html is not None:
        msg.add_alternative(html, subtype="html")
    return msg


@dataclass
class RunningGateway:
    """A gateway serving on loopback, with helpers to mail it and call it."""

    app: Any
    gw: Gateway
    http: httpx.AsyncClient
    smtp_host: str
    smtp_port: int
    """Where mail goes in: the embedded intake, or Postfix when `stack` is set."""
    stack: MailStack | None = None

    @property
    def settings(self) -> Settings:
        return self.gw.settings

    def client(self, token: str | None) -> httpx.AsyncClient:
        """A client of the same server sending `token` (or none)."""
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.AsyncClient(base_url=self.http.base_url, headers=headers, timeout=10)

    async def send(
        self,
        msg: EmailMessage | bytes,
        rcpts: Sequence[str],
        mail_from: str = "sender@example.com",
        *,
        settle: bool = True,
    ) -> None:
        """Send over real SMTP; returns once every copy is indexed (unless not `settle`)."""
        await self.send_many([(msg, rcpts)], mail_from, settle=settle)

    async def send_many(
        self,
        mails: Sequence[tuple[EmailMessage | bytes, Sequence[str]]],
        mail_from: str = "sender@example.com",
        *,
        settle: bool = True,
    ) -> None:
        """Send each (message, recipients) in one SMTP session; then as `send`."""

        def deliver() -> None:
            with smtplib.SMTP(self.smtp_host, self.smtp_port, timeout=30) as client:
                for msg, rcpts in mails:
                    data = msg if isinstance(msg, bytes) else msg.as_bytes()
                    client.sendmail(mail_from, list(rcpts), data)

        await asyncio.to_thread(deliver)
        if settle:
            await self.settled()

    async def settled(self) -> None:
        """Wait until the index holds every copy in the mailbox (no sleeps: the sync signals)."""
        if self.stack is not None:
            await asyncio.to_thread(self.stack.wait_queue_empty)  # Postfix handed everything to Dovecot
        present = set(await self.mailbox_ids())

        async def indexed() -> bool:  # and, after a rebuild, served again
            return present <= await self.gw.store.index.known_ids() and not self.gw.sync.rebuilding

        await self.gw.sync.wait_until(indexed, timeout=10)

    async def mailbox_ids(self) -> list[str]:
        """Every copy the mailbox holds, oldest first, read beside the gateway (not through it)."""
        if self.stack is None:
            source = self.gw.source
            assert isinstance(source, LocalSource)
            return source.maildir.ids()

        def read(stack: MailStack) -> list[str]:
            with stack.imap() as client:
                validity = int(client.select_folder("INBOX", readonly=True)[b"UIDVALIDITY"])
                return [message_id(validity, int(uid)) for uid in sorted(client.search("ALL"))]

        return await asyncio.to_thread(read, self.stack)

    async def stored(self, copy_id: str) -> bytes:
        """The bytes of one mailbox copy, as the source holds them."""
        (found,) = await self.gw.source.fetch([copy_id])
        return found.raw

    async def messages(self, address: str, token: str | None = None, **params: Any) -> dict[str, Any]:
        """The listing of `address`'s mail as `token` (default: the admin) sees it; asserts 200."""
        client = self.http if token is None else self.client(token)
        try:
            response = await client.get(f"/v1/identities/{address}/messages", params=params)
        finally:
            if client is not self.http:
                await client.aclose()
        assert response.status_code == 200, response.text
        listing: dict[str, Any] = response.json()
        return listing

    async def subjects(self, address: str, token: str | None = None, **params: Any) -> list[str]:
        """Subjects of `address`'s listing, newest first, as `token` (default: the admin) sees it."""
        return [m["subject"] for m in (await self.messages(address, token, **params))["messages"]]

    async def create_identity(self, local_part: str | None = None, **body: Any) -> tuple[str, str]:
        """(address, token) of a new identity made by the admin."""
        if local_part is not None:
            body["local_part"] = local_part
        response = await self.http.post("/v1/identities", json=body)
        assert response.status_code == 201, response.text
        data = response.json()
        return data["address"], data["token"]


def assert_error(response: httpx.Response, status: int, error: str | None = None) -> dict[str, Any]:
    """`response` is the gateway's JSON error `{"error", "detail"}` with `status`; returns the body."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json"), response.headers
    body: dict[str, Any] = response.json()
    assert {"error", "detail"} <= set(body), body
    assert isinstance(body["error"], str) and isinstance(body["detail"], str) and body["detail"]
    if error is not None:
        assert body["error"] == error, body
    return body


@pytest.fixture
async def gateway(make_settings: Callable[..., Settings]) -> AsyncIterator[RunningGateway]:
    """A real gateway on loopback: uvicorn + Litestar + embedded SMTP, in this event loop."""
    async with run_gateway(make_settings()) as running:
        yield running


class run_gateway:
    """Async context manager serving `settings` until exit.

    On the mail stack, the catch-all is emptied first unless `keep_mailbox` (a restart).
    """

    def __init__(
        self,
        settings: Settings,
        *,
        keep_mailbox: bool = False,
        source: MailSource | None = None,
        stack: MailStack | None = None,
    ) -> None:
        self.settings = settings
        self.keep_mailbox = keep_mailbox
        self.source = source
        self.given_stack = stack

    async def __aenter__(self) -> RunningGateway:
        self.stack = None
        if self.settings.source_kind == "imap":
            self.stack = self.given_stack or _STACKS[self.settings.imap_port]
        if self.stack is not None:
            # Each gateway starts on an empty catch-all, with nothing of an earlier test in flight.
            await asyncio.to_thread(self.stack.wait_queue_empty)
            if not self.keep_mailbox:
                await asyncio.to_thread(self.stack.expunge_all)
        self.app = create_app(self.settings, source=self.source)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock.bind(("127.0.0.1", 0))
        # Forwarded headers are believed as `serve` believes them (AGENTMAIL_TRUSTED_PROXIES).
        config = uvicorn.Config(self.app, lifespan="on", log_level="warning", **proxy_options(self.settings))
        self.server = uvicorn.Server(config)
        # What Server.serve() does before startup(); calling the parts lets the test know
        # exactly when the gateway listens, without polling `started`.
        config.load()
        self.server.lifespan = config.lifespan_class(config)
        await self.server.startup(sockets=[self.sock])
        assert self.server.started and not self.server.should_exit
        port = self.sock.getsockname()[1]
        gw: Gateway = self.app.state.gateway
        self.http = httpx.AsyncClient(
            base_url=f"http://127.0.0.1:{port}", headers={"Authorization": f"Bearer {ADMIN_TOKEN}"}, timeout=10
        )
        if self.stack is not None:
            return RunningGateway(self.app, gw, self.http, self.stack.host, self.stack.smtp_port, self.stack)
        assert gw.smtp_address is not None
        return RunningGateway(self.app, gw, self.http, gw.smtp_address[0], gw.smtp_address[1])

    async def __aexit__(self, *exc: object) -> None:
        await self.http.aclose()
        await self.server.shutdown(sockets=[self.sock])
        self.sock.close()
        if self.stack is not None:  # nothing of this test may land in the next one's mailbox
            await asyncio.to_thread(self.stack.wait_queue_empty)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Print the corpus precision/recall table when the corpus test ran."""
    import sys

    corpus = sys.modules.get("tests.test_corpus")
    lines = corpus.summary() if corpus is not None else []
    if lines:
        terminalreporter.section("corpus/otp precision and recall")
        for line in lines:
            terminalreporter.write_line(line)


# -- PostgreSQL ------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[PostgresCluster]:
    """A throwaway PostgreSQL cluster (tests/postgres.py) for the session, stopped and removed at the end."""
    with PostgresCluster() as cluster:
        yield cluster


@pytest.fixture
def postgres_dsn(postgres_cluster: PostgresCluster) -> Iterator[str]:
    """The DSN of a fresh, empty database of its own for this test; dropped afterwards (open sessions too)."""
    name = f"test_{secrets.token_hex(8)}"
    dsn = postgres_cluster.create_database(name)
    try:
        yield dsn
    finally:
        postgres_cluster.drop_database(name)


# -- test tiers ------------------------------------------------------------------------------
# Each marker (registered in pyproject.toml) is given from what a test needs, never from where
# it lives: the fixtures it uses (directly or through others), the `source` it is parametrised
# with, and the names its code refers to (its own body, its fixtures' bodies, and the helpers
# of this suite those call). `make test-fast` deselects every tier.

TIER_FIXTURES: dict[str, frozenset[str]] = {
    "dovecot": frozenset({"mailstack"}),
    "postgres": frozenset({"postgres_cluster", "postgres_dsn"}),
    "browser": frozenset({"chromium", "browser"}),
    # The pytest plugin's fixtures start an embedded gateway (a child process) when none is configured.
    "stdio": frozenset({"agentmail", "agentmail_identity", "agentmail_async_identity"}),
}
"""A test using any of these fixtures (anywhere in its fixture closure) is in the tier."""
TIER_NAMES: dict[str, frozenset[str]] = {
    "dovecot": frozenset({"ensure_installed", "running_stack", "MailStack"}),
    "postgres": frozenset({"PostgresCluster"}),
    "browser": frozenset({"ensure_chromium", "async_playwright"}),
    # The MCP SDK's stdio client spawning agentmail-mcp, or a child process of this Python.
    # (runpytest_subprocess: a pytest run in a child process, as tests/client run the plugin.)
    "stdio": frozenset(
        {"mcp_client", "stdio_client", "Popen", "create_subprocess_exec", "executable", "runpytest_subprocess"}
    ),
}
"""A test whose code (or its fixtures' or helpers') refers to any of these names is in the tier."""
TIER_SOURCES = {"imap": "dovecot"}
"""tests/api run every test once per `source`; `imap` is the real stack (see tests/api/conftest.py)."""


def _code_names(code: types.CodeType) -> Iterator[str]:
    """Global and attribute names `code` and the functions nested in it refer to."""
    yield from code.co_names
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _code_names(const)


TESTS_DIR = Path(__file__).resolve().parent


@functools.cache
def _file_in_suite(filename: str) -> bool:
    return Path(filename).resolve().is_relative_to(TESTS_DIR)


def _in_suite(obj: object) -> bool:
    """Whether `obj` (a function, or a class through its methods) is defined in a file under tests/."""
    functions = [v for v in vars(obj).values() if inspect.isfunction(v)] if isinstance(obj, type) else [obj]
    for function in functions:
        code = getattr(inspect.unwrap(function), "__code__", None)  # type: ignore[arg-type]
        if isinstance(code, types.CodeType) and _file_in_suite(code.co_filename):
            return True
    return False


def _referenced_names(roots: Sequence[object]) -> set[str]:
    """Names referred to by `roots` defined in the suite and, transitively, by the suite's helpers they use.

    Code outside tests/ (pytest's own fixtures, libraries) is never read: its names say nothing of ours.
    """
    names: set[str] = set()
    for root in roots:
        with contextlib.suppress(TypeError):  # unhashable: not a function of ours anyway
            names |= _names_from(root)
    return names


@functools.cache
def _names_from(root: object) -> frozenset[str]:
    # Cached per function: thousands of items share a few hundred tests and fixtures.
    names: set[str] = set()
    seen: set[int] = set()
    todo = [root]
    while todo:
        obj = inspect.unwrap(todo.pop())  # type: ignore[arg-type]
        if id(obj) in seen or not _in_suite(obj):
            continue
        seen.add(id(obj))
        if isinstance(obj, type):
            todo.extend(v for v in vars(obj).values() if inspect.isfunction(v))
            continue
        code = getattr(obj, "__code__", None)
        if not isinstance(code, types.CodeType):
            continue
        found = set(_code_names(code))
        names |= found
        scope = getattr(obj, "__globals__", {})
        todo.extend(
            helper for name in found if inspect.isfunction(helper := scope.get(name)) or isinstance(helper, type)
        )
    return frozenset(names)


def tiers_of(item: pytest.Item) -> set[str]:
    """The tier markers `item` needs (see TIER_FIXTURES, TIER_NAMES, TIER_SOURCES)."""
    fixtures = set(getattr(item, "fixturenames", ()))
    tiers = {tier for tier, wanted in TIER_FIXTURES.items() if fixtures & wanted}
    callspec = getattr(item, "callspec", None)
    if callspec is not None:
        tier = TIER_SOURCES.get(str(callspec.params.get("source")))
        if tier is not None:
            tiers.add(tier)
    roots: list[object] = []
    if isinstance(item, pytest.Function):
        roots.append(item.function)
    info = getattr(item, "_fixtureinfo", None)  # the fixture definitions in the item's closure
    for defs in getattr(info, "name2fixturedefs", {}).values():
        roots.extend(fixturedef.func for fixturedef in defs)
    names = _referenced_names(roots)
    tiers |= {tier for tier, wanted in TIER_NAMES.items() if names & wanted}
    return tiers


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects: the markers must be there by then
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every collected test with the tiers it needs."""
    for item in items:
        for tier in sorted(tiers_of(item)):
            item.add_marker(tier)
