"""Contract: `Filters.query` on every engine and plan means exactly `gateway.mail.search.matches`.

A fixed mailbox (real mails built with the `email` package, indexed through the sync's own
`build_record`) and a table of queries with the ids each must find; then a property test:
generated mailboxes of several identities sharing words and addresses, random query trees,
and the store's listing equal to the reference filter over that identity's visible mail.
Each runs on SQLite with both plans (the exact scan, and the FTS5 pre-filter forced by a
scan limit of 0) and on PostgreSQL.
"""

from __future__ import annotations

import dataclasses
import itertools
import sqlite3
from datetime import UTC, datetime
from email.message import EmailMessage

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gateway.mail.models import Code, Link
from gateway.mail.search import (
    And,
    Candidate,
    Node,
    Not,
    Or,
    SearchFields,
    Term,
    fold,
    matches,
    parse_query,
)
from gateway.sources.base import StoredMessage
from gateway.store import CopyRecord, Cursor, Filters, Identity, Store
from gateway.store.sqlite.index import _FTS_WORD, SqliteIndex, fts_query
from gateway.sync import _build, build_record
from tests.store.conftest import DOMAIN, Clock

A, B, C = f"a@{DOMAIN}", f"b@{DOMAIN}", f"c@{DOMAIN}"
CATCHALL = f"catchall@{DOMAIN}"
T0 = 1_800_000_000.0
HOUR = 3600.0

ENGINES = ["sqlite", "sqlite-fts", pytest.param("postgresql", marks=pytest.mark.postgres)]


@pytest.fixture(params=ENGINES)
def engine(request: pytest.FixtureRequest) -> str:
    """The engine (the conftest's fixture, overridden): `sqlite-fts` is SQLite with the FTS5 plan forced."""
    return str(request.param).removesuffix("-fts")


@pytest.fixture
def planned(store: Store, request: pytest.FixtureRequest) -> Store:
    """The store, its SQLite index forced onto the FTS5 pre-filter plan when the param says so."""
    if request.node.callspec.params["engine"] == "sqlite-fts":
        assert isinstance(store.index, SqliteIndex)
        store.index.scan_limit = 0
    return store


def mail(
    copy_id: str,
    ts: float,
    *,
    sender: str,
    to: tuple[str, ...] = (A,),
    cc: tuple[str, ...] = (),
    subject: str = "",
    text: str | None = None,
    html: str | None = None,
    files: tuple[tuple[str, str], ...] = (),
    grants: frozenset[str] = frozenset({A}),
    sent: bool = False,
) -> CopyRecord:
    """A real mail, indexed as the sync indexes it (then granted to `grants`)."""
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = ", ".join(to)
    if cc:
        msg["Cc"] = ", ".join(cc)
    msg["Subject"] = subject
    msg["Message-ID"] = f"<{copy_id}@mail.test>"
    if text is not None:
        msg.set_content(text)
    if html is not None:
        if text is None:
            msg.set_content(html, subtype="html")
        else:
            msg.add_alternative(html, subtype="html")
    for name, content_type in files:
        maintype, _, subtype = content_type.partition("/")
        msg.add_attachment(b"%PDF-1.4 data", maintype=maintype, subtype=subtype, filename=name)
    raw = bytes(msg)
    record = build_record(StoredMessage(copy_id, ts, raw, len(raw), sent=sent), catchall=CATCHALL, max_bytes=10**6)
    return dataclasses.replace(record, grants=grants)


