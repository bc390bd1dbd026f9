"""The SMTP intake alone, without indexing: protocol only, and protocol + the durable Maildir write.

    .venv/bin/python bench/intake_protocol.py [--rounds 7] [--messages 600] [--before DIR]

Each variant is a server process running `gateway.intake.smtp.start_smtp_server` on one event
loop, with one of two `deliver` hooks: `noop` (answers 250 at once: aiosmtpd's protocol work
and the loop's) or `maildir` (`LocalSource.store`: the durable write the gateway acknowledges
after; nothing indexes the mail). `--before DIR` adds the `maildir` variants of another checkout
(e.g. `git worktree add DIR main`), so that a change to the Maildir is measured against it in
the same run. The client is bench/ingest.py's (one lean asyncio client, 1 and 8 connections);
rounds interleave the variants; medians are printed.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from ingest import burst, listening, prepared  # noqa: E402
from run import DOMAIN, free_port, wait_for  # noqa: E402


def serve(loop: str, port: int, deliver: str, maildir: Path) -> None:
    """Server mode (in the child process): the intake on `loop` until killed."""
    from gateway.intake.smtp import start_smtp_server
    from gateway.sources.local import LocalSource

    async def noop(copies: Sequence[tuple[bytes, bytes]]) -> list[str]:
        return ["x"] * len(copies)

    async def run() -> None:
        hook: Callable[[Sequence[tuple[bytes, bytes]]], Awaitable[list[str]]] = noop
        if deliver == "maildir":
            source = LocalSource(maildir)
            await source.start()
            hook = source.store
        await start_smtp_server(
            host="127.0.0.1",
            port=port,
            domain=DOMAIN,
            max_message_bytes=25 * 1024 * 1024,
            deliver=hook,
            timeout=60,
            max_connections=500,
            max_connections_per_client=50,
        )
        await asyncio.Event().wait()

    if loop == "uvloop":
        import uvloop

        factory: Callable[[], asyncio.AbstractEventLoop] = uvloop.new_event_loop
    else:
        factory = asyncio.new_event_loop
    with asyncio.Runner(loop_factory=factory) as runner:
        runner.run(run())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--messages", type=int, default=600, help="per burst")
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--loops", default="asyncio,uvloop")
    parser.add_argument("--before", type=Path, default=None, help="another checkout whose Maildir write to compare")
    parser.add_argument("--serve", nargs=4, metavar=("LOOP", "PORT", "DELIVER", "MAILDIR"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        loop, port, deliver, maildir = args.serve
        serve(loop, int(port), deliver, Path(maildir))
        return

    loops = args.loops.split(",")
    trees = [("", ROOT)] + ([("before ", args.before.resolve())] if args.before else [])
    variants = [(f"noop {loop}", ROOT, loop, "noop") for loop in loops]
    variants += [(f"{tag}maildir {loop}", tree, loop, "maildir") for tag, tree in trees for loop in loops]
    rcpt = f"bench@{DOMAIN}"
    with tempfile.TemporaryDirectory(prefix="agentmail-intake-") as tmp:
        procs: list[subprocess.Popen[bytes]] = []
        ports: dict[str, int] = {}
        try:
            for name, tree, loop, deliver in variants:
                port = free_port()
                maildir = Path(tmp) / name.replace(" ", "-")
                env = {**os.environ, "PYTHONPATH": str(tree)}
                argv = [sys.executable, str(Path(__file__).resolve()), "--serve", loop, str(port), deliver]
                argv.append(str(maildir))
                procs.append(subprocess.Popen(argv, env=env, cwd=tree))
                ports[name] = port
            wait_for(lambda: all(listening(p) for p in ports.values()), 60)
            for port in ports.values():
                burst(port, prepared("warm", 200, rcpt), 2)
            rates: dict[tuple[str, int], list[float]] = {}
            for r in range(args.rounds):
                order = variants[r % len(variants) :] + variants[: r % len(variants)]
                for conns in (1, args.connections):
                    for name, *_ in order:
                        rate, _ = burst(ports[name], prepared(f"r{r}", args.messages, rcpt), conns)
                        rates.setdefault((name, conns), []).append(rate)
                print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)
        finally:
            for proc in procs:
                proc.kill()
                proc.wait(timeout=30)
    width = max(len(name) for name, *_ in variants)
    print(f"{'variant':<{width}}  {'1 conn msg/s':>12}  {f'{args.connections} conns msg/s':>13}")
    for name, *_ in variants:
        one, many = (statistics.median(rates[(name, c)]) for c in (1, args.connections))
        print(f"{name:<{width}}  {one:>12,.0f}  {many:>13,.0f}")


if __name__ == "__main__":
    main()
