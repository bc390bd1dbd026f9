"""The blocking client against a real gateway (real SMTP), behind real HTTP fronts: cutting proxies, 429/503 first.

The gateway and the fronts run in the test's event loop; the blocking client runs in a worker
thread (`asyncio.to_thread`), as a test suite's own thread would call it.
"""

from __future__ import annotations

import asyncio
import socket
import traceback
from collections.abc import Callable
from typing import TypeVar

import msgspec
import pytest

from gateway.client import (
    AuthError,
    BadAnswer,
    Conflict,
    Gateway,
    GatewayError,
    InvalidRequest,
    NotFound,
    RateLimited,
    Unavailable,
    Unreachable,
    WaitTimeout,
)
from tests.client.conftest import Canned, Front, poll, serving
from tests.conftest import ADMIN_TOKEN, RunningGateway, make_message

T = TypeVar("T")
CUT_AFTER = 1.0
"""The proxy in front cuts any request open longer than this (a short proxy_read_timeout)."""


async def in_thread(call: Callable[[], T]) -> T:
    return await asyncio.to_thread(call)


def code_mail(to: str, code: str, subject: str = "Your code") -> bytes:
    msg = make_message(to=to, sender="App <noreply@app.example>", subject=subject, text=f"Your code is {code}.\n")
    return msg.as_bytes()


def envelope(status: int, error: str, detail: str, retry_after: int) -> Canned:
    body = msgspec.json.encode({"error": error, "detail": detail, "retry_after_sec": retry_after})
    return Canned(status, body, (("content-type", "application/json"), ("retry-after", str(retry_after))))


@pytest.mark.parametrize(("segment", "cuts"), [(0.5, False), (None, True)], ids=["short-segments", "default-segment"])
async def test_a_wait_through_a_proxy_that_cuts_at_one_second_gets_mail_sent_later(
    gateway: RunningGateway, segment: float | None, cuts: bool
) -> None:
    address, token = await gateway.create_identity()
    front = Front(str(gateway.http.base_url), cut_after=CUT_AFTER)
    async with serving(front) as url:
        options = {} if segment is None else {"wait_segment": segment}
        with Gateway(url, ADMIN_TOKEN, **options) as gw:
            me = gw.identity(address, token)
            waiting = asyncio.create_task(in_thread(lambda: me.wait_for_code(timeout=30)))
            # Mail only once the wait has been re-armed a few times (counted, not timed: about 2 s).
            if cuts:
                await poll(lambda: front.cuts >= 2, 10, "the proxy to cut two waits")
            else:
                await poll(lambda: len(front.waits()) >= 4, 10, "four wait segments")
            await gateway.send(code_mail(address, "482913"), [address])
            code = await asyncio.wait_for(waiting, 40)
    assert code == "482913"
    asked = [float(u.params["timeout"]) for u in front.waits()]
    if cuts:  # each segment asked for what was left of the 30 s and was cut; the client re-armed
        assert front.cuts >= 2 and asked[0] == pytest.approx(30.0, abs=0.5), asked
    else:  # segments under the proxy's limit: it never had to cut one
        assert front.cuts == 0 and all(a <= 0.5 for a in asked), asked


async def test_retry_after_is_honoured_within_the_deadline(gateway: RunningGateway) -> None:
    front = Front(
        str(gateway.http.base_url),
        canned=[envelope(429, "rate_limited", "too many identities", 1), envelope(503, "busy", "starting", 1)],
    )
    async with serving(front) as url:
        with Gateway(url, ADMIN_TOKEN, retry_for=10) as gw:
            me = await in_thread(gw.create_identity)
    assert me.address.endswith("@agents.test")
    assert [u.path for u in front.requests] == ["/v1/identities"] * 3, "asked, refused twice, asked again"


@pytest.mark.parametrize(("status", "raised"), [(429, RateLimited), (503, Unavailable)])
async def test_a_retry_after_past_the_deadline_is_raised_at_once(
    gateway: RunningGateway, status: int, raised: type[GatewayError]
) -> None:
    front = Front(str(gateway.http.base_url), canned=[envelope(status, "slow_down", "come back later", 30)])
    async with serving(front) as url:
        with Gateway(url, ADMIN_TOKEN, retry_for=5) as gw, pytest.raises(GatewayError) as caught:
            await asyncio.wait_for(in_thread(gw.identities), 10)  # bounded: it did not sleep 30 s
    assert type(caught.value) is raised
    assert caught.value.retry_after == 30 and caught.value.detail == "come back later"
    assert len(front.requests) == 1


async def test_a_503_during_a_wait_is_re_armed_after_retry_after(gateway: RunningGateway) -> None:
    address, token = await gateway.create_identity()
    await gateway.send(code_mail(address, "135790"), [address])
    front = Front(str(gateway.http.base_url), canned=[envelope(503, "mail_unavailable", "mailbox away", 1)])
    async with serving(front) as url:
        with Gateway(url, ADMIN_TOKEN, retry_for=0) as gw:
            code = await in_thread(lambda: gw.identity(address, token).wait_for_code(timeout=10))
    assert code == "135790"
    assert len(front.waits()) == 2