def mailbox() -> list[CopyRecord]:
    return [
        mail(
            "m1",
            T0 + 1 * HOUR,
            sender="Stripe <receipts@stripe.com>",
            subject="Your Stripe receipt",
            text="Thanks for your payment.\nReceipt number 1234.",
            files=(("receipt.pdf", "application/pdf"),),
        ),
        mail(
            "m2",
            T0 + 2 * HOUR,
            sender="Bob <bob@x.test>",
            cc=("bigbob@x.test",),
            subject="Meeting notes",
            text="Your verification code is 482913.",
        ),
        mail(
            "m3",
            T0 + 3 * HOUR,
            sender="bigbob@x.test",
            subject="Re: meeting",
            html="<p>您的验证码是 736194\uff0c请勿泄露。</p>",
        ),
        mail("m4", T0 + 4 * HOUR, sender="news@sub.x.test", subject="お知らせ", text="東京駅で会いましょう。"),
        mail(
            "m5",
            T0 + 5 * HOUR,
            sender="eve@x.test.evil",
            to=("bob@x.test",),
            cc=(A,),
            subject="Account",
            html='<p>Please <a href="https://x.test/verify?t=1">verify your account</a></p>',
        ),
        mail(
            "m6",
            T0 + 6 * HOUR,
            sender="billing@shop.example",
            subject="Invoice 2026",
            text="Attached.",
            files=(("invoice-2026.csv", "text/csv"),),
        ),
        mail(
            "m7",
            T0 + 7 * HOUR,
            sender=A,
            to=("bob@x.test",),
            subject="Meeting tomorrow",
            text="See you at the meeting.",
            grants=frozenset({A}),
            sent=True,
        ),
        # B's mail, and mail A deleted, with every word and address the queries look for.
        mail(
            "b1",
            T0 + 8 * HOUR,
            sender="Stripe <receipts@stripe.com>",
            to=(B, "bob@x.test"),
            subject="Stripe receipt meeting お知らせ 東京 验证码",
            text="verification invoice 2026 receipt",
            files=(("receipt.pdf", "application/pdf"),),
            grants=frozenset({B}),
        ),
        mail(
            "gone",
            T0 + 9 * HOUR,
            sender="bob@x.test",
            to=("bob@x.test", A),
            subject="receipt meeting 東京 验证码",
            text="verification invoice",
            files=(("receipt.pdf", "application/pdf"),),
        ),
    ]


def iso(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).isoformat()


