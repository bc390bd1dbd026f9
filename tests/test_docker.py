"""docker/: the compose deployment (docker-mailserver catch-all + gateway image), checked without a Docker engine.

The compose file is parsed with PyYAML and interpolated the way Compose does; the mailserver
override files are checked for the lines that give the test stack's delivery semantics (one
copy per original recipient, Delivered-To stamped, one INBOX, push hint); shell scripts go
through `bash -n`. Where postconf / doveconf 2.3 are installed, they parse the overrides too.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import smtplib
import ssl
import subprocess
import tempfile
import time
import tomllib
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from gateway.config import describe
from tests.mailstack import MailStack, ensure_installed, free_port

ROOT = Path(__file__).resolve().parents[1]
DOCKER = ROOT / "docker"
MAILSERVER = DOCKER / "mailserver"
COMPOSE_FILE = DOCKER / "compose.yaml"
ENV_EXAMPLE = ROOT / ".env.example"
SCRIPTS = sorted(MAILSERVER.glob("*.sh"))

SETTINGS = {var: default for var, default, _ in describe()}
PUSH_METADATA_KEY = "/private/vendor/vendor.dovecot/http-notify"

# What a user writes into docker/.env: the four required values plus .env.example's defaults.
EXAMPLE_ENV = {
    "AGENTMAIL_DOMAIN": "agents.example.com",
    "AGENTMAIL_IMAP_PASSWORD": "correct-horse-battery",
    "AGENTMAIL_PUSH_SECRET": "0123456789abcdef0123",
    "AGENTMAIL_RELAY_PASSWORD": "staple-relay-horse-battery",
}
RELAY_LOGIN = "agentmail-relay"
DKIM_DOCS = "https://docker-mailserver.github.io/docker-mailserver/latest/config/best-practices/dkim_dmarc_spf/"

_TOKEN = re.compile(r"\$\$|\$\{(?P<braced>[A-Za-z_][A-Za-z0-9_]*)|\$(?P<bare>[A-Za-z_][A-Za-z0-9_]*)")


# --- helpers ---------------------------------------------------------------------------------


def compose() -> dict[str, Any]:
    data = yaml.safe_load(COMPOSE_FILE.read_text())
    assert isinstance(data, dict)
    return data


def service(name: str) -> dict[str, Any]:
    services = compose()["services"]
    assert name in services, f"compose.yaml has no {name} service"
    svc = services[name]
    assert isinstance(svc, dict)
    return svc


def strings(node: Any) -> list[str]:
    """Every string value in a parsed YAML tree (Compose interpolates values, not keys)."""
    if isinstance(node, str):
        return [node]
    if isinstance(node, dict):
        return [s for value in node.values() for s in strings(value)]
    if isinstance(node, list):
        return [s for item in node for s in strings(item)]
    return []


def variables(text: str) -> set[str]:
    """Names referenced by ${VAR}, ${VAR:-...}, ${VAR:?...} (nested too) and $VAR; $$ is a literal."""
    return {m["braced"] or m["bare"] for m in _TOKEN.finditer(text) if m["braced"] or m["bare"]}


def interpolate(text: str, env: dict[str, str]) -> str:
    """Compose's interpolation for the forms compose.yaml uses: $$, $VAR, ${VAR}, ${VAR:-d}, ${VAR-d}, ${VAR:?e}."""
    out: list[str] = []
    i = 0
    while i < len(text):
        if text.startswith("$$", i):
            out.append("$")
            i += 2
        elif text.startswith("${", i):
            depth, j = 1, i + 2
            while depth:
                if text.startswith("${", j):
                    depth, j = depth + 1, j + 2
                    continue
                depth += {"}": -1}.get(text[j], 0)
                j += 1
            expr = text[i + 2 : j - 1]
            name = re.match(r"[A-Za-z_][A-Za-z0-9_]*", expr)
            assert name is not None, expr
            var, rest = name.group(), expr[name.end() :]
            value = env.get(var)
            if rest.startswith(":-"):
                out.append(value if value else interpolate(rest[2:], env))
            elif rest.startswith("-"):
                out.append(value if value is not None else interpolate(rest[1:], env))
            elif rest.startswith((":?", "?")):
                if not value:
                    raise KeyError(f"{var} is required: {rest.lstrip(':?')}")
                out.append(value)
            else:
                assert rest == "", f"unsupported interpolation ${{{expr}}}"
                out.append(value or "")
            i = j
        elif (m := re.match(r"\$([A-Za-z_][A-Za-z0-9_]*)", text[i:])) is not None:
            out.append(env.get(m.group(1), ""))
            i += m.end()
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def resolved(node: Any, env: dict[str, str]) -> Any:
    if isinstance(node, str):
        return interpolate(node, env)
    if isinstance(node, dict):
        return {key: resolved(value, env) for key, value in node.items()}
    if isinstance(node, list):
        return [resolved(item, env) for item in node]
    return node


def env_example_values() -> dict[str, str]:
    """The uncommented VAR=value lines of .env.example, as Compose would read them."""
    values = {}
    for line in ENV_EXAMPLE.read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#") and "=" in line:
            key, _, value = line.partition("=")
            values[key.strip()] = value.strip()
    return values


def user_env() -> dict[str, str]:
    return {**env_example_values(), **EXAMPLE_ENV}


def environment(svc: dict[str, Any], env: dict[str, str] | None = None) -> dict[str, str]:
    raw = svc.get("environment", {})
    if isinstance(raw, list):
        raw = dict(item.split("=", 1) for item in raw)
    assert isinstance(raw, dict)
    pairs = {str(k): "" if v is None else str(v) for k, v in raw.items()}
    return pairs if env is None else {k: interpolate(v, env) for k, v in pairs.items()}


def published(svc: dict[str, Any], env: dict[str, str]) -> list[tuple[str, str, int]]:
    """(host_ip, host_port, container_port) for every published port, short or long syntax."""
    result = []
    for entry in svc.get("ports", []):
        if isinstance(entry, dict):
            result.append((str(entry.get("host_ip", "")), str(entry.get("published", "")), int(entry["target"])))
            continue
        text = interpolate(str(entry), env).split("/")[0]
        parts = text.rsplit(":", 2)
        host_ip = parts[0] if len(parts) == 3 else ""
        host_port = parts[-2] if len(parts) >= 2 else ""
        result.append((host_ip, host_port, int(parts[-1])))
    return result


