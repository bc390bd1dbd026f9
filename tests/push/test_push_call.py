"""One webhook call against real HTTP receivers on 127.0.0.1, started here.

The receivers verify like a third party would: `standardwebhooks` for v1, the spec's Ed25519
algorithm (written out with `cryptography`) for v1a. Others redirect, hang, answer without end
or are not there at all; one speaks TLS with a certificate for a name, to show the call pins
the vetted address and still checks the certificate against the real name.
"""

from __future__ import annotations

import asyncio
import base64
import datetime
import json
import socket
import ssl
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest
from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from cryptography.x509.oid import NameOID
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

from gateway.push.call import MAX_READ, RESPONSE_HEAD, USER_AGENT, call_webhook
from gateway.push.signing import new_keypair, new_secret, signature_header

LOOPBACK = ["127.0.0.0/8"]
PAYLOAD = json.dumps({"type": "message.received", "address": "a@x.test"}, separators=(",", ":")).encode()
ENDLESS = 64 * 1024 * 1024


def spec_v1a_ok(public_key: str, headers: dict[str, str], body: bytes, *, tolerance: int = 300) -> bool:
    """The spec's v1a check: fresh timestamp, Ed25519 over `{id}.{timestamp}.{body}` with the whpk_ key."""
    ts = headers.get("webhook-timestamp", "")
    if not ts.isdigit() or abs(time.time() - int(ts)) > tolerance:
        return False
    key = Ed25519PublicKey.from_public_bytes(base64.b64decode(public_key.removeprefix("whpk_")))
    content = f"{headers['webhook-id']}.{ts}.".encode() + body
    for entry in headers.get("webhook-signature", "").split(" "):
        version, _, sig = entry.partition(",")
        if version == "v1a":
            try:
                key.verify(base64.b64decode(sig), content)
            except InvalidSignature:
                continue
            return True
    return False


@dataclass
class Seen:
    path: str
    headers: dict[str, str]
    body: bytes
    verified: bool


@dataclass
class Receiver:
    port: int
    v1_secret: str = field(default_factory=new_secret)
    keypair: tuple[str, str] = field(default_factory=new_keypair)
    seen: list[Seen] = field(default_factory=list)
    sni: list[str | None] = field(default_factory=list)
    release: threading.Event = field(default_factory=threading.Event)
    huge_done: threading.Event = field(default_factory=threading.Event)
    huge_sent: int = 0

    def url(self, path: str, host: str = "127.0.0.1", scheme: str = "http") -> str:
        return f"{scheme}://{host}:{self.port}{path}"


def make_handler(rx: Receiver) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

        def answer(self, status: int, body: bytes = b"", headers: dict[str, str] | None = None) -> None:
            self.send_response(status)
            for key, value in (headers or {}).items():
                self.send_header(key, value)
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("content-length", "0")))
            headers = {k.lower(): v for k, v in self.headers.items()}
            verified = False
            if self.path.startswith("/v1a"):
                verified = spec_v1a_ok(rx.keypair[1], headers, body)
            elif self.path.startswith("/v1"):
                try:
                    Webhook(rx.v1_secret).verify(body, headers)
                    verified = True
                except WebhookVerificationError:
                    verified = False
            rx.seen.append(Seen(self.path, headers, body, verified))
            if self.path.startswith(("/v1", "/v1a")):
                self.answer(204 if verified else 401, b"" if verified else b"bad signature")
            elif self.path == "/redirect":
                self.answer(307, headers={"location": rx.url("/target")})
            elif self.path == "/target":
                self.answer(200)
            elif self.path == "/fail":
                self.answer(500, "ünïcode ".encode() + b"\xff" + b"\xfe" * 2000)
            elif self.path == "/slow-body":
                self.send_response(200)
                self.send_header("content-length", "100")
                self.end_headers()
                self.wfile.write(b"accepted: ")
                self.wfile.flush()
                rx.release.wait(30)
            elif self.path == "/hang":
                rx.release.wait(30)
            elif self.path == "/huge":
                self.send_response(200)
                self.end_headers()
                chunk = b"x" * 65536
                try:
                    while rx.huge_sent < ENDLESS:
                        self.wfile.write(chunk)
                        rx.huge_sent += len(chunk)
                except OSError:
                    pass  # the caller stopped reading and closed: what this test wants
                finally:
                    rx.huge_done.set()

    return Handler


