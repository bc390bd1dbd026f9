"""/ui search and attachment links on a real gateway, mail sent over real SMTP (issue 17, point 5).

The search box is a GET form on an identity's list with the API's `q` language: what was typed
comes back in the box escaped, every link of the result keeps it, and a query that cannot be
read is the same page as a 400 saying why (never a 500). Attachments on a message page are
download links to a /ui route behind the same session as the page, answered exactly like the
API's download route.
"""

from __future__ import annotations

import hashlib
import html
import re
from email.message import EmailMessage

import pytest

from gateway.ui import controller, pages
from gateway.ui.pages import Nav
from tests.conftest import RunningGateway, make_message
from tests.ui.test_pages import assert_policy, hrefs, mailed_identity, message_path
from tests.ui.test_sessions import login, mail_path, ui_client

NAV = Nav("alice@x.test", "csrf-token", admin=False, home="/ui/identities/alice@x.test")
ADDRESS = "alice@x.test"


def search_box(page: str) -> str:
    """The one search form of a list page."""
    forms: list[str] = re.findall(r"<form class=\"search\"[^>]*>.*?</form>", page, re.S)
    (form,) = forms
    return form


def subjects(page: str) -> list[str]:
    return [html.unescape(s) for s in re.findall(r'class="subject" href="[^"]+">([^<]*)<', page)]


# --- the markup (pure render functions) ---------------------------------------------------


def test_the_search_box_is_a_get_form_to_the_list_with_no_csrf_token() -> None:
    page = pages.messages_page(NAV, ADDRESS, [], next_before=None, paged=False)
    form = search_box(page)
    assert 'method="get"' in form and f'action="{pages.messages_url(ADDRESS)}"' in form
    assert re.search(r'<input id="q" name="q" type="search" value=""', form)
    assert 'name="csrf"' not in form  # a search changes nothing: it carries no session secret into a URL
    assert "Clear" not in form
    assert "No messages." in page


def test_the_typed_query_comes_back_escaped_and_every_link_keeps_it() -> None:
    typed = 'from:@x.test "a<b>" \' & -"/ui"'
    page = pages.messages_page(NAV, ADDRESS, [], next_before="m1", paged=True, q=typed)
    form = search_box(page)
    value = re.search(r'name="q" type="search" value="([^"]*)"', form)
    assert value is not None and html.unescape(value[1]) == typed
    assert "<b>" not in page and "a&lt;b&gt;" in page
    assert "No messages match this search." in page
    links = [h for h in hrefs(page) if h.startswith(mail_path(ADDRESS) + "?")]
    older = pages.messages_url(ADDRESS, q=typed, before="m1")
    assert older in links and pages.messages_url(ADDRESS, q=typed) in links  # Older, Newest (and Refresh, off)
    assert all("q=" in h for h in links if "before=" in h or "refresh=" in h)
    assert pages.messages_url(ADDRESS) in hrefs(page)  # Clear
    assert f"<title>{html.escape(typed)} · {ADDRESS} · agentmail</title>" in page


def test_an_unreadable_query_shows_its_error_in_place_of_the_list() -> None:
    page = pages.messages_page(
        NAV, ADDRESS, [], next_before=None, paged=False, q="has:<x>", query_error="has: takes <attachment>"
    )
    assert '<p class="error" role="alert">has: takes &lt;attachment&gt;</p>' in page
    assert 'value="has:&lt;x&gt;"' in search_box(page)
    assert "No messages" not in page


def test_messages_url_puts_q_first_and_encodes_it() -> None:
    assert pages.messages_url(ADDRESS, q="a b&c", before="m 1") == f"{mail_path(ADDRESS)}?q=a+b%26c&before=m+1"
    assert pages.messages_url(ADDRESS) == mail_path(ADDRESS)


# --- on a real gateway --------------------------------------------------------------------


