"""`agentmail-gateway new / wait / rm`: the CLI for shell scripts, run as real processes against a real gateway.

Each run is `python -m gateway …` (or the `agentmail-gateway` script, through bash) in a child
process whose environment holds only what the test gives it: no AGENTMAIL_* of ours, and HOME /
XDG_CONFIG_HOME in the test's own folder, so the token file is private to the test. Mail goes in
over real SMTP to the in-process gateway the child talks to over HTTP.
"""

from __future__ import annotations

import asyncio
import json
import os
import stat
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from gateway.cli import parse_duration
from mcp_server.tokens import FILE_NAME, scope_key
from tests.conftest import ADMIN_TOKEN, DOMAIN, RunningGateway, make_message
from tests.mailstack import free_port

RUN_TIMEOUT = 60.0
"""Bound on one child process (a hang fails the test instead of stalling the suite)."""
BIN = Path(sys.executable).parent


@dataclass
class Result:
    code: int
    out: str
    err: str

    @property
    def lines(self) -> list[str]:
        return self.out.splitlines()


@dataclass
class Shell:
    """Runs the CLI in child processes against one gateway, with a private config folder."""

    gateway: RunningGateway
    provisioner: str
    home: Path
    secrets: list[str] = field(default_factory=list)
    """Every token of this test: none may ever appear in any output."""
    outputs: list[str] = field(default_factory=list)

    @property
    def url(self) -> str:
        return str(self.gateway.http.base_url)

    @property
    def token_file(self) -> Path:
        return self.home / "config" / "agentmail-gateway" / FILE_NAME

    def env(self, **extra: str | None) -> dict[str, str]:
        """Our environment without AGENTMAIL_*, this gateway and provisioner, a private HOME; `extra` (None drops)."""
        env = {k: v for k, v in os.environ.items() if not k.startswith("AGENTMAIL_")}
        env |= {
            "HOME": str(self.home),
            "XDG_CONFIG_HOME": str(self.home / "config"),
            "AGENTMAIL_URL": self.url,
            "AGENTMAIL_TOKEN": self.provisioner,
        }
        for name, value in extra.items():
            if value is None:
                env.pop(name, None)
            else:
                env[name] = value
        return env

    async def start(
        self, argv: Sequence[str], env: Mapping[str, str], cwd: Path | None = None
    ) -> asyncio.subprocess.Process:
        return await asyncio.create_subprocess_exec(
            *argv, env=dict(env), cwd=cwd, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
        )

    async def finish(self, proc: asyncio.subprocess.Process) -> Result:
        out, err = await asyncio.wait_for(proc.communicate(), RUN_TIMEOUT)
        assert proc.returncode is not None
        result = Result(proc.returncode, out.decode(), err.decode())
        self.outputs += [result.out, result.err]
        assert "Traceback" not in result.err, result.err
        return result

    async def run(self, *args: str, **extra: str | None) -> Result:
        """`python -m gateway ARGS` with `env(**extra)`; its exit status and output."""
        return await self.finish(await self.start([sys.executable, "-m", "gateway", *args], self.env(**extra)))

    async def new(self, *args: str, **extra: str | None) -> tuple[str, str]:
        """`new ARGS`: the (address, token) it printed."""
        result = await self.run("new", *args, **extra)
        assert result.code == 0, result.err
        self.outputs.remove(result.out)  # the one output that shows the token: it was asked for
        address, token = result.lines
        self.secrets.append(token)
        return address, token

    def stored(self) -> dict[str, dict[str, str]]:
        """The token file's scopes → address → token."""
        gateways: dict[str, dict[str, str]] = json.loads(self.token_file.read_text())["gateways"]
        return gateways

    def assert_no_secret_shown(self) -> None:
        for text in self.outputs:
            for secret in self.secrets:
                assert secret not in text, "a token was printed where it must not be"


@pytest.fixture
async def sh(gateway: RunningGateway, tmp_path: Path) -> Shell:
    """A gateway, a provisioner token made by its admin, and a private HOME for the CLI."""
    response = await gateway.http.post("/v1/tokens", json={"scope": "provision", "label": "cli test"})
    assert response.status_code == 201, response.text
    provisioner = response.json()["token"]
    (tmp_path / "home").mkdir()
    return Shell(gateway, provisioner, tmp_path / "home", secrets=[provisioner, ADMIN_TOKEN])


