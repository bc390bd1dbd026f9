"""/ui pages on a real gateway, mail sent over real SMTP: what they show, and what they never do.

Every /ui response (pages, redirects, errors, the router's 404 and 405) carries the exact
security headers. Pages hold no script, no external resource and no link to a URL the mail
chose: codes and links are text. A message shows its text by default; its sanitized HTML
only inside an `<iframe sandbox="" srcdoc=…>`; headers and the (bounded) source as text.
The UI shows an identity exactly what the API would, and reading never marks mail seen.
"""

from __future__ import annotations

import html
import re
from email.message import EmailMessage
from email.policy import SMTP

import httpx
import pytest

from gateway.mail.sanitize import MAX_SANITIZE_BYTES
from gateway.ui import controller, pages
from gateway.ui.pages import MAX_SHOWN_CHARS
from gateway.ui.policy import CSP
from tests.conftest import ADMIN_TOKEN, DOMAIN, RunningGateway, make_message
from tests.ui.test_sessions import csrf_of, login, mail_path, ui_client

EXPECTED_HEADERS = {
    "content-security-policy": CSP,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
}
CODE = "482913"
VERIFY_URL = "https://shop.example/verify?t=abc&u=1"
TRACKER = "https://tracker.example/open.gif"
HOSTILE_HTML = (
    "<html><head><style>body{background:url(https://tracker.example/bg.png)}</style></head><body>"
    '<p onclick="steal()">Hello <b>friend</b>, your code is <strong>482913</strong>.</p>'
    "<script>alert('x')</script>"
    f'<img src="{TRACKER}" alt="logo">'
    '<a href="https://shop.example/verify?t=abc&amp;u=1">Verify your address</a>'
    '<iframe src="https://evil.example/"></iframe>'
    '<form action="https://evil.example/"><input name="q"></form>'
    "</body></html>"
)


def assert_policy(response: httpx.Response) -> None:
    """The exact security headers, once each."""
    for name, value in EXPECTED_HEADERS.items():
        assert response.headers.get_list(name) == [value], (response.request.url, name, response.headers)


def message_path(address: str, message_id: str, view: str | None = None) -> str:
    path = f"{mail_path(address)}/messages/{message_id}"
    return path if view is None else f"{path}?view={view}"


def hrefs(page: str) -> list[str]:
    return [html.unescape(h) for h in re.findall(r'href="([^"]*)"', page)]


def iframes(page: str) -> list[str]:
    return re.findall(r"<iframe\b[^>]*>", page)


async def mailed_identity(gateway: RunningGateway, name: str, *messages: EmailMessage) -> tuple[str, str, list[str]]:
    """(address, token, message ids newest first) of a new identity that was sent `messages`."""
    address, token = await gateway.create_identity(name)
    for message in messages:
        del message["To"]
        message["To"] = address
        # CRLF line ends: smtplib sends bytes as they are, and a big body must not be one "line".
        await gateway.send(message.as_bytes(policy=SMTP), [address])
    listing = await gateway.messages(address, token)
    return address, token, [m["id"] for m in listing["messages"]]


def code_mail(**kwargs: str) -> EmailMessage:
    return make_message(
        subject=kwargs.get("subject", "Your sign-in code"),
        sender=kwargs.get("sender", "Shop <noreply@shop.example>"),
        text=kwargs.get("text", f"Your code is {CODE}. Or open {VERIFY_URL} to verify."),
        html=kwargs.get("html", HOSTILE_HTML),
    )


# --- the policy on every response -------------------------------------------------------


async def test_every_ui_response_carries_the_policy(gateway: RunningGateway) -> None:
    address, token, (message_id,) = await mailed_identity(gateway, "alice", code_mail())
    async with ui_client(gateway) as client:
        form = await client.get("/ui/login")
        responses = [
            form,
            await client.get("/ui"),  # 303 to the login page
            await client.get("/ui/"),
            await client.get(mail_path(address)),  # 303: no session
            await client.get("/ui/login", params={"token": "am_x"}),  # 400
            await client.post("/ui/login", data={"token": "am_wrong", "csrf": csrf_of(form.text)}),  # 401
            await client.post("/ui/login", data={"token": "am_wrong"}),  # 403
            await client.get("/ui/no/such/page"),  # the router's 404
            await client.delete("/ui/login"),  # the router's 405
            await client.post("/ui/login", content=b"token=" + b"A" * 100_000, headers=FORM),  # 413
        ]
        responses.append(await login(client, token))  # 303 with cookies
        responses += [
            await client.get("/ui"),
            await client.get(mail_path(address)),
            await client.get(mail_path(f"bob@{DOMAIN}")),  # 403
            *[await client.get(message_path(address, message_id, v)) for v in (None, "html", "headers", "raw")],
            await client.get(message_path(address, "no-such-id")),  # 404
            await client.get(message_path(address, message_id, "bogus")),  # 400
        ]
    statuses = {r.status_code for r in responses}
    assert statuses == {200, 303, 400, 401, 403, 404, 405, 413}
    for response in responses:
        assert_policy(response)
        assert response.headers["cache-control"] == "no-store"
        if response.status_code != 303:
            assert response.headers["content-type"].startswith("text/html"), response.request.url
            assert response.text.startswith("<!doctype html>")


