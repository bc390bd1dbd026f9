"""The embedded Maildir's files: private from the first directory to the last message."""

from __future__ import annotations

import stat
from pathlib import Path

from gateway.sources.local import Maildir


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_every_directory_it_makes_is_0700_and_every_message_0600(tmp_path: Path) -> None:
    root = tmp_path / "data" / "maildir"  # neither exists yet
    box = Maildir(root)
    (copy_id,) = box.deliver([(b"Delivered-To: a@d.test\r\n", b"Subject: hi\r\n\r\nbody\r\n")])
    for directory in (tmp_path / "data", root, root / "tmp", root / "new", root / "cur"):
        assert _mode(directory) == 0o700, directory
    assert _mode(root / "new" / copy_id) == 0o600


def test_an_older_readable_maildir_is_made_private(tmp_path: Path) -> None:
    root = tmp_path / "maildir"
    root.mkdir(mode=0o755)
    root.chmod(0o755)  # as earlier releases left it
    Maildir(root)
    assert _mode(root) == 0o700
