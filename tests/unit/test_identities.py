"""The durable store: tokens hashed, names quarantined, fails closed."""

from __future__ import annotations

import hmac
import sqlite3
import stat
from collections.abc import Sequence
from pathlib import Path

import pytest

from gateway.errors import Conflict, InvalidName, NotFound, StoreError, Unauthorized
from gateway.identities import IdentityStore, hash_token, new_token


class Clock:
    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def store_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "identities.db"


@pytest.fixture
def store(store_path: Path, clock: Clock) -> IdentityStore:
    s = IdentityStore.open(store_path, domain="d.test", reserved={"catchall"}, quarantine_seconds=3600, clock=clock)
    yield s
    s.close()


def test_token_format() -> None:
    token = new_token()
    assert token.startswith("am_")
    assert len(token) == 3 + 32  # 24 bytes, base64url, no padding
    assert new_token() != token


def test_plaintext_token_never_stored(store: IdentityStore, store_path: Path) -> None:
    _, token = store.create_identity("alice")
    _, api = store.create_api_token("ci")
    store.set_admin_token("am_admin-secret-for-the-test-only", origin="configured")
    store.close()
    for suffix in ("", "-wal"):
        path = Path(f"{store_path}{suffix}")
        if path.exists():
            data = path.read_bytes()
            assert token.encode() not in data
            assert api.encode() not in data
            assert b"am_admin-secret" not in data
    # ...while its hash is what is stored.
    conn = sqlite3.connect(store_path)
    hashes = {r[0] for r in conn.execute("SELECT hash FROM tokens")}
    conn.close()
    assert hash_token(token) in hashes


def test_authenticate_uses_constant_time_compare(store: IdentityStore, monkeypatch: pytest.MonkeyPatch) -> None:
    _, token = store.create_identity("alice")
    calls: list[tuple[str, str]] = []
    real = hmac.compare_digest

    def spy(a: str, b: str) -> bool:
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr("gateway.identities.hmac.compare_digest", spy)
    principal = store.authenticate(token)
    assert principal.kind == "identity"
    assert calls == [(hash_token(token), hash_token(token))]


def test_rotation_kills_old_token(store: IdentityStore) -> None:
    identity, old = store.create_identity("alice")
    new = store.rotate(identity)
    assert new != old
    assert store.authenticate(new).identity == identity
    with pytest.raises(Unauthorized):
        store.authenticate(old)


def test_unknown_token_is_unauthorized(store: IdentityStore) -> None:
    with pytest.raises(Unauthorized):
        store.authenticate(new_token())


def test_random_names_are_valid_and_distinct(store: IdentityStore) -> None:
    addresses = {store.create_identity()[0].address for _ in range(50)}
    assert len(addresses) == 50
    for address in addresses:
        local, domain = address.split("@")
        assert domain == "d.test"
        assert local.count("-") == 2


@pytest.mark.parametrize(
    "name",
    [
        "",
        "-alice",
        ".alice",
        "alice.",
        "al..ice",
        "a+tag",
        "Ålice",
        "a b",
        "a@b",
        "x" * 65,
        "postmaster",
        "abuse",
        "root",
        "mailer-daemon",
        "catchall",
    ],
)
def test_invalid_or_reserved_names(store: IdentityStore, name: str) -> None:
    with pytest.raises(InvalidName):
        store.create_identity(name)


def test_names_are_lowercased(store: IdentityStore) -> None:
    identity, _ = store.create_identity("Alice.Smith")
    assert identity.address == "alice.smith@d.test"
    with pytest.raises(Conflict):
        store.create_identity("ALICE.SMITH")


def test_deleted_name_is_quarantined_until_force_or_time(store: IdentityStore, clock: Clock) -> None:
    identity, _ = store.create_identity("alice")
    store.delete_identity(identity)
    with pytest.raises(Conflict, match="quarantined"):
        store.create_identity("alice")
    again, _ = store.create_identity("alice", force=True)
    assert again.id != identity.id
    assert again.created_ts >= identity.created_ts
    store.delete_identity(again)
    clock.now += 3601
    assert store.create_identity("alice")[0].address == "alice@d.test"


def test_expired_identity_stops_authenticating_and_is_quarantined(store: IdentityStore, clock: Clock) -> None:
    identity, token = store.create_identity("temp", ttl_seconds=60)
    assert store.authenticate(token).identity == identity
    clock.now += 60
    with pytest.raises(Unauthorized):
        store.authenticate(token)
    with pytest.raises(NotFound):
        store.get_identity("temp@d.test")
    with pytest.raises(Conflict, match="quarantined"):
        store.create_identity("temp")
    clock.now += 3600
    assert store.create_identity("temp")[0].address == "temp@d.test"


def test_provisioner_token_and_revocation(store: IdentityStore) -> None:
    record, token = store.create_api_token("ci")
    principal = store.authenticate(token)
    assert (principal.kind, principal.token_id) == ("provisioner", record.id)
    store.delete_api_token(record.id)
    with pytest.raises(Unauthorized):
        store.authenticate(token)


def test_marks_are_per_identity_and_die_with_it(store: IdentityStore) -> None:
    a, _ = store.create_identity("a")
    b, _ = store.create_identity("b")
    store.set_seen(a, "m1", True)
    store.set_deleted(a, "m2")
    assert store.marks(a).seen == {"m1"} and store.marks(a).deleted == {"m2"}
    assert store.marks(b).seen == frozenset()
    store.delete_identity(a)
    again, _ = store.create_identity("a", force=True)
    assert store.marks(again).seen == frozenset() and store.marks(again).deleted == frozenset()


def test_store_file_and_dir_permissions(store: IdentityStore, store_path: Path) -> None:
    assert stat.S_IMODE(store_path.stat().st_mode) == 0o600
    assert stat.S_IMODE(store_path.parent.stat().st_mode) == 0o700


def test_corrupt_store_fails_closed(store_path: Path) -> None:
    store_path.parent.mkdir(parents=True)
    store_path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError, match="refusing to start"):
        IdentityStore.open(store_path, domain="d.test")
    # ...and the file is left as it was, never replaced by an empty store.
    assert store_path.read_bytes().startswith(b"this is not a database")


def test_empty_store_file_fails_closed(store_path: Path) -> None:
    # A store is created complete and renamed into place, so an empty file means truncation.
    store_path.parent.mkdir(parents=True)
    store_path.touch()
    with pytest.raises(StoreError, match="empty"):
        IdentityStore.open(store_path, domain="d.test")
    assert store_path.read_bytes() == b""


def test_new_store_leaves_no_temporary_file(store_path: Path) -> None:
    IdentityStore.open(store_path, domain="d.test").close()
    assert sorted(p.name for p in store_path.parent.iterdir() if not p.name.startswith("identities.db")) == []


def test_foreign_database_fails_closed(store_path: Path) -> None:
    store_path.parent.mkdir(parents=True)
    conn = sqlite3.connect(store_path)
    conn.execute("CREATE TABLE other (x)")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError):
        IdentityStore.open(store_path, domain="d.test")


def test_unreadable_store_fails_closed(store_path: Path, clock: Clock) -> None:
    store_path.parent.mkdir(parents=True)
    store_path.mkdir()  # a directory where the file should be: unreadable as a database
    with pytest.raises(StoreError):
        IdentityStore.open(store_path, domain="d.test")


