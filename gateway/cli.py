"""Command line: `serve`, `identity create|list|rotate|delete`, `token create`, `admin rotate`, `store init`.

The only module that reads argv and the process environment, and the only one that exits.
Identity commands work on the local data directory directly (safe while the gateway runs:
the store is SQLite in WAL mode). Without a configured domain they use the one the store is
bound to. `store init --new` is the one way to start an empty store where one existed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import json
import logging
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gateway import __version__
from gateway.config import SettingError, Settings, describe, env_name, is_secret, load_settings
from gateway.errors import GatewayError
from gateway.redact import install_redaction

if TYPE_CHECKING:  # the store is imported only by the commands that use it (fast --help)
    from gateway.store import Identity, Store

__all__ = ["main"]

log = logging.getLogger("gateway")


def _settings_flags() -> argparse.ArgumentParser:
    """One --flag per setting (same name as the variable, without the prefix)."""
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
    )

    identity = commands.add_parser("identity", help="manage identities").add_subparsers(dest="action", required=True)
    create = identity.add_parser(
        "create", parents=[common], allow_abbrev=False, help="create an identity; prints its token once"
    )
    create.add_argument("local_part", nargs="?", help="the name before @ (random when omitted)")
    create.add_argument("--ttl", type=int, dest="ttl_seconds", help="lifetime in seconds")
    create.add_argument("--label", help="a note for yourself")
    create.add_argument("--force", action="store_true", help="re-create a quarantined name")
    identity.add_parser("list", parents=[common], allow_abbrev=False, help="list identities (never tokens)")
    for action, text in (("rotate", "issue a new token; the old one dies at once"), ("delete", "delete an identity")):
        sub = identity.add_parser(action, parents=[common], allow_abbrev=False, help=text)
        sub.add_argument("address")

    token = commands.add_parser("token", help="provisioner tokens").add_subparsers(dest="action", required=True)
    tcreate = token.add_parser(
        "create", parents=[common], help="a provisioner token (creates identities, reads no mail)"
    )
    tcreate.add_argument("--label")

    admin = commands.add_parser("admin", help="the admin token").add_subparsers(dest="action", required=True)
    admin.add_parser("rotate", parents=[common], allow_abbrev=False, help="replace the generated admin token")

    store = commands.add_parser("store", help="the identity store").add_subparsers(dest="action", required=True)
    init = store.add_parser(
        "init",
        parents=[common],
        allow_abbrev=False,
        help="make a new, empty identity store (never replaces one); the gateway refuses to start without it"
        " when an earlier store was lost",
    )
    init.add_argument(
        "--new",
        action="store_true",
        help="a store existed here and is lost: start an empty one anyway (every identity and token is gone)",
    )
    return parser


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
    if args.command == "mcp":  # an MCP client of some gateway: none of the gateway's settings apply
        from mcp_server.__main__ import main as mcp_main

        mcp_main()
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
    import uvicorn

    from gateway.app import create_app
    from gateway.serve import uvicorn_config

    if settings.store_kind == "postgresql":
        # uvicorn would report a database that refuses us as a traceback and exit 0: ask it
        # first, so the answer is one line and status 2, before anything listens.
        asyncio.run(_check_store(settings))
    app = create_app(settings)
    print(
        f"agentmail-gateway {__version__}: API on http://{settings.http_host}:{settings.http_port}"
        f"  SMTP on {settings.smtp_host}:{settings.smtp_port}  domain {settings.domain}"
        f"  data {settings.data_dir}",
        file=sys.stderr,
        flush=True,
    )
    config = uvicorn_config(app, settings, _secret_values(settings))
    # uvicorn handles Ctrl-C / SIGTERM: stops accepting, runs the lifespan shutdown, then
    # re-raises the signal so the process ends the way it was asked to.
    server = uvicorn.Server(config)
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
        out: Any
        if args.command == "admin":
            path = await rotate_admin_token(settings, store.tokens)
            print(f"new admin token written to {path}")
            return 0
        if args.command == "token":
            record, token = await store.tokens.create_provisioner(args.label)
            out = {"id": record.id, "scope": "provision", "token": token}
        elif args.action == "create":
            identity, token = await store.identities.create(
                args.local_part, ttl_seconds=args.ttl_seconds, label=args.label, force=args.force
            )
            out = {"address": identity.address, "token": token, "created_at": identity.created_at.isoformat()}
        elif args.action == "list":
            for identity in await _all_identities(store):
                expires = identity.expires_at.isoformat() if identity.expires_at else "-"
                created = f"{identity.created_at:%Y-%m-%dT%H:%M:%SZ}"
                print(f"{identity.address}\tcreated {created}\texpires {expires}\t{identity.label or ''}")
            return 0
        else:
            found = await store.identities.find(args.address)
            if found is None:
                print(f"agentmail-gateway: no identity {args.address}", file=sys.stderr)
                return 1
            if args.action == "rotate":
                out = {"address": found.address, "token": await store.tokens.rotate(found)}
            else:
                await store.identities.delete(found)
                out = {"deleted": found.address}
        print(json.dumps(out))
        return 0
    finally:
        await store.engine.close()


async def _all_identities(store: Store) -> list[Identity]:
    rows: list[Identity] = []
    after = None
    while True:
        page = await store.identities.list(after=after, limit=500)
        rows += page
        if len(page) < 500:
            return rows
        after = page[-1].address
