"""agentmail-mcp as an MCP client sees it: start-up, tool-call cost, SMTP → code over stdio.

    .venv/bin/python bench/mcp_stdio.py [--rounds 100]

Starts `agentmail-gateway serve` (embedded source) as a process, makes a provisioner token,
then drives the installed `agentmail-mcp` with the mcp SDK's stdio client:

1. cold start: spawn + initialize + list_tools, five times;
2. one tool call (`list_messages` on an empty identity), `--rounds` times;
3. SMTP accepted → `get_verification_code` returns, `--rounds` times: the call is made, the
   mail is sent once the gateway holds the wait (its /health is not enough to see that, so a
   fixed 30 ms head start is given), and the time from the SMTP 250 to the tool result is kept.

Medians are quoted; these machines are noisy.
"""

from __future__ import annotations

import argparse
import asyncio
import smtplib
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from mcp import Client  # noqa: E402
from mcp.client.stdio import StdioServerParameters  # noqa: E402
from run import ADMIN, free_port, p, start_gateway, wait_for  # noqa: E402

SCRIPT = Path(sys.executable).parent / "agentmail-mcp"


def _mail(to: str, code: str) -> bytes:
    return (
        f"From: App <noreply@example.com>\r\nTo: {to}\r\nSubject: Your code\r\n"
        f"Message-ID: <{code}.{time.time_ns()}@example.com>\r\n\r\nYour verification code is {code}.\r\n"
    ).encode()


async def bench(http_port: int, smtp_port: int, config: Path, rounds: int) -> None:
    url = f"http://127.0.0.1:{http_port}"
    async with httpx.AsyncClient(base_url=url, headers={"Authorization": f"Bearer {ADMIN}"}) as http:
        response = await http.post("/v1/tokens", json={"scope": "provision"})
        response.raise_for_status()
        provisioner = response.json()["token"]
    params = StdioServerParameters(
        command=str(SCRIPT),
        env={"AGENTMAIL_URL": url, "AGENTMAIL_TOKEN": provisioner, "XDG_CONFIG_HOME": str(config)},
    )

    starts = []
    for _ in range(5):
        t = time.perf_counter()
        async with Client(params) as client:
            await client.list_tools()
            starts.append((time.perf_counter() - t) * 1000)

    async with Client(params) as client:
        address = (await client.call_tool("create_identity", {})).structured_content["address"]
        calls = []
        for _ in range(rounds):
            t = time.perf_counter()
            result = await client.call_tool("list_messages", {"address": address})
            calls.append((time.perf_counter() - t) * 1000)
            assert not result.is_error

        latencies = []
        for i in range(rounds):
            code = f"{700000 + i}"
            call = asyncio.create_task(client.call_tool("get_verification_code", {"address": address, "timeout": 30}))
            await asyncio.sleep(0.03)  # head start: the gateway holds the wait before the mail comes

            def send(code: str = code) -> float:
                with smtplib.SMTP("127.0.0.1", smtp_port) as smtp:
                    smtp.sendmail("noreply@example.com", [address], _mail(address, code))
                return time.perf_counter()

            sent = await asyncio.to_thread(send)
            result = await call
            latencies.append((time.perf_counter() - sent) * 1000)
            assert result.structured_content["code"] == code, result

    print(f"{'what':58} {'p50':>9} {'p95':>9}")
    cold = "cold start: spawn + initialize + list_tools (5)"
    print(f"{cold:58} {statistics.median(starts):7.0f}ms {max(starts):7.0f}ms")
    print(f"{'tool call: list_messages over stdio':58} {statistics.median(calls):7.2f}ms {p(calls, 0.95):7.2f}ms")
    print(
        f"{'SMTP accepted -> get_verification_code result (stdio)':58} "
        f"{statistics.median(latencies):7.2f}ms {p(latencies, 0.95):7.2f}ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=100)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        http_port, smtp_port = free_port(), free_port()
        server = start_gateway(Path(scratch) / "data", http_port, smtp_port)
        try:
            wait_for(lambda: _healthy(http_port), timeout=60)
            asyncio.run(bench(http_port, smtp_port, Path(scratch) / "config", args.rounds))
        finally:
            server.terminate()
            server.wait(timeout=30)


def _healthy(port: int) -> bool:
    try:
        return httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).status_code == 200
    except httpx.HTTPError:
        return False


if __name__ == "__main__":
    main()
