"""The trace headers every stored copy starts with (gateway/mail/stamp.py)."""

from __future__ import annotations

from datetime import UTC, datetime

from gateway.mail import stamp
from gateway.mail.parse import raw_headers
from gateway.mail.stamp import delivery_stamp, header_safe, received_header, return_path_of, with_message_id

WHEN = datetime(2030, 1, 2, 3, 4, 5, tzinfo=UTC)


def test_exported_names_exist() -> None:
    assert all(hasattr(stamp, name) for name in stamp.__all__)


def test_header_safe_drops_line_breaks_controls_and_angle_brackets() -> None:
    assert header_safe("a\r\nBcc: x@y <z>\x7f\x00") == "aBcc: x@y z"


def test_smtp_received_names_the_client_and_each_recipient() -> None:
    received = received_header(by="agents.test", queue_id="ABC", when=WHEN, protocol="ESMTP", helo="h", peer="::1")
    block = delivery_stamp("a@agents.test", return_path="s@example.com", received=received)
    assert block.decode() == (
        "Return-Path: <s@example.com>\r\nDelivered-To: a@agents.test\r\nX-Original-To: a@agents.test\r\n"
        "Received: from h ([::1])\r\n\tby agents.test (agentmail-gateway) with ESMTP id ABC\r\n"
        "\tfor <a@agents.test>; Wed, 02 Jan 2030 03:04:05 +0000\r\n"
    )


def test_local_received_has_no_from_clause() -> None:
    received = received_header(by="agents.test", queue_id="Q", when=WHEN, protocol="LOCAL")
    assert received.startswith("Received: by agents.test (agentmail-gateway) with LOCAL id Q\r\n")


def test_return_path_cannot_inject_a_header() -> None:
    received = received_header(by="d", queue_id="Q", when=WHEN, protocol="LOCAL")
    block = delivery_stamp("a@d", return_path="x>\r\nBcc: victim@example.org", received=received)
    names = [name for name, _ in raw_headers(block + b"\r\n")]
    assert names == ["Return-Path", "Delivered-To", "X-Original-To", "Received"]


def test_message_id_is_added_once() -> None:
    bare = b"From: a@example.com\r\n\r\nbody\r\n"
    added = with_message_id(bare, domain="agents.test", unique="u1")
    assert added == b"Message-ID: <u1@agents.test>\r\n" + bare
    assert with_message_id(added, domain="agents.test", unique="u2") == added


def test_return_path_is_the_first_from_address() -> None:
    assert return_path_of(b"Subject: s\r\nFrom: Agent <Agent@Agents.test>, b@x.test\r\n\r\n") == "agent@agents.test"
    assert return_path_of(b"Subject: no sender\r\n\r\n") == ""
