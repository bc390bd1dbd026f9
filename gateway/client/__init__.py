"""The Python client of agentmail-gateway: typed, sync and async twins over httpx.

    from gateway.client import Gateway

    with Gateway() as gw, gw.create_identity() as me:   # AGENTMAIL_URL, AGENTMAIL_TOKEN
        signup(email=me.address)                      # your app mails it
        code = me.wait_for_code(timeout=60)           # "482913"
        me.send("planner@agents.example", subject="Hi", text="Ready.")  # mail from the identity

:class:`Gateway` / :class:`Identity` block; :class:`AsyncGateway` / :class:`AsyncIdentity` are
the same calls, awaited. Answers are the wire structs of :mod:`gateway.wire` (``Message``,
``Summary``, ``MessagePage`` of a search, ``Code``, ``Link``, ``SendResult``, ``Thread``,
``AttachmentText``); ``events()`` streams new mail as :class:`StreamEvent` values, resuming by
itself after a dropped connection; failures are :class:`GatewayError`
subclasses, and a wait that times out raises :class:`WaitTimeout` naming what did arrive.
:class:`File` is a file to attach to a mail sent. Nothing of the server is imported.
The pytest plugin (:mod:`gateway.client.pytest_plugin`) builds on this.
"""

from typing import TYPE_CHECKING, Any

from gateway.client.errors import (
    AuthError,
    BadAnswer,
    Conflict,
    GatewayError,
    InvalidRequest,
    NotFound,
    RateLimited,
    Unavailable,
    Unreachable,
    WaitTimeout,
)
from gateway.client.handle import File
from gateway.client.plans import WAIT_SEGMENT_SECONDS
from gateway.client.streams import StreamEvent
from gateway.client.sync import Gateway, Identity
from gateway.wire import (
    Attachment,
    AttachmentText,
    Code,
    Delivery,
    Header,
    IdentityInfo,
    Link,
    Message,
    MessagePage,
    Rejected,
    SendResult,
    Summary,
    Thread,
    ThreadSummary,
)

if TYPE_CHECKING:
    from gateway.client.aio import AsyncGateway, AsyncIdentity

__all__ = [
    "WAIT_SEGMENT_SECONDS",
    "AsyncGateway",
    "AsyncIdentity",
    "Attachment",
    "AttachmentText",
    "AuthError",
    "BadAnswer",
    "Code",
    "Conflict",
    "Delivery",
    "File",
    "Gateway",
    "GatewayError",
    "Header",
    "Identity",
    "IdentityInfo",
    "InvalidRequest",
    "Link",
    "Message",
    "MessagePage",
    "NotFound",
    "RateLimited",
    "Rejected",
    "SendResult",
    "StreamEvent",
    "Summary",
    "Thread",
    "ThreadSummary",
    "Unavailable",
    "Unreachable",
    "WaitTimeout",
]


def __getattr__(name: str) -> Any:
    # The asyncio twin is imported when first named: a blocking script does not pay for asyncio.
    if name in ("AsyncGateway", "AsyncIdentity"):
        from gateway.client import aio

        return getattr(aio, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
