"""relay() against a real SMTP server on loopback (aiosmtpd, tests/outbound/capture.py).

Every outcome the outbox acts on: accepted, refused per recipient (4xx temporary, 5xx
permanent), refused as a whole (at MAIL or DATA), unreachable, too slow, TLS refused or
untrusted, AUTH right and wrong. The bytes that arrive are the bytes given, CRLF-normalized.
"""

from __future__ import annotations

import logging
import socket
import ssl
from collections.abc import Iterator
from email.message import EmailMessage
from email.policy import SMTP
from pathlib import Path

import pytest

from gateway.outbound.relay import DETAIL_MAX_CHARS, RelayConfig, RelayResult, relay
from tests.outbound.capture import CaptureServer, make_certificates

SENDER = "agent@agents.test"
HELO = "gw.agents.test"
LOGIN_DEPRECATION = "ignore:Session.login_data is deprecated:DeprecationWarning"
"""aiosmtpd 1.4 itself sets the deprecated attribute after a successful AUTH (in its server thread)."""


def make_raw(subject: str = "hello", body: str = "Hello there.\n") -> bytes:
    msg = EmailMessage(policy=SMTP)
    msg["From"] = SENDER
    msg["To"] = "someone@external.test"
    msg["Subject"] = subject
    msg["Message-ID"] = "<relay-test.1@agents.test>"
    msg.set_content(body)
    return msg.as_bytes()


def loopback(port: int, **kwargs: object) -> RelayConfig:
    fields: dict[str, object] = {"host": "127.0.0.1", "port": port, "implicit_tls": False, "require_tls": False}
    fields.update(kwargs)
    return RelayConfig(**fields)  # type: ignore[arg-type]


async def send(config: RelayConfig, recipients: list[str], raw: bytes | None = None, **kw: float) -> list[RelayResult]:
    return await relay(
        config, envelope_from=SENDER, recipients=recipients, raw=raw or make_raw(), helo=HELO, timeout=kw.get("t", 10)
    )


def by_address(results: list[RelayResult]) -> dict[str, RelayResult]:
    return {r.address: r for r in results}


@pytest.fixture
def capture() -> Iterator[CaptureServer]:
    with CaptureServer() as server:
        yield server


# -- accepted ---------------------------------------------------------------------------------


async def test_accepted_recipients_are_ok_and_the_bytes_arrive_whole(capture: CaptureServer) -> None:
    raw = make_raw()
    results = await send(loopback(capture.port), ["a@external.test", "B@Other.test"], raw)
    assert [(r.address, r.ok, r.temporary) for r in results] == [
        ("a@external.test", True, False),
        ("B@Other.test", True, False),
    ]
    assert all(r.detail.startswith("250 ") for r in results)
    (got,) = capture.handler.wait_for(1)
    assert got.mail_from == SENDER
    assert got.rcpt_tos == ("a@external.test", "B@Other.test")
    assert got.data == raw
    assert got.helo == HELO
    assert f"SIZE={len(raw)}" in got.mail_options


async def test_leading_dots_and_bare_newlines_survive_as_smtp_wants(capture: CaptureServer) -> None:
    raw = b"Subject: dots\r\nMessage-ID: <d@agents.test>\r\n\r\n.hidden\n..two\r\nbare\rcr\r\n.\r\nend"
    (result,) = await send(loopback(capture.port), ["a@external.test"], raw)
    assert result.ok
    (got,) = capture.handler.wait_for(1)
    assert (
        got.data
        == b"Subject: dots\r\nMessage-ID: <d@agents.test>\r\n\r\n.hidden\r\n..two\r\nbare\r\ncr\r\n.\r\nend\r\n"
    )


async def test_a_recipient_given_twice_is_sent_once(capture: CaptureServer) -> None:
    results = await send(loopback(capture.port), ["a@external.test", "a@external.test", "b@external.test"])
    assert [r.address for r in results] == ["a@external.test", "b@external.test"]
    assert capture.handler.wait_for(1)[0].rcpt_tos == ("a@external.test", "b@external.test")


async def test_one_string_for_the_recipients_is_a_caller_bug() -> None:
    with pytest.raises(TypeError, match="not one string"):
        await send(loopback(9), "a@external.test")  # type: ignore[arg-type]


async def test_no_recipients_means_no_connection() -> None:
    # Port 9 on loopback: nothing listens there; a connection attempt would fail the result.
    assert await send(loopback(9), []) == []


# -- refused per recipient ---------------------------------------------------------------------


