"""No token plaintext in any log line, any file of the data directory, or any error body.

One walk-through against real `serve` processes logging at DEBUG: a generated admin token
(then rotated with the CLI), an admin token from AGENTMAIL_ADMIN_TOKEN_FILE, identities created,
rotated and deleted, provisioner tokens, /ui logins, wrong tokens, tokens put where tokens do
not belong, mail sent and waited for, and an MCP stdio session. Every token issued or sent is
recorded with the case it was used in; each case is then checked on its own, so a failure names
the place that leaked: every line of stdout and stderr of every process, every byte of every
file under the data directory (SQLite WAL and SHM files included, read while the gateway runs
and again after it stopped), and every response body of the odd-place requests.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import secrets
import smtplib
import stat
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path

import httpx
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client

from mcp_server.tokens import FILE_NAME
from tests.serve import ROOT, ServeProcess

DOMAIN = "agents.test"
CSRF_FIELD = re.compile(r'<input type="hidden" name="csrf" value="([^"]+)">')
CONN_CASES = frozenset({"url-path", "query-key", "x-forwarded-for"})
"""Places issue 13's log redaction (the `conn` branch) covers; they leak into the access log without it."""


def token_shaped() -> str:
    """A string a client could mistake for a token: `am_` + 24 random bytes, as real ones are."""
    return "am_" + secrets.token_urlsafe(24)


@dataclass
class Walk:
    """What the walk-through issued and used, and where it left traces."""

    data_dir: Path
    log_dir: Path
    secrets: dict[str, set[str]] = field(default_factory=dict)
    """case → the token plaintexts (and session ids) that case used."""
    bodies: dict[str, list[str]] = field(default_factory=dict)
    """case → response bodies that must not echo any token."""
    data_snapshots: list[dict[str, bytes]] = field(default_factory=list)
    """Every file under the data dir, read while the gateway ran and after it stopped."""
    generated_admin_token: str = ""

    def add(self, case: str, token: str) -> str:
        assert token.startswith("am_") or len(token) >= 20, token
        self.secrets.setdefault(case, set()).add(token)
        return token

    def body(self, case: str, response: httpx.Response) -> httpx.Response:
        self.bodies.setdefault(case, []).append(response.text)
        return response

    def snapshot(self) -> None:
        files = {}
        for path in sorted(self.data_dir.rglob("*")):
            if path.is_file():
                files[str(path.relative_to(self.data_dir))] = path.read_bytes()
        assert any(name.endswith("-wal") for name in files) or self.data_snapshots, sorted(files)
        self.data_snapshots.append(files)

    def logs(self) -> Iterator[tuple[str, bytes]]:
        for path in sorted(self.log_dir.iterdir()):
            if path.is_file():
                yield path.name, path.read_bytes()


def _serve(walk: Walk, **env: str) -> ServeProcess:
    return ServeProcess(
        walk.data_dir,
        walk.log_dir,
        domain=DOMAIN,
        env={"AGENTMAIL_LOG_LEVEL": "debug", "AGENTMAIL_LOOP": "asyncio", **env},
    )


def _cli(walk: Walk, *args: str) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGENTMAIL_")}
    env["PYTHONPATH"] = str(ROOT)
    argv = [sys.executable, "-m", "gateway", *args]
    argv += ["--env-file", str(walk.log_dir / "no-such.env"), "--data-dir", str(walk.data_dir), "--domain", DOMAIN]
    with (walk.log_dir / "cli.stdout").open("ab") as out, (walk.log_dir / "cli.stderr").open("ab") as err:
        done = subprocess.run(argv, env=env, stdout=out, stderr=err, timeout=30, check=False)
    assert done.returncode == 0, (walk.log_dir / "cli.stderr").read_text()


def _ui_login(gateway: ServeProcess, walk: Walk, token: str) -> None:
    """Log in through the form as a browser does, look around, log out; records the session id."""
    with httpx.Client(base_url=gateway.base_url, timeout=10) as browser:
        form = browser.get("/ui/login")
        csrf = CSRF_FIELD.search(form.text)
        assert form.status_code == 200 and csrf is not None, form.text
        response = browser.post("/ui/login", data={"token": token, "csrf": csrf.group(1)})
        assert response.status_code == 303, response.text
        session = next(v for k, v in browser.cookies.items() if k != "am_login")
        walk.add("ui-session", session)
        home = browser.get(response.headers["location"], follow_redirects=True)
        assert home.status_code == 200, home.text
        csrf = CSRF_FIELD.search(home.text)
        assert csrf is not None, home.text
        assert browser.post("/ui/logout", data={"csrf": csrf.group(1)}).status_code == 303


