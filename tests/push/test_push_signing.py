"""Standard Webhooks signatures: v1 checked by the independent `standardwebhooks` package, v1a by
the spec's algorithm written out here with `cryptography`, and our own verifier's strictness."""

from __future__ import annotations

import base64
import time
from datetime import UTC, datetime

import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from hypothesis import given, settings
from hypothesis import strategies as st
from standardwebhooks.webhooks import Webhook
from standardwebhooks.webhooks import WebhookVerificationError as TheirError

from gateway.client import WebhookVerificationError as ClientError
from gateway.client import verify_webhook
from gateway.push.signing import (
    WebhookVerificationError,
    new_keypair,
    new_secret,
    public_key_of,
    sign,
    signature_header,
    signed_content,
    verify,
)

NOW = 1_700_000_000
ids = st.from_regex(r"msg_[A-Za-z0-9_-]{1,40}", fullmatch=True)
bodies = st.text(max_size=300).map(lambda t: t.encode("utf-8"))


def headers(msg_id: str, ts: int, signature: str) -> dict[str, str]:
    return {"webhook-id": msg_id, "webhook-timestamp": str(ts), "webhook-signature": signature}


def spec_v1a_verify(public_key: str, msg_id: str, ts: str, body: bytes, header: str) -> bool:
    """The spec's v1a check, written from the spec: Ed25519 over `{id}.{timestamp}.{payload}`,
    key = base64 after `whpk_`, signature = base64 after `v1a,` in any space-separated entry."""
    assert public_key.startswith("whpk_")
    key = Ed25519PublicKey.from_public_bytes(base64.b64decode(public_key.removeprefix("whpk_")))
    content = f"{msg_id}.{ts}.".encode() + body
    for entry in header.split(" "):
        version, _, sig = entry.partition(",")
        if version != "v1a":
            continue
        try:
            key.verify(base64.b64decode(sig), content)
        except InvalidSignature:
            continue
        return True
    return False


def test_secrets_and_keys_have_the_spec_shapes() -> None:
    secret = new_secret()
    assert secret.startswith("whsec_")
    assert len(base64.b64decode(secret.removeprefix("whsec_"), validate=True)) == 32
    assert new_secret() != secret
    private, public = new_keypair()
    assert private.startswith("whsk_") and public.startswith("whpk_")
    seed = base64.b64decode(private.removeprefix("whsk_"), validate=True)
    assert len(seed) == 32
    raw_public = Ed25519PrivateKey.from_private_bytes(seed).public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    assert public == "whpk_" + base64.b64encode(raw_public).decode()
    assert public_key_of(private) == public


def test_v1_matches_the_standardwebhooks_package_byte_for_byte() -> None:
    secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"  # the spec libraries' test secret
    body = '{"type":"message.received","n":1}'
    theirs = Webhook(secret).sign("msg_p5jXN8AQM9LWM0D4loKWxJek", datetime.fromtimestamp(NOW, UTC), body)
    assert sign("msg_p5jXN8AQM9LWM0D4loKWxJek", NOW, body.encode(), secret) == theirs


@settings(max_examples=60, deadline=None)
@given(msg_id=ids, body=st.text(max_size=300), skew=st.integers(-250, 250))
def test_v1_round_trips_through_the_standardwebhooks_verifier(msg_id: str, body: str, skew: int) -> None:
    secret = new_secret()
    ts = int(time.time()) + skew
    hdrs = headers(msg_id, ts, signature_header(msg_id, ts, body.encode(), [secret]))
    Webhook(secret).verify(body.encode(), hdrs, json_parse=False)
    verify(body.encode(), hdrs, secret)
    with pytest.raises(TheirError):
        Webhook(new_secret()).verify(body.encode(), hdrs, json_parse=False)


@settings(max_examples=40, deadline=None)
@given(msg_id=ids, body=bodies)
def test_v1a_round_trips_through_the_spec_algorithm(msg_id: str, body: bytes) -> None:
    private, public = new_keypair()
    header = signature_header(msg_id, NOW, body, [private])
    assert header.startswith("v1a,")
    assert spec_v1a_verify(public, msg_id, str(NOW), body, header)
    verify(body, headers(msg_id, NOW, header), public, now=NOW)
    verify(body, headers(msg_id, NOW, header), private, now=NOW)  # the private key knows its public half
    assert not spec_v1a_verify(new_keypair()[1], msg_id, str(NOW), body, header)


@settings(max_examples=60, deadline=None)
@given(msg_id=ids, body=bodies.filter(bool), data=st.data(), scheme=st.sampled_from(["v1", "v1a"]))
def test_any_changed_byte_fails(msg_id: str, body: bytes, data: st.DataObject, scheme: str) -> None:
    private, public = new_keypair()
    secret, key = (new_secret(),) * 2 if scheme == "v1" else (private, public)
    hdrs = headers(msg_id, NOW, signature_header(msg_id, NOW, body, [secret]))
    at = data.draw(st.integers(0, len(body) - 1))
    tampered = body[:at] + bytes([body[at] ^ data.draw(st.integers(1, 255))]) + body[at + 1 :]
    with pytest.raises(WebhookVerificationError, match="no matching signature"):
        verify(tampered, hdrs, key, now=NOW)
    with pytest.raises(WebhookVerificationError):  # another id, or another time, is another message
        verify(body, headers(msg_id + "x", NOW, hdrs["webhook-signature"]), key, now=NOW)
    with pytest.raises(WebhookVerificationError):
        verify(body, headers(msg_id, NOW + 1, hdrs["webhook-signature"]), key, now=NOW)


