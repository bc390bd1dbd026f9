"""Command line: `serve`, `identity create|list|rotate|delete`, `token create|list|revoke`, `admin rotate`,
`store init`, `store copy`, `backup`, and the gateway's clients: `new`, `wait`, `rm`, `send`, `threads`, `search`
(for shell scripts and CI steps), `watch` (a command run for each new message) and `mcp`.

The only module that reads argv and the process environment, and the only one that exits.
Only `serve` takes every setting as a flag; the store commands take `--data-dir`, `--domain` and
`--env-file` (the rest from the environment or the env file), and answer with the API's fields.
Identity commands work on the local data directory directly (safe while the gateway runs:
the store is SQLite in WAL mode). Without a configured domain they use the one the store is
bound to. `store init --new` is the one way to start an empty store where one existed.

`new`, `wait`, `rm`, `send`, `threads`, `search` and `watch` are clients of a running gateway over its REST API
(AGENTMAIL_URL), not of the data directory, and import nothing of the server. Tokens come from the environment and the
0600 token file agentmail-mcp keeps, never from argv: `new` stores the identity's token there,
so `wait ADDRESS` (and `send --from ADDRESS`) finds it. `wait` exits 0 when the mail came, 1 when it
timed out, 2 on any error; `search` 0 when something matched, 1 when nothing did (as grep).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import logging
import os
import re
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from gateway import __version__
from gateway.config import SettingError, Settings, describe, env_name, is_secret, load_settings
from gateway.errors import GatewayError
from gateway.redact import install_redaction
from mcp_server.__main__ import DESCRIPTION as MCP_DESCRIPTION  # text only: loads no MCP SDK

if TYPE_CHECKING:  # the store and the client are imported only by the commands that use them (fast --help)
    from collections.abc import Mapping
    from datetime import datetime

    from gateway.client import Gateway, Message, Summary, Thread, ThreadSummary
    from gateway.client import GatewayError as ClientError
    from gateway.store import Identity, Store
    from mcp_server.tokens import TokenFile

__all__ = ["main", "parse_duration"]

log = logging.getLogger("gateway")

DEFAULT_URL: Final = "http://127.0.0.1:8025"
"""As gateway.client's (not imported from there: that would load the client for every command)."""
MAX_DURATION_SECONDS: Final = 10 * 365 * 86400
"""Longest --ttl or --timeout: the gateway's own limit on a lifetime."""
_UNITS: Final = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}
_CLIENT_COMMANDS: Final = ("new", "wait", "rm", "send", "threads", "search", "watch")
_SEARCH_PAGE: Final = 200  # the API's largest page


def _store_flags() -> argparse.ArgumentParser:
    """Where the store is, for the commands that work on it directly (not the server's other settings)."""
    parser = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    group = parser.add_argument_group("the store (other settings: from the environment or the env file)")
    group.add_argument(
        "--data-dir",
        dest="setting_data_dir",
        metavar="DIR",
        help="the gateway's data directory (default: AGENTMAIL_DATA_DIR, else the platform's data dir)",
    )
    group.add_argument(
        "--domain",
        dest="setting_domain",
        metavar="DOMAIN",
        help="the mail domain (default: AGENTMAIL_DOMAIN, else the one the store is bound to)",
    )
    group.add_argument(
        "--env-file", default=".env", metavar="FILE", help="settings file read before the environment (default: ./.env)"
    )
    return parser


def _settings_flags() -> argparse.ArgumentParser:
    """One --flag per setting (same name as the variable, without the prefix): `serve` only."""
    parser = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    group = parser.add_argument_group("settings (each also AGENTMAIL_<NAME> in the environment or .env)")
    docs = {var: doc for var, _, doc in describe()}
    for f in dataclasses.fields(Settings):
        if is_secret(f.name):
            continue  # argv is readable by every user of the machine: secrets come from env or files
        flag = "--" + f.name.replace("_", "-")
        group.add_argument(flag, dest=f"setting_{f.name}", default=None, metavar="VALUE", help=docs[env_name(f.name)])
    group.add_argument("--env-file", default=".env", help="settings file read before the environment (default: ./.env)")
    return parser


def _parser() -> argparse.ArgumentParser:
    common = _settings_flags()
    parser = argparse.ArgumentParser(
        prog="agentmail-gateway",
        allow_abbrev=False,  # "--admin-token" must not quietly mean "--admin-token-file"
        description="A self-hosted mail gateway: an address and a token for every agent.",
    )
    parser.add_argument("--version", action="version", version=f"agentmail-gateway {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser(
        "serve", parents=[common], allow_abbrev=False, help="run the gateway (HTTP API + embedded SMTP intake)"
    )
    commands.add_parser(
        "mcp",
        allow_abbrev=False,
        help="run the MCP stdio server (same as agentmail-mcp; AGENTMAIL_URL and AGENTMAIL_TOKEN)",
        description=MCP_DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )

    store_flags = _store_flags()
    address_help = "the identity's address, or just its local part (this store's domain is added)"
    identity = commands.add_parser("identity", help="manage identities").add_subparsers(dest="action", required=True)
    create = identity.add_parser(
        "create", parents=[store_flags], allow_abbrev=False, help="create an identity; prints its token once"
    )
    create.add_argument("local_part", nargs="?", help="the name before @ (random when omitted; NAME@DOMAIN works too)")
    create.add_argument(
        "--ttl",
        type=_ttl_arg,
        dest="ttl_seconds",
        metavar="DURATION",
        help="lifetime: seconds, or 90s, 15m, 1h, 2d (default: none)",
    )
    create.add_argument("--label", help="a note for yourself")
    create.add_argument("--force", action="store_true", help="re-create a quarantined name")
    listing = identity.add_parser(
        "list", parents=[store_flags], allow_abbrev=False, help="list identities (never tokens)"
    )
    listing.add_argument("--json", action="store_true", help="the API's JSON (GET /v1/identities) instead of a table")
    for action, text in (("rotate", "issue a new token; the old one dies at once"), ("delete", "delete an identity")):
        sub = identity.add_parser(action, parents=[store_flags], allow_abbrev=False, help=text)
        sub.add_argument("address", metavar="ADDRESS", help=address_help)

    token = commands.add_parser("token", help="provisioner tokens").add_subparsers(dest="action", required=True)
    tcreate = token.add_parser(
        "create",
        parents=[store_flags],
        allow_abbrev=False,
        help="a provisioner token (creates identities, reads no mail); prints it once",
    )
    tcreate.add_argument("--label")
    tlist = token.add_parser(
        "list", parents=[store_flags], allow_abbrev=False, help="list provisioner tokens (never the tokens)"
    )
    tlist.add_argument("--json", action="store_true", help="the API's JSON (GET /v1/tokens) instead of a table")
    revoke = token.add_parser(
        "revoke", parents=[store_flags], allow_abbrev=False, help="revoke a provisioner token at once"
    )
    revoke.add_argument("token_id", metavar="ID", help="the token's id (tok_…), as `token list` shows it")

    admin = commands.add_parser("admin", help="the admin token").add_subparsers(dest="action", required=True)
    admin.add_parser("rotate", parents=[store_flags], allow_abbrev=False, help="replace the generated admin token")

    store = commands.add_parser("store", help="the identity store").add_subparsers(dest="action", required=True)
    init = store.add_parser(
        "init",
        parents=[store_flags],
        allow_abbrev=False,
        help="make a new, empty identity store (never replaces one); the gateway refuses to start without it"
        " when an earlier store was lost",
    )
    init.add_argument(
        "--new",
        action="store_true",
        help="a store existed here and is lost: start an empty one anyway (every identity and token is gone)",
    )
    copy = store.add_parser(
        "copy",
        parents=[store_flags],
        allow_abbrev=False,
        help="copy the SQLite identity store into an empty PostgreSQL database, verified (stop the gateway first)",
        description="Copies every durable table of <data>/identities.db (identities with their token hashes,"
        " provisioner and admin token hashes, quarantines, marks, claims, /ui sessions, webhooks and their"
        " deliveries, the outbox) into an empty PostgreSQL database in one transaction, reads it back and"
        " compares row counts and SHA-256 checksums per table before committing. The message index is not"
        " copied: the gateway rebuilds it from the mailbox. Exit 0: copied and verified; 1: a table differs"
        " (nothing committed); 2: refused (the target holds tables, the store changed meanwhile, a bad URL).",
    )
    target = copy.add_mutually_exclusive_group()
    target.add_argument(
        "--to",
        metavar="URL",
        help="postgresql://user:pass@host/db (default: AGENTMAIL_DATABASE_URL or AGENTMAIL_DATABASE_URL_FILE,"
        " as `serve` reads it; a password in argv is visible to other users: prefer those or --to-file)",
    )
    target.add_argument("--to-file", type=Path, metavar="FILE", help="a file holding the PostgreSQL URL")
    copy.add_argument(
        "--verify-only",
        action="store_true",
        help="write nothing: compare a database copied earlier with the store, table by table",
    )
    backup = commands.add_parser(
        "backup",
        parents=[store_flags],
        allow_abbrev=False,
        help="copy the identity store (SQLite) into DIR, consistently, while the gateway runs; never the index",
    )
    backup.add_argument("directory", metavar="DIR", type=Path, help="made (0700) if missing; never overwritten")
    _client_commands(commands)
    return parser


