"""The Python client (gateway.client): cold import, and SMTP accepted → wait_for_code() returns.

    .venv/bin/python bench/client.py [--imports 20] [--rounds 300]

1. cold `import gateway.client` in a fresh interpreter, `--imports` times: the import alone,
   timed inside the new process (target < 150 ms), then the import plus the first `Gateway()`
   (httpx is imported at first use, not by the import), and the whole process for context;
2. against a real `python -m gateway serve` (embedded SMTP), `--rounds` times for each twin:
   a `wait_for_code()` is started, the mail is sent once the wait is armed (the gateway shows no
   waiter count, so a fixed 30 ms head start is given, as bench/mcp_stdio.py does), and the time
   from the SMTP 250 to the code returned is kept.

Medians, p90 and p99 are quoted; these machines are noisy.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import smtplib
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from run import ADMIN, free_port, p, start_gateway, wait_for  # noqa: E402

from gateway.client import AsyncGateway, Gateway  # noqa: E402

IMPORT_TARGET_MS = 150.0
HEAD_START = 0.03
"""Seconds between starting a wait and sending the mail: the wait is at the gateway by then."""

_IMPORT_ONLY = """
import time
t = time.perf_counter()
import gateway.client
print(time.perf_counter() - t)
"""
_IMPORT_AND_CONSTRUCT = """
import time
t = time.perf_counter()
import gateway.client
gateway.client.Gateway("http://127.0.0.1:9").close()
print(time.perf_counter() - t)
"""


def cold(code: str, runs: int) -> tuple[list[float], list[float]]:
    """(time inside the process, whole process wall time) in ms for `runs` fresh interpreters."""
    inside, whole = [], []
    for _ in range(runs):
        t = time.perf_counter()
        out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, capture_output=True, text=True)
        whole.append((time.perf_counter() - t) * 1000)
        inside.append(float(out.stdout) * 1000)
    return inside, whole


def _mail(to: str, code: str) -> bytes:
    return (
        f"From: App <noreply@example.com>\r\nTo: {to}\r\nSubject: Your code\r\n"
        f"Message-ID: <{code}.{time.time_ns()}@example.com>\r\n\r\nYour verification code is {code}.\r\n"
    ).encode()


def _send(smtp_port: int, to: str, code: str) -> float:
    """Send one code mail; the moment the SMTP server accepted it."""
    with smtplib.SMTP("127.0.0.1", smtp_port) as smtp:
        smtp.sendmail("noreply@example.com", [to], _mail(to, code))
    return time.perf_counter()


def sync_latencies(url: str, smtp_port: int, rounds: int) -> list[float]:
    out = []
    with Gateway(url, ADMIN) as gw, gw.create_identity() as me:
        for i in range(rounds):
            code = f"{300000 + i}"
            got: list[tuple[str, float]] = []

            def wait(into: list[tuple[str, float]] = got) -> None:
                into.append((me.wait_for_code(timeout=30), time.perf_counter()))

            waiter = threading.Thread(target=wait)
            waiter.start()
            time.sleep(HEAD_START)
            sent = _send(smtp_port, me.address, code)
            waiter.join()
            ((found, done),) = got
            assert found == code, (found, code)
            out.append((done - sent) * 1000)
    return out


async def async_latencies(url: str, smtp_port: int, rounds: int) -> list[float]:
    out = []
    async with AsyncGateway(url, ADMIN) as gw, await gw.create_identity() as me:
        for i in range(rounds):
            code = f"{600000 + i}"
            waiting = asyncio.create_task(me.wait_for_code(timeout=30))
            await asyncio.sleep(HEAD_START)
            sent = await asyncio.to_thread(_send, smtp_port, me.address, code)
            found = await waiting
            out.append((time.perf_counter() - sent) * 1000)
            assert found == code, (found, code)
    return out


def row(what: str, samples: list[float], unit: str = "ms") -> dict[str, float | str]:
    line = {
        "what": what,
        "median": statistics.median(samples),
        "p90": p(samples, 0.90),
        "p99": p(samples, 0.99),
        "n": len(samples),
    }
    print(f"{what:58} {line['median']:8.1f}{unit} {line['p90']:8.1f}{unit} {line['p99']:8.1f}{unit} {len(samples):5}")
    return line


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--imports", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--json", action="store_true", help="also print the figures as one JSON line")
    args = parser.parse_args()

    print(f"{'what':58} {'median':>10} {'p90':>10} {'p99':>10} {'n':>5}")
    rows = []
    import_only, process = cold(_IMPORT_ONLY, args.imports)
    rows.append(row("cold `import gateway.client` (in the new process)", import_only))
    rows.append(row("  the whole process (interpreter start + import)", process))
    constructed, _ = cold(_IMPORT_AND_CONSTRUCT, args.imports)
    rows.append(row("cold import + first Gateway() (httpx imported)", constructed))

    with tempfile.TemporaryDirectory() as scratch:
        http_port, smtp_port = free_port(), free_port()
        server = start_gateway(Path(scratch) / "data", http_port, smtp_port)
        url = f"http://127.0.0.1:{http_port}"
        try:
            wait_for(lambda: _healthy(url), timeout=60)
            rows.append(
                row("SMTP accepted -> wait_for_code() returns (Gateway)", sync_latencies(url, smtp_port, args.rounds))
            )
            latencies = asyncio.run(async_latencies(url, smtp_port, args.rounds))
            rows.append(row("SMTP accepted -> wait_for_code() returns (AsyncGateway)", latencies))
        finally:
            server.terminate()
            server.wait(timeout=30)
    if args.json:
        print(json.dumps(rows))
    median_import = statistics.median(import_only)
    verdict = "meets" if median_import < IMPORT_TARGET_MS else "MISSES"
    print(f"cold import median {median_import:.1f} ms {verdict} the {IMPORT_TARGET_MS:.0f} ms target")
    return 0 if median_import < IMPORT_TARGET_MS else 1


def _healthy(url: str) -> bool:
    try:
        return httpx.get(f"{url}/health", timeout=1).status_code == 200
    except httpx.HTTPError:
        return False


if __name__ == "__main__":
    sys.exit(main())