def serve(rx_port_holder: list[Receiver], context: ssl.SSLContext | None = None) -> Iterator[Receiver]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), make_handler(rx_port_holder[0]))
    server.daemon_threads = True
    if context is not None:
        server.socket = context.wrap_socket(server.socket, server_side=True)
    rx_port_holder[0].port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield rx_port_holder[0]
    finally:
        rx_port_holder[0].release.set()
        server.shutdown()
        server.server_close()
        thread.join(10)


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    yield from serve([Receiver(port=0)])


async def test_v1_is_accepted_by_the_standardwebhooks_package(receiver: Receiver) -> None:
    result = await call_webhook(
        receiver.url("/v1?x=1"), PAYLOAD, msg_id="msg_one", secrets=[receiver.v1_secret], timeout=5, allow=LOOPBACK
    )
    assert result.ok and result.status_code == 204 and result.error is None
    assert result.latency_ms > 0 and result.response_head == ""
    [seen] = receiver.seen
    assert seen.verified and seen.body == PAYLOAD and seen.path == "/v1?x=1"
    assert seen.headers["webhook-id"] == "msg_one"
    assert seen.headers["content-type"] == "application/json"
    assert seen.headers["user-agent"] == USER_AGENT
    assert seen.headers["host"] == f"127.0.0.1:{receiver.port}"
    assert abs(int(seen.headers["webhook-timestamp"]) - time.time()) < 60


async def test_v1a_is_accepted_by_the_specs_ed25519_check(receiver: Receiver) -> None:
    result = await call_webhook(
        receiver.url("/v1a"), PAYLOAD, msg_id="msg_two", secrets=[receiver.keypair[0]], timeout=5, allow=LOOPBACK
    )
    assert result.ok and result.status_code == 204
    assert receiver.seen[0].verified


async def test_during_a_rotation_a_receiver_with_the_old_secret_still_verifies(receiver: Receiver) -> None:
    result = await call_webhook(
        receiver.url("/v1"),
        PAYLOAD,
        msg_id="msg_rot",
        secrets=[new_secret(), receiver.v1_secret],
        timeout=5,
        allow=LOOPBACK,
    )
    assert result.ok
    assert len(receiver.seen[0].headers["webhook-signature"].split(" ")) == 2


async def test_the_wrong_secret_a_stale_timestamp_and_a_tampered_body_are_rejected(receiver: Receiver) -> None:
    wrong = await call_webhook(
        receiver.url("/v1"), PAYLOAD, msg_id="msg_w", secrets=[new_secret()], timeout=5, allow=LOOPBACK
    )
    stale = await call_webhook(
        receiver.url("/v1"),
        PAYLOAD,
        msg_id="msg_s",
        secrets=[receiver.v1_secret],
        timeout=5,
        allow=LOOPBACK,
        timestamp=int(time.time()) - 600,
    )
    stale_v1a = await call_webhook(
        receiver.url("/v1a"),
        PAYLOAD,
        msg_id="msg_s2",
        secrets=[receiver.keypair[0]],
        timeout=5,
        allow=LOOPBACK,
        timestamp=int(time.time()) - 600,
    )
    for result in (wrong, stale, stale_v1a):
        assert not result.ok and result.status_code == 401 and result.error == "HTTP 401"
        assert result.response_head == "bad signature"
    # A body changed on the way, under headers signed for the original.
    ts = int(time.time())
    async with httpx.AsyncClient() as client:
        for path, secret in (("/v1", receiver.v1_secret), ("/v1a", receiver.keypair[0])):
            signed = {
                "webhook-id": "msg_t",
                "webhook-timestamp": str(ts),
                "webhook-signature": signature_header("msg_t", ts, PAYLOAD, [secret]),
            }
            assert (await client.post(receiver.url(path), content=PAYLOAD, headers=signed)).status_code == 204
            tampered = PAYLOAD.replace(b"a@x.test", b"b@x.test")
            assert (await client.post(receiver.url(path), content=tampered, headers=signed)).status_code == 401
    assert [s.verified for s in receiver.seen[3:]] == [True, False, True, False]


