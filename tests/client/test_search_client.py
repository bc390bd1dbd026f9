"""Search and attachments through both client twins, against a real gateway (real SMTP in).

`search` pages the gateway's `?q=`; `attachment` / `save_attachment` / `attachment_text`
read a file of a message; the waits narrow with `q=`. The asyncio twin runs in the test's
loop; the blocking one in a worker thread, as a test suite's own thread would call it.
"""

from __future__ import annotations

import asyncio
import csv
import io
import os
import stat
from email.message import EmailMessage
from pathlib import Path

import pytest

from gateway.client import AsyncGateway, Gateway, InvalidRequest, NotFound, WaitTimeout
from gateway.client.sync import Identity
from tests.conftest import ADMIN_TOKEN, RunningGateway, make_message

PDF = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n" + bytes(range(256)) * 64 + b"\n%%EOF\n"  # 16 KiB and more, every byte value
ROWS = [["invoice", "amount"], ["INV-1", "forty-two"], ["INV-2", "\u00e9t\u00e9 \u6c49\u5b57"]]


def invoice_mail(to: str, subject: str = "Your receipt") -> EmailMessage:
    mail = make_message(sender="Stripe <receipts@stripe.com>", to=to, subject=subject, text="Invoice attached.")
    mail.add_attachment(PDF, maintype="application", subtype="pdf", filename="invoice.pdf")
    table = io.StringIO()
    csv.writer(table, lineterminator="\n").writerows(ROWS)
    mail.add_attachment(table.getvalue(), subtype="csv", filename="rows.csv")
    return mail


def plain(to: str, subject: str, sender: str = "news@notstripe.com") -> EmailMessage:
    return make_message(sender=sender, to=to, subject=subject, text=f"About {subject}.")


async def test_search_pages_and_a_bad_query_names_its_term(gateway: RunningGateway) -> None:
    url = str(gateway.http.base_url)
    with Gateway(url, ADMIN_TOKEN) as gw:
        me = await asyncio.to_thread(gw.create_identity, "seeker")
        mails = [(invoice_mail(me.address, f"Receipt {n}"), [me.address]) for n in ("one", "two", "three")]
        await gateway.send_many([(plain(me.address, "Weekly receipt roundup"), [me.address]), *mails])

        first = await asyncio.to_thread(me.search, "from:@stripe.com receipt", limit=2)
        assert [m.subject for m in first.messages] == ["Receipt three", "Receipt two"]
        assert first.next_before_id == first.messages[-1].id
        rest = await asyncio.to_thread(me.search, "from:@stripe.com receipt", limit=2, before_id=first.next_before_id)
        assert [m.subject for m in rest.messages] == ["Receipt one"] and rest.next_before_id is None
        assert [m.subject for m in (await asyncio.to_thread(me.search, "roundup")).messages] == [
            "Weekly receipt roundup"
        ]

        with pytest.raises(InvalidRequest) as raised:
            await asyncio.to_thread(me.search, "from:stripe receipt")
        assert raised.value.status == 400 and raised.value.error == "invalid_query"
        assert "(at character 1: 'from:stripe')" in raised.value.detail

        async with AsyncGateway(url, ADMIN_TOKEN) as agw:
            twin = agw.identity(me.address, me.token)
            awaited = await twin.search("from:@stripe.com receipt", limit=2)
            assert awaited == first  # the same answer, awaited


