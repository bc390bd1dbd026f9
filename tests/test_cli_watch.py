"""`agentmail-gateway watch`: real watcher processes against a real gateway, running real commands.

Mail goes in over real SMTP (or through the gateway's reply route, for the two agents that answer
each other). The command each run starts is a small Python script (COMMAND below) whose
behaviour the mail's subject picks: it notes every start and end in a log file, and `hold`
waits for a gate file, `fail` exits 3, `stuck` leaves a child behind and hangs, `ping` replies
to the mail through the gateway. Nothing waits by sleeping: the tests wait, with deadlines, for
the log, the watcher's state file or its stderr.

Every watcher starts from a state file whose cursor is a message sent before it (a *seed*): a
new watcher starts from "now", and nothing here could otherwise know when its stream is open.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import sys
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

from gateway.client.watch.core import Saved
from gateway.client.watch.state import StateFile
from tests.conftest import ADMIN_TOKEN, DOMAIN, RunningGateway, make_message

DEADLINE = 30.0
"""Longest wait for anything a watcher does (a hang fails the test instead of stalling the suite)."""

COMMAND = r"""
import json, os, pathlib, subprocess, sys, time

data = json.load(sys.stdin)
log = pathlib.Path(os.environ["WATCH_LOG"])
subject = data["subject"]


def note(event, **more):
    entry = {
        "event": event,
        "address": os.environ["AGENTMAIL_ADDRESS"],
        "id": os.environ["AGENTMAIL_MESSAGE_ID"],
        "ids": os.environ["AGENTMAIL_MESSAGE_IDS"].split(),
        "thread": os.environ["AGENTMAIL_THREAD_ID"],
        "subjects": [m["subject"] for m in data["earlier"]] + [subject],
        "stdin_address": data["address"],
        "pid": os.getpid(),
    }
    with log.open("a") as out:
        out.write(json.dumps(entry | more) + "\n")


note("start")
if subject.startswith("hold"):
    gate = pathlib.Path(os.environ["WATCH_GATES"]) / subject
    deadline = time.monotonic() + 60
    while not gate.exists() and time.monotonic() < deadline:
        time.sleep(0.02)
if subject.startswith("fail"):
    sys.stderr.write("something broke\nboom: the last line\n")
    sys.exit(3)
if subject.startswith("stuck"):
    child = subprocess.Popen(["sleep", "300"])
    note("child", child=child.pid)
    time.sleep(300)
if "ping" in subject:
    from gateway.client import Gateway

    with Gateway() as gw:
        me = gw.identity(os.environ["AGENTMAIL_ADDRESS"], os.environ["AGENTMAIL_IDENTITY_TOKEN"])
        me.reply(os.environ["AGENTMAIL_MESSAGE_ID"], text="pong")
note("end")
"""


async def until(condition: Callable[[], Any], what: str, timeout: float = DEADLINE) -> Any:
    """`condition()`'s first truthy value, polled without blocking the loop; AssertionError after `timeout`."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not (found := condition()):
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        await asyncio.sleep(0.02)
    return found


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"
    except (ProcessLookupError, FileNotFoundError):
        return False


@dataclass
class Watcher:
    """One `agentmail-gateway watch` process and what it wrote on stderr."""

    proc: asyncio.subprocess.Process
    lines: list[str] = field(default_factory=list)
    reader: asyncio.Task[None] | None = None

    async def read(self) -> None:
        assert self.proc.stderr is not None
        while line := await self.proc.stderr.readline():
            self.lines.append(line.decode(errors="replace"))

    def said(self, pattern: str) -> list[str]:
        return [line for line in self.lines if re.search(pattern, line)]

    async def stop(self, signum: int = signal.SIGINT) -> int:
        self.proc.send_signal(signum)
        return await self.ended()

    async def ended(self) -> int:
        code = await asyncio.wait_for(self.proc.wait(), DEADLINE)
        if self.reader is not None:
            await asyncio.wait_for(self.reader, DEADLINE)
        assert not self.said("Traceback"), "".join(self.lines)
        return code

    def kill(self) -> None:
        self.proc.kill()


