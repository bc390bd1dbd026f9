"""Tokens held by the client are plain strings whose repr hides them (tracebacks with locals print reprs)."""

from __future__ import annotations

import pytest

from gateway.client import Gateway, Identity
from gateway.client.handle import Token, resolve_token

SECRET = "am_sekrit-0123456789abcdefghijklmnopq"


def test_a_token_is_its_string_in_every_use_but_repr() -> None:
    token = Token(SECRET)
    assert token == SECRET and f"Bearer {token}" == f"Bearer {SECRET}" and str(token) == SECRET
    assert token.encode() == SECRET.encode() and hash(token) == hash(SECRET)
    assert SECRET not in repr(token) and SECRET not in repr([token]) and SECRET not in repr({"t": token})


def test_tokens_the_client_holds_are_hidden(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENTMAIL_TOKEN", SECRET)
    assert SECRET not in repr(resolve_token(None)) and resolve_token(None) == SECRET
    assert SECRET not in repr(resolve_token(SECRET))
    with Gateway("http://127.0.0.1:9") as gw:
        assert SECRET not in repr(vars(gw))
        me = Identity(gw, "a@agents.test", SECRET)
        assert me.token == SECRET
        assert SECRET not in repr(vars(me))


def test_the_public_token_is_a_plain_str_that_encodes_anywhere() -> None:
    import json

    import msgspec

    with Gateway("http://127.0.0.1:9") as gw:
        me = Identity(gw, "a@agents.test", SECRET)
        assert type(me.token) is str and msgspec.json.decode(msgspec.json.encode(me.token)) == SECRET
        assert json.loads(json.dumps({"t": me.token})) == {"t": SECRET}
        me.token = "am_rotated-0123456789abcdefghijklmno"
        assert me.token == "am_rotated-0123456789abcdefghijklmno" and "rotated" not in repr(vars(me))