async def test_attachments_as_bytes_into_a_file_and_as_text(gateway: RunningGateway, tmp_path: Path) -> None:
    url = str(gateway.http.base_url)
    tmp_path = tmp_path / "downloads"  # beside the gateway's own data directory
    tmp_path.mkdir()
    with Gateway(url, ADMIN_TOKEN) as gw:
        me = await asyncio.to_thread(gw.create_identity, "filer")
        await gateway.send(invoice_mail(me.address), [me.address])
        (summary,) = (await asyncio.to_thread(me.search, "has:attachment filename:invoice")).messages
        message = await asyncio.to_thread(me.get, summary.id)
        files = {a.filename: a for a in message.attachments}
        pdf, table = files["invoice.pdf"], files["rows.csv"]
        assert pdf.attachment_id and table.attachment_id and pdf.attachment_id != table.attachment_id

        assert await asyncio.to_thread(me.attachment, summary.id, pdf.attachment_id) == PDF
        target = tmp_path / "saved.pdf"
        target.write_bytes(b"an older file, replaced whole")
        saved = await asyncio.to_thread(me.save_attachment, summary.id, pdf.attachment_id, target)
        assert saved == target and target.read_bytes() == PDF
        assert stat.S_IMODE(os.stat(target).st_mode) == 0o600
        assert sorted(p.name for p in tmp_path.iterdir()) == ["saved.pdf"]  # no part file left behind

        text = await asyncio.to_thread(me.attachment_text, summary.id, table.attachment_id)
        assert list(csv.reader(io.StringIO(text.text))) == ROWS
        assert (text.attachment_id, text.filename, text.truncated) == (table.attachment_id, "rows.csv", False)
        with pytest.raises(InvalidRequest) as not_text:
            await asyncio.to_thread(me.attachment_text, summary.id, pdf.attachment_id)
        assert not_text.value.error == "not_text"

        # An unknown attachment: NotFound, and the file asked for is neither made nor touched.
        missing = tmp_path / "missing.pdf"
        with pytest.raises(NotFound):
            await asyncio.to_thread(me.save_attachment, summary.id, "9", missing)
        with pytest.raises(NotFound):
            await asyncio.to_thread(me.attachment, summary.id, "9")
        assert sorted(p.name for p in tmp_path.iterdir()) == ["saved.pdf"]

        async with AsyncGateway(url, ADMIN_TOKEN) as agw:
            twin = agw.identity(me.address, me.token)
            assert await twin.attachment(summary.id, pdf.attachment_id) == PDF
            again = await twin.save_attachment(summary.id, pdf.attachment_id, str(tmp_path / "async.pdf"))
            assert again.read_bytes() == PDF
            assert await twin.attachment_text(summary.id, table.attachment_id) == text
            with pytest.raises(NotFound):
                await twin.save_attachment(summary.id, "9", tmp_path / "nothing.pdf")
        assert sorted(p.name for p in tmp_path.iterdir()) == ["async.pdf", "saved.pdf"]


async def test_waits_take_q_and_a_timeout_names_it(gateway: RunningGateway) -> None:
    url = str(gateway.http.base_url)
    with Gateway(url, ADMIN_TOKEN) as gw:
        me: Identity = await asyncio.to_thread(gw.create_identity, "patient")
        # Older and unseen, but not a match: every wait below goes past it.
        await gateway.send(plain(me.address, "Your code is 111111", sender="noreply@other.example"), [me.address])
        await gateway.send(
            make_message(sender="noreply@shop.example", to=me.address, subject="Code", text="Your code is 482913."),
            [me.address],
        )
        assert await asyncio.to_thread(me.wait_for_code, 10, q="from:@shop.example") == "482913"
        with pytest.raises(WaitTimeout) as raised:
            await asyncio.to_thread(me.wait, 0.5, q="from:@shop.example")  # the only match is seen now
        assert "matching 'from:@shop.example'" in str(raised.value)

        async with AsyncGateway(url, ADMIN_TOKEN) as agw:
            twin = agw.identity(me.address, me.token)
            pending = asyncio.create_task(twin.wait(20, q="subject:invoice has:attachment"))
            await gateway.gw.hub.wait_for_count(lambda n: n == 1, timeout=20)
            await gateway.send(plain(me.address, "Invoice without a file"), [me.address])
            await gateway.send(invoice_mail(me.address, "Invoice with a file"), [me.address])
            assert (await pending).subject == "Invoice with a file"
            assert await twin.next_message(0, q="subject:invoice has:attachment") is None
            with pytest.raises(InvalidRequest):
                await twin.next_message(0, q="(unbalanced")
