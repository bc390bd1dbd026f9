"""The browser harness: loopback servers (the beacon, a page server) and a probe on one page.

Nothing here knows the gateway. `Beacon` is where every hostile request would land;
`Site` serves the test-only pages; `Probe` records what one Playwright page did (its
requests, console, dialogs, popups, navigations and script errors); `visit_all` runs one
visit per corpus file, several pages at a time, and keeps each file's outcome apart.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import re
import threading
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from playwright.async_api import (
    Browser,
    BrowserContext,
    CDPSession,
    ConsoleMessage,
    Dialog,
    Frame,
    Locator,
    Page,
    Request,
    Response,
)
from playwright.async_api import Error as PlaywrightError

REPO = Path(__file__).resolve().parents[2]
POISON_DIR = REPO / "corpus" / "poison"
BENIGN_DIR = REPO / "corpus" / "benign"
ARTIFACTS = REPO / "test-artifacts" / "ui"

PLACEHOLDER = "beacon.invalid"
"""Every request a poison payload makes names this host (corpus/poison convention)."""
XSS_MARK = "XSS:"
"""Every script payload logs `XSS:<file>` when it runs; so do the beacon's own script and page."""

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}

CONCURRENCY = 8
"""Worker pages at once. A visit idles ~0.5 s for network idle; on two cores 6 to 10 workers
keep the CPU busy (measured: 8 is as fast as 10 and lighter on memory)."""
MAX_CLICKS = 12
"""Elements clicked per kind (form submitters, links) on one page; the corpus has a handful."""
CLICK_TIMEOUT_MS = 5_000
"""How long a visible element may take to become clickable by a pointer (steady, not covered)
before a click event is dispatched to it instead; a busy two-core machine needs seconds."""
FRAME_SETTLE_TIMEOUT_S = 3.0
"""A frame that has not settled by then never loaded anything (a `javascript:` src the policy refused)."""
QUIET_TIMEOUT_S = 10.0
VISIT_TIMEOUT_S = 90.0
LOAD_TIMEOUT_MS = 60_000
"""Playwright's own 30 s default for a load state is too short on a saturated two-core machine."""
IDLE_TIMEOUT_MS = 20_000
"""How long the top page may take to reach `networkidle`. Chromium may keep a media request
(`<video><source>`) open indefinitely, so the page never idles; past this bound the visit goes
on and `Probe.quiet` notes such a request as unfinished instead of failing the visit."""
"""A visit that takes longer broke (its test fails with the timeout); the others go on."""

# Request failures that mean the browser refused to send the request at all: Playwright reports
# Chromium's `blockedReason` for those (the policy: csp; a cross-origin SVG <use>: origin).
# Blocks decided on a response (ORB, CORP) are not here: such a request did leave.
NOT_SENT = frozenset({"csp", "origin", "mixed-content", "net::ERR_BLOCKED_BY_CSP", "net::ERR_BLOCKED_BY_CLIENT"})
LOCAL_SCHEMES = frozenset({"about", "data", "blob"})

GIF = bytes.fromhex("47494638396101000100800000000000ffffff21f90401000000002c00000000010001000002024401003b")
BEACON_SCRIPT = b"console.log('XSS:beacon-script')"
BEACON_PAGE = b"<!doctype html><title>beacon</title><script>console.log('XSS:beacon-page')</script>"


def poison_files() -> list[Path]:
    """The hostile bodies, sorted by name (empty until corpus/poison exists)."""
    return sorted(POISON_DIR.glob("*.html"))


def benign_files() -> list[Path]:
    """The benign bodies that have an expectation file beside them."""
    return sorted(p for p in BENIGN_DIR.glob("*.html") if p.with_suffix(".expected.json").exists())


def expected_texts(path: Path) -> list[str]:
    """The `text` list of `NAME.expected.json` beside `path`."""
    texts: list[str] = json.loads(path.with_suffix(".expected.json").read_text(encoding="utf-8"))["text"]
    return texts


