"""Indexing one copy: `build_record` and its parts, and the SQLite index's `add`, per message. Prints a table.

    .venv/bin/python bench/build.py [--rounds 4] [--against /path/to/another/checkout]

Three kinds of mail: the rebuild bench's tiny messages (`prefill_maildir` in bench/run.py: six
headers, one line of text/plain), the ingest bench's typical 3 KB HTML mail (`BODY` in
bench/ingest.py), and the corpus (`corpus/otp/*.eml`). For each kind it times, in CPU
microseconds a message (process time: other load on the machine counts less; median of passes),
`build_record` whole, then the parts it is made of, each alone over pre-parsed input:
`parse_message`, `extract_with_text`, `search_fields`, `thread_keys`,
`granted_addresses(raw_headers(...))` and `message_key_of`. Then `SqliteIndex.add` per copy into
a fresh scratch store (as the sync writes: 16 copies a call, and 256), in CPU time (both threads:
the caller's and the store's) and in wall time (which adds waiting on the disk).

With `--against`, every round measures that checkout and this one, each in a fresh process,
alternately (A/B/A/B: this machine is noisy), and the table shows both medians and their ratio.
The messages are made once, here, so both sides time the very same bytes.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

PASSES = 5
CATCHALL_LOCAL = "catchall"


def make_messages(tiny: int, html: int) -> dict[str, list[bytes]]:
    """The three kinds of mail, as bytes: made with the benches' own generators."""
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "bench"))
    from ingest import BODY
    from run import DOMAIN, prefill_maildir

    with tempfile.TemporaryDirectory() as scratch:
        prefill_maildir(Path(scratch), tiny, 1, time.time())
        new = Path(scratch) / "maildir" / "new"
        tiny_raw = [p.read_bytes() for p in sorted(new.iterdir())]
    html_raw = [BODY.format(rcpt=f"user{i}@{DOMAIN}", tag=f"b{i}", code=f"{100000 + i}").encode() for i in range(html)]
    corpus = [p.read_bytes() for p in sorted((ROOT / "corpus" / "otp").glob("*.eml"))]
    return {"tiny": tiny_raw, "html": html_raw, "corpus": corpus, "domain": [DOMAIN.encode()]}


def median_us(fn: Callable[[], object], count: int) -> float:
    """Median over PASSES of one call of `fn` (which handles `count` messages), in CPU µs a message."""
    times = []
    for _ in range(PASSES):
        start = time.process_time()
        fn()
        times.append((time.process_time() - start) / count * 1e6)
    return statistics.median(times)


