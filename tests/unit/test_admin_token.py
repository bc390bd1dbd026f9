"""The admin token: configured, generated once, and replaced when the configured one goes."""

from __future__ import annotations

import stat
from collections.abc import Callable

import pytest

from gateway.admin_token import ensure_admin_token
from gateway.app import open_store
from gateway.config import SettingError, Settings
from gateway.errors import Unauthorized

CONFIGURED = "am_operator-chosen-admin-token-123"


def test_removing_the_configured_token_retires_it(make_settings: Callable[..., Settings]) -> None:
    configured = make_settings(admin_token=CONFIGURED)
    store = open_store(configured)
    assert ensure_admin_token(configured, store) is None
    assert store.authenticate(CONFIGURED).kind == "admin"

    # The operator unsets AGENTMAIL_ADMIN_TOKEN (after a leak, say): the old one must die.
    generated = make_settings(admin_token=None)
    path = ensure_admin_token(generated, store)
    assert path is not None and stat.S_IMODE(path.stat().st_mode) == 0o600
    with pytest.raises(Unauthorized):
        store.authenticate(CONFIGURED)
    assert store.authenticate(path.read_text().strip()).kind == "admin"

    # ...and a generated token is kept across restarts, not regenerated.
    assert ensure_admin_token(generated, store) is None
    store.close()


@pytest.mark.parametrize("token", ["short", "am_" + "x" * 300], ids=["too-short", "too-long"])
def test_configured_token_length_is_checked(make_settings: Callable[..., Settings], token: str) -> None:
    settings = make_settings(admin_token=token)
    store = open_store(settings)
    with pytest.raises(SettingError, match="16 to 256"):
        ensure_admin_token(settings, store)
    store.close()