# (query, expected ids newest first) over A's received mail (m1-m6; m7 is sent, `gone` deleted).
TABLE: list[tuple[str, list[str]]] = [
    # from:/to: are exact keys, never substrings.
    ("from:bob@x.test", ["m2"]),
    ("from:BOB@X.TEST", ["m2"]),
    ("from:bigbob@x.test", ["m3"]),
    ("from:@x.test", ["m3", "m2"]),
    ("from:x.test", ["m3", "m2"]),
    ("from:@sub.x.test", ["m4"]),
    ("from:@test", []),
    ("from:@x.test.evil", ["m5"]),
    ("from:ob@x.test", []),
    ("to:bob@x.test", ["m5"]),
    ("to:bigbob@x.test", ["m2"]),
    ("to:@x.test", ["m5", "m2"]),
    (f"to:{A}", ["m6", "m5", "m4", "m3", "m2", "m1"]),
    ("from:stripe.com", ["m1"]),
    # words and phrases: whole words, in order, over subject and text
    ("receipt", ["m1"]),
    ("RECEIPT stripe", ["m1"]),
    ("receip", []),
    ("receip*", ["m1"]),
    ("verif*", ["m5", "m2"]),
    ("verification", ["m2"]),
    ('"verification code"', ["m2"]),
    ('"code verification"', []),
    ("meeting", ["m3", "m2"]),
    ("1234", ["m1"]),
    ("482913", ["m2"]),
    # CJK: every character a word, a word a phrase of them
    ("验证码", ["m3"]),
    ("验证", ["m3"]),
    ("验码", []),
    ("泄露", ["m3"]),
    ("東京", ["m4"]),
    ("東京駅", ["m4"]),
    ("会いましょう", ["m4"]),
    ("京都", []),
    ("お知らせ", ["m4"]),
    # negation, OR, parentheses
    ("-meeting", ["m6", "m5", "m4", "m1"]),
    ("meeting -from:bigbob@x.test", ["m2"]),
    ("meeting OR invoice", ["m6", "m3", "m2"]),
    ("(meeting OR invoice) -from:@x.test", ["m6"]),
    ("-(meeting OR invoice) -receipt", ["m5", "m4"]),
    ("receipt OR 验证码 OR from:@sub.x.test", ["m4", "m3", "m1"]),
    ("(from:@x.test OR to:@x.test) -(bob OR 验证)", ["m5", "m2"]),  # the words are not the headers
    # fields
    ("subject:meeting", ["m3", "m2"]),
    ("subject:notes", ["m2"]),
    ("subject:receipt", ["m1"]),
    ("subject:thanks", []),
    ("filename:receipt", ["m1"]),
    ("filename:pdf", ["m1"]),
    ("filename:invoice*", ["m6"]),
    ("filename:2026", ["m6"]),
    ("filename:stripe", []),
    ("has:attachment", ["m6", "m1"]),
    ("-has:attachment", ["m5", "m4", "m3", "m2"]),
    ("has:code", ["m3", "m2"]),
    ("has:link", ["m5"]),
    ("has:code OR has:link", ["m5", "m3", "m2"]),
    ("is:seen", ["m2"]),
    ("is:unseen", ["m6", "m5", "m4", "m3", "m1"]),
    ("-is:seen meeting", ["m3"]),
    # dates: after is inclusive, before exclusive, at the exact receipt time
    (f"after:{iso(T0 + 3 * HOUR)}", ["m6", "m5", "m4", "m3"]),
    (f"before:{iso(T0 + 3 * HOUR)}", ["m2", "m1"]),
    (f"after:{iso(T0 + 3 * HOUR + 0.001)}", ["m6", "m5", "m4"]),
    (f"before:{iso(T0 + 3 * HOUR + 0.001)}", ["m3", "m2", "m1"]),
    (f"after:{iso(T0 + 2 * HOUR)} before:{iso(T0 + 4 * HOUR)}", ["m3", "m2"]),
    (f"-after:{iso(T0 + 2 * HOUR)}", ["m1"]),
    ("after:2027-01-15", ["m6", "m5", "m4", "m3", "m2", "m1"]),
    ("before:2027-01-15", []),
]


def test_the_mailbox_dates_fall_where_the_table_says() -> None:
    assert iso(T0).startswith("2027-01-15T08:00:00")


def empty_fields() -> SearchFields:
    return SearchFields("", "", "", (), (), 0)


def reference(records: list[CopyRecord], node: Node, seen: set[str]) -> list[str]:
    """What `matches` keeps of these records, newest indexed first."""
    return [
        r.copy_id
        for r in reversed(records)
        if matches(
            node,
            Candidate(r.search or empty_fields(), r.received_ts, r.message_key in seen, bool(r.codes), bool(r.links)),
        )
    ]


async def test_a_table_of_queries_finds_exactly_the_expected_mail(planned: Store) -> None:
    store = planned
    a, _ = await store.identities.create("a")
    b, _ = await store.identities.create("b")
    records = mailbox()
    await store.index.add(records)
    by_id = {r.copy_id: r for r in records}
    await store.marks.set_seen(a, by_id["m2"].message_key, True)
    await store.marks.set_seen(b, by_id["m3"].message_key, True)  # B's mark is not A's
    await store.marks.set_deleted(a, by_id["gone"].message_key)
    received = [r for r in records if r.copy_id.startswith("m") and r.direction == "received"]
    wrong = []
    for text, expected in TABLE:
        query = parse_query(text).root
        got = [s.id for s in await store.index.listing(a, Filters(0, query=query), limit=50)]
        # The table was worked out by hand; the reference must agree with it too.
        ref = reference(received, query, {by_id["m2"].message_key})
        if got != expected or ref != expected:
            wrong.append((text, got, ref, expected))
    assert wrong == []


