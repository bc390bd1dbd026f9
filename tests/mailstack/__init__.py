"""A real Postfix + Dovecot catch-all for the test suite: see `stack.py` and the mailstack recipe.

`running_stack` is the ready-made fixture body: wrap it in `pytest.fixture(scope=...)` and a
test gets a started stack that is stopped (and its scratch root removed) afterwards.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from tests.mailstack.stack import (
    DEFAULT_DOMAIN,
    DEFAULT_MAX_MESSAGE_BYTES,
    MailStack,
    MailStackError,
    StackConfig,
    ensure_installed,
    free_port,
)

__all__ = [
    "DEFAULT_DOMAIN",
    "DEFAULT_MAX_MESSAGE_BYTES",
    "MailStack",
    "MailStackError",
    "StackConfig",
    "ensure_installed",
    "free_port",
    "running_stack",
]


def running_stack(
    *,
    domain: str = DEFAULT_DOMAIN,
    push_port: int | None = None,
    push_secret: str | None = None,
    max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES,
    parent: Path | None = None,
    relay_domain: str = "",
    relay_port: int | None = None,
) -> Iterator[MailStack]:
    """Install if needed, create, start and yield a stack; stop it and remove its root afterwards."""
    ensure_installed()
    stack = MailStack.create(
        domain=domain,
        push_port=push_port,
        push_secret=push_secret,
        max_message_bytes=max_message_bytes,
        parent=parent,
        relay_domain=relay_domain,
        relay_port=relay_port,
    )
    try:
        stack.start()
        yield stack
    finally:
        stack.stop()
