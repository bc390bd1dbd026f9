"""/ui: an identity's page lists its webhooks and their latest deliveries, read-only, escaped."""

from __future__ import annotations

import re

from tests.conftest import RunningGateway, make_message
from tests.ui.test_sessions import login, mail_path, ui_client
from tests.webhooks.conftest import recorded
from tests.webhooks.receiver import Receiver
from tests.webhooks.test_webhook_delivery import calls, create_hook


async def test_the_identity_page_lists_its_webhooks_and_their_latest_deliveries(
    hooked: RunningGateway, receiver: Receiver
) -> None:
    address, token = await hooked.create_identity("paged")
    hook = await create_hook(hooked, address, token, url=receiver.url, description="<b>ci</b> & co")
    await hooked.send(make_message(to=address, subject="one"), [address])
    (call,) = await calls(receiver, lambda c: len(c) >= 1)
    delivered = await recorded(hooked, hook["id"], 1)
    assert delivered and delivered[0]["status"] == "delivered"
    async with ui_client(hooked) as client:
        await login(client, token)
        page = (await client.get(mail_path(address))).text
    section = page[page.index("<h2>Webhooks</h2>") :]
    assert receiver.url in section and "message.received" in section
    assert "&lt;b&gt;ci&lt;/b&gt; &amp; co" in section and "<b>ci</b>" not in section
    assert call.headers["webhook-id"] in section and re.search(r"delivered · 1 attempt · HTTP 204", section)
    assert hook["secret"] not in page
    assert "<form" not in section.split("</ol>")[0]  # read-only: managed over the API


async def test_a_page_without_webhooks_has_no_webhook_section(gateway: RunningGateway) -> None:
    address, token = await gateway.create_identity("plain")
    async with ui_client(gateway) as client:
        await login(client, token)
        page = (await client.get(mail_path(address))).text
    assert "Webhooks" not in page
