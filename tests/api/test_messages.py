"""An identity's mail over the API: listing, paging, filters, reading, marking, raw and delete.

Listings are newest first, paged by `before_id`; with `after_id` they run oldest first.
Reading marks a message seen for the identity, never for the admin.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from tests.conftest import DOMAIN, RunningGateway, assert_error, make_message


async def mailbox(gateway: RunningGateway, count: int, name: str = "inbox") -> tuple[str, str, list[str]]:
    """(address, token, ids oldest first) of an identity that received `count` mails m0..m<count-1>."""
    address, token = await gateway.create_identity(name)
    for i in range(count):
        await gateway.send(make_message(to=address, subject=f"m{i}"), [address])
    listing = await gateway.messages(address, token, limit=200)
    ids = [m["id"] for m in reversed(listing["messages"])]
    assert len(ids) == count
    return address, token, ids


async def raw_of(gateway: RunningGateway, address: str, token: str, message_id: str) -> bytes:
    async with gateway.client(token) as client:
        response = await client.get(f"/v1/identities/{address}/messages/{message_id}/raw")
    assert response.status_code == 200, response.text
    return response.content


# --- listing and paging -----------------------------------------------------------------


async def test_pages_newest_first_until_next_before_id_is_null(gateway: RunningGateway) -> None:
    address, token, ids = await mailbox(gateway, 5)
    pages: list[list[str]] = []
    paged_ids: list[str] = []
    cursor = None
    while True:
        params: dict[str, object] = {"limit": 2} if cursor is None else {"limit": 2, "before_id": cursor}
        page = await gateway.messages(address, token, **params)
        assert "next_after_id" not in page
        pages.append([m["subject"] for m in page["messages"]])
        paged_ids += [m["id"] for m in page["messages"]]
        cursor = page["next_before_id"]
        if cursor is None:
            break
        assert cursor == page["messages"][-1]["id"]
    assert pages == [["m4", "m3"], ["m2", "m1"], ["m0"]]
    assert paged_ids == ids[::-1]  # every message exactly once, newest first


async def test_after_id_pages_oldest_first(gateway: RunningGateway) -> None:
    address, token, ids = await mailbox(gateway, 5)
    first = await gateway.messages(address, token, after_id=ids[0], limit=2)
    assert "next_before_id" not in first
    assert [m["subject"] for m in first["messages"]] == ["m1", "m2"]
    assert first["next_after_id"] == ids[2]
    second = await gateway.messages(address, token, after_id=first["next_after_id"], limit=2)
    assert [m["subject"] for m in second["messages"]] == ["m3", "m4"]
    assert second["next_after_id"] is None
    last = await gateway.messages(address, token, after_id=ids[-1])
    assert last == {"messages": [], "next_after_id": None}


async def test_deleted_message_is_still_a_valid_cursor(gateway: RunningGateway) -> None:
    address, token, ids = await mailbox(gateway, 4)
    page = await gateway.messages(address, token, limit=2)
    async with gateway.client(token) as client:
        for m in page["messages"]:
            assert (await client.delete(f"/v1/identities/{address}/messages/{m['id']}")).status_code == 204
    rest = await gateway.messages(address, token, limit=2, before_id=page["next_before_id"])
    assert [m["subject"] for m in rest["messages"]] == ["m1", "m0"]
    assert [m["id"] for m in rest["messages"]] == ids[1::-1]


async def test_summary_shape(gateway: RunningGateway) -> None:
    address, token = await gateway.create_identity("shape")
    await gateway.send(make_message(to=address, sender="Shop <noreply@shop.example>", subject="Your code"), [address])
    (summary,) = (await gateway.messages(address, token))["messages"]
    assert set(summary) == {
        *("id", "from", "to", "subject", "received_at", "size", "seen", "codes", "links"),
        *("direction", "thread_id"),
    }
    assert summary["direction"] == "received" and summary["thread_id"].startswith("t_")
    assert summary["from"] == "Shop <noreply@shop.example>"
    assert summary["to"] == [address]
    assert summary["seen"] is False
    assert summary["size"] == len(await raw_of(gateway, address, token, summary["id"]))
    assert isinstance(summary["codes"], list) and isinstance(summary["links"], list)
    received = datetime.fromisoformat(summary["received_at"])
    assert received.utcoffset() == timedelta(0)
    assert abs(datetime.now(UTC) - received) < timedelta(minutes=1)


# --- filters ----------------------------------------------------------------------------


async def test_since_keeps_mail_at_or_after_an_instant(gateway: RunningGateway) -> None:
    address, token, _ = await mailbox(gateway, 4)
    listing = await gateway.messages(address, token)
    m2 = next(m for m in listing["messages"] if m["subject"] == "m2")
    at_m2 = datetime.fromisoformat(m2["received_at"])

    # Receipt times have the source's resolution (IMAP: whole seconds), so mail received in
    # m2's very instant is "at or after" it too; on the Maildir that is m2 alone.
    expected = [m["subject"] for m in listing["messages"] if datetime.fromisoformat(m["received_at"]) >= at_m2]
    assert expected[:2] == ["m3", "m2"]
    if gateway.gw.source.resolution < 1:
        assert expected == ["m3", "m2"]
    assert await gateway.subjects(address, token, since=m2["received_at"]) == expected
    same_instant_elsewhere = at_m2.astimezone(timezone(timedelta(hours=5, minutes=30))).isoformat()
    assert await gateway.subjects(address, token, since=same_instant_elsewhere) == expected
    future = (datetime.now(UTC) + timedelta(days=1)).isoformat()
    assert await gateway.subjects(address, token, since=future) == []
    long_ago = "2000-01-01T00:00:00Z"
    assert await gateway.subjects(address, token, since=long_ago) == ["m3", "m2", "m1", "m0"]


@pytest.mark.parametrize("since", ["2026-01-01T00:00:00", "2026-01-01", "yesterday", "1700000000x"])
async def test_since_without_time_zone_or_unparsable_is_400(gateway: RunningGateway, since: str) -> None:
    address, token = await gateway.create_identity("tz")
    async with gateway.client(token) as client:
        response = await client.get(f"/v1/identities/{address}/messages", params={"since": since})
    assert_error(response, 400, "invalid_request")


async def test_from_and_subject_filters_are_case_insensitive_substrings(gateway: RunningGateway) -> None:
    address, token = await gateway.create_identity("filters")
    mails = [
        ("Shop <NoReply@Shop.Example>", "Your CODE is 123456"),
        ("Bank <alerts@bank.example>", "Your code expires"),
        ("Shop <noreply@shop.example>", "Order shipped"),
    ]
    for sender, subject in mails:
        await gateway.send(make_message(to=address, sender=sender, subject=subject), [address])

    cases = [
        ({"from": "noreply@shop"}, ["Order shipped", "Your CODE is 123456"]),
        ({"from": "SHOP.EXAMPLE"}, ["Order shipped", "Your CODE is 123456"]),
        ({"from": "Bank"}, ["Your code expires"]),
        ({"subject": "your code"}, ["Your code expires", "Your CODE is 123456"]),
        ({"subject": "CODE", "from": "shop"}, ["Your CODE is 123456"]),
        ({"subject": "nothing like it"}, []),
        ({"from": "nobody@nowhere"}, []),
        ({"subject": "%"}, []),  # a literal, not a LIKE pattern
        ({"subject": ""}, ["Order shipped", "Your code expires", "Your CODE is 123456"]),
    ]
    for params, expected in cases:
        assert await gateway.subjects(address, token, **params) == expected, params


# --- reading, marking -------------------------------------------------------------------


async def seen_marks(gateway: RunningGateway, address: str, token: str) -> dict[str, bool]:
    return {m["subject"]: m["seen"] for m in (await gateway.messages(address, token))["messages"]}


async def test_get_marks_seen_for_the_identity_but_not_for_the_admin(gateway: RunningGateway) -> None:
    address, token, ids = await mailbox(gateway, 2)
    path = f"/v1/identities/{address}/messages/{ids[0]}"

    by_admin = await gateway.http.get(path)
    assert by_admin.status_code == 200, by_admin.text
    assert by_admin.json()["seen"] is False
    assert await seen_marks(gateway, address, token) == {"m0": False, "m1": False}

    async with gateway.client(token) as client:
        by_self = await client.get(path)
    assert by_self.status_code == 200, by_self.text
    assert by_self.json()["seen"] is True
    assert await seen_marks(gateway, address, token) == {"m0": True, "m1": False}
    assert (await gateway.http.get(path)).json()["seen"] is True  # the admin sees the identity's mark


async def test_full_message_shape(gateway: RunningGateway) -> None:
    address, token = await gateway.create_identity("full")
    html = "<p>Your code is <b>482913</b></p>"
    await gateway.send(make_message(to=address, subject="Both parts", text="Your code is 482913", html=html), [address])
    (summary,) = (await gateway.messages(address, token))["messages"]
    async with gateway.client(token) as client:
        full = (await client.get(f"/v1/identities/{address}/messages/{summary['id']}")).json()
    assert set(full) == set(summary) | {
        *("headers", "text", "html", "attachments", "truncated", "delivery", "attachments_truncated")
    }
    assert full["delivery"] == []  # received mail: only sent mail has recipients to report on
    assert "482913" in full["text"]
    assert html in full["html"]  # raw HTML for agents
    assert {"name": "Subject", "value": "Both parts"} in full["headers"]
    assert full["attachments"] == [] and full["attachments_truncated"] is False
    assert full["truncated"] is False


async def test_patch_sets_and_clears_seen(gateway: RunningGateway) -> None:
    address, token, ids = await mailbox(gateway, 1)
    path = f"/v1/identities/{address}/messages/{ids[0]}"
    async with gateway.client(token) as client:
        assert (await client.get(path)).status_code == 200
        assert await seen_marks(gateway, address, token) == {"m0": True}

        unmarked = await client.patch(path, json={"seen": False})
        assert unmarked.status_code == 200, unmarked.text
        assert unmarked.json()["id"] == ids[0] and unmarked.json()["seen"] is False
        assert await seen_marks(gateway, address, token) == {"m0": False}

        marked = await client.patch(path, json={"seen": True})
        assert marked.json()["seen"] is True
        assert await seen_marks(gateway, address, token) == {"m0": True}

    by_admin = await gateway.http.patch(path, json={"seen": False})  # the admin may mark for it
    assert by_admin.status_code == 200 and by_admin.json()["seen"] is False
    assert await seen_marks(gateway, address, token) == {"m0": False}


async def test_raw_is_the_mailbox_copy_byte_for_byte(gateway: RunningGateway) -> None:
    address, token = await gateway.create_identity("raw")
    await gateway.send(make_message(to=address, subject="Raw ünïcode", html="<p>hi</p>"), [address])
    (message_id,) = await gateway.mailbox_ids()
    async with gateway.client(token) as client:
        response = await client.get(f"/v1/identities/{address}/messages/{message_id}/raw")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("message/rfc822")
    stored = await gateway.stored(message_id)
    assert response.content == stored
    assert (await gateway.http.get(f"/v1/identities/{address}/messages/{message_id}/raw")).content == stored


async def test_delete_hides_the_message_from_every_route(gateway: RunningGateway) -> None:
    address, token, ids = await mailbox(gateway, 2)
    path = f"/v1/identities/{address}/messages/{ids[0]}"
    async with gateway.client(token) as client:
        assert (await client.delete(path)).status_code == 204
        assert await gateway.subjects(address, token) == ["m1"]
        for response in (
            await client.get(path),
            await client.get(f"{path}/raw"),
            await client.patch(path, json={"seen": True}),
            await client.delete(path),
        ):
            assert_error(response, 404, "not_found")
    assert await gateway.subjects(address) == ["m1"]  # hidden from the admin's view of it too
    assert (await gateway.mailbox_ids()) == ids[1:]  # nobody else saw it: the copy is expunged


# --- what is not there ------------------------------------------------------------------

MESSAGE_ROUTES = [
    pytest.param("GET", "", None, id="get"),
    pytest.param("GET", "/raw", None, id="raw"),
    pytest.param("PATCH", "", {"seen": True}, id="mark"),
    pytest.param("DELETE", "", None, id="delete"),
]


@pytest.mark.parametrize(("method", "suffix", "body"), MESSAGE_ROUTES)
@pytest.mark.parametrize(
    "message_id",
    [
        pytest.param("1700000000.M000000P1Q1.agentmail", id="well-formed"),
        pytest.param("not-a-message-id", id="malformed"),
        pytest.param("..%2F..%2Fidentities.db", id="path-traversal"),
    ],
)
async def test_unknown_message_on_own_path_is_404(
    gateway: RunningGateway, method: str, suffix: str, body: object, message_id: str
) -> None:
    address, token = await gateway.create_identity("alice")
    async with gateway.client(token) as client:
        response = await client.request(method, f"/v1/identities/{address}/messages/{message_id}{suffix}", json=body)
    assert_error(response, 404, "not_found")


async def test_unknown_cursor_is_404(gateway: RunningGateway) -> None:
    address, token = await gateway.create_identity("alice")
    for name in ("before_id", "after_id"):
        async with gateway.client(token) as client:
            response = await client.get(f"/v1/identities/{address}/messages", params={name: "nope"})
        assert_error(response, 404, "not_found")


@pytest.mark.parametrize(
    ("method", "suffix", "body"),
    [pytest.param("GET", "/messages", None, id="list"), *MESSAGE_ROUTES],
)
async def test_unknown_identity_is_404_for_the_admin(
    gateway: RunningGateway, method: str, suffix: str, body: object
) -> None:
    path = f"/v1/identities/nobody@{DOMAIN}"
    if suffix != "/messages":
        suffix = "/messages/1700000000.M000000P1Q1.agentmail" + suffix
    assert_error(await gateway.http.request(method, path + suffix, json=body), 404, "not_found")
    assert_error(await gateway.http.get("/v1/identities/someone@other.example/messages"), 404)


async def test_mail_delivered_before_the_identity_existed_is_invisible(gateway: RunningGateway) -> None:
    early = f"early@{DOMAIN}"
    await gateway.send(make_message(to=early, subject="Too early"), [early])
    (early_id,) = await gateway.mailbox_ids()

    address, token = await gateway.create_identity("early")
    assert address == early
    assert await gateway.subjects(address, token) == []
    assert await gateway.subjects(address) == []
    async with gateway.client(token) as client:
        for response in (
            await client.get(f"/v1/identities/{address}/messages/{early_id}"),
            await client.get(f"/v1/identities/{address}/messages/{early_id}/raw"),
            await client.get(f"/v1/identities/{address}/messages", params={"before_id": early_id}),
        ):
            assert_error(response, 404, "not_found")

    await gateway.send(make_message(to=early, subject="On time"), [early])
    assert await gateway.subjects(address, token) == ["On time"]
