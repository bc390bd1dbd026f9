"""/ui sessions on a real gateway: login, cookies, CSRF, throttling, and every way a session ends.

A token is exchanged (POST body only) for a random session id in an HttpOnly, SameSite=Strict
cookie on /ui; the store keeps only the id's hash. Logout, rotation, deletion or expiry of
the identity, a new admin token, and the session's own age limits each end it on the next
request, which is sent to the login page. The helpers here are shared with test_pages.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import re
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from gateway.config import Settings
from gateway.store.sqlite import open_sqlite
from gateway.ui import sessions
from gateway.ui.sessions import (
    FAILED_LOGIN_WINDOW,
    MAX_FAILED_LOGINS,
    MAX_SESSIONS_PER_TOKEN,
    SESSION_IDLE,
    SESSION_MAX_AGE,
    LoginThrottle,
    client_key,
    from_this_site,
    valid_nonce,
)
from tests.conftest import ADMIN_TOKEN, DOMAIN, RunningGateway, run_gateway
from tests.store.conftest import Clock

CSRF_FIELD = re.compile(r'<input type="hidden" name="csrf" value="([^"]+)">')


# --- helpers (test_pages.py uses them too) -----------------------------------------------


def ui_client(gateway: RunningGateway, **kwargs: Any) -> httpx.AsyncClient:
    """A browser-like client of the gateway: no Authorization header, a cookie jar, no redirects followed."""
    kwargs.setdefault("base_url", gateway.http.base_url)
    return httpx.AsyncClient(timeout=10, **kwargs)


def csrf_of(page: str) -> str:
    """The CSRF token of the (first) form on a page."""
    found = CSRF_FIELD.search(page)
    assert found is not None, page
    return found.group(1)


async def login(client: httpx.AsyncClient, token: str) -> httpx.Response:
    """Log in through the form as a browser does; returns the 303 that sets the session cookie."""
    form = await client.get("/ui/login")
    assert form.status_code == 200, form.text
    response = await client.post("/ui/login", data={"token": token, "csrf": csrf_of(form.text)})
    assert response.status_code == 303, response.text
    return response


def set_cookies(response: httpx.Response) -> dict[str, dict[str, str]]:
    """Set-Cookie headers as {name: {"value": …, attribute (lowercase): value or ""}}."""
    cookies = {}
    for header in response.headers.get_list("set-cookie"):
        first, *attributes = (part.strip() for part in header.split(";"))
        name, _, value = first.partition("=")
        parsed = {"value": value}
        for attribute in attributes:
            key, _, val = attribute.partition("=")
            parsed[key.lower()] = val
        cookies[name] = parsed
    return cookies


def session_id_of(response: httpx.Response) -> str:
    """The session id a login response hands the browser."""
    return set_cookies(response)["am_session"]["value"]


def store_file_bytes(settings: Settings) -> bytes:
    """Everything on disk of the identity store (the database and its WAL)."""
    data = b""
    for suffix in ("", "-wal"):
        path = settings.data_dir / f"identities.db{suffix}"
        if path.exists():
            data += path.read_bytes()
    return data


def store_sql(settings: Settings, sql: str, *args: object) -> list[tuple[Any, ...]]:
    """Run SQL on the store beside the gateway (WAL: both may use it); for ageing sessions."""
    with contextlib.closing(sqlite3.connect(settings.data_dir / "identities.db", timeout=5)) as db:
        rows = db.execute(sql, args).fetchall()
        db.commit()
    return rows


def session_count(settings: Settings) -> int:
    """How many /ui sessions the store holds."""
    ((count,),) = store_sql(settings, "SELECT count(*) FROM ui_sessions")
    return int(count)


async def assert_session_over(client: httpx.AsyncClient, path: str) -> None:
    """The client's session no longer opens `path`: it is sent to the login page, told why."""
    response = await client.get(path)
    assert response.status_code == 303, response.text
    assert response.headers["location"] == "/ui/login?ended=1"
    assert set_cookies(response)["am_session"]["max-age"] == "0"  # the browser forgets it


def mail_path(address: str) -> str:
    return f"/ui/identities/{address}"


