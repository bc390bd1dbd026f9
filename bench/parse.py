"""Hostile MIME: worst-case parse times, and the red team's message end to end. Prints a table.

    .venv/bin/python bench/parse.py [--runs 3] [--skip-gateway]

Parse times are of `parse_message` on one core, for the corpus/malformed/ cases and for inputs
of up to 25 MB built to hit each cost the parser bounds (median of `--runs`). End to end, it
starts `agentmail-gateway serve` (as bench/run.py does), sends the red team's message (20,000
header lines, 9,900 parts) to 6 and to 100 recipients, and times from its 250 to another
identity's `wait` returning; then RSS while idle after five 20 MB messages.
"""

from __future__ import annotations

import argparse
import base64
import os
import smtplib
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.run import ADMIN, DOMAIN, free_port, rss_mb, start_gateway, wait_for  # noqa: E402
from corpus.malformed.cases import CASES, red_team  # noqa: E402
from gateway.mail.parse import parse_message  # noqa: E402

MB = 1_000_000
CRLF = b"\r\n"


def _nested(depth: int, leaf: bytes) -> bytes:
    part = leaf
    for level in range(depth):
        b = b"n%d" % level
        part = (
            b'Content-Type: multipart/mixed; boundary="'
            + b
            + b'"\r\n\r\n--'
            + b
            + CRLF
            + part
            + b"\r\n--"
            + b
            + b"--\r\n"
        )
    return b"Subject: nested\r\n" + part


