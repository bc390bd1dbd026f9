"""/v1/identities/{address}/webhooks and /v1/webhooks: signed calls to a URL when mail arrives."""

from __future__ import annotations

from typing import Annotated, Any, Final

from litestar import Controller, Request, delete, get, post
from litestar.di import NamedDependency, Provide
from litestar.params import JSONBody, PathParameter, QueryParameter

from gateway import wire
from gateway.api import schemas
from gateway.api.auth import managed_identity
from gateway.api.schemas import error_responses
from gateway.push.webhooks import MAX_DELIVERY_PAGE, Webhooks
from gateway.store import Identity, Principal

__all__ = ["IdentityWebhookController", "WebhookController"]

WEBHOOK_ID: Final = "The webhook's id (`wh_…`)."
DELIVERY_ID: Final = "The delivery's id: the `webhook-id` header the receiver got (`msg_…`)."
EVENTS: Final = (
    "Webhooks are called with a JSON body and the Standard Webhooks headers `webhook-id` (the same on every"
    " retry: the receiver's idempotency key), `webhook-timestamp` and `webhook-signature`; `v1` signatures"
    " are HMAC-SHA256 with the `whsec_…` secret, `v1a` Ed25519 verifiable with `public_key`. Events:"
    " `message.received` and `message.sent` (body `{type, timestamp, address, message}`, the message's"
    " summary as the list route gives it) and `message.delivery_failed` (`{type, timestamp, address,"
    " message_id, recipient, detail}`). A 2xx answer within the timeout is a delivery; anything else is"
    " retried (5 s, 30 s, 2 min, ... for 3 days), one identity's events in order. Targets must be https and"
    " public (private, loopback, link-local and metadata addresses are refused unless the operator allows"
    " them); redirects are not followed."
)

WebhookId = Annotated[str, PathParameter(max_length=64, description=WEBHOOK_ID)]
DeliveryId = Annotated[str, PathParameter(max_length=64, description=DELIVERY_ID)]


class IdentityWebhookController(Controller):
    path = "/v1/identities/{address:str}/webhooks"
    tags = ["webhooks"]
    dependencies = {"identity": Provide(managed_identity)}

    @post(
        "/",
        operation_id="createIdentityWebhook",
        response_description="The webhook and its secret (shown this once).",
        summary="Call a URL when this identity gets mail",
        status_code=201,
        responses=error_responses(403, 404, 409, 422),
    )
    async def create(
        self,
        request: Request[Principal, Any, Any],
        webhooks: NamedDependency[Webhooks],
        identity: NamedDependency[Identity],
        data: JSONBody[wire.WebhookIn],
    ) -> wire.CreatedWebhook:
        """Create a webhook for this identity: `url` (https), `events` (default `["message.received"]`),
        `description`, `signing` (`v1` or `v1a`). The identity's own token, the admin's, or the
        provisioner that created it. The `secret` is in this answer only.

        """
        hook = await webhooks.create(request.user, identity, data)
        return schemas.created_webhook(hook)

    @get(
        "/",
        operation_id="listIdentityWebhooks",
        response_description="The identity's webhooks (without secrets).",
        summary="List this identity's webhooks",
        responses=error_responses(403, 404),
    )
    async def listing(
        self,
        request: Request[Principal, Any, Any],
        webhooks: NamedDependency[Webhooks],
        identity: NamedDependency[Identity],
    ) -> wire.WebhookList:
        """The identity's own webhooks, oldest first (token-wide webhooks are listed at /v1/webhooks)."""
        hooks = await webhooks.listing(request.user, identity)
        return wire.WebhookList([schemas.webhook_info(h) for h in hooks])

    @get(
        "/{webhook_id:str}",
        operation_id="getIdentityWebhook",
        response_description="The webhook (without its secret).",
        summary="Read one of this identity's webhooks",
        responses=error_responses(403, 404),
    )
    async def read(
        self,
        request: Request[Principal, Any, Any],
        webhooks: NamedDependency[Webhooks],
        identity: NamedDependency[Identity],
        webhook_id: WebhookId,
    ) -> wire.WebhookInfo:
        """One of the identity's webhooks, without its secret (a `v1a` one with its public key)."""
        return schemas.webhook_info(await webhooks.get(request.user, webhook_id, identity))

    @delete(
        "/{webhook_id:str}",
        operation_id="deleteIdentityWebhook",
        response_description="Deleted, with its deliveries.",
        summary="Delete one of this identity's webhooks",
        responses=error_responses(403, 404),
    )
    async def remove(
        self,
        request: Request[Principal, Any, Any],
        webhooks: NamedDependency[Webhooks],
        identity: NamedDependency[Identity],
        webhook_id: WebhookId,
    ) -> None:
        """Delete the webhook with its queued deliveries and its log: nothing more is sent to it."""
        await webhooks.delete(request.user, webhook_id, identity)