# --- login ------------------------------------------------------------------------------


async def test_identity_login_sets_an_httponly_strict_cookie_whose_id_is_stored_hashed(
    gateway: RunningGateway,
) -> None:
    address, token = await gateway.create_identity("alice")
    async with ui_client(gateway) as client:
        response = await login(client, token)
        assert response.headers["location"] == mail_path(address)
        cookie = set_cookies(response)["am_session"]
        assert {"httponly", "path", "samesite", "max-age"} <= set(cookie)
        assert cookie["path"] == "/ui" and cookie["samesite"].lower() == "strict"
        assert "secure" not in cookie  # plain http here; see the https test
        assert int(cookie["max-age"]) == int(SESSION_MAX_AGE)
        session_id = cookie["value"]
        assert re.fullmatch(r"[A-Za-z0-9_-]{43}", session_id)  # token_urlsafe(32)
        assert set_cookies(response)["am_login"]["max-age"] == "0"  # the login form's nonce is done
        page = await client.get(response.headers["location"])
    assert page.status_code == 200 and address in page.text
    stored = store_file_bytes(gateway.settings)
    assert session_id.encode() not in stored
    assert token.encode() not in stored
    assert hashlib.sha256(session_id.encode()).hexdigest().encode() in stored
    for leaked in (token, session_id):
        assert leaked not in response.headers["location"] and leaked not in page.text


async def test_admin_login_lists_identities_and_opens_any(gateway: RunningGateway) -> None:
    alice, _ = await gateway.create_identity("alice")
    bob, _ = await gateway.create_identity("bob", label="the second")
    async with ui_client(gateway) as client:
        response = await login(client, ADMIN_TOKEN)
        assert response.headers["location"] == "/ui/identities"
        listing = await client.get("/ui/identities")
        assert listing.status_code == 200
        assert f'href="{mail_path(alice)}"' in listing.text and f'href="{mail_path(bob)}"' in listing.text
        assert "the second" in listing.text
        assert (await client.get(mail_path(bob))).status_code == 200
        picked = await client.post(
            "/ui/identities", data={"address": f" {bob.upper()} ", "csrf": csrf_of(listing.text)}
        )
        assert picked.status_code == 303 and picked.headers["location"] == mail_path(bob)
        unknown = await client.post(
            "/ui/identities", data={"address": f"nobody@{DOMAIN}", "csrf": csrf_of(listing.text)}
        )
        assert unknown.status_code == 404 and "no such identity" in unknown.text
    assert ADMIN_TOKEN not in listing.text


async def test_an_identity_session_sees_only_its_own_address(gateway: RunningGateway) -> None:
    _, token = await gateway.create_identity("alice")
    bob, _ = await gateway.create_identity("bob")
    async with ui_client(gateway) as client:
        await login(client, token)
        other = await client.get(mail_path(bob))
        unknown = await client.get(mail_path(f"nobody@{DOMAIN}"))
        identities = await client.get("/ui/identities")
    # 403 before any lookup: the same answer whether the other identity exists or not.
    assert other.status_code == 403 and unknown.status_code == 403
    assert "another identity" in other.text
    assert identities.status_code == 403


async def test_secure_cookie_over_https_only(gateway: RunningGateway) -> None:
    _, token = await gateway.create_identity("alice")
    transport = httpx.ASGITransport(app=gateway.app, client=("127.0.0.1", 40000))
    async with ui_client(gateway, transport=transport, base_url="https://mail.agents.test") as client:
        response = await login(client, token)
        assert "secure" in set_cookies(response)["am_session"]
        # The browser sends a Secure cookie back over https: the session works.
        assert (await client.get(response.headers["location"])).status_code == 200
    async with ui_client(gateway) as client:
        assert "secure" not in set_cookies(await login(client, token))["am_session"]


async def test_x_forwarded_proto_is_ignored_from_an_untrusted_client(gateway: RunningGateway) -> None:
    async with ui_client(gateway, headers={"X-Forwarded-Proto": "https"}) as client:
        assert "secure" not in set_cookies(await client.get("/ui/login"))["am_login"]


