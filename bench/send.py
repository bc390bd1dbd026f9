"""Agent to agent: one identity's send (and reply) → the other identity's open `wait` returns.

    .venv/bin/python bench/send.py [--rounds 200] [--warmup 5] [--json]

On the embedded source and over Dovecot (the test mail stack, push on), `--rounds` times each:

1. send: `worker`'s wait is open (the hub counts it), then `planner` POSTs …/send to `worker`;
   kept is the time from the POST leaving to the wait's answer (the mail is filed into the
   catch-all by the gateway itself, Maildir or IMAP APPEND, then indexed and handed to the wait);
2. reply: `planner`'s wait is open, then `worker` POSTs …/messages/{id}/reply to what it got;
   the same span, to `planner`'s wait.

The POST's own time to its 201 is quoted beside them: the answer also waits for the sender's
copy to be indexed (to name its thread), so it may come after the recipient's wait.
Targets (DESIGN.md): p50 < 20 ms embedded, < 100 ms over Dovecot. The gateway runs in this
process (bench/dovecot.py's GatewayThread) so the open waits can be counted; requests go over
HTTP from other threads. Medians and p99 are quoted: run it twice before believing.
"""

from __future__ import annotations

import argparse
import json
import secrets
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from dovecot import DOMAIN, GatewayThread  # noqa: E402
from run import p  # noqa: E402

from tests.conftest import ADMIN_TOKEN  # noqa: E402
from tests.mailstack import MailStack, ensure_installed, free_port  # noqa: E402

ARM_TIMEOUT = 30.0
"""Seconds to wait for a wait to be open at the gateway (or closed) before giving up on the run."""


def _until(condition: Callable[[], bool], what: str) -> None:
    """Spin until `condition` holds (the bench's own pacing, bounded)."""
    deadline = time.perf_counter() + ARM_TIMEOUT
    while not condition():
        if time.perf_counter() > deadline:
            raise TimeoutError(what)
        time.sleep(0.0002)


def _identity(admin: httpx.Client, base_url: str, local_part: str) -> tuple[str, httpx.Client]:
    response = admin.post("/v1/identities", json={"local_part": local_part})
    assert response.status_code == 201, response.text
    created = response.json()
    client = httpx.Client(base_url=base_url, headers={"Authorization": f"Bearer {created['token']}"}, timeout=60)
    return created["address"], client


def agent_to_agent(stack: MailStack | None, rounds: int, warmup: int) -> dict[str, list[float]]:
    """Milliseconds per round: send → wait, reply → wait, and each POST's own time to 201."""
    env = {"AGENTMAIL_DOMAIN": DOMAIN}
    if stack is not None:
        env = {k: v for k, v in stack.gateway_env().items() if k.startswith("AGENTMAIL_")}
        stack.expunge_all()
    # Two sends a round (send and reply) must stay under the hourly limit.
    env["AGENTMAIL_SEND_PER_HOUR"] = str(2 * (rounds + warmup) + 10)
    env["AGENTMAIL_LOG_LEVEL"] = "warning"
    figures: dict[str, list[float]] = {"send": [], "send_201": [], "reply": [], "reply_201": []}
    with TemporaryDirectory() as data, ThreadPoolExecutor(1) as pool:
        gateway = GatewayThread(stack, env, Path(data)).start()
        hub = gateway.running.gw.hub
        try:
            admin = httpx.Client(base_url=gateway.base_url, headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
            tag = secrets.token_hex(3)
            planner, p_client = _identity(admin, gateway.base_url, f"planner-{tag}")
            worker, w_client = _identity(admin, gateway.base_url, f"worker-{tag}")

            def waited(client: httpx.Client, address: str) -> tuple[dict[str, Any], float]:
                response = client.get(f"/v1/identities/{address}/wait", params={"timeout": 30})
                answered = time.perf_counter()
                assert response.status_code == 200, response.text
                found: dict[str, Any] = response.json()
                return found, answered

            def post(client: httpx.Client, path: str, body: dict[str, Any]) -> tuple[float, float]:
                """(when the request left, when its 201 came back)."""
                started = time.perf_counter()
                response = client.post(path, json=body)
                assert response.status_code == 201, response.text
                return started, time.perf_counter()

            for i in range(warmup + rounds):
                subject = f"Task {i}"
                _until(lambda: hub.count == 0, "a previous wait stayed open")
                answer = pool.submit(waited, w_client, worker)
                _until(lambda: hub.count >= 1, "the worker's wait never opened")
                body = {"to": [worker], "subject": subject, "text": f"Please do task {i}."}
                started, created = post(p_client, f"/v1/identities/{planner}/send", body)
                got, answered = answer.result()
                assert got["from"] == planner and got["subject"] == subject, got
                if i >= warmup:
                    figures["send"].append((answered - started) * 1000)
                    figures["send_201"].append((created - started) * 1000)

                _until(lambda: hub.count == 0, "the worker's wait stayed open")
                answer = pool.submit(waited, p_client, planner)
                _until(lambda: hub.count >= 1, "the planner's wait never opened")
                path = f"/v1/identities/{worker}/messages/{got['id']}/reply"
                started, created = post(w_client, path, {"text": f"Task {i} done."})
                back, answered = answer.result()
                assert back["from"] == worker and back["subject"] == f"Re: {subject}", back
                if i >= warmup:
                    figures["reply"].append((answered - started) * 1000)
                    figures["reply_201"].append((created - started) * 1000)
            for client in (admin, p_client, w_client):
                client.close()
        finally:
            gateway.stop()
    return figures


def row(what: str, samples: list[float]) -> dict[str, float | str | int]:
    line: dict[str, float | str | int] = {
        "what": what,
        "median": statistics.median(samples),
        "p99": p(samples, 0.99),
        "n": len(samples),
    }
    print(f"{what:62} {line['median']:8.1f}ms {line['p99']:8.1f}ms {len(samples):5}", flush=True)
    return line


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=5, help="rounds run first and not counted")
    parser.add_argument("--json", action="store_true", help="also print the figures as one JSON line")
    args = parser.parse_args()

    ensure_installed()
    stack = MailStack.create(domain=DOMAIN, push_port=free_port(), push_secret=secrets.token_hex(16))
    stack.start()
    rows = []
    print(f"{'what':62} {'median':>10} {'p99':>10} {'n':>5}", flush=True)
    try:
        for label, where in (("embedded", None), ("Dovecot", stack)):
            figures = agent_to_agent(where, args.rounds, args.warmup)
            rows.append(row(f"send → recipient's wait returns, {label}", figures["send"]))
            rows.append(row(f"  the send's own 201, {label}", figures["send_201"]))
            rows.append(row(f"reply → recipient's wait returns, {label}", figures["reply"]))
            rows.append(row(f"  the reply's own 201, {label}", figures["reply_201"]))
    finally:
        stack.stop()
    if args.json:
        print(json.dumps(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
