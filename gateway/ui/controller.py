"""The /ui routes: thin handlers over the sessions, the Inbox and the page renderers.

| route | what |
|---|---|
| `GET /ui` | to the login page, the admin's identity list, or the identity's own mail |
| `GET /ui/login`, `POST /ui/login` | the login form; the token goes in the POST body only |
| `POST /ui/logout` | ends the session server-side and clears its cookie |
| `GET /ui/identities`, `POST /ui/identities` | admin: every identity; open one by address |
| `POST /ui/identities/create` | admin: a new identity; its token is on the answer page only |
| `GET /ui/identities/{address}` | its messages, newest first (`q` searches; `before` pages; `refresh` reloads) |
| `POST /ui/identities/{address}/delete` | admin: delete the identity (its name is quarantined) |
| `GET /ui/identities/{address}/messages/{id}` | one message; `view` = text, html, headers or raw; links its thread |
| `GET /ui/identities/{address}/messages/{id}/attachments/{attachment_id}` | download, as the API's route |
| `GET /ui/identities/{address}/threads/{thread_id}` | one thread, oldest first, the messages the identity sent marked |
| `POST /ui/identities/{address}/messages/{id}/delete` | hide the message from the identity |

Who may see which identity is decided by the API's own `mail_identity` (an identity's
session on another address is 403 before any lookup), and what it sees by the Inbox: the UI
shows exactly what /v1 would. Reading here never marks a message seen: `seen` is what an
agent's `wait` skips, and a human looking must not take a code from the agent. So "unread"
in the list means not yet seen by the identity's agent (its `wait`, a read with its token, or
a `PATCH seen`). Every POST needs the session's CSRF token and a same-site origin; the forms
that change something follow the API's rules (the store's name checks and quarantine), and
like the API they have no rate limit of their own beyond the login throttle.
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

from gateway.api.auth import mail_identity, managed_identity
from gateway.errors import Forbidden, InvalidInput, InvalidQuery
from gateway.inbox import FullMessage, Inbox, ListQuery
from gateway.mail.render import visible_text
from gateway.mail.sanitize import sanitize_html
from gateway.mail.search import parse_query
from gateway.redact import looks_like_token
from gateway.store import Identity, Store
from gateway.ui import pages, sessions
from gateway.ui.pages import REFRESH_CHOICES, AutoRefresh, MessageContent, MessageViewName, Nav
from gateway.ui.sessions import LOGIN_COOKIE, SESSION_COOKIE, LoginRefused, LoginRequired, LoginThrottle, UiSession
from gateway.wire import MAX_TTL_SECONDS

__all__ = ["UiController", "ui_router"]

T = TypeVar("T")

PAGE_SIZE: Final = 50
IDENTITY_PAGE_SIZE: Final = 100
WEBHOOK_DELIVERIES: Final = 5  # the latest calls shown per webhook on an identity's page
MAX_CURSOR_CHARS: Final = 256
"""Paging cursors (message ids, addresses) longer than this are refused (400) unread."""
INLINE_WORK_CHARS: Final = 64 * 1024
"""HTML longer than this is sanitized or rendered off the event loop."""
AUTO_REFRESH_FOR: Final = int(sessions.SESSION_IDLE)
"""Seconds an auto-refreshing list keeps reloading after a person turned it on (or clicked Refresh).