def worst_cases() -> dict[str, Callable[[], bytes]]:
    """Inputs of up to 25 MB, each aimed at one cost of the stdlib parser."""
    mixed = b'Content-Type: multipart/mixed; boundary="b"\r\n\r\n'
    return {
        "red team, 400,000 header lines (24 MB)": lambda: red_team(400_000, 9_900),
        "tiny parts (25 MB)": lambda: mixed + b"--b\r\n\r\nx\r\n" * (25 * MB // 10),
        "2,000 parts x 2,000 header lines (24 MB)": lambda: (
            mixed + (b"--b\r\n" + b"X: y\r\n" * 2000 + b"\r\nx\r\n") * 2000
        ),
        "100-deep nesting, 8 M lines (24 MB)": lambda: _nested(
            100, b"Content-Type: text/plain\r\n\r\n" + b"d\r\n" * (8 * MB)
        ),
        "1,000-deep nesting, 1 M lines (3 MB)": lambda: _nested(1000, b"\r\n" + b"d\r\n" * MB),
        "25 M empty lines": lambda: b"Subject: x\r\n\r\n" + b"\n" * (25 * MB),
        "25 M carriage returns": lambda: b"\r" * (25 * MB),
        "message/rfc822 x 780,000 (25 MB)": lambda: b"Content-Type: message/rfc822\r\n\r\n" * (25 * MB // 32),
        "4 M header fields (25 MB)": lambda: b"X: y\r\n" * (25 * MB // 6) + b"\r\nbody",
        "base64 attachment (25 MB)": lambda: (
            b"Content-Type: text/plain\r\nContent-Transfer-Encoding: base64\r\n\r\n"
            + (b"QUJD" * 19 + CRLF) * (25 * MB // 78)
        ),
        "short HTML lines (25 MB)": lambda: b"Content-Type: text/html\r\n\r\n" + b"<p>x</p>\r\n" * (25 * MB // 10),
        "one 25 MB line": lambda: b"Subject: x\r\n\r\n" + b"x" * (25 * MB),
    } | {f"corpus/malformed {c.name}": c.build for c in CASES}


def parse_times(runs: int) -> list[tuple[str, str, str]]:
    rows = []
    for name, build in worst_cases().items():
        raw = build()
        samples = []
        for _ in range(runs):
            t = time.perf_counter()
            parsed = parse_message(raw)
            samples.append(time.perf_counter() - t)
        cut = " (cut)" if parsed.truncated else ""
        rows.append((f"parse: {name}", "well under 1 s", f"{statistics.median(samples) * 1000:.0f} ms{cut}"))
        print(*rows[-1], sep="  |  ", file=sys.stderr, flush=True)
    return rows


def _big_message(i: int) -> bytes:
    """About 20 MB: an HTML part and a base64 attachment."""
    html = b"<p>hello world <b>x</b></p>\r\n" * 200_000
    payload = base64.encodebytes(os.urandom(14_000_000)).replace(b"\n", CRLF)
    return (
        b"From: a@shop.example\r\nSubject: big %d\r\n" % i
        + b'Content-Type: multipart/mixed; boundary="b"\r\n\r\n--b\r\nContent-Type: text/html\r\n\r\n'
        + html
        + b"\r\n--b\r\nContent-Type: application/octet-stream\r\nContent-Transfer-Encoding: base64\r\n\r\n"
        + payload
        + b"\r\n--b--\r\n"
    )


def end_to_end(runs: int, copies_list: list[int]) -> list[tuple[str, str, str]]:
    rows = []
    with tempfile.TemporaryDirectory(prefix="agentmail-bench-parse-") as tmp:
        data = Path(tmp) / "data"
        data.mkdir(mode=0o700)
        http_port, smtp_port = free_port(), free_port()
        proc = start_gateway(data, http_port, smtp_port)
        try:
            base = f"http://127.0.0.1:{http_port}"
            admin = httpx.Client(base_url=base, headers={"Authorization": f"Bearer {ADMIN}"}, timeout=120)

            def up() -> bool:
                try:
                    return admin.get("/health").status_code == 200
                except httpx.TransportError:
                    return False

            wait_for(up, 60)
            hostile = red_team()
            for copies in copies_list:
                samples = []
                for run in range(runs):
                    made = admin.post("/v1/identities", json={"local_part": f"other-{copies}-{run}"}).json()
                    other, token = made["address"], made["token"]
                    result: dict[str, float] = {}

                    def waiter(other: str = other, token: str = token, result: dict[str, float] = result) -> None:
                        with httpx.Client(base_url=base, headers={"Authorization": f"Bearer {token}"}) as c:
                            response = c.get(f"/v1/identities/{other}/wait", params={"timeout": 120}, timeout=130)
                        result["done"] = time.monotonic()
                        result["status"] = response.status_code

                    thread = threading.Thread(target=waiter)
                    thread.start()
                    time.sleep(0.2)  # let the wait reach the server first (a bench, not a test)
                    rcpts = [f"rt{copies}-{run}-{i}@{DOMAIN}" for i in range(copies)]
                    with smtplib.SMTP("127.0.0.1", smtp_port, timeout=300) as smtp:
                        smtp.sendmail("red@attacker.test", rcpts, hostile)
                        accepted = time.monotonic()
                        smtp.sendmail(
                            "shop@example.com", [other], f"To: {other}\r\nSubject: behind\r\n\r\nhi\r\n".encode()
                        )
                    thread.join()
                    samples.append(result["done"] - accepted)
                print(copies, samples, file=sys.stderr, flush=True)
                rows.append(
                    (
                        f"red team to {copies}: its 250 -> another identity's wait",
                        "< 1 s",
                        f"median {statistics.median(samples):.2f} s (runs: {', '.join(f'{s:.2f}' for s in samples)})",
                    )
                )
            rows.append(("gateway RSS before big messages", "-", f"{rss_mb(proc.pid):.0f} MB"))
            made = admin.post("/v1/identities", json={"local_part": "big"}).json()
            big = httpx.Client(base_url=base, headers={"Authorization": f"Bearer {made['token']}"}, timeout=120)
            with smtplib.SMTP("127.0.0.1", smtp_port, timeout=300) as smtp:
                for i in range(5):
                    smtp.sendmail("a@shop.example", [made["address"]], _big_message(i))
            for _ in range(5):
                assert big.get(f"/v1/identities/{made['address']}/wait", params={"timeout": 120}).status_code == 200
            time.sleep(3)  # idle
            rows.append(("gateway RSS idle after five 20 MB messages", "< 80 MB idle", f"{rss_mb(proc.pid):.0f} MB"))
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--skip-gateway", action="store_true", help="parse times only")
    parser.add_argument("--skip-parse", action="store_true", help="end to end only")
    parser.add_argument("--copies", type=int, nargs="*", default=[6, 100], help="recipients of the red team's message")
    args = parser.parse_args()
    rows = [] if args.skip_parse else parse_times(args.runs)
    if not args.skip_gateway:
        rows += end_to_end(args.runs, args.copies)
    width = max(len(r[0]) for r in rows)
    twidth = max(len(r[1]) for r in rows)
    print(f"{'what':<{width}}  {'target':<{twidth}}  measured")
    for what, target, measured in rows:
        print(f"{what:<{width}}  {target:<{twidth}}  {measured}")


if __name__ == "__main__":
    main()
