"""Benchmarks for DESIGN.md's performance targets. Prints a table: what, target, measured.

    .venv/bin/python bench/run.py [--identities 1000000] [--messages 100000] [--engine sqlite|postgresql]

It pre-fills a scratch data directory (identities straight into the store, messages straight
into the Maildir), starts `agentmail-gateway serve` as a separate process on free loopback
ports, and measures it over HTTP and SMTP from this process. With `--engine postgresql` the store is a
throwaway PostgreSQL cluster (tests/postgres.py) with fsync and synchronous commits on. Medians are quoted because these
machines are noisy; run it twice before believing a number.
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import smtplib
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from gateway.store import hash_token  # noqa: E402
from gateway.store.sqlite import open_sqlite  # noqa: E402
from gateway.store.sqlite.schema import integrity_problems  # noqa: E402

DOMAIN = "bench.test"
ADMIN = "am_bench-admin-token-0123456789abcdef"
TARGET = f"target@{DOMAIN}"
READER = f"reader@{DOMAIN}"
"""An identity that has read a long history: its listing must cost what the target's does."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def prefill_identities(data: Path, count: int, created_ts: float) -> tuple[str, str]:
    """`count` identities straight into the store, plus `target` and `reader`; returns their tokens."""
    open_sqlite(data, domain=DOMAIN, clock=time.time).engine.db.close()  # type: ignore[attr-defined]
    db = sqlite3.connect(data / "identities.db")
    db.execute("PRAGMA synchronous=OFF")
    batch = 50_000
    for start in range(0, count, batch):
        rows = range(start, min(start + batch, count))
        db.executemany(
            "INSERT INTO identities (local_part, created_at) VALUES (?, ?)",
            ((f"pre-{i:07d}", created_ts) for i in rows),
        )
    db.execute(
        "INSERT INTO tokens (id, kind, hash, identity_id, created_at)"
        " SELECT 'id_' || id, 'identity', lower(hex(randomblob(32))), id, created_at FROM identities"
    )
    tokens = []
    for local in ("target", "reader"):
        token = "am_" + secrets.token_urlsafe(24)
        cur = db.execute("INSERT INTO identities (local_part, created_at) VALUES (?, ?)", (local, created_ts))
        db.execute(
            "INSERT INTO tokens (id, kind, hash, identity_id, created_at) VALUES (?, 'identity', ?, ?, ?)",
            (f"id_{cur.lastrowid}", hash_token(token), cur.lastrowid, created_ts),
        )
        tokens.append(token)
    db.commit()
    db.close()
    return tokens[0], tokens[1]


def prefill_postgres(dsn: str, count: int, created_ts: float) -> tuple[str, str]:
    """As `prefill_identities`, into a PostgreSQL store (its schema made by the engine itself)."""
    import asyncio

    import psycopg

    from gateway.store.postgres import open_postgres

    async def make_schema() -> None:
        store = open_postgres(dsn, domain=DOMAIN, clock=time.time)
        await store.engine.start()
        await store.engine.close()

    asyncio.run(make_schema())
    tokens = []
    with psycopg.connect(dsn) as db:
        with db.cursor().copy("COPY identities (local_part, created_at) FROM STDIN") as copy:
            for i in range(count):
                copy.write_row((f"pre-{i:07d}", created_ts))
        db.execute(
            "INSERT INTO tokens (id, kind, hash, identity_id, created_at)"
            " SELECT 'id_' || id, 'identity', md5(random()::text) || md5(random()::text), id, created_at"
            " FROM identities"
        )
        for local in ("target", "reader"):
            token = "am_" + secrets.token_urlsafe(24)
            row = db.execute(
                "INSERT INTO identities (local_part, created_at) VALUES (%s, %s) RETURNING id", (local, created_ts)
            ).fetchone()
            assert row is not None
            db.execute(
                "INSERT INTO tokens (id, kind, hash, identity_id, created_at) VALUES (%s, 'identity', %s, %s, %s)",
                (f"id_{row[0]}", hash_token(token), row[0], created_ts),
            )
            tokens.append(token)
        db.execute("ANALYZE")
    return tokens[0], tokens[1]


def prefill_maildir(data: Path, count: int, target_share: int, received_ts: float, reader_share: int = 0) -> None:
    """`count` small messages to random addresses: `target_share` to the target, `reader_share` to the reader."""
    new = data / "maildir" / "new"
    for sub in ("tmp", "new", "cur"):
        (data / "maildir" / sub).mkdir(parents=True, exist_ok=True, mode=0o700)
    rng = random.Random(7)
    picked = rng.sample(range(count), target_share + reader_share)
    target_at, reader_at = set(picked[:target_share]), set(picked[target_share:])
    for i in range(count):
        if i in target_at:
            rcpt = TARGET
        elif i in reader_at:
            rcpt = READER
        else:
            rcpt = f"pre-{rng.randrange(1_000_000):07d}@{DOMAIN}"
        ts = received_ts + i * 0.001
        sec = int(ts)
        name = f"{sec}.M{int((ts - sec) * 1e6):06d}P1Q{i}.agentmail"
        body = (
            f"Delivered-To: {rcpt}\r\nX-Original-To: {rcpt}\r\nFrom: Shop <noreply@shop.example>\r\n"
            f"To: {rcpt}\r\nSubject: Message {i}\r\nMessage-ID: <{i}@shop.example>\r\n"
            f"Content-Type: text/plain; charset=utf-8\r\n\r\nHello, your code is {100000 + i}.\r\n"
        )
        (new / name).write_text(body)