@dataclass
class Lab:
    """A gateway, a folder, and the means to mail identities and watch them."""

    gateway: RunningGateway
    root: Path
    watchers: list[Watcher] = field(default_factory=list)

    @property
    def log(self) -> Path:
        return self.root / "runs.jsonl"

    @property
    def gates(self) -> Path:
        return self.root / "gates"

    def entries(self, event: str | None = None) -> list[dict[str, Any]]:
        if not self.log.exists():
            return []
        found = [json.loads(line) for line in self.log.read_text().splitlines() if line.strip()]
        return [e for e in found if event is None or e["event"] == event]

    def open_gate(self, subject: str) -> None:
        (self.gates / subject).touch()

    def env(self, **extra: str) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("AGENTMAIL_")}
        env |= {
            "HOME": str(self.root / "home"),
            "XDG_CONFIG_HOME": str(self.root / "home" / "config"),
            "XDG_STATE_HOME": str(self.root / "home" / "state"),
            "AGENTMAIL_URL": str(self.gateway.http.base_url),
            "AGENTMAIL_TOKEN": ADMIN_TOKEN,
            "WATCH_LOG": str(self.log),
            "WATCH_GATES": str(self.gates),
        }
        return env | extra

    async def mail(
        self, to: str, subject: str, *, headers: Sequence[tuple[str, str]] = (), sender: str = "peer@example.com"
    ) -> str:
        """Mail `to` over SMTP; the new message's id once it is indexed."""
        before = {m["id"] for m in (await self.gateway.messages(to))["messages"]}
        await self.gateway.send(make_message(to=to, sender=sender, subject=subject, headers=headers), [to])
        (new,) = [m["id"] for m in (await self.gateway.messages(to))["messages"] if m["id"] not in before]
        return str(new)

    async def mail_many(self, to: str, mails: Sequence[EmailMessage]) -> None:
        await self.gateway.send_many([(m, [to]) for m in mails])

    def seeded_state(self, name: str, cursors: dict[str, str]) -> Path:
        """A state file whose streams resume after the given events (nothing queued yet)."""
        path = self.root / f"{name}.json"
        state = StateFile(path)
        state.lock()
        try:
            state.save(Saved(1, cursors, [], {}, {}))
        finally:
            state.close()
        return path

    async def watch(self, *args: str, env: dict[str, str] | None = None) -> Watcher:
        command = f"{sys.executable} {self.root / 'command.py'}"
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "gateway",
            "watch",
            *args,
            "--exec",
            command,
            env=env or self.env(),
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )
        watcher = Watcher(proc)
        watcher.reader = asyncio.create_task(watcher.read())
        self.watchers.append(watcher)
        return watcher

    def state(self, path: Path) -> dict[str, dict[str, Any]]:
        """The state file's records by message id (empty before it is written)."""
        if not path.exists():
            return {}
        return {m["message_id"]: m for m in json.loads(path.read_text())["messages"]}

    def statuses(self, path: Path) -> dict[str, str]:
        return {mid: m["status"] for mid, m in self.state(path).items()}


@pytest.fixture
async def lab(gateway: RunningGateway, tmp_path: Path) -> AsyncIterator[Lab]:
    (tmp_path / "home").mkdir()
    (tmp_path / "gates").mkdir()
    (tmp_path / "command.py").write_text(COMMAND)
    lab = Lab(gateway, tmp_path)
    try:
        yield lab
    finally:
        for gate in ("hold", "hold-a1", "hold-b1", "hold-5"):
            lab.open_gate(gate)  # no command is left waiting
        for watcher in lab.watchers:
            print("".join(watcher.lines))  # shown when the test failed
            if watcher.proc.returncode is None:
                watcher.kill()
                await watcher.proc.wait()
            if watcher.reader is not None:
                watcher.reader.cancel()
        for entry in lab.entries("child"):
            with contextlib.suppress(ProcessLookupError):
                os.kill(entry["child"], signal.SIGKILL)


async def identity(lab: Lab, local_part: str) -> tuple[str, str, str]:
    """(address, token, seed message id): a new identity holding one message, the cursor to start after."""
    address, token = await lab.gateway.create_identity(local_part)
    seed = await lab.mail(address, f"seed for {local_part}")
    return address, token, seed


def fast(*more: str) -> list[str]:
    return ["--debounce", "0", "--retry-delay", "0.2", *more]


# -- serialization, parallelism, the stdin and the environment ----------------------------------