def test_a_rotation_sends_one_signature_per_secret_and_either_verifies() -> None:
    old, new = new_secret(), new_secret()
    private, public = new_keypair()
    ts = int(time.time())
    header = signature_header("msg_1", ts, b"{}", [new, old, private])
    assert [e.split(",")[0] for e in header.split(" ")] == ["v1", "v1", "v1a"]
    for secret in (old, new):
        Webhook(secret).verify(b"{}", headers("msg_1", ts, header), json_parse=False)
        verify(b"{}", headers("msg_1", ts, header), secret)
    assert spec_v1a_verify(public, "msg_1", str(ts), b"{}", header)
    assert signature_header("msg_1", ts, b"{}", new) == signature_header("msg_1", ts, b"{}", [new])


@pytest.mark.parametrize(
    ("at", "message"),
    [(NOW - 301, "too old"), (NOW + 301, "too new")],
)
def test_stale_and_future_timestamps_are_refused(at: int, message: str) -> None:
    secret = new_secret()
    hdrs = headers("msg_1", at, signature_header("msg_1", at, b"{}", [secret]))
    with pytest.raises(WebhookVerificationError, match=message):
        verify(b"{}", hdrs, secret, now=NOW)
    verify(b"{}", hdrs, secret, now=NOW, tolerance=302)
    verify(b"{}", hdrs, secret, now=at)


def test_header_names_are_read_in_any_case_and_the_body_as_text_or_bytes() -> None:
    secret = new_secret()
    sig = signature_header("msg_1", NOW, "é".encode(), [secret])
    verify("é", {"Webhook-Id": "msg_1", "WEBHOOK-TIMESTAMP": str(NOW), "Webhook-Signature": sig}, secret, now=NOW)


@pytest.mark.parametrize(
    ("hdrs", "message"),
    [
        ({"webhook-timestamp": str(NOW), "webhook-signature": "v1,AAAA"}, "missing"),
        ({"webhook-id": "msg_1", "webhook-signature": "v1,AAAA"}, "missing"),
        ({"webhook-id": "msg_1", "webhook-timestamp": str(NOW)}, "missing"),
        ({"webhook-id": "msg.1", "webhook-timestamp": str(NOW), "webhook-signature": "v1,AAAA"}, "webhook-id"),
        ({"webhook-id": "msg_1", "webhook-timestamp": f"{NOW}.0", "webhook-signature": "v1,AAAA"}, "timestamp"),
        ({"webhook-id": "msg_1", "webhook-timestamp": f"-{NOW}", "webhook-signature": "v1,AAAA"}, "timestamp"),
        (
            {"webhook-id": "msg_1", "webhook-timestamp": str(NOW), "webhook-signature": "v1,%%%% v2,AAAA nocomma"},
            "no matching",
        ),
        ({"webhook-id": "msg_1", "webhook-timestamp": str(NOW), "webhook-signature": "v1 " * 5000}, "too long"),
    ],
)
def test_malformed_headers_are_refused(hdrs: dict[str, str], message: str) -> None:
    with pytest.raises(WebhookVerificationError, match=message):
        verify(b"{}", hdrs, new_secret(), now=NOW)


def test_a_signature_of_the_other_scheme_does_not_count() -> None:
    secret = new_secret()
    private, public = new_keypair()
    v1 = signature_header("msg_1", NOW, b"{}", [secret])
    v1a = signature_header("msg_1", NOW, b"{}", [private])
    with pytest.raises(WebhookVerificationError):
        verify(b"{}", headers("msg_1", NOW, v1), public, now=NOW)
    with pytest.raises(WebhookVerificationError):
        verify(b"{}", headers("msg_1", NOW, v1a.replace("v1a,", "v1,")), secret, now=NOW)


def test_a_64_byte_private_key_is_read_and_a_mismatched_one_refused() -> None:
    private, public = new_keypair()
    seed = base64.b64decode(private.removeprefix("whsk_"))
    raw_public = base64.b64decode(public.removeprefix("whpk_"))
    long_form = "whsk_" + base64.b64encode(seed + raw_public).decode()
    assert public_key_of(long_form) == public
    assert sign("msg_1", NOW, b"x", long_form) == sign("msg_1", NOW, b"x", private)  # Ed25519 is deterministic
    other = base64.b64decode(new_keypair()[1].removeprefix("whpk_"))
    with pytest.raises(ValueError, match="public half"):
        public_key_of("whsk_" + base64.b64encode(seed + other).decode())


@pytest.mark.parametrize(
    "secret",
    [
        "",
        "abc",
        "whsec_",
        "whsec_not base64!",
        "whsec_" + base64.b64encode(b"x" * 23).decode(),
        "whpk_" + base64.b64encode(b"x" * 31).decode(),
        "whsk_" + base64.b64encode(b"x" * 33).decode(),
    ],
)
def test_a_malformed_key_is_a_value_error_not_a_failed_verification(secret: str) -> None:
    with pytest.raises(ValueError) as caught:
        verify(b"{}", headers("msg_1", NOW, "v1,AAAA"), secret, now=NOW)
    assert not isinstance(caught.value, WebhookVerificationError)


@pytest.mark.parametrize(("msg_id", "ts"), [("msg.1", NOW), ("", NOW), ("msg 1", NOW), ("msg_1", -1)])
def test_ids_and_timestamps_that_could_collide_are_refused_when_signing(msg_id: str, ts: int) -> None:
    with pytest.raises(ValueError):
        signed_content(msg_id, ts, b"{}")
    with pytest.raises(ValueError):
        signature_header("msg_1", NOW, b"{}", [])


def test_the_client_exports_the_verifier() -> None:
    assert verify_webhook is verify
    assert ClientError is WebhookVerificationError