Each reload is a request that keeps the session alive: without an end, a screen left open would
never reach SESSION_IDLE. So it stops after this long, and the session ends an idle hour later."""
CLOCK_SLACK: Final = 60
"""Seconds an `until` may lie beyond AUTO_REFRESH_FOR (replicas' clocks differ a little)."""
MAX_LABEL_CHARS: Final = 200
"""The API's bound on an identity's label (wire.CreateIdentityIn)."""
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


class CreateIdentityForm(msgspec.Struct, frozen=True):
    """The admin's form for a new identity: the API's fields, as text (empty = not given)."""

    local_part: str = ""
    label: str = ""
    ttl_seconds: str = ""
    force: str = ""
    """A checkbox: present ("on") to re-create a quarantined name."""
    csrf: str = ""


class DeleteForm(msgspec.Struct, frozen=True):
    """A delete button's form: the CSRF token, and for an identity the ticked confirmation."""

    csrf: str = ""
    confirm: str = ""


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

    @post(
        "/identities/create",
        operation_id="uiCreateIdentity",
        dependencies={"session": Provide(require_session)},
        status_code=201,
    )
    async def create_identity(
        self,
        request: Request[Any, Any, Any],
        session: NamedDependency[UiSession],
        store: NamedDependency[Store],
        inbox: NamedDependency[Inbox],
        data: URLEncodedBody[CreateIdentityForm],
    ) -> Response[str]:
        """The admin creates an identity, as POST /v1/identities does; its token is on this page only.

        A page, not a redirect: the token must never be in a URL, and no later page can show it.
        """
        _check_post(request, session.csrf, data.csrf)
        _admin(session)
        identity, token = await store.identities.create(
            data.local_part.strip() or None,
            ttl_seconds=_ttl(data.ttl_seconds),
            label=_label(data.label),
            force=bool(data.force),
            fence=await inbox.fence(),  # taken first, as the API does: nothing arriving after creation is hidden
        )
        return _page(pages.created_page(_nav(session), identity, token), 201)

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
        store: NamedDependency[Store],
        address: FromPath[str],
        q: FromQuery[str | None] = None,
        before: Annotated[str | None, QueryParameter(max_length=MAX_CURSOR_CHARS)] = None,
        refresh: Annotated[int | None, QueryParameter(ge=1, le=3600)] = None,
        until: Annotated[int | None, QueryParameter(ge=0)] = None,
    ) -> Response[str]:
        """An identity's messages, newest first, only those matching the search `q` if given; with
        `refresh` (seconds) the page reloads itself.

        The reload is a `Refresh` header on this page only (no script, never on a mail). It keeps
        reloading until `until` (set on the first page, AUTO_REFRESH_FOR later), then stops. A
        search that cannot be read is this page again, 400, with the query's error and the box
        holding what was typed (not the bare error page: the person fixes it where they typed it).
        """
        identity = await mail_identity(request, address)
        auto = _auto_refresh(refresh, until, now=time.time())
        search = (q or "").strip() or None  # an empty box is the whole list
        nav = _nav(session)
        try:
            query = None if search is None else parse_query(search)
        except InvalidQuery as unreadable:
            body = pages.messages_page(
                nav, identity.address, [], next_before=None, paged=False, q=search, query_error=unreadable.detail
            )
            return _page(body, 400)
        listing = ListQuery(PAGE_SIZE, before_id=before or None, query=None if query is None else query.root)
        page = await inbox.listing(identity, listing)
        hooks = []
        if not before:  # the first page shows the identity's webhooks and what became of their latest calls
            for hook in await store.webhooks.listing(identity_id=identity.id):
                hooks.append((hook, await store.webhooks.deliveries(hook.id, limit=WEBHOOK_DELIVERIES)))
        body = pages.messages_page(
            nav,
            identity.address,
            page.summaries,
            next_before=page.next_before_id,
            paged=bool(before),
            auto=auto,
            q=search,
            webhooks=hooks,
        )
        headers = {}
        if auto.every is not None and auto.until is not None:
            again = pages.messages_url(
                identity.address, q=search, before=before or None, refresh=auto.every, until=auto.until
            )
            headers["Refresh"] = f"{auto.every}; url={again}"
        return _page(body, headers=headers)

    @post(
        "/identities/{address:str}/delete",
        operation_id="uiDeleteIdentity",
        dependencies={"session": Provide(require_session)},
    )
    async def delete_identity(
        self,
        request: Request[Any, Any, Any],
        session: NamedDependency[UiSession],
        store: NamedDependency[Store],
        address: FromPath[str],
        data: URLEncodedBody[DeleteForm],
    ) -> Redirect:
        """The admin deletes an identity, as DELETE /v1/identities/{address} does: its name is quarantined."""
        _check_post(request, session.csrf, data.csrf)
        _admin(session)
        if not data.confirm:
            raise InvalidInput("Tick the box to confirm: deleting an identity cannot be undone.")
        identity = await managed_identity(request, address)
        await store.identities.delete(identity)
        return Redirect("/ui/identities", status_code=303)

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

    @get(
        "/identities/{address:str}/messages/{message_id:str}/attachments/{attachment_id:str}",
        operation_id="uiAttachment",
        dependencies={"session": Provide(require_session)},
    )
    async def attachment(
        self,
        request: Request[Any, Any, Any],
        session: NamedDependency[UiSession],
        inbox: NamedDependency[Inbox],
        address: FromPath[str],
        message_id: FromPath[str],
        attachment_id: FromPath[str],
    ) -> Response[bytes]:
        """One attachment as a download, answered as the API's download route answers (the same
        headers, from the same `download_headers`); never marks the message seen.

        The pages' own headers still go on top (policy.security_headers): the same CSP and
        nosniff, `Cache-Control: no-store` and no referrer. A link on the message page is a
        plain navigation to our own origin, which `Content-Disposition: attachment` turns into
        a saved file: the page's CSP needs nothing more.
        """
        # Imported here: the API's module imports the pages' policy, and so this package, first.
        from gateway.api.controllers.attachments import download_headers

        identity = await mail_identity(request, address)
        found = await inbox.attachment(identity, message_id, attachment_id)
        return Response(found.data, headers=download_headers(found))

    @get(
        "/identities/{address:str}/threads/{thread_id:str}",
        operation_id="uiThread",
        dependencies={"session": Provide(require_session)},
    )
    async def thread(
        self,
        request: Request[Any, Any, Any],
        session: NamedDependency[UiSession],
        inbox: NamedDependency[Inbox],
        address: FromPath[str],
        thread_id: FromPath[str],
    ) -> Response[str]:
        """One thread, oldest first, sent messages marked; never marks anything seen."""
        identity = await mail_identity(request, address)
        summary, messages = await inbox.thread(identity, thread_id)
        return _page(pages.thread_page(_nav(session), identity.address, summary, messages))

    @post(
        "/identities/{address:str}/messages/{message_id:str}/delete",
        operation_id="uiDeleteMessage",
        dependencies={"session": Provide(require_session)},
    )
    async def delete_message(
        self,
        request: Request[Any, Any, Any],
        session: NamedDependency[UiSession],
        inbox: NamedDependency[Inbox],
        address: FromPath[str],
        message_id: FromPath[str],
        data: URLEncodedBody[DeleteForm],
    ) -> Redirect:
        """Hide the message from the identity, as DELETE …/messages/{id} does; back to the list."""
        _check_post(request, session.csrf, data.csrf)
        identity = await mail_identity(request, address)
        await inbox.delete(identity, message_id)
        return Redirect(pages.messages_url(identity.address), status_code=303)


