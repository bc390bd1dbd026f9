"""The real Postfix + Dovecot catch-all (tests/mailstack): delivery, headers, push, restarts.

One stack serves the module (push on, pointed at a port nothing listens on unless a test
starts a PushReceiver there); every test starts from an empty INBOX.
"""

from __future__ import annotations

import base64
import json
import os
import smtplib
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from email.message import EmailMessage, Message
from email.parser import BytesHeaderParser
from email.policy import compat32
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType
from typing import Any, Self

import pytest

from tests.mailstack import (
    DEFAULT_MAX_MESSAGE_BYTES,
    MailStack,
    MailStackError,
    StackConfig,
    ensure_installed,
    free_port,
    running_stack,
)
from tests.mailstack import stack as stack_module
from tests.mailstack.__main__ import main as mailstack_main
from tests.mailstack.stack import PUSH_TIMEOUT_MSECS

DOMAIN = "agents.test"
SENDER = "sender@example.com"


@pytest.fixture(scope="module")
def stack() -> Iterator[MailStack]:
    yield from running_stack(domain=DOMAIN, push_port=free_port())


@pytest.fixture
def mailstack(stack: MailStack) -> MailStack:
    """The module's stack with an empty INBOX and an empty queue."""
    stack.wait_queue_empty()
    stack.expunge_all()
    assert stack.message_count() == 0
    return stack


# -- helpers ---------------------------------------------------------------------------------


def make_message(subject: str, to: list[str], bcc: list[str] | None = None) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = SENDER
    msg["To"] = ", ".join(to)
    if bcc:
        msg["Bcc"] = ", ".join(bcc)
    msg["Subject"] = subject
    msg["Message-ID"] = f"<{subject.replace(' ', '-')}.{time.monotonic_ns()}@example.com>"
    msg.set_content(f"body of {subject}\n")
    return msg


def send(stack: MailStack, msg: EmailMessage, rcpts: list[str] | None = None) -> dict[str, tuple[int, bytes]]:
    """Send in ONE SMTP transaction; returns the refused recipients (as smtplib does)."""
    with smtplib.SMTP(stack.host, stack.smtp_port, timeout=10) as client:
        if rcpts is None:
            return client.send_message(msg)
        return client.sendmail(SENDER, rcpts, msg.as_bytes())


def inbox_headers(stack: MailStack) -> tuple[int, dict[int, Message]]:
    """(UIDVALIDITY, {uid: parsed header block}) of every message in INBOX."""
    with stack.imap() as client:
        uidvalidity = int(client.select_folder("INBOX", readonly=True)[b"UIDVALIDITY"])
        fetched = client.fetch(client.search(["ALL"]), ["BODY.PEEK[HEADER]"])
        parser = BytesHeaderParser(policy=compat32)
        return uidvalidity, {int(uid): parser.parsebytes(data[b"BODY[HEADER]"]) for uid, data in fetched.items()}


@dataclass(frozen=True)
class Push:
    """One HTTP request Dovecot's push driver made."""

    method: str
    path: str
    authorization: str | None
    body: dict[str, Any]


