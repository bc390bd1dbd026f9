"""The identity tokens agentmail-mcp created, in one 0600 file keyed by gateway, provisioner and address.

The model only ever names an address; the token stays here, so a later tool call (or a later
run of the server) can read that identity's mail and nothing else. The scope of a token is
the gateway URL *and* the provisioner token that made the identity (by a short hash): two
agents configured with different provisioner tokens on one machine never read each other's
identities. Several servers may share the file: every change is read-modify-write under an
exclusive lock, written to a fresh 0600 file and renamed over the old one, so a reader never
sees half a file. The locking and the 0600 check are POSIX; on Windows the file lives in the
user's profile and is locked with msvcrt.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import stat
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Final
from urllib.parse import urlsplit

__all__ = ["FILE_NAME", "TokenFile", "TokenFileError", "gateway_key", "scope_key"]

log = logging.getLogger(__name__)

FILE_NAME: Final = "mcp-tokens.json"
_VERSION: Final = 1
_NOFOLLOW: Final = getattr(os, "O_NOFOLLOW", 0)  # absent on Windows

if sys.platform == "win32":
    import msvcrt

    def _lock(fd: int) -> None:
        msvcrt.locking(fd, msvcrt.LK_LOCK, 1)  # retries for 10 s, then OSError

else:
    import fcntl

    def _lock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_EX)


class TokenFileError(Exception):
    """The token file cannot be read or written (the message never contains a token)."""


def gateway_key(url: str) -> str:
    """The gateway URL as a key: scheme and host lower-cased, default port and trailing slash dropped."""
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    if ":" in host:  # IPv6 literal
        host = f"[{host}]"
    default = {"http": 80, "https": 443}.get(scheme)
    port = "" if parts.port in (None, default) else f":{parts.port}"
    return f"{scheme}://{host}{port}{parts.path.rstrip('/')}"


def scope_key(url: str, provisioner_token: str | None) -> str:
    """Where one server's tokens live in the file: its gateway and (a hash of) its provisioner token."""
    made_by = hashlib.sha256(provisioner_token.encode()).hexdigest()[:16] if provisioner_token else "none"
    return f"{gateway_key(url)} provisioner:{made_by}"


class TokenFile:
    """Identity tokens by (scope, address) in `path`, private to this user (0600, folder 0700).

    A scope is a :func:`scope_key`; the methods name it `gateway`.
    """

    def __init__(self, path: Path) -> None:
        self.path = path

    def get(self, gateway: str, address: str) -> str | None:
        """The stored token, or None when this server did not create that identity."""
        return self._read().get(gateway, {}).get(address.lower())

    def addresses(self, gateway: str) -> set[str]:
        """Addresses with a stored token for `gateway`."""
        return set(self._read().get(gateway, {}))

    def put(self, gateway: str, address: str, token: str) -> None:
        """Store (or replace) the token of `address`."""
        with self._locked() as data:
            data.setdefault(gateway, {})[address.lower()] = token

    def remove(self, gateway: str, address: str, *, only: str | None = None) -> None:
        """Forget `address` (deleted, expired or rotated elsewhere).

        With `only`, forget it only while that is still the stored token: another server may
        have re-created the address (and stored its new token) since `only` was read.
        """
        with self._locked() as data:
            tokens = data.get(gateway, {})
            if only is None or tokens.get(address.lower()) == only:
                tokens.pop(address.lower(), None)
            if not tokens:
                data.pop(gateway, None)

    def _read(self) -> dict[str, dict[str, str]]:
        try:
            fd = os.open(self.path, os.O_RDONLY | _NOFOLLOW)
        except FileNotFoundError:
            return {}
        except OSError as exc:
            raise TokenFileError(f"cannot open the token file {self.path}: {exc.strerror}") from None
        with os.fdopen(fd, "rb") as f:
            self._check_private(os.fstat(f.fileno()))
            raw = f.read()
        return self._decode(raw)

    def _check_private(self, st: os.stat_result) -> None:
        # A file others can read has leaked already; refuse rather than keep adding tokens to it.
        if sys.platform == "win32":  # no POSIX modes: the profile folder's ACL protects it
            return
        if stat.S_IMODE(st.st_mode) & 0o077 or st.st_uid != os.getuid():
            raise TokenFileError(
                f"the token file {self.path} is readable by others or not ours: "
                "rotate the identities it holds, then remove it or chmod 600 it"
            )

    def _decode(self, raw: bytes) -> dict[str, dict[str, str]]:
        try:
            doc = json.loads(raw)
            gateways = doc["gateways"] if doc.get("version") == _VERSION else None
            if not isinstance(gateways, dict) or not all(
                isinstance(t, dict) and all(isinstance(v, str) for v in t.values()) for t in gateways.values()
            ):
                raise ValueError("unexpected layout")
        except (ValueError, AttributeError, KeyError) as exc:
            raise TokenFileError(f"the token file {self.path} is damaged ({type(exc).__name__})") from None
        return gateways

    @contextlib.contextmanager
    def _locked(self) -> Iterator[dict[str, dict[str, str]]]:
        lock = self.path.with_suffix(".lock")
        try:
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            lock_fd = os.open(lock, os.O_RDWR | os.O_CREAT | _NOFOLLOW, 0o600)
        except OSError as exc:  # e.g. a symlink planted as the lock file (ELOOP), a read-only folder
            raise TokenFileError(f"cannot open the lock file {lock}: {exc.strerror}") from None
        try:
            _lock(lock_fd)
            data = self._read()
            yield data
            try:
                self._write(data)
            except OSError as exc:
                raise TokenFileError(f"cannot write the token file {self.path}: {exc.strerror}") from None
        finally:
            os.close(lock_fd)  # closing releases the lock

    def _write(self, data: dict[str, dict[str, str]]) -> None:
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        # Created 0600 from the first byte: never a moment where the tokens are world-readable.
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o600)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump({"version": _VERSION, "gateways": data}, f, indent=1, sort_keys=True)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.path)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()
            raise
