"""What both client twins share outside the plans: configuration from the environment, and the handle's state."""

from __future__ import annotations

import base64
import contextlib
import math
import os
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Final

from gateway import wire
from gateway.client.plans import NoReply

if TYPE_CHECKING:
    import httpx

__all__ = [
    "DEFAULT_URL",
    "AttachmentLike",
    "Download",
    "File",
    "IdentityState",
    "Token",
    "addresses",
    "forward_body",
    "no_reply",
    "reply_body",
    "resolve_token",
    "resolve_url",
    "send_body",
    "ttl_seconds",
    "webhook_body",
    "where",
]

DEFAULT_URL: Final = "http://127.0.0.1:8025"


def resolve_url(url: str | None) -> str:
    """`url`, else AGENTMAIL_URL, else the local default."""
    return (url or os.environ.get("AGENTMAIL_URL", "").strip() or DEFAULT_URL).rstrip("/")


class Token(str):
    """A token as the client's own frames hold it: a `str` in every use, but its `repr` hides it.

    Tracebacks that show locals (`pytest -l`, debuggers, error trackers) print reprs, and those
    reports end up in CI logs. Never handed out: msgspec encodes no `str` subclass, so the public
    `Identity.token` is a plain `str`.
    """

    __slots__ = ()

    def __repr__(self) -> str:
        return "Token('***')"


def resolve_token(token: str | None) -> Token | None:
    """`token`, else AGENTMAIL_TOKEN (a provisioner or the admin token), else None."""
    if token is not None:
        return Token(token)
    found = os.environ.get("AGENTMAIL_TOKEN", "").strip()
    return Token(found) if found else None


def where(url: str) -> str:
    """The URL as error messages name it: never the user:password it may carry."""
    import httpx

    try:
        return str(httpx.URL(url).copy_with(userinfo=b""))
    except httpx.InvalidURL:
        return "the configured AGENTMAIL_URL"


def ttl_seconds(ttl: float | timedelta | None) -> int | None:
    """A lifetime as whole seconds (rounded up: a ttl never ends early)."""
    if ttl is None:
        return None
    seconds = ttl.total_seconds() if isinstance(ttl, timedelta) else float(ttl)
    return max(1, math.ceil(seconds))


@dataclass(frozen=True, slots=True)
class File:
    """A file to attach to a mail: its name, its bytes, and its type (guessed from the name when None)."""

    filename: str
    content: bytes
    content_type: str | None = None

    @classmethod
    def from_path(cls, path: str | os.PathLike[str], content_type: str | None = None) -> File:
        """The file at `path`, named by its last component."""
        where = Path(path)
        return cls(where.name, where.read_bytes(), content_type)

    def __repr__(self) -> str:  # not the bytes: a repr in a traceback stays one line
        return f"File({self.filename!r}, {len(self.content)} bytes)"


AttachmentLike = File | tuple[str, bytes] | tuple[str, bytes, str] | wire.OutAttachment
"""What `attachments=` takes: a :class:`File`, `(filename, bytes)`, `(filename, bytes, content_type)`,
or a wire ``OutAttachment`` already base64-encoded."""


def _attachment(item: AttachmentLike) -> wire.OutAttachment:
    if isinstance(item, wire.OutAttachment):
        return item
    if isinstance(item, File):
        name, content, kind = item.filename, item.content, item.content_type
    elif isinstance(item, tuple) and len(item) in (2, 3):
        name, content, kind = item[0], item[1], (item[2] if len(item) == 3 else None)
    else:
        raise TypeError(
            f"an attachment is a File or a (filename, bytes[, content_type]) tuple, not {type(item).__name__}"
        )
    if not isinstance(name, str) or not isinstance(content, bytes | bytearray | memoryview):
        raise TypeError("an attachment's filename is a str and its content bytes")
    if kind is None:
        import mimetypes  # here: a script that never attaches does not load the type tables

        kind = mimetypes.guess_type(name, strict=False)[0] or "application/octet-stream"
    return wire.OutAttachment(name, base64.b64encode(bytes(content)).decode("ascii"), kind)


def addresses(given: str | Iterable[str]) -> list[str]:
    """Recipients as a list: one address may be passed as a plain string."""
    if isinstance(given, str):
        return [given]
    out = list(given)
    for address in out:
        if not isinstance(address, str):
            raise TypeError(f"a recipient is an address (str), not {type(address).__name__}")
    return out