def _client_commands(commands: Any) -> None:
    """`new`, `wait`, `rm`, `send`, `threads`, `search`: clients of a running gateway (AGENTMAIL_URL), for scripts."""
    url = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    url.add_argument(
        "--url", help=f"the gateway (default: AGENTMAIL_URL, else {DEFAULT_URL}); tokens only from the environment"
    )
    raw = argparse.RawDescriptionHelpFormatter
    new = commands.add_parser(
        "new",
        parents=[url],
        allow_abbrev=False,
        formatter_class=raw,
        help="create an identity on a running gateway; prints its address and token",
        description="Create an identity with AGENTMAIL_TOKEN (a provisioner or the admin token) at AGENTMAIL_URL.\n"
        "Prints the address on line 1 and its token on line 2, and keeps the token in the 0600\n"
        "token file agentmail-mcp uses (in the user config folder, e.g. ~/.config/agentmail-gateway/),\n"
        "so that `agentmail-gateway wait ADDRESS` finds it.",
        epilog="examples:\n"
        '  eval "$(agentmail-gateway new --ttl 1h --env)"\n'
        '  CODE=$(agentmail-gateway wait "$AGENTMAIL_ADDRESS" --code)\n\n'
        "  ADDR=$(agentmail-gateway new --ttl 1h | head -n 1)",
    )
    new.add_argument("local_part", nargs="?", metavar="LOCAL_PART", help="the name before @ (random when omitted)")
    new.add_argument(
        "--ttl", type=_ttl_arg, metavar="DURATION", help="lifetime: seconds, or 90s, 15m, 1h, 2d (default: none)"
    )
    new.add_argument("--label", help="a note for people (e.g. the CI job)")
    new.add_argument(
        "--env",
        action="store_true",
        help="print shell-quoted `export AGENTMAIL_ADDRESS=...` and `export AGENTMAIL_IDENTITY_TOKEN=...` lines",
    )

    wait = commands.add_parser(
        "wait",
        parents=[url],
        allow_abbrev=False,
        formatter_class=raw,
        help="wait for mail to an address; print its code, link or JSON (exit 0 found, 1 timed out, 2 error)",
        description="Wait for the oldest unseen message to ADDRESS (mail that came before the call counts)\n"
        "and print it: a short summary, or with --code / --link just that, or with --json all of it.\n"
        "Exit status: 0 found, 1 timed out (stderr lists what did arrive), 2 any other error.\n\n"
        "The token that reads the mail is the first of:\n"
        "  1. AGENTMAIL_IDENTITY_TOKEN, unless AGENTMAIL_ADDRESS names another address;\n"
        "  2. the token file entry `agentmail-gateway new` (or agentmail-mcp) stored for ADDRESS\n"
        "     with the same AGENTMAIL_URL and AGENTMAIL_TOKEN;\n"
        "  3. AGENTMAIL_TOKEN itself: the admin token reads any identity (without marking mail seen);\n"
        "     a provisioner token reads no mail.",
        epilog='example:\n  CODE=$(agentmail-gateway wait "$ADDR" --code --timeout 2m --from noreply@example.com)',
    )
    wait.add_argument(
        "address",
        metavar="ADDRESS",
        help="the identity's address, as `new` printed it (or its local part, when `new` made it here)",
    )
    shown = wait.add_mutually_exclusive_group()
    shown.add_argument("--code", dest="show", action="store_const", const="code", help="print just the one-time code")
    shown.add_argument(
        "--link", dest="show", action="store_const", const="link", help="print just the verification link"
    )
    shown.add_argument(
        "--json", dest="show", action="store_const", const="json", help="print the whole message as JSON"
    )
    wait.add_argument(
        "--timeout",
        type=_duration_arg,
        default=120.0,
        metavar="DURATION",
        help="how long to wait: seconds, or 90s, 15m, 1h (default: 120)",
    )
    wait.add_argument("--from", dest="sender", metavar="TEXT", help="only mail whose From contains TEXT")
    wait.add_argument("--subject", metavar="TEXT", help="only mail whose Subject contains TEXT")
    wait.add_argument(
        "--link-contains", metavar="TEXT", help="with --link (implied): the first link whose URL contains TEXT"
    )

    rm = commands.add_parser(
        "rm",
        parents=[url],
        allow_abbrev=False,
        help="delete an identity on a running gateway (its own token, else AGENTMAIL_TOKEN) and forget its token",
    )
    rm.add_argument(
        "address", metavar="ADDRESS", help="the identity's address (or its local part, when `new` made it here)"
    )
    _mail_commands(commands, url)


