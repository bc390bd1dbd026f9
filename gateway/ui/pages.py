"""The /ui pages as HTML strings: small render functions over `html.escape`, no template engine.

Every value that comes from mail, the store or the request goes through `_e` (text and
attribute values alike, quotes included). Mail-provided URLs are shown as text to copy,
never as `href`; the only links are to our own pages, built from quoted path parts. The
sanitized HTML of a message goes into `<iframe sandbox srcdoc="…">` with an empty sandbox.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Final, Literal
from urllib.parse import quote, urlencode

from gateway.inbox import FullMessage
from gateway.mail.attachments import fallback_filename
from gateway.mail.models import Code, Link
from gateway.mail.sanitize import Sanitized
from gateway.mail.search import MAX_QUERY_CHARS
from gateway.store import Identity, Summary, ThreadSummary
from gateway.store.webhooks import Delivery, Webhook
from gateway.ui.style import MAIL_FRAME_STYLESHEET, STYLESHEET

__all__ = [
    "MAX_SHOWN_CHARS",
    "MESSAGE_VIEWS",
    "REFRESH_CHOICES",
    "AutoRefresh",
    "MessageContent",
    "MessageViewName",
    "Nav",
    "attachment_url",
    "created_page",
    "error_page",
    "identities_page",
    "identity_delete_url",
    "login_page",
    "message_delete_url",
    "message_page",
    "message_url",
    "messages_page",
    "messages_url",
]

MessageViewName = Literal["text", "html", "headers", "raw"]
MESSAGE_VIEWS: Final[tuple[MessageViewName, ...]] = ("text", "html", "headers", "raw")
MAX_SHOWN_CHARS: Final = 1_000_000
"""Characters of a text part or of the raw source put in a page; the page says when it is cut."""
LIST_CODES: Final = 3
"""Codes (and links) per message in a listing; the message page shows them all."""
REFRESH_CHOICES: Final = (10, 30, 60)
"""Seconds between reloads the list's auto-refresh offers (and the only ones it takes)."""

# Our own look for the sanitized document (its link and blocked-image placeholders); the
# page's stylesheet does not reach into the frame. Constant text, never mail's.
_FRAME_HEAD: Final = f"<style>{MAIL_FRAME_STYLESHEET}</style>"
_VIEW_LABELS: Final = {"text": "Text", "html": "HTML", "headers": "Headers", "raw": "Source"}


def _e(value: object) -> str:
    """HTML-escaped text, safe in element content and in quoted attribute values."""
    return html.escape(str(value), quote=True)


@dataclass(frozen=True, slots=True)
class Nav:
    """The top bar of a logged-in page: who is logged in, and the logout form's CSRF token."""

    who: str
    csrf: str
    admin: bool
    home: str
    """Where the brand link goes: the identity's mail, or the admin's identity list."""


@dataclass(frozen=True, slots=True)
class AutoRefresh:
    """The list's auto-refresh: `every` seconds (None: off) until the epoch second `until`."""

    every: int | None = None
    until: int | None = None
    stopped: bool = False
    """It was on and its time ran out: the page says so and reloads no more."""


# --- URLs of our own pages --------------------------------------------------------------


def messages_url(
    address: str,
    *,
    q: str | None = None,
    before: str | None = None,
    refresh: int | None = None,
    until: int | None = None,
) -> str:
    """The message list of `address`: only mail matching the search `q`, older pages with `before`,
    reloading every `refresh` s until `until`."""
    url = f"/ui/identities/{quote(address, safe='@')}"
    query = {
        name: str(value)
        for name, value in (("q", q), ("before", before), ("refresh", refresh), ("until", until))
        if value is not None
    }
    return f"{url}?{urlencode(query)}" if query else url


def identity_delete_url(address: str) -> str:
    """Where the admin's form to delete `address` posts."""
    return f"{messages_url(address)}/delete"


def message_delete_url(address: str, message_id: str) -> str:
    """Where the form to delete one message of `address` posts."""
    return f"{message_url(address, message_id)}/delete"


def thread_url(address: str, thread_id: str) -> str:
    """One thread of `address`: its messages oldest first, sent and received."""
    return f"{messages_url(address)}/threads/{quote(thread_id, safe='')}"


