"""Search benchmark (issue 17): one identity's search while the catch-all holds far more mail.

    .venv/bin/python bench/search.py [--messages 100000] [--target 1000] [--heavy 5000] [--engine sqlite|postgresql]

Pre-fills a scratch data directory as bench/run.py does (identities straight into the store,
messages straight into the Maildir: the gateway's own sync indexes them on start, search fields
included), then measures, for `target` (1,000 messages) and `reader` (`--heavy`, past the
SQLite index's SCAN_LIMIT, so its text terms take the FTS5 pre-filter plan):

- p50 and p99 of a word query, an exact `from:` query and `has:attachment`, through the HTTP
  API (`GET …/messages?q=…&limit=50`, the gateway in its own process) and through the store call
  (`store.index.listing` with the parsed tree, in this process, once the gateway has stopped);
- the index's size per 1,000 messages: on average over the whole catch-all, and the growth
  when 1,000 more are delivered over SMTP (SQLite: bytes in use by table, FTS5 apart, from
  `dbstat`; PostgreSQL: `pg_total_relation_size` of the index tables).

The mail is varied text (a Zipf-weighted vocabulary of 4,000 words), senders from 60 domains,
one in 20 with a PDF attached; "receipt" is in about 3 % of all mail, Stripe sends 5 %. DESIGN.md's
target for listing an identity's mail is p50 < 20 ms; a search is held to the same.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import itertools
import random
import smtplib
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.run import (  # noqa: E402
    DOMAIN,
    READER,
    TARGET,
    free_port,
    p,
    prefill_identities,
    prefill_postgres,
    start_gateway,
    wait_for,
)
from gateway.mail.search import parse_query  # noqa: E402
from gateway.store import Filters, Store  # noqa: E402

IDENTITIES = 10_000
"""Other identities the catch-all's mail goes to (so the index holds their grants too)."""
QUERIES = {
    "list": "",
    "word": "receipt",
    "exact from:": "from:receipts@stripe.com",
    "has:attachment": "has:attachment",
}
SAMPLES = 200
PDF = base64.encodebytes(b"%PDF-1.4\n" + bytes(range(256)) * 8).decode("ascii")


def vocabulary(rng: random.Random, size: int = 4000) -> list[str]:
    """Pronounceable made-up words, and the few the queries look for."""
    consonants, vowels = "bcdfghklmnprstvz", "aeiou"
    words: set[str] = set()
    while len(words) < size:
        n = rng.choice((2, 2, 3, 3, 4))
        words.add("".join(rng.choice(consonants) + rng.choice(vowels) for _ in range(n)))
    return sorted(words)


class Mailer:
    """Deterministic, varied mail: the same --messages give the same mailbox."""

    def __init__(self, seed: int = 17) -> None:
        self.rng = random.Random(seed)
        self.words = vocabulary(self.rng)
        self.cum = list(itertools.accumulate(1 / (rank + 1) for rank in range(len(self.words))))
        self.domains = [f"shop{i}.example" for i in range(58)] + ["stripe.com", "mail.stripe.com"]

    def message(self, i: int, rcpt: str) -> str:
        rng = self.rng
        text = " ".join(rng.choices(self.words, cum_weights=self.cum, k=rng.randrange(40, 120)))
        subject = " ".join(rng.choices(self.words, cum_weights=self.cum, k=rng.randrange(3, 8)))
        if rng.random() < 0.05:
            sender = "Stripe <receipts@stripe.com>"
        else:
            sender = f"{rng.choice(self.words).title()} <noreply@{rng.choice(self.domains)}>"
        if rng.random() < 0.03:
            subject = f"Your receipt {subject}"
        head = (
            f"Delivered-To: {rcpt}\r\nX-Original-To: {rcpt}\r\nFrom: {sender}\r\nTo: {rcpt}\r\n"
            f"Subject: {subject}\r\nMessage-ID: <{i}.{rng.getrandbits(32)}@bench.example>\r\nMIME-Version: 1.0\r\n"
        )
        if rng.random() >= 0.05:
            return head + f"Content-Type: text/plain; charset=utf-8\r\n\r\n{text}\r\n"
        return head + (
            'Content-Type: multipart/mixed; boundary="b"\r\n\r\n'
            f"--b\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{text}\r\n"
            '--b\r\nContent-Type: application/pdf\r\nContent-Disposition: attachment; filename="invoice.pdf"\r\n'
            f"Content-Transfer-Encoding: base64\r\n\r\n{PDF}--b--\r\n"
        )