def one_error_line(result: Result) -> str:
    """The single stderr line of a failed command (exit 2, nothing on stdout)."""
    assert result.code == 2, (result.code, result.out, result.err)
    assert result.out == ""
    lines = result.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("agentmail-gateway: "), result.err
    return lines[0]


async def mail(sh: Shell, to: str, *, subject: str, text: str, html: str | None = None) -> None:
    await sh.gateway.send(
        make_message(to=to, sender="Shop <noreply@shop.example>", subject=subject, text=text, html=html), [to]
    )


# -- new ---------------------------------------------------------------------------------------


async def test_new_prints_address_and_token_and_keeps_the_token_private(sh: Shell) -> None:
    address, token = await sh.new("signup-1", "--ttl", "1h", "--label", "ci job 7")
    assert address == f"signup-1@{DOMAIN}"
    assert token.startswith("am_")
    assert stat.S_IMODE(sh.token_file.stat().st_mode) == 0o600
    assert sh.stored() == {scope_key(sh.url, sh.provisioner): {address: token}}
    (info,) = (await sh.gateway.http.get("/v1/identities")).json()["identities"]
    assert info["address"] == address and info["label"] == "ci job 7"
    assert info["expires_at"] is not None  # --ttl reached the gateway


async def test_new_with_a_random_name(sh: Shell) -> None:
    address, _ = await sh.new()
    local, _, domain = address.partition("@")
    assert local and domain == DOMAIN


async def test_new_env_prints_shell_quoted_exports(sh: Shell) -> None:
    result = await sh.run("new", "quoted", "--env")
    assert result.code == 0, result.err
    first, second = result.lines
    assert first == f"export AGENTMAIL_ADDRESS=quoted@{DOMAIN}"
    assert second.startswith("export AGENTMAIL_IDENTITY_TOKEN=")
    token = second.removeprefix("export AGENTMAIL_IDENTITY_TOKEN=").strip("'")
    assert sh.stored()[scope_key(sh.url, sh.provisioner)][f"quoted@{DOMAIN}"] == token


# -- wait --------------------------------------------------------------------------------------


async def test_wait_code_blocks_until_the_mail_comes_and_prints_exactly_the_code(sh: Shell) -> None:
    address, _ = await sh.new()
    waiting = await sh.start([sys.executable, "-m", "gateway", "wait", address, "--code"], sh.env())
    await sh.gateway.gw.hub.wait_for_count(lambda n: n == 1, timeout=30)  # the wait is held: mail comes after
    await mail(sh, address, subject="Confirm your account", text="Your verification code is 482913.")
    result = await sh.finish(waiting)
    assert (result.code, result.out, result.err) == (0, "482913\n", "")
    sh.assert_no_secret_shown()


async def test_wait_link_prints_the_link_and_link_contains_picks_one(sh: Shell) -> None:
    address, _ = await sh.new()
    text = "Manage preferences: https://shop.example/prefs\nConfirm: https://shop.example/verify?t=abc123\n"
    await mail(sh, address, subject="Verify your email", text=text)
    await mail(sh, address, subject="Verify again", text=text)
    any_link = await sh.run("wait", address, "--link", "--timeout", "30")
    assert any_link.code == 0, any_link.err
    assert any_link.out.strip() in ("https://shop.example/prefs", "https://shop.example/verify?t=abc123")
    assert any_link.lines == [any_link.out.strip()]
    chosen = await sh.run("wait", address, "--link-contains", "verify", "--timeout", "30")
    assert (chosen.code, chosen.out) == (0, "https://shop.example/verify?t=abc123\n"), chosen.err


async def test_wait_json_is_the_whole_message(sh: Shell) -> None:
    address, _ = await sh.new()
    await mail(sh, address, subject="Your code", text="Use 771204 to sign in.", html="<p>Use <b>771204</b></p>")
    result = await sh.run("wait", address, "--json", "--from", "shop.example", "--subject", "code")
    assert result.code == 0, result.err
    message = json.loads(result.out)
    assert message["subject"] == "Your code"
    assert message["from"] == "Shop <noreply@shop.example>"
    assert message["to"] == [address]
    assert message["codes"][0]["value"] == "771204"
    assert "<b>771204</b>" in message["html"]


