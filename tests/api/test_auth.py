"""Authentication and the identity boundary: who may call which route (DESIGN.md, "Who may do what").

No token or a bad one is 401; an identity token on another identity's path is 403 before
any lookup, so the answer is the same whether the identity or message exists or not. Tokens
never come back in error bodies, and a token in the query string authenticates nothing.
The last section checks the admin token the gateway generates when none is configured.
"""

from __future__ import annotations

import logging
import stat
from collections.abc import Callable
from typing import Any

import pytest

from gateway.config import Settings
from tests.conftest import ADMIN_TOKEN, DOMAIN, RunningGateway, assert_error, make_message, run_gateway

# --- 401: no token, bad token -----------------------------------------------------------

ROUTES_NEEDING_A_TOKEN = [
    pytest.param("GET", "/v1/identities", None, id="list-identities"),
    pytest.param("POST", "/v1/identities", {"local_part": "x"}, id="create-identity"),
    pytest.param("GET", f"/v1/identities/a@{DOMAIN}/messages", None, id="list-messages"),
    pytest.param("GET", f"/v1/identities/a@{DOMAIN}/messages/m1", None, id="get-message"),
    pytest.param("DELETE", f"/v1/identities/a@{DOMAIN}", None, id="delete-identity"),
    pytest.param("POST", "/v1/tokens", {"scope": "provision"}, id="create-token"),
    pytest.param("GET", "/v1/tokens", None, id="list-tokens"),
]


@pytest.mark.parametrize(("method", "path", "body"), ROUTES_NEEDING_A_TOKEN)
async def test_no_token_is_401(gateway: RunningGateway, method: str, path: str, body: Any) -> None:
    async with gateway.client(None) as client:
        assert_error(await client.request(method, path, json=body), 401, "unauthorized")


BAD_AUTHORIZATION = [
    # (Authorization header, the secret part that must not come back)
    pytest.param("Bearer am_not-a-token-we-ever-issued-0123", "am_not-a-token-we-ever-issued-0123", id="unknown-token"),
    pytest.param(f"Bearer {ADMIN_TOKEN}x", f"{ADMIN_TOKEN}x", id="admin-token-plus-one-char"),
    pytest.param(f"Bearer {ADMIN_TOKEN[:-1]}", ADMIN_TOKEN[:-1], id="admin-token-minus-one-char"),
    pytest.param("Bearer am_" + "A" * 400, "am_" + "A" * 400, id="very-long-token"),
    pytest.param("Bearer", None, id="bearer-without-token"),
    pytest.param(f"Basic {ADMIN_TOKEN}", ADMIN_TOKEN, id="wrong-scheme"),
    pytest.param(ADMIN_TOKEN, ADMIN_TOKEN, id="no-scheme"),
]


@pytest.mark.parametrize(("authorization", "secret"), BAD_AUTHORIZATION)
async def test_bad_token_is_401_and_never_echoed(
    gateway: RunningGateway, authorization: str, secret: str | None
) -> None:
    async with gateway.client(None) as client:
        response = await client.get("/v1/identities", headers={"Authorization": authorization})
    assert_error(response, 401, "unauthorized")
    if secret is not None:
        assert secret not in response.text
    assert ADMIN_TOKEN not in response.text


@pytest.mark.parametrize("name", ["token", "access_token", "api_key", "bearer"])
async def test_token_in_query_string_authenticates_nothing(gateway: RunningGateway, name: str) -> None:
    async with gateway.client(None) as client:
        response = await client.get("/v1/identities", params={name: ADMIN_TOKEN})
    assert_error(response, 401, "unauthorized")
    assert ADMIN_TOKEN not in response.text


async def test_query_string_admin_token_does_not_lift_an_identity_token(gateway: RunningGateway) -> None:
    _, token = await gateway.create_identity("alice")
    async with gateway.client(token) as client:
        response = await client.get("/v1/identities", params={"token": ADMIN_TOKEN})
    assert_error(response, 403, "forbidden")
    assert ADMIN_TOKEN not in response.text and token not in response.text


async def test_tokens_never_appear_in_error_bodies(gateway: RunningGateway) -> None:
    alice, alice_token = await gateway.create_identity("alice")
    bob, _ = await gateway.create_identity("bob")
    async with gateway.client(alice_token) as client:
        responses = [
            await client.get(f"/v1/identities/{bob}/messages"),  # 403
            await client.get(f"/v1/identities/{alice}/messages/nope"),  # 404
            await client.post("/v1/tokens", json={"scope": "provision"}),  # 403
        ]
    # A token pasted into the wrong place of a request is not repeated back either.
    responses += [
        await gateway.http.post("/v1/tokens", json={"scope": alice_token}),
        await gateway.http.post("/v1/identities", json={alice_token: True}),
        await gateway.http.post("/v1/identities", json={"label": alice_token, "ttl_seconds": alice_token}),
        await gateway.http.get(f"/v1/identities/{alice}/messages", params={"since": alice_token}),
        await gateway.http.get(f"/v1/identities/{alice}/messages", params={"before_id": alice_token}),
        await gateway.http.get(f"/v1/identities/{alice_token}/messages"),
    ]
    for response in responses:
        assert 400 <= response.status_code < 500, response.text
        assert alice_token not in response.text
        assert ADMIN_TOKEN not in response.text


