"""Soak: steady SMTP load with many open waits and event streams against a real `serve` process.

    .venv/bin/python bench/soak.py [--seconds 60] [--rate 200] [--identities 1000] [--waits 500] [--sse 50] [--json]

Loopback only. Starts `python -m gateway serve` (this checkout) on a scratch data directory,
creates the identities over HTTP, opens `--waits` long-polls (one per identity, re-armed after
each answer) and `--sse` event streams on other identities, then sends `--rate` messages a second
for `--seconds` over eight SMTP connections, each to a random identity. Afterwards it waits (at
most DRAIN_SECONDS) for every wait and stream to see its mail, and checks every accepted message
is in its identity's listing. Reports: messages lost (accepted but not listed; must be 0), waits
and streams that never saw their mail, p50/p99 wake latency (the client's 250 → the wait's or
the stream's answer), and the gateway's RSS before and after. `--json` prints one JSON object
(tests/test_soak.py runs the 10 s version).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import random
import smtplib
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import asdict, dataclass, field
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.serve import ServeProcess  # noqa: E402

DOMAIN = "soak.test"
ADMIN = "am_soak-admin-token-0123456789abcdef"
SMTP_CONNECTIONS = 8
SENDER_PROCESSES = 2
DRAIN_SECONDS = 30.0
"""After the last message: how long waits and streams may take to see what is still in flight."""
STALE_AFTER = 5.0
"""A wait that times out while mail older than this is still unanswered missed a wake-up."""


@dataclass
class Report:
    seconds: float
    rate_wanted: float
    rate_sent: float
    identities: int
    waits: int
    sse: int
    accepted: int
    refused: int
    lost: int
    """Accepted (250) but not in the identity's listing after the drain."""
    duplicated: int
    waited_messages: int
    waits_missed: int
    """Messages to a waited identity no wait answered with."""
    sse_messages: int
    sse_missed: int
    wake_p50_ms: float
    wake_p99_ms: float
    wake_max_ms: float
    repeated_wakes: int
    """Answers of a wait with a message some wait had already been given (each must be handed out once)."""
    stale_wait_timeouts: int
    """408s answered while mail for that identity had been accepted over a second before the wait began."""
    client_lag_p99_ms: float
    """How late the bench's own event loop ran (p99): a floor under the wake latencies it reports."""
    rss_start_mb: float
    rss_peak_mb: float
    rss_end_mb: float
    phases: dict[str, float] = field(default_factory=dict)
    """Wall seconds of the phases around the load (identity creation, drain, index check)."""
    errors: list[str] = field(default_factory=list)


def send_mail(
    smtp_port: int, addresses: list[str], rate: float, start: float, total: int, conns: range, results: Any
) -> None:
    """A sender process: one thread per SMTP connection in `conns`, message i due at start + i/rate."""

    def connection(conn: int) -> None:
        rng = random.Random(conn)
        client: smtplib.SMTP | None = None
        for i in range(conn, total, SMTP_CONNECTIONS):
            delay = start + i / rate - time.monotonic()
            if delay > 0:
                time.sleep(delay)  # pacing the load, not synchronisation
            address = addresses[rng.randrange(len(addresses))]
            subject = f"soak-{i}"
            msg = EmailMessage()
            msg["From"] = "load@example.com"
            msg["To"] = address
            msg["Subject"] = subject
            msg.set_content(f"Your code is {100000 + i % 900000}.\n" + "lorem ipsum " * 40)
            try:
                if client is None:
                    client = smtplib.SMTP("127.0.0.1", smtp_port, timeout=30)
                client.sendmail("load@example.com", [address], msg.as_bytes())
            except (smtplib.SMTPException, OSError) as exc:
                results.put(("refused", subject, repr(exc), time.monotonic()))
                client = None
                continue
            results.put(("ok", subject, address, time.monotonic()))
        if client is not None:
            client.quit()

    threads = [threading.Thread(target=connection, args=(conn,)) for conn in conns]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    results.put(("done", "", "", 0.0))


