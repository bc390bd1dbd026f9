"""A lost identity store is never silently replaced: what it leaves behind stops start-up until `store init --new`.

Real gateways (the app factory, embedded SMTP, a generated admin token) fill a data directory;
then the store goes, alone or with more of what it left behind, and the next start must refuse.
"""

from __future__ import annotations

import asyncio
import os
import stat
from collections.abc import Callable
from pathlib import Path

import pytest

from gateway.app import create_app
from gateway.cli import main
from gateway.config import Settings
from gateway.errors import StoreError, Unauthorized
from gateway.store.lineage import MAILBOX_MARKER
from tests.conftest import DOMAIN, make_message, run_gateway

ALICE = f"alice@{DOMAIN}"


async def _populate(settings: Settings) -> str:
    """A gateway's life: a generated admin token, alice, mail for her; returns alice's token."""
    async with run_gateway(settings) as gateway:
        _, token = await gateway.gw.store.identities.create("alice")
        await gateway.send(make_message(to=ALICE, subject="hello"), [ALICE])
    return token


def _remove(data: Path, *names: str) -> None:
    for name in names:
        for suffix in ("", "-wal", "-shm") if name.endswith(".db") else ("",):
            Path(f"{data / name}{suffix}").unlink(missing_ok=True)


@pytest.mark.parametrize(
    ("removed", "trace"),
    [
        pytest.param(("identities.db",), "message index", id="store-only"),
        pytest.param(("identities.db", "index.db"), "carries a store's mark", id="store-and-index"),
        pytest.param(
            ("identities.db", "index.db", f"maildir/{MAILBOX_MARKER}", "admin-token"),
            "holds mail",
            id="all-but-the-mail",
        ),
        pytest.param(("identities.db", "index.db", f"maildir/{MAILBOX_MARKER}"), "admin token", id="admin-token-left"),
    ],
)
async def test_a_missing_store_beside_what_it_left_stops_start_up(
    make_settings: Callable[..., Settings], removed: tuple[str, ...], trace: str
) -> None:
    settings = make_settings(admin_token=None)
    data = settings.data_dir
    await _populate(settings)
    assert (data / "maildir" / MAILBOX_MARKER).is_file()
    assert stat.S_IMODE((data / "maildir" / MAILBOX_MARKER).stat().st_mode) == 0o600
    admin_file = data / "admin-token"
    admin = admin_file.read_bytes()
    _remove(data, *removed)

    with pytest.raises(StoreError) as caught:
        create_app(settings)
    detail = caught.value.detail
    assert "missing" in detail and trace in detail and "agentmail-gateway store init --new" in detail
    assert not (data / "identities.db").exists()  # no empty store left behind for the next start
    if "admin-token" not in removed:
        assert admin_file.read_bytes() == admin  # never rewritten


async def test_store_init_new_starts_an_empty_store_keeping_the_admin_token_file(
    make_settings: Callable[..., Settings], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in list(os.environ):
        if name.startswith("AGENTMAIL_"):
            monkeypatch.delenv(name)
    settings = make_settings(admin_token=None)
    data = settings.data_dir
    old_alice = await _populate(settings)
    admin_file = data / "admin-token"
    admin = admin_file.read_bytes()
    _remove(data, "identities.db")
    argv = ["--data-dir", str(data), "--domain", DOMAIN, "--env-file", "/nonexistent"]
    # The command line runs its own event loop: in a thread here, as in a shell beside the gateway.

    assert await asyncio.to_thread(main, ["store", "init", *argv]) == 2  # without --new: the same refusal
    assert "store init --new" in capsys.readouterr().err
    assert await asyncio.to_thread(main, ["store", "init", "--new", *argv]) == 0
    out = capsys.readouterr().out
    assert f"admin token kept from {admin_file}" in out and admin.decode().strip() not in out
    assert admin_file.read_bytes() == admin
    assert await asyncio.to_thread(main, ["store", "init", "--new", *argv]) == 2  # never replaces a store
    assert "exists already" in capsys.readouterr().err

    async with run_gateway(settings) as gateway:
        assert admin_file.read_bytes() == admin
        principal = await gateway.gw.store.tokens.authenticate(admin.decode().strip())
        assert principal.kind == "admin"
        with pytest.raises(Unauthorized):
            await gateway.gw.store.tokens.authenticate(old_alice)
        identity, _ = await gateway.gw.store.identities.create("alice")  # a new store: the name is free
        assert identity.address == ALICE
    assert (data / "maildir" / MAILBOX_MARKER).read_text().strip() == gateway.gw.store.engine.store_id


async def test_a_first_start_on_an_empty_data_directory_makes_the_store(
    make_settings: Callable[..., Settings],
) -> None:
    settings = make_settings(admin_token=None)
    async with run_gateway(settings) as gateway:
        assert gateway.gw.store.engine.created
    async with run_gateway(settings) as gateway:  # and the next start opens it
        assert not gateway.gw.store.engine.created


async def test_the_operators_own_token_file_in_the_data_directory_is_no_trace(
    make_settings: Callable[..., Settings],
) -> None:
    settings = make_settings(admin_token=None)
    settings.data_dir.mkdir(mode=0o700)
    own = settings.data_dir / "admin-token"
    own.write_text("am_the-operators-own-admin-token\n")
    settings = make_settings(admin_token=None, admin_token_file=own)  # AGENTMAIL_ADMIN_TOKEN_FILE
    async with run_gateway(settings) as gateway:  # a first start: the store is made
        assert gateway.gw.store.engine.created
        assert (await gateway.gw.store.tokens.authenticate("am_the-operators-own-admin-token")).kind == "admin"