def _mail(gateway: ServeProcess, to: str, subject: str) -> None:
    msg = EmailMessage()
    msg["From"] = "sender@example.com"
    msg["To"] = to
    msg["Subject"] = subject
    msg.set_content(f"Your code is 4{secrets.randbelow(10**5):05d}.")
    with smtplib.SMTP("127.0.0.1", gateway.smtp_port, timeout=10) as smtp:
        smtp.send_message(msg)


def _create(client: httpx.Client, walk: Walk, case: str, local_part: str) -> tuple[str, str]:
    response = client.post("/v1/identities", json={"local_part": local_part})
    assert response.status_code == 201, response.text
    return response.json()["address"], walk.add(case, response.json()["token"])


def _generated_admin_phase(walk: Walk) -> None:
    """First start: the generated admin token; the CLI rotates it; the old one is dead after."""
    gateway = _serve(walk)
    with gateway:
        first = walk.add("admin-generated", (walk.data_dir / "admin-token").read_text().strip())
        with gateway.client(first) as admin:
            _create(admin, walk, "identity", "from-generated")
    _cli(walk, "admin", "rotate")
    second = walk.add("admin-generated", (walk.data_dir / "admin-token").read_text().strip())
    assert second != first
    walk.generated_admin_token = second
    with gateway:
        with gateway.client(first) as old:
            assert old.get("/v1/identities").status_code == 401
        with gateway.client(second) as admin:
            assert admin.get("/v1/identities").status_code == 200
            _create(admin, walk, "identity", "from-rotated")


def _configured_admin_phase(walk: Walk, secret_file: Path) -> None:
    """The admin token from a file, and everything a run does with tokens (see the module doc)."""
    configured = walk.add("admin-file", token_shaped())
    secret_file.write_text(configured + "\n")
    secret_file.chmod(0o600)
    gateway = _serve(walk, AGENTMAIL_ADMIN_TOKEN_FILE=str(secret_file))
    gateway.admin_token = configured
    with gateway, gateway.client() as admin:
        with gateway.client(walk.generated_admin_token) as old:
            assert old.get("/v1/identities").status_code == 401  # the configured one replaced it

        # Identities: created, rotated by themselves and by the admin, deleted.
        alice, alice_first = _create(admin, walk, "identity", "alice")
        bob, bob_first = _create(admin, walk, "identity", "bob")
        with gateway.client(alice_first) as own:
            rotated = own.post(f"/v1/identities/{alice}/rotate")
        assert rotated.status_code == 200, rotated.text
        alice_token = walk.add("identity", rotated.json()["token"])
        rotated = admin.post(f"/v1/identities/{bob}/rotate")
        assert rotated.status_code == 200, rotated.text
        bob_token = walk.add("identity", rotated.json()["token"])
        for dead in (alice_first, bob_first):
            with gateway.client(dead) as client:
                assert client.get(f"/v1/identities/{alice}/messages").status_code == 401

        # Provisioner tokens: one makes, rotates and deletes an identity; another is revoked.
        made = admin.post("/v1/tokens", json={"scope": "provision", "label": "walk"})
        assert made.status_code == 201, made.text
        provisioner = walk.add("provisioner", made.json()["token"])
        revoked = admin.post("/v1/tokens", json={"scope": "provision"})
        assert revoked.status_code == 201, revoked.text
        walk.add("provisioner", revoked.json()["token"])
        assert admin.delete(f"/v1/tokens/{revoked.json()['id']}").status_code == 204
        with gateway.client(provisioner) as prov:
            carol, _ = _create(prov, walk, "identity", "carol")
            rotated = prov.post(f"/v1/identities/{carol}/rotate")
            assert rotated.status_code == 200, rotated.text
            walk.add("identity", rotated.json()["token"])
            assert prov.delete(f"/v1/identities/{carol}").status_code == 204

        # Mail: sent over SMTP, waited for, read, marked; the same over an SSE stream.
        _mail(gateway, alice, "first")
        with gateway.client(alice_token) as own:
            waited = own.get(f"/v1/identities/{alice}/wait", params={"timeout": 20}, timeout=30)
            assert waited.status_code == 200, waited.text
            message_id = waited.json()["id"]
            assert own.get(f"/v1/identities/{alice}/messages/{message_id}").status_code == 200
            assert own.get(f"/v1/identities/{alice}/messages/{message_id}/raw").status_code == 200
            assert own.patch(f"/v1/identities/{alice}/messages/{message_id}", json={"seen": False}).status_code == 200
            with own.stream("GET", f"/v1/identities/{alice}/events", timeout=30) as events:
                assert events.status_code == 200
                _mail(gateway, alice, "second")
                lines = events.iter_lines()
                assert any("second" in line for line, _ in zip(lines, range(50), strict=False))

        # /ui: the identity and the admin log in and out.
        _ui_login(gateway, walk, alice_token)
        _ui_login(gateway, walk, configured)

        # Wrong tokens, well-formed and not, in the header and the login form.
        for wrong in (token_shaped(), token_shaped()[:-3]):
            walk.add("wrong-token", wrong)
            with gateway.client(wrong) as client:
                assert walk.body("wrong-token", client.get(f"/v1/identities/{alice}/messages")).status_code == 401
                assert walk.body("wrong-token", client.get("/v1/identities")).status_code == 401
        with httpx.Client(base_url=gateway.base_url, timeout=10) as browser:
            form = browser.get("/ui/login")
            csrf = CSRF_FIELD.search(form.text)
            assert csrf is not None
            refused = browser.post(
                "/ui/login", data={"token": walk.add("wrong-token", token_shaped()), "csrf": csrf[1]}
            )
            assert walk.body("wrong-token", refused).status_code == 401

        # Tokens where tokens do not belong: each case its own live identity token.
        odd = {case: _create(admin, walk, case, f"odd-{case}") for case in sorted(ODD_CASES)}
        with httpx.Client(base_url=gateway.base_url, timeout=10) as bare:
            for case, (address, token) in odd.items():
                for response in ODD_CASES[case](bare, address, token):
                    walk.body(case, response)
                    assert response.status_code < 500, (case, response.status_code, response.text)

        # An MCP stdio session with the provisioner token.
        asyncio.run(_mcp_session(gateway, walk, provisioner))

        assert bob_token and admin.delete(f"/v1/identities/{bob}").status_code == 204
        walk.snapshot()  # while running: the WAL files hold the latest writes
    walk.snapshot()