async def test_secure_cookie_behind_a_local_tls_proxy(make_settings: Callable[..., Settings]) -> None:
    # With the proxy in AGENTMAIL_TRUSTED_PROXIES, its X-Forwarded-Proto is believed: a TLS
    # proxy on the same host makes the request https, and the cookie Secure.
    async with run_gateway(make_settings(trusted_proxies="127.0.0.1")) as gateway:
        await secure_login_through_proxy(gateway)


async def secure_login_through_proxy(gateway: RunningGateway) -> None:
    _, token = await gateway.create_identity("alice")
    async with ui_client(gateway, headers={"X-Forwarded-Proto": "https"}) as client:
        form = await client.get("/ui/login")
        nonce = set_cookies(form)["am_login"]
        assert "secure" in nonce
        # The browser's side of the proxy is https, so it sends Secure cookies back; httpx here
        # talks plain http to the gateway and would not: send it by hand.
        response = await client.post(
            "/ui/login",
            data={"token": token, "csrf": csrf_of(form.text)},
            headers={"Cookie": f"am_login={nonce['value']}"},
        )
    assert response.status_code == 303
    assert "secure" in set_cookies(response)["am_session"]


TOKENS_REFUSED = [
    pytest.param("am_not-a-token-we-ever-issued-0123", id="unknown"),
    pytest.param(ADMIN_TOKEN + "x", id="admin-plus-one-char"),
    pytest.param(ADMIN_TOKEN[:-1], id="admin-minus-one-char"),
    pytest.param("am_" + "A" * 400, id="too-long"),
    pytest.param("", id="empty"),
]


@pytest.mark.parametrize("token", TOKENS_REFUSED)
async def test_a_bad_token_gets_the_form_again_with_401_and_no_echo(gateway: RunningGateway, token: str) -> None:
    async with ui_client(gateway) as client:
        form = await client.get("/ui/login")
        response = await client.post("/ui/login", data={"token": token, "csrf": csrf_of(form.text)})
    assert response.status_code == 401
    assert "That token is not valid" in response.text
    assert 'action="/ui/login"' in response.text  # the form again
    assert "am_session" not in set_cookies(response)
    if token:
        assert token not in response.text and token[:20] not in response.text
    assert session_count(gateway.settings) == 0


async def test_a_provisioner_token_reads_no_mail_here_either(gateway: RunningGateway) -> None:
    created = await gateway.http.post("/v1/tokens", json={"scope": "provision"})
    token = created.json()["token"]
    async with ui_client(gateway) as client:
        form = await client.get("/ui/login")
        response = await client.post("/ui/login", data={"token": token, "csrf": csrf_of(form.text)})
    assert response.status_code == 401
    assert "Provisioner tokens never read mail" in response.text
    assert token not in response.text
    assert session_count(gateway.settings) == 0


@pytest.mark.parametrize(
    ("method", "path"),
    [("GET", "/ui/login"), ("POST", "/ui/login"), ("GET", "/ui"), ("GET", "/ui/identities"), ("POST", "/ui/logout")],
)
@pytest.mark.parametrize("name", ["token", "access_token"])
async def test_a_token_in_a_url_is_never_read(gateway: RunningGateway, method: str, path: str, name: str) -> None:
    _, token = await gateway.create_identity("alice")
    async with ui_client(gateway) as client:
        form = await client.get("/ui/login")
        data = {"token": "", "csrf": csrf_of(form.text)} if method == "POST" else None
        response = await client.request(method, path, params={name: token}, data=data)
    assert response.status_code == 400, response.text
    assert "Tokens never go in a URL" in response.text
    assert token not in response.text
    assert "am_session" not in set_cookies(response)
    assert session_count(gateway.settings) == 0


@pytest.mark.parametrize(
    "url",
    [
        "/ui/login?{token}",  # a bare key
        "/ui/login?t={token}",  # a value under any name
        "/ui/login?view=text&next=%61m_{tail}",  # percent-encoded
        "/ui/identities?after=x+{token}",
        "/ui/identities/{token}",  # in the path
    ],
)
async def test_anything_token_shaped_in_a_url_is_refused(gateway: RunningGateway, url: str) -> None:
    _, token = await gateway.create_identity("alice")
    async with ui_client(gateway) as client:
        response = await client.get(url.format(token=token, tail=token[3:]))
    assert response.status_code == 400, response.text
    assert "Tokens never go in a URL" in response.text
    assert token[3:] not in response.text


