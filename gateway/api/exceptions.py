"""The one place errors become HTTP: `{"error": code, "detail": text}` with the right status.

`HTTP_STATUSES` decides the status of every `GatewayError` class (a subclass without an entry
takes its nearest ancestor's; a test requires an entry for each). A temporary error's
`retry_after` becomes `Retry-After` and `retry_after_sec`. Library exception text is never
echoed: it can carry request data (tokens included).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final

from litestar import MediaType, Request, Response
from litestar.exceptions import HTTPException, ValidationException
from litestar.types import ExceptionHandlersMap

from gateway.errors import (
    ClientGone,
    Conflict,
    Forbidden,
    GatewayError,
    IndexRebuilding,
    InvalidInput,
    InvalidMail,
    InvalidName,
    InvalidQuery,
    NotFound,
    NotText,
    RecipientRefused,
    SourceUnavailable,
    StoreError,
    StoreUnavailable,
    TargetRefused,
    TooLarge,
    TooManyAttempts,
    TooManyWaiters,
    Unauthorized,
    WaitTimeout,
)

__all__ = ["EXCEPTION_HANDLERS", "HTTP_STATUSES", "http_status"]

log = logging.getLogger(__name__)

_PASSED_HEADERS: Final = {"retry-after": "Retry-After", "allow": "Allow"}

_CODES: Final = {
    400: "invalid_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    408: "timeout",
    409: "conflict",
    413: "too_large",
    415: "unsupported_media_type",
    429: "rate_limited",
}

HTTP_STATUSES: Final[Mapping[type[GatewayError], int]] = MappingProxyType(
    {
        GatewayError: 500,
        InvalidInput: 400,
        InvalidName: 422,  # well-formed JSON, but the name breaks the naming rules
        InvalidQuery: 400,  # the detail names the term and where it stands
        InvalidMail: 422,  # well-formed JSON, but not a mail we will build (injection, bad address)
        RecipientRefused: 422,  # a recipient out of the identity's send scope, or no relay
        NotText: 422,  # well-formed, but the attachment has no text to give: it is downloaded instead
        TargetRefused: 422,  # a well-formed URL the SSRF guard will not call
        Unauthorized: 401,
        Forbidden: 403,
        NotFound: 404,
        WaitTimeout: 408,
        Conflict: 409,
        TooLarge: 413,
        TooManyAttempts: 429,
        TooManyWaiters: 429,
        ClientGone: 499,  # nginx's "client closed request": logged, never read by the client
        SourceUnavailable: 503,
        StoreUnavailable: 503,
        IndexRebuilding: 503,
        StoreError: 503,
    }
)
"""The HTTP status of each GatewayError class; /ui answers with the same statuses."""

# msgspec names the offending value ('...') and an unknown field (`...`): both are request
# data, which may be a token pasted into the wrong field. The field's own name stays, and so
# does an unknown name too short to be any token (an admin token has 16 characters at least,
# the generated ones more) made of a name's characters: a typo such as `localpart` is shown.
_ECHOED: Final = re.compile(r"\s*(?:'[^']*'|(?<=unknown field) `(?![A-Za-z][A-Za-z0-9_]{0,14}`)[^`]*`)")


def _error(
    status: int, code: str, detail: str, headers: dict[str, str] | None = None, retry_after: int | None = None
) -> Response[Any]:
    body: dict[str, Any] = {"error": code, "detail": detail}
    if retry_after is not None:
        body["retry_after_sec"] = retry_after
        headers = {**(headers or {}), "Retry-After": str(retry_after)}
    return Response(body, status_code=status, media_type=MediaType.JSON, headers=headers)


def http_status(exc: GatewayError) -> int:
    """The HTTP status of `exc`: its class's entry in HTTP_STATUSES, else its nearest ancestor's."""
    return next(HTTP_STATUSES[cls] for cls in type(exc).__mro__ if cls in HTTP_STATUSES)


def _gateway_error(_: Request[Any, Any, Any], exc: GatewayError) -> Response[Any]:
    response = _error(http_status(exc), exc.code, exc.detail, retry_after=exc.retry_after)
    if isinstance(exc, RecipientRefused):  # which ones and why, for a program to act on
        response.content["rejected"] = [{"address": a, "reason": r} for a, r in exc.refused]
    return response


def _validation_error(_: Request[Any, Any, Any], exc: ValidationException) -> Response[Any]:
    # Litestar's extra holds per-field messages; keep the field and message, never the value.
    parts = []
    for item in exc.extra if isinstance(exc.extra, list) else []:
        if isinstance(item, dict):
            key = item.get("key") or item.get("source") or "body"
            message = _ECHOED.sub("", str(item.get("message", ""))).strip() or "missing or invalid"
            parts.append(f"{key}: {message}")
    detail = "; ".join(parts) or "the request is malformed"
    return _error(400, "invalid_request", detail)


def _http_error(_: Request[Any, Any, Any], exc: HTTPException) -> Response[Any]:
    status = exc.status_code
    if status >= 500:
        log.error("HTTP %d: %s", status, exc.detail)
        return _error(status, "internal_error", "the gateway failed; see its log")
    # Only headers that tell the client what to do next pass through: when to retry, and
    # which methods the path takes (a 405 must say, RFC 9110 section 15.5.6).
    passed = {k.lower(): v for k, v in (exc.headers or {}).items() if k.lower() in _PASSED_HEADERS}
    if "allow" in passed:  # the router lists the methods in no fixed order
        passed["allow"] = ", ".join(sorted(m.strip() for m in passed["allow"].split(",")))
    headers = {_PASSED_HEADERS[k]: v for k, v in passed.items()} or None
    code = _CODES.get(status, "invalid_request")
    detail = exc.detail if status in (404, 405, 413, 415) else code.replace("_", " ")
    if status == 405 and "allow" in passed:
        detail = f"this path takes {passed['allow']}"
    return _error(status, code, str(detail), headers)


def _unexpected(_: Request[Any, Any, Any], exc: Exception) -> Response[Any]:
    log.exception("unhandled error", exc_info=exc)
    return _error(500, "internal_error", "the gateway failed; see its log")


EXCEPTION_HANDLERS: ExceptionHandlersMap = {
    GatewayError: _gateway_error,
    ValidationException: _validation_error,
    HTTPException: _http_error,
    Exception: _unexpected,
}
