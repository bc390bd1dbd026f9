"""The throwaway PostgreSQL cluster (tests/postgres.py) and its fixtures: a real server, one empty database per test."""

from __future__ import annotations

from pathlib import Path

import psycopg
import pytest

from tests import postgres
from tests.postgres import PostgresCluster, PostgresError

# Both tests below create this table: each must find its own database without it.
TABLE = "cluster_probe"


async def _tables(dsn: str) -> set[str]:
    async with await psycopg.AsyncConnection.connect(dsn) as conn:
        cursor = await conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        return {row[0] for row in await cursor.fetchall()}


async def _create_insert_select(dsn: str, value: str) -> list[tuple[int, str]]:
    async with await psycopg.AsyncConnection.connect(dsn) as conn:
        await conn.execute(f"CREATE TABLE {TABLE} (id serial PRIMARY KEY, value text NOT NULL)")
        await conn.execute(f"INSERT INTO {TABLE} (value) VALUES (%s), (%s)", (value, value.upper()))
        await conn.commit()
    async with await psycopg.AsyncConnection.connect(dsn) as conn:  # a new session sees it committed
        cursor = await conn.execute(f"SELECT id, value FROM {TABLE} ORDER BY id")
        return await cursor.fetchall()


@pytest.mark.parametrize("value", ["first", "second"])
async def test_each_test_gets_its_own_empty_database(
    postgres_cluster: PostgresCluster, postgres_dsn: str, value: str
) -> None:
    # Run twice: the second run would fail on CREATE TABLE (and find the table) if databases were shared.
    assert await _tables(postgres_dsn) == set()
    assert await _create_insert_select(postgres_dsn, value) == [(1, value), (2, value.upper())]
    assert await _tables(postgres_dsn) == {TABLE}
    # The DSN is the cluster's, over loopback TCP, as its superuser.
    dbname = postgres_dsn.rsplit("/", 1)[1]
    assert (
        postgres_dsn
        == postgres_cluster.dsn(dbname)
        == f"postgresql://postgres@127.0.0.1:{postgres_cluster.port}/{dbname}"
    )
    assert dbname in postgres_cluster.databases()


async def test_a_dropped_database_is_gone_even_with_a_session_still_open(postgres_cluster: PostgresCluster) -> None:
    dsn = postgres_cluster.create_database("probe_dropped")
    await _create_insert_select(dsn, "x")
    left_open = await psycopg.AsyncConnection.connect(dsn)  # as a test that failed mid-way would leave it
    try:
        postgres_cluster.drop_database("probe_dropped")
        assert "probe_dropped" not in postgres_cluster.databases()
        with pytest.raises(psycopg.OperationalError):
            await left_open.execute("SELECT 1")
    finally:
        await left_open.close()
    # Re-created under the same name, it is empty again.
    dsn = postgres_cluster.create_database("probe_dropped")
    try:
        assert await _tables(dsn) == set()
    finally:
        postgres_cluster.drop_database("probe_dropped")


async def test_the_server_is_tuned_for_tests_and_listens_on_loopback_only(postgres_dsn: str) -> None:
    async with await psycopg.AsyncConnection.connect(postgres_dsn) as conn:
        settings = {}
        for name in ("fsync", "synchronous_commit", "full_page_writes", "listen_addresses", "server_encoding"):
            cursor = await conn.execute(f"SHOW {name}")
            row = await cursor.fetchone()
            assert row is not None
            settings[name] = row[0]
    assert settings == {
        "fsync": "off",
        "synchronous_commit": "off",
        "full_page_writes": "off",
        "listen_addresses": "127.0.0.1",
        "server_encoding": "UTF8",
    }


def test_these_tests_are_in_the_postgres_tier(request: pytest.FixtureRequest, postgres_dsn: str) -> None:
    assert request.node.get_closest_marker("postgres") is not None
    assert request.node.get_closest_marker("dovecot") is None


def test_a_stopped_cluster_leaves_nothing_behind() -> None:
    with PostgresCluster() as cluster:  # its own, beside the session's
        root = cluster.root
        assert root is not None and (root / "data" / "postmaster.pid").exists()
        with psycopg.connect(cluster.dsn()) as conn:
            assert conn.execute("SELECT 1").fetchone() == (1,)
        dsn = cluster.dsn()
    assert not root.exists()
    assert cluster.root is None
    with pytest.raises(psycopg.OperationalError):
        psycopg.connect(dsn, connect_timeout=5)
    cluster.stop()  # stopping again is a no-op


def test_missing_binaries_without_root_fail_naming_the_package(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / "15" / "bin").mkdir(parents=True)  # a major without its server binaries
    monkeypatch.setattr(postgres.os, "geteuid", lambda: 1000)
    monkeypatch.setattr(postgres, "_apt_install", lambda: pytest.fail("apt must not run without root"))
    with pytest.raises(PostgresError, match=r"apt-get install postgresql"):
        postgres.ensure_postgres(tmp_path)


def test_the_newest_complete_major_is_chosen(tmp_path: Path) -> None:
    for major, binaries in (("13", postgres.SERVER_BINARIES), ("16", postgres.SERVER_BINARIES), ("17", ("initdb",))):
        (tmp_path / major / "bin").mkdir(parents=True)
        for name in binaries:
            (tmp_path / major / "bin" / name).touch()
    (tmp_path / "common").mkdir()
    assert postgres.find_postgres(tmp_path) == tmp_path / "16" / "bin"
    assert postgres.find_postgres(tmp_path / "absent") is None
