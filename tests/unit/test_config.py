"""Settings: precedence, validation, secrets, and .env.example in step with the code."""

from __future__ import annotations

import dataclasses
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import pytest

from gateway.config import Secret, SettingError, Settings, _converter, describe, is_secret, load_settings
from gateway.outbound.relay import RelayConfig


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


# --- conversion by declared type -------------------------------------------------------------

CONVERSIONS = [
    # int
    pytest.param("AGENTMAIL_HTTP_PORT", "2222", "http_port", 2222, id="int"),
    pytest.param("AGENTMAIL_RETENTION_DAYS", " 0 ", "retention_days", 0, id="int-spaces"),
    # float marked as a duration
    pytest.param("AGENTMAIL_REUSE_QUARANTINE", "12h", "reuse_quarantine", 12 * 3600.0, id="duration-h"),
    pytest.param("AGENTMAIL_REUSE_QUARANTINE", " 15m ", "reuse_quarantine", 900.0, id="duration-m"),
    pytest.param("AGENTMAIL_REUSE_QUARANTINE", "1.5", "reuse_quarantine", 1.5, id="duration-bare"),
    # Path | None: user expanded, empty is unset
    pytest.param("AGENTMAIL_ADMIN_TOKEN_FILE", "~/token", "admin_token_file", Path.home() / "token", id="path"),
    pytest.param("AGENTMAIL_ADMIN_TOKEN_FILE", "", "admin_token_file", None, id="path-empty"),
    # Secret | None: empty is unset
    pytest.param("AGENTMAIL_IMAP_PASSWORD", "pw 1", "imap_password", Secret("pw 1"), id="secret"),
    pytest.param("AGENTMAIL_IMAP_PASSWORD", "", "imap_password", None, id="secret-empty"),
    # tuple[str, ...]: a comma list, items stripped (and lowercased: this field's metadata)
    pytest.param(
        "AGENTMAIL_RESERVED_LOCAL_PARTS",
        " Billing, SUPPORT ,,",
        "reserved_local_parts",
        ("billing", "support"),
        id="list",
    ),
    pytest.param("AGENTMAIL_RESERVED_LOCAL_PARTS", "", "reserved_local_parts", (), id="list-empty"),
    # Literal: stripped, lowercased, one of its values
    pytest.param("AGENTMAIL_IMAP_TLS", " StartTLS ", "imap_tls", "starttls", id="literal"),
    pytest.param("AGENTMAIL_LOG_LEVEL", "DEBUG", "log_level", "debug", id="literal-upper"),
    # str: lowercased where the metadata says so, else exactly as written
    pytest.param("AGENTMAIL_DOMAIN", " Agents.Example.COM ", "domain", "agents.example.com", id="str-lower"),
    pytest.param("AGENTMAIL_IMAP_USER", " Catch@All ", "imap_user", " Catch@All ", id="str-as-is"),
]


@pytest.mark.parametrize(("var", "raw", "name", "expected"), CONVERSIONS)
def test_each_type_converts(var: str, raw: str, name: str, expected: object) -> None:
    assert getattr(load_settings({var: raw}, env_file=None), name) == expected


def test_str_lowercased_by_metadata_keeps_the_catchall_check() -> None:
    s = load_settings(
        {"AGENTMAIL_DOMAIN": "Example.ORG", "AGENTMAIL_CATCHALL_ADDRESS": " Box@EXAMPLE.org "}, env_file=None
    )
    assert (s.catchall_address, s.catchall) == ("box@example.org", "box@example.org")


def test_an_empty_path_for_a_field_that_cannot_be_none_is_its_default() -> None:
    assert load_settings({"AGENTMAIL_DATA_DIR": ""}, env_file=None).data_dir == Settings().data_dir
    assert load_settings({"AGENTMAIL_DATA_DIR": "~/mail"}, env_file=None).data_dir == Path.home() / "mail"


@pytest.mark.parametrize(
    ("var", "raw", "message"),
    [
        ("AGENTMAIL_IMAP_TLS", "maybe", "AGENTMAIL_IMAP_TLS='maybe': use ssl, starttls or none"),
        ("AGENTMAIL_LOG_LEVEL", "loud", "AGENTMAIL_LOG_LEVEL='loud': use debug, info, warning or error"),
    ],
)
def test_a_literal_outside_its_choices_is_refused_with_the_choices(var: str, raw: str, message: str) -> None:
    with pytest.raises(SettingError) as caught:
        load_settings({var: raw}, env_file=None)
    assert str(caught.value) == message


# --- the database URL ------------------------------------------------------------------------


@pytest.mark.parametrize("url", ["postgresql://gw:hunter2@db.internal/agentmail", "postgres://gw:hunter2@db/agentmail"])
def test_a_database_url_selects_postgresql_and_stays_masked(url: str) -> None:
    s = load_settings({"AGENTMAIL_DATABASE_URL": url}, env_file=None)
    assert s.store_kind == "postgresql"
    assert s.database_url is not None and s.database_url.reveal() == url
    assert "hunter2" not in repr(s) and "hunter2" not in str(s)


@pytest.mark.parametrize("env", [{}, {"AGENTMAIL_DATABASE_URL": ""}])
def test_without_a_database_url_the_store_is_sqlite(env: dict[str, str]) -> None:
    s = load_settings(env, env_file=None)
    assert s.database_url is None and s.store_kind == "sqlite"


@pytest.mark.parametrize(
    "url", ["mysql://gw:hunter2@db/agentmail", "hunter2", " postgresql://gw:hunter2@db/x", "POSTGRES://gw:hunter2@db"]
)
def test_a_database_url_of_another_kind_is_refused_without_echoing_it(url: str) -> None:
    with pytest.raises(SettingError, match="AGENTMAIL_DATABASE_URL") as caught:
        load_settings({"AGENTMAIL_DATABASE_URL": url}, env_file=None)
    assert "hunter2" not in str(caught.value)
    assert "postgresql://" in str(caught.value)  # says what is expected instead


# --- a new field needs no change to the converter --------------------------------------------


def test_every_setting_has_a_supported_type() -> None:
    hints = typing.get_type_hints(Settings)
    for f in dataclasses.fields(Settings):
        _converter(hints[f.name], f.metadata)  # TypeError for a type the converter does not know


def test_secrets_are_found_by_type() -> None:
    secrets = {f.name for f in dataclasses.fields(Settings) if is_secret(f.name)}
    assert secrets == {"admin_token", "imap_password", "push_secret", "database_url", "relay_url", "relay_password"}


@dataclass(frozen=True)
class _NewSettings:
    """Fields of every supported type, as a future Settings might declare them."""

    count: int = 0
    ratio: float = 0.0
    timeout: float = field(default=0.0, metadata={"doc": "", "kind": "duration"})
    spool: Path | None = None
    api_key: Secret | None = None
    tags: tuple[str, ...] = ()
    shouting: tuple[str, ...] = field(default=(), metadata={"doc": "", "lower": True})
    mode: Literal["fast", "safe"] = "safe"
    name: str = ""
    host: str = field(default="", metadata={"doc": "", "lower": True})


NEW_FIELDS = [
    ("count", "42", 42),
    ("ratio", "0.25", 0.25),
    ("timeout", "2m", 120.0),
    ("spool", "~/spool", Path.home() / "spool"),
    ("spool", "", None),
    ("api_key", "k", Secret("k")),
    ("api_key", "", None),
    ("tags", "A, b ,", ("A", "b")),
    ("shouting", "A, b ,", ("a", "b")),
    ("mode", " FAST", "fast"),
    ("name", " Keep Me ", " Keep Me "),
    ("host", " MX.Example ", "mx.example"),
]


@pytest.mark.parametrize(("name", "raw", "expected"), NEW_FIELDS)
def test_a_newly_declared_field_converts_by_its_type(name: str, raw: str, expected: object) -> None:
    f = {f.name: f for f in dataclasses.fields(_NewSettings)}[name]
    assert _converter(typing.get_type_hints(_NewSettings)[name], f.metadata)(raw) == expected


