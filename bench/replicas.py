"""Replicas (issue 21): one and two gateways, on SQLite and on PostgreSQL, over Postfix + Dovecot.

    .venv/bin/python bench/replicas.py [--creates 200] [--wakes 100] [--waits 1000] [--quick]

Three configurations, each on a fresh store and an emptied catch-all: SQLite with one gateway,
PostgreSQL with one, PostgreSQL with two (a SQLite store is single-process). The PostgreSQL
cluster is tests/postgres.py's with `durable=True` (fsync and synchronous commits on, as in
production). Every gateway is a real `python -m gateway serve` (tests/serve.py) with the imap
source on the test mail stack (tests/mailstack); with two, the first (the one Dovecot pushes to)
is started alone until its /ready says `reader`, then the second joins as `standby`. This
machine has 2 cores: two replicas show correctness and overhead, not speed-up. Measured:

1. create an identity over HTTP (`POST /v1/identities`, one at a time, `--creates`), alternating
   between the replicas when there are two;
2. wait wake: a wait is open (see below), then one mail through Postfix; the time from Postfix's
   250 to the wait's answer, one mail at a time (`--wakes`), on each replica separately (the
   standby hears of the reader's indexing through PostgreSQL LISTEN/NOTIFY);
3. burst: `--waits` identities each with one open wait (spread over the replicas), then one mail
   each through one SMTP session; how many were woken by their own mail (none lost, none handed
   another identity's), the time from the first 250 until all had answered, and each wait's
   latency from its own mail's 250 (which includes the queue of mails sent before it: with
   1,000 in one session this is the gateway's throughput over IMAP more than its wake-up).

A wait runs in another process, so "open" is seen from outside: every gateway runs with
AGENTMAIL_WAIT_MAX_PER_ADDRESS=1, and a probe `wait?timeout=0` for the same identity on the same
gateway answers 429 once the real wait holds the identity's one slot (408 before). A real wait
that loses that race to a probe answers 429 and is sent again.

DESIGN.md's target: the PostgreSQL engine within 2 x SQLite on every figure; the table's last
columns are PostgreSQL / SQLite. Medians and p99 are quoted: run it twice before believing, and
read the load average printed beside the table (other work on the machine shows in every figure).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import secrets
import signal
import smtplib
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.run import p  # noqa: E402
from tests.conftest import ADMIN_TOKEN, DOMAIN  # noqa: E402
from tests.mailstack import MailStack, free_port, running_stack  # noqa: E402
from tests.postgres import PostgresCluster  # noqa: E402
from tests.replicas.conftest import READY_TIMEOUT, replica_env, roles  # noqa: E402
from tests.serve import ServeProcess, wait_until  # noqa: E402

WAIT_SECONDS = 300
"""A wait's own timeout: far above anything a right gateway takes here."""
ARM_TIMEOUT = 30.0
"""Seconds a wait may take to be open at its gateway before the run gives up."""
PROBE_CONCURRENCY = 20
"""Probes in flight at once while checking that every wait of a burst is open."""
WARMUP = 5
"""Identities created and mails waited for before measuring, per replica."""


@dataclass
class Identity:
    address: str
    token: str
    replica: ServeProcess
    """The gateway its waits are opened on."""


@dataclass
class Burst:
    count: int
    woken: int = 0
    """Answered 200 with its own identity's mail."""
    wrong: int = 0
    """Answered 200 with another identity's mail."""
    lost: int = 0
    """Not answered 200 (a timeout, an error)."""
    all_answered_s: float = 0.0
    """From the first mail's 250 to the last answer."""
    tail_s: float = 0.0
    """From the last mail's 250 to the last answer (the backlog the gateways still had)."""
    sent_s: float = 0.0
    """From the first mail's 250 to the last one's (Postfix's pace: the machine's load sets it)."""
    imap_sessions: int = 0
    """The catch-all's IMAP sessions, at most, seen before and after the sending (all gateways)."""
    latencies: dict[str, list[float]] = field(default_factory=dict)
    """Milliseconds from each mail's 250 to its wait's answer, by the role of the wait's gateway."""


@dataclass
class Figures:
    create: list[float]
    wake: dict[str, list[float]]
    """Milliseconds per mail, by role of the gateway holding the wait."""
    burst: Burst


