"""The README's first steps, run as written against a real `serve` (only its ports and data dir swapped in)."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import smtplib
import subprocess
from pathlib import Path
from typing import Any

import httpx

from tests.serve import ROOT, ServeProcess, wait_until

README = ROOT / "README.md"


def _block(after_heading: str, lang: str = "sh") -> str:
    """The first ```lang block after the heading (or text) `after_heading`."""
    text = README.read_text()
    start = text.index(after_heading)
    found = re.search(rf"```{lang}\n(.*?)```", text[start:], re.DOTALL)
    assert found, f"no {lang} block after {after_heading!r}"
    return found[1]


def _local(block: str, serve: ServeProcess) -> str:
    """`block` pointed at this gateway: its ports and its admin token file."""
    return (
        block.replace("127.0.0.1:8025", f"127.0.0.1:{serve.http_port}")
        .replace('"127.0.0.1", 2525', f'"127.0.0.1", {serve.smtp_port}')
        .replace("~/.local/share/agentmail-gateway/admin-token", str(serve.data_dir / "admin-token"))
    )


def test_the_walk_through_mail_has_a_sender_and_the_wait_example_a_timeout(tmp_path: Path) -> None:
    block = _block("## Five-line walk-through")
    with ServeProcess(tmp_path / "data", tmp_path / "logs", domain="localhost") as serve:
        env = {k: v for k, v in os.environ.items() if not k.startswith("AGENTMAIL_")}
        script = _local(block, serve) + 'echo; echo "$TOKEN"\n'  # curl ends without a newline
        run = subprocess.run(["bash", "-e", "-c", script], capture_output=True, text=True, env=env, timeout=60)
        assert run.returncode == 0, run.stderr
        *_, waited_line, token = run.stdout.strip().splitlines()
        message = json.loads(waited_line)  # the walk-through's last line: a wait, so no race with indexing
        assert message["from"] == "Shop <shop@example.com>"
        assert message["to"] == ["demo@localhost"]
        assert message["codes"][0]["value"] == "482913"

        # The Python wait next to the first `wait` example runs as shown, with a timeout above the wait's.
        snippet = _block("`wait` is how an agent gets a sign-up code", "python")
        shown = re.search(r'params=\{"timeout": (\d+)\}.*\btimeout=(\d+)\)', snippet, re.DOTALL)
        assert shown and int(shown[2]) > int(shown[1]), snippet
        with smtplib.SMTP("127.0.0.1", serve.smtp_port) as smtp:  # the walk-through's wait took the first
            smtp.sendmail("shop@example.com", ["demo@localhost"], b"Subject: Again\r\n\r\nCode 551177.\r\n")
        scope: dict[str, Any] = {"httpx": httpx, "url": serve.base_url, "token": token}
        exec(f"answer = {snippet.strip()}", scope)  # the README's own line
        assert scope["answer"].status_code == 200 and scope["answer"].json()["seen"] is True
    # What the note says of httpx: its default read timeout is 5 s.
    assert httpx.Client().timeout.read == 5.0


def _json_values(text: str) -> list[Any]:
    """Every JSON value printed one after another (curl's bodies end without a newline)."""
    decoder, values, at = json.JSONDecoder(), [], 0
    while rest := text[at:].lstrip():
        value, at = decoder.raw_decode(text, len(text) - len(rest))
        values.append(value)
    return values


def test_the_agent_to_agent_example_sends_waits_and_replies(tmp_path: Path) -> None:
    block = _block("## Send and reply")
    assert len(block.strip().splitlines()) == 5, "the README promises a five-line example"
    assert shutil.which("jq"), "the example needs jq"
    with ServeProcess(tmp_path / "data", tmp_path / "logs", domain="localhost") as serve:
        env = {k: v for k, v in os.environ.items() if not k.startswith("AGENTMAIL_")}
        script = _local(block, serve) + 'echo; echo "$A"\n'
        run = subprocess.run(["bash", "-e", "-c", script], capture_output=True, text=True, env=env, timeout=120)
        assert run.returncode == 0, run.stderr
        printed, _, planner_token = run.stdout.rstrip().rpartition("\n")
        sent, replied, answer = _json_values(printed)  # the send's 201, the reply's 201, planner's wait
        assert sent["accepted"] == ["worker@localhost"] and sent["rejected"] == []
        assert sent["id"] and sent["message_id"].endswith("@localhost>") and sent["thread_id"]
        assert replied["accepted"] == ["planner@localhost"] and replied["rejected"] == []
        assert answer["from"] == "worker@localhost"
        assert answer["subject"] == "Re: Plan for today"
        assert "Start with the tests." in answer["text"] and "> What should I do first?" in answer["text"]
        assert answer["thread_id"] == sent["thread_id"], "the reply joined the planner's thread"

        # What the prose says: one thread of two messages, the sent one first.
        with serve.client(planner_token) as planner:
            threads = planner.get("/v1/identities/planner@localhost/threads").json()["threads"]
            assert [(t["thread_id"], t["message_count"]) for t in threads] == [(sent["thread_id"], 2)]
            thread = planner.get(f"/v1/identities/planner@localhost/threads/{sent['thread_id']}").json()
            assert [m["direction"] for m in thread["messages"]] == ["sent", "received"]
            mine = planner.get("/v1/identities/planner@localhost/messages", params={"direction": "sent"}).json()
            assert [m["id"] for m in mine["messages"]] == [sent["id"]]


def _section(heading: str) -> str:
    """README's section `heading`, up to the next second-level heading."""
    text = README.read_text()
    found = re.search(rf"^{re.escape(heading)}\n(.*?)(?=^## )", text, re.MULTILINE | re.DOTALL)
    assert found, f"README.md has no {heading!r} section"
    return found[1]


def test_the_search_table_examples_parse_as_their_operators_say() -> None:
    from gateway.mail.search import parse_query, terms

    section = _section("## Search and attachments")
    table = section[section.index("| operator | meaning | example |") :].split("\n\n", 1)[0]
    rows = re.findall(r"^\| (`[^|]*`|words) \| ([^|]*) \| (.*) \|$", table, re.MULTILINE)
    assert len(rows) >= 14, rows
    fields = {"from": "from", "to": "to", "subject": "subject", "filename": "filename", "has": "has", "is": "is"}
    fields |= {"after": "after", "before": "before"}
    for operator, _, examples in rows:
        for example in re.findall(r"`([^`]+)`", examples):
            root = parse_query(example).root  # raises on a README example the gateway cannot read
            name = operator.strip("`").rstrip(":")
            if name in fields:
                assert any(t.field == fields[name] for t in terms(root)), (operator, example)
    # The error quoted is the gateway's own, word for word.
    quoted = re.search(r"`(has: takes [^`]*)\n?\s*([^`]*)`", section)
    assert quoted, "the invalid_query example is gone"
    detail = " ".join(f"{quoted[1]} {quoted[2]}".split())
    try:
        parse_query("has:pdf")
    except Exception as error:
        assert detail == getattr(error, "detail", None), error
    else:
        raise AssertionError("has:pdf parsed")


def test_the_attachment_settings_are_the_gateways_with_their_defaults() -> None:
    section = _section("## Search and attachments")
    example = (ROOT / ".env.example").read_text()
    rows = re.findall(r"^\| `(AGENTMAIL_[A-Z_]+)` \| `([^`]*)` \|", section, re.MULTILINE)
    assert {name for name, _ in rows} == {
        "AGENTMAIL_MAX_ATTACHMENTS",
        "AGENTMAIL_MAX_ATTACHMENT_BYTES",
        "AGENTMAIL_ATTACHMENT_TEXT_CHARS",
    }
    for name, default in rows:
        assert re.search(rf"^{name}={re.escape(default)}$", example, re.MULTILINE), (name, default)


def test_the_search_and_download_examples_run_as_written(tmp_path: Path) -> None:
    import hashlib
    from datetime import UTC, datetime
    from email.message import EmailMessage

    section = _section("## Search and attachments")
    search_block, download_block = re.findall(r"^```sh\n(.*?)^```", section, re.MULTILINE | re.DOTALL)
    assert "after:2026-12-01" in search_block
    # Mail arrives today: the example's date is moved to today (UTC) so the search still finds it.
    search_block = search_block.replace("after:2026-12-01", f"after:{datetime.now(UTC):%Y-%m-%d}")
    pdf = b"%PDF-1.4\n" + bytes(range(256)) * 4
    with ServeProcess(tmp_path / "data", tmp_path / "logs", domain="localhost") as serve:
        admin = (serve.data_dir / "admin-token").read_text().strip()
        with serve.client(admin) as client:
            created = client.post("/v1/identities", json={"local_part": "demo"})
            assert created.status_code == 201, created.text
            token = created.json()["token"]
        mails = []
        for sender, subject, attach in (
            ("Stripe <billing@stripe.com>", "Your receipt", True),
            ("billing@stripe.com", "No file", False),
            ("billing@stripe.com.evil.example", "Look-alike", True),
        ):
            mail = EmailMessage()
            mail["From"], mail["To"], mail["Subject"] = sender, "demo@localhost", subject
            mail.set_content("Thanks for your payment.")
            if attach:
                mail.add_attachment(pdf, maintype="application", subtype="pdf", filename="invoice.pdf")
            mails.append(mail)
        with serve.smtp() as smtp:
            for mail in mails:
                smtp.send_message(mail)
        with serve.client(token) as client:
            wait_until(lambda: len(list(serve.listing(client, "demo@localhost"))) == 3, 30, "three mails indexed")
        env = {k: v for k, v in os.environ.items() if not k.startswith("AGENTMAIL_")} | {"TOKEN": token}
        run = subprocess.run(
            ["bash", "-e", "-o", "pipefail", "-c", _local(search_block, serve)],
            capture_output=True, text=True, env=env, timeout=60,
        )  # fmt: skip
        assert run.returncode == 0, run.stderr
        (line,) = run.stdout.strip().splitlines()
        message_id, subject = line.split("\t")
        assert subject == "Your receipt"
        run = subprocess.run(
            ["bash", "-e", "-c", _local(download_block, serve)],
            capture_output=True, text=True, env=env | {"ID": message_id}, timeout=60, cwd=tmp_path,
        )  # fmt: skip
        assert run.returncode == 0, run.stderr
        assert hashlib.sha256((tmp_path / "invoice.pdf").read_bytes()).digest() == hashlib.sha256(pdf).digest()


def test_the_move_to_postgresql_commands_are_the_clis_own() -> None:
    from gateway.cli import _parser

    block = _block("### Moving to PostgreSQL")
    lines = [line.split("#", 1)[0].strip() for line in block.splitlines()]
    commands = [shlex.split(line)[1:] for line in lines if line.startswith("agentmail-gateway ")]
    assert [argv[:2] for argv in commands] == [["backup", "~/agentmail-before-postgres"], ["store", "copy"], ["serve"]]
    for argv in commands:
        _parser().parse_args(argv)  # exits (status 2) on a subcommand or flag the CLI does not have
    assert "store copy --verify-only" in _section("## Deploy on your domain")
    _parser().parse_args(["store", "copy", "--verify-only", "--to-file", "url"])
