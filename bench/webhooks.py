"""Webhook benchmark (issue 18): SMTP accepted → webhook received, and the outbox's throughput.

    .venv/bin/python bench/webhooks.py [--mails 200] [--identities 1000] [--slow-mails 400]

`agentmail-gateway serve` runs in its own process on free loopback ports (embedded source,
SQLite), allowed to call a receiver on 127.0.0.1 (tests/webhooks/receiver.py: a real HTTP server
in this process). Measured:

1. latency: one mail at a time over SMTP to an identity holding a webhook; the time from the
   SMTP 250 (the mail is durable) to the receiver getting the signed call: median and p99,
   with 1 identity holding a webhook and with `--identities` each holding one (mail to a random
   one of them);
2. throughput when the receiver is slow (100 ms an answer): `--slow-mails` mails spread over
   20 identities, every call answered after 100 ms: deliveries per second until the last is in
   (each identity's events go in order, so one identity alone is held to 10/s; different
   identities go in parallel, up to AGENTMAIL_WEBHOOK_CONCURRENCY per webhook, all on one
   admin-wide webhook here).

3. `watch` overhead: `agentmail-gateway watch --all --debounce 0 --exec 'date +%s.%N >> FILE'` on
   the all-identities stream; the time from a mail's SMTP 250 to its command writing the time,
   one mail at a time (`--watch-mails`): the stream's wake-up, the runner's scheduling, the state
   file's fsync and a `/bin/sh` start.

DESIGN.md's target: SMTP accepted → webhook received p50 < 50 ms. Medians: run it twice.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import smtplib
import statistics
import subprocess
import sys
import tempfile
import time
from email.message import EmailMessage
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.run import ADMIN, free_port, p, start_gateway, wait_for  # noqa: E402
from tests.webhooks.receiver import Receiver  # noqa: E402

SLOW_IDENTITIES = 20
SLOW_ANSWER = 0.1


def mail(to: str, n: int) -> bytes:
    msg = EmailMessage()
    msg["From"] = "Shop <noreply@shop.example>"
    msg["To"] = to
    msg["Subject"] = f"Your code {n}"
    msg["Message-ID"] = f"<bench-{n}-{random.random()}@shop.example>"
    msg.set_content(f"Your verification code is {100000 + n}.")
    return msg.as_bytes()


def latency(admin: httpx.Client, smtp_port: int, receiver: Receiver, addresses: list[str], mails: int) -> list[float]:
    """Milliseconds from each mail's SMTP 250 to its webhook call, one mail at a time."""
    samples = []
    rng = random.Random(3)
    with smtplib.SMTP("127.0.0.1", smtp_port, timeout=30) as smtp:
        for n in range(mails):
            before = len(receiver.calls)
            to = rng.choice(addresses)
            smtp.sendmail("noreply@shop.example", [to], mail(to, n))
            accepted = time.monotonic()
            (call,) = receiver.wait_for(lambda c, b=before: len(c) > b, 30)[before : before + 1]
            samples.append((call.at - accepted) * 1000)
    return samples


