"""Standard Webhooks signatures (https://www.standardwebhooks.com, spec 1.0.0), both ends.

The signed content is `{msg_id}.{timestamp}.{payload}`: the `webhook-id` header, the
`webhook-timestamp` header (integer Unix seconds, the attempt's) and the body, byte for byte.
`webhook-signature` is a space-separated list of `<version>,<base64 signature>` entries, one
per signing secret (two while a rotated secret's grace period runs), and a receiver accepts
the request when any entry verifies with a key it trusts:

- `v1`: HMAC-SHA256 with the secret `whsec_<base64 of 24 to 64 random bytes>` (the base64 part
  decoded is the key, as the `standardwebhooks` libraries do).
- `v1a`: Ed25519. The spec says "base64 encoded, prefixed with `whsk_`/`whpk_`" of a standard
  key pair without naming the bytes: `whpk_` holds the raw 32-byte public key (RFC 8032) and
  `whsk_` the raw 32-byte private key (the RFC 8032 seed), which is what we write. Reading,
  `whsk_` may also hold the 64 bytes of seed and public key (how libsodium and Go's
  `crypto/ed25519` keep a private key); the public half must then match the seed.

Pure: the standard library, plus `cryptography` for Ed25519 (imported when an Ed25519 key is
used, so a client verifying `v1` loads nothing more). The client exports `verify` as
`gateway.client.verify_webhook`.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import re
import secrets as _random
import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

__all__ = [
    "DEFAULT_TOLERANCE",
    "PRIVATE_KEY_PREFIX",
    "PUBLIC_KEY_PREFIX",
    "SECRET_PREFIX",
    "WebhookVerificationError",
    "new_keypair",
    "new_secret",
    "public_key_of",
    "sign",
    "signature_header",
    "signed_content",
    "verify",
]

SECRET_PREFIX: Final = "whsec_"  # noqa: S105 (a prefix, not a secret)
PRIVATE_KEY_PREFIX: Final = "whsk_"
PUBLIC_KEY_PREFIX: Final = "whpk_"

DEFAULT_TOLERANCE: Final = 300
"""Seconds a `webhook-timestamp` may be off the receiver's clock either way (the spec's 5 minutes)."""

SECRET_BYTES: Final = 32
"""Random bytes in a new `whsec_` secret (the spec asks for 24 to 64)."""
_SECRET_BYTES_RANGE: Final = range(24, 65)
_ED25519_KEY_BYTES: Final = 32
_ED25519_SIGNATURE_BYTES: Final = 64
_HMAC_BYTES: Final = 32

MAX_SIGNATURES: Final = 16
"""Entries of one `webhook-signature` header tried at most: a hostile header cannot make a
receiver verify Ed25519 signatures without end."""
MAX_SIGNATURE_HEADER: Final = 8192

# The spec: the id and the timestamp must hold no '.', or two messages could sign the same
# content. Header-safe printable ASCII without '.' (our ids are `msg_` and base32).
_MSG_ID: Final = re.compile(r"[\x21-\x2d\x2f-\x7e]{1,256}")
_TIMESTAMP: Final = re.compile(r"[0-9]{1,12}")

_Check = Callable[[str, bytes, bytes], bool]
"""(version, signature, signed content) -> whether that entry verifies with the receiver's key."""


class WebhookVerificationError(Exception):
    """The request is not a genuine, fresh webhook call: a header is missing or malformed, the
    timestamp is outside the tolerance, or no signature verifies with the given key."""


def new_secret() -> str:
    """A new `v1` signing secret: `whsec_` and the base64 of 32 random bytes."""
    return SECRET_PREFIX + base64.b64encode(_random.token_bytes(SECRET_BYTES)).decode("ascii")


