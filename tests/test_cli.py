"""The command line, run in-process on a private data directory.

Every run passes `--data-dir`, `--domain` and `--env-file /nonexistent`, and the fixture
removes any `AGENTMAIL_*` variable, so neither the environment nor a `./.env` leaks in.
Results are checked through the durable store itself: a printed token must authenticate.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import sqlite3
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import msgspec
import pytest

from gateway import wire
from gateway.cli import main
from gateway.config import load_settings
from gateway.errors import Unauthorized
from gateway.store.open import open_store
from tests.conftest import DOMAIN


@dataclass
class Result:
    code: int
    out: str
    err: str

    def json(self) -> dict[str, str]:
        assert self.code == 0, self.err
        data: dict[str, str] = json.loads(self.out)
        return data


class Cli:
    """`agentmail-gateway …` against one data directory, output captured."""

    def __init__(self, data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
        self.data_dir = data_dir
        self._capsys = capsys

    def __call__(self, *args: str) -> Result:
        self._capsys.readouterr()
        code = main([*args, "--data-dir", str(self.data_dir), "--domain", DOMAIN, "--env-file", "/nonexistent"])
        out, err = self._capsys.readouterr()
        return Result(code, out, err)

    def who(self, token: str) -> tuple[str, str | None] | None:
        """(kind, address) the store authenticates `token` as, or None."""

        async def ask() -> tuple[str, str | None] | None:
            settings = load_settings({}, env_file=None, overrides={"data_dir": self.data_dir, "domain": DOMAIN})
            store = open_store(settings)
            try:
                principal = await store.tokens.authenticate(token)
            except Unauthorized:
                return None
            finally:
                await store.engine.close()
            return principal.kind, principal.identity.address if principal.identity else None

        return asyncio.run(ask())


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Iterator[Cli]:
    for name in list(os.environ):
        if name.startswith("AGENTMAIL_"):
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    yield Cli(tmp_path / "data", capsys)


# --- identities -------------------------------------------------------------------------


def test_identity_create_prints_address_and_token(cli: Cli) -> None:
    created = cli("identity", "create", "demo").json()
    assert created["address"] == f"demo@{DOMAIN}"
    assert created["token"].startswith("am_")
    assert cli.who(created["token"]) == ("identity", f"demo@{DOMAIN}")
    assert stat.S_IMODE(cli.data_dir.stat().st_mode) == 0o700
    assert stat.S_IMODE((cli.data_dir / "identities.db").stat().st_mode) == 0o600


def test_identity_create_with_random_name_ttl_and_label(cli: Cli) -> None:
    created = cli("identity", "create", "--ttl", "3600", "--label", "nightly run").json()
    assert created["address"].endswith(f"@{DOMAIN}")
    listing = cli("identity", "list")
    assert listing.code == 0
    (line,) = listing.out.splitlines()
    assert line.startswith(created["address"] + "\t")
    assert "nightly run" in line and "expires -" not in line


def test_identity_list_shows_identities_never_tokens(cli: Cli) -> None:
    tokens = [cli("identity", "create", name).json()["token"] for name in ("demo", "alpha")]
    listing = cli("identity", "list")
    assert listing.code == 0
    assert [line.split("\t")[0] for line in listing.out.splitlines()] == [f"alpha@{DOMAIN}", f"demo@{DOMAIN}"]
    assert all(token not in listing.out + listing.err for token in tokens)


def test_identity_rotate_gives_a_new_token(cli: Cli) -> None:
    old = cli("identity", "create", "demo").json()["token"]
    rotated = cli("identity", "rotate", f"demo@{DOMAIN}").json()
    assert rotated["address"] == f"demo@{DOMAIN}"
    assert rotated["token"] != old
    assert cli.who(old) is None
    assert cli.who(rotated["token"]) == ("identity", f"demo@{DOMAIN}")


def test_identity_delete_then_name_is_quarantined_unless_forced(cli: Cli) -> None:
    token = cli("identity", "create", "demo").json()["token"]
    assert cli("identity", "delete", f"DEMO@{DOMAIN}").json() == {"deleted": f"demo@{DOMAIN}"}
    assert cli.who(token) is None
    assert cli("identity", "list").out == ""

    again = cli("identity", "create", "demo")
    assert again.code == 2
    assert "quarantined" in again.err and "Traceback" not in again.err
    assert cli("identity", "create", "demo", "--force").json()["address"] == f"demo@{DOMAIN}"


@pytest.mark.parametrize(("action", "address"), [("rotate", f"nobody@{DOMAIN}"), ("delete", f"nobody@{DOMAIN}")])
def test_unknown_identity_is_reported(cli: Cli, action: str, address: str) -> None:
    result = cli("identity", action, address)
    assert result.code == 1
    assert address in result.err and result.out == ""


@pytest.mark.parametrize(("name", "why"), [("demo", "taken"), ("postmaster", "reserved"), ("a+b", "'+'")])
def test_identity_create_refusals_exit_2_with_a_message(cli: Cli, name: str, why: str) -> None:
    cli("identity", "create", "demo").json()
    result = cli("identity", "create", name)
    assert result.code == 2
    assert why in result.err
    assert "Traceback" not in result.err and result.out == ""


# --- provisioner and admin tokens -------------------------------------------------------


def test_token_create_makes_a_provisioner(cli: Cli) -> None:
    created = cli("token", "create", "--label", "ci").json()
    assert created["scope"] == "provision" and created["id"].startswith("tok_")
    assert cli.who(created["token"]) == ("provisioner", None)


def test_admin_rotate_writes_a_private_token_file(cli: Cli) -> None:
    path = cli.data_dir / "admin-token"
    first = cli("admin", "rotate")
    assert first.code == 0, first.err
    assert str(path) in first.out
    token = path.read_text().strip()
    assert token.startswith("am_") and token not in first.out + first.err
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert cli.who(token) == ("admin", None)

    assert cli("admin", "rotate").code == 0
    rotated = path.read_text().strip()
    assert rotated != token
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert cli.who(rotated) == ("admin", None)
    assert cli.who(token) is None


def test_admin_rotate_refuses_a_configured_token(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENTMAIL_ADMIN_TOKEN", "am_configured-admin-token-0123456789")
    result = cli("admin", "rotate")
    assert result.code == 2
    assert "configured" in result.err
    assert "am_configured-admin-token-0123456789" not in result.err + result.out
    assert not (cli.data_dir / "admin-token").exists()


@pytest.mark.parametrize("command", [["serve"], ["identity", "list"]])
def test_secrets_are_not_command_line_flags(cli: Cli, command: list[str]) -> None:
    # argv is readable by every user of the machine: secrets come from the environment or files.
    for flag in ("--admin-token", "--imap-password", "--push-secret", "--database-url"):
        with pytest.raises(SystemExit):
            cli(*command, flag, "am_configured-admin-token-0123456789")


# --- settings and a store that cannot be trusted ----------------------------------------


def test_unknown_setting_in_the_environment_stops_the_cli(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENTMAIL_DOMIAN", "typo.example")
    result = cli("identity", "list")
    assert result.code == 2
    assert "AGENTMAIL_DOMIAN" in result.err and "Traceback" not in result.err


def _garbage(path: Path) -> None:
    path.write_bytes(b"this is not a database\n" * 200)


def _foreign_sqlite(path: Path) -> None:
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE users (name TEXT)")
    db.close()


def _future_schema(path: Path) -> None:
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        db.execute("INSERT INTO meta VALUES ('schema_version', '99')")
    db.close()


@pytest.mark.parametrize("command", [["serve", "--http-port", "0", "--smtp-port", "0"], ["identity", "list"]])
@pytest.mark.parametrize(
    ("spoil", "why"),
    [
        pytest.param(_garbage, "corrupt", id="garbage"),
        pytest.param(_foreign_sqlite, "not ours", id="foreign-database"),
        pytest.param(_future_schema, "schema version 99", id="newer-schema"),
    ],
)
def test_untrustworthy_store_stops_with_a_clear_message(cli: Cli, command: list[str], spoil: object, why: str) -> None:
    cli.data_dir.mkdir(mode=0o700)
    store = cli.data_dir / "identities.db"
    spoil(store)  # type: ignore[operator]
    before = store.read_bytes()

    result = cli(*command)

    assert result.code == 2
    assert result.err.startswith("agentmail-gateway: ")
    assert why in result.err
    assert "Traceback" not in result.err
    assert store.read_bytes() == before  # never replaced by an empty store
    assert not (cli.data_dir / "admin-token").exists()


# --- the store's domain, and starting a new store on purpose ---------------------------


def test_without_a_domain_the_cli_uses_the_one_the_store_is_bound_to(
    cli: Cli, capsys: pytest.CaptureFixture[str]
) -> None:
    cli("identity", "create", "first").json()  # binds the new store to DOMAIN
    capsys.readouterr()
    argv = ["--data-dir", str(cli.data_dir), "--env-file", "/nonexistent"]  # no --domain, no AGENTMAIL_DOMAIN
    assert main(["identity", "create", "demo", *argv]) == 0
    created = json.loads(capsys.readouterr().out)
    assert created["address"] == f"demo@{DOMAIN}"  # was demo@localhost
    assert cli.who(created["token"]) == ("identity", f"demo@{DOMAIN}")
    assert main(["identity", "list", *argv]) == 0
    assert [line.split("\t")[0] for line in capsys.readouterr().out.splitlines()] == [
        f"demo@{DOMAIN}",
        f"first@{DOMAIN}",
    ]


@pytest.mark.parametrize("command", [["serve", "--http-port", "0", "--smtp-port", "0"], ["identity", "list"]])
def test_another_domain_than_the_stores_is_refused(
    cli: Cli, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    cli("identity", "create", "first").json()
    capsys.readouterr()
    code = main([*command, "--data-dir", str(cli.data_dir), "--domain", "other.test", "--env-file", "/nonexistent"])
    err = capsys.readouterr().err
    assert code == 2
    assert f"belongs to the domain {DOMAIN}" in err and "AGENTMAIL_DOMAIN is other.test" in err
    assert "Traceback" not in err


def test_store_init_makes_a_store_once(cli: Cli) -> None:
    made = cli("store", "init")
    assert made.code == 0, made.err
    assert DOMAIN in made.out and f"admin token written to {cli.data_dir / 'admin-token'}" in made.out
    assert cli.who((cli.data_dir / "admin-token").read_text().strip()) == ("admin", None)
    again = cli("store", "init", "--new")
    assert again.code == 2 and "never replaces" in again.err


# --- outputs as the API's, bare local parts, --help per command ------------------------

Z_TIME = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z"


def test_identity_create_answers_as_the_api_with_expires_at(cli: Cli) -> None:
    out = cli("identity", "create", "demo", "--ttl", "1h", "--label", "ci").out
    created = msgspec.json.decode(out, type=wire.CreatedIdentity, strict=True)  # the API's fields, no others
    assert set(json.loads(out)) == set(wire.CreatedIdentity.__struct_fields__)
    assert created.expires_at is not None and created.label == "ci"
    assert created.expires_at - created.created_at == timedelta(hours=1)
    assert re.fullmatch(Z_TIME, json.loads(out)["created_at"]) and re.fullmatch(Z_TIME, json.loads(out)["expires_at"])


def test_identity_list_has_utc_times_and_json_as_the_api(cli: Cli) -> None:
    cli("identity", "create", "alpha", "--ttl", "2d").json()
    cli("identity", "create", "demo", "--label", "nightly").json()
    table = cli("identity", "list").out.splitlines()
    assert re.fullmatch(rf"alpha@{DOMAIN}\tcreated {Z_TIME}\texpires {Z_TIME}\t", table[0]), table
    assert re.fullmatch(rf"demo@{DOMAIN}\tcreated {Z_TIME}\texpires -\tnightly", table[1]), table
    out = cli("identity", "list", "--json").out
    page = msgspec.json.decode(out, type=wire.IdentityPage, strict=True)
    assert [i.address for i in page.identities] == [f"alpha@{DOMAIN}", f"demo@{DOMAIN}"]
    assert page.next_after is None and page.identities[1].label == "nightly"
    assert set(json.loads(out)["identities"][0]) == set(wire.IdentityInfo.__struct_fields__)
    assert json.loads(out)["identities"][0]["created_at"] in table[0]  # one time format, table and JSON


def test_tokens_are_created_listed_and_revoked_as_the_api_does(cli: Cli) -> None:
    out = cli("token", "create", "--label", "ci").out
    created = msgspec.json.decode(out, type=wire.CreatedApiToken, strict=True)
    assert set(json.loads(out)) == set(wire.CreatedApiToken.__struct_fields__) and created.label == "ci"
    other = cli("token", "create").json()
    listing = cli("token", "list")
    assert listing.code == 0 and created.token not in listing.out and other["token"] not in listing.out
    assert [line.split("\t")[0] for line in listing.out.splitlines()] == [created.id, other["id"]]
    assert re.fullmatch(rf"{created.id}\tprovision\tcreated {Z_TIME}\tci", listing.out.splitlines()[0])
    tokens = msgspec.json.decode(cli("token", "list", "--json").out, type=list[wire.ApiToken], strict=True)
    assert tokens == [wire.ApiToken(created.id, "provision", "ci", created.created_at), tokens[1]]

    assert cli("token", "revoke", created.id).json() == {"revoked": created.id}
    assert cli.who(created.token) is None and cli.who(other["token"]) == ("provisioner", None)
    assert [t["id"] for t in json.loads(cli("token", "list", "--json").out)] == [other["id"]]
    again = cli("token", "revoke", created.id)
    assert again.code == 1 and f"no provisioner token {created.id}" in again.err


def test_a_bare_local_part_names_the_stores_identity(cli: Cli) -> None:
    old = cli("identity", "create", "demo").json()["token"]
    rotated = cli("identity", "rotate", "demo").json()
    assert rotated["address"] == f"demo@{DOMAIN}" and cli.who(old) is None
    assert cli.who(rotated["token"]) == ("identity", f"demo@{DOMAIN}")
    assert cli("identity", "delete", "DEMO").json() == {"deleted": f"demo@{DOMAIN}"}
    missing = cli("identity", "delete", "demo")
    assert missing.code == 1 and f"no identity demo@{DOMAIN}" in missing.err
    # And the other way round: create takes the whole address when it is at this store's domain.
    assert cli("identity", "create", f"whole@{DOMAIN}").json()["address"] == f"whole@{DOMAIN}"
    elsewhere = cli("identity", "create", "whole@other.example")
    assert elsewhere.code == 2 and f"not at this store's domain {DOMAIN}" in elsewhere.err


SERVER_ONLY = ("--http-port", "--smtp-port", "--imap-host", "--wait-max-total", "--log-level")


@pytest.mark.parametrize(
    ("command", "own"),
    [
        (["identity", "create"], "--ttl"),
        (["identity", "list"], "--json"),
        (["identity", "rotate"], "ADDRESS"),
        (["identity", "delete"], "ADDRESS"),
        (["token", "create"], "--label"),
        (["token", "list"], "--json"),
        (["token", "revoke"], "ID"),
        (["admin", "rotate"], "--data-dir"),
        (["store", "init"], "--new"),
        (["store", "copy"], "--verify-only"),
        (["new"], "--ttl"),
        (["wait"], "--timeout"),
        (["rm"], "ADDRESS"),
        (["mcp"], "--help"),
    ],
)
def test_each_commands_help_shows_its_own_options_not_the_servers(
    command: list[str], own: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as done:
        main([*command, "--help"])
    text = capsys.readouterr().out
    assert done.value.code == 0 and own in text
    assert not [flag for flag in SERVER_ONLY if flag in text], text
    store_command = command[0] in ("identity", "token", "admin", "store")
    assert ("--data-dir" in text) is store_command and ("--env-file" in text) is store_command


def test_serve_help_lists_the_server_settings(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    text = capsys.readouterr().out
    assert all(flag in text for flag in SERVER_ONLY) and "--data-dir" in text