async def test_wait_without_a_flag_prints_a_summary(sh: Shell) -> None:
    address, _ = await sh.new()
    await mail(sh, address, subject="Welcome", text="Code: 550123\nConfirm: https://shop.example/verify?t=9")
    result = await sh.run("wait", address)
    assert result.code == 0, result.err
    assert "subject:  Welcome" in result.lines
    assert "code:     550123" in result.lines
    assert "link:     https://shop.example/verify?t=9" in result.lines


async def test_wait_filters_skip_other_mail(sh: Shell) -> None:
    address, _ = await sh.new()
    await mail(sh, address, subject="Newsletter", text="Offer code 111111")
    await mail(sh, address, subject="Your sign-in code", text="Code 222222")
    result = await sh.run("wait", address, "--code", "--subject", "sign-in")
    assert (result.code, result.out) == (0, "222222\n"), result.err


async def test_each_wait_takes_the_next_unseen_message_and_the_admins_leaves_them_unseen(sh: Shell) -> None:
    address, _ = await sh.new()
    await mail(sh, address, subject="First", text="Code 100001")
    await mail(sh, address, subject="Second", text="Code 200002")
    admin = [await sh.run("wait", address, "--code", AGENTMAIL_TOKEN=ADMIN_TOKEN) for _ in range(2)]
    assert [(r.code, r.out) for r in admin] == [(0, "100001\n")] * 2
    own = [await sh.run("wait", address, "--code", "--timeout", "1") for _ in range(3)]
    assert [(r.code, r.out) for r in own] == [(0, "100001\n"), (0, "200002\n"), (1, "")]


async def test_a_timeout_exits_1_and_names_what_arrived(sh: Shell) -> None:
    address, _ = await sh.new()
    await mail(sh, address, subject="Welcome aboard", text="Thanks for joining, no code here.")
    result = await sh.run("wait", address, "--code", "--timeout", "1")
    assert result.code == 1, result.err
    assert result.out == ""
    assert f"no unseen message with a code arrived for {address} within 1 s" in result.err
    assert "noreply@shop.example" in result.err and "'Welcome aboard'" in result.err
    sh.assert_no_secret_shown()


async def test_a_timeout_with_nothing_arrived_says_so(sh: Shell) -> None:
    address, _ = await sh.new()
    result = await sh.run("wait", address, "--timeout", "0.5s")
    assert result.code == 1, result.err
    assert "nothing at all arrived for this address" in result.err


# -- where the token comes from ----------------------------------------------------------------


async def test_the_identity_token_from_the_environment_needs_no_token_file(sh: Shell, tmp_path: Path) -> None:
    address, token = await sh.new()
    await mail(sh, address, subject="Code", text="Code 303030")
    result = await sh.run(
        "wait",
        address,
        "--code",
        AGENTMAIL_TOKEN=None,
        AGENTMAIL_IDENTITY_TOKEN=token,
        XDG_CONFIG_HOME=str(tmp_path / "empty"),
    )
    assert (result.code, result.out) == (0, "303030\n"), result.err


async def test_the_token_file_is_scoped_by_provisioner(sh: Shell) -> None:
    address, _ = await sh.new()
    response = await sh.gateway.http.post("/v1/tokens", json={"scope": "provision"})
    other = response.json()["token"]
    sh.secrets.append(other)
    result = await sh.run("wait", address, "--code", "--timeout", "1", AGENTMAIL_TOKEN=other)
    line = one_error_line(result)
    assert "no identity token for" in line and "AGENTMAIL_IDENTITY_TOKEN" in line and "agentmail-gateway new" in line
    sh.assert_no_secret_shown()


async def test_the_admin_token_reads_any_identity(sh: Shell, tmp_path: Path) -> None:
    address, _ = await sh.new()
    await mail(sh, address, subject="Code", text="Code 404404")
    result = await sh.run(
        "wait", address, "--code", AGENTMAIL_TOKEN=ADMIN_TOKEN, XDG_CONFIG_HOME=str(tmp_path / "elsewhere")
    )
    assert (result.code, result.out) == (0, "404404\n"), result.err