async def test_a_failure_is_a_500_page_with_the_policy_and_nothing_of_the_error(
    gateway: RunningGateway, monkeypatch: pytest.MonkeyPatch
) -> None:
    address, token = await gateway.create_identity("alice")

    def fail(*_: object, **__: object) -> str:
        raise RuntimeError(f"something broke near {token}")

    monkeypatch.setattr(pages, "messages_page", fail)
    async with ui_client(gateway) as client:
        await login(client, token)
        response = await client.get(mail_path(address))
    assert response.status_code == 500
    assert_policy(response)
    assert response.headers["content-type"].startswith("text/html")
    assert "see its log" in response.text
    assert token not in response.text and "something broke" not in response.text


async def test_the_api_keeps_json_errors_and_no_page_policy(gateway: RunningGateway) -> None:
    api = await gateway.http.get("/v1/nothing-here")
    lookalike = await gateway.http.get("/uix")
    for response in (api, lookalike):
        assert response.status_code == 404
        assert response.headers["content-type"].startswith("application/json")
        assert "content-security-policy" not in response.headers


FORM = {"Content-Type": "application/x-www-form-urlencoded"}


# --- what pages are made of -------------------------------------------------------------


async def test_pages_hold_no_script_no_external_resource_and_an_inline_stylesheet(gateway: RunningGateway) -> None:
    address, token, (message_id,) = await mailed_identity(gateway, "alice", code_mail())
    async with ui_client(gateway) as client:
        pages = [(await client.get("/ui/login")).text]
        await login(client, token)
        pages.append((await client.get(mail_path(address))).text)
        pages += [(await client.get(message_path(address, message_id, v))).text for v in ("html", "raw", "headers")]
    for page in pages:
        outside_frame = re.sub(r'srcdoc="[^"]*"', "", page)  # the mail's own markup is checked below
        lowered = outside_frame.lower()
        assert "<script" not in lowered and "javascript:" not in lowered
        tags = re.findall(r"<[a-z][^>]*>", lowered)  # real tags: mail text is escaped (&lt;)
        assert not [t for t in tags if t.startswith("<link") or re.search(r"\s(src|srcset|background)=", t)]
        assert lowered.count("<style>") == 1
        stylesheet = lowered.split("<style>")[1].split("</style>")[0]
        assert "@import" not in stylesheet and "url(" not in stylesheet
        assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
        assert all(h.startswith("/ui") for h in hrefs(outside_frame)), hrefs(outside_frame)


async def test_the_list_shows_codes_and_links_as_text_never_as_links(gateway: RunningGateway) -> None:
    address, token, (message_id,) = await mailed_identity(gateway, "alice", code_mail())
    async with ui_client(gateway) as client:
        await login(client, token)
        page = (await client.get(mail_path(address))).text
    assert f'<code class="value">{CODE}</code>' in page
    assert f'<code class="value">{html.escape(VERIFY_URL)}</code>' in page
    assert "Your sign-in code" in page and "Shop &lt;noreply@shop.example&gt;" in page
    assert re.search(r'<time datetime="\d{4}-\d\d-\d\dT', page)
    assert f'href="{message_path(address, message_id)}"' in page
    assert all(h.startswith("/ui/") for h in hrefs(page))  # no href to anything the mail named
    assert "shop.example/verify" not in "".join(hrefs(page))


async def test_the_message_page_says_why_each_code_and_link_is_reported(gateway: RunningGateway) -> None:
    address, token, (message_id,) = await mailed_identity(gateway, "alice", code_mail())
    async with ui_client(gateway) as client:
        await login(client, token)
        page = (await client.get(message_path(address, message_id))).text
    assert '<span class="reason">labelled &quot;code&quot; in the text part</span>' in page
    assert '<span class="reason">the link says &quot;Verify your address&quot;</span>' in page