def _mail_commands(commands: Any, url: argparse.ArgumentParser) -> None:
    """`send` and `threads`: an identity's outgoing mail and conversations, with the token `wait` would use."""
    raw = argparse.RawDescriptionHelpFormatter
    tokens = (
        "The identity's token is found as for `wait`: AGENTMAIL_IDENTITY_TOKEN, else the token file\n"
        "entry `agentmail-gateway new` stored for it, else AGENTMAIL_TOKEN (the admin's; a provisioner\n"
        "token may not send). Never from argv."
    )
    send = commands.add_parser(
        "send",
        parents=[url],
        allow_abbrev=False,
        formatter_class=raw,
        help="send a mail from an identity on a running gateway (exit 0 sent, 2 refused or any error)",
        description="Send a new mail from the identity --from. Whom it can reach is the identity's send scope\n"
        "(`local`, the default: only addresses on the gateway's own domain). If any recipient is refused,\n"
        "nothing is sent to anyone. Prints the Message-ID, the sent copy's id and the thread.\n\n" + tokens,
        epilog="examples:\n"
        '  agentmail-gateway send --from "$AGENTMAIL_ADDRESS" --to planner@agents.example --subject Hi --text Ready\n'
        "  git log -1 | agentmail-gateway send --from ci@agents.example --to ops@agents.example --text-file -",
    )
    send.add_argument(
        "--from", dest="address", required=True, metavar="ADDRESS", help="the identity that sends (or its local part)"
    )
    send.add_argument("--to", action="append", default=[], metavar="ADDRESS", help="a recipient (repeat for more)")
    send.add_argument("--cc", action="append", default=[], metavar="ADDRESS", help="a Cc recipient (repeatable)")
    send.add_argument("--bcc", action="append", default=[], metavar="ADDRESS", help="a Bcc recipient (repeatable)")
    send.add_argument("--subject", default="", metavar="TEXT")
    body = send.add_mutually_exclusive_group()
    body.add_argument("--text", metavar="TEXT", help="the text body")
    body.add_argument("--text-file", type=Path, metavar="FILE", help="the text body from FILE (UTF-8; - for stdin)")
    send.add_argument("--html-file", type=Path, metavar="FILE", help="an HTML body from FILE (UTF-8)")
    send.add_argument(
        "--attach", action="append", default=[], type=Path, metavar="FILE", help="attach FILE (repeatable)"
    )
    send.add_argument("--reply-to", metavar="ADDRESS", help="where replies should go")
    send.add_argument("--from-name", metavar="NAME", help="the display name in From (the address is the identity's)")
    send.add_argument("--json", action="store_true", help="print the API's answer as JSON")

    threads = commands.add_parser(
        "threads",
        parents=[url],
        allow_abbrev=False,
        formatter_class=raw,
        help="list an identity's conversations on a running gateway, or the messages of one",
        description="List ADDRESS's threads, latest activity first (time, messages, unseen, id, subject),\n"
        "or with THREAD_ID that thread's messages, oldest first (sent ones marked).\n\n" + tokens,
    )
    threads.add_argument("address", metavar="ADDRESS", help="the identity's address (or its local part)")
    threads.add_argument("thread_id", nargs="?", metavar="THREAD_ID", help="show this thread's messages")
    threads.add_argument(
        "--limit", type=_limit_arg, default=20, metavar="N", help="how many threads (default 20, at most 1000)"
    )
    threads.add_argument("--json", action="store_true", help="print the API's answer as JSON")

    search = commands.add_parser(
        "search",
        parents=[url],
        allow_abbrev=False,
        formatter_class=raw,
        help="search an identity's mail on a running gateway (exit 0 found, 1 nothing matched, 2 error)",
        description="Search ADDRESS's mail, newest first: one line per message (time, id, from, subject and\n"
        "the codes found), or with --json the summaries as a JSON array. Exit status: 0 something\n"
        "matched, 1 nothing did, 2 any other error (a query that cannot be read says where).\n\n"
        'QUERY: words and "phrases" (subject and text), from:/to: an exact address or @domain,\n'
        "subject:, filename:, has:attachment|code|link, is:seen|unseen, before:/after: a date\n"
        "(2026-12-01) or an ISO instant, -negation, OR between terms; terms are ANDed. A QUERY\n"
        "that starts with - goes after -- (`search ADDRESS -- -from:@example.com`).\n\n"
        "The token is found as for `wait`: AGENTMAIL_IDENTITY_TOKEN, else the token file entry\n"
        "`agentmail-gateway new` stored for ADDRESS, else AGENTMAIL_TOKEN (the admin token reads\n"
        "any identity; a provisioner token reads no mail). Never from argv.",
        epilog="examples:\n"
        '  agentmail-gateway search "$AGENTMAIL_ADDRESS" "from:@stripe.com has:attachment"\n'
        '  agentmail-gateway search "$AGENTMAIL_ADDRESS" \'subject:"reset your password" after:2026-12-01\' --json',
    )
    search.add_argument("address", metavar="ADDRESS", help="the identity's address (or its local part)")
    search.add_argument("query", metavar="QUERY", help="what to find (one argument: quote it)")
    search.add_argument(
        "--limit", type=_limit_arg, default=20, metavar="N", help="how many, newest first (default 20, at most 1000)"
    )
    search.add_argument("--json", action="store_true", help="print the matching summaries as a JSON array")
    _watch_command(commands, url)


WATCH_DESCRIPTION: Final = """\
Run CMD (with /bin/sh) for each new message to the identities watched, until Ctrl-C.

What a run gets:
  stdin: one JSON object: the newest message's summary as the list route gives it (id, from,
    to, subject, received_at, codes, links, thread_id, ...) plus "address" (the identity) and
    "earlier": the other messages of the same burst, oldest first ([] for a single message).
    The run fetches a body itself if it needs one (`agentmail-gateway wait`, the client).
  environment: the watcher's own, plus AGENTMAIL_ADDRESS, AGENTMAIL_MESSAGE_ID (the newest),
    AGENTMAIL_MESSAGE_IDS (all of the run's, oldest first), AGENTMAIL_THREAD_ID (empty when the
    message has none), and AGENTMAIL_IDENTITY_TOKEN when the watcher reads that identity with
    its own token (so `agentmail-gateway send --from "$AGENTMAIL_ADDRESS"` can answer).

How runs are scheduled:
  - one run at a time per identity; different identities in parallel, at most --jobs;
  - messages of one thread arriving within --debounce of each other are one run, started
    --debounce after the last of them (at most 12 x --debounce after the first; 100 messages);
  - budgets: once an identity ran --max-runs-per-hour times in the last hour, or one thread
    --max-thread-runs-per-hour times, a circuit breaker opens: further messages are not run
    (kept as "tripped") and the log says why; two agents answering each other stop there;
  - a run that exits non-zero (or is killed by --timeout, with its whole process group) is run
    again after --retry-delay, doubling each time, --retries times; then its messages are parked
    with the exit status and the end of stderr (logged, and kept in the state file).

The state file (--state) holds the event streams' cursors and each message's outcome; it is
replaced atomically. A watcher started again (even after kill -9) first runs what arrived while
it was down and what was queued or running, and never runs again a message whose run succeeded.
A new state file starts with mail arriving from now on. Ctrl-C (or SIGTERM) stops reading, lets
the runs going on finish for --grace seconds (Ctrl-C again: at once), kills what is left, whose
messages then run at the next start, and saves the state.

Tokens: each ADDRESS is read with the token `wait` would use (AGENTMAIL_IDENTITY_TOKEN, else the
token file entry of `agentmail-gateway new`, else AGENTMAIL_TOKEN); addresses left to
AGENTMAIL_TOKEN (the admin's or a provisioner's) and --all are read from the all-identities
stream (GET /v1/events). Exit status: 0 stopped by a signal, 2 an error (one line on stderr)."""


