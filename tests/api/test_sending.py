"""Identities send, reply and forward; agents mail agents on our domain; threads (on both sources)."""

from __future__ import annotations

import asyncio
import base64
import json
import logging
from email import message_from_bytes
from email.policy import default
from typing import Any

import httpx
import pytest

from tests.api.test_wait import read_events
from tests.conftest import DOMAIN, RunningGateway, assert_error, make_message, run_gateway


async def wait(client: httpx.AsyncClient, address: str, **params: Any) -> dict[str, Any]:
    """The next unseen message of `address` (asserts 200)."""
    params.setdefault("timeout", 20)
    response = await client.get(f"/v1/identities/{address}/wait", params=params, timeout=60)
    assert response.status_code == 200, response.text
    found: dict[str, Any] = response.json()
    return found


async def send(client: httpx.AsyncClient, address: str, **body: Any) -> dict[str, Any]:
    """POST …/send; asserts 201 and returns the result."""
    body.setdefault("text", "Hello from an agent.")
    response = await client.post(f"/v1/identities/{address}/send", json=body)
    assert response.status_code == 201, response.text
    result: dict[str, Any] = response.json()
    return result


async def raw(client: httpx.AsyncClient, address: str, message_id: str) -> bytes:
    response = await client.get(f"/v1/identities/{address}/messages/{message_id}/raw")
    assert response.status_code == 200, response.text
    return response.content


async def nothing_else_arrived(gateway: RunningGateway, address: str, token: str, *, expected: list[str]) -> None:
    """`address` holds exactly `expected` (subjects, newest first) once a marker mail sent now is indexed."""
    await gateway.send(make_message(to=address, subject="marker"), [address])
    assert await gateway.subjects(address, token) == ["marker", *expected]


async def test_agent_to_agent_reply_and_thread_survive_a_rebuild(make_settings: Any) -> None:
    settings = make_settings()
    async with run_gateway(settings) as gateway:
        planner, planner_token = await gateway.create_identity("planner")
        worker, worker_token = await gateway.create_identity("worker")
        threads, ids = await _converse(gateway, worker, worker_token, planner, planner_token)
        await gateway.settled()
    for suffix in ("", "-wal", "-shm"):
        (settings.data_dir / f"index.db{suffix}").unlink(missing_ok=True)
    async with run_gateway(settings, keep_mailbox=True) as again:
        await again.settled()
        for address, token in ((worker, worker_token), (planner, planner_token)):
            async with again.client(token) as client:
                detail = (await client.get(f"/v1/identities/{address}/threads/{ids[address]}")).json()
                assert [(m["id"], m["direction"], m["subject"]) for m in detail["messages"]] == threads[address]


async def _converse(
    gateway: RunningGateway, worker: str, worker_token: str, planner: str, planner_token: str
) -> tuple[dict[str, list[tuple[str, str, str]]], dict[str, str]]:
    """The worker asks, the planner answers: each side's thread (id, direction, subject) and thread id."""
    async with gateway.client(worker_token) as w, gateway.client(planner_token) as p:
        sent = await send(w, worker, to=[planner], subject="Plan for today", text="What should I do first?")
        assert sent["accepted"] == [planner] and sent["rejected"] == []
        assert sent["message_id"].startswith("<") and sent["message_id"].endswith(f"@{DOMAIN}>")
        assert sent["id"] and sent["thread_id"]

        got = await wait(p, planner)
        assert got["from"] == worker and got["subject"] == "Plan for today"
        assert "What should I do first?" in got["text"]
        header = {h["name"].lower(): h["value"] for h in got["headers"]}
        assert header["message-id"] == sent["message_id"]
        assert header["delivered-to"] == planner

        answer = await p.post(
            f"/v1/identities/{planner}/messages/{got['id']}/reply", json={"text": "Start with the tests."}
        )
        assert answer.status_code == 201, answer.text
        reply = answer.json()

        back = await wait(w, worker)
        assert back["from"] == planner and back["subject"] == "Re: Plan for today"
        assert "Start with the tests." in back["text"] and "> What should I do first?" in back["text"]
        assert back["thread_id"] == sent["thread_id"]  # the reply joined the worker's thread
        assert got["thread_id"] == reply["thread_id"]  # and the planner's sent reply joined its own

        threads = {}
        for client, address in ((w, worker), (p, planner)):
            page = (await client.get(f"/v1/identities/{address}/threads")).json()
            assert len(page["threads"]) == 1 and page["next_before"] is None
            (thread,) = page["threads"]
            assert thread["message_count"] == 2 and thread["subject"] == "Plan for today"
            assert {worker, planner} <= set(thread["participants"])
            detail = (await client.get(f"/v1/identities/{address}/threads/{thread['thread_id']}")).json()
            threads[address] = [(m["id"], m["direction"], m["subject"]) for m in detail["messages"]]
            expected = ["sent", "received"] if address == worker else ["received", "sent"]
            assert [direction for _, direction, _ in threads[address]] == expected
        assert sent["thread_id"] != reply["thread_id"]  # two identities never share a thread id
        return threads, {worker: sent["thread_id"], planner: reply["thread_id"]}