def postfix_settings(path: Path) -> dict[str, str]:
    """main.cf-style `name = value` lines (comments and blank lines skipped; later lines win)."""
    settings = {}
    for line in path.read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, sep, value = line.partition("=")
            assert sep, f"{path.name}: not a `name = value` line: {line!r}"
            settings[name.strip()] = value.strip()
    return settings


def dovecot_settings(path: Path) -> dict[str, str]:
    """Dovecot config flattened to 'section/sub/key' -> value; sections keep their name (`userdb`, `protocol lmtp`)."""
    settings: dict[str, str] = {}
    stack: list[str] = []
    for raw in path.read_text().splitlines():
        line = raw.split("#", 1)[0].strip() if not raw.lstrip().startswith("#") else ""
        if not line:
            continue
        if line.endswith("{"):
            stack.append(line[:-1].strip())
        elif line == "}":
            assert stack, f"{path.name}: unbalanced }}"
            stack.pop()
        else:
            key, sep, value = line.partition("=")
            assert sep, f"{path.name}: not a `key = value` line: {raw!r}"
            settings["/".join([*stack, key.strip()])] = value.strip()
    assert not stack, f"{path.name}: unclosed section {stack}"
    return settings


def options(value: str) -> dict[str, str]:
    return dict(part.split("=", 1) for part in value.split() if "=" in part)


# --- compose.yaml ----------------------------------------------------------------------------


def compose_spec() -> Draft202012Validator:
    """The Compose Specification JSON schema (compose-spec/compose-spec, Apache-2.0) that check-jsonschema vendors."""
    schema = json.loads((files("check_jsonschema.builtin_schemas.vendor") / "compose-spec.json").read_text())
    assert schema["title"] == "Compose Specification"
    return Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)


def spec_errors(data: Any) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in compose_spec().iter_errors(data)]


def test_compose_file_follows_the_compose_specification() -> None:
    # What `docker compose config` checks first (Compose v2 validates against this schema), before
    # and after interpolation with the documented docker/.env.
    assert spec_errors(compose()) == []
    assert spec_errors(resolved(compose(), user_env())) == []


def test_the_specification_check_catches_a_mistake() -> None:
    data = compose()
    data["services"]["gateway"]["restart_policy"] = "always"  # a Swarm key misplaced at service level
    data["services"]["gateway"]["depends_on"]["mailserver"]["condition"] = "healthy"
    errors = spec_errors(data)
    assert any("restart_policy" in e for e in errors), errors
    assert any(e.startswith("services/gateway/depends_on:") for e in errors), errors


def test_compose_v2_is_required_and_said_so() -> None:
    # Compose v1 (Debian's docker-compose 1.x) reads a file without `version:` as the legacy
    # format and rejects `name:`; v2 ignores `version:` (obsolete), so the file has none.
    assert "version" not in compose()
    header = COMPOSE_FILE.read_text().split("\nname:", 1)[0]
    assert "Compose v2" in header and "docker compose" in header
    readme = (ROOT / "README.md").read_text()
    assert "Compose v2" in readme and "docker-compose" in readme


def test_compose_has_both_services_and_a_project_name() -> None:
    data = compose()
    assert set(data["services"]) == {"mailserver", "gateway"}
    assert data.get("name") == "agentmail"


def test_every_compose_variable_is_documented() -> None:
    # In .env.example (what `cp .env.example docker/.env` starts from) or, for a value only the
    # deployment needs, in README.md's "Deploy on your domain".
    used = set().union(*(variables(s) for s in strings(compose())))
    assert {"AGENTMAIL_DOMAIN", "AGENTMAIL_IMAP_PASSWORD", "AGENTMAIL_PUSH_SECRET", "AGENTMAIL_RELAY_PASSWORD"} <= used
    text = ENV_EXAMPLE.read_text()
    deploy = deploy_section()
    missing = sorted(v for v in used if not re.search(rf"^\s*#?\s*{v}=", text, re.MULTILINE) and f"`{v}" not in deploy)
    assert not missing, f"used in compose.yaml but neither in .env.example nor in the README: {missing}"


def test_compose_only_variables_do_not_use_the_gateway_prefix() -> None:
    # The gateway refuses unknown AGENTMAIL_* variables, and .env.example is shared with it.
    used = set().union(*(variables(s) for s in strings(compose())))
    unknown = sorted(v for v in used if v.startswith("AGENTMAIL_") and v not in SETTINGS)
    assert not unknown


def test_variable_scanner_and_interpolation_follow_compose() -> None:
    assert variables("${A:-mail.${B}} $C $$D ${E:?x}") == {"A", "B", "C", "E"}
    assert interpolate("${A:-mail.${B}}", {"B": "x.org"}) == "mail.x.org"
    assert interpolate("${A:-mail.${B}}", {"A": "mx.y.org", "B": "x.org"}) == "mx.y.org"
    assert interpolate("$$HOME-${A-d}", {"A": ""}) == "$HOME-"
    with pytest.raises(KeyError, match="AGENTMAIL_DOMAIN"):
        interpolate("${AGENTMAIL_DOMAIN:?set it}", {})


def test_required_secrets_fail_loudly_when_missing() -> None:
    env = {**env_example_values(), "AGENTMAIL_DOMAIN": "agents.example.com"}  # passwords still commented out
    with pytest.raises(KeyError, match=r"AGENTMAIL_IMAP_PASSWORD|AGENTMAIL_PUSH_SECRET|AGENTMAIL_RELAY_PASSWORD"):
        resolved(compose(), env)
    without_relay = {k: v for k, v in user_env().items() if k != "AGENTMAIL_RELAY_PASSWORD"}
    with pytest.raises(KeyError, match="AGENTMAIL_RELAY_PASSWORD"):
        resolved(compose(), without_relay)
    resolved(compose(), user_env())  # and the documented four values are enough


def test_only_smtp_and_the_loopback_api_are_published() -> None:
    env = user_env()
    mail = published(service("mailserver"), env)
    assert [(ip, port) for ip, _, port in mail] == [("", 25)], "the mailserver publishes port 25 only"
    gateway = published(service("gateway"), env)
    assert [port for _, _, port in gateway] == [8025]
    for svc in ("mailserver", "gateway"):
        ports = {port for _, _, port in published(service(svc), env)}
        assert not ports & {143, 993, 110, 995, 587, 465, 4190, 8026}, f"{svc} publishes an internal port"


