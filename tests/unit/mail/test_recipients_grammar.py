"""Recipient matching follows the RFC 5322 address grammar: each rule, what stays closed, the bounds."""

from __future__ import annotations

from email._header_value_parser import TokenList, get_address_list

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gateway.mail import recipients
from gateway.mail.parse import MAX_HEADER_BYTES, raw_headers
from gateway.mail.recipients import MAX_COMMENT_DEPTH, MAX_ITEMS_PER_VALUE, addresses_in, granted_addresses

CATCHALL = "catch.all@c.test"

# --- one table per rule ---------------------------------------------------------------------

GRAMMAR = [
    # 3.2.2 CFWS around every token of an addr-spec (obs-local-part, obs-domain)
    pytest.param("fox (c) @d.test", ["fox@d.test"], id="comment-before-at"),
    pytest.param("fox@ (c) d.test", ["fox@d.test"], id="comment-after-at"),
    pytest.param("(c)fox@d.test(c)", ["fox@d.test"], id="comments-around"),
    pytest.param("f(c).(c)o . x@d.test", ["f.o.x@d.test"], id="cfws-around-local-dots"),
    pytest.param("fox@d(c).(c)test", ["fox@d.test"], id="cfws-around-domain-dots"),
    pytest.param("fox\t@\td.test", ["fox@d.test"], id="tabs"),
    pytest.param("fox\r\n @\r\n\td.test", ["fox@d.test"], id="folding-around-at"),
    pytest.param("fox@d\r\n  \r\n .test", ["fox@d.test"], id="obs-fws-blank-line"),
    pytest.param("fox(a(b(c)))@d.test", ["fox@d.test"], id="nested-comment"),
    pytest.param("fox(a \\) \\( \\\\)@d.test", ["fox@d.test"], id="quoted-pairs-in-comment"),
    pytest.param('fox("not a quote)@d.test', ["fox@d.test"], id="quote-in-comment-is-text"),
    pytest.param("fox(<, ; : >)@d.test", ["fox@d.test"], id="specials-in-comment-are-text"),
    # 3.2.4 / 3.4.1 quoted local parts
    pytest.param('"fox"@d.test', ["fox@d.test"], id="quoted-needless"),
    pytest.param('"f.o.x"@d.test', ["f.o.x@d.test"], id="quoted-dots"),
    pytest.param('"\\f\\o\\x"@d.test', ["fox@d.test"], id="quoted-pairs-needless"),
    pytest.param('"FOX"@D.TEST', ["fox@d.test"], id="quoted-lowercased"),
    pytest.param('"f".o."x"@d.test', ["f.o.x@d.test"], id="obs-local-part-mixed-words"),
    pytest.param('"f.o".x@d.test', ["f.o.x@d.test"], id="quoted-word-with-dot"),
    pytest.param('"!#$%&\'*+/?=^_`{|}~-"@d.test', ["!#$%&'*+/?=^_`{|}~-@d.test"], id="quoted-atext-specials"),
    # 3.4 name-addr, angle-addr, group, lists
    pytest.param("Fox <fox@d.test>", ["fox@d.test"], id="name-addr"),
    pytest.param('"Fox, the" <fox@d.test>', ["fox@d.test"], id="quoted-display"),
    pytest.param("Joe Q. Public <fox@d.test>", ["fox@d.test"], id="obs-phrase"),
    pytest.param("Fox(c)<(c)fox(c)@(c)d.test(c)>(c)", ["fox@d.test"], id="cfws-in-angle"),
    pytest.param("g: a@d.test, b@d.test;", ["a@d.test", "b@d.test"], id="group"),
    pytest.param("g(c):(c);", [], id="empty-group-cfws"),
    pytest.param("g: , a@d.test, ;, b@d.test", ["a@d.test", "b@d.test"], id="obs-group-list"),
    pytest.param(", a@d.test,, ,b@d.test ,", ["a@d.test", "b@d.test"], id="obs-addr-list"),
    # 4.4 obs-route
    pytest.param("<@r.test:fox@d.test>", ["fox@d.test"], id="route"),
    pytest.param("<@r1.test,@r2.test:fox@d.test>", ["fox@d.test"], id="route-list"),
    pytest.param("<,,@r1.test,,@r2.test,:fox@d.test>", ["fox@d.test"], id="route-empty-elements"),
    pytest.param("<@[192.0.2.1]:fox@d.test>", ["fox@d.test"], id="route-domain-literal"),
    pytest.param("< @ r1 . test (c) : fox@d.test >", ["fox@d.test"], id="route-cfws"),
    # domains
    pytest.param("fox@D.Test", ["fox@d.test"], id="domain-lowercased"),
    pytest.param("fox@d.test.", ["fox@d.test."], id="trailing-dot-kept-distinct"),
    pytest.param("fox@[192.0.2.1]", [], id="domain-literal-grants-nothing"),
    pytest.param("fox@[a\\]b], x@d.test", ["x@d.test"], id="domain-literal-quoted-pair"),
    pytest.param("x@[a, b@d.test]", [], id="comma-in-domain-literal-splits-nothing"),
    pytest.param("[EXT] Fox <fox@d.test>", ["fox@d.test"], id="brackets-in-display-name"),
    pytest.param("<@[192.0.2.1,x]:fox@d.test>", ["fox@d.test"], id="route-literal-with-comma"),
    # RFC 6532
    pytest.param("f\u00f6x@d.test", ["f\u00f6x@d.test"], id="utf8-atom"),
    pytest.param('"f\u00f6x"@d.test', ["f\u00f6x@d.test"], id="utf8-quoted-needless"),
]