async def test_search_combines_with_paging_cursors_and_the_other_filters(planned: Store, clock: Clock) -> None:
    store = planned
    a, _ = await store.identities.create("a")
    await store.identities.create("b")
    records = mailbox()
    await store.index.add(records)
    by_id = {r.copy_id: r for r in records}
    await store.marks.set_deleted(a, by_id["gone"].message_key)
    meeting = parse_query("meeting OR invoice OR receipt").root

    async def page(filters: Filters, **kw: object) -> list[str]:
        return [s.id for s in await store.index.listing(a, filters, limit=2, **kw)]  # type: ignore[arg-type]

    async def at(message_id: str) -> Cursor | None:
        return await store.index.cursor_of(A, message_id, direction="all")

    q = Filters(0, query=meeting)
    assert await page(q) == ["m6", "m3"]
    assert await page(q, before=await at("m3")) == ["m2", "m1"]
    assert await page(q, before=await at("m1")) == []
    assert await page(q, after=await at("m1")) == ["m2", "m3"]
    assert await page(q, after=await at("m1"), newest_first=True) == ["m6", "m3"]
    # A cursor at a message the query does not find pages all the same.
    assert await page(q, before=await at("m5")) == ["m3", "m2"]
    # Directions: the sent copy is found among sent mail, or among all.
    assert await page(dataclasses.replace(q, direction="sent")) == ["m7"]
    assert [s.id for s in await store.index.listing(a, dataclasses.replace(q, direction="all"), limit=10)] == [
        "m7",
        "m6",
        "m3",
        "m2",
        "m1",
    ]
    # What waits read: unseen, unclaimed.
    await store.marks.set_seen(a, by_id["m6"].message_key, True)
    assert await page(dataclasses.replace(q, unseen=True)) == ["m3", "m2"]
    assert await store.claims.take(a, by_id["m3"].message_key, ttl=60)
    assert await page(dataclasses.replace(q, unseen=True, unclaimed=True)) == ["m2", "m1"]
    clock.now += 61
    assert await page(dataclasses.replace(q, unseen=True, unclaimed=True)) == ["m3", "m2"]
    # The window, the legacy substring filters, a thread.
    assert await page(dataclasses.replace(q, since_ts=T0 + 2 * HOUR)) == ["m6", "m3"]
    assert await page(dataclasses.replace(q, subject="MEET")) == ["m3", "m2"]
    found = await store.index.visible(a, "m2", Filters(0))
    assert found is not None and found.thread_id is not None
    thread = found.thread_id
    assert [s.id for s in await store.index.thread(a, thread, q)] == ["m2"]
    assert await store.index.visible(a, "m2", q) is not None
    assert await store.index.visible(a, "m5", q) is None
    threads = await store.index.threads(a, q, limit=10)
    assert sum(t.message_count for t in threads) == 5  # m1, m2, m3, m6 and the sent m7


async def test_removed_and_cleared_copies_leave_the_search(planned: Store) -> None:
    store = planned
    a, _ = await store.identities.create("a")
    records = mailbox()
    await store.index.add(records)
    receipt = Filters(0, query=parse_query("receipt OR meeting").root)
    assert [s.id for s in await store.index.listing(a, receipt, limit=10)] == ["gone", "m3", "m2", "m1"]
    await store.index.remove(["m1", "gone"])
    assert [s.id for s in await store.index.listing(a, receipt, limit=10)] == ["m3", "m2"]
    await store.index.clear()
    await store.index.add([dataclasses.replace(records[0], copy_id="again")])
    assert [s.id for s in await store.index.listing(a, receipt, limit=10)] == ["again"]


async def test_a_copy_without_search_fields_matches_no_positive_term(planned: Store) -> None:
    store = planned
    a, _ = await store.identities.create("a")
    bare = CopyRecord("bare", T0, 10, "bob@x.test", (A,), "receipt", "k-bare", frozenset({A}))
    await store.index.add([bare])
    for text, expected in [("receipt", []), ("from:bob@x.test", []), ("-receipt", ["bare"]), ("is:unseen", ["bare"])]:
        got = [s.id for s in await store.index.listing(a, Filters(0, query=parse_query(text).root), limit=5)]
        assert (text, got) == (text, expected)


