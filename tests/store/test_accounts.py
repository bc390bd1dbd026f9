"""Contract: identities, tokens, quarantine and /ui sessions, on every engine."""

from __future__ import annotations

import asyncio

import pytest

from gateway.errors import Conflict, InvalidInput, InvalidName, NotFound, StoreError, Unauthorized
from gateway.store import Store, new_token
from tests.store.conftest import DOMAIN, QUARANTINE, Clock, StoreFactory

ADMIN = "am_admin-secret-for-the-test-only"


def test_token_format() -> None:
    token = new_token()
    assert token.startswith("am_")
    assert len(token) == 3 + 32  # 24 bytes, base64url, no padding
    assert new_token() != token


async def test_create_get_find_and_delete(store: Store) -> None:
    identity, token = await store.identities.create("alice", ttl_seconds=60, label="ci run")
    assert identity.address == f"alice@{DOMAIN}" and identity.label == "ci run"
    assert identity.expires_ts == identity.created_ts + 60
    assert await store.identities.get("ALICE@D.TEST") == identity
    assert await store.identities.find(f"alice@{DOMAIN}") == identity
    assert await store.identities.find("alice@other.test") is None
    assert (await store.tokens.authenticate(token)).identity == identity
    await store.identities.delete(identity)
    assert await store.identities.find(f"alice@{DOMAIN}") is None
    with pytest.raises(NotFound):
        await store.identities.get(f"alice@{DOMAIN}")
    with pytest.raises(Unauthorized):
        await store.tokens.authenticate(token)


async def test_rotation_kills_old_token(store: Store) -> None:
    identity, old = await store.identities.create("alice")
    new = await store.tokens.rotate(identity)
    assert new != old
    assert (await store.tokens.authenticate(new)).identity == identity
    with pytest.raises(Unauthorized):
        await store.tokens.authenticate(old)
    await store.identities.delete(identity)
    with pytest.raises(NotFound):
        await store.tokens.rotate(identity)


async def test_unknown_token_is_unauthorized(store: Store) -> None:
    with pytest.raises(Unauthorized):
        await store.tokens.authenticate(new_token())


async def test_random_names_are_valid_and_distinct(store: Store) -> None:
    addresses = {(await store.identities.create())[0].address for _ in range(50)}
    assert len(addresses) == 50
    for address in addresses:
        local, domain = address.split("@")
        assert domain == DOMAIN
        assert local.count("-") == 2


@pytest.mark.parametrize(
    "name",
    ["", "-alice", ".alice", "alice.", "al..ice", "a+tag", "Ålice", "a b", "a@b", "x" * 65, "postmaster", "catchall"],
)
async def test_invalid_or_reserved_names(store: Store, name: str) -> None:
    with pytest.raises(InvalidName):
        await store.identities.create(name)


async def test_ttl_must_be_positive(store: Store) -> None:
    with pytest.raises(InvalidInput):
        await store.identities.create("alice", ttl_seconds=0)


async def test_names_are_lowercased_and_unique(store: Store) -> None:
    identity, _ = await store.identities.create("Alice.Smith")
    assert identity.address == f"alice.smith@{DOMAIN}"
    with pytest.raises(Conflict):
        await store.identities.create("ALICE.SMITH")


async def test_two_creations_of_one_name_at_once_never_both_win(store: Store) -> None:
    results = await asyncio.gather(*(store.identities.create("race") for _ in range(8)), return_exceptions=True)
    assert sum(not isinstance(r, BaseException) for r in results) == 1
    assert all(isinstance(r, Conflict) for r in results if isinstance(r, BaseException))


async def test_deleted_name_is_quarantined_until_force_or_time(store: Store, clock: Clock) -> None:
    identity, _ = await store.identities.create("alice")
    await store.identities.delete(identity)
    assert await store.quarantine.until("alice") == clock.now + QUARANTINE
    with pytest.raises(Conflict, match="quarantined"):
        await store.identities.create("alice")
    again, _ = await store.identities.create("alice", force=True)
    assert again.id != identity.id and again.reused is True
    await store.identities.delete(again)
    clock.now += QUARANTINE + 1
    assert await store.quarantine.until("alice") is None
    third, _ = await store.identities.create("alice")
    assert third.address == f"alice@{DOMAIN}" and third.reused is True
    assert (await store.identities.create("fresh"))[0].reused is False