def test_api_is_published_on_loopback_only() -> None:
    for env in (user_env(), {**user_env(), "GATEWAY_HTTP_PORT": "9000"}):
        for host_ip, host_port, _ in published(service("gateway"), env):
            assert host_ip == "127.0.0.1", "the REST API must sit behind a TLS reverse proxy"
            assert host_port == env.get("GATEWAY_HTTP_PORT", "8025")


def test_gateway_passes_only_real_settings() -> None:
    env = environment(service("gateway"))
    passed = [var for var in env if var.startswith("AGENTMAIL_")]
    assert passed, "the gateway service passes no settings"
    unknown = sorted(set(passed) - set(SETTINGS))
    assert not unknown, f"the gateway would refuse to start: {unknown}"


def test_gateway_reads_the_catchall_over_tls_and_listens_for_push_internally() -> None:
    env = environment(service("gateway"), user_env())
    assert env["AGENTMAIL_IMAP_HOST"] == "mailserver"
    assert (env["AGENTMAIL_IMAP_TLS"], env["AGENTMAIL_IMAP_PORT"]) == ("ssl", "993")
    assert env["AGENTMAIL_IMAP_USER"] == env["AGENTMAIL_CATCHALL_ADDRESS"] == "catchall@agents.example.com"
    assert env["AGENTMAIL_IMAP_PASSWORD"] == EXAMPLE_ENV["AGENTMAIL_IMAP_PASSWORD"]
    assert env["AGENTMAIL_PUSH_SECRET"] == EXAMPLE_ENV["AGENTMAIL_PUSH_SECRET"]
    assert env["AGENTMAIL_PUSH_LISTEN"] == "0.0.0.0:8026"
    assert env["AGENTMAIL_HTTP_HOST"] == "0.0.0.0"
    assert env["AGENTMAIL_HTTP_PORT"] == "8025"
    assert env["AGENTMAIL_DATA_DIR"] == "/data"
    assert env["SSL_CERT_FILE"] == "/etc/agentmail-tls/ca.pem"
    assert "mail-tls:/etc/agentmail-tls:ro" in service("gateway")["volumes"]


def test_gateway_settings_load_from_the_compose_environment() -> None:
    from gateway.config import load_settings

    settings = load_settings(environment(service("gateway"), user_env()), env_file=None)
    assert settings.source_kind == "imap"
    assert settings.push_address == ("0.0.0.0", 8026)
    assert settings.catchall == "catchall@agents.example.com"


def test_compose_defaults_equal_the_gateway_defaults() -> None:
    from gateway.config import Settings, load_settings

    gateway = environment(service("gateway"))
    for var, value in gateway.items():
        for match in re.finditer(r"\$\{(AGENTMAIL_[A-Z_]+):-", value):
            assert match[1] == var, f"{var} is fed from {match[1]}"
    # With nothing but the three required values in docker/.env, compose's defaults are the gateway's.
    loaded = load_settings(environment(service("gateway"), dict(EXAMPLE_ENV)), env_file=None)
    default = Settings()
    for name in (
        "max_message_bytes",
        "reuse_quarantine",
        "retention_days",
        "reserved_local_parts",
        "log_level",
        "send_per_hour",
    ):
        assert getattr(loaded, name) == getattr(default, name), name
    assert loaded.admin_token is None, "an empty token must mean: generate one at first start"
    size = environment(service("mailserver"), dict(EXAMPLE_ENV))["POSTFIX_MESSAGE_SIZE_LIMIT"]
    assert int(size) == default.max_message_bytes == 25 * 1024 * 1024


def test_gateway_relays_through_the_mailserver_submission_port_with_starttls() -> None:
    from gateway.config import load_settings
    from gateway.outbound.relay import RelayConfig

    env = environment(service("gateway"), user_env())
    assert env["AGENTMAIL_RELAY_URL"] == f"smtp://{RELAY_LOGIN}@mailserver:587"
    assert env["AGENTMAIL_RELAY_PASSWORD"] == EXAMPLE_ENV["AGENTMAIL_RELAY_PASSWORD"]
    # The mailserver hashes the same value for the login it accepts on 587.
    assert environment(service("mailserver"), user_env())["AGENTMAIL_RELAY_PASSWORD"] == env["AGENTMAIL_RELAY_PASSWORD"]
    relay = RelayConfig.from_settings(load_settings(env, env_file=None))
    assert relay is not None
    assert (relay.host, relay.port, relay.implicit_tls) == ("mailserver", 587, False)
    assert relay.require_tls, "not loopback: STARTTLS is required"
    assert (relay.username, relay.password) == (RELAY_LOGIN, EXAMPLE_ENV["AGENTMAIL_RELAY_PASSWORD"])
    # Its certificate is verified against the internal CA, like IMAP's.
    assert env["SSL_CERT_FILE"] == "/etc/agentmail-tls/ca.pem"
    # Another relay can be named in docker/.env instead.
    other = environment(service("gateway"), {**user_env(), "AGENTMAIL_RELAY_URL": "smtps://me@smtp.example.net"})
    assert other["AGENTMAIL_RELAY_URL"] == "smtps://me@smtp.example.net"


def test_the_relay_login_is_the_one_the_mailserver_admits() -> None:
    url = environment(service("gateway"), user_env())["AGENTMAIL_RELAY_URL"]
    login = url.split("://", 1)[1].split("@", 1)[0]
    assert login == RELAY_LOGIN
    assert f"printf 'smtp/{login}:{{SHA512-CRYPT}}%s\\n'" in (MAILSERVER / "init.sh").read_text()
    master = (MAILSERVER / "postfix-master.cf").read_text()
    assert f"inline:{{{login}=permit}}" in master
    mail = environment(service("mailserver"), user_env())
    assert mail["PERMIT_DOCKER"] == "none", "relaying must need the login, never the network"
    assert mail["SPOOF_PROTECTION"] == "0", "one login sends as every identity"


def test_dkim_keys_outlive_the_container() -> None:
    mail = service("mailserver")
    assert "mail-dkim:/tmp/docker-mailserver/opendkim" in mail["volumes"]
    assert "mail-dkim" in compose()["volumes"]
    assert "ENABLE_OPENDKIM" not in environment(mail), "DMS signs with DKIM by default; keep it"
    text = deploy_section()
    assert DKIM_DOCS in text and "setup config dkim" in text and "SPF" in text


