"""The /ui's own actions on a real gateway: refresh, unread marks, deleting mail, creating and deleting identities.

Every form is a POST with the session's CSRF token, refused from another site, and follows the
API's rules (the store's name checks, the quarantine, who may touch whose mail). A new
identity's token is on the answer page only: never in a URL, a redirect or the log. The list
reloads itself only when asked (`?refresh=N`, a `Refresh` header on the list, never on a mail),
and stops after AUTO_REFRESH_FOR. "Unread" is the identity's own `seen` mark, which a read in
/ui never sets.
"""

from __future__ import annotations

import logging
import re
import time
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

from gateway.ui.controller import AUTO_REFRESH_FOR
from gateway.ui.pages import REFRESH_CHOICES
from tests.conftest import ADMIN_TOKEN, DOMAIN, RunningGateway, make_message
from tests.ui.test_pages import assert_policy, mailed_identity, message_path
from tests.ui.test_sessions import assert_session_over, csrf_of, login, mail_path, ui_client

UNREAD = '<span class="badge">unread</span>'
TOKEN_ON_PAGE = re.compile(r'<code class="value token">([^<]+)</code>')
CROSS_SITE = {"Sec-Fetch-Site": "cross-site"}


async def page_csrf(client: httpx.AsyncClient, path: str) -> str:
    """The CSRF token of the session, read off one of its pages."""
    page = await client.get(path)
    assert page.status_code == 200, page.text
    return csrf_of(page.text)


def unread_subjects(page: str) -> list[str]:
    """Subjects of the list items marked unread."""
    return re.findall(
        rf'<li class="unread"><div class="line"><span>{re.escape(UNREAD)} <a class="subject"[^>]*>([^<]*)</a>', page
    )


# --- refresh ----------------------------------------------------------------------------


async def test_the_list_has_a_refresh_link_and_reloads_only_when_asked(gateway: RunningGateway) -> None:
    address, token, (message_id,) = await mailed_identity(gateway, "alice", make_message(subject="first"))
    async with ui_client(gateway) as client:
        await login(client, token)
        plain = await client.get(mail_path(address))
        before = time.time()
        auto = await client.get(mail_path(address), params={"refresh": "10"})
        after = time.time()
        mail = await client.get(message_path(address, message_id), params={"refresh": "10"})
    assert plain.status_code == 200 and "refresh" not in plain.headers
    assert f'<a class="button" href="{mail_path(address)}">Refresh</a>' in plain.text
    assert all(f'href="{mail_path(address)}?refresh={n}"' in plain.text for n in REFRESH_CHOICES)
    assert auto.status_code == 200
    assert_policy(auto)
    every, _, target = auto.headers["refresh"].partition("; url=")
    assert every == "10"
    parts = urlsplit(target)
    assert parts.path == mail_path(address) and not parts.netloc
    query = parse_qs(parts.query)
    assert query["refresh"] == ["10"]
    until = int(query["until"][0])
    assert int(before) + AUTO_REFRESH_FOR <= until <= after + AUTO_REFRESH_FOR
    assert "reloads every 10 s" in auto.text
    assert "refresh" not in mail.headers  # never on a mail, whatever the URL says


async def test_auto_refresh_stops_when_its_time_is_up(gateway: RunningGateway) -> None:
    address, token = await gateway.create_identity("alice")
    async with ui_client(gateway) as client:
        await login(client, token)
        running = await client.get(mail_path(address), params={"refresh": "30", "until": str(int(time.time()) + 600)})
        over = await client.get(mail_path(address), params={"refresh": "30", "until": str(int(time.time()) - 1)})
    assert running.headers["refresh"].startswith("30; url=")
    assert "refresh" not in over.headers
    assert over.status_code == 200 and "Auto-refresh stopped" in over.text


