"""One Settings object, read from CLI flags, the environment and an optional `.env` file.

Precedence: a flag wins over the environment, which wins over `.env`, which wins over the
default. Every setting is an `AGENTMAIL_*` variable documented in `.env.example`.

A variable's text becomes its field's declared type (`int`, `float`, `str`, `Path`, `Secret`,
`tuple[str, ...]`, a `Literal` of strings, each optionally `| None`); the field's metadata
adds what the type cannot say (`kind="duration"`, `lower=True`). A new field of one of these
types needs no change here.
"""

from __future__ import annotations

import dataclasses
import functools
import ipaddress
import os
import re
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal

import platformdirs
from dotenv import dotenv_values

from gateway.outbound.relay import parse_relay_url

__all__ = [
    "ENV_PREFIX",
    "Secret",
    "SettingError",
    "Settings",
    "describe",
    "env_name",
    "is_secret",
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


def _doc(text: str, *, kind: Literal["duration"] | None = None, lower: bool = False) -> dict[str, Any]:
    """A field's metadata: its one-line doc, and how its text converts beyond its type.

    `kind="duration"`: a float of seconds written as 3600, 90s, 15m, 12h or 7d.
    `lower=True`: a str (or each item of a tuple) stripped and lowercased.
    """
    meta: dict[str, Any] = {"doc": text}
    if kind is not None:
        meta["kind"] = kind
    if lower:
        meta["lower"] = True
    return meta


def default_workers() -> int:
    """One indexing worker per core this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the gateway is configured with. Build it with `load_settings`."""

    domain: str = field(default="localhost", metadata=_doc("Mail domain the gateway serves.", lower=True))
    data_dir: Path = field(
        default_factory=_default_data_dir,
        metadata=_doc("Where the stores, the index and the embedded Maildir live (0700)."),
    )
    database_url: Secret | None = field(
        default=None,
        metadata=_doc("PostgreSQL URL (postgresql://user:pass@host/db); unset: the SQLite files in the data dir."),
    )
    database_url_file: Path | None = field(
        default=None, metadata=_doc("File holding the PostgreSQL URL (for secrets mounted as files).")
    )
    http_host: str = field(default="127.0.0.1", metadata=_doc("Address the REST API listens on."))
    http_port: int = field(default=8025, metadata=_doc("Port of the REST API (0 picks a free one)."))
    http_header_timeout: float = field(
        default=10.0,
        metadata=_doc(
            "A request's line and headers must arrive within this time (e.g. 10s); else 408 and closed.",
            kind="duration",
        ),
    )
    http_body_timeout: float = field(
        default=30.0,
        metadata=_doc("A request body that pauses this long without a byte is dropped (408).", kind="duration"),
    )
    http_max_connections: int = field(
        default=2000,
        metadata=_doc("Open HTTP connections (open waits and event streams included) before new requests get 503."),
    )
    smtp_host: str = field(default="127.0.0.1", metadata=_doc("Address the embedded SMTP intake listens on."))
    smtp_port: int = field(default=2525, metadata=_doc("Port of the embedded SMTP intake (0 picks a free one)."))
    smtp_timeout: float = field(
        default=60.0,
        metadata=_doc(
            "An SMTP connection that completes no command for this long is closed (DATA counts as one;"
            " a transfer faster than 64 KiB/s earns more time).",
            kind="duration",
        ),
    )
    smtp_max_connections: int = field(
        default=500, metadata=_doc("Open SMTP connections to the embedded intake in all (more: 421).")
    )
    smtp_max_connections_per_client: int = field(
        default=50, metadata=_doc("Open SMTP connections from one client address (more: 421).")
    )
    admin_token: Secret | None = field(
        default=None, metadata=_doc("Admin token; when unset (and no file), one is generated at first start.")
    )
    admin_token_file: Path | None = field(
        default=None, metadata=_doc("File holding the admin token (for secrets mounted as files).")
    )
    catchall_address: str = field(
        default="",
        metadata=_doc(
            "The catch-all account's own address; it never grants access. Default catchall@<domain>.", lower=True
        ),
    )
    max_message_bytes: int = field(
        default=25 * 1024 * 1024, metadata=_doc("Largest message accepted over SMTP, in bytes (larger: 552).")
    )
    max_attachments: int = field(
        default=100,
        metadata=_doc(
            "Attachments listed per message (GET …/messages/{id}); past it the listing ends with"
            " attachments_truncated true (each one is still downloadable by its id)."
        ),
    )
    max_attachment_bytes: int = field(
        default=0,
        metadata=_doc("Largest attachment a download serves, in bytes (larger: 413); 0: the message size limit."),
    )
    attachment_text_chars: int = field(
        default=200_000,
        metadata=_doc("Characters of an attachment's text GET …/attachments/{id}/text returns (the rest: truncated)."),
    )
    relay_url: Secret | None = field(
        default=None,
        metadata=_doc(
            "SMTP relay for mail to other domains: smtp://[user[:password]@]host[:port] (STARTTLS, port 587;"
            " required unless the host is loopback) or smtps://... (implicit TLS, port 465); unset: no external mail."
        ),
    )
    relay_password: Secret | None = field(
        default=None, metadata=_doc("Password for the relay's AUTH; wins over a password in the relay URL.")
    )
    relay_password_file: Path | None = field(
        default=None, metadata=_doc("File holding the relay password (for secrets mounted as files).")
    )
    send_per_hour: int = field(
        default=20, metadata=_doc("Messages one identity may send per hour, counted in the store (0: sending off).")
    )
    relay_retry_first: float = field(
        default=30.0,
        metadata=_doc(
            "Wait before the first retry of a relay that failed temporarily (e.g. 30s); each later wait"
            " doubles, up to an hour, for a day.",
            kind="duration",
        ),
    )
    webhook_allow: tuple[str, ...] = field(
        default=(),
        metadata=_doc(
            "Networks (CIDRs, comma-separated) webhooks may call although they are private, loopback or"
            " link-local, e.g. 10.0.0.0/8 or 127.0.0.1/32; loopback targets allowed here may use http://."
        ),
    )
    webhook_timeout: float = field(
        default=10.0,
        metadata=_doc("How long one webhook call may take, connect to last byte (e.g. 10s).", kind="duration"),
    )
    webhook_retry_first: float = field(
        default=5.0,
        metadata=_doc(
            "Wait before the first retry of a failed webhook call (e.g. 5s); the schedule after it"
            " (30 s, 2 min, 10 min, ... up to 3 days) is scaled by the same factor.",
            kind="duration",
        ),
    )
    webhook_disable_after: float = field(
        default=5 * 86400.0,
        metadata=_doc(
            "A webhook whose calls all failed for this long is disabled, with the reason shown (e.g. 5d).",
            kind="duration",
        ),
    )
    webhook_concurrency: int = field(
        default=4, metadata=_doc("Calls in flight at once to one webhook (each identity's events stay in order).")
    )
    webhooks_per_identity: int = field(
        default=10, metadata=_doc("Webhooks one identity (or one provisioner token) may hold.")
    )
    imap_host: str = field(
        default="", metadata=_doc("Dovecot host; setting it selects the imap source instead of the embedded one.")
    )
    imap_port: int = field(default=993, metadata=_doc("Dovecot IMAP port."))
    imap_user: str = field(default="", metadata=_doc("The catch-all account's IMAP user."))
    imap_password: Secret | None = field(default=None, metadata=_doc("The catch-all account's IMAP password."))
    imap_password_file: Path | None = field(
        default=None, metadata=_doc("File holding the IMAP password (for secrets mounted as files).")
    )
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
    push_secret_file: Path | None = field(
        default=None, metadata=_doc("File holding the push secret (for secrets mounted as files).")
    )
    wait_max_per_address: int = field(
        default=50, metadata=_doc("Open waits and event streams allowed per identity (more: 429).")
    )
    wait_max_total: int = field(
        default=5000, metadata=_doc("Open waits and event streams allowed on the gateway in all (more: 429).")
    )
    reuse_quarantine: float = field(
        default=7 * 86400.0,
        metadata=_doc("How long a deleted or expired local part stays unusable (e.g. 7d, 12h, 3600).", kind="duration"),
    )
    retention_days: int = field(
        default=30,
        metadata=_doc("Mail older than this many days is deleted from the mailbox and the index (0: keep forever)."),
    )
    index_workers: int = field(
        default_factory=default_workers,
        metadata=_doc(
            "Worker processes that index mail while it comes fast (a burst, a rebuild); started"
            " under load, stopped when idle (0: index in the gateway process; default: one per core)."
        ),
    )
    reserved_local_parts: tuple[str, ...] = field(
        default=(), metadata=_doc("Comma-separated extra local parts no identity may take.", lower=True)
    )
    trusted_proxies: tuple[str, ...] = field(
        default=(),
        metadata=_doc(
            "Comma-separated IPs or networks (CIDR) of reverse proxies whose X-Forwarded-For and"
            " X-Forwarded-Proto are believed (empty: forwarded headers are ignored).",
            lower=True,
        ),
    )
    log_level: Literal["debug", "info", "warning", "error"] = field(
        default="info", metadata=_doc("Log level: debug, info, warning or error.")
    )
    loop: Literal["auto", "asyncio", "uvloop"] = field(
        default="auto",
        metadata=_doc(
            "Event loop of `serve`: auto (uvloop where it is installed, else the standard one), asyncio,"
            " or uvloop (start-up fails without it)."
        ),
    )

    @property
    def catchall(self) -> str:
        """The catch-all address, lowercased, with its default filled in."""
        return (self.catchall_address or f"catchall@{self.domain}").lower()

    @property
    def attachment_limit(self) -> int:
        """The largest attachment a download serves: `max_attachment_bytes`, or the message size limit."""
        return self.max_attachment_bytes or self.max_message_bytes

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

    @property
    def store_kind(self) -> Literal["sqlite", "postgresql"]:
        """Which store holds identities and the index: `postgresql` when a database URL is set."""
        return "postgresql" if self.database_url is not None else "sqlite"


def env_name(field_name: str) -> str:
    """The environment variable of a Settings field."""
    return ENV_PREFIX + field_name.upper()


def parse_duration(text: str) -> float:
    """Seconds from `3600`, `90s`, `15m`, `12h` or `7d`."""
    match = _DURATION_RE.match(text)
    if match is None:
        raise ValueError(f"not a duration: {text!r} (use e.g. 3600, 15m, 12h, 7d)")
    return float(match.group(1)) * _UNITS[match.group(2)]


def _unwrap_optional(hint: Any) -> tuple[Any, bool]:
    """(T, True) for `T | None`, else (hint, False)."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(args) == 1 and len(typing.get_args(hint)) == 2:
            return args[0], True
    return hint, False


def _choices_text(choices: tuple[str, ...]) -> str:
    return choices[0] if len(choices) == 1 else ", ".join(choices[:-1]) + " or " + choices[-1]


def _converter(hint: Any, metadata: Mapping[str, Any]) -> Callable[[str], Any]:
    """How a variable's text becomes a value of the declared type `hint` (TypeError: unsupported).

    The converter raises ValueError for text it refuses. An empty `Path` or `Secret` converts
    to None (the field's default when the field cannot be None).
    """
    inner, _ = _unwrap_optional(hint)
    lower = bool(metadata.get("lower"))
    if inner is int:
        return int
    if inner is float:
        return parse_duration if metadata.get("kind") == "duration" else float
    if inner is Path:
        return lambda raw: Path(raw).expanduser() if raw else None
    if inner is Secret:
        return lambda raw: Secret(raw) if raw else None
    if inner is str:
        return (lambda raw: raw.strip().lower()) if lower else (lambda raw: raw)
    if typing.get_origin(inner) is tuple and typing.get_args(inner) == (str, ...):
        return lambda raw: tuple(p.strip().lower() if lower else p.strip() for p in raw.split(",") if p.strip())
    if typing.get_origin(inner) is Literal and all(isinstance(c, str) for c in typing.get_args(inner)):
        return functools.partial(_literal, typing.get_args(inner))
    raise TypeError(f"no conversion from a setting's text to {hint!r}")


def _literal(choices: tuple[str, ...], raw: str) -> str:
    value = raw.strip().lower()
    if value not in choices:
        raise ValueError(f"use {_choices_text(choices)}")
    return value


@functools.cache
def _field_types() -> dict[str, Any]:
    return typing.get_type_hints(Settings)


def is_secret(field_name: str) -> bool:
    """Whether a Settings field holds a Secret: never a command-line flag, never echoed in an error."""
    return _unwrap_optional(_field_types()[field_name])[0] is Secret


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
    if s.max_attachment_bytes < 0:
        raise bad("max_attachment_bytes", s.max_attachment_bytes, "must not be negative (0: the message size limit)")
    for name in (
        "max_attachments",
        "attachment_text_chars",
        "wait_max_per_address",
        "wait_max_total",
        "http_max_connections",
        "smtp_max_connections",
        "smtp_max_connections_per_client",
    ):
        if getattr(s, name) < 1:
            raise bad(name, getattr(s, name), "must be at least 1")
    for name in ("http_header_timeout", "http_body_timeout", "smtp_timeout"):
        if getattr(s, name) <= 0:
            raise bad(name, getattr(s, name), "must be more than 0 seconds")
    if s.reuse_quarantine < 0:
        raise bad("reuse_quarantine", s.reuse_quarantine, "must not be negative")
    if s.index_workers < 0:
        raise bad("index_workers", s.index_workers, "must not be negative (0 indexes in the gateway process)")
    if s.retention_days < 0:
        raise bad("retention_days", s.retention_days, "must not be negative (0 turns retention off)")
    if s.database_url is not None and not s.database_url.reveal().startswith(("postgresql://", "postgres://")):
        # The URL may hold a password: the message never shows the value.
        raise bad("database_url", "***", "must start with postgresql:// or postgres://")
    if not s.relay_retry_first > 0:
        raise bad("relay_retry_first", s.relay_retry_first, "must be more than 0 seconds")
    for name in ("webhook_timeout", "webhook_retry_first", "webhook_disable_after"):
        if not getattr(s, name) > 0:
            raise bad(name, getattr(s, name), "must be more than 0 seconds")
    for name in ("webhook_concurrency", "webhooks_per_identity"):
        if getattr(s, name) < 1:
            raise bad(name, getattr(s, name), "must be at least 1")
    for cidr in s.webhook_allow:
        try:
            ipaddress.ip_network(cidr, strict=False)
        except ValueError:
            raise bad("webhook_allow", cidr, "not a network (write e.g. 10.0.0.0/8 or ::1/128)") from None
    if s.send_per_hour < 0:
        raise bad("send_per_hour", s.send_per_hour, "must not be negative (0 turns sending off)")
    if s.relay_url is not None:
        # Parsed by the relay client itself, so what loads is what it can use; its messages never
        # repeat the URL, which may hold a password.
        password = s.relay_password.reveal() if s.relay_password is not None else None
        try:
            parse_relay_url(s.relay_url.reveal(), password=password)
        except ValueError as exc:
            raise bad("relay_url", "***", str(exc)) from None
    elif s.relay_password is not None:
        raise bad("relay_password", "***", "a relay password needs AGENTMAIL_RELAY_URL")
    if s.push_listen:
        host, sep, port = s.push_listen.rpartition(":")
        if not sep or not host or not port.isdigit() or not 0 <= int(port) <= 65535:
            raise bad("push_listen", s.push_listen, "use host:port, e.g. 127.0.0.1:8026")
        if s.push_secret is None or len(s.push_secret.reveal()) < 16:
            raise bad("push_secret", "***", "AGENTMAIL_PUSH_LISTEN needs a secret (or _FILE) of at least 16 characters")
        if not s.imap_host:
            raise bad("push_listen", s.push_listen, "push notifications come from Dovecot: set AGENTMAIL_IMAP_HOST")
    for proxy in s.trusted_proxies:
        try:
            ipaddress.ip_network(proxy, strict=False)
        except ValueError:
            raise bad(
                "trusted_proxies", ",".join(s.trusted_proxies), f"{proxy!r} is not an IP address or network"
            ) from None
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
    hints = _field_types()
    converters = {f.name: _converter(hints[f.name], f.metadata) for f in fields.values()}  # all, set or not
    values: dict[str, Any] = {}
    for var, f in fields.items():
        raw = merged.get(var)
        if overrides is not None and overrides.get(f.name) is not None:
            raw = overrides[f.name]
        if raw is None:
            continue
        value = raw
        if isinstance(raw, str):  # flags of other types arrive converted already
            try:
                value = converters[f.name](raw)
            except ValueError as exc:
                shown = "***" if is_secret(f.name) else raw
                raise SettingError(f"{var}={shown!r}: {exc}") from None
        if value is None and not _unwrap_optional(hints[f.name])[1]:
            continue  # an empty value for a field that cannot be None: its default
        values[f.name] = value
    _read_secret_files(values)
    settings = Settings(**values)
    _validate(settings)
    return settings


def _read_secret_files(values: dict[str, Any]) -> None:
    """Each `<secret>_file` setting read into its secret (the admin token's file is read where it is used).

    A secret comes from the environment, `.env` or its file, never from argv; both set is a mistake.
    """
    for f in dataclasses.fields(Settings):
        source = f.name + "_file"
        path = values.get(source)
        if not is_secret(f.name) or f.name == "admin_token" or path is None:
            continue
        if values.get(f.name) is not None:
            raise SettingError(f"{env_name(f.name)} and {env_name(source)} are both set: keep one")
        try:
            text = path.read_text().strip()
        except OSError as exc:
            raise SettingError(f"{env_name(source)}={str(path)!r}: cannot read it ({exc.strerror})") from None
        except UnicodeDecodeError:
            raise SettingError(f"{env_name(source)}={str(path)!r}: not UTF-8 text") from None
        if not text:
            raise SettingError(f"{env_name(source)}={str(path)!r}: the file is empty")
        values[f.name] = Secret(text)


def describe() -> list[tuple[str, str, str]]:
    """(variable, default, doc) for every setting, in declaration order; feeds `.env.example` checks."""
    rows = []
    for f in dataclasses.fields(Settings):
        default = f.default if f.default is not dataclasses.MISSING else "<platform data dir>"
        rows.append((env_name(f.name), "" if default is None else str(default), f.metadata["doc"]))
    return rows