def test_version_1_store_upgrades_marks_to_message_keys(store_path: Path) -> None:
    store = IdentityStore.open(store_path, domain="d.test")
    a, _ = store.create_identity("a")
    # Write marks as a version 1 store kept them: by mailbox copy id.
    store.set_seen(a, "copy-1", True)
    store.set_deleted(a, "copy-2")
    store.set_seen(a, "copy-3", True)  # a second copy of the message of copy-1
    store.set_seen(a, "gone", True)  # its mail left the mailbox: nothing to map it to
    store.close()
    conn = sqlite3.connect(store_path)
    for column in ("reused", "fence_generation", "fence_id"):  # what version 1 did not have
        conn.execute(f"ALTER TABLE identities DROP COLUMN {column}")
    conn.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()

    keys = {"copy-1": "key-A", "copy-2": "key-B", "copy-3": "key-A"}
    asked: list[str] = []

    def message_keys(ids: Sequence[str]) -> dict[str, str]:
        asked.extend(ids)
        return {i: keys[i] for i in ids if i in keys}

    upgraded = IdentityStore.open(store_path, domain="d.test", message_keys=message_keys)
    a = upgraded.get_identity("a@d.test")
    assert upgraded.marks(a).seen == {"key-A"} and upgraded.marks(a).deleted == {"key-B"}
    assert a.reused is False
    assert sorted(asked) == ["copy-1", "copy-2", "copy-3", "gone"]
    upgraded.close()
    # Upgraded once: opening again asks nothing and keeps the marks.
    again = IdentityStore.open(store_path, domain="d.test", message_keys=lambda ids: pytest.fail("asked again"))
    assert again.marks(again.get_identity("a@d.test")).seen == {"key-A"}
    again.close()


def test_a_name_with_an_earlier_owner_is_marked_reused(store: IdentityStore, clock: Clock) -> None:
    first, _ = store.create_identity("demo")
    assert first.reused is False
    store.delete_identity(first)
    with pytest.raises(Conflict):
        store.create_identity("demo")
    again, _ = store.create_identity("demo", force=True)
    assert again.reused is True and store.get_identity("demo@d.test").reused is True
    # A name whose quarantine ran out had an earlier owner too.
    store.delete_identity(again)
    clock.now += 8 * 86400
    third, _ = store.create_identity("demo")
    assert third.reused is True
    assert store.create_identity("fresh")[0].reused is False


# --- /ui sessions ---------------------------------------------------------------------

MAX_AGE, IDLE = 1000.0, 100.0


def _ui_session_rows(store_path: Path) -> int:
    conn = sqlite3.connect(store_path)
    try:
        return int(conn.execute("SELECT count(*) FROM ui_sessions").fetchone()[0])
    finally:
        conn.close()


def test_ui_session_stands_for_its_token_until_its_age_or_idle_limit(store: IdentityStore, clock: Clock) -> None:
    identity, token = store.create_identity("alice")
    store.add_ui_session("h1", token)
    store.set_admin_token("am_admin-secret-for-the-test-only", origin="configured")
    store.add_ui_session("h2", "am_admin-secret-for-the-test-only")
    principal = store.ui_session("h1", max_age=MAX_AGE, idle=IDLE)
    assert principal is not None and principal.kind == "identity" and principal.identity == identity
    assert store.ui_session("h2", max_age=MAX_AGE, idle=IDLE) == store.authenticate("am_admin-secret-for-the-test-only")
    assert store.ui_session("unknown", max_age=MAX_AGE, idle=IDLE) is None
    # Idle: each use (written at most once a minute) moves the idle limit on...
    for _ in range(10):
        clock.now += IDLE - 1
        assert store.ui_session("h1", max_age=MAX_AGE, idle=IDLE) is not None
    # ...but never the age limit: 990 s old is alive, 1000 s is over.
    clock.now += MAX_AGE - 10 * (IDLE - 1)
    assert store.ui_session("h1", max_age=MAX_AGE, idle=IDLE) is None
    assert store.ui_session("h2", max_age=MAX_AGE, idle=IDLE) is None  # unused for 1000 s
    assert store.ui_session("h1", max_age=1e9, idle=1e9) is None  # a dead session is gone for good