# --- 403: an identity token on another identity's path ----------------------------------

OTHER_IDENTITY_ROUTES = [
    pytest.param("GET", "/messages", None, id="list-messages"),
    pytest.param("GET", "/messages/{id}", None, id="get-message"),
    pytest.param("PATCH", "/messages/{id}", {"seen": True}, id="mark-message"),
    pytest.param("GET", "/messages/{id}/raw", None, id="raw-message"),
    pytest.param("DELETE", "/messages/{id}", None, id="delete-message"),
    pytest.param("POST", "/rotate", None, id="rotate-identity"),
    pytest.param("DELETE", "", None, id="delete-identity"),
]


@pytest.mark.parametrize(("method", "suffix", "body"), OTHER_IDENTITY_ROUTES)
async def test_identity_token_on_another_identity_is_403_and_learns_nothing(
    gateway: RunningGateway, method: str, suffix: str, body: Any
) -> None:
    _, alice_token = await gateway.create_identity("alice")
    bob, bob_token = await gateway.create_identity("bob")
    await gateway.send(make_message(to=bob, subject="For Bob"), [bob])
    bobs_id = (await gateway.messages(bob))["messages"][0]["id"]

    answers = []
    async with gateway.client(alice_token) as client:
        for address, message_id in [
            (bob, bobs_id),  # exists, and is bob's
            (bob, "1700000000.M000000P1Q1.agentmail"),  # no such message
            (f"nobody@{DOMAIN}", bobs_id),  # no such identity
        ]:
            path = f"/v1/identities/{address}{suffix.format(id=message_id)}"
            response = await client.request(method, path, json=body)
            assert_error(response, 403, "forbidden")
            answers.append(response.json())
    assert answers[0] == answers[1] == answers[2]  # the same answer whatever exists

    # Nothing happened to bob: his token works, his message is there and unseen.
    listing = await gateway.messages(bob, bob_token)
    assert [(m["subject"], m["seen"]) for m in listing["messages"]] == [("For Bob", False)]


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        pytest.param("GET", "/v1/identities", None, id="list-identities"),
        pytest.param("POST", "/v1/identities", {"local_part": "sneaky"}, id="create-identity"),
        pytest.param("GET", "/v1/tokens", None, id="list-tokens"),
        pytest.param("POST", "/v1/tokens", {"scope": "provision"}, id="create-token"),
        pytest.param("DELETE", "/v1/tokens/tok_0123456789abcdef", None, id="delete-token"),
    ],
)
async def test_identity_token_cannot_manage(gateway: RunningGateway, method: str, path: str, body: Any) -> None:
    _, token = await gateway.create_identity("alice")
    async with gateway.client(token) as client:
        assert_error(await client.request(method, path, json=body), 403, "forbidden")
    names = [i["address"] for i in (await gateway.http.get("/v1/identities")).json()["identities"]]
    assert names == [f"alice@{DOMAIN}"]


async def test_own_path_is_matched_case_insensitively(gateway: RunningGateway) -> None:
    alice, token = await gateway.create_identity("alice")
    await gateway.send(make_message(to=alice, subject="Mine"), [alice])
    assert await gateway.subjects(alice.upper(), token) == ["Mine"]


# --- the generated admin token ----------------------------------------------------------


def _files_bytes(settings: Settings) -> bytes:
    return b"".join(p.read_bytes() for p in settings.data_dir.glob("identities.db*"))


async def test_generated_admin_token_is_private_and_only_its_hash_is_stored(
    make_settings: Callable[..., Settings], caplog: pytest.LogCaptureFixture
) -> None:
    settings = make_settings(admin_token=None)
    token_file = settings.data_dir / "admin-token"
    caplog.set_level(logging.INFO)

    async with run_gateway(settings) as gateway:
        token = token_file.read_text().strip()
        assert token.startswith("am_") and len(token) == 3 + 32
        assert stat.S_IMODE(token_file.stat().st_mode) == 0o600
        assert stat.S_IMODE(settings.data_dir.stat().st_mode) == 0o700
        assert stat.S_IMODE((settings.data_dir / "identities.db").stat().st_mode) == 0o600

        async with gateway.client(token) as admin:
            assert (await admin.get("/v1/identities")).status_code == 200
            assert (await admin.post("/v1/tokens", json={"scope": "provision"})).status_code == 201
        assert_error(await gateway.http.get("/v1/identities"), 401)  # the test default is not configured

        assert token.encode() not in _files_bytes(settings)
    assert token.encode() not in _files_bytes(settings)
    assert str(token_file) in caplog.text
    assert token not in caplog.text

    # A second start keeps the token: it is generated once, not on every start.
    async with run_gateway(settings) as gateway:
        assert token_file.read_text().strip() == token
        async with gateway.client(token) as admin:
            assert (await admin.get("/v1/identities")).status_code == 200


async def test_configured_admin_token_replaces_the_generated_one(make_settings: Callable[..., Settings]) -> None:
    generated_settings = make_settings(admin_token=None)
    async with run_gateway(generated_settings):
        generated = (generated_settings.data_dir / "admin-token").read_text().strip()

    async with run_gateway(make_settings()) as gateway:
        assert (await gateway.http.get("/v1/identities")).status_code == 200
        async with gateway.client(generated) as stale:
            assert_error(await stale.get("/v1/identities"), 401)
