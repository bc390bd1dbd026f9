"""docker/: the compose deployments (docker-mailserver catch-all + gateway image), checked without a Docker engine.

The compose files are parsed with PyYAML and interpolated the way Compose does; the mailserver
override files are checked for the lines that give the test stack's delivery semantics (one
copy per original recipient, Delivered-To stamped, one INBOX, push hint); shell scripts go
through `bash -n`. Where postconf / doveconf 2.3 are installed, they parse the overrides too.
compose.scale.yaml (PostgreSQL, two gateways, Caddy) is held to compose.yaml's gateway, and its
Caddyfile runs in a real Caddy (Debian's, installed as root when missing) in front of two
stand-in gateways.
"""

from __future__ import annotations

import contextlib
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
from tests.mailstack.stack import POLICY_RC_D

ROOT = Path(__file__).resolve().parents[1]
DOCKER = ROOT / "docker"
MAILSERVER = DOCKER / "mailserver"
COMPOSE_FILE = DOCKER / "compose.yaml"
SCALE_FILE = DOCKER / "compose.scale.yaml"
CADDYFILE = DOCKER / "proxy" / "Caddyfile"
COMPOSE_FILES = [COMPOSE_FILE, SCALE_FILE]
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
# What compose.scale.yaml needs in docker/.env besides those.
SCALE_ENV = {
    "POSTGRES_PASSWORD": "0a1b2c3d4e5f60718293a4b5",
    "AGENTMAIL_ADMIN_TOKEN": "am_admin-token-for-replicas-0123",
}
RELAY_LOGIN = "agentmail-relay"
DKIM_DOCS = "https://docker-mailserver.github.io/docker-mailserver/latest/config/best-practices/dkim_dmarc_spf/"

_TOKEN = re.compile(r"\$\$|\$\{(?P<braced>[A-Za-z_][A-Za-z0-9_]*)|\$(?P<bare>[A-Za-z_][A-Za-z0-9_]*)")


# --- helpers ---------------------------------------------------------------------------------


def compose(path: Path = COMPOSE_FILE) -> dict[str, Any]:
    data = yaml.safe_load(path.read_text())
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


def scale_env() -> dict[str, str]:
    """docker/.env for compose.scale.yaml: compose.yaml's plus the two values it also requires."""
    return {**user_env(), **SCALE_ENV}


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


@pytest.mark.parametrize("path", COMPOSE_FILES, ids=lambda p: p.name)
def test_every_compose_variable_is_documented(path: Path) -> None:
    # In .env.example (what `cp .env.example docker/.env` starts from) or, for a value only the
    # deployment needs, in README.md's "Deploy on your domain".
    used = set().union(*(variables(s) for s in strings(compose(path))))
    assert {"AGENTMAIL_DOMAIN", "AGENTMAIL_IMAP_PASSWORD", "AGENTMAIL_PUSH_SECRET", "AGENTMAIL_RELAY_PASSWORD"} <= used
    text = ENV_EXAMPLE.read_text()
    deploy = deploy_section()
    missing = sorted(v for v in used if not re.search(rf"^\s*#?\s*{v}=", text, re.MULTILINE) and f"`{v}" not in deploy)
    assert not missing, f"used in compose.yaml but neither in .env.example nor in the README: {missing}"


@pytest.mark.parametrize("path", COMPOSE_FILES, ids=lambda p: p.name)
def test_compose_only_variables_do_not_use_the_gateway_prefix(path: Path) -> None:
    # The gateway refuses unknown AGENTMAIL_* variables, and .env.example is shared with it.
    used = set().union(*(variables(s) for s in strings(compose(path))))
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


@pytest.mark.parametrize("path", COMPOSE_FILES, ids=lambda p: p.name)
def test_every_mounted_path_exists_in_the_repository(path: Path) -> None:
    env = scale_env()
    checked = 0
    services = compose(path)["services"]
    for name, svc in services.items():
        if "extends" in svc:  # the extended service's own mounts, resolved beside its file
            svc = compose(DOCKER / svc["extends"]["file"])["services"][svc["extends"]["service"]]
        for volume in svc.get("volumes", []):
            source = interpolate(volume if isinstance(volume, str) else str(volume["source"]), env).split(":")[0]
            if source.startswith((".", "/")):
                assert (DOCKER / source).exists(), f"{name} mounts {source}, which is not in the repository"
                checked += 1
            else:
                # Named volumes must be declared in the file that runs the service (extends imports none).
                assert source in compose(path)["volumes"], f"{path.name}: {name}: undeclared named volume {source}"
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