def corpus_label(path: Path) -> str:
    """`poison/NAME.html` or `benign/NAME.html`: how a corpus body is named in ids and subjects."""
    return f"{path.parent.name}/{path.name}"


def file_key(path: Path) -> str:
    """What the beacon path of a poison file starts with: its leading number, else its stem."""
    match = re.match(r"\d+", path.stem)
    return match.group(0) if match else path.stem


def aim(payload: str, beacon: Beacon) -> str:
    """`payload` with the placeholder host replaced by `beacon`'s loopback address."""
    return payload.replace(PLACEHOLDER, beacon.netloc)


def is_document_url(url: str) -> bool:
    """Whether `url` names a document someone wrote (not about:blank, nor the bare ':' of a frame not yet loaded)."""
    return url.startswith(("http:", "https:", "data:", "blob:", "about:srcdoc"))


def normalise_space(text: str) -> str:
    """Runs of whitespace (incl. no-break spaces) as one space, stripped."""
    return " ".join(text.split())


def framed_page(payload: str, *, sandbox: str | None, title: str = "framed") -> str:
    """A page holding `payload` in `<iframe srcdoc="…">` as /ui does, with `sandbox="…"` unless None."""
    attribute = "" if sandbox is None else f' sandbox="{html.escape(sandbox)}"'
    return (
        f'<!doctype html><html><head><meta charset="utf-8"><title>{html.escape(title)}</title></head>'
        f'<body><iframe{attribute} srcdoc="{html.escape(payload, quote=True)}" width="800" height="600"></iframe>'
        "</body></html>"
    )


# -- loopback servers ------------------------------------------------------------------------


@dataclass(frozen=True)
class Hit:
    """One HTTP request a loopback server received."""

    method: str
    path: str
    headers: Mapping[str, str]
    body: bytes

    @property
    def dest(self) -> str:
        """`Sec-Fetch-Dest` (Chromium sends it to loopback): image, script, iframe, document, empty…"""
        return self.headers.get("sec-fetch-dest", "")

    def __str__(self) -> str:
        return f"{self.method} {self.path} (dest={self.dest or '?'}, mode={self.headers.get('sec-fetch-mode', '?')})"


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False

    def __init__(self, owner: LoopbackServer) -> None:
        self.owner = owner
        super().__init__(("127.0.0.1", 0), _Handler)

    def verify_request(self, request: Any, client_address: Any) -> bool:
        self.owner._connected()
        return True

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A page closed mid-response resets the connection: that is not the test's business.
        pass


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.0"  # one request per connection: each one is seen whole

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def _handle(self) -> None:
        length = min(int(self.headers.get("Content-Length") or 0), 64 * 1024)
        body = self.rfile.read(length) if length else b""
        hit = Hit(self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, body)
        # Recorded before the answer goes out: once the browser has a response, the hit is in the log.
        status, headers, content = self.server.owner._record_and_answer(hit)
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(content)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(content)

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = do_OPTIONS = _handle


Answer = tuple[int, dict[str, str], bytes]