def progress(text: str) -> None:
    print(f"soak: {text}", file=sys.stderr, flush=True)


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class RawHttp:
    """A minimal HTTP/1.1 client on one keep-alive connection.

    httpx costs this process more CPU than 550 idle connections are worth: its event loop then
    runs late, and every wake-up it records looks late with it.
    """

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, port: int) -> RawHttp:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        return cls(reader, writer)

    def close(self) -> None:
        self.writer.close()

    async def _request(self, path: str, token: str, extra: dict[str, str]) -> tuple[int, dict[str, str]]:
        headers = {"Host": "127.0.0.1", "Authorization": f"Bearer {token}", **extra}
        head = f"GET {path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers.items()) + "\r\n"
        self.writer.write(head.encode())
        await self.writer.drain()
        status_line = await self.reader.readuntil(b"\r\n")
        if not status_line:
            raise ConnectionResetError("closed before the status line")
        status = int(status_line.split()[1])
        fields: dict[str, str] = {}
        while (line := await self.reader.readuntil(b"\r\n")) != b"\r\n":
            name, _, value = line.decode("latin-1").partition(":")
            fields[name.strip().lower()] = value.strip()
        return status, fields

    async def get(self, path: str, token: str) -> tuple[int, bytes]:
        status, fields = await self._request(path, token, {})
        if "content-length" in fields:
            body = await self.reader.readexactly(int(fields["content-length"]))
        else:
            body = b"".join([chunk async for chunk in self._chunks()])
        if fields.get("connection", "").lower() == "close":
            raise ConnectionResetError("server closes the connection")  # reconnect next time
        return status, body

    async def start_stream(self, path: str, token: str, extra: dict[str, str]) -> int:
        status, fields = await self._request(path, token, {"Accept": "text/event-stream", **extra})
        if fields.get("transfer-encoding") != "chunked":
            raise ValueError(f"stream not chunked: {fields}")
        return status

    async def _chunks(self) -> AsyncIterator[bytes]:
        while True:
            size = int((await self.reader.readuntil(b"\r\n")).split(b";")[0], 16)
            if size == 0:
                await self.reader.readuntil(b"\r\n")
                return
            yield await self.reader.readexactly(size)
            await self.reader.readexactly(2)

    async def stream_lines(self) -> AsyncIterator[str]:
        buffer = b""
        async for chunk in self._chunks():
            buffer += chunk
            *lines, buffer = buffer.split(b"\n")
            for line in lines:
                yield line.decode().rstrip("\r")