class PushReceiver:
    """A loopback HTTP server standing in for the gateway's push listener; records every request."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.pushes: list[Push] = []
        self._cond = threading.Condition()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def _record(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                push = Push(self.command, self.path, self.headers.get("Authorization"), body)
                with receiver._cond:
                    receiver.pushes.append(push)
                    receiver._cond.notify_all()
                self.send_response(204)
                self.end_headers()

            do_PUT = do_POST = _record

            def log_message(self, format: str, *args: Any) -> None:
                pass  # keep pytest's output clean

        self._server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, name="push-receiver", daemon=True)

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def wait_for(self, n: int, timeout: float = 5.0) -> list[Push]:
        """Block until `n` requests arrived (or the timeout passed); return all received so far."""
        with self._cond:
            self._cond.wait_for(lambda: len(self.pushes) >= n, timeout)
            return list(self.pushes)


def port_refuses(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return False
    except ConnectionRefusedError:
        return True


# -- delivery --------------------------------------------------------------------------------


def test_one_copy_per_recipient_each_with_its_own_delivered_to(mailstack: MailStack) -> None:
    to = [f"alice@{DOMAIN}", "Carol+Tag@AGENTS.TEST"]
    bcc = [f"bob@{DOMAIN}"]
    msg = make_message("three copies", to=to, bcc=bcc)

    assert send(mailstack, msg) == {}
    assert mailstack.wait_for_count(3) == 3
    mailstack.wait_queue_empty()

    _, headers = inbox_headers(mailstack)
    assert len(headers) == 3
    delivered = sorted(h.get_all("Delivered-To", [])[0] for h in headers.values())
    # Observed: Delivered-To is the RCPT TO address exactly as sent, case and +tag kept.
    assert delivered == sorted([*to, *bcc])
    for h in headers.values():
        assert len(h.get_all("Delivered-To", [])) == 1
        assert h["Message-ID"] == msg["Message-ID"]
        assert h["Bcc"] is None  # smtplib strips it; the Bcc recipient is only in the envelope
        assert h["X-Original-To"] is None  # LMTP never adds it (recipe, section 5)
        assert h["Return-Path"] == f"<{SENDER}>"


def test_off_domain_recipient_is_refused_and_the_rest_delivered(mailstack: MailStack) -> None:
    msg = make_message("relay attempt", to=[f"ok@{DOMAIN}"])

    refused = send(mailstack, msg, rcpts=["victim@example.org", f"ok@{DOMAIN}"])

    code, reply = refused["victim@example.org"]
    assert code == 554
    assert b"Relay access denied" in reply
    assert list(refused) == ["victim@example.org"]
    mailstack.wait_queue_empty()
    assert mailstack.message_count() == 1


def test_only_off_domain_recipients_means_no_transaction(mailstack: MailStack) -> None:
    with pytest.raises(smtplib.SMTPRecipientsRefused) as info:
        send(mailstack, make_message("nobody here", to=["a@example.org"]))
    assert info.value.recipients["a@example.org"][0] // 100 == 5


def test_smtp_size_limit_is_max_message_bytes(mailstack: MailStack) -> None:
    with smtplib.SMTP(mailstack.host, mailstack.smtp_port, timeout=10) as client:
        client.ehlo()
        assert client.esmtp_features["size"] == str(DEFAULT_MAX_MESSAGE_BYTES)


# -- push notifications ----------------------------------------------------------------------


def test_one_push_per_delivery_with_the_secret_as_basic_auth(mailstack: MailStack) -> None:
    port = mailstack.config.push_port
    assert port is not None
    expected_auth = "Basic " + base64.b64encode(f"dovecot:{mailstack.config.push_secret}".encode()).decode()

    with PushReceiver(port) as receiver:
        assert send(mailstack, make_message("pushed", to=[f"alice@{DOMAIN}", "Carol+Tag@AGENTS.TEST"])) == {}
        mailstack.wait_queue_empty()  # the push is sent before LMTP answers: all pushes are in
        pushes = receiver.wait_for(2)

    assert len(pushes) == 2
    uidvalidity, headers = inbox_headers(mailstack)
    for push in pushes:
        # Observed: the OX driver uses PUT, not POST.
        assert (push.method, push.path, push.authorization) == ("PUT", "/push", expected_auth)
        assert push.body["event"] == "messageNew"
        assert push.body["folder"] == "INBOX"
        assert push.body["imap-uidvalidity"] == uidvalidity
        assert push.body["subject"] == "pushed"
    # Observed (Dovecot 2.3.19, Maildir): when deliveries run in parallel, a push often carries
    # imap-uid 0 (the UID was not assigned yet when the driver looked). A push is a wake-up hint.
    assert {p.body["imap-uid"] for p in pushes} - {0} <= set(headers)
    # Observed: "user" is Dovecot's LMTP user: the recipient lowercased, +detail stripped.
    assert sorted(p.body["user"] for p in pushes) == [f"alice@{DOMAIN}", f"carol@{DOMAIN}"]


def test_no_push_listener_neither_loses_nor_slows_delivery(mailstack: MailStack) -> None:
    port = mailstack.config.push_port
    assert port is not None and port_refuses(port)
    rcpts = [f"unheard-{i}-{time.monotonic_ns()}@{DOMAIN}" for i in range(3)]

    started = time.monotonic()
    assert send(mailstack, make_message("unheard", to=rcpts)) == {}
    mailstack.wait_queue_empty()
    elapsed = time.monotonic() - started

    assert mailstack.message_count() == 3
    # A refused connection fails at once; had any delivery waited for the push timeout,
    # the queue could not have drained this fast.
    assert elapsed < PUSH_TIMEOUT_MSECS / 1000, f"delivery took {elapsed:.3f}s"
    for rcpt in rcpts:  # the push really was attempted, for each delivery
        line = mailstack.wait_for_log(f"rcpt {rcpt}: push-notification-ox: Error when sending notification")
        assert f"connect(127.0.0.1:{port}) failed: Connection refused" in line


def test_a_push_listener_that_never_answers_costs_at_most_the_timeout(mailstack: MailStack) -> None:
    port = mailstack.config.push_port
    assert port is not None
    # Accepts connections (kernel backlog) but never reads or answers.
    with socket.create_server(("127.0.0.1", port), backlog=16):
        started = time.monotonic()
        assert send(mailstack, make_message("into the void", to=[f"v{i}@{DOMAIN}" for i in range(2)])) == {}
        assert mailstack.wait_for_count(2) == 2
        mailstack.wait_queue_empty()
        elapsed = time.monotonic() - started

    # The two recipients are delivered in parallel LMTP sessions, each held at most one timeout.
    assert elapsed < 2 * PUSH_TIMEOUT_MSECS / 1000 + 1.0, f"delivery took {elapsed:.3f}s"


# -- UIDVALIDITY and restarts ----------------------------------------------------------------


def test_reset_uidvalidity_renumbers_but_keeps_messages_and_push(mailstack: MailStack) -> None:
    for i in range(2):
        send(mailstack, make_message(f"kept {i}", to=[f"keep@{DOMAIN}"]))
    mailstack.wait_for_count(2)
    before, headers_before = inbox_headers(mailstack)

    returned = mailstack.reset_uidvalidity()

    after, headers_after = inbox_headers(mailstack)
    assert after != before
    assert returned == after
    assert sorted(h["Message-ID"] for h in headers_after.values()) == sorted(
        h["Message-ID"] for h in headers_before.values()
    )
    # Push survives the reset (its METADATA switch hangs off the INBOX GUID, which changed).
    port = mailstack.config.push_port
    assert port is not None
    with PushReceiver(port) as receiver:
        send(mailstack, make_message("after reset", to=[f"keep@{DOMAIN}"]))
        mailstack.wait_queue_empty()
        pushes = receiver.wait_for(1)
    assert [p.body["imap-uidvalidity"] for p in pushes] == [after]
    _, headers_now = inbox_headers(mailstack)
    # A lone delivery (nothing in parallel) does report its real UID.
    assert [p.body["imap-uid"] for p in pushes] == [max(headers_now)]


@pytest.mark.parametrize("flush", [True, False], ids=["flush", "retry-timer"])
def test_mail_waits_in_postfix_while_dovecot_is_down(mailstack: MailStack, flush: bool) -> None:
    imap_port, smtp_port = mailstack.imap_port, mailstack.smtp_port
    mailstack.stop_dovecot()
    try:
        assert port_refuses(imap_port)
        assert send(mailstack, make_message("while down", to=[f"patient@{DOMAIN}"])) == {}
        assert mailstack.queued() == 1
        mailstack.wait_deferred(1)  # a delivery attempt failed and will be retried
    finally:
        mailstack.start_dovecot()

    if flush:
        mailstack.flush()
    # Without flush, queue_run_delay / backoff of 1s bring it in within about a second.
    mailstack.wait_queue_empty(timeout=5)
    assert mailstack.wait_for_count(1) == 1
    assert (mailstack.imap_port, mailstack.smtp_port) == (imap_port, smtp_port)
    _, headers = inbox_headers(mailstack)
    assert [h["Delivered-To"] for h in headers.values()] == [f"patient@{DOMAIN}"]


# -- the helpers themselves ------------------------------------------------------------------


def test_ensure_installed_without_root_or_packages_fails_loudly(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stack_module, "REQUIRED_BINARIES", (Path("/nonexistent/postfix"),))
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    with pytest.raises(MailStackError, match=r"missing /nonexistent/postfix.*needs root"):
        ensure_installed()


def test_ensure_installed_does_not_call_apt_when_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_apt() -> None:
        raise AssertionError("apt must not run when everything is installed")

    monkeypatch.setattr(stack_module, "_apt_install", no_apt)
    started = time.monotonic()
    ensure_installed()
    assert time.monotonic() - started < 0.5


def test_start_failure_raises_with_the_logs_and_cleans_up() -> None:
    broken = MailStack.create(domain=DOMAIN)
    try:
        with (
            socket.create_server(("127.0.0.1", broken.imap_port)),  # Dovecot's port, taken
            pytest.raises(MailStackError, match=r"(?s)Address already in use.*dovecot\.log"),
        ):
            broken.start()
    finally:
        broken.stop()
    assert not broken.config.root.exists()
    assert port_refuses(broken.smtp_port)


def test_wait_for_count_times_out_with_the_logs(mailstack: MailStack) -> None:
    with pytest.raises(MailStackError, match=r"(?s)1 messages in INBOX \(have 0\).*dovecot\.log"):
        mailstack.wait_for_count(1, timeout=0.2)


def test_gateway_env_points_at_the_stack(mailstack: MailStack) -> None:
    env = mailstack.gateway_env()
    cfg = mailstack.config
    assert env["AGENTMAIL_IMAP_HOST"] == "127.0.0.1"
    assert env["AGENTMAIL_IMAP_PORT"] == str(cfg.imap_port)
    assert env["AGENTMAIL_IMAP_USER"] == f"catchall@{DOMAIN}"
    assert env["AGENTMAIL_IMAP_TLS"] == "none"
    assert env["AGENTMAIL_PUSH_LISTEN"] == f"127.0.0.1:{cfg.push_port}"
    assert env["AGENTMAIL_PUSH_SECRET"] == cfg.push_secret
    assert env["MAILSTACK_SMTP_PORT"] == str(cfg.smtp_port)
    # The credentials really log in.
    with mailstack.imap() as client:
        assert client.select_folder("INBOX")[b"EXISTS"] == 0


def test_config_survives_the_json_round_trip(mailstack: MailStack) -> None:
    assert StackConfig.from_json(mailstack.config.to_json()) == mailstack.config
    assert MailStack.attach(mailstack.config.root).config == mailstack.config


def test_second_stack_runs_beside_the_first_and_cli_stops_it(
    mailstack: MailStack, capsys: pytest.CaptureFixture[str]
) -> None:
    assert mailstack_main(["start"]) == 0
    env = dict(line.split("=", 1) for line in capsys.readouterr().out.splitlines())
    root = Path(env["MAILSTACK_ROOT"])
    try:
        other = MailStack.attach(root)
        assert other.config.instance_name != mailstack.config.instance_name
        assert "AGENTMAIL_PUSH_LISTEN" not in env
        assert send(other, make_message("to the other one", to=[f"x@{DOMAIN}"])) == {}
        assert other.wait_for_count(1) == 1
    finally:
        assert mailstack_main(["stop", str(root)]) == 0
    assert not root.exists()
    assert port_refuses(int(env["MAILSTACK_SMTP_PORT"]))
    assert port_refuses(int(env["AGENTMAIL_IMAP_PORT"]))
    assert mailstack.message_count() == 0  # nothing leaked into the first stack