def attachment_url(address: str, message_id: str, attachment_id: str) -> str:
    """One attachment of a message of `address`, as a download."""
    return f"{message_url(address, message_id)}/attachments/{quote(attachment_id, safe='')}"


def message_url(address: str, message_id: str, view: MessageViewName = "text") -> str:
    """One message of `address`, in one of its views."""
    url = f"{messages_url(address)}/messages/{quote(message_id, safe='')}"
    return url if view == "text" else f"{url}?view={view}"


# --- the frame --------------------------------------------------------------------------


def _document(title: str, body: str, nav: Nav | None) -> str:
    return (
        "<!doctype html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="referrer" content="no-referrer">\n'
        f"<title>{_e(title)} · agentmail</title>\n"
        f"<style>{STYLESHEET}</style>\n"
        "</head>\n<body>\n"
        f"{_top(nav)}\n<main>\n{body}\n</main>\n</body>\n</html>\n"
    )


def _top(nav: Nav | None) -> str:
    if nav is None:
        return '<header class="top"><a class="brand" href="/ui">agentmail</a></header>'
    identities = '<a href="/ui/identities">Identities</a>' if nav.admin else ""
    return (
        '<header class="top">'
        f'<a class="brand" href="{_e(nav.home)}">agentmail</a>'
        f'<nav>{identities}<span class="who">{_e(nav.who)}</span>'
        f'<form class="inline" method="post" action="/ui/logout">{_csrf_field(nav.csrf)}'
        '<button class="quiet" type="submit">Log out</button></form></nav>'
        "</header>"
    )


def _csrf_field(token: str) -> str:
    return f'<input type="hidden" name="csrf" value="{_e(token)}">'


def _time(ts: float) -> str:
    at = datetime.fromtimestamp(ts, UTC)
    return f'<time datetime="{at.isoformat()}">{at:%Y-%m-%d %H:%M:%S} UTC</time>'


def _size(n: int) -> str:
    if n < 1024:
        return f"{n} B"
    if n < 1024 * 1024:
        return f"{n / 1024:.1f} KiB"
    return f"{n / (1024 * 1024):.1f} MiB"


# --- pages ------------------------------------------------------------------------------


def login_page(nonce: str, *, error: str | None = None, notice: str | None = None) -> str:
    """The login form; the token goes in the POST body only, with the form's CSRF nonce."""
    message = ""
    if error is not None:
        message = f'<p class="error" role="alert">{_e(error)}</p>'
    elif notice is not None:
        message = f'<p class="notice">{_e(notice)}</p>'
    body = (
        '<h1>Log in</h1>\n<div class="card narrow">\n'
        f"{message}\n"
        '<form method="post" action="/ui/login">\n'
        f"{_csrf_field(nonce)}\n"
        '<label for="token">Token</label>\n'
        '<input id="token" name="token" type="password" required autocomplete="off" autocapitalize="off"'
        ' spellcheck="false" maxlength="256" autofocus>\n'
        '<p class="muted">An identity\'s token shows its mail; the admin token can open any identity. '
        "It is exchanged for a session: the token itself never goes in a cookie or a URL.</p>\n"
        '<button type="submit">Log in</button>\n'
        "</form>\n</div>"
    )
    return _document("Log in", body, None)


def error_page(status: int, title: str, detail: str) -> str:
    """A page for a 4xx or 5xx answer: what went wrong and the way back."""
    body = (
        f"<h1>{_e(title)}</h1>\n"
        f'<p class="error">{_e(detail)}</p>\n'
        f'<p><a href="/ui">Back to the start</a> <span class="muted">(HTTP {status})</span></p>'
    )
    return _document(title, body, None)