async def test_an_identity_token_for_another_address_is_not_used_for_this_one(sh: Shell) -> None:
    mine, _ = await sh.new("mine")
    _, other_token = await sh.new("other")
    await mail(sh, mine, subject="Code", text="Code 515151")
    # AGENTMAIL_ADDRESS says whose token it is: waiting on another address uses the token file.
    named = await sh.run(
        "wait", mine, "--code", AGENTMAIL_ADDRESS=f"other@{DOMAIN}", AGENTMAIL_IDENTITY_TOKEN=other_token
    )
    assert (named.code, named.out) == (0, "515151\n"), named.err
    # Without AGENTMAIL_ADDRESS it is taken, and the gateway's refusal is one line naming its source.
    unnamed = await sh.run("wait", mine, "--code", "--timeout", "1", AGENTMAIL_IDENTITY_TOKEN=other_token)
    line = one_error_line(unnamed)
    assert "AGENTMAIL_IDENTITY_TOKEN" in line and "another identity" in line
    sh.assert_no_secret_shown()


# -- errors: exit 2, one line, no token ----------------------------------------------------------


async def test_a_bad_token_exits_2_with_one_line(sh: Shell) -> None:
    bad = "am_" + "x" * 32
    sh.secrets.append(bad)
    line = one_error_line(await sh.run("new", AGENTMAIL_TOKEN=bad))
    assert "revoked" in line
    address, _ = await sh.new()
    line = one_error_line(await sh.run("wait", address, "--timeout", "1", AGENTMAIL_IDENTITY_TOKEN=bad))
    assert "AGENTMAIL_IDENTITY_TOKEN" in line
    sh.assert_no_secret_shown()


async def test_an_unreachable_gateway_exits_2_with_one_line(sh: Shell) -> None:
    nowhere = f"http://127.0.0.1:{free_port()}"
    line = one_error_line(await sh.run("new", AGENTMAIL_URL=nowhere))
    assert "cannot be reached" in line and nowhere in line
    line = one_error_line(await sh.run("wait", f"x@{DOMAIN}", "--url", nowhere, AGENTMAIL_TOKEN=ADMIN_TOKEN))
    assert "cannot be reached" in line
    line = one_error_line(await sh.run("new", "--url", "http://ci:hunter2@127.0.0.1:9"))
    assert "AGENTMAIL_URL, not --url" in line and "hunter2" not in line
    for bad in ("ftp://example.com", "http://[::1", "http://127.0.0.1:port", "127.0.0.1:8025"):
        line = one_error_line(await sh.run("new", AGENTMAIL_URL=bad))
        assert "not an http:// or https:// URL" in line, bad
    assert not sh.token_file.exists()
    sh.assert_no_secret_shown()


async def test_an_unknown_address_exits_2_with_one_line(sh: Shell) -> None:
    nobody = f"nobody@{DOMAIN}"
    as_provisioner = one_error_line(await sh.run("wait", nobody, "--timeout", "1"))
    assert f"no identity token for {nobody}" in as_provisioner
    as_admin = one_error_line(await sh.run("wait", nobody, "--timeout", "1", AGENTMAIL_TOKEN=ADMIN_TOKEN))
    assert "AGENTMAIL_TOKEN was refused" in as_admin or "no such identity" in as_admin
    without_tokens = one_error_line(await sh.run("wait", nobody, AGENTMAIL_TOKEN=None))
    assert f"no token for {nobody}" in without_tokens
    sh.assert_no_secret_shown()


@pytest.mark.parametrize("address", ["", "nobody", "@"])
async def test_wait_for_something_not_an_address_says_so(sh: Shell, address: str) -> None:
    line = one_error_line(await sh.run("wait", address, "--code"))
    assert "is not an address" in line


async def test_new_without_a_token_says_which_token_it_needs(sh: Shell) -> None:
    line = one_error_line(await sh.run("new", AGENTMAIL_TOKEN=None))
    assert "AGENTMAIL_TOKEN is not set" in line


@pytest.mark.parametrize(
    ("args", "why"),
    [
        (["new", "--ttl", "soon"], "not a duration"),
        (["new", "--ttl", "0"], "shorter than one second"),
        (["wait", "a@b.test", "--timeout", "9999d"], "longer than the limit"),
        (["wait", "a@b.test", "--code", "--link"], "not allowed with argument"),
        (["wait", "a@b.test", "--token", "am_x"], "unrecognized arguments: --token"),  # never from argv
    ],
)
async def test_bad_arguments_exit_2_with_a_usage_message(sh: Shell, args: list[str], why: str) -> None:
    result = await sh.run(*args)
    assert result.code == 2 and result.out == ""
    assert why in result.err


