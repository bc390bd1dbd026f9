"""`?q=` over the REST API: the list route, `wait` and `events`, with real mail in and real stores out.

One fixed mailbox (real SMTP through the intake, or Postfix into Dovecot) is searched with a
table of queries whose answers are known exactly: addresses that are substrings of others,
a domain that only ends like another, Chinese and Japanese words, negation, OR, dates at the
instant the listing gives. The table runs on both sources; the rest on the embedded one.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage
from typing import Any

import pytest

from tests.api.test_wait import read_events, waiting
from tests.conftest import DOMAIN, RunningGateway, assert_error, make_message

LOCAL_ONLY = pytest.mark.parametrize("source", ["local"])

PDF = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"


def mailbox(me: str) -> list[tuple[str, EmailMessage]]:
    """The fixed mails, oldest first, by name. No digits but the one code: only it is `has:code`."""
    receipt = make_message(
        sender="Stripe <receipts@stripe.com>",
        to=me,
        cc="bob@partner.example",
        subject="Your receipt from Acme",
        text="Amount paid: forty-two euros. The invoice is attached.",
    )
    receipt.add_attachment(PDF, maintype="application", subtype="pdf", filename="invoice-acme.pdf")
    code = make_message(
        sender="Shop <noreply@shop.example>",
        to=me,
        cc="bigbob@partner.example",
        subject="Your verification code",
        text="Your verification code is 482913.",
    )
    cjk = make_message(
        sender="客服 <service@taobao.example>",
        to=me,
        subject="订单确认",
        text="您的验证码已发送到手机。ご注文ありがとうございます。",
    )
    link = make_message(
        sender="alerts@stripe.com.evil.example",
        to=me,
        subject="Verify your account",
        text="Open the link to verify your account.",
        html='<p>Open <a href="https://stripe.example/verify?t=abc">this link</a> to verify your account.</p>',
    )
    refund = make_message(
        sender="receipts@stripe.com",
        to=me,
        subject="Refund processed",
        text="Your refund of forty-two euros was processed.",
    )
    # The identity only in the envelope: `to:` reads the headers, so this is not `to:` it.
    news = make_message(
        sender="news@notstripe.com",
        to="list@news.example",
        subject="Weekly news",
        text="This week: the Stripe receipt roundup.",
    )
    return [("receipt", receipt), ("code", code), ("cjk", cjk), ("link", link), ("refund", refund), ("news", news)]


ALL = {"receipt", "code", "cjk", "link", "refund", "news"}

TABLE: list[tuple[str, set[str]]] = [
    # words and phrases, over subject and text; case and width folded
    ("receipt", {"receipt", "news"}),
    ("RECEIPT", {"receipt", "news"}),
    ("\uff52\uff45\uff43\uff45\uff49\uff50\uff54", {"receipt", "news"}),  # fullwidth
    ('"stripe receipt"', {"news"}),
    ('"receipt stripe"', set()),
    ("euros processed", {"refund"}),
    ("verif*", {"code", "link"}),
    ("xyzzy", set()),
    # exact addresses and domains, never substrings
    ("from:receipts@stripe.com", {"receipt", "refund"}),
    ("from:RECEIPTS@Stripe.COM", {"receipt", "refund"}),
    ("from:@stripe.com", {"receipt", "refund"}),
    ("from:stripe.com", {"receipt", "refund"}),
    ("from:eceipts@stripe.com", set()),
    ("from:@tripe.com", set()),
    ("from:@stripe.com.evil.example", {"link"}),
    ("from:@notstripe.com", {"news"}),
    ("to:bob@partner.example", {"receipt"}),
    ("to:bigbob@partner.example", {"code"}),
    ("to:ob@partner.example", set()),
    ("to:@partner.example", {"receipt", "code"}),
    ("to:{me}", ALL - {"news"}),
    ("to:@news.example", {"news"}),
    # fields
    ("subject:receipt", {"receipt"}),
    ("subject:verification", {"code"}),
    ("filename:invoice", {"receipt"}),
    ("filename:pdf", {"receipt"}),
    ("filename:receipt", set()),
    ("has:attachment", {"receipt"}),
    ("has:code", {"code"}),
    ("has:link", {"link"}),
    ("is:seen", {"code"}),
    ("is:unseen", ALL - {"code"}),
    # Chinese and Japanese: every character a word, a word a phrase of its characters
    ("验证码", {"cjk"}),
    ("注文", {"cjk"}),
    ("确认", {"cjk"}),
    ("subject:订单", {"cjk"}),
    ("码证验", set()),
    ("客服", set()),  # a display name is not text
    # negation, OR, grouping
    ("-from:@stripe.com", {"code", "cjk", "link", "news"}),
    ("from:@stripe.com -refund", {"receipt"}),
    ("receipt OR refund", {"receipt", "refund", "news"}),
    ("(receipt OR refund) from:@stripe.com", {"receipt", "refund"}),
    ("-(receipt OR refund) -has:link", {"code", "cjk"}),
    ("has:attachment OR has:code OR has:link", {"receipt", "code", "link"}),
    # dates far from the test's run
    ("after:2000-01-01", ALL),
    ("before:2000-01-01", set()),
    ("after:2999-01-01T00:00:00Z", set()),
]


@dataclass
class Fixed:
    """The fixed mailbox of one identity: its address, token, and the id and receipt instant of each mail."""

    address: str
    token: str
    ids: dict[str, str]
    received_at: dict[str, str]

    def names(self, summaries: Sequence[dict[str, Any]]) -> list[str]:
        by_id = {v: k for k, v in self.ids.items()}
        return [by_id.get(s["id"], f"?{s['subject']}") for s in summaries]


async def fixed_mailbox(gateway: RunningGateway, local_part: str = "searcher") -> Fixed:
    address, token = await gateway.create_identity(local_part)
    await gateway.send_many([(mail, [address]) for _, mail in mailbox(address)])
    listing = (await gateway.messages(address, token, limit=50))["messages"]
    by_subject = {m["subject"]: m for m in listing}
    ids = {name: by_subject[str(mail["Subject"])]["id"] for name, mail in mailbox(address)}
    received = {name: by_subject[str(mail["Subject"])]["received_at"] for name, mail in mailbox(address)}
    assert len(set(ids.values())) == len(ALL)
    async with gateway.client(token) as client:  # the identity's own read: seen for it
        assert (await client.get(f"/v1/identities/{address}/messages/{ids['code']}")).status_code == 200
    return Fixed(address, token, ids, received)


async def search(gateway: RunningGateway, fixed: Fixed, q: str, **params: Any) -> list[dict[str, Any]]:
    listing = await gateway.messages(fixed.address, fixed.token, q=q, limit=200, **params)
    assert listing["next_before_id"] is None
    messages: list[dict[str, Any]] = listing["messages"]
    return messages


async def test_the_query_table_finds_exactly_the_expected_mail(gateway: RunningGateway) -> None:
    """Runs on both sources: the same mail through the intake and through Postfix into Dovecot."""
    fixed = await fixed_mailbox(gateway)
    wrong: list[str] = []
    for q, expected in TABLE:
        q = q.replace("{me}", fixed.address)
        found = await search(gateway, fixed, q)
        names = fixed.names(found)
        if set(names) != expected or len(names) != len(expected):
            wrong.append(f"{q!r}: expected {sorted(expected)}, got {sorted(names)}")
    assert not wrong, "\n".join(wrong)


async def test_dates_at_the_edge_use_the_instant_the_listing_gives(gateway: RunningGateway) -> None:
    """`after:T` keeps a message received at T, `before:T` drops it: [after, before) never overlap."""
    fixed = await fixed_mailbox(gateway)
    instants = {name: datetime.fromisoformat(at) for name, at in fixed.received_at.items()}
    for name in ("receipt", "cjk", "news"):
        at = fixed.received_at[name]
        edge = instants[name]
        after = set(fixed.names(await search(gateway, fixed, f"after:{at}")))
        before = set(fixed.names(await search(gateway, fixed, f"before:{at}")))
        assert name in after and name not in before, (name, at, after, before)
        assert after == {n for n, t in instants.items() if t >= edge}, (name, at)
        assert before == {n for n, t in instants.items() if t < edge}, (name, at)
        assert after | before == ALL and not after & before
    # The order the listing gives is the order of the instants.
    first, last = min(instants.values()), max(instants.values())
    window = await search(gateway, fixed, f"after:{first.isoformat()} before:{last.isoformat()}")
    assert set(fixed.names(window)) == {n for n, t in instants.items() if first <= t < last}


@LOCAL_ONLY
async def test_q_pages_with_the_same_cursors_and_combines_with_the_other_filters(gateway: RunningGateway) -> None:
    fixed = await fixed_mailbox(gateway)
    q = '-"stripe receipt"'  # all but `news`: five, so pages of two are 2, 2, 1
    every = await search(gateway, fixed, q)
    assert set(fixed.names(every)) == ALL - {"news"}
    pages: list[list[str]] = []
    before: str | None = None
    while True:
        params: dict[str, Any] = {"q": q, "limit": 2, **({"before_id": before} if before else {})}
        page = await gateway.messages(fixed.address, fixed.token, **params)
        pages.append(fixed.names(page["messages"]))
        before = page["next_before_id"]
        if before is None:
            break
        assert before == page["messages"][-1]["id"]
    assert [len(p) for p in pages] == [2, 2, 1]
    assert [n for p in pages for n in p] == fixed.names(every)  # newest first, nothing twice, nothing lost

    # Oldest first after a cursor: matching mail after `receipt`, paged by next_after_id.
    after = await gateway.messages(fixed.address, fixed.token, q=q, after_id=fixed.ids["receipt"], limit=2)
    assert fixed.names(after["messages"]) == ["code", "cjk"]
    assert after["next_after_id"] == fixed.ids["cjk"]
    rest = await gateway.messages(fixed.address, fixed.token, q=q, after_id=after["next_after_id"], limit=2)
    assert fixed.names(rest["messages"]) == ["link", "refund"] and rest["next_after_id"] is None

    # `q` ANDs with from/subject/since.
    assert fixed.names(await search(gateway, fixed, "from:@stripe.com", subject="refund")) == ["refund"]
    assert fixed.names(await search(gateway, fixed, "euros", **{"from": "receipts"})) == ["refund", "receipt"]
    since = fixed.received_at["link"]
    assert set(fixed.names(await search(gateway, fixed, "from:@stripe.com", since=since))) == {"refund"}
    # A blank `q` is no search: the whole listing.
    assert len(await search(gateway, fixed, "   ")) == len(ALL)


@LOCAL_ONLY
async def test_a_search_never_returns_another_identitys_mail(gateway: RunningGateway) -> None:
    fixed = await fixed_mailbox(gateway)
    other, other_token = await gateway.create_identity("other")
    # Mail that matches every term searched below, to the other identity only.
    await gateway.send_many([(mail, [other]) for _, mail in mailbox(other)])
    twin = make_message(sender="receipts@stripe.com", to=other, subject="Your receipt from Acme", text="receipt")
    await gateway.send(twin, [other])
    mine = set(fixed.ids.values())
    for q, _ in TABLE:
        found = {m["id"] for m in await search(gateway, fixed, q.replace("{me}", fixed.address))}
        assert found <= mine, q
    # The other identity finds its own copies, never the searcher's.
    theirs = await gateway.messages(other, other_token, q="from:@stripe.com receipt")
    assert len(theirs["messages"]) == 2 and not {m["id"] for m in theirs["messages"]} & mine
    # And the searcher's token cannot search the other identity at all.
    async with gateway.client(fixed.token) as client:
        response = await client.get(f"/v1/identities/{other}/messages", params={"q": "receipt"})
    assert_error(response, 403)


# --- wait and events ----------------------------------------------------------------------


@LOCAL_ONLY
async def test_wait_with_q_returns_only_a_matching_message(gateway: RunningGateway) -> None:
    address, token = await gateway.create_identity("waiter")
    async with gateway.client(token) as client:
        params = {"q": "from:@stripe.com has:attachment", "timeout": 20}
        pending = asyncio.create_task(client.get(f"/v1/identities/{address}/wait", params=params, timeout=60))
        await waiting(gateway, 1)
        mails = dict(mailbox(address))
        # Unseen and older, but not a match: the wait goes on past it.
        await gateway.send(mails["refund"], [address])
        await gateway.send(mails["receipt"], [address])
        response = await pending
        assert response.status_code == 200, response.text
        assert response.json()["subject"] == "Your receipt from Acme"
        seen = {m["subject"]: m["seen"] for m in (await gateway.messages(address, token))["messages"]}
        assert seen == {"Your receipt from Acme": True, "Refund processed": False}
        # Already there: answered at once; and nothing more matches.
        again = await client.get(f"/v1/identities/{address}/wait", params={"q": "refund", "timeout": 0}, timeout=30)
        assert again.status_code == 200 and again.json()["subject"] == "Refund processed"
        none = await client.get(f"/v1/identities/{address}/wait", params={"q": "refund", "timeout": 0})
        assert_error(none, 408)
    assert gateway.gw.hub.count == 0


@LOCAL_ONLY
async def test_events_with_q_deliver_only_matching_messages_and_resume_after_the_last(
    gateway: RunningGateway,
) -> None:
    address, token = await gateway.create_identity("listener")
    url = f"/v1/identities/{address}/events"

    def mail(subject: str) -> EmailMessage:
        return make_message(sender=f"peer@{DOMAIN}", to=address, subject=subject, text=f"About {subject}.")

    async with gateway.client(token) as client:
        async with asyncio.timeout(30), client.stream("GET", url, params={"q": "subject:alpha"}, timeout=60) as stream:
            assert stream.status_code == 200
            await waiting(gateway, 1)
            for subject in ("beta one", "alpha two", "beta three", "alpha four"):
                await gateway.send(mail(subject), [address])
            first = await read_events(stream, 2)
        await waiting(gateway, 0)
        assert [json.loads(e["data"])["subject"] for e in first] == ["alpha two", "alpha four"]

        # Away: more of both. Last-Event-ID replays the matches after the last one delivered.
        for subject in ("beta five", "alpha six", "beta seven", "alpha eight"):
            await gateway.send(mail(subject), [address])
        headers = {"Last-Event-ID": first[0]["id"]}
        params = {"q": "subject:alpha"}
        async with asyncio.timeout(30), client.stream("GET", url, headers=headers, params=params, timeout=60) as stream:
            replay = await read_events(stream, 3)
        assert [json.loads(e["data"])["subject"] for e in replay] == ["alpha four", "alpha six", "alpha eight"]
    await waiting(gateway, 0)  # the stream left the hub with the client


@LOCAL_ONLY
async def test_a_bad_q_on_the_stream_is_400_before_it_starts(gateway: RunningGateway) -> None:
    address, token = await gateway.create_identity("badstream")
    async with gateway.client(token) as client:
        response = await client.get(f"/v1/identities/{address}/events", params={"q": "from:nobody"})
    body = assert_error(response, 400, "invalid_query")
    assert "(at character 1: 'from:nobody')" in body["detail"]
    assert gateway.gw.hub.count == 0