def identities_page(nav: Nav, identities: Sequence[Identity], *, next_after: str | None, now: float) -> str:
    """The admin's list of identities, each a link to its mail, and a form to open one by address."""
    items = []
    for identity in identities:
        state = ""
        if identity.expired(now):
            state = ' <span class="muted">(expired)</span>'
        elif identity.expires_ts is not None:
            state = f' <span class="muted">expires {_time(identity.expires_ts)}</span>'
        label = f'<div class="muted">{_e(identity.label)}</div>' if identity.label else ""
        items.append(
            '<li><div class="line">'
            f'<a class="addr" href="{_e(messages_url(identity.address))}">{_e(identity.address)}</a>'
            f"<span>created {_time(identity.created_ts)}{state}</span></div>{label}</li>"
        )
    listing = f'<ol class="list">{"".join(items)}</ol>' if items else '<p class="muted">No identities yet.</p>'
    pager = ""
    if next_after is not None:
        more = f"/ui/identities?{urlencode({'after': next_after})}"
        pager = f'<nav class="pager"><span></span><a href="{_e(more)}">More →</a></nav>'
    body = (
        "<h1>Identities</h1>\n"
        '<form class="card" method="post" action="/ui/identities">\n'
        f"{_csrf_field(nav.csrf)}\n"
        '<label for="address">Open an address</label>\n'
        '<div class="row"><input id="address" name="address" type="text" required maxlength="320"'
        ' autocomplete="off" autocapitalize="off" spellcheck="false" placeholder="name@domain">'
        '<button type="submit">Open</button></div>\n'
        "</form>\n"
        f"{_create_form(nav)}\n"
        f"<h2>All identities</h2>\n{listing}\n{pager}"
    )
    return _document("Identities", body, nav)


def _create_form(nav: Nav) -> str:
    """The admin's form for a new identity: POST /v1/identities's fields, all optional."""
    return (
        '<details class="card create"><summary>Create an identity</summary>\n'
        '<form method="post" action="/ui/identities/create">\n'
        f"{_csrf_field(nav.csrf)}\n"
        '<label for="local_part">Local part <span class="muted">(empty for a random one)</span></label>\n'
        '<input id="local_part" name="local_part" type="text" maxlength="64" autocomplete="off"'
        ' autocapitalize="off" spellcheck="false" placeholder="name, without @domain">\n'
        '<label for="label">Label <span class="muted">(optional)</span></label>\n'
        '<input id="label" name="label" type="text" maxlength="200" autocomplete="off">\n'
        '<label for="ttl_seconds">Lifetime in seconds <span class="muted">(empty: never expires)</span></label>\n'
        '<input id="ttl_seconds" name="ttl_seconds" type="number" min="1" step="1" inputmode="numeric">\n'
        '<label class="check"><input name="force" type="checkbox"> Re-create a quarantined name'
        ' <span class="muted">(it still never sees earlier mail)</span></label>\n'
        '<p class="muted">The token is shown once, on the next page only.</p>\n'
        '<button type="submit">Create</button>\n'
        "</form>\n</details>"
    )


def created_page(nav: Nav, identity: Identity, token: str) -> str:
    """A new identity and its token: shown on this page once (only its hash is kept)."""
    expires = _time(identity.expires_ts) if identity.expires_ts is not None else "never"
    label = f"<dt>Label</dt><dd>{_e(identity.label)}</dd>" if identity.label else ""
    body = (
        "<h1>Identity created</h1>\n"
        f'<dl class="meta"><dt>Address</dt><dd><code class="value">{_e(identity.address)}</code></dd>'
        f"<dt>Created</dt><dd>{_time(identity.created_ts)}</dd><dt>Expires</dt><dd>{expires}</dd>{label}</dl>\n"
        "<h2>Token</h2>\n"
        f'<p><code class="value token">{_e(token)}</code></p>\n'
        '<p class="notice">Copy the token now: this is the only time it is shown. Only its hash is kept;'
        " if it is lost, rotate it.</p>\n"
        f'<p><a href="{_e(messages_url(identity.address))}">Open its mail</a> · '
        '<a href="/ui/identities">All identities</a></p>'
    )
    return _document("Identity created", body, nav)