# --- compose.scale.yaml: PostgreSQL, two gateways, a proxy ----------------------------------

SCALE_GATEWAYS = ("gateway-1", "gateway-2")
# What a replica's environment may differ in from compose.yaml's single gateway, and why.
SCALE_ONLY = {
    "AGENTMAIL_DATABASE_URL",  # the shared store: what makes a gateway a replica
    "AGENTMAIL_TRUSTED_PROXIES",  # the compose network's proxy, not the host's
}


def scale_service(name: str) -> dict[str, Any]:
    services = compose(SCALE_FILE)["services"]
    assert name in services, f"compose.scale.yaml has no {name} service"
    svc = services[name]
    assert isinstance(svc, dict)
    return svc


def caddy_sites(text: str) -> dict[str, str]:
    """Top-level blocks of a Caddyfile by their address (`:8025`), the global options block skipped."""
    sites: dict[str, str] = {}
    for match in re.finditer(r"^(\S+) \{\n(.*?)^\}\n", text, re.MULTILINE | re.DOTALL):
        sites[match[1]] = match[2]
    return sites


def caddy_upstreams(block: str) -> list[str]:
    found = re.search(r"^\treverse_proxy ([^{\n]+) \{$", block, re.MULTILINE)
    assert found is not None, block
    return found[1].split()


def caddy_value(block: str, name: str) -> str:
    values = re.findall(rf"^\t+{name} (.+)$", block, re.MULTILINE)
    assert len(values) == 1, f"{name}: {values}"
    return str(values[0]).strip()


def test_scale_file_follows_the_compose_specification() -> None:
    assert spec_errors(compose(SCALE_FILE)) == []
    assert spec_errors(resolved(compose(SCALE_FILE), scale_env())) == []
    broken = compose(SCALE_FILE)
    broken["services"]["gateway-1"]["healthcheck"]["test"] = {"CMD": "curl"}
    assert any(e.startswith("services/gateway-1/healthcheck/test") for e in spec_errors(broken))


def test_scale_file_has_its_services_under_the_same_project() -> None:
    data = compose(SCALE_FILE)
    assert set(data["services"]) == {"mailserver", "postgres", *SCALE_GATEWAYS, "proxy"}
    # compose.yaml's project: the same mail-* volumes, so the mailbox carries over.
    assert data["name"] == compose()["name"] == "agentmail"
    assert "version" not in data
    header = SCALE_FILE.read_text().split("\nname:", 1)[0]
    assert "Compose v2" in header and "docker compose -f docker/compose.scale.yaml up -d" in header


def test_scale_mailserver_is_compose_yaml_s() -> None:
    mail = scale_service("mailserver")
    assert mail == {"extends": {"file": "compose.yaml", "service": "mailserver"}}
    assert "mailserver" in compose()["services"]
    volumes = {v.split(":")[0] for v in service("mailserver")["volumes"] if not v.startswith((".", "$"))}
    assert volumes <= set(compose(SCALE_FILE)["volumes"]), "extends brings no volume declarations"
    # The mailserver's required settings resolve from the same docker/.env.
    assert spec_errors(resolved(compose(), scale_env())) == []


def test_scale_requires_its_two_secrets() -> None:
    for missing in SCALE_ENV:
        env = {k: v for k, v in scale_env().items() if k != missing}
        with pytest.raises(KeyError, match=missing):
            resolved(compose(SCALE_FILE), env)
    resolved(compose(SCALE_FILE), scale_env())


def test_both_gateways_are_one_image_and_one_environment() -> None:
    first, second = (scale_service(name) for name in SCALE_GATEWAYS)
    assert first["image"] == second["image"]
    assert first["build"] == second["build"] == service("gateway")["build"]
    assert environment(first, scale_env()) == environment(second, scale_env())
    differ = {key for key in {*first, *second} if first.get(key) != second.get(key)}
    assert differ == {"volumes"}, differ
    # Each its own /data (nothing shared lives there), the internal CA for both.
    data = [next(v for v in svc["volumes"] if v.endswith(":/data")) for svc in (first, second)]
    assert len(set(data)) == 2
    for svc in (first, second):
        assert "mail-tls:/etc/agentmail-tls:ro" in svc["volumes"]
        assert published(svc, scale_env()) == [], "replicas are reached through the proxy only"
        assert svc["depends_on"]["postgres"]["condition"] == "service_healthy"
        assert svc["depends_on"]["mailserver"]["condition"] == "service_healthy"
        assert svc.get("read_only") is True and svc.get("cap_drop") == ["ALL"]