class LoopbackServer:
    """An HTTP server on 127.0.0.1:<free port> in a thread, logging every request and connection."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._hits: list[Hit] = []
        self.connections = 0
        self._server = _Server(self)
        self.port: int = self._server.server_address[1]
        self.netloc = f"127.0.0.1:{self.port}"
        self.origin = f"http://{self.netloc}"
        self._thread = threading.Thread(target=self._server.serve_forever, name=f"loopback-{self.port}", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=10)

    def __enter__(self) -> LoopbackServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def hits(self) -> list[Hit]:
        with self._lock:
            return list(self._hits)

    def _connected(self) -> None:
        with self._lock:
            self.connections += 1

    def _record_and_answer(self, hit: Hit) -> Answer:
        with self._lock:
            self._hits.append(hit)
        return self.answer(hit)

    def answer(self, hit: Hit) -> Answer:
        return 404, {"Content-Type": "text/plain"}, b"not here"


class Beacon(LoopbackServer):
    """Where the poison's requests are aimed: answers everything 200 with what the request wants.

    An image gets a 1x1 GIF, a script `console.log('XSS:beacon-script')`, a page or frame a
    document whose script logs `XSS:beacon-page`; so a load that got through and ran shows in
    the console as well as in this log.
    """

    def answer(self, hit: Hit) -> Answer:
        dest = hit.dest
        cors = {
            "Access-Control-Allow-Origin": "*",
            "Access-Control-Allow-Headers": "*",
            "Access-Control-Allow-Methods": "*",
        }
        if dest == "image":
            return 200, {**cors, "Content-Type": "image/gif"}, GIF
        if dest in {"script", "worker", "sharedworker", "serviceworker"}:
            return 200, {**cors, "Content-Type": "text/javascript"}, BEACON_SCRIPT
        if dest in {"document", "iframe", "frame", "object", "embed"}:
            return 200, {"Content-Type": "text/html; charset=utf-8"}, BEACON_PAGE
        if dest == "style":
            return 200, {**cors, "Content-Type": "text/css"}, b"body{}"
        return 200, {**cors, "Content-Type": "text/plain"}, b"ok"

    def hits_for(self, key: str) -> list[Hit]:
        """Hits whose path names the corpus file `key` (`/013`, `/013/x`, `/013?x`, `/013.gif`…)."""
        pattern = re.compile(rf"^/+{re.escape(key)}(?![0-9A-Za-z_-])")
        return [h for h in self.hits if pattern.match(h.path)]


@dataclass(frozen=True)
class Route:
    body: bytes
    headers: Mapping[str, str]
    content_type: str = "text/html; charset=utf-8"


class Site(LoopbackServer):
    """Serves test-only pages registered with `add` (exact path, exact headers); 404 otherwise."""

    def __init__(self) -> None:
        self._routes: dict[str, Route] = {}
        super().__init__()

    def add(self, path: str, body: str, headers: Mapping[str, str] | None = None) -> str:
        """Serve `body` at `path` with `headers` (and no others but the basics); returns the URL."""
        assert path.startswith("/") and "?" not in path and "#" not in path
        with self._lock:
            self._routes[path] = Route(body.encode("utf-8"), dict(headers or {}))
        return self.origin + path

    def answer(self, hit: Hit) -> Answer:
        with self._lock:
            route = self._routes.get(urlsplit(hit.path).path)
        if route is None or hit.method not in {"GET", "HEAD"}:
            return 404, {"Content-Type": "text/plain"}, b"not here"
        return 200, {"Content-Type": route.content_type, **route.headers}, route.body


# -- one page under observation --------------------------------------------------------------


@dataclass
class Seen:
    """One request as the page reported it."""

    url: str
    method: str
    resource_type: str
    navigation: bool
    frame_url: str
    """The URL of the frame that made it, at the time it was made ('' before a frame's first load)."""
    main_frame: bool
    failure: str | None = None
    phase: str = "load"

    @property
    def sent(self) -> bool:
        """False when the browser refused it before it left (CSP)."""
        return self.failure not in NOT_SENT

    def __str__(self) -> str:
        where = "top" if self.main_frame else f"frame {self.frame_url or '(new)'}"
        state = f" [failed: {self.failure}]" if self.sent and self.failure else ""
        state = state if self.sent else f" [not sent: {self.failure}]"
        nav = " navigation" if self.navigation else ""
        return f"{self.method} {self.url} ({self.resource_type}{nav}, {where}, {self.phase}){state}"


@dataclass(frozen=True)
class Navigation:
    """One committed navigation of one frame."""

    main: bool
    url: str
    phase: str
    frame: int
    """Which frame (Playwright keeps one Frame object per frame, across process swaps)."""

    def __str__(self) -> str:
        return f"navigated {'top' if self.main else f'frame #{self.frame % 10_000}'}: {self.url} ({self.phase})"


@dataclass
class Record:
    """What one document did that a hostile payload could use, as Playwright reported it."""

    url: str = ""
    """The URL the visit loaded (the page that is expected to stay)."""
    requests: list[Seen] = field(default_factory=list)
    console: list[tuple[str, str]] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)
    popups: list[str] = field(default_factory=list)
    websockets: list[str] = field(default_factory=list)
    clicks: list[str] = field(default_factory=list)
    """What `click_everything` did to each element, in order."""
    frame_moves: list[str] = field(default_factory=list)
    """The watched frame (the mail's) showing another document than it was given, and when."""
    unfinished: list[Seen] = field(default_factory=list)
    """Requests still open QUIET_TIMEOUT_S after the page settled (reported, not waited for)."""
    navigations: list[Navigation] = field(default_factory=list)
    """Every committed navigation of every frame, the first load included."""

    @property
    def scripts_ran(self) -> list[str]:
        """Evidence that a script of the payload (or the beacon's) ran: XSS logs and script errors.

        Chromium's own messages (CSP and sandbox refusals) are warnings and errors that never
        carry the payload's text, so only `console.log`-level messages are counted.
        """
        logs = [f"console.{kind}: {text}" for kind, text in self.console if XSS_MARK in text and kind in _LOG_TYPES]
        return logs + [f"uncaught error in a page script: {error}" for error in self.page_errors]

    def sent_to(self, netloc: str) -> list[Seen]:
        """Requests to `netloc` the browser actually sent."""
        return [s for s in self.requests if s.sent and urlsplit(s.url).netloc == netloc]

    def foreign(self) -> list[Seen]:
        """Sent requests to anything but the visited page's origin (about:, data:, blob: aside)."""
        own = urlsplit(self.url)
        out = []
        for seen in self.requests:
            url = urlsplit(seen.url)
            if url.scheme in LOCAL_SCHEMES or not seen.sent:
                continue
            if (url.scheme, url.netloc) != (own.scheme, own.netloc):
                out.append(seen)
        return out

    def top_navigations(self) -> list[str]:
        """Committed main-frame URLs other than the visited one (fragments ignored)."""
        want = self.url.split("#", 1)[0]
        return [n.url for n in self.navigations if n.main and n.url.split("#", 1)[0] != want]

    def frames_replaced(self, phases: frozenset[str]) -> list[str]:
        """Subframes that committed a second document during `phases` (a refresh, a form, a script).

        A frame's first document is its load (about:srcdoc for the mail's frame, the src of a
        nested one); about:blank is no document of anyone's, so it is not counted.
        """
        seen: dict[int, str] = {}
        out = []
        for n in self.navigations:
            if n.main or not is_document_url(n.url):
                continue
            if n.frame in seen and n.phase in phases:
                out.append(f"{seen[n.frame]} -> {n.url} ({n.phase})")
            seen[n.frame] = n.url
        return out

    def report(self) -> str:
        """Everything recorded, for assertion messages."""
        lines = [f"visited {self.url}"]
        lines += [f"  request: {s}" for s in self.requests]
        lines += [f"  console.{kind}: {text[:300]}" for kind, text in self.console]
        lines += [f"  page error: {e}" for e in self.page_errors]
        lines += [f"  dialog: {d}" for d in self.dialogs]
        lines += [f"  popup: {p}" for p in self.popups]
        lines += [f"  websocket: {w}" for w in self.websockets]
        lines += [f"  never finished: {s}" for s in self.unfinished]
        lines += [f"  click {c}" for c in self.clicks]
        lines += [f"  the mail's frame moved: {m}" for m in self.frame_moves]
        lines += [f"  {n}" for n in self.navigations]
        return "\n".join(lines)