async def test_a_redirect_is_a_failure_and_is_not_followed(receiver: Receiver) -> None:
    result = await call_webhook(
        receiver.url("/redirect"), PAYLOAD, msg_id="msg_r", secrets=[new_secret()], timeout=5, allow=LOOPBACK
    )
    assert not result.ok and result.status_code == 307
    assert result.error is not None and "redirects are not followed" in result.error
    assert [s.path for s in receiver.seen] == ["/redirect"]  # the target was never called


async def test_an_error_answer_keeps_the_first_kilobyte_decoded_leniently(receiver: Receiver) -> None:
    result = await call_webhook(
        receiver.url("/fail"), PAYLOAD, msg_id="msg_f", secrets=[new_secret()], timeout=5, allow=LOOPBACK
    )
    assert not result.ok and result.status_code == 500 and result.error == "HTTP 500"
    # 1 KB of bytes kept, the undecodable ones each one replacement character.
    assert result.response_head == "ünïcode " + "\ufffd" * (RESPONSE_HEAD - len("ünïcode ".encode()))


async def test_a_hanging_receiver_is_given_up_on_at_the_deadline(receiver: Receiver) -> None:
    started = time.monotonic()
    result = await call_webhook(
        receiver.url("/hang"), PAYLOAD, msg_id="msg_h", secrets=[new_secret()], timeout=0.5, allow=LOOPBACK
    )
    elapsed = time.monotonic() - started
    assert not result.ok and result.status_code is None
    assert result.error == "timed out after 0.5 s"
    assert 0.4 <= elapsed < 3
    assert 400 <= result.latency_ms < 3000


async def test_a_2xx_whose_body_never_ends_counts_as_delivered_at_the_deadline(receiver: Receiver) -> None:
    result = await call_webhook(
        receiver.url("/slow-body"), PAYLOAD, msg_id="msg_sb", secrets=[new_secret()], timeout=0.5, allow=LOOPBACK
    )
    assert result.ok and result.status_code == 200 and result.error is None  # the receiver took it
    assert result.response_head == "accepted: "


async def test_proxies_from_the_environment_are_never_used(receiver: Receiver, monkeypatch: pytest.MonkeyPatch) -> None:
    # A proxy would connect on our behalf, to whatever the name means to it: the pin would be lost.
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "all_proxy"):
        monkeypatch.setenv(name, "http://127.0.0.1:9")
    result = await call_webhook(
        receiver.url("/v1"), PAYLOAD, msg_id="msg_px", secrets=[receiver.v1_secret], timeout=5, allow=LOOPBACK
    )
    assert result.ok and receiver.seen[0].verified


async def test_an_endless_answer_is_read_up_to_64_kb_only(receiver: Receiver) -> None:
    result = await call_webhook(
        receiver.url("/huge"), PAYLOAD, msg_id="msg_b", secrets=[new_secret()], timeout=10, allow=LOOPBACK
    )
    assert result.ok and result.status_code == 200
    assert result.response_head == "x" * RESPONSE_HEAD
    assert await asyncio.to_thread(receiver.huge_done.wait, 20)
    assert MAX_READ <= receiver.huge_sent < ENDLESS  # the receiver was cut off long before its end