def _odd_path(client: httpx.Client, address: str, token: str) -> list[httpx.Response]:
    return [client.get(f"/v1/{token}"), client.get(f"/v1/identities/{token}/messages"), client.get(f"/ui/{token}")]


def _odd_query_key(client: httpx.Client, address: str, token: str) -> list[httpx.Response]:
    return [client.get(f"/ui/login?{token}"), client.get(f"/v1/identities/{address}/messages?{token}")]


def _odd_query_value(client: httpx.Client, address: str, token: str) -> list[httpx.Response]:
    return [
        client.get("/ui/login", params={"t": token}),
        client.get("/ui/login", params={"token": token}),
        client.get(f"/v1/identities/{address}/messages", params={"access_token": token}),
    ]


def _odd_forwarded(client: httpx.Client, address: str, token: str) -> list[httpx.Response]:
    headers = {"X-Forwarded-For": token, "Authorization": f"Bearer {token}"}
    return [client.get("/health", headers=headers), client.get(f"/v1/identities/{address}/messages", headers=headers)]


def _odd_headers(client: httpx.Client, address: str, token: str) -> list[httpx.Response]:
    path = f"/v1/identities/{address}/messages"
    return [
        client.get(path, headers={"Authorization": token}),
        client.get(path, headers={"Authorization": f"Token {token}"}),
        client.get(path, headers={"Authorization": f"Bearer {token} {token}"}),
        client.get(path, headers={"Cookie": f"token={token}"}),
        client.get("/ui/", headers={"Cookie": f"am_session={token}"}),
    ]


def _odd_json(client: httpx.Client, address: str, token: str) -> list[httpx.Response]:
    auth = {"Authorization": f"Bearer {token}"}
    return [
        client.post("/v1/identities", json={"local_part": "odd-json-2", "token": token}, headers=auth),
        client.post("/v1/tokens", json={"scope": token}, headers=auth),
        client.post(f"/v1/identities/{address}/rotate", json={"token": token}, headers=auth),
        client.patch(f"/v1/identities/{address}/messages/nope", json={"seen": token}, headers=auth),
    ]


ODD_CASES = {
    "url-path": _odd_path,
    "query-key": _odd_query_key,
    "query-value": _odd_query_value,
    "x-forwarded-for": _odd_forwarded,
    "auth-header-odd": _odd_headers,
    "json-body": _odd_json,
}


