"""Bad input gets a clear 4xx as JSON `{"error", "detail"}`, never a 500 (DESIGN.md, "Bounded everything").

Every case is sent with the admin token, so what is judged is the input, not the caller;
`{addr}` and `{id}` stand for a real identity and one of its messages.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from litestar.routes import HTTPRoute

from gateway.config import Settings
from tests.conftest import DOMAIN, RunningGateway, assert_error, make_message, run_gateway

JSON = {"Content-Type": "application/json"}
MESSAGE = "/v1/identities/{addr}/messages/{id}"
BIG = 65 * 1024  # over the 64 KiB request cap


async def target(gateway: RunningGateway) -> tuple[str, str]:
    """An identity with one message, from an address a reply may reach: (address, message id)."""
    address, token = await gateway.create_identity("target")
    await gateway.send(make_message(sender=f"peer@{DOMAIN}", to=address, subject="Hi"), [address])
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
    # Strict types: a string is not a number, a number is not a bool (msgspec's lax mode took both).
    pytest.param("POST", "/v1/identities", {"json": {"ttl_seconds": "60"}}, 400, id="ttl-numeric-string"),
    pytest.param("POST", "/v1/identities", {"json": {"ttl_seconds": 60.0}}, 400, id="ttl-float"),
    pytest.param("POST", "/v1/identities", {"json": {"force": 1}}, 400, id="force-number"),
    pytest.param("POST", "/v1/identities", {"json": {"force": "true"}}, 400, id="force-string-true"),
    pytest.param("POST", "/v1/tokens", {"json": {"scope": "provision", "label": 5}}, 400, id="token-label-number"),
    pytest.param("POST", "/v1/identities", {"json": {"local_part": "x", "admin": True}}, 400, id="unknown-field"),
    pytest.param("POST", "/v1/identities", {"json": {"localpart": "x"}}, 400, id="typo-field"),
    pytest.param("PATCH", MESSAGE, {"json": {}}, 400, id="seen-missing"),
    pytest.param("PATCH", MESSAGE, {"json": {"seen": "maybe"}}, 400, id="seen-string"),
    pytest.param("PATCH", MESSAGE, {"json": {"seen": None}}, 400, id="seen-null"),
    pytest.param("PATCH", MESSAGE, {"json": {"seen": 1}}, 400, id="seen-number"),
    pytest.param("PATCH", MESSAGE, {"json": {"seen": "true"}}, 400, id="seen-string-true"),
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


# Every route that takes a JSON body, with a valid body: `test_every_body_route_is_covered`
# keeps this list complete.
PUBLIC_HOOK = "https://1.1.1.1/hook"
"""A webhook target the SSRF guard admits without a DNS lookup (creating one calls nothing)."""


async def fill(gateway: RunningGateway, path: str, address: str, message_id: str) -> str:
    """`path` with `{addr}`, `{id}` and (a new webhook of `address`) `{hook}` filled in."""
    hook = ""
    if "{hook}" in path:
        made = await gateway.http.post(f"/v1/identities/{address}/webhooks", json={"url": PUBLIC_HOOK})
        assert made.status_code == 201, made.text
        hook = made.json()["id"]
    return path.format(addr=address, id=message_id, hook=hook)


BODY_ROUTES = [
    pytest.param("POST", "/v1/identities", {"local_part": "deep"}, id="create-identity"),
    pytest.param("POST", "/v1/tokens", {"scope": "provision"}, id="create-token"),
    pytest.param("PATCH", MESSAGE, {"seen": True}, id="mark-message"),
    pytest.param("POST", "/v1/identities/{addr}/send", {"to": [f"target@{DOMAIN}"], "text": "hi"}, id="send"),
    pytest.param("POST", MESSAGE + "/reply", {"text": "hi"}, id="reply"),
    pytest.param("POST", MESSAGE + "/forward", {"to": [f"target@{DOMAIN}"]}, id="forward"),
    pytest.param("POST", "/v1/identities/{addr}/webhooks", {"url": PUBLIC_HOOK}, id="create-webhook"),
    pytest.param("POST", "/v1/webhooks", {"url": PUBLIC_HOOK}, id="create-wide-webhook"),
    pytest.param("POST", "/v1/webhooks/{hook}/rotate", {"grace_seconds": 60}, id="rotate-webhook"),
]
DEPTHS = (100, 900, 1000, 10000)
NULLABLE = frozenset({"local_part", "text"})
"""Fields of BODY_ROUTES' bodies that take null: null there is a valid value, not a mistyped one."""