def _values(codes: Sequence[Code], links: Sequence[Link], *, context: bool, big: bool = False) -> str:
    """Codes and links as text to copy: `<code>`, never a link (the mail chose those URLs).

    `big`: the codes in a list of their own, the message page's largest text (no script, so no
    copy button: a click selects the whole value).
    """
    code_rows = []
    for code in codes:
        ctx = _context_and_reason(code.context, code.reason) if context else ""
        code_rows.append(f'<li><span class="muted">code</span> <code class="value">{_e(code.value)}</code>{ctx}</li>')
    link_rows = []
    for link in links:
        ctx = _context_and_reason(link.context, link.reason) if context else ""
        link_rows.append(f'<li><span class="muted">link</span> <code class="value">{_e(link.url)}</code>{ctx}</li>')
    if big:
        shown = f'<ul class="values codes">{"".join(code_rows)}</ul>' if code_rows else ""
        return shown + (f'<ul class="values">{"".join(link_rows)}</ul>' if link_rows else "")
    rows = code_rows + link_rows
    return f'<ul class="values">{"".join(rows)}</ul>' if rows else ""


def messages_page(
    nav: Nav,
    address: str,
    summaries: Sequence[Summary],
    *,
    next_before: str | None,
    paged: bool,
    auto: AutoRefresh = AutoRefresh(),
    q: str | None = None,
    query_error: str | None = None,
    webhooks: Sequence[tuple[Webhook, Sequence[Delivery]]] = (),
) -> str:
    """An identity's messages, newest first: from, subject, received, codes and links as text.

    With `q`, only the mail that search matches (every link of the page keeps it); with
    `query_error`, the search could not be read: the page says why, keeps what was typed in
    the box to fix, and lists nothing. Unread ones (not yet seen by the identity's agent) are
    marked; reading here never marks them.
    """
    items = []
    for s in summaries:
        values = _values(s.codes[:LIST_CODES], s.links[:LIST_CODES], context=False)
        start, unread = ("<li>", "") if s.seen else ('<li class="unread">', '<span class="badge">unread</span> ')
        items.append(
            f"{start}"
            f'<div class="line"><span>{unread}<a class="subject" href="{_e(message_url(address, s.id))}">'
            f"{_e(s.subject or '(no subject)')}</a></span>{_time(s.received_ts)}</div>"
            f'<div class="from muted">{_e(s.from_header or "(no sender)")}</div>'
            f"{values}</li>"
        )
    if query_error is not None:
        listing = f'<p class="error" role="alert">{_e(query_error)}</p>'
    elif items:
        listing = f'<ol class="list">{"".join(items)}</ol>'
    else:
        listing = '<p class="muted">No messages match this search.</p>' if q else '<p class="muted">No messages.</p>'
    newer = f'<a href="{_e(messages_url(address, q=q))}">← Newest</a>' if paged else "<span></span>"
    older = ""
    if next_before is not None:
        older = f'<a href="{_e(messages_url(address, q=q, before=next_before))}">Older →</a>'
    pager = f'<nav class="pager">{newer}{older}</nav>' if paged or next_before is not None else ""
    body = (
        f'<h1 class="addr">{_e(address)}</h1>\n'
        f"{_search_form(address, q)}\n"
        f"{_refresh_bar(address, auto, q)}\n"
        '<p class="muted">Codes and links are text: select one to copy it. "Unread" means its agent has not seen'
        " it yet (a wait or a read with its token); reading here does not mark mail seen.</p>\n"
        f"{listing}\n{pager}\n{_webhooks(webhooks)}{_delete_identity_form(nav, address)}"
    )
    return _document(f"{q} · {address}" if q else address, body, nav)


def _webhooks(webhooks: Sequence[tuple[Webhook, Sequence[Delivery]]]) -> str:
    """The identity's webhooks and their latest deliveries, read-only (they are managed over the API)."""
    if not webhooks:
        return ""
    items = []
    for hook, deliveries in webhooks:
        state = (
            f'<span class="badge">disabled</span> <span class="muted">{_e(hook.disabled_reason or "")}</span>'
            if hook.disabled_ts is not None
            else ""
        )
        rows = "".join(
            f"<li><code>{_e(d.id)}</code> {_e(d.event)} {_e(d.status)}"
            f" · {d.attempts} attempt{'s' if d.attempts != 1 else ''}"
            + (f" · HTTP {d.last_code}" if d.last_code is not None else "")
            + (f' <span class="muted">{_e(d.last_error)}</span>' if d.last_error and d.status != "delivered" else "")
            + f" {_time(d.created_ts)}</li>"
            for d in deliveries
        )
        latest = f'<ul class="values">{rows}</ul>' if rows else '<p class="muted">No deliveries yet.</p>'
        items.append(
            f'<li><div class="line"><code>{_e(hook.url)}</code>{state}</div>'
            f'<div class="muted">{_e(", ".join(hook.events))} · signed {_e(hook.signing)}'
            f"{' · ' + _e(hook.description) if hook.description else ''}</div>{latest}</li>"
        )
    return f'<h2>Webhooks</h2><ol class="list">{"".join(items)}</ol>\n'


def _search_form(address: str, q: str | None) -> str:
    """The search box: a GET form (nothing changes, so no CSRF token), the API's `q` language.

    What was typed comes back in the box, escaped; submitting starts from the newest match
    (no `before`) with auto-refresh off.
    """
    clear = f' <a href="{_e(messages_url(address))}">Clear</a>' if q else ""
    return (
        f'<form class="search" method="get" action="{_e(messages_url(address))}" role="search">'
        '<label for="q">Search</label>'
        f'<div class="row"><input id="q" name="q" type="search" value="{_e(q or "")}" maxlength="{MAX_QUERY_CHARS}"'
        ' autocomplete="off" autocapitalize="off" spellcheck="false"'
        ' placeholder="from:@stripe.com has:attachment receipt">'
        f'<button type="submit">Search</button>{clear}</div>'
        '<p class="muted">Words, "exact phrases", <code>verif*</code>, <code>from:</code> and <code>to:</code>'
        " (an exact address or @domain), <code>subject:</code>, <code>filename:</code>,"
        " <code>has:attachment</code>, <code>is:unseen</code>, <code>after:2026-12-01</code>,"
        " <code>-word</code> to exclude, <code>OR</code>.</p></form>"
    )


def _refresh_bar(address: str, auto: AutoRefresh, q: str | None = None) -> str:
    """A Refresh link and the auto-refresh choices (links: a GET, no form, no script); a search is kept."""
    refresh = messages_url(address, q=q, refresh=auto.every if auto.until is not None else None)
    current = ' aria-current="true"'
    off = auto.every is None or auto.stopped
    choices = [f'<a href="{_e(messages_url(address, q=q))}"{current if off else ""}>off</a>']
    choices += [
        f'<a href="{_e(messages_url(address, q=q, refresh=n))}"{current if n == auto.every and not off else ""}>'
        f"{n} s</a>"
        for n in REFRESH_CHOICES
    ]
    note = ""
    if auto.stopped:
        note = '<p class="notice">Auto-refresh stopped after an hour; turn it on again to go on.</p>'
    elif auto.every is not None and auto.until is not None:
        note = f'<p class="muted">This list reloads every {auto.every} s until {_time(auto.until)}.</p>'
    return (
        f'<nav class="refresh" aria-label="Refresh"><a class="button" href="{_e(refresh)}">Refresh</a>'
        f'<span class="muted">Auto-refresh:</span> {" · ".join(choices)}</nav>{note}'
    )


def _delete_identity_form(nav: Nav, address: str) -> str:
    """The admin's form to delete the identity; a ticked box confirms (no script to ask)."""
    if not nav.admin:
        return ""
    return (
        f'<form class="card danger" method="post" action="{_e(identity_delete_url(address))}">'
        f"{_csrf_field(nav.csrf)}<h2>Delete this identity</h2>"
        '<p class="muted">Its token stops working, its sessions end, and its name is quarantined;'
        " its mail stays in the mailbox until retention.</p>"
        '<label class="check"><input name="confirm" type="checkbox" required> Yes, delete'
        f" {_e(address)}</label>"
        '<button class="danger" type="submit">Delete identity</button></form>'
    )


@dataclass(frozen=True, slots=True)
class MessageContent:
    """What the chosen view of a message shows, prepared by the controller."""

    view: MessageViewName
    sanitized: Sanitized | None = None
    """The HTML view: the sanitizer's answer (None when the message has no HTML part)."""
    raw: bytes | None = None
    """The source view: the message as stored."""
    fallback_text: str | None = None
    """Text to show when the message has no text part (or its HTML is refused)."""


