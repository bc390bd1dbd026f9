"""The /ui routes: thin handlers over the sessions, the Inbox and the page renderers.

| route | what |
|---|---|
| `GET /ui` | to the login page, the admin's identity list, or the identity's own mail |
| `GET /ui/login`, `POST /ui/login` | the login form; the token goes in the POST body only |
| `POST /ui/logout` | ends the session server-side and clears its cookie |
| `GET /ui/identities`, `POST /ui/identities` | admin: every identity; open one by address |
| `GET /ui/identities/{address}` | an identity's messages, newest first (`before` pages) |
| `GET /ui/identities/{address}/messages/{id}` | one message; `view` = text, html, headers or raw |

Who may see which identity is decided by the API's own `mail_identity` (an identity's
session on another address is 403 before any lookup), and what it sees by the Inbox: the UI
shows exactly what /v1 would. Reading here never marks a message seen: `seen` is what an
agent's `wait` skips, and a human looking must not take a code from the agent.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Annotated, Any, Final, TypeVar
from urllib.parse import unquote_plus

import msgspec
from litestar import Controller, MediaType, Request, Response, Router, get, post
from litestar.di import NamedDependency, Provide
from litestar.params import FromPath, FromQuery, QueryParameter, URLEncodedBody
from litestar.response import Redirect

from gateway.api.auth import mail_identity
from gateway.errors import Forbidden, InvalidInput
from gateway.inbox import FullMessage, Inbox, ListQuery
from gateway.mail.render import visible_text
from gateway.mail.sanitize import sanitize_html
from gateway.redact import looks_like_token
from gateway.store import Identity, Store
from gateway.ui import pages, sessions
from gateway.ui.pages import MessageContent, MessageViewName, Nav
from gateway.ui.sessions import LOGIN_COOKIE, SESSION_COOKIE, LoginRefused, LoginRequired, LoginThrottle, UiSession

__all__ = ["UiController", "ui_router"]

T = TypeVar("T")

PAGE_SIZE: Final = 50
IDENTITY_PAGE_SIZE: Final = 100
MAX_CURSOR_CHARS: Final = 256
"""Paging cursors (message ids, addresses) longer than this are refused (400) unread."""
INLINE_WORK_CHARS: Final = 64 * 1024
"""HTML longer than this is sanitized or rendered off the event loop."""
_TOKEN_PARAMETERS: Final = frozenset({"token", "access_token", "auth", "authorization", "api_key", "key"})


class LoginForm(msgspec.Struct, frozen=True):
    """The login form: the token and the form's CSRF nonce (missing fields are empty)."""

    token: str = ""
    csrf: str = ""


class CsrfForm(msgspec.Struct, frozen=True):
    """A form that carries only the session's CSRF token (logout)."""

    csrf: str = ""


class OpenAddressForm(msgspec.Struct, frozen=True):
    """The admin's form to open an identity by address."""

    address: str = ""
    csrf: str = ""


def _page(body: str, status: int = 200, **kwargs: Any) -> Response[str]:
    return Response(body, status_code=status, media_type=MediaType.HTML, **kwargs)


def _secure(request: Request[Any, Any, Any]) -> bool:
    """Whether the request came over HTTPS (as uvicorn sees it; it trusts a local proxy's X-Forwarded-Proto)."""
    return request.url.scheme == "https"


def _client(request: Request[Any, Any, Any]) -> str:
    return sessions.client_key(request.client.host) if request.client is not None else "unknown"


def _nav(session: UiSession) -> Nav:
    principal = session.principal
    if principal.kind == "identity" and principal.identity is not None:
        address = principal.identity.address
        return Nav(address, session.csrf, admin=False, home=pages.messages_url(address))
    return Nav("admin", session.csrf, admin=True, home="/ui/identities")


def _check_post(request: Request[Any, Any, Any], expected: str, given: str) -> None:
    """A state-changing form: from this site (as far as the browser says) and with the right CSRF token."""
    if not sessions.from_this_site(request.headers):
        raise Forbidden("This form was sent from another site; it was refused.")
    if not sessions.csrf_matches(expected, given):
        raise Forbidden("This form has expired or was not sent by these pages. Reload the page and try again.")


def refuse_token_in_url(request: Request[Any, Any, Any]) -> None:
    """Before every /ui request: a token in a URL is refused, never read (URLs end up in logs and history).

    Refused: a parameter named like a token, and anything token-shaped in the path or the query
    (a key, a value, under any name: `?t=am_…`, a bare `?am_…`), percent-encoded or not.
    """
    query = unquote_plus(request.scope.get("query_string", b"").decode("latin-1"))
    if (
        any(name.lower() in _TOKEN_PARAMETERS for name in request.query_params)
        or looks_like_token(query)
        or looks_like_token(request.url.path)
    ):
        raise InvalidInput(
            "Tokens never go in a URL: this one was not read. It may now be in logs or browser history,"
            " so rotate it; then log in with the form."
        )


