"""The admin token: configured, generated once, and replaced when the configured one goes."""

from __future__ import annotations

import stat
from collections.abc import Callable

import pytest

from gateway.admin_token import ensure_admin_token
from gateway.config import SettingError, Settings
from gateway.errors import Unauthorized
from gateway.store.open import open_store

CONFIGURED = "am_operator-chosen-admin-token-123"


async def test_removing_the_configured_token_retires_it(make_settings: Callable[..., Settings]) -> None:
    configured = make_settings(admin_token=CONFIGURED)
    store = open_store(configured)
    tokens = store.tokens
    assert await ensure_admin_token(configured, tokens) is None
    assert (await tokens.authenticate(CONFIGURED)).kind == "admin"

    # The operator unsets AGENTMAIL_ADMIN_TOKEN (after a leak, say): the old one must die.
    generated = make_settings(admin_token=None)
    path = await ensure_admin_token(generated, tokens)
    assert path is not None and stat.S_IMODE(path.stat().st_mode) == 0o600
    with pytest.raises(Unauthorized):
        await tokens.authenticate(CONFIGURED)
    assert (await tokens.authenticate(path.read_text().strip())).kind == "admin"

    # ...and a generated token is kept across restarts, not regenerated.
    assert await ensure_admin_token(generated, tokens) is None
    await store.engine.close()


@pytest.mark.parametrize("token", ["short", "am_" + "x" * 300], ids=["too-short", "too-long"])
async def test_configured_token_length_is_checked(make_settings: Callable[..., Settings], token: str) -> None:
    settings = make_settings(admin_token=token)
    store = open_store(settings)
    with pytest.raises(SettingError, match="16 to 256"):
        await ensure_admin_token(settings, store.tokens)
    await store.engine.close()


async def test_a_new_store_takes_the_token_file_instead_of_overwriting_it(
    make_settings: Callable[..., Settings],
) -> None:
    settings = make_settings(admin_token=None)
    settings.data_dir.mkdir(mode=0o700)
    token_file = settings.data_dir / "admin-token"
    token_file.write_text("am_the-operators-existing-admin-token\n")  # written for a store now lost
    before = token_file.read_bytes()
    store = open_store(settings, new_store=True)  # `store init --new`
    try:
        assert await ensure_admin_token(settings, store.tokens) is None
        assert token_file.read_bytes() == before
        assert (await store.tokens.authenticate("am_the-operators-existing-admin-token")).kind == "admin"
    finally:
        await store.engine.close()


async def test_a_token_file_without_a_token_is_not_overwritten(make_settings: Callable[..., Settings]) -> None:
    settings = make_settings(admin_token=None)
    settings.data_dir.mkdir(mode=0o700)
    token_file = settings.data_dir / "admin-token"
    token_file.write_text("short\n")
    store = open_store(settings, new_store=True)
    try:
        with pytest.raises(SettingError, match="holds no admin token; move it aside"):
            await ensure_admin_token(settings, store.tokens)
        assert token_file.read_text() == "short\n"
    finally:
        await store.engine.close()