async def test_quarantine_prune_forgets_only_ended_quarantines(store: Store, clock: Clock) -> None:
    for name in ("a", "b"):
        await store.identities.delete((await store.identities.create(name))[0])
        clock.now += QUARANTINE / 2
    assert await store.quarantine.prune() == 1  # a's ended, b's has half left
    assert await store.quarantine.until("a") is None and await store.quarantine.until("b") is not None


async def test_expired_identity_stops_authenticating_and_is_quarantined(store: Store, clock: Clock) -> None:
    identity, token = await store.identities.create("temp", ttl_seconds=60)
    assert (await store.tokens.authenticate(token)).identity == identity
    clock.now += 60
    with pytest.raises(Unauthorized):
        await store.tokens.authenticate(token)
    with pytest.raises(NotFound):
        await store.identities.get(f"temp@{DOMAIN}")
    assert await store.identities.find(f"temp@{DOMAIN}") == identity  # the row, expired
    with pytest.raises(Conflict, match="quarantined"):
        await store.identities.create("temp")
    clock.now += QUARANTINE
    assert (await store.identities.create("temp"))[0].address == f"temp@{DOMAIN}"


async def test_fence_round_trips(store: Store) -> None:
    identity, _ = await store.identities.create("fenced", fence=("gen-1", "0000000042"))
    assert identity.fence == ("gen-1", "0000000042")
    assert (await store.identities.get(f"fenced@{DOMAIN}")).fence == ("gen-1", "0000000042")


async def test_send_scopes_are_stored_and_returned_everywhere(store: Store) -> None:
    default, token = await store.identities.create("plain")
    assert default.send_scope == "local"
    wide, _ = await store.identities.create("wide", send_scope="any")
    mute, _ = await store.identities.create("mute", send_scope="none")
    assert (wide.send_scope, mute.send_scope) == ("any", "none")
    assert (await store.identities.get(f"wide@{DOMAIN}")).send_scope == "any"
    found = await store.identities.find(f"mute@{DOMAIN}")
    assert found is not None and found.send_scope == "none"
    assert {i.local_part: i.send_scope for i in await store.identities.list()} == {
        "mute": "none",
        "plain": "local",
        "wide": "any",
    }
    identity = (await store.tokens.authenticate(token)).identity
    assert identity is not None and identity.send_scope == "local"


async def test_an_unknown_send_scope_is_invalid_input(store: Store) -> None:
    with pytest.raises(InvalidInput, match="send"):
        await store.identities.create("x", send_scope="everyone")
    with pytest.raises(InvalidInput, match="send"):
        await store.tokens.create_provisioner("ci", send="none")  # a provisioner's is local or any
    assert await store.identities.find(f"x@{DOMAIN}") is None


async def test_provisioners_carry_their_send_scope_into_the_principal(store: Store, clock: Clock) -> None:
    narrow, narrow_token = await store.tokens.create_provisioner("ci")
    clock.now += 1  # listed oldest first
    wide, wide_token = await store.tokens.create_provisioner("relay", send="any")
    assert (narrow.send, wide.send) == ("local", "any")
    assert [(t.id, t.send) for t in await store.tokens.list_provisioners()] == [(narrow.id, "local"), (wide.id, "any")]
    assert (await store.tokens.authenticate(narrow_token)).send == "local"
    assert (await store.tokens.authenticate(wide_token)).send == "any"
    await store.tokens.set_admin(ADMIN, origin="configured")
    assert (await store.tokens.authenticate(ADMIN)).send == "any"
    await store.sessions.add("s1", wide_token, keep=5)
    session = await store.sessions.get("s1", max_age=1e9, idle=1e9)
    assert session is not None and (session.kind, session.send) == ("provisioner", "any")


