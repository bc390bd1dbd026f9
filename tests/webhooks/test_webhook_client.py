"""The typed client's webhook methods against a real gateway, and `verify_webhook` on what it sends."""

from __future__ import annotations

import pytest

from gateway.client import AsyncGateway, WebhookVerificationError, verify_webhook
from tests.conftest import ADMIN_TOKEN, RunningGateway, make_message
from tests.webhooks.conftest import recorded
from tests.webhooks.receiver import Receiver
from tests.webhooks.test_webhook_delivery import calls


async def test_the_client_manages_webhooks_and_verifies_what_they_get(
    hooked: RunningGateway, receiver: Receiver
) -> None:
    address, token = await hooked.create_identity("clientele")
    url = str(hooked.http.base_url)
    async with AsyncGateway(url, ADMIN_TOKEN) as admin:
        mine = admin.identity(address, token)
        created = await mine.create_webhook(receiver.url, description="from the client")
        assert created.secret is not None and created.address == address
        assert [h.id for h in await mine.webhooks()] == [created.id]
        await hooked.send(make_message(to=address, subject="hello"), [address])
        (call,) = await calls(receiver, lambda c: len(c) >= 1)
        verify_webhook(call.body, call.headers, created.secret)
        with pytest.raises(WebhookVerificationError):
            verify_webhook(call.body + b" ", call.headers, created.secret)
        await recorded(hooked, created.id, 1)
        page = await admin.webhook_deliveries(created.id, limit=10)
        (delivery,) = page.deliveries
        assert delivery.id == call.headers["webhook-id"] and delivery.status == "delivered"
        detail = await admin.webhook_delivery(created.id, delivery.id)
        assert detail.attempt_log[0].status_code == 204
        again = await admin.retry_webhook_delivery(created.id, delivery.id)
        assert again.status == "queued"
        retried = await calls(receiver, lambda c: len(c) >= 2)
        assert retried[1].headers["webhook-id"] == delivery.id  # the same id: the receiver can tell
        rotated = await admin.rotate_webhook_secret(created.id, grace_seconds=0)
        assert rotated.secret is not None and rotated.secret != created.secret
        wide = await admin.create_webhook(receiver.url, events=["message.received"], signing="v1a")
        assert wide.scope == "admin" and wide.secret is None and (wide.public_key or "").startswith("whpk_")
        assert {h.id for h in await admin.webhooks()} == {created.id, wide.id}
        await admin.delete_webhook(wide.id)
        await mine.delete_webhook(created.id)
        assert await admin.webhooks() == []
