"""The token file: private from the first byte, shared safely, keyed by gateway and address."""

from __future__ import annotations

import json
import os
import stat
import threading
from pathlib import Path

import pytest

from mcp_server.tokens import TokenFile, TokenFileError, gateway_key

GW = "http://127.0.0.1:8025"


def test_put_get_remove_round_trip(tmp_path: Path) -> None:
    tokens = TokenFile(tmp_path / "cfg" / "tokens.json")
    assert tokens.get(GW, "a@x.test") is None
    tokens.put(GW, "A@x.test", "tok-a")
    tokens.put(GW, "b@x.test", "tok-b")
    tokens.put("https://other.example", "a@x.test", "tok-other")
    assert tokens.get(GW, "a@X.TEST".lower()) == "tok-a"
    assert tokens.addresses(GW) == {"a@x.test", "b@x.test"}
    tokens.remove(GW, "a@x.test")
    assert tokens.get(GW, "a@x.test") is None
    assert tokens.get("https://other.example", "a@x.test") == "tok-other", "keyed by gateway too"


def test_file_is_0600_and_folder_0700_even_with_a_loose_umask(tmp_path: Path) -> None:
    path = tmp_path / "cfg" / "tokens.json"
    old = os.umask(0)
    try:
        TokenFile(path).put(GW, "a@x.test", "secret")
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert not list(path.parent.glob(".*.tmp")), "no temporary file left behind"


def test_a_file_others_can_read_is_refused_not_extended(tmp_path: Path) -> None:
    path = tmp_path / "tokens.json"
    tokens = TokenFile(path)
    tokens.put(GW, "a@x.test", "secret")
    path.chmod(0o644)
    with pytest.raises(TokenFileError, match="readable by others") as caught:
        tokens.get(GW, "a@x.test")
    assert "secret" not in str(caught.value)
    with pytest.raises(TokenFileError):
        tokens.put(GW, "b@x.test", "more")
    assert "more" not in path.read_text()


@pytest.mark.parametrize(
    "content", [b"", b"{", b"[]", b'{"version": 2, "gateways": {}}', b'{"version": 1, "gateways": {"x": 3}}']
)
def test_a_damaged_file_is_a_clear_error(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "tokens.json"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    os.write(fd, content)
    os.close(fd)
    with pytest.raises(TokenFileError, match="damaged"):
        TokenFile(path).get(GW, "a@x.test")


def test_concurrent_writers_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "tokens.json"

    def write(n: int) -> None:
        own = TokenFile(path)  # separate objects, as separate server processes would have
        for i in range(20):
            own.put(GW, f"w{n}-{i}@x.test", f"t{n}-{i}")

    threads = [threading.Thread(target=write, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    stored = json.loads(path.read_text())["gateways"][GW]
    assert len(stored) == 80


@pytest.mark.parametrize(
    ("url", "key"),
    [
        ("http://127.0.0.1:8025", "http://127.0.0.1:8025"),
        ("http://127.0.0.1:8025/", "http://127.0.0.1:8025"),
        ("HTTPS://Mail.Example.COM:443/", "https://mail.example.com"),
        ("http://mail.example.com:80/gw/", "http://mail.example.com/gw"),
        ("http://[::1]:8025", "http://[::1]:8025"),
    ],
)
def test_gateway_key_names_one_gateway_one_way(url: str, key: str) -> None:
    assert gateway_key(url) == key


def test_remove_only_forgets_the_token_that_failed(tmp_path: Path) -> None:
    tokens = TokenFile(tmp_path / "tokens.json")
    tokens.put(GW, "a@x.test", "new")
    tokens.remove(GW, "A@x.test", only="old")  # a refused token read before the re-creation
    assert tokens.get(GW, "a@x.test") == "new"
    tokens.remove(GW, "a@x.test", only="new")
    assert tokens.get(GW, "a@x.test") is None


def test_a_symlink_planted_as_the_lock_file_is_a_token_file_error(tmp_path: Path) -> None:
    path = tmp_path / "tokens.json"
    target = tmp_path / "elsewhere"
    target.write_text("")
    path.with_suffix(".lock").symlink_to(target)
    with pytest.raises(TokenFileError, match="lock file"):
        TokenFile(path).put(GW, "a@x.test", "secret")
    assert target.read_text() == "" and not path.exists()