async def test_a_malformed_query_is_a_400_page_with_the_detail_and_the_box(gateway: RunningGateway) -> None:
    address, token, _ = await mailed_identity(gateway, "alice", make_message(subject="hello"))
    async with ui_client(gateway) as client:
        await login(client, token)
        responses = {
            typed: await client.get(mail_path(address), params={"q": typed})
            for typed in ('"unterminated', "has:nothing", "(a", "bogus:op", "from:not an address", "x" * 1001)
        }
        blank = await client.get(mail_path(address), params={"q": "   "})
    for typed, response in responses.items():
        assert response.status_code == 400, (typed, response.text)
        assert_policy(response)
        page = response.text
        assert '<p class="error" role="alert">' in page, typed
        assert "hello" not in subjects(page)
        value = re.search(r'name="q" type="search" value="([^"]*)"', page)
        assert value is not None and html.unescape(value[1]) == typed.strip()
    assert "unterminated quote" in responses['"unterminated'].text
    assert "has: takes attachment, code or link" in responses["has:nothing"].text
    assert "longer than 1000 characters" in responses["x" * 1001].text
    assert blank.status_code == 200 and subjects(blank.text) == ["hello"]  # an empty box: the whole list


async def test_search_pages_keep_q_in_the_older_link(gateway: RunningGateway, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(controller, "PAGE_SIZE", 2)
    address, token, _ = await mailed_identity(
        gateway, "alice", *(make_message(subject=f"m{i}", text="hello") for i in range(3))
    )
    async with ui_client(gateway) as client:
        await login(client, token)
        first = await client.get(mail_path(address), params={"q": "hello", "refresh": "10"})
        older = re.search(r'href="([^"]+)">Older', first.text)
        assert older is not None
        second = await client.get(html.unescape(older[1]))
    assert first.status_code == 200 and second.status_code == 200
    assert html.unescape(older[1]).startswith(f"{mail_path(address)}?q=hello&before=")
    assert first.headers["refresh"].startswith(f"10; url={mail_path(address)}?q=hello&refresh=10&until=")
    assert subjects(first.text) == ["m2", "m1"] and subjects(second.text) == ["m0"]


async def test_search_shows_only_matching_mail(gateway: RunningGateway) -> None:
    address, token, _ = await mailed_identity(
        gateway,
        "alice",
        make_message(subject="Your Stripe receipt", sender="billing@stripe.com", text="Paid 12 EUR."),
        make_message(subject="Verify your address", sender="noreply@shop.example", text="Code 482913"),
        make_message(subject="Receipts policy", sender="bigbilling@stripe.com.evil.example", text="receipt"),
    )
    async with ui_client(gateway) as client:
        await login(client, token)
        shown = {
            q: subjects((await client.get(mail_path(address), params={"q": q})).text)
            for q in ("receipt", "from:@stripe.com", "verif*", "-receipt", "receipt OR verify", '"your address"')
        }
    assert shown == {
        "receipt": ["Receipts policy", "Your Stripe receipt"],
        "from:@stripe.com": ["Your Stripe receipt"],  # exact domain: never the look-alike
        "verif*": ["Verify your address"],
        "-receipt": ["Verify your address"],
        "receipt OR verify": ["Receipts policy", "Verify your address", "Your Stripe receipt"],
        '"your address"': ["Verify your address"],
    }


# --- attachment downloads ---------------------------------------------------------------------

PDF = b"%PDF-1.4\n" + bytes(range(256)) * 8
PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000") + b"\x00" * 40
HOSTILE_HTML = b"<html><script>alert(1)</script><p>hi</p></html>"
SVG = b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'
CSV = "name;city\nJürgen;Köln\n".encode()


def attachment_mail() -> EmailMessage:
    mail = make_message(subject="Files", text="See attached.")
    mail.add_attachment(PDF, maintype="application", subtype="pdf", filename="invoice.pdf")
    mail.add_attachment(PNG, maintype="image", subtype="png", filename="../../etc/logo.png")
    mail.add_attachment(HOSTILE_HTML, maintype="text", subtype="html", filename="page.html")
    mail.add_attachment(SVG, maintype="image", subtype="svg+xml", filename="logo.svg")
    mail.add_attachment(CSV, maintype="text", subtype="csv", filename=("utf-8", "", "請求書.csv"))
    return mail


# The downloads' own headers (the API route's); a /ui response also gets the pages' policy.
DOWNLOAD_HEADERS = ("content-type", "content-disposition", "x-content-type-options", "content-security-policy")


async def test_ui_downloads_answer_exactly_like_the_api(gateway: RunningGateway) -> None:
    address, token, (message_id,) = await mailed_identity(gateway, "alice", attachment_mail())
    async with ui_client(gateway) as client:
        await login(client, token)
        page = (await client.get(message_path(address, message_id))).text
        links = [h for h in hrefs(page) if "/attachments/" in h]
        from_ui = {h.rsplit("/", 1)[1]: await client.get(h) for h in links}
    (summary,) = (await gateway.messages(address, token))["messages"]
    assert summary["seen"] is False  # downloading in the UI marks nothing seen
    async with gateway.client(token) as api:
        listed = (await api.get(f"/v1/identities/{address}/messages/{message_id}")).json()["attachments"]
        ids = {a["attachment_id"]: a for a in listed}
        base = f"/v1/identities/{address}/messages/{message_id}/attachments"
        from_api = {aid: await api.get(f"{base}/{aid}") for aid in ids}
    assert sorted(from_ui) == sorted(ids) == ["2", "3", "4", "5", "6"]
    for aid, response in from_ui.items():
        api_response = from_api[aid]
        assert response.status_code == api_response.status_code == 200, (aid, response.text)
        assert {h: response.headers.get_list(h) for h in DOWNLOAD_HEADERS} == {
            h: api_response.headers.get_list(h) for h in DOWNLOAD_HEADERS
        }, aid
        assert response.content == api_response.content
        assert hashlib.sha256(response.content).hexdigest() == ids[aid]["sha256"]
        assert response.headers["content-disposition"].startswith("attachment; ")
        assert_policy(response)  # the pages' policy is on it too
        assert response.headers.get_list("cache-control") == ["no-store"]
    by_name = {ids[aid]["filename"]: from_ui[aid] for aid in ids}
    assert by_name["invoice.pdf"].content == PDF
    assert by_name["logo.png"].content == PNG and by_name["logo.png"].headers["content-type"] == "image/png"
    for renderable in ("page.html", "logo.svg", "invoice.pdf"):
        assert by_name[renderable].headers["content-type"] == "application/octet-stream", renderable
    assert by_name["請求書.csv"].content == CSV
    assert "filename*=UTF-8''%E8%AB%8B%E6%B1%82%E6%9B%B8.csv" in by_name["請求書.csv"].headers["content-disposition"]


async def test_ui_downloads_keep_the_pages_access_rules(gateway: RunningGateway) -> None:
    alice, alice_token, (message_id,) = await mailed_identity(gateway, "alice", attachment_mail())
    bob, bob_token, _ = await mailed_identity(gateway, "bob", make_message(subject="for bob"))
    path = f"{message_path(alice, message_id)}/attachments/2"
    async with ui_client(gateway) as anonymous, ui_client(gateway) as bobs, ui_client(gateway) as alices:
        nobody = await anonymous.get(path)
        await login(bobs, bob_token)
        crossed = await bobs.get(path)  # another identity's session: 403 before any lookup
        on_own_path = await bobs.get(f"{message_path(bob, message_id)}/attachments/2")
        await login(alices, alice_token)
        unknown = [
            await alices.get(f"{message_path(alice, message_id)}/attachments/{aid}")
            for aid in ("9", "0", "2.1", "x", "1", "2.")
        ]
        token_in_url = await alices.get(path, params={"token": alice_token})
    assert nobody.status_code == 303 and nobody.headers["location"] == "/ui/login"
    assert crossed.status_code == 403 and PDF not in crossed.content
    assert on_own_path.status_code == 404
    for response in unknown:
        assert response.status_code == 404, response.request.url
        assert response.headers["content-type"].startswith("text/html")
        assert_policy(response)
    assert token_in_url.status_code == 400 and PDF not in token_in_url.content
