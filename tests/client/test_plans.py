"""gateway/client/plans.py driven directly: a fake clock, answers made up per request, no I/O."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gateway import wire
from gateway.client import plans
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
from gateway.client.plans import Call, NoReply, Pause, Plan, Policy, Reply

T = TypeVar("T")
ADDRESS = "me@agents.test"
TOKEN = "am_identity-token-for-tests"


@dataclass
class Clock:
    now: float = 1000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Run:
    """What a plan asked for while it ran: each call (with the time it was sent) and each pause."""

    clock: Clock
    calls: list[tuple[float, Call]] = field(default_factory=list)
    pauses: list[tuple[float, float]] = field(default_factory=list)
    """(start, seconds) of each pause."""


def drive(
    plan: Plan[T], clock: Clock, answer: Callable[[Call, int], tuple[float, Reply | NoReply]], run: Run | None = None
) -> tuple[T, Run]:
    """Carry `plan` out as the twins do: `answer(call, n)` gives (seconds it took, what came back)."""
    run = run or Run(clock)
    try:
        step = next(plan)
        while True:
            if isinstance(step, Pause):
                run.pauses.append((clock.now, step.seconds))
                clock.now += step.seconds
                step = plan.send(None)
            else:
                run.calls.append((clock.now, step))
                took, reply = answer(step, len(run.calls) - 1)
                clock.now += took
                step = plan.send(reply)
    except StopIteration as done:
        return done.value, run


def policy(clock: Clock, *, retry_for: float = 30.0, wait_segment: float = plans.WAIT_SEGMENT_SECONDS) -> Policy:
    return Policy("http://gw.test", clock, retry_for=retry_for, wait_segment=wait_segment)


def error(status: int, code: str = "some_error", detail: str = "it went wrong", **extra: Any) -> bytes:
    return msgspec.json.encode({"error": code, "detail": detail, **extra})


def summary(n: int, *, sender: str = "App <noreply@app.example>", subject: str = "Welcome") -> dict[str, Any]:
    return {
        "id": f"m{n}",
        "from": sender,
        "to": [ADDRESS],
        "subject": subject,
        "received_at": datetime(2026, 12, 1, 9, 30, n, tzinfo=UTC).isoformat(),
        "size": 100,
        "seen": False,
        "codes": [],
        "links": [],
    }


def message(n: int, *, code: str | None = None, links: tuple[str, ...] = ()) -> bytes:
    body = summary(n) | {
        "headers": [],
        "text": "hello",
        "html": None,
        "attachments": [],
        "truncated": False,
        "codes": [{"value": code, "context": "code", "source": "text"}] if code else [],
        "links": [{"url": url, "context": "link", "source": "text"} for url in links],
    }
    return msgspec.json.encode(body)


# --- waits ------------------------------------------------------------------------------------


@settings(max_examples=100, deadline=None)
@given(
    timeout=st.floats(min_value=0, max_value=600),
    segment=st.floats(min_value=0.5, max_value=60),
    cut_after=st.none() | st.floats(min_value=0.5, max_value=90),
)
def test_a_wait_never_asks_past_its_segment_or_its_deadline(
    timeout: float, segment: float, cut_after: float | None
) -> None:
    # Every segment times out (408 after its full length), or a proxy cuts it after `cut_after`.
    clock = Clock()
    started = clock.now

    def answer(call: Call, n: int) -> tuple[float, Reply | NoReply]:
        asked = float(call.params["timeout"]) if call.params else 0.0
        if cut_after is not None and cut_after < asked:
            return cut_after, NoReply(cut=True)
        return asked, Reply(408, error(408, "timeout"))

    found, run = drive(
        plans.next_message(policy(clock, wait_segment=segment), ADDRESS, TOKEN, timeout=timeout), clock, answer
    )
    assert found is None
    assert run.calls, "a wait asks at least once, even with timeout 0"
    for sent, call in run.calls:
        assert call.params is not None
        asked = float(call.params["timeout"])
        assert 0 <= asked <= segment + 0.0005  # rounded to the millisecond
        assert sent + asked <= started + timeout + 0.0005, "no segment runs past the deadline"
        assert call.read_timeout is not None and call.read_timeout > asked
    for start, seconds in run.pauses:
        assert start + seconds <= started + timeout + 1e-9
    assert clock.now >= started + timeout - 0.001, "it waited the whole time"


@settings(max_examples=150, deadline=None)
@given(
    timeout=st.floats(min_value=0, max_value=120),
    segment=st.floats(min_value=0.5, max_value=60),
    answers=st.lists(
        st.sampled_from(["408", "503", "429", "cut"]) | st.integers(min_value=0, max_value=20), max_size=30
    ),
)
def test_a_wait_refused_or_cut_along_the_way_still_never_asks_past_its_deadline(
    timeout: float, segment: float, answers: list[str | int]
) -> None:
    # Each answer in turn: a timeout, a refusal with Retry-After (an int: its seconds), a 1 s cut;
    # then 408s. Whatever came, no segment is asked past the deadline and no pause ends after it.
    clock = Clock()
    started = clock.now

    def answer(call: Call, n: int) -> tuple[float, Reply | NoReply]:
        asked = float(call.params["timeout"]) if call.params else 0.0
        kind = answers[n] if n < len(answers) else "408"
        if kind == "cut" and asked > 1.0:
            return 1.0, NoReply(cut=True)
        if kind in ("503", "429") or isinstance(kind, int):
            seconds = kind if isinstance(kind, int) else 1
            status = 429 if kind == "429" else 503
            return 0.01, Reply(status, error(status, "busy", retry_after_sec=seconds), str(seconds))
        return asked, Reply(408, error(408, "timeout"))

    plan = plans.next_message(policy(clock, retry_for=0, wait_segment=segment), ADDRESS, TOKEN, timeout=timeout)
    run = Run(clock)
    try:
        found, _ = drive(plan, clock, answer, run)
    except (RateLimited, Unavailable):
        pass  # a Retry-After that did not fit what was left of the wait
    else:
        assert found is None
        assert clock.now >= started + timeout - 0.001
    for sent, call in run.calls:
        assert call.params is not None
        assert sent + float(call.params["timeout"]) <= started + timeout + 0.0005, "a segment past the deadline"
    for start, seconds in run.pauses:
        assert start + seconds <= started + timeout + 1e-9


@settings(max_examples=200, deadline=None)
@given(
    retry_after=st.lists(st.integers(min_value=0, max_value=120), min_size=1, max_size=8),
    retry_for=st.floats(min_value=0, max_value=300),
    status=st.sampled_from([429, 503]),
)
def test_retry_after_pauses_never_end_past_the_deadline(retry_after: list[int], retry_for: float, status: int) -> None:
    clock = Clock()
    deadline = clock.now + retry_for

    def answer(call: Call, n: int) -> tuple[float, Reply | NoReply]:
        if n < len(retry_after):
            body = error(status, "busy", "over the limit", retry_after_sec=retry_after[n])
            return 0.01, Reply(status, body, str(retry_after[n]))
        return 0.01, Reply(200, b"[]")

    call = Call("GET", "/v1/tokens", TOKEN)
    try:
        result, run = drive(plans.request(policy(clock, retry_for=retry_for), call, list[wire.ApiToken]), clock, answer)
    except (RateLimited, Unavailable) as exc:
        assert isinstance(exc, RateLimited if status == 429 else Unavailable)
        assert exc.retry_after is not None
        assert clock.now + max(0.05, exc.retry_after) >= deadline, "raised only when the pause did not fit"
    else:
        assert result == []
        assert len(run.calls) == len(retry_after) + 1
        for (start, seconds), asked in zip(run.pauses, retry_after, strict=True):
            assert seconds == max(0.05, asked)
            assert start + seconds < deadline


def test_retry_after_from_the_header_when_the_body_has_none() -> None:
    clock = Clock()
    replies = [Reply(503, b"<html>busy</html>", "2"), Reply(200, b"[]")]
    _, run = drive(
        plans.request(policy(clock), Call("GET", "/v1/tokens", TOKEN), list[wire.ApiToken]),
        clock,
        lambda call, n: (0.0, replies[n]),
    )
    assert [seconds for _, seconds in run.pauses] == [2.0]


def test_a_post_is_not_retried_after_a_proxys_502() -> None:
    # The request may have reached the gateway: creating an identity twice is not harmless.
    clock = Clock()
    plan = plans.create_identity(policy(clock), TOKEN, None, None, None, False)
    with pytest.raises(Unavailable) as caught:
        drive(plan, clock, lambda call, n: (0.0, Reply(502, b"<html>Bad Gateway</html>")))
    assert caught.value.error == "http_error" and "HTTP 502" in caught.value.detail


def test_a_wait_re_arms_after_an_idle_cut_and_returns_the_mail() -> None:
    clock = Clock()
    answers: list[tuple[float, Reply | NoReply]] = [
        (1.0, NoReply(cut=True)),  # the proxy's idle timeout, 1 s into a 50 s segment
        (1.0, Reply(504, b"<html>Gateway Time-out</html>")),
        (0.3, Reply(200, message(1, code="123456"))),
    ]
    found, run = drive(plans.next_message(policy(clock), ADDRESS, TOKEN, timeout=60), clock, lambda c, n: answers[n])
    assert found is not None and found.codes[0].value == "123456"
    assert len(run.calls) == 3


@pytest.mark.parametrize(
    ("reply", "raised"),
    [(NoReply(cut=True), Unreachable), (Reply(502, b"<html>Bad Gateway</html>"), Unavailable)],
)
def test_a_wait_answered_at_once_by_a_dead_upstream_is_an_error_not_a_timeout(
    reply: Reply | NoReply, raised: type[GatewayError]
) -> None:
    clock = Clock()
    with pytest.raises(raised):
        drive(plans.next_message(policy(clock), ADDRESS, TOKEN, timeout=5), clock, lambda c, n: (0.01, reply))


def test_a_503_during_a_wait_re_arms_after_retry_after_within_the_wait() -> None:
    clock = Clock()
    answers = [(0.0, Reply(503, error(503, "mail_unavailable", retry_after_sec=2), "2")), (0.1, Reply(200, message(1)))]
    found, run = drive(
        plans.next_message(policy(clock, retry_for=0), ADDRESS, TOKEN, timeout=10), clock, lambda c, n: answers[n]
    )
    assert found is not None and [s for _, s in run.pauses] == [2.0]


# --- answers and errors -----------------------------------------------------------------------


def test_a_2xx_is_decoded_into_the_wire_struct() -> None:
    clock = Clock()
    created = {
        "address": ADDRESS,
        "token": TOKEN,
        "created_at": "2026-12-01T00:00:00Z",
        "expires_at": None,
        "label": "x",
    }
    made, _ = drive(
        plans.create_identity(policy(clock), "am_prov", None, 60, "x", False),
        clock,
        lambda c, n: (0.0, Reply(201, msgspec.json.encode(created))),
    )
    assert made == wire.CreatedIdentity(ADDRESS, TOKEN, datetime(2026, 12, 1, tzinfo=UTC), None, "x")


def test_a_2xx_that_is_not_the_gateways_answer_is_bad_answer() -> None:
    clock = Clock()
    with pytest.raises(BadAnswer, match="AGENTMAIL_URL"):
        drive(
            plans.request(policy(clock), Call("GET", "/v1/tokens", TOKEN), list[wire.ApiToken]),
            clock,
            lambda c, n: (0.0, Reply(200, b"<html>hello</html>")),
        )


@pytest.mark.parametrize(
    ("status", "raised"),
    [
        (400, InvalidRequest),
        (401, AuthError),
        (403, AuthError),
        (404, NotFound),
        (409, Conflict),
        (413, InvalidRequest),
        (422, InvalidRequest),
        (429, RateLimited),
        (503, Unavailable),
        (500, GatewayError),
    ],
)
def test_error_statuses_map_to_their_exception(status: int, raised: type[GatewayError]) -> None:
    clock = Clock()
    body = error(status, "the_code", "the detail")
    with pytest.raises(GatewayError) as caught:
        drive(
            plans.perform(policy(clock, retry_for=0), Call("GET", "/x", TOKEN)),
            clock,
            lambda c, n: (0.0, Reply(status, body)),
        )
    assert type(caught.value) is raised
    assert (caught.value.status, caught.value.error, caught.value.detail) == (status, "the_code", "the detail")


@pytest.mark.parametrize(("cut", "says"), [(False, "cannot be reached"), (True, "did not answer")])
def test_no_reply_is_unreachable(cut: bool, says: str) -> None:
    clock = Clock()
    with pytest.raises(Unreachable, match=says) as caught:
        drive(plans.perform(policy(clock), Call("DELETE", "/x", TOKEN)), clock, lambda c, n: (0.0, NoReply(cut=cut)))
    assert caught.value.status == 0 and TOKEN not in str(caught.value) and TOKEN not in repr(caught.value)


def test_call_repr_never_shows_the_token() -> None:
    call = Call("GET", "/v1/identities/me@agents.test/messages", TOKEN)
    assert TOKEN not in repr(call) and TOKEN not in str(call)


@pytest.mark.parametrize("message_id", [".", "..", "a/b", "x?y"])
def test_a_message_id_stays_one_path_segment(message_id: str) -> None:
    path = plans.message_path(ADDRESS, message_id)
    prefix = f"/v1/identities/{ADDRESS}/messages/"
    assert path.startswith(prefix)
    rest = path.removeprefix(prefix)
    assert "/" not in rest and "?" not in rest and rest not in (".", "..")


def test_a_naive_since_is_refused_before_any_request() -> None:
    clock = Clock()
    with pytest.raises(ValueError, match="time zone"):
        drive(
            plans.next_message(policy(clock), ADDRESS, TOKEN, timeout=1, since=datetime(2026, 1, 1)),
            clock,
            lambda c, n: (0.0, Reply(408, b"")),
        )


# --- wait_for and WaitTimeout -----------------------------------------------------------------


def test_wait_for_skips_mail_without_what_it_looks_for() -> None:
    clock = Clock()
    answers = [Reply(200, message(1)), Reply(200, message(2, links=("https://x.example/verify",)))]
    plan = plans.wait_for(
        policy(clock),
        ADDRESS,
        TOKEN,
        plans.link_containing("VERIFY"),
        " with a link",
        timeout=30,
        sender=None,
        subject=None,
        since=None,
    )
    found, run = drive(plan, clock, lambda c, n: (0.1, answers[n]))
    assert found == "https://x.example/verify"
    assert run.calls[1][1].params is not None and run.calls[1][1].params["after_id"] == "m1"


def test_wait_timeout_lists_what_did_arrive() -> None:
    clock = Clock()
    page = {
        "messages": [summary(2, subject="Your receipt"), summary(1, sender="Shop <a@shop.example>")],
        "next_before_id": None,
    }

    def answer(call: Call, n: int) -> tuple[float, Reply | NoReply]:
        if call.path.endswith("/wait"):
            return float(call.params["timeout"]) if call.params else 0.0, Reply(408, error(408, "timeout"))
        return 0.0, Reply(200, msgspec.json.encode(page))

    plan = plans.wait_for(
        policy(clock),
        ADDRESS,
        TOKEN,
        plans.first_code,
        " with a code",
        timeout=5,
        sender="app.example",
        subject=None,
        since=None,
    )
    with pytest.raises(WaitTimeout) as caught:
        drive(plan, clock, answer)
    text = str(caught.value)
    assert f"no unseen message with a code (From containing 'app.example') arrived for {ADDRESS} within 5 s" in text
    assert "2026-12-01 09:30:02Z  from App <noreply@app.example>  subject 'Your receipt'" in text
    assert "2026-12-01 09:30:01Z  from Shop <a@shop.example>  subject 'Welcome'" in text
    assert [m.id for m in caught.value.arrived] == ["m2", "m1"]
    assert caught.value.status == 408 and TOKEN not in text and TOKEN not in repr(caught.value)


def test_wait_timeout_says_when_nothing_or_no_listing() -> None:
    assert "nothing at all arrived" in str(WaitTimeout(ADDRESS, 3, "", []))
    assert "could not be listed" in str(WaitTimeout(ADDRESS, 3, "", None))


def test_a_wait_with_under_a_millisecond_left_takes_one_last_look_and_ends() -> None:
    # The segment rounds to timeout=0: the gateway answers at once, and the plan must not ask forever.
    clock = Clock()
    found, run = drive(
        plans.next_message(policy(clock), ADDRESS, TOKEN, timeout=0.0004),
        clock,
        lambda c, n: (0.0, Reply(408, error(408, "timeout"))),
    )
    assert found is None and len(run.calls) == 1


def test_a_fronts_own_408_is_an_error_not_a_segment_to_re_arm_at_once() -> None:
    clock = Clock()
    page = Reply(408, b"<html>Request Timeout</html>")
    with pytest.raises(GatewayError) as raised:
        drive(plans.next_message(policy(clock), ADDRESS, TOKEN, timeout=10), clock, lambda c, n: (0.01, page))
    assert raised.value.status == 408 and raised.value.error == "http_error"


def test_the_gateways_own_408_ends_a_segment_and_the_wait_re_arms() -> None:
    clock = Clock()
    answers = [(5.0, Reply(408, error(408, "timeout"))), (0.2, Reply(200, message(1, code="654321")))]
    found, run = drive(
        plans.next_message(policy(clock, wait_segment=5.0), ADDRESS, TOKEN, timeout=20), clock, lambda c, n: answers[n]
    )
    assert found is not None and found.codes[0].value == "654321" and len(run.calls) == 2


def test_wait_timeout_names_its_filters_readably() -> None:
    clock = Clock()

    def answer(call: Call, n: int) -> tuple[float, Reply]:
        if call.path.endswith("/wait"):
            return 5.0, Reply(408, error(408, "timeout"))
        return 0.01, Reply(200, msgspec.json.encode({"messages": [], "next_before_id": None}))

    plan = plans.wait_for(
        policy(clock),
        ADDRESS,
        TOKEN,
        plans.first_code,
        " with a code",
        timeout=5,
        sender="shop",
        subject="Code",
        since=None,
    )
    with pytest.raises(WaitTimeout) as raised:
        drive(plan, clock, answer)
    assert str(raised.value).startswith(
        f"no unseen message with a code (From containing 'shop', Subject containing 'Code') arrived for {ADDRESS}"
    )


# --- sending, replying, forwarding, threads ---------------------------------------------------


def send_result(**extra: Any) -> bytes:
    body = {
        "id": "sent.1",
        "message_id": "<abc@agents.test>",
        "thread_id": "t1",
        "accepted": ["you@agents.test"],
        "rejected": [],
    }
    return msgspec.json.encode(body | extra)


def thread_summary(n: int) -> dict[str, Any]:
    return {
        "thread_id": f"t{n}",
        "subject": f"Subject {n}",
        "participants": [ADDRESS, "you@agents.test"],
        "message_count": 2,
        "unseen_count": 1,
        "last_message_at": (datetime(2026, 12, 1, 9, tzinfo=UTC) + timedelta(seconds=n)).isoformat(),
    }


def test_send_posts_the_body_to_the_identitys_send_route_and_decodes_the_result() -> None:
    clock = Clock()
    body = wire.SendIn(to=["you@agents.test"], subject="Hi", text="Ready.")
    result, run = drive(
        plans.send_message(policy(clock), ADDRESS, TOKEN, body), clock, lambda c, n: (0.0, Reply(201, send_result()))
    )
    assert result == wire.SendResult("sent.1", "<abc@agents.test>", "t1", ["you@agents.test"], [])
    ((_, call),) = run.calls
    assert (call.method, call.path, call.token) == ("POST", f"/v1/identities/{ADDRESS}/send", TOKEN)
    assert call.body is not None
    assert msgspec.json.decode(call.body) == {"to": ["you@agents.test"], "subject": "Hi", "text": "Ready."}
    assert msgspec.json.decode(call.body, type=wire.SendIn) == body, "the gateway reads it back as sent"


@pytest.mark.parametrize(
    ("make", "path"),
    [
        (
            lambda p: plans.reply_to_message(p, ADDRESS, TOKEN, "m/1", wire.ReplyIn(text="Thanks", all=True)),
            f"/v1/identities/{ADDRESS}/messages/m%2F1/reply",
        ),
        (
            lambda p: plans.forward_message(p, ADDRESS, TOKEN, "..", wire.ForwardIn(to=["x@agents.test"], text="FYI")),
            f"/v1/identities/{ADDRESS}/messages/%2E%2E/forward",
        ),
    ],
    ids=["reply", "forward"],
)
def test_reply_and_forward_post_to_the_message_they_name(make: Callable[[Policy], Plan[Any]], path: str) -> None:
    clock = Clock()
    result, run = drive(make(policy(clock)), clock, lambda c, n: (0.0, Reply(201, send_result())))
    assert isinstance(result, wire.SendResult)
    ((_, call),) = run.calls
    assert (call.method, call.path) == ("POST", path)


def test_a_sends_body_keeps_only_what_was_given() -> None:
    # An older gateway refuses unknown fields: defaults (and the new `send`) are left out.
    assert msgspec.json.decode(plans.encode(wire.CreateIdentityIn(label="ci"))) == {"label": "ci"}
    assert msgspec.json.decode(plans.encode(wire.CreateIdentityIn(send="any"))) == {"send": "any"}
    assert msgspec.json.decode(plans.encode(wire.ReplyIn(text=""))) == {"text": ""}
    assert msgspec.json.decode(plans.encode(wire.SeenIn(seen=False))) == {"seen": False}, "required fields stay"


@settings(max_examples=100, deadline=None)
@given(
    to=st.lists(st.emails(), max_size=3),
    subject=st.text(max_size=30),
    text=st.none() | st.text(max_size=30),
    html=st.none() | st.text(max_size=30),
    headers=st.dictionaries(st.from_regex(r"X-[A-Za-z]{1,8}", fullmatch=True), st.text(max_size=10), max_size=2),
    from_name=st.none() | st.text(max_size=20),
)
def test_an_encoded_send_decodes_to_the_same_request(
    to: list[str], subject: str, text: str | None, html: str | None, headers: dict[str, str], from_name: str | None
) -> None:
    body = wire.SendIn(to=to, subject=subject, text=text, html=html, headers=headers, from_name=from_name)
    assert msgspec.json.decode(plans.encode(body), type=wire.SendIn) == body


def test_create_identity_sends_the_send_scope() -> None:
    clock = Clock()
    created = {
        "address": ADDRESS,
        "token": TOKEN,
        "created_at": "2026-12-01T00:00:00Z",
        "expires_at": None,
        "label": None,
        "send": "any",
    }
    made, run = drive(
        plans.create_identity(policy(clock), "am_prov", None, None, None, False, "any"),
        clock,
        lambda c, n: (0.0, Reply(201, msgspec.json.encode(created))),
    )
    assert made.send == "any"
    body = run.calls[0][1].body
    assert body is not None and msgspec.json.decode(body) == {"send": "any"}


def test_a_rate_limited_send_raises_with_retry_after_when_it_does_not_fit() -> None:
    clock = Clock()
    refused = Reply(429, error(429, "rate_limited", "20 mails an hour", retry_after_sec=1200), "1200")
    plan = plans.send_message(policy(clock), ADDRESS, TOKEN, wire.SendIn(to=["y@agents.test"], text="x"))
    with pytest.raises(RateLimited) as caught:
        drive(plan, clock, lambda c, n: (0.0, refused))
    assert (caught.value.status, caught.value.error, caught.value.retry_after) == (429, "rate_limited", 1200)


def test_a_rate_limited_send_is_sent_again_after_a_short_retry_after() -> None:
    clock = Clock()
    answers = [Reply(429, error(429, "rate_limited", retry_after_sec=2), "2"), Reply(201, send_result())]
    plan = plans.send_message(policy(clock), ADDRESS, TOKEN, wire.SendIn(to=["y@agents.test"], text="x"))
    result, run = drive(plan, clock, lambda c, n: (0.0, answers[n]))
    assert result.message_id == "<abc@agents.test>" and [s for _, s in run.pauses] == [2.0]


@pytest.mark.parametrize(
    "reply",
    [
        Reply(503, error(503, "mail_unavailable", retry_after_sec=1), "1"),
        Reply(502, b"<html>Bad Gateway</html>"),
        Reply(504, b"<html>Gateway Time-out</html>"),
    ],
)
def test_a_send_that_may_have_gone_out_is_never_sent_twice(reply: Reply) -> None:
    # A 503 or a proxy's page can come after the gateway sent the mail: the caller decides.
    clock = Clock()
    plan = plans.send_message(policy(clock), ADDRESS, TOKEN, wire.SendIn(to=["y@agents.test"], text="x"))
    run = Run(clock)
    with pytest.raises(Unavailable):
        drive(plan, clock, lambda c, n: (0.0, reply), run)
    assert len(run.calls) == 1 and not run.pauses


@pytest.mark.parametrize("status", [413, 422])
def test_a_refused_send_is_invalid_request_with_the_gateways_code(status: int) -> None:
    clock = Clock()
    body = error(status, "recipient_refused", "out@example.com: this identity sends only to agents.test")
    plan = plans.send_message(policy(clock), ADDRESS, TOKEN, wire.SendIn(to=["out@example.com"], text="x"))
    with pytest.raises(InvalidRequest) as caught:
        drive(plan, clock, lambda c, n: (0.0, Reply(status, body)))
    assert caught.value.error == "recipient_refused" and "agents.test" in caught.value.detail


def test_a_provisioner_token_sending_is_an_auth_error() -> None:
    clock = Clock()
    plan = plans.send_message(policy(clock), ADDRESS, "am_prov", wire.SendIn(to=["y@agents.test"], text="x"))
    with pytest.raises(AuthError):
        drive(plan, clock, lambda c, n: (0.0, Reply(403, error(403, "forbidden", "a provisioner never sends"))))


def test_threads_follow_next_before_until_the_limit() -> None:
    clock = Clock()
    pages = [
        {"threads": [thread_summary(n) for n in range(100)], "next_before": "c1"},
        {"threads": [thread_summary(n) for n in range(100, 200)], "next_before": "c2"},
        {"threads": [thread_summary(n) for n in range(200, 300)], "next_before": "c3"},
    ]
    found, run = drive(
        plans.list_threads(policy(clock), ADDRESS, TOKEN, limit=150),
        clock,
        lambda c, n: (0.0, Reply(200, msgspec.json.encode(pages[n]))),
    )
    assert [t.thread_id for t in found] == [f"t{n}" for n in range(150)]
    asked = [call.params for _, call in run.calls]
    assert asked == [{"limit": 100}, {"limit": 50, "before": "c1"}]
    assert all(call.path == f"/v1/identities/{ADDRESS}/threads" for _, call in run.calls)


def test_threads_stop_at_the_last_page() -> None:
    clock = Clock()
    page = {"threads": [thread_summary(1), thread_summary(2)], "next_before": None}
    found, run = drive(
        plans.list_threads(policy(clock), ADDRESS, TOKEN, limit=50),
        clock,
        lambda c, n: (0.0, Reply(200, msgspec.json.encode(page))),
    )
    assert [t.subject for t in found] == ["Subject 1", "Subject 2"] and len(run.calls) == 1
    assert found[0].last_message_at == datetime(2026, 12, 1, 9, 0, 1, tzinfo=UTC)


def test_a_thread_limit_below_one_is_refused_before_any_request() -> None:
    clock = Clock()
    with pytest.raises(ValueError, match="at least 1"):
        drive(plans.list_threads(policy(clock), ADDRESS, TOKEN, limit=0), clock, lambda c, n: (0.0, Reply(200, b"")))


def test_a_thread_is_read_by_its_id_as_one_path_segment() -> None:
    clock = Clock()
    thread = {
        "thread_id": "t/1",
        "subject": "Plan",
        "participants": [ADDRESS],
        "messages": [summary(1) | {"direction": "sent", "thread_id": "t/1"}, summary(2) | {"thread_id": "t/1"}],
    }
    found, run = drive(
        plans.get_thread(policy(clock), ADDRESS, TOKEN, "t/1"),
        clock,
        lambda c, n: (0.0, Reply(200, msgspec.json.encode(thread))),
    )
    assert [m.direction for m in found.messages] == ["sent", "received"]
    assert run.calls[0][1].path == f"/v1/identities/{ADDRESS}/threads/t%2F1"


@pytest.mark.parametrize("direction", [None, "sent", "all"])
def test_messages_ask_for_a_direction_only_when_given(direction: plans.Direction | None) -> None:
    clock = Clock()
    _, run = drive(
        plans.list_messages(
            policy(clock), ADDRESS, TOKEN, limit=5, sender=None, subject=None, since=None, direction=direction
        ),
        clock,
        lambda c, n: (0.0, Reply(200, msgspec.json.encode({"messages": [], "next_before_id": None}))),
    )
    expected: dict[str, Any] = {"limit": 5} | ({"direction": direction} if direction else {})
    assert run.calls[0][1].params == expected


def test_a_sent_message_decodes_with_its_deliveries() -> None:
    sent = msgspec.json.decode(message(1), type=dict[str, Any]) | {
        "direction": "sent",
        "delivery": [
            {
                "address": "you@agents.test",
                "status": "delivered",
                "detail": None,
                "attempts": 1,
                "updated_at": "2026-12-01T09:30:00Z",
            },
        ],
    }
    decoded = plans.decode(policy(Clock()), msgspec.json.encode(sent), wire.Message)
    assert decoded.direction == "sent" and decoded.delivery[0].status == "delivered"


# --- search and attachments -------------------------------------------------------------------


def test_search_asks_the_list_route_with_q_and_pages_by_before_id() -> None:
    clock = Clock()
    page = {"messages": [summary(2), summary(1)], "next_before_id": "m1"}
    found, run = drive(
        plans.search_messages(policy(clock), ADDRESS, TOKEN, "from:@shop.example -refund", limit=2, before_id="m9"),
        clock,
        lambda c, n: (0.0, Reply(200, msgspec.json.encode(page))),
    )
    assert [m.id for m in found.messages] == ["m2", "m1"] and found.next_before_id == "m1"
    (call,) = [c for _, c in run.calls]
    assert (call.method, call.path) == ("GET", f"/v1/identities/{ADDRESS}/messages")
    assert call.params == {"q": "from:@shop.example -refund", "limit": 2, "before_id": "m9"}


def test_a_search_the_gateway_cannot_read_is_invalid_request_with_its_detail() -> None:
    clock = Clock()
    detail = "unknown operator colour: (at character 1: 'colour:red')"
    with pytest.raises(InvalidRequest) as raised:
        drive(
            plans.search_messages(policy(clock), ADDRESS, TOKEN, "colour:red", limit=50),
            clock,
            lambda c, n: (0.0, Reply(400, error(400, "invalid_query", detail))),
        )
    assert (raised.value.error, raised.value.detail) == ("invalid_query", detail)


@pytest.mark.parametrize("attachment_id", ["2", "2.1", "..", "a/b"])
def test_an_attachment_is_one_path_segment_under_its_message(attachment_id: str) -> None:
    path = plans.attachment_path(ADDRESS, "m/1", attachment_id)
    head, _, last = path.rpartition("/attachments/")
    assert head == f"/v1/identities/{ADDRESS}/messages/m%2F1"
    assert "/" not in last and last not in (".", "..")


def test_save_sends_the_call_that_names_the_file_and_retries_it_after_503() -> None:
    clock = Clock()
    call = Call("GET", plans.attachment_path(ADDRESS, "m1", "2"), TOKEN, save_to="/tmp/out.pdf")
    answers = [Reply(503, error(503, "unavailable"), retry_after="1"), Reply(200, b"")]
    _, run = drive(plans.save(policy(clock), call), clock, lambda c, n: (0.0, answers[n]))
    assert [c.save_to for _, c in run.calls] == ["/tmp/out.pdf", "/tmp/out.pdf"] and run.pauses == [(1000.0, 1.0)]


def test_a_wait_passes_q_and_its_timeout_names_it() -> None:
    clock = Clock()

    def answer(call: Call, n: int) -> tuple[float, Reply]:
        if call.path.endswith("/wait"):
            return 5.0, Reply(408, error(408, "timeout"))
        return 0.01, Reply(200, msgspec.json.encode({"messages": [], "next_before_id": None}))

    plan = plans.wait_for(
        policy(clock),
        ADDRESS,
        TOKEN,
        plans.first_code,
        " with a code",
        timeout=5,
        sender="shop",
        subject=None,
        since=None,
        q="has:code -refund",
    )
    run = Run(clock)
    with pytest.raises(WaitTimeout) as raised:
        drive(plan, clock, answer, run)
    assert all(c.params and c.params["q"] == "has:code -refund" for _, c in run.calls if c.path.endswith("/wait"))
    assert str(raised.value).startswith(
        f"no unseen message with a code (From containing 'shop', matching 'has:code -refund') arrived for {ADDRESS}"
    )
