"""Faults on a real `serve` process: SIGKILL under load, and the index file deleted between runs.

What a 250 or a 201 promised must survive the process dying at any moment: the gateway is
killed (SIGKILL, no shutdown) while identities are created over HTTP and mail arrives over
eight SMTP connections, restarted on the same data directory, and checked.
"""

from __future__ import annotations

import smtplib
import threading
from collections import Counter
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path

import httpx

from tests.serve import ServeProcess, Unavailable, wait_until

DOMAIN = "agents.test"
ADMIN = "am_faults-admin-token-0123456789abcdef"
SMTP_CONNECTIONS = 8
CREATORS = 2
SETTLE_TIMEOUT = 20.0
"""Seconds a restarted gateway may take to index what the Maildir holds (a few hundred copies)."""


@dataclass
class Load:
    """What the clients were promised: each 250'd subject (and its recipient) and each 201'd identity."""

    round: int
    receivers: list[str]
    stop: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)
    accepted: dict[str, str] = field(default_factory=dict)
    """subject → recipient, for every message whose DATA got 250."""
    created: dict[str, tuple[str, str | None]] = field(default_factory=dict)
    """address → (token, label), for every identity whose creation got 201."""
    threads: list[threading.Thread] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    """Answers that are neither success nor the gateway dying (a 4xx, a 5xx, an SMTP refusal)."""

    def counts(self) -> tuple[int, int]:
        with self.lock:
            return len(self.accepted), len(self.created)


def _message(subject: str, to: str) -> bytes:
    msg = EmailMessage()
    msg["From"] = "load@example.com"
    msg["To"] = to
    msg["Subject"] = subject
    msg["Message-ID"] = f"<{subject}@example.com>"
    msg.set_content(f"body of {subject}\n" + "x" * 2000)
    return msg.as_bytes()


def _mail(gateway: ServeProcess, load: Load, conn: int) -> None:
    """One SMTP connection sending until the gateway dies (or `stop`); records every 250."""
    rcpt = load.receivers[conn % len(load.receivers)]
    try:
        with gateway.smtp() as client:
            for n in range(100_000):  # bounded; the kill or `stop` ends it long before
                if load.stop.is_set():
                    return
                subject = f"r{load.round}-c{conn}-{n}"
                try:
                    client.sendmail("load@example.com", [rcpt], _message(subject, rcpt))
                except smtplib.SMTPResponseException as exc:
                    if exc.smtp_code != 421:  # 421: the server is closing, i.e. dying
                        load.errors.append(f"{subject}: {exc.smtp_code} {exc.smtp_error!r}")
                    return
                with load.lock:
                    load.accepted[subject] = rcpt
    except (smtplib.SMTPException, OSError):
        return  # the gateway died mid-transaction: that message got no 250


def _create(gateway: ServeProcess, load: Load, creator: int) -> None:
    """Create identities until the gateway dies (or `stop`); records every 201."""
    try:
        with gateway.client(timeout=5) as client:
            for n in range(100_000):
                if load.stop.is_set():
                    return
                local, label = f"r{load.round}-k{creator}-{n}", f"label {load.round}/{creator}/{n}"
                response = client.post("/v1/identities", json={"local_part": local, "label": label})
                if response.status_code != 201:
                    load.errors.append(f"create {local}: {response.status_code} {response.text}")
                    return
                body = response.json()
                with load.lock:
                    load.created[body["address"]] = (body["token"], label)
    except httpx.TransportError:
        return


def _start_load(gateway: ServeProcess, load: Load) -> None:
    for conn in range(SMTP_CONNECTIONS):
        load.threads.append(threading.Thread(target=_mail, args=(gateway, load, conn), daemon=True))
    for creator in range(CREATORS):
        load.threads.append(threading.Thread(target=_create, args=(gateway, load, creator), daemon=True))
    for thread in load.threads:
        thread.start()


def _join(load: Load) -> None:
    load.stop.set()
    for thread in load.threads:
        thread.join(timeout=15)
        assert not thread.is_alive(), "a load thread hung after the kill"


def _subjects(gateway: ServeProcess, client: httpx.Client, address: str) -> Counter[str]:
    return Counter(m["subject"] for m in gateway.listing(client, address))


def _check(gateway: ServeProcess, accepted: dict[str, str], created: dict[str, tuple[str, str | None]]) -> None:
    """Every 250'd message listed exactly once for its recipient; every 201'd identity whole."""
    receivers = sorted(set(accepted.values()))
    with gateway.client() as admin:
        listed: dict[str, Counter[str]] = {}

        def all_indexed() -> bool:
            try:
                listed.update({r: _subjects(gateway, admin, r) for r in receivers})
            except Unavailable:
                return False
            return all(listed[rcpt][subject] >= 1 for subject, rcpt in accepted.items())

        def missing() -> str:
            lost = sorted(s for s, r in accepted.items() if listed.get(r, Counter())[s] == 0)
            return f"{len(lost)} accepted messages to be indexed, e.g. {lost[:5]}"

        wait_until(all_indexed, SETTLE_TIMEOUT, missing)
        for rcpt, counts in listed.items():
            duplicated = {s: n for s, n in counts.items() if n > 1}
            assert not duplicated, f"{rcpt}: indexed more than once: {duplicated}"
            strangers = {s for s in counts if accepted.get(s, rcpt) != rcpt}
            assert not strangers, f"{rcpt} lists mail sent to another identity: {strangers}"

        stored = {}
        after: str | None = None
        for _ in range(1000):
            page = admin.get("/v1/identities", params={"limit": 1000, **({"after": after} if after else {})})
            assert page.status_code == 200, page.text
            stored.update({i["address"]: i["label"] for i in page.json()["identities"]})
            after = page.json()["next_after"]
            if after is None:
                break
    lost = sorted(set(created) - set(stored))
    assert not lost, f"{len(lost)} identities that got 201 are gone, e.g. {lost[:5]}"
    altered = {a: (label, stored[a]) for a, (_, label) in created.items() if stored[a] != label}
    assert not altered, f"labels changed: {altered}"
    for address, (token, _) in created.items():
        with gateway.client(token) as own:
            response = own.get(f"/v1/identities/{address}/messages", params={"limit": 1})
            assert response.status_code == 200, f"{address}: its token no longer works: {response.text}"