async def test_a_sent_copy_is_only_its_senders_and_wakes_no_wait(gateway: RunningGateway) -> None:
    alice, alice_token = await gateway.create_identity("alice")
    bob, bob_token = await gateway.create_identity("bob")
    async with gateway.client(alice_token) as a:
        sent = await send(a, alice, to=[bob], cc=[alice], subject="to bob, cc me")
        await gateway.send(make_message(to=alice, subject="arrived after"), [alice])
        got = await wait(a, alice)  # the oldest unseen received mail: her cc copy, not the sent copy
        assert got["subject"] == "to bob, cc me" and got["direction"] == "received"
        assert (await wait(a, alice))["subject"] == "arrived after"
        mine = await gateway.messages(alice, alice_token, direction="sent")
        assert [(m["id"], m["direction"]) for m in mine["messages"]] == [(sent["id"], "sent")]
        both = await gateway.messages(alice, alice_token, direction="all")
        assert sorted(m["direction"] for m in both["messages"]) == ["received", "received", "sent"]
        full = (await a.get(f"/v1/identities/{alice}/messages/{sent['id']}")).json()
        assert full["direction"] == "sent"
        assert {(d["address"], d["status"]) for d in full["delivery"]} == {(bob, "delivered"), (alice, "delivered")}
    assert await gateway.subjects(bob, bob_token, direction="sent") == []
    assert await gateway.subjects(bob, bob_token) == ["to bob, cc me"]
    async with gateway.client(bob_token) as b:
        assert_error(await b.get(f"/v1/identities/{bob}/messages/{sent['id']}"), 404, "not_found")


async def test_bcc_reaches_its_recipient_but_no_other_copy_names_it(gateway: RunningGateway) -> None:
    alice, alice_token = await gateway.create_identity("alice")
    bob, bob_token = await gateway.create_identity("bob")
    carol, carol_token = await gateway.create_identity("carol")
    async with gateway.client(alice_token) as a:
        sent = await send(a, alice, to=[bob], bcc=[carol], subject="quiet copy")
        kept = await raw(a, alice, sent["id"])
    assert message_from_bytes(kept, policy=default)["Bcc"] == carol  # the sender's copy remembers
    for address, token in ((bob, bob_token), (carol, carol_token)):
        async with gateway.client(token) as client:
            got = await wait(client, address)
            assert got["subject"] == "quiet copy"
            delivered = message_from_bytes(await raw(client, address, got["id"]), policy=default)
            assert delivered["Bcc"] is None and delivered["To"] == bob and delivered["Cc"] is None
            assert delivered["Delivered-To"] == address  # each its own copy, stamped for it