async def test_a_name_with_am_inside_a_word_is_not_token_shaped(gateway: RunningGateway) -> None:
    address, _ = await gateway.create_identity("stream_am_notifications_bot")
    async with ui_client(gateway) as client:
        response = await client.get(f"/ui/identities/{address}")
    assert response.status_code != 400, response.text


async def test_failed_logins_are_throttled_per_client(gateway: RunningGateway) -> None:
    _, token = await gateway.create_identity("alice")
    async with ui_client(gateway) as client:
        csrf = csrf_of((await client.get("/ui/login")).text)
        for _ in range(MAX_FAILED_LOGINS):
            wrong = await client.post("/ui/login", data={"token": "am_wrong-token-000000000000000", "csrf": csrf})
            assert wrong.status_code == 401
        # Over the limit even the right token waits: a guesser cannot tell a hit.
        throttled = await client.post("/ui/login", data={"token": token, "csrf": csrf})
    assert throttled.status_code == 429
    assert int(throttled.headers["retry-after"]) >= 1
    assert "Too many failed logins" in throttled.text
    assert "am_session" not in set_cookies(throttled)


async def test_a_successful_login_does_not_reset_the_failure_count(gateway: RunningGateway) -> None:
    # Anyone may hold a valid token (their own identity's): if a success cleared the count,
    # a guesser would log in with it after every few guesses and never be throttled.
    _, own_token = await gateway.create_identity("mallory")
    async with ui_client(gateway) as client:
        csrf = csrf_of((await client.get("/ui/login")).text)
        for _ in range(MAX_FAILED_LOGINS - 1):
            wrong = await client.post("/ui/login", data={"token": "am_wrong-token-000000000000000", "csrf": csrf})
            assert wrong.status_code == 401
        assert (await client.post("/ui/login", data={"token": own_token, "csrf": csrf})).status_code == 303
        csrf = csrf_of((await client.get("/ui/login")).text)
        last = await client.post("/ui/login", data={"token": "am_wrong-token-000000000000001", "csrf": csrf})
        assert last.status_code == 401
        throttled = await client.post("/ui/login", data={"token": "am_wrong-token-000000000000002", "csrf": csrf})
    assert throttled.status_code == 429


async def test_failed_logins_are_counted_per_ipv6_64(gateway: RunningGateway) -> None:
    # One IPv6 host usually holds a whole /64: a fresh address per guess must not start afresh.
    _, token = await gateway.create_identity("alice")

    def from_address(host: str) -> httpx.AsyncClient:
        transport = httpx.ASGITransport(app=gateway.app, client=(host, 40000))
        return ui_client(gateway, transport=transport)

    for i in range(MAX_FAILED_LOGINS):
        async with from_address(f"2001:db8:1:2::{i + 1:x}") as client:
            csrf = csrf_of((await client.get("/ui/login")).text)
            wrong = await client.post("/ui/login", data={"token": "am_wrong-token-000000000000000", "csrf": csrf})
            assert wrong.status_code == 401
    async with from_address("2001:db8:1:2:ffff::1") as client:
        csrf = csrf_of((await client.get("/ui/login")).text)
        assert (await client.post("/ui/login", data={"token": token, "csrf": csrf})).status_code == 429
    async with from_address("2001:db8:1:3::1") as client:  # another /64: another client
        await login(client, token)


CLIENT_KEYS = [
    pytest.param("192.0.2.7", "192.0.2.7", id="ipv4"),
    pytest.param("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64", id="ipv6"),
    pytest.param("2001:DB8:1:2::9", "2001:db8:1:2::/64", id="ipv6-upper"),
    pytest.param("::ffff:192.0.2.7", "192.0.2.7", id="ipv4-mapped"),
    pytest.param("testclient", "testclient", id="not-an-address"),
]