async def _mcp_session(gateway: ServeProcess, walk: Walk, provisioner: str) -> None:
    """agentmail-mcp (`python -m gateway mcp`) creates an identity, waits for its mail, deletes it."""
    config_home = walk.log_dir.parent / "mcp-config"
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGENTMAIL_")}
    env |= {
        "PYTHONPATH": str(ROOT),
        "AGENTMAIL_URL": gateway.base_url,
        "AGENTMAIL_TOKEN": provisioner,
        "XDG_CONFIG_HOME": str(config_home),
    }
    params = StdioServerParameters(command=sys.executable, args=["-m", "gateway", "mcp"], env=env)
    with (walk.log_dir / "mcp.stderr").open("a") as errlog:
        async with Client(stdio_client(params, errlog=errlog)) as client:
            created = await client.call_tool("create_identity", {"local_part": "via-mcp"})
            assert not created.is_error, created
            address = created.structured_content["address"]  # type: ignore[index]
            stored = json.loads((config_home / "agentmail-gateway" / FILE_NAME).read_text())["gateways"]
            for tokens in stored.values():
                for token in tokens.values():
                    walk.add("mcp", token)
            await asyncio.to_thread(_mail, gateway, address, "to the agent")
            waited = await client.call_tool("get_verification_code", {"address": address, "timeout": 20})
            assert not waited.is_error, waited
            deleted = await client.call_tool("delete_identity", {"address": address})
            assert not deleted.is_error, deleted
    assert walk.secrets.get("mcp"), "the MCP server stored no token"


@pytest.fixture(scope="module")
def walk(tmp_path_factory: pytest.TempPathFactory) -> Walk:
    """Run the whole walk-through once for the module's checks."""
    root = tmp_path_factory.mktemp("secrets")
    walk = Walk(data_dir=root / "data", log_dir=root / "logs")
    walk.log_dir.mkdir()
    _generated_admin_phase(walk)
    _configured_admin_phase(walk, root / "admin-token-secret")
    return walk


def _where(needle: bytes, haystack: bytes) -> str:
    at = haystack.find(needle)
    return repr(haystack[max(0, at - 120) : at + len(needle) + 40])


CASES = sorted(
    {"admin-generated", "admin-file", "identity", "provisioner", "ui-session", "wrong-token", "mcp", *ODD_CASES}
)


@pytest.mark.timeout(120)  # the module's walk-through (three starts, a CLI run, MCP) runs in the first one
@pytest.mark.parametrize("case", CASES)
def test_no_token_in_logs_data_or_error_bodies(walk: Walk, case: str) -> None:
    tokens = walk.secrets.get(case)
    assert tokens, f"the walk-through used no token for {case!r}"
    leaks = []
    for token in sorted(tokens):
        needle = token.encode()
        for name, content in walk.logs():
            if needle in content:
                leaks.append(f"log {name}: {_where(needle, content)}")
        for when, files in zip(("running", "stopped"), walk.data_snapshots, strict=True):
            for name, content in files.items():
                # The generated admin token's own file (0600) is where DESIGN.md says it goes.
                if needle in content and not (name == "admin-token" and token == walk.generated_admin_token):
                    leaks.append(f"data file {name} ({when}): {_where(needle, content)}")
        leaks += [f"response body: {body[:300]!r}" for body in walk.bodies.get(case, ()) if token in body]
    hint = " (uvicorn's access log: redact token-shaped words in every logged line)" if case in CONN_CASES else ""
    assert not leaks, f"{case}: token plaintext found in{hint}\n" + "\n".join(leaks)


def test_the_scan_reads_everything_it_claims_to(walk: Walk) -> None:
    # The DEBUG line checked below is asyncio's own ("Using selector"): uvloop logs none.
    # Without these, a clean scan could mean an empty scan.
    running, stopped = walk.data_snapshots
    assert any(name.endswith("-wal") for name in running), sorted(running)
    assert any(name.startswith("maildir/") for name in running)
    assert {"serve.stdout", "serve.stderr", "cli.stderr", "mcp.stderr"} <= {name for name, _ in walk.logs()}
    access = dict(walk.logs())["serve.stdout"] + dict(walk.logs())["serve.stderr"]
    assert b"DEBUG" in access and b'"GET /v1/identities HTTP/1.1" 401' in access
    # The one place a token may rest in the data dir: the generated admin token's file, 0600.
    assert stopped["admin-token"].decode().strip() == walk.generated_admin_token
    assert stat.S_IMODE((walk.data_dir / "admin-token").stat().st_mode) == 0o600


def test_a_planted_token_is_found_in_each_place_scanned(tmp_path: Path) -> None:
    planted = Walk(data_dir=tmp_path / "data", log_dir=tmp_path)
    token = planted.add("url-path", token_shaped())
    (tmp_path / "serve.stderr").write_bytes(b"INFO something " + token.encode() + b"\n")
    planted.data_snapshots = [{"identities.db-wal": b"\x00page" + token.encode()}, {}]
    planted.bodies["url-path"] = [f'{{"error": "x", "detail": "{token}"}}']
    with pytest.raises(AssertionError) as found:
        test_no_token_in_logs_data_or_error_bodies(planted, "url-path")
    assert "log serve.stderr" in str(found.value)
    assert "data file identities.db-wal (running)" in str(found.value)
    assert "response body" in str(found.value)
