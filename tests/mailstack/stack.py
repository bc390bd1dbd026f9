"""A real Postfix + Dovecot catch-all on loopback, for tests and the benchmark.

Delivery path (variant B of the mailstack recipe): Postfix accepts every address of one
virtual domain and hands each recipient to Dovecot over LMTP, one recipient per transaction;
Dovecot's static userdb (`allow_all_users`) maps every recipient to the same home, so every
copy lands in ONE Maildir with `Delivered-To: <recipient as sent>`. The catch-all IMAP login
is the only passdb entry. Off-domain recipients get 554 (relay denied).

Relay mode (`relay_domain` and `relay_port`): Postfix also acts as the gateway's outbound relay.
Loopback clients may then send anywhere (permit_mynetworks); mail for `relay_domain` goes to
127.0.0.1:`relay_port` (a test's capturing SMTP server); any other outside domain is refused at
RCPT with a 550 (its transport is `error:`), a permanent failure a test can count on.

Everything lives under one temporary root (config, queue, state, logs, mail); both daemons
are started as root with `-c <root>/...` and drop privileges themselves. Nothing is written
to /etc except what `ensure_installed` needs (apt's own files and the policy-rc.d guard).
"""

from __future__ import annotations

import contextlib
import grp
import json
import os
import pwd
import re
import secrets
import shutil
import signal
import socket
import stat
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from imapclient import IMAPClient  # type: ignore[import-untyped, unused-ignore]

__all__ = [
    "DEFAULT_DOMAIN",
    "DEFAULT_MAX_MESSAGE_BYTES",
    "MailStack",
    "MailStackError",
    "StackConfig",
    "ensure_installed",
    "free_port",
]

DEFAULT_DOMAIN = "agents.test"
DEFAULT_MAX_MESSAGE_BYTES = 25 * 1024 * 1024
LOOPBACK = "127.0.0.1"
PUSH_LOGIN = "dovecot"
"""User name in the push URL; the secret is its password (HTTP basic auth)."""

POSTFIX = Path("/usr/sbin/postfix")
POSTQUEUE = Path("/usr/sbin/postqueue")
DOVECOT = Path("/usr/sbin/dovecot")
DOVEADM = Path("/usr/bin/doveadm")
DOVECOT_LMTP = Path("/usr/lib/dovecot/lmtp")
DOVECOT_IMAP = Path("/usr/lib/dovecot/imap")
REQUIRED_BINARIES = (POSTFIX, POSTQUEUE, DOVECOT, DOVEADM, DOVECOT_LMTP, DOVECOT_IMAP)
APT_PACKAGES = ("postfix", "dovecot-imapd", "dovecot-lmtpd")
POSTFIX_FILES = Path("/etc/postfix/postfix-files")
POLICY_RC_D = Path("/usr/sbin/policy-rc.d")
MAIL_USER = "vmail"

PUSH_METADATA_KEY = "/private/vendor/vendor.dovecot/http-notify"
"""The OX push driver stays silent for a user until this server-level METADATA entry exists."""
PUSH_TIMEOUT_MSECS = 300
"""Dovecot waits for the push request before LMTP finishes: keep it short so a dead gateway costs little."""

# Postfix queue directories that hold mail not yet delivered, in the order a message moves
# through them (listing them in this order makes a move between two listings unlikely to hide it).
QUEUE_DIRS = ("maildrop", "incoming", "active", "deferred")
LOG_TAIL_LINES = 40
POLL_INTERVAL = 0.02
START_TIMEOUT = 15.0
STOP_TIMEOUT = 10.0
_DOMAIN_RE = re.compile(r"^(?=.{1,200}$)[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$")
# The secret travels in a URL and in dovecot.conf (where % expands): unreserved characters only.
_SECRET_RE = re.compile(r"^[A-Za-z0-9._~-]{16,128}$")
# Unix socket paths are capped at 108 bytes; the deepest one is <root>/run/dovecot/<socket>.
_MAX_ROOT_LEN = 60


FLUSH_STUCK_AFTER = 5.0  # seconds a non-empty queue is waited on before asking Postfix to retry it now


class MailStackError(RuntimeError):
    """The stack could not be installed, started, stopped or driven; the message says why."""


# -- installation ----------------------------------------------------------------------------


def ensure_installed() -> None:
    """Make sure Postfix, Dovecot (imap + lmtp) and the `vmail` user exist; install them with apt if not.

    Returns at once when everything is present. Needs root to install; without root and
    without the packages it raises MailStackError (the suite must fail, not skip).
    """
    missing = [str(p) for p in REQUIRED_BINARIES if not p.exists()]
    if missing:
        if os.geteuid() != 0:
            raise MailStackError(
                f"Postfix/Dovecot are not installed (missing {', '.join(missing)}) and installing them needs"
                f" root. Run as root, or: apt-get install {' '.join(APT_PACKAGES)}"
            )
        _apt_install()
        still = [str(p) for p in REQUIRED_BINARIES if not p.exists()]
        if still:
            raise MailStackError(f"apt-get finished but {', '.join(still)} are still missing")
    if not _user_exists(MAIL_USER):
        if os.geteuid() != 0:
            raise MailStackError(f"the system user {MAIL_USER!r} is missing and creating it needs root")
        _run(
            [
                "useradd", "--system", "--user-group", "--no-create-home",
                "--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin", MAIL_USER,
            ]
        )  # fmt: skip