_LOG_TYPES = frozenset({"log", "info", "debug", "trace", "dir", "table"})


class Probe:
    """Listens to one Playwright page and writes what it does into the current `Record`.

    One page serves many visits in turn; `start()` begins a new record for each.
    """

    def __init__(self, page: Page) -> None:
        self.page = page
        self.record = Record()
        self.phase = "load"
        self.target_id = ""
        self.context_id = ""
        self._by_request: dict[int, Seen] = {}
        self._inflight = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self._tasks: set[asyncio.Future[None]] = set()
        page.on("request", self._on_request)
        page.on("requestfinished", self._on_done)
        page.on("requestfailed", self._on_failed)
        page.on("console", self._on_console)
        page.on("pageerror", lambda error: self.record.page_errors.append(str(error)))
        page.on("dialog", self._on_dialog)
        page.on("popup", lambda popup: self.record.popups.append(f"popup event {popup.url}"))
        page.on("websocket", lambda socket: self.record.websockets.append(socket.url))
        page.on("framenavigated", self._on_navigated)

    def start(self, url: str) -> Record:
        """A fresh record for a visit of `url`."""
        self.record = Record(url=url)
        self.phase = "load"
        return self.record

    def _on_request(self, request: Request) -> None:
        try:
            frame: Frame | None = request.frame
        except PlaywrightError:  # e.g. a service worker's request has no frame
            frame = None
        seen = Seen(
            url=request.url,
            method=request.method,
            resource_type=request.resource_type,
            navigation=request.is_navigation_request(),
            frame_url=frame.url if frame is not None else "",
            main_frame=frame is not None and frame == self.page.main_frame,
            phase=self.phase,
        )
        self.record.requests.append(seen)
        self._by_request[id(request)] = seen
        self._inflight += 1
        self._idle.clear()

    def _settle_one(self, request: Request) -> None:
        if self._by_request.pop(id(request), None) is None:
            return
        self._inflight -= 1
        if self._inflight == 0:
            self._idle.set()

    def _on_done(self, request: Request) -> None:
        self._settle_one(request)

    def _on_failed(self, request: Request) -> None:
        seen = self._by_request.get(id(request))
        if seen is not None:
            seen.failure = request.failure or "failed"
        self._settle_one(request)

    def _on_console(self, message: ConsoleMessage) -> None:
        self.record.console.append((message.type, message.text))

    def _on_dialog(self, dialog: Dialog) -> None:
        self.record.dialogs.append(f"{dialog.type}: {dialog.message}")
        task = asyncio.ensure_future(_quietly(dialog.dismiss()))  # a handler cannot await
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _on_navigated(self, frame: Frame) -> None:
        main = frame == self.page.main_frame
        self.record.navigations.append(Navigation(main, frame.url, self.phase, id(frame)))

    async def identify(self) -> None:
        """Learn the page's own CDP target and browser context (to tell its popups apart)."""
        session = await self.page.context.new_cdp_session(self.page)
        try:
            info = (await session.send("Target.getTargetInfo"))["targetInfo"]
        finally:
            await session.detach()
        self.target_id, self.context_id = info["targetId"], info["browserContextId"]

    async def close_windows(self, browser: CDPSession) -> None:
        """Record as popups, and close, every other page of this page's browser context.

        Asked of the browser itself (`Target.getTargets`), not waited for as an event: a
        window that exists is listed whether or not Playwright has announced it yet.
        """
        assert self.context_id, "identify() first"
        for info in (await browser.send("Target.getTargets"))["targetInfos"]:
            mine = (info["type"], info["browserContextId"]) == ("page", self.context_id)
            if mine and info["targetId"] != self.target_id:
                self.record.popups.append(f"window {info['url'] or 'about:blank'}")
                with contextlib.suppress(PlaywrightError):
                    await browser.send("Target.closeTarget", {"targetId": info["targetId"]})

    async def quiet(self) -> None:
        """Until every request reported so far has finished or failed (an event, not a timer).

        A request the browser keeps open (a media stream, a frame torn down mid-load) is
        given QUIET_TIMEOUT_S, then noted in the record as unfinished and no longer waited for.
        """
        try:
            await asyncio.wait_for(self._idle.wait(), QUIET_TIMEOUT_S)
        except TimeoutError:
            for key, seen in list(self._by_request.items()):
                self.record.unfinished.append(seen)
                del self._by_request[key]
            self._inflight = 0
            self._idle.set()


