"""Ingest side by side with MailDev 3: SMTP messages a second, one connection and eight.

    .venv/bin/python bench/ingest.py [--rounds 5] [--messages 1500] [--connections 8]

MailDev 3 comes from the npm registry (installed once into the user's cache directory) and runs
in memory, fsyncing nothing; the gateway runs as `agentmail-gateway serve` on a scratch data
directory and answers 250 only once a message is on disk. Both take the same messages from the
same client (this process: a lean asyncio SMTP client, so the client's own cost does not hide
the servers'), in interleaved rounds: gateway, MailDev, gateway, ... Medians are quoted, and the
ratio of the medians. After each gateway burst the bench checks over the API that its last
message was indexed (the time since its 250) and that every message is there exactly once.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import httpx
from platformdirs import user_cache_dir

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from run import ADMIN, DOMAIN, free_port, rss_mb, start_gateway, wait_for  # noqa: E402

MAILDEV = "maildev@3"
SENDER = "noreply@shop.example"
BODY = (
    "From: Shop <noreply@shop.example>\r\nTo: {rcpt}\r\nSubject: ingest {tag}\r\n"
    "Message-ID: <{tag}@shop.example>\r\nContent-Type: text/html; charset=utf-8\r\n\r\n"
    "<html><body><p>Your verification code is <b>{code}</b>.</p>"
    + "<p>Some newsletter text that makes the message a typical size.</p>" * 40
    + "</body></html>\r\n"
)


def maildev_entry() -> Path:
    """MailDev 3's command-line entry point, installed from npm into the cache on first use."""
    prefix = Path(user_cache_dir("agentmail-gateway")) / "bench" / "maildev"
    entry = prefix / "node_modules" / "maildev" / "dist" / "bin" / "maildev.js"
    if not entry.exists():
        npm = shutil.which("npm")
        if npm is None:
            raise SystemExit("npm is needed to install MailDev for the comparison")
        prefix.mkdir(parents=True, exist_ok=True)
        print(f"installing {MAILDEV} from npm into {prefix}", file=sys.stderr)
        subprocess.run(
            [npm, "install", "--prefix", str(prefix), "--no-audit", "--no-fund", "--silent", MAILDEV], check=True
        )
    return entry