def _admin(session: UiSession) -> None:
    if session.principal.kind != "admin":
        raise Forbidden(
            "Only the admin can list, open, create and delete identities; your own mail is behind the home link."
        )


def _ttl(text: str) -> int | None:
    """The lifetime field: empty for none, else whole seconds within the API's bounds."""
    text = text.strip()
    if not text:
        return None
    # The length first: int() of thousands of digits is refused by Python itself (a ValueError, not ours).
    if len(text) > len(str(MAX_TTL_SECONDS)) or not text.isascii() or not text.isdigit():
        raise InvalidInput(f"The lifetime is a whole number of seconds from 1 to {MAX_TTL_SECONDS}, or empty for none.")
    if not 1 <= int(text) <= MAX_TTL_SECONDS:
        raise InvalidInput(f"The lifetime is a whole number of seconds from 1 to {MAX_TTL_SECONDS}, or empty for none.")
    return int(text)


def _label(text: str) -> str | None:
    text = text.strip()
    if len(text) > MAX_LABEL_CHARS:
        raise InvalidInput(f"The label is {MAX_LABEL_CHARS} characters at most.")
    return text or None


def _auto_refresh(every: int | None, until: int | None, *, now: float) -> AutoRefresh:
    """The list's auto-refresh: off, on (until when), or stopped because its time ran out."""
    if every is None:
        if until is not None:
            raise InvalidInput("`until` goes with `refresh`.")
        return AutoRefresh()
    if every not in REFRESH_CHOICES:
        choices = ", ".join(str(c) for c in REFRESH_CHOICES)
        raise InvalidInput(f"Auto-refresh is every {choices} seconds.")
    if until is None:  # a person turned it on (or clicked Refresh) just now
        return AutoRefresh(every, int(now) + AUTO_REFRESH_FOR)
    if until > now + AUTO_REFRESH_FOR + CLOCK_SLACK:
        raise InvalidInput("That auto-refresh link was not made by these pages; turn auto-refresh on again.")
    if until <= now:
        return AutoRefresh(every, None, stopped=True)
    return AutoRefresh(every, until)


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