async def _quietly(awaitable: Awaitable[Any]) -> None:
    with contextlib.suppress(PlaywrightError):
        await awaitable


async def settle(probe: Probe, url: str) -> Response | None:
    """Start a record, load `url` and wait until the page and every frame in it settled.

    The settle point is Playwright's `networkidle` after `load`: no request in flight for
    500 ms, an event the browser reports rather than a sleep of ours (bounded by
    IDLE_TIMEOUT_MS for a request the browser never ends). A payload can only act
    later than that through a timer, which needs a script; the corpus keeps timer delays at
    0, and every layer that lets scripts run at all is a failure on its own.

    Chromium puts sandboxed frames in processes of their own, whose events reach Playwright
    on a session of their own, in no fixed order with the top page's. So each frame is
    then waited for by itself (`networkidle`) and sent a round trip (`evaluate`): replies
    come in order on a session, so everything that frame reported before is in by then.
    Returns the page's response.
    """
    probe.start(url)
    response = await probe.page.goto(url, wait_until="load")
    with contextlib.suppress(PlaywrightError):  # a request kept open: see IDLE_TIMEOUT_MS
        await probe.page.wait_for_load_state("networkidle", timeout=IDLE_TIMEOUT_MS)
    await frames_settled(probe)
    return response


async def frames_settled(probe: Probe) -> None:
    """Each frame of the page (top first) idle and answering, then no request in flight.

    Frames that went away are skipped; so is, after FRAME_SETTLE_TIMEOUT_S, a frame that
    never got a document (its `load` never comes and there is nothing to answer).
    """
    for frame in list(probe.page.frames):
        with contextlib.suppress(PlaywrightError, TimeoutError):
            await asyncio.wait_for(_frame_settled(frame), FRAME_SETTLE_TIMEOUT_S)
    await probe.quiet()