def test_the_gateways_share_one_database_on_the_postgres_service() -> None:
    from urllib.parse import urlsplit

    pg = environment(scale_service("postgres"), scale_env())
    for name in SCALE_GATEWAYS:
        url = urlsplit(environment(scale_service(name), scale_env())["AGENTMAIL_DATABASE_URL"])
        assert url.scheme == "postgresql"
        assert (url.hostname, url.port) == ("postgres", 5432)
        assert url.username == pg["POSTGRES_USER"] and url.password == pg["POSTGRES_PASSWORD"]
        assert url.path == "/" + pg["POSTGRES_DB"]
    assert pg["POSTGRES_PASSWORD"] == SCALE_ENV["POSTGRES_PASSWORD"]


def test_replica_settings_load_as_postgres_over_dovecot() -> None:
    from gateway.config import load_settings

    settings = load_settings(environment(scale_service("gateway-1"), scale_env()), env_file=None)
    assert settings.store_kind == "postgresql"
    assert settings.source_kind == "imap", "replicas read Dovecot; the embedded intake is single-process"
    assert settings.push_address == ("0.0.0.0", 8026)
    assert settings.admin_token is not None, "a generated token would land in one replica's volume only"
    assert settings.trusted_proxies


def test_a_replica_is_compose_yaml_s_gateway_plus_the_database() -> None:
    # Nothing else drifts: a setting added to compose.yaml's gateway belongs here too.
    single = environment(service("gateway"), scale_env())
    replica = environment(scale_service("gateway-1"), scale_env())
    assert set(replica) - set(single) == {"AGENTMAIL_DATABASE_URL"}
    assert set(single) - set(replica) == set()
    changed = {k for k in single if single[k] != replica[k]}
    assert changed <= SCALE_ONLY | {"AGENTMAIL_ADMIN_TOKEN"}, changed
    assert replica["AGENTMAIL_ADMIN_TOKEN"] == SCALE_ENV["AGENTMAIL_ADMIN_TOKEN"]
    for key in ("security_opt", "tmpfs", "restart"):
        assert scale_service("gateway-1")[key] == service("gateway")[key], key


def test_each_replica_reports_ready_to_docker() -> None:
    for name in SCALE_GATEWAYS:
        health = scale_service(name)["healthcheck"]
        assert health["test"][0] == "CMD"
        probe = " ".join(health["test"])
        assert "http://127.0.0.1:8025/ready" in probe and "/health" not in probe


def test_postgres_service_shape() -> None:
    pg = scale_service("postgres")
    assert re.fullmatch(r"postgres:1[67](\.\d+)?", pg["image"])
    assert pg["healthcheck"]["test"][:2] == ["CMD", "pg_isready"]
    env = environment(pg, scale_env())
    test = pg["healthcheck"]["test"]
    assert test[test.index("-U") + 1] == env["POSTGRES_USER"] and test[test.index("-d") + 1] == env["POSTGRES_DB"]
    assert "postgres-data:/var/lib/postgresql/data" in pg["volumes"]
    assert env["POSTGRES_INITDB_ARGS"] == "--data-checksums", "README: page damage is PostgreSQL's to catch"
    assert "ports" not in pg, "the database stays on the compose network"