def start_gateway(
    data: Path, http_port: int, smtp_port: int, dsn: str | None = None, extra: dict[str, str] | None = None
) -> subprocess.Popen[bytes]:
    """`agentmail-gateway serve` on `data`, with `extra` AGENTMAIL_* settings on top of the bench's."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGENTMAIL_")}
    if dsn is not None:
        env["AGENTMAIL_DATABASE_URL"] = dsn
    env |= {
        "AGENTMAIL_ADMIN_TOKEN": ADMIN,
        "AGENTMAIL_DATA_DIR": str(data),
        "AGENTMAIL_DOMAIN": DOMAIN,
        "AGENTMAIL_HTTP_PORT": str(http_port),
        "AGENTMAIL_SMTP_PORT": str(smtp_port),
        "AGENTMAIL_LOG_LEVEL": "warning",
        "AGENTMAIL_RETENTION_DAYS": "0",
    } | (extra or {})
    return subprocess.Popen(
        [sys.executable, "-m", "gateway", "serve", "--env-file", "/nonexistent"],
        env=env,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def wait_for(predicate, timeout: float, step: float = 0.05) -> float:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    while not predicate():
        if time.perf_counter() - start > timeout:
            raise TimeoutError("benchmark setup timed out")
        time.sleep(step)
    return time.perf_counter() - start


def timed(fn, n: int) -> list[float]:  # type: ignore[no-untyped-def]
    samples = []
    for i in range(n):
        t = time.perf_counter()
        fn(i)
        samples.append((time.perf_counter() - t) * 1000)
    return samples


def p(samples: list[float], q: float) -> float:
    return sorted(samples)[min(len(samples) - 1, int(q * len(samples)))]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--identities", type=int, default=1_000_000)
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--ingest", type=int, default=2_000)
    parser.add_argument("--seen", type=int, default=10_000, help="messages the reader identity has seen")
    parser.add_argument("--engine", choices=["sqlite", "postgresql"], default="sqlite")
    args = parser.parse_args()
    cluster = None
    dsn = None
    if args.engine == "postgresql":
        from tests.postgres import PostgresCluster

        cluster = PostgresCluster(durable=True)
        cluster.start()
        dsn = cluster.create_database("bench")
    try:
        run(args, dsn)
    finally:
        if cluster is not None:
            cluster.stop()


def run(args: argparse.Namespace, dsn: str | None) -> None:
    """Pre-fill, start the gateway, measure, print the table."""

    rows: list[tuple[str, str, str]] = [("store engine", "-", args.engine)]
    with tempfile.TemporaryDirectory(prefix="agentmail-bench-") as tmp:
        data = Path(tmp) / "data"
        data.mkdir(mode=0o700)
        now = time.time()
        t = time.perf_counter()
        if dsn is None:
            target_token, reader_token = prefill_identities(data, args.identities, now - 7200)
        else:
            target_token, reader_token = prefill_postgres(dsn, args.identities, now - 7200)
        prefill_maildir(data, args.messages, 50, now - 3600, reader_share=args.seen)
        print(
            f"pre-filled {args.identities:,} identities and {args.messages:,} messages"
            f" in {time.perf_counter() - t:.1f} s",
            file=sys.stderr,
        )
        if dsn is None:  # what every start now pays before it listens (PRAGMA integrity_check)
            checked = time.perf_counter()
            db = sqlite3.connect(data / "identities.db")
            problems = integrity_problems(db)
            db.close()
            rows.append(
                (
                    f"start-up integrity check, {args.identities:,} identities",
                    "-",
                    f"{time.perf_counter() - checked:.1f} s" + (f" ({problems[0]})" if problems else ""),
                )
            )

        http_port, smtp_port = free_port(), free_port()
        proc = start_gateway(data, http_port, smtp_port, dsn)
        try:
            base = f"http://127.0.0.1:{http_port}"
            admin = httpx.Client(base_url=base, headers={"Authorization": f"Bearer {ADMIN}"}, timeout=30)
            mine = httpx.Client(base_url=base, headers={"Authorization": f"Bearer {target_token}"}, timeout=30)

            def up() -> bool:
                try:
                    return admin.get("/health").status_code == 200
                except httpx.TransportError:
                    return False

            started = wait_for(up, 600)

            def target_indexed() -> bool:
                return (
                    len(mine.get(f"/v1/identities/{TARGET}/messages", params={"limit": 200}).json()["messages"]) == 50
                )

            indexed = started + wait_for(target_indexed, 600, step=0.2)
            rows.append((f"start + index {args.messages:,} messages (rebuild)", "-", f"{indexed:.1f} s"))
            rows.append(("gateway RSS after start and rebuild", "< 80 MB idle", f"{rss_mb(proc.pid):.0f} MB"))

            for _ in range(50):  # warm up
                admin.post("/v1/identities", json={})
            create = timed(
                lambda i: admin.post("/v1/identities", json={"local_part": f"bench-{i}"}).raise_for_status(), 1000
            )
            rows.append(
                (
                    f"create identity over HTTP, {args.identities:,} stored",
                    "p50 < 2 ms",
                    f"p50 {statistics.median(create):.2f} ms, p95 {p(create, 0.95):.2f} ms",
                )
            )

            url = f"/v1/identities/{TARGET}/messages"
            listing = timed(lambda i: mine.get(url, params={"limit": 50}).raise_for_status(), 500)

            # The reader has read every one of its messages once.
            reader_client = httpx.Client(base_url=base, headers={"Authorization": f"Bearer {reader_token}"}, timeout=30)
            reader_url = f"/v1/identities/{READER}/messages"
            read_ids: list[str] = []
            before = None
            while True:
                page = admin.get(reader_url, params={"limit": 200, **({"before_id": before} if before else {})}).json()
                read_ids += [m["id"] for m in page["messages"]]
                before = page["next_before_id"]
                if before is None:
                    break
            for message_id in read_ids:
                reader_client.patch(f"{reader_url}/{message_id}", json={"seen": True}).raise_for_status()
            seen_listing = timed(lambda i: reader_client.get(reader_url, params={"limit": 50}).raise_for_status(), 500)
            wait_url = f"/v1/identities/{READER}/wait"
            seen_wait = timed(lambda i: reader_client.get(wait_url, params={"timeout": 0}), 200)  # 408: nothing unseen
            rows.append(
                (
                    f"list an identity's mail, catch-all {args.messages:,}",
                    "p50 < 20 ms",
                    f"p50 {statistics.median(listing):.2f} ms, p95 {p(listing, 0.95):.2f} ms",
                )
            )
            rows.append(
                (
                    f"  ...an identity that has seen {len(read_ids):,} messages",
                    "as above (not its history)",
                    f"p50 {statistics.median(seen_listing):.2f} ms, p95 {p(seen_listing, 0.95):.2f} ms",
                )
            )
            rows.append(
                (
                    f"  ...its wait when all {len(read_ids):,} are seen (408)",
                    "-",
                    f"p50 {statistics.median(seen_wait):.2f} ms, p95 {p(seen_wait, 0.95):.2f} ms",
                )
            )

            # Sustained ingest over one SMTP connection, then how long until all are listed.
            rcpt = f"ingest@{DOMAIN}"
            token = admin.post("/v1/identities", json={"local_part": "ingest"}).json()["token"]
            reader = httpx.Client(base_url=base, headers={"Authorization": f"Bearer {token}"}, timeout=30)
            body = (
                "From: Shop <noreply@shop.example>\r\nTo: {rcpt}\r\nSubject: ingest {i}\r\n"
                "Content-Type: text/html; charset=utf-8\r\n\r\n"
                "<html><body><p>Your verification code is <b>{code}</b>.</p>"
                + "<p>Some newsletter text that makes the message a typical size.</p>" * 40
                + "</body></html>\r\n"
            )
            with smtplib.SMTP("127.0.0.1", smtp_port) as smtp:
                t = time.perf_counter()
                for i in range(args.ingest):
                    smtp.sendmail("noreply@shop.example", [rcpt], body.format(rcpt=rcpt, i=i, code=100000 + i).encode())
                accepted = time.perf_counter() - t
            last = f"ingest {args.ingest - 1}"

            def all_listed() -> bool:
                top = reader.get(f"/v1/identities/{rcpt}/messages", params={"limit": 1}).json()["messages"]
                return bool(top) and top[0]["subject"] == last

            lag = wait_for(all_listed, 60, step=0.01)
            rows.append(
                (
                    "sustained ingest, embedded SMTP, one connection",
                    "≥ MailDev (≈ 500-700 msg/s)",
                    f"{args.ingest / accepted:.0f} msg/s durably accepted",
                )
            )
            rows.append(("  ...last message listed after its 250", "every one within 2 s", f"{lag * 1000:.0f} ms"))

            # Delivery → listed, one message at a time (polling the list: `wait` is a later issue).
            lat = []
            with smtplib.SMTP("127.0.0.1", smtp_port) as smtp:
                for i in range(30):
                    subject = f"latency {i}"
                    t = time.perf_counter()
                    smtp.sendmail(
                        "noreply@shop.example", [rcpt], f"Subject: {subject}\r\nTo: {rcpt}\r\n\r\nx\r\n".encode()
                    )

                    def listed(subject: str = subject) -> bool:
                        top = reader.get(f"/v1/identities/{rcpt}/messages", params={"limit": 1}).json()["messages"]
                        return bool(top) and top[0]["subject"] == subject

                    wait_for(listed, 10, step=0.001)
                    lat.append((time.perf_counter() - t) * 1000)
            rows.append(
                (
                    "SMTP delivery → listed (embedded; polled)",
                    "p50 < 20 ms (to `wait`)",
                    f"p50 {statistics.median(lat):.1f} ms",
                )
            )
            rows.append(("gateway RSS at the end", "-", f"{rss_mb(proc.pid):.0f} MB"))
        finally:
            proc.terminate()
            proc.wait(timeout=30)

    width = max(len(r[0]) for r in rows)
    twidth = max(len(r[1]) for r in rows)
    print(f"{'what':<{width}}  {'target':<{twidth}}  measured")
    for what, target, measured in rows:
        print(f"{what:<{width}}  {target:<{twidth}}  {measured}")


if __name__ == "__main__":
    main()
