"""The embedded SMTP intake, over a real socket with smtplib."""

from __future__ import annotations

import asyncio
import smtplib
from email.parser import BytesParser
from email.policy import default

import pytest

from gateway.intake.smtp import MAX_RECIPIENTS, MIN_TRANSFER_RATE
from gateway.sources.local import LocalSource
from tests.conftest import DOMAIN, RunningGateway, make_message


def _smtp(gateway: RunningGateway) -> smtplib.SMTP:
    return smtplib.SMTP(gateway.smtp_host, gateway.smtp_port, timeout=10)


def _maildir(gateway: RunningGateway) -> LocalSource:
    source = gateway.gw.source
    assert isinstance(source, LocalSource)
    return source


async def test_other_domains_are_refused(gateway: RunningGateway) -> None:
    def attempt() -> tuple[int, bytes]:
        with _smtp(gateway) as client:
            client.ehlo()
            client.mail("a@example.com")
            return client.rcpt("victim@example.org")

    code, reply = await asyncio.to_thread(attempt)
    assert code == 554
    assert b"relay" in reply.lower()


async def test_one_stamped_copy_per_recipient(gateway: RunningGateway) -> None:
    rcpts = [f"one@{DOMAIN}", f"Two@{DOMAIN.upper()}"]
    await gateway.send(make_message(to=rcpts[0]), rcpts, mail_from="bounce@example.com")
    source = _maildir(gateway)
    ids = source.maildir.ids()
    assert len(ids) == 2
    stamped = set()
    for message_id in ids:
        stored = source.maildir.read(message_id)
        assert stored is not None
        msg = BytesParser(policy=default).parsebytes(stored.raw)
        assert msg["Delivered-To"] == msg["X-Original-To"]
        assert msg["Return-Path"] == "<bounce@example.com>"
        assert msg["Message-ID"]  # added when the sender gave none, the same in every copy
        stamped.add(msg["Delivered-To"])
    assert stamped == {f"one@{DOMAIN}", f"two@{DOMAIN}"}


async def test_missing_message_id_is_added_once_per_transaction(gateway: RunningGateway) -> None:
    raw = b"From: a@example.com\r\nSubject: no id\r\n\r\nbody\r\n"
    await gateway.send(raw, [f"x@{DOMAIN}", f"y@{DOMAIN}"])
    source = _maildir(gateway)
    ids = {
        BytesParser(policy=default).parsebytes(source.maildir.read(i).raw)["Message-ID"] for i in source.maildir.ids()
    }  # type: ignore[union-attr]
    assert len(ids) == 1


async def test_long_html_line_is_accepted(gateway: RunningGateway) -> None:
    address, token = await gateway.create_identity("longline")
    line = "<td>" + "x" * (10 * 1024) + "</td>"
    raw = (
        f"From: a@example.com\r\nTo: {address}\r\nSubject: long\r\nMIME-Version: 1.0\r\n"
        f"Content-Type: text/html; charset=utf-8\r\n\r\n<html><body><table><tr>{line}</tr></table></body></html>\r\n"
    ).encode()
    await gateway.send(raw, [address])
    async with gateway.client(token) as client:
        listing = (await client.get(f"/v1/identities/{address}/messages")).json()
        assert [m["subject"] for m in listing["messages"]] == ["long"]
        full = (await client.get(f"/v1/identities/{address}/messages/{listing['messages'][0]['id']}")).json()
        assert line in full["html"]


async def test_line_over_64k_is_refused(gateway: RunningGateway) -> None:
    raw = b"From: a@example.com\r\nSubject: huge line\r\n\r\n" + b"x" * (70 * 1024) + b"\r\n"

    def attempt() -> None:
        with _smtp(gateway) as client:
            client.sendmail("a@example.com", [f"x@{DOMAIN}"], raw)

    with pytest.raises(smtplib.SMTPDataError) as info:
        await asyncio.to_thread(attempt)
    assert info.value.smtp_code == 500
    assert _maildir(gateway).maildir.ids() == []


async def test_too_many_recipients(gateway: RunningGateway) -> None:
    def attempt() -> list[int]:
        with _smtp(gateway) as client:
            client.ehlo()
            client.mail("a@example.com")
            return [client.rcpt(f"r{i}@{DOMAIN}")[0] for i in range(MAX_RECIPIENTS + 2)]

    codes = await asyncio.to_thread(attempt)
    assert codes[:MAX_RECIPIENTS] == [250] * MAX_RECIPIENTS
    assert codes[MAX_RECIPIENTS:] == [452, 452]


