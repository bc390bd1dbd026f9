"""The production mailbox: Dovecot's catch-all INBOX over IMAP, through imapclient.

imapclient is blocking and not thread-safe, so each of the two connections is owned by one
thread and nothing else touches it:

- the *watcher* (its own thread) sits in IDLE on INBOX and wakes the sync on EXISTS. Every
  HEARTBEAT seconds it leaves IDLE for a NOOP and
  re-enters it, far below the 29-minute limit of RFC 2177. If it dies it reconnects with
  backoff. Dovecot debounces IDLE by ~0.5 s; its push notifications are faster (`hint`).
- the *reader* (a one-thread executor) runs every command: NOOP + UID SEARCH, UID FETCH,
  STORE and UID EXPUNGE. It reconnects on demand. `next_batch` polls through it at least
  every HEARTBEAT seconds, so a lost IDLE event or push costs at most one heartbeat; the
  NOOP of each poll reports expunges made by others, which call for a reconcile.

So the gateway never holds more than two IMAP connections, however many clients it serves.
Dovecot's push notifications (see `gateway/sources/push.py`) only call `hint()`.

Ids are `<UIDVALIDITY>.<UID>`, both as 10 digits: stable while UIDVALIDITY is, and their
string order is (UIDVALIDITY, UID) order, so listings sort by INTERNALDATE, then UID.

What identities send is APPENDed to the catch-all's `Sent` folder (created on first use); its
copies' ids are `s<UIDVALIDITY>.<UID>` of that folder, so they sort after every INBOX id and a
new UIDVALIDITY of Sent voids only them (the reconcile forgets and re-reads them). The reader
visits Sent for the few commands that concern it and selects INBOX again at once; IDLE watches
INBOX only, since the gateway itself is what writes to Sent and announces each copy it appends.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import re
import socket
import ssl
import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final, Literal, TypeVar

from imapclient import IMAPClient
from imapclient.exceptions import IMAPClientAbortError, IMAPClientError, LoginError

from gateway.config import Settings
from gateway.sources.base import Changes, Listeners, SourceUnavailable, StoredMessage, stamped_copies
from gateway.sources.push import start_push_listener

__all__ = ["ImapConfig", "ImapSource"]

log = logging.getLogger(__name__)

T = TypeVar("T")

HEARTBEAT: Final = 3.0  # seconds between NOOPs in the watcher, and between polls without it
RECONCILE_EVERY: Final = 300.0  # full mailbox/index comparison even when nothing said so
EXPUNGE_SETTLE: Final = 1.0  # coalesce a burst of EXPUNGEs into one reconcile
BACKOFF_MAX: Final = 30.0
FETCH_CHUNK: Final = 500  # UIDs per SEARCH/STORE/EXPUNGE command line
RECENT_BYTES: Final = 16 * 1024 * 1024  # whole copies kept after a fetch (see `fetch`)
_ID_DIGITS: Final = 10  # UIDVALIDITY and UID are 32-bit: at most 10 digits
_NETWORK_ERRORS: Final = (OSError, IMAPClientAbortError, EOFError)  # the connection is gone
SENT_FOLDER: Final = "Sent"
SENT_PREFIX: Final = "s"  # before a Sent copy's `<UIDVALIDITY>.<UID>`
_APPENDUID: Final = re.compile(rb"\[APPENDUID (\d+) (\d+)\]", re.IGNORECASE)  # RFC 4315 §3, one message


@dataclass(frozen=True, slots=True)
class ImapConfig:
    """Where the catch-all account lives and how to log in."""

    host: str
    port: int
    user: str
    password: str
    tls: Literal["ssl", "starttls", "none"] = "ssl"
    timeout: float = 30.0
    """Socket timeout of every command; IDLE waits use their own."""

    @classmethod
    def from_settings(cls, settings: Settings) -> ImapConfig:
        """The IMAP part of the gateway's settings."""
        password = settings.imap_password.reveal() if settings.imap_password is not None else ""
        return cls(settings.imap_host, settings.imap_port, settings.imap_user, password, settings.imap_tls)

    def __repr__(self) -> str:  # the password stays out of logs and tracebacks
        return f"ImapConfig(host={self.host!r}, port={self.port}, user={self.user!r}, tls={self.tls!r})"


