"""One webhook call: POST the signed payload to the vetted address, within a deadline.

The URL is checked and its name resolved here, right before connecting, and the connection
goes to a vetted address only: the request URL carries the IP, the `Host` header the real
name, and for https the `sni_hostname` extension makes TLS ask for (and check the certificate
against) the real name. A DNS answer that changes between the check and the connect is never
used. No proxy from the environment, no redirects (3xx is a failure: the spec asks the owner to
update the URL instead), one fresh connection per call (a pooled one could have been opened
for another name on the same address).

Everything (resolving, connecting, sending, reading) shares one deadline. The answer's body is
read raw (no decompression, `accept-encoding: identity` asks for none): its first 1 KB is kept
for the attempt log, and reading stops at 64 KB. Success is a 2xx status; the body read never
changes the outcome once the status arrived.
"""

from __future__ import annotations

import asyncio
import functools
import ssl
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

import httpx

from gateway.errors import TargetRefused
from gateway.push.guard import IPAddress, Network, Resolver, Target, check_url, resolve
from gateway.push.signing import signature_header

__all__ = ["MAX_READ", "RESPONSE_HEAD", "USER_AGENT", "CallResult", "call_webhook", "default_ssl_context"]

USER_AGENT: Final = "agentmail-gateway"
RESPONSE_HEAD: Final = 1024
"""Bytes of the answer's body kept for the attempt log."""
MAX_READ: Final = 64 * 1024
"""Bytes of the answer's body read at most: a receiver streaming without end costs us nothing."""


@dataclass(frozen=True, slots=True)
class CallResult:
    """The outcome of one call, as the attempt log records it."""

    ok: bool
    """A 2xx answer arrived."""
    status_code: int | None
    """The answer's HTTP status; None when none arrived (refused, unreachable, timed out)."""
    latency_ms: float
    """From the start (resolving included) to the end of reading."""
    error: str | None
    """Why it failed, in words (never a secret, never our request's headers); None on success."""
    response_head: str
    """The first 1 KB of the answer's body, decoded leniently ('' when none)."""


@functools.cache
def default_ssl_context() -> ssl.SSLContext:
    """The TLS settings of every call: httpx's (certifi's CAs, hostname checks), built once per process."""
    return httpx.create_ssl_context(trust_env=False)


@dataclass(slots=True)
class _Answer:
    status: int | None = None
    head: bytes = b""


async def call_webhook(
    url: str,
    payload: bytes,
    *,
    msg_id: str,
    secrets: Sequence[str],
    timeout: float,
    allow: Iterable[str | Network] = (),
    resolver: Resolver | None = None,
    ssl_context: ssl.SSLContext | None = None,
    timestamp: int | None = None,
) -> CallResult:
    """POST `payload` to the webhook at `url`, signed with each of `secrets`, within `timeout` seconds.

    `msg_id` is the delivery's `webhook-id` (the same on every attempt); `timestamp` the
    attempt's `webhook-timestamp` (default: now). `allow` is `webhook_allow`, `resolver` a
    stand-in for getaddrinfo (tests), `ssl_context` the trust store (default: httpx's). Never
    raises for anything the receiver or the network does: the result says what happened.
    """
    started = time.perf_counter()
    answer = _Answer()
    nets = tuple(allow)

    def result(error: str | None) -> CallResult:
        status = answer.status
        ok = status is not None and 200 <= status < 300
        if status is not None and not ok:
            error = (
                f"HTTP {status}: redirects are not followed (update the webhook URL)"
                if 300 <= status < 400
                else f"HTTP {status}"
            )
        return CallResult(
            ok=ok,
            status_code=status,
            latency_ms=(time.perf_counter() - started) * 1000,
            error=None if ok else error,
            response_head=answer.head.decode("utf-8", errors="replace"),
        )

    try:
        async with asyncio.timeout(timeout):
            target = check_url(url, nets)
            ips = await resolve(target, nets, resolver=resolver)
            stamp = int(time.time()) if timestamp is None else timestamp
            headers = {
                "host": target.authority,
                "webhook-id": msg_id,
                "webhook-timestamp": str(stamp),
                "webhook-signature": signature_header(msg_id, stamp, payload, secrets),
                "content-type": "application/json",
                "user-agent": USER_AGENT,
                "accept-encoding": "identity",
            }
            await _post(target, ips, payload, headers, answer, timeout, ssl_context or default_ssl_context())
    except TargetRefused as exc:
        return result(f"target refused: {exc.detail}")
    except (TimeoutError, httpx.TimeoutException):
        return result(f"timed out after {timeout:g} s")
    except httpx.HTTPError as exc:
        return result(_describe(exc))
    except OSError:
        return result("could not connect")
    return result(None)


async def _post(
    target: Target,
    ips: Sequence[IPAddress],
    payload: bytes,
    headers: dict[str, str],
    answer: _Answer,
    timeout: float,
    context: ssl.SSLContext,
) -> None:
    extensions = {"sni_hostname": target.host} if target.scheme == "https" and target.ip is None else {}
    async with httpx.AsyncClient(
        verify=context,
        trust_env=False,
        follow_redirects=False,
        timeout=httpx.Timeout(timeout),
        limits=httpx.Limits(max_connections=1, max_keepalive_connections=0),
    ) as client:
        for n, ip in enumerate(ips):
            request = client.build_request(
                "POST", target.url_for(ip), content=payload, headers=headers, extensions=extensions
            )
            try:
                response = await client.send(request, stream=True)
            except httpx.ConnectError:
                if n == len(ips) - 1:
                    raise
                continue  # the next vetted address of the name (IPv4 after IPv6, say)
            try:
                answer.status = response.status_code
                await _read_head(response, answer)
            finally:
                await response.aclose()
            return


async def _read_head(response: httpx.Response, answer: _Answer) -> None:
    head = bytearray()
    read = 0
    try:
        async for chunk in response.aiter_raw():
            if len(head) < RESPONSE_HEAD:
                head += chunk[: RESPONSE_HEAD - len(head)]
                answer.head = bytes(head)
            read += len(chunk)
            if read >= MAX_READ:
                break
    except httpx.HTTPError:
        pass  # the status decided the outcome; a body cut short changes nothing


def _describe(exc: httpx.HTTPError) -> str:
    """A failure in words, from the exception's kind and causes, never its text (it can hold the URL)."""
    causes: list[BaseException] = []
    seen: BaseException | None = exc
    while seen is not None and len(causes) < 8:
        causes.append(seen)
        seen = seen.__cause__ or seen.__context__
    if any(isinstance(c, ssl.SSLCertVerificationError) for c in causes):
        return "TLS certificate not valid for the webhook's host"
    if any(isinstance(c, ssl.SSLError) for c in causes):
        return "TLS handshake failed"
    if any(isinstance(c, ConnectionRefusedError) for c in causes) or (
        isinstance(exc, httpx.ConnectError) and "refused" in str(exc).lower()
    ):
        return "connection refused"
    if isinstance(exc, httpx.ConnectError):
        return "could not connect"
    if isinstance(exc, httpx.RemoteProtocolError):
        return "the receiver closed the connection or broke HTTP"
    if isinstance(exc, httpx.ReadError | httpx.WriteError):
        return "connection lost"
    return f"HTTP client error ({type(exc).__name__})"
