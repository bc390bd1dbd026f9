"""Attachments over the API: listed with ids and hashes, downloaded byte for byte, never rendered.

Every mail here is built with the `email` package (or written out where the package refuses
the name) and sent over real SMTP; each test runs on the embedded source and on Dovecot.
"""

from __future__ import annotations

import base64
import hashlib
import os
from collections.abc import Callable
from email.message import EmailMessage
from typing import Any
from urllib.parse import quote

from gateway.config import Settings
from gateway.mail.attachments import content_disposition
from gateway.ui.policy import CSP
from tests.conftest import RunningGateway, assert_error, make_message, run_gateway

PDF = b"%PDF-1.4\n1 0 obj<</Type/Catalog/OpenAction<</S/JavaScript/JS(app.alert(1))>>>>endobj\n%%EOF\n"
PNG = b"\x89PNG\r\n\x1a\n" + os.urandom(600)
LOGO = b"\x89PNG\r\n\x1a\n" + os.urandom(300)
HTML = b"<html><body><script>alert(document.cookie)</script>hi</body></html>"
SVG = b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'
CSV = "name,amount\r\nCaf\u00e9,12.50\r\n\u8acb\u6c42,3\r\n".encode()
JSON = b'{"invoice": 42, "paid": true}'
ICS = b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nSUMMARY:Standup\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"

SECURITY_HEADERS = {
    "x-content-type-options": "nosniff",
    "content-security-policy": CSP,
    "cache-control": "private, no-store",
}


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def inner_message() -> EmailMessage:
    inner = make_message(sender="Bob <bob@example.com>", subject="Quarterly report", text="see the numbers\n")
    inner.add_attachment(b"%PDF-1.4 inner", maintype="application", subtype="pdf", filename="inner.pdf")
    return inner


INNER = inner_message()
INNER_BYTES = INNER.as_bytes()  # written once: its boundary is fixed from here on


def rich_mail(to: str) -> EmailMessage:
    """text + HTML body, then: PDF, PNG, HTML, SVG, CSV, an inline image with a Content-ID, a
    forwarded message, JSON and a calendar (ids 2 to 10; the body alternatives are 1.1 and 1.2)."""
    msg = make_message(to=to, subject="files", text="See attached.\n", html='<p>logo <img src="cid:logo@x"></p>')
    msg.add_attachment(PDF, maintype="application", subtype="pdf", filename="invoice.pdf")
    msg.add_attachment(PNG, maintype="image", subtype="png", filename="chart.png")
    msg.add_attachment(HTML, maintype="text", subtype="html", filename="page.html")
    msg.add_attachment(SVG, maintype="image", subtype="svg+xml", filename="logo.svg")
    msg.add_attachment(CSV, maintype="text", subtype="csv", filename="data.csv")
    msg.add_attachment(LOGO, maintype="image", subtype="png", disposition="inline", cid="<logo@x>")
    msg.add_attachment(INNER)
    msg.add_attachment(JSON, maintype="application", subtype="json", filename="invoice.json")
    msg.add_attachment(ICS, maintype="text", subtype="calendar", filename="invite.ics")
    return msg


async def received(gateway: RunningGateway, msg: EmailMessage | bytes, address: str, token: str) -> dict[str, Any]:
    """Send `msg` to `address`; the message as its owner reads it."""
    await gateway.send(msg, [address])
    (summary,) = (await gateway.messages(address, token))["messages"]
    async with gateway.client(token) as client:
        response = await client.get(f"/v1/identities/{address}/messages/{summary['id']}")
    assert response.status_code == 200, response.text
    message: dict[str, Any] = response.json()
    return message


def url(address: str, message_id: str, attachment_id: str) -> str:
    return f"/v1/identities/{address}/messages/{message_id}/attachments/{attachment_id}"


# --- listing and download ---------------------------------------------------------------


