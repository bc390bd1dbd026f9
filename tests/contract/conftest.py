"""One `Harness` per mail source kind: the contract suite runs every test over each.

`local` is the embedded Maildir fed by its own SMTP intake; `imap` is the session's real
Postfix + Dovecot (`mailstack`), emptied before each test. Select one with `-k local` or
`-k imap` (the param id is the kind).
"""

from __future__ import annotations

import asyncio
import smtplib
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

from gateway.config import Settings
from gateway.sources.base import Listeners, MailSource
from gateway.sources.imap import ImapConfig, ImapSource, connect
from gateway.sources.local import LocalSource
from tests.conftest import mailstack_settings
from tests.mailstack import MailStack, free_port

ARRIVAL_TIMEOUT = 20.0  # seconds a copy may take from SMTP to `next_batch` (Postfix + Dovecot)
QUIET_HEARTBEAT = 600.0  # so long that only a wake-up can end a `next_batch` within a test


@dataclass
class Harness:
    """Makes, starts and mails one kind of source; stops whatever it started."""

    kind: str
    settings: Settings
    root: Path
    stack: MailStack | None = None
    smtp_address: tuple[str, int] | None = None
    _running: list[MailSource] = field(default_factory=list)
    _listeners: list[Listeners] = field(default_factory=list)

    @property
    def fenced(self) -> bool:
        """Whether this kind's `fence()` names an id (imap) or is None (local: microseconds)."""
        return self.kind == "imap"

    def make(self, *, quiet: bool = False) -> MailSource:
        """A new, unstarted source on this harness's mailbox.

        `quiet`: the imap source gets no IDLE connection and a heartbeat longer than any
        test, so only `hint` (or its own deliveries) can wake `next_batch`.
        """
        if self.kind == "local":
            return LocalSource(self.root / "maildir")
        config = ImapConfig.from_settings(self.settings)
        if not quiet:
            return ImapSource(config)

        def no_idle(config: ImapConfig, *, watcher: bool = False) -> Any:
            if watcher:
                raise ConnectionRefusedError("test: no IDLE connection")
            return connect(config)

        return ImapSource(config, heartbeat=QUIET_HEARTBEAT, reconcile_every=QUIET_HEARTBEAT, connector=no_idle)

    def make_unreachable(self) -> MailSource | None:
        """A source whose mailbox cannot be reached, or None when this kind has no such state."""
        if self.kind == "local":
            return None
        config = ImapConfig.from_settings(self.settings)
        return ImapSource(ImapConfig(config.host, free_port(), config.user, config.password, "none", timeout=2.0))

    async def start(self, source: MailSource, *, listen: bool = False) -> Listeners | None:
        """Start `source` as the mailbox's reader (stopped at teardown unless `stop` came first);
        `listen` starts its listeners."""
        await source.start()
        await source.follow()
        self._running.append(source)
        if not listen:
            return None
        listeners = await source.listen(self.settings)
        self._listeners.append(listeners)
        if listeners.smtp_address is not None:
            self.smtp_address = listeners.smtp_address
        return listeners

    async def stop(self, source: MailSource) -> None:
        """Stop a source `start` started (once)."""
        self._running.remove(source)
        await source.stop()

    async def send(self, msg: EmailMessage, rcpts: list[str], mail_from: str = "sender@example.com") -> None:
        """Deliver over real SMTP; returns once the mailbox holds every copy."""
        if self.stack is not None:
            host, port = self.stack.host, self.stack.smtp_port
        else:
            assert self.smtp_address is not None, "start a local source with listen=True first"
            host, port = self.smtp_address

        def deliver() -> None:
            with smtplib.SMTP(host, port, timeout=30) as client:
                client.sendmail(mail_from, rcpts, msg.as_bytes())

        await asyncio.to_thread(deliver)
        if self.stack is not None:  # Postfix answered: now wait until LMTP handed it to Dovecot
            await asyncio.to_thread(self.stack.wait_queue_empty)

    async def close(self) -> None:
        """Close listeners and stop every source still running."""
        for listeners in self._listeners:
            await listeners.close()
        for source in list(self._running):
            await self.stop(source)
        if self.stack is not None:  # nothing of this test may land in the next one's mailbox
            await asyncio.to_thread(self.stack.wait_queue_empty)


@pytest.fixture(params=["local", "imap"])
async def harness(
    request: pytest.FixtureRequest, tmp_path: Path, base_make_settings: Callable[..., Settings]
) -> AsyncIterator[Harness]:
    """A harness for the param's source kind, on an empty mailbox."""
    kind = str(request.param)
    stack: MailStack | None = None
    if kind == "imap":
        stack = request.getfixturevalue("mailstack")
        await asyncio.to_thread(stack.wait_queue_empty)
        await asyncio.to_thread(stack.expunge_all)
        settings = base_make_settings(**mailstack_settings(stack))
    else:
        settings = base_make_settings()
    harness = Harness(kind, settings, tmp_path, stack)
    try:
        yield harness
    finally:
        await harness.close()


@pytest.fixture
async def source(harness: Harness) -> MailSource:
    """A started source with its listeners (local: the SMTP intake `harness.send` uses)."""
    started = harness.make()
    await harness.start(started, listen=True)
    return started


async def arrivals(source: MailSource, n: int) -> list[str]:
    """The ids the next batches announce until there are `n` (reconcile calls skipped)."""
    ids: list[str] = []
    async with asyncio.timeout(ARRIVAL_TIMEOUT):
        while len(ids) < n:
            changes = await source.next_batch()
            assert changes is not None, "the source stopped"
            ids.extend(changes.added)
    assert len(ids) == n, ids
    return ids