async def test_4xx_on_one_recipient_is_temporary_for_that_one_only(capture: CaptureServer) -> None:
    capture.handler.rcpt_replies["later@external.test"] = "450 4.2.1 Mailbox busy, try later"
    results = by_address(await send(loopback(capture.port), ["ok@external.test", "later@external.test"]))
    assert results["ok@external.test"].ok
    later = results["later@external.test"]
    assert (later.ok, later.temporary, later.detail) == (False, True, "450 4.2.1 Mailbox busy, try later")
    assert capture.handler.wait_for(1)[0].rcpt_tos == ("ok@external.test",)


async def test_5xx_on_a_recipient_is_permanent(capture: CaptureServer) -> None:
    capture.handler.rcpt_replies["gone@external.test"] = "550 5.1.1 No such user"
    results = by_address(await send(loopback(capture.port), ["gone@external.test", "ok@external.test"]))
    gone = results["gone@external.test"]
    assert (gone.ok, gone.temporary, gone.detail) == (False, False, "550 5.1.1 No such user")
    assert results["ok@external.test"].ok


async def test_every_recipient_refused_means_no_data(capture: CaptureServer) -> None:
    capture.handler.rcpt_replies.update({"x@external.test": "550 5.1.1 nope", "y@external.test": "451 4.3.0 later"})
    results = by_address(await send(loopback(capture.port), ["x@external.test", "y@external.test"]))
    assert (results["x@external.test"].temporary, results["y@external.test"].temporary) == (False, True)
    assert not any(r.ok for r in results.values())
    assert capture.handler.messages == []


# -- refused as a whole ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("reply", "temporary"), [("451 4.3.0 Try again later", True), ("550 5.7.1 Sender denied", False)]
)
async def test_a_refused_mail_from_applies_to_everyone(capture: CaptureServer, reply: str, temporary: bool) -> None:
    capture.handler.mail_reply = reply
    results = await send(loopback(capture.port), ["a@external.test", "b@external.test"])
    assert [(r.ok, r.temporary, r.detail) for r in results] == [(False, temporary, reply)] * 2
    assert capture.handler.messages == []


@pytest.mark.parametrize(
    ("reply", "temporary"), [("452 4.3.1 Out of memory", True), ("554 5.6.0 Message rejected", False)]
)
async def test_a_refused_message_applies_to_every_accepted_recipient(
    capture: CaptureServer, reply: str, temporary: bool
) -> None:
    capture.handler.data_reply = reply
    capture.handler.rcpt_replies["gone@external.test"] = "550 5.1.1 No such user"
    results = by_address(await send(loopback(capture.port), ["a@external.test", "gone@external.test"]))
    assert (results["a@external.test"].ok, results["a@external.test"].temporary) == (False, temporary)
    assert results["a@external.test"].detail == reply
    # Refused at RCPT already: keeps its own answer, not the message's.
    assert results["gone@external.test"].detail == "550 5.1.1 No such user"


async def test_a_connection_lost_mid_transaction_fails_the_rest_temporarily(capture: CaptureServer) -> None:
    capture.handler.rcpt_replies["gone@external.test"] = "550 5.1.1 No such user"
    capture.handler.hangup_at_rcpt.add("drop@external.test")
    order = ["gone@external.test", "ok@external.test", "drop@external.test", "never@external.test"]
    results = by_address(await send(loopback(capture.port), order))
    assert (results["gone@external.test"].temporary, results["gone@external.test"].detail) == (
        False,
        "550 5.1.1 No such user",
    )
    for address in order[1:]:  # accepted before, refused by the hang-up, or never asked: all retried
        assert (results[address].ok, results[address].temporary) == (False, True), address
    assert results["never@external.test"].detail == f"relay 127.0.0.1:{capture.port} closed the connection"
    assert capture.handler.messages == []


async def test_a_relay_that_is_down_fails_everyone_temporarily() -> None:
    server = CaptureServer()
    server.start()
    port = server.port
    server.stop()
    results = await send(loopback(port), ["a@external.test", "b@external.test"])
    assert [(r.ok, r.temporary) for r in results] == [(False, True)] * 2
    assert results[0].detail == f"cannot connect to relay 127.0.0.1:{port}: connection refused"
    # ...and the same server back on the same port takes the message.
    server.start()
    try:
        assert server.port == port
        assert all(r.ok for r in await send(loopback(port), ["a@external.test"]))
    finally:
        server.stop()