def message_id(uidvalidity: int, uid: int) -> str:
    """The stable id of one mailbox copy."""
    return f"{uidvalidity:0{_ID_DIGITS}d}.{uid:0{_ID_DIGITS}d}"


def sent_id(uidvalidity: int, uid: int) -> str:
    """The stable id of one copy in the Sent folder."""
    return SENT_PREFIX + message_id(uidvalidity, uid)


def _uids_of(ids: Sequence[str], sent_validity: int) -> list[int]:
    """UIDs of the Sent ids that belong to Sent's current UIDVALIDITY."""
    uids = []
    for text in ids:
        parsed = parse_id(text.removeprefix(SENT_PREFIX))
        if parsed is not None and parsed[0] == sent_validity:
            uids.append(parsed[1])
    return uids


def parse_id(text: str) -> tuple[int, int] | None:
    """(UIDVALIDITY, UID) of an id we made, or None for anything else."""
    validity, dot, uid = text.partition(".")
    if not dot or not (validity.isdigit() and uid.isdigit()) or not len(validity) == len(uid) == _ID_DIGITS:
        return None
    return int(validity), int(uid)


def connect(config: ImapConfig, *, watcher: bool = False) -> tuple[IMAPClient, int]:
    """A logged-in client with INBOX selected, and the mailbox's UIDVALIDITY. Blocking.

    `watcher` names the IDLE connection (tests inject faults by it).
    """
    context = ssl.create_default_context()
    client = IMAPClient(
        config.host, port=config.port, ssl=config.tls == "ssl", ssl_context=context, timeout=config.timeout
    )
    try:
        client.normalise_times = False  # tz-aware INTERNALDATEs: never the host's local time
        if config.tls == "starttls":
            client.starttls(context)
        client.login(config.user, config.password)
        selected = client.select_folder("INBOX")
        return client, int(selected[b"UIDVALIDITY"])
    except BaseException:
        _close(client)
        raise


def _close(client: IMAPClient) -> None:
    with contextlib.suppress(Exception):
        client.shutdown()


