"""bench/soak.py's short version: steady SMTP load, 500 open waits and 50 event streams, nothing lost.

The 60 s run at 200 msg/s is a benchmark (`bench/soak.py`); this one proves the same promises in
CI at a rate any machine sustains. Only generous bounds on time: "woken", not "woken fast".
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import pytest

from tests.serve import ROOT


@pytest.mark.timeout(180)  # identity set-up, 10 s of load, the drain and the index check, on a shared 2-core box
def test_soak_smoke_loses_nothing_and_wakes_every_wait_and_stream() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGENTMAIL_")}
    env["PYTHONPATH"] = str(ROOT)
    argv = [
        sys.executable,
        str(ROOT / "bench" / "soak.py"),
        "--seconds",
        "10",
        "--rate",
        "50",
        "--wait-timeout",
        "8",
        "--json",
    ]
    # A session of its own: if it overstays, the soak and the gateway it started go together.
    proc = subprocess.Popen(
        argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        stdout, stderr = proc.communicate(timeout=170)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert stdout.strip(), stderr[-4000:]
    report = json.loads(stdout.strip().splitlines()[-1])
    assert (report["identities"], report["waits"], report["sse"]) == (1000, 500, 50), report
    assert report["accepted"] == 500 and report["refused"] == 0, report
    assert report["lost"] == 0 and report["duplicated"] == 0, report
    assert report["waited_messages"] > 0 and report["waits_missed"] == 0, report
    assert report["sse_messages"] > 0 and report["sse_missed"] == 0, report
    assert report["stale_wait_timeouts"] == 0, report  # no wake-up was lost and caught up by a timeout
    assert report["wake_max_ms"] < 30_000, report  # bounded, not hung
    assert report["rss_end_mb"] < 1024, report
    assert not report["errors"], report
    assert proc.returncode == 0, stderr[-4000:]