def send_body(
    to: str | Iterable[str],
    *,
    subject: str,
    text: str | None,
    html: str | None,
    cc: str | Iterable[str],
    bcc: str | Iterable[str],
    attachments: Iterable[AttachmentLike],
    reply_to: str | None,
    headers: Mapping[str, str] | None,
    from_name: str | None,
) -> wire.SendIn:
    """The request body of a send; a TypeError for arguments of the wrong kind, before any request."""
    return wire.SendIn(
        to=addresses(to),
        cc=addresses(cc),
        bcc=addresses(bcc),
        subject=subject,
        text=text,
        html=html,
        attachments=[_attachment(a) for a in attachments],
        reply_to=reply_to,
        headers=dict(headers or {}),
        from_name=from_name,
    )


def reply_body(
    *,
    text: str | None,
    html: str | None,
    all: bool,
    attachments: Iterable[AttachmentLike],
    from_name: str | None,
) -> wire.ReplyIn:
    """The request body of a reply."""
    return wire.ReplyIn(
        text=text, html=html, all=all, attachments=[_attachment(a) for a in attachments], from_name=from_name
    )


def forward_body(
    to: str | Iterable[str],
    *,
    cc: str | Iterable[str],
    bcc: str | Iterable[str],
    text: str | None,
    from_name: str | None,
) -> wire.ForwardIn:
    """The request body of a forward."""
    return wire.ForwardIn(to=addresses(to), cc=addresses(cc), bcc=addresses(bcc), text=text, from_name=from_name)


def webhook_body(
    url: str, *, events: wire.EventType | Iterable[wire.EventType] | None, description: str | None, signing: str
) -> wire.WebhookIn:
    """The request body of a new webhook; a TypeError or ValueError for arguments it cannot be, before any request."""
    if not isinstance(url, str):
        raise TypeError(f"a webhook's url is a str, not {type(url).__name__}")
    if signing not in ("v1", "v1a"):
        raise ValueError(f"signing is 'v1' (HMAC-SHA256) or 'v1a' (Ed25519), not {signing!r}")
    wanted: list[wire.EventType] | None = None
    if events is not None:
        wanted = [events] if isinstance(events, str) else list(events)
        for event in wanted:
            if event not in wire.EVENT_TYPES:
                raise ValueError(f"{event!r} is not an event: one of {', '.join(wire.EVENT_TYPES)}")
    return wire.WebhookIn(url=url, events=wanted, description=description, signing=signing)  # type: ignore[arg-type]


class Download:
    """A file being written from an answer: a temporary file beside `path`, moved over it once whole.

    A download cut halfway leaves `path` as it was (absent, or the old file), never a truncated
    file a script would take for the attachment. The file is the user's alone (0600), as
    `tempfile` makes it: an attachment may be an invoice or a password reset.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        fd, temporary = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".part", dir=self.path.parent)
        self._temporary = Path(temporary)
        self._file = os.fdopen(fd, "wb")

    def write(self, chunk: bytes) -> None:
        self._file.write(chunk)

    def finish(self) -> None:
        """The file is whole: it takes `path`'s place."""
        self._file.close()
        os.replace(self._temporary, self.path)

    def discard(self) -> None:
        self._file.close()
        with contextlib.suppress(FileNotFoundError):
            self._temporary.unlink()


def no_reply(exc: httpx.RequestError) -> NoReply:
    """How a failed request counts: `cut` once it reached a server (a wait re-arms), else unreachable."""
    import httpx

    reached = isinstance(exc, httpx.ReadTimeout | httpx.WriteTimeout | httpx.RemoteProtocolError | httpx.ReadError)
    return NoReply(cut=reached)


class IdentityState:
    """An identity's address, token and record; `repr` never shows the token."""

    def __init__(
        self,
        address: str,
        token: str,
        *,
        created_at: datetime | None = None,
        expires_at: datetime | None = None,
        label: str | None = None,
        send: wire.SendScope | None = None,
    ) -> None:
        self.address = address
        self._secret = Token(token)
        self.created_at = created_at
        self.expires_at = expires_at
        self.label = label
        self.send_scope = send
        """Whom it may send to (`none`, `local`, `any`), when known: from `create_identity`."""

    @property
    def token(self) -> str:
        """The identity's own token (a plain `str`): reads its mail and nothing else. Keep it out of logs."""
        return str(self._secret)

    @token.setter
    def token(self, value: str) -> None:
        self._secret = Token(value)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.address!r})"

    def __str__(self) -> str:
        return self.address