async def test_a_receiver_that_is_not_there() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = await call_webhook(
        f"http://127.0.0.1:{port}/", PAYLOAD, msg_id="msg_c", secrets=[new_secret()], timeout=5, allow=LOOPBACK
    )
    assert not result.ok and result.status_code is None
    assert result.error == "connection refused"


async def test_a_refused_target_is_never_called(receiver: Receiver) -> None:
    result = await call_webhook(receiver.url("/v1"), PAYLOAD, msg_id="msg_x", secrets=[receiver.v1_secret], timeout=5)
    assert not result.ok and result.status_code is None
    assert result.error is not None and result.error.startswith(
        "target refused: 127.0.0.1 is not a public address (loopback)"
    )

    async def rebinding(host: str, port: int) -> Sequence[str]:
        return ["93.184.216.34", "127.0.0.1"]

    named = await call_webhook(
        f"https://hooks.example:{receiver.port}/v1",
        PAYLOAD,
        msg_id="msg_y",
        secrets=[receiver.v1_secret],
        timeout=5,
        resolver=rebinding,
    )
    assert named.error is not None and "resolves to an address that" in named.error and "127.0.0.1" not in named.error
    assert receiver.seen == []


def tls_pair(name: str, directory: Path) -> tuple[ssl.SSLContext, ssl.SSLContext]:
    """(server context with a certificate for `name`, client context trusting its private CA)."""
    now = datetime.datetime.now(datetime.UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "push test CA")])
    ca = (
        x509.CertificateBuilder()
        .subject_name(ca_name)
        .issuer_name(ca_name)
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(hours=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    leaf = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)]))
        .issuer_name(ca_name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(hours=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(name)]), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
        .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    server = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server.load_cert_chain(*_pem_files(leaf, key, directory))
    client = ssl.create_default_context(cadata=ca.public_bytes(serialization.Encoding.PEM).decode())
    return server, client


def _pem_files(cert: x509.Certificate, key: ec.EllipticCurvePrivateKey, directory: Path) -> tuple[Path, Path]:
    cert_path, key_path = directory / "cert.pem", directory / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    with key_path.open("wb") as f:
        f.write(
            key.private_bytes(
                serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
            )
        )
    return cert_path, key_path


@pytest.fixture
def tls_receiver(tmp_path: Path) -> Iterator[tuple[Receiver, ssl.SSLContext]]:
    server, client = tls_pair("hook.test", tmp_path)
    rx = Receiver(port=0)
    server.sni_callback = lambda _sock, name, _ctx: rx.sni.append(name)  # type: ignore[assignment,misc,unused-ignore]
    for running in serve([rx], server):
        yield running, client


async def to_loopback(host: str, port: int) -> Sequence[str]:
    return ["127.0.0.1"]


async def test_https_connects_to_the_vetted_address_with_the_real_name_for_sni_and_the_certificate(
    tls_receiver: tuple[Receiver, ssl.SSLContext],
) -> None:
    rx, client = tls_receiver
    result = await call_webhook(
        rx.url("/v1", host="hook.test", scheme="https"),
        PAYLOAD,
        msg_id="msg_tls",
        secrets=[rx.v1_secret],
        timeout=5,
        allow=LOOPBACK,
        resolver=to_loopback,
        ssl_context=client,
    )
    assert result.ok, result
    assert rx.sni == ["hook.test"]
    assert rx.seen[0].headers["host"] == f"hook.test:{rx.port}" and rx.seen[0].verified
    # Another name pinned to the same address: its certificate check fails, nothing is posted.
    other = await call_webhook(
        rx.url("/v1", host="other.test", scheme="https"),
        PAYLOAD,
        msg_id="msg_tls2",
        secrets=[rx.v1_secret],
        timeout=5,
        allow=LOOPBACK,
        resolver=to_loopback,
        ssl_context=client,
    )
    assert not other.ok and other.status_code is None
    assert other.error == "TLS certificate not valid for the webhook's host"
    assert len(rx.seen) == 1
