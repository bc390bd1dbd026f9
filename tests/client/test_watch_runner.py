"""The watch runner's process handling (gateway/client/watch/runner.py) and state file, with real processes.

No gateway here: `run_command` runs real shells, and the state file is a real file. The runner
against a real gateway, through the CLI, is tests/test_cli_watch.py.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from pathlib import Path

import msgspec
import pytest

from gateway.client.watch.core import Dispatcher, Record, Rules
from gateway.client.watch.runner import KILL_GRACE, run_command, stdin_for
from gateway.client.watch.state import StateError, StateFile

DEADLINE = 30.0


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is dead for our purpose: reparented to init, which reaps it soon.
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


async def gone(pid: int, timeout: float = DEADLINE) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while alive(pid):
        assert asyncio.get_running_loop().time() < deadline, f"process {pid} still alive"
        await asyncio.sleep(0.02)


async def until_file(path: Path, timeout: float = DEADLINE) -> str:
    deadline = asyncio.get_running_loop().time() + timeout
    while not (path.exists() and path.read_text().endswith("\n")):
        assert asyncio.get_running_loop().time() < deadline, f"{path} never written"
        await asyncio.sleep(0.02)
    return path.read_text()


async def test_a_run_gets_stdin_and_env_and_its_stderr_tail_is_kept(tmp_path: Path) -> None:
    seen: list[bytes] = []
    script = f'cat > {tmp_path}/in; echo "$AGENTMAIL_MESSAGE_ID" > {tmp_path}/env; echo oops >&2; exit 7'
    result = await run_command(script, b'{"id": "m1"}', os.environ | {"AGENTMAIL_MESSAGE_ID": "m1"}, 10, seen.append)
    assert (result.returncode, result.timed_out) == (7, False)
    assert (tmp_path / "in").read_text() == '{"id": "m1"}' and (tmp_path / "env").read_text() == "m1\n"
    assert result.stderr_tail == "oops\n" and b"".join(seen) == b"oops\n", "stderr is passed on and kept"


async def test_only_the_end_of_a_long_stderr_is_kept() -> None:
    script = f"{sys.executable} -c \"import sys; sys.stderr.write('x' * 100000 + 'THE END')\""
    result = await run_command(script, b"", dict(os.environ), 10, lambda chunk: None)
    assert result.stderr_tail.endswith("THE END") and len(result.stderr_tail) == 2000


async def test_a_command_that_never_reads_stdin_is_fine() -> None:
    result = await run_command("exit 0", b"x" * 1_000_000, dict(os.environ), 10, lambda chunk: None)
    assert result.returncode == 0


async def test_the_timeout_kills_the_whole_process_group(tmp_path: Path) -> None:
    # The shell starts a child that ignores SIGTERM and a grandchild, then hangs.
    script = (
        f"(trap '' TERM; sleep 300) & echo $! > {tmp_path}/child; "
        f"sh -c 'sleep 300 & echo $! > {tmp_path}/grandchild; wait' & "
        "wait"
    )
    result = await run_command(script, b"", dict(os.environ), 1.0, lambda chunk: None)
    assert result.timed_out and result.returncode < 0
    assert result.seconds < 1.0 + KILL_GRACE + 5
    for name in ("child", "grandchild"):
        pid = int((await until_file(tmp_path / name)).strip())
        await gone(pid)


async def test_a_cancelled_run_kills_its_process_group(tmp_path: Path) -> None:
    task = asyncio.create_task(
        run_command(f"sleep 300 & echo $! > {tmp_path}/child; wait", b"", dict(os.environ), None, lambda c: None)
    )
    pid = int((await until_file(tmp_path / "child")).strip())
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await gone(pid)


async def test_a_run_is_in_its_own_session_so_the_terminals_ctrl_c_misses_it(tmp_path: Path) -> None:
    result = await run_command(f"ps -o sid= -p $$ > {tmp_path}/sid", b"", dict(os.environ), 10, lambda c: None)
    assert result.returncode == 0
    assert int((tmp_path / "sid").read_text()) != os.getsid(0)


async def test_a_child_left_behind_holding_stderr_does_not_hold_the_run(tmp_path: Path) -> None:
    result = await run_command(
        f"sleep 5 & echo $! > {tmp_path}/child; exit 0", b"", dict(os.environ), 30, lambda c: None
    )
    assert result.returncode == 0 and result.seconds < 4
    os.kill(int((tmp_path / "child").read_text()), signal.SIGKILL)


def test_stdin_is_the_newest_summary_with_the_address_and_the_earlier_messages() -> None:
    records = [
        Record("a@agents.test", f"m{n}", "t1", "running", 0.0, msgspec.json.encode({"id": f"m{n}", "subject": f"s{n}"}))
        for n in (1, 2, 3)
    ]
    data = json.loads(stdin_for("a@agents.test", records))
    assert data["id"] == "m3" and data["subject"] == "s3" and data["address"] == "a@agents.test"
    assert [m["id"] for m in data["earlier"]] == ["m1", "m2"]
    alone = json.loads(stdin_for("a@agents.test", records[:1]))
    assert alone["id"] == "m1" and alone["earlier"] == []


# --- the state file ----------------------------------------------------------------------------


def test_the_state_file_round_trips_and_is_private(tmp_path: Path) -> None:
    rules = Rules(debounce=0.0)
    dispatcher = Dispatcher(rules)
    dispatcher.offer("a@agents.test", "m1", "t", b'{"id":"m1"}', 0.0)
    dispatcher.cursors["*"] = "a@agents.test/m1"
    state = StateFile(tmp_path / "watch" / "state.json")
    state.lock()
    try:
        state.save(dispatcher.snapshot(1.0))
    finally:
        state.close()
    assert (tmp_path / "watch").stat().st_mode & 0o777 == 0o700
    assert (tmp_path / "watch" / "state.json").stat().st_mode & 0o077 == 0
    saved = StateFile(tmp_path / "watch" / "state.json").load()
    assert saved is not None
    restored = Dispatcher.restore(rules, saved, 2.0)
    assert restored.cursors == {"*": "a@agents.test/m1"}
    assert restored.records[("a@agents.test", "m1")].payload == b'{"id":"m1"}'
    assert [p.name for p in (tmp_path / "watch").iterdir() if p.name.endswith(".tmp")] == []


def test_a_second_watcher_on_the_same_state_file_is_refused(tmp_path: Path) -> None:
    first, second = StateFile(tmp_path / "s.json"), StateFile(tmp_path / "s.json")
    first.lock()
    try:
        with pytest.raises(StateError, match="another watcher"):
            second.lock()
    finally:
        first.close()
    second.lock()  # free once the first let go
    second.close()


@pytest.mark.parametrize("content", [b"", b"{not json", b'{"version": 1}', b"[]"])
def test_a_state_file_that_is_not_one_is_refused_not_overwritten(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "s.json"
    path.write_bytes(content)
    with pytest.raises(StateError, match="move it away"):
        StateFile(path).load()
    assert path.read_bytes() == content


def test_the_watch_runner_imports_nothing_of_the_server() -> None:
    import subprocess

    from tests.client.test_init import SERVER, SERVER_MODULES

    probe = "import json, sys\nimport gateway.client.watch\nprint(json.dumps(sorted(sys.modules)))\n"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True)
    loaded = json.loads(done.stdout)
    assert "gateway.client.watch.runner" in loaded
    assert [m for m in loaded if m.split(".")[0] in SERVER or m.startswith(SERVER_MODULES)] == []