async def test_one_run_at_a_time_per_identity_and_identities_in_parallel(lab: Lab) -> None:
    a, _, seed_a = await identity(lab, "serial-a")
    b, _, seed_b = await identity(lab, "serial-b")
    # One cursor for the all-identities stream: after b's seed, which came after a's.
    state = lab.seeded_state("state", {"*": f"{b}/{seed_b}"})
    watcher = await lab.watch(a, b, "--jobs", "2", "--state", str(state), *fast())
    a1 = await lab.mail(a, "hold-a1")
    b1 = await lab.mail(b, "hold-b1")
    a2 = await lab.mail(a, "second for a")
    await until(lambda: {e["id"] for e in lab.entries("start")} >= {a1, b1}, "a's and b's first runs, together")
    await until(lambda: lab.statuses(state).get(a2) == "queued", "a's second message queued")
    assert [e["id"] for e in lab.entries("start") if e["address"] == a] == [a1], "a's second waits for its first"
    lab.open_gate("hold-a1")
    await until(lambda: lab.statuses(state).get(a2) == "done", "a's second run")
    starts = [e["event"] + e["id"] for e in lab.entries() if e["address"] == a]
    assert starts == [f"start{a1}", f"end{a1}", f"start{a2}", f"end{a2}"]
    first = next(e for e in lab.entries("start") if e["id"] == a1)
    assert (first["address"], first["stdin_address"], first["ids"], first["subjects"]) == (a, a, [a1], ["hold-a1"])
    assert first["thread"], "AGENTMAIL_THREAD_ID names the message's thread"
    lab.open_gate("hold-b1")
    await until(lambda: lab.statuses(state).get(b1) == "done", "b's run")
    assert await watcher.stop() == 0
    assert seed_a not in lab.statuses(state) and seed_b not in lab.statuses(state), "the cursor's messages never run"


async def test_a_burst_on_one_thread_is_one_run_with_all_its_messages(lab: Lab) -> None:
    a, _, seed = await identity(lab, "burst")
    state = lab.seeded_state("state", {"*": f"{a}/{seed}"})
    watcher = await lab.watch(a, "--debounce", "2s", "--state", str(state))
    first = make_message(to=a, sender="peer@example.com", subject="burst", headers=[("Message-ID", "<b1@example.com>")])
    replies = [
        make_message(
            to=a,
            sender="peer@example.com",
            subject="Re: burst",
            headers=[
                ("Message-ID", f"<b{n}@example.com>"),
                ("In-Reply-To", "<b1@example.com>"),
                ("References", "<b1@example.com>"),
            ],
        )
        for n in (2, 3)
    ]
    other = make_message(to=a, sender="peer@example.com", subject="another thread")
    await lab.mail_many(a, [first, *replies, other])
    ids = [m["id"] for m in reversed((await lab.gateway.messages(a))["messages"]) if m["id"] != seed]
    await until(lambda: len(lab.statuses(state)) == 4 and set(lab.statuses(state).values()) == {"done"}, "both runs")
    runs = lab.entries("start")
    assert sorted(len(r["ids"]) for r in runs) == [1, 3], runs
    burst = next(r for r in runs if len(r["ids"]) == 3)
    assert burst["ids"] == ids[:3] and burst["id"] == ids[2], "oldest first; the newest is the run's message"
    assert burst["subjects"] == ["burst", "Re: burst", "Re: burst"], "stdin: the newest, `earlier` the others"
    assert await watcher.stop() == 0


# -- the circuit breaker ------------------------------------------------------------------------


