"""gateway/client/handle.py's request bodies: attachments base64-encoded by the client, recipients as lists."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from gateway import wire
from gateway.client import File
from gateway.client.handle import AttachmentLike, addresses, forward_body, reply_body, send_body


def _send(**given: Any) -> wire.SendIn:
    options: dict[str, Any] = {
        "subject": "",
        "text": "hi",
        "html": None,
        "cc": (),
        "bcc": (),
        "attachments": (),
        "reply_to": None,
        "headers": None,
        "from_name": None,
    }
    return send_body(given.pop("to", "you@agents.test"), **(options | given))


@given(content=st.binary(max_size=2000), name=st.text(min_size=1, max_size=40))
def test_an_attachments_bytes_come_back_from_its_base64(content: bytes, name: str) -> None:
    (sent,) = _send(attachments=[(name, content, "application/x-test")]).attachments
    assert base64.b64decode(sent.content, validate=True) == content
    assert (sent.filename, sent.content_type) == (name, "application/x-test")


def test_the_content_type_is_guessed_from_the_name_when_not_given() -> None:
    body = _send(attachments=[("receipt.pdf", b"%PDF-1.4"), File("notes.txt", b"hello"), ("blob", b"\0")])
    assert [a.content_type for a in body.attachments] == ["application/pdf", "text/plain", "application/octet-stream"]


def test_a_file_from_a_path_and_a_ready_out_attachment(tmp_path: Path) -> None:
    (tmp_path / "data.csv").write_bytes(b"a,b\n1,2\n")
    ready = wire.OutAttachment("x.bin", base64.b64encode(b"xyz").decode(), "application/octet-stream")
    body = _send(attachments=[File.from_path(tmp_path / "data.csv"), ready])
    assert body.attachments[0].filename == "data.csv"
    assert base64.b64decode(body.attachments[0].content) == b"a,b\n1,2\n"
    assert body.attachments[1] is ready
    assert repr(File("big.bin", b"x" * 10_000)) == "File('big.bin', 10000 bytes)", "never the bytes"


@pytest.mark.parametrize(
    "bad",
    [("a.txt", "text, not bytes"), ("only-a-name",), (b"name", b"x"), "a.txt", ("a", b"x", "t", "extra")],
)
def test_an_attachment_of_the_wrong_kind_is_a_type_error(bad: Any) -> None:
    with pytest.raises(TypeError, match="attachment"):
        _send(attachments=[bad])


def test_one_address_is_a_list_of_one_not_of_characters() -> None:
    body = _send(to="you@agents.test", cc=["a@agents.test", "b@agents.test"], bcc="c@agents.test")
    assert (body.to, body.cc, body.bcc) == (["you@agents.test"], ["a@agents.test", "b@agents.test"], ["c@agents.test"])
    assert addresses(x for x in ("a@agents.test",)) == ["a@agents.test"]
    with pytest.raises(TypeError, match="recipient"):
        addresses([b"a@agents.test"])  # type: ignore[list-item]


def test_reply_and_forward_bodies_are_what_the_gateway_reads() -> None:
    attachments: list[AttachmentLike] = [("a.txt", b"A")]
    reply = reply_body(text="Thanks", html=None, all=True, attachments=attachments, from_name="Agent, A")
    assert msgspec.json.decode(msgspec.json.encode(reply), type=wire.ReplyIn) == reply
    assert reply.all and reply.attachments[0].content == "QQ=="
    forward = forward_body("x@agents.test", cc=(), bcc=["y@agents.test"], text="FYI", from_name=None)
    assert (forward.to, forward.bcc, forward.text) == (["x@agents.test"], ["y@agents.test"], "FYI")