# --- the property: the store's search is the reference filter, per identity -------------------

WORDS = ["alpha", "beta", "gamma", "alphabet", "验", "证", "码", "東", "京", "ß", "x1"]
KEYS = ["bob@x.test", "bigbob@x.test", "@x.test", "@x.test.evil"]  # each a substring of another
PEOPLE = ("a", "b", "c")

words_st = st.lists(st.sampled_from(WORDS), max_size=6).map(lambda ws: fold(" ".join(ws)))
fields_st = st.builds(
    SearchFields,
    text=words_st,
    subject=words_st,
    filenames=words_st,
    from_keys=st.lists(st.sampled_from(KEYS), max_size=2, unique=True).map(tuple),
    to_keys=st.lists(st.sampled_from(KEYS), max_size=3, unique=True).map(tuple),
    attachments=st.integers(0, 2),
)
copy_st = st.tuples(
    st.one_of(st.none(), fields_st),
    st.integers(0, 5),  # receipt hour
    st.sets(st.sampled_from(PEOPLE), min_size=1),  # granted to
    st.booleans(),  # has a code
    st.booleans(),  # has a link
    st.sets(st.sampled_from(PEOPLE)),  # seen by
    st.sets(st.sampled_from(PEOPLE)),  # deleted by
)
term_st = st.one_of(
    st.builds(
        lambda field, ws, prefix: Term(field, fold(" ".join(ws)).strip(), prefix=prefix),
        st.sampled_from(["text", "subject", "filename"]),
        st.lists(st.sampled_from([*WORDS, "alph", "bet"]), min_size=1, max_size=2),
        st.booleans(),
    ),
    st.builds(Term, st.sampled_from(["from", "to"]), st.sampled_from(KEYS)),
    st.builds(Term, st.just("has"), st.sampled_from(["attachment", "code", "link"])),
    st.builds(Term, st.just("is"), st.sampled_from(["seen", "unseen"])),
    st.builds(
        lambda field, hour: Term(field, "", ts=T0 + hour * HOUR),
        st.sampled_from(["after", "before"]),
        st.sampled_from([0, 1, 2.5, 3, 6]),
    ),
)
node_st = st.recursive(
    term_st,
    lambda inner: st.one_of(
        st.builds(Not, inner),
        st.builds(And, st.lists(inner, min_size=2, max_size=3).map(tuple)),
        st.builds(Or, st.lists(inner, min_size=2, max_size=3).map(tuple)),
    ),
    max_leaves=6,
)


_RUNS = itertools.count()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(copies=st.lists(copy_st, max_size=10), queries=st.lists(node_st, min_size=1, max_size=4))
async def test_search_is_the_reference_filter_and_never_crosses_identities(
    planned: Store,
    copies: list[tuple[SearchFields | None, int, set[str], bool, bool, set[str], set[str]]],
    queries: list[Node],
) -> None:
    # The store is the test's, shared by the examples: each starts from an empty index, and its
    # message keys are its own, so earlier marks never apply.
    store = planned
    people: dict[str, Identity] = {}
    for name in PEOPLE:
        found = await store.identities.find(f"{name}@{DOMAIN}")
        people[name] = found if found is not None else (await store.identities.create(name))[0]
    await store.index.clear()
    run = next(_RUNS)
    records: list[CopyRecord] = []
    visible: dict[str, list[CopyRecord]] = {name: [] for name in PEOPLE}
    seen: dict[str, set[str]] = {name: set() for name in PEOPLE}
    for n, (fields, hour, granted, code, link, seen_by, deleted_by) in enumerate(copies):
        key = f"k{run}-{n}"
        record = CopyRecord(
            f"c{n}",
            T0 + hour * HOUR,
            10,
            "x@y.test",
            (),
            "s",
            key,
            frozenset(f"{p}@{DOMAIN}" for p in granted),
            codes=(Code("123456", "code 123456", "text"),) if code else (),
            links=(Link("https://x.test/v", "verify", "html"),) if link else (),
            search=fields,
        )
        records.append(record)
        for name in seen_by:
            await store.marks.set_seen(people[name], key, True)
            seen[name].add(key)
        for name in deleted_by:
            await store.marks.set_deleted(people[name], key)
        for name in granted - deleted_by:
            visible[name].append(record)
    await store.index.add(records)
    for node in queries:
        for name, who in people.items():
            got = [s.id for s in await store.index.listing(who, Filters(0, query=node), limit=100)]
            assert got == reference(visible[name], node, seen[name]), (name, node)