def _watch_command(commands: Any, url: argparse.ArgumentParser) -> None:
    watch = commands.add_parser(
        "watch",
        parents=[url],
        allow_abbrev=False,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        help="run a command for each new message (wake an agent on mail), one at a time per identity",
        description=WATCH_DESCRIPTION,
        epilog="examples:\n"
        "  agentmail-gateway watch \"$AGENTMAIL_ADDRESS\" --exec 'jq -r .subject >> subjects.log'\n"
        "  agentmail-gateway watch --all --jobs 8 --exec 'claude -p \"Handle the mail on stdin\"'",
    )
    watch.add_argument("addresses", nargs="*", metavar="ADDRESS", help="an identity to watch (or its local part)")
    watch.add_argument(
        "--all",
        action="store_true",
        help="every identity AGENTMAIL_TOKEN may manage (admin: all; provisioner: its own)",
    )
    watch.add_argument(
        "--exec", dest="exec_command", required=True, metavar="CMD", help="the command to run (by /bin/sh)"
    )
    watch.add_argument(
        "--jobs", type=_count_arg(1, 256), default=4, metavar="N", help="runs at once, across identities (default 4)"
    )
    watch.add_argument(
        "--debounce",
        type=_duration_arg,
        default=5.0,
        metavar="DURATION",
        help="a burst on one thread within this is one run (default 5s)",
    )
    watch.add_argument(
        "--max-runs-per-hour",
        type=_count_arg(0, 1_000_000),
        default=60,
        metavar="N",
        help="budget of runs per identity in any hour (default 60; 0: none)",
    )
    watch.add_argument(
        "--max-thread-runs-per-hour",
        type=_count_arg(0, 1_000_000),
        default=10,
        metavar="N",
        help="budget of runs per thread in any hour (default 10; 0: none)",
    )
    watch.add_argument(
        "--timeout",
        type=_duration_arg,
        default=1800.0,
        metavar="DURATION",
        help="kill a run (its process group) after this long (default 30m; 0: never)",
    )
    watch.add_argument(
        "--retries", type=_count_arg(0, 100), default=3, metavar="N", help="runs again after a failure (default 3)"
    )
    watch.add_argument(
        "--retry-delay",
        type=_duration_arg,
        default=10.0,
        metavar="DURATION",
        help="pause before the first retry, doubling (default 10s)",
    )
    watch.add_argument(
        "--grace",
        type=_duration_arg,
        default=10.0,
        metavar="DURATION",
        help="on Ctrl-C, how long the runs going on may finish (default 10s)",
    )
    watch.add_argument(
        "--state",
        type=Path,
        metavar="FILE",
        help="the state file (default: one per gateway, token and ADDRESS set, in the user state folder)",
    )


def _count_arg(low: int, high: int) -> Any:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value} is not between {low} and {high}")
        return value

    return parse