def new_keypair() -> tuple[str, str]:
    """A new `v1a` key pair: (`whsk_…` private key the gateway signs with, `whpk_…` public key for receivers)."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    key = Ed25519PrivateKey.generate()
    return _encode_private(key), _encode_public(key.public_key())


def public_key_of(private_key: str) -> str:
    """The `whpk_…` public key of a `whsk_…` private key (ValueError if it is not one)."""
    return _encode_public(_private_key(private_key).public_key())


def signed_content(msg_id: str, timestamp: int, payload: bytes) -> bytes:
    """`{msg_id}.{timestamp}.{payload}`, the bytes every scheme signs (ValueError on an id or timestamp
    that could make two messages sign the same bytes)."""
    if not _MSG_ID.fullmatch(msg_id):
        raise ValueError("a webhook id must be 1 to 256 printable ASCII characters without '.' or spaces")
    if isinstance(timestamp, bool) or not isinstance(timestamp, int) or timestamp < 0:
        raise ValueError("a webhook timestamp is a non-negative integer (Unix seconds)")
    return f"{msg_id}.{timestamp}.".encode("ascii") + payload


def sign(msg_id: str, timestamp: int, payload: bytes, secret: str) -> str:
    """One `webhook-signature` entry: `v1,<base64>` for a `whsec_` secret, `v1a,<base64>` for a `whsk_` key."""
    content = signed_content(msg_id, timestamp, payload)
    if secret.startswith(SECRET_PREFIX):
        digest = hmac.new(_secret_key(secret), content, hashlib.sha256).digest()
        return "v1," + base64.b64encode(digest).decode("ascii")
    if secret.startswith(PRIVATE_KEY_PREFIX):
        return "v1a," + base64.b64encode(_private_key(secret).sign(content)).decode("ascii")
    raise ValueError("a signing secret starts with whsec_ (v1) or whsk_ (v1a)")


def signature_header(msg_id: str, timestamp: int, payload: bytes, secrets: Sequence[str]) -> str:
    """The `webhook-signature` value: one entry per secret, each in its own scheme, space-separated."""
    if isinstance(secrets, str):  # a str is a Sequence[str] too: one secret, not its characters
        secrets = (secrets,)
    if not secrets:
        raise ValueError("at least one signing secret is needed")
    return " ".join(sign(msg_id, timestamp, payload, secret) for secret in secrets)


def verify(
    payload: bytes | str,
    headers: Mapping[str, str],
    secret: str,
    *,
    tolerance: float = DEFAULT_TOLERANCE,
    now: float | None = None,
) -> None:
    """Check a received webhook call; raise WebhookVerificationError unless it is genuine and fresh.

    `payload` is the raw body as received (never re-serialized JSON), `headers` the request's
    (any case). `secret` is the key the receiver trusts: `whsec_…` checks the `v1` entries,
    `whpk_…` (or the `whsk_…` it belongs to) the `v1a` ones; entries of other versions are
    ignored, as the spec asks. `now` (Unix seconds) defaults to the clock. ValueError if
    `secret` is not a key at all.
    """
    body = payload.encode("utf-8") if isinstance(payload, str) else payload
    check = _checker(secret)
    lowered = {key.lower(): value for key, value in headers.items()}
    msg_id = lowered.get("webhook-id", "")
    stamp = lowered.get("webhook-timestamp", "")
    signatures = lowered.get("webhook-signature", "")
    if not (msg_id and stamp and signatures):
        raise WebhookVerificationError("missing webhook-id, webhook-timestamp or webhook-signature header")
    if not _MSG_ID.fullmatch(msg_id):
        raise WebhookVerificationError("malformed webhook-id header")
    if not _TIMESTAMP.fullmatch(stamp):
        raise WebhookVerificationError("malformed webhook-timestamp header (integer Unix seconds)")
    if len(signatures) > MAX_SIGNATURE_HEADER:
        raise WebhookVerificationError("webhook-signature header too long")
    timestamp = int(stamp)
    clock = time.time() if now is None else now
    if timestamp < clock - tolerance:
        raise WebhookVerificationError("message timestamp too old")
    if timestamp > clock + tolerance:
        raise WebhookVerificationError("message timestamp too new")
    content = signed_content(msg_id, timestamp, body)
    entries = [entry for entry in signatures.split(" ") if entry][:MAX_SIGNATURES]
    for entry in entries:
        version, comma, encoded = entry.partition(",")
        if not comma:
            continue
        try:
            signature = base64.b64decode(encoded, validate=True)
        except (binascii.Error, ValueError):
            continue
        if check(version, signature, content):
            return
    raise WebhookVerificationError("no matching signature found")


def _checker(secret: str) -> _Check:
    if secret.startswith(SECRET_PREFIX):
        key = _secret_key(secret)

        def check_v1(version: str, signature: bytes, content: bytes) -> bool:
            if version != "v1" or len(signature) != _HMAC_BYTES:
                return False
            return hmac.compare_digest(hmac.new(key, content, hashlib.sha256).digest(), signature)

        return check_v1
    if secret.startswith(PUBLIC_KEY_PREFIX):
        public = _public_key(secret)
    elif secret.startswith(PRIVATE_KEY_PREFIX):
        public = _private_key(secret).public_key()
    else:
        raise ValueError("a webhook key starts with whsec_ (v1), whpk_ or whsk_ (v1a)")

    def check_v1a(version: str, signature: bytes, content: bytes) -> bool:
        from cryptography.exceptions import InvalidSignature

        if version != "v1a" or len(signature) != _ED25519_SIGNATURE_BYTES:
            return False
        try:
            public.verify(signature, content)
        except InvalidSignature:
            return False
        return True

    return check_v1a


def _decode(text: str, prefix: str, what: str) -> bytes:
    body = text[len(prefix) :]
    try:
        return base64.b64decode(body, validate=True)
    except (binascii.Error, ValueError):
        raise ValueError(f"{what} is not {prefix} and standard base64") from None


def _secret_key(secret: str) -> bytes:
    key = _decode(secret, SECRET_PREFIX, "the secret")
    if len(key) not in _SECRET_BYTES_RANGE:
        raise ValueError("a whsec_ secret holds 24 to 64 bytes")
    return key


def _private_key(secret: str) -> Ed25519PrivateKey:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    if not secret.startswith(PRIVATE_KEY_PREFIX):
        raise ValueError("an Ed25519 private key starts with whsk_")
    raw = _decode(secret, PRIVATE_KEY_PREFIX, "the private key")
    if len(raw) not in (_ED25519_KEY_BYTES, 2 * _ED25519_KEY_BYTES):
        raise ValueError("a whsk_ key holds the 32-byte Ed25519 seed (or seed and public key, 64 bytes)")
    key = Ed25519PrivateKey.from_private_bytes(raw[:_ED25519_KEY_BYTES])
    if len(raw) == 2 * _ED25519_KEY_BYTES and _raw_public(key.public_key()) != raw[_ED25519_KEY_BYTES:]:
        raise ValueError("the whsk_ key's public half does not belong to its seed")
    return key


def _public_key(text: str) -> Ed25519PublicKey:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    raw = _decode(text, PUBLIC_KEY_PREFIX, "the public key")
    if len(raw) != _ED25519_KEY_BYTES:
        raise ValueError("a whpk_ key holds the 32-byte Ed25519 public key")
    return Ed25519PublicKey.from_public_bytes(raw)


def _raw_public(key: Ed25519PublicKey) -> bytes:
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    return key.public_bytes(Encoding.Raw, PublicFormat.Raw)


def _encode_private(key: Ed25519PrivateKey) -> str:
    from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat

    raw = key.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
    return PRIVATE_KEY_PREFIX + base64.b64encode(raw).decode("ascii")


def _encode_public(key: Ed25519PublicKey) -> str:
    return PUBLIC_KEY_PREFIX + base64.b64encode(_raw_public(key)).decode("ascii")