class Soak:
    def __init__(self, args: argparse.Namespace, gateway: ServeProcess) -> None:
        self.args = args
        self.gateway = gateway
        self.identities: list[tuple[str, str]] = []
        self.accepted: dict[str, tuple[str, float]] = {}
        """subject → (address, monotonic time the 250 was read)."""
        self.refused = 0
        self.woken: dict[str, float] = {}
        """subject → when a wait answered with it."""
        self.streamed: dict[str, float] = {}
        self.lock = threading.Lock()
        self.errors: list[str] = []
        self.sending_done = threading.Event()
        self.rss_peak = 0.0
        self.loop_lag: list[float] = []
        self.phases: dict[str, float] = {}
        self.stale_timeouts: list[tuple[str, list[str]]] = []
        self.wake_count: Counter[str] = Counter()

    # -- set-up ----------------------------------------------------------------------------------

    async def create_identities(self, client: httpx.AsyncClient) -> None:
        names = iter(range(self.args.identities))

        async def worker() -> None:
            for i in names:
                response = await client.post("/v1/identities", json={"local_part": f"soak-{i:05d}"})
                response.raise_for_status()
                self.identities.append((response.json()["address"], response.json()["token"]))

        await asyncio.gather(*(worker() for _ in range(8)))
        self.identities.sort()

    # -- listeners -------------------------------------------------------------------------------

    async def waiter(self, address: str, token: str) -> None:
        """One long-poll after another on one keep-alive connection; records what each answered."""
        conn: RawHttp | None = None
        path = f"/v1/identities/{address}/wait?timeout={self.args.wait_timeout:g}"
        while True:
            try:
                if conn is None:
                    conn = await RawHttp.open(self.gateway.http_port)
                status, body = await asyncio.wait_for(conn.get(path, token), self.args.wait_timeout + 10)
            except (OSError, asyncio.IncompleteReadError, TimeoutError, ValueError) as exc:
                self.errors.append(f"wait {address}: {exc!r}")
                if conn is not None:
                    conn.close()
                conn = None
                continue
            now = time.monotonic()
            if status == 200:
                subject = json.loads(body)["subject"]
                self.wake_count[subject] += 1
                self.woken.setdefault(subject, now)
            elif status == 408:
                # A timeout while mail for this identity, accepted long before, was never handed
                # out: whether the wait was open when it came (its ring was lost) or began after
                # (it should have found it at once), this wait ought to have answered with it.
                with self.lock:
                    mine = [(s, t) for s, (a, t) in self.accepted.items() if a == address]
                pending = [s for s, t in mine if t < now - STALE_AFTER and s not in self.woken]
                if pending:
                    self.stale_timeouts.append((address, pending))
            else:
                self.errors.append(f"wait {address}: {status} {body[:200]!r}")
                await asyncio.sleep(0.5)

    async def streamer(self, address: str, token: str, ready: asyncio.Event) -> None:
        """One event stream, resumed with Last-Event-ID if the connection drops."""
        last: str | None = None
        path = f"/v1/identities/{address}/events"
        while True:
            conn: RawHttp | None = None
            try:
                conn = await RawHttp.open(self.gateway.http_port)
                extra = {"Last-Event-ID": last} if last else {}
                status = await conn.start_stream(path, token, extra)
                if status != 200:
                    self.errors.append(f"sse {address}: {status}")
                    await asyncio.sleep(0.5)
                    continue
                ready.set()
                async for line in conn.stream_lines():
                    if line.startswith("id:"):
                        last = line[3:].strip()
                    elif line.startswith("data:") and line[5:].strip():  # keep-alives carry an empty one
                        self.streamed.setdefault(json.loads(line[5:])["subject"], time.monotonic())
            except (OSError, asyncio.IncompleteReadError, ValueError) as exc:
                self.errors.append(f"sse {address}: {exc!r}")
            finally:
                if conn is not None:
                    conn.close()

    # -- load ------------------------------------------------------------------------------------

    def collect(self, results: Any, processes: int) -> None:
        """Drain the sender processes' results until each said it is done (a thread of this process)."""
        done = 0
        while done < processes:
            kind, subject, detail, when = results.get(timeout=120)
            with self.lock:
                if kind == "ok":
                    self.accepted[subject] = (detail, when)
                elif kind == "refused":
                    self.refused += 1
                    self.errors.append(f"smtp {subject}: {detail}")
                else:
                    done += 1

    async def measure_lag(self) -> None:
        """How late this process's event loop runs (if it is late, so are the wake times it records)."""
        while True:
            before = time.monotonic()
            await asyncio.sleep(0.05)
            self.loop_lag.append((time.monotonic() - before - 0.05) * 1000)

    # -- the run ---------------------------------------------------------------------------------

    async def run(self) -> Report:
        args = self.args
        limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
        async with httpx.AsyncClient(
            base_url=self.gateway.base_url,
            headers={"Authorization": f"Bearer {ADMIN}"},
            limits=limits,
            timeout=30,
        ) as client:
            began = time.monotonic()
            await self.create_identities(client)
            self.phases["create_identities_s"] = round(time.monotonic() - began, 1)
            progress(f"{len(self.identities)} identities in {self.phases['create_identities_s']} s")
            waited = self.identities[: args.waits]
            streamed = self.identities[args.waits : args.waits + args.sse]
            listeners = [asyncio.create_task(self.waiter(a, t)) for a, t in waited]
            ready = [asyncio.Event() for _ in streamed]
            listeners += [
                asyncio.create_task(self.streamer(a, t, r)) for (a, t), r in zip(streamed, ready, strict=True)
            ]
            await asyncio.wait_for(asyncio.gather(*(r.wait() for r in ready)), 30)
            assert self.gateway.proc is not None
            pid = self.gateway.proc.pid
            rss_start = rss_mb(pid)

            total = int(args.seconds * args.rate)
            # The senders run in processes of their own: in this one they would hold the GIL
            # against the 550 listeners and every wake-up would look late. CLOCK_MONOTONIC is
            # one clock for all processes, so their 250 times compare with our wake times.
            start = time.monotonic() + 1.0
            context = multiprocessing.get_context("spawn")
            results = context.Queue()
            addresses = [a for a, _ in self.identities]
            per = SMTP_CONNECTIONS // SENDER_PROCESSES
            senders = [
                context.Process(
                    target=send_mail,
                    args=(
                        self.gateway.smtp_port,
                        addresses,
                        args.rate,
                        start,
                        total,
                        range(p * per, (p + 1) * per),
                        results,
                    ),
                    daemon=True,
                )
                for p in range(SENDER_PROCESSES)
            ]
            for process in senders:
                process.start()
            collector = asyncio.create_task(asyncio.to_thread(self.collect, results, len(senders)))
            lag = asyncio.create_task(self.measure_lag())
            while not collector.done():
                self.rss_peak = max(self.rss_peak, rss_mb(pid))
                await asyncio.wait([collector], timeout=0.5)
            await collector
            progress(f"sent: {len(self.accepted)} accepted, {self.refused} refused")
            sent_for = time.monotonic() - start
            for process in senders:
                process.join(timeout=10)
            results.close()

            waited_addresses = {a for a, _ in waited}
            streamed_addresses = {a for a, _ in streamed}
            to_wait = {s for s, (a, _) in self.accepted.items() if a in waited_addresses}
            to_stream = {s for s, (a, _) in self.accepted.items() if a in streamed_addresses}
            drain_began = time.monotonic()
            deadline = drain_began + DRAIN_SECONDS
            while time.monotonic() < deadline and not (
                to_wait <= self.woken.keys() and to_stream <= self.streamed.keys()
            ):
                self.rss_peak = max(self.rss_peak, rss_mb(pid))
                await asyncio.sleep(0.1)
            for task in [*listeners, lag]:
                task.cancel()
            progress(f"drained: {len(self.woken)} woken, {len(self.streamed)} streamed; checking the index")
            await asyncio.gather(*listeners, return_exceptions=True)

            self.phases["drain_s"] = round(time.monotonic() - drain_began, 1)
            began = time.monotonic()
            lost, duplicated = await self.check_index(client)
            self.phases["check_index_s"] = round(time.monotonic() - began, 1)
            rss_end = rss_mb(pid)

        latencies = [
            (when - self.accepted[s][1]) * 1000
            for source in (self.woken, self.streamed)
            for s, when in source.items()
            if s in self.accepted
        ]
        quantiles = statistics.quantiles(latencies, n=100) if len(latencies) >= 2 else [float("nan")] * 99
        return Report(
            seconds=args.seconds,
            rate_wanted=args.rate,
            rate_sent=round(len(self.accepted) / sent_for, 1),
            identities=len(self.identities),
            waits=len(waited),
            sse=len(streamed),
            accepted=len(self.accepted),
            refused=self.refused,
            lost=lost,
            duplicated=duplicated,
            waited_messages=len(to_wait),
            waits_missed=len(to_wait - self.woken.keys()),
            sse_messages=len(to_stream),
            sse_missed=len(to_stream - self.streamed.keys()),
            wake_p50_ms=round(quantiles[49], 1),
            wake_p99_ms=round(quantiles[98], 1),
            wake_max_ms=round(max(latencies, default=float("nan")), 1),
            repeated_wakes=sum(n - 1 for n in self.wake_count.values()),
            stale_wait_timeouts=len(self.stale_timeouts),
            client_lag_p99_ms=round(statistics.quantiles(self.loop_lag, n=100)[98], 1)
            if len(self.loop_lag) > 1
            else 0.0,
            rss_start_mb=round(rss_start, 1),
            rss_peak_mb=round(self.rss_peak, 1),
            rss_end_mb=round(rss_end, 1),
            phases=self.phases,
            errors=self.errors[:20],
        )

    async def check_index(self, client: httpx.AsyncClient) -> tuple[int, int]:
        """(accepted messages missing from their identity's listing, subjects listed more than once)."""
        expected: dict[str, set[str]] = {}
        for subject, (address, _) in self.accepted.items():
            expected.setdefault(address, set()).add(subject)
        addresses = iter(sorted(expected))
        lost = duplicated = 0

        async def worker() -> None:
            nonlocal lost, duplicated
            for address in addresses:
                subjects: list[str] = []
                params: dict[str, Any] = {"limit": 200}
                for _ in range(1000):
                    page = (await client.get(f"/v1/identities/{address}/messages", params=params)).json()
                    subjects += [m["subject"] for m in page["messages"]]
                    if page["next_before_id"] is None:
                        break
                    params["before_id"] = page["next_before_id"]
                lost += len(expected[address] - set(subjects))
                duplicated += len(subjects) - len(set(subjects))

        await asyncio.gather(*(worker() for _ in range(8)))
        return lost, duplicated


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--rate", type=float, default=200, help="messages per second")
    parser.add_argument("--identities", type=int, default=1000)
    parser.add_argument("--waits", type=int, default=500)
    parser.add_argument("--sse", type=int, default=50)
    parser.add_argument("--wait-timeout", type=float, default=30, help="each wait's timeout (s)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    parser.add_argument("--profile", metavar="FILE", help="run the gateway under cProfile, stats written to FILE")
    args = parser.parse_args(argv)
    if args.waits + args.sse > args.identities:
        parser.error("--waits + --sse must not exceed --identities")
    with tempfile.TemporaryDirectory(prefix="agentmail-soak-") as scratch:
        gateway = ServeProcess(
            Path(scratch) / "data",
            Path(scratch) / "logs",
            domain=DOMAIN,
            admin_token=ADMIN,
            env={"AGENTMAIL_LOG_LEVEL": "warning"},
            python_args=["-m", "cProfile", "-o", str(Path(args.profile).resolve())] if args.profile else (),
        )
        with gateway:
            report = asyncio.run(Soak(args, gateway).run())
        report.errors += [line for line in gateway.output().splitlines() if "Traceback" in line or "ERROR" in line][:20]
    if args.json:
        print(json.dumps(asdict(report)))
    else:
        for name, value in asdict(report).items():
            print(f"{name:18} {value}")
    return 0 if report.lost == 0 and report.waits_missed == 0 and report.sse_missed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