def nested(depth: int) -> dict[str, bytes]:
    """JSON values nested `depth` deep, by shape (each well under the 64 KiB body cap)."""
    return {
        "arrays": b"[" * depth + b"]" * depth,
        "objects": b'{"a":' * depth + b"1" + b"}" * depth,
    }


def deep_bodies(valid: dict[str, Any]) -> dict[str, bytes]:
    """Bodies nested deep at the top, in each known field, and in an unknown field."""
    bodies: dict[str, bytes] = {}
    for depth in DEPTHS:
        for shape, value in nested(depth).items():
            bodies[f"top-{shape}-{depth}"] = value
            for field in [*valid, "unknown"]:
                rest = b"".join(
                    b', "%s": %s' % (k.encode(), json.dumps(v).encode()) for k, v in valid.items() if k != field
                )
                bodies[f"{field}-{shape}-{depth}"] = b'{"%s": %s%s}' % (field.encode(), value, rest)
    return bodies


@pytest.mark.parametrize(("method", "path", "valid"), BODY_ROUTES)
async def test_deeply_nested_body_is_400(
    gateway: RunningGateway, method: str, path: str, valid: dict[str, Any]
) -> None:
    address, message_id = await target(gateway)
    url = await fill(gateway, path, address, message_id)
    for name, body in deep_bodies(valid).items():
        response = await gateway.http.request(method, url, content=body, headers=JSON)
        assert response.status_code == 400, (name, response.text)
        assert_error(response, 400, "invalid_request")
    assert (await gateway.http.request(method, url, json=valid)).status_code in (200, 201)  # the route still works


@pytest.mark.parametrize(("method", "path", "valid"), BODY_ROUTES)
async def test_malformed_and_mistyped_bodies_are_400(
    gateway: RunningGateway, method: str, path: str, valid: dict[str, Any]
) -> None:
    address, message_id = await target(gateway)
    url = await fill(gateway, path, address, message_id)
    text = json.dumps(valid).encode()
    malformed = [text[:-1], text + b"}", text.replace(b":", b"", 1), b"\xff" + text, text.replace(b'"', b"'")]
    malformed += [b"nul", b"tru", b"[", b"{", b'{"a" 1}', b"1e999999", b'"\\ud800"', text + b" 1"]
    for body in malformed:
        detail = assert_error(await gateway.http.request(method, url, content=body, headers=JSON), 400)["detail"]
        assert "body" in detail, (body, detail)
    # Each field with a value of every wrong JSON type (a string is not a number, a number not a bool).
    samples: list[Any] = ["60", "true", 60, 1.5, True, None, [], {}]
    for field, good in valid.items():
        for value in samples:
            if type(value) is type(good) or (value is None and field in NULLABLE):
                continue
            response = await gateway.http.request(method, url, json={**valid, field: value})
            detail = assert_error(response, 400, "invalid_request")["detail"]
            assert detail.startswith(f"{field}: "), (field, value, detail)
    for body in (b"null", b"[]", b'"x"', b"1", b"true"):
        assert_error(await gateway.http.request(method, url, content=body, headers=JSON), 400)


async def test_every_body_route_is_covered(gateway: RunningGateway) -> None:
    takes_body = {
        (method, route.path)
        for route in gateway.app.routes
        if isinstance(route, HTTPRoute)
        for method, handler in route.route_handler_map.items()
        if handler[0].parsed_data_field is not None and not route.path.startswith("/ui")
    }
    covered = {
        (
            p.values[0],
            p.values[1]
            .replace("{addr}", "{address:str}")
            .replace("{id}", "{message_id:str}")
            .replace("{hook}", "{webhook_id:str}"),
        )
        for p in BODY_ROUTES
    }
    assert takes_body == covered


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


@pytest.mark.parametrize(
    ("key", "shown"),
    [
        pytest.param("localpart", True, id="typo"),
        pytest.param("ttl_second", True, id="typo-underscore"),
        pytest.param("a_name_of_15_ch", True, id="15-chars"),
        pytest.param("a_name_of_16_chs", False, id="16-chars-could-be-an-admin-token"),
        pytest.param("am_" + "x" * 32, False, id="token-shaped"),
        pytest.param("local part", False, id="not-a-name"),
    ],
)
async def test_an_unknown_field_is_named_only_when_it_cannot_be_a_token(
    gateway: RunningGateway, key: str, shown: bool
) -> None:
    detail = assert_error(await gateway.http.post("/v1/identities", json={key: "x"}), 400)["detail"]
    assert "unknown field" in detail
    assert (f"`{key}`" in detail) is shown, detail
    assert shown or key not in detail


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


