"""The gateway's errors: one base, each with a stable `code` and a human `detail`.

An error says what went wrong, never how a protocol answers it: `code` is the stable name
clients match on (the API's `error` field), and an error that passes by itself also says how
long to wait (`retry_after`, seconds). Each protocol maps the classes once: `api/exceptions.py`
to the HTTP statuses shown here (a test keeps this table in step with it; /ui uses the same
statuses), the SMTP intake to its own replies (it raises none of these today).

    class                    code                   HTTP  meaning
    GatewayError             error                  500   (base; never raised itself)
    ├── InvalidInput         invalid_request        400   malformed or invalid input
    │   ├── InvalidName      invalid_local_part     422   a local part that is malformed or reserved
    │   ├── InvalidMail      invalid_mail           422   mail that cannot be built as asked (injection, bad address)
    │   ├── InvalidQuery     invalid_query          400   a search query that cannot be read (points at the term)
    │   ├── RecipientRefused recipient_refused      422   a recipient out of reach (scope, no relay): nothing sent
    │   ├── NotText          not_text               422   the text of an attachment that is not text
    │   └── TargetRefused    webhook_target_refused 422   a webhook URL the SSRF guard refuses (not public, http)
    ├── Unauthorized         unauthorized           401   no token, or one that is unknown, revoked or expired
    ├── Forbidden            forbidden              403   a valid token on a path it may not use
    ├── NotFound             not_found              404   no such identity, message or token
    ├── WaitTimeout          timeout                408   nothing matching arrived before the wait's timeout
    ├── Conflict             conflict               409   the name is taken or quarantined
    ├── TooLarge             too_large              413   a body over the limit
    ├── TooManyWaiters       rate_limited           429   over the open-wait limits (retry after 1 s)
    ├── TooManyAttempts      rate_limited           429   unknown tokens from one client, past a burst
    ├── ClientGone           client_closed_request  499   the client left mid-body or mid-wait (nobody reads the answer)
    ├── SourceUnavailable    mail_unavailable       503   the mailbox (Dovecot) cannot be reached (retry after 5 s)
    ├── StoreUnavailable     store_unavailable      503   the database cannot be reached right now (retry after 5 s)
    ├── IndexRebuilding      index_rebuilding       503   the index is being rebuilt from the mailbox (retry after 5 s)
    └── StoreError           store_error            503   the durable store is unreadable or corrupt (stops start-up)
"""

from __future__ import annotations

__all__ = [
    "ClientGone",
    "Conflict",
    "Forbidden",
    "GatewayError",
    "IndexRebuilding",
    "InvalidInput",
    "InvalidMail",
    "InvalidName",
    "InvalidQuery",
    "NotFound",
    "NotText",
    "RecipientRefused",
    "SourceUnavailable",
    "StoreError",
    "StoreUnavailable",
    "TargetRefused",
    "TooLarge",
    "TooManyAttempts",
    "TooManyWaiters",
    "Unauthorized",
    "WaitTimeout",
]


class GatewayError(Exception):
    """Base of every error the gateway raises on purpose."""

    code: str = "error"
    retry_after: int | None = None
    """Seconds to wait before trying again, on an error that passes by itself; None otherwise."""

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


class InvalidInput(GatewayError):
    """The request is malformed or a value is out of range."""

    code = "invalid_request"


class InvalidName(InvalidInput):
    """A local part that breaks the naming rules or is reserved."""

    code = "invalid_local_part"


class InvalidMail(InvalidInput):
    """Mail to send that cannot be built as asked: never a mangled message instead."""

    code = "invalid_mail"


class InvalidQuery(InvalidInput):
    """A search query that cannot be read; `term` and `position` point at what is wrong."""

    code = "invalid_query"

    def __init__(self, detail: str, *, term: str = "", position: int = 0) -> None:
        super().__init__(detail)
        self.term = term
        self.position = position


class RecipientRefused(InvalidInput):
    """A recipient the sending identity may not reach; nothing was sent to anyone."""

    code = "recipient_refused"

    def __init__(self, detail: str, refused: tuple[tuple[str, str], ...] = ()) -> None:
        super().__init__(detail)
        self.refused = refused
        """(address, reason) of every refused recipient."""


class NotText(InvalidInput):
    """The text of an attachment asked for, and it is not text (a PDF, an image): download it instead."""

    code = "not_text"


class TargetRefused(InvalidInput):
    """A webhook URL the gateway will not call: it (or what its name resolves to) is private,
    loopback, link-local, metadata or otherwise not public, it is http:// outside the allowed
    loopback networks, or it carries a user name or password (SSRF guard, gateway/push/guard.py)."""

    code = "webhook_target_refused"


class Unauthorized(GatewayError):
    """No token, or a token that does not authenticate."""

    code = "unauthorized"


class Forbidden(GatewayError):
    """A valid token used where it has no right."""

    code = "forbidden"


class NotFound(GatewayError):
    """An unknown identity, message or token."""

    code = "not_found"


class WaitTimeout(GatewayError):
    """A wait ended without a matching message."""

    code = "timeout"


class TooManyWaiters(GatewayError):
    """Too many waits or event streams are open (per address or in all)."""

    code = "rate_limited"
    retry_after = 1


class TooManyAttempts(GatewayError):
    """Too many failed attempts (unknown tokens) from one client lately."""

    code = "rate_limited"

    def __init__(self, detail: str, *, retry_after: int = 60) -> None:
        super().__init__(detail)
        self.retry_after = retry_after


class ClientGone(GatewayError):
    """The client disconnected mid-body or while waiting; the answer goes nowhere."""

    code = "client_closed_request"


class Conflict(GatewayError):
    """A name that is already taken or still quarantined."""

    code = "conflict"


class TooLarge(GatewayError):
    """A request or message over its size limit."""

    code = "too_large"


class SourceUnavailable(GatewayError):
    """The mailbox cannot be reached right now; the sync retries on its own."""

    code = "mail_unavailable"
    retry_after = 5


class StoreUnavailable(GatewayError):
    """The database cannot be reached right now; worth retrying shortly."""

    code = "store_unavailable"
    retry_after = 5


class IndexRebuilding(GatewayError):
    """The message index is being rebuilt from the mailbox: reading it now would answer wrong."""

    code = "index_rebuilding"
    retry_after = 5


class StoreError(GatewayError):
    """The durable store cannot be trusted; the gateway refuses to run on it."""

    code = "store_error"
