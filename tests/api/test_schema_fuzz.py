"""Schemathesis over every route of `/schema`, as every kind of caller: no 5xx, nothing the document denies.

A real gateway (uvicorn on loopback) is fuzzed through real HTTP by schemathesis, from the
OpenAPI document it serves, with no token, a wrong token, another identity's token, and the
right ones (admin, provisioner, identity) on real paths. Each response must be no server
error, have a documented status and content type, match the documented body schema (errors
included: `{error, detail}`), and a request schemathesis made invalid on purpose must be
refused with a 4xx. Examples are bounded and derandomized: the same requests every run.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Final

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import (
    content_type_conformance,
    negative_data_rejection,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from schemathesis.core.failures import FailureGroup

from tests.conftest import ADMIN_TOKEN, RunningGateway, make_message

pytestmark = pytest.mark.timeout(300)  # bounded by its example counts; ~30 s on a quiet machine


@pytest.fixture
def source() -> str:
    """The embedded source only: what is fuzzed is the HTTP API, the same over either source."""
    return "local"


CHECKS: Final = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    response_headers_conformance,
    negative_data_rejection,
]
"""Not `positive_data_acceptance`: data valid by the schema is still refused by the rules the
schema cannot say (an unknown id is 404, a taken name 409); every such status is documented.
Not `ignored_auth`: its probes with a spoiled token meet the bad-token throttle (429, which it
does not count as a refusal), and it takes the token set here for one it generated itself;
the callers with no token and a wrong token do what it would, on every operation."""

WRONG_TOKEN: Final = "am_wrong-token-000000000000000000000"
WAIT_SECONDS: Final = 0.05  # a wait on a real identity with nothing unseen must not block the run
STREAM_SECONDS: Final = 0.3  # how long an event stream that opened is read
DESTROYS_IDENTITY: Final = frozenset({"rotateIdentityToken", "deleteIdentity"})


@dataclass(frozen=True)
class Caller:
    """Who calls, on which real paths, and how many examples each operation gets."""

    name: str
    token: str | None
    paths: dict[str, str] = field(default_factory=dict)
    """Path parameters pinned to real values (else schemathesis generates them)."""
    examples: int = 8
    victim: str | None = None
    """For rotate/delete of an identity: who creates a fresh one per example ("admin",
    "provisioner", or "self": the victim calls with its own token)."""


@dataclass
class World:
    """The real things the callers act on."""

    base_url: str
    provisioner: str
    alice: str
    alice_token: str
    alice_message: str
    bob: str
    """Created by the provisioner."""
    carol_token: str


def callers(world: World) -> list[Caller]:
    alice = {"address": world.alice, "message_id": world.alice_message}
    return [
        Caller("no token", None, examples=2),
        Caller("wrong token", WRONG_TOKEN, examples=2),
        Caller("another identity's token", world.carol_token, alice, examples=3),
        Caller("provisioner, not its identity", world.provisioner, alice, examples=3),
        Caller("admin, generated paths", ADMIN_TOKEN),
        Caller("admin, real paths", ADMIN_TOKEN, alice, victim="admin"),
        Caller("provisioner, its identity", world.provisioner, {"address": world.bob}, victim="provisioner"),
        Caller("identity, its own paths", world.alice_token, alice, victim="self"),
    ]


def short_wait(value: Any) -> Any:
    """A wait's `timeout` cut to WAIT_SECONDS when the gateway would read it as more (a string too)."""
    if isinstance(value, list):
        return [short_wait(v) for v in value]
    if value is None:
        return WAIT_SECONDS  # the default is 120 s
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        return value  # not a number: refused at once
    return WAIT_SECONDS if seconds > WAIT_SECONDS else value


def operation_order(operation: Any) -> int:
    """Reads first, then what deletes: a deleted message or identity would answer the rest 404."""
    label = str(operation.definition.raw.get("operationId", ""))
    return 2 if label in DESTROYS_IDENTITY or label == "deleteToken" else 1 if label == "deleteMessage" else 0


