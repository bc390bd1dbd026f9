"""A real HTTP receiver for webhooks on loopback: records every call, answers as told, can go down.

It runs in a thread (stdlib `http.server`), so sync and async tests share it. Going down closes
the listening socket (calls are refused, as with a receiver that crashed); coming up listens
on the same port again.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType


@dataclass(frozen=True)
class Call:
    """One request the receiver got."""

    path: str
    headers: dict[str, str]
    """Lowercased names."""
    body: bytes
    at: float
    """time.monotonic() when it arrived."""
    status: int
    """What the receiver answered."""


class Receiver:
    """`with Receiver() as r:` serves on 127.0.0.1:r.port until the block ends."""

    def __init__(self) -> None:
        self.calls: list[Call] = []
        self.status = 204
        self.answer = b""
        self.delay = 0.0
        """Seconds each answer takes (a slow receiver: the bench's 100 ms)."""
        self.hold = threading.Event()  # while clear, calls wait (a slow receiver); set by default
        self.hold.set()
        self._changed = threading.Condition()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self.port = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    def start(self) -> None:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", "0"))
                body = self.rfile.read(length)
                receiver.hold.wait(timeout=60)
                if receiver.delay:
                    time.sleep(receiver.delay)  # the receiver's own work, not a synchronisation
                status, answer = receiver.status, receiver.answer
                call = Call(self.path, {k.lower(): v for k, v in self.headers.items()}, body, time.monotonic(), status)
                with receiver._changed:
                    receiver.calls.append(call)
                    receiver._changed.notify_all()
                self.send_response(status)
                self.send_header("content-length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, *args: object) -> None:
                pass

        server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        server.daemon_threads = True
        self.port = server.server_address[1]
        self._server = server
        self._thread = threading.Thread(target=server.serve_forever, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Go down: new calls are refused until `start()`."""
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def wait_for(self, condition: Callable[[list[Call]], bool], timeout: float = 30.0) -> list[Call]:
        """The calls once `condition` holds of them; AssertionError after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while not condition(self.calls):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"timed out after {timeout}s; the receiver got {len(self.calls)} calls")
                self._changed.wait(left)
            return list(self.calls)

    def accepted(self) -> list[Call]:
        """The calls answered 2xx, in order."""
        with self._changed:
            return [c for c in self.calls if 200 <= c.status < 300]

    def __enter__(self) -> Receiver:
        self.start()
        return self

    def __exit__(self, *exc: type[BaseException] | BaseException | TracebackType | None) -> None:
        self.hold.set()
        self.stop()