async def _frame_settled(frame: Frame) -> None:
    await frame.wait_for_load_state("networkidle", timeout=LOAD_TIMEOUT_MS)
    await frame.evaluate("0")


async def content_frame(page: Page, selector: str = "iframe") -> Frame:
    """The frame shown by the first element matching `selector` on `page`."""
    element = await page.query_selector(selector)
    assert element is not None, f"no {selector} on {page.url}"
    frame = await element.content_frame()
    assert frame is not None, f"{selector} on {page.url} shows no frame"
    return frame


async def click_everything(probe: Probe, frame: Frame, home: str = "about:srcdoc") -> None:
    """Act as a user in `frame` (the mail's, showing `home`): click each form submitter, then each link.

    A user's click (Playwright's: the element visible, steady and hit by the pointer: user
    activation) where that is possible, else a dispatched click event, so hidden submitters
    are tried too; each attempt is noted in `record.clicks`. Requests are marked with the
    phase they happened in: `forms` while submitters are clicked, `links` while links are.
    Clicking stops once the frame shows another document (a link followed).
    """
    watch(probe, frame, home)
    for phase, selector in (
        ("forms", "form button, form input[type=submit], form input[type=image], button[form], input[form]"),
        ("links", "a, area"),
    ):
        probe.phase = phase
        count = 0
        with contextlib.suppress(PlaywrightError):  # the frame may be gone after a navigation
            count = min(await frame.locator(selector).count(), MAX_CLICKS)
        for index in range(count):
            if frame.is_detached() or frame.url != home:
                break
            probe.record.clicks.append(f"{phase} #{index}: {await _click(frame.locator(selector).nth(index))}")
        if count:  # one more round trip through every frame: what the clicks caused is reported by then
            await frames_settled(probe)
        if phase == "forms":
            watch(probe, frame, home)
    probe.phase = "after"