async def test_gateway_errors_map_to_their_exceptions_and_never_carry_a_token(gateway: RunningGateway) -> None:
    url = str(gateway.http.base_url)
    with Gateway(url, ADMIN_TOKEN) as gw:
        me = await in_thread(lambda: gw.create_identity("taken-name"))
        failures: dict[type[GatewayError], Callable[[], object]] = {
            AuthError: lambda: gw.identity(me.address, "am_not-a-real-token-000000000000").messages(),
            NotFound: lambda: me.get("no-such-message"),
            Conflict: lambda: gw.create_identity("taken-name"),
            InvalidRequest: lambda: gw.create_identity("not a valid name!"),
        }
        for raised, call in failures.items():
            with pytest.raises(GatewayError) as caught:
                await in_thread(call)
            exc = caught.value
            assert type(exc) is raised, (raised, exc)
            assert exc.error and exc.detail, exc
            for shown in (str(exc), repr(exc)):
                assert me.token not in shown and ADMIN_TOKEN not in shown and "am_" not in shown, shown
        for shown in (str(me), repr(me), repr(gw)):
            assert me.token not in shown and ADMIN_TOKEN not in shown, shown
        assert repr(me) == f"Identity({me.address!r})"


async def test_an_unreachable_gateway_is_unreachable_naming_the_url_without_credentials() -> None:
    with socket.socket() as sock:  # a port nothing listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with Gateway(f"http://agent:s3cret-pw@127.0.0.1:{port}", ADMIN_TOKEN) as gw, pytest.raises(Unreachable) as caught:
        await in_thread(gw.create_identity)
    shown = str(caught.value) + repr(caught.value)
    assert f"127.0.0.1:{port}" in shown and "cannot be reached" in shown
    assert "s3cret-pw" not in shown and ADMIN_TOKEN not in shown


async def test_another_web_server_answering_200_is_a_bad_answer() -> None:
    page = Canned(200, b"<html><body>Welcome to nginx!</body></html>", (("content-type", "text/html"),))
    front = Front("http://127.0.0.1:9", always=page)
    async with serving(front) as url:
        with Gateway(url, ADMIN_TOKEN) as gw, pytest.raises(BadAnswer, match="AGENTMAIL_URL") as caught:
            await in_thread(gw.identities)
    assert ADMIN_TOKEN not in str(caught.value) + repr(caught.value)


async def test_wait_timeout_lists_what_did_arrive(gateway: RunningGateway) -> None:
    address, token = await gateway.create_identity()
    mail = make_message(to=address, sender="Shop <orders@shop.example>", subject="Your receipt", text="Thanks!")
    await gateway.send(mail, [address])
    with Gateway(str(gateway.http.base_url), ADMIN_TOKEN) as gw:
        me = gw.identity(address, token)
        (arrived,) = await in_thread(me.messages)
        with pytest.raises(WaitTimeout) as caught:
            await in_thread(lambda: me.wait_for_code(timeout=1))
    text = str(caught.value)
    assert f"no unseen message with a code arrived for {address} within 1 s" in text, text
    when = arrived.received_at.strftime("%Y-%m-%d %H:%M:%S")
    assert f"{when}Z  from Shop <orders@shop.example>  subject 'Your receipt'  [no code, no link]" in text, text
    assert [m.id for m in caught.value.arrived] == [arrived.id]
    assert token not in text and token not in repr(caught.value)


@pytest.mark.parametrize("message_id", ["..", "."])
async def test_a_dot_message_id_never_reaches_the_identity_itself(gateway: RunningGateway, message_id: str) -> None:
    address, token = await gateway.create_identity()
    await gateway.send(code_mail(address, "424242"), [address])
    with Gateway(str(gateway.http.base_url), ADMIN_TOKEN) as gw:
        me = gw.identity(address, token)
        with pytest.raises(NotFound):
            await in_thread(lambda: me.delete_message(message_id))
        with pytest.raises(NotFound):
            await in_thread(lambda: me.get(message_id))
        assert [m.subject for m in await in_thread(me.messages)] == ["Your code"]


async def test_is_admin_tells_the_admin_token_from_a_provisioners(gateway: RunningGateway) -> None:
    response = await gateway.http.post("/v1/tokens", json={"scope": "provision"})
    provisioner = response.json()["token"]
    url = str(gateway.http.base_url)
    with Gateway(url, ADMIN_TOKEN) as admin, Gateway(url, provisioner) as other, Gateway(url, "") as nobody:
        assert await in_thread(admin.is_admin) is True
        assert await in_thread(other.is_admin) is False
        assert await in_thread(nobody.is_admin) is False


async def test_an_identity_deletes_itself_with_its_own_token(gateway: RunningGateway) -> None:
    address, token = await gateway.create_identity()

    def use_and_leave() -> None:
        with Gateway(str(gateway.http.base_url), "") as tokenless, tokenless.identity(address, token):
            pass  # a gateway with no provisioner or admin token: leaving the block deletes it

    await in_thread(use_and_leave)
    assert (await gateway.http.get("/v1/identities")).json()["identities"] == []


async def test_a_failure_past_the_http_layer_shows_no_token_in_the_frames_locals(gateway: RunningGateway) -> None:
    address, token = await gateway.create_identity()
    gw = Gateway(str(gateway.http.base_url), ADMIN_TOKEN)
    me = gw.identity(address, token)
    gw.close()  # httpx refuses the next request with a RuntimeError, raised through the client's frames
    with pytest.raises(RuntimeError) as raised:
        await in_thread(me.messages)
    frames = traceback.TracebackException.from_exception(raised.value, capture_locals=True).stack
    client = [f for f in frames if "gateway/client/" in f.filename.replace("\\", "/")]
    shown = repr([f.locals for f in client])
    assert any(f.locals and "headers" in f.locals for f in client)  # the request's frame was there, locals and all
    assert token not in shown and ADMIN_TOKEN not in shown