def start_maildev(smtp_port: int, web_port: int) -> subprocess.Popen[bytes]:
    node = shutil.which("node")
    if node is None:
        raise SystemExit("node is needed to run MailDev")
    return subprocess.Popen(
        [
            node,
            str(maildev_entry()),
            *("--smtp", str(smtp_port), "--ip", "127.0.0.1"),
            *("--web", str(web_port), "--web-ip", "127.0.0.1", "--silent"),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def listening(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


async def _reply(reader: asyncio.StreamReader) -> bytes:
    """One SMTP reply (all its lines); its last line."""
    while True:
        line = await reader.readline()
        if not line:
            raise ConnectionError("the server closed the connection")
        if line[3:4] != b"-":
            return line


async def _expect(reader: asyncio.StreamReader, code: bytes) -> None:
    line = await _reply(reader)
    if not line.startswith(code):
        raise RuntimeError(f"SMTP: expected {code!r}, got {line!r}")


async def _connection(port: int, messages: Sequence[tuple[str, bytes]], acked: list[float]) -> None:
    """Send `messages` ((recipient, data with the final dot)) over one connection, one after another."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        await _expect(reader, b"220")
        writer.write(b"EHLO bench.example\r\n")
        await _expect(reader, b"250")
        for rcpt, data in messages:
            writer.write(f"MAIL FROM:<{SENDER}>\r\n".encode())
            await _expect(reader, b"250")
            writer.write(f"RCPT TO:<{rcpt}>\r\n".encode())
            await _expect(reader, b"250")
            writer.write(b"DATA\r\n")
            await _expect(reader, b"354")
            writer.write(data)
            await _expect(reader, b"250")
            acked.append(time.perf_counter())
        writer.write(b"QUIT\r\n")
        await _reply(reader)
    finally:
        writer.close()


def prepared(tag: str, count: int, rcpt: str) -> list[tuple[str, bytes]]:
    """`count` messages to `rcpt`, each with the SMTP end-of-data marker; subjects `ingest {tag}-{i}`."""
    return [(rcpt, BODY.format(rcpt=rcpt, tag=f"{tag}-{i}", code=100000 + i).encode() + b".\r\n") for i in range(count)]


def burst(port: int, messages: list[tuple[str, bytes]], connections: int) -> tuple[float, float]:
    """(messages a second from first byte to last 250, perf_counter of the last 250)."""
    shares = [messages[i::connections] for i in range(connections)]
    acked: list[float] = []

    async def all_of_them() -> float:
        start = time.perf_counter()
        await asyncio.gather(*(_connection(port, share, acked) for share in shares))
        return start

    start = asyncio.run(all_of_them())
    if len(acked) != len(messages):
        raise RuntimeError(f"{len(acked)} of {len(messages)} acknowledged")
    return len(messages) / (max(acked) - start), max(acked)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--messages", type=int, default=1500, help="per burst")
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--loop", default=None, help="AGENTMAIL_LOOP for the gateway (auto, asyncio, uvloop)")
    args = parser.parse_args()

    maildev_entry()
    rcpt = f"ingest@{DOMAIN}"
    with tempfile.TemporaryDirectory(prefix="agentmail-ingest-") as tmp:
        data = Path(tmp) / "data"
        data.mkdir(mode=0o700)
        g_http, g_smtp, m_smtp, m_web = free_port(), free_port(), free_port(), free_port()
        extra = {"AGENTMAIL_LOOP": args.loop} if args.loop else {}
        gateway = start_gateway(data, g_http, g_smtp, extra=extra)
        maildev = start_maildev(m_smtp, m_web)
        try:
            base = f"http://127.0.0.1:{g_http}"
            admin = httpx.Client(base_url=base, headers={"Authorization": f"Bearer {ADMIN}"}, timeout=30)
            wait_for(lambda: listening(g_http) and listening(g_smtp) and listening(m_smtp), 120)
            token = admin.post("/v1/identities", json={"local_part": "ingest"}).raise_for_status().json()["token"]
            reader = httpx.Client(base_url=base, headers={"Authorization": f"Bearer {token}"}, timeout=30)
            idle_rss = rss_mb(gateway.pid)
            # Warm both up (imports, JIT, first allocations) before anything is measured.
            burst(g_smtp, prepared("warm", 200, rcpt), 2)
            burst(m_smtp, prepared("warm", 200, rcpt), 2)
            rates: dict[tuple[str, int], list[float]] = {}
            lags: list[float] = []
            problems: list[str] = []
            for r in range(args.rounds):
                for conns in (1, args.connections):
                    for name, port in (("gateway", g_smtp), ("maildev", m_smtp)):
                        tag = f"r{r}c{conns}{name[0]}"
                        rate, last_ack = burst(port, prepared(tag, args.messages, rcpt), conns)
                        rates.setdefault((name, conns), []).append(rate)
                        if name != "gateway":
                            continue
                        lag, problem = indexed_after(reader, rcpt, tag, args.messages, last_ack)
                        lags.append(lag)
                        if problem:
                            problems.append(problem)
                print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)
            rows = [("gateway RSS, idle after start", "< 80 MB", f"{idle_rss:.0f} MB")]
            for conns, target in ((1, 1.0), (args.connections, 2.0)):
                ours = statistics.median(rates[("gateway", conns)])
                theirs = statistics.median(rates[("maildev", conns)])
                rows.append(
                    (
                        f"ingest, {conns} connection{'s' if conns > 1 else ''}, msg/s (gateway / MailDev)",
                        f"≥ {target:.1f}x MailDev",
                        f"{ours:,.0f} / {theirs:,.0f} = {ours / theirs:.2f}x",
                    )
                )
            rows.append(
                (
                    "last message of a burst indexed after its 250",
                    "< 2 s; 0 lost, 0 dup",
                    f"median {statistics.median(lags) * 1000:.0f} ms, max {max(lags) * 1000:.0f} ms; "
                    + ("; ".join(problems) if problems else "0 lost, 0 duplicated"),
                )
            )
            rows.append(("gateway RSS at the end", "-", f"{rss_mb(gateway.pid):.0f} MB"))
            width = max(len(r[0]) for r in rows)
            twidth = max(len(r[1]) for r in rows)
            print(f"{'what':<{width}}  {'target':<{twidth}}  measured")
            for what, target, measured in rows:
                print(f"{what:<{width}}  {target:<{twidth}}  {measured}")
        finally:
            for proc in (gateway, maildev):
                proc.terminate()
                proc.wait(timeout=30)


def indexed_after(reader: httpx.Client, rcpt: str, tag: str, count: int, last_ack: float) -> tuple[float, str | None]:
    """Seconds from the burst's last 250 until its last message is listed; a problem, if any is lost or doubled."""
    url = f"/v1/identities/{rcpt}/messages"
    want = {f"ingest {tag}-{i}" for i in range(count)}

    def done() -> bool:
        top = reader.get(url, params={"limit": 1}).json()["messages"]
        return bool(top and top[0]["subject"] in want) and _count(reader, url, tag) >= count

    wait_for(done, 60, step=0.005)
    lag = time.perf_counter() - last_ack
    seen = _subjects(reader, url, tag)
    lost = len(want - set(seen))
    doubled = len(seen) - len(set(seen))
    problem = f"{tag}: {lost} lost, {doubled} duplicated" if lost or doubled else None
    return lag, problem


def _subjects(reader: httpx.Client, url: str, tag: str) -> list[str]:
    out: list[str] = []
    before = None
    while True:
        page = reader.get(url, params={"limit": 200, **({"before_id": before} if before else {})}).json()
        out += [m["subject"] for m in page["messages"]]
        if any(not m["subject"].startswith(f"ingest {tag}-") for m in page["messages"]):
            break  # older bursts below: this one is read whole
        before = page["next_before_id"]
        if before is None:
            break
    return [s for s in out if s.startswith(f"ingest {tag}-")]


def _count(reader: httpx.Client, url: str, tag: str) -> int:
    return len(set(_subjects(reader, url, tag)))


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