def measure(messages: dict[str, list[bytes]]) -> dict[str, float]:
    """Every timing of this checkout (the `gateway` package first on sys.path)."""
    import asyncio

    from gateway.mail.extract import extract_with_text
    from gateway.mail.keys import message_key_of
    from gateway.mail.parse import parse_message, raw_headers
    from gateway.mail.recipients import granted_addresses
    from gateway.mail.search import search_fields
    from gateway.mail.threads import thread_keys
    from gateway.sources.base import StoredMessage
    from gateway.store.sqlite import open_sqlite
    from gateway.sync import build_record

    domain = messages["domain"][0].decode()
    catchall = f"{CATCHALL_LOCAL}@{domain}"
    max_bytes = 25 * 1024 * 1024
    out: dict[str, float] = {}
    for kind in ("tiny", "html", "corpus"):
        raws = messages[kind]
        stored = [StoredMessage(f"{kind}-{i}", 1.8e9 + i, raw, len(raw)) for i, raw in enumerate(raws)]
        n = len(raws)

        def build(stored: Sequence[StoredMessage] = stored) -> list[Any]:
            return [build_record(s, catchall=catchall, max_bytes=max_bytes) for s in stored]

        out[f"{kind} build_record"] = median_us(build, n)
        parsed = [parse_message(raw, max_bytes=max_bytes) for raw in raws]
        extracted = [extract_with_text(p) for p in parsed]
        out[f"{kind} parse_message"] = median_us(
            lambda raws=raws: [parse_message(r, max_bytes=max_bytes) for r in raws], n
        )
        out[f"{kind} extract_with_text"] = median_us(lambda parsed=parsed: [extract_with_text(p) for p in parsed], n)
        out[f"{kind} search_fields"] = median_us(
            lambda parsed=parsed, extracted=extracted: [
                search_fields(p, e[2]) for p, e in zip(parsed, extracted, strict=True)
            ],
            n,
        )
        out[f"{kind} thread_keys"] = median_us(lambda parsed=parsed: [thread_keys(p) for p in parsed], n)
        out[f"{kind} granted(raw_headers)"] = median_us(
            lambda raws=raws: [granted_addresses(raw_headers(r), catchall=catchall) for r in raws], n
        )
        out[f"{kind} message_key_of"] = median_us(
            lambda parsed=parsed, raws=raws: [message_key_of(p, r) for p, r in zip(parsed, raws, strict=True)], n
        )
        if kind == "html":
            continue  # one sender, one shape: the tiny messages already time a plain row
        records = build()
        for batch in (16, 256):
            times, cpu = [], []
            for _ in range(3):
                with tempfile.TemporaryDirectory() as scratch:
                    store = open_sqlite(Path(scratch), domain=domain, clock=time.time)
                    loop = asyncio.new_event_loop()
                    try:
                        start, start_cpu = time.perf_counter(), time.process_time()
                        for at in range(0, n, batch):
                            loop.run_until_complete(store.index.add(records[at : at + batch]))
                        times.append((time.perf_counter() - start) / n * 1e6)
                        cpu.append((time.process_time() - start_cpu) / n * 1e6)
                        count = loop.run_until_complete(store.index.count())
                        assert count == n, (count, n)
                    finally:
                        loop.run_until_complete(store.engine.close())
                        loop.close()
            out[f"{kind} sqlite add/{batch} (CPU)"] = statistics.median(cpu)
            out[f"{kind} sqlite add/{batch} (wall)"] = statistics.median(times)
    return out


def run_side(tree: Path, data: Path) -> dict[str, float]:
    """`measure` of the checkout at `tree`, in a process of its own."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--measure", str(data)],
        env=env,
        cwd=tree,
        check=True,
        capture_output=True,
        text=True,
    )
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--tiny", type=int, default=2000, help="tiny messages (default 2000)")
    parser.add_argument("--html", type=int, default=500, help="3 KB HTML messages (default 500)")
    parser.add_argument("--against", type=Path, help="another checkout, measured alternately with this one")
    parser.add_argument("--measure", type=Path, help=argparse.SUPPRESS)  # one side, in its own process
    args = parser.parse_args()
    if args.measure is not None:
        print(json.dumps(measure(pickle.loads(args.measure.read_bytes()))))
        return
    sides = [("this", ROOT)] + ([("against", args.against.resolve())] if args.against else [])
    with tempfile.TemporaryDirectory() as scratch:
        data = Path(scratch) / "messages.pickle"
        data.write_bytes(pickle.dumps(make_messages(args.tiny, args.html)))
        results: dict[str, list[dict[str, float]]] = {name: [] for name, _ in sides}
        for round_no in range(args.rounds):
            # Alternate which side goes first, so neither always runs on a warmer machine.
            for name, tree in sides if round_no % 2 else list(reversed(sides)):
                results[name].append(run_side(tree, data))
                print(f"round {round_no + 1}: {name} done", file=sys.stderr)
    keys = list(results["this"][0])
    med = {name: {k: statistics.median(r[k] for r in runs) for k in keys} for name, runs in results.items()}
    title = f"µs a message (median of {args.rounds} rounds)"
    if args.against:
        print(f"{title:44s} {'against':>9s} {'this':>9s} {'ratio':>7s}")
        for k in keys:
            a, b = med["against"][k], med["this"][k]
            print(f"{k:44s} {a:9.1f} {b:9.1f} {a / b:6.2f}x")
    else:
        print(f"{title:44s} {'this':>9s}")
        for k in keys:
            print(f"{k:44s} {med['this'][k]:9.1f}")


if __name__ == "__main__":
    main()