async def test_malformed_recipient(gateway: RunningGateway) -> None:
    def attempt() -> int:
        with _smtp(gateway) as client:
            client.ehlo()
            client.mail("a@example.com")
            return client.rcpt(f"a b@{DOMAIN}")[0]

    assert await asyncio.to_thread(attempt) in (501, 553)


async def test_oversized_message_gets_552(make_settings, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from tests.conftest import run_gateway

    async with run_gateway(make_settings(max_message_bytes=4096)) as gateway:
        raw = b"From: a@example.com\r\nSubject: big\r\n\r\n" + (b"y" * 100 + b"\r\n") * 100

        def attempt() -> None:
            with _smtp(gateway) as client:
                client.sendmail("a@example.com", [f"x@{DOMAIN}"], raw)

        with pytest.raises((smtplib.SMTPDataError, smtplib.SMTPSenderRefused)) as info:
            await asyncio.to_thread(attempt)
        assert info.value.smtp_code == 552
        assert _maildir(gateway).maildir.ids() == []


async def test_no_dns_lookup_per_connection(gateway: RunningGateway, monkeypatch: pytest.MonkeyPatch) -> None:
    """aiosmtpd calls socket.getfqdn() unless given a hostname: a multi-second stall without DNS."""
    import socket

    def forbidden(*_: object) -> str:
        raise AssertionError("the intake looked up a host name")

    monkeypatch.setattr(socket, "getfqdn", forbidden)
    monkeypatch.setattr(socket, "gethostbyaddr", forbidden)

    def greet() -> tuple[int, bytes]:
        # local_hostname: smtplib itself would look up our own name otherwise.
        with smtplib.SMTP(gateway.smtp_host, gateway.smtp_port, local_hostname="client.example", timeout=10) as client:
            return client.ehlo()

    code, reply = await asyncio.to_thread(greet)
    assert code == 250
    assert reply.startswith(DOMAIN.encode())


# --- hostile clients: connection floods and slow-loris --------------------------------------


async def _connect(
    gateway: RunningGateway, source: str = "127.0.0.1"
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A raw connection from loopback address `source` (Linux routes all of 127/8 to lo)."""
    return await asyncio.open_connection(gateway.smtp_host, gateway.smtp_port, local_addr=(source, 0))


async def _first_reply(reader: asyncio.StreamReader) -> bytes:
    return await asyncio.wait_for(reader.readline(), timeout=10)


async def _closed_by_server(reader: asyncio.StreamReader) -> bool:
    """Whether the server closes the connection (EOF) within 10 s, whatever it still sends."""
    try:
        async with asyncio.timeout(10):
            while await reader.read(4096):
                pass
    except TimeoutError:
        return False
    return True


async def _greeted_when_room(gateway: RunningGateway, source: str) -> bytes:
    """Connect until the greeting is not a 421 (a released slot is freed when the server sees the close)."""
    async with asyncio.timeout(10):
        while True:
            reader, writer = await _connect(gateway, source)
            line = await _first_reply(reader)
            writer.close()
            if not line.startswith(b"421"):
                return line


async def test_connections_per_client_are_capped_with_421(make_settings) -> None:  # type: ignore[no-untyped-def]
    from tests.conftest import run_gateway

    settings = make_settings(smtp_max_connections_per_client=3, smtp_max_connections=10)
    async with run_gateway(settings) as gateway:
        held = [await _connect(gateway) for _ in range(3)]
        for reader, _ in held:
            assert (await _first_reply(reader)).startswith(b"220 ")
        reader, writer = await _connect(gateway)
        refused = await _first_reply(reader)
        assert refused.startswith(b"421 4.7.0 ") and b"your address" in refused, refused
        assert await _closed_by_server(reader)
        writer.close()
        # Another address is not this client's count; and a closed connection frees its slot.
        other, other_writer = await _connect(gateway, "127.0.0.2")
        assert (await _first_reply(other)).startswith(b"220 ")
        other_writer.close()
        held[0][1].close()
        assert (await _greeted_when_room(gateway, "127.0.0.1")).startswith(b"220 ")
        for _, w in held[1:]:
            w.close()


async def test_connections_in_all_are_capped_with_421(make_settings) -> None:  # type: ignore[no-untyped-def]
    from tests.conftest import run_gateway

    settings = make_settings(smtp_max_connections_per_client=2, smtp_max_connections=3)
    async with run_gateway(settings) as gateway:
        held = [await _connect(gateway, source) for source in ("127.0.0.1", "127.0.0.1", "127.0.0.2")]
        for reader, _ in held:
            assert (await _first_reply(reader)).startswith(b"220 ")
        reader, writer = await _connect(gateway, "127.0.0.3")
        refused = await _first_reply(reader)
        assert refused.startswith(b"421 4.7.0 ") and b"too many connections" in refused, refused
        assert await _closed_by_server(reader)
        writer.close()
        held[2][1].close()
        assert (await _greeted_when_room(gateway, "127.0.0.3")).startswith(b"220 ")
        for _, w in held[:2]:
            w.close()


async def _trickle(writer: asyncio.StreamWriter, reader: asyncio.StreamReader, data: bytes) -> int:
    """Send `data` one byte every 0.1 s (the attack itself) until the server hangs up; bytes sent."""
    sent = 0
    async with asyncio.timeout(10):
        for byte in data:
            if reader.at_eof():
                break
            writer.write(bytes([byte]))
            try:
                await writer.drain()
            except ConnectionError:
                break
            sent += 1
            try:  # the pause, and a look for the server's EOF
                if await asyncio.wait_for(reader.read(4096), timeout=0.1) == b"":
                    break
            except TimeoutError:
                pass
    return sent


@pytest.mark.parametrize("phase", ["command", "data"])
async def test_slow_loris_is_cut_within_the_timeout(make_settings, phase: str) -> None:  # type: ignore[no-untyped-def]
    """A command or a DATA line trickled byte by byte does not hold the connection: bytes do not reset the clock."""
    from tests.conftest import run_gateway

    async with run_gateway(make_settings(smtp_timeout="1s")) as gateway:
        reader, writer = await _connect(gateway)
        assert (await _first_reply(reader)).startswith(b"220 ")
        writer.write(b"EHLO loris.example\r\n")
        while not (await _first_reply(reader)).startswith(b"250 "):
            pass
        if phase == "data":
            for command in (b"MAIL FROM:<a@example.com>", f"RCPT TO:<x@{DOMAIN}>".encode(), b"DATA"):
                writer.write(command + b"\r\n")
                assert (await _first_reply(reader))[:1] in (b"2", b"3")
        payload = b"MAIL FROM:<" + b"a" * 200 + b"@example.com>\r\n" if phase == "command" else b"x" * 300
        sent = await _trickle(writer, reader, payload)
        writer.close()
        assert sent < len(payload), "the server kept reading a trickle for the whole payload"


async def test_a_large_message_on_a_slow_link_is_not_cut_at_the_timeout(make_settings) -> None:  # type: ignore[no-untyped-def]
    """Paced at 4x MIN_TRANSFER_RATE, DATA outlasts the 1 s timeout several times over and is accepted."""
    from tests.conftest import run_gateway

    async with run_gateway(make_settings(smtp_timeout="1s")) as gateway:
        reader, writer = await _connect(gateway)
        try:
            assert (await _first_reply(reader)).startswith(b"220 ")
            writer.write(b"EHLO slow.example\r\n")
            while not (await _first_reply(reader)).startswith(b"250 "):
                pass
            for command in (b"MAIL FROM:<a@example.com>", f"RCPT TO:<slow@{DOMAIN}>".encode(), b"DATA"):
                writer.write(command + b"\r\n")
                assert (await _first_reply(reader))[:1] in (b"2", b"3")
            writer.write(b"Subject: slow\r\n\r\n")
            chunk = (b"y" * 1022 + b"\r\n") * (MIN_TRANSFER_RATE // 1024)  # one second's worth at the minimum
            loop = asyncio.get_running_loop()
            started = loop.time()
            while loop.time() - started < 3:  # three timeouts long
                writer.write(chunk)
                await writer.drain()
                await asyncio.sleep(0.25)  # the slow link itself: 4x the minimum rate
            writer.write(b".\r\n")
            reply = await _first_reply(reader)
            assert reply.startswith(b"250 "), reply
        finally:
            writer.close()