def test_gateway_service_shape() -> None:
    gateway = service("gateway")
    assert gateway["build"] == {"context": "..", "dockerfile": "docker/Dockerfile"}
    assert (DOCKER / ".." / gateway["build"]["dockerfile"]).is_file()
    assert gateway["depends_on"]["mailserver"]["condition"] == "service_healthy"
    health = gateway["healthcheck"]["test"]
    assert health[0] in {"CMD", "CMD-SHELL"} and "/health" in " ".join(health)
    assert "gateway-data:/data" in gateway["volumes"]
    assert "gateway-data" in compose()["volumes"]
    assert gateway.get("read_only") is True and gateway.get("cap_drop") == ["ALL"]


def test_mailserver_service_shape() -> None:
    mail = service("mailserver")
    assert re.fullmatch(r"ghcr\.io/docker-mailserver/docker-mailserver:15\.\d+\.\d+", mail["image"])
    assert mail["entrypoint"] == ["/bin/bash", "/agentmail/init.sh"]
    assert mail["command"] == ["supervisord", "-c", "/etc/supervisor/supervisord.conf"]
    assert "./mailserver:/agentmail:ro" in mail["volumes"]
    assert mail["healthcheck"]["test"] == ["CMD", "bash", "/agentmail/healthcheck.sh"]
    assert interpolate(mail["hostname"], user_env()) == "mail.agents.example.com"
    env = environment(mail, user_env())
    assert env["PERMIT_DOCKER"] == "none", "trusting the Docker network can make an open relay"
    assert env["ACCOUNT_PROVISIONER"] == "FILE"
    assert env["SSL_TYPE"] == "manual"
    assert env["SSL_CERT_PATH"] == "/etc/agentmail-tls/server-cert.pem"
    assert env["MOVE_SPAM_TO_JUNK"] == "0", "every delivery must stay in INBOX"
    assert env["ENABLE_QUOTAS"] == "0"
    for var in ("AGENTMAIL_DOMAIN", "AGENTMAIL_IMAP_PASSWORD", "AGENTMAIL_PUSH_SECRET"):
        assert env[var] == EXAMPLE_ENV[var], f"init.sh needs {var}"


def test_every_mounted_path_exists_in_the_repository() -> None:
    env = user_env()
    checked = 0
    for name, svc in compose()["services"].items():
        for volume in svc.get("volumes", []):
            source = interpolate(volume if isinstance(volume, str) else str(volume["source"]), env).split(":")[0]
            if source.startswith((".", "/")):
                assert (DOCKER / source).exists(), f"{name} mounts {source}, which is not in the repository"
                checked += 1
            else:
                assert source in compose()["volumes"], f"{name}: undeclared named volume {source}"
    assert checked >= 2
    for script in ("init.sh", "user-patches.sh", "healthcheck.sh"):
        assert (MAILSERVER / script).is_file()


def test_dockerfile_runs_unprivileged_with_a_healthcheck_and_the_push_port() -> None:
    text = (DOCKER / "Dockerfile").read_text()
    users = re.findall(r"^USER\s+(\S+)", text, re.MULTILINE)
    assert users and users[-1] not in {"root", "0", "0:0"}
    assert re.search(r"^HEALTHCHECK .*\n?.*CMD .*/health", text, re.MULTILINE)
    exposed = {int(p) for line in re.findall(r"^EXPOSE\s+(.+)$", text, re.MULTILINE) for p in line.split()}
    assert {8025, 8026} <= exposed
    ignore = (DOCKER / "Dockerfile.dockerignore").read_text().split()
    assert "**/.env" in ignore and ".venv" in ignore and ".git" in ignore


# --- docker-mailserver overrides ---------------------------------------------------------------


def test_postfix_delivers_one_lmtp_transaction_per_recipient() -> None:
    main = postfix_settings(MAILSERVER / "postfix-main.cf")
    assert main["lmtp_destination_recipient_limit"] == "1"


def test_postfix_accepts_every_local_part_without_rewriting() -> None:
    main = postfix_settings(MAILSERVER / "postfix-main.cf")
    assert main["virtual_alias_maps"] == "", "an alias to the catch-all would lose Delivered-To and Bcc copies"
    assert re.fullmatch(r"(static|regexp|pcre):\S+", main["virtual_mailbox_maps"])
    relay = [r.strip() for r in main["smtpd_relay_restrictions"].split(",")]
    assert relay[-1] == "reject_unauth_destination" and "defer_unauth_destination" not in relay


def test_message_size_comes_from_env_not_from_the_override() -> None:
    # A message_size_limit line would silently win over POSTFIX_MESSAGE_SIZE_LIMIT (i.e. over .env).
    assert "message_size_limit" not in postfix_settings(MAILSERVER / "postfix-main.cf")
    env = environment(service("mailserver"), user_env())
    assert env["POSTFIX_MESSAGE_SIZE_LIMIT"] == "26214400"
    smaller = {**user_env(), "AGENTMAIL_MAX_MESSAGE_BYTES": "1048576"}  # one value in .env drives both
    assert environment(service("mailserver"), smaller)["POSTFIX_MESSAGE_SIZE_LIMIT"] == "1048576"
    assert environment(service("gateway"), smaller)["AGENTMAIL_MAX_MESSAGE_BYTES"] == "1048576"


RELAY_ONLY = f"check_sasl_access,inline:{{{RELAY_LOGIN}=permit}},reject"
INTERNAL_CHAIN = "/etc/agentmail-tls/private/server-key.pem,/etc/agentmail-tls/server-cert.pem"


def master_overrides() -> list[str]:
    return [
        line.strip()
        for line in (MAILSERVER / "postfix-master.cf").read_text().splitlines()
        if re.match(r"[0-9a-z]", line)
    ]


def test_postfix_master_admits_only_the_relay_login_on_submission() -> None:
    lines = master_overrides()
    assert set(lines) == {
        f"submission/inet/smtpd_client_restrictions={RELAY_ONLY}",
        f"submission/inet/smtpd_relay_restrictions={RELAY_ONLY}",
        f"submission/inet/smtpd_tls_chain_files={INTERNAL_CHAIN}",
        "submissions/inet/smtpd_client_restrictions=reject",
    }
    assert "permit_sasl_authenticated" not in " ".join(lines), "the catch-all's login must not send"
    assert all(" " not in line for line in lines), "DMS passes each line to postconf -P unquoted"