# --- searches (`q`) ---------------------------------------------------------------------

SEARCH_ROUTES = ["/messages", "/wait", "/events"]
BAD_SEARCHES = [
    # (q, what the detail quotes)
    pytest.param("a\x00b", "'a\\x00b'", id="nul"),
    pytest.param("(invoice receipt", "'('", id="unbalanced-open"),
    pytest.param("invoice)", "')'", id="unbalanced-close"),
    pytest.param("colour:red", "'colour:red'", id="unknown-operator"),
    pytest.param('"never closed', "'\"never closed'", id="unterminated-quote"),
    pytest.param("from:bob", "'from:bob'", id="from-without-domain"),
    pytest.param("after:yesterday", "'after:yesterday'", id="bad-date"),
    pytest.param("has:pdf", "'has:pdf'", id="unknown-has"),
    pytest.param("a OR", "'OR'", id="dangling-or"),
    pytest.param("-", "'-'", id="lone-minus"),
    pytest.param("(" * 9 + "a" + ")" * 9, "'('", id="too-deep"),
    pytest.param(" ".join(f"w{i}" for i in range(33)), "'w32'", id="too-many-terms"),
]


@pytest.mark.parametrize("route", SEARCH_ROUTES)
@pytest.mark.parametrize(("q", "quoted"), BAD_SEARCHES)
async def test_a_search_that_cannot_be_read_is_400_naming_the_term(
    gateway: RunningGateway, route: str, q: str, quoted: str
) -> None:
    address, _ = await target(gateway)
    params: dict[str, Any] = {"q": q, **({"timeout": 0} if route == "/wait" else {})}
    response = await gateway.http.get(f"/v1/identities/{address}{route}", params=params)
    body = assert_error(response, 400, "invalid_query")
    assert re.search(r"\(at character \d+: .+\)$", body["detail"]), body
    assert quoted in body["detail"], body
    assert gateway.gw.hub.count == 0  # refused before any wait or stream began


@pytest.mark.parametrize("route", SEARCH_ROUTES)
@pytest.mark.parametrize("name", ["q", "from", "subject", "limit", "since", "am_" + "x" * 30])
async def test_a_query_parameter_given_twice_is_400_not_half_read(
    gateway: RunningGateway, route: str, name: str
) -> None:
    """`?q=a&q=b` would otherwise be read as one of them, silently: a search half of what was sent."""
    address, _ = await target(gateway)
    values = {"since": ["2026-01-01T00:00:00Z"] * 2, "limit": ["1", "2"]}.get(name, ["Hi", "receipt"])
    params = [(name, v) for v in values] + ([("timeout", "0")] if route == "/wait" else [])
    body = assert_error(await gateway.http.get(f"/v1/identities/{address}{route}", params=params), 400)
    assert "given 2 times" in body["detail"], body
    assert ("`" + name + "`" in body["detail"]) == (len(name) < 16), body  # a token-like name is never echoed
    assert gateway.gw.hub.count == 0


@pytest.mark.parametrize("route", SEARCH_ROUTES)
async def test_a_search_over_1000_characters_is_400(gateway: RunningGateway, route: str) -> None:
    address, _ = await target(gateway)
    params: dict[str, Any] = {"q": "a" * 1001, **({"timeout": 0} if route == "/wait" else {})}
    body = assert_error(await gateway.http.get(f"/v1/identities/{address}{route}", params=params), 400)
    assert body["detail"].startswith("q: ") and "1000" in body["detail"], body
    assert "a" * 100 not in body["detail"], body  # named, never echoed
    # 1000 is accepted: the bound is the documented one.
    longest = " ".join(["a" * 110] * 9)  # 999 characters: 9 terms of the longest a term may be
    listing = await gateway.http.get(f"/v1/identities/{address}/messages", params={"q": longest + " "})
    assert listing.status_code == 200, listing.text


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
    body = assert_error(await on_target(gateway, method, path), 405, "method_not_allowed")
    assert "this path takes " in body["detail"]


