"""Which engine a gateway runs on: PostgreSQL when AGENTMAIL_DATABASE_URL is set, else SQLite.

psycopg is imported only on the PostgreSQL path (it is the optional `postgres` extra).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from gateway.config import Settings
from gateway.errors import StoreError
from gateway.store import Store
from gateway.store.lineage import StoreTraces

__all__ = ["open_store", "reserved_names", "store_traces"]


def reserved_names(settings: Settings) -> frozenset[str]:
    """Local parts no identity may take: the configured ones and the catch-all's own."""
    return frozenset({*settings.reserved_local_parts, settings.catchall.partition("@")[0]})


def store_traces(settings: Settings) -> StoreTraces:
    """What in the settings' data directory would show that a store existed (gateway/store/lineage.py)."""
    from gateway.admin_token import ADMIN_TOKEN_FILE

    maildir = settings.data_dir / "maildir" if settings.source_kind == "local" else None
    generated = settings.data_dir / ADMIN_TOKEN_FILE
    configured = settings.admin_token_file
    # The operator's own token kept where a generated one would be is no trace of a store.
    own = configured is not None and configured.resolve() == generated.resolve()
    return StoreTraces(
        settings.data_dir,
        maildir=maildir,
        sqlite=settings.database_url is None,
        admin_token_file=None if own else generated,
    )


def open_store(
    settings: Settings,
    *,
    clock: Callable[[], float] = time.time,
    new_store: bool = False,
    adopt_domain: bool = False,
) -> Store:
    """The store of these settings; StoreError when it cannot be trusted (SQLite: checked now, PostgreSQL: at start).

    A missing store is made only when nothing shows that one existed, or with `new_store`
    (`store init --new`); with `adopt_domain` the store's own domain is read, not checked.
    """
    may_create = None if new_store else store_traces(settings).refuse
    if settings.database_url is not None:  # a SQLite gateway never imports psycopg
        return _open_postgres(settings, settings.database_url.reveal(), clock, adopt_domain, may_create)
    from gateway.store.sqlite import maildir_keys, open_sqlite

    return open_sqlite(
        settings.data_dir,
        domain=settings.domain,
        reserved=reserved_names(settings),
        quarantine_seconds=settings.reuse_quarantine,
        clock=clock,
        message_keys=maildir_keys(settings.data_dir / "maildir", max_bytes=settings.max_message_bytes),
        adopt_domain=adopt_domain,
        may_create=may_create,
    )


def _open_postgres(
    settings: Settings,
    dsn: str,
    clock: Callable[[], float],
    adopt_domain: bool,
    may_create: Callable[[str], None] | None,
) -> Store:
    try:
        from gateway.store.postgres import open_postgres
    except ImportError as exc:
        # psycopg, psycopg_pool or libpq (psycopg names no module then); any other is our bug.
        if exc.name is not None and not exc.name.startswith("psycopg"):
            raise
        raise StoreError(
            "AGENTMAIL_DATABASE_URL needs the postgres extra: pip install 'agentmail-gateway[postgres]'"
        ) from None
    return open_postgres(
        dsn,
        domain=settings.domain,
        reserved=reserved_names(settings),
        quarantine_seconds=settings.reuse_quarantine,
        clock=clock,
        adopt_domain=adopt_domain,
        may_create=may_create,
    )