def test_ui_sessions_die_with_their_token(store: IdentityStore, clock: Clock, store_path: Path) -> None:
    alice, alice_token = store.create_identity("alice")
    bob, bob_token = store.create_identity("bob")
    _, carol_token = store.create_identity("carol", ttl_seconds=50)
    store.set_admin_token("am_admin-secret-for-the-test-only", origin="configured")
    for name, token in [("alice", alice_token), ("bob", bob_token), ("carol", carol_token)]:
        store.add_ui_session(name, token)
    store.add_ui_session("admin", "am_admin-secret-for-the-test-only")

    def alive(name: str) -> bool:
        return store.ui_session(name, max_age=MAX_AGE, idle=IDLE) is not None

    new_alice = store.rotate(alice)
    store.delete_identity(bob)
    assert _ui_session_rows(store_path) == 2  # alice's and bob's rows went with their tokens
    assert not alive("alice") and not alive("bob") and alive("carol") and alive("admin")
    clock.now += 50
    assert not alive("carol")  # its identity expired
    store.set_admin_token("am_admin-secret-for-the-test-only", origin="configured")  # a restart: same token
    assert alive("admin")
    store.set_admin_token("am_another-admin-secret-0123456", origin="configured")
    assert not alive("admin")
    store.add_ui_session("alice-again", new_alice)
    assert alive("alice-again")


def test_prune_removes_every_ui_session_that_can_no_longer_be_used(
    store: IdentityStore, clock: Clock, store_path: Path
) -> None:
    _, token = store.create_identity("alice")
    store.add_ui_session("old", token)
    clock.now += IDLE / 2
    store.add_ui_session("fresh", token)
    store.add_ui_session("orphan", "am_a-token-that-was-never-issued")
    clock.now += IDLE / 2
    assert store.prune_ui_sessions(max_age=MAX_AGE, idle=IDLE) == 2
    assert _ui_session_rows(store_path) == 1 and store.ui_session("fresh", max_age=MAX_AGE, idle=IDLE) is not None
    store.delete_ui_session("fresh")
    assert store.ui_session("fresh", max_age=MAX_AGE, idle=IDLE) is None
    store.delete_ui_session("fresh")  # already gone: nothing happens


def test_a_token_keeps_at_most_keep_ui_sessions_the_least_recently_used_end_first(
    store: IdentityStore, clock: Clock
) -> None:
    _, token = store.create_identity("alice")
    _, other = store.create_identity("bob")
    store.add_ui_session("bob", other, keep=1)
    for i in range(4):
        clock.now += 1
        store.add_ui_session(f"s{i}", token, keep=2)

    def alive() -> list[str]:
        names = ["bob", "s0", "s1", "s2", "s3", "s4"]
        return [n for n in names if store.ui_session(n, max_age=MAX_AGE, idle=IDLE) is not None]

    assert alive() == ["bob", "s2", "s3"]  # another token's session is not counted
    clock.now += 61  # s2 used again (a use is written once a minute): s3 is now the idler one
    assert store.ui_session("s2", max_age=MAX_AGE, idle=IDLE) is not None
    store.add_ui_session("s4", token, keep=2)
    assert alive() == ["bob", "s2", "s4"]


def test_version_2_store_upgrades_with_a_session_table(store_path: Path) -> None:
    store = IdentityStore.open(store_path, domain="d.test")
    a, token = store.create_identity("a")
    store.set_seen(a, "key-A", True)
    store.close()
    conn = sqlite3.connect(store_path)
    conn.execute("DROP TABLE ui_sessions")  # what version 2 did not have
    conn.execute("UPDATE meta SET value = '2' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()

    upgraded = IdentityStore.open(store_path, domain="d.test")
    a = upgraded.get_identity("a@d.test")
    assert upgraded.marks(a).seen == {"key-A"} and upgraded.authenticate(token).identity == a
    upgraded.add_ui_session("h", token)
    assert upgraded.ui_session("h", max_age=60, idle=60) is not None
    upgraded.close()
    conn = sqlite3.connect(store_path)
    assert conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() == ("3",)
    conn.close()
    assert not store_path.with_name(f"{store_path.name}.v1.bak").exists()  # an added table needs no backup