async def test_the_list_pages_newest_first(gateway: RunningGateway, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(controller, "PAGE_SIZE", 2)
    address, token, ids = await mailed_identity(
        gateway, "alice", *(make_message(subject=f"m{i}", text="hi") for i in range(3))
    )
    async with ui_client(gateway) as client:
        await login(client, token)
        first = (await client.get(mail_path(address))).text
        older = re.search(r'href="([^"]+)">Older', first)
        assert older is not None
        second = (await client.get(html.unescape(older.group(1)))).text
    assert re.findall(r'class="subject" href="[^"]+">(m\d)<', first) == ["m2", "m1"]
    assert re.findall(r'class="subject" href="[^"]+">(m\d)<', second) == ["m0"]
    assert "Older" not in second and "Newest" in second
    assert html.unescape(older.group(1)) == f"{mail_path(address)}?before={ids[1]}"


async def test_mail_text_is_escaped_everywhere(gateway: RunningGateway) -> None:
    evil = "<script>alert(1)</script>\"'><img src=x>"
    message = make_message(subject=f"Hi {evil}", sender=f'"{evil}" <x@shop.example>', text=f"Body {evil}")
    address, token, (message_id,) = await mailed_identity(gateway, "alice", message)
    async with ui_client(gateway) as client:
        await login(client, token)
        pages = [(await client.get(mail_path(address))).text]
        pages += [(await client.get(message_path(address, message_id, v))).text for v in (None, "headers", "raw")]
    for page in pages:
        assert "<script>alert(1)" not in page and "<img src=x>" not in page
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


# --- one message ------------------------------------------------------------------------


async def test_a_message_shows_its_text_by_default(gateway: RunningGateway) -> None:
    address, token, (message_id,) = await mailed_identity(gateway, "alice", code_mail())
    async with ui_client(gateway) as client:
        await login(client, token)
        page = (await client.get(message_path(address, message_id))).text
    assert re.search(
        r'<pre class="body">Your code is 482913\. Or open https://shop\.example/verify\?t=abc&amp;u=1', page
    )
    assert iframes(page) == []
    assert f'href="{message_path(address, message_id)}" aria-current="page">Text<' in page
    assert f'<code class="value">{CODE}</code>' in page
    assert "Verify your address" in page  # the link's context, as text
    assert "<dt>From</dt><dd>Shop &lt;noreply@shop.example&gt;</dd>" in page


async def test_the_html_view_is_a_sanitized_srcdoc_in_an_empty_sandbox(gateway: RunningGateway) -> None:
    address, token, (message_id,) = await mailed_identity(gateway, "alice", code_mail())
    async with ui_client(gateway) as client:
        await login(client, token)
        page = (await client.get(message_path(address, message_id, "html"))).text
    (iframe,) = iframes(page)
    assert re.search(r'\ssandbox=""[\s>]', iframe)
    assert "allow-" not in page and "allow=" not in iframe
    assert re.search(r'\stitle="[^"]+"', iframe)
    assert re.fullmatch(r'<iframe class="mail" sandbox="" title="[^"]+" srcdoc="[^"]*">', iframe)
    srcdoc = html.unescape(re.search(r'srcdoc="([^"]*)"', iframe).group(1))  # type: ignore[union-attr]
    assert "Hello <b>friend</b>" in srcdoc and "482913" in srcdoc
    lowered = srcdoc.lower()
    for gone in ("<script", "onclick", "<iframe", "<form", "<img", "href=", "src=", "evil.example", "bg.png"):
        assert gone not in lowered, gone
    assert "1 remote image blocked" in page
    assert f'<code class="value">{TRACKER}</code>' in page  # named as text, never loaded


async def test_html_too_large_to_sanitize_shows_the_reason_and_the_text(gateway: RunningGateway) -> None:
    big = "<p>" + "lorem ipsum " * (MAX_SANITIZE_BYTES // 12 + 10) + "</p>"
    mail = make_message(subject="Big newsletter", text="The plain version.", html=big)
    address, token, (message_id,) = await mailed_identity(gateway, "alice", mail)
    async with ui_client(gateway) as client:
        await login(client, token)
        page = (await client.get(message_path(address, message_id, "html"))).text
    assert iframes(page) == []
    assert "is not shown" in page and "The plain version." in page


async def test_html_only_mail_shows_the_text_of_its_html(gateway: RunningGateway) -> None:
    mail = EmailMessage()
    mail["From"] = "shop@shop.example"
    mail["Subject"] = "HTML only"
    mail.set_content("<div><p>Only <b>HTML</b> here.</p><p>Code 771204</p></div>", subtype="html")
    address, token, (message_id,) = await mailed_identity(gateway, "alice", mail)
    async with ui_client(gateway) as client:
        await login(client, token)
        text = (await client.get(message_path(address, message_id))).text
        no_html_page = (await client.get(message_path(address, message_id, "html"))).text
    assert "no plain-text part" in text and "Only HTML here." in text and "<b>HTML</b>" not in text
    assert len(iframes(no_html_page)) == 1


async def test_a_shown_html_view_does_not_also_render_a_text_fallback(
    gateway: RunningGateway, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The fallback text is for a refused HTML part only: rendering it too doubles the work
    # on every view of an HTML-only mail (up to 512 KB of hostile HTML parsed twice).
    mail = EmailMessage()
    mail["From"] = "shop@shop.example"
    mail["Subject"] = "HTML only"
    mail.set_content("<p>Only <b>HTML</b> here.</p>", subtype="html")
    address, token, (message_id,) = await mailed_identity(gateway, "alice", mail)

    def not_needed(html: str) -> str:
        raise AssertionError("the text of an HTML part that is shown")

    monkeypatch.setattr(controller, "visible_text", not_needed)
    async with ui_client(gateway) as client:
        await login(client, token)
        response = await client.get(message_path(address, message_id, "html"))
    assert response.status_code == 200, response.text
    assert len(iframes(response.text)) == 1


async def test_headers_and_source_views(gateway: RunningGateway) -> None:
    address, token, (message_id,) = await mailed_identity(gateway, "alice", code_mail())
    async with gateway.client(token) as api:
        raw = (await api.get(f"/v1/identities/{address}/messages/{message_id}/raw")).content.decode()
    async with ui_client(gateway) as client:
        await login(client, token)
        headers = (await client.get(message_path(address, message_id, "headers"))).text
        source = (await client.get(message_path(address, message_id, "raw"))).text
    assert '<tr><th scope="row">Subject</th><td>Your sign-in code</td></tr>' in headers
    assert f'<th scope="row">Delivered-To</th><td>{address}</td>' in headers
    assert "multipart/alternative" in source
    shown = html.unescape(re.search(r'<pre class="body">(.*)</pre>', source, re.S).group(1))  # type: ignore[union-attr]
    assert shown == raw
    assert "Showing the first" not in source


async def test_a_huge_source_is_cut_and_says_so(gateway: RunningGateway) -> None:
    mail = make_message(subject="Huge", text="0123456789abcdef\n" * (MAX_SHOWN_CHARS // 17 + 2000))
    address, token, (message_id,) = await mailed_identity(gateway, "alice", mail)
    async with ui_client(gateway) as client:
        await login(client, token)
        source = (await client.get(message_path(address, message_id, "raw"))).text
        text = (await client.get(message_path(address, message_id))).text
    assert "Showing the first 976.6 KiB of" in source
    assert len(source) < MAX_SHOWN_CHARS * 1.3  # escaping adds nothing here; the page is bounded
    assert f"Showing the first {MAX_SHOWN_CHARS:,} of" in text


async def test_attachments_show_names_types_and_sizes_as_links_to_our_own_download(gateway: RunningGateway) -> None:
    mail = make_message(subject="Invoice", text="See attached.")
    mail.add_attachment(b"%PDF-1.4 " + b"x" * 2048, maintype="application", subtype="pdf", filename="invoice<1>.pdf")
    address, token, (message_id,) = await mailed_identity(gateway, "alice", mail)
    async with ui_client(gateway) as client:
        await login(client, token)
        page = (await client.get(message_path(address, message_id))).text
    assert "<h2>Attachments</h2>" in page
    download = f"{message_path(address, message_id)}/attachments/2"
    assert f'<a class="subject" href="{download}">invoice&lt;1&gt;.pdf</a>' in page
    assert "application/pdf" in page and "2.0 KiB" in page


async def test_reading_in_the_ui_never_marks_mail_seen(gateway: RunningGateway) -> None:
    address, token, (message_id,) = await mailed_identity(gateway, "alice", code_mail())
    async with ui_client(gateway) as client:
        await login(client, token)
        for view in (None, "html", "headers", "raw"):
            assert (await client.get(message_path(address, message_id, view))).status_code == 200
    (summary,) = (await gateway.messages(address, token))["messages"]
    assert summary["seen"] is False


# --- the same visibility as the API -----------------------------------------------------


async def test_another_identitys_message_is_404_on_your_own_path(gateway: RunningGateway) -> None:
    alice, alice_token, _ = await mailed_identity(gateway, "alice", make_message(subject="for alice"))
    bob, _, (bob_message,) = await mailed_identity(gateway, "bob", make_message(subject="for bob"))
    async with ui_client(gateway) as client, ui_client(gateway) as admin:
        await login(client, alice_token)
        await login(admin, ADMIN_TOKEN)
        mine = await client.get(message_path(alice, bob_message))
        theirs = await client.get(message_path(bob, bob_message))
        admin_crossed = await admin.get(message_path(alice, bob_message))
        admin_right = await admin.get(message_path(bob, bob_message))
        cursor = await client.get(mail_path(alice), params={"before": bob_message})
    assert mine.status_code == 404 and "for bob" not in mine.text
    assert theirs.status_code == 403 and "for bob" not in theirs.text
    assert admin_crossed.status_code == 404
    assert admin_right.status_code == 200 and "for bob" in admin_right.text
    assert cursor.status_code == 404


async def test_mail_from_before_the_identity_existed_is_not_shown(gateway: RunningGateway) -> None:
    early = f"later@{DOMAIN}"
    await gateway.send(make_message(to=early, subject="before it existed"), [early])
    address, token, ids = await mailed_identity(gateway, "later", make_message(subject="after"))
    async with ui_client(gateway) as client:
        await login(client, token)
        page = (await client.get(mail_path(address))).text
    assert "after" in page and "before it existed" not in page
    assert len(ids) == 1


# --- bad input is a clear 4xx -----------------------------------------------------------

BAD_GETS = [
    pytest.param("/ui/identities/not-an-address", 400, id="malformed-address"),
    pytest.param("/ui/identities/a@other.example", 404, id="other-domain"),
    pytest.param(f"/ui/identities/nobody@{DOMAIN}", 404, id="unknown-identity"),
    pytest.param(f"/ui/identities/alice@{DOMAIN}/messages/nope", 404, id="unknown-message"),
    pytest.param(f"/ui/identities/alice@{DOMAIN}/messages/..%2F..%2Fetc", 404, id="traversal-id"),
    pytest.param(f"/ui/identities/alice@{DOMAIN}?before=nope", 404, id="unknown-cursor"),
    pytest.param(f"/ui/identities/alice@{DOMAIN}?before=" + "x" * 300, 400, id="huge-cursor"),
    pytest.param("/ui/identities?after=" + "x" * 300, 400, id="huge-after"),
    pytest.param("/ui/identities/" + "a" * 5000 + f"@{DOMAIN}", 400, id="huge-address"),
    pytest.param("/ui/login?ended=maybe", 400, id="bad-flag"),
]


@pytest.mark.parametrize(("path", "status"), BAD_GETS)
async def test_bad_input_in_a_url_is_a_clear_4xx_page(gateway: RunningGateway, path: str, status: int) -> None:
    await gateway.create_identity("alice")
    async with ui_client(gateway) as client:
        await login(client, ADMIN_TOKEN)
        response = await client.get(path)
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("text/html")
    assert '<p class="error">' in response.text
    assert_policy(response)


BAD_FORMS = [
    pytest.param(b"csrf=" + b"A" * 70_000, FORM, 413, id="huge-form"),
    pytest.param(b"token=a&token=b&csrf=c", FORM, 400, id="repeated-field"),
    pytest.param(b"%ff%fe=%00&csrf=\xff", FORM, 403, id="undecodable"),
    pytest.param(b'{"token": "am_x"}', {"Content-Type": "application/json"}, 403, id="json-body"),
    pytest.param(b"--x\r\n", {"Content-Type": "multipart/form-data; boundary=x"}, 403, id="broken-multipart"),
]


@pytest.mark.parametrize(("body", "headers", "status"), BAD_FORMS)
async def test_bad_forms_are_a_clear_4xx_page(
    gateway: RunningGateway, body: bytes, headers: dict[str, str], status: int
) -> None:
    async with ui_client(gateway) as client:
        await client.get("/ui/login")  # the nonce cookie: only the body is wrong
        response = await client.post("/ui/login", content=body, headers=headers)
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("text/html")
    assert_policy(response)