# -- gateways --------------------------------------------------------------------------------


def gateway_env(stack: MailStack, dsn: str | None, *, push: bool, waits: int) -> dict[str, str]:
    """tests/replicas' replica settings, on SQLite when `dsn` is None, with the probe's wait limit."""
    env = replica_env(stack, dsn or "", push=push)
    if dsn is None:
        del env["AGENTMAIL_DATABASE_URL"]
    env["AGENTMAIL_LOG_LEVEL"] = "warning"
    env["AGENTMAIL_RETENTION_DAYS"] = "0"
    env["AGENTMAIL_WAIT_MAX_PER_ADDRESS"] = "1"
    env["AGENTMAIL_WAIT_MAX_TOTAL"] = str(max(5000, waits + 100))
    return env


@contextlib.contextmanager
def gateways(stack: MailStack, scratch: Path, dsn: str | None, count: int, waits: int) -> Iterator[list[ServeProcess]]:
    """`count` started gateways on one store, the reader first; stopped (killed if need be) on exit."""
    started: list[ServeProcess] = []
    try:
        for i in range(count):
            gateway = ServeProcess(
                scratch / f"data-{i}",
                scratch / f"log-{i}",
                domain=stack.domain,
                env=gateway_env(stack, dsn, push=i == 0, waits=waits),
                admin_token=ADMIN_TOKEN,
            )
            started.append(gateway)
            gateway.start()
            settled(started)
        yield started
    finally:
        for gateway in started:
            with contextlib.suppress(AssertionError):
                gateway.stop()
            gateway.kill()
        for gateway in started:
            report_errors(gateway)


def settled(replicas: list[ServeProcess]) -> None:
    """Return once the first replica says `reader` and every other one `standby` (all ready)."""
    expected = ["reader"] + ["standby"] * (len(replicas) - 1)
    wait_until(lambda: roles(replicas) == expected, READY_TIMEOUT, lambda: f"roles {expected}: {roles(replicas)}")


def report_errors(gateway: ServeProcess) -> None:
    """Print the lines of a gateway's output that name an error (there should be none)."""
    bad = [line for line in gateway.output().splitlines() if "ERROR" in line or "Traceback" in line]
    if bad:
        print(f"  !! {gateway.base_url} logged {len(bad)} error lines, e.g.: {bad[0][:300]}", flush=True)


def role_of(gateways: list[ServeProcess]) -> dict[int, str]:
    """Each gateway's role by its HTTP port (checked: every one is ready)."""
    found = roles(gateways)
    assert None not in found, found
    return {g.http_port: str(r) for g, r in zip(gateways, found, strict=True)}


# -- measurements ----------------------------------------------------------------------------


def create_identities(replicas: list[ServeProcess], count: int, tag: str) -> tuple[list[float], list[Identity]]:
    """Milliseconds per `POST /v1/identities`, alternating replicas; and the identities made."""
    clients = [r.client(timeout=30) for r in replicas]
    samples, made = [], []
    try:
        for i in range(count):
            k = i % len(replicas)
            start = time.perf_counter()
            response = clients[k].post("/v1/identities", json={"local_part": f"{tag}-{i:05d}"})
            samples.append((time.perf_counter() - start) * 1000)
            assert response.status_code == 201, response.text
            body = response.json()
            made.append(Identity(body["address"], body["token"], replicas[k]))
    finally:
        for client in clients:
            client.close()
    return samples, made


def auth(identity: Identity) -> dict[str, str]:
    return {"Authorization": f"Bearer {identity.token}"}


async def wait(client: httpx.AsyncClient, identity: Identity) -> tuple[httpx.Response, float]:
    """The identity's wait and when its answer came (perf_counter); sent again after a probe's 429.

    `client` is a client of the identity's gateway (shared: the token goes with each request).
    """
    path = f"/v1/identities/{identity.address}/wait"
    while True:
        response = await client.get(path, params={"timeout": WAIT_SECONDS}, headers=auth(identity))
        answered = time.perf_counter()
        if response.status_code != 429:
            return response, answered
        await asyncio.sleep(0.005)