async def _click(target: Locator) -> str:
    with contextlib.suppress(PlaywrightError):
        if await target.is_visible():
            await target.click(timeout=CLICK_TIMEOUT_MS)
            return "clicked"
    try:
        await target.dispatch_event("click", timeout=CLICK_TIMEOUT_MS)
    except PlaywrightError as error:
        return f"not clickable: {str(error).splitlines()[0]}"
    return "click event dispatched (not clickable by a pointer)"


def watch(probe: Probe, frame: Frame, expected: str) -> None:
    """Note in the record if `frame` (still there) shows anything but `expected` now."""
    if frame.is_detached():
        probe.record.frame_moves.append(f"detached ({probe.phase})")
    elif frame.url != expected:
        probe.record.frame_moves.append(f"{frame.url} instead of {expected} ({probe.phase})")


# -- many files, one record each --------------------------------------------------------------


@dataclass
class Outcome:
    """What one file's visit produced: its record, and the error if the visit itself broke."""

    record: Record | None = None
    error: BaseException | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def checked(self) -> Record:
        """The record; fails the test with the visit's own error if the visit broke."""
        if self.error is not None:
            raise AssertionError(f"the visit itself failed: {self.error!r}") from self.error
        assert self.record is not None
        return self.record


Visit = Callable[[Probe, Outcome], Awaitable[None]]


async def visit_all(
    browser: Browser,
    names: Iterable[str],
    visit: Callable[[str], Visit],
    **context_options: Any,
) -> dict[str, Outcome]:
    """Run `visit(name)` for every name, CONCURRENCY pages at a time; one record per name.

    Each worker has a browser context and page of its own and visits its names one after
    the other, going straight from one file's page to the next: a new page, or a stop at
    about:blank, costs renderer processes, the bulk of the run time on two cores. A visit
    ends settled (`settle`, `frames_settled`: every frame has answered a round trip), its
    windows are checked and closed, and its record is closed before the next file's page
    is requested, so what one file does is not counted against another. A worker whose
    visit broke starts over with a new context.
    """
    pending = iter(list(names))
    outcomes: dict[str, Outcome] = {}
    targets = await browser.new_browser_cdp_session()

    async def worker() -> None:
        context: BrowserContext | None = None
        try:
            for name in pending:
                if context is None:
                    context = await browser.new_context(**context_options)
                    probe = await open_probe(context)
                outcome = Outcome()
                try:
                    await asyncio.wait_for(visit(name)(probe, outcome), VISIT_TIMEOUT_S)
                    await probe.close_windows(targets)
                except Exception as error:  # stored: the file's own test reports it
                    outcome.error = error
                    await _quietly(context.close())
                    context = None
                outcome.record = probe.record
                probe.start("about:blank")  # a record no test reads, until the next visit starts its own
                outcomes[name] = outcome
        finally:
            if context is not None:
                await _quietly(context.close())

    try:
        await asyncio.gather(*(worker() for _ in range(CONCURRENCY)))
    finally:
        await targets.detach()
    return outcomes


async def open_probe(context: BrowserContext) -> Probe:
    """A new page of `context` with a probe attached (before anything is loaded)."""
    probe = Probe(await context.new_page())
    await probe.identify()
    return probe


def bullet(items: Sequence[object]) -> str:
    return "\n".join(f"  - {item}" for item in items)


# -- what each layer must stop ----------------------------------------------------------------


def inert_problems(record: Record, beacon: Beacon, key: str) -> list[str]:
    """Why a page is not inert: the beacon got something naming `key`, a request left the page's
    origin, a script ran, a dialog or popup opened, or the page went elsewhere."""
    problems = [f"the beacon got {hit}" for hit in beacon.hits_for(key)]
    problems += [f"a request left the page: {seen}" for seen in record.foreign()]
    problems += [f"a script ran: {evidence}" for evidence in record.scripts_ran]
    problems += [f"dialog: {d}" for d in record.dialogs]
    problems += [f"popup: {p}" for p in record.popups]
    problems += [f"websocket: {w}" for w in record.websockets]
    problems += [f"the page navigated to {url}" for url in record.top_navigations()]
    problems += [f"the mail's frame navigated: {m}" for m in record.frame_moves]
    return problems