async def test_two_watchers_answering_each_other_are_stopped_by_the_breaker(lab: Lab) -> None:
    a, token_a, seed_a = await identity(lab, "ping-a")
    b, token_b, seed_b = await identity(lab, "ping-b")
    watchers = []
    for me, token, seed in ((a, token_a, seed_a), (b, token_b, seed_b)):
        # Each reads its identity's own stream with its own token, as an agent's watcher does.
        state = lab.seeded_state(f"state-{me}", {me: seed})
        env = lab.env(AGENTMAIL_IDENTITY_TOKEN=token, AGENTMAIL_ADDRESS=me)
        watchers.append(await lab.watch(me, "--max-thread-runs-per-hour", "3", "--state", str(state), *fast(), env=env))
    # a mails b: b's watcher answers, a's answers that, and so on: b's 4th would be the thread's 4th run.
    async with lab.gateway.client(token_a) as as_a:
        sent = await as_a.post(f"/v1/identities/{a}/send", json={"to": [b], "subject": "ping", "text": "hi"})
        assert sent.status_code == 201, sent.text
    watcher_a, watcher_b = watchers
    await until(lambda: watcher_b.said("circuit breaker"), "the breaker to open")
    (line,) = watcher_b.said("circuit breaker")
    assert b in line and "its thread ran 3 times in the last hour" in line and "mail loop" in line
    (tripped,) = await until(
        lambda: [m for m in lab.state(lab.root / f"state-{b}.json").values() if m["status"] == "tripped"],
        "the tripped message in b's state file",
    )
    assert "circuit breaker" in tripped["reason"]
    # The loop is broken: b answered nothing, so a has nothing more to answer.
    await until(
        lambda: [len([e for e in lab.entries("end") if e["address"] == me]) for me in (a, b)] == [3, 3],
        "a's third run to end",
    )
    state_a = lab.root / f"state-{a}.json"
    await until(lambda: set(lab.statuses(state_a).values()) == {"done"}, "a's third run saved")
    for watcher in watchers:
        assert await watcher.stop(signal.SIGTERM) == 0
    assert len(lab.entries("start")) == 6 and not watcher_a.said("circuit breaker")


# -- the state file: kill -9 and resume ---------------------------------------------------------


async def test_a_watcher_killed_with_sigkill_resumes_without_running_a_finished_message_again(lab: Lab) -> None:
    a, _, seed = await identity(lab, "resume")
    state = lab.seeded_state("state", {"*": f"{a}/{seed}"})
    watcher = await lab.watch(a, "--state", str(state), *fast())
    m1, m2 = await lab.mail(a, "one"), await lab.mail(a, "two")
    await until(lambda: lab.statuses(state) == {m1: "done", m2: "done"}, "the first two runs saved")
    hold = await lab.mail(a, "hold-5")
    await until(lambda: [e for e in lab.entries("start") if e["id"] == hold], "the third run started")
    watcher.kill()  # SIGKILL: no chance to save anything
    assert await watcher.ended() == -signal.SIGKILL
    orphan = next(e["pid"] for e in lab.entries("start") if e["id"] == hold)
    os.kill(orphan, signal.SIGKILL)  # the run it left behind (in its own session) ends unfinished
    m3, m4 = await lab.mail(a, "three"), await lab.mail(a, "four")  # while no watcher runs
    lab.open_gate("hold-5")
    watcher = await lab.watch(a, "--state", str(state), *fast())
    await until(
        lambda: set(lab.statuses(state).values()) == {"done"} and len(lab.statuses(state)) == 5, "all five done"
    )
    starts = [e["id"] for e in lab.entries("start")]
    assert sorted(starts) == sorted([m1, m2, hold, hold, m3, m4]), "the interrupted run again; the others once"
    assert await watcher.stop() == 0


async def test_sigint_lets_the_run_going_on_finish_and_saves_the_cursor(lab: Lab) -> None:
    a, _, seed = await identity(lab, "ctrlc")
    state = lab.seeded_state("state", {"*": f"{a}/{seed}"})
    watcher = await lab.watch(a, "--state", str(state), "--grace", "60", *fast())
    held = await lab.mail(a, "hold")
    await until(lambda: lab.entries("start"), "the run started")
    watcher.proc.send_signal(signal.SIGINT)
    await until(lambda: watcher.said("SIGINT: stopping"), "the watcher to say it stops")
    assert watcher.proc.returncode is None, "it waits for the run"
    lab.open_gate("hold")
    assert await watcher.ended() == 0
    saved = json.loads(state.read_text())
    assert saved["cursors"] == {"*": f"{a}/{held}"} and lab.statuses(state) == {held: "done"}


