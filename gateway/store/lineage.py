"""Whether an identity store existed here before: a lost store is never silently replaced by an empty one.

Identities, tokens, quarantines and marks live only in the durable store; the mailbox and the
index outlive it. When the store is missing but something it leaves behind is still there, a
new empty store would hand every old name to the first caller and kill every token, so start-up
refuses instead and names the one command that starts a new store on purpose
(`agentmail-gateway store init --new`).

What a store leaves behind, looked for before one is created:

- `maildir/.agentmail-store`: written into the embedded Maildir (the mailbox side) once the
  gateway runs with a store; it holds the store's id. Mail in the Maildir counts too (a data
  directory from before this marker).
- `index.db` beside a SQLite store: the engine creates it together with the store.
- `identities.db-wal`: a SQLite store's write-ahead log outliving its file.
- `admin-token`: written only once a store holds its hash.

The IMAP source's mailbox is Dovecot's and older than any gateway: mail there proves nothing.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from gateway.errors import StoreError
from gateway.fsutil import write_private_file

__all__ = ["MAILBOX_MARKER", "NEW_STORE_COMMAND", "Binding", "StoreTraces", "mark_mailbox"]

MAILBOX_MARKER: Final = ".agentmail-store"
"""In the Maildir's root: a file, which Maildir readers ignore (folders are directories)."""
NEW_STORE_COMMAND: Final = "agentmail-gateway store init --new"


@dataclass(frozen=True, slots=True)
class Binding:
    """What a store is opened for: its domain, and what may happen when there is no store yet."""

    domain: str
    """Checked against (or, the first time, written to) the store's meta."""
    adopt_domain: bool = False
    """Read the store's own domain instead of checking ours (the CLI without --domain); binds nothing."""
    may_create: Callable[[str], None] | None = None
    """Called with the store's path before a new store is made; raises StoreError to refuse."""


class StoreTraces:
    """What in one data directory shows that a store existed; `refuse` raises when anything does."""

    def __init__(self, data_dir: Path, *, maildir: Path | None, sqlite: bool, admin_token_file: Path | None) -> None:
        self.data_dir = data_dir
        self.maildir = maildir
        self.sqlite = sqlite
        self.admin_token_file = admin_token_file
        """Where a generated admin token would be; None when the operator's own file is there."""

    def found(self) -> list[str]:
        """Each trace present, as a phrase for the refusal; empty when this is a first start."""
        traces = []
        if self.maildir is not None:
            if (self.maildir / MAILBOX_MARKER).exists():
                traces.append(f"the Maildir {self.maildir} carries a store's mark ({MAILBOX_MARKER})")
            elif _holds_mail(self.maildir):
                traces.append(f"the Maildir {self.maildir} holds mail")
        if self.sqlite:
            for name, what in (("index.db", "its message index"), ("identities.db-wal", "its write-ahead log")):
                if (self.data_dir / name).exists():
                    traces.append(f"{what} {self.data_dir / name} is still there")
        if self.admin_token_file is not None and self.admin_token_file.exists():
            traces.append(f"the admin token {self.admin_token_file} was generated for it")
        return traces

    def refuse(self, where: str) -> None:
        """StoreError naming the traces and the command, when the store at `where` existed before."""
        traces = self.found()
        if traces:
            raise StoreError(
                f"the identity store {where} is missing, but one existed: {'; '.join(traces)}."
                " Starting with an empty store would lose every identity and token and free every old"
                " name at once, so the gateway refuses. Put the store back (from a backup), or run"
                f" `{NEW_STORE_COMMAND}` to start a new, empty store on purpose"
            )


def _holds_mail(maildir: Path) -> bool:
    """Whether new/ or cur/ holds any entry; stops at the first (a big Maildir costs one read)."""
    for sub in ("new", "cur"):
        try:
            with os.scandir(maildir / sub) as entries:
                if any(not e.name.startswith(".") for e in entries):
                    return True
        except (FileNotFoundError, NotADirectoryError):
            continue
    return False


def mark_mailbox(maildir: Path, store_id: str) -> None:
    """Record in the Maildir that it belongs to the store `store_id` (0600; rewritten only when it differs)."""
    marker = maildir / MAILBOX_MARKER
    try:
        if marker.read_text().strip() == store_id:
            return
    except FileNotFoundError:
        pass
    write_private_file(marker, (store_id + "\n").encode())
