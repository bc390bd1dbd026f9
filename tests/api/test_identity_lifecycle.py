"""An identity's life over the API: create, list, rotate, delete, and re-create a name.

Expiry itself is tested on the store with a fake clock (tests/unit/test_identities.py);
here only what the API shows of a TTL is checked, so nothing sleeps.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

import pytest

from tests.conftest import DOMAIN, RunningGateway, assert_error, make_message

RANDOM_NAME = re.compile(rf"^[a-z]+-[a-z]+-[a-z2-9]{{6}}@{re.escape(DOMAIN)}$")
TOKEN = re.compile(r"^am_[A-Za-z0-9_-]{32}$")  # 24 random bytes, base64url


async def create(gateway: RunningGateway, **body: Any) -> dict[str, Any]:
    response = await gateway.http.post("/v1/identities", json=body)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def instant(text: str) -> datetime:
    value = datetime.fromisoformat(text)
    assert value.tzinfo is not None and value.utcoffset() == timedelta(0), text
    return value


# --- creating ---------------------------------------------------------------------------


async def test_create_with_a_random_name(gateway: RunningGateway) -> None:
    created = await create(gateway)
    assert RANDOM_NAME.match(created["address"]), created
    assert TOKEN.match(created["token"])
    assert created["expires_at"] is None and created["label"] is None
    instant(created["created_at"])
    assert created["address"] != (await create(gateway))["address"]


@pytest.mark.parametrize(
    ("local_part", "address"),
    [
        pytest.param("demo", f"demo@{DOMAIN}", id="plain"),
        pytest.param("Demo.Agent_1", f"demo.agent_1@{DOMAIN}", id="lowercased"),
        pytest.param("x" * 64, f"{'x' * 64}@{DOMAIN}", id="64-chars"),
        pytest.param("9-lives", f"9-lives@{DOMAIN}", id="starts-with-digit"),
    ],
)
async def test_create_with_a_local_part(gateway: RunningGateway, local_part: str, address: str) -> None:
    created = await create(gateway, local_part=local_part, label="signup test")
    assert created["address"] == address
    assert created["label"] == "signup test"
    assert TOKEN.match(created["token"])
    assert await gateway.subjects(address, created["token"]) == []


async def test_taken_name_is_409(gateway: RunningGateway) -> None:
    await create(gateway, local_part="demo")
    assert_error(await gateway.http.post("/v1/identities", json={"local_part": "demo"}), 409, "conflict")
    assert_error(await gateway.http.post("/v1/identities", json={"local_part": "DEMO"}), 409, "conflict")
    # force overrides a quarantine, never a live identity.
    assert_error(await gateway.http.post("/v1/identities", json={"local_part": "demo", "force": True}), 409)


@pytest.mark.parametrize(
    "local_part",
    [
        pytest.param("postmaster", id="reserved-role"),
        pytest.param("Abuse", id="reserved-role-any-case"),
        pytest.param("catchall", id="catch-all"),
        pytest.param("a+b", id="plus"),
        pytest.param("-x", id="leading-dash"),
        pytest.param(".x", id="leading-dot"),
        pytest.param("a..b", id="double-dot"),
        pytest.param("x.", id="trailing-dot"),
        pytest.param("x" * 65, id="65-chars"),
        pytest.param("", id="empty"),
        pytest.param("a b", id="space"),
        pytest.param("a@b", id="at-sign"),
        pytest.param("ünïcode", id="non-ascii"),
        pytest.param("\u212aelvin", id="kelvin-sign"),  # lowercases to "kelvin": refused, not folded
        pytest.param('"quoted"', id="quoted"),
    ],
)
async def test_invalid_or_reserved_name_is_422(gateway: RunningGateway, local_part: str) -> None:
    response = await gateway.http.post("/v1/identities", json={"local_part": local_part})
    assert_error(response, 422, "invalid_local_part")
    assert (await gateway.http.get("/v1/identities")).json()["identities"] == []


async def test_ttl_is_reflected_in_expires_at(gateway: RunningGateway) -> None:
    created = await create(gateway, ttl_seconds=3600)
    assert instant(created["expires_at"]) - instant(created["created_at"]) == timedelta(seconds=3600)
    listed = (await gateway.http.get("/v1/identities")).json()["identities"]
    assert [(i["address"], i["expires_at"]) for i in listed] == [(created["address"], created["expires_at"])]


@pytest.mark.parametrize(
    "ttl",
    [
        pytest.param(0, id="zero"),
        pytest.param(-1, id="negative"),
        pytest.param(1.5, id="fraction"),
        pytest.param("sixty", id="string"),
        pytest.param([60], id="list"),
        pytest.param(10**12, id="centuries"),
    ],
)
async def test_bad_ttl_is_400(gateway: RunningGateway, ttl: object) -> None:
    assert_error(await gateway.http.post("/v1/identities", json={"ttl_seconds": ttl}), 400, "invalid_request")
    assert (await gateway.http.get("/v1/identities")).json()["identities"] == []


# --- listing ----------------------------------------------------------------------------


async def test_admin_lists_identities_in_pages_without_tokens(gateway: RunningGateway) -> None:
    tokens = [(await create(gateway, local_part=name))["token"] for name in ("c", "a", "b")]
    first = await gateway.http.get("/v1/identities", params={"limit": 2})
    assert first.status_code == 200
    body = first.json()
    assert [i["address"] for i in body["identities"]] == [f"a@{DOMAIN}", f"b@{DOMAIN}"]
    assert body["next_after"] is not None
    second = (await gateway.http.get("/v1/identities", params={"limit": 2, "after": body["next_after"]})).json()
    assert [i["address"] for i in second["identities"]] == [f"c@{DOMAIN}"]
    assert second["next_after"] is None
    for response_text in (first.text, str(second)):
        assert all(token not in response_text for token in tokens)
    assert all("token" not in i for i in body["identities"] + second["identities"])


# --- rotating ---------------------------------------------------------------------------


@pytest.mark.parametrize("by", ["admin", "self"])
async def test_rotate_kills_the_old_token_at_once(gateway: RunningGateway, by: str) -> None:
    address, old = await gateway.create_identity("demo")
    async with gateway.client(old) as caller:
        client = gateway.http if by == "admin" else caller
        response = await client.post(f"/v1/identities/{address}/rotate")
        assert response.status_code == 200, response.text
        assert response.json()["address"] == address
        new = response.json()["token"]
        assert TOKEN.match(new) and new != old
        assert_error(await caller.get(f"/v1/identities/{address}/messages"), 401, "unauthorized")
        assert_error(await caller.post(f"/v1/identities/{address}/rotate"), 401)
    assert await gateway.subjects(address, new) == []


async def test_rotate_or_delete_unknown_identity_is_404_for_admin(gateway: RunningGateway) -> None:
    assert_error(await gateway.http.post(f"/v1/identities/nobody@{DOMAIN}/rotate"), 404, "not_found")
    assert_error(await gateway.http.delete(f"/v1/identities/nobody@{DOMAIN}"), 404, "not_found")
    assert_error(await gateway.http.delete("/v1/identities/someone@elsewhere.example"), 404, "not_found")


# --- deleting and re-creating -----------------------------------------------------------


@pytest.mark.parametrize("by", ["admin", "self"])
async def test_delete_kills_the_token_and_quarantines_the_name(gateway: RunningGateway, by: str) -> None:
    address, token = await gateway.create_identity("demo")
    await gateway.send(make_message(to=address, subject="Before delete"), [address])
    async with gateway.client(token) as caller:
        client = gateway.http if by == "admin" else caller
        assert (await client.delete(f"/v1/identities/{address}")).status_code == 204
        assert_error(await caller.get(f"/v1/identities/{address}/messages"), 401, "unauthorized")
        assert_error(await caller.delete(f"/v1/identities/{address}"), 401)

    assert (await gateway.http.get("/v1/identities")).json()["identities"] == []
    assert_error(await gateway.http.get(f"/v1/identities/{address}/messages"), 404, "not_found")
    assert_error(await gateway.http.delete(f"/v1/identities/{address}"), 404)
    assert len(await gateway.mailbox_ids()) == 1  # its mail stays in the mailbox until retention

    response = await gateway.http.post("/v1/identities", json={"local_part": "demo"})
    assert "quarantined" in assert_error(response, 409, "conflict")["detail"]


async def test_forced_recreate_never_sees_the_old_mail(gateway: RunningGateway) -> None:
    address, old_token = await gateway.create_identity("demo")
    await gateway.send(make_message(to=address, subject="Code for the old owner: 111111"), [address])
    old_id = (await gateway.messages(address, old_token))["messages"][0]["id"]
    assert (await gateway.http.delete(f"/v1/identities/{address}")).status_code == 204

    created = await create(gateway, local_part="demo", force=True)
    assert created["address"] == address
    new_token = created["token"]
    assert await gateway.subjects(address, new_token) == []
    assert await gateway.subjects(address) == []  # the admin's view of the new identity too
    async with gateway.client(new_token) as client:
        assert_error(await client.get(f"/v1/identities/{address}/messages/{old_id}"), 404)
        assert_error(await client.get(f"/v1/identities/{address}/messages/{old_id}/raw"), 404)
        assert_error(await client.patch(f"/v1/identities/{address}/messages/{old_id}", json={"seen": True}), 404)
        assert_error(await client.delete(f"/v1/identities/{address}/messages/{old_id}"), 404)
        assert_error(await client.get(f"/v1/identities/{address}/messages", params={"after_id": old_id}), 404)
    async with gateway.client(old_token) as old:
        assert_error(await old.get(f"/v1/identities/{address}/messages"), 401)

    await gateway.send(make_message(to=address, subject="For the new owner"), [address])
    assert await gateway.subjects(address, new_token) == ["For the new owner"]
