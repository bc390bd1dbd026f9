"""The client's webhook management (gateway/client/plans.py and its twins' methods), driven as pure plans.

The routes are the gateway's `/v1/webhooks` and `/v1/identities/{address}/webhooks`; these tests
check what each call asks for and how each answer is read, with no gateway (end-to-end tests
live beside the routes).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gateway import wire
from gateway.client import Gateway, plans
from gateway.client.errors import AuthError, NotFound, Unavailable
from gateway.client.handle import webhook_body
from gateway.client.plans import Call, Plan, Policy, Reply
from tests.client.test_plans import ADDRESS, TOKEN, Clock, Run, drive, error, policy, summary

CREATED_AT = "2026-12-01T09:30:00Z"


def info(webhook_id: str = "wh_1", **extra: Any) -> dict[str, Any]:
    return {
        "id": webhook_id,
        "url": "https://hooks.example/in",
        "events": ["message.received"],
        "description": None,
        "scope": "identity",
        "address": ADDRESS,
        "signing": "v1",
        "public_key": None,
        "created_at": CREATED_AT,
        "disabled_at": None,
        "disabled_reason": None,
        "failing_since": None,
    } | extra


def delivery(delivery_id: str = "msg_1", **extra: Any) -> dict[str, Any]:
    return {
        "id": delivery_id,
        "webhook_id": "wh_1",
        "event": "message.received",
        "address": ADDRESS,
        "status": "queued",
        "attempts": 1,
        "created_at": CREATED_AT,
        "next_attempt_at": "2026-12-01T09:30:05Z",
        "last_status_code": 503,
        "last_error": None,
        "finished_at": None,
    } | extra


def answer_with(status: int, body: Any) -> Callable[[Call, int], tuple[float, Reply]]:
    return lambda call, n: (0.0, Reply(status, msgspec.json.encode(body)))


def one_call(make: Callable[[Policy], Plan[Any]], status: int, body: Any) -> tuple[Any, Call]:
    clock = Clock()
    result, run = drive(make(policy(clock)), clock, answer_with(status, body))
    ((_, call),) = run.calls
    return result, call


# --- creating --------------------------------------------------------------------------------


@pytest.mark.parametrize(("address", "path"), [(ADDRESS, f"/v1/identities/{ADDRESS}/webhooks"), (None, "/v1/webhooks")])
def test_create_posts_only_what_was_given_and_decodes_the_secret(address: str | None, path: str) -> None:
    body = webhook_body("https://hooks.example/in", events=None, description=None, signing="v1")
    made, call = one_call(
        lambda p: plans.create_webhook(p, TOKEN, address, body), 201, info() | {"secret": "whsec_c2VjcmV0"}
    )
    assert isinstance(made, wire.CreatedWebhook)
    assert (made.id, made.secret, made.events) == ("wh_1", "whsec_c2VjcmV0", ["message.received"])
    assert (call.method, call.path, call.token) == ("POST", path, TOKEN)
    assert call.body is not None
    assert msgspec.json.decode(call.body) == {"url": "https://hooks.example/in"}, "defaults are the gateway's"


def test_create_sends_events_description_and_signing_when_given() -> None:
    body = webhook_body("https://h.example/", events="message.sent", description="ci", signing="v1a")
    _, call = one_call(
        lambda p: plans.create_webhook(p, TOKEN, None, body),
        201,
        info(signing="v1a", public_key="whpk_x") | {"secret": "whsk_y"},
    )
    assert call.body is not None
    assert msgspec.json.decode(call.body) == {
        "url": "https://h.example/",
        "events": ["message.sent"],
        "description": "ci",
        "signing": "v1a",
    }
    assert msgspec.json.decode(call.body, type=wire.WebhookIn) == body, "the gateway reads it back as sent"


@pytest.mark.parametrize(
    "reply",
    [
        Reply(503, error(503, "unavailable", retry_after_sec=1), "1"),
        Reply(502, b"<html>Bad Gateway</html>"),
    ],
)
def test_a_create_that_may_have_happened_is_never_sent_twice(reply: Reply) -> None:
    # A second webhook to the same URL would deliver every event twice.
    clock = Clock()
    body = webhook_body("https://h.example/", events=None, description=None, signing="v1")
    run = Run(clock)
    with pytest.raises(Unavailable):
        drive(plans.create_webhook(policy(clock), TOKEN, ADDRESS, body), clock, lambda c, n: (0.0, reply), run)
    assert len(run.calls) == 1 and not run.pauses


def test_a_rate_limited_create_is_sent_again_after_retry_after() -> None:
    clock = Clock()
    body = webhook_body("https://h.example/", events=None, description=None, signing="v1")
    answers = [
        Reply(429, error(429, "rate_limited", retry_after_sec=2), "2"),
        Reply(201, msgspec.json.encode(info() | {"secret": "whsec_x"})),
    ]
    made, run = drive(plans.create_webhook(policy(clock), TOKEN, None, body), clock, lambda c, n: (0.0, answers[n]))
    assert made.secret == "whsec_x" and [s for _, s in run.pauses] == [2.0]


@pytest.mark.parametrize(
    ("events", "signing", "says"),
    [
        (["message.recieved"], "v1", "'message.recieved' is not an event"),
        ("message.opened", "v1", "is not an event"),
        (None, "v2", "signing is 'v1'"),
    ],
)
def test_a_webhook_body_it_cannot_be_is_refused_before_any_request(events: Any, signing: Any, says: str) -> None:
    with pytest.raises(ValueError, match=says):
        webhook_body("https://h.example/", events=events, description=None, signing=signing)


def test_the_twins_refuse_a_bad_body_before_any_request() -> None:
    # Port 9 (discard) is never asked: the body is checked first.
    with Gateway("http://127.0.0.1:9", TOKEN) as gw:
        with pytest.raises(ValueError, match="is not an event"):
            gw.create_webhook("https://h.example/", events=["nope"])  # type: ignore[list-item]
        with pytest.raises(TypeError, match="url is a str"):
            gw.identity(ADDRESS, TOKEN).create_webhook(b"https://h.example/")  # type: ignore[arg-type]


@settings(max_examples=100, deadline=None)
@given(
    url=st.text(min_size=1, max_size=60),
    events=st.none() | st.lists(st.sampled_from(wire.EVENT_TYPES), min_size=1, max_size=3, unique=True),
    description=st.none() | st.text(max_size=40),
    signing=st.sampled_from(["v1", "v1a"]),
)
def test_an_encoded_webhook_decodes_to_the_same_request(
    url: str, events: list[wire.EventType] | None, description: str | None, signing: str
) -> None:
    body = webhook_body(url, events=events, description=description, signing=signing)
    assert msgspec.json.decode(plans.encode(body), type=wire.WebhookIn) == body


# --- reading, deleting, rotating -------------------------------------------------------------


@pytest.mark.parametrize(("address", "path"), [(ADDRESS, f"/v1/identities/{ADDRESS}/webhooks"), (None, "/v1/webhooks")])
def test_listing_reads_the_webhooks(address: str | None, path: str) -> None:
    found, call = one_call(
        lambda p: plans.list_webhooks(p, TOKEN, address), 200, {"webhooks": [info("a"), info("b", scope="admin")]}
    )
    assert [w.id for w in found] == ["a", "b"] and found[1].scope == "admin"
    assert (call.method, call.path, call.params) == ("GET", path, None)


@pytest.mark.parametrize(
    ("webhook_id", "segment"), [("wh_1", "wh_1"), ("..", "%2E%2E"), ("a/b", "a%2Fb"), ("x?y", "x%3Fy")]
)
def test_a_webhook_id_stays_one_path_segment(webhook_id: str, segment: str) -> None:
    found, call = one_call(lambda p: plans.get_webhook(p, TOKEN, webhook_id), 200, info(webhook_id))
    assert found.id == webhook_id and call.path == f"/v1/webhooks/{segment}"
    clock = Clock()
    _, run = drive(
        plans.delete_webhook(policy(clock), TOKEN, webhook_id, ADDRESS), clock, lambda c, n: (0.0, Reply(204, b""))
    )
    assert [(c.method, c.path) for _, c in run.calls] == [("DELETE", f"/v1/identities/{ADDRESS}/webhooks/{segment}")]


def test_delete_without_an_address_uses_the_global_route_and_retries_after_503() -> None:
    clock = Clock()
    answers = [Reply(503, error(503, "unavailable", retry_after_sec=1), "1"), Reply(204, b"")]
    _, run = drive(plans.delete_webhook(policy(clock), TOKEN, "wh_1"), clock, lambda c, n: (0.0, answers[n]))
    assert [(c.method, c.path) for _, c in run.calls] == [("DELETE", "/v1/webhooks/wh_1")] * 2


def test_an_unknown_webhook_is_not_found_and_another_identitys_is_an_auth_error() -> None:
    clock = Clock()
    with pytest.raises(NotFound):
        drive(plans.get_webhook(policy(clock), TOKEN, "wh_9"), clock, lambda c, n: (0.0, Reply(404, error(404))))
    with pytest.raises(AuthError):
        drive(
            plans.list_webhooks(policy(clock), TOKEN, "other@agents.test"),
            clock,
            lambda c, n: (0.0, Reply(403, error(403))),
        )


def test_rotation_posts_the_grace_and_is_never_asked_twice_after_a_503() -> None:
    until = "2026-12-02T09:30:00Z"
    rotated, call = one_call(
        lambda p: plans.rotate_webhook_secret(p, TOKEN, "wh_1", 3600),
        200,
        {"secret": "whsec_new", "public_key": None, "previous_valid_until": until},
    )
    assert rotated == wire.RotatedSecret("whsec_new", None, datetime(2026, 12, 2, 9, 30, tzinfo=UTC))
    assert (call.method, call.path) == ("POST", "/v1/webhooks/wh_1/rotate")
    assert call.body is not None and msgspec.json.decode(call.body) == {"grace_seconds": 3600}
    _, default_call = one_call(
        lambda p: plans.rotate_webhook_secret(p, TOKEN, "wh_1", 86400),
        200,
        {"secret": "whsec_new", "public_key": None, "previous_valid_until": until},
    )
    assert default_call.body == b"{}", "the default grace is the gateway's"

    clock = Clock()
    run = Run(clock)
    with pytest.raises(Unavailable):
        drive(
            plans.rotate_webhook_secret(policy(clock), TOKEN, "wh_1", 60),
            clock,
            lambda c, n: (0.0, Reply(503, error(503, "unavailable", retry_after_sec=1), "1")),
            run,
        )
    assert len(run.calls) == 1, "a lost rotation's secret cannot be asked for again"


# --- the delivery log ------------------------------------------------------------------------


def test_deliveries_ask_for_the_page_before_a_delivery() -> None:
    page, call = one_call(
        lambda p: plans.list_deliveries(p, TOKEN, "wh_1", limit=20, before_id="msg_3"),
        200,
        {"deliveries": [delivery("msg_2"), delivery("msg_1", status="delivered")], "next_before_id": "msg_1"},
    )
    assert [d.id for d in page.deliveries] == ["msg_2", "msg_1"]
    assert page.next_before_id == "msg_1"
    assert (call.method, call.path) == ("GET", "/v1/webhooks/wh_1/deliveries")
    assert call.params == {"limit": 20, "before_id": "msg_3"}


def test_the_first_page_of_deliveries_names_no_before() -> None:
    _, call = one_call(
        lambda p: plans.list_deliveries(p, TOKEN, "wh_1", limit=50, before_id=None),
        200,
        {"deliveries": [], "next_before_id": None},
    )
    assert call.params == {"limit": 50}


def test_a_limit_below_one_is_refused_before_any_request() -> None:
    clock = Clock()
    with pytest.raises(ValueError, match="at least 1"):
        drive(plans.list_deliveries(policy(clock), TOKEN, "w", limit=0, before_id=None), clock, answer_with(200, {}))


def test_a_delivery_reads_its_attempts_and_payload() -> None:
    payload = msgspec.json.encode(
        {"type": "message.received", "timestamp": CREATED_AT, "address": ADDRESS, "message": summary(1)}
    ).decode()
    attempt = {"at": CREATED_AT, "latency_ms": 12.5, "status_code": 503, "error": None, "response_head": "busy"}
    detail, call = one_call(
        lambda p: plans.get_delivery(p, TOKEN, "wh_1", "msg/1"),
        200,
        delivery("msg/1") | {"attempt_log": [attempt], "payload": payload},
    )
    assert call.path == "/v1/webhooks/wh_1/deliveries/msg%2F1"
    assert detail.attempt_log[0].status_code == 503 and detail.attempt_log[0].response_head == "busy"
    event = msgspec.json.decode(detail.payload, type=wire.MessageEvent)
    assert event.message.id == "m1" and event.address == ADDRESS


def test_a_retry_posts_to_the_delivery_and_reads_the_queued_delivery() -> None:
    queued, call = one_call(
        lambda p: plans.retry_delivery(p, TOKEN, "wh_1", "msg_1"), 202, delivery(status="queued", attempts=7)
    )
    assert (call.method, call.path, call.body) == ("POST", "/v1/webhooks/wh_1/deliveries/msg_1/retry", None)
    assert isinstance(queued, wire.WebhookDelivery) and queued.attempts == 7
