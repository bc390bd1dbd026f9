"""Settings: precedence, validation, secrets, and .env.example in step with the code."""

from __future__ import annotations

from pathlib import Path

import pytest

from gateway.config import SettingError, describe, load_settings


def test_defaults_work_on_a_laptop() -> None:
    s = load_settings({}, env_file=None)
    assert (s.domain, s.http_host, s.http_port, s.smtp_host, s.smtp_port) == (
        "localhost",
        "127.0.0.1",
        8025,
        "127.0.0.1",
        2525,
    )
    assert s.catchall == "catchall@localhost"
    assert s.source_kind == "local"
    assert s.data_dir.name == "agentmail-gateway"


def test_flag_beats_env_beats_dotenv(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("AGENTMAIL_DOMAIN=dotenv.test\nAGENTMAIL_HTTP_PORT=1111\nAGENTMAIL_SMTP_PORT=3333\n")
    s = load_settings(
        {"AGENTMAIL_HTTP_PORT": "2222", "AGENTMAIL_SMTP_PORT": "4444"}, env_file=env_file, overrides={"smtp_port": 5555}
    )
    assert s.domain == "dotenv.test"
    assert s.http_port == 2222
    assert s.smtp_port == 5555


def test_secret_never_in_repr() -> None:
    s = load_settings({"AGENTMAIL_ADMIN_TOKEN": "am_supersecretvalue123"}, env_file=None)
    assert "supersecret" not in repr(s)
    assert s.admin_token is not None and s.admin_token.reveal() == "am_supersecretvalue123"


@pytest.mark.parametrize(
    ("env", "fragment"),
    [
        ({"AGENTMAIL_HTTP_PORT": "eighty"}, "AGENTMAIL_HTTP_PORT"),
        ({"AGENTMAIL_HTTP_PORT": "70000"}, "AGENTMAIL_HTTP_PORT"),
        ({"AGENTMAIL_DOMAIN": "not a domain"}, "AGENTMAIL_DOMAIN"),
        ({"AGENTMAIL_REUSE_QUARANTINE": "forever"}, "AGENTMAIL_REUSE_QUARANTINE"),
        ({"AGENTMAIL_CATCHALL_ADDRESS": "x@elsewhere.test"}, "AGENTMAIL_CATCHALL_ADDRESS"),
        ({"AGENTMAIL_DOMIAN": "typo.test"}, "AGENTMAIL_DOMIAN"),
        ({"AGENTMAIL_IMAP_TLS": "maybe"}, "AGENTMAIL_IMAP_TLS"),
    ],
)
def test_bad_values_name_the_variable(env: dict[str, str], fragment: str) -> None:
    with pytest.raises(SettingError, match=fragment):
        load_settings(env, env_file=None)


def test_durations() -> None:
    assert load_settings({"AGENTMAIL_REUSE_QUARANTINE": "7d"}, env_file=None).reuse_quarantine == 7 * 86400
    assert load_settings({"AGENTMAIL_REUSE_QUARANTINE": "90"}, env_file=None).reuse_quarantine == 90


def test_env_example_lists_every_setting() -> None:
    text = (Path(__file__).parents[2] / ".env.example").read_text()
    for var, _, doc in describe():
        assert var in text, var
        assert doc in text, doc
