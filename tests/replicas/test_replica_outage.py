"""A replica that loses PostgreSQL fails closed (503 + Retry-After) and recovers on its own, losing nothing."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.mailstack import MailStack
from tests.postgres import PostgresCluster
from tests.replicas.conftest import READY_TIMEOUT, Replicas, replica_processes, roles
from tests.serve import ServeProcess, wait_until

pytestmark = pytest.mark.timeout(300)


@pytest.fixture
def own_cluster() -> Iterator[PostgresCluster]:
    """A PostgreSQL cluster of this test's own: it is stopped and started under the replicas."""
    with PostgresCluster() as cluster:
        yield cluster


def _status(replica: ServeProcess, path: str) -> httpx.Response:
    with replica.client() as client:
        return client.get(path)


def test_replicas_answer_503_while_postgres_is_down_then_recover_and_lose_nothing(
    mailstack: MailStack, own_cluster: PostgresCluster, tmp_path: Path
) -> None:
    dsn = own_cluster.create_database("outage")
    gateways = replica_processes(mailstack, dsn, tmp_path)
    try:
        for gateway in gateways:
            gateway.start()
        group = Replicas(mailstack, dsn, gateways)
        reader = group.reader()
        tag = secrets.token_hex(3)
        address, token = group.create_identity(reader, f"outage-{tag}")
        group.send([(address, f"before {tag}")])

        own_cluster.pause()
        try:
            for gateway in gateways:
                down = _status(gateway, f"/v1/identities/{address}/messages")
                assert down.status_code == 503, down.text  # fails closed: no local fallback
                assert int(down.headers["Retry-After"]) > 0

                def unready(gateway: ServeProcess = gateway) -> bool:
                    answer = _status(gateway, "/ready")  # its own connection, checked every second
                    return answer.status_code == 503 and answer.json()["database"] == "unreachable"

                wait_until(unready, 30, f"{gateway.base_url} to say the database is unreachable")
            group.send([(address, f"during {tag}")])  # Dovecot keeps taking mail meanwhile
        finally:
            own_cluster.resume()

        wait_until(lambda: None not in roles(gateways), READY_TIMEOUT, lambda: f"both ready again: {roles(gateways)}")
        group.reader()  # one of them took the reader role again (waits until exactly one has)
        assert sorted(roles(gateways), key=str) == ["reader", "standby"]
        wanted = {f"before {tag}", f"during {tag}"}
        for gateway in gateways:

            def listed(gateway: ServeProcess = gateway) -> bool:
                with gateway.client(token) as client:
                    response = client.get(f"/v1/identities/{address}/messages")
                return response.status_code == 200 and {m["subject"] for m in response.json()["messages"]} == wanted

            wait_until(listed, READY_TIMEOUT, f"both mails listed on {gateway.base_url}")
    finally:
        for gateway in gateways:
            gateway.kill()