def test_the_proxy_publishes_the_api_on_loopback_and_answers_for_the_push_url() -> None:
    proxy = scale_service("proxy")
    for env in (scale_env(), {**scale_env(), "GATEWAY_HTTP_PORT": "9000"}):
        assert published(proxy, env) == [("127.0.0.1", env.get("GATEWAY_HTTP_PORT", "8025"), 8025)]
    assert "./proxy/Caddyfile:/etc/caddy/Caddyfile:ro" in proxy["volumes"]
    assert re.fullmatch(r"caddy:2\.\d+", proxy["image"])
    # dovecot.cf's push URL names the host `gateway`: here that is the proxy.
    push_host = re.search(r"@(\w[\w-]*):8026/", (MAILSERVER / "dovecot.cf").read_text())
    assert push_host is not None
    assert push_host[1] in proxy["networks"]["default"]["aliases"]
    assert push_host[1] not in compose(SCALE_FILE)["services"]
    for name in ("postgres", *SCALE_GATEWAYS):
        assert "ports" not in scale_service(name), f"{name} is reached through the compose network only"


def test_the_caddyfile_balances_both_gateways_on_ready() -> None:
    sites = caddy_sites(CADDYFILE.read_text())
    assert set(sites) == {":8025", ":8026"}
    api, push = sites[":8025"], sites[":8026"]
    assert caddy_upstreams(api) == [f"{name}:8025" for name in SCALE_GATEWAYS]
    assert caddy_upstreams(push) == [f"{name}:8026" for name in SCALE_GATEWAYS]
    for block in (api, push):
        assert caddy_value(block, "health_uri") == "/ready"
    assert caddy_value(push, "health_port") == "8025"
    for name in SCALE_GATEWAYS:
        env = environment(scale_service(name), scale_env())
        assert env["AGENTMAIL_HTTP_PORT"] == "8025" and env["AGENTMAIL_PUSH_LISTEN"].endswith(":8026")


def test_the_caddyfile_outlasts_the_longest_wait_and_buffers_nothing() -> None:
    from gateway.waiting import MAX_WAIT_SECONDS

    api = caddy_sites(CADDYFILE.read_text())[":8025"]
    assert seconds(caddy_value(api, "read_timeout")) >= MAX_WAIT_SECONDS + 60  # 11 minutes and more
    assert caddy_value(api, "flush_interval") == "-1"
    assert caddy_value(api, "trusted_proxies") == "private_ranges"
    # Push: Dovecot waits at most timeout_msecs; the retry on the other replica fits in it.
    push = caddy_sites(CADDYFILE.read_text())[":8026"]
    driver = options(dovecot_settings(MAILSERVER / "dovecot.cf")["plugin/push_notification_driver"].partition(":")[2])
    assert duration_ms(caddy_value(push, "lb_try_duration")) < int(driver["timeout_msecs"])


def duration_ms(text: str) -> float:
    value = re.fullmatch(r"(\d+)(ms|s|m)", text)
    assert value is not None, text
    return int(value[1]) * {"ms": 1, "s": 1000, "m": 60_000}[value[2]]


def test_the_scale_gateways_trust_only_private_networks() -> None:
    import ipaddress

    env = environment(scale_service("gateway-1"), scale_env())
    networks = [ipaddress.ip_network(n) for n in env["AGENTMAIL_TRUSTED_PROXIES"].split(",")]
    assert networks and all(n.is_private for n in networks)


# --- the Caddyfile in a real Caddy ------------------------------------------------------------

CADDY_PACKAGE = "caddy"


def ensure_caddy() -> str:
    """Debian's caddy binary, installed with apt when missing and we are root (its service never started)."""
    found = shutil.which("caddy")
    if found is not None:
        return found
    if os.geteuid() != 0:
        raise AssertionError(f"caddy is not installed and installing it needs root: apt-get install {CADDY_PACKAGE}")
    if not POLICY_RC_D.exists():  # as tests/mailstack does: packages start no daemons
        POLICY_RC_D.write_text(
            "#!/bin/sh\n# Written by tests/test_docker.py: never start daemons from packages.\nexit 101\n"
        )
        POLICY_RC_D.chmod(0o755)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for command in (
        ["apt-get", "update", "-q"],
        ["apt-get", "install", "-y", "-q", "--no-install-recommends", CADDY_PACKAGE],
    ):
        subprocess.run(command, env=env, check=True, capture_output=True, timeout=600)
    found = shutil.which("caddy")
    assert found is not None, "apt-get finished but caddy is still missing"
    return found


def caddy_env(tmp_path: Path) -> dict[str, str]:
    """Caddy's storage and autosaved config in the test's folder, not in $HOME."""
    return {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "XDG_CONFIG_HOME": str(tmp_path / "config")}