async def require_session(request: Request[Any, Any, Any], store: NamedDependency[Store]) -> UiSession:
    """The request's live session, or LoginRequired (answered with the login page)."""
    cookie = request.cookies.get(SESSION_COOKIE)
    session = await sessions.current_session(store, cookie)
    if session is None:
        raise LoginRequired(ended=cookie is not None)
    # What the API's access rules read (set by its token middleware there): one rule for both.
    request.scope["user"] = session.principal
    return session


def _login_form(request: Request[Any, Any, Any], status: int, **message: str) -> Response[str]:
    """The login page with a form nonce: the browser's current one when it has one, else a new one."""
    nonce = request.cookies.get(LOGIN_COOKIE)
    cookies = []
    if not sessions.valid_nonce(nonce):
        nonce = sessions.new_login_nonce()
        cookies.append(sessions.login_cookie(nonce, secure=_secure(request)))
    assert nonce is not None
    return _page(pages.login_page(nonce, **message), status, cookies=cookies)


class UiController(Controller):
    """Server-rendered pages for people: log in, pick an identity, read its mail safely."""

    path = "/"
    include_in_schema = False

    @get("/", operation_id="uiHome", dependencies={"session": Provide(require_session)})
    async def home(self, session: NamedDependency[UiSession]) -> Redirect:
        """Where a logged-in person starts: the admin's identity list, or the identity's own mail."""
        return Redirect(_nav(session).home, status_code=303)

    @get("/login", operation_id="uiLoginForm")
    async def login_form(self, request: Request[Any, Any, Any], ended: FromQuery[bool] = False) -> Response[str]:
        """The login form (with a note when the last session ended)."""
        if ended:
            return _login_form(request, 200, notice="Your session has ended. Log in again.")
        return _login_form(request, 200)

    @post("/login", operation_id="uiLogin")
    async def login(
        self,
        request: Request[Any, Any, Any],
        store: NamedDependency[Store],
        throttle: NamedDependency[LoginThrottle],
        data: URLEncodedBody[LoginForm],
    ) -> Response[Any]:
        """Exchange a token for a session: 303 to the start, or the form again with why not."""
        nonce = request.cookies.get(LOGIN_COOKIE)
        if not sessions.from_this_site(request.headers):
            return _login_form(request, 403, error="This login was sent from another site; it was refused.")
        if not sessions.valid_nonce(nonce) or not sessions.csrf_matches(nonce or "", data.csrf):
            return _login_form(request, 403, error="The login form had expired. Please try again.")
        client = _client(request)
        wait = await throttle.admit(client)
        if wait is not None:
            response = _login_form(request, 429, error=f"Too many failed logins. Try again in {wait} seconds.")
            response.headers["Retry-After"] = str(wait)
            return response
        try:
            session_id, session = await sessions.login(store, data.token)
        except LoginRefused as refused:
            return _login_form(request, 401, error=refused.reason)  # counted by `admit` already
        await throttle.succeeded(client)
        old = await sessions.current_session(store, request.cookies.get(SESSION_COOKIE))
        if old is not None:  # one browser, one session: the one it replaces ends now
            await sessions.logout(store, old)
        secure = _secure(request)
        return Redirect(
            _nav(session).home,
            status_code=303,
            cookies=[
                sessions.session_cookie(session_id, secure=secure),
                sessions.clear_cookie(LOGIN_COOKIE, secure=secure),
            ],
        )

    @post("/logout", operation_id="uiLogout")
    async def logout(
        self, request: Request[Any, Any, Any], store: NamedDependency[Store], data: URLEncodedBody[CsrfForm]
    ) -> Redirect:
        """End the session server-side and clear its cookie."""
        session = await sessions.current_session(store, request.cookies.get(SESSION_COOKIE))
        if session is not None:
            _check_post(request, session.csrf, data.csrf)
            await sessions.logout(store, session)
        # Already over: nothing left to protect, only the cookie to clear.
        return Redirect(
            "/ui/login", status_code=303, cookies=[sessions.clear_cookie(SESSION_COOKIE, secure=_secure(request))]
        )

    @get(
        "/identities",
        operation_id="uiIdentities",
        dependencies={"session": Provide(require_session)},
    )
    async def identities(
        self,
        session: NamedDependency[UiSession],
        store: NamedDependency[Store],
        after: Annotated[str | None, QueryParameter(max_length=MAX_CURSOR_CHARS)] = None,
    ) -> Response[str]:
        """The admin's list of identities, by address."""
        _admin(session)
        rows = await store.identities.list(after=after, limit=IDENTITY_PAGE_SIZE + 1)
        more = len(rows) > IDENTITY_PAGE_SIZE
        rows = rows[:IDENTITY_PAGE_SIZE]
        next_after = rows[-1].address if more else None
        return _page(pages.identities_page(_nav(session), rows, next_after=next_after, now=time.time()))

    @post(
        "/identities",
        operation_id="uiOpenIdentity",
        dependencies={"session": Provide(require_session)},
    )
    async def open_identity(
        self,
        request: Request[Any, Any, Any],
        session: NamedDependency[UiSession],
        data: URLEncodedBody[OpenAddressForm],
    ) -> Redirect:
        """The admin's pick by address: to that identity's mail."""
        _check_post(request, session.csrf, data.csrf)
        _admin(session)
        identity = await mail_identity(request, data.address.strip())
        return Redirect(pages.messages_url(identity.address), status_code=303)

    @get(
        "/identities/{address:str}",
        operation_id="uiMessages",
        dependencies={"session": Provide(require_session)},
    )
    async def messages(
        self,
        request: Request[Any, Any, Any],
        session: NamedDependency[UiSession],
        inbox: NamedDependency[Inbox],
        address: FromPath[str],
        before: Annotated[str | None, QueryParameter(max_length=MAX_CURSOR_CHARS)] = None,
    ) -> Response[str]:
        """An identity's messages, newest first."""
        identity = await mail_identity(request, address)
        page = await inbox.listing(identity, ListQuery(PAGE_SIZE, before_id=before or None))
        return _page(
            pages.messages_page(
                _nav(session), identity.address, page.summaries, next_before=page.next_before_id, paged=bool(before)
            )
        )

    @get(
        "/identities/{address:str}/messages/{message_id:str}",
        operation_id="uiMessage",
        dependencies={"session": Provide(require_session)},
    )
    async def message(
        self,
        request: Request[Any, Any, Any],
        session: NamedDependency[UiSession],
        inbox: NamedDependency[Inbox],
        address: FromPath[str],
        message_id: FromPath[str],
        view: FromQuery[MessageViewName] = "text",
    ) -> Response[str]:
        """One message in one view; never marks it seen."""
        identity = await mail_identity(request, address)
        message = await inbox.read(identity, message_id, mark_seen=False)
        content = await _content(inbox, identity, message, view)
        return _page(pages.message_page(_nav(session), identity.address, message, content))


