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