def test_a_new_literal_refuses_other_values_with_its_choices() -> None:
    with pytest.raises(ValueError, match="use fast or safe"):
        _converter(typing.get_type_hints(_NewSettings)["mode"], {})("slow")


@pytest.mark.parametrize("hint", [bool, list[str], dict[str, str], tuple[int, ...], Literal[1, 2], int | str])
def test_a_type_without_a_conversion_is_refused(hint: Any) -> None:
    with pytest.raises(TypeError, match="no conversion"):
        _converter(hint, {})


# --- secrets from files ----------------------------------------------------------------------


@pytest.mark.parametrize("secret", ["push_secret", "imap_password", "database_url", "relay_password"])
def test_a_secret_comes_from_its_file(tmp_path: Path, secret: str) -> None:
    value = "postgresql://u:pw-0123456789abcdef@db/x" if secret == "database_url" else "s3cret-0123456789abcdef"
    path = tmp_path / "secret"
    path.write_text(value + "\n")  # mounted secrets usually end with a newline
    env = {"AGENTMAIL_RELAY_URL": "smtp://agent@mail.example.com"} if secret == "relay_password" else {}
    s = load_settings({**env, f"AGENTMAIL_{secret.upper()}_FILE": str(path)}, env_file=None)
    assert getattr(s, secret) == Secret(value)
    assert value not in repr(s)


def test_the_push_listener_takes_its_secret_from_a_file(tmp_path: Path) -> None:
    path = tmp_path / "push"
    path.write_text("push-secret-0123456789\n")
    env = {"AGENTMAIL_IMAP_HOST": "dovecot", "AGENTMAIL_PUSH_LISTEN": "127.0.0.1:8026"}
    s = load_settings({**env, "AGENTMAIL_PUSH_SECRET_FILE": str(path)}, env_file=None)
    assert s.push_secret == Secret("push-secret-0123456789")
    path.write_text("short\n")
    with pytest.raises(SettingError, match="AGENTMAIL_PUSH_SECRET") as refused:
        load_settings({**env, "AGENTMAIL_PUSH_SECRET_FILE": str(path)}, env_file=None)
    assert "short" not in str(refused.value)


@pytest.mark.parametrize(
    ("content", "also_env", "why"),
    [
        (None, False, "cannot read it"),
        ("", False, "the file is empty"),
        ("file-secret-0123456789", True, "AGENTMAIL_PUSH_SECRET and AGENTMAIL_PUSH_SECRET_FILE are both set"),
    ],
)
def test_a_secret_file_that_cannot_be_used_is_refused_without_its_content(
    tmp_path: Path, content: str | None, also_env: bool, why: str
) -> None:
    path = tmp_path / "push"
    if content is not None:
        path.write_text(content)
    env = {"AGENTMAIL_PUSH_SECRET_FILE": str(path)}
    if also_env:
        env["AGENTMAIL_PUSH_SECRET"] = "env-secret-0123456789"
    with pytest.raises(SettingError, match=why) as refused:
        load_settings(env, env_file=None)
    assert "0123456789" not in str(refused.value)