def sandbox_problems(record: Record, beacon: Beacon, key: str) -> list[str]:
    """Why a sandbox did not hold: a script ran, a dialog or popup opened, a form was sent, or something navigated.

    Navigation means the top page leaving its URL, and a frame that already shows a
    document loading another one without a user's click on a link (meta refresh, a form, a
    script). A nested frame's first load is a load, like an image; a user following a link
    inside the mail's own frame is what links are for (the top page is still never left).
    """
    problems = [f"a script ran: {evidence}" for evidence in record.scripts_ran]
    problems += [f"dialog: {d}" for d in record.dialogs]
    problems += [f"popup: {p}" for p in record.popups]
    problems += [f"websocket: {w}" for w in record.websockets]
    problems += [f"the top page navigated to {url}" for url in record.top_navigations()]
    for seen in record.requests:
        if not seen.navigation:
            if seen.resource_type in SCRIPT_ONLY_REQUESTS:
                problems.append(f"a request only a script makes: {seen}")
        elif seen.main_frame:
            if seen.url.split("#", 1)[0] != record.url.split("#", 1)[0]:
                problems.append(f"a top-level navigation: {seen}")
        elif is_document_url(seen.frame_url) and seen.phase != "links":
            problems.append(f"a frame navigated away from its document: {seen}")
    problems += [f"a frame navigated away from its document: {r}" for r in record.frames_replaced(UNPROMPTED)]
    problems += [f"the mail's frame navigated: {m}" for m in record.frame_moves]
    for hit in beacon.hits_for(key):
        if hit.headers.get("content-type", "").startswith("text/ping"):
            continue  # <a ping> after a user's click: not a form, and no sandbox flag governs it
        if hit.method not in {"GET", "HEAD"}:
            problems.append(f"the beacon got a {hit.method} (a form or a script): {hit}")
        if hit.dest == "document":
            problems.append(f"the beacon got a top-level document request (popup or top navigation): {hit}")
    return problems


SCRIPT_ONLY_REQUESTS = frozenset({"xhr", "fetch", "eventsource", "websocket"})
UNPROMPTED = frozenset({"load", "forms"})
"""Phases in which no frame may change document: on its own, or when a form is submitted."""


def assert_observed(record: Record, framed: bool = True) -> None:
    """The probe saw the visit at all: the page's own request, and the mail's frame loading (when `framed`)."""
    assert any(s.main_frame and s.navigation for s in record.requests), record.report()
    if framed:
        assert any(not n.main and n.url == "about:srcdoc" for n in record.navigations), record.report()


def explain(name: str, problems: list[str], record: Record) -> str:
    """An assertion message: what went wrong, then everything the page did."""
    return f"{name}:\n{bullet(problems)}\n--- everything the page did ---\n{record.report()}"


LAYER_NOTES: list[str] = []
"""One line per layer run, printed at the end of the session (tests/ui/conftest.py)."""


def note_layer(layer: str, beacon: Beacon, outcomes: dict[str, Outcome]) -> None:
    """Sum up a layer's run for the terminal: what reached the beacon, what was clicked, what broke."""
    records = [o.record for o in outcomes.values() if o.record is not None]
    clicks = [c.split(": ", 1)[1] for r in records for c in r.clicks]
    keys = {m.group(1) for h in beacon.hits if (m := re.match(r"^/+(\d+)", h.path))}
    LAYER_NOTES.append(
        f"{layer}: {len(outcomes)} files, {sum(o.error is not None for o in outcomes.values())} visits broke;"
        f" beacon: {len(beacon.hits)} requests from {len(keys)} files, {beacon.connections} connections;"
        f" clicks: {clicks.count('clicked')} by pointer, {sum(c.startswith('click event') for c in clicks)} dispatched,"
        f" {sum(c.startswith('not clickable') for c in clicks)} not clickable"
    )
