"""The blocking client: :class:`Gateway` and its :class:`Identity` handles, over `httpx.Client`."""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Generator, Iterable, Mapping
from datetime import datetime, timedelta
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Literal, Self, TypeVar

from gateway import wire
from gateway.client import plans
from gateway.client.errors import AuthError, NotFound
from gateway.client.handle import (
    AttachmentLike,
    Download,
    IdentityState,
    forward_body,
    no_reply,
    reply_body,
    resolve_token,
    resolve_url,
    send_body,
    ttl_seconds,
    webhook_body,
    where,
)
from gateway.client.plans import WAIT_SEGMENT_SECONDS, Call, Pause, Plan, Policy, Reply
from gateway.client.streams import STREAM_READ_SECONDS, EventStream, StreamEvent

if TYPE_CHECKING:  # httpx is imported by the first client made: `import` stays fast
    import httpx

# `__tracebackhide__`: pytest shows a failed wait at the caller's line, not the client's insides.

__all__ = ["Gateway", "Identity"]

T = TypeVar("T")


class Gateway:
    """A client of one agentmail gateway.

    `url` defaults to AGENTMAIL_URL (else http://127.0.0.1:8025), `token` to AGENTMAIL_TOKEN: a
    provisioner token (or the admin's) that creates identities. Each identity's mail is then read
    with its own token, through the :class:`Identity` handle :meth:`create_identity` returns.
    Calls answered 429 or 503 are retried after `Retry-After` for up to `retry_for` seconds;
    waits are re-armed every `wait_segment` seconds, below any proxy's idle timeout.

        with Gateway() as gw, gw.create_identity() as me:
            signup(email=me.address)
            code = me.wait_for_code(timeout=60)
    """

    def __init__(
        self,
        url: str | None = None,
        token: str | None = None,
        *,
        timeout: float = 10.0,
        retry_for: float = 30.0,
        wait_segment: float = WAIT_SEGMENT_SECONDS,
        http: httpx.Client | None = None,
    ) -> None:
        self.url = resolve_url(url)
        self._token = resolve_token(token)
        self._timeout = timeout
        self._owns_http = http is None
        import httpx

        self._http = http if http is not None else httpx.Client(base_url=self.url, timeout=timeout)
        self._policy = Policy(where(self.url), time.monotonic, retry_for=retry_for, wait_segment=wait_segment)

    def __repr__(self) -> str:
        return f"Gateway({self._policy.where!r})"

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the connections (a client passed in as `http` stays open)."""
        if self._owns_http:
            self._http.close()

    def run(self, plan: Plan[T]) -> T:
        """Carry out a plan: send its requests, sleep its pauses, return what it returns."""
        __tracebackhide__ = True
        try:
            step = next(plan)
            while True:
                if isinstance(step, Pause):
                    time.sleep(step.seconds)
                    step = plan.send(None)
                else:
                    step = plan.send(self._send(step))
        except StopIteration as done:
            return done.value  # type: ignore[no-any-return]
        finally:
            plan.close()

    def _send(self, call: Call) -> Reply | plans.NoReply:
        import httpx

        # httpx.Headers, not a dict: its repr masks Authorization (tracebacks with locals, pytest -l).
        headers = httpx.Headers({"Authorization": f"Bearer {call.token}"} if call.token else None)
        if call.body is not None:
            headers["Content-Type"] = "application/json"

        extensions = None
        if call.read_timeout is not None:
            extensions = {"timeout": httpx.Timeout(self._timeout, read=call.read_timeout).as_dict()}
        request = self._http.build_request(
            call.method, call.path, params=call.params, content=call.body, headers=headers, extensions=extensions
        )
        try:
            response = self._http.send(request, stream=call.save_to is not None)
            try:
                if call.save_to is not None and 200 <= response.status_code < 300:
                    download = Download(call.save_to)
                    try:
                        for chunk in response.iter_bytes():
                            download.write(chunk)
                    except BaseException:
                        download.discard()
                        raise
                    download.finish()
                    return Reply(response.status_code, b"", response.headers.get("retry-after"))
                content = response.read()
            finally:
                response.close()
        except httpx.RequestError as exc:  # its text can carry the request: only `where` is ever said
            return no_reply(exc)
        return Reply(response.status_code, content, response.headers.get("retry-after"))

    def _stream(self, stream: EventStream) -> Generator[StreamEvent, None, None]:
        """Carry out an event stream: connect, hand out its events, reconnect after a pause when it drops."""
        import httpx

        while True:
            ask = stream.request()
            timeout = httpx.Timeout(self._timeout, read=STREAM_READ_SECONDS)
            try:
                with self._http.stream(
                    "GET", ask.path, params=ask.params, headers=httpx.Headers(ask.headers), timeout=timeout
                ) as response:
                    if response.status_code != 200:
                        content = response.read()
                        pause = stream.refused(
                            Reply(response.status_code, content, response.headers.get("retry-after"))
                        )
                    else:
                        stream.opened(response.headers.get("content-type"))
                        for line in response.iter_lines():
                            event = stream.line(line)
                            if event is not None:
                                yield event
                        pause = stream.dropped()  # it ended (a restart, a rebuild): resume
            except httpx.TransportError:  # refused, cut, or silent past the keep-alives
                pause = stream.dropped()
            time.sleep(pause)

    def events(self, *, last_event_id: str | None = None, q: str | None = None) -> Generator[StreamEvent, None, None]:
        """New mail of every identity this token manages (a provisioner: its own; the admin: all), as it arrives.

        An endless iterator of :class:`StreamEvent`, in the gateway's order: from now on, or after
        the event `last_event_id` (an earlier event's `id`: what arrived since comes first). A
        dropped connection is resumed after the last event handed out, none skipped and none
        twice, pausing longer each time (up to 30 s). `q`: only mail matching this search.
        Raises AuthError (an identity token: use :meth:`Identity.events`), NotFound (an unknown
        `last_event_id`), InvalidRequest (a bad `q`); Unreachable when the first connection
        cannot be made within `retry_for`.
        """
        return self._stream(EventStream(self._policy, "/v1/events", self._token, last_event_id=last_event_id, q=q))

    def create_identity(
        self,
        local_part: str | None = None,
        *,
        ttl: float | timedelta | None = None,
        label: str | None = None,
        force: bool = False,
        send: wire.SendScope | None = None,
    ) -> Identity:
        """A new identity (a random name when `local_part` is None), living `ttl` seconds if given.

        `send`: whom it may send mail to: `none`, `local` (the gateway's own domain; the default)
        or `any` (the admin, or a provisioner token allowed to, only).

        The handle deletes it when used as a context manager (`with gw.create_identity() as me:`).
        """
        made = self.run(
            plans.create_identity(self._policy, self._token, local_part, ttl_seconds(ttl), label, force, send)
        )
        return Identity(
            self,
            made.address,
            made.token,
            created_at=made.created_at,
            expires_at=made.expires_at,
            label=made.label,
            send=made.send,
        )

    def identity(self, address: str, token: str) -> Identity:
        """A handle on an identity that already exists (its address and its own token)."""
        return Identity(self, address, token)

    def identities(self) -> list[wire.IdentityInfo]:
        """Every identity this token may manage (a provisioner's own; all of them for the admin)."""
        return self.run(plans.list_identities(self._policy, self._token))

    def delete_identity(self, address: str) -> None:
        """Delete an identity; its name is quarantined and it never sees mail again."""
        self.run(plans.perform(self._policy, Call("DELETE", plans.identity_path(address), self._token)))

    def api_tokens(self) -> list[wire.ApiToken]:
        """The provisioner tokens' records (admin only: others get AuthError)."""
        return self.run(plans.request(self._policy, Call("GET", "/v1/tokens", self._token), list[wire.ApiToken]))

    def is_admin(self) -> bool:
        """Whether this client's token is the gateway's admin token (False for a provisioner's or none)."""
        try:
            self.api_tokens()
        except AuthError:  # only the admin may list API tokens
            return False
        return True

    def create_webhook(
        self,
        url: str,
        *,
        events: wire.EventType | Iterable[wire.EventType] | None = None,
        description: str | None = None,
        signing: Literal["v1", "v1a"] = "v1",
    ) -> wire.CreatedWebhook:
        """A webhook for every identity this token may manage (a provisioner's own; all of them for the admin).

        `events`: which of `message.received` (the default), `message.sent`, `message.delivery_failed`.
        `signing`: `v1` (HMAC-SHA256, the answer's `secret` is what the receiver verifies with) or
        `v1a` (Ed25519: the receiver verifies with `public_key`). The secret is shown this once.
        Calls are signed as Standard Webhooks specifies; `gateway.client.verify_webhook` checks them.
        """
        body = webhook_body(url, events=events, description=description, signing=signing)
        return self.run(plans.create_webhook(self._policy, self._token, None, body))

    def webhooks(self) -> list[wire.WebhookInfo]:
        """Every webhook this token may manage (never their secrets)."""
        return self.run(plans.list_webhooks(self._policy, self._token, None))

    def webhook(self, webhook_id: str) -> wire.WebhookInfo:
        """One webhook: its URL, events, and whether it is failing or disabled (and why)."""
        return self.run(plans.get_webhook(self._policy, self._token, webhook_id))

    def delete_webhook(self, webhook_id: str) -> None:
        """Delete a webhook: nothing more is sent to it, queued deliveries included."""
        self.run(plans.delete_webhook(self._policy, self._token, webhook_id))

    def rotate_webhook_secret(self, webhook_id: str, *, grace_seconds: int = 86400) -> wire.RotatedSecret:
        """A new secret for a webhook; the old one signs beside it for `grace_seconds` (both signatures are sent)."""
        return self.run(plans.rotate_webhook_secret(self._policy, self._token, webhook_id, grace_seconds))

    def webhook_deliveries(
        self, webhook_id: str, *, limit: int = 50, before_id: str | None = None
    ) -> wire.DeliveryPage:
        """A page of a webhook's delivery log, newest first; pass its `next_before_id` as `before_id` for the next."""
        return self.run(plans.list_deliveries(self._policy, self._token, webhook_id, limit=limit, before_id=before_id))

    def webhook_delivery(self, webhook_id: str, delivery_id: str) -> wire.DeliveryDetail:
        """One delivery: every attempt (status code, latency, the start of the answer) and the payload."""
        return self.run(plans.get_delivery(self._policy, self._token, webhook_id, delivery_id))

    def retry_webhook_delivery(self, webhook_id: str, delivery_id: str) -> wire.WebhookDelivery:
        """Send a delivery again now (a disabled webhook is enabled again)."""
        return self.run(plans.retry_delivery(self._policy, self._token, webhook_id, delivery_id))


class Identity(IdentityState):
    """One identity: its `address`, its own `token`, and its mail.

    A context manager: leaving the `with` block deletes the identity (already gone is fine).
    `repr` and `str` never show the token.
    """

    def __init__(
        self,
        gateway: Gateway,
        address: str,
        token: str,
        *,
        created_at: datetime | None = None,
        expires_at: datetime | None = None,
        label: str | None = None,
        send: wire.SendScope | None = None,
    ) -> None:
        super().__init__(address, token, created_at=created_at, expires_at=expires_at, label=label, send=send)
        self.gateway = gateway

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        with contextlib.suppress(NotFound):
            self.delete()

    def messages(
        self,
        *,
        limit: int = 50,
        sender: str | None = None,
        subject: str | None = None,
        since: datetime | None = None,
        direction: plans.Direction | None = None,
    ) -> list[wire.Summary]:
        """Newest first; `sender` and `subject` match parts of those headers, `since` is a receipt time.

        `direction`: `received` (the default), `sent` (copies of mail this identity sent) or `all`.
        """
        gw = self.gateway
        return gw.run(
            plans.list_messages(
                gw._policy,
                self.address,
                self._secret,
                limit=limit,
                sender=sender,
                subject=subject,
                since=since,
                direction=direction,
            )
        )

    def get(self, message_id: str) -> wire.Message:
        """One whole message (marks it seen)."""
        call = Call("GET", plans.message_path(self.address, message_id), self._secret)
        return self.gateway.run(plans.request(self.gateway._policy, call, wire.Message))

    def raw(self, message_id: str) -> bytes:
        """The message exactly as the mailbox holds it (RFC 5322 bytes)."""
        call = Call("GET", plans.message_path(self.address, message_id) + "/raw", self._secret)
        return self.gateway.run(plans.perform(self.gateway._policy, call))

    def search(self, query: str, *, limit: int = 50, before_id: str | None = None) -> wire.MessagePage:
        """The messages matching `query`, newest first: a page of summaries and the `next_before_id` of the next.

        The language: words and "phrases" (subject and text), `from:` / `to:` an exact address
        or `@domain`, `subject:`, `filename:`, `has:attachment|code|link`, `is:seen|unseen`,
        `before:` / `after:` a date or ISO instant, `-` to negate, `OR` between terms (AND is
        implied). A query the gateway cannot read raises InvalidRequest naming the term.
        """
        gw = self.gateway
        return gw.run(
            plans.search_messages(gw._policy, self.address, self._secret, query, limit=limit, before_id=before_id)
        )

    def attachment(self, message_id: str, attachment_id: str) -> bytes:
        """One attachment's decoded bytes (its `attachment_id` is in the message's `attachments`)."""
        call = Call("GET", plans.attachment_path(self.address, message_id, attachment_id), self._secret)
        return self.gateway.run(plans.perform(self.gateway._policy, call))

    def save_attachment(self, message_id: str, attachment_id: str, path: str | os.PathLike[str]) -> Path:
        """Stream one attachment into the file `path` (replaced once whole, mode 0600); returns the path."""
        where = Path(path)
        call = Call(
            "GET", plans.attachment_path(self.address, message_id, attachment_id), self._secret, save_to=str(where)
        )
        self.gateway.run(plans.save(self.gateway._policy, call))
        return where

    def attachment_text(self, message_id: str, attachment_id: str) -> wire.AttachmentText:
        """The text of a text-like attachment (text/*, CSV, JSON, calendar), capped: `truncated` says so."""
        path = plans.attachment_path(self.address, message_id, attachment_id) + "/text"
        call = Call("GET", path, self._secret)
        return self.gateway.run(plans.request(self.gateway._policy, call, wire.AttachmentText))

    def delete_message(self, message_id: str) -> None:
        """Hide one message from this identity."""
        call = Call("DELETE", plans.message_path(self.address, message_id), self._secret)
        self.gateway.run(plans.perform(self.gateway._policy, call))

    def send(
        self,
        to: str | Iterable[str],
        *,
        subject: str = "",
        text: str | None = None,
        html: str | None = None,
        cc: str | Iterable[str] = (),
        bcc: str | Iterable[str] = (),
        attachments: Iterable[AttachmentLike] = (),
        reply_to: str | None = None,
        headers: Mapping[str, str] | None = None,
        from_name: str | None = None,
    ) -> wire.SendResult:
        """Send a new mail from this identity to `to` (one address or several); a `text` or `html` body is needed.

        `attachments`: :class:`File` values or `(filename, bytes[, content_type])` tuples.
        `headers`: extra `X-*` fields. Whom it may reach is the identity's send scope (`local`:
        only the gateway's own domain). Raises InvalidRequest (422: a refused recipient, with
        nothing sent to anyone, or a bad field; 413: too large) and RateLimited (429, with
        `retry_after`).
        """
        body = send_body(
            to,
            subject=subject,
            text=text,
            html=html,
            cc=cc,
            bcc=bcc,
            attachments=attachments,
            reply_to=reply_to,
            headers=headers,
            from_name=from_name,
        )
        gw = self.gateway
        return gw.run(plans.send_message(gw._policy, self.address, self._secret, body))

    def reply(
        self,
        message_id: str,
        *,
        text: str | None = None,
        html: str | None = None,
        all: bool = False,
        attachments: Iterable[AttachmentLike] = (),
        from_name: str | None = None,
    ) -> wire.SendResult:
        """Answer one of this identity's messages (received or sent): to its sender (or Reply-To).

        With `all`, to its other recipients too (never this identity). The gateway sets
        `In-Reply-To`, `References` and `Re:`, and quotes the original below `text`.
        """
        body = reply_body(text=text, html=html, all=all, attachments=attachments, from_name=from_name)
        gw = self.gateway
        return gw.run(plans.reply_to_message(gw._policy, self.address, self._secret, message_id, body))

    def forward(
        self,
        message_id: str,
        to: str | Iterable[str],
        *,
        cc: str | Iterable[str] = (),
        bcc: str | Iterable[str] = (),
        text: str | None = None,
        from_name: str | None = None,
    ) -> wire.SendResult:
        """Forward one of this identity's messages to `to`, with `text` as a note above it and its attachments kept."""
        body = forward_body(to, cc=cc, bcc=bcc, text=text, from_name=from_name)
        gw = self.gateway
        return gw.run(plans.forward_message(gw._policy, self.address, self._secret, message_id, body))

    def threads(self, *, limit: int = 50) -> list[wire.ThreadSummary]:
        """This identity's latest `limit` threads, latest activity first (subject, participants, counts)."""
        gw = self.gateway
        return gw.run(plans.list_threads(gw._policy, self.address, self._secret, limit=limit))

    def thread(self, thread_id: str) -> wire.Thread:
        """One thread: its messages oldest first, sent and received (summaries; `get` reads one whole)."""
        gw = self.gateway
        return gw.run(plans.get_thread(gw._policy, self.address, self._secret, thread_id))

    def next_message(
        self,
        timeout: float = 120.0,
        *,
        sender: str | None = None,
        subject: str | None = None,
        since: datetime | None = None,
        q: str | None = None,
    ) -> wire.Message | None:
        """The oldest unseen matching message (marked seen), waiting up to `timeout` s; None if none came.

        `q`: only mail matching this search (the language of :meth:`search`).
        """
        __tracebackhide__ = True
        gw = self.gateway
        return gw.run(
            plans.next_message(
                gw._policy,
                self.address,
                self._secret,
                timeout=timeout,
                sender=sender,
                subject=subject,
                since=since,
                q=q,
            )
        )

    def wait(
        self,
        timeout: float = 120.0,
        *,
        sender: str | None = None,
        subject: str | None = None,
        since: datetime | None = None,
        q: str | None = None,
    ) -> wire.Message:
        """The oldest unseen matching message (marked seen), waiting up to `timeout` s.

        Mail that arrived before the call counts. `q` narrows it to mail matching a search (the
        language of :meth:`search`). Raises :class:`WaitTimeout`, whose message lists what did
        arrive, when nothing matching comes in time.
        """
        __tracebackhide__ = True
        return self._wait_for(lambda m: m, "", timeout, sender, subject, since, q)

    def wait_for_code(
        self,
        timeout: float = 120.0,
        *,
        sender: str | None = None,
        subject: str | None = None,
        since: datetime | None = None,
        q: str | None = None,
    ) -> str:
        """The one-time code of the first matching message that has one, as it is typed ("482913")."""
        __tracebackhide__ = True
        return self._wait_for(plans.first_code, " with a code", timeout, sender, subject, since, q)

    def wait_for_link(
        self,
        timeout: float = 120.0,
        *,
        contains: str | None = None,
        sender: str | None = None,
        subject: str | None = None,
        since: datetime | None = None,
        q: str | None = None,
    ) -> str:
        """The best verification link of the first matching message (one whose URL has `contains`, if given)."""
        __tracebackhide__ = True
        wanted = " with a link" + (f" containing {contains!r}" if contains else "")
        return self._wait_for(plans.link_containing(contains), wanted, timeout, sender, subject, since, q)

    def _wait_for(
        self,
        pick: plans.Picker[T],
        wanted: str,
        timeout: float,
        sender: str | None,
        subject: str | None,
        since: datetime | None,
        q: str | None,
    ) -> T:
        __tracebackhide__ = True
        gw = self.gateway
        plan = plans.wait_for(
            gw._policy,
            self.address,
            self._secret,
            pick,
            wanted,
            timeout=timeout,
            sender=sender,
            subject=subject,
            since=since,
            q=q,
        )
        return gw.run(plan)

    def create_webhook(
        self,
        url: str,
        *,
        events: wire.EventType | Iterable[wire.EventType] | None = None,
        description: str | None = None,
        signing: Literal["v1", "v1a"] = "v1",
    ) -> wire.CreatedWebhook:
        """A webhook for this identity's events, created with its own token; the secret is shown this once.

        `events`: which of `message.received` (the default), `message.sent`, `message.delivery_failed`.
        `signing`: `v1` (HMAC-SHA256 with the answer's `secret`) or `v1a` (Ed25519: the receiver
        verifies with `public_key`). The gateway's other webhook calls (log, rotation) take its id.
        """
        body = webhook_body(url, events=events, description=description, signing=signing)
        gw = self.gateway
        return gw.run(plans.create_webhook(gw._policy, self._secret, self.address, body))

    def webhooks(self) -> list[wire.WebhookInfo]:
        """This identity's webhooks (never their secrets)."""
        gw = self.gateway
        return gw.run(plans.list_webhooks(gw._policy, self._secret, self.address))

    def delete_webhook(self, webhook_id: str) -> None:
        """Delete one of this identity's webhooks."""
        gw = self.gateway
        gw.run(plans.delete_webhook(gw._policy, self._secret, webhook_id, self.address))

    def events(self, *, last_event_id: str | None = None, q: str | None = None) -> Generator[StreamEvent, None, None]:
        """This identity's new messages as they arrive: an endless iterator of :class:`StreamEvent`.

        From now on, or after the message `last_event_id` (an earlier event's `id`); a dropped
        connection is resumed after the last event handed out, none skipped and none twice.
        `q`: only mail matching this search. Raises AuthError once the token is rotated or the
        identity deleted.
        """
        gw = self.gateway
        stream = EventStream(
            gw._policy,
            plans.identity_path(self.address) + "/events",
            self._secret,
            address=self.address,
            last_event_id=last_event_id,
            q=q,
        )
        return gw._stream(stream)

    def delete(self) -> None:
        """Delete this identity: with its own token, else (refused: rotated elsewhere) the gateway's."""
        gw = self.gateway
        try:
            gw.run(plans.perform(gw._policy, Call("DELETE", plans.identity_path(self.address), self._secret)))
        except AuthError:
            if not gw._token:
                raise
            gw.delete_identity(self.address)  # NotFound when it is gone already