@pytest.mark.parametrize(("value", "expected"), GRAMMAR)
def test_grammar_rule(value: str, expected: list[str]) -> None:
    assert addresses_in(value) == expected


CLOSED = [
    # a quoted local part that needs its quotes is nobody's, and never its lookalike
    pytest.param('"a b"@d.test', id="quoted-space"),
    pytest.param('"a@b"@d.test', id="quoted-at"),
    pytest.param('"a\\@b"@d.test', id="quoted-pair-at"),
    pytest.param('"a..b"@d.test', id="quoted-double-dot"),
    pytest.param('".ab"@d.test', id="quoted-leading-dot"),
    pytest.param('"ab."@d.test', id="quoted-trailing-dot"),
    pytest.param('""@d.test', id="quoted-empty"),
    pytest.param('"".ab@d.test', id="empty-word"),
    pytest.param('"a,b"@d.test', id="quoted-comma"),
    pytest.param('"a\\"b"@d.test', id="quoted-quote"),
    pytest.param('"a\\\\b"@d.test', id="quoted-backslash"),
    pytest.param('"a\tb"@d.test', id="quoted-tab"),
    pytest.param('"a\x00b"@d.test', id="quoted-nul"),
    pytest.param('"a\u200bb"@d.test', id="quoted-zero-width"),
    pytest.param('"=?utf-8?q?ab?="@d.test', id="quoted-encoded-word"),
    # words must be joined by dots; comments never join them
    pytest.param("a (c) b@d.test", id="two-atoms"),
    pytest.param('"a" b@d.test', id="quoted-then-atom"),
    pytest.param('a"b"@d.test', id="atom-then-quoted"),
    pytest.param("a@d (c) test", id="two-domain-atoms"),
    pytest.param("a.@d.test", id="trailing-dot-local"),
    pytest.param(".a@d.test", id="leading-dot-local"),
    pytest.param("a..b@d.test", id="double-dot-local"),
    pytest.param("a@.d.test", id="leading-dot-domain"),
    pytest.param("a@d..test", id="double-dot-domain"),
    pytest.param("a@d.test..", id="two-trailing-dots"),
    pytest.param("a@", id="no-domain"),
    pytest.param("<a@d.test> x <b@d.test>", id="two-angles"),
    pytest.param("<,:a@d.test>", id="route-without-domain"),
    pytest.param("<@:a@d.test>", id="route-at-without-domain"),
    pytest.param("<@r.test,x:a@d.test>", id="route-element-without-at"),
    pytest.param("<@r.test.:a@d.test>", id="route-trailing-dot"),
    pytest.param("<a@d.test;>", id="semicolon-in-angle"),
    pytest.param("\u00a0a@d.test", id="no-break-space"),
    pytest.param("a@d.test\u3000", id="ideographic-space"),
    pytest.param("a\u0085@d.test", id="c1-control"),
]


@pytest.mark.parametrize("value", CLOSED)
def test_element_stays_closed(value: str) -> None:
    assert addresses_in(value) == []
    assert addresses_in(f"ok@d.test, {value}, ok2@d.test") == ["ok@d.test", "ok2@d.test"]


WHOLE_VALUE_CLOSED = [
    pytest.param('x@d.test, "a', id="unterminated-quote"),
    pytest.param('x@d.test, "a\\"', id="quote-escaped-at-end"),
    pytest.param("x@d.test, (a", id="unterminated-comment"),
    pytest.param("x@d.test, (a(b)", id="unterminated-nested-comment"),
    pytest.param("x@d.test, (a \\)", id="comment-escaped-close"),
    pytest.param("x@d.test, a)", id="stray-paren"),
    pytest.param("x@d.test, [a", id="unterminated-literal"),
    pytest.param("x@d.test, a@[1[2]]", id="bracket-in-literal"),
    pytest.param("x@d.test, a]", id="stray-bracket"),
    pytest.param("[(], x@d.test", id="brackets-outside-domain-hold-paren"),
    pytest.param('x@d.test, [a, "b] <c@d.test>', id="brackets-outside-domain-hold-comma"),
    pytest.param("x@d.test, <a@d.test", id="unterminated-angle"),
    pytest.param("x@d.test, <a@d.test>>", id="stray-gt"),
    pytest.param("x@d.test, <<a@d.test>>", id="nested-angle"),
    # A control or a backslash outside quotes and comments: readers differ on where the field or the
    # element ends (a bare CR ends the field for the stdlib, "\\," escapes the comma for Postfix).
    pytest.param("x@d.test, a\\b@d.test", id="backslash-outside-quotes"),
    pytest.param("a\\,victim@d.test", id="backslash-escapes-a-comma-for-postfix"),
    pytest.param('\\"y", victim@d.test, "w"', id="backslash-before-a-quote"),
    pytest.param("x@d.test, a@d.test\r\n", id="crlf-without-wsp"),
    pytest.param("x@d.test, a@d.test\n b@d.test", id="bare-lf"),
    pytest.param("a@d.test\rSubject: victim@d.test", id="bare-cr-starts-another-field-for-the-stdlib"),
    pytest.param("a@d.test,\x0c victim@d.test", id="form-feed"),
    pytest.param("x@d.test, <a" + "(" * (MAX_COMMENT_DEPTH + 1) + ")" * (MAX_COMMENT_DEPTH + 1) + "@d>", id="too-deep"),
]


@pytest.mark.parametrize("value", WHOLE_VALUE_CLOSED)
def test_value_without_single_reading_grants_nothing(value: str) -> None:
    assert addresses_in(value) == []


def test_comment_depth_bound_inside_an_address() -> None:
    deep = "(" * MAX_COMMENT_DEPTH + "c" + ")" * MAX_COMMENT_DEPTH
    assert addresses_in(f"<fox{deep}@d.test>") == ["fox@d.test"]
    assert addresses_in(f"<fox({deep})@d.test>") == []


def test_quoted_lookalike_never_grants_the_dot_atom() -> None:
    # Every way of writing "a b", "a@b", "a.b" in quotes, against the addresses they resemble.
    granted = granted_addresses(
        [("To", '"a b"@d.test, "a@b"@d.test, "a\\ b"@d.test, "a\\@b"@d.test, "a..b"@d.test')], catchall=CATCHALL
    )
    assert granted == frozenset()


# --- bounds: long lists are read whole; hostile values cost linear work ------------------


def test_item_bound_is_out_of_reach_of_any_header_within_the_size_bound() -> None:
    # The shortest address is three characters, and each after the first needs a separator.
    assert (MAX_HEADER_BYTES + 1) // 4 <= MAX_ITEMS_PER_VALUE
    value = ",".join(f"{chr(97 + i % 26)}@{chr(97 + i // 26 % 26)}" for i in range((MAX_HEADER_BYTES + 1) // 4))
    assert len(value) <= MAX_HEADER_BYTES
    found = addresses_in(value)
    assert len(found) == (MAX_HEADER_BYTES + 1) // 4
    assert found[-1] == value.rsplit(",", 1)[1]


def test_identity_late_in_a_long_header_from_raw_bytes() -> None:
    # 200 KB of To, folded, the identity at position 5,000 and again last.
    members = [f"Member {i} <member-{i:05d}@list.test>" for i in range(5500)]
    members.insert(4999, "Agent <k7d2@d.test>")
    members.append("(last) k7d2@d.test")
    raw = ("To: " + ",\r\n\t".join(members) + "\r\nSubject: x\r\n\r\nbody\r\n").encode()
    assert 200_000 < len(raw) < MAX_HEADER_BYTES
    granted = granted_addresses(raw_headers(raw), catchall="agent@d.test")
    assert "k7d2@d.test" in granted
    assert len(granted) == 5501


MEGABYTE = 1_000_000
PATHOLOGICAL = [
    pytest.param("(" * MAX_COMMENT_DEPTH + "x" * MEGABYTE, id="unterminated-deep-comment"),
    pytest.param("(" * MEGABYTE, id="open-parens"),
    pytest.param("(x" * (MEGABYTE // 2), id="open-comments"),
    pytest.param("()" * (MEGABYTE // 2), id="empty-comments"),
    pytest.param("((((((((()))))))))" * (MEGABYTE // 18), id="nested-comments"),
    pytest.param('"' * MEGABYTE, id="quotes"),
    pytest.param('"\\' * (MEGABYTE // 2), id="escaped-quotes"),
    pytest.param('"' + "\\a" * (MEGABYTE // 2) + '"@d', id="quoted-pairs"),
    pytest.param('"",' * (MEGABYTE // 3), id="empty-quoted-elements"),
    pytest.param("," * MEGABYTE, id="commas"),
    pytest.param(", " * (MEGABYTE // 2), id="empty-elements"),
    pytest.param("[" * MEGABYTE, id="open-brackets"),
    pytest.param("[]" * (MEGABYTE // 2), id="literals"),
    pytest.param("<>" * (MEGABYTE // 2), id="empty-angles"),
    pytest.param("<" + "@r," * (MEGABYTE // 3) + ":a@d>", id="long-route"),
    pytest.param("." * MEGABYTE, id="dots"),
    pytest.param("@" * MEGABYTE, id="ats"),
    pytest.param("a." * (MEGABYTE // 2) + "@d", id="dotted-local"),
    pytest.param('"a".' * (MEGABYTE // 4) + "a@d", id="quoted-words"),
    pytest.param("\x00a" * (MEGABYTE // 2), id="controls"),
    pytest.param("a@d\r\n " * (MEGABYTE // 6), id="folds"),
]


@pytest.mark.timeout(20)
@pytest.mark.parametrize("value", PATHOLOGICAL)
def test_pathological_megabyte_costs_linear_work(value: str) -> None:
    reading = recipients._read(value)
    # One Python step per token, a token being one character or more; the tokenizer's
    # regular expression is possessive throughout (see _TOKEN), so it never backtracks.
    assert reading.steps <= len(value) + 1
    assert reading.addresses is None or len(reading.addresses) <= MAX_ITEMS_PER_VALUE


def test_steps_grow_linearly() -> None:
    unit = '(a)"b"<c@d>,[e];f:'
    small, large = recipients._read(unit * 1000), recipients._read(unit * 4000)
    assert large.steps <= 4 * small.steps + 4


# --- properties: renderings the grammar defines as equal grant the same -------------------

_ATEXT = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+/=^_`{|}~-"
atoms = st.text(_ATEXT, min_size=1, max_size=8).filter(lambda a: "=?" not in a and not a.endswith("="))
labels = st.text("abcdefghijklmnopqrstuvwxyz0123456789-", min_size=1, max_size=8)


@st.composite
def addr_specs(draw: st.DrawFn) -> tuple[list[str], list[str]]:
    """A dot-atom addr-spec as (local atoms, domain labels)."""
    return draw(st.lists(atoms, min_size=1, max_size=3)), draw(st.lists(labels, min_size=1, max_size=3))


def _plain(spec: tuple[list[str], list[str]]) -> str:
    return ".".join(spec[0]) + "@" + ".".join(spec[1])


def _canonical(spec: tuple[list[str], list[str]]) -> str:
    return _plain(spec).lower()


decoys = st.sampled_from(["victim@d.test", "fox@d.test", "k7d2@d.test"])
comment_text = st.lists(
    st.one_of(
        st.text("abc xyz.@<>,;:\"[]'", max_size=6),
        st.sampled_from(["\\(", "\\)", "\\\\", "\\a", "\\@"]),
        decoys,
    ),
    max_size=4,
).map("".join)


@st.composite
def comments(draw: st.DrawFn, depth: int = 3) -> str:
    inner = draw(comment_text)
    if depth > 1 and draw(st.booleans()):
        inner += draw(comments(depth - 1)) + draw(comment_text)
    return f"({inner})"


@st.composite
def cfws(draw: st.DrawFn, *, folding: bool = True) -> str:
    """Legal CFWS: white space, folds (CRLF + WSP) and nested comments; possibly nothing."""
    pieces = [" ", "\t", "  "] + (["\r\n ", "\r\n\t"] if folding else [])
    out = draw(st.lists(st.one_of(st.sampled_from(pieces), comments()), max_size=3))
    return "".join(out)


def _quote(text: str, needless: list[bool]) -> str:
    """``text`` as a quoted string; characters flagged in ``needless`` become needless quoted-pairs."""
    flags = needless + [False] * (len(text) - len(needless))
    return '"' + "".join("\\" + ch if pair or ch in '"\\' else ch for ch, pair in zip(text, flags, strict=False)) + '"'


@st.composite
def local_renderings(draw: st.DrawFn, local: list[str]) -> str:
    style = draw(st.sampled_from(["dot-atom", "quoted", "obs"]))
    if style == "dot-atom":
        return ".".join(local)
    if style == "quoted":
        text = ".".join(local)
        return _quote(text, draw(st.lists(st.booleans(), max_size=len(text))))
    words = []
    for atom in local:
        if draw(st.booleans()):
            words.append(_quote(atom, draw(st.lists(st.booleans(), max_size=len(atom)))))
        else:
            words.append(atom)
    return "".join(word if i == 0 else draw(cfws()) + "." + draw(cfws()) + word for i, word in enumerate(words))


@st.composite
def addr_spec_renderings(draw: st.DrawFn, spec: tuple[list[str], list[str]]) -> str:
    local, domain = spec
    labels_out = [label if i == 0 else draw(cfws()) + "." + draw(cfws()) + label for i, label in enumerate(domain)]
    return draw(local_renderings(local)) + draw(cfws()) + "@" + draw(cfws()) + "".join(labels_out)


display_names = st.one_of(
    st.lists(st.text("abcXYZ", min_size=1, max_size=5), min_size=1, max_size=3).map(" ".join),
    st.text("abc xyz<>,;:@.()[]", max_size=12).map(lambda t: _quote(t, [])),
    decoys.map(lambda d: _quote(d, [])),
    st.lists(st.text("abcXYZ", min_size=1, max_size=5), min_size=1, max_size=3).map(". ".join),  # obs-phrase
)
routes = st.lists(st.lists(labels, min_size=1, max_size=2).map(".".join), min_size=1, max_size=3).map(
    lambda hops: ",".join("@" + hop for hop in hops) + ":"
)


@st.composite
def mailboxes(draw: st.DrawFn, spec: tuple[list[str], list[str]]) -> str:
    rendered = draw(addr_spec_renderings(spec))
    if draw(st.booleans()):
        return draw(cfws()) + rendered + draw(cfws())
    display = draw(st.one_of(st.just(""), display_names))
    route = draw(st.one_of(st.just(""), routes))
    return display + draw(cfws()) + "<" + draw(cfws()) + route + rendered + draw(cfws()) + ">" + draw(cfws())


@st.composite
def lists_of(draw: st.DrawFn) -> tuple[list[tuple[list[str], list[str]]], str, str]:
    """(the addr-specs, their plain rendering, a legal rendering of the same list)."""
    specs = draw(st.lists(addr_specs(), min_size=1, max_size=5))
    elements: list[str] = []
    rest = list(specs)
    while rest:
        if len(rest) > 1 and draw(st.booleans()):
            count = draw(st.integers(1, len(rest)))
            members = [draw(mailboxes(spec)) for spec in rest[:count]]
            name = draw(st.lists(st.text("abcXYZ", min_size=1, max_size=5), min_size=1, max_size=2).map(" ".join))
            elements.append(name + draw(cfws()) + ":" + ",".join(members) + ";" + draw(cfws()))
            rest = rest[count:]
        else:
            elements.append(draw(mailboxes(rest.pop(0))))
        if draw(st.booleans()):
            elements.append(draw(cfws()))  # an empty list element (obs-addr-list)
    return specs, ", ".join(_plain(spec) for spec in specs), ",".join(elements)


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lists_of())
def test_a_legal_rendering_grants_what_the_plain_one_grants(
    case: tuple[list[tuple[list[str], list[str]]], str, str],
) -> None:
    specs, plain, rendered = case
    expected = granted_addresses([("To", plain)], catchall=CATCHALL)
    assert expected == {_canonical(spec) for spec in specs}
    assert granted_addresses([("To", rendered)], catchall=CATCHALL) == expected
    # The same header as it reaches us from raw bytes: unfolded by raw_headers.
    raw = b"To: " + rendered.encode() + b"\r\nSubject: x\r\n\r\n"
    assert granted_addresses(raw_headers(raw), catchall=CATCHALL) == expected


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lists_of())
def test_a_rendering_never_grants_an_address_it_does_not_hold(
    case: tuple[list[tuple[list[str], list[str]]], str, str],
) -> None:
    specs, _plain_value, rendered = case
    # Comments and display names hold decoys ("victim@d.test" ...); they never grant.
    assert granted_addresses([("Cc", rendered)], catchall=CATCHALL) <= {_canonical(spec) for spec in specs}


def _oracle(value: str) -> list[str]:
    """The stdlib's reading, for well-formed input only: it is lenient elsewhere."""
    found: list[str] = []

    def walk(token: object) -> None:
        if getattr(token, "token_type", None) == "mailbox":
            found.append(f"{token.local_part}@{token.domain}".lower())  # type: ignore[attr-defined]
        elif isinstance(token, TokenList):
            for child in token:
                walk(child)

    address_list, rest = get_address_list(value.replace("\r\n", ""))  # it reads unfolded values
    assert rest == ""
    walk(address_list)
    return found


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lists_of())
def test_the_stdlib_reads_the_same_addresses(case: tuple[list[tuple[list[str], list[str]]], str, str]) -> None:
    specs, _plain_value, rendered = case
    assert addresses_in(rendered) == _oracle(rendered) == [_canonical(spec) for spec in specs]


_PLAIN_ADDRESS = st.from_regex(
    r"[A-Za-z0-9+_-]{1,5}(\.[a-z0-9+_-]{1,5}){0,2}@[a-z0-9]{1,8}\.(test|EXAMPLE)", fullmatch=True
)


@settings(max_examples=300)
@given(st.lists(st.tuples(_PLAIN_ADDRESS, st.sampled_from(["", " ", "\t", "  "])), min_size=1, max_size=20))
def test_a_list_of_plain_addresses_reads_as_the_grammar_reads_it(items: list[tuple[str, str]]) -> None:
    """Such a list is read at regex speed; a comment at its end sends it through the tokens."""
    value = ",".join(f"{pad}{address}{pad}" for address, pad in items)
    assert addresses_in(value) == addresses_in(value + " (c)") == [address.lower() for address, _ in items]