class ImapSource:
    """Dovecot's catch-all INBOX as a MailSource: one watcher connection, one reader."""

    kind = "imap"
    resolution = 1.0  # INTERNALDATE has whole seconds

    def __init__(
        self,
        config: ImapConfig,
        *,
        heartbeat: float = HEARTBEAT,
        reconcile_every: float = RECONCILE_EVERY,
        connector: Callable[..., tuple[IMAPClient, int]] = connect,
        sent_folder: str = SENT_FOLDER,
    ) -> None:
        self._config = config
        self._sent_folder = sent_folder
        self._sent_new: list[str] = []  # ids appended to Sent, not yet announced; loop thread only
        self._heartbeat = heartbeat
        self._reconcile_every = reconcile_every
        self._connect = connector
        self._loop: asyncio.AbstractEventLoop | None = None
        self._reader_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="imap-reader")
        self._reader: IMAPClient | None = None  # touched only on the reader thread
        self._uidvalidity: int | None = None
        self._last_uid = 0  # highest UID announced or snapshotted; reader thread only
        self._stopping = threading.Event()
        self._halt = threading.Event()  # set to stop the watcher alone (`unfollow`)
        self._watcher: threading.Thread | None = None
        self._watch_client: IMAPClient | None = None
        self._watching = False  # the watcher is in IDLE: no need to poll
        self._reader_down = False
        self._started = False  # connections made after start() returned call for a reconcile
        self._wake = asyncio.Event()
        self._reason: str | None = None  # what first woke next_batch since it last looked
        self._renumbered = False  # the reader met a new UIDVALIDITY: every id is void
        self._resync_at: float | None = None  # when a reconcile is due (monotonic)
        self._next_reconcile = 0.0
        self._recent: OrderedDict[str, StoredMessage] = OrderedDict()  # loop thread only
        self._recent_bytes = 0
        self.woken_by: Counter[str] = Counter()
        """New copies found per wake-up path: push, idle, heartbeat, poll, reconnect, start."""

    @property
    def generation(self) -> str:
        """The UIDVALIDITY of INBOX as the reader last saw it."""
        return f"imap:{self._uidvalidity}"

    @property
    def idle(self) -> bool:
        """Whether the watcher sits in IDLE right now (else `next_batch` polls)."""
        return self._watching

    @property
    def reachable(self) -> bool:
        """Whether Dovecot answered the last time either connection asked."""
        return self._watching or (self._uidvalidity is not None and not self._reader_down)

    # --- lifecycle --------------------------------------------------------------------

    async def start(self) -> None:
        """Connect the reader (retried later if Dovecot is down); `follow` starts the watcher."""
        self._loop = asyncio.get_running_loop()
        self._next_reconcile = time.monotonic() + self._reconcile_every
        try:
            await self._on_reader(lambda client: None)
        except SourceUnavailable as exc:
            log.warning("%s; retrying in the background", exc)
        self._started = True

    async def follow(self) -> None:
        """Start the watcher (IDLE): this gateway reads the mailbox from now on."""
        if self._stopping.is_set():
            return
        if self._watcher is not None and self._watcher.is_alive():
            if not self._halt.is_set():
                return  # following already
            # An earlier watcher still winds down (stuck connecting): it leaves on its own.
            await asyncio.to_thread(self._watcher.join, 10)
            if self._watcher.is_alive():
                log.warning("the previous IMAP watcher has not stopped; starting a new one beside it")
        self._halt = threading.Event()
        self._watcher = threading.Thread(target=self._watch, args=(self._halt,), name="imap-watcher", daemon=True)
        self._watcher.start()
        self._notify("start")

    async def unfollow(self) -> None:
        """Stop the watcher: another gateway reads the mailbox now (fetches go on)."""
        self._halt.set()
        client = self._watch_client
        if client is not None:
            # Wakes the watcher out of its poll() at once; it then closes the connection.
            with contextlib.suppress(OSError):
                client.socket().shutdown(socket.SHUT_RDWR)
        watcher = self._watcher
        if watcher is not None:
            await asyncio.to_thread(watcher.join, 10)
            if not watcher.is_alive():  # else `follow` must not start a second one beside it
                self._watcher = None

    async def stop(self) -> None:
        """Close both connections; a pending `next_batch` returns None."""
        self._stopping.set()
        self._wake.set()
        await self.unfollow()
        reader = self._reader
        if reader is not None:  # a command blocked on a silent server returns at once
            with contextlib.suppress(OSError):
                reader.socket().shutdown(socket.SHUT_RDWR)
        self._reader_pool.submit(self._drop_reader)
        self._reader_pool.shutdown(wait=False)
        # Bounded: a reader still connecting gives up after the config's timeout at worst.
        await asyncio.to_thread(self._reader_pool.shutdown, wait=True)

    async def listen(self, settings: Settings, *, hint: Callable[[], None] | None = None) -> Listeners:
        """Dovecot's push listener when `settings.push_address` is set: each push calls `hint`
        (by default this source's own `hint`; a standby passes the reader's on)."""
        if settings.push_address is None:
            return Listeners()
        assert settings.push_secret is not None  # checked with the settings
        push = await start_push_listener(*settings.push_address, settings.push_secret.reveal(), hint or self.hint)
        log.info("Dovecot push listener on %s:%d", *push.sockets[0].getsockname()[:2])
        return Listeners((push,))

    def hint(self, reason: str = "push") -> None:
        """Something may have arrived (a push from Dovecot): look now. Content-free, coalesced."""
        self._notify(reason)

    def _notify(self, reason: str, *, resync: bool = False) -> None:
        """Wake `next_batch`; safe from any thread."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return

        def wake() -> None:
            if resync and self._resync_at is None:
                self._resync_at = time.monotonic() + EXPUNGE_SETTLE
            self._reason = self._reason or reason
            self._wake.set()

        with contextlib.suppress(RuntimeError):  # the loop closed under us: nothing to wake
            loop.call_soon_threadsafe(wake)

    # --- MailSource -------------------------------------------------------------------

    async def snapshot(self) -> list[str]:
        """Every id in INBOX, oldest UID first."""

        def search(client: IMAPClient) -> list[str]:
            client.noop()  # see _new_uids
            uids = sorted(int(u) for u in client.search("ALL"))
            if uids:
                self._last_uid = max(self._last_uid, uids[-1])
            assert self._uidvalidity is not None
            inbox = [message_id(self._uidvalidity, u) for u in uids]

            def sent(validity: int) -> list[str]:
                return [sent_id(validity, int(u)) for u in sorted(int(u) for u in client.search("ALL"))]

            return inbox + (self._in_sent(client, sent) or [])

        present = await self._on_reader(search)
        kept = set(present)
        for stale in [i for i in self._recent if i not in kept]:  # gone from the mailbox
            self._recent_bytes -= len(self._recent.pop(stale).raw)
        return present

    async def fence(self) -> str | None:
        """The id of INBOX's UIDNEXT: every later delivery gets a UID at or above it."""

        def uidnext(client: IMAPClient) -> str:
            client.noop()  # see _new_uids
            status = client.folder_status("INBOX", [b"UIDNEXT"])
            assert self._uidvalidity is not None
            return message_id(self._uidvalidity, int(status[b"UIDNEXT"]))

        return await self._on_reader(uidnext)

    async def next_batch(self) -> Changes | None:
        """Wait for a wake-up (IDLE, push, heartbeat) and return the UIDs that are new."""
        while not self._stopping.is_set():
            timeout = self._wait_budget()
            try:
                # asyncio.timeout, not wait_for: on 3.11 wait_for can swallow a cancellation.
                async with asyncio.timeout(timeout):
                    await self._wake.wait()
            except TimeoutError:
                self._reason = self._reason or "poll"
            self._wake.clear()
            if self._stopping.is_set():
                break
            reason, self._reason = self._reason or "poll", None
            now = time.monotonic()
            if (self._resync_at is not None and now >= self._resync_at) or now >= self._next_reconcile:
                self._resync_at = None
                self._next_reconcile = now + self._reconcile_every
                return Changes(resync=True)
            if self._renumbered:  # set by the reader thread on a reconnect anywhere
                return self._renumbering()
            try:
                new = await self._on_reader(self._new_uids)
            except SourceUnavailable:
                continue  # logged once by _on_reader; polled again after a heartbeat
            if self._renumbered:
                return self._renumbering()
            sent, self._sent_new = self._sent_new, []
            if new:
                self.woken_by[reason] += len(new)
            if new or sent:
                return Changes(new + sent)
        return None

    def _renumbering(self) -> Changes:
        """A new UIDVALIDITY: every id is void, cached copies included; reconcile."""
        self._renumbered = False
        self._recent.clear()
        self._recent_bytes = 0
        return Changes(resync=True)

    def _wait_budget(self) -> float:
        """How long `next_batch` may sleep: one heartbeat at most, less when a reconcile is due."""
        # The heartbeat polls through the reader even while IDLE watches: a session in IDLE
        # has been seen to stop hearing of new mail, and a poll costs two short commands.
        deadlines = [self._next_reconcile - time.monotonic(), self._heartbeat]
        if self._resync_at is not None:
            deadlines.append(self._resync_at - time.monotonic())
        return max(0.0, min(deadlines))

    def _new_uids(self, client: IMAPClient) -> list[str]:
        if self._renumbered:
            return []  # the reconcile comes first: these would all look new
        # Dovecot refreshes a session's view of the mailbox on NOOP, not on every SEARCH; the
        # NOOP also reports expunges made by others since the last command.
        _, responses = client.noop()
        if _kinds(responses) & {b"EXPUNGE", b"VANISHED"}:
            self._notify("expunge", resync=True)
        # `n:*` always includes the highest UID, even below n (RFC 3501): filter.
        uids = sorted(u for u in map(int, client.search(["UID", f"{self._last_uid + 1}:*"])) if u > self._last_uid)
        if not uids:
            return []
        self._last_uid = uids[-1]
        assert self._uidvalidity is not None
        return [message_id(self._uidvalidity, u) for u in uids]

    async def fetch(self, ids: Sequence[str], *, max_bytes: int | None = None) -> list[StoredMessage]:
        """These copies with INTERNALDATE and size; bodies cut at `max_bytes` (BODY.PEEK: no \\Seen).

        Copies fetched whole lately come from a small cache: a `wait` answers with mail the
        sync read moments before, and a burst of answers must not queue on the one reader.
        """
        cached = {i: _cut(self._recent[i], max_bytes) for i in ids if i in self._recent}
        missing = [i for i in ids if i not in cached]
        fetched = await self._fetch(missing, max_bytes) if missing else []
        for message in fetched:
            if message.size == len(message.raw):  # whole, not cut at max_bytes
                self._remember(message)
        by_id = {**cached, **{m.id: m for m in fetched}}
        return [by_id[i] for i in ids if i in by_id]

    def _remember(self, message: StoredMessage) -> None:
        if len(message.raw) > RECENT_BYTES // 8:
            return  # a big one would push out many small ones
        self._recent[message.id] = message
        self._recent_bytes += len(message.raw)
        while self._recent_bytes > RECENT_BYTES:
            _, old = self._recent.popitem(last=False)
            self._recent_bytes -= len(old.raw)

    async def _fetch(self, ids: Sequence[str], max_bytes: int | None) -> list[StoredMessage]:
        part = b"BODY.PEEK[]" if max_bytes is None else f"BODY.PEEK[]<0.{max_bytes}>".encode()
        sent_ids = [i for i in ids if i.startswith(SENT_PREFIX)]

        def read(client: IMAPClient, uids: list[int], name: Callable[[int], str], sent: bool) -> list[StoredMessage]:
            if not uids:
                return []
            items = [b"INTERNALDATE", b"RFC822.SIZE", part]
            data = client.fetch(uids, items)
            if absent := [uid for uid in uids if uid not in data]:
                # This session may not have seen them arrive: Dovecot refreshes a session's view
                # on NOOP, and another session (the watcher, or another gateway's) saw them first.
                # Only what is still absent after that is gone.
                client.noop()
                data.update(client.fetch(absent, items))
            found = []
            for uid in uids:
                item = data.get(uid)
                if item is None:
                    continue  # expunged meanwhile
                raw = _body(item)
                when = item.get(b"INTERNALDATE")
                received = when.timestamp() if isinstance(when, datetime) else 0.0
                size = int(item.get(b"RFC822.SIZE", len(raw)))
                found.append(StoredMessage(name(uid), received, raw, size, sent=sent))
            return found

        def fetch(client: IMAPClient) -> list[StoredMessage]:
            validity = self._uidvalidity
            assert validity is not None
            found = read(client, self._current_uids(ids), lambda uid: message_id(validity, uid), False)
            if sent_ids:

                def from_sent(sent_validity: int) -> list[StoredMessage]:
                    uids = _uids_of(sent_ids, sent_validity)
                    return read(client, uids, lambda uid: sent_id(sent_validity, uid), True)

                found += self._in_sent(client, from_sent) or []
            return found

        return await self._on_reader(fetch)

    async def expunge(self, ids: Sequence[str]) -> list[str]:
        """Flag these copies \\Deleted and expunge exactly them (UID EXPUNGE, RFC 4315).

        Returns the ids it expunged: none of an older UIDVALIDITY (they wait for the reconcile).
        """

        for gone in ids:  # never answered from the cache once asked to go
            old = self._recent.pop(gone, None)
            if old is not None:
                self._recent_bytes -= len(old.raw)

        def remove(client: IMAPClient, uids: list[int]) -> None:
            for start in range(0, len(uids), FETCH_CHUNK):
                chunk = uids[start : start + FETCH_CHUNK]
                client.add_flags(chunk, [b"\\Deleted"], silent=True)
                if client.has_capability("UIDPLUS"):
                    client.uid_expunge(chunk)
                else:  # rare today; this also expunges anything else flagged \Deleted
                    client.expunge()

        sent_ids = [i for i in ids if i.startswith(SENT_PREFIX)]

        def expunge(client: IMAPClient) -> list[str]:
            uids = self._current_uids(ids)
            remove(client, uids)
            validity = self._uidvalidity
            assert validity is not None
            gone = [message_id(validity, uid) for uid in uids]
            if sent_ids:

                def from_sent(sent_validity: int) -> list[str]:
                    sent_uids = _uids_of(sent_ids, sent_validity)
                    remove(client, sent_uids)
                    return [sent_id(sent_validity, uid) for uid in sent_uids]

                gone += self._in_sent(client, from_sent, readonly=False) or []
            return gone

        return await self._on_reader(expunge)

    async def deliver(self, raw: bytes, recipients: Sequence[str]) -> list[str]:
        """APPEND one stamped copy per recipient to INBOX, on the reader; ids from APPENDUID.

        A copy the server refuses takes back the ones appended before it (SourceUnavailable).
        After a lost connection the rest are appended on the reconnect; the copy in flight
        then may be stored twice, which readers see as one message (same Message-ID).
        """
        copies = stamped_copies(raw, recipients)
        appended: list[tuple[int, int] | None] = []  # (UIDVALIDITY, UID) per copy; kept across a reconnect

        def append(client: IMAPClient) -> None:
            try:
                for stamp, body in copies[len(appended) :]:
                    response = client.append("INBOX", stamp + body)
                    match = _APPENDUID.search(response if isinstance(response, bytes) else b"")
                    appended.append((int(match.group(1)), int(match.group(2))) if match else None)
            except IMAPClientError as exc:
                if isinstance(exc, IMAPClientAbortError):
                    raise  # the connection is gone: the reconnect appends the rest
                mine = [a[1] for a in appended if a is not None and a[0] == self._uidvalidity]
                if mine:
                    client.add_flags(mine, [b"\\Deleted"], silent=True)
                    client.uid_expunge(mine)
                appended.clear()
                raise

        if copies:
            await self._on_reader(append)
            self._notify("deliver")  # the reader's next search finds them; no IDLE round trip
        return [message_id(*a) for a in appended if a is not None]

    async def keep_sent(self, raw: bytes) -> str | None:
        """APPEND `raw` to the Sent folder (created when missing), on the reader; its id from APPENDUID."""
        folder = self._sent_folder

        def append(client: IMAPClient) -> str | None:
            if not client.folder_exists(folder):
                with contextlib.suppress(IMAPClientError):  # made meanwhile by another replica
                    client.create_folder(folder)
            response = client.append(folder, raw)
            match = _APPENDUID.search(response if isinstance(response, bytes) else b"")
            return sent_id(int(match.group(1)), int(match.group(2))) if match else None

        copy_id = await self._on_reader(append)
        if copy_id is None:
            self._notify("sent", resync=True)  # no UIDPLUS: the reconcile finds it
        else:
            self._sent_new.append(copy_id)
            self._notify("sent")
        return copy_id

    def _in_sent(self, client: IMAPClient, job: Callable[[int], T], *, readonly: bool = True) -> T | None:
        """Run `job(UIDVALIDITY of Sent)` with Sent selected, then INBOX again; None when Sent does not exist."""
        try:
            selected = client.select_folder(self._sent_folder, readonly=readonly)
        except IMAPClientError:
            self._reselect_inbox(client)  # a failed SELECT leaves no mailbox selected (RFC 3501)
            return None
        try:
            return job(int(selected[b"UIDVALIDITY"]))
        finally:
            self._reselect_inbox(client)

    def _reselect_inbox(self, client: IMAPClient) -> None:
        validity = int(client.select_folder("INBOX")[b"UIDVALIDITY"])
        if self._uidvalidity is not None and validity != self._uidvalidity:
            log.warning("INBOX has a new UIDVALIDITY (%d, was %d): every id changes", validity, self._uidvalidity)
            self._last_uid = 0
            self._renumbered = True
            self._uidvalidity = validity

    def _current_uids(self, ids: Sequence[str]) -> list[int]:
        """UIDs of the ids that belong to the current UIDVALIDITY (older ids are gone)."""
        uids = []
        for text in ids:
            parsed = parse_id(text)
            if parsed is not None and parsed[0] == self._uidvalidity:
                uids.append(parsed[1])
        return uids

    # --- the reader ---------------------------------------------------------------------

    async def _on_reader(self, job: Callable[[IMAPClient], T]) -> T:
        """Run `job` on the reader thread with a live connection; one reconnect on failure."""
        if self._stopping.is_set():
            raise SourceUnavailable("the gateway is stopping")
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._reader_pool, self._run_on_reader, job)

    def _run_on_reader(self, job: Callable[[IMAPClient], T]) -> T:
        for attempt in (1, 2):
            if self._stopping.is_set():  # never (re)connect for a gateway that is stopping
                raise SourceUnavailable("the gateway is stopping")
            try:
                client = self._reader_client()
                result = job(client)
            except LoginError:
                self._drop_reader()
                self._reader_failed("the IMAP server refused the login (check AGENTMAIL_IMAP_USER/PASSWORD)")
            except _NETWORK_ERRORS as exc:
                self._drop_reader()
                if attempt == 2:
                    self._reader_failed(f"the IMAP server is unreachable ({type(exc).__name__})")
            except IMAPClientError:
                # A NO or BAD to one command (a damaged message file, say): the connection is
                # fine, so keep it; the caller skips what it could not read.
                raise SourceUnavailable("the IMAP server refused the command") from None
            else:
                if self._reader_down:
                    log.info("IMAP reader connection is back")
                    self._reader_down = False
                return result
        raise AssertionError("unreachable")

    def _reader_failed(self, why: str) -> None:
        if not self._reader_down:
            log.warning("%s; retrying every %.0f s", why, self._heartbeat)
        self._reader_down = True
        raise SourceUnavailable(why)

    def _reader_client(self) -> IMAPClient:
        if self._reader is None:
            client, validity = self._connect(self._config)
            if self._uidvalidity is not None and validity != self._uidvalidity:
                log.warning("INBOX has a new UIDVALIDITY (%d, was %d): every id changes", validity, self._uidvalidity)
                self._last_uid = 0
                self._renumbered = True
            if self._started:
                # A reconnect: anything may have been expunged meanwhile, or the start-up
                # catch-up may have failed while the server was away.
                self._notify("reconnect", resync=True)
            self._uidvalidity = validity
            self._reader = client
        return self._reader

    def _drop_reader(self) -> None:
        if self._reader is not None:
            _close(self._reader)
            self._reader = None

    # --- the watcher --------------------------------------------------------------------

    def _watch(self, halt: threading.Event) -> None:
        """The watcher thread: IDLE + NOOP heartbeat, reconnecting with backoff until stopped."""
        backoff = 0.5
        while not (self._stopping.is_set() or halt.is_set()):
            try:
                # SELECT, not EXAMINE: Dovecot has been seen to stop updating a read-only
                # session's view of the Maildir; nothing is ever changed through this one.
                client, _ = self._connect(self._config, watcher=True)
            except Exception as exc:
                if backoff == 0.5:
                    log.warning("IMAP IDLE connection failed (%s); polling meanwhile", type(exc).__name__)
                halt.wait(backoff)
                backoff = min(backoff * 2, BACKOFF_MAX)
                continue
            self._watch_client = client
            if self._stopping.is_set() or halt.is_set():
                _close(client)
                break
            if backoff > 0.5:
                log.info("IMAP IDLE connection is back")
            backoff = 0.5
            self._watching = True
            self._notify("reconnect")  # whatever arrived while nobody watched
            try:
                self._idle_loop(client, halt)
            except Exception as exc:
                if not (self._stopping.is_set() or halt.is_set()):
                    log.warning("IMAP IDLE connection lost (%s); polling meanwhile", type(exc).__name__)
                    backoff = 1.0
            finally:
                self._watching = False
                self._watch_client = None
                _close(client)
                self._notify("poll")  # so next_batch starts polling now

    def _idle_loop(self, client: IMAPClient, halt: threading.Event) -> None:
        while not (self._stopping.is_set() or halt.is_set()):
            client.idle()
            heard = client.idle_check(timeout=self._heartbeat)
            if self._stopping.is_set() or halt.is_set():
                return
            _, more = client.idle_done()
            _, polled = client.noop()
            self._react(heard, "idle")
            self._react([*more, *polled], "heartbeat")

    def _react(self, responses: Sequence[Any], reason: str) -> None:
        # EXISTS only: expunges are learnt from the reader's NOOP, which (unlike this
        # connection) never reports the gateway's own deletions, so those cost no reconcile.
        if b"EXISTS" in _kinds(responses):
            self._notify(reason)


def _kinds(responses: Sequence[Any]) -> set[bytes]:
    """The kinds (EXISTS, EXPUNGE...) of parsed untagged responses like `(3, b'EXISTS')`."""
    return {r[1] for r in responses if isinstance(r, tuple) and len(r) >= 2 and isinstance(r[0], int)}


def _cut(message: StoredMessage, max_bytes: int | None) -> StoredMessage:
    """A cached whole copy as a fetch with `max_bytes` would have returned it."""
    if max_bytes is None or len(message.raw) <= max_bytes:
        return message
    return dataclasses.replace(message, raw=message.raw[:max_bytes])


def _body(item: dict[bytes, Any]) -> bytes:
    for key, value in item.items():
        if key.startswith(b"BODY[") and isinstance(value, bytes):
            return value
    return b""