async def until_open(client: httpx.AsyncClient, identity: Identity) -> None:
    """Return once a wait of the identity is open on `client`'s gateway (the probe answers 429)."""
    path = f"/v1/identities/{identity.address}/wait"
    deadline = time.perf_counter() + ARM_TIMEOUT
    while True:
        probe = await client.get(path, params={"timeout": 0}, headers=auth(identity))
        if probe.status_code == 429:
            return
        assert probe.status_code == 408, f"probe of {identity.address}: {probe.status_code} {probe.text}"
        if time.perf_counter() > deadline:
            raise TimeoutError(f"the wait of {identity.address} on {identity.replica.base_url} never opened")
        await asyncio.sleep(0.001)


def send(smtp: smtplib.SMTP, to: str, subject: str) -> float:
    """One mail through Postfix; perf_counter at its 250 (Postfix has queued it durably)."""
    body = f"From: shop@example.com\r\nTo: {to}\r\nSubject: {subject}\r\n\r\nYour code is 123456.\r\n"
    smtp.sendmail("shop@example.com", [to], body.encode())
    return time.perf_counter()


@contextlib.asynccontextmanager
async def clients_of(replicas: list[ServeProcess], connections: int) -> AsyncIterator[dict[int, httpx.AsyncClient]]:
    """One async client per gateway (by HTTP port), holding up to `connections` connections each."""
    limits = httpx.Limits(max_connections=connections, max_keepalive_connections=connections)
    async with contextlib.AsyncExitStack() as scope:
        yield {
            r.http_port: await scope.enter_async_context(
                httpx.AsyncClient(base_url=r.base_url, limits=limits, timeout=WAIT_SECONDS + 30)
            )
            for r in replicas
        }


async def wake_one_at_a_time(stack: MailStack, identity: Identity, mails: int, tag: str) -> list[float]:
    """Milliseconds from Postfix's 250 to the open wait's answer, one mail at a time."""
    samples = []
    replica = [identity.replica]
    with smtplib.SMTP(stack.host, stack.smtp_port, timeout=30) as smtp:
        async with clients_of(replica, 4) as waiting, clients_of(replica, 4) as probing:
            client, probe = waiting[identity.replica.http_port], probing[identity.replica.http_port]
            for n in range(WARMUP + mails):
                subject = f"wake {tag} {n}"
                answer = asyncio.create_task(wait(client, identity))
                await until_open(probe, identity)
                accepted = await asyncio.to_thread(send, smtp, identity.address, subject)
                response, answered = await answer
                assert response.status_code == 200, f"{identity.replica.base_url}: {response.text}"
                assert response.json()["subject"] == subject, response.text
                if n >= WARMUP:
                    samples.append((answered - accepted) * 1000)
    return samples


async def burst(stack: MailStack, identities: list[Identity], role: dict[int, str], tag: str) -> Burst:
    """One open wait per identity (on its gateway), then one mail each: who got what, how fast."""
    replicas = list({i.replica.http_port: i.replica for i in identities}.values())
    async with clients_of(replicas, len(identities) + 10) as waiting, clients_of(replicas, 10) as probing:
        tasks = [asyncio.create_task(wait(waiting[i.replica.http_port], i)) for i in identities]
        gate = asyncio.Semaphore(PROBE_CONCURRENCY)

        async def opened(identity: Identity) -> None:
            async with gate:
                await until_open(probing[identity.replica.http_port], identity)

        await asyncio.gather(*map(opened, identities))
        sessions = [await asyncio.to_thread(stack.imap_sessions)]
        accepted = await asyncio.to_thread(send_all, stack, identities, tag)
        sessions.append(await asyncio.to_thread(stack.imap_sessions))
        answers = await asyncio.gather(*tasks)
    result = tally(identities, answers, accepted, role, tag)
    result.imap_sessions = max(sessions)
    return result


def send_all(stack: MailStack, identities: list[Identity], tag: str) -> list[float]:
    """One mail to each identity in one Postfix session; the perf_counter of each 250."""
    with smtplib.SMTP(stack.host, stack.smtp_port, timeout=30) as smtp:
        return [send(smtp, i.address, f"burst {tag} {n}") for n, i in enumerate(identities)]


