"""One Settings object, read from CLI flags, the environment and an optional `.env` file.

Precedence: a flag wins over the environment, which wins over `.env`, which wins over the
default. Every setting is an `AGENTMAIL_*` variable documented in `.env.example`.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal

import platformdirs
from dotenv import dotenv_values

__all__ = [
    "ENV_PREFIX",
    "Secret",
    "SettingError",
    "Settings",
    "describe",
    "env_name",
    "load_settings",
    "parse_duration",
]

ENV_PREFIX: Final = "AGENTMAIL_"
# Variables that belong to the MCP server (same prefix, other program): not ours, not errors.
_FOREIGN_VARS: Final = frozenset({"AGENTMAIL_URL", "AGENTMAIL_TOKEN"})
_DOMAIN_RE: Final = re.compile(
    r"^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$"
)
_DURATION_RE: Final = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smhd]?)\s*$")
_UNITS: Final = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}


class SettingError(ValueError):
    """A setting has a value the gateway cannot run with; the message names the variable."""


class Secret:
    """A string that never shows itself in repr, str or logs."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        """The plaintext; call only where it is used, never to log it."""
        return self._value

    def __repr__(self) -> str:
        return "Secret('**********')"

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secret) and other._value == self._value

    def __hash__(self) -> int:
        return hash(self._value)


def _default_data_dir() -> Path:
    return platformdirs.user_data_path("agentmail-gateway", appauthor=False)


def _doc(text: str) -> dict[str, str]:
    return {"doc": text}


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the gateway is configured with. Build it with `load_settings`."""

    domain: str = field(default="localhost", metadata=_doc("Mail domain the gateway serves."))
    data_dir: Path = field(
        default_factory=_default_data_dir,
        metadata=_doc("Where the stores, the index and the embedded Maildir live (0700)."),
    )
    http_host: str = field(default="127.0.0.1", metadata=_doc("Address the REST API listens on."))
    http_port: int = field(default=8025, metadata=_doc("Port of the REST API (0 picks a free one)."))
    smtp_host: str = field(default="127.0.0.1", metadata=_doc("Address the embedded SMTP intake listens on."))
    smtp_port: int = field(default=2525, metadata=_doc("Port of the embedded SMTP intake (0 picks a free one)."))
    admin_token: Secret | None = field(
        default=None, metadata=_doc("Admin token; when unset (and no file), one is generated at first start.")
    )
    admin_token_file: Path | None = field(
        default=None, metadata=_doc("File holding the admin token (for secrets mounted as files).")
    )
    catchall_address: str = field(
        default="",
        metadata=_doc("The catch-all account's own address; it never grants access. Default catchall@<domain>."),
    )
    max_message_bytes: int = field(
        default=25 * 1024 * 1024, metadata=_doc("Largest message accepted over SMTP, in bytes (larger: 552).")
    )
    imap_host: str = field(
        default="", metadata=_doc("Dovecot host; setting it selects the imap source instead of the embedded one.")
    )
    imap_port: int = field(default=993, metadata=_doc("Dovecot IMAP port."))
    imap_user: str = field(default="", metadata=_doc("The catch-all account's IMAP user."))
    imap_password: Secret | None = field(default=None, metadata=_doc("The catch-all account's IMAP password."))
    imap_tls: Literal["ssl", "starttls", "none"] = field(
        default="ssl", metadata=_doc("IMAP transport security: ssl, starttls or none (loopback only).")
    )
    push_listen: str = field(
        default="",
        metadata=_doc(
            "host:port for Dovecot's push notifications, a fast wake-up hint for the imap source"
            " (loopback or internal network only; empty: off)."
        ),
    )
    push_secret: Secret | None = field(
        default=None, metadata=_doc("Shared secret Dovecot's push driver sends (the password of its URL).")
    )
    wait_max_per_address: int = field(
        default=50, metadata=_doc("Open waits and event streams allowed per identity (more: 429).")
    )
    wait_max_total: int = field(
        default=5000, metadata=_doc("Open waits and event streams allowed on the gateway in all (more: 429).")
    )
    reuse_quarantine: float = field(
        default=7 * 86400.0,
        metadata=_doc("How long a deleted or expired local part stays unusable (e.g. 7d, 12h, 3600)."),
    )
    retention_days: int = field(
        default=30,
        metadata=_doc("Mail older than this many days is deleted from the mailbox and the index (0: keep forever)."),
    )
    reserved_local_parts: tuple[str, ...] = field(
        default=(), metadata=_doc("Comma-separated extra local parts no identity may take.")
    )
    log_level: Literal["debug", "info", "warning", "error"] = field(
        default="info", metadata=_doc("Log level: debug, info, warning or error.")
    )

    @property
    def catchall(self) -> str:
        """The catch-all address, lowercased, with its default filled in."""
        return (self.catchall_address or f"catchall@{self.domain}").lower()

    @property
    def push_address(self) -> tuple[str, int] | None:
        """(host, port) of the push listener, or None when it is off."""
        if not self.push_listen:
            return None
        host, _, port = self.push_listen.rpartition(":")
        return host.strip("[]"), int(port)

    @property
    def source_kind(self) -> Literal["local", "imap"]:
        """Which mail source runs: `imap` when a Dovecot host is set, else the embedded one."""
        return "imap" if self.imap_host else "local"