async def test_every_kind_is_listed_and_downloads_byte_for_byte(gateway: RunningGateway) -> None:
    address, token = await gateway.create_identity("files")
    message = await received(gateway, rich_mail(address), address, token)
    listed = {a["attachment_id"]: a for a in message["attachments"]}
    assert message["attachments_truncated"] is False
    assert list(listed) == [str(i) for i in range(2, 11)]

    expected = {
        "2": ("invoice.pdf", "application/pdf", PDF, "attachment", None, "application/octet-stream"),
        "3": ("chart.png", "image/png", PNG, "attachment", None, "image/png"),
        "4": ("page.html", "text/html", HTML, "attachment", None, "application/octet-stream"),
        "5": ("logo.svg", "image/svg+xml", SVG, "attachment", None, "application/octet-stream"),
        "6": ("data.csv", "text/csv", CSV, "attachment", None, "text/csv"),
        "7": (None, "image/png", LOGO, "inline", "logo@x", "image/png"),
        "9": ("invoice.json", "application/json", JSON, "attachment", None, "application/json"),
        "10": ("invite.ics", "text/calendar", ICS, "attachment", None, "text/calendar"),
    }
    async with gateway.client(token) as client:
        for attachment_id, (name, declared, data, disposition, cid, served) in expected.items():
            entry = listed[attachment_id]
            assert entry == {
                "attachment_id": attachment_id,
                "filename": name,
                "content_type": declared,
                "size": len(data),
                "disposition": disposition,
                "content_id": cid,
                "sha256": sha(data),
            }
            response = await client.get(url(address, message["id"], attachment_id))
            assert response.status_code == 200, response.text
            assert response.content == data
            download_name = name or f"attachment-{attachment_id}.png"
            assert {k: response.headers[k] for k in (*SECURITY_HEADERS, "content-type", "content-disposition")} == {
                **SECURITY_HEADERS,
                "content-type": served,
                "content-disposition": f"attachment; filename=\"{download_name}\"; filename*=UTF-8''{download_name}",
            }

        # The forwarded message: one attachment (its PDF is not listed apart), its bytes an .eml.
        forwarded = listed["8"]
        assert (forwarded["filename"], forwarded["content_type"]) == ("Quarterly report.eml", "message/rfc822")
        response = await client.get(url(address, message["id"], "8"))
        assert response.status_code == 200
        assert response.headers["content-type"] == "application/octet-stream"
        assert response.headers["content-disposition"] == content_disposition("Quarterly report.eml")
        assert sha(response.content) == forwarded["sha256"] and len(response.content) == forwarded["size"]
        normalized = response.content.replace(b"\r\n", b"\n")
        assert normalized == INNER_BYTES  # every byte as sent (line breaks as stored)


async def test_renderable_types_are_never_served_as_such(gateway: RunningGateway) -> None:
    address, token = await gateway.create_identity("render")
    message = await received(gateway, rich_mail(address), address, token)
    async with gateway.client(token) as client:
        for attachment in message["attachments"]:
            response = await client.get(url(address, message["id"], attachment["attachment_id"]))
            served = response.headers["content-type"]
            assert not any(word in served for word in ("html", "svg", "xml", "javascript", "pdf", "message"))
            assert response.headers["content-disposition"].startswith("attachment; ")
            assert response.headers["x-content-type-options"] == "nosniff"


def nasty_mail(to: str) -> bytes:
    """Names the email package would not write as given: a path, NUL, an RTL override, 300
    characters, RFC 2231 Japanese, RFC 2047 encoded words."""
    long_name = "a" * 296 + ".pdf"
    japanese = "請求書 2026年.pdf"
    parts = [
        ('filename="../../etc/passwd"', b"path"),
        ('filename="C:\\\\Windows\\\\evil.exe"', b"windows path"),
        ("filename*=utf-8''bad%00name.txt", b"nul"),  # a raw NUL would not pass Postfix
        ("filename*=utf-8''invoice%E2%80%AEfdp.exe", b"rtl"),
        (f'filename="{long_name}"', b"long"),
        (f"filename*=utf-8''{quote(japanese)}", b"japanese"),
        ('filename="=?utf-8?b?UsOpc3Vtw6kucGRm?="', b"encoded words"),
        ('filename=".."', b"dots"),
    ]
    lines = [
        "From: sender@example.com",
        f"To: {to}",
        "Subject: nasty names",
        "MIME-Version: 1.0",
        'Content-Type: multipart/mixed; boundary="XX"',
        "",
        "--XX",
        "Content-Type: text/plain",
        "",
        "names",
    ]
    out = "\r\n".join(lines).encode("utf-8")
    for disposition, data in parts:
        out += (
            b"\r\n--XX\r\nContent-Type: application/octet-stream\r\nContent-Transfer-Encoding: base64\r\n"
            + f"Content-Disposition: attachment; {disposition}\r\n\r\n".encode()
            + base64.b64encode(data)
        )
    return out + b"\r\n--XX--\r\n"


async def test_nasty_file_names_are_made_safe_in_the_listing_and_the_header(gateway: RunningGateway) -> None:
    address, token = await gateway.create_identity("nasty")
    message = await received(gateway, nasty_mail(address), address, token)
    names = [a["filename"] for a in message["attachments"]]
    assert names == [
        "passwd",
        "evil.exe",
        "badname.txt",
        "invoicefdp.exe",
        "a" * 196 + ".pdf",
        "請求書 2026年.pdf",
        "Résumé.pdf",
        None,
    ]
    async with gateway.client(token) as client:
        for attachment, data in zip(
            message["attachments"],
            [b"path", b"windows path", b"nul", b"rtl", b"long", b"japanese", b"encoded words", b"dots"],
            strict=True,
        ):
            response = await client.get(url(address, message["id"], attachment["attachment_id"]))
            assert response.content == data
            header = response.headers["content-disposition"]
            assert header == content_disposition(
                attachment["filename"] or f"attachment-{attachment['attachment_id']}.bin"
            )
    japanese = message["attachments"][5]
    async with gateway.client(token) as client:
        response = await client.get(url(address, message["id"], japanese["attachment_id"]))
    assert response.headers["content-disposition"] == (
        "attachment; filename=\"___ 2026_.pdf\"; filename*=UTF-8''" + quote("請求書 2026年.pdf")
    )


