"""The embedded SMTP intake on PostgreSQL is one gateway: it says so, and a second one is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import ADMIN_TOKEN
from tests.serve import ServeProcess


def test_a_second_embedded_gateway_on_one_database_is_refused(postgres_dsn: str, tmp_path: Path) -> None:
    env = {"AGENTMAIL_DATABASE_URL": postgres_dsn}
    first = ServeProcess(tmp_path / "one", tmp_path / "log-one", env=env, admin_token=ADMIN_TOKEN)
    second = ServeProcess(tmp_path / "two", tmp_path / "log-two", env=env, admin_token=ADMIN_TOKEN)
    with first:
        assert "the embedded SMTP intake is single-process" in first.output()
        # Its mail lives in its own Maildir: another gateway reading this store's index would
        # forget every message it does not hold itself.
        with pytest.raises(AssertionError, match="another gateway already reads this database's mail"):
            second.start()
        assert second.proc is not None and second.proc.returncode != 0