async def test_list_pages_by_address_and_filters_by_creator(store: Store) -> None:
    record, _ = await store.tokens.create_provisioner("ci")
    for name in ("carol", "alice", "bob"):
        await store.identities.create(name, created_by=record.id if name != "bob" else None)
    assert [i.local_part for i in await store.identities.list()] == ["alice", "bob", "carol"]
    assert [i.local_part for i in await store.identities.list(after=f"alice@{DOMAIN}", limit=1)] == ["bob"]
    mine = await store.identities.list(created_by=record.id)
    assert [i.local_part for i in mine] == ["alice", "carol"]


async def test_admin_token(store: Store) -> None:
    assert await store.tokens.admin_origin() is None
    await store.tokens.set_admin(ADMIN, origin="configured")
    assert await store.tokens.admin_origin() == "configured"
    assert (await store.tokens.authenticate(ADMIN)).kind == "admin"
    await store.tokens.set_admin("am_another-admin-secret-0123456", origin="generated")
    assert await store.tokens.admin_origin() == "generated"
    with pytest.raises(Unauthorized):
        await store.tokens.authenticate(ADMIN)


async def test_provisioner_tokens(store: Store, clock: Clock) -> None:
    first, token = await store.tokens.create_provisioner("ci")
    clock.now += 1
    second, _ = await store.tokens.create_provisioner(None)
    assert [t.id for t in await store.tokens.list_provisioners()] == [first.id, second.id]
    principal = await store.tokens.authenticate(token)
    assert (principal.kind, principal.token_id) == ("provisioner", first.id)
    await store.tokens.delete_provisioner(first.id)
    with pytest.raises(Unauthorized):
        await store.tokens.authenticate(token)
    with pytest.raises(NotFound):
        await store.tokens.delete_provisioner(first.id)
    assert [t.id for t in await store.tokens.list_provisioners()] == [second.id]


async def test_the_store_survives_a_reopen(open_store: object, store: Store) -> None:
    identity, token = await store.identities.create("alice")
    await store.engine.close()
    again = await open_store()  # type: ignore[operator]
    assert (await again.tokens.authenticate(token)).identity == identity
    assert await again.engine.ping()


# --- /ui sessions ---------------------------------------------------------------------

MAX_AGE, IDLE = 1000.0, 100.0


async def test_ui_session_stands_for_its_token_until_its_age_or_idle_limit(store: Store, clock: Clock) -> None:
    identity, token = await store.identities.create("alice")
    await store.sessions.add("h1", token, keep=32)
    await store.tokens.set_admin(ADMIN, origin="configured")
    await store.sessions.add("h2", ADMIN, keep=32)
    principal = await store.sessions.get("h1", max_age=MAX_AGE, idle=IDLE)
    assert principal is not None and principal.kind == "identity" and principal.identity == identity
    assert await store.sessions.get("h2", max_age=MAX_AGE, idle=IDLE) == await store.tokens.authenticate(ADMIN)
    assert await store.sessions.get("unknown", max_age=MAX_AGE, idle=IDLE) is None
    for _ in range(10):  # each use (written at most once a minute) moves the idle limit on...
        clock.now += IDLE - 1
        assert await store.sessions.get("h1", max_age=MAX_AGE, idle=IDLE) is not None
    clock.now += MAX_AGE - 10 * (IDLE - 1)  # ...but never the age limit
    assert await store.sessions.get("h1", max_age=MAX_AGE, idle=IDLE) is None
    assert await store.sessions.get("h2", max_age=MAX_AGE, idle=IDLE) is None
    assert await store.sessions.get("h1", max_age=1e9, idle=1e9) is None  # a dead session is gone for good