def _apt_install() -> None:
    # Without this guard the packages' maintainer scripts would start the system-wide
    # postfix and dovecot on ports 25/143; policy-rc.d exiting 101 forbids that.
    if not POLICY_RC_D.exists():
        POLICY_RC_D.write_text(
            "#!/bin/sh\n# Written by tests/mailstack: never start daemons from packages.\nexit 101\n"
        )
        POLICY_RC_D.chmod(0o755)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    # "No configuration": the package writes no /etc/postfix/main.cf; our stacks bring their own.
    selections = (
        "postfix postfix/main_mailer_type select No configuration\npostfix postfix/mailname string mailstack.invalid\n"
    )
    _run(["debconf-set-selections"], input_text=selections, env=env)
    _run(["apt-get", "update", "-q"], env=env, timeout=300)
    _run(["apt-get", "install", "-y", "-q", "--no-install-recommends", *APT_PACKAGES], env=env, timeout=600)


def _user_exists(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


# -- configuration ---------------------------------------------------------------------------


@dataclass(frozen=True)
class StackConfig:
    """Everything one stack is: where it lives, what it serves, and on which ports."""

    root: Path
    """Scratch directory holding config, queue, state, logs and mail; removed by `stop()`."""
    smtp_port: int
    """Postfix's SMTP listener on 127.0.0.1 (what senders and tests talk to)."""
    imap_port: int
    """Dovecot's plain IMAP listener on 127.0.0.1."""
    password: str
    """Password of the catch-all IMAP login."""
    domain: str = DEFAULT_DOMAIN
    """The one virtual domain Postfix accepts; every address in it lands in the catch-all."""
    user: str = ""
    """The catch-all IMAP login; empty means `catchall@<domain>`."""
    push_port: int | None = None
    """Where Dovecot PUTs its push notifications (127.0.0.1); None turns push off."""
    push_secret: str = ""
    """Basic-auth password Dovecot sends with each push (user name `dovecot`)."""
    max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES
    """Postfix's message_size_limit; keep it equal to the gateway's max_message_bytes."""
    instance_name: str = field(default="")
    """Dovecot instance name (unique per stack so two stacks never share state); empty: from root."""
    relay_domain: str = ""
    """An outside domain Postfix relays for loopback clients, to 127.0.0.1:`relay_port`; empty: no relaying."""
    relay_port: int | None = None
    """Where mail for `relay_domain` goes (e.g. a capturing SMTP server); set with `relay_domain`."""

    def __post_init__(self) -> None:
        if not _DOMAIN_RE.match(self.domain):
            raise ValueError(f"domain {self.domain!r} is not a lowercase DNS name")
        if not self.user:
            object.__setattr__(self, "user", f"catchall@{self.domain}")
        if not self.instance_name:
            object.__setattr__(self, "instance_name", self.root.name)
        if self.push_port is not None and not _SECRET_RE.match(self.push_secret):
            raise ValueError("push_secret must be 16-128 URL-safe characters ([A-Za-z0-9._~-]) when push is on")
        if bool(self.relay_domain) != (self.relay_port is not None):
            raise ValueError("relay_domain and relay_port go together")
        if self.relay_domain and (not _DOMAIN_RE.match(self.relay_domain) or self.relay_domain == self.domain):
            raise ValueError(f"relay_domain {self.relay_domain!r} must be a DNS name other than {self.domain}")
        if any(c.isspace() for c in str(self.root)) or len(str(self.root)) > _MAX_ROOT_LEN:
            raise ValueError(f"root {self.root} must be short (<= {_MAX_ROOT_LEN}) and free of whitespace")

    # Paths under root. Every daemon and command is pointed at these explicitly.
    @property
    def postfix_dir(self) -> Path:
        return self.root / "postfix"

    @property
    def spool_dir(self) -> Path:
        return self.root / "spool"

    @property
    def dovecot_conf(self) -> Path:
        return self.root / "dovecot" / "dovecot.conf"

    @property
    def dovecot_run(self) -> Path:
        return self.root / "run" / "dovecot"

    @property
    def log_dir(self) -> Path:
        return self.root / "log"

    @property
    def home(self) -> Path:
        """The catch-all's home; its Maildir is `home / "Maildir"`."""
        return self.root / "mail" / "catchall"

    @property
    def maildir(self) -> Path:
        return self.home / "Maildir"

    @property
    def relay_url(self) -> str | None:
        """AGENTMAIL_RELAY_URL for a gateway relaying through this Postfix, or None when relaying is off."""
        return f"smtp://{LOOPBACK}:{self.smtp_port}" if self.relay_domain else None

    @property
    def push_url(self) -> str | None:
        """The URL Dovecot pushes to (secret included), or None when push is off."""
        if self.push_port is None:
            return None
        return f"http://{PUSH_LOGIN}:{self.push_secret}@{LOOPBACK}:{self.push_port}/push"

    def to_json(self) -> str:
        data = asdict(self)
        data["root"] = str(self.root)
        return json.dumps(data, indent=2)

    @classmethod
    def from_json(cls, text: str) -> StackConfig:
        data: dict[str, Any] = json.loads(text)
        data["root"] = Path(data["root"])
        return cls(**data)


def render_main_cf(cfg: StackConfig) -> str:
    """Postfix main.cf: one virtual domain, delivered over LMTP to Dovecot one recipient at a time."""
    r = cfg.root
    relay_restrictions = "reject_unauth_destination"
    relay = ""
    if cfg.relay_domain:
        relay_restrictions = "permit_mynetworks, reject_unauth_destination"
        relay = f"""
# Relay mode: loopback clients (mynetworks) may relay; {cfg.relay_domain} goes to the test's server,
# every other outside domain still meets default_transport (error: 550 at RCPT).
transport_maps = inline:{{ {cfg.relay_domain}=smtp:[{LOOPBACK}]:{cfg.relay_port} }}
smtp_tls_security_level = none
smtp_connect_timeout = 5s
"""
    return f"""\
# Generated by tests/mailstack; a throwaway instance under {r}.
compatibility_level = 3.6
queue_directory = {cfg.spool_dir}
data_directory = {r}/data
mail_owner = postfix
setgid_group = postdrop
myhostname = mx.{cfg.domain}
mydomain = {cfg.domain}
myorigin = $mydomain
mydestination =
alias_maps =
alias_database =
inet_interfaces = loopback-only
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
# Without relay mode, no permit_mynetworks: even loopback clients may only send to our own domain
# (554 otherwise).
smtpd_relay_restrictions = {relay_restrictions}
virtual_mailbox_domains = {cfg.domain}
# Catch-all happens inside Dovecot (static userdb, allow_all_users); recipient limit 1 is what
# makes Dovecot write Delivered-To (it only does for single-recipient LMTP transactions).
virtual_transport = lmtp:unix:{cfg.dovecot_run}/lmtp
lmtp_destination_recipient_limit = 1
# Nothing ever leaves this machine.
default_transport = error:mailstack delivers only to {cfg.domain}
relay_transport = error:mailstack delivers only to {cfg.domain}
local_transport = error:mailstack has no local delivery
message_size_limit = {cfg.max_message_bytes}
mailbox_size_limit = 0
virtual_mailbox_limit = 0
# Retry deferred mail (e.g. while Dovecot restarts) within about a second, not minutes.
queue_run_delay = 1s
minimal_backoff_time = 1s
maximal_backoff_time = 1s
# An LMTP session cut by a Dovecot restart mid-delivery must fail soon and be retried (the
# defaults wait up to 10 minutes); a copy delivered twice is one message to the gateway.
lmtp_lhlo_timeout = 20s
lmtp_mail_timeout = 20s
lmtp_rcpt_timeout = 20s
lmtp_data_init_timeout = 20s
lmtp_data_xfer_timeout = 20s
lmtp_data_done_timeout = 20s
# There is no syslog here: Postfix logs to a file through postlogd.
maillog_file = {cfg.log_dir}/postfix.log
maillog_file_prefixes = {cfg.log_dir}
biff = no
smtpd_banner = $myhostname ESMTP mailstack
{relay}"""


def render_master_cf(cfg: StackConfig) -> str:
    """Postfix master.cf: the services this setup needs, none chrooted (no /etc copy in the queue)."""
    services = [
        f"{LOOPBACK}:{cfg.smtp_port} inet n - n - - smtpd",
        "pickup unix n - n 60 1 pickup",
        "cleanup unix n - n - 0 cleanup",
        "qmgr unix n - n 300 1 qmgr",
        "rewrite unix - - n - - trivial-rewrite",
        "bounce unix - - n - 0 bounce",
        "defer unix - - n - 0 bounce",
        "trace unix - - n - 0 bounce",
        "verify unix - - n - 1 verify",
        "flush unix n - n 1000? 0 flush",
        "proxymap unix - - n - - proxymap",
        "proxywrite unix - - n - 1 proxymap",
        "showq unix n - n - - showq",
        "error unix - - n - - error",
        "retry unix - - n - - error",
        "discard unix - - n - - discard",
        "lmtp unix - - n - - lmtp",
        "anvil unix - - n - 1 anvil",
        "scache unix - - n - 1 scache",
        # Required for maillog_file.
        "postlog unix-dgram n - n - 1 postlogd",
    ]
    if cfg.relay_domain:
        services.append("smtp unix - - n - - smtp")  # the SMTP client, for relay mode only
    return "# Generated by tests/mailstack.\n" + "\n".join(services) + "\n"


def render_dovecot_conf(cfg: StackConfig) -> str:
    """A standalone dovecot.conf (no /etc/dovecot includes) for IMAP on loopback and LMTP on a socket."""
    push = ""
    if cfg.push_url is not None:
        # OX driver: one HTTP PUT per LMTP delivery (event messageNew) to the URL; the
        # URL's userinfo becomes basic auth. cache_lifetime=0 re-reads the METADATA switch
        # on every delivery, so re-enabling it after reset_uidvalidity() takes effect at once.
        push = f"""
protocol lmtp {{
  mail_plugins = $mail_plugins notify push_notification
}}
plugin {{
  push_notification_driver = ox:url={cfg.push_url} timeout_msecs={PUSH_TIMEOUT_MSECS} max_retries=0 cache_lifetime=0
}}
"""
    return f"""\
# Generated by tests/mailstack; a throwaway instance under {cfg.root}.
instance_name = {cfg.instance_name}
protocols = imap lmtp
listen = {LOOPBACK}
base_dir = {cfg.dovecot_run}
state_dir = {cfg.root}/state
log_path = {cfg.log_dir}/dovecot.log
# No certificate here; with ssl enabled Dovecot would advertise STARTTLS it cannot do.
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
mail_location = maildir:~/Maildir
# METADATA storage; the push driver's on-switch lives here (keyed by the INBOX GUID).
mail_attribute_dict = file:%h/dovecot-attributes

passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {cfg.root}/dovecot/users
}}
# Every recipient is a valid user with the same home: that is the catch-all.
userdb {{
  driver = static
  args = uid={MAIL_USER} gid={MAIL_USER} home={cfg.home} allow_all_users=yes
}}

service imap-login {{
  inet_listener imap {{
    address = {LOOPBACK}
    port = {cfg.imap_port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
service lmtp {{
  # Single-uid setup: lmtp needs no root.
  user = {MAIL_USER}
  unix_listener lmtp {{
    mode = 0600
    user = postfix
    group = postfix
  }}
}}
protocol imap {{
  # The gateway uses two connections; tests and humans poking at it need a few more.
  mail_max_userip_connections = 20
  imap_metadata = yes
}}
{push}"""


# -- the stack -------------------------------------------------------------------------------


class MailStack:
    """One running (or runnable) Postfix + Dovecot pair described by a StackConfig."""

    CONFIG_FILE = "stack.json"

    def __init__(self, config: StackConfig) -> None:
        self.config = config

    # construction

    @classmethod
    def create(
        cls,
        *,
        domain: str = DEFAULT_DOMAIN,
        push_port: int | None = None,
        push_secret: str | None = None,
        max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES,
        parent: Path | None = None,
        relay_domain: str = "",
        relay_port: int | None = None,
    ) -> MailStack:
        """Make a fresh root with free loopback ports and a random password, and write all config.

        `push_secret` defaults to a random one when `push_port` is given. `relay_domain` and
        `relay_port` turn relay mode on (see the module docstring). Nothing is started.
        """
        root = Path(tempfile.mkdtemp(prefix="mailstack-", dir=parent if parent is not None else "/tmp"))
        try:
            smtp_port, imap_port = _free_ports(2)
            config = StackConfig(
                root=root,
                smtp_port=smtp_port,
                imap_port=imap_port,
                password=secrets.token_hex(16),
                domain=domain,
                push_port=push_port,
                push_secret=push_secret if push_secret is not None else secrets.token_hex(16),
                max_message_bytes=max_message_bytes,
                relay_domain=relay_domain,
                relay_port=relay_port,
            )
            stack = cls(config)
            stack.write_config()
        except BaseException:
            shutil.rmtree(root, ignore_errors=True)
            raise
        return stack

    @classmethod
    def attach(cls, root: Path) -> MailStack:
        """The stack whose root is `root` (as printed by `python -m tests.mailstack start`)."""
        try:
            text = (root / cls.CONFIG_FILE).read_text()
        except FileNotFoundError:
            raise MailStackError(f"{root} is not a mailstack root (no {cls.CONFIG_FILE})") from None
        return cls(StackConfig.from_json(text))

    def write_config(self) -> None:
        """Create the directory layout and write Postfix's and Dovecot's config files."""
        cfg = self.config
        vmail = pwd.getpwnam(MAIL_USER)
        dovecot_gid = grp.getgrnam("dovecot").gr_gid
        # mkdtemp makes the root 0700; the daemons' unprivileged users must be able to traverse it.
        cfg.root.chmod(0o755)
        for sub in ("postfix", "dovecot", "spool", "run", "state", "log", "mail"):
            (cfg.root / sub).mkdir(mode=0o755, exist_ok=True)
        cfg.home.mkdir(mode=0o700, exist_ok=True)
        os.chown(cfg.root / "mail", vmail.pw_uid, vmail.pw_gid)
        os.chown(cfg.home, vmail.pw_uid, vmail.pw_gid)
        (cfg.postfix_dir / "main.cf").write_text(render_main_cf(cfg))
        (cfg.postfix_dir / "master.cf").write_text(render_master_cf(cfg))
        # Postfix will not read a file modified in the last second or two (it might still be
        # being written) and dozes in 300 ms steps until it is older: about 2.4 s per start.
        stamp = time.time() - 60
        for name in ("main.cf", "master.cf"):
            os.utime(cfg.postfix_dir / name, (stamp, stamp))
        cfg.dovecot_conf.write_text(render_dovecot_conf(cfg))
        users = cfg.root / "dovecot" / "users"
        users.write_text(f"{cfg.user}:{{PLAIN}}{cfg.password}::::::\n")
        os.chown(users, 0, dovecot_gid)
        users.chmod(0o640)
        _create_postfix_dirs(cfg)
        (cfg.root / self.CONFIG_FILE).write_text(cfg.to_json())

    # settings for clients

    @property
    def host(self) -> str:
        return LOOPBACK

    @property
    def smtp_port(self) -> int:
        return self.config.smtp_port

    @property
    def imap_port(self) -> int:
        return self.config.imap_port

    @property
    def user(self) -> str:
        return self.config.user

    @property
    def password(self) -> str:
        return self.config.password

    @property
    def domain(self) -> str:
        return self.config.domain

    @property
    def push_url(self) -> str | None:
        return self.config.push_url

    @property
    def relay_url(self) -> str | None:
        return self.config.relay_url

    def gateway_env(self) -> dict[str, str]:
        """The AGENTMAIL_* settings that point a gateway at this stack (plus MAILSTACK_* for senders).

        The SMTP port is MAILSTACK_SMTP_PORT, not AGENTMAIL_SMTP_PORT: the latter is the gateway's
        own intake listener, which must not collide with Postfix.
        """
        cfg = self.config
        env = {
            "AGENTMAIL_DOMAIN": cfg.domain,
            "AGENTMAIL_IMAP_HOST": LOOPBACK,
            "AGENTMAIL_IMAP_PORT": str(cfg.imap_port),
            "AGENTMAIL_IMAP_USER": cfg.user,
            "AGENTMAIL_IMAP_PASSWORD": cfg.password,
            "AGENTMAIL_IMAP_TLS": "none",
            "AGENTMAIL_MAX_MESSAGE_BYTES": str(cfg.max_message_bytes),
        }
        if cfg.push_port is not None:
            env["AGENTMAIL_PUSH_LISTEN"] = f"{LOOPBACK}:{cfg.push_port}"
            env["AGENTMAIL_PUSH_SECRET"] = cfg.push_secret
        if cfg.relay_url is not None:
            env["AGENTMAIL_RELAY_URL"] = cfg.relay_url
        env["MAILSTACK_SMTP_HOST"] = LOOPBACK
        env["MAILSTACK_SMTP_PORT"] = str(cfg.smtp_port)
        env["MAILSTACK_ROOT"] = str(cfg.root)
        return env

    # lifecycle

    def start(self) -> None:
        """Start Dovecot, then Postfix; return when both accept connections.

        On failure, stops whichever daemon did start and raises MailStackError carrying the tail
        of both logs; the root stays (for `stop()` to remove) so nothing else is lost.
        """
        try:
            self.start_dovecot()
            self._start_postfix()
        except BaseException:
            with contextlib.suppress(MailStackError):
                self._stop_daemons()
            raise

    def stop(self) -> None:
        """Stop both daemons by their pid files, wait for the ports to close, remove the root.

        Safe to call on a stack that never started or is already stopped. If a daemon will not
        stop, raises and keeps the root: its logs are the evidence.
        """
        self._stop_daemons()
        _rmtree_retrying(self.config.root)

    def _stop_daemons(self) -> None:
        # Postfix first, so nothing is mid-delivery when Dovecot goes.
        errors: list[str] = []
        for stop in (self._stop_postfix, self.stop_dovecot):
            try:
                stop()
            except MailStackError as exc:
                errors.append(str(exc))
        if errors:
            raise MailStackError("; ".join(errors))

    def __enter__(self) -> Self:
        try:
            self.start()
        except BaseException:
            # __exit__ will not run: clean up here (the error already carries the log tails).
            with contextlib.suppress(MailStackError):
                self.stop()
            raise
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    def start_dovecot(self) -> None:
        """Start Dovecot (same ports as before) and, with push on, switch the push driver on."""
        cfg = self.config
        rc, output = self._run_daemon("dovecot", [str(DOVECOT), "-c", str(cfg.dovecot_conf)])
        if rc != 0:
            raise self._failure(f"dovecot exited {rc}: {output}")
        lmtp_socket = cfg.dovecot_run / "lmtp"
        self._wait(
            lambda: _port_open(cfg.imap_port) and lmtp_socket.exists(),
            START_TIMEOUT,
            f"Dovecot to listen on {LOOPBACK}:{cfg.imap_port} and {lmtp_socket}",
        )
        if cfg.push_port is not None:
            self.enable_push()

    def stop_dovecot(self) -> None:
        """Stop Dovecot, open IMAP sessions included, as a crash or reboot would; no-op when not running.

        Mail sent meanwhile waits in Postfix's queue. Dovecot's master leaves established imap
        processes running when it exits: they are ended too, or a client would never notice.
        """
        cfg = self.config
        if _terminate(_read_pid(cfg.dovecot_run / "master.pid"), "dovecot"):
            self._wait(lambda: not _port_open(cfg.imap_port), STOP_TIMEOUT, f"IMAP port {cfg.imap_port} to close")
        # Processes of this instance are titled "dovecot-<instance>/<service>".
        marker = f"dovecot-{cfg.instance_name}/".encode()
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    if (entry / "cmdline").read_bytes().startswith(marker):
                        os.kill(int(entry.name), signal.SIGKILL)
                except (OSError, ProcessLookupError):
                    continue  # gone meanwhile

    def start_postfix(self) -> None:
        """Start Postfix again (same port, same queue); what it queued while down is delivered."""
        self._start_postfix()

    def stop_postfix(self) -> None:
        """Stop Postfix as an operator's restart would: mail it accepted stays in its queue on disk."""
        self._stop_postfix()

    def _start_postfix(self) -> None:
        cfg = self.config
        # Skip postfix-script's integrity check (2.4 s of postconf calls): write_config() built
        # the queue exactly as that check would. `postfix start` deletes the flag each time.
        (cfg.spool_dir / "quick-start").touch()
        rc, output = self._run_daemon("postfix", [str(POSTFIX), "-c", str(cfg.postfix_dir), "start"])
        if rc != 0:
            raise self._failure(f"postfix start exited {rc}: {output}")
        self._wait(lambda: _port_open(cfg.smtp_port), START_TIMEOUT, f"Postfix to listen on {cfg.smtp_port}")

    def _stop_postfix(self) -> None:
        cfg = self.config
        if _terminate(_read_pid(cfg.spool_dir / "pid" / "master.pid"), "master"):
            self._wait(lambda: not _port_open(cfg.smtp_port), STOP_TIMEOUT, f"SMTP port {cfg.smtp_port} to close")

    # mailbox operations

    def enable_push(self) -> None:
        """Set the METADATA entry without which Dovecot's OX push driver sends nothing."""
        cfg = self.config
        # `user=` is what the driver would report with `user_from_metadata`; we do not set that
        # flag, so each push names the LMTP user, i.e. the recipient.
        self._doveadm("mailbox", "metadata", "set", "-u", cfg.user, "-s", "", PUSH_METADATA_KEY, f"user={cfg.user}")

    def expunge_all(self) -> None:
        """Delete every message of the catch-all: INBOX and what the gateway sent (the Sent folder)."""
        self._doveadm("expunge", "-u", self.config.user, "mailbox", "*", "all")

    def message_count(self) -> int:
        """Messages in INBOX right now (over IMAP)."""
        return self._status("MESSAGES")

    def uidvalidity(self) -> int:
        """INBOX's current UIDVALIDITY (over IMAP)."""
        return self._status("UIDVALIDITY")

    def wait_for_count(self, n: int, timeout: float = 10.0) -> int:
        """Wait until INBOX holds at least `n` messages; return the count. Raises on timeout."""
        with self.imap() as client:
            seen = 0

            def enough() -> bool:
                nonlocal seen
                seen = int(client.folder_status("INBOX", [b"MESSAGES"])[b"MESSAGES"])
                return seen >= n

            self._wait(enough, timeout, lambda: f"{n} messages in INBOX (have {seen})")
        return seen

    def reset_uidvalidity(self) -> int:
        """Make Dovecot give INBOX a new UIDVALIDITY, keeping the messages; return the new value.

        Dovecot keeps UIDs and UIDVALIDITY in dovecot-uidlist and its index files; without them
        it rescans the Maildir and numbers the messages afresh under a new UIDVALIDITY (taken from
        dovecot-uidvalidity, which we keep so the value only ever grows).
        """
        before, count = self.uidvalidity(), self.message_count()
        self.stop_dovecot()
        for path in self.config.maildir.iterdir():
            if path.name.startswith(("dovecot-uidlist", "dovecot.index", "dovecot.list.index")):
                path.unlink()
        # The INBOX GUID lived in dovecot-uidlist, and METADATA is keyed by it: start_dovecot()
        # re-enables push.
        self.start_dovecot()
        after, count_after = self.uidvalidity(), self.message_count()
        if after == before or count_after != count:
            raise self._failure(
                f"reset_uidvalidity: UIDVALIDITY {before} -> {after}, messages {count} -> {count_after}"
            )
        return after

    # queue operations

    def queued(self, dirs: tuple[str, ...] = QUEUE_DIRS) -> int:
        """Messages in Postfix's queue (by default: every stage short of delivered).

        An `incoming` file counts once complete (Postfix sets its owner-execute bit then): one
        that a stopped Postfix left half-written was never acknowledged to its sender, is never
        delivered, and lingers until Postfix sweeps it, hours later.
        """
        total = 0
        for name in dirs:
            for dirpath, _dirs, files in os.walk(self.config.spool_dir / name):
                for file in files:
                    if name == "incoming" and not _complete(Path(dirpath) / file):
                        continue
                    total += 1
        return total

    def deferred(self) -> int:
        """Messages Postfix tried to deliver and will retry."""
        return self.queued(("deferred",))

    def wait_deferred(self, n: int = 1, timeout: float = 10.0) -> None:
        """Wait until at least `n` messages sit in the deferred queue (a delivery attempt failed)."""
        self._wait(lambda: self.deferred() >= n, timeout, f"{n} deferred messages")

    def wait_queue_empty(self, timeout: float = 10.0) -> None:
        """Wait until Postfix has handed every queued message to Dovecot (or bounced it)."""
        empty_streak = 0
        flushed_at = time.monotonic()

        def empty_twice() -> bool:
            # A message moving between two queue directories between our listings could hide;
            # two empty observations in a row rule that out.
            nonlocal empty_streak, flushed_at
            empty_streak = empty_streak + 1 if self.queued() == 0 else 0
            if empty_streak == 0 and time.monotonic() - flushed_at > FLUSH_STUCK_AFTER:
                # Under load a restarted Dovecot can leave its LMTP destination marked dead
                # ("delivery temporarily suspended") past the 1 s backoff: `postqueue -f` clears that.
                self.flush()
                flushed_at = time.monotonic()
            return empty_streak >= 2

        self._wait(empty_twice, timeout, lambda: f"Postfix's queue to empty\n{self._postqueue_listing()}")

    def flush(self) -> None:
        """Ask Postfix to retry all deferred mail now (postqueue -f)."""
        _run([str(POSTQUEUE), "-c", str(self.config.postfix_dir), "-f"])

    # IMAP

    @contextlib.contextmanager
    def imap(self) -> Iterator[Any]:
        """A logged-in imapclient.IMAPClient (untyped, hence Any) for the catch-all; logged out on exit."""
        client = IMAPClient(LOOPBACK, port=self.config.imap_port, ssl=False, timeout=10)
        try:
            client.login(self.config.user, self.config.password)
            yield client
        finally:
            with contextlib.suppress(Exception):
                client.logout()
            with contextlib.suppress(Exception):
                client.shutdown()

    def _status(self, item: str) -> int:
        with self.imap() as client:
            return int(client.folder_status("INBOX", [item.encode()])[item.encode()])

    # logs

    def wait_for_log(self, needle: str, timeout: float = 5.0, log: str = "dovecot.log") -> str:
        """Wait until a line containing `needle` appears in `log` (dovecot.log or postfix.log); return it.

        Both daemons write their logs through a separate logger process, a moment after the event.
        """
        path = self.config.log_dir / log
        found = ""

        def present() -> bool:
            nonlocal found
            with contextlib.suppress(FileNotFoundError):
                found = next((line for line in path.read_text(errors="replace").splitlines() if needle in line), "")
            return bool(found)

        self._wait(present, timeout, f"{needle!r} in {path}")
        return found

    def log_tail(self, lines: int = LOG_TAIL_LINES) -> str:
        """The last lines of Postfix's and Dovecot's logs, for error messages."""
        parts = []
        for name in ("postfix.log", "dovecot.log"):
            path = self.config.log_dir / name
            try:
                text = path.read_text(errors="replace").splitlines()[-lines:]
            except FileNotFoundError:
                text = ["(no log yet)"]
            parts.append(f"--- {path} ---\n" + "\n".join(text))
        return "\n".join(parts)

    # plumbing

    def _failure(self, what: str) -> MailStackError:
        return MailStackError(f"{what}\n{self.log_tail()}")

    def _wait(
        self,
        ready: Callable[[], bool],
        timeout: float,
        what: str | Callable[[], str],
    ) -> None:
        # Infrastructure polling, bounded by `timeout`; never a test assertion by itself.
        deadline = time.monotonic() + timeout
        while not ready():
            if time.monotonic() > deadline:
                label = what() if callable(what) else what
                raise self._failure(f"timed out after {timeout:.1f}s waiting for {label}")
            time.sleep(POLL_INTERVAL)

    def _run_daemon(self, name: str, argv: list[str]) -> tuple[int, str]:
        # A daemonizing command's children inherit its stdout/stderr: capturing them in pipes
        # would block until the daemon exits. A file does not.
        path = self.config.log_dir / f"{name}.start.log"
        with path.open("w") as out:
            rc = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=out, timeout=60, check=False)
        return rc.returncode, path.read_text(errors="replace")

    def _postqueue_listing(self) -> str:
        out = _run([str(POSTQUEUE), "-c", str(self.config.postfix_dir), "-p"], check=False)
        return f"--- postqueue -p ---\n{out.stdout}{out.stderr}"

    def imap_sessions(self) -> int:
        """IMAP sessions open right now for the catch-all user (doveadm who)."""
        lines = self._doveadm("who", "-1").splitlines()[1:]  # after the header line
        return sum(1 for line in lines if line.split()[:2] == [self.config.user, "imap"])

    def _doveadm(self, *args: str) -> str:
        out = _run([str(DOVEADM), "-c", str(self.config.dovecot_conf), *args], check=False)
        if out.returncode != 0:
            raise self._failure(f"doveadm {' '.join(args)} exited {out.returncode}: {out.stdout}{out.stderr}")
        return out.stdout


