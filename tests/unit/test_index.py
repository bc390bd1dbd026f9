"""The message index: per-address listing, paging, de-duplicated copies, rebuildable."""

from __future__ import annotations

from pathlib import Path

import pytest

from gateway.index import Cursor, Filters, IndexRecord, MessageIndex


def record(
    id: str, ts: float, grants: set[str], *, key: str | None = None, subject: str = "s", sender: str = "a@x"
) -> IndexRecord:
    return IndexRecord(id, ts, 100, sender, tuple(sorted(grants)), subject, key or f"key-{id}", frozenset(grants))


@pytest.fixture
def index(tmp_path: Path) -> MessageIndex:
    idx = MessageIndex.open(tmp_path / "index.db")
    yield idx
    idx.close()


def test_listing_is_newest_first_and_exact(index: MessageIndex) -> None:
    index.add([record("m1", 1, {"a@d"}), record("m2", 2, {"a@d", "b@d"}), record("m3", 3, {"b@d"})])
    assert [s.id for s in index.listing("a@d", Filters(0), limit=10)] == ["m2", "m1"]
    assert [s.id for s in index.listing("b@d", Filters(0), limit=10)] == ["m3", "m2"]
    assert index.listing("c@d", Filters(0), limit=10) == []


def test_paging_before_and_after(index: MessageIndex) -> None:
    index.add([record(f"m{i}", float(i), {"a@d"}) for i in range(1, 6)])
    page = index.listing("a@d", Filters(0), limit=2, before=Cursor(4.0, "m4"))
    assert [s.id for s in page] == ["m3", "m2"]
    page = index.listing("a@d", Filters(0), limit=2, after=Cursor(2.0, "m2"))
    assert [s.id for s in page] == ["m3", "m4"]


def test_same_second_ties_break_by_id(index: MessageIndex) -> None:
    index.add([record("b", 5, {"a@d"}), record("a", 5, {"a@d"}), record("c", 5, {"a@d"})])
    assert [s.id for s in index.listing("a@d", Filters(0), limit=10)] == ["c", "b", "a"]
    assert [s.id for s in index.listing("a@d", Filters(0), limit=10, before=Cursor(5, "b"))] == ["a"]


def test_filters(index: MessageIndex) -> None:
    index.add(
        [
            record("m1", 1, {"a@d"}, subject="Your CODE", sender="Shop <no-reply@shop.example>"),
            record("m2", 2, {"a@d"}, subject="News", sender="news@other.example"),
            record("m3", 3, {"a@d"}, subject="Your code again", sender="Shop <no-reply@shop.example>"),
        ]
    )
    assert [s.id for s in index.listing("a@d", Filters(0, subject="code"), limit=10)] == ["m3", "m1"]
    assert [s.id for s in index.listing("a@d", Filters(0, sender="OTHER.example"), limit=10)] == ["m2"]
    assert [s.id for s in index.listing("a@d", Filters(2), limit=10)] == ["m3", "m2"]
    # exclude names message keys (what marks hang on), not copy ids
    assert [s.id for s in index.listing("a@d", Filters(0, exclude=frozenset({"key-m3"})), limit=10)] == ["m2", "m1"]
    assert [s.id for s in index.listing("a@d", Filters(0, exclude=frozenset({"m3"})), limit=10)] == ["m3", "m2", "m1"]


def test_copies_of_one_message_appear_once_per_address(index: MessageIndex) -> None:
    # One message To: a, Cc: b sent to both: two mailbox copies, same key.
    index.add([record("copy-a", 1, {"a@d", "b@d"}, key="k"), record("copy-b", 1, {"a@d", "b@d"}, key="k")])
    assert [s.id for s in index.listing("a@d", Filters(0), limit=10)] == ["copy-a"]
    assert [s.id for s in index.listing("b@d", Filters(0), limit=10)] == ["copy-a"]
    ids, grants = index.copies("copy-b")
    assert sorted(ids) == ["copy-a", "copy-b"]
    assert sorted(a for a, _, _ in grants) == ["a@d", "b@d"]


def test_remove_and_visible(index: MessageIndex) -> None:
    index.add([record("m1", 10, {"a@d"})])
    assert index.visible("a@d", "m1", 0) is not None
    assert index.visible("a@d", "m1", 11) is None  # arrived before the identity existed
    assert index.visible("b@d", "m1", 0) is None
    index.remove(["m1"])
    assert index.visible("a@d", "m1", 0) is None
    assert index.known_ids() == set()


def test_adding_twice_is_harmless(index: MessageIndex) -> None:
    index.add([record("m1", 1, {"a@d"})])
    index.add([record("m1", 1, {"a@d"})])
    assert index.count() == 1


def test_corrupt_index_is_rebuilt_empty(tmp_path: Path) -> None:
    path = tmp_path / "index.db"
    path.write_bytes(b"garbage" * 1000)
    idx = MessageIndex.open(path)
    assert idx.count() == 0
    idx.add([record("m1", 1, {"a@d"})])
    assert idx.count() == 1
    idx.close()


def test_removed_copy_stays_a_cursor_for_its_addresses(index: MessageIndex) -> None:
    index.add([record(f"m{i}", float(i), {"a@d"}) for i in range(1, 5)])
    index.remove(["m3"])
    assert index.cursor_of("a@d", "m3") == Cursor(3.0, "m3")
    assert index.cursor_of("b@d", "m3") is None  # only for the addresses it was granted to
    assert [s.id for s in index.listing("a@d", Filters(0), limit=10, before=Cursor(3.0, "m3"))] == ["m2", "m1"]
    assert index.visible("a@d", "m3", 0) is None


def test_removed_cursors_go_with_retention_and_clear(index: MessageIndex) -> None:
    index.add([record("m1", 1.0, {"a@d"}), record("m2", 2.0, {"a@d"})])
    index.remove(["m1", "m2"])
    index.forget_cursors(before_ts=2.0)
    assert index.cursor_of("a@d", "m1") is None
    assert index.cursor_of("a@d", "m2") == Cursor(2.0, "m2")
    index.clear()
    assert index.cursor_of("a@d", "m2") is None


def test_index_of_an_older_schema_is_rebuilt(tmp_path: Path) -> None:
    path = tmp_path / "index.db"
    idx = MessageIndex.open(path)
    idx.add([record("m1", 1, {"a@d"})])
    idx.set_meta("schema_version", "1")
    idx.close()
    idx = MessageIndex.open(path)
    assert idx.count() == 0
    idx.close()


def test_a_later_copy_of_a_removed_message_grants_nothing_again(index: MessageIndex) -> None:
    # Copy 1 (To: a, b) is indexed, deleted and expunged; copy 2 of the same message arrives
    # later (the per-recipient deliveries of one message can be seconds apart).
    index.add([record("copy-1", 1, {"a@d", "b@d"}, key="k")])
    index.remove(["copy-1"])
    index.add([record("copy-2", 1, {"a@d", "b@d"}, key="k")])
    assert index.listing("a@d", Filters(0), limit=10) == []
    assert index.listing("b@d", Filters(0), limit=10) == []
    index.add([record("other", 2, {"a@d"}, key="k2")])
    assert [s.id for s in index.listing("a@d", Filters(0), limit=10)] == ["other"]
