"""Managing webhooks over REST: who may do what, refused targets, rotation, disabling, retry, scopes."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
from standardwebhooks.webhooks import Webhook

from gateway.config import Settings
from tests.conftest import ADMIN_TOKEN, RunningGateway, assert_error, make_message, run_gateway
from tests.serve import ServeProcess, wait_until
from tests.webhooks.conftest import ALLOW, HOOKED
from tests.webhooks.receiver import Receiver
from tests.webhooks.test_webhook_delivery import calls, create_hook


@pytest.fixture
async def hooked(make_settings: Callable[..., Settings]) -> AsyncIterator[RunningGateway]:
    settings = make_settings(**HOOKED, webhook_disable_after="1s")  # disabled after a second of failures
    async with run_gateway(settings) as gateway:
        yield gateway


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("http://example.com/hook", "https"),
        ("https://127.0.0.1/hook", "loopback"),
        ("https://10.1.2.3/hook", "private"),
        ("https://169.254.169.254/latest/meta-data", "metadata"),
        ("https://[fe80::1]/hook", "link-local"),
        ("https://[::ffff:127.0.0.1]/hook", "loopback"),
        ("https://2130706433/hook", "loopback"),
        ("https://localhost/hook", "loopback"),
        ("ftp://example.com/", "https"),
        ("https://user:pw@example.com/", "user"),
        ("not a url", ""),
    ],
)
async def test_a_target_that_is_not_public_https_is_refused_when_created(
    gateway: RunningGateway, url: str, why: str
) -> None:
    address, token = await gateway.create_identity()
    async with gateway.client(token) as client:
        response = await client.post(f"/v1/identities/{address}/webhooks", json={"url": url})
    body = assert_error(response, 422, "webhook_target_refused")
    assert why in body["detail"].lower()
    assert (await gateway.http.get("/v1/webhooks")).json() == {"webhooks": []}


async def test_loopback_is_allowed_only_inside_the_operators_networks(
    make_settings: Callable[..., Settings], receiver: Receiver
) -> None:
    async with run_gateway(make_settings(webhook_allow="127.0.0.2/32")) as gateway:
        address, _ = await gateway.create_identity()
        refused = await gateway.http.post(f"/v1/identities/{address}/webhooks", json={"url": receiver.url})
        assert_error(refused, 422, "webhook_target_refused")


async def test_who_may_manage_which_webhook(hooked: RunningGateway, receiver: Receiver) -> None:
    mine, my_token = await hooked.create_identity("mine")
    _other, other_token = await hooked.create_identity("other")
    hook = await create_hook(hooked, mine, my_token, url=receiver.url)
    async with hooked.client(other_token) as client:
        assert_error(await client.post(f"/v1/identities/{mine}/webhooks", json={"url": receiver.url}), 403)
        assert_error(await client.get(f"/v1/identities/{mine}/webhooks"), 403)
        assert_error(await client.get(f"/v1/webhooks/{hook['id']}"), 404)  # as if it did not exist
        assert_error(await client.delete(f"/v1/webhooks/{hook['id']}"), 404)
        assert_error(await client.post("/v1/webhooks", json={"url": receiver.url}), 403)
        assert (await client.get("/v1/webhooks")).json() == {"webhooks": []}
    async with hooked.client(my_token) as client:
        listed = (await client.get("/v1/webhooks")).json()["webhooks"]
        assert [h["id"] for h in listed] == [hook["id"]] and "secret" not in listed[0]
        assert listed[0]["address"] == mine and listed[0]["scope"] == "identity"
    # A provisioner manages the webhooks of the identities it created, and no others.
    made = (await hooked.http.post("/v1/tokens", json={"scope": "provision", "label": "ci"})).json()
    async with hooked.client(made["token"]) as prov:
        created = (await prov.post("/v1/identities", json={"local_part": "provd"})).json()
        theirs = await create_hook(hooked, created["address"], made["token"], url=receiver.url)
        assert_error(await prov.get(f"/v1/webhooks/{hook['id']}"), 404)
        assert (await prov.get(f"/v1/webhooks/{theirs['id']}")).status_code == 200
        wide = await prov.post("/v1/webhooks", json={"url": receiver.url, "events": ["message.received"]})
        assert wide.status_code == 201 and wide.json()["scope"] == "provisioner"
        ids = {h["id"] for h in (await prov.get("/v1/webhooks")).json()["webhooks"]}
        assert ids == {theirs["id"], wide.json()["id"]}
    # The admin sees every one; deleting the identity deletes its webhooks.
    assert len((await hooked.http.get("/v1/webhooks")).json()["webhooks"]) == 3
    assert (await hooked.http.delete(f"/v1/identities/{mine}")).status_code == 204
    assert_error(await hooked.http.get(f"/v1/webhooks/{hook['id']}"), 404)


async def test_unknown_fields_bad_events_and_too_many_webhooks_are_4xx(
    hooked: RunningGateway, receiver: Receiver
) -> None:
    address, token = await hooked.create_identity()
    async with hooked.client(token) as client:
        url = f"/v1/identities/{address}/webhooks"
        assert_error(await client.post(url, json={"url": receiver.url, "event": ["x"]}), 400)
        assert_error(await client.post(url, json={"url": receiver.url, "events": ["message.opened"]}), 400)
        assert_error(await client.post(url, json={"url": receiver.url, "events": []}), 400)
        assert_error(await client.post(url, json={"url": receiver.url, "signing": "v2"}), 400)
        assert_error(await client.post(url, json={"url": "x" * 5000}), 400)
        for _ in range(hooked.settings.webhooks_per_identity):
            assert (await client.post(url, json={"url": receiver.url})).status_code == 201
        assert_error(await client.post(url, json={"url": receiver.url}), 409, "conflict")


async def test_after_a_rotation_both_secrets_sign_until_the_grace_period_ends(
    hooked: RunningGateway, receiver: Receiver
) -> None:
    address, token = await hooked.create_identity()
    hook = await create_hook(hooked, address, token, url=receiver.url)
    async with hooked.client(token) as client:
        rotated = (await client.post(f"/v1/webhooks/{hook['id']}/rotate", json={"grace_seconds": 3600})).json()
    assert rotated["secret"].startswith("whsec_") and rotated["secret"] != hook["secret"]
    await hooked.send(make_message(to=address), [address])
    (call,) = await calls(receiver, lambda c: len(c) >= 1)
    assert len(call.headers["webhook-signature"].split()) == 2
    Webhook(rotated["secret"]).verify(call.body, call.headers)
    Webhook(hook["secret"]).verify(call.body, call.headers)
    async with hooked.client(token) as client:
        ended = (await client.post(f"/v1/webhooks/{hook['id']}/rotate", json={"grace_seconds": 0})).json()
    await hooked.send(make_message(to=address, subject="after"), [address])
    second = (await calls(receiver, lambda c: len(c) >= 2))[1]
    assert len(second.headers["webhook-signature"].split()) == 1
    Webhook(ended["secret"]).verify(second.body, second.headers)


async def test_a_webhook_failing_long_enough_is_disabled_with_its_reason_and_a_retry_enables_it(
    hooked: RunningGateway, receiver: Receiver
) -> None:
    address, token = await hooked.create_identity()
    hook = await create_hook(hooked, address, token, url=receiver.url)
    receiver.status = 500
    receiver.answer = b"boom: receiver broke"
    await hooked.send(make_message(to=address), [address])
    url = f"/v1/webhooks/{hook['id']}"

    async def disabled() -> dict[str, object]:
        """The webhook once the worker disabled it (polled: the worker decides after a receiver's answer)."""
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            info: dict[str, object] = (await hooked.http.get(url)).json()
            if info["disabled_at"] is not None:
                return info
            await asyncio.sleep(0.05)  # polling another task's decision, bounded by the deadline
        raise AssertionError(f"never disabled after {len(receiver.calls)} calls")

    info = await disabled()
    assert "failed" in str(info["disabled_reason"]) and "HTTP 500" in str(info["disabled_reason"])
    (delivery,) = (await hooked.http.get(f"{url}/deliveries")).json()["deliveries"]
    detail = (await hooked.http.get(f"{url}/deliveries/{delivery['id']}")).json()
    assert detail["attempt_log"][0]["response_head"] == "boom: receiver broke"
    assert json.loads(detail["payload"])["address"] == address
    receiver.status = 204
    before = len(receiver.calls)
    retried = await hooked.http.post(f"{url}/deliveries/{delivery['id']}/retry")
    assert retried.status_code == 202 and retried.json()["status"] == "queued"
    after = await calls(receiver, lambda c: any(x.status == 204 for x in c[before:]))
    assert after[-1].headers["webhook-id"] == delivery["id"]
    assert (await hooked.http.get(url)).json()["disabled_at"] is None


async def test_token_wide_webhooks_cover_every_identity_in_their_scope(
    hooked: RunningGateway, receiver: Receiver
) -> None:
    with Receiver() as prov_receiver:
        admin_hook = (await hooked.http.post("/v1/webhooks", json={"url": receiver.url})).json()
        made = (await hooked.http.post("/v1/tokens", json={"scope": "provision", "label": "ci"})).json()
        async with hooked.client(made["token"]) as prov:
            prov_hook = (await prov.post("/v1/webhooks", json={"url": prov_receiver.url})).json()
            later = (await prov.post("/v1/identities", json={"local_part": "later"})).json()["address"]
        outsider, _ = await hooked.create_identity("outsider")
        await hooked.send(make_message(to=[later, outsider]), [later, outsider])
        everyone = await calls(receiver, lambda c: len(c) >= 2)
        assert sorted(json.loads(c.body)["address"] for c in everyone) == sorted([later, outsider])
        for c in everyone:
            Webhook(admin_hook["secret"]).verify(c.body, c.headers)
        (only,) = await calls(prov_receiver, lambda c: len(c) >= 1)
        assert json.loads(only.body)["address"] == later
        Webhook(prov_hook["secret"]).verify(only.body, only.headers)
        # A revoked provisioner's webhooks go with it.
        assert (await hooked.http.delete(f"/v1/tokens/{made['id']}")).status_code == 204
        assert_error(await hooked.http.get(f"/v1/webhooks/{prov_hook['id']}"), 404)


async def test_mail_an_identity_sends_is_announced_as_message_sent(hooked: RunningGateway, receiver: Receiver) -> None:
    sender, token = await hooked.create_identity("sender")
    to, _ = await hooked.create_identity("to")
    hook = await create_hook(hooked, sender, token, url=receiver.url, events=["message.sent"])
    async with hooked.client(token) as client:
        sent = await client.post(f"/v1/identities/{sender}/send", json={"to": [to], "subject": "hi", "text": "x"})
    assert sent.status_code == 201, sent.text
    (call,) = await calls(receiver, lambda c: len(c) >= 1)
    payload = Webhook(hook["secret"]).verify(call.body, call.headers)
    assert payload["type"] == "message.sent" and payload["address"] == sender
    assert payload["message"]["direction"] == "sent" and payload["message"]["to"] == [to]


def test_queued_deliveries_survive_a_sigkill_and_all_go_out_after_restart(tmp_path: Path) -> None:
    receiver = Receiver()
    receiver.start()
    receiver.stop()  # down: every call is refused, so deliveries stay queued
    env = {"AGENTMAIL_WEBHOOK_ALLOW": ALLOW, "AGENTMAIL_WEBHOOK_RETRY_FIRST": "0.05"}
    serve = ServeProcess(tmp_path / "data", tmp_path / "logs", env=env, admin_token=ADMIN_TOKEN)
    try:
        with serve, serve.client() as admin:
            made = admin.post("/v1/identities", json={"local_part": "durable"}).json()
            hook = admin.post(f"/v1/identities/{made['address']}/webhooks", json={"url": receiver.url}).json()
            with serve.smtp() as smtp:
                for n in range(5):
                    smtp.send_message(make_message(to=made["address"], subject=f"queued {n}"))
            deliveries = f"/v1/webhooks/{hook['id']}/deliveries"
            wait_until(lambda: len(admin.get(deliveries).json()["deliveries"]) == 5, 30, "five queued deliveries")
            assert {d["status"] for d in admin.get(deliveries).json()["deliveries"]} == {"queued"}
            serve.kill()  # SIGKILL: the deliveries are only in the store now
        receiver.start()
        with serve:
            receiver.wait_for(lambda c: len({x.headers["webhook-id"] for x in c if x.status == 204}) == 5, 60)
        subjects = [json.loads(c.body)["message"]["subject"] for c in receiver.accepted()]
        assert subjects == [f"queued {n}" for n in range(5)]
    finally:
        receiver.stop()


async def test_the_delivery_log_pages_without_skipping_or_repeating(hooked: RunningGateway, receiver: Receiver) -> None:
    address, token = await hooked.create_identity("paging")
    hook = await create_hook(hooked, address, token, url=receiver.url)
    # One SMTP session: the feeder enqueues them in one batch, at one time (a time cursor would tie).
    await hooked.send_many([(make_message(to=address, subject=f"m{n}"), [address]) for n in range(7)])
    await calls(receiver, lambda c: len(c) >= 7)
    url = f"/v1/webhooks/{hook['id']}/deliveries"
    seen: list[str] = []
    params: dict[str, str | int] = {"limit": 3}
    for _ in range(5):
        page = (await hooked.http.get(url, params=params)).json()
        seen += [d["id"] for d in page["deliveries"]]
        if page["next_before_id"] is None:
            break
        params["before_id"] = page["next_before_id"]
    assert len(seen) == 7 == len(set(seen))
    everything = (await hooked.http.get(url, params={"limit": 200})).json()
    assert [d["id"] for d in everything["deliveries"]] == seen and everything["next_before_id"] is None
    assert_error(await hooked.http.get(url, params={"before_id": "msg_nope"}), 404)
