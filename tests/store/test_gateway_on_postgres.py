"""A whole gateway on the PostgreSQL store: what a client does, end to end, and across a restart.

The contract suite proves each store method on both engines; this proves the wiring: the
gateway's lifespan starts the engine, every route reaches it, and nothing lives in the
process (a restarted gateway on the same database answers as the first one did).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psycopg
import pytest

from gateway.cli import main
from gateway.config import Settings
from tests.conftest import make_message, run_gateway
from tests.postgres import PostgresCluster


def code_mail(address: str, code: str) -> Any:
    return make_message(to=address, subject=f"Code {code}", text=f"Your verification code is {code}.")


async def test_a_gateway_on_postgresql_serves_the_walk_through_and_survives_a_restart(
    base_make_settings: Callable[..., Settings], postgres_dsn: str
) -> None:
    settings = base_make_settings(database_url=postgres_dsn)
    assert settings.store_kind == "postgresql"
    async with run_gateway(settings) as gateway:
        address, token = await gateway.create_identity("pg-demo")
        await gateway.send(code_mail(address, "482913"), [address])
        async with gateway.client(token) as client:
            listing = (await client.get(f"/v1/identities/{address}/messages")).json()["messages"]
            assert [m["codes"][0]["value"] for m in listing] == ["482913"] and listing[0]["seen"] is False
            waited = await client.get(f"/v1/identities/{address}/wait", params={"timeout": 5})
            assert waited.status_code == 200 and waited.json()["codes"][0]["value"] == "482913"
            # Seen now: the next wait blocks for new mail instead of answering with the old code.
            again = await client.get(f"/v1/identities/{address}/wait", params={"timeout": 0})
            assert again.status_code == 408
        assert not (gateway.settings.data_dir / "identities.db").exists()  # nothing went to SQLite

    async with run_gateway(settings) as gateway:  # a new process would see exactly this
        await gateway.settled()
        async with gateway.client(token) as client:
            (message,) = (await client.get(f"/v1/identities/{address}/messages")).json()["messages"]
            assert message["seen"] is True
            # Two waits at once get the two new messages, one each.
            waits = [
                asyncio.create_task(client.get(f"/v1/identities/{address}/wait", params={"timeout": 20}))
                for _ in range(2)
            ]
            await gateway.send_many(
                [(code_mail(address, "111111"), [address]), (code_mail(address, "222222"), [address])]
            )
            answers = await asyncio.gather(*waits)
            assert sorted(a.json()["codes"][0]["value"] for a in answers) == ["111111", "222222"]
            deleted = await client.delete(f"/v1/identities/{address}/messages/{message['id']}")
            assert deleted.status_code == 204
            assert len((await client.get(f"/v1/identities/{address}/messages")).json()["messages"]) == 2
        assert len(await gateway.mailbox_ids()) == 2  # the deleted one left the mailbox
        rotated = await gateway.http.post(f"/v1/identities/{address}/rotate")
        async with gateway.client(token) as client:
            assert (await client.get(f"/v1/identities/{address}/messages")).status_code == 401
        async with gateway.client(rotated.json()["token"]) as client:
            assert (await client.get(f"/v1/identities/{address}/messages")).status_code == 200


def test_serve_on_an_unreachable_database_exits_2_with_one_clear_line(
    postgres_dsn: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    host_port = postgres_dsn.split("@", 1)[1].split("/", 1)[0]
    dead = postgres_dsn.replace(host_port, "127.0.0.1:1").replace("postgres@", "postgres:s3cret-pw@")
    monkeypatch.setenv("AGENTMAIL_DATABASE_URL", dead)  # nothing listens on port 1
    code = main(
        [
            "serve",
            "--data-dir",
            str(tmp_path / "data"),
            "--http-port",
            "0",
            "--smtp-port",
            "0",
            "--env-file",
            "/nonexistent",
        ]
    )
    err = capsys.readouterr().err
    assert code == 2, err
    assert "cannot connect" in err and "refusing to start" in err and "s3cret-pw" not in err


async def test_an_emptied_database_beside_a_used_mailbox_is_refused_not_refilled(
    base_make_settings: Callable[..., Settings],
    postgres_cluster: PostgresCluster,
    postgres_dsn: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    settings = base_make_settings(database_url=postgres_dsn)
    async with run_gateway(settings) as gateway:
        address, _ = await gateway.create_identity("pg-demo")
        await gateway.send(code_mail(address, "482913"), [address])
    name = postgres_dsn.rsplit("/", 1)[1]
    postgres_cluster.drop_database(name)  # the database is lost; the Maildir carries the store's mark
    postgres_cluster.create_database(name)

    monkeypatch.setenv("AGENTMAIL_DATABASE_URL", postgres_dsn)
    monkeypatch.setenv("AGENTMAIL_ADMIN_TOKEN", settings.admin_token.reveal())  # type: ignore[union-attr]
    argv = ["serve", "--data-dir", str(settings.data_dir), "--domain", settings.domain, "--env-file", "/nonexistent"]
    code = await asyncio.to_thread(main, [*argv, "--http-port", "0", "--smtp-port", "0"])
    err = capsys.readouterr().err
    assert code == 2, err
    assert "is missing, but one existed" in err and "store init --new" in err
    with psycopg.connect(postgres_dsn) as conn:  # nothing was made in the empty database
        assert conn.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").fetchone() == (0,)
