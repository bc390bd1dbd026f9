"""Errors under /ui become HTML pages; everywhere else the API's JSON handlers answer.

`with_ui_pages` wraps the application's exception handlers, so the router's own 404 and
405 for paths no handler serves get a page too. A `GatewayError` is answered with the API's
status for its class (`api/exceptions.http_status`: a page and the API never disagree) and
the title `_TITLES` gives its class here. Like the API, the pages never echo library
exception text (it can carry request data, a token included); a request that needs a
session and has none is sent to the login page.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final

from litestar import MediaType, Request, Response
from litestar.exceptions import HTTPException, ValidationException
from litestar.response import Redirect
from litestar.types import ExceptionHandler, ExceptionHandlersMap

from gateway.api.exceptions import http_status
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
from gateway.ui.pages import error_page
from gateway.ui.policy import is_ui_path
from gateway.ui.sessions import SESSION_COOKIE, LoginRequired, clear_cookie

__all__ = ["ui_error_response", "with_ui_pages"]

log = logging.getLogger(__name__)

_TITLES: Final[Mapping[type[GatewayError], str]] = MappingProxyType(
    {
        GatewayError: "Something went wrong",
        InvalidInput: "Bad request",
        InvalidName: "Not a valid name",
        InvalidMail: "Not a mail to send",
        InvalidQuery: "Not a search we can read",
        RecipientRefused: "Recipient refused",
        NotText: "Not text",
        TargetRefused: "Webhook target refused",
        Unauthorized: "Not logged in",
        Forbidden: "Not allowed",
        NotFound: "Not found",
        WaitTimeout: "Timed out",
        Conflict: "Conflict",
        TooLarge: "Too large",
        TooManyAttempts: "Too many requests",
        TooManyWaiters: "Too many requests",
        ClientGone: "Request abandoned",
        SourceUnavailable: "Mailbox unavailable",
        StoreUnavailable: "Storage unavailable",
        IndexRebuilding: "Mail is being re-read",
        StoreError: "Storage unavailable",
    }
)
"""The page title of each GatewayError class (the status is the API's for the same class)."""

# Titles and our own words for the router's and the framework's errors, by status (their
# text is never shown); any other status below 500 is "Something went wrong".
_FRAMEWORK_PAGES: Final[Mapping[int, tuple[str, str]]] = MappingProxyType(
    {
        400: ("Bad request", "The request is not valid."),
        401: ("Not logged in", "The request is not valid."),
        403: ("Not allowed", "The request is not valid."),
        404: ("Not found", "There is no such page."),
        405: ("Method not allowed", "This page does not take that kind of request."),
        408: ("Timed out", "The request is not valid."),
        409: ("Conflict", "The request is not valid."),
        413: ("Too large", "The request is larger than the gateway accepts."),
        415: ("Unsupported form", "This form was sent in a way the gateway does not read."),
        429: ("Too many attempts", "The request is not valid."),
    }
)
_FAILED: Final = ("Something went wrong", "The gateway failed; see its log.")


def _title(exc: GatewayError) -> str:
    return next(_TITLES[cls] for cls in type(exc).__mro__ if cls in _TITLES)


def ui_error_response(request: Request[Any, Any, Any], exc: Exception) -> Response[Any]:
    """The page (or redirect) answering `exc` on a /ui request."""
    if isinstance(exc, LoginRequired):
        secure = request.url.scheme == "https"
        if exc.ended:  # the cookie names a session that is over: forget it, and say so
            return Redirect(
                "/ui/login",
                status_code=303,
                query_params={"ended": "1"},
                cookies=[clear_cookie(SESSION_COOKIE, secure=secure)],
            )
        return Redirect("/ui/login", status_code=303)
    headers: dict[str, str] = {}
    if isinstance(exc, GatewayError):
        status, title, detail = http_status(exc), _title(exc), exc.detail
        if exc.retry_after is not None:
            headers["Retry-After"] = str(exc.retry_after)
    elif isinstance(exc, ValidationException):
        status, title = 400, _FRAMEWORK_PAGES[400][0]
        detail = "A value in the address or the form is missing or not valid."
    elif isinstance(exc, HTTPException) and exc.status_code < 500:
        status = exc.status_code
        title, detail = _FRAMEWORK_PAGES.get(status, ("Something went wrong", "The request is not valid."))
        if status == 405 and exc.headers and "allow" in exc.headers:  # a 405 says what the page takes
            headers["Allow"] = exc.headers["allow"]
    else:
        log.error("unhandled error on a /ui page", exc_info=exc)
        status, (title, detail) = 500, _FAILED
    if status >= 500 and status != 503:
        status, (title, detail) = 500, _FAILED
    return Response(error_page(status, title, detail), status_code=status, media_type=MediaType.HTML, headers=headers)


def _for_ui(api_handler: ExceptionHandler[Any] | None) -> ExceptionHandler[Any]:
    def handle(request: Request[Any, Any, Any], exc: Exception) -> Response[Any]:
        if is_ui_path(request.url.path) or api_handler is None:
            return ui_error_response(request, exc)
        return api_handler(request, exc)

    return handle


def with_ui_pages(handlers: ExceptionHandlersMap) -> ExceptionHandlersMap:
    """`handlers` for the API, with every /ui error answered by `ui_error_response` instead."""
    wrapped: ExceptionHandlersMap = {key: _for_ui(handler) for key, handler in handlers.items()}
    wrapped[LoginRequired] = _for_ui(None)  # raised by /ui pages only
    return wrapped
