"""GatewayClient: the REST /v1 calls agentmail-mcp makes, typed, over an injected httpx client.

The MCP server holds no permission of its own: each call carries the token it is given
(the provisioner's for identities, an identity's own for its mail) and the gateway decides.
Answers are decoded into the small wire structs below; errors become :class:`GatewayCallError`
carrying the gateway's own ``error``/``detail`` (never a token, never library text).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Final, Literal, TypeVar
from urllib.parse import quote

import httpx
import msgspec

__all__ = [
    "WAIT_SEGMENT_SECONDS",
    "Attachment",
    "Code",
    "CreatedIdentity",
    "GatewayCallError",
    "GatewayClient",
    "IdentityInfo",
    "Link",
    "Message",
    "Summary",
]

WAIT_SEGMENT_SECONDS: Final = 50.0
"""Longest single `wait` call: proxies and client timeouts commonly cut idle requests at 60 s."""

_IDENTITY_PAGE: Final = 500

_T = TypeVar("_T")


class Code(msgspec.Struct, frozen=True):
    value: str
    context: str
    source: str


class Link(msgspec.Struct, frozen=True):
    url: str
    context: str
    source: str


class Attachment(msgspec.Struct, frozen=True):
    filename: str | None
    content_type: str
    size: int


class Summary(msgspec.Struct, frozen=True, rename={"from_": "from"}):
    id: str
    from_: str
    to: list[str]
    subject: str
    received_at: datetime
    size: int
    seen: bool
    codes: list[Code]
    links: list[Link]


class Message(Summary, frozen=True, rename={"from_": "from"}):
    text: str
    html: str | None
    attachments: list[Attachment]


class IdentityInfo(msgspec.Struct, frozen=True):
    address: str
    created_at: datetime
    expires_at: datetime | None
    label: str | None


class CreatedIdentity(IdentityInfo, frozen=True):
    token: str


class _Page(msgspec.Struct, frozen=True):
    messages: list[Summary]


class _IdentityPage(msgspec.Struct, frozen=True):
    identities: list[IdentityInfo]
    next_after: str | None


class _Error(msgspec.Struct, frozen=True):
    error: str
    detail: str
    retry_after_sec: float | None = None


class GatewayCallError(Exception):
    """The gateway refused or could not answer; `status` 0 when it could not be reached."""

    def __init__(self, status: int, error: str, detail: str, retry_after: float | None = None) -> None:
        super().__init__(detail)
        self.status = status
        self.error = error
        self.detail = detail
        self.retry_after = retry_after


def _segment(value: str, safe: str = "") -> str:
    """`value` as one path segment: "/" and "?" escaped, and "." / ".." too.

    httpx removes dot segments (RFC 3986 §5.2.4), so an id of ".." would otherwise turn
    `DELETE …/messages/..` into `DELETE /v1/identities/{address}`: the identity itself.
    """
    encoded = quote(value, safe=safe)
    return encoded.replace(".", "%2E") if encoded in (".", "..") else encoded


def _identity_path(address: str) -> str:
    return f"/v1/identities/{_segment(address, safe='@')}"


def _message_path(address: str, message_id: str) -> str:
    return f"{_identity_path(address)}/messages/{_segment(message_id)}"


def _params(**values: Any) -> dict[str, Any]:
    return {name: value for name, value in values.items() if value is not None}


class GatewayClient:
    """Typed calls to one gateway; `http` has the gateway's base URL and owns the connections."""

    def __init__(self, http: httpx.AsyncClient, provisioner_token: str | None) -> None:
        self._http = http
        self._provisioner = provisioner_token
        # What error messages name: never the user:password a URL may carry.
        self._where = str(http.base_url.copy_with(userinfo=b""))

    async def _call(
        self,
        method: Literal["GET", "POST", "DELETE"],
        path: str,
        token: str | None,
        *,
        params: dict[str, Any] | None = None,
        json: dict[str, Any] | None = None,
        timeout: float | None = None,
    ) -> bytes:
        if token is None:
            raise GatewayCallError(0, "no_token", "AGENTMAIL_TOKEN is not set: give agentmail-mcp a provisioner token")
        extensions = None if timeout is None else {"timeout": httpx.Timeout(10.0, read=timeout).as_dict()}
        try:
            response = await self._http.request(
                method,
                path,
                params=params,
                json=json,
                headers={"Authorization": f"Bearer {token}"},
                extensions=extensions,
            )
        except httpx.TimeoutException:
            raise GatewayCallError(0, "unreachable", f"the gateway at {self._where} did not answer in time") from None
        except httpx.RequestError:
            # The exception text can carry the request; only the base URL is said.
            raise GatewayCallError(0, "unreachable", f"cannot reach the gateway at {self._where}") from None
        if response.is_success:
            return response.content
        try:
            err = msgspec.json.decode(response.content, type=_Error)
        except msgspec.DecodeError:  # not the gateway's envelope (a proxy's page, another server)
            err = _Error("http_error", f"{self._where} answered HTTP {response.status_code}, not as the gateway")
        retry = err.retry_after_sec
        if retry is None and "retry-after" in response.headers:
            try:
                retry = float(response.headers["retry-after"])
            except ValueError:
                retry = None
        raise GatewayCallError(response.status_code, err.error, err.detail, retry)

    def _decode(self, raw: bytes, shape: type[_T]) -> _T:
        try:
            return msgspec.json.decode(raw, type=shape)
        except msgspec.DecodeError:  # a 2xx that is not the gateway's answer: AGENTMAIL_URL is wrong
            raise GatewayCallError(
                0, "bad_answer", f"{self._where} did not answer as an agentmail gateway (check AGENTMAIL_URL)"
            ) from None

    async def whoami_is_admin(self) -> bool:
        """Whether the configured token is the admin token (only the admin may list API tokens)."""
        try:
            await self._call("GET", "/v1/tokens", self._provisioner)
        except GatewayCallError as exc:
            if exc.status in (401, 403):
                return False
            raise
        return True

    async def create_identity(
        self, local_part: str | None, ttl_seconds: int | None, label: str | None
    ) -> CreatedIdentity:
        """A new identity made with the provisioner token; the answer carries its token once."""
        body = _params(local_part=local_part, ttl_seconds=ttl_seconds, label=label)
        raw = await self._call("POST", "/v1/identities", self._provisioner, json=body)
        return self._decode(raw, CreatedIdentity)

    async def list_identities(self) -> list[IdentityInfo]:
        """Every identity the provisioner token made (the gateway shows it no others)."""
        found: list[IdentityInfo] = []
        after: str | None = None
        while True:
            raw = await self._call(
                "GET", "/v1/identities", self._provisioner, params=_params(limit=_IDENTITY_PAGE, after=after)
            )
            page = self._decode(raw, _IdentityPage)
            found.extend(page.identities)
            if page.next_after is None:
                return found
            after = page.next_after

    async def delete_identity(self, address: str) -> None:
        """Delete an identity the provisioner token made."""
        await self._call("DELETE", _identity_path(address), self._provisioner)

    async def list_messages(
        self, address: str, token: str, *, limit: int, sender: str | None, subject: str | None
    ) -> list[Summary]:
        """The identity's newest messages first."""
        params = _params(limit=limit, subject=subject, **{"from": sender})
        raw = await self._call("GET", f"{_identity_path(address)}/messages", token, params=params)
        return self._decode(raw, _Page).messages

    async def get_message(self, address: str, token: str, message_id: str) -> Message:
        """One whole message (marks it seen for the identity)."""
        return self._decode(await self._call("GET", _message_path(address, message_id), token), Message)

    async def delete_message(self, address: str, token: str, message_id: str) -> None:
        """Hide one message from the identity."""
        await self._call("DELETE", _message_path(address, message_id), token)

    async def wait(
        self,
        address: str,
        token: str,
        *,
        timeout: float,
        sender: str | None,
        subject: str | None,
        since: datetime | None,
    ) -> Message | None:
        """One `wait` call of at most :data:`WAIT_SEGMENT_SECONDS`; None when nothing arrived."""
        timeout = min(timeout, WAIT_SEGMENT_SECONDS)
        params = _params(timeout=timeout, subject=subject, since=None if since is None else since.isoformat())
        if sender is not None:
            params["from"] = sender
        try:
            raw = await self._call("GET", f"{_identity_path(address)}/wait", token, params=params, timeout=timeout + 15)
        except GatewayCallError as exc:
            if exc.status == 408:
                return None
            raise
        return self._decode(raw, Message)
