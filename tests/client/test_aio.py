"""The asyncio twin: the same public API as the blocking client, and the same answers on the same mail."""

from __future__ import annotations

import asyncio
import inspect
import re
from collections.abc import Callable

import pytest

from gateway.client import AsyncGateway, AsyncIdentity, Gateway, Identity, WaitTimeout
from tests.client.conftest import Front, cutting, poll, serving
from tests.conftest import ADMIN_TOKEN, RunningGateway, make_message

# Names that differ only because one twin is awaited.
_RENAMED = {"__aenter__": "__enter__", "__aexit__": "__exit__", "aclose": "close"}


def _public(cls: type) -> dict[str, Callable[..., object]]:
    names = {name for name in dir(cls) if not name.startswith("_")} | {"__init__", "__enter__", "__exit__"}
    names |= {"__aenter__", "__aexit__"}
    return {_RENAMED.get(name, name): getattr(cls, name) for name in names if hasattr(cls, name)}


def _shape(function: Callable[..., object]) -> list[tuple[str, object, object]]:
    # Parameter names, kinds and defaults; annotations differ (Identity vs AsyncIdentity) by design.
    return [(p.name, p.kind, p.default) for p in inspect.signature(function).parameters.values()]


@pytest.mark.parametrize(("blocking", "awaited"), [(Gateway, AsyncGateway), (Identity, AsyncIdentity)])
def test_the_twins_have_the_same_public_api(blocking: type, awaited: type) -> None:
    sync_api, async_api = _public(blocking), _public(awaited)
    assert set(sync_api) == set(async_api)
    for name, function in sync_api.items():
        twin = async_api[name]
        if not callable(function):
            continue
        assert _shape(function) == _shape(twin), name
        if name == "events":  # an iterator, and its twin an async one
            assert inspect.isasyncgenfunction(twin), f"{awaited.__name__}.{name} is iterated with `async for`"
        elif name not in ("__init__", "identity") and not inspect.iscoroutinefunction(function):
            assert inspect.iscoroutinefunction(twin), f"{awaited.__name__}.{name} is awaited"
        if not name.startswith("__"):
            assert inspect.getdoc(twin), f"{awaited.__name__}.{name} has a docstring for help()"


async def test_the_twins_give_the_same_answers_on_the_same_mail(gateway: RunningGateway) -> None:
    url = str(gateway.http.base_url)
    with Gateway(url, ADMIN_TOKEN) as gw:
        async with AsyncGateway(url, ADMIN_TOKEN) as agw:
            # One identity per twin, both sent the same two mails in one SMTP transaction each.
            blocking = await asyncio.to_thread(gw.create_identity, label="sync")
            awaited = await agw.create_identity(label="async")
            both = [blocking.address, awaited.address]
            html = '<p>Confirm: <a href="https://app.example/verify?t=77">verify</a></p>'
            first = make_message(to=", ".join(both), subject="Your code", text="Your code is 902211.")
            second = make_message(to=", ".join(both), subject="Confirm", text="Confirm your address.", html=html)
            await gateway.send(first, both)
            await gateway.send(second, both)

            sync_list = await asyncio.to_thread(blocking.messages)
            async_list = await awaited.messages()
            assert [type(m) for m in sync_list] == [type(m) for m in async_list]
            same = [(m.subject, m.from_, m.codes, m.links, m.size) for m in sync_list]
            assert same == [(m.subject, m.from_, m.codes, m.links, m.size) for m in async_list]
            assert [m.subject for m in sync_list] == ["Confirm", "Your code"]

            sync_code = await asyncio.to_thread(blocking.wait_for_code, 10)
            async_code = await awaited.wait_for_code(10)
            assert sync_code == async_code == "902211"
            sync_link = await asyncio.to_thread(lambda: blocking.wait_for_link(10, contains="verify"))
            async_link = await awaited.wait_for_link(10, contains="verify")
            assert sync_link == async_link == "https://app.example/verify?t=77"

            sync_raw = await asyncio.to_thread(blocking.raw, sync_list[0].id)
            async_raw = await awaited.raw(async_list[0].id)
            assert b"Subject: Confirm" in sync_raw and b"Subject: Confirm" in async_raw
            sync_full = await asyncio.to_thread(blocking.get, sync_list[0].id)
            async_full = await awaited.get(async_list[0].id)
            assert type(sync_full) is type(async_full)
            assert (sync_full.text, sync_full.html, sync_full.links) == (
                async_full.text,
                async_full.html,
                async_full.links,
            )

            with pytest.raises(WaitTimeout) as sync_timeout:
                await asyncio.to_thread(blocking.wait, 0.5)
            with pytest.raises(WaitTimeout) as async_timeout:
                await awaited.wait(0.5)

            def same(exc: WaitTimeout, address: str) -> str:  # copies may be stamped a second apart
                return re.sub(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ", "TIME", str(exc).replace(address, "X"))

            assert same(sync_timeout.value, blocking.address) == same(async_timeout.value, awaited.address)
            assert [(m.from_, m.subject) for m in sync_timeout.value.arrived] == [
                (m.from_, m.subject) for m in async_timeout.value.arrived
            ]

            await asyncio.to_thread(blocking.delete)
            await awaited.delete()
            assert await asyncio.to_thread(gw.identities) == [] and await agw.identities() == []


async def test_an_async_wait_through_a_cutting_proxy_gets_mail_sent_later(gateway: RunningGateway) -> None:
    address, token = await gateway.create_identity()
    front = Front(str(gateway.http.base_url), cut_after=1.0)
    async with serving(front) as url, AsyncGateway(url, ADMIN_TOKEN) as gw:
        waiting = asyncio.create_task(gw.identity(address, token).wait_for_code(timeout=30))
        await poll(lambda: front.cuts >= 2, 10, "the proxy to cut two waits")
        await gateway.send(make_message(to=address, subject="late", text="code 551234"), [address])
        assert await asyncio.wait_for(waiting, 40) == "551234"


async def test_an_async_wait_through_a_proxy_that_drops_the_connection_gets_mail_sent_later(
    gateway: RunningGateway,
) -> None:
    address, token = await gateway.create_identity()
    port = gateway.http.base_url.port or 80
    async with cutting(port, cut_after=1.0) as (url, cutter), AsyncGateway(url, ADMIN_TOKEN) as gw:
        waiting = asyncio.create_task(gw.identity(address, token).wait_for_code(timeout=30))
        await poll(lambda: cutter.cuts >= 2, 10, "the proxy to drop two waiting connections")
        await gateway.send(make_message(to=address, subject="late", text="code 661234"), [address])
        assert await asyncio.wait_for(waiting, 40) == "661234"
    assert cutter.requests >= 3


async def test_cancelling_an_async_wait_releases_the_gateways_wait(gateway: RunningGateway) -> None:
    address, token = await gateway.create_identity()
    async with AsyncGateway(str(gateway.http.base_url), ADMIN_TOKEN) as gw:
        waiting = asyncio.create_task(gw.identity(address, token).wait(timeout=300))
        await gateway.gw.hub.wait_for_count(lambda n: n == 1, timeout=20)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        await gateway.gw.hub.wait_for_count(lambda n: n == 0, timeout=20)  # at once, not at its timeout