BAD_REFRESH = [
    pytest.param({"refresh": "7"}, id="not-a-choice"),
    pytest.param({"refresh": "0"}, id="zero"),
    pytest.param({"refresh": "99999"}, id="huge"),
    pytest.param({"refresh": "soon"}, id="not-a-number"),
    pytest.param({"until": "1"}, id="until-alone"),
    pytest.param({"refresh": "10", "until": str(10**12)}, id="until-far-away"),
    pytest.param({"refresh": "10", "until": "-5"}, id="until-negative"),
    pytest.param({"refresh": "10", "until": "9" * 5000}, id="until-thousands-of-digits"),
    pytest.param({"refresh": "9" * 5000}, id="refresh-thousands-of-digits"),
]


@pytest.mark.parametrize("params", BAD_REFRESH)
async def test_bad_refresh_values_are_a_clear_400(gateway: RunningGateway, params: dict[str, str]) -> None:
    address, token = await gateway.create_identity("alice")
    async with ui_client(gateway) as client:
        await login(client, token)
        response = await client.get(mail_path(address), params=params)
    assert response.status_code == 400, response.text
    assert '<p class="error">' in response.text and "refresh" not in response.headers
    assert_policy(response)


# --- unread -----------------------------------------------------------------------------


async def test_unread_is_what_the_identitys_agent_has_not_seen_and_the_ui_never_changes_it(
    gateway: RunningGateway,
) -> None:
    address, token, ids = await mailed_identity(
        gateway, "alice", make_message(subject="older"), make_message(subject="newer")
    )
    newer, older = ids
    async with ui_client(gateway) as client, gateway.client(token) as agent:
        await login(client, token)
        assert sorted(unread_subjects((await client.get(mail_path(address))).text)) == ["newer", "older"]
        for view in ("text", "html", "headers", "raw"):  # a person reading: still unread
            assert (await client.get(message_path(address, older, view))).status_code == 200
        assert sorted(unread_subjects((await client.get(mail_path(address))).text)) == ["newer", "older"]
        read = await agent.get(f"/v1/identities/{address}/messages/{older}")  # the agent reading: seen
        assert read.status_code == 200
        page = (await client.get(mail_path(address))).text
        assert unread_subjects(page) == ["newer"]
        assert page.count(UNREAD) == 1
        marked = await agent.patch(f"/v1/identities/{address}/messages/{newer}", json={"seen": True})
        assert marked.status_code == 200, marked.text
        assert UNREAD not in (await client.get(mail_path(address))).text


# --- deleting a message -----------------------------------------------------------------


async def test_deleting_a_message_hides_it_from_the_identity_as_the_api_does(gateway: RunningGateway) -> None:
    address, token, (keep, gone) = await mailed_identity(
        gateway, "alice", make_message(subject="to delete"), make_message(subject="to keep")
    )
    async with ui_client(gateway) as client:
        await login(client, token)
        page = (await client.get(message_path(address, gone))).text
        action = f"{message_path(address, gone)}/delete"
        assert f'<form class="delete" method="post" action="{action}">' in page
        response = await client.post(action, data={"csrf": csrf_of(page)})
        assert response.status_code == 303 and response.headers["location"] == mail_path(address)
        assert_policy(response)
        listing = (await client.get(mail_path(address))).text
        again = await client.get(message_path(address, gone))
        twice = await client.post(action, data={"csrf": csrf_of(page)})
    assert "to keep" in listing and "to delete" not in listing
    assert again.status_code == 404 and twice.status_code == 404
    assert await gateway.subjects(address, token) == ["to keep"]
    assert keep != gone


async def test_deleting_a_message_needs_the_csrf_token_and_this_site(gateway: RunningGateway) -> None:
    address, token, (message_id,) = await mailed_identity(gateway, "alice", make_message(subject="stays"))
    action = f"{message_path(address, message_id)}/delete"
    async with ui_client(gateway) as client:
        await login(client, token)
        csrf = await page_csrf(client, mail_path(address))
        refused = [
            await client.post(action),
            await client.post(action, data={"csrf": "forged"}),
            await client.post(action, data={"csrf": csrf}, headers=CROSS_SITE),
            await client.post(action, data={"csrf": csrf}, headers={"Origin": "https://evil.example"}),
        ]
        get = await client.get(action)
    assert [r.status_code for r in refused] == [403, 403, 403, 403]
    assert get.status_code in (404, 405)  # a link or a crawler never deletes
    assert await gateway.subjects(address, token) == ["stays"]


