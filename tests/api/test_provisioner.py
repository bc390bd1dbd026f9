"""Provisioner tokens: made by the admin, they create identities and manage only their own.

A provisioner never reads mail, never forces a quarantined name, and stops working the
moment the admin revokes it (DESIGN.md, "Who may do what").
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.conftest import DOMAIN, RunningGateway, assert_error, make_message


async def new_provisioner(gateway: RunningGateway, label: str | None = None) -> tuple[str, str]:
    """(token id, token) of a new provisioner made by the admin."""
    response = await gateway.http.post("/v1/tokens", json={"scope": "provision", "label": label})
    assert response.status_code == 201, response.text
    body = response.json()
    return body["id"], body["token"]


async def create_as(client: httpx.AsyncClient, local_part: str) -> tuple[str, str]:
    response = await client.post("/v1/identities", json={"local_part": local_part})
    assert response.status_code == 201, response.text
    return response.json()["address"], response.json()["token"]


async def listed(client: httpx.AsyncClient) -> list[str]:
    response = await client.get("/v1/identities")
    assert response.status_code == 200, response.text
    return [i["address"] for i in response.json()["identities"]]


# --- the token itself -------------------------------------------------------------------


async def test_admin_creates_lists_and_revokes_provisioner_tokens(gateway: RunningGateway) -> None:
    response = await gateway.http.post("/v1/tokens", json={"scope": "provision", "label": "ci"})
    assert response.status_code == 201, response.text
    created = response.json()
    assert created["scope"] == "provision" and created["label"] == "ci"
    assert created["token"].startswith("am_") and created["id"].startswith("tok_")

    tokens = await gateway.http.get("/v1/tokens")
    assert tokens.status_code == 200
    assert [(t["id"], t["label"]) for t in tokens.json()] == [(created["id"], "ci")]
    assert created["token"] not in tokens.text  # never the token itself

    async with gateway.client(created["token"]) as provisioner:
        assert (await provisioner.get("/v1/identities")).status_code == 200
        assert (await gateway.http.delete(f"/v1/tokens/{created['id']}")).status_code == 204
        assert_error(await provisioner.get("/v1/identities"), 401, "unauthorized")
        assert_error(await provisioner.post("/v1/identities", json={}), 401, "unauthorized")
    assert (await gateway.http.get("/v1/tokens")).json() == []
    assert_error(await gateway.http.delete(f"/v1/tokens/{created['id']}"), 404, "not_found")


async def test_revoking_a_provisioner_keeps_its_identities(gateway: RunningGateway) -> None:
    token_id, token = await new_provisioner(gateway)
    async with gateway.client(token) as provisioner:
        address, identity_token = await create_as(provisioner, "kept")
    assert (await gateway.http.delete(f"/v1/tokens/{token_id}")).status_code == 204
    assert await gateway.subjects(address, identity_token) == []  # its token still works
    assert await listed(gateway.http) == [address]


async def test_provisioner_cannot_manage_tokens(gateway: RunningGateway) -> None:
    token_id, token = await new_provisioner(gateway)
    async with gateway.client(token) as provisioner:
        assert_error(await provisioner.post("/v1/tokens", json={"scope": "provision"}), 403, "forbidden")
        assert_error(await provisioner.get("/v1/tokens"), 403, "forbidden")
        assert_error(await provisioner.delete(f"/v1/tokens/{token_id}"), 403, "forbidden")
        assert (await provisioner.get("/v1/identities")).status_code == 200  # not revoked


# --- identities it manages --------------------------------------------------------------


async def test_provisioner_lists_only_its_own_identities(gateway: RunningGateway) -> None:
    _, first = await new_provisioner(gateway, "first")
    _, second = await new_provisioner(gateway, "second")
    admins, _ = await gateway.create_identity("by-admin")
    async with gateway.client(first) as p1, gateway.client(second) as p2:
        mine = [(await create_as(p1, name))[0] for name in ("p1-a", "p1-b", "p1-c")]
        theirs, _ = await create_as(p2, "p2-a")

        assert await listed(p1) == mine
        assert await listed(p2) == [theirs]
        # Paging stays within its own identities.
        page = (await p1.get("/v1/identities", params={"limit": 2})).json()
        assert [i["address"] for i in page["identities"]] == mine[:2]
        rest = (await p1.get("/v1/identities", params={"limit": 2, "after": page["next_after"]})).json()
        assert [i["address"] for i in rest["identities"]] == mine[2:]
        assert rest["next_after"] is None
    assert sorted(await listed(gateway.http)) == sorted([admins, *mine, theirs])


async def test_provisioner_rotates_and_deletes_its_own(gateway: RunningGateway) -> None:
    _, token = await new_provisioner(gateway)
    async with gateway.client(token) as provisioner:
        address, old_token = await create_as(provisioner, "mine")
        rotated = await provisioner.post(f"/v1/identities/{address}/rotate")
        assert rotated.status_code == 200, rotated.text
        new_token = rotated.json()["token"]
        async with gateway.client(old_token) as old:
            assert_error(await old.get(f"/v1/identities/{address}/messages"), 401)
        assert await gateway.subjects(address, new_token) == []

        assert (await provisioner.delete(f"/v1/identities/{address}")).status_code == 204
        async with gateway.client(new_token) as gone:
            assert_error(await gone.get(f"/v1/identities/{address}/messages"), 401)
        assert await listed(provisioner) == []


@pytest.mark.parametrize(
    ("method", "suffix"),
    [pytest.param("POST", "/rotate", id="rotate"), pytest.param("DELETE", "", id="delete")],
)
async def test_provisioner_cannot_touch_identities_it_did_not_create(
    gateway: RunningGateway, method: str, suffix: str
) -> None:
    _, mine = await new_provisioner(gateway, "mine")
    _, other = await new_provisioner(gateway, "other")
    admins, admins_token = await gateway.create_identity("by-admin")
    async with gateway.client(other) as p2:
        others, others_token = await create_as(p2, "by-other")

    answers = []
    async with gateway.client(mine) as provisioner:
        for address in (admins, others, f"nobody@{DOMAIN}"):
            response = await provisioner.request(method, f"/v1/identities/{address}{suffix}")
            answers.append(assert_error(response, 403, "forbidden"))
    assert answers[0] == answers[1] == answers[2]  # exists or not: the same answer

    for address, token in ((admins, admins_token), (others, others_token)):
        assert await gateway.subjects(address, token) == []  # untouched: the old token works


MAIL_ROUTES = [
    pytest.param("GET", "/messages", None, id="list"),
    pytest.param("GET", "/messages/{id}", None, id="get"),
    pytest.param("GET", "/messages/{id}/raw", None, id="raw"),
    pytest.param("PATCH", "/messages/{id}", {"seen": True}, id="mark"),
    pytest.param("DELETE", "/messages/{id}", None, id="delete"),
]


@pytest.mark.parametrize(("method", "suffix", "body"), MAIL_ROUTES)
async def test_provisioner_never_reads_mail(gateway: RunningGateway, method: str, suffix: str, body: Any) -> None:
    _, token = await new_provisioner(gateway)
    async with gateway.client(token) as provisioner:
        address, identity_token = await create_as(provisioner, "mine")
        await gateway.send(make_message(to=address, subject="Code 123456"), [address])
        message_id = (await gateway.messages(address, identity_token))["messages"][0]["id"]

        path = f"/v1/identities/{address}{suffix.format(id=message_id)}"
        response = await provisioner.request(method, path, json=body)
        assert_error(response, 403, "forbidden")
        assert "123456" not in response.text

    listing = await gateway.messages(address, identity_token)
    assert [(m["subject"], m["seen"]) for m in listing["messages"]] == [("Code 123456", False)]


async def test_provisioner_cannot_force_a_quarantined_name(gateway: RunningGateway) -> None:
    _, token = await new_provisioner(gateway)
    async with gateway.client(token) as provisioner:
        address, _ = await create_as(provisioner, "again")
        assert (await provisioner.delete(f"/v1/identities/{address}")).status_code == 204
        assert_error(await provisioner.post("/v1/identities", json={"local_part": "again"}), 409, "conflict")
        forced = await provisioner.post("/v1/identities", json={"local_part": "again", "force": True})
        assert_error(forced, 403, "forbidden")
        # Even for a free name, force is the admin's alone.
        assert_error(await provisioner.post("/v1/identities", json={"local_part": "fresh", "force": True}), 403)
        assert await listed(provisioner) == []
