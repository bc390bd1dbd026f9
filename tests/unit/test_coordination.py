"""News between gateways: the NOTIFY wire form is bounded and reads back as what was said."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import cast

from hypothesis import given
from hypothesis import strategies as st

from gateway.errors import StoreUnavailable
from gateway.store.coordination import MAX_PAYLOAD_BYTES, LocalCoordination, News, decode, encode
from gateway.store.postgres.coordination import PostgresCoordination
from gateway.store.postgres.database import Database

addresses = st.from_regex(r"[a-z0-9][a-z0-9._+-]{0,63}@[a-z0-9-]{1,20}\.[a-z]{2,6}", fullmatch=True)
news = st.builds(
    News,
    st.frozensets(addresses, max_size=400),
    st.booleans(),
    st.booleans(),
    st.booleans(),
    st.booleans(),
)


@given(news, st.from_regex(r"[0-9a-f]{12}|store", fullmatch=True))
def test_what_is_encoded_decodes_to_the_same_news_in_bounded_payloads(said: News, origin: str) -> None:
    payloads = encode(said, origin)
    assert payloads
    assert all(len(p.encode()) <= MAX_PAYLOAD_BYTES for p in payloads)
    heard = [decode(p) for p in payloads]
    assert all(h is not None and h[0] == origin for h in heard)
    merged = News()
    for h in heard:
        assert h is not None
        merged = merged.merge(h[1])
    assert merged == said


@given(st.text(max_size=200))
def test_any_payload_reads_as_news_or_nothing(payload: str) -> None:
    heard = decode(payload)
    assert heard is None or (heard[0] and isinstance(heard[1], News))


def test_what_encode_never_writes_is_nothing() -> None:
    assert decode("") is None
    assert decode("abc") is None
    assert decode("|t|a@x") is None  # no origin
    assert decode("o|tz|a@x") is None  # an unknown flag


def test_empty_news_is_false_and_any_part_makes_it_true() -> None:
    assert not News()
    assert all((News(frozenset({"a@x"})), News(tokens=True), News(hint=True), News(state=True), News(everything=True)))


async def test_a_gateway_alone_holds_the_reader_role_and_hears_itself() -> None:
    coordination = LocalCoordination()
    heard: list[News] = []
    coordination.subscribe(heard.append)
    async with coordination.reader() as lost:
        assert not lost.is_set()
    coordination.announce(News(tokens=True))
    coordination.announce(News())  # nothing to say: nobody is called
    assert heard == [News(tokens=True)]


def test_merging_never_narrows_a_token_change_that_concerned_everyone() -> None:
    everyone = News(tokens=True)
    mail = News(frozenset({"a@x"}))
    for merged in (everyone.merge(mail), mail.merge(everyone)):
        assert merged.tokens and merged.everything  # still rings every request
    one = News(frozenset({"b@x"}), tokens=True).merge(mail)
    assert one == News(frozenset({"a@x", "b@x"}), tokens=True)  # both named: rings just those


class _FlakyDatabase:
    """Stands in for the pool: its first `failures` transactions fail as an unreachable server's would."""

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.sent: list[str] = []

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[_FlakyDatabase]:
        if self.failures:
            self.failures -= 1
            raise StoreUnavailable("the database cannot be reached right now; try again")
        yield self

    async def execute(self, query: str, params: tuple[str, str]) -> None:
        self.sent.append(params[1])


async def test_news_that_fails_to_send_is_kept_and_sent_again_with_what_came_meanwhile() -> None:
    db = _FlakyDatabase(failures=2)
    coordination = PostgresCoordination(cast(Database, db))
    heard: list[News] = []
    coordination.subscribe(heard.append)
    coordination.announce(News(frozenset({"a@x"})))
    coordination.announce(News(frozenset({"b@x"})))
    assert heard == [News(frozenset({"a@x"})), News(frozenset({"b@x"}))]  # here at once, whatever the store
    sender = coordination._sender  # the task sending to the others, retrying with backoff
    assert sender is not None
    await asyncio.wait_for(sender, 10)
    decoded = [decode(payload) for payload in db.sent]
    assert db.failures == 0 and decoded
    addresses: set[str] = set()
    for item in decoded:
        assert item is not None and item[0] == coordination.origin
        addresses |= item[1].addresses
    assert addresses == {"a@x", "b@x"}  # nothing lost to the failures