async def test_link_contains_goes_with_link_only(sh: Shell) -> None:
    line = one_error_line(await sh.run("wait", f"a@{DOMAIN}", "--code", "--link-contains", "x"))
    assert "--link-contains goes with --link" in line


async def test_a_token_file_others_can_read_is_refused(sh: Shell) -> None:
    address, _ = await sh.new()
    sh.token_file.chmod(0o644)
    line = one_error_line(await sh.run("wait", address, "--timeout", "1"))
    assert "readable by others" in line
    line = one_error_line(await sh.run("new"))
    assert "readable by others" in line and "deleted again" in line
    (info,) = (await sh.gateway.http.get("/v1/identities")).json()["identities"]
    assert info["address"] == address  # the one `new` could not keep was deleted again
    sh.assert_no_secret_shown()


# -- rm ----------------------------------------------------------------------------------------


async def test_a_local_part_new_made_here_names_its_address(sh: Shell) -> None:
    address, _ = await sh.new("bare-1")
    await mail(sh, address, subject="Your code", text="Your verification code is 246810.")
    waited = await sh.run("wait", "bare-1", "--code", "--timeout", "30")
    assert (waited.code, waited.out) == (0, "246810\n"), waited.err
    # Not made here: the domain is known from the addresses that were, so the address is suggested.
    line = one_error_line(await sh.run("wait", "elsewhere", "--code"))
    assert f"'elsewhere' is not an address: did you mean elsewhere@{DOMAIN}?" in line
    removed = await sh.run("rm", "BARE-1")
    assert (removed.code, removed.out) == (0, f"deleted {address}\n"), removed.err
    assert sh.stored() == {}
    # A token given by mistake is never repeated.
    token_like = "am_" + "x" * 32
    assert token_like not in one_error_line(await sh.run("wait", token_like))
    sh.assert_no_secret_shown()


async def test_rm_deletes_the_identity_and_forgets_its_token(sh: Shell) -> None:
    address, _ = await sh.new()
    result = await sh.run("rm", address)
    assert (result.code, result.out) == (0, f"deleted {address}\n"), result.err
    assert (await sh.gateway.http.get("/v1/identities")).json()["identities"] == []
    assert sh.stored() == {}
    again = one_error_line(await sh.run("rm", address))
    assert "did not create that identity" in again


async def test_a_stored_token_the_gateway_no_longer_accepts_is_forgotten(sh: Shell) -> None:
    address, _ = await sh.new()
    response = await sh.gateway.http.delete(f"/v1/identities/{address}")
    assert response.status_code == 204, response.text
    line = one_error_line(await sh.run("wait", address, "--timeout", "1"))
    assert "no longer accepts the stored token" in line
    assert sh.stored() == {}


# -- through bash, as a CI step writes it ------------------------------------------------------


async def test_new_env_evaluated_by_bash_works_with_wait(sh: Shell, tmp_path: Path) -> None:
    ready = tmp_path / "address"
    script = f"""
        set -euo pipefail
        eval "$(agentmail-gateway new --ttl 1h --env)"
        echo "$AGENTMAIL_ADDRESS" > {ready}.tmp && mv {ready}.tmp {ready}
        # the exported identity token alone is enough: no provisioner, no token file
        CODE=$(AGENTMAIL_TOKEN= XDG_CONFIG_HOME={tmp_path}/empty agentmail-gateway wait "$AGENTMAIL_ADDRESS" --code)
        echo "got $CODE for $AGENTMAIL_ADDRESS"
    """
    env = sh.env(PATH=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}")
    proc = await sh.start(["bash", "-c", script], env)
    deadline = asyncio.get_running_loop().time() + RUN_TIMEOUT
    while not ready.exists():  # the address exists once bash wrote it; the wait may be running already
        assert proc.returncode is None, await sh.finish(proc)
        assert asyncio.get_running_loop().time() < deadline, "bash never wrote the address"
        await asyncio.sleep(0.05)
    address = ready.read_text().strip()
    await mail(sh, address, subject="Your code", text="Enter 860412 to continue.")
    result = await sh.finish(proc)
    assert (result.code, result.out, result.err) == (0, f"got 860412 for {address}\n", "")