async def test_reply_all_forward_and_threading_headers(gateway: RunningGateway) -> None:
    alice, alice_token = await gateway.create_identity("alice")
    bob, bob_token = await gateway.create_identity("bob")
    carol, carol_token = await gateway.create_identity("carol")
    dave, dave_token = await gateway.create_identity("dave")
    files = [
        {"filename": "report.csv", "content_type": "text/csv", "content": base64.b64encode(b"a,b\n1,2\n").decode()}
    ]
    async with (
        gateway.client(alice_token) as a,
        gateway.client(bob_token) as b,
        gateway.client(carol_token) as c,
        gateway.client(dave_token) as d,
    ):
        first = await send(a, alice, to=[bob], cc=[carol], subject="Re: AW: Quarterly numbers", attachments=files)
        got = await wait(b, bob)
        (attachment,) = got["attachments"]
        assert attachment["filename"] == "report.csv" and attachment["size"] == 8

        answer = await b.post(f"/v1/identities/{bob}/messages/{got['id']}/reply", json={"text": "Thanks", "all": True})
        assert answer.status_code == 201, answer.text
        assert sorted(answer.json()["accepted"]) == sorted([alice, carol])  # never bob himself
        at_carol = [await wait(c, carol), await wait(c, carol)]
        reply = at_carol[1]
        assert reply["subject"] == "Re: Quarterly numbers"  # one prefix, never "Re: Re:" or "Re: AW:"
        head = message_from_bytes(await raw(c, carol, reply["id"]), policy=default)
        assert head["In-Reply-To"] == first["message_id"]
        assert head["References"] == first["message_id"]

        # A reply to the reply chains both ids, oldest first.
        again = await c.post(f"/v1/identities/{carol}/messages/{reply['id']}/reply", json={"text": "Agreed"})
        assert again.status_code == 201, again.text
        assert again.json()["accepted"] == [bob]
        last = await wait(b, bob)
        head = message_from_bytes(await raw(b, bob, last["id"]), policy=default)
        assert head["Subject"] == "Re: Quarterly numbers"
        assert head["In-Reply-To"] == reply_message_id(at_carol[1])
        assert head["References"].split() == [first["message_id"], reply_message_id(at_carol[1])]
        assert last["thread_id"] == got["thread_id"]  # bob's thread holds all three

        fwd = await b.post(f"/v1/identities/{bob}/messages/{got['id']}/forward", json={"to": [dave], "text": "FYI"})
        assert fwd.status_code == 201, fwd.text
        forwarded = await wait(d, dave)
        assert forwarded["subject"] == "Fwd: Quarterly numbers"
        assert forwarded["text"].startswith("FYI")
        assert [x["filename"] for x in forwarded["attachments"]] == ["report.csv"]
        body = message_from_bytes(await raw(d, dave, forwarded["id"]), policy=default)
        (part,) = [p for p in body.walk() if p.get_filename() == "report.csv"]
        assert part.get_payload(decode=True) == b"a,b\n1,2\n"


def reply_message_id(summary: dict[str, Any]) -> str:
    return next(h["value"] for h in summary["headers"] if h["name"].lower() == "message-id")


async def test_same_subject_joins_a_thread_only_from_a_participant(gateway: RunningGateway) -> None:
    alice, alice_token = await gateway.create_identity("alice")
    bob, _ = await gateway.create_identity("bob")
    async with gateway.client(alice_token) as a:
        sent = await send(a, alice, to=[bob], subject="Launch checklist")
        # Bob answers from a mail client that sets no References: the subject and the sender join it.
        await gateway.send(make_message(sender=bob, to=alice, subject="RE: Launch checklist"), [alice], mail_from=bob)
        # A stranger with the very same subject starts a thread of its own.
        await gateway.send(make_message(sender="x@stranger.example", to=alice, subject="Launch checklist"), [alice])
        page = (await a.get(f"/v1/identities/{alice}/threads")).json()
    counts = {t["thread_id"]: t["message_count"] for t in page["threads"]}
    assert counts[sent["thread_id"]] == 2 and len(counts) == 2
    assert [t["message_count"] for t in page["threads"]] == [1, 2]  # latest activity first: the stranger's