def env_name(field_name: str) -> str:
    """The environment variable of a Settings field."""
    return ENV_PREFIX + field_name.upper()


def parse_duration(text: str) -> float:
    """Seconds from `3600`, `90s`, `15m`, `12h` or `7d`."""
    match = _DURATION_RE.match(text)
    if match is None:
        raise ValueError(f"not a duration: {text!r} (use e.g. 3600, 15m, 12h, 7d)")
    return float(match.group(1)) * _UNITS[match.group(2)]


def _convert(f: dataclasses.Field[Any], raw: Any) -> Any:
    if not isinstance(raw, str):
        return raw  # flags arrive typed already
    kind = f.name
    if kind in {
        "http_port",
        "smtp_port",
        "imap_port",
        "max_message_bytes",
        "retention_days",
        "wait_max_per_address",
        "wait_max_total",
    }:
        return int(raw)
    if kind == "reuse_quarantine":
        return parse_duration(raw)
    if kind in {"data_dir", "admin_token_file"}:
        return Path(raw).expanduser() if raw else None
    if kind in {"admin_token", "imap_password", "push_secret"}:
        return Secret(raw) if raw else None
    if kind == "reserved_local_parts":
        return tuple(p.strip().lower() for p in raw.split(",") if p.strip())
    if kind in {"domain", "catchall_address", "imap_tls", "log_level"}:
        return raw.strip().lower()
    return raw


def _validate(s: Settings) -> None:
    def bad(name: str, value: object, why: str) -> SettingError:
        return SettingError(f"{env_name(name)}={value!r}: {why}")

    if not _DOMAIN_RE.match(s.domain):
        raise bad("domain", s.domain, "not a domain name")
    for name in ("http_port", "smtp_port", "imap_port"):
        port = getattr(s, name)
        if not 0 <= port <= 65535:
            raise bad(name, port, "a port is 0..65535")
    if s.max_message_bytes < 1024:
        raise bad("max_message_bytes", s.max_message_bytes, "must be at least 1024")
    for name in ("wait_max_per_address", "wait_max_total"):
        if getattr(s, name) < 1:
            raise bad(name, getattr(s, name), "must be at least 1")
    if s.reuse_quarantine < 0:
        raise bad("reuse_quarantine", s.reuse_quarantine, "must not be negative")
    if s.retention_days < 0:
        raise bad("retention_days", s.retention_days, "must not be negative (0 turns retention off)")
    if s.imap_tls not in ("ssl", "starttls", "none"):
        raise bad("imap_tls", s.imap_tls, "use ssl, starttls or none")
    if s.log_level not in ("debug", "info", "warning", "error"):
        raise bad("log_level", s.log_level, "use debug, info, warning or error")
    if s.push_listen:
        host, sep, port = s.push_listen.rpartition(":")
        if not sep or not host or not port.isdigit() or not 0 <= int(port) <= 65535:
            raise bad("push_listen", s.push_listen, "use host:port, e.g. 127.0.0.1:8026")
        if s.push_secret is None or len(s.push_secret.reveal()) < 16:
            raise bad("push_secret", "***", "AGENTMAIL_PUSH_LISTEN needs a secret of at least 16 characters")
        if not s.imap_host:
            raise bad("push_listen", s.push_listen, "push notifications come from Dovecot: set AGENTMAIL_IMAP_HOST")
    if not s.catchall.endswith("@" + s.domain):
        raise bad("catchall_address", s.catchall_address, f"must be an address at {s.domain}")


def load_settings(
    environ: Mapping[str, str],
    *,
    env_file: Path | None = Path(".env"),
    overrides: Mapping[str, Any] | None = None,
) -> Settings:
    """Settings from `.env` < `environ` < `overrides` (CLI flags, by field name, None = unset)."""
    merged: dict[str, Any] = {}
    if env_file is not None and env_file.is_file():
        merged.update({k: v for k, v in dotenv_values(env_file).items() if v is not None})
    merged.update(environ)
    fields = {env_name(f.name): f for f in dataclasses.fields(Settings)}
    unknown = sorted(k for k in merged if k.startswith(ENV_PREFIX) and k not in fields and k not in _FOREIGN_VARS)
    if unknown:
        raise SettingError(f"unknown setting {unknown[0]} (see .env.example for the list)")
    values: dict[str, Any] = {}
    for var, f in fields.items():
        raw = merged.get(var)
        if overrides is not None and overrides.get(f.name) is not None:
            raw = overrides[f.name]
        if raw is None:
            continue
        try:
            values[f.name] = _convert(f, raw)
        except ValueError as exc:
            raise SettingError(f"{var}={raw!r}: {exc}") from None
    if "data_dir" in values and values["data_dir"] is None:
        del values["data_dir"]
    settings = Settings(**values)
    _validate(settings)
    return settings


def describe() -> list[tuple[str, str, str]]:
    """(variable, default, doc) for every setting, in declaration order; feeds `.env.example` checks."""
    rows = []
    for f in dataclasses.fields(Settings):
        default = f.default if f.default is not dataclasses.MISSING else "<platform data dir>"
        rows.append((env_name(f.name), "" if default is None else str(default), f.metadata["doc"]))
    return rows