def test_the_characters_taken_for_surely_kept_are_kept_by_the_tokenizer() -> None:
    """Every character _FTS_WORD accepts is a token of its own for SQLite's unicode61 (the pre-filter's premise)."""
    chars = [chr(c) for c in range(0x30000) if _FTS_WORD.fullmatch(chr(c))]
    assert len(chars) > 20_000
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE t USING fts5(text, tokenize='unicode61 remove_diacritics 0')")
    conn.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')")
    conn.executemany("INSERT INTO t (rowid, text) VALUES (?, ?)", [(n, c) for n, c in enumerate(chars, 1)])
    kept = {int(r[0]) for r in conn.execute("SELECT doc FROM v")}
    lost = [c for n, c in enumerate(chars, 1) if n not in kept]
    assert lost == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("receipt", '"receipt"'),
        ('"verification code" verif* -spam', '"verification code" AND "verif" *'),
        ("验证码 OR stripe", None),
        ("from:@x.test has:attachment", None),
        ("a b", '"a" AND "b"'),
        ("\u0900\u0905", None),  # Devanagari: not surely kept, tested exactly only
        ("a* receipt", '"receipt"'),  # a short prefix reads most of the vocabulary: left out
        ("abc* ab*", '"abc" *'),
        ("one three fifteen two", '"fifteen" AND "three"'),  # the two longest: the exact test checks the rest
        ('"stripe receipt" recei*', '"stripe receipt" AND "recei" *'),
    ],
)
def test_the_fts_prefilter_takes_positive_text_terms_at_the_top(text: str, expected: str | None) -> None:
    assert fts_query(parse_query(text).root) == expected


def test_the_sync_indexes_the_rendered_html_and_folds_a_message_once_for_its_copies() -> None:
    msg = EmailMessage()
    msg["From"] = "Shop <no-reply@shop.example>"
    msg["To"] = A
    msg["Subject"] = "Ihre Bestätigung"
    msg["Message-ID"] = "<once@mail.test>"
    fullwidth = "\uff21\uff22\uff23"  # "ABC" in fullwidth letters
    msg.set_content(
        f"<div style='display:none'>hidden preheader</div><p>Code&nbsp;<b>{fullwidth}</b> 東京</p>", subtype="html"
    )
    first = b"Received: from one\r\n" + bytes(msg)
    second = b"Received: from two\r\n" + bytes(msg)  # another delivery of the same message
    msg.replace_header("To", B)
    third = b"Received: from three\r\n" + bytes(msg)  # same body, other recipients
    records, shared = [], None
    for n, raw in enumerate((first, second, third)):
        record, shared = _build(
            StoredMessage(f"c{n}", T0, raw, len(raw)), catchall=CATCHALL, max_bytes=10**6, shared=shared
        )
        records.append(record)
    fields = records[0].search
    assert fields is not None
    # What a reader sees of the HTML, folded: entities decoded, hidden parts left out, width folded.
    assert fields.text == " ihre bestätigung \n code abc 東 京 "
    assert fields.from_keys == ("no-reply@shop.example", "@shop.example")
    assert records[1].search is fields  # folded once for both deliveries
    assert records[2].search is not None and records[2].search.to_keys == (B, f"@{DOMAIN}")
    assert records[2].search.text == fields.text