async def test_a_message_is_deleted_only_on_its_own_identitys_path(gateway: RunningGateway) -> None:
    alice, alice_token, _ = await mailed_identity(gateway, "alice", make_message(subject="for alice"))
    bob, bob_token, (bob_message,) = await mailed_identity(gateway, "bob", make_message(subject="for bob"))
    async with ui_client(gateway) as client:
        await login(client, alice_token)
        csrf = await page_csrf(client, mail_path(alice))
        theirs = await client.post(f"{message_path(bob, bob_message)}/delete", data={"csrf": csrf})
        mine = await client.post(f"{message_path(alice, bob_message)}/delete", data={"csrf": csrf})
    assert theirs.status_code == 403 and mine.status_code == 404
    assert await gateway.subjects(bob, bob_token) == ["for bob"]


async def test_the_admin_deletes_a_message_for_one_identity_only(gateway: RunningGateway) -> None:
    alice, alice_token = await gateway.create_identity("alice")
    bob, bob_token = await gateway.create_identity("bob")
    await gateway.send(make_message(to=[alice, bob], subject="for both"), [alice, bob])
    (alice_message,) = [m["id"] for m in (await gateway.messages(alice, alice_token))["messages"]]
    async with ui_client(gateway) as admin:
        await login(admin, ADMIN_TOKEN)
        csrf = await page_csrf(admin, mail_path(alice))
        deleted = await admin.post(f"{message_path(alice, alice_message)}/delete", data={"csrf": csrf})
    assert deleted.status_code == 303
    assert await gateway.subjects(alice, alice_token) == []
    assert await gateway.subjects(bob, bob_token) == ["for both"]


# --- the admin creates an identity ------------------------------------------------------


async def create(client: httpx.AsyncClient, **fields: str) -> httpx.Response:
    """Post the create form as the admin's page does."""
    csrf = await page_csrf(client, "/ui/identities")
    return await client.post("/ui/identities/create", data={"csrf": csrf, **fields})


