"""Bad input gets a clear 4xx as JSON `{"error", "detail"}`, never a 500 (DESIGN.md, "Bounded everything").

Every case is sent with the admin token, so what is judged is the input, not the caller;
`{addr}` and `{id}` stand for a real identity and one of its messages.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.conftest import DOMAIN, RunningGateway, assert_error, make_message

JSON = {"Content-Type": "application/json"}
MESSAGE = "/v1/identities/{addr}/messages/{id}"
BIG = 65 * 1024  # over the 64 KiB request cap


async def target(gateway: RunningGateway) -> tuple[str, str]:
    """An identity with one message: (address, message id)."""
    address, token = await gateway.create_identity("target")
    await gateway.send(make_message(to=address, subject="Hi"), [address])
    return address, (await gateway.messages(address, token))["messages"][0]["id"]


async def on_target(gateway: RunningGateway, method: str, path: str, **kwargs: Any) -> Any:
    """Send a request about a fresh `target` identity: `{addr}` and `{id}` in `path` are filled in."""
    address, message_id = await target(gateway)
    return await gateway.http.request(method, path.format(addr=address, id=message_id), **kwargs)


# --- bodies -----------------------------------------------------------------------------

BAD_BODIES = [
    # (method, path, request kwargs, status)
    pytest.param("POST", "/v1/identities", {"content": b"{not json", "headers": JSON}, 400, id="malformed-json"),
    pytest.param("POST", "/v1/identities", {"content": b'{"local_part": "x"', "headers": JSON}, 400, id="truncated"),
    pytest.param("POST", "/v1/identities", {"content": b"\xff\xfe\x00", "headers": JSON}, 400, id="not-utf8"),
    pytest.param("POST", "/v1/identities", {"content": b"", "headers": JSON}, 400, id="empty-body"),
    pytest.param("POST", "/v1/identities", {"json": None}, 400, id="null"),
    pytest.param("POST", "/v1/identities", {"json": [1, 2]}, 400, id="array"),
    pytest.param("POST", "/v1/identities", {"json": "demo"}, 400, id="string"),
    pytest.param("POST", "/v1/identities", {"json": {"local_part": 5}}, 400, id="local-part-number"),
    pytest.param("POST", "/v1/identities", {"json": {"local_part": ["a"]}}, 400, id="local-part-list"),
    pytest.param("POST", "/v1/identities", {"json": {"ttl_seconds": {}}}, 400, id="ttl-object"),
    pytest.param("POST", "/v1/identities", {"json": {"label": 5}}, 400, id="label-number"),
    pytest.param("POST", "/v1/identities", {"json": {"label": "x" * 201}}, 400, id="label-too-long"),
    pytest.param("POST", "/v1/identities", {"json": {"force": "please"}}, 400, id="force-string"),
    pytest.param("POST", "/v1/identities", {"json": {"local_part": "x", "admin": True}}, 400, id="unknown-field"),
    pytest.param("POST", "/v1/identities", {"json": {"localpart": "x"}}, 400, id="typo-field"),
    pytest.param("PATCH", MESSAGE, {"json": {}}, 400, id="seen-missing"),
    pytest.param("PATCH", MESSAGE, {"json": {"seen": "maybe"}}, 400, id="seen-string"),
    pytest.param("PATCH", MESSAGE, {"json": {"seen": None}}, 400, id="seen-null"),
    pytest.param("PATCH", MESSAGE, {"json": {"seen": True, "deleted": True}}, 400, id="seen-extra"),
    pytest.param("PATCH", MESSAGE, {"content": b"{", "headers": JSON}, 400, id="patch-bad"),
    pytest.param("POST", "/v1/tokens", {"json": {}}, 400, id="scope-missing"),
    pytest.param("POST", "/v1/tokens", {"json": {"scope": "admin"}}, 400, id="scope-admin"),
    pytest.param("POST", "/v1/tokens", {"json": {"scope": "provision", "admin": True}}, 400, id="token-extra"),
    pytest.param("POST", "/v1/identities", {"json": {"label": "x" * BIG}}, 413, id="identity-body-over-64k"),
    pytest.param("POST", "/v1/tokens", {"json": {"label": "x" * BIG}}, 413, id="token-body-over-64k"),
    pytest.param("PATCH", MESSAGE, {"json": {"seen": True, "x": "x" * BIG}}, 413, id="patch-over-64k"),
]


@pytest.mark.parametrize(("method", "path", "kwargs", "status"), BAD_BODIES)
async def test_bad_body(gateway: RunningGateway, method: str, path: str, kwargs: dict[str, Any], status: int) -> None:
    assert_error(await on_target(gateway, method, path, **kwargs), status)
    assert [i["address"] for i in (await gateway.http.get("/v1/identities")).json()["identities"]] == [
        f"target@{DOMAIN}"
    ]  # nothing was created


async def test_body_over_64k_without_content_length_is_413(gateway: RunningGateway) -> None:
    async def chunks() -> AsyncIterator[bytes]:
        yield b'{"label": "'
        for _ in range(100):
            yield b"x" * 1024
        yield b'"}'

    response = await gateway.http.post("/v1/identities", content=chunks(), headers=JSON)
    assert "content-length" not in response.request.headers
    assert_error(response, 413, "too_large")


async def test_validation_detail_names_the_field(gateway: RunningGateway) -> None:
    detail = assert_error(await gateway.http.post("/v1/identities", json={"ttl_seconds": "soon"}), 400)["detail"]
    assert "ttl_seconds" in detail
    response = await gateway.http.post("/v1/identities", json={"local_part": "x", "admin": 1})
    detail = assert_error(response, 400)["detail"]
    assert "unknown field" in detail


# --- paths and query strings ------------------------------------------------------------

BAD_ADDRESSES = [
    pytest.param("not-an-address", id="no-at"),
    pytest.param("a@b@c", id="two-ats"),
    pytest.param("a" * 300 + f"@{DOMAIN}", id="very-long"),
    pytest.param(f"@{DOMAIN}", id="no-local-part"),
    pytest.param("alice@", id="no-domain"),
    pytest.param(f"%20alice@{DOMAIN}", id="leading-space"),
    pytest.param(f"<alice@{DOMAIN}>", id="angle-brackets"),
    pytest.param(f"%22alice%22@{DOMAIN}", id="quoted"),
    pytest.param(f"=%3Futf-8%3Fq%3Falice%3F=@{DOMAIN}", id="encoded-word"),
]


@pytest.mark.parametrize("address", BAD_ADDRESSES)
@pytest.mark.parametrize(
    ("method", "suffix"),
    [
        pytest.param("GET", "/messages", id="list"),
        pytest.param("GET", "/messages/m1", id="get"),
        pytest.param("POST", "/rotate", id="rotate"),
        pytest.param("DELETE", "", id="delete"),
    ],
)
async def test_bad_address_in_path_is_400(gateway: RunningGateway, address: str, method: str, suffix: str) -> None:
    response = await gateway.http.request(method, f"/v1/identities/{address}{suffix}")
    assert_error(response, 400, "invalid_request")


BAD_QUERIES = [
    pytest.param("/v1/identities/{addr}/messages", {"limit": 0}, id="limit-0"),
    pytest.param("/v1/identities/{addr}/messages", {"limit": -1}, id="limit-negative"),
    pytest.param("/v1/identities/{addr}/messages", {"limit": 1000}, id="limit-1000"),
    pytest.param("/v1/identities/{addr}/messages", {"limit": "abc"}, id="limit-abc"),
    pytest.param("/v1/identities/{addr}/messages", {"limit": "1.5"}, id="limit-fraction"),
    pytest.param("/v1/identities/{addr}/messages", {"before_id": "{id}", "after_id": "{id}"}, id="before-and-after"),
    pytest.param("/v1/identities/{addr}/messages", {"since": "2026-01-01T00:00:00"}, id="since-naive"),
    pytest.param("/v1/identities/{addr}/messages", {"since": "soon"}, id="since-garbage"),
    pytest.param("/v1/identities/{addr}/messages", {"from": "x" * 257}, id="from-too-long"),
    pytest.param("/v1/identities/{addr}/messages", {"subject": "x" * 257}, id="subject-too-long"),
    pytest.param("/v1/identities", {"limit": 0}, id="identities-limit-0"),
    pytest.param("/v1/identities", {"limit": 1001}, id="identities-limit-1001"),
    pytest.param("/v1/identities", {"limit": "all"}, id="identities-limit-all"),
]


@pytest.mark.parametrize(("path", "params"), BAD_QUERIES)
async def test_bad_query_is_400(gateway: RunningGateway, path: str, params: dict[str, Any]) -> None:
    address, message_id = await target(gateway)
    params = {k: v.format(id=message_id) if isinstance(v, str) else v for k, v in params.items()}
    response = await gateway.http.get(path.format(addr=address), params=params)
    assert_error(response, 400, "invalid_request")


@pytest.mark.parametrize("limit", [1, 200])
async def test_limit_bounds_are_accepted(gateway: RunningGateway, limit: int) -> None:
    address, _ = await target(gateway)
    assert (await gateway.messages(address, limit=limit))["messages"]


# --- routes and methods -----------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "/nope",
        "/v1",
        "/v2/identities",
        "/v1/identities/{addr}/messages/{id}/raw/extra",
        "/v1/identities/{addr}/inbox",
        "/v1/tokens/a/b",
    ],
)
async def test_unknown_route_is_404_json(gateway: RunningGateway, path: str) -> None:
    assert_error(await on_target(gateway, "GET", path), 404, "not_found")
    async with gateway.client(None) as anonymous:
        assert_error(await anonymous.get("/nope"), 404, "not_found")


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("PUT", "/v1/identities"),
        ("DELETE", "/v1/identities"),
        ("POST", "/health"),
        ("PATCH", "/v1/identities/{addr}"),
        ("GET", "/v1/identities/{addr}/rotate"),
        ("POST", "/v1/identities/{addr}/messages"),
        ("PUT", "/v1/identities/{addr}/messages/{id}"),
        ("POST", "/v1/identities/{addr}/messages/{id}/raw"),
        ("PATCH", "/v1/tokens"),
    ],
)
async def test_wrong_method_is_405_json(gateway: RunningGateway, method: str, path: str) -> None:
    assert_error(await on_target(gateway, method, path), 405, "method_not_allowed")