def watch_overhead(base: str, smtp_port: int, address: str, mails: int, scratch: Path) -> list[float]:
    """Milliseconds from each mail's SMTP 250 to the time its `watch --exec` command wrote."""
    out = scratch / "runs.txt"
    out.touch()
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGENTMAIL_")}
    env |= {"AGENTMAIL_URL": base, "AGENTMAIL_TOKEN": ADMIN}
    watcher = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gateway",
            "watch",
            "--all",
            "--debounce",
            "0",
            "--max-runs-per-hour",
            "0",
            "--max-thread-runs-per-hour",
            "0",
            "--state",
            str(scratch / "state"),
            "--exec",
            f"date +%s.%N >> {out}",
        ],
        env=env,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=(scratch / "watch.err").open("wb"),
    )
    samples = []
    try:
        with smtplib.SMTP("127.0.0.1", smtp_port, timeout=30) as smtp:
            # Warm-up: a new state file starts at "now", so mail sent before the watcher's stream is
            # open never runs: send until one does, and let every run of the warm-up finish.
            for n in range(60):
                smtp.sendmail("noreply@shop.example", [address], mail(address, 20_000 + n))
                try:
                    wait_for(lambda: bool(out.read_text()), 1.0, step=0.01)
                    break
                except TimeoutError:
                    continue
            time.sleep(2)  # the bench's own pacing: the warm-up's last runs are over
            for n in range(mails):
                lines = len(out.read_text().splitlines())
                smtp.sendmail("noreply@shop.example", [address], mail(address, 10_000 + n))
                accepted = time.time()
                wait_for(lambda b=lines: len(out.read_text().splitlines()) > b, 60, step=0.002)
                ran = float(out.read_text().splitlines()[lines])
                samples.append((ran - accepted) * 1000)
    except TimeoutError:
        print((scratch / "watch.err").read_text()[-2000:], file=sys.stderr)
        raise
    finally:
        watcher.terminate()
        watcher.wait(timeout=30)
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mails", type=int, default=200)
    parser.add_argument("--identities", type=int, default=1000)
    parser.add_argument("--slow-mails", type=int, default=400)
    parser.add_argument("--watch-mails", type=int, default=50)
    args = parser.parse_args()
    rows: list[tuple[str, str, str]] = []
    with tempfile.TemporaryDirectory(prefix="agentmail-bench-") as tmp, Receiver() as receiver:
        data = Path(tmp) / "data"
        data.mkdir(mode=0o700)
        http_port, smtp_port = free_port(), free_port()
        extra = {"AGENTMAIL_WEBHOOK_ALLOW": "127.0.0.1/32", "AGENTMAIL_WEBHOOKS_PER_IDENTITY": "10"}
        proc = start_gateway(data, http_port, smtp_port, extra=extra)
        try:
            base = f"http://127.0.0.1:{http_port}"
            admin = httpx.Client(base_url=base, headers={"Authorization": f"Bearer {ADMIN}"}, timeout=30)

            def up() -> bool:
                try:
                    return admin.get("/health").status_code == 200
                except httpx.HTTPError:
                    return False

            wait_for(up, 60)
            addresses = []
            for i in range(args.identities):
                made = admin.post("/v1/identities", json={"local_part": f"hooked-{i:05d}"}).json()
                hook = admin.post(f"/v1/identities/{made['address']}/webhooks", json={"url": receiver.url})
                assert hook.status_code == 201, hook.text
                addresses.append(made["address"])
            for label, pool in (("1 identity", addresses[:1]), (f"{args.identities:,} identities", addresses)):
                latency(admin, smtp_port, receiver, pool, 10)  # warm-up
                samples = latency(admin, smtp_port, receiver, pool, args.mails)
                rows.append(
                    (
                        f"SMTP 250 → webhook received, {label} with a webhook",
                        "p50 < 50 ms",
                        f"p50 {statistics.median(samples):.1f} ms, p99 {p(samples, 0.99):.1f} ms",
                    )
                )
            # Throughput against a slow receiver: one admin-wide webhook, mail to 20 fresh identities.
            for address in addresses:
                admin.delete(f"/v1/identities/{address}")
            admin_hook = admin.post("/v1/webhooks", json={"url": receiver.url})
            assert admin_hook.status_code == 201, admin_hook.text
            slow = [
                admin.post("/v1/identities", json={"local_part": f"slow-{i:02d}"}).json()["address"]
                for i in range(SLOW_IDENTITIES)
            ]
            receiver.delay = SLOW_ANSWER
            before = len(receiver.calls)
            start = time.monotonic()
            with smtplib.SMTP("127.0.0.1", smtp_port, timeout=30) as smtp:
                for n in range(args.slow_mails):
                    to = slow[n % len(slow)]
                    smtp.sendmail("noreply@shop.example", [to], mail(to, n))
            done = receiver.wait_for(lambda c: len(c) >= before + args.slow_mails, 600)
            elapsed = done[before + args.slow_mails - 1].at - start
            per_identity: dict[str, list[int]] = {}
            for call in done[before:]:
                event = json.loads(call.body)
                per_identity.setdefault(event["address"], []).append(int(event["message"]["subject"].split()[-1]))
            ordered = all(numbers == sorted(numbers) for numbers in per_identity.values())
            rows.append(
                (
                    f"outbox, receiver answering in {SLOW_ANSWER * 1000:.0f} ms, {SLOW_IDENTITIES} identities",
                    "-",
                    f"{args.slow_mails / elapsed:.1f} deliveries/s ({args.slow_mails:,} in {elapsed:.1f} s)"
                    + ("" if ordered else " OUT OF ORDER"),
                )
            )
            receiver.delay = 0.0
            runs = watch_overhead(base, smtp_port, slow[0], args.watch_mails, Path(tmp))
            rows.append(
                (
                    "SMTP 250 → `watch --exec` command started (sh + date)",
                    "-",
                    f"p50 {statistics.median(runs):.1f} ms, p99 {p(runs, 0.99):.1f} ms",
                )
            )
            admin.close()
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    width = max(len(r[0]) for r in rows)
    print(f"{'what':<{width}}  {'target':<12}  measured")
    for what, target, measured in rows:
        print(f"{what:<{width}}  {target:<12}  {measured}")


if __name__ == "__main__":
    main()