class WebhookController(Controller):
    path = "/v1/webhooks"
    tags = ["webhooks"]

    @post(
        "/",
        operation_id="createWebhook",
        response_description="The webhook and its secret (shown this once).",
        summary="Call a URL when any identity the token manages gets mail",
        status_code=201,
        responses=error_responses(403, 409, 422),
        description=EVENTS,
    )
    async def create(
        self, request: Request[Principal, Any, Any], webhooks: NamedDependency[Webhooks], data: JSONBody[wire.WebhookIn]
    ) -> wire.CreatedWebhook:
        """A webhook over every identity the token manages: the admin's covers every identity, a
        provisioner's the identities it created (those it creates later too)."""
        return schemas.created_webhook(await webhooks.create(request.user, None, data))

    @get(
        "/",
        operation_id="listWebhooks",
        response_description="Every webhook the token may manage (without secrets).",
        summary="List webhooks",
        responses=error_responses(),
    )
    async def listing(
        self, request: Request[Principal, Any, Any], webhooks: NamedDependency[Webhooks]
    ) -> wire.WebhookList:
        """The admin: every webhook; a provisioner: its own and those of the identities it created;
        an identity: its own."""
        hooks = await webhooks.listing(request.user)
        return wire.WebhookList([schemas.webhook_info(h) for h in hooks])

    @get(
        "/{webhook_id:str}",
        operation_id="getWebhook",
        response_description="The webhook (without its secret); `disabled_reason` says why it stopped.",
        summary="Read a webhook",
        responses=error_responses(404),
    )
    async def read(
        self, request: Request[Principal, Any, Any], webhooks: NamedDependency[Webhooks], webhook_id: WebhookId
    ) -> wire.WebhookInfo:
        """One webhook the token may manage (404 for any other, whether or not it exists)."""
        return schemas.webhook_info(await webhooks.get(request.user, webhook_id))

    @delete(
        "/{webhook_id:str}",
        operation_id="deleteWebhook",
        response_description="Deleted, with its deliveries.",
        summary="Delete a webhook",
        responses=error_responses(404),
    )
    async def remove(
        self, request: Request[Principal, Any, Any], webhooks: NamedDependency[Webhooks], webhook_id: WebhookId
    ) -> None:
        """Delete the webhook with its queued deliveries and its log: nothing more is sent to it."""
        await webhooks.delete(request.user, webhook_id)

    @post(
        "/{webhook_id:str}/rotate",
        operation_id="rotateWebhookSecret",
        response_description="The new secret (shown this once); the old one signs too until `previous_valid_until`.",
        summary="Replace a webhook's secret",
        status_code=200,
        responses=error_responses(404),
    )
    async def rotate(
        self,
        request: Request[Principal, Any, Any],
        webhooks: NamedDependency[Webhooks],
        webhook_id: WebhookId,
        data: JSONBody[wire.RotateSecretIn],
    ) -> wire.RotatedSecret:
        """A new secret (or key pair for `v1a`). For `grace_seconds` (default a day, at most 7 days)
        every call carries two signatures, the new secret's and the old one's, so the receiver can
        switch without losing a call."""
        hook, until = await webhooks.rotate(request.user, webhook_id, data.grace_seconds)
        secret = hook.secret if hook.signing == "v1" else None  # a v1a key pair's private half stays here
        return wire.RotatedSecret(secret, hook.public_key, schemas.time_of(until))

    @get(
        "/{webhook_id:str}/deliveries",
        operation_id="listWebhookDeliveries",
        response_description="Deliveries, newest first.",
        summary="A webhook's delivery log",
        responses=error_responses(404),
    )
    async def deliveries(
        self,
        request: Request[Principal, Any, Any],
        webhooks: NamedDependency[Webhooks],
        webhook_id: WebhookId,
        limit: Annotated[
            int, QueryParameter(ge=1, le=MAX_DELIVERY_PAGE, description="Deliveries per page, 1 to 200.")
        ] = 50,
        before_id: Annotated[
            str | None,
            QueryParameter(
                max_length=64, description="Only deliveries older than this one (the last page's `next_before_id`)."
            ),
        ] = None,
    ) -> wire.DeliveryPage:
        """Each event sent (or being sent) to the webhook, newest first: status, attempts, the last answer's
        code or error. Page with `before_id` (404 when it is no delivery of this webhook)."""
        found = await webhooks.deliveries(request.user, webhook_id, limit=limit + 1, before_id=before_id)
        page = found[:limit]
        more = len(found) > limit
        return wire.DeliveryPage([schemas.webhook_delivery(d) for d in page], page[-1].id if more else None)

    @get(
        "/{webhook_id:str}/deliveries/{delivery_id:str}",
        operation_id="getWebhookDelivery",
        response_description="The delivery, its body and its attempts (newest first).",
        summary="One delivery and its attempts",
        responses=error_responses(404),
    )
    async def delivery(
        self,
        request: Request[Principal, Any, Any],
        webhooks: NamedDependency[Webhooks],
        webhook_id: WebhookId,
        delivery_id: DeliveryId,
    ) -> wire.DeliveryDetail:
        """A delivery with every attempt: when, how long, the status code or error, and the first 1 KB
        of the receiver's answer."""
        view = await webhooks.delivery(request.user, webhook_id, delivery_id)
        return schemas.delivery_detail(view.delivery, view.attempts)

    @post(
        "/{webhook_id:str}/deliveries/{delivery_id:str}/retry",
        operation_id="retryWebhookDelivery",
        response_description="The delivery, queued again.",
        summary="Send a delivery again",
        status_code=202,
        responses=error_responses(404),
    )
    async def retry(
        self,
        request: Request[Principal, Any, Any],
        webhooks: NamedDependency[Webhooks],
        webhook_id: WebhookId,
        delivery_id: DeliveryId,
    ) -> wire.WebhookDelivery:
        """Queue the delivery again, due now, whatever became of it (delivered ones too: same
        `webhook-id`, so the receiver can tell); a disabled webhook is enabled again."""
        return schemas.webhook_delivery(await webhooks.retry(request.user, webhook_id, delivery_id))
