"""Benchmarks of the imap source over a real Postfix + Dovecot (the test mail stack), and of `wait`.

    .venv/bin/python bench/dovecot.py [--messages 200] [--backlog 10000] [--waiters 1000]

1. Delivery latency: a message accepted by Postfix (its 250 to DATA) until it is listed
   through the API, over `--messages` messages one at a time, with Dovecot's push driver on
   and then off (IDLE alone). Also which path woke the sync for each message.
2. Delivery → `wait` returns, embedded intake and Dovecot (push on), one message at a time.
3. `--waiters` concurrent waits on as many identities, all woken by their own message over
   Dovecot, with the IMAP session count watched throughout.
4. Catch-up rate: `--backlog` messages already in the mailbox when the gateway starts, until
   every one is indexed.

The gateway runs in this process (its own thread and event loop) so its wake-up counters can
be read; the client is a separate thread. Medians are quoted: run it twice before believing.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import pwd
import secrets
import smtplib
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from gateway.config import load_settings  # noqa: E402
from gateway.sources.imap import ImapSource  # noqa: E402
from tests.conftest import ADMIN_TOKEN, run_gateway  # noqa: E402
from tests.mailstack import MailStack, ensure_installed, free_port  # noqa: E402

DOMAIN = "agents.test"


class GatewayThread:
    """`run_gateway` on its own event loop in a thread, until `stop()`."""

    def __init__(self, stack: MailStack | None, env: dict[str, str], data_dir: Path) -> None:
        self.stack = stack
        self.env = {**env, "AGENTMAIL_DATA_DIR": str(data_dir), "AGENTMAIL_ADMIN_TOKEN": ADMIN_TOKEN}
        self.env |= {"AGENTMAIL_HTTP_PORT": "0", "AGENTMAIL_SMTP_PORT": "0", "AGENTMAIL_RETENTION_DAYS": "0"}
        self.ready = threading.Event()
        self.started_at = 0.0
        self.running: Any = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(target=lambda: asyncio.run(self._main()), daemon=True)

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        settings = load_settings(self.env, env_file=None)
        self.started_at = time.perf_counter()
        async with run_gateway(settings, keep_mailbox=True, stack=self.stack) as running:
            self.running = running
            self.ready.set()
            await self._stop.wait()

    def start(self) -> GatewayThread:
        self._thread.start()
        if not self.ready.wait(60):
            raise RuntimeError("the gateway did not start")
        return self

    @property
    def base_url(self) -> str:
        return str(self.running.http.base_url)

    @property
    def source(self) -> ImapSource:
        source = self.running.gw.source
        assert isinstance(source, ImapSource)
        return source

    def indexed(self) -> int:
        assert self._loop is not None
        return asyncio.run_coroutine_threadsafe(self._count(), self._loop).result()

    async def _count(self) -> int:
        return int(await self.running.gw.store.index.count())

    def stop(self) -> None:
        assert self._loop is not None and self._stop is not None
        self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(30)


def latency(stack: MailStack, messages: int, *, push: bool) -> tuple[list[float], Counter[str]]:
    """Milliseconds from Postfix's 250 to the message in the API listing, per message."""
    env = stack.gateway_env()
    if not push:
        env = {k: v for k, v in env.items() if not k.startswith("AGENTMAIL_PUSH_")}
    env = {k: v for k, v in env.items() if k.startswith("AGENTMAIL_")}
    stack.expunge_all()
    with tempfile.TemporaryDirectory() as data:
        gateway = GatewayThread(stack, env, Path(data)).start()
        try:
            admin = httpx.Client(base_url=gateway.base_url, headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
            created = admin.post("/v1/identities", json={"local_part": f"lat-{secrets.token_hex(3)}"}).json()
            address, token = created["address"], created["token"]
            client = httpx.Client(base_url=gateway.base_url, headers={"Authorization": f"Bearer {token}"})
            before = Counter(gateway.source.woken_by)
            samples = []
            with smtplib.SMTP(stack.host, stack.smtp_port) as smtp:
                for i in range(messages):
                    body = f"From: shop@example.com\r\nTo: {address}\r\nSubject: m{i}\r\n\r\nCode {100000 + i}.\r\n"
                    smtp.sendmail("shop@example.com", [address], body.encode())
                    accepted = time.perf_counter()
                    while True:  # as fast as the API answers: each call is ~1-2 ms
                        listing = client.get(f"/v1/identities/{address}/messages", params={"limit": 1}).json()
                        if listing["messages"] and listing["messages"][0]["subject"] == f"m{i}":
                            break
                        if time.perf_counter() - accepted > 30:
                            raise TimeoutError(f"m{i} never listed")
                    samples.append((time.perf_counter() - accepted) * 1000)
            woken = Counter(gateway.source.woken_by)
            woken.subtract(before)
            return samples, +woken
        finally:
            gateway.stop()


def wait_latency(stack: MailStack | None, messages: int) -> list[float]:
    """Milliseconds from SMTP accepted (Postfix, or the embedded intake) to the open wait's answer."""
    env = {"AGENTMAIL_DOMAIN": DOMAIN}
    if stack is not None:
        env = {k: v for k, v in stack.gateway_env().items() if k.startswith("AGENTMAIL_")}
        stack.expunge_all()
    with tempfile.TemporaryDirectory() as data, ThreadPoolExecutor(1) as pool:
        gateway = GatewayThread(stack, env, Path(data)).start()
        try:
            admin = httpx.Client(base_url=gateway.base_url, headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
            created = admin.post("/v1/identities", json={}).json()
            address = created["address"]
            client = httpx.Client(base_url=gateway.base_url, headers={"Authorization": f"Bearer {created['token']}"})
            host, port = gateway.running.smtp_host, gateway.running.smtp_port
            samples = []
            with smtplib.SMTP(host, port) as smtp:
                for i in range(messages):
                    answer = pool.submit(
                        client.get, f"/v1/identities/{address}/wait", params={"timeout": 30}, timeout=60
                    )
                    while gateway.running.gw.hub.count < 1:  # the wait is open: now send
                        time.sleep(0.0005)
                    smtp.sendmail("shop@example.com", [address], f"Subject: m{i}\r\n\r\nCode {i:06d}.\r\n".encode())
                    accepted = time.perf_counter()
                    response = answer.result()
                    samples.append((time.perf_counter() - accepted) * 1000)
                    assert response.status_code == 200 and response.json()["subject"] == f"m{i}", response.text
            return samples
        finally:
            gateway.stop()


def many_waiters(stack: MailStack, count: int) -> str:
    """`count` waits open at once on `count` identities, each woken by its own message."""
    env = {k: v for k, v in stack.gateway_env().items() if k.startswith("AGENTMAIL_")}
    env["AGENTMAIL_WAIT_MAX_TOTAL"] = str(max(5000, count))
    stack.expunge_all()
    with tempfile.TemporaryDirectory() as data:
        gateway = GatewayThread(stack, env, Path(data)).start()
        try:
            admin = httpx.Client(base_url=gateway.base_url, headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
            identities = [admin.post("/v1/identities", json={}).json() for _ in range(count)]

            async def run() -> tuple[list[httpx.Response], float, int]:
                limits = httpx.Limits(max_connections=count + 10, max_keepalive_connections=count + 10)
                async with httpx.AsyncClient(base_url=gateway.base_url, limits=limits, timeout=120) as client:
                    tasks = [
                        asyncio.create_task(
                            client.get(
                                f"/v1/identities/{i['address']}/wait",
                                params={"timeout": 100},
                                headers={"Authorization": f"Bearer {i['token']}"},
                            )
                        )
                        for i in identities
                    ]
                    while gateway.running.gw.hub.count < count:
                        await asyncio.sleep(0.01)
                    sessions = [stack.imap_sessions()]

                    def send_all() -> float:
                        with smtplib.SMTP(stack.host, stack.smtp_port) as smtp:
                            for n, i in enumerate(identities):
                                body = f"Subject: w{n}\r\n\r\nhi\r\n".encode()
                                smtp.sendmail("shop@example.com", [i["address"]], body)
                        return time.perf_counter()

                    last_sent = await asyncio.to_thread(send_all)
                    sessions.append(stack.imap_sessions())
                    responses = await asyncio.gather(*tasks)
                    return responses, (time.perf_counter() - last_sent) * 1000, max(sessions)

            responses, tail_ms, sessions = asyncio.run(run())
        finally:
            gateway.stop()
    right = sum(r.status_code == 200 and r.json()["subject"] == f"w{n}" for n, r in enumerate(responses))
    return (
        f"{count} concurrent waits on {count} identities: {right}/{count} woken by their own message;"
        f" last answer {tail_ms:.0f} ms after the last SMTP accept; IMAP sessions at most {sessions}"
    )


def create_identities(stack: MailStack, count: int) -> list[float]:
    """Milliseconds per POST /v1/identities over HTTP (each takes the mailbox's UIDNEXT fence)."""
    env = {k: v for k, v in stack.gateway_env().items() if k.startswith("AGENTMAIL_")}
    with tempfile.TemporaryDirectory() as data:
        gateway = GatewayThread(stack, env, Path(data)).start()
        try:
            admin = httpx.Client(base_url=gateway.base_url, headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
            samples = []
            for _ in range(count):
                start = time.perf_counter()
                response = admin.post("/v1/identities", json={})
                samples.append((time.perf_counter() - start) * 1000)
                assert response.status_code == 201, response.text
            return samples
        finally:
            gateway.stop()


def backlog(stack: MailStack, count: int) -> tuple[float, float]:
    """(seconds, messages/s) for a fresh gateway to index `count` messages already there."""
    stack.expunge_all()
    vmail = pwd.getpwnam("vmail")
    new = stack.config.maildir / "new"
    now = int(time.time())
    for i in range(count):
        rcpt = f"user-{i % 500}@{DOMAIN}"
        path = new / f"{now}.M{i:06d}P1.bench"
        path.write_bytes(
            f"Delivered-To: {rcpt}\r\nFrom: Shop <noreply@shop.example>\r\nTo: {rcpt}\r\n"
            f"Subject: Backlog {i}\r\nMessage-ID: <{i}.{now}@shop.example>\r\n"
            f"Content-Type: text/plain; charset=utf-8\r\n\r\nHello, your code is {100000 + i}.\r\n".encode()
        )
        os.chown(path, vmail.pw_uid, vmail.pw_gid)
    if stack.message_count() != count:  # Dovecot has now indexed them: the gateway's cost alone below
        raise RuntimeError("Dovecot did not pick up the backlog")
    env = {k: v for k, v in stack.gateway_env().items() if k.startswith("AGENTMAIL_")}
    with tempfile.TemporaryDirectory() as data:
        gateway = GatewayThread(stack, env, Path(data)).start()
        try:
            while gateway.indexed() < count:
                time.sleep(0.02)  # a benchmark's progress check, not a test's synchronisation
            seconds = time.perf_counter() - gateway.started_at
        finally:
            gateway.stop()
    stack.expunge_all()
    return seconds, count / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--messages", type=int, default=200)
    parser.add_argument("--backlog", type=int, default=10_000)
    parser.add_argument("--waiters", type=int, default=1000)
    parser.add_argument("--only", choices=["backlog"], help="run only this part (the catch-up)")
    args = parser.parse_args()

    ensure_installed()
    stack = MailStack.create(domain=DOMAIN, push_port=free_port(), push_secret=secrets.token_hex(16))
    stack.start()
    try:
        rows = []
        if args.only == "backlog":
            seconds, rate = backlog(stack, args.backlog)
            print(f"catch-up of {args.backlog} messages already in the mailbox: {seconds:.1f} s, {rate:.0f} msg/s")
            return
        for push in (True, False):
            samples, woken = latency(stack, args.messages, push=push)
            label = "push + IDLE + heartbeat" if push else "IDLE + heartbeat (no push)"
            rows.append(
                f"SMTP accepted by Postfix → listed, {label}: p50 {statistics.median(samples):.1f} ms,"
                f" p99 {sorted(samples)[int(0.99 * len(samples)) - 1]:.1f} ms over {len(samples)};"
                f" woken by {dict(woken)}"
            )
            print(rows[-1], flush=True)
        for label, where in (("embedded", None), ("Dovecot, push on", stack)):
            waits = wait_latency(where, args.messages)
            rows.append(
                f"SMTP accepted → wait returns, {label}: p50 {statistics.median(waits):.1f} ms,"
                f" p99 {sorted(waits)[int(0.99 * len(waits)) - 1]:.1f} ms over {len(waits)}"
            )
            print(rows[-1], flush=True)
        rows.append(many_waiters(stack, args.waiters))
        print(rows[-1], flush=True)
        created = create_identities(stack, 500)
        rows.append(
            f"create an identity over HTTP, imap source (UIDNEXT fence each): p50 {statistics.median(created):.2f} ms,"
            f" p99 {sorted(created)[int(0.99 * len(created)) - 1]:.2f} ms over {len(created)}"
        )
        print(rows[-1], flush=True)
        seconds, rate = backlog(stack, args.backlog)
        rows.append(f"catch-up of {args.backlog} messages already in the mailbox: {seconds:.1f} s, {rate:.0f} msg/s")
        print(rows[-1], flush=True)
    finally:
        stack.stop()


if __name__ == "__main__":
    main()