async def test_ui_sessions_die_with_their_token(store: Store, clock: Clock) -> None:
    alice, alice_token = await store.identities.create("alice")
    bob, bob_token = await store.identities.create("bob")
    _, carol_token = await store.identities.create("carol", ttl_seconds=50)
    await store.tokens.set_admin(ADMIN, origin="configured")
    for name, token in [("alice", alice_token), ("bob", bob_token), ("carol", carol_token), ("admin", ADMIN)]:
        await store.sessions.add(name, token, keep=32)

    async def alive(name: str) -> bool:
        return await store.sessions.get(name, max_age=MAX_AGE, idle=IDLE) is not None

    new_alice = await store.tokens.rotate(alice)
    await store.identities.delete(bob)
    assert not await alive("alice") and not await alive("bob")
    assert await alive("carol") and await alive("admin")
    clock.now += 50
    assert not await alive("carol")  # its identity expired
    await store.tokens.set_admin(ADMIN, origin="configured")  # a restart: same token
    assert await alive("admin")
    await store.tokens.set_admin("am_another-admin-secret-0123456", origin="configured")
    assert not await alive("admin")
    await store.sessions.add("alice-again", new_alice, keep=32)
    assert await alive("alice-again")


async def test_prune_removes_every_ui_session_that_can_no_longer_be_used(store: Store, clock: Clock) -> None:
    _, token = await store.identities.create("alice")
    await store.sessions.add("old", token, keep=32)
    clock.now += IDLE / 2
    await store.sessions.add("fresh", token, keep=32)
    await store.sessions.add("orphan", "am_a-token-that-was-never-issued", keep=32)
    clock.now += IDLE / 2
    assert await store.sessions.prune(max_age=MAX_AGE, idle=IDLE) == 2
    assert await store.sessions.get("fresh", max_age=MAX_AGE, idle=IDLE) is not None
    await store.sessions.delete("fresh")
    assert await store.sessions.get("fresh", max_age=MAX_AGE, idle=IDLE) is None
    await store.sessions.delete("fresh")  # already gone: nothing happens


async def test_a_token_keeps_at_most_keep_sessions_the_least_recently_used_end_first(
    store: Store, clock: Clock
) -> None:
    _, token = await store.identities.create("alice")
    _, other = await store.identities.create("bob")
    await store.sessions.add("bob", other, keep=1)
    for i in range(4):
        clock.now += 1
        await store.sessions.add(f"s{i}", token, keep=2)

    async def alive() -> list[str]:
        names = ["bob", "s0", "s1", "s2", "s3", "s4"]
        return [n for n in names if await store.sessions.get(n, max_age=MAX_AGE, idle=IDLE) is not None]

    assert await alive() == ["bob", "s2", "s3"]  # another token's session is not counted
    clock.now += 61  # s2 used again (a use is written once a minute): s3 is now the idler one
    assert await store.sessions.get("s2", max_age=MAX_AGE, idle=IDLE) is not None
    await store.sessions.add("s4", token, keep=2)
    assert await alive() == ["bob", "s2", "s4"]


# --- what a store is bound to, and when one may be made -----------------------------------


async def test_a_store_is_bound_to_the_domain_it_first_started_with(open_store: StoreFactory) -> None:
    store = await open_store()
    assert store.engine.domain == DOMAIN and store.engine.store_id
    store_id = store.engine.store_id
    await store.engine.close()
    with pytest.raises(StoreError, match=f"belongs to the domain {DOMAIN}.*AGENTMAIL_DOMAIN is other.test"):
        await open_store(domain="other.test")
    adopted = await open_store(domain="other.test", adopt_domain=True)  # the CLI without --domain: reads it
    assert adopted.engine.domain == DOMAIN and adopted.engine.store_id == store_id
    assert not adopted.engine.created


async def test_a_missing_store_is_made_only_when_allowed(open_store: StoreFactory) -> None:
    asked: list[str] = []

    def refuse(where: str) -> None:
        asked.append(where)
        raise StoreError(f"no store {where}")

    with pytest.raises(StoreError, match="no store"):
        await open_store(may_create=refuse)
    store = await open_store()  # the refusal made nothing: this start makes the store
    assert store.engine.created and len(asked) == 1
    await store.engine.close()
    again = await open_store(may_create=refuse)  # an existing store is never asked about
    assert not again.engine.created and len(asked) == 1