async def test_a_relay_that_never_answers_times_out_temporarily() -> None:
    with socket.socket() as silent:  # accepts connections (the backlog) and never says a word
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        port = silent.getsockname()[1]
        results = await send(loopback(port), ["a@external.test"], t=0.3)
    assert [(r.ok, r.temporary) for r in results] == [(False, True)]
    assert results[0].detail == f"relay 127.0.0.1:{port} did not answer within 0.3 s"


async def test_a_slow_final_answer_is_waited_for_not_taken_for_a_failure(capture: CaptureServer) -> None:
    # Giving up after the body was sent would make the outbox send it again: a duplicate.
    capture.handler.data_delay = 1.0
    (result,) = await send(loopback(capture.port), ["a@external.test"], t=0.3)
    assert result.ok, result.detail
    assert len(capture.handler.wait_for(1)) == 1


# -- what a detail may hold --------------------------------------------------------------------


async def test_a_long_multiline_reply_becomes_one_bounded_clean_line(capture: CaptureServer) -> None:
    evil = "550-5.1.1 first\x1b[31m line \u202eevil\r\n550-" + "x" * 2000 + "\r\n550 5.1.1 last"
    capture.handler.rcpt_replies["a@external.test"] = evil
    (result,) = await send(loopback(capture.port), ["a@external.test"])
    assert not result.ok and not result.temporary
    assert len(result.detail) <= DETAIL_MAX_CHARS
    assert result.detail.startswith("550 5.1.1 first [31m line evil x")
    assert result.detail.endswith("…")
    assert all(ch.isprintable() and ch not in "\u202e" for ch in result.detail)


@pytest.mark.parametrize("bad", ["evil@external.test>\r\nRCPT TO:<x@y", "no-at-sign", "a<b@external.test", ""])
async def test_an_address_unfit_for_the_envelope_is_refused_and_the_rest_sent(capture: CaptureServer, bad: str) -> None:
    results = by_address(await send(loopback(capture.port), [bad, "ok@external.test"]))
    assert (results[bad].ok, results[bad].temporary) == (False, False)
    assert results["ok@external.test"].ok
    assert capture.handler.wait_for(1)[0].rcpt_tos == ("ok@external.test",)


async def test_an_unfit_envelope_sender_sends_nothing(capture: CaptureServer) -> None:
    results = await relay(
        loopback(capture.port), envelope_from="a@b>\r\nDATA", recipients=["ok@external.test"], raw=make_raw(), helo=HELO
    )
    assert [(r.ok, r.temporary) for r in results] == [(False, False)]
    assert capture.handler.messages == []


async def test_the_null_sender_is_allowed(capture: CaptureServer) -> None:
    results = await relay(
        loopback(capture.port), envelope_from="", recipients=["ok@external.test"], raw=make_raw(), helo=HELO
    )
    assert results[0].ok
    assert capture.handler.wait_for(1)[0].mail_from == "<>"


async def test_an_internationalized_address_goes_with_smtputf8(capture: CaptureServer) -> None:
    results = by_address(await send(loopback(capture.port), ["用户@external.test", "ascii@external.test"]))
    assert all(r.ok for r in results.values())
    got = capture.handler.wait_for(1)[0]
    assert (got.rcpt_tos, "SMTPUTF8" in got.mail_options) == (("用户@external.test", "ascii@external.test"), True)


async def test_an_internationalized_address_needs_a_relay_with_smtputf8() -> None:
    with CaptureServer(smtputf8=False) as server:
        (result,) = await send(loopback(server.port), ["用户@external.test"])
        assert (result.ok, result.temporary) == (False, False)
        assert result.detail == "relay does not support SMTPUTF8, needed for an internationalized address"
        assert server.handler.messages == []


# -- TLS ---------------------------------------------------------------------------------------


