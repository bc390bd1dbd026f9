"""IMAP message ids: stable, parseable, and sorted as their UIDs are."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from gateway.sources.imap import ImapConfig, message_id, parse_id

UID = st.integers(min_value=1, max_value=2**32 - 1)


@given(st.integers(min_value=1, max_value=2**32 - 1), UID)
def test_round_trip(validity: int, uid: int) -> None:
    assert parse_id(message_id(validity, uid)) == (validity, uid)


@given(st.integers(min_value=1, max_value=2**32 - 1), UID, UID)
def test_string_order_is_uid_order(validity: int, a: int, b: int) -> None:
    # The index sorts by (INTERNALDATE, id): ids of one UIDVALIDITY must sort as their UIDs.
    assert (message_id(validity, a) < message_id(validity, b)) == (a < b)


def test_foreign_ids_are_not_ours() -> None:
    for text in ("", "1", "1.", ".1", "1.12", "a.0000000001", "1.000000000x", "1234.M5P6Q7.agentmail", "1.00000000001"):
        assert parse_id(text) is None, text


def test_config_repr_hides_the_password() -> None:
    config = ImapConfig("mail", 993, "catchall@d.test", "hunter2-password")
    assert "hunter2" not in repr(config) and "hunter2" not in str(config)