async def test_the_admin_creates_an_identity_and_sees_its_token_once(
    gateway: RunningGateway, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    async with ui_client(gateway) as admin:
        await login(admin, ADMIN_TOKEN)
        form = (await admin.get("/ui/identities")).text
        assert '<form method="post" action="/ui/identities/create">' in form
        response = await create(admin, local_part="carol", label="signup test", ttl_seconds="3600")
        assert response.status_code == 201, response.text
        assert_policy(response)
        assert "location" not in response.headers and "refresh" not in response.headers
        (token,) = TOKEN_ON_PAGE.findall(response.text)
        listing = (await admin.get("/ui/identities")).text
        opened = (await admin.get(mail_path(f"carol@{DOMAIN}"))).text
    address = f"carol@{DOMAIN}"
    assert token.startswith("am_") and address in response.text and "signup test" in response.text
    assert "only time it is shown" in response.text
    assert token not in listing and token not in opened  # shown once: no other page has it
    assert str(response.request.url).endswith("/ui/identities/create") and token not in str(response.request.url)
    assert token not in caplog.text
    async with gateway.client(token) as agent:  # the token is a real one
        mine = await agent.get(f"/v1/identities/{address}/messages")
    assert mine.status_code == 200
    info = (await gateway.http.get("/v1/identities")).json()["identities"]
    (carol,) = [i for i in info if i["address"] == address]
    assert carol["label"] == "signup test" and carol["expires_at"] is not None


async def test_a_random_name_when_the_local_part_is_empty(gateway: RunningGateway) -> None:
    async with ui_client(gateway) as admin:
        await login(admin, ADMIN_TOKEN)
        first = await create(admin)
        second = await create(admin, local_part="  ")
    addresses = [re.findall(r'<dt>Address</dt><dd><code class="value">([^<]+)</code>', r.text) for r in (first, second)]
    assert first.status_code == second.status_code == 201
    assert addresses[0] != addresses[1] and all(a[0].endswith(f"@{DOMAIN}") for a in addresses)


BAD_CREATES = [
    pytest.param({"local_part": "no spaces"}, 422, id="invalid-name"),
    pytest.param({"local_part": "a+tag"}, 422, id="plus"),
    pytest.param({"ttl_seconds": "0"}, 400, id="ttl-zero"),
    pytest.param({"ttl_seconds": "1.5"}, 400, id="ttl-fraction"),
    pytest.param({"ttl_seconds": "٣"}, 400, id="ttl-non-ascii-digit"),
    pytest.param({"ttl_seconds": str(10**12)}, 400, id="ttl-huge"),
    pytest.param({"ttl_seconds": "9" * 5000}, 400, id="ttl-thousands-of-digits"),
    pytest.param({"label": "x" * 201}, 400, id="label-too-long"),
]


@pytest.mark.parametrize(("fields", "status"), BAD_CREATES)
async def test_bad_create_forms_are_a_clear_4xx_and_create_nothing(
    gateway: RunningGateway, fields: dict[str, str], status: int
) -> None:
    async with ui_client(gateway) as admin:
        await login(admin, ADMIN_TOKEN)
        response = await create(admin, **fields)
    assert response.status_code == status, response.text
    assert '<p class="error">' in response.text and "am_" not in response.text
    assert_policy(response)
    assert (await gateway.http.get("/v1/identities")).json()["identities"] == []


async def test_a_taken_or_quarantined_name_is_refused_unless_forced(gateway: RunningGateway) -> None:
    address, _ = await gateway.create_identity("dave")
    async with ui_client(gateway) as admin:
        await login(admin, ADMIN_TOKEN)
        taken = await create(admin, local_part="dave")
        assert (await gateway.http.delete(f"/v1/identities/{address}")).status_code == 204
        quarantined = await create(admin, local_part="dave")
        forced = await create(admin, local_part="dave", force="on")
    assert taken.status_code == 409 and quarantined.status_code == 409, (taken.text, quarantined.text)
    assert forced.status_code == 201 and TOKEN_ON_PAGE.search(forced.text)


async def test_creating_an_identity_is_the_admins_and_needs_the_csrf_token(gateway: RunningGateway) -> None:
    alice, token = await gateway.create_identity("alice")
    async with ui_client(gateway) as client, ui_client(gateway) as admin:
        await login(client, token)
        own_csrf = await page_csrf(client, mail_path(alice))
        by_identity = await client.post("/ui/identities/create", data={"csrf": own_csrf, "local_part": "eve"})
        await login(admin, ADMIN_TOKEN)
        csrf = await page_csrf(admin, "/ui/identities")
        refused = [
            await admin.post("/ui/identities/create", data={"local_part": "eve"}),
            await admin.post("/ui/identities/create", data={"local_part": "eve", "csrf": own_csrf}),
            await admin.post("/ui/identities/create", data={"local_part": "eve", "csrf": csrf}, headers=CROSS_SITE),
        ]
    async with ui_client(gateway) as anonymous:
        no_session = await anonymous.post("/ui/identities/create", data={"local_part": "eve"})
    assert by_identity.status_code == 403 and "am_" not in by_identity.text
    assert [r.status_code for r in refused] == [403, 403, 403]
    assert no_session.status_code == 303 and no_session.headers["location"] == "/ui/login"
    info = (await gateway.http.get("/v1/identities")).json()["identities"]
    assert [i["address"] for i in info] == [alice]


# --- the admin deletes an identity ------------------------------------------------------


async def test_the_admin_deletes_an_identity_its_sessions_end_and_its_name_is_quarantined(
    gateway: RunningGateway,
) -> None:
    address, token = await gateway.create_identity("frank")
    path = f"{mail_path(address)}/delete"
    async with ui_client(gateway) as admin, ui_client(gateway) as owner:
        await login(owner, token)
        await login(admin, ADMIN_TOKEN)
        page = (await admin.get(mail_path(address))).text
        assert f'<form class="card danger" method="post" action="{path}">' in page
        unconfirmed = await admin.post(path, data={"csrf": csrf_of(page)})
        assert unconfirmed.status_code == 400 and "confirm" in unconfirmed.text
        assert (await owner.get(mail_path(address))).status_code == 200  # nothing happened
        deleted = await admin.post(path, data={"csrf": csrf_of(page), "confirm": "on"})
        assert deleted.status_code == 303 and deleted.headers["location"] == "/ui/identities"
        assert_policy(deleted)
        await assert_session_over(owner, mail_path(address))
        again = await admin.post(path, data={"csrf": csrf_of(page), "confirm": "on"})
        recreate = await create(admin, local_part="frank")
    assert again.status_code == 404
    assert recreate.status_code == 409  # quarantined, as after the API's DELETE
    async with gateway.client(token) as dead:
        assert (await dead.get(f"/v1/identities/{address}/messages")).status_code == 401


async def test_deleting_an_identity_is_the_admins_and_needs_the_csrf_token(gateway: RunningGateway) -> None:
    alice, alice_token = await gateway.create_identity("alice")
    bob, _ = await gateway.create_identity("bob")
    async with ui_client(gateway) as client, ui_client(gateway) as admin:
        await login(client, alice_token)
        own = (await client.get(mail_path(alice))).text
        assert "Delete this identity" not in own  # an identity's own pages offer no such form
        refused_self = await client.post(f"{mail_path(alice)}/delete", data={"csrf": csrf_of(own), "confirm": "on"})
        refused_other = await client.post(f"{mail_path(bob)}/delete", data={"csrf": csrf_of(own), "confirm": "on"})
        await login(admin, ADMIN_TOKEN)
        csrf = await page_csrf(admin, "/ui/identities")
        refused = [
            await admin.post(f"{mail_path(bob)}/delete", data={"confirm": "on"}),
            await admin.post(f"{mail_path(bob)}/delete", data={"confirm": "on", "csrf": csrf_of(own)}),
            await admin.post(f"{mail_path(bob)}/delete", data={"confirm": "on", "csrf": csrf}, headers=CROSS_SITE),
        ]
        unknown = await admin.post(f"{mail_path(f'nobody@{DOMAIN}')}/delete", data={"confirm": "on", "csrf": csrf})
        malformed = await admin.post("/ui/identities/not-an-address/delete", data={"confirm": "on", "csrf": csrf})
    assert refused_self.status_code == 403 and refused_other.status_code == 403
    assert [r.status_code for r in refused] == [403, 403, 403]
    assert unknown.status_code == 404 and malformed.status_code == 400
    info = (await gateway.http.get("/v1/identities")).json()["identities"]
    assert sorted(i["address"] for i in info) == [alice, bob]


async def test_no_form_puts_a_token_in_a_url(gateway: RunningGateway) -> None:
    address, token, (message_id,) = await mailed_identity(gateway, "alice", make_message(subject="x"))
    async with ui_client(gateway) as admin:
        await login(admin, ADMIN_TOKEN)
        pages = [
            (await admin.get("/ui/identities")).text,
            (await admin.get(mail_path(address))).text,
            (await admin.get(message_path(address, message_id))).text,
        ]
        refused = await admin.post(f"/ui/identities/create?token={token}", data={"csrf": csrf_of(pages[0])})
    for page in pages:
        for form, inner in re.findall(r"(<form\b[^>]*>)(.*?)</form>", page, re.S):
            if 'class="search"' in form:  # the one GET form: a search, whose only field is what is typed
                assert 'method="get"' in form, form
                assert re.findall(r"<input\b[^>]*>", inner) == [re.search(r"<input id=\"q\"[^>]*>", inner)[0]]  # type: ignore[index]
                assert 'type="hidden"' not in inner and "csrf" not in inner
                continue
            assert 'method="post"' in form, form
    assert refused.status_code == 400  # the usual rule: a token in a URL is refused unread
    info = (await gateway.http.get("/v1/identities")).json()["identities"]
    assert [i["address"] for i in info] == [address]  # the refused form created nothing