def prefill_maildir(data: Path, mailer: Mailer, count: int, shares: dict[str, int], received_ts: float) -> None:
    """`count` messages: `shares[address]` to each named identity, the rest to the other identities."""
    new = data / "maildir" / "new"
    for sub in ("tmp", "new", "cur"):
        (data / "maildir" / sub).mkdir(parents=True, exist_ok=True, mode=0o700)
    rng = random.Random(7)
    picked = rng.sample(range(count), sum(shares.values()))
    owner: dict[int, str] = {}
    at = 0
    for address, share in shares.items():
        owner |= dict.fromkeys(picked[at : at + share], address)
        at += share
    for i in range(count):
        rcpt = owner.get(i) or f"pre-{rng.randrange(IDENTITIES):07d}@{DOMAIN}"
        ts = received_ts + i * 0.001
        sec = int(ts)
        (new / f"{sec}.M{int((ts - sec) * 1e6):06d}P1Q{i}.agentmail").write_text(mailer.message(i, rcpt))


def summary(samples: list[float]) -> str:
    return f"p50 {statistics.median(samples):.2f} ms, p99 {p(samples, 0.99):.2f} ms"


def sqlite_sizes(data: Path) -> dict[str, int]:
    """Bytes in use in index.db, by table (its indexes counted with it; FTS5's shadow tables as `fts5`)."""
    db = sqlite3.connect(f"file:{data / 'index.db'}?mode=ro", uri=True)
    try:
        rows = db.execute(
            "SELECT coalesce(m.tbl_name, d.name), sum(d.pgsize) FROM dbstat d"
            " LEFT JOIN sqlite_master m ON m.name = d.name GROUP BY 1"
        ).fetchall()
    finally:
        db.close()
    sizes: dict[str, int] = {}
    for name, size in rows:
        key = "fts5" if name == "search" or name.startswith("search_") else name
        sizes[key] = sizes.get(key, 0) + int(size)
    return sizes


def postgres_sizes(dsn: str) -> dict[str, int]:
    import psycopg

    tables = ("copies", "grants", "gone", "thread_refs", "threads", "index_meta")
    with psycopg.connect(dsn) as db:
        return {t: int(db.execute("SELECT pg_total_relation_size(%s)", (t,)).fetchone()[0]) for t in tables}  # type: ignore[index]


def sizes_of(data: Path, dsn: str | None) -> dict[str, int]:
    return sqlite_sizes(data) if dsn is None else postgres_sizes(dsn)


def kb(n: float) -> str:
    return f"{n / 1024:.0f} KB"


async def store_timings(data: Path, dsn: str | None, addresses: list[str]) -> dict[tuple[str, str], list[float]]:
    """The store call itself, for each identity and query: `index.listing` with the parsed tree."""
    if dsn is None:
        from gateway.store.sqlite import open_sqlite

        store: Store = open_sqlite(data, domain=DOMAIN, clock=time.time)
    else:
        from gateway.store.postgres import open_postgres

        store = open_postgres(dsn, domain=DOMAIN, clock=time.time)
    await store.engine.start()
    out: dict[tuple[str, str], list[float]] = {}
    try:
        for address in addresses:
            identity = await store.identities.find(address)
            assert identity is not None, address
            for name, text in QUERIES.items():
                filters = Filters(identity.created_ts, query=parse_query(text).root if text else None)
                for _ in range(10):  # warm up
                    await store.index.listing(identity, filters, limit=51)
                samples = []
                for _ in range(SAMPLES):
                    t = time.perf_counter()
                    await store.index.listing(identity, filters, limit=51)
                    samples.append((time.perf_counter() - t) * 1000)
                out[address, name] = samples
    finally:
        await store.engine.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--messages", type=int, default=100_000, help="mail in the catch-all")
    parser.add_argument("--target", type=int, default=1_000, help="of which the target identity's")
    parser.add_argument("--heavy", type=int, default=5_000, help="of which the reader identity's (FTS5 plan)")
    parser.add_argument("--engine", choices=["sqlite", "postgresql"], default="sqlite")
    args = parser.parse_args()
    cluster = None
    dsn = None
    if args.engine == "postgresql":
        from tests.postgres import PostgresCluster

        # Not durable: what is measured is reads and sizes, and the 100k rebuild is faster.
        cluster = PostgresCluster(durable=False)
        cluster.start()
        dsn = cluster.create_database("bench")
    try:
        run(args, dsn)
    finally:
        if cluster is not None:
            cluster.stop()