@pytest.mark.parametrize(("host", "key"), CLIENT_KEYS)
def test_client_key(host: str, key: str) -> None:
    assert client_key(host) == key


async def test_a_token_holds_a_bounded_number_of_sessions(
    gateway: RunningGateway, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Successful logins are not throttled: without a bound one token could fill the store.
    assert MAX_SESSIONS_PER_TOKEN >= 8  # a team sharing the admin token, one browser each
    monkeypatch.setattr(sessions, "MAX_SESSIONS_PER_TOKEN", 3)
    alice, token = await gateway.create_identity("alice")
    _, bob_token = await gateway.create_identity("bob")
    async with ui_client(gateway) as bob:
        await login(bob, bob_token)
    ids = []
    for _ in range(5):
        async with ui_client(gateway) as client:
            ids.append(session_id_of(await login(client, token)))
    assert session_count(gateway.settings) == 3 + 1
    for ended in ids[:2]:
        async with ui_client(gateway, cookies={"am_session": ended}) as client:
            await assert_session_over(client, mail_path(alice))
    for live in ids[2:]:
        async with ui_client(gateway, cookies={"am_session": live}) as client:
            assert (await client.get(mail_path(alice))).status_code == 200


async def test_a_new_login_ends_the_browsers_previous_session(gateway: RunningGateway) -> None:
    alice, alice_token = await gateway.create_identity("alice")
    bob, bob_token = await gateway.create_identity("bob")
    async with ui_client(gateway) as client:
        first = session_id_of(await login(client, alice_token))
        await login(client, bob_token)
        assert (await client.get(mail_path(bob))).status_code == 200
    async with ui_client(gateway, cookies={"am_session": first}) as stale:
        await assert_session_over(stale, mail_path(alice))
    assert session_count(gateway.settings) == 1


# --- CSRF -------------------------------------------------------------------------------


async def test_login_without_the_forms_nonce_is_403(gateway: RunningGateway) -> None:
    _, token = await gateway.create_identity("alice")
    async with ui_client(gateway) as client:
        csrf = csrf_of((await client.get("/ui/login")).text)
        missing = await client.post("/ui/login", data={"token": token})
        wrong = await client.post(
            "/ui/login", data={"token": token, "csrf": csrf[:-1] + ("A" if csrf[-1] != "A" else "B")}
        )
        client.cookies.clear()  # a cross-site page cannot read or send our nonce cookie
        no_cookie = await client.post("/ui/login", data={"token": token, "csrf": csrf})
    for response in (missing, wrong, no_cookie):
        assert response.status_code == 403, response.text
        assert "am_session" not in set_cookies(response)
        assert token not in response.text
        assert 'action="/ui/login"' in response.text  # a fresh form to try again
    assert session_count(gateway.settings) == 0


CROSS_SITE = [
    pytest.param({"Origin": "https://evil.example"}, id="foreign-origin"),
    pytest.param({"Sec-Fetch-Site": "cross-site", "Origin": "null"}, id="null-origin-cross-site"),
    pytest.param({"Sec-Fetch-Site": "cross-site"}, id="sec-fetch-cross-site"),
    pytest.param({"Sec-Fetch-Site": "same-site"}, id="sec-fetch-same-site"),
]


@pytest.mark.parametrize("headers", CROSS_SITE)
async def test_cross_site_posts_are_refused(gateway: RunningGateway, headers: dict[str, str]) -> None:
    alice, token = await gateway.create_identity("alice")
    async with ui_client(gateway) as client:
        csrf = csrf_of((await client.get("/ui/login")).text)
        refused_login = await client.post("/ui/login", data={"token": token, "csrf": csrf}, headers=headers)
        assert refused_login.status_code == 403 and "another site" in refused_login.text
        assert "am_session" not in set_cookies(refused_login)
        page = await client.get((await login(client, token)).headers["location"])
        refused_logout = await client.post("/ui/logout", data={"csrf": csrf_of(page.text)}, headers=headers)
        assert refused_logout.status_code == 403
        assert (await client.get(mail_path(alice))).status_code == 200  # still logged in


async def test_same_origin_posts_pass(gateway: RunningGateway) -> None:
    _, token = await gateway.create_identity("alice")
    host = gateway.http.base_url.netloc.decode()
    async with ui_client(gateway) as client:
        csrf = csrf_of((await client.get("/ui/login")).text)
        by_fetch = await client.post(
            "/ui/login", data={"token": token, "csrf": csrf}, headers={"Sec-Fetch-Site": "same-origin"}
        )
        assert by_fetch.status_code == 303
        csrf = csrf_of((await client.get("/ui/login")).text)
        # A TLS proxy in front: the browser's Origin is https, the request reaching us http.
        by_origin = await client.post(
            "/ui/login", data={"token": token, "csrf": csrf}, headers={"Origin": f"https://{host}"}
        )
    assert by_origin.status_code == 303


async def test_a_null_origin_leaves_the_decision_to_the_csrf_token(gateway: RunningGateway) -> None:
    # Our pages are served with Referrer-Policy: no-referrer, so a browser that sends no
    # Sec-Fetch-Site (Safari before 16.4) posts their forms with `Origin: null` (Fetch,
    # "append a request Origin header"): refusing it would lock that browser out for good.
    alice, token = await gateway.create_identity("alice")
    null = {"Origin": "null"}
    async with ui_client(gateway) as client:
        csrf = csrf_of((await client.get("/ui/login")).text)
        assert (await client.post("/ui/login", data={"token": token}, headers=null)).status_code == 403
        logged_in = await client.post("/ui/login", data={"token": token, "csrf": csrf}, headers=null)
        assert logged_in.status_code == 303
        page = await client.get(mail_path(alice))
        assert (await client.post("/ui/logout", data={"csrf": "forged"}, headers=null)).status_code == 403
        logged_out = await client.post("/ui/logout", data={"csrf": csrf_of(page.text)}, headers=null)
    assert logged_out.status_code == 303
    assert session_count(gateway.settings) == 0


async def test_logout_and_the_admin_pick_need_the_sessions_csrf_token(gateway: RunningGateway) -> None:
    alice, _ = await gateway.create_identity("alice")
    async with ui_client(gateway) as client:
        await login(client, ADMIN_TOKEN)
        picked = await client.post("/ui/identities", data={"address": alice})
        assert picked.status_code == 403 and "form has expired" in picked.text
        other_csrf = csrf_of((await client.get("/ui/login")).text)  # a valid-looking token of another form
        assert (await client.post("/ui/logout", data={"csrf": other_csrf})).status_code == 403
        assert (await client.post("/ui/logout")).status_code == 403
        assert (await client.get("/ui/identities")).status_code == 200  # still logged in
    assert session_count(gateway.settings) == 1


# --- how sessions end -------------------------------------------------------------------


async def test_logout_ends_the_session_server_side_and_clears_the_cookie(gateway: RunningGateway) -> None:
    alice, token = await gateway.create_identity("alice")
    async with ui_client(gateway) as client:
        session_id = session_id_of(await login(client, token))
        page = await client.get(mail_path(alice))
        response = await client.post("/ui/logout", data={"csrf": csrf_of(page.text)})
        assert response.status_code == 303 and response.headers["location"] == "/ui/login"
        cleared = set_cookies(response)["am_session"]
        assert cleared["value"] in ("", '""') and cleared["max-age"] == "0" and cleared["path"] == "/ui"
        assert (await client.get(mail_path(alice))).headers["location"] == "/ui/login"  # no cookie left
    assert session_count(gateway.settings) == 0
    async with ui_client(gateway, cookies={"am_session": session_id}) as replay:
        await assert_session_over(replay, mail_path(alice))


async def test_rotating_the_token_ends_its_sessions(gateway: RunningGateway) -> None:
    alice, token = await gateway.create_identity("alice")
    async with ui_client(gateway) as client, ui_client(gateway) as admin:
        await login(client, token)
        await login(admin, ADMIN_TOKEN)
        async with gateway.client(token) as api:
            rotated = await api.post(f"/v1/identities/{alice}/rotate")
        assert rotated.status_code == 200
        await assert_session_over(client, mail_path(alice))
        assert (await admin.get(mail_path(alice))).status_code == 200  # the admin's is another token's
        assert (await login(client, rotated.json()["token"])).headers["location"] == mail_path(alice)
    assert session_count(gateway.settings) == 2


async def test_deleting_the_identity_ends_its_sessions(gateway: RunningGateway) -> None:
    alice, token = await gateway.create_identity("alice")
    async with ui_client(gateway) as client:
        await login(client, token)
        assert (await gateway.http.delete(f"/v1/identities/{alice}")).status_code == 204
        await assert_session_over(client, mail_path(alice))
    assert session_count(gateway.settings) == 0


async def test_the_identitys_expiry_ends_its_sessions(gateway: RunningGateway) -> None:
    alice, token = await gateway.create_identity("alice", ttl_seconds=3600)
    async with ui_client(gateway) as client:
        await login(client, token)
        assert (await client.get(mail_path(alice))).status_code == 200
        # The hour passes: what the clock would do, done to the row.
        store_sql(gateway.settings, "UPDATE identities SET expires_at = created_at - 1 WHERE local_part = 'alice'")
        await assert_session_over(client, mail_path(alice))
    assert session_count(gateway.settings) == 0


async def test_a_session_ends_12_hours_after_login_however_busy(gateway: RunningGateway) -> None:
    alice, token = await gateway.create_identity("alice")
    async with ui_client(gateway) as client:
        await login(client, token)
        store_sql(gateway.settings, "UPDATE ui_sessions SET created_at = created_at - ?", SESSION_MAX_AGE - 5)
        assert (await client.get(mail_path(alice))).status_code == 200  # not yet (and just used)
        store_sql(gateway.settings, "UPDATE ui_sessions SET created_at = created_at - 10")
        await assert_session_over(client, mail_path(alice))
    assert session_count(gateway.settings) == 0


async def test_a_session_ends_after_an_idle_hour_and_each_use_extends_it(gateway: RunningGateway) -> None:
    alice, token = await gateway.create_identity("alice")
    async with ui_client(gateway) as client:
        await login(client, token)
        store_sql(gateway.settings, "UPDATE ui_sessions SET used_at = used_at - ?", SESSION_IDLE - 5)
        assert (await client.get(mail_path(alice))).status_code == 200  # used again: idle from now
        store_sql(gateway.settings, "UPDATE ui_sessions SET used_at = used_at - ?", SESSION_IDLE - 5)
        assert (await client.get(mail_path(alice))).status_code == 200
        store_sql(gateway.settings, "UPDATE ui_sessions SET used_at = used_at - ?", SESSION_IDLE + 1)
        await assert_session_over(client, mail_path(alice))
    assert session_count(gateway.settings) == 0


async def test_a_new_admin_token_ends_admin_sessions_and_identity_sessions_survive_a_restart(
    make_settings: Callable[..., Settings],
) -> None:
    settings = make_settings()
    async with run_gateway(settings) as gateway:
        alice, token = await gateway.create_identity("alice")
        async with ui_client(gateway) as client:
            admin_session = session_id_of(await login(client, ADMIN_TOKEN))
        async with ui_client(gateway) as client:
            alice_session = session_id_of(await login(client, token))
    # A restart with the same admin token: its sessions go on.
    async with run_gateway(settings) as gateway, ui_client(gateway, cookies={"am_session": admin_session}) as admin:
        assert (await admin.get("/ui/identities")).status_code == 200
    async with run_gateway(make_settings(admin_token="am_a-new-admin-token-for-this-test")) as gateway:
        async with ui_client(gateway, cookies={"am_session": admin_session}) as admin:
            await assert_session_over(admin, "/ui/identities")
        async with ui_client(gateway, cookies={"am_session": alice_session}) as client:
            assert (await client.get(mail_path(alice))).status_code == 200
        assert session_count(gateway.settings) == 1


@pytest.mark.parametrize(
    "cookie",
    [
        pytest.param("x" * 43, id="unknown-id"),
        pytest.param("short", id="malformed"),
        pytest.param("A" * 5000, id="huge"),
        pytest.param("é".encode() * 22, id="non-ascii"),
    ],
)
async def test_a_forged_session_cookie_is_sent_to_the_login_page(gateway: RunningGateway, cookie: str | bytes) -> None:
    alice, _ = await gateway.create_identity("alice")
    value = cookie if isinstance(cookie, bytes) else cookie.encode()
    async with ui_client(gateway) as client:
        response = await client.get(mail_path(alice), headers={"Cookie": b"am_session=" + value})
    assert response.status_code == 303
    assert response.headers["location"] == "/ui/login?ended=1"


# --- the pure parts ---------------------------------------------------------------------


async def test_guesses_sent_at_once_never_pass_the_throttle_together(tmp_path: Path) -> None:
    store = open_sqlite(tmp_path / "data", domain=DOMAIN, clock=Clock())
    throttle = LoginThrottle(store.limits)
    try:
        answers = await asyncio.gather(*(throttle.admit("a") for _ in range(50)))
        assert answers.count(None) == MAX_FAILED_LOGINS
    finally:
        await store.engine.close()


async def test_the_throttle_counts_failures_per_client_within_its_window(tmp_path: Path) -> None:
    clock = Clock()
    store = open_sqlite(tmp_path / "data", domain=DOMAIN, clock=clock)
    throttle = LoginThrottle(store.limits)
    try:
        for _ in range(MAX_FAILED_LOGINS - 1):
            assert await throttle.admit("a") is None
            clock.now += 1
        assert await throttle.retry_after("a") is None
        assert await throttle.admit("a") is None  # the tenth
        assert await throttle.retry_after("a") == int(FAILED_LOGIN_WINDOW) - (MAX_FAILED_LOGINS - 1) + 1
        assert await throttle.admit("a") == int(FAILED_LOGIN_WINDOW) - (MAX_FAILED_LOGINS - 1) + 1
        assert await throttle.retry_after("b") is None  # another client is not held up
        clock.now += FAILED_LOGIN_WINDOW - (MAX_FAILED_LOGINS - 1)  # the first failure leaves the window
        assert await throttle.retry_after("a") is None
        assert await throttle.admit("a") is None
        assert await throttle.retry_after("a") is not None
        # Every gateway on the store counts together: a second throttle sees the same failures.
        assert await LoginThrottle(store.limits).retry_after("a") is not None
        await throttle.succeeded("a")  # that attempt logged in: it does not count
        assert await throttle.retry_after("a") is None
    finally:
        await store.engine.close()


SITE_CASES = [
    pytest.param({}, True, id="neither-header"),
    pytest.param({"sec-fetch-site": "same-origin", "origin": "https://evil.example"}, True, id="fetch-metadata-wins"),
    pytest.param({"sec-fetch-site": "same-site"}, False, id="same-site"),
    pytest.param({"sec-fetch-site": "cross-site"}, False, id="cross-site"),
    pytest.param({"sec-fetch-site": "none"}, False, id="none"),
    pytest.param({"origin": "https://mail.example:8443", "host": "mail.example:8443"}, True, id="origin-is-host"),
    pytest.param({"origin": "http://MAIL.example", "host": "mail.example"}, True, id="origin-case"),
    pytest.param({"origin": "https://mail.example.evil", "host": "mail.example"}, False, id="origin-suffix"),
    pytest.param({"origin": "https://mail.example:1", "host": "mail.example"}, False, id="origin-port"),
    pytest.param({"origin": "null", "host": "mail.example"}, True, id="null-origin-our-own-no-referrer-pages"),
    pytest.param({"sec-fetch-site": "cross-site", "origin": "null"}, False, id="null-origin-cross-site"),
    pytest.param({"origin": "file://mail.example", "host": "mail.example"}, False, id="file-origin"),
]


def test_a_session_id_with_a_trailing_newline_is_not_one() -> None:
    assert valid_nonce("A" * 43) and not valid_nonce("A" * 43 + "\n") and not valid_nonce("A" * 42)


@pytest.mark.parametrize(("headers", "allowed"), SITE_CASES)
def test_from_this_site(headers: dict[str, str], allowed: bool) -> None:
    assert from_this_site(headers) is allowed
