"""parse_relay_url (pure): what AGENTMAIL_RELAY_URL means, and that no error ever shows a password."""

from __future__ import annotations

import dataclasses
from urllib.parse import quote

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gateway.outbound.relay import is_loopback, parse_relay_url

label = st.from_regex(r"[a-z0-9]([a-z0-9-]{0,20}[a-z0-9])?", fullmatch=True)
hosts = st.one_of(
    st.lists(label, min_size=1, max_size=4).map(".".join),
    st.ip_addresses(v=4).map(str),
)
secret_text = st.text(st.characters(codec="ascii", exclude_categories=("Cc",)), min_size=1, max_size=40)
MARK = "Pw-9f3c1e"  # a password that cannot appear in any of our own messages by chance


@given(
    scheme=st.sampled_from(["smtp", "smtps"]),
    user=secret_text,
    password=secret_text,
    host=hosts,
    port=st.one_of(st.none(), st.integers(1, 65535)),
)
def test_a_url_built_from_parts_gives_the_parts_back(
    scheme: str, user: str, password: str, host: str, port: int | None
) -> None:
    url = f"{scheme}://{quote(user, safe='')}:{quote(password, safe='')}@{host}" + (f":{port}" if port else "")
    config = parse_relay_url(url)
    default = 465 if scheme == "smtps" else 587
    assert (config.host, config.port, config.implicit_tls) == (host, port or default, scheme == "smtps")
    assert (config.username, config.password) == (user, password)
    assert config.require_tls == (not is_loopback(host))
    assert repr(config) == repr(dataclasses.replace(config, password="other"))  # the password never shows


@given(junk=st.text(max_size=60), before=st.booleans())
def test_no_refusal_ever_repeats_the_password(junk: str, before: bool) -> None:
    url = f"smtp://agent:{MARK}@{junk}" if before else f"{junk}agent:{MARK}@{junk}"
    try:
        parse_relay_url(url)
    except ValueError as exc:
        assert MARK not in str(exc)
        assert "agent" not in str(exc)


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.255.0.9", True),
        ("::1", True),
        ("localhost", True),
        ("LOCALHOST.", True),
        ("128.0.0.1", False),
        ("10.0.0.1", False),
        ("localhost.example.com", False),
        ("mailserver", False),
        ("::ffff:127.0.0.1", False),  # mapped: Python does not call it loopback; TLS stays required
    ],
)
def test_only_loopback_hosts_may_skip_tls(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback
