"""The search language: parsing (tables and properties), folding, and the reference meaning."""

from __future__ import annotations

import contextlib
import re
import unicodedata
from datetime import datetime
from email.message import EmailMessage

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gateway.errors import InvalidInput, InvalidQuery
from gateway.mail import search
from gateway.mail.models import Attachment
from gateway.mail.parse import parse_message
from gateway.mail.search import (
    MAX_QUERY_CHARS,
    MAX_TERM_CHARS,
    MAX_TEXT_CHARS,
    And,
    Candidate,
    Node,
    Not,
    Or,
    SearchFields,
    Term,
    address_keys,
    counts_as_attachment,
    fold,
    matches,
    parse_query,
    search_fields,
    terms,
)


def text(value: str, *, prefix: bool = False) -> Term:
    return Term("text", value, prefix=prefix)


def ts(iso: str) -> float:
    return datetime.fromisoformat(iso).timestamp()


@pytest.mark.parametrize(
    ("query", "tree"),
    [
        ("invoice", text("invoice")),
        ("Invoice RECEIPT", And((text("invoice"), text("receipt")))),
        ('"Stripe  receipt"', text("stripe receipt")),
        ("a OR b c", And((Or((text("a"), text("b"))), text("c")))),
        ("a b OR c", And((text("a"), Or((text("b"), text("c")))))),
        ("a AND b", And((text("a"), text("b")))),
        ("-invoice", Not(text("invoice"))),
        ("--invoice", Not(Not(text("invoice")))),
        ("(a OR b) -(c d)", And((Or((text("a"), text("b"))), Not(And((text("c"), text("d"))))))),
        ("verif*", text("verif", prefix=True)),
        ('"verif*"', text("verif")),  # quoted: no prefix
        ("e-mail", text("e mail")),
        ("验证码", text("验 证 码")),
        ("認証コード", text("認 証 コ ー ド")),
        ("\uff43\uff4f\uff44\uff45", text("code")),  # fullwidth folds
        ("Straße", text("strasse")),  # casefold, not lower
        ("https://example.com/x", text("https example com x")),
        ("Re: hello", And((text("re"), text("hello")))),  # a word before a colon is no operator
        ("10:30", text("10 30")),
        ("from:Bob@Example.COM", Term("from", "bob@example.com")),
        ("from:@stripe.com", Term("from", "@stripe.com")),
        ("from:stripe.com", Term("from", "@stripe.com")),
        ("to:bob@x.test.", Term("to", "bob@x.test")),
        ('subject:"Your Code"', Term("subject", "your code")),
        ("subject:code*", Term("subject", "code", prefix=True)),
        ("filename:invoice.pdf", Term("filename", "invoice pdf")),
        ("has:attachment", Term("has", "attachment")),
        ("has:links", Term("has", "link")),
        ("has:CODE", Term("has", "code")),
        ("is:unread", Term("is", "unseen")),
        ("is:read", Term("is", "seen")),
        ("after:2026-12-01", Term("after", "2026-12-01", ts=ts("2026-12-01T00:00:00+00:00"))),
        ("before:2026/12/1", Term("before", "2026/12/1", ts=ts("2026-12-01T00:00:00+00:00"))),
        ("newer:2026-12-01T10:00:00", Term("after", "2026-12-01T10:00:00", ts=ts("2026-12-01T10:00:00+00:00"))),
        ("older:2026-12-01T10:00:00Z", Term("before", "2026-12-01T10:00:00Z", ts=ts("2026-12-01T10:00:00+00:00"))),
        ("after:2026-12-01T10:00:00+01:00", Term("after", "2026-12-01T10:00:00+01:00", ts=ts("2026-12-01T09:00:00Z"))),
    ],
)
def test_queries_read_as_gmail_users_expect(query: str, tree: Node) -> None:
    assert parse_query(query).root == tree


@pytest.mark.parametrize(
    ("query", "position", "says"),
    [
        ("", 0, "empty"),
        ("   ", 0, "empty"),
        ("a OR", 2, "OR needs a term after"),
        ("OR a", 0, "before"),
        ("a AND", 2, "AND needs a term after"),
        ("a (b", 2, "unbalanced"),
        ("a b)", 3, "unbalanced"),
        ("()", 1, "empty parentheses"),
        ('say "hello', 4, "unterminated quote"),
        ("invoice form:bob@x.test", 8, "unknown operator form:"),
        ("from:bob", 0, "exact address"),
        ("to:bob@", 0, "domain after @"),
        ("from:", 0, "needs a value"),
        ("has:pdf", 0, "attachment, code or link"),
        ("is:starred", 0, "seen or unseen"),
        ("before:yesterday", 0, "date"),
        ("after:2026-13-01", 0, "date"),
        ("after:2026-02-30", 0, "date"),
        ("x !!!", 2, "letters or digits"),
        ("a - b", 2, "letters or digits"),
        ("-", 0, "letters or digits"),
        ("a\x00b", 1, "NUL"),
        ("(" * 9 + "a" + ")" * 9, 8, "nested deeper"),
        (" ".join(["w"] * 33), 64, "more than 32 terms"),
    ],
)
def test_a_malformed_query_is_a_400_that_points_at_the_term(query: str, position: int, says: str) -> None:
    with pytest.raises(InvalidQuery) as caught:
        parse_query(query)
    assert isinstance(caught.value, InvalidInput)  # 400 through the error tree
    assert caught.value.code == "invalid_query"
    assert caught.value.position == position
    assert says in caught.value.detail
    assert f"at character {position + 1}" in caught.value.detail


def test_an_overlong_query_is_refused_unread() -> None:
    with pytest.raises(InvalidQuery, match="longer than"):
        parse_query("a" * (MAX_QUERY_CHARS + 1))
    assert parse_query(" ".join(["abcdefghijklmnopqrstuvwxyz"] * 32) + "   ").root == And(
        tuple([text("abcdefghijklmnopqrstuvwxyz")] * 32)
    )


@pytest.mark.parametrize("term", ['"' + "a " * 61 + '"', "ß" * 61, "\ufdfa" * 8, "x" * 121])
def test_a_term_over_the_needle_bound_is_refused(term: str) -> None:
    with pytest.raises(InvalidQuery, match="longer than 120"):
        parse_query(term)
    assert parse_query("x" * MAX_TERM_CHARS).root == text("x" * MAX_TERM_CHARS)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_any_text_parses_or_is_an_invalid_query(query: str) -> None:
    try:
        parsed = parse_query(query)
    except InvalidQuery as error:
        assert 0 <= error.position <= len(query)
        assert "\n" not in error.detail or "\n" in query
    else:
        assert sum(1 for _ in terms(parsed.root)) >= 1


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(["a", "b", "(", ")", "OR", "AND", "-", '"x y"', "from:@x.test", "is:seen"]), max_size=40)
)
def test_operator_soup_parses_or_is_an_invalid_query(words: list[str]) -> None:
    with contextlib.suppress(InvalidQuery):
        parse_query(" ".join(words))


# --- folding ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "folded"),
    [
        ("Your CODE: 123-456.", " your code 123 456 "),
        ("  ", ""),
        ("snake_case", " snake case "),
        ("您的验证码是 8 位", " 您 的 验 证 码 是 8 位 "),
        ("パスワード再設定", " パ ス ワ ー ド 再 設 定 "),
        ("인증 코드", " 인 증 코 드 "),
        ("\uff21\uff43\uff43\uff4f\uff55\uff4e\uff54", " account "),
        ("résumé café", " résumé café "),
        ("ΣΊΣΥΦΟΣ", " σίσυφοσ "),
    ],
)
def test_fold_gives_words_with_one_space_around_each(raw: str, folded: str) -> None:
    assert fold(raw) == folded


@given(st.text(max_size=300))
def test_fold_is_idempotent_and_framed(raw: str) -> None:
    once = fold(raw)
    assert fold(once) == once
    assert once == "" or (once.startswith(" ") and once.endswith(" ") and "  " not in once)


_MIXED = st.text(st.sampled_from("ab 1_-.\u00e9\u4e2d\u6587\u9a8c\u8bc1\u30d1\uc778\uff21\u3000\n"), max_size=60)


@given(st.one_of(st.text(max_size=200), _MIXED))
def test_fold_makes_each_cjk_character_a_word(raw: str) -> None:
    # The reading it must equal: every CJK character spaced on its own, then the words.
    spaced = search._CJK.sub(r" \g<0> ", unicodedata.normalize("NFKC", raw).casefold())
    words = re.findall(r"[^\W_]+", spaced)
    assert fold(raw) == ("" if not words else " " + " ".join(words) + " ")


def test_fold_is_capped_at_a_word_boundary() -> None:
    out = fold("abcdefghij " * 10_000)
    assert len(out) <= MAX_TEXT_CHARS
    assert out.endswith(" abcdefghij ")


def test_address_keys_hold_each_address_and_its_domain() -> None:
    assert address_keys(["Bob@X.test", None, "carol@x.test", "nobody"]) == ("bob@x.test", "@x.test", "carol@x.test")


# --- the reference meaning ----------------------------------------------------------------


def fields(**kw: object) -> SearchFields:
    base: dict[str, object] = {
        "text": "",
        "subject": "",
        "filenames": "",
        "from_keys": (),
        "to_keys": (),
        "attachments": 0,
    }
    base.update(kw)
    return SearchFields(**base)  # type: ignore[arg-type]


def candidate(**kw: object) -> Candidate:
    extra = {k: kw.pop(k) for k in ("received_ts", "seen", "has_code", "has_link") if k in kw}
    return Candidate(
        fields(**kw),
        received_ts=float(extra.get("received_ts", 1000.0)),  # type: ignore[arg-type]
        seen=bool(extra.get("seen", False)),
        has_code=bool(extra.get("has_code", False)),
        has_link=bool(extra.get("has_link", False)),
    )


MAIL = candidate(
    text=fold("Your Stripe receipt") + "\n" + fold("Thanks for the invoice #4411. 您的验证码是 123456"),
    subject=fold("Your Stripe receipt"),
    filenames=fold("Invoice-4411.pdf") + "\n" + fold("logo.png"),
    from_keys=address_keys(["billing@stripe.com"]),
    to_keys=address_keys(["bob@x.test", "carol@y.test"]),
    attachments=1,
    received_ts=1000.0,
    has_code=True,
)


@pytest.mark.parametrize(
    ("query", "found"),
    [
        ("receipt", True),
        ("RECEIPT", True),
        ("receip", False),  # whole words
        ("receip*", True),
        ("eceipt", False),
        ('"stripe receipt"', True),
        ('"receipt stripe"', False),
        ('"receipt thanks"', False),  # a phrase never spans two parts
        ("验证码", True),
        ("验证", True),  # a two-character word
        ("证码是", True),
        ("码验", False),
        ("from:billing@stripe.com", True),
        ("from:@stripe.com", True),
        ("from:stripe.com", True),
        ("from:ing@stripe.com", False),
        ("from:@tripe.com", False),
        ("from:@mail.stripe.com", False),
        ("to:bob@x.test", True),
        ("to:carol@y.test", True),
        ("to:@y.test", True),
        ("to:ob@x.test", False),
        ("to:bigbob@x.test", False),
        ("subject:stripe", True),
        ("subject:invoice", False),
        ("filename:pdf", True),
        ("filename:invoice-4411.pdf", True),
        ("filename:invoice.pdf", False),  # words in order: Invoice-4411.pdf is not invoice.pdf
        ('filename:"4411 pdf"', True),
        ('filename:"pdf logo"', False),  # never across two names
        ("has:attachment", True),
        ("has:code", True),
        ("has:link", False),
        ("is:unseen", True),
        ("is:seen", False),
        ("after:1970-01-01T00:16:40Z", True),  # exactly its time: after is inclusive
        ("before:1970-01-01T00:16:40Z", False),  # before is exclusive
        ("before:1970-01-01T00:16:41Z", True),
        ("-receipt", False),
        ("-nothing", True),
        ("nothing OR receipt", True),
        ("nothing OR -receipt", False),
        ("(nothing OR stripe) has:code -has:link", True),
    ],
)
def test_matches_is_exact(query: str, found: bool) -> None:
    assert matches(parse_query(query).root, MAIL) is found


def test_an_empty_message_matches_no_positive_term() -> None:
    empty = candidate()
    for query in ("a", "subject:a", "filename:a", "from:@a.test", "to:@a.test", "has:attachment"):
        assert not matches(parse_query(query).root, empty)
        assert matches(parse_query("-" + query).root, empty)


words = st.sampled_from(["alpha", "beta", "gamma", "验", "证", "码", "x1", "two"])


@settings(max_examples=200, deadline=None)
@given(st.lists(words, min_size=1, max_size=12), st.data())
def test_every_window_of_a_text_is_found_as_a_phrase(doc: list[str], data: st.DataObject) -> None:
    start = data.draw(st.integers(0, len(doc) - 1))
    end = data.draw(st.integers(start + 1, len(doc)))
    phrase = " ".join(doc[start:end])
    c = candidate(text=fold(" ".join(doc)))
    assert matches(parse_query(f'"{phrase}"').root, c)
    assert not matches(parse_query(f'-"{phrase}"').root, c)


# --- from a parsed message ----------------------------------------------------------------


def test_search_fields_of_a_message() -> None:
    msg = EmailMessage()
    msg["From"] = "Stripe <Billing@Stripe.com>"
    msg["To"] = "bob@x.test, Carol <carol@y.test>"
    msg["Cc"] = "dave@z.test"
    msg["Subject"] = "Re: Your receipt"
    msg.set_content("Plain words here.")
    msg.add_alternative("<p>Rendered <b>words</b></p>", subtype="html")
    msg.add_attachment(b"%PDF-1.4", maintype="application", subtype="pdf", filename="Invoice 4411.pdf")
    parsed = parse_message(msg.as_bytes())
    found = search_fields(parsed, "Rendered words")
    assert found.subject == " re your receipt "
    assert found.text == " re your receipt \n plain words here \n rendered words "
    assert found.filenames == " invoice 4411 pdf "
    assert found.from_keys == ("billing@stripe.com", "@stripe.com")
    assert found.to_keys == ("bob@x.test", "@x.test", "carol@y.test", "@y.test", "dave@z.test", "@z.test")
    assert found.attachments == 1


def test_search_text_is_capped() -> None:
    msg = EmailMessage()
    msg["Subject"] = "big"
    msg.set_content("word " * 50_000)
    found = search_fields(parse_message(msg.as_bytes()), "other " * 50_000)
    assert len(found.text) <= MAX_TEXT_CHARS
    assert found.text.startswith(" big \n word word")


def test_a_plain_attachment_counts() -> None:
    assert counts_as_attachment(Attachment("a.pdf", "application/pdf", 1))


def test_query_text_is_kept_as_typed() -> None:
    assert parse_query('from:@x.test "a b"').text == 'from:@x.test "a b"'
    assert isinstance(parse_query("a b").root, And)