def test_caddy_validates_the_caddyfile(tmp_path: Path) -> None:
    caddy = ensure_caddy()
    for text, ok in (
        (CADDYFILE.read_text(), True),
        (CADDYFILE.read_text().replace("flush_interval", "flush_every"), False),
    ):
        config = tmp_path / "Caddyfile"
        config.write_text(text)
        run = subprocess.run(
            [caddy, "validate", "--config", str(config), "--adapter", "caddyfile"],
            capture_output=True, text=True, check=False, timeout=60, env=caddy_env(tmp_path),
        )  # fmt: skip
        assert (run.returncode == 0) is ok, run.stderr[-2000:]
    # And it is in Caddy's own format (`caddy fmt` would change nothing).
    formatted = subprocess.run([caddy, "fmt", str(CADDYFILE)], capture_output=True, text=True, check=True, timeout=60)
    assert formatted.stdout == CADDYFILE.read_text()


PUSH_SECRET = EXAMPLE_ENV["AGENTMAIL_PUSH_SECRET"]
REPLICA_ADDRESSES = {"gateway-1": "127.0.0.2", "gateway-2": "127.0.0.3"}  # one port, two loopback addresses


class StandIn:
    """One replica as the proxy sees it: /ready (toggled), a few /v1 routes, and the gateway's real push listener."""

    def __init__(self, name: str, http_port: int, push_port: int) -> None:
        import asyncio
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        from gateway.sources.push import start_push_listener

        self.name, self.ready, self.pushes = name, True, 0
        self.seen: list[dict[str, str]] = []
        self.connections: list[Any] = []
        host = REPLICA_ADDRESSES[name]
        stand_in = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def setup(self) -> None:
                super().setup()
                stand_in.connections.append(self.connection)

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def answer(self, status: int, body: bytes) -> None:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self) -> None:
                if self.path == "/ready":
                    status = 200 if stand_in.ready else 503
                    self.answer(status, json.dumps({"status": "ready" if stand_in.ready else "not_ready"}).encode())
                elif self.path == "/v1/stream":  # two chunks 3 s apart, as a wait's answer or an event could be
                    self.send_response(200)
                    self.send_header("Content-Type", "application/x-ndjson")
                    self.send_header("Transfer-Encoding", "chunked")
                    self.end_headers()
                    for index, pause in ((1, 3.0), (2, 0.0)):
                        line = f'{{"part": {index}}}\n'.encode()
                        self.wfile.write(b"%x\r\n%s\r\n" % (len(line), line))
                        self.wfile.flush()
                        time.sleep(pause)
                    self.wfile.write(b"0\r\n\r\n")
                else:
                    stand_in.seen.append({k.lower(): v for k, v in self.headers.items()})
                    self.answer(200, stand_in.name.encode())

            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length", "0")))
                self.answer(200, stand_in.name.encode())

        self.http = ThreadingHTTPServer((host, http_port), Handler)
        self.http.daemon_threads = True
        threading.Thread(target=self.http.serve_forever, daemon=True).start()
        self.loop = asyncio.new_event_loop()
        self.loop_thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.loop_thread.start()

        def pushed() -> None:
            self.pushes += 1

        self.push = asyncio.run_coroutine_threadsafe(
            start_push_listener(host, push_port, PUSH_SECRET, pushed), self.loop
        ).result(timeout=10)

    def stop_http(self) -> None:
        """As a killed process: the listener and every open connection (the proxy's kept-alive ones) closed."""
        import socket

        self.http.shutdown()
        self.http.server_close()
        for connection in self.connections:
            with contextlib.suppress(OSError):
                connection.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        import asyncio

        async def closing() -> None:
            self.push.close()
            await self.push.wait_closed()

        asyncio.run_coroutine_threadsafe(closing(), self.loop).result(timeout=10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.loop_thread.join(timeout=10)
        self.loop.close()
        if self.http.socket.fileno() != -1:
            self.stop_http()


def stand_ins() -> tuple[dict[str, StandIn], int, int]:
    """Both replicas on one HTTP and one push port (Caddy's health_port is one number for all)."""
    import socket

    for _ in range(20):
        with socket.socket() as probe:
            probe.bind((REPLICA_ADDRESSES["gateway-1"], 0))
            http_port = probe.getsockname()[1]
        with socket.socket() as probe:
            probe.bind((REPLICA_ADDRESSES["gateway-1"], 0))
            push_port = probe.getsockname()[1]
        started: dict[str, StandIn] = {}
        try:
            for name in SCALE_GATEWAYS:
                started[name] = StandIn(name, http_port, push_port)
        except OSError:  # taken on one of the addresses meanwhile: another pair
            for replica in started.values():
                replica.close()
            continue
        return started, http_port, push_port
    raise AssertionError("no port free on both loopback addresses")


def local_caddyfile(http_port: int, push_port: int, api_port: int, hint_port: int) -> str:
    """The Caddyfile with the compose names and ports swapped for the stand-ins' and free ones; nothing else changed."""
    text = "\n".join(line for line in CADDYFILE.read_text().splitlines() if not line.lstrip().startswith("#"))
    text = text.replace("auto_https off", "auto_https off\n\tadmin off")
    text = re.sub(r"^:8025 \{", f":{api_port} {{", text, flags=re.MULTILINE)
    text = re.sub(r"^:8026 \{", f":{hint_port} {{", text, flags=re.MULTILINE)
    for name, address in REPLICA_ADDRESSES.items():
        text = text.replace(f"{name}:8025", f"{address}:{http_port}").replace(f"{name}:8026", f"{address}:{push_port}")
    text = text.replace("health_port 8025", f"health_port {http_port}")
    assert not re.search(r"8025|8026|gateway-", text), text
    return text


def test_caddy_balances_streams_and_fails_over_between_two_replicas(tmp_path: Path) -> None:
    import httpx

    caddy = ensure_caddy()
    api_port, hint_port = free_port(), free_port()
    replicas, http_port, push_port = stand_ins()
    config = tmp_path / "Caddyfile"
    try:
        config.write_text(local_caddyfile(http_port, push_port, api_port, hint_port))
    except BaseException:
        for replica in replicas.values():
            replica.close()
        raise
    log = (tmp_path / "caddy.log").open("w")
    proxy = subprocess.Popen(
        [caddy, "run", "--config", str(config), "--adapter", "caddyfile"],
        stdout=log, stderr=subprocess.STDOUT, env=caddy_env(tmp_path),
    )  # fmt: skip
    api = f"http://127.0.0.1:{api_port}"

    def served_by(client: httpx.Client, count: int = 20) -> set[str]:
        return {client.get(f"{api}/v1/who").text for _ in range(count)}

    def until(check: Any, what: str, seconds: float = 15) -> None:
        deadline = time.monotonic() + seconds
        while not check():
            assert proxy.poll() is None, (tmp_path / "caddy.log").read_text()[-3000:]
            assert time.monotonic() < deadline, what
            time.sleep(0.1)  # the health checker's pace is 2 s: polling, bounded by the deadline

    try:
        with httpx.Client(timeout=10) as client:

            def answers() -> bool:
                try:
                    return client.get(f"{api}/v1/who").status_code == 200
                except httpx.TransportError:
                    return False

            until(answers, "caddy never answered")
            # Both replicas serve; the client's address and scheme, as the host's proxy gave them, reach them.
            until(lambda: served_by(client) == set(SCALE_GATEWAYS), "one replica got every request")
            client.get(
                f"{api}/v1/who",
                headers={
                    "Host": "mail-api.example.com",
                    "X-Forwarded-For": "203.0.113.9",
                    "X-Forwarded-Proto": "https",
                },
            )
            last = max(
                (r.seen[-1] for r in replicas.values() if r.seen), key=lambda h: h.get("host") == "mail-api.example.com"
            )
            assert last["host"] == "mail-api.example.com"
            assert last["x-forwarded-for"] == "203.0.113.9, 127.0.0.1"
            assert last["x-forwarded-proto"] == "https"

            # Nothing is buffered: the first part arrives while the replica still holds the response open.
            started = time.monotonic()
            with client.stream("GET", f"{api}/v1/stream") as response:
                lines = response.iter_lines()
                assert json.loads(next(lines)) == {"part": 1} and time.monotonic() - started < 2.5
                assert [json.loads(line) for line in lines if line] == [{"part": 2}]

            # Dovecot's push hint reaches the gateway's own listener through the proxy, secret and all.
            hint = f"http://127.0.0.1:{hint_port}/push"
            body = {"user": "catchall@agents.example.com", "event": "MessageNew"}
            assert client.post(hint, json=body, auth=("dovecot", PUSH_SECRET)).status_code == 200
            assert client.post(hint, json=body, auth=("dovecot", "wrong-secret-0123")).status_code == 401
            assert sum(r.pushes for r in replicas.values()) == 1

            # A replica that is not ready gets no new requests, and no push hint; it comes back when ready.
            replicas["gateway-1"].ready = False
            until(lambda: served_by(client) == {"gateway-2"}, "gateway-1 still served while not ready")
            before = replicas["gateway-2"].pushes
            assert client.post(hint, json=body, auth=("dovecot", PUSH_SECRET)).status_code == 200
            assert replicas["gateway-2"].pushes == before + 1
            replicas["gateway-1"].ready = True
            until(lambda: served_by(client) == set(SCALE_GATEWAYS), "gateway-1 never came back")

            # A replica that dies: calls without a body go to the other at once; within the health
            # check's interval every call does (one with a body may get a 502 before: caddy#7546).
            replicas["gateway-2"].stop_http()
            time.sleep(0.2)  # as after a kill: the proxy has seen its kept-alive connections close
            assert served_by(client) == {"gateway-1"}
            died = time.monotonic()

            def posts_served() -> bool:
                try:
                    answered = [client.post(f"{api}/v1/send", json={}) for _ in range(10)]
                except httpx.TransportError:  # that bug again: a 502, or a reply cut short
                    return False
                return [(r.status_code, r.text) for r in answered] == [(200, "gateway-1")] * 10

            until(posts_served, "calls with a body still went to the dead replica", seconds=5)
            assert time.monotonic() - died < 3.5
    finally:
        proxy.terminate()
        try:
            proxy.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proxy.kill()
            proxy.wait()
        log.close()
        for replica in replicas.values():
            replica.close()


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


def scale_section() -> str:
    match = re.search(r"^## Running several gateways\n(.*?)(?=^## )", (ROOT / "README.md").read_text(), re.M | re.S)
    assert match is not None, "README.md has no 'Running several gateways' section"
    return match.group(1)


def test_the_scale_docs_cover_start_failover_health_migration_and_backups() -> None:
    text = scale_section()
    flat = " ".join(text.split())
    for needle in (
        "docker compose -f docker/compose.scale.yaml up -d",
        "AGENTMAIL_DATABASE_URL",
        "/ready",
        "/health",
        "Retry-After",
        "agentmail-gateway store copy --to postgresql://",
        "pg_dump",
        "single-process",
        "LISTEN",
    ):
        assert needle in flat, needle
    for name in (*SCALE_GATEWAYS, "postgres", "proxy", "mailserver"):
        assert f"| {name}" in text or f", {name} |" in text, name
    # The port and read timeout the prose gives are the Caddyfile's.
    api = caddy_sites(CADDYFILE.read_text())[":8025"]
    assert f"silent for {seconds(caddy_value(api, 'read_timeout')):.0f} s" in flat
    assert "every second" in text and caddy_value(api, "health_interval") == "1s"
    # The volumes named are the ones the file declares, under the project's name.
    declared = {f"{compose(SCALE_FILE)['name']}_{v}" for v in compose(SCALE_FILE)["volumes"]}
    assert set(re.findall(r"`(agentmail_[a-z0-9-]+)`", text)) <= declared | {"agentmail_gateway-data"}


def test_the_index_tables_the_backup_may_skip_are_the_schema_s() -> None:
    from gateway.store.postgres import schema

    named = re.search(r"The index tables \(([^)]*)\)", " ".join(scale_section().split()))
    assert named is not None, "the backup paragraph no longer names the index tables"
    tables = set(re.findall(r"`(\w+)`", named[1]))
    # Exactly the tables _check_index drops and makes again (its DROP TABLE line), all in TABLES.
    dropped = re.search(r"DROP TABLE IF EXISTS ([\w, ]+)", Path(schema.__file__).read_text())
    assert dropped is not None
    assert tables == {t.strip() for t in dropped[1].split(",")} and tables <= schema.TABLES
    # "Skip their data, not the tables": without index_meta the gateway refuses the database.
    assert "index_meta" in schema._CHECKED and "Skip their data, not the tables" in scale_section()