@pytest.mark.parametrize(
    "body",
    [
        {"subject": "hi\r\nBcc: victim@example.org"},
        {"subject": "hi\nX-Evil: 1"},
        {"from_name": "Alice\r\nBcc: victim@example.org"},
        {"reply_to": f"x@{DOMAIN}\r\nBcc: victim@example.org"},
        {"headers": {"X-Tag": "a\r\nBcc: victim@example.org"}},
        {"headers": {"X-Tag\r\nBcc": "victim@example.org"}},
        {"headers": {"X-Original-To": f"victim@{DOMAIN}"}},
        {"headers": {"Delivered-To": f"victim@{DOMAIN}"}},
        {"to": [f"bob@{DOMAIN}\r\nBcc: victim@example.org"]},
        {"to": [f"Bob <bob@{DOMAIN}>"]},
        {"cc": [f"bob@{DOMAIN}, victim@{DOMAIN}"]},
        {"bcc": ["not an address"]},
        {"attachments": [{"filename": "a\r\nb.txt", "content": "aGk="}]},
        {"attachments": [{"filename": "a.txt", "content_type": "text/plain\r\nX-Evil: 1", "content": "aGk="}]},
        {"attachments": [{"filename": "a.txt", "content": "not base64!"}]},
    ],
)
async def test_injection_in_any_field_is_refused_and_nothing_sent(
    gateway: RunningGateway, body: dict[str, Any]
) -> None:
    alice, alice_token = await gateway.create_identity("alice")
    bob, bob_token = await gateway.create_identity("bob")
    request = {"to": [bob], "subject": "hello", "text": "hi", **body}
    async with gateway.client(alice_token) as a:
        error = assert_error(await a.post(f"/v1/identities/{alice}/send", json=request), 422, "invalid_mail")
        assert "victim" not in error["detail"]
        assert await gateway.subjects(alice, alice_token, direction="sent") == []
    await nothing_else_arrived(gateway, bob, bob_token, expected=[])


async def test_send_scopes_and_who_may_grant_them(gateway: RunningGateway) -> None:
    bob, bob_token = await gateway.create_identity("bob")
    mute, mute_token = await gateway.create_identity("mute", send="none")
    local, local_token = await gateway.create_identity("local")
    wide, wide_token = await gateway.create_identity("wide", send="any")  # the admin may
    async with gateway.client(mute_token) as m:
        error = assert_error(await m.post(f"/v1/identities/{mute}/send", json={"to": [bob], "text": "x"}), 422)
        assert error["error"] == "recipient_refused" and "nothing was sent" in error["detail"]
    async with gateway.client(local_token) as lc:
        # All or nothing: one recipient out of reach stops the send to the one in reach too.
        response = await lc.post(
            f"/v1/identities/{local}/send", json={"to": [bob, "someone@elsewhere.example"], "text": "x"}
        )
        error = assert_error(response, 422, "recipient_refused")
        assert (
            "someone@elsewhere.example" in error["detail"] and f"only send to addresses at {DOMAIN}" in error["detail"]
        )
    async with gateway.client(wide_token) as wd:
        response = await wd.post(f"/v1/identities/{wide}/send", json={"to": ["someone@elsewhere.example"], "text": "x"})
        assert "no relay is configured" in assert_error(response, 422, "recipient_refused")["detail"]
    await nothing_else_arrived(gateway, bob, bob_token, expected=[])

    made = (await gateway.http.post("/v1/tokens", json={"scope": "provision"})).json()
    allowed = (await gateway.http.post("/v1/tokens", json={"scope": "provision", "send": "any"})).json()
    assert made["send"] == "local" and allowed["send"] == "any"
    async with gateway.client(made["token"]) as plain, gateway.client(allowed["token"]) as wider:
        assert_error(await plain.post("/v1/identities", json={"send": "any"}), 403, "forbidden")
        created = await wider.post("/v1/identities", json={"send": "any"})
        assert created.status_code == 201 and created.json()["send"] == "any"
        default = (await plain.post("/v1/identities", json={})).json()
        assert default["send"] == "local"
        # A provisioner never sends, not even from an identity it made.
        assert_error(await plain.post(f"/v1/identities/{default['address']}/send", json={"to": [bob]}), 403)