class Fuzz:
    """One schemathesis run over every operation and caller; failures collected, not raised."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.http = requests.Session()
        self.failures: dict[tuple[str, str, str], list[str]] = collections.defaultdict(list)
        self.calls = 0

    def run(self) -> None:
        schema = schemathesis.openapi.from_url(f"{self.world.base_url}/schema", timeout=10)
        operations = sorted((r.ok() for r in schema.get_all_operations()), key=operation_order)
        assert len(operations) >= 15, [o.label for o in operations]
        for operation in operations:
            for caller in callers(self.world):
                for mode in self.modes(operation, caller):
                    self.fuzz(operation, caller, mode)

    @staticmethod
    def modes(operation: Any, caller: Caller) -> Iterator[GenerationMode]:
        yield GenerationMode.POSITIVE
        # Invalid data only where there is data to spoil: a body or a query. A path value
        # is text on the wire whatever its "type"; schemathesis can hardly make one invalid.
        has_data = operation.body or operation.query
        if has_data and caller.token is not None and caller.token != WRONG_TOKEN:
            yield GenerationMode.NEGATIVE

    def fuzz(self, operation: Any, caller: Caller, mode: GenerationMode) -> None:
        names = {p.name for p in operation.path_parameters}
        pinned = {k: v for k, v in caller.paths.items() if k in names}
        strategy = operation.as_strategy(generation_mode=mode, path_parameters=pinned or None)

        @given(case=strategy)
        @settings(
            max_examples=caller.examples,
            deadline=None,
            database=None,
            derandomize=True,
            suppress_health_check=list(HealthCheck),
            phases=[Phase.explicit, Phase.generate],
        )
        def example(case: Any) -> None:
            self.call(operation, caller, mode, case)

        with contextlib.suppress(Unsatisfiable):  # nothing of this operation can be made invalid
            example()

    def call(self, operation: Any, caller: Caller, mode: GenerationMode, case: Any) -> None:
        token = caller.token
        label = str(operation.definition.raw.get("operationId"))
        if caller.victim is not None and label in DESTROYS_IDENTITY and "address" in caller.paths:
            case.path_parameters["address"], victim_token = self.victim(caller.victim)
            token = victim_token if caller.victim == "self" else token
        if caller.victim == "admin" and label == "deleteToken":
            case.path_parameters["token_id"] = self.provisioner_token_id()
        if label == "waitForMessage" and token is not None:
            case.query = {
                **(case.query or {}),
                "timeout": short_wait(case.query.get("timeout") if case.query else None),
            }
        # The caller's token replaces whatever schemathesis made up for the declared bearer scheme.
        case.headers = {k: v for k, v in (case.headers or {}).items() if k.lower() != "authorization"}
        if token is not None:
            case.headers["Authorization"] = f"Bearer {token}"
        # An event stream never ends: schemathesis reads it until the timeout and judges what came.
        timeout = STREAM_SECONDS if label in ("streamMessages", "streamAllMessages") else 30
        key = (operation.label, caller.name, mode.value)
        try:
            response = case.call(base_url=self.world.base_url, session=self.http, timeout=timeout)
        except requests.RequestException as exc:
            self.failures[key].append(f"no answer: {exc!r}")
            return
        self.calls += 1
        try:
            case.validate_response(response, checks=CHECKS)
        except (AssertionError, FailureGroup) as exc:  # what schemathesis's checks raise
            for failure in getattr(exc, "exceptions", [exc]):
                title = getattr(failure, "title", type(failure).__name__)
                self.failures[key].append(f"{title}: {response.status_code} {response.text[:200]!r}")

    def victim(self, creator: str) -> tuple[str, str]:
        """A fresh identity made by `creator` (admin or the provisioner; "self": the admin): (address, token)."""
        token = self.world.provisioner if creator == "provisioner" else ADMIN_TOKEN
        response = self.http.post(
            f"{self.world.base_url}/v1/identities", json={}, headers={"Authorization": f"Bearer {token}"}, timeout=10
        )
        assert response.status_code == 201, response.text
        body = response.json()
        return body["address"], body["token"]

    def provisioner_token_id(self) -> str:
        response = self.http.post(
            f"{self.world.base_url}/v1/tokens",
            json={"scope": "provision"},
            headers={"Authorization": f"Bearer {ADMIN_TOKEN}"},
            timeout=10,
        )
        assert response.status_code == 201, response.text
        return str(response.json()["id"])

    def report(self) -> str:
        lines = []
        for (operation, caller, mode), found in sorted(self.failures.items()):
            lines.append(f"{operation} as {caller} ({mode}): {len(found)}x, e.g. {found[0]}")
        return "\n".join(lines)


async def world_of(gateway: RunningGateway) -> World:
    alice, alice_token = await gateway.create_identity("alice")
    _, carol_token = await gateway.create_identity("carol")
    await gateway.send(make_message(to=alice, subject="Your code is 482913"), [alice])
    message_id = (await gateway.messages(alice, alice_token))["messages"][0]["id"]
    provisioner = (await gateway.http.post("/v1/tokens", json={"scope": "provision"})).json()["token"]
    async with gateway.client(provisioner) as client:
        bob = (await client.post("/v1/identities", json={"local_part": "bob"})).json()["address"]
    return World(str(gateway.http.base_url).rstrip("/"), provisioner, alice, alice_token, message_id, bob, carol_token)


async def test_schemathesis_finds_no_5xx_and_nothing_undocumented(gateway: RunningGateway) -> None:
    fuzz = Fuzz(await world_of(gateway))
    await asyncio.to_thread(fuzz.run)  # blocking HTTP from a thread; the gateway serves on this loop
    assert not fuzz.failures, "\n" + fuzz.report()
    assert fuzz.calls > 500  # it did run: every operation, every caller