async def test_a_second_sigint_abandons_the_run_which_runs_again_at_the_next_start(lab: Lab) -> None:
    a, _, seed = await identity(lab, "abandon")
    state = lab.seeded_state("state", {"*": f"{a}/{seed}"})
    watcher = await lab.watch(a, "--state", str(state), "--grace", "60", *fast())
    held = await lab.mail(a, "hold")
    await until(lambda: lab.entries("start"), "the run started")
    watcher.proc.send_signal(signal.SIGINT)
    await until(lambda: watcher.said("SIGINT: stopping"), "the first SIGINT taken")
    watcher.proc.send_signal(signal.SIGINT)
    assert await watcher.ended() == 0
    assert not alive(lab.entries("start")[0]["pid"]), "the abandoned run's process group was killed"
    assert lab.statuses(state) == {held: "queued"} and watcher.said("abandoned")
    lab.open_gate("hold")
    watcher = await lab.watch(a, "--state", str(state), *fast())
    await until(lambda: lab.statuses(state) == {held: "done"}, "the abandoned message run at the next start")
    assert [e["id"] for e in lab.entries("start")] == [held, held]
    assert await watcher.stop() == 0


# -- failures: retries, parking, --timeout ------------------------------------------------------


async def test_a_failing_run_is_retried_then_parked_with_its_exit_status_and_stderr(lab: Lab) -> None:
    a, _, seed = await identity(lab, "failing")
    state = lab.seeded_state("state", {"*": f"{a}/{seed}"})
    watcher = await lab.watch(a, "--state", str(state), "--retries", "2", *fast())
    failed = await lab.mail(a, "fail now")
    await until(lambda: lab.statuses(state).get(failed) == "parked", "the message parked")
    record = lab.state(state)[failed]
    assert (record["attempts"], record["exit_code"], record["reason"]) == (3, 3, "exit status 3")
    assert record["stderr_tail"].endswith("boom: the last line\n")
    assert len(lab.entries("start")) == 3 and len(watcher.said("retry [12] of 2")) == 2
    (parked,) = await until(lambda: watcher.said("parked"), "the log to say it parked the message")
    assert failed in parked and "exit status 3" in parked and "boom: the last line" in parked
    assert await watcher.stop() == 0


async def test_the_timeout_kills_a_stuck_run_and_its_children(lab: Lab) -> None:
    a, _, seed = await identity(lab, "stuck")
    state = lab.seeded_state("state", {"*": f"{a}/{seed}"})
    watcher = await lab.watch(a, "--state", str(state), "--timeout", "1", "--retries", "0", *fast())
    stuck = await lab.mail(a, "stuck")
    await until(lambda: lab.statuses(state).get(stuck) == "parked", "the stuck run killed and parked")
    (child,) = [e["child"] for e in lab.entries("child")]
    (run,) = [e["pid"] for e in lab.entries("start")]
    await until(lambda: not alive(child) and not alive(run), "the run and its child gone")
    record = lab.state(state)[stuck]
    assert record["reason"].startswith("timed out after 1 s") and record["exit_code"] < 0
    assert not lab.entries("end")
    assert await watcher.stop() == 0


# -- refusals -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--all", f"x@{DOMAIN}"], "not both"),
        ([], "nothing to watch"),
        (["--all", "--jobs", "0"], "not between 1 and 256"),
        (["--all", "--debounce", "soon"], "not a duration"),
    ],
)
async def test_arguments_it_cannot_use_exit_2_with_one_line(lab: Lab, args: list[str], says: str) -> None:
    watcher = await lab.watch(*args)
    assert await watcher.ended() == 2
    assert says in "".join(watcher.lines)


async def test_a_second_watcher_on_the_same_state_file_is_refused(lab: Lab) -> None:
    a, _, seed = await identity(lab, "twice")
    state = lab.seeded_state("state", {"*": f"{a}/{seed}"})
    first = await lab.watch(a, "--state", str(state))
    await until(lambda: first.said("watching"), "the first watcher to start")
    second = await lab.watch(a, "--state", str(state))
    assert await second.ended() == 2
    assert second.said("another watcher is using the state file")
    assert await first.stop() == 0


async def test_a_token_the_gateway_refuses_stops_the_watcher_with_exit_2(lab: Lab) -> None:
    a, _, seed = await identity(lab, "refused")
    state = lab.seeded_state("state", {"*": f"{a}/{seed}"})
    watcher = await lab.watch("--all", "--state", str(state), env=lab.env(AGENTMAIL_TOKEN="am_not-a-token-at-all-0000"))
    assert await watcher.ended() == 2
    assert watcher.said("the event stream stopped") and not watcher.said("am_not-a-token")
