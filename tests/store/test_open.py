"""open_store: PostgreSQL when the settings carry a database URL, else SQLite; psycopg only on that path."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import pytest

from gateway.config import Secret, Settings
from gateway.errors import StoreError
from gateway.store.open import open_store

_POSTGRES_MODULES = ("psycopg", "psycopg_pool")


class _WithDatabaseUrl:
    """Settings plus `database_url`, the field another branch adds to Settings."""

    def __init__(self, settings: Settings, url: str) -> None:
        self._settings = settings
        self.database_url = Secret(url)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._settings, name)


def _without_psycopg(monkeypatch: pytest.MonkeyPatch) -> None:
    """As if the postgres extra were not installed: importing psycopg (or our engine) fails."""
    for name in list(sys.modules):
        if name.startswith(("gateway.store.postgres", *_POSTGRES_MODULES)):
            monkeypatch.delitem(sys.modules, name)
    for name in _POSTGRES_MODULES:
        monkeypatch.setitem(sys.modules, name, None)


async def test_no_database_url_is_sqlite_without_psycopg(
    make_settings: Callable[..., Settings], monkeypatch: pytest.MonkeyPatch
) -> None:
    _without_psycopg(monkeypatch)
    store = open_store(make_settings())
    try:
        assert store.engine.kind == "sqlite"
    finally:
        await store.engine.close()


def test_a_database_url_without_the_postgres_extra_names_it(
    make_settings: Callable[..., Settings], monkeypatch: pytest.MonkeyPatch
) -> None:
    _without_psycopg(monkeypatch)
    settings = _WithDatabaseUrl(make_settings(), "postgresql://u:pw@127.0.0.1/db")
    with pytest.raises(StoreError, match=r"pip install 'agentmail-gateway\[postgres\]'"):
        open_store(settings)  # type: ignore[arg-type]


async def test_a_database_url_is_postgresql(make_settings: Callable[..., Settings], postgres_dsn: str) -> None:
    store = open_store(_WithDatabaseUrl(make_settings(), postgres_dsn))  # type: ignore[arg-type]
    assert store.engine.kind == "postgresql"
    await store.engine.start()
    try:
        identity, token = await store.identities.create("alice")
        assert identity.address == "alice@agents.test"
        assert (await store.tokens.authenticate(token)).identity == identity
    finally:
        await store.engine.close()
