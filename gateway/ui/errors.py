"""Errors under /ui become HTML pages; everywhere else the API's JSON handlers answer.

`with_ui_pages` wraps the application's exception handlers, so the router's own 404 and
405 for paths no handler serves get a page too. Like the API, the pages never echo library
exception text (it can carry request data, a token included); a request that needs a
session and has none is sent to the login page.
"""

from __future__ import annotations

import logging
from typing import Any, Final

from litestar import MediaType, Request, Response
from litestar.exceptions import HTTPException, ValidationException
from litestar.response import Redirect
from litestar.types import ExceptionHandler, ExceptionHandlersMap

from gateway.errors import GatewayError
from gateway.ui.pages import error_page
from gateway.ui.policy import is_ui_path
from gateway.ui.sessions import SESSION_COOKIE, LoginRequired, clear_cookie

__all__ = ["ui_error_response", "with_ui_pages"]

log = logging.getLogger(__name__)

_TITLES: Final = {
    400: "Bad request",
    401: "Not logged in",
    403: "Not allowed",
    404: "Not found",
    405: "Method not allowed",
    408: "Timed out",
    409: "Conflict",
    413: "Too large",
    415: "Unsupported form",
    429: "Too many attempts",
    503: "Mailbox unavailable",
}
# Our own words for the router's and the framework's errors (their text is never shown).
_DETAILS: Final = {
    404: "There is no such page.",
    405: "This page does not take that kind of request.",
    413: "The request is larger than the gateway accepts.",
    415: "This form was sent in a way the gateway does not read.",
}


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
        status, detail = exc.status, exc.detail
        if exc.retry_after is not None:
            headers["Retry-After"] = str(exc.retry_after)
    elif isinstance(exc, ValidationException):
        status, detail = 400, "A value in the address or the form is missing or not valid."
    elif isinstance(exc, HTTPException) and exc.status_code < 500:
        status = exc.status_code
        detail = _DETAILS.get(status, "The request is not valid.")
    else:
        log.error("unhandled error on a /ui page", exc_info=exc)
        status, detail = 500, "The gateway failed; see its log."
    if status >= 500 and status != 503:
        status, detail = 500, "The gateway failed; see its log."
    title = _TITLES.get(status, "Something went wrong")
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