def _limit_arg(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 1 <= value <= 1000:
        raise argparse.ArgumentTypeError("a limit is 1 to 1000")
    return value


def _load(args: argparse.Namespace) -> Settings:
    overrides = {
        name.removeprefix("setting_"): value
        for name, value in vars(args).items()
        if name.startswith("setting_") and value is not None
    }
    return load_settings(os.environ, env_file=Path(args.env_file), overrides=overrides)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = _parser().parse_args(argv)
    if args.command in _CLIENT_COMMANDS:  # clients of a running gateway: no settings, no store
        return _client_main(args)
    if args.command == "mcp":  # an MCP client of some gateway: none of the gateway's settings apply
        from mcp_server.__main__ import main as mcp_main

        mcp_main([])  # its own options were parsed here (`mcp --help`)
        return 0
    try:
        settings = _load(args)
        logging.basicConfig(
            level=settings.log_level.upper(),
            format="%(asctime)s %(levelname)s %(name)s: %(message)s",
            stream=sys.stderr,
        )
        logging.getLogger("mail.log").setLevel(logging.WARNING)  # aiosmtpd logs every command
        install_redaction(_secret_values(settings))  # no token (or configured secret) in any log line
        if args.command == "serve":
            return _serve(settings)
        if args.command == "backup":
            return _backup(settings, args.directory)
        if args.command == "store" and args.action == "copy":
            return _copy_store(settings, args)
        return _manage(settings, args)
    except (SettingError, GatewayError) as exc:
        detail = exc.detail if isinstance(exc, GatewayError) else str(exc)
        print(f"agentmail-gateway: {detail}", file=sys.stderr)
        return 2


def _secret_values(settings: Settings) -> tuple[str, ...]:
    """The configured secrets' plaintexts, for the log redaction only."""
    values = (getattr(settings, f.name) for f in dataclasses.fields(Settings) if is_secret(f.name))
    found = [value.reveal() for value in values if value is not None]
    if settings.admin_token_file is not None:  # a mounted admin token need not look like ours
        with contextlib.suppress(OSError, UnicodeDecodeError):
            found.append(settings.admin_token_file.read_text().strip())
    return tuple(found)


def _serve(settings: Settings) -> int:
    from gateway.app import create_app
    from gateway.serve import ReportingServer, event_loop, uvicorn_config

    event_loop(settings.loop)  # AGENTMAIL_LOOP=uvloop without uvloop: one line, before the store is opened
    if settings.store_kind == "postgresql":
        # uvicorn would report a database that refuses us as a traceback and exit 0: ask it
        # first, so the answer is one line and status 2, before anything listens.
        asyncio.run(_check_store(settings))
    app = create_app(settings)

    def banner(host: str, port: int) -> None:
        # Once listening: the ports bound (port 0 picks one), not the ones asked for.
        smtp = app.state.gateway.smtp_address
        mail = f"SMTP on {smtp[0]}:{smtp[1]}" if smtp else f"mailbox {settings.imap_host}:{settings.imap_port}"
        print(
            f"agentmail-gateway {__version__}: API on http://{host}:{port}  {mail}  domain {settings.domain}"
            f"  data {settings.data_dir}",
            file=sys.stderr,
            flush=True,
        )

    config = uvicorn_config(app, settings, _secret_values(settings))
    # uvicorn handles Ctrl-C / SIGTERM: stops accepting, runs the lifespan shutdown, then
    # re-raises the signal so the process ends the way it was asked to.
    server = ReportingServer(config, banner)
    with contextlib.suppress(KeyboardInterrupt):
        server.run()
    if not server.started:
        print("agentmail-gateway: start-up failed (the reason is logged above)", file=sys.stderr)
        return 1
    print("agentmail-gateway: stopped", file=sys.stderr)
    return 0


async def _check_store(settings: Settings) -> None:
    """Open and close the store once: StoreError (a clear, password-free message) when it refuses us."""
    from gateway.store.open import open_store

    store = open_store(settings)
    try:
        await store.engine.start()
    finally:
        await store.engine.close()


def _backup(settings: Settings, directory: Path) -> int:
    from gateway.store.backup import backup_store

    done = backup_store(settings, directory)
    print(
        f"identity store {done.store_id} (domain {done.domain}, schema {done.schema_version},"
        f" {done.identities} identit{'y' if done.identities == 1 else 'ies'}) copied to {done.path}"
    )
    if done.admin_token is not None:
        print(f"generated admin token copied to {done.admin_token}")
    return 0


def _copy_store(settings: Settings, args: argparse.Namespace) -> int:
    """`store copy`: the SQLite store into an empty PostgreSQL database, or `--verify-only` a copy made earlier."""
    from gateway.store.backup import DURABLE_FILE

    try:
        from gateway.store.copy import copy_store, verify_copy
    except ImportError as exc:
        if exc.name is not None and not exc.name.startswith("psycopg"):
            raise  # our bug, not a missing extra
        raise SettingError("store copy needs the postgres extra: pip install 'agentmail-gateway[postgres]'") from None
    dsn = _copy_target(settings, args)
    install_redaction((*_secret_values(settings), dsn))  # a password given by --to or --to-file too
    source = settings.data_dir / DURABLE_FILE
    if args.verify_only:
        report = verify_copy(source, dsn)
    else:
        report = copy_store(source, dsn, domain=settings.domain if _domain_given(args) else None)
    print("\n".join(report.lines()))
    if not report.matches:
        done = "nothing was committed" if not args.verify_only else "the database was left as it is"
        print(
            f"agentmail-gateway: {report.target} differs from {source} in {', '.join(report.mismatched())}; {done}",
            file=sys.stderr,
        )
        return 1
    store = f"store {report.store_id} (domain {report.domain})"
    if args.verify_only:
        print(f"{report.target} holds {store} as {source} does: every table matches")
        return 0
    print(
        f"copied {store} from {source} to {report.target}: every table matches. Stop using the SQLite"
        " store; start the gateway with AGENTMAIL_DATABASE_URL pointing there (the index is rebuilt from the mailbox)"
    )
    return 0


def _copy_target(settings: Settings, args: argparse.Namespace) -> str:
    """The URL `store copy` writes to: --to, --to-file, else the one `serve` would use; SettingError when none."""
    if args.to_file is not None:
        try:
            url = args.to_file.read_text().strip()
        except (OSError, UnicodeDecodeError) as exc:
            raise SettingError(f"--to-file {str(args.to_file)!r}: cannot read it ({exc})") from None
    elif args.to is not None:
        url = args.to
    elif settings.database_url is not None:
        url = settings.database_url.reveal()
    else:
        raise SettingError(
            "name the PostgreSQL database to copy into: --to URL, --to-file FILE, or AGENTMAIL_DATABASE_URL"
            " (or AGENTMAIL_DATABASE_URL_FILE) as for `serve`"
        )
    if not url.startswith(("postgresql://", "postgres://")):
        raise SettingError("the target must be a PostgreSQL URL: postgresql://user:pass@host/db")
    return str(url)


def _manage(settings: Settings, args: argparse.Namespace) -> int:
    return asyncio.run(_manage_store(settings, args))


def _domain_given(args: argparse.Namespace) -> bool:
    """Whether AGENTMAIL_DOMAIN is set (flag, environment or env file): else the store's own is used."""
    from dotenv import dotenv_values

    if getattr(args, "setting_domain", None) or os.environ.get("AGENTMAIL_DOMAIN"):
        return True
    env_file = Path(args.env_file)
    return env_file.is_file() and bool(dotenv_values(env_file).get("AGENTMAIL_DOMAIN"))


async def _open_bound(settings: Settings, args: argparse.Namespace) -> tuple[Settings, Store]:
    """The started store, and the settings with the domain it is bound to when none was given."""
    from gateway.store.open import open_store

    adopt = not _domain_given(args)
    store = open_store(settings, adopt_domain=adopt)
    await store.engine.start()
    bound = store.engine.domain
    if not adopt or bound is None or bound == settings.domain:
        return settings, store
    await store.engine.close()
    settings = dataclasses.replace(settings, domain=bound)
    store = open_store(settings)
    await store.engine.start()
    return settings, store


async def _init_store(settings: Settings, *, new: bool) -> int:
    """`store init [--new]`: a new, empty store, its mailbox marked and its admin token kept or made."""
    from gateway.admin_token import ADMIN_TOKEN_FILE, configured_admin_token, ensure_admin_token
    from gateway.fsutil import ensure_private_dir
    from gateway.store.lineage import mark_mailbox
    from gateway.store.open import open_store

    store = open_store(settings, new_store=new)
    try:
        await store.engine.start()
        if not store.engine.created:
            print(
                f"agentmail-gateway: an identity store exists already (domain {store.engine.domain});"
                " `store init` never replaces one",
                file=sys.stderr,
            )
            return 2
        assert store.engine.store_id is not None
        if settings.source_kind == "local":
            mark_mailbox(ensure_private_dir(settings.data_dir / "maildir"), store.engine.store_id)
        written = await ensure_admin_token(settings, store.tokens)
        print(f"new identity store {store.engine.store_id} for {settings.domain} ({store.engine.kind})")
        if written is not None:
            print(f"admin token written to {written}")
        elif configured_admin_token(settings) is None:
            print(f"admin token kept from {settings.data_dir / ADMIN_TOKEN_FILE}")
        return 0
    finally:
        await store.engine.close()


async def _manage_store(settings: Settings, args: argparse.Namespace) -> int:
    from gateway.admin_token import rotate_admin_token
    from gateway.fsutil import ensure_private_dir

    ensure_private_dir(settings.data_dir)
    if args.command == "store":
        return await _init_store(settings, new=args.new)
    settings, store = await _open_bound(settings, args)
    try:
        if args.command == "admin":
            path = await rotate_admin_token(settings, store.tokens)
            print(f"new admin token written to {path}")
            return 0
        if args.command == "token":
            return await _manage_tokens(store, args)
        return await _manage_identities(settings, store, args)
    finally:
        await store.engine.close()


async def _manage_identities(settings: Settings, store: Store, args: argparse.Namespace) -> int:
    """`identity create|list|rotate|delete`: the API's answers, field for field (times RFC 3339, UTC, `Z`)."""
    from gateway import wire
    from gateway.api import schemas

    if args.action == "create":
        local_part = None if args.local_part is None else _own_local_part(args.local_part, settings.domain)
        identity, token = await store.identities.create(
            local_part, ttl_seconds=args.ttl_seconds, label=args.label, force=args.force
        )
        _print_json(schemas.created_identity(identity, token))
        return 0
    if args.action == "list":
        rows = [schemas.identity_info(identity) for identity in await _all_identities(store)]
        if args.json:
            _print_json(wire.IdentityPage(rows, None))
        for row in [] if args.json else rows:
            expires = _rfc3339(row.expires_at) if row.expires_at else "-"
            print(f"{row.address}\tcreated {_rfc3339(row.created_at)}\texpires {expires}\t{row.label or ''}")
        return 0
    address = args.address.strip()
    if "@" not in address:  # a bare local part, as `identity create NAME` took it
        address = f"{address}@{settings.domain}"
    found = await store.identities.find(address)
    if found is None:
        print(f"agentmail-gateway: no identity {_shown(address)}", file=sys.stderr)
        return 1
    if args.action == "rotate":
        _print_json(wire.RotatedToken(found.address, await store.tokens.rotate(found)))
    else:
        await store.identities.delete(found)
        _print_json({"deleted": found.address})
    return 0


async def _manage_tokens(store: Store, args: argparse.Namespace) -> int:
    """`token create|list|revoke`: provisioner tokens, as POST, GET and DELETE /v1/tokens answer."""
    from gateway import wire
    from gateway.api import schemas
    from gateway.errors import NotFound

    if args.action == "create":
        record, token = await store.tokens.create_provisioner(args.label)
        _print_json(wire.CreatedApiToken(record.id, "provision", token, record.label, record.created_at))
    elif args.action == "list":
        rows = [schemas.api_token(record) for record in await store.tokens.list_provisioners()]
        if args.json:
            _print_json(rows)
        for row in [] if args.json else rows:
            print(f"{row.id}\t{row.scope}\tcreated {_rfc3339(row.created_at)}\t{row.label or ''}")
    else:
        try:
            await store.tokens.delete_provisioner(args.token_id)
        except NotFound:
            print(f"agentmail-gateway: no provisioner token {_shown(args.token_id)}", file=sys.stderr)
            return 1
        _print_json({"revoked": args.token_id})
    return 0


def _own_local_part(given: str, domain: str) -> str:
    """`given` without `@domain` when it names this store's domain (InvalidName for another domain)."""
    from gateway.errors import InvalidName

    local, at, other = given.strip().rpartition("@")
    if not at:
        return given
    if other.lower() != domain:
        raise InvalidName(f"{given} is not at this store's domain {domain}: give the local part only")
    return local


def _print_json(value: Any) -> None:
    """One line of JSON, encoded as the API encodes it (msgspec: datetimes RFC 3339 in UTC with `Z`)."""
    import msgspec

    print(msgspec.json.encode(value).decode())


def _rfc3339(when: datetime) -> str:
    """A time as the API's JSON writes it."""
    import msgspec

    text: str = msgspec.json.decode(msgspec.json.encode(when))
    return text


async def _all_identities(store: Store) -> list[Identity]:
    rows: list[Identity] = []
    after = None
    while True:
        page = await store.identities.list(after=after, limit=500)
        rows += page
        if len(page) < 500:
            return rows
        after = page[-1].address


# -- clients of a running gateway: new, wait, rm ---------------------------------------------


def parse_duration(text: str) -> float:
    """Seconds in a duration as a person writes it: "90", "90s", "1.5m", "15m", "1h", "2d"."""
    found = re.fullmatch(r"\s*(\d{1,12}(?:\.\d{1,6})?)\s*([smhd]?)\s*", text.lower())
    if found is None:
        raise ValueError(f"not a duration: {text!r} (write e.g. 90, 90s, 15m, 1h or 2d)")
    seconds = float(found[1]) * _UNITS[found[2]]
    if seconds > MAX_DURATION_SECONDS:
        raise ValueError(f"{text!r} is longer than the limit of {MAX_DURATION_SECONDS // 86400} days")
    return seconds


def _duration_arg(text: str) -> float:
    try:
        return parse_duration(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _ttl_arg(text: str) -> float:
    seconds = _duration_arg(text)
    if seconds < 1:
        raise argparse.ArgumentTypeError(f"a lifetime of {text!r} is shorter than one second")
    return seconds


class _Refused(Exception):
    """A client command cannot go on; the message (one line, never a token) says why and what to do."""


def _client_main(args: argparse.Namespace) -> int:
    """A client command: 0 done, 1 a wait timed out, 2 any error (one line on stderr, never a traceback)."""
    from urllib.parse import urlsplit

    url = (args.url or os.environ.get("AGENTMAIL_URL", "").strip() or DEFAULT_URL).rstrip("/")
    token = os.environ.get("AGENTMAIL_TOKEN", "").strip() or None
    try:
        from platformdirs import user_config_path

        from gateway.client import GatewayError as ClientError
        from gateway.client import WaitTimeout
        from mcp_server.tokens import FILE_NAME, TokenFile, TokenFileError, scope_key

        try:
            parts = urlsplit(url)
            if parts.scheme not in ("http", "https") or not parts.hostname:
                raise ValueError("not http(s)")
            scope = scope_key(url, token)  # reads the port: ValueError when it is not a number
            if args.url and (parts.username or parts.password):
                raise _Refused("a user:password goes in AGENTMAIL_URL, not --url (every user of the machine sees argv)")
        except ValueError:
            raise _Refused("the gateway URL (--url or AGENTMAIL_URL) is not an http:// or https:// URL") from None
        tokens = TokenFile(user_config_path("agentmail-gateway") / FILE_NAME)
        try:
            if args.command == "new":
                return _new(args, url, token, tokens, scope)
            if args.command == "wait":
                return _wait(args, url, _reader(args.address, os.environ, token, tokens, scope), tokens, scope)
            if args.command == "send":
                return _send(args, url, _reader(args.address, os.environ, token, tokens, scope), tokens, scope)
            if args.command == "threads":
                return _threads(args, url, _reader(args.address, os.environ, token, tokens, scope), tokens, scope)
            if args.command == "search":
                return _search(args, url, _reader(args.address, os.environ, token, tokens, scope), tokens, scope)
            if args.command == "watch":
                return _watch(args, url, token, tokens, scope)
            return _rm(args, url, _reader(args.address, os.environ, token, tokens, scope), tokens, scope)
        except WaitTimeout as exc:
            print(f"agentmail-gateway: {exc.detail}", file=sys.stderr)
            return 1
        except ClientError as exc:
            print(f"agentmail-gateway: {exc.detail}", file=sys.stderr)
            return 2
        except TokenFileError as exc:
            print(f"agentmail-gateway: {exc}", file=sys.stderr)
            return 2
    except _Refused as exc:
        print(f"agentmail-gateway: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # Whoever reads stdout left before anything was written: say so once, and keep Python's
        # own flush at exit from failing again on the closed pipe.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        print("agentmail-gateway: the output's reader closed the pipe before it was written", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


@dataclasses.dataclass(frozen=True)
class _Reader:
    """The token chosen to read (or delete) an identity, and where it came from (for messages; never the token)."""

    address: str
    token: str
    source: str

    def __repr__(self) -> str:
        return f"_Reader({self.address!r}, from {self.source})"


def _reader(address: str, environ: Mapping[str, str], token: str | None, tokens: TokenFile, scope: str) -> _Reader:
    """The token for `address`: AGENTMAIL_IDENTITY_TOKEN, else the token file's, else AGENTMAIL_TOKEN.

    AGENTMAIL_IDENTITY_TOKEN is skipped when AGENTMAIL_ADDRESS names another address (set by
    `new --env` for one identity, while the script waits on another).
    """
    own_address = environ.get("AGENTMAIL_ADDRESS", "").strip()
    address = _whole_address(address, own_address, tokens, scope)
    own = environ.get("AGENTMAIL_IDENTITY_TOKEN", "").strip()
    if own and (not own_address or own_address.lower() == address.strip().lower()):
        return _Reader(address, own, "AGENTMAIL_IDENTITY_TOKEN")
    stored = tokens.get(scope, address.strip())
    if stored:
        return _Reader(address, stored, "the token file")
    if token:
        return _Reader(address, token, "AGENTMAIL_TOKEN")
    raise _Refused(
        f"no token for {address}: set AGENTMAIL_IDENTITY_TOKEN, or create it with `agentmail-gateway new` on this"
        " machine (same AGENTMAIL_URL and AGENTMAIL_TOKEN), or set AGENTMAIL_TOKEN to the admin token"
    )


def _shown(given: str) -> str:
    """`given` as a message may repeat it: never something that may be a token pasted in the wrong place."""
    from gateway.redact import looks_like_token

    return "(that name)" if looks_like_token(given) or len(given.partition("@")[0]) > 40 else given


def _whole_address(given: str, own_address: str, tokens: TokenFile, scope: str) -> str:
    """`given`, or for a bare local part the one address of this gateway it names (AGENTMAIL_ADDRESS or
    the token file); else _Refused with "did you mean NAME@DOMAIN?" when this gateway's domain is known."""
    if "@" in given.strip(" @"):
        return given.strip()
    local = given.strip(" @").lower()
    shown = repr(given) if local and _shown(given) == given else "that"
    if not local:  # e.g. "" from a `new` that failed earlier in the script
        raise _Refused(f"{given!r} is not an address: pass the whole address `agentmail-gateway new` printed")
    known = tokens.addresses(scope) | ({own_address} if "@" in own_address else set())
    named = sorted(a for a in known if a.rpartition("@")[0].lower() == local)
    if len(named) == 1:
        return named[0]
    if named:
        raise _Refused(f"{shown} is the local part of {', '.join(named)}: pass the whole address")
    domains = sorted({a.rpartition("@")[2].lower() for a in known})
    if len(domains) == 1 and shown != "that":
        raise _Refused(f"{shown} is not an address: did you mean {local}@{domains[0]}?")
    raise _Refused(f"{shown} is not an address: pass the whole address (NAME@DOMAIN) `agentmail-gateway new` printed")


def _new(args: argparse.Namespace, url: str, token: str | None, tokens: TokenFile, scope: str) -> int:
    from gateway.client import Gateway
    from gateway.client import GatewayError as ClientError
    from mcp_server.tokens import TokenFileError

    if token is None:
        raise _Refused(
            "AGENTMAIL_TOKEN is not set: `new` needs a provisioner token (`agentmail-gateway token create`)"
            " or the admin token"
        )
    with _client(Gateway, url, token) as gw:
        me = gw.create_identity(args.local_part, ttl=args.ttl, label=args.label)
        try:
            tokens.put(scope, me.address, me.token)
        except (TokenFileError, OSError) as exc:
            # Fail closed: a script must not go on with an identity `wait` cannot find the token of.
            with contextlib.suppress(ClientError):
                gw.delete_identity(me.address)
            why = exc if isinstance(exc, TokenFileError) else f"{tokens.path}: {exc.strerror}"
            raise _Refused(
                f"could not keep the new identity's token ({why}), so it was deleted again;"
                " XDG_CONFIG_HOME chooses where the token file lives"
            ) from None
    if args.env:
        address, token = shlex.quote(me.address), shlex.quote(me.token)
        _out(f"export AGENTMAIL_ADDRESS={address}\nexport AGENTMAIL_IDENTITY_TOKEN={token}")
    else:
        _out(f"{me.address}\n{me.token}")
    return 0


def _out(text: str) -> None:
    """`text` and a newline in one write: `new | head -n 1` reads it whole, never a broken pipe halfway."""
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def _wait(args: argparse.Namespace, url: str, reader: _Reader, tokens: TokenFile, scope: str) -> int:
    import msgspec

    from gateway.client import AuthError, Gateway

    show = args.show
    if args.link_contains is not None:
        if show not in (None, "link"):
            raise _Refused(f"--link-contains goes with --link, not --{show}")
        show = "link"
    filters: dict[str, Any] = {"timeout": args.timeout, "sender": args.sender, "subject": args.subject}
    with _client(Gateway, url, None) as gw:
        me = gw.identity(reader.address, reader.token)
        try:
            if show == "code":
                _out(me.wait_for_code(**filters))
            elif show == "link":
                _out(me.wait_for_link(contains=args.link_contains, **filters))
            elif show == "json":
                _out(msgspec.json.encode(me.wait(**filters)).decode())
            else:
                _out(_summary(me.wait(**filters)))
        except AuthError as exc:
            raise _refused_reader(reader, exc, tokens, scope) from None
    return 0


def _rm(args: argparse.Namespace, url: str, reader: _Reader, tokens: TokenFile, scope: str) -> int:
    from gateway.client import AuthError, Gateway

    with _client(Gateway, url, reader.token) as gw:
        try:
            gw.delete_identity(reader.address)
        except AuthError as exc:
            raise _refused_reader(reader, exc, tokens, scope) from None
    with contextlib.suppress(Exception):  # deleted is what was asked; a stale entry is harmless
        tokens.remove(scope, reader.address)
    _out(f"deleted {reader.address}")
    return 0


def _read_text(path: Path, what: str) -> str:
    """A body from a file (or stdin for `-`), UTF-8; _Refused naming the file when it cannot be read."""
    try:
        data = sys.stdin.buffer.read() if str(path) == "-" else path.read_bytes()
        return data.decode("utf-8")
    except OSError as exc:
        raise _Refused(f"cannot read the {what} file {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise _Refused(f"the {what} file {path} is not UTF-8 text") from None


def _send(args: argparse.Namespace, url: str, reader: _Reader, tokens: TokenFile, scope: str) -> int:
    import msgspec

    from gateway.client import AuthError, File, Gateway

    if not (args.to or args.cc or args.bcc):
        raise _Refused("nobody to send to: give at least one --to, --cc or --bcc")
    text = _read_text(args.text_file, "text") if args.text_file is not None else args.text
    html = _read_text(args.html_file, "HTML") if args.html_file is not None else None
    if text is None and html is None:
        raise _Refused("no body: give --text, --text-file or --html-file")
    files = []
    for path in args.attach:
        try:
            files.append(File.from_path(path))
        except OSError as exc:
            raise _Refused(f"cannot read the attachment {path}: {exc.strerror}") from None
    with _client(Gateway, url, None) as gw:
        me = gw.identity(reader.address, reader.token)
        try:
            sent = me.send(
                args.to,
                subject=args.subject,
                text=text,
                html=html,
                cc=args.cc,
                bcc=args.bcc,
                attachments=files,
                reply_to=args.reply_to,
                from_name=args.from_name,
            )
        except AuthError as exc:
            raise _refused_reader(reader, exc, tokens, scope) from None
    if args.json:
        _out(msgspec.json.encode(sent).decode())
        return 0
    lines = [
        f"sent:       {sent.message_id}",
        f"id:         {sent.id or '(not known yet)'}",
        f"thread:     {sent.thread_id or '(none yet)'}",
        f"accepted:   {', '.join(sent.accepted) or '(nobody)'}",
    ]
    lines += [f"refused:    {r.address}: {r.reason}" for r in sent.rejected]
    _out("\n".join(lines))
    return 0


def _threads(args: argparse.Namespace, url: str, reader: _Reader, tokens: TokenFile, scope: str) -> int:
    import msgspec

    from gateway.client import AuthError, Gateway

    with _client(Gateway, url, None) as gw:
        me = gw.identity(reader.address, reader.token)
        try:
            shown: Thread | list[ThreadSummary] = (
                me.thread(args.thread_id) if args.thread_id is not None else me.threads(limit=args.limit)
            )
        except AuthError as exc:
            raise _refused_reader(reader, exc, tokens, scope) from None
    if args.json:
        _out(msgspec.json.encode(shown).decode())
    elif isinstance(shown, list):
        _out("\n".join(_thread_line(t) for t in shown) if shown else f"no threads for {reader.address} yet")
    else:
        head = [f"thread:       {shown.thread_id}", f"subject:      {_one_line(shown.subject)}"]
        head.append(f"participants: {', '.join(shown.participants)}")
        _out("\n".join([*head, "", *(_message_line(m) for m in shown.messages)]))
    return 0


def _search(args: argparse.Namespace, url: str, reader: _Reader, tokens: TokenFile, scope: str) -> int:
    import msgspec

    from gateway.client import AuthError, Gateway

    found: list[Summary] = []
    before: str | None = None
    with _client(Gateway, url, None) as gw:
        me = gw.identity(reader.address, reader.token)
        try:
            while len(found) < args.limit:
                page = me.search(args.query, limit=min(_SEARCH_PAGE, args.limit - len(found)), before_id=before)
                found += page.messages
                before = page.next_before_id
                if before is None or not page.messages:
                    break
        except AuthError as exc:
            raise _refused_reader(reader, exc, tokens, scope) from None
    if args.json:
        _out(msgspec.json.encode(found).decode())
    elif found:
        _out("\n".join(_search_line(m) for m in found))
    if not found:
        print(f"agentmail-gateway: no message of {reader.address} matches", file=sys.stderr)
        return 1
    return 0


def _watch(args: argparse.Namespace, url: str, token: str | None, tokens: TokenFile, scope: str) -> int:
    """`watch`: one stream per identity read with its own token, the all-identities stream for the rest."""
    import hashlib

    from platformdirs import user_state_path

    from gateway.client.watch import Rules, StateError, StateFile

    if args.all and args.addresses:
        raise _Refused("give ADDRESSes or --all, not both")
    if not args.all and not args.addresses:
        raise _Refused("nothing to watch: name the identities (ADDRESS ...) or pass --all")
    if args.all and not token:
        raise _Refused("--all reads the all-identities stream: set AGENTMAIL_TOKEN (the admin's or a provisioner's)")
    readers: dict[str, _Reader] = {}
    for given in args.addresses:
        reader = _reader(given, os.environ, token, tokens, scope)
        readers.setdefault(reader.address.lower(), reader)
    try:
        rules = Rules(
            debounce=args.debounce,
            jobs=args.jobs,
            identity_runs_per_hour=args.max_runs_per_hour or None,
            thread_runs_per_hour=args.max_thread_runs_per_hour or None,
            retries=args.retries,
            retry_delay=args.retry_delay,
        )
    except ValueError as exc:
        raise _Refused(str(exc)) from None
    path = args.state
    if path is None:
        watched = "--all" if args.all else " ".join(sorted(readers))
        name = hashlib.sha256(f"{scope}\n{watched}".encode()).hexdigest()[:16]
        path = user_state_path("agentmail-gateway") / "watch" / f"{name}.json"
    logging.basicConfig(level=logging.INFO, format="%(asctime)s watch: %(message)s", stream=sys.stderr)
    logging.getLogger("httpx").setLevel(logging.WARNING)  # a line per (re)connection says nothing useful
    try:
        return asyncio.run(_watching(args, url, token, list(readers.values()), rules, StateFile(path)))
    except StateError as exc:
        raise _Refused(str(exc)) from None


async def _watching(
    args: argparse.Namespace, url: str, token: str | None, readers: list[_Reader], rules: Any, state: Any
) -> int:
    from gateway.client import AsyncGateway
    from gateway.client.watch import Stream, Watcher

    shared = [r.address.lower() for r in readers if r.source == "AGENTMAIL_TOKEN"]
    async with AsyncGateway(url, token or "", retry_for=60.0) as gw:
        streams: list[Stream] = []
        if args.all or shared:
            streams.append(
                Stream("*", lambda cursor: gw.events(last_event_id=cursor), None if args.all else frozenset(shared))
            )
        for reader in readers:
            if reader.source == "AGENTMAIL_TOKEN":
                continue
            me = gw.identity(reader.address, reader.token)
            streams.append(
                Stream(
                    reader.address,
                    lambda cursor, me=me: me.events(last_event_id=cursor),  # type: ignore[misc]
                    frozenset({reader.address.lower()}),
                    {reader.address.lower(): reader.token},
                )
            )
        watcher = Watcher(
            streams,
            rules,
            args.exec_command,
            state,
            timeout=args.timeout or None,
            grace=args.grace,
            environ=os.environ,
        )
        return await watcher.run()


def _search_line(message: Summary) -> str:
    codes = f"  code {', '.join(c.value for c in message.codes)}" if message.codes else ""
    who = _one_line(message.from_ or "(none)")
    return f"{_when(message.received_at)}  {message.id}  {who}  {_one_line(message.subject)}{_one_line(codes)}"


def _one_line(text: str) -> str:
    """A header value on one terminal line: a control character a sender wrote could redraw the screen."""
    return "".join(c if c.isprintable() else " " for c in text)


def _when(moment: datetime) -> str:
    from datetime import UTC

    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%SZ")


def _thread_line(thread: ThreadSummary) -> str:
    counts = f"{thread.message_count:>3} msg {thread.unseen_count:>3} unseen"
    return f"{_when(thread.last_message_at)}  {counts}  {thread.thread_id}  {_one_line(thread.subject)}"


def _message_line(message: Summary) -> str:
    way = "sent" if message.direction == "sent" else "recv"
    who = _one_line(message.from_ or "(none)")
    return f"{_when(message.received_at)}  {way}  {message.id}  {who}  {_one_line(message.subject)}"


def _client(make: type[Gateway], url: str, token: str | None) -> Gateway:
    import httpx

    try:
        return make(url, token or "")  # "" (not None): never AGENTMAIL_TOKEN behind our back
    except httpx.InvalidURL:
        raise _Refused("the gateway URL (--url or AGENTMAIL_URL) is not a valid URL") from None


def _refused_reader(reader: _Reader, exc: ClientError, tokens: TokenFile, scope: str) -> _Refused:
    """The one line for a token the gateway refused, saying which token it was (never the token itself)."""
    if reader.source == "AGENTMAIL_TOKEN" and exc.status == 403:
        return _Refused(
            f"no identity token for {reader.address} here, and AGENTMAIL_TOKEN may not do this ({exc.detail}):"
            " set AGENTMAIL_IDENTITY_TOKEN, or create the identity with `agentmail-gateway new` on this machine"
            " (same AGENTMAIL_URL and AGENTMAIL_TOKEN)"
        )
    if reader.source == "the token file" and exc.status == 401 and exc.error == "unauthorized":
        # The gateway's own 401: deleted, expired or rotated, that token is dead for good.
        with contextlib.suppress(Exception):
            tokens.remove(scope, reader.address, only=reader.token)
        return _Refused(
            f"the gateway no longer accepts the stored token for {reader.address}"
            " (the identity was deleted, expired, or its token rotated)"
        )
    return _Refused(f"the token for {reader.address} from {reader.source} was refused: {exc.detail}")


def _summary(message: Message) -> str:
    """A few lines for a person reading a CI log: who, what, when, and the code and link found."""
    lines = [
        f"from:     {message.from_ or '(none)'}",
        f"subject:  {message.subject}",
        f"received: {message.received_at.isoformat()}",
        f"id:       {message.id}",
    ]
    if message.codes:
        lines.append(f"code:     {message.codes[0].value}")
    if message.links:
        lines.append(f"link:     {message.links[0].url}")
    return "\n".join(lines)