def tally(
    identities: list[Identity],
    answers: list[tuple[httpx.Response, float]],
    accepted: list[float],
    role: dict[int, str],
    tag: str,
) -> Burst:
    """Count the burst's answers: woken by their own mail, handed another's, or not answered."""
    result = Burst(len(identities))
    for n, (identity, (response, answered), sent) in enumerate(zip(identities, answers, accepted, strict=True)):
        if response.status_code != 200:
            result.lost += 1
            print(
                f"  !! burst wait of {identity.address} on {identity.replica.base_url}"
                f" ({role[identity.replica.http_port]}): {response.status_code} {response.text[:200]}"
            )
            continue
        got = response.json()
        if got["subject"] != f"burst {tag} {n}" or identity.address not in got["to"]:
            result.wrong += 1
            print(f"  !! {identity.address} was handed {got['to']} {got['subject']!r}")
            continue
        result.woken += 1
        result.latencies.setdefault(role[identity.replica.http_port], []).append((answered - sent) * 1000)
    result.all_answered_s = max(answered for _, answered in answers) - min(accepted)
    result.sent_s = max(accepted) - min(accepted)
    result.tail_s = max(answered for _, answered in answers) - max(accepted)
    return result


# -- one configuration -----------------------------------------------------------------------


def measure(stack: MailStack, dsn: str | None, count: int, args: argparse.Namespace) -> Figures:
    """Every figure for `count` gateways on one fresh store (SQLite when `dsn` is None)."""
    stack.expunge_all()
    with (
        tempfile.TemporaryDirectory(prefix="agentmail-bench-replicas-") as tmp,
        gateways(stack, Path(tmp), dsn, count, args.waits) as replicas,
    ):
        role = role_of(replicas)
        tag = secrets.token_hex(3)
        create_identities(replicas, WARMUP * count, f"warm-{tag}")
        create, _ = create_identities(replicas, args.creates, f"new-{tag}")
        print(f"    create: p50 {statistics.median(create):.2f} ms", flush=True)
        wake: dict[str, list[float]] = {}
        _, waiters = create_identities(replicas, count, f"wake-{tag}")
        for identity in waiters:
            name = role[identity.replica.http_port]
            wake[name] = asyncio.run(wake_one_at_a_time(stack, identity, args.wakes, tag))
            print(f"    wake on the {name}: p50 {statistics.median(wake[name]):.1f} ms", flush=True)
        _, many = create_identities(replicas, args.waits, f"burst-{tag}")
        result = asyncio.run(burst(stack, many, role, tag))
        print(f"    burst: {result.woken}/{result.count} woken in {result.all_answered_s:.1f} s", flush=True)
        for replica in replicas:  # the roles held throughout: no takeover in the middle
            assert role_of([replica])[replica.http_port] == role[replica.http_port], roles(replicas)
    return Figures(create, wake, result)


# -- the table -------------------------------------------------------------------------------

SQLITE = "SQLite 1 gw"
CONFIGS = ((SQLITE, False, 1), ("PG 1 gw", True, 1), ("PG 2 gw", True, 2))
"""(column, on PostgreSQL, gateways): SQLite with two is not a thing (a SQLite store is one process's)."""


def burst_all(f: Figures) -> list[float]:
    return [ms for samples in f.burst.latencies.values() for ms in samples]


def wake(role: str, q: float | None) -> Any:
    """A row's figure: the wake p50 (q None) or quantile of waits on `role` (None without one)."""

    def figure(f: Figures) -> float | None:
        samples = f.wake.get(role)
        if not samples:
            return None
        return statistics.median(samples) if q is None else p(samples, q)

    return figure


ROWS: list[tuple[str, Any, Any]] = [
    # (what, its figure of a configuration, the SQLite figure it is held against)
    ("create identity, p50 ms", lambda f: statistics.median(f.create), None),
    ("create identity, p99 ms", lambda f: p(f.create, 0.99), None),
    ("wake, wait on the reader, p50 ms", wake("reader", None), None),
    ("wake, wait on the reader, p99 ms", wake("reader", 0.99), None),
    ("wake, wait on the standby, p50 ms", wake("standby", None), wake("reader", None)),
    ("wake, wait on the standby, p99 ms", wake("standby", 0.99), wake("reader", 0.99)),
    ("burst: first 250 → all answered, s", lambda f: f.burst.all_answered_s, None),
    ("burst: last 250 → all answered, s", lambda f: f.burst.tail_s, None),
    ("burst: per wait, p50 ms", lambda f: statistics.median(burst_all(f)) if burst_all(f) else None, None),
    ("burst: per wait, p99 ms", lambda f: p(burst_all(f), 0.99) if burst_all(f) else None, None),
]