def message_page(nav: Nav, address: str, message: FullMessage, content: MessageContent) -> str:
    """One message: its summary, codes and links, one view (text by default), attachments."""
    s, p = message.summary, message.parsed
    meta = [("From", p.from_header or s.from_header), ("To", ", ".join(p.to)), ("Cc", ", ".join(p.cc))]
    rows = "".join(f"<dt>{name}</dt><dd>{_e(value)}</dd>" for name, value in meta if value)
    if p.date is not None:
        rows += f"<dt>Date</dt><dd>{_e(p.date.isoformat())}</dd>"
    rows += f"<dt>Received</dt><dd>{_time(s.received_ts)}</dd><dt>Size</dt><dd>{_size(s.size)}</dd>"
    values = _values(s.codes, s.links, context=True, big=True)
    found = f"<h2>Codes and links</h2>{values}" if values else ""
    current = ' aria-current="page"'
    tabs = "".join(
        f'<a href="{_e(message_url(address, s.id, v))}"{current if v == content.view else ""}>{_VIEW_LABELS[v]}</a>'
        for v in MESSAGE_VIEWS
    )
    cut = '<p class="notice">Parts of this message were cut at the gateway\'s limits.</p>' if p.truncated else ""
    back = f'<a href="{_e(messages_url(address))}">← {_e(address)}</a>'
    if s.thread_id is not None:
        back += f' · <a href="{_e(thread_url(address, s.thread_id))}">View the thread</a>'
    sent = '<span class="badge">sent</span> ' if s.direction == "sent" else ""
    body = (
        f"<p>{back}</p>\n"
        f"<h1>{sent}{_e(s.subject or '(no subject)')}</h1>\n"
        f'<dl class="meta">{rows}</dl>\n{cut}{_deliveries(message)}{found}\n'
        f'<nav class="tabs" aria-label="Views">{tabs}</nav>\n'
        f"<section>{_view_body(message, content)}</section>\n"
        f"{_attachments(address, message)}\n"
        f'<form class="delete" method="post" action="{_e(message_delete_url(address, s.id))}">'
        f'{_csrf_field(nav.csrf)}<button class="danger" type="submit">Delete message</button>'
        ' <span class="muted">Hides it from this identity, as the API\'s DELETE does.</span></form>'
    )
    return _document(s.subject or "(no subject)", body, nav)


def _deliveries(message: FullMessage) -> str:
    """Where each recipient of a sent message stands (nothing for received mail)."""
    if not message.deliveries:
        return ""
    rows = "".join(
        f"<li><code>{_e(d.address)}</code> {_e(d.status)}"
        + (f' <span class="muted">{_e(d.detail)}</span>' if d.detail else "")
        + "</li>"
        for d in message.deliveries
    )
    return f'<h2>Delivery</h2><ul class="values">{rows}</ul>'


def thread_page(nav: Nav, address: str, thread: ThreadSummary, messages: Sequence[Summary]) -> str:
    """One thread of an identity: its messages oldest first, the ones it sent marked."""
    items = []
    for s in messages:
        mark = '<span class="badge">sent</span> ' if s.direction == "sent" else ""
        items.append(
            f'<li><div class="line"><span>{mark}<a class="subject" href="{_e(message_url(address, s.id))}">'
            f"{_e(s.subject or '(no subject)')}</a></span>{_time(s.received_ts)}</div>"
            f'<div class="from muted">{_e(s.from_header or "(no sender)")}</div></li>'
        )
    people = ", ".join(thread.participants)
    body = (
        f'<p><a href="{_e(messages_url(address))}">← {_e(address)}</a></p>\n'
        f"<h1>{_e(thread.subject or '(no subject)')}</h1>\n"
        f'<p class="muted">{thread.message_count} messages between {_e(people)}</p>\n'
        f'<ol class="list">{"".join(items)}</ol>'
    )
    return _document(thread.subject or "(no subject)", body, nav)