@pytest.fixture
def trusted_tls(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ssl.SSLContext:
    """A server context whose certificate the relay client trusts (its CA in SSL_CERT_FILE)."""
    ca, context = make_certificates(tmp_path)
    monkeypatch.setenv("SSL_CERT_FILE", str(ca))  # what docker/compose.yaml does for the internal CA
    return context


async def test_required_tls_refuses_a_relay_without_starttls(capture: CaptureServer) -> None:
    results = await send(loopback(capture.port, require_tls=True), ["a@external.test", "b@external.test"])
    assert [(r.ok, r.temporary) for r in results] == [(False, True)] * 2
    assert results[0].detail.startswith("relay offers no STARTTLS; refusing to send in clear")
    assert capture.handler.messages == []


async def test_starttls_with_a_trusted_certificate(trusted_tls: ssl.SSLContext) -> None:
    with CaptureServer(tls_context=trusted_tls) as server:
        (result,) = await send(loopback(server.port, require_tls=True), ["a@external.test"])
        assert result.ok, result.detail
        assert server.handler.wait_for(1)[0].tls


async def test_starttls_with_an_untrusted_certificate_sends_nothing(tmp_path: Path) -> None:
    _, context = make_certificates(tmp_path)  # signed by a CA nobody trusts
    with CaptureServer(tls_context=context) as server:
        (result,) = await send(loopback(server.port, require_tls=True), ["a@external.test"])
        assert (result.ok, result.temporary) == (False, True)
        assert result.detail.startswith(f"relay 127.0.0.1:{server.port}'s TLS certificate failed verification")
        assert server.handler.messages == []


async def test_a_certificate_for_another_name_is_refused(trusted_tls: ssl.SSLContext) -> None:
    # The certificate names localhost and 127.0.0.1; the client dials 127.0.0.2 (also loopback).
    with CaptureServer(tls_context=trusted_tls, host="127.0.0.2") as server:
        config = RelayConfig(host="127.0.0.2", port=server.port, implicit_tls=False, require_tls=True)
        (result,) = await send(config, ["a@external.test"])
        assert (result.ok, result.temporary) == (False, True)
        assert "certificate failed verification" in result.detail
        assert server.handler.messages == []


async def test_implicit_tls(trusted_tls: ssl.SSLContext) -> None:
    with CaptureServer(tls_context=trusted_tls, implicit_tls=True) as server:
        (result,) = await send(loopback(server.port, implicit_tls=True, require_tls=True), ["a@external.test"])
        assert result.ok, result.detail
        assert server.handler.wait_for(1)[0].data == make_raw()


async def test_a_plain_relay_spoken_to_as_implicit_tls_fails_temporarily(capture: CaptureServer) -> None:
    (result,) = await send(loopback(capture.port, implicit_tls=True), ["a@external.test"], t=3)
    assert (result.ok, result.temporary) == (False, True)
    assert capture.handler.messages == []


# -- AUTH --------------------------------------------------------------------------------------

PASSWORD = "correct horse battery staple"


@pytest.mark.filterwarnings(LOGIN_DEPRECATION)
async def test_auth_with_the_right_password(trusted_tls: ssl.SSLContext, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="gateway")
    with CaptureServer(auth=("gateway", PASSWORD), tls_context=trusted_tls) as server:
        config = loopback(server.port, username="gateway", password=PASSWORD, require_tls=True)
        (result,) = await send(config, ["a@external.test"])
        assert result.ok, result.detail
        got = server.handler.wait_for(1)[0]
        assert (got.login, got.tls) == ("gateway", True)
    ours = "\n".join(r.getMessage() for r in caplog.records if r.name.startswith("gateway"))
    assert f"relay 127.0.0.1:{server.port}: ok" in ours  # it logged the outcome...
    assert PASSWORD not in ours and PASSWORD not in repr(config)  # ...and never the password


async def test_auth_with_a_wrong_password_is_temporary_and_never_echoed(trusted_tls: ssl.SSLContext) -> None:
    with CaptureServer(auth=("gateway", PASSWORD), tls_context=trusted_tls) as server:
        config = loopback(server.port, username="gateway", password="wrong-password-42", require_tls=True)
        (result,) = await send(config, ["a@external.test"])
        assert (result.ok, result.temporary) == (False, True)
        assert result.detail.startswith("relay refused the credentials: 535")
        assert "wrong-password-42" not in result.detail
        assert server.handler.messages == []


async def test_a_user_name_with_a_relay_that_offers_no_auth_is_temporary(capture: CaptureServer) -> None:
    (result,) = await send(loopback(capture.port, username="gateway", password=PASSWORD), ["a@external.test"])
    assert (result.ok, result.temporary) == (False, True)
    assert result.detail == f"relay 127.0.0.1:{capture.port} offers no AUTH, but a user name is configured"
    assert capture.handler.messages == []


async def test_without_credentials_a_relay_that_requires_auth_refuses_at_mail(trusted_tls: ssl.SSLContext) -> None:
    with CaptureServer(auth=("gateway", PASSWORD), tls_context=trusted_tls) as server:
        (result,) = await send(loopback(server.port, require_tls=True), ["a@external.test"])
        assert (result.ok, result.temporary) == (False, False)
        assert result.detail.startswith("530 ")
        assert server.handler.messages == []