def table(results: dict[str, Figures]) -> str:
    """The figures by configuration, and each PostgreSQL column over the SQLite one."""
    names = list(results)
    pg = [n for n in names if n != SQLITE]
    base = results.get(SQLITE)
    header = ["", *names, *(f"{n.removesuffix(' gw')}/SQLite" for n in pg if base)]
    lines = []
    for what, figure, against in ROWS:
        cells = [what]
        values = {n: figure(results[n]) for n in names}
        cells += ["-" if v is None else f"{v:.1f}" for v in values.values()]
        if base is not None:
            reference = (against or figure)(base)
            for n in pg:
                v = values[n]
                cells.append("-" if v is None or not reference else f"{v / reference:.2f}")
        lines.append(cells)
    woken = ["burst: woken by their own mail", *(outcome(results[n].burst) for n in names)]
    lines.append(woken + [""] * (len(header) - len(woken)))
    widths = [max(len(row[i]) for row in [header, *lines]) for i in range(len(header))]
    return "\n".join(
        "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths, strict=True)))
        for row in [header, *lines]
    )


def outcome(b: Burst) -> str:
    return f"{b.woken}/{b.count}" + (f" ({b.wrong} wrong, {b.lost} lost)" if b.wrong or b.lost else "")


def details(results: dict[str, Figures]) -> str:
    """How long the burst's sending took, and its latency by the role of the wait's gateway (with two)."""
    lines = []
    for name, f in results.items():
        lines.append(
            f"{name}, burst: {f.burst.count} mails sent in {f.burst.sent_s:.1f} s (one SMTP session);"
            f" IMAP sessions at most {f.burst.imap_sessions}"
        )
        if len(f.burst.latencies) > 1:
            for role, samples in sorted(f.burst.latencies.items()):
                lines.append(
                    f"{name}, burst waits on the {role}: {len(samples)}, p50 {statistics.median(samples):.1f} ms,"
                    f" p99 {p(samples, 0.99):.1f} ms"
                )
    return "\n".join(lines)


# -- main ------------------------------------------------------------------------------------


def interrupted(signum: int, frame: object) -> None:
    """SIGTERM as Ctrl-C: every `finally` runs, so gateways, PostgreSQL and the stack are stopped."""
    raise KeyboardInterrupt


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--creates", type=int, help="identities created one at a time (default 200)")
    parser.add_argument("--wakes", type=int, help="mails waited for one at a time, per replica (default 100)")
    parser.add_argument("--waits", type=int, help="concurrent waits in the burst (default 1000)")
    parser.add_argument("--quick", action="store_true", help="a small run: 30 creates, 20 wakes, 100 waits")
    args = parser.parse_args()
    quick = {"creates": 30, "wakes": 20, "waits": 100}
    full = {"creates": 200, "wakes": 100, "waits": 1000}
    for name, default in (quick if args.quick else full).items():
        if getattr(args, name) is None:
            setattr(args, name, default)
    signal.signal(signal.SIGTERM, interrupted)

    results: dict[str, Figures] = {}
    load = os.getloadavg()  # a shared machine's other work shows in every figure: said beside them
    with contextlib.ExitStack() as scope:
        stack = scope.enter_context(
            contextlib.contextmanager(running_stack)(
                domain=DOMAIN, push_port=free_port(), push_secret=secrets.token_hex(16)
            )
        )
        cluster = scope.enter_context(PostgresCluster(durable=True))
        for name, postgres, count in CONFIGS:
            print(f"{name}:", flush=True)
            if not postgres:
                results[name] = measure(stack, None, count, args)
                continue
            database = f"bench_{secrets.token_hex(4)}"
            try:
                results[name] = measure(stack, cluster.create_database(database), count, args)
            finally:
                cluster.drop_database(database)
    print()
    print(f"{args.creates} creates, {args.wakes} wakes per replica, a burst of {args.waits} waits; imap source")
    print(f"load average at start {load[0]:.1f}, at the end {os.getloadavg()[0]:.1f} ({os.cpu_count()} cores)")
    print(table(results))
    print(details(results))


if __name__ == "__main__":
    main()