# --- the relay and sending -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "password", "expected"),
    [
        ("smtp://mail.example.com", None, ("mail.example.com", 587, False, None, None, True)),
        ("smtps://Mail.Example.COM", None, ("mail.example.com", 465, True, None, None, True)),
        (
            "smtp://agent:hunter2@mail.example.com:2587",
            None,
            ("mail.example.com", 2587, False, "agent", "hunter2", True),
        ),
        ("smtp://agent%40d.test:p%3Ass@relay", None, ("relay", 587, False, "agent@d.test", "p:ss", True)),
        (
            "smtp://agent:hunter2@mail.example.com",
            "from-env",
            ("mail.example.com", 587, False, "agent", "from-env", True),
        ),
        ("smtp://agent@mail.example.com/", "from-env", ("mail.example.com", 587, False, "agent", "from-env", True)),
        ("smtp://127.0.0.1:25", None, ("127.0.0.1", 25, False, None, None, False)),
        ("smtp://127.8.9.10:25", None, ("127.8.9.10", 25, False, None, None, False)),
        ("smtp://[::1]:25", None, ("::1", 25, False, None, None, False)),
        ("smtp://LocalHost:25", None, ("localhost", 25, False, None, None, False)),
        ("smtp://10.0.0.5:25", None, ("10.0.0.5", 25, False, None, None, True)),
        ("smtp://localhost.example.com", None, ("localhost.example.com", 587, False, None, None, True)),
    ],
)
def test_the_relay_url_is_read_with_its_defaults_and_tls_rule(
    url: str, password: str | None, expected: tuple[object, ...]
) -> None:
    env = {"AGENTMAIL_RELAY_URL": url}
    if password is not None:
        env["AGENTMAIL_RELAY_PASSWORD"] = password
    s = load_settings(env, env_file=None)
    relay = RelayConfig.from_settings(s)
    assert relay is not None
    assert (relay.host, relay.port, relay.implicit_tls, relay.username, relay.password, relay.require_tls) == expected
    for secret in ("hunter2", "from-env"):
        assert secret not in repr(s) and secret not in repr(relay) and secret not in str(relay)


def test_without_a_relay_url_there_is_no_relay() -> None:
    s = load_settings({}, env_file=None)
    assert s.relay_url is None and RelayConfig.from_settings(s) is None
    assert s.send_per_hour == 20


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("http://agent:hunter2@mail.example.com", "smtp:// or smtps://"),
        ("agent:hunter2@mail.example.com", "smtp:// or smtps://"),
        ("smtp:agent:hunter2@mail.example.com", "smtp:// or smtps://"),
        ("smtp://agent:hunter2@", "names no host"),
        ("smtp://agent:hunter2@mail.example.com:0", "port"),
        ("smtp://agent:hunter2@mail.example.com:70000", "port"),
        ("smtp://agent:hunter2@mail.example.com:smtp", "port"),
        ("smtp://agent:hunter2@mail.example.com/relay", "nothing after the port"),
        ("smtp://agent:hunter2@mail.example.com?tls=no", "nothing after the port"),
        ("smtp://agent:hunter2@mail_server.example.com", "not a host name"),
        ("smtp://agent:hunter2@mail.example.com\n", "control characters"),
        ("smtp://agent:hunter 2@mail.example.com", "spaces"),
        ("smtp://:hunter2@mail.example.com", "needs a user name"),
    ],
)
def test_a_bad_relay_url_is_refused_without_echoing_it(url: str, why: str) -> None:
    with pytest.raises(SettingError, match="AGENTMAIL_RELAY_URL") as caught:
        load_settings({"AGENTMAIL_RELAY_URL": url}, env_file=None)
    assert why in str(caught.value)
    assert "hunter" not in str(caught.value) and "agent" not in str(caught.value)


def test_a_relay_password_without_a_relay_or_a_user_is_refused() -> None:
    with pytest.raises(SettingError, match="AGENTMAIL_RELAY_PASSWORD") as caught:
        load_settings({"AGENTMAIL_RELAY_PASSWORD": "hunter2"}, env_file=None)
    assert "hunter2" not in str(caught.value)
    with pytest.raises(SettingError, match="needs a user name") as caught:
        load_settings(
            {"AGENTMAIL_RELAY_URL": "smtp://mail.example.com", "AGENTMAIL_RELAY_PASSWORD": "hunter2"}, env_file=None
        )
    assert "hunter2" not in str(caught.value)


@pytest.mark.parametrize(("raw", "expected"), [("0", 0), ("20", 20), ("1000", 1000)])
def test_send_per_hour(raw: str, expected: int) -> None:
    assert load_settings({"AGENTMAIL_SEND_PER_HOUR": raw}, env_file=None).send_per_hour == expected


def test_a_negative_send_rate_is_refused() -> None:
    with pytest.raises(SettingError) as caught:
        load_settings({"AGENTMAIL_SEND_PER_HOUR": "-1"}, env_file=None)
    assert str(caught.value) == "AGENTMAIL_SEND_PER_HOUR=-1: must not be negative (0 turns sending off)"