async def test_every_405_says_allow(gateway: RunningGateway) -> None:
    """Every route answers a method it does not take with `Allow` listing the ones it does (RFC 9110 15.5.6)."""
    address, message_id = await target(gateway)
    values = {"address": address, "message_id": message_id, "token_id": "t1", "file_name": "x"}
    checked = 0
    for route in gateway.app.routes:
        if not isinstance(route, HTTPRoute):
            continue
        path = re.sub(r"\{(\w+):\w+\}", lambda m: values.get(m.group(1), "x"), route.path)
        methods = set(route.methods)
        wrong = next(m for m in ("PUT", "PATCH", "POST", "DELETE") if m not in methods)
        response = await gateway.http.request(wrong, path)
        assert response.status_code == 405, (route.path, response.status_code)
        assert set(response.headers["allow"].split(", ")) == methods, (route.path, response.headers)
        if not path.startswith("/ui"):  # /ui answers with a page
            assert_error(response, 405, "method_not_allowed")
        checked += 1
    assert checked >= 15


# --- details that say what to fix -----------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "where"),
    [
        pytest.param(b'{"local_part": "demo",\n "ttl_seconds": 60,, }', "line 2, column 20 (byte 42)", id="two-commas"),
        pytest.param(b'{"local_part": "x"', "line 1, column 19 (byte 18)", id="truncated"),
        pytest.param(b'{\n  "label": "caf\xc3\xa9" x}', "line 2, column 19 (byte 21)", id="columns-count-characters"),
        pytest.param(b"{not json", "line 1, column 2 (byte 1)", id="bare-word"),
    ],
)
async def test_broken_json_says_where(gateway: RunningGateway, body: bytes, where: str) -> None:
    response = await gateway.http.post("/v1/identities", content=body, headers=JSON)
    detail = assert_error(response, 400, "invalid_request")["detail"]
    assert f"not valid JSON at {where}: " in detail, detail


async def test_an_unknown_field_gets_the_nearest_known_one_and_the_list(gateway: RunningGateway) -> None:
    response = await gateway.http.post("/v1/identities", json={"localpart": "demo"})
    detail = assert_error(response, 400)["detail"]
    assert "unknown field `localpart`; did you mean `local_part`?" in detail, detail
    assert "this body takes local_part, ttl_seconds, label, force" in detail
    # A name long enough to be a token is not repeated, but the fix is still spelt out.
    hidden = "am_" + "Q" * 32
    detail = assert_error(await gateway.http.post("/v1/identities", json={hidden: 1}), 400)["detail"]
    assert hidden not in detail and "this body takes local_part, ttl_seconds, label, force" in detail
    response = await gateway.http.post("/v1/tokens", json={"scope": "provision", "lable": "ci"})
    assert "did you mean `label`?" in assert_error(response, 400)["detail"]


async def test_a_whole_address_as_local_part_is_told_to_leave_out_the_domain(gateway: RunningGateway) -> None:
    response = await gateway.http.post("/v1/identities", json={"local_part": f"demo@{DOMAIN}"})
    assert "local part only, without @domain" in assert_error(response, 422, "invalid_local_part")["detail"]


@pytest.mark.parametrize("suffix", ["/messages", "/wait?timeout=0", "/rotate", ""])
async def test_a_path_without_a_domain_suggests_the_address(gateway: RunningGateway, suffix: str) -> None:
    await gateway.create_identity("demo")
    method = "POST" if suffix == "/rotate" else "DELETE" if suffix == "" else "GET"
    response = await gateway.http.request(method, f"/v1/identities/demo{suffix}")
    assert f"did you mean demo@{DOMAIN}?" in assert_error(response, 400, "invalid_request")["detail"]


async def test_a_token_in_the_path_is_never_echoed(make_settings: Callable[..., Settings]) -> None:
    admin = "correct-horse-battery-staple-0123"  # an operator's admin token that is also a valid local part
    async with run_gateway(make_settings(admin_token=admin)) as gateway:
        async with gateway.client(admin) as client:
            created = await client.post("/v1/identities", json={"local_part": "pasted"})
        token = created.json()["token"]
        for path_part, bearer in ((token, token), (token.lower(), token), (admin, admin)):
            async with gateway.client(bearer) as client:
                response = await client.get(f"/v1/identities/{path_part}/messages")
            detail = assert_error(response, 400)["detail"]
            assert path_part not in detail and "did you mean" not in detail, detail
            assert "name@domain" in detail
