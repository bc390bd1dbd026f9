"""GatewayClient on answers a healthy gateway never gives: a proxy's page, another server, a dead host."""

from __future__ import annotations

from collections.abc import Callable

import httpx
import pytest

from mcp_server.client import GatewayCallError, GatewayClient

TOKEN = "am_identity-token-for-tests"


def _client(handler: Callable[[httpx.Request], httpx.Response], base_url: str = "http://gw.test") -> GatewayClient:
    return GatewayClient(httpx.AsyncClient(base_url=base_url, transport=httpx.MockTransport(handler)), "am_prov")


@pytest.mark.parametrize("message_id", [".", ".."])
async def test_a_dot_message_id_stays_inside_the_messages_path(message_id: str) -> None:
    # httpx drops dot segments: a bare ".." would have made DELETE …/messages/.. a DELETE of
    # the identity itself.
    asked: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        asked.append(request)
        return httpx.Response(404, json={"error": "not_found", "detail": "no such message"})

    client = _client(handler)
    with pytest.raises(GatewayCallError) as caught:
        await client.delete_message("me@agents.test", TOKEN, message_id)
    assert caught.value.status == 404
    with pytest.raises(GatewayCallError):
        await client.get_message("me@agents.test", TOKEN, message_id)
    for request in asked:
        path = request.url.raw_path.decode()
        assert path == "/v1/identities/me@agents.test/messages/" + message_id.replace(".", "%2E"), path


async def test_an_error_page_that_is_not_the_gateways_envelope_is_a_call_error() -> None:
    client = _client(lambda _: httpx.Response(502, text="<html><h1>502 Bad Gateway</h1></html>"))
    with pytest.raises(GatewayCallError) as caught:
        await client.list_messages("me@agents.test", TOKEN, limit=5, sender=None, subject=None)
    assert caught.value.status == 502 and caught.value.error == "http_error"
    assert "HTTP 502" in caught.value.detail


async def test_a_success_that_is_not_the_gateways_answer_is_a_call_error() -> None:
    client = _client(lambda _: httpx.Response(200, text="<html>some other web server</html>"))
    with pytest.raises(GatewayCallError) as caught:
        await client.list_messages("me@agents.test", TOKEN, limit=5, sender=None, subject=None)
    assert caught.value.error == "bad_answer" and "AGENTMAIL_URL" in caught.value.detail


@pytest.mark.parametrize(
    "failure",
    [httpx.ConnectError("connection refused"), httpx.DecodingError("bad gzip"), httpx.ReadTimeout("slow")],
)
async def test_transport_failures_name_the_gateway_without_credentials(failure: Exception) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise failure

    client = _client(handler, base_url="https://agent:s3cret-pw@gw.example:8443/")
    with pytest.raises(GatewayCallError) as caught:
        await client.list_messages("me@agents.test", TOKEN, limit=5, sender=None, subject=None)
    assert caught.value.status == 0 and caught.value.error == "unreachable"
    assert "gw.example:8443" in caught.value.detail
    assert "s3cret-pw" not in caught.value.detail and "agent:" not in caught.value.detail
    assert TOKEN not in str(caught.value)
