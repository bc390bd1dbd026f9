"""The admin token: configured (env or file), or generated once at first start.

A generated token is written once to `<data>/admin-token` (0600) and only its path is
logged; the store keeps only its hash. A store without an admin token never overwrites that
file: a new store (`store init --new`) takes the token it holds.
"""

from __future__ import annotations

import logging
from pathlib import Path

from gateway.config import SettingError, Settings
from gateway.fsutil import write_private_file
from gateway.store import Tokens, new_token
from gateway.store.models import MAX_TOKEN_CHARS

__all__ = ["ADMIN_TOKEN_FILE", "configured_admin_token", "ensure_admin_token", "rotate_admin_token"]

log = logging.getLogger(__name__)

ADMIN_TOKEN_FILE = "admin-token"  # noqa: S105 - a file name, not a secret


def configured_admin_token(settings: Settings) -> str | None:
    """The operator's admin token from AGENTMAIL_ADMIN_TOKEN or _FILE, or None."""
    if settings.admin_token is not None:
        token = settings.admin_token.reveal().strip()
    elif settings.admin_token_file is not None:
        try:
            token = settings.admin_token_file.read_text().strip()
        except OSError as exc:
            raise SettingError(
                f"AGENTMAIL_ADMIN_TOKEN_FILE={str(settings.admin_token_file)!r}: cannot read it ({exc.strerror})"
            ) from None
    else:
        return None
    if not 16 <= len(token) <= MAX_TOKEN_CHARS:
        raise SettingError(f"the configured admin token must be 16 to {MAX_TOKEN_CHARS} characters long")
    return token


async def ensure_admin_token(settings: Settings, tokens: Tokens) -> Path | None:
    """Make the store's admin token match the settings; returns the file a new one went to."""
    configured = configured_admin_token(settings)
    if configured is not None:
        await tokens.set_admin(configured, origin="configured")
        return None
    origin = await tokens.admin_origin()
    if origin == "generated":
        return None
    path = settings.data_dir / ADMIN_TOKEN_FILE
    if origin is None and path.exists():
        # A store made after the one this file was generated for: the file is the operator's
        # only copy of a token they may have handed out. Keep it, never overwrite it.
        await tokens.set_admin(_read_token_file(path), origin="generated")
        log.warning("the new store takes the admin token in %s", path)
        return None
    # None stored, or the operator removed the configured one (after a leak, say): that
    # token must stop working, so a new one is generated.
    return await rotate_admin_token(settings, tokens)


def _read_token_file(path: Path) -> str:
    try:
        token = path.read_text().strip()
    except (OSError, UnicodeDecodeError) as exc:
        raise SettingError(f"the admin token file {path} cannot be read ({exc}); move it aside") from None
    if not 16 <= len(token) <= MAX_TOKEN_CHARS:
        raise SettingError(f"the admin token file {path} holds no admin token; move it aside")
    return token


async def rotate_admin_token(settings: Settings, tokens: Tokens) -> Path:
    """Replace the generated admin token; the new one is written to `<data>/admin-token`."""
    if configured_admin_token(settings) is not None:
        raise SettingError("the admin token is configured (AGENTMAIL_ADMIN_TOKEN or _FILE): change it there")
    token = new_token()
    path = settings.data_dir / ADMIN_TOKEN_FILE
    write_private_file(path, (token + "\n").encode())
    await tokens.set_admin(token, origin="generated")
    log.info("admin token written to %s (mode 0600)", path)
    return path