# -- helpers ---------------------------------------------------------------------------------


def _run(
    argv: list[str],
    *,
    check: bool = True,
    input_text: str | None = None,
    env: dict[str, str] | None = None,
    timeout: float = 60.0,
) -> subprocess.CompletedProcess[str]:
    out = subprocess.run(argv, input=input_text, capture_output=True, text=True, env=env, timeout=timeout, check=False)
    if check and out.returncode != 0:
        raise MailStackError(f"{' '.join(argv)} exited {out.returncode}:\n{out.stdout}{out.stderr}")
    return out


def _create_postfix_dirs(cfg: StackConfig) -> None:
    """Create the queue and data directories with the owners and modes Postfix's own table gives.

    That table (postfix-files, type `d` rows) is what `postfix set-permissions` applies; doing
    it here takes milliseconds instead of seconds.
    """
    users = {"$mail_owner": "postfix", "$setgid_group": "postdrop", "root": "root"}
    bases = {"$queue_directory": cfg.spool_dir, "$data_directory": cfg.root / "data"}
    for line in POSTFIX_FILES.read_text().splitlines():
        fields = line.split(":")
        if line.startswith("#") or len(fields) < 5 or fields[1] != "d":
            continue
        base, _, rest = fields[0].partition("/")
        if base not in bases:
            continue
        path = bases[base] / rest if rest else bases[base]
        path.mkdir(exist_ok=True)
        # "-" means "leave as created", i.e. root's group.
        uid = pwd.getpwnam(users[fields[2]]).pw_uid
        gid = grp.getgrnam(users[fields[3]]).gr_gid if fields[3] != "-" else 0
        os.chown(path, uid, gid)
        path.chmod(int(fields[4], 8))