def test_dovecot_accepts_every_user_into_one_mailbox() -> None:
    conf = dovecot_settings(MAILSERVER / "dovecot.cf")
    assert conf["userdb/driver"] == "static"
    args = options(conf["userdb/args"])
    assert args["allow_all_users"] == "yes"
    # Every user gets DMS's paths of catchall@ (mail_home /var/mail/%d/%n/home/, maildir:/var/mail/%d/%n).
    assert args["home"] == "/var/mail/%d/catchall/home"
    assert args["mail"] == "maildir:/var/mail/%d/catchall"
    assert (args["uid"], args["gid"]) == ("docker", "docker")
    assert conf.get("lmtp_hdr_delivery_address", "final") == "final"


def test_dovecot_push_driver_is_a_short_single_try_to_the_gateway() -> None:
    conf = dovecot_settings(MAILSERVER / "dovecot.cf")
    driver = conf["plugin/push_notification_driver"]
    kind, _, rest = driver.partition(":")
    assert kind == "ox"
    opts = options(rest)
    assert opts["url"] == "http://dovecot:@AGENTMAIL_PUSH_SECRET@@gateway:8026/push"
    assert opts["max_retries"] == "0"
    assert 0 < int(opts["timeout_msecs"]) <= 500
    gateway_port = environment(service("gateway"))["AGENTMAIL_PUSH_LISTEN"].rpartition(":")[2]
    assert opts["url"].split("@gateway:")[1].startswith(gateway_port + "/")
    plugins = conf["protocol lmtp/mail_plugins"].split()
    assert plugins[0] == "$mail_plugins" and {"notify", "push_notification"} <= set(plugins)
    assert conf["mail_attribute_dict"] == "file:%h/dovecot-attributes"
    assert conf["imap_metadata"] == "yes"


def test_dovecot_serves_imap_over_tls_only() -> None:
    conf = dovecot_settings(MAILSERVER / "dovecot.cf")
    assert conf["ssl"] == "required"
    assert conf["ssl_cert"] == "</etc/agentmail-tls/server-cert.pem"
    assert conf["ssl_key"] == "</etc/agentmail-tls/private/server-key.pem"
    assert conf["service imap-login/inet_listener imap/port"] == "0"


def test_init_renders_the_account_and_the_push_secret() -> None:
    init = (MAILSERVER / "init.sh").read_text()
    assert "@AGENTMAIL_PUSH_SECRET@" in (MAILSERVER / "dovecot.cf").read_text()
    assert "s|@AGENTMAIL_PUSH_SECRET@|${secret}|g" in init
    assert "catchall@%s|{SHA512-CRYPT}%s" in init, "DMS's postfix-accounts.cf format: login|{SCHEME}hash"
    assert "openssl passwd -6 -stdin" in init, "the password must not appear in argv"
    assert "subjectAltName=DNS:mailserver," in init, "the gateway verifies the host name mailserver"
    assert re.search(r"exec /usr/bin/dumb-init -- \"\$@\"\s*$", init), "hand over to DMS's own entrypoint"
    for name in ("postfix-main.cf", "postfix-master.cf", "user-patches.sh", "dovecot.cf"):
        assert name in init