async def test_the_hourly_limit_answers_429_and_survives_a_restart(make_settings: Any) -> None:
    settings = make_settings(send_per_hour=2)
    async with run_gateway(settings) as gateway:
        alice, alice_token = await gateway.create_identity("alice")
        bob, _ = await gateway.create_identity("bob")
        async with gateway.client(alice_token) as a:
            await send(a, alice, to=[bob], subject="one")
            await send(a, alice, to=[bob], subject="two")
            limited = await a.post(f"/v1/identities/{alice}/send", json={"to": [bob], "text": "three"})
            body = assert_error(limited, 429, "rate_limited")
            assert 0 < int(limited.headers["Retry-After"]) <= 3600 and body["retry_after_sec"] > 0
    async with run_gateway(settings, keep_mailbox=True) as gateway, gateway.client(alice_token) as a:
        assert_error(await a.post(f"/v1/identities/{alice}/send", json={"to": [bob], "text": "x"}), 429)
        # The window slides: the limiter's clock an hour on, the identity may send again.
        limits: Any = gateway.gw.store.limits
        real = limits._clock
        limits._clock = lambda: real() + 3601
        try:
            await send(a, alice, to=[bob], subject="after the window")
        finally:
            limits._clock = real


async def test_each_send_is_logged_with_its_people_never_its_body_or_token(
    gateway: RunningGateway, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    alice, alice_token = await gateway.create_identity("alice")
    bob, _ = await gateway.create_identity("bob")
    async with gateway.client(alice_token) as a:
        sent = await send(a, alice, to=[bob], subject="logged", text="the body 739154 stays out of logs")
    lines = [r.getMessage() for r in caplog.records if r.name.startswith("gateway.outbound")]
    assert any(sent["message_id"] in line and alice in line and bob in line for line in lines), lines
    assert "739154" not in caplog.text and alice_token not in caplog.text


async def test_threads_page_by_latest_activity(gateway: RunningGateway) -> None:
    alice, alice_token = await gateway.create_identity("alice")
    bob, _ = await gateway.create_identity("bob")
    async with gateway.client(alice_token) as a:
        first = await send(a, alice, to=[bob], subject="one")
        second = await send(a, alice, to=[bob], subject="two")
        third = await send(a, alice, to=[bob], subject="three")
        # A reply in the first thread makes it the latest.
        await a.post(f"/v1/identities/{alice}/messages/{first['id']}/reply", json={"text": "again"})
        page = (await a.get(f"/v1/identities/{alice}/threads", params={"limit": 2})).json()
        assert [t["thread_id"] for t in page["threads"]] == [first["thread_id"], third["thread_id"]]
        assert page["next_before"] is not None
        rest = (await a.get(f"/v1/identities/{alice}/threads", params={"before": page["next_before"]})).json()
        assert [t["thread_id"] for t in rest["threads"]] == [second["thread_id"]] and rest["next_before"] is None
        assert_error(await a.get(f"/v1/identities/{alice}/threads", params={"before": "nonsense"}), 400)
        assert_error(await a.get(f"/v1/identities/{alice}/threads/t_unknown"), 404, "not_found")


async def test_the_event_stream_never_carries_what_the_identity_sent(gateway: RunningGateway) -> None:
    alice, alice_token = await gateway.create_identity("alice")
    bob, _ = await gateway.create_identity("bob")
    url = f"/v1/identities/{alice}/events"
    async with gateway.client(alice_token) as a:
        async with asyncio.timeout(30), a.stream("GET", url, timeout=60) as stream:
            assert stream.status_code == 200
            await gateway.gw.hub.wait_for_count(lambda n: n == 1, timeout=20)
            await gateway.send(make_message(to=alice, subject="before"), [alice])
            await send(a, alice, to=[bob], subject="sent, not an event")
            await gateway.send(make_message(to=alice, subject="after"), [alice])
            live = await read_events(stream, 2)
        assert [json.loads(e["data"])["subject"] for e in live] == ["before", "after"]
        # A replay from before the send skips the sent copy too.
        async with asyncio.timeout(30), a.stream("GET", url, params={"last_event_id": live[0]["id"]}, timeout=60) as s:
            (replayed,) = await read_events(s, 1)
        assert json.loads(replayed["data"])["subject"] == "after"
