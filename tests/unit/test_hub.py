"""The hub: rings exactly the subscribers of an address, and counts and bounds them."""

from __future__ import annotations

import pytest

from gateway.errors import TooManyWaiters
from gateway.hub import Hub
from gateway.store import News


async def test_publish_rings_only_the_addresses_it_names() -> None:
    hub = Hub(per_address=5, total=10)
    with hub.subscribe("a@d") as a, hub.subscribe("b@d") as b:
        hub.publish(["a@d", "a@d", "c@d"])
        assert await a.wait(1) is True
        assert await b.wait(0) is False
        assert await a.wait(0) is False  # the bell was reset by the first wait


async def test_a_ring_before_the_wait_is_not_lost() -> None:
    hub = Hub(per_address=5, total=10)
    with hub.subscribe("a@d") as a:
        hub.publish(["a@d"])  # indexed between a waiter's look and its wait
        assert await a.wait(0) is True


async def test_limits_per_address_and_in_all_and_the_count() -> None:
    hub = Hub(per_address=2, total=3)
    first, second = hub.subscribe("a@d"), hub.subscribe("a@d")
    with pytest.raises(TooManyWaiters, match="for a@d"):
        hub.subscribe("a@d")
    third = hub.subscribe("b@d")
    with pytest.raises(TooManyWaiters, match="on this gateway"):
        hub.subscribe("c@d")
    assert hub.count == 3
    for sub in (first, second, third, third):  # unsubscribing twice is harmless
        hub.unsubscribe(sub)
    assert hub.count == 0
    await hub.wait_for_count(lambda n: n == 0, timeout=1)
    hub.subscribe("a@d")


async def test_a_subscription_to_everything_is_rung_by_any_address_and_bounded() -> None:
    hub = Hub(per_address=2, total=4)
    with hub.subscribe_all() as every, hub.subscribe("a@d") as a:
        hub.publish([])  # nothing indexed for anyone: no ring
        assert await every.wait(0) is False
        hub.publish(["b@d"])  # an address nobody subscribed to
        assert await every.wait(1) is True
        assert await a.wait(0) is False
        hub.publish(["a@d"])
        assert await every.wait(1) is True and await a.wait(1) is True
        second = hub.subscribe_all()
        with pytest.raises(TooManyWaiters, match="every identity"):
            hub.subscribe_all()
        assert hub.count == 3
        hub.unsubscribe(second)
        hub.unsubscribe(second)  # harmless twice
        assert hub.count == 2
    assert hub.count == 0
    held = [hub.subscribe_all(), hub.subscribe("x@d"), hub.subscribe("y@d"), hub.subscribe("z@d")]
    with pytest.raises(TooManyWaiters, match="on this gateway"):
        hub.subscribe_all()
    for sub in held:
        hub.unsubscribe(sub)
    assert hub.count == 0


async def test_token_news_and_missed_news_ring_every_subscription() -> None:
    hub = Hub(per_address=5, total=10)
    for news in (News(tokens=True), News(everything=True)):
        with hub.subscribe("a@x") as a, hub.subscribe("b@x") as b, hub.subscribe_all() as every:
            hub.heard(news)
            assert [await s.wait(0) for s in (a, b, every)] == [True, True, True]


async def test_state_and_hint_news_ring_nobody() -> None:
    hub = Hub(per_address=5, total=10)
    with hub.subscribe("a@x") as a, hub.subscribe_all() as every:
        hub.heard(News(hint=True, state=True))
        assert [await s.wait(0) for s in (a, every)] == [False, False]


async def test_with_company_publish_goes_through_the_announcement_only() -> None:
    said: list[News] = []
    hub = Hub(per_address=5, total=10, announce=said.append)
    with hub.subscribe("a@x") as a:
        hub.publish(["a@x", "a@x"])
        hub.publish([])
        assert said == [News(frozenset({"a@x"}))]
        assert not await a.wait(0)  # rung when the announcement comes back (the store's coordination)
        hub.heard(said[0])
        assert await a.wait(0)


async def test_an_identitys_token_news_rings_its_address_and_the_streams_over_every_identity() -> None:
    hub = Hub(per_address=5, total=10)
    with hub.subscribe("a@x") as a, hub.subscribe("b@x") as b, hub.subscribe_all() as every:
        hub.heard(News(frozenset({"a@x"}), tokens=True))
        assert [await s.wait(0) for s in (a, b, every)] == [True, False, True]
