"""Unknown bearer tokens are throttled per client address; valid tokens never are (finding 7 of issue 13).

The client address is the TCP peer unless the peer is a trusted proxy (AGENTMAIL_TRUSTED_PROXIES):
a client's own X-Forwarded-For names nobody, so it cannot start afresh with each guess.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from gateway.api.throttle import MAX_BAD_TOKENS
from gateway.config import SettingError, Settings
from gateway.serve import proxy_options
from tests.conftest import ADMIN_TOKEN, RunningGateway, assert_error, mailstack_settings, run_gateway
from tests.mailstack import MailStack
from tests.ui.test_sessions import MAX_FAILED_LOGINS, csrf_of, login, ui_client

WRONG = "am_wrong-token-00000000000000000000"


def bearer(token: str, **headers: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}", **headers}


async def exhaust(http: httpx.AsyncClient, count: int = MAX_BAD_TOKENS, **headers: str) -> None:
    """Present `count` unknown tokens (each answered 401), a fresh X-Forwarded-For with each when asked."""
    for i in range(count):
        extra = {k: v.format(i=i) for k, v in headers.items()}
        response = await http.get("/v1/identities", headers=bearer(f"{WRONG}{i}", **extra))
        assert_error(response, 401, "unauthorized")


def assert_throttled(response: httpx.Response) -> None:
    body = assert_error(response, 429, "rate_limited")
    assert 1 <= int(response.headers["retry-after"]) <= 60
    assert body["retry_after_sec"] == int(response.headers["retry-after"])


async def test_unknown_tokens_past_the_limit_are_429(gateway: RunningGateway) -> None:
    await exhaust(gateway.http)
    assert_throttled(await gateway.http.get("/v1/identities", headers=bearer(WRONG)))
    over_long = "am_" + "x" * 5000  # refused before any lookup, counted all the same
    assert_throttled(await gateway.http.get("/v1/identities", headers=bearer(over_long)))


async def test_a_valid_token_is_never_throttled_from_the_same_address(gateway: RunningGateway) -> None:
    address, token = await gateway.create_identity("good")
    await exhaust(gateway.http)
    for _ in range(3):  # interleaved with more bad ones: each good request is served at once
        assert_throttled(await gateway.http.get("/v1/identities", headers=bearer(WRONG)))
        assert (await gateway.http.get("/v1/identities", headers=bearer(ADMIN_TOKEN))).status_code == 200
        listing = await gateway.http.get(f"/v1/identities/{address}/messages", headers=bearer(token))
        assert listing.status_code == 200, listing.text
    created = await gateway.http.post("/v1/identities", json={}, headers=bearer(ADMIN_TOKEN))
    assert created.status_code == 201


async def test_replicas_on_one_database_count_together(
    base_make_settings: Callable[..., Settings], postgres_dsn: str, mailstack: MailStack, tmp_path: Path
) -> None:
    # Replicas read one Dovecot: the embedded intake is one gateway per database (it refuses a second).
    stack = mailstack_settings(mailstack)
    stack.pop("push_listen", None)  # Dovecot pushes to one gateway: the first (as in production)
    stack.pop("push_secret", None)
    first = base_make_settings(database_url=postgres_dsn, **mailstack_settings(mailstack))
    second = base_make_settings(database_url=postgres_dsn, data_dir=tmp_path / "replica", **stack)
    async with run_gateway(first) as one, run_gateway(second) as other:
        await exhaust(one.http)
        assert_throttled(await other.http.get("/v1/identities", headers=bearer(WRONG)))
        assert (await other.http.get("/v1/identities", headers=bearer(ADMIN_TOKEN))).status_code == 200


async def test_requests_without_a_token_are_not_counted(gateway: RunningGateway) -> None:
    async with gateway.client(None) as anonymous:
        for _ in range(MAX_BAD_TOKENS + 5):
            assert_error(await anonymous.get("/v1/identities"), 401, "unauthorized")
        assert_error(await anonymous.get("/v1/identities", headers=bearer(WRONG)), 401)


async def test_clients_are_counted_apart(gateway: RunningGateway) -> None:
    def from_address(host: str) -> httpx.AsyncClient:
        transport = httpx.ASGITransport(app=gateway.app, client=(host, 40000))
        return httpx.AsyncClient(transport=transport, base_url="http://gateway")

    async with from_address("192.0.2.1") as first, from_address("192.0.2.2") as second:
        await exhaust(first)
        assert_throttled(await first.get("/v1/identities", headers=bearer(WRONG)))
        assert_error(await second.get("/v1/identities", headers=bearer(WRONG)), 401)


async def test_a_fresh_x_forwarded_for_per_guess_does_not_start_afresh(gateway: RunningGateway) -> None:
    await exhaust(gateway.http, **{"X-Forwarded-For": "203.0.113.{i}"})
    response = await gateway.http.get("/v1/identities", headers=bearer(WRONG, **{"X-Forwarded-For": "198.51.100.1"}))
    assert_throttled(response)


async def test_a_fresh_x_forwarded_for_per_login_does_not_start_afresh(gateway: RunningGateway) -> None:
    _, token = await gateway.create_identity("alice")
    async with ui_client(gateway) as client:
        csrf = csrf_of((await client.get("/ui/login")).text)
        for i in range(MAX_FAILED_LOGINS):
            wrong = await client.post(
                "/ui/login", data={"token": WRONG, "csrf": csrf}, headers={"X-Forwarded-For": f"203.0.113.{i}"}
            )
            assert wrong.status_code == 401
        again = await client.post(
            "/ui/login", data={"token": token, "csrf": csrf}, headers={"X-Forwarded-For": "198.51.100.1"}
        )
    assert again.status_code == 429


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


async def test_x_forwarded_for_never_reaches_the_access_log(gateway: RunningGateway) -> None:
    # uvicorn's access line names the client: from an untrusted peer, never what it claims to be.
    access = logging.getLogger("uvicorn.access")
    records, level = _Records(), access.level
    access.addHandler(records)
    access.setLevel(logging.INFO)
    try:
        response = await gateway.http.get("/health", headers={"X-Forwarded-For": "forged-client GET /v1/admin"})
        assert response.status_code == 200
        deadline = time.monotonic() + 5
        while not any("/health" in line for line in records.lines) and time.monotonic() < deadline:
            await asyncio.sleep(0.01)  # the line is written as the response ends: poll, bounded
    finally:
        access.removeHandler(records)
        access.setLevel(level)
    (line,) = [line for line in records.lines if "/health" in line]
    assert line.startswith("127.0.0.1:") and "forged" not in line, line


async def test_a_trusted_proxy_names_the_client(make_settings: Callable[..., Settings]) -> None:
    # The test client connects from 127.0.0.1: as the configured proxy, its X-Forwarded-For is believed.
    async with run_gateway(make_settings(trusted_proxies="127.0.0.1, 10.0.0.0/8")) as gateway:
        await exhaust(gateway.http, **{"X-Forwarded-For": "203.0.113.7"})
        throttled = await gateway.http.get(
            "/v1/identities", headers=bearer(WRONG, **{"X-Forwarded-For": "203.0.113.7"})
        )
        assert_throttled(throttled)
        # Another client behind the proxy, and a client that appended a made-up hop itself:
        # the right-most address not a proxy's is the one the proxy saw.
        for forwarded in ("198.51.100.9", "203.0.113.7, 198.51.100.9", "203.0.113.7, 198.51.100.9, 10.1.2.3"):
            response = await gateway.http.get("/v1/identities", headers=bearer(WRONG, **{"X-Forwarded-For": forwarded}))
            assert response.status_code == 401, (forwarded, response.text)
        _, token = await gateway.create_identity("bob")
        async with ui_client(gateway, headers={"X-Forwarded-For": "203.0.113.8"}) as client:  # /ui logins alike
            csrf = csrf_of((await client.get("/ui/login")).text)
            for _ in range(MAX_FAILED_LOGINS):
                assert (await client.post("/ui/login", data={"token": WRONG, "csrf": csrf})).status_code == 401
            assert (await client.post("/ui/login", data={"token": token, "csrf": csrf})).status_code == 429
        async with ui_client(gateway, headers={"X-Forwarded-For": "203.0.113.9"}) as client:
            await login(client, token)


def test_forwarded_headers_are_ignored_unless_a_proxy_is_trusted(make_settings: Callable[..., Settings]) -> None:
    assert proxy_options(make_settings()) == {"proxy_headers": False, "forwarded_allow_ips": []}
    trusted = proxy_options(make_settings(trusted_proxies="10.0.0.1,fd00::/8"))
    assert trusted == {"proxy_headers": True, "forwarded_allow_ips": ["10.0.0.1", "fd00::/8"]}


@pytest.mark.parametrize("value", ["proxy.local", "10.0.0.0/33", "*", "127.0.0.1,nope"])
def test_a_trusted_proxy_must_be_an_address_or_network(make_settings: Callable[..., Settings], value: str) -> None:
    with pytest.raises(SettingError, match=r"AGENTMAIL_TRUSTED_PROXIES=.*is not an IP address or network"):
        make_settings(trusted_proxies=value)