def run(args: argparse.Namespace, dsn: str | None) -> None:
    rows: list[tuple[str, str, str]] = [("store engine", "-", args.engine)]
    shares = {TARGET: args.target, READER: args.heavy}
    with tempfile.TemporaryDirectory(prefix="agentmail-bench-search-") as tmp:
        data = Path(tmp) / "data"
        data.mkdir(mode=0o700)
        now = time.time()
        t = time.perf_counter()
        if dsn is None:
            tokens = prefill_identities(data, IDENTITIES, now - 7200)
        else:
            tokens = prefill_postgres(dsn, IDENTITIES, now - 7200)
        mailer = Mailer()
        prefill_maildir(data, mailer, args.messages, shares, now - 3600)
        print(f"pre-filled {args.messages:,} messages in {time.perf_counter() - t:.1f} s", file=sys.stderr)

        http_port, smtp_port = free_port(), free_port()
        proc = start_gateway(data, http_port, smtp_port, dsn)
        http: dict[tuple[str, str], list[float]] = {}
        hits: dict[tuple[str, str], int] = {}
        try:
            base = f"http://127.0.0.1:{http_port}"
            clients = {
                address: httpx.Client(base_url=base, headers={"Authorization": f"Bearer {token}"}, timeout=60)
                for address, token in zip((TARGET, READER), tokens, strict=True)
            }

            def indexed() -> bool:
                try:
                    health = httpx.get(f"{base}/health", timeout=5)
                except httpx.TransportError:
                    return False
                return health.status_code == 200 and health.json().get("status") == "ok"

            took = wait_for(indexed, 1800, step=0.5)
            rows.append((f"start + index {args.messages:,} messages (rebuild)", "-", f"{took:.1f} s"))
            for address, client in clients.items():
                url = f"/v1/identities/{address}/messages"
                every = client.get(url, params={"limit": 200})
                every.raise_for_status()
                for name, text in QUERIES.items():
                    params: dict[str, Any] = {"q": text, "limit": 50} if text else {"limit": 50}
                    first = client.get(url, params=params)
                    first.raise_for_status()
                    hits[address, name] = len(first.json()["messages"])
                    for _ in range(10):  # warm up
                        client.get(url, params=params)
                    samples = []
                    for _ in range(SAMPLES):
                        t = time.perf_counter()
                        client.get(url, params=params).raise_for_status()
                        samples.append((time.perf_counter() - t) * 1000)
                    http[address, name] = samples

            # The index's growth: 1,000 more messages, delivered as mail arrives, then a marker
            # to the target: once it is listed, the batch before it is indexed too.
            before = sizes_of(data, dsn)
            with smtplib.SMTP("127.0.0.1", smtp_port) as smtp:
                for i in range(1000):
                    to = f"pre-{i % IDENTITIES:07d}@{DOMAIN}"
                    smtp.sendmail("noreply@shop.example", [to], mailer.message(args.messages + i, to).encode())
                marker = f"Subject: growth marker\r\nTo: {TARGET}\r\nDelivered-To: {TARGET}\r\n\r\nx\r\n"
                smtp.sendmail("noreply@shop.example", [TARGET], marker.encode())
            target = clients[TARGET]

            def delivered() -> bool:
                top = target.get(f"/v1/identities/{TARGET}/messages", params={"limit": 1}).json()["messages"]
                return bool(top) and top[0]["subject"] == "growth marker"

            wait_for(delivered, 300, step=0.2)
            after = sizes_of(data, dsn)
        finally:
            proc.terminate()
            proc.wait(timeout=60)

        stored = asyncio.run(store_timings(data, dsn, [TARGET, READER]))

    for address, share in shares.items():
        who = f"{share:,} of the identity's among {args.messages:,}"
        for name, text in QUERIES.items():
            found = hits[address, name]
            what = f"search {name} `{text}`" if text else "list, no search"
            rows.append((f"{what}, {who} (first page: {found})", "p50 < 20 ms", ""))
            rows.append(("  ...over HTTP (GET …/messages?q=, limit 50)", "", summary(http[address, name])))
            rows.append(("  ...the store call (index.listing)", "", summary(stored[address, name])))
    total = sum(before.values())
    grown = {k: after.get(k, 0) - before.get(k, 0) for k in after}
    per_k = 1000 / (args.messages + 0.0)
    rows.append((f"index size, {args.messages:,} messages", "-", f"{total / 2**20:.1f} MB"))
    rows.append(("  ...per 1,000 messages (average)", "-", kb(total * per_k)))
    detail = ", ".join(
        f"{k} {kb(v * per_k)}" for k, v in sorted(before.items(), key=lambda kv: -kv[1]) if v * per_k >= 1024
    )
    rows.append(("    by table", "-", detail))
    rows.append(("  ...growth for 1,000 more (SMTP)", "-", kb(sum(grown.values()))))
    detail = ", ".join(f"{k} {kb(v)}" for k, v in sorted(grown.items(), key=lambda kv: -kv[1]) if v >= 1024)
    rows.append(("    by table", "-", detail))

    width = max(len(r[0]) for r in rows)
    twidth = max(len(r[1]) for r in rows)
    print(f"{'what':<{width}}  {'target':<{twidth}}  measured")
    for what, target, measured in rows:
        print(f"{what:<{width}}  {target:<{twidth}}  {measured}")


if __name__ == "__main__":
    main()