def _wait_for_load(load: Load, mails: int, identities: int) -> None:
    def enough() -> bool:
        accepted, created = load.counts()
        return accepted >= mails and created >= identities

    wait_until(
        enough, 20, lambda: f"the load to reach {mails} mails, {identities} identities: {load.counts()} {load.errors}"
    )


# Each round kills at another moment: (messages accepted, identities created) to reach first.
KILL_AFTER = [(3, 1), (80, 10), (200, 40)]


def test_sigkill_under_load_loses_no_accepted_mail_or_created_identity(tmp_path: Path) -> None:
    gateway = ServeProcess(tmp_path / "data", tmp_path / "logs", domain=DOMAIN, admin_token=ADMIN)
    accepted: dict[str, str] = {}
    created: dict[str, tuple[str, str | None]] = {}
    gateway.start()
    try:
        with gateway.client() as admin:
            receivers = []
            for i in range(SMTP_CONNECTIONS):
                response = admin.post("/v1/identities", json={"local_part": f"receiver-{i}"})
                assert response.status_code == 201, response.text
                receivers.append(response.json()["address"])
                created[response.json()["address"]] = (response.json()["token"], None)
        for round_, (mails, identities) in enumerate(KILL_AFTER):
            load = Load(round_, receivers)
            _start_load(gateway, load)
            try:
                _wait_for_load(load, mails, identities)
            finally:
                gateway.kill()
                _join(load)
            assert not load.errors, load.errors
            accepted.update(load.accepted)
            created.update(load.created)
            gateway.start()
            _check(gateway, accepted, created)
        assert len(accepted) >= sum(m for m, _ in KILL_AFTER)
    finally:
        gateway.kill()
    assert "Traceback" not in gateway.output()


def test_index_file_deleted_between_runs_is_rebuilt_on_start_with_marks(tmp_path: Path) -> None:
    # tests/api/test_rebuild.py proves the rebuild in-process; this is the operator's version:
    # the process killed, the files gone from disk, `serve` started again on the same directory.
    data = tmp_path / "data"
    gateway = ServeProcess(data, tmp_path / "logs", domain=DOMAIN, admin_token=ADMIN)
    with gateway:
        with gateway.client() as admin:
            made = [admin.post("/v1/identities", json={"local_part": f"keep-{i}"}).json() for i in range(3)]
        with gateway.smtp() as smtp:
            for n in range(30):
                to = [made[n % 3]["address"]] + ([made[2]["address"]] if n % 5 == 0 and n % 3 != 2 else [])
                smtp.sendmail("s@example.com", to, _message(f"m{n}", ", ".join(to)))
        before: dict[str, list[tuple[str, str, bool]]] = {}
        with gateway.client(made[0]["token"]) as first:
            address = made[0]["address"]

            def indexed() -> bool:
                return len(list(gateway.listing(first, address))) == 10

            wait_until(indexed, SETTLE_TIMEOUT, "the first identity's 10 messages")
            mine = list(gateway.listing(first, address))
            assert first.get(f"/v1/identities/{address}/messages/{mine[0]['id']}").status_code == 200  # seen
            assert first.delete(f"/v1/identities/{address}/messages/{mine[1]['id']}").status_code == 204

        def snapshot() -> dict[str, list[tuple[str, str, bool]]]:
            result = {}
            for identity in made:
                with gateway.client(identity["token"]) as own:
                    result[identity["address"]] = [
                        (m["id"], m["subject"], m["seen"]) for m in gateway.listing(own, identity["address"])
                    ]
            return result

        wait_until(lambda: sum(map(len, snapshot().values())) == 10 + 9 + 10 + 4, SETTLE_TIMEOUT, "36 copies")
        before = snapshot()
        assert before[made[0]["address"]][0][2] is True and len(before[made[0]["address"]]) == 9
        gateway.kill()
        index_files = [p for p in data.iterdir() if p.name.startswith("index.db")]
        assert index_files, sorted(p.name for p in data.iterdir())
        for path in index_files:
            path.unlink()

        gateway.start()
        after: dict[str, list[tuple[str, str, bool]]] = {}

        def rebuilt() -> bool:
            nonlocal after
            try:
                after = snapshot()
            except Unavailable:
                return False
            return after == before

        wait_until(rebuilt, SETTLE_TIMEOUT, lambda: f"the same listings after the rebuild:\n{before}\n{after}")
        assert (data / "index.db").exists()
