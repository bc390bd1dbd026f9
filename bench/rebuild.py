"""Rebuild of the embedded index from the Maildir: messages a second, with and without workers.

    .venv/bin/python bench/rebuild.py [--messages 100000] [--rounds 3] [--workers 0,2]

Pre-fills a Maildir with `--messages` small messages (bench/run.py's pre-fill), then, per round
and per worker count (interleaved), deletes the index, starts `agentmail-gateway serve` on it and
times from the process start until /health reports the rebuild done ("ok"). Medians are quoted.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from run import free_port, prefill_identities, prefill_maildir, rss_mb, start_gateway  # noqa: E402


def rebuild_once(data: Path, workers: int) -> tuple[float, float]:
    """(seconds from start to a whole index, peak RSS in MB of the gateway process) with `workers`."""
    for stale in data.glob("index.db*"):
        stale.unlink()
    http_port, smtp_port = free_port(), free_port()
    started = time.perf_counter()
    proc = start_gateway(data, http_port, smtp_port, extra={"AGENTMAIL_INDEX_WORKERS": str(workers)})
    peak = 0.0
    try:
        client = httpx.Client(base_url=f"http://127.0.0.1:{http_port}", timeout=30)
        while True:
            peak = max(peak, rss_mb(proc.pid))
            try:
                if client.get("/health").json().get("status") == "ok":
                    return time.perf_counter() - started, peak
            except (httpx.TransportError, ValueError):
                pass
            if proc.poll() is not None:
                raise RuntimeError("the gateway exited")
            time.sleep(0.05)  # a benchmark's progress check, not a test's synchronisation
    finally:
        proc.terminate()
        proc.wait(timeout=60)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workers", default="0,2", help="comma-separated worker counts to compare")
    args = parser.parse_args()
    counts = [int(w) for w in args.workers.split(",")]
    with tempfile.TemporaryDirectory(prefix="agentmail-rebuild-") as tmp:
        data = Path(tmp) / "data"
        data.mkdir(mode=0o700)
        now = time.time()
        prefill_identities(data, 1000, now - 7200)
        prefill_maildir(data, args.messages, 50, now - 3600)
        print(f"pre-filled {args.messages:,} messages", file=sys.stderr)
        seconds: dict[int, list[float]] = {w: [] for w in counts}
        peaks: dict[int, list[float]] = {w: [] for w in counts}
        for r in range(args.rounds):
            for workers in counts:
                took, peak = rebuild_once(data, workers)
                seconds[workers].append(took)
                peaks[workers].append(peak)
                print(f"round {r + 1}: {workers} workers {args.messages / took:,.0f} msg/s", file=sys.stderr)
        print(f"{'what':<52}  {'target':<16}  measured")
        for workers in counts:
            took = statistics.median(seconds[workers])
            what = f"rebuild {args.messages:,} messages, {workers} index workers"
            print(
                f"{what:<52}  {'≥ 5,000 msg/s':<16}  {args.messages / took:,.0f} msg/s"
                f" ({took:.1f} s; gateway RSS peak {max(peaks[workers]):.0f} MB)"
            )
        shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    main()