def test_user_patches_sets_the_push_metadata_for_the_catchall() -> None:
    text = (MAILSERVER / "user-patches.sh").read_text()
    assert re.search(
        r"doveadm mailbox metadata set -u \"\$\{user\}\" -s ''\s*\\\s*\n\s*" + re.escape(PUSH_METADATA_KEY),
        text,
    )
    assert 'user="catchall@${AGENTMAIL_DOMAIN,,}"' in text
    assert '"user=${user}"' in text
    assert "chmod 0600 /etc/dovecot/local.conf" in text


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_shell_scripts_parse(script: Path) -> None:
    assert script.read_text().startswith("#!/bin/bash\n")
    result = subprocess.run(["bash", "-n", str(script)], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr


def test_bash_n_catches_a_broken_script(tmp_path: Path) -> None:
    broken = tmp_path / "broken.sh"
    broken.write_text("#!/bin/bash\nif true; then\n")
    assert subprocess.run(["bash", "-n", str(broken)], capture_output=True, check=False).returncode != 0


# --- the real parsers (the test mail stack installs them) -------------------------------------


def test_postconf_reads_the_overrides_the_way_dms_applies_them(tmp_path: Path) -> None:
    ensure_installed()
    # DMS: postconf -P for each master.cf line, then main.cf + postfix-main.cf rewritten by postconf -n.
    (tmp_path / "master.cf").write_text(
        "smtp inet n - n - 1 postscreen\n"
        "submission inet n - n - - smtpd\n"
        "submissions inet n - n - - smtpd\n"
        "lmtp unix - - n - - lmtp\n"
    )
    (tmp_path / "main.cf").write_text(
        "compatibility_level = 3.6\n"
        "virtual_mailbox_maps = texthash:/etc/postfix/vmailbox\n"
        "virtual_alias_maps = texthash:/etc/postfix/virtual\n"
        "smtpd_relay_restrictions = permit_mynetworks permit_sasl_authenticated defer_unauth_destination\n"
        "message_size_limit = 26214400\n" + (MAILSERVER / "postfix-main.cf").read_text()
    )
    for line in (MAILSERVER / "postfix-master.cf").read_text().splitlines():
        if re.match(r"[0-9a-z]", line):
            subprocess.run(["postconf", "-c", str(tmp_path), "-P", line], check=True, capture_output=True)

    def get(name: str) -> str:
        out = subprocess.run(["postconf", "-c", str(tmp_path), "-h", name], check=True, capture_output=True, text=True)
        return out.stdout.strip()

    assert get("lmtp_destination_recipient_limit") == "1"
    assert get("virtual_mailbox_maps") == "static:catchall"
    assert get("virtual_alias_maps") == ""
    assert get("smtpd_relay_restrictions").endswith("reject_unauth_destination")
    assert get("message_size_limit") == "26214400"
    master = subprocess.run(["postconf", "-c", str(tmp_path), "-P"], check=True, capture_output=True, text=True)
    assert f"submission/inet/smtpd_client_restrictions = {RELAY_ONLY}" in master.stdout
    assert f"submission/inet/smtpd_relay_restrictions = {RELAY_ONLY}" in master.stdout
    assert f"submission/inet/smtpd_tls_chain_files = {INTERNAL_CHAIN}" in master.stdout
    assert "submissions/inet/smtpd_client_restrictions = reject" in master.stdout


def test_doveconf_reads_the_override_after_a_dms_like_base(tmp_path: Path) -> None:
    ensure_installed()
    version = subprocess.run(["dovecot", "--version"], capture_output=True, text=True, check=False).stdout
    # DMS 15 ships Dovecot 2.3, as Debian 12 does; a 2.4 here would need its own syntax check.
    assert version.startswith("2.3"), f"dovecot.cf is written for DMS's Dovecot 2.3, this is {version.strip()}"
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    cert.write_text("")
    key.write_text("")
    local = (MAILSERVER / "dovecot.cf").read_text()
    local = local.replace("@AGENTMAIL_PUSH_SECRET@", EXAMPLE_ENV["AGENTMAIL_PUSH_SECRET"])
    local = local.replace("/etc/agentmail-tls/server-cert.pem", str(cert))
    local = local.replace("/etc/agentmail-tls/private/server-key.pem", str(key))
    (tmp_path / "local.conf").write_text(local)
    # The parts of DMS's conf.d that local.conf overrides or extends.
    (tmp_path / "dovecot.conf").write_text(
        f"base_dir = {tmp_path}/run\n"
        "protocols = imap lmtp\n"
        "mail_home = /var/mail/%d/%n/home/\n"
        "mail_location = maildir:/var/mail/%d/%n\n"
        "mail_plugins = $mail_plugins quota\n"
        "passdb {\n  driver = passwd-file\n  args = scheme=SHA512-CRYPT username_format=%u /etc/dovecot/userdb\n}\n"
        "userdb {\n  driver = passwd-file\n  args = username_format=%u /etc/dovecot/userdb\n}\n"
        "protocol lmtp {\n  mail_plugins = $mail_plugins sieve\n}\n"
        "service imap-login {\n  inet_listener imap {\n    port = 143\n  }\n"
        "  inet_listener imaps {\n    port = 993\n    ssl = yes\n  }\n}\n"
        "ssl = yes\n"
        "!include local.conf\n"
    )
    out = subprocess.run(
        ["doveconf", "-c", str(tmp_path / "dovecot.conf"), "-n"], capture_output=True, text=True, check=False
    )
    assert out.returncode == 0, out.stderr
    assert "Warning" not in out.stderr, out.stderr
    assert "allow_all_users=yes" in out.stdout and "driver = static" in out.stdout
    lmtp = subprocess.run(
        ["doveconf", "-c", str(tmp_path / "dovecot.conf"), "-f", "protocol=lmtp", "-h", "mail_plugins"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert lmtp == ["quota", "sieve", "notify", "push_notification"]
    driver = subprocess.run(
        ["doveconf", "-c", str(tmp_path / "dovecot.conf"), "-P", "-h", "plugin/push_notification_driver"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert driver.startswith("ox:url=http://dovecot:" + EXAMPLE_ENV["AGENTMAIL_PUSH_SECRET"] + "@gateway:8026/push ")


def relay_passdb_block() -> str:
    """The `passdb { ... }` section of dovecot.cf that reads the relay login's file."""
    match = re.search(r"^passdb \{\n(?:.*\n)*?\}\n", (MAILSERVER / "dovecot.cf").read_text(), re.MULTILINE)
    assert match is not None, "dovecot.cf has no passdb for the relay login"
    assert "/etc/dovecot/agentmail-relay.passwd" in match.group()
    return match.group()


def test_the_relay_password_logs_in_to_smtp_and_never_to_imap() -> None:
    # A real Dovecot 2.3 with DMS's passdb (catchall@ only) first and dovecot.cf's relay passdb
    # second, the relay file written in init.sh's format: Postfix's SASL checks (service smtp)
    # admit agentmail-relay with its password; an IMAP login with the same name and password fails.
    ensure_installed()
    # Dovecot's auth process runs as the user dovecot: the files sit where it can reach them,
    # root:dovecot 0640 as init.sh leaves the real one (pytest's tmp_path is root-only).
    with tempfile.TemporaryDirectory(prefix="agentmail-dovecot-") as scratch:
        root = Path(scratch)
        root.chmod(0o711)
        relay_logins(root)


def relay_logins(tmp_path: Path) -> None:
    def crypt(password: str) -> str:
        out = subprocess.run(
            ["openssl", "passwd", "-6", "-stdin"], input=password + "\n", capture_output=True, text=True, check=True
        )
        return out.stdout.strip()

    relay_password = EXAMPLE_ENV["AGENTMAIL_RELAY_PASSWORD"]
    imap_password = EXAMPLE_ENV["AGENTMAIL_IMAP_PASSWORD"]
    (tmp_path / "relay.passwd").write_text(f"smtp/{RELAY_LOGIN}:{{SHA512-CRYPT}}{crypt(relay_password)}\n")
    (tmp_path / "userdb").write_text(
        f"catchall@agents.example.com:{{SHA512-CRYPT}}{crypt(imap_password)}:5000:5000::{tmp_path}/home::\n"
    )
    for name in ("relay.passwd", "userdb"):
        shutil.chown(tmp_path / name, user="root", group="dovecot")
        (tmp_path / name).chmod(0o640)
    passdb = relay_passdb_block().replace("/etc/dovecot/agentmail-relay.passwd", str(tmp_path / "relay.passwd"))
    conf = tmp_path / "dovecot.conf"
    conf.write_text(
        f"base_dir = {tmp_path}/run\nstate_dir = {tmp_path}/state\nlog_path = {tmp_path}/dovecot.log\n"
        # No 2 s pause after each refused login (Dovecot's brake on guessing): six logins, quickly.
        "protocols =\nssl = no\nauth_mechanisms = plain login\nauth_failure_delay = 0\n"
        "passdb {\n  driver = passwd-file\n  mechanisms = plain login\n"
        f"  args = scheme=SHA512-CRYPT username_format=%u {tmp_path}/userdb\n}}\n"
        f"userdb {{\n  driver = passwd-file\n  args = username_format=%u {tmp_path}/userdb\n}}\n" + passdb
    )
    daemon = subprocess.Popen(["dovecot", "-F", "-c", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    clients = iter(range(1, 255))
    try:

        def login(service_name: str, user: str, password: str) -> bool:
            # `doveadm auth test` answers "passdb: <user> auth succeeded" (0) or "... failed" (77).
            # Each login from its own client address: Dovecot slows down a client after failures.
            extra = [f"service={service_name}", f"rip=192.0.2.{next(clients)}"]
            out = subprocess.run(
                ["doveadm", "-c", str(conf), "auth", "test", "-x", extra[0], "-x", extra[1], user, password],
                capture_output=True,
                text=True,
                check=False,
                timeout=30,
            )
            assert out.returncode in (0, 77) and "auth " in out.stdout + out.stderr, out.stdout + out.stderr
            log = tmp_path / "dovecot.log"
            assert "Error" not in (log.read_text() if log.exists() else ""), log.read_text()
            return out.returncode == 0

        socket = tmp_path / "run" / "auth-client"
        deadline = time.monotonic() + 20
        while not socket.exists():
            assert daemon.poll() is None, f"dovecot exited: {(tmp_path / 'dovecot.log').read_text()}"
            assert time.monotonic() < deadline, "dovecot's auth socket never appeared"
            time.sleep(0.05)  # polling for the socket, bounded by the deadline
        assert login("smtp", RELAY_LOGIN, relay_password)
        assert not login("smtp", RELAY_LOGIN, imap_password)
        assert not login("imap", RELAY_LOGIN, relay_password), "the relay password must not read the mailbox"
        assert not login("imap", "smtp/" + RELAY_LOGIN, relay_password)
        assert login("imap", "catchall@agents.example.com", imap_password)  # DMS's passdb still answers first
        assert not login("imap", "catchall@agents.example.com", relay_password)
    finally:
        daemon.terminate()
        try:
            daemon.wait(timeout=10)
        except subprocess.TimeoutExpired:
            daemon.kill()
            daemon.wait()


# DMS 15.1.0's submission service (target/postfix/master.cf), which postfix-master.cf overrides.
DMS_SUBMISSION = """\
  -o syslog_name=postfix/submission
  -o smtpd_tls_security_level=encrypt
  -o smtpd_sasl_auth_enable=yes
  -o smtpd_sasl_type=dovecot
  -o smtpd_reject_unlisted_recipient=no
  -o smtpd_sasl_authenticated_header=yes
  -o smtpd_client_restrictions=permit_sasl_authenticated,reject
  -o smtpd_relay_restrictions=permit_sasl_authenticated,reject
  -o smtpd_sender_restrictions=$mua_sender_restrictions
  -o smtpd_discard_ehlo_keywords=
"""
# And the main.cf lines of DMS 15.1.0 that submission relies on (SPOOF_PROTECTION=0 as compose.yaml pins it).
DMS_MAIN = """
smtpd_sasl_type = dovecot
smtpd_sasl_auth_enable = no
smtpd_sasl_security_options = noanonymous
smtpd_sasl_local_domain = $mydomain
dms_smtpd_sender_restrictions = permit_sasl_authenticated, permit_mynetworks, reject_unknown_sender_domain
mua_sender_restrictions = $dms_smtpd_sender_restrictions
smtpd_recipient_restrictions = permit_sasl_authenticated, permit_mynetworks, reject_unauth_destination
"""


def test_submission_relays_for_the_relay_login_only_over_the_internal_certificate() -> None:
    # A real Postfix 3.7 and Dovecot 2.3 (DMS 15's versions, from the test mail stack) with DMS's
    # submission service, postfix-master.cf applied the way DMS applies it, and dovecot.cf's relay
    # passdb behind Postfix's SASL: the relay login may relay, the catch-all's login (valid for
    # IMAP) may not, nor may a client without a login; 587 presents the internal certificate.
    ensure_installed()
    stack = MailStack.create(domain="agents.example.com")
    cfg = stack.config
    port = free_port()
    service_name = f"127.0.0.1:{port}"  # DMS's "submission" (587), on a free loopback port here
    relay_password = EXAMPLE_ENV["AGENTMAIL_RELAY_PASSWORD"]
    try:
        tls = cfg.root / "tls"
        (tls / "private").mkdir(parents=True, mode=0o700)
        key, cert = tls / "private" / "server-key.pem", tls / "server-cert.pem"
        request = "req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=mailserver -addext subjectAltName=DNS:mailserver"
        subprocess.run(
            ["openssl", *request.split(), "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True
        )
        hashed = subprocess.run(
            ["openssl", "passwd", "-6", "-stdin"],
            input=relay_password + "\n",
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        passwd = cfg.root / "dovecot" / "relay.passwd"
        passwd.write_text(f"smtp/{RELAY_LOGIN}:{{SHA512-CRYPT}}{hashed}\n")
        shutil.chown(passwd, user="root", group="dovecot")
        passwd.chmod(0o640)
        passdb = relay_passdb_block().replace("/etc/dovecot/agentmail-relay.passwd", str(passwd))
        sasl_socket = "  unix_listener sasl-auth {\n    mode = 0660\n    user = postfix\n    group = postfix\n  }\n"
        cfg.dovecot_conf.write_text(
            cfg.dovecot_conf.read_text() + "auth_failure_delay = 0\n" + passdb + f"service auth {{\n{sasl_socket}}}\n"
        )
        master, main = cfg.postfix_dir / "master.cf", cfg.postfix_dir / "main.cf"
        master.write_text(
            master.read_text()
            + f"{service_name} inet n - n - - smtpd\n{DMS_SUBMISSION}tlsmgr unix - - n 1000? 1 tlsmgr\n"
        )
        main.write_text(main.read_text() + DMS_MAIN + f"smtpd_sasl_path = {cfg.dovecot_run}/sasl-auth\n")
        for line in master_overrides():
            if line.startswith("submission/"):
                line = line.replace("submission/", f"{service_name}/", 1).replace("/etc/agentmail-tls", str(tls))
                subprocess.run(["postconf", "-c", str(cfg.postfix_dir), "-P", line], check=True, capture_output=True)
        stamp = time.time() - 60  # Postfix waits for config files younger than a few seconds to settle
        for path in (master, main):
            os.utime(path, (stamp, stamp))
        stack.start()

        context = ssl.create_default_context(cafile=str(cert))
        context.check_hostname = False  # we connect to 127.0.0.1; the name is checked below

        def relay_to_elsewhere(login: tuple[str, str] | None) -> tuple[int | None, int]:
            """(AUTH reply code or None, RCPT reply code) for a recipient at another domain."""
            with smtplib.SMTP("127.0.0.1", port, local_hostname="gateway.agents.example.com", timeout=30) as smtp:
                smtp.starttls(context=context)
                assert isinstance(smtp.sock, ssl.SSLSocket)
                peer = smtp.sock.getpeercert()
                assert peer is not None and ("DNS", "mailserver") in peer["subjectAltName"]
                auth = None
                if login is not None:
                    try:
                        auth = smtp.login(*login)[0]
                    except smtplib.SMTPAuthenticationError as exc:
                        auth = exc.smtp_code
                assert smtp.docmd("MAIL", "FROM:<planner@agents.example.com>")[0] == 250
                rcpt = smtp.docmd("RCPT", "TO:<someone@example.org>")[0]
                smtp.rset()  # nothing is queued: the answer to RCPT is what this checks
                return auth, rcpt

        assert relay_to_elsewhere((RELAY_LOGIN, relay_password)) == (235, 250)
        assert relay_to_elsewhere(None) == (None, 554)
        assert relay_to_elsewhere((cfg.user, cfg.password)) == (235, 554), "the catch-all's login must not send"
        assert relay_to_elsewhere((RELAY_LOGIN, cfg.password)) == (535, 554)
    finally:
        stack.stop()


# --- the image's lock file and the operator docs -------------------------------------------------


def locked_versions() -> dict[str, str]:
    """name → pinned version of docker/requirements.lock (markers ignored: the image is Linux)."""
    pins = re.findall(r"^([A-Za-z0-9_.-]+)==([^\s;\\]+)", (DOCKER / "requirements.lock").read_text(), re.MULTILINE)
    return {canonicalize_name(name): version for name, version in pins}


def test_the_lock_pins_every_dependency_within_pyproject_bounds_with_hashes() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    locked = locked_versions()
    # The `postgres` extra too: the same image runs on SQLite or PostgreSQL (compose.scale.yaml).
    for line in [*pyproject["dependencies"], *pyproject["optional-dependencies"]["postgres"]]:
        requirement = Requirement(line)
        name = canonicalize_name(requirement.name)
        assert name in locked, f"{name} is a dependency but docker/requirements.lock lacks it: run `make lock`"
        assert requirement.specifier.contains(locked[name]), f"{name}=={locked[name]} is outside {requirement}"
    text = (DOCKER / "requirements.lock").read_text()
    for block in re.split(r"\n(?=[A-Za-z0-9_.-]+==)", text.split("\n", 2)[2]):
        assert "--hash=sha256:" in block, f"no hash for {block.splitlines()[0]}"
    assert "--require-hashes -r /tmp/requirements.lock" in (DOCKER / "Dockerfile").read_text()


def test_the_lock_check_catches_a_dependency_missing_or_out_of_bounds() -> None:
    locked = locked_versions()
    assert not Requirement("litestar>=99").specifier.contains(locked["litestar"])
    assert canonicalize_name("no-such-dependency") not in locked
    assert "--extra postgres" in (ROOT / "Makefile").read_text(), "`make lock` must keep psycopg in the image"


def deploy_section() -> str:
    match = re.search(r"^## Deploy on your domain\n(.*?)(?=^## )", (ROOT / "README.md").read_text(), re.M | re.S)
    assert match is not None, "README.md has no 'Deploy on your domain' section"
    return match.group(1)


def seconds(text: str) -> float:
    value = re.fullmatch(r"(\d+)(s|m)?", text)
    assert value is not None, text
    return int(value[1]) * (60 if value[2] == "m" else 1)


def test_the_proxy_snippets_outlast_the_longest_wait() -> None:
    from gateway.api.controllers.waits import KEEPALIVE_SECONDS
    from gateway.client.plans import WAIT_SEGMENT_SECONDS
    from gateway.waiting import MAX_WAIT_SECONDS

    text = deploy_section()
    nginx = re.search(r"proxy_read_timeout (\w+);", text)
    caddy = re.search(r"read_timeout (\w+)\n", text)
    assert nginx is not None and caddy is not None, "the nginx and Caddy snippets are gone"
    assert seconds(nginx[1]) > MAX_WAIT_SECONDS and seconds(caddy[1]) > MAX_WAIT_SECONDS
    assert "proxy_buffering off;" in text and "proxy_set_header Host $host;" in text
    # The numbers the prose gives are the code's.
    assert f"at most\n{MAX_WAIT_SECONDS:.0f} s" in text or f"at most {MAX_WAIT_SECONDS:.0f} s" in text
    assert f"segments of {WAIT_SEGMENT_SECONDS:.0f} s" in text
    assert f"every {KEEPALIVE_SECONDS:.0f} s" in text


def test_the_deploy_docs_cover_what_an_operator_needs() -> None:
    text = deploy_section()
    for heading in (
        "Tokens in the deployment",
        "Backups",
        "Upgrades",
        "Certificates",
        "Spam and abuse",
        "Reverse proxy",
    ):
        assert f"### {heading}" in text, heading
    assert "agentmail-gateway token create" in text and "agentmail-gateway backup" in text
    assert "pg_dump" in text and "identities.db-wal" in text
    # Every docker-mailserver switch the spam table names as off is off in compose.yaml.
    env = environment(service("mailserver"))
    for var in ("ENABLE_RSPAMD", "ENABLE_SPAMASSASSIN", "ENABLE_AMAVIS", "ENABLE_CLAMAV", "ENABLE_FAIL2BAN"):
        assert var in text and env[var] == "0", var
    assert env["MOVE_SPAM_TO_JUNK"] == "0" and "MOVE_SPAM_TO_JUNK=0" in text
    # Those the table leaves at docker-mailserver's defaults are not overridden.
    for var in ("ENABLE_POSTGREY", "ENABLE_DNSBL", "POSTSCREEN_ACTION", "ENABLE_POLICYD_SPF", "ENABLE_OPENDMARC"):
        assert var in text and var not in env, var