def _view_body(message: FullMessage, content: MessageContent) -> str:
    p = message.parsed
    if content.view == "headers":
        rows = "".join(f'<tr><th scope="row">{_e(h.name)}</th><td>{_e(h.value)}</td></tr>' for h in p.headers)
        return f'<table class="headers">{rows}</table>'
    if content.view == "raw":
        raw = content.raw or b""
        note = ""
        if len(raw) > MAX_SHOWN_CHARS:
            note = f'<p class="notice">Showing the first {_size(MAX_SHOWN_CHARS)} of {_size(len(raw))}.</p>'
        # Bytes that are not UTF-8 show as U+FFFD: this is for reading, GET …/raw has the exact bytes.
        return f'{note}<pre class="body">{_e(raw[:MAX_SHOWN_CHARS].decode("utf-8", "replace"))}</pre>'
    if content.view == "html":
        return _html_view(message, content)
    return _text(p.text, content.fallback_text, has_html=p.html is not None)


def _text(text: str, fallback: str | None, *, has_html: bool) -> str:
    note = ""
    if not text.strip() and fallback:
        text = fallback
        note = '<p class="notice">This message has no plain-text part: this is the text of its HTML part.</p>'
    if not text.strip():
        hint = " See the HTML view." if has_html else ""
        return f'<p class="muted">This message has no text.{hint}</p>'
    if len(text) > MAX_SHOWN_CHARS:
        note += f'<p class="notice">Showing the first {MAX_SHOWN_CHARS:,} of {len(text):,} characters.</p>'
    return f'{note}<pre class="body">{_e(text[:MAX_SHOWN_CHARS])}</pre>'


def _html_view(message: FullMessage, content: MessageContent) -> str:
    sanitized = content.sanitized
    if sanitized is None:
        return '<p class="muted">This message has no HTML part.</p>'
    if sanitized.refused is not None or not sanitized.html:
        reason = sanitized.refused or "Nothing of this HTML part is left once made safe to show."
        return (
            f'<p class="notice">{_e(reason)} The text of the message follows.</p>'
            f"{_text(message.parsed.text, content.fallback_text, has_html=False)}"
        )
    blocked = ""
    if sanitized.blocked:
        urls = "".join(f'<li><code class="value">{_e(url)}</code></li>' for url in sanitized.blocked)
        count = len(sanitized.blocked)
        blocked = (
            f'<details class="notice"><summary>{count} remote image{"s" if count != 1 else ""} blocked'
            f'</summary><ul class="values">{urls}</ul></details>'
        )
    # An empty sandbox grants nothing: no scripts, forms, popups, navigation or same origin.
    return (
        f"{blocked}"
        '<iframe class="mail" sandbox="" title="The message\'s HTML, sanitized"'
        f' srcdoc="{_e(_FRAME_HEAD + sanitized.html)}">'
        "</iframe>"
    )


def _attachments(address: str, message: FullMessage) -> str:
    """The attachments: name, declared type and size, each a download link to our own route.

    The name is the gateway's safe one (or the name its download gets); the type shown is the
    sender's, the type served may be `application/octet-stream` (see mail.attachments).
    """
    attachments = message.parsed.attachments
    if not attachments:
        return ""
    rows = []
    for a in attachments:
        name = a.filename or (fallback_filename(a.attachment_id, a.content_type) if a.attachment_id else "(no name)")
        shown = f'<span class="subject">{_e(name)}</span>'
        if a.attachment_id:
            url = attachment_url(address, message.summary.id, a.attachment_id)
            shown = f'<a class="subject" href="{_e(url)}">{_e(name)}</a>'
        rows.append(
            f"<li>{shown} "
            f'<span class="muted">{_e(a.content_type)}</span> <span class="size">{_size(a.size)}</span></li>'
        )
    more = ""
    if message.attachments_truncated:
        more = '<p class="notice">The message has more attachments than the gateway lists; its source has all.</p>'
    return (
        '<h2>Attachments</h2><p class="muted">A click downloads the file: it is never opened in the page.</p>'
        f'<ul class="values attachments">{"".join(rows)}</ul>{more}'
    )


def _context_and_reason(context: str, reason: str) -> str:
    """The words around a code or link, and why the gateway reports it (rows indexed before reasons have none)."""
    shown = f'<span class="context">{_e(context)}</span>' if context else ""
    return shown + (f'<span class="reason">{_e(reason)}</span>' if reason else "")