def _free_ports(n: int) -> list[int]:
    # Hold all sockets until every port is chosen so the n ports differ.
    socks = []
    try:
        for _ in range(n):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.bind((LOOPBACK, 0))
            socks.append(s)
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


def free_port() -> int:
    """A currently free TCP port on 127.0.0.1 (e.g. for push_port)."""
    return _free_ports(1)[0]


def _port_open(port: int) -> bool:
    try:
        with socket.create_connection((LOOPBACK, port), timeout=0.5):
            return True
    except OSError:
        return False


def _read_pid(path: Path) -> int | None:
    try:
        # Postfix pads its pid file with spaces.
        return int(path.read_text().strip())
    except (FileNotFoundError, ValueError):
        return None


def _process_state(pid: int) -> tuple[str, str] | None:
    """(comm, state letter) of a live process, or None when it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    comm = stat[stat.index("(") + 1 : stat.rindex(")")]
    state = stat[stat.rindex(")") + 2]
    return comm, state


def _alive(pid: int) -> bool:
    # PID 1 here reaps orphans only about once a second: a zombie has exited and counts as gone.
    st = _process_state(pid)
    return st is not None and st[1] != "Z"


def _terminate(pid: int | None, comm: str) -> bool:
    """SIGTERM `pid` if it is a live `comm` process and wait for it to exit; False if there was none.

    SIGKILL (and an error) only if it ignores SIGTERM for STOP_TIMEOUT.
    """
    if pid is None:
        return False
    st = _process_state(pid)
    if st is None or st[1] == "Z" or st[0] != comm:
        return False  # gone, or a stale pid file now naming someone else's process
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + STOP_TIMEOUT
    while _alive(pid):
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            raise MailStackError(f"{comm} (pid {pid}) ignored SIGTERM for {STOP_TIMEOUT}s; sent SIGKILL")
        time.sleep(POLL_INTERVAL)
    return True


def _rmtree_retrying(root: Path) -> None:
    # Children of a stopped master may still be closing files for a moment.
    for attempt in range(20):
        try:
            shutil.rmtree(root)
            return
        except FileNotFoundError:
            return
        except OSError:
            if attempt == 19:
                raise
            time.sleep(0.05)


def _complete(queue_file: Path) -> bool:
    """Whether Postfix finished writing this queue file (it sets the owner-execute bit last)."""
    try:
        return bool(queue_file.stat().st_mode & stat.S_IXUSR)
    except FileNotFoundError:  # moved on to `active` between the listing and the look
        return False