def readme_ci_block() -> str:
    """The README's shell lines for a CI step: the first ```sh block that runs `agentmail-gateway wait`."""
    readme = Path(__file__).resolve().parents[1] / "README.md"
    for block in readme.read_text().split("```sh\n")[1:]:
        block = block.split("```", 1)[0]
        if "CODE=$(agentmail-gateway wait" in block:
            return block
    raise AssertionError("README.md no longer shows the CI lines")


async def test_the_readme_ci_lines_run_as_written(sh: Shell, tmp_path: Path) -> None:
    # The README's placeholders for the app under test, as scripts in the step's folder: one
    # hands the address to this test (which mails it), the other keeps the code it is given.
    step = tmp_path / "step"
    step.mkdir()
    ready = tmp_path / "address"
    (step / "signup.sh").write_text(f'#!/bin/sh\necho "$1" > {ready}.tmp && mv {ready}.tmp {ready}\n')
    (step / "confirm.sh").write_text(f'#!/bin/sh\necho "$1" > {tmp_path}/typed\n')
    for script in ("signup.sh", "confirm.sh"):
        (step / script).chmod(0o755)
    env = sh.env(PATH=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}")
    block = readme_ci_block()
    assert block.startswith("set -euo pipefail\n")  # so a failing `new` stops the step
    proc = await sh.start(["bash", "-c", block], env, cwd=step)
    deadline = asyncio.get_running_loop().time() + RUN_TIMEOUT
    while not ready.exists():
        assert proc.returncode is None, await sh.finish(proc)
        assert asyncio.get_running_loop().time() < deadline, "the README lines never made an address"
        await asyncio.sleep(0.05)
    address = ready.read_text().strip()
    await mail(sh, address, subject="Your code", text="Enter 137913 to continue.")
    result = await sh.finish(proc)
    assert result.code == 0, result.err
    assert (tmp_path / "typed").read_text() == "137913\n"
    assert (await sh.gateway.http.get("/v1/identities")).json()["identities"] == []  # the trap's rm


async def test_the_client_commands_import_nothing_of_the_server(sh: Shell) -> None:
    # A CI step pays only for the client: no Litestar, no uvicorn, no store, no MCP SDK.
    code = (
        "import sys\n"
        "from gateway.cli import main\n"
        f"status = main(['wait', 'a@{DOMAIN}', '--timeout', '0'])\n"
        "server = {'litestar', 'uvicorn', 'mcp', 'gateway.store', 'gateway.app', 'gateway.api', 'gateway.sources'}\n"
        "print(status, sorted(m for m in sys.modules if {m.split('.')[0], '.'.join(m.split('.')[:2])} & server))\n"
    )
    address, _ = await sh.new()
    proc = await sh.start([sys.executable, "-c", code.replace(f"a@{DOMAIN}", address)], sh.env())
    result = await sh.finish(proc)
    assert result.out.splitlines()[-1] == "1 []", result.out + result.err  # it asked the gateway: timed out


# -- send and threads --------------------------------------------------------------------------