# --- text -------------------------------------------------------------------------------


async def test_text_of_csv_json_and_calendar_and_not_of_a_pdf(gateway: RunningGateway) -> None:
    address, token = await gateway.create_identity("texts")
    message = await received(gateway, rich_mail(address), address, token)
    async with gateway.client(token) as client:
        for attachment_id, name, declared, text in [
            ("6", "data.csv", "text/csv", CSV.decode().replace("\r\n", "\n")),
            ("9", "invoice.json", "application/json", JSON.decode()),
            ("10", "invite.ics", "text/calendar", ICS.decode().replace("\r\n", "\n")),
            ("4", "page.html", "text/html", HTML.decode()),  # its source, inside JSON: never rendered
        ]:
            response = await client.get(url(address, message["id"], attachment_id) + "/text")
            assert response.status_code == 200, response.text
            assert response.headers["content-type"].startswith("application/json")
            assert response.json() == {
                "attachment_id": attachment_id,
                "filename": name,
                "content_type": declared,
                "text": text,
                "truncated": False,
            }
        for binary in ("2", "3", "8"):
            body = assert_error(await client.get(url(address, message["id"], binary) + "/text"), 422, "not_text")
            assert "download" in body["detail"]


# --- access and unknown ids -------------------------------------------------------------


async def test_another_identity_is_refused_before_any_lookup(gateway: RunningGateway) -> None:
    address, token = await gateway.create_identity("owner")
    _, other_token = await gateway.create_identity("other")
    message = await received(gateway, rich_mail(address), address, token)
    async with gateway.client(other_token) as client:
        for path in (url(address, message["id"], "2"), url(address, message["id"], "6") + "/text"):
            assert_error(await client.get(path), 403, "forbidden")
        # The same answer for a message that does not exist: nothing is looked up.
        assert_error(await client.get(url(address, "nope", "2")), 403, "forbidden")
    async with gateway.client(None) as client:
        assert_error(await client.get(url(address, message["id"], "2")), 401, "unauthorized")


async def test_unknown_message_or_attachment_is_404_and_nothing_is_marked_seen(gateway: RunningGateway) -> None:
    address, token = await gateway.create_identity("unknown")
    await gateway.send(rich_mail(address), [address])
    (summary,) = (await gateway.messages(address, token))["messages"]
    async with gateway.client(token) as client:
        for attachment_id in ("99", "1.1", "1", "0", "2.1", "abc", "2..1"):  # 1.x: the body, not files
            body = assert_error(await client.get(url(address, summary["id"], attachment_id)), 404, "not_found")
            assert "attachment" in body["detail"]
            assert_error(await client.get(url(address, summary["id"], attachment_id) + "/text"), 404, "not_found")
        body = assert_error(await client.get(url(address, "m_unknown", "2")), 404, "not_found")
        assert "message" in body["detail"]
        assert (await client.get(url(address, summary["id"], "2"))).status_code == 200
        assert (await client.get(url(address, summary["id"], "6") + "/text")).status_code == 200
    (after,) = (await gateway.messages(address, token))["messages"]
    assert after["seen"] is False


async def test_the_admin_downloads_too(gateway: RunningGateway) -> None:
    address, token = await gateway.create_identity("admin-dl")
    message = await received(gateway, rich_mail(address), address, token)
    response = await gateway.http.get(url(address, message["id"], "3"))
    assert response.status_code == 200 and response.content == PNG


# --- caps -------------------------------------------------------------------------------


async def test_caps_on_count_size_and_text(make_settings: Callable[..., Settings]) -> None:
    settings = make_settings(max_attachments=3, max_attachment_bytes=500, attachment_text_chars=10)
    async with run_gateway(settings) as gateway:
        address, token = await gateway.create_identity("caps")
        message = await received(gateway, rich_mail(address), address, token)
        assert [a["attachment_id"] for a in message["attachments"]] == ["2", "3", "4"]
        assert message["attachments_truncated"] is True
        async with gateway.client(token) as client:
            # Past the listing cap, still there by id.
            response = await client.get(url(address, message["id"], "9"))
            assert response.status_code == 200 and response.content == JSON
            # PNG (608 bytes) is over the 500-byte download cap; its text would not be.
            body = assert_error(await client.get(url(address, message["id"], "3")), 413, "too_large")
            assert "500" in body["detail"]
            text = (await client.get(url(address, message["id"], "6") + "/text")).json()
            assert text["text"] == "name,amoun" and text["truncated"] is True