def _admin(session: UiSession) -> None:
    if session.principal.kind != "admin":
        raise Forbidden("Only the admin can list and open identities; your own mail is behind the home link.")


async def _off_loop_if_big(work: Callable[[str], T], html: str) -> T:
    if len(html) > INLINE_WORK_CHARS:
        return await asyncio.to_thread(work, html)
    return work(html)


async def _content(inbox: Inbox, identity: Identity, message: FullMessage, view: MessageViewName) -> MessageContent:
    """What `view` needs beyond the parsed message: the sanitized HTML, the source, a text fallback."""
    parsed = message.parsed
    if view == "raw":
        raw = await inbox.raw(identity, message.summary.id, summary=message.summary)
        return MessageContent(view, raw=raw)
    sanitized = None
    if view == "html" and parsed.html is not None:
        sanitized = await _off_loop_if_big(sanitize_html, parsed.html)
        if sanitized.refused is None and sanitized.html:
            return MessageContent(view, sanitized=sanitized)  # shown: no text fallback needed
    fallback = None
    if not parsed.text.strip() and parsed.html and view in ("text", "html"):
        fallback = await _off_loop_if_big(visible_text, parsed.html)
    return MessageContent(view, sanitized=sanitized, fallback_text=fallback)


def _throttle(store: NamedDependency[Store]) -> LoginThrottle:
    return LoginThrottle(store.limits)


def ui_router() -> Router:
    """The /ui pages, with their login throttle (counted in the store); outside the API's bearer-token middleware."""
    return Router(
        path="/ui",
        route_handlers=[UiController],
        dependencies={"throttle": Provide(_throttle, sync_to_thread=False)},
        before_request=refuse_token_in_url,
        # Pages authenticate with their session cookie (require_session), never a bearer
        # token; TokenAuth skips routes with this opt (Litestar's exclude_from_auth_key).
        opt={"exclude_from_auth": True},
        include_in_schema=False,
    )