async def run_with_stdin(sh: Shell, data: bytes, *args: str, **extra: str | None) -> Result:
    """`python -m gateway ARGS` reading `data` on stdin."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "gateway",
        *args,
        env=sh.env(**extra),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(data), RUN_TIMEOUT)
    assert proc.returncode is not None
    result = Result(proc.returncode, out.decode(), err.decode())
    sh.outputs += [result.out, result.err]
    assert "Traceback" not in result.err, result.err
    return result


async def test_send_mails_another_identity_whose_wait_gets_it(sh: Shell, tmp_path: Path) -> None:
    sender, _ = await sh.new("ci-bot")
    receiver, _ = await sh.new("reviewer")
    (tmp_path / "report.txt").write_text("3 passed\n")
    result = await sh.run(
        "send",
        "--from",
        "ci-bot",
        "--to",
        receiver,
        "--subject",
        "Build 7",
        "--text",
        "All green.",
        "--attach",
        str(tmp_path / "report.txt"),
    )
    assert result.code == 0, result.err
    fields = dict(line.split(":", 1) for line in result.lines)
    assert fields["accepted"].strip() == receiver and fields["sent"].strip().startswith("<")
    got = await sh.run("wait", receiver, "--json", "--timeout", "30")
    assert got.code == 0, got.err
    message = json.loads(got.out)
    assert sender in message["from"] and message["subject"] == "Build 7" and "All green." in message["text"]
    assert [(a["filename"], a["size"]) for a in message["attachments"]] == [("report.txt", 9)]
    assert message["headers"] and fields["sent"].strip() in {h["value"] for h in message["headers"]}
    sh.assert_no_secret_shown()


async def test_send_reads_the_body_from_stdin_and_prints_json(sh: Shell) -> None:
    sender, _ = await sh.new()
    receiver, _ = await sh.new()
    body = "Line one\nZeile zwei: \u00e4\u00f6\u00fc\n\u4e2d\u6587\n"
    result = await run_with_stdin(
        sh,
        body.encode(),
        "send",
        "--from",
        sender,
        "--to",
        receiver,
        "--subject",
        "Notes",
        "--text-file",
        "-",
        "--json",
    )
    assert result.code == 0, result.err
    sent = json.loads(result.out)
    assert sent["accepted"] == [receiver] and sent["rejected"] == [] and sent["message_id"]
    got = await sh.run("wait", receiver, "--json", "--timeout", "30")
    assert got.code == 0, got.err
    assert json.loads(got.out)["text"].replace("\r\n", "\n").startswith(body)


async def test_threads_lists_a_conversation_and_its_messages(sh: Shell) -> None:
    first, _ = await sh.new("first")
    second, _ = await sh.new("second")
    sent = await sh.run(
        "send", "--from", first, "--to", second, "--subject", "Handover", "--text", "Yours now.", "--json"
    )
    assert sent.code == 0, sent.err
    thread_id = json.loads(sent.out)["thread_id"]
    got = await sh.run("wait", second, "--timeout", "30")
    assert got.code == 0, got.err
    listed = await sh.run("threads", first, "--json")
    assert listed.code == 0, listed.err
    (thread,) = json.loads(listed.out)
    assert thread["subject"] == "Handover" and thread["message_count"] == 1
    assert thread_id is None or thread["thread_id"] == thread_id
    table = await sh.run("threads", "first")
    assert table.code == 0, table.err
    (line,) = table.lines
    assert thread["thread_id"] in line and line.endswith("Handover")
    one = await sh.run("threads", first, thread["thread_id"])
    assert one.code == 0, one.err
    assert f"thread:       {thread['thread_id']}" in one.lines and "subject:      Handover" in one.lines
    (message,) = [line for line in one.lines if "  sent  " in line]
    assert message.endswith("Handover") and first in message
    theirs = await sh.run("threads", second, "--limit", "5", "--json")
    assert theirs.code == 0, theirs.err
    (other,) = json.loads(theirs.out)
    assert other["subject"] == "Handover" and other["thread_id"] != thread["thread_id"], "threads are per identity"
    fresh, _ = await sh.new("fresh")
    empty = await sh.run("threads", fresh)
    assert (empty.code, empty.lines) == (0, [f"no threads for {fresh} yet"])


async def test_a_send_the_gateway_refuses_exits_2_with_one_line_and_sends_nothing(sh: Shell) -> None:
    sender, _ = await sh.new()
    receiver, _ = await sh.new()
    outside = await sh.run("send", "--from", sender, "--to", receiver, "--to", "someone@example.com", "--text", "x")
    assert "someone@example.com" in one_error_line(outside)
    injected = await sh.run(
        "send", "--from", sender, "--to", receiver, "--subject", "Hi\r\nBcc: x@example.com", "--text", "x"
    )
    one_error_line(injected)
    assert (await sh.gateway.messages(receiver))["messages"] == []
    sh.assert_no_secret_shown()


async def test_a_provisioner_token_alone_may_not_send(sh: Shell) -> None:
    address, _ = await sh.gateway.create_identity("made-elsewhere")  # no token of it here
    line = one_error_line(await sh.run("send", "--from", address, "--to", address, "--text", "x"))
    assert "AGENTMAIL_TOKEN may not do this" in line and "AGENTMAIL_IDENTITY_TOKEN" in line


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--text", "x"], "nobody to send to"),
        (["--to", "x@agents.test"], "no body"),
        (["--to", "x@agents.test", "--text-file", "/nonexistent/body.txt"], "cannot read the text file"),
        (["--to", "x@agents.test", "--text", "x", "--attach", "/nonexistent/a.pdf"], "cannot read the attachment"),
    ],
)
async def test_send_arguments_it_cannot_use_exit_2_before_any_request(sh: Shell, args: list[str], says: str) -> None:
    address, _ = await sh.new()
    assert says in one_error_line(await sh.run("send", "--from", address, *args))


# -- search ------------------------------------------------------------------------------------


async def test_search_prints_one_line_per_match_newest_first_and_json(sh: Shell) -> None:
    address, _ = await sh.new("searcher")
    receipt = make_message(to=address, sender="Stripe <receipts@stripe.com>", subject="Receipt", text="Paid.")
    receipt.add_attachment(b"%PDF-1.4\n", maintype="application", subtype="pdf", filename="invoice.pdf")
    mails = [
        (
            make_message(to=address, sender="news@notstripe.com", subject="Stripe news", text="Not a receipt."),
            [address],
        ),
        (receipt, [address]),
        (make_message(to=address, sender="receipts@stripe.com", subject="Your code", text="Code 482913."), [address]),
    ]
    await sh.gateway.send_many(mails)
    listing = {m["subject"]: m["id"] for m in (await sh.gateway.messages(address))["messages"]}

    table = await sh.run("search", address, "from:@stripe.com")
    assert table.code == 0, table.err
    assert [line.split("  ")[1:] for line in table.lines] == [
        [listing["Your code"], "receipts@stripe.com", "Your code", "code 482913"],
        [listing["Receipt"], "Stripe <receipts@stripe.com>", "Receipt"],
    ]
    found = await sh.run("search", "searcher", "has:attachment filename:invoice", "--json")
    assert found.code == 0, found.err
    assert [m["id"] for m in json.loads(found.out)] == [listing["Receipt"]]
    # A query that starts with "-" goes after "--"; --limit pages (newest first).
    negated = await sh.run("search", address, "--limit", "1", "--", "-from:@stripe.com")
    assert negated.code == 0 and [line.split("  ")[2:] for line in negated.lines] == [
        ["news@notstripe.com", "Stripe news"]
    ]
    two = await sh.run("search", address, "--limit", "2", "--json", "receipt OR code")
    assert [m["subject"] for m in json.loads(two.out)] == ["Your code", "Receipt"]
    sh.assert_no_secret_shown()


async def test_search_with_nothing_matching_exits_1_and_a_bad_query_2(sh: Shell) -> None:
    address, _ = await sh.new()
    await mail(sh, address, subject="Hello", text="Hi there.")
    nothing = await sh.run("search", address, "xyzzy")
    assert (nothing.code, nothing.out) == (1, "")
    assert nothing.err == f"agentmail-gateway: no message of {address} matches\n"
    as_json = await sh.run("search", address, "xyzzy", "--json")
    assert (as_json.code, as_json.out) == (1, "[]\n")
    line = one_error_line(await sh.run("search", address, "from:shop hello"))
    assert "(at character 1: 'from:shop')" in line
    line = one_error_line(await sh.run("search", address, "(hello"))
    assert "unbalanced parenthesis" in line


async def test_search_reads_with_the_admin_token_and_never_with_a_provisioners(sh: Shell, tmp_path: Path) -> None:
    address, _ = await sh.gateway.create_identity("made-elsewhere")  # no token of it here
    await mail(sh, address, subject="Hello", text="Hi there.")
    refused = one_error_line(await sh.run("search", address, "hello"))
    assert "AGENTMAIL_TOKEN may not do this" in refused
    admin = await sh.run(
        "search", address, "hello", AGENTMAIL_TOKEN=ADMIN_TOKEN, XDG_CONFIG_HOME=str(tmp_path / "elsewhere")
    )
    assert admin.code == 0 and admin.lines[0].endswith("  Hello"), admin.err
    sh.assert_no_secret_shown()


# -- durations (pure) --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("90", 90), ("90s", 90), ("1.5m", 90), ("15m", 900), ("1h", 3600), ("2d", 172800), (" 2H ", 7200), ("0", 0)],
)
def test_durations(text: str, seconds: float) -> None:
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("text", ["", "h", "-5", "1w", "1h30m", "1e9", "9999d", "nan", "1" * 40])
def test_bad_durations(text: str) -> None:
    with pytest.raises(ValueError, match=r"duration|limit"):
        parse_duration(text)
