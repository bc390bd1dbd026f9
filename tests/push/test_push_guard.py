"""The SSRF guard: a table of refused and accepted targets, odd IP spellings, resolver stubs."""

from __future__ import annotations

from collections.abc import Sequence
from ipaddress import ip_address

import pytest

from gateway.errors import InvalidInput, TargetRefused
from gateway.push.guard import Resolver, Target, check_url, refusal, resolve

REFUSED_IPS = [
    ("127.0.0.1", "loopback"),
    ("127.255.0.9", "loopback"),
    ("10.1.2.3", "RFC 1918"),
    ("172.16.0.1", "RFC 1918"),
    ("172.31.255.255", "RFC 1918"),
    ("192.168.1.1", "RFC 1918"),
    ("100.64.0.1", "CGNAT"),
    ("100.127.255.254", "CGNAT"),
    ("169.254.169.254", "metadata"),
    ("169.254.1.1", "link-local"),
    ("0.0.0.0", "unspecified"),
    ("0.1.2.3", "this network"),
    ("224.0.0.1", "multicast"),
    ("239.255.255.250", "multicast"),
    ("255.255.255.255", "broadcast"),
    ("240.0.0.1", "reserved"),
    ("192.0.2.1", "documentation"),
    ("198.51.100.7", "documentation"),
    ("203.0.113.9", "documentation"),
    ("198.18.0.1", "benchmarking"),
    ("192.0.0.1", "IETF"),
    ("::", "unspecified"),
    ("::1", "loopback"),
    ("fe80::1", "link-local"),
    ("febf::1", "link-local"),
    ("fec0::1", "site-local"),
    ("fc00::1", "unique-local"),
    ("fd12:3456::1", "unique-local"),
    ("fd00:ec2::254", "metadata"),
    ("ff02::1", "multicast"),
    ("2001:db8::1", "documentation"),
    ("3fff::1", "documentation"),
    ("100::1", "discard"),
    ("::ffff:127.0.0.1", "IPv4-mapped address of 127.0.0.1 (loopback)"),
    ("::ffff:169.254.169.254", "IPv4-mapped address of 169.254.169.254 (cloud metadata"),
    ("::ffff:10.0.0.1", "IPv4-mapped"),
    ("::127.0.0.1", "IPv4-compatible address of 127.0.0.1"),
    ("::10.0.0.1", "IPv4-compatible"),
    ("::8.8.8.8", "IPv4-compatible (deprecated)"),
    ("::ffff:0:10.0.0.1", "IPv4-translated"),
    ("2002:7f00:1::", "6to4 address of 127.0.0.1"),
    ("2002:a9fe:a9fe::1", "6to4 address of 169.254.169.254"),
    ("2002:c0a8:101::1", "6to4"),
    ("64:ff9b::127.0.0.1", "NAT64 address of 127.0.0.1"),
    ("64:ff9b::10.0.0.1", "NAT64"),
    ("64:ff9b:1::8.8.8.8", "local-use NAT64"),
    ("2001:0:4136:e378:8000:63bf:3fff:fdd2", "Teredo client address of 192.0.2.45"),  # RFC 4380's example
    ("2001:0:808:808::f7ff:fff7", "IETF"),  # Teredo between public addresses: refused all the same
    ("2001:0:7f00:1::", "Teredo server address of 127.0.0.1"),
    ("2001:0:808:808::f5ff:fffe", "Teredo client address of 10.0.0.1"),  # client bits are inverted
    ("::2:3:4:5:6", "reserved"),
]
PUBLIC_IPS = [
    "8.8.8.8",
    "1.1.1.1",
    "93.184.216.34",
    "2606:4700:4700::1111",
    "::ffff:8.8.8.8",
    "64:ff9b::8.8.8.8",
    "2002:808:808::1",
]


@pytest.mark.parametrize(("ip", "reason"), REFUSED_IPS)
def test_refused_addresses(ip: str, reason: str) -> None:
    found = refusal(ip_address(ip))
    assert found is not None and reason in found, found
    literal = f"[{ip}]" if ":" in ip else ip
    with pytest.raises(TargetRefused, match="not a public address"):
        check_url(f"https://{literal}/hook")


@pytest.mark.parametrize("ip", PUBLIC_IPS)
def test_public_addresses_pass(ip: str) -> None:
    assert refusal(ip_address(ip)) is None
    literal = f"[{ip}]" if ":" in ip else ip
    assert check_url(f"https://{literal}/hook").ip == ip_address(ip)


@pytest.mark.parametrize(
    ("host", "value"),
    [
        ("2130706433", "127.0.0.1"),
        ("017700000001", "127.0.0.1"),
        ("0x7f000001", "127.0.0.1"),
        ("0X7F.1", "127.0.0.1"),
        ("127.1", "127.0.0.1"),
        ("127.0.1", "127.0.0.1"),
        ("0177.0.0.01", "127.0.0.1"),
        ("0x7f.0x0.0x0.0x1", "127.0.0.1"),
        ("127.0.0.1.", "127.0.0.1"),
        ("0", "0.0.0.0"),
        ("0x", "0.0.0.0"),
        ("2852039166", "169.254.169.254"),
        ("0xa9.0xfe.0xa9.0xfe", "169.254.169.254"),
        ("0251.0376.0251.0376", "169.254.169.254"),
        ("169.254.43518", "169.254.169.254"),
        ("10.1", "10.0.0.1"),
        ("3232235777", "192.168.1.1"),
    ],
)
def test_odd_ipv4_spellings_are_judged_by_their_value(host: str, value: str) -> None:
    with pytest.raises(TargetRefused, match=f"^{value} is not a public address"):
        check_url(f"https://{host}/")
    allowed = check_url(f"https://{host}/", allow=[f"{value}/32"])
    assert allowed.ip == ip_address(value)
    assert allowed.host == value  # the Host header and the URL carry the canonical form


def test_odd_spellings_of_a_public_address_pass_as_that_address() -> None:
    assert check_url("https://134744072/").ip == ip_address("8.8.8.8")
    assert check_url("https://8.8.2056/").url == "https://8.8.8.8/"


@pytest.mark.parametrize(
    "host",
    [
        "256.0.0.1",
        "1.2.3.4.5",
        "0x100000000",
        "4294967296",
        "08.0.0.1",
        "0x1.0x2.0x3.0x100",
        "1.2.3.09",
        "1..2.3",
        "127.0.0.1..",
    ],
)
def test_numeric_hosts_that_are_no_address_are_refused_not_looked_up(host: str) -> None:
    with pytest.raises(TargetRefused, match=r"IPv4|host"):
        check_url(f"https://{host}/")


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("http://example.com/hook", "https://"),
        ("ftp://example.com/", "https://"),
        ("example.com/hook", "https://"),
        ("https:example.com", "https://"),
        ("//example.com/", "https://"),
        ("https://user:pw@example.com/", "user name or password"),
        ("https://user@example.com/", "user name or password"),
        ("https://:@example.com/", "user name or password"),
        ("https://example.com@127.0.0.1/", "user name or password"),
        ("https://example.com\\@127.0.0.1/", "backslash"),
        ("https://exa mple.com/", "spaces"),
        ("https://example.com/\t", "control"),
        ("https://exämple.com/", "non-ASCII"),
        ("https://[::1/", "IPv6|malformed"),
        ("https://[fe80::1%25eth0]/", "zone"),
        ("https://[v1.abc]/", "IPv6"),
        ("https://[::1]x/", "after its IPv6"),
        ("https://[127.0.0.1]/", "brackets"),
        ("https://example.com:0/", "port"),
        ("https://example.com:65536/", "port"),
        ("https://example.com:+443/", "port"),
        ("https://example.com:/", "port"),
        ("https:///path", "no host"),
        ("https://ex%61mple.com/", "host name"),
        ("https://exa_mple-.com/", "host name"),
        ("https://" + "a" * 64 + ".com/", "host name"),
        ("https://example.com/" + "a" * 2048, "longer"),
        ("https://::1/", "host name"),
    ],
)
def test_malformed_or_forbidden_urls(url: str, message: str) -> None:
    with pytest.raises(TargetRefused, match=message) as caught:
        check_url(url)
    assert isinstance(caught.value, InvalidInput) and caught.value.code == "webhook_target_refused"
    assert "pw" not in caught.value.detail  # never echoes what it refused


def test_a_url_is_read_into_its_parts() -> None:
    target = check_url("HTTPS://Hooks.Example.COM.:8443/a/b?x=1&y=2#frag")
    assert target == Target(scheme="https", host="hooks.example.com", port=8443, path="/a/b?x=1&y=2", ip=None)
    assert target.url == "https://hooks.example.com:8443/a/b?x=1&y=2"
    assert target.authority == "hooks.example.com:8443"
    assert target.url_for(ip_address("2606:4700::1")) == "https://[2606:4700::1]:8443/a/b?x=1&y=2"
    bare = check_url("https://example.com")
    assert (bare.port, bare.path, bare.authority) == (443, "/", "example.com")
    v6 = check_url("https://[2606:4700:4700:0::1111]:444")
    assert (v6.host, v6.authority, v6.url) == (
        "2606:4700:4700::1111",
        "[2606:4700:4700::1111]:444",
        "https://[2606:4700:4700::1111]:444/",
    )


def test_allow_admits_its_networks_and_http_only_to_loopback_inside_it() -> None:
    allow = ["127.0.0.0/8", "10.0.0.0/8", "::1/128"]
    assert check_url("http://127.0.0.1:8080/hook", allow).scheme == "http"
    assert check_url("http://[::1]:8080/hook", allow).ip == ip_address("::1")
    assert check_url("http://[::ffff:127.0.0.1]/", allow).ip == ip_address("::ffff:127.0.0.1")
    assert check_url("https://10.2.3.4/hook", allow).ip == ip_address("10.2.3.4")
    assert check_url("https://2130706433/", allow).host == "127.0.0.1"
    with pytest.raises(TargetRefused, match="not loopback"):
        check_url("http://10.2.3.4/hook", allow)
    with pytest.raises(TargetRefused, match="not a public address"):
        check_url("http://127.0.0.1/", ["127.0.0.2/32"])
    with pytest.raises(TargetRefused, match="not a public address"):
        check_url("https://192.168.0.1/", allow)
    with pytest.raises(TargetRefused, match="not loopback"):
        check_url("http://8.8.8.8/", allow)
    # A name over http passes the syntax check only when some loopback network is allowed.
    assert check_url("http://localhost:9/", allow).host == "localhost"
    with pytest.raises(TargetRefused, match="https://"):
        check_url("http://localhost:9/", ["10.0.0.0/8"])


def stub(*answers: Sequence[str]) -> tuple[list[str], Resolver]:
    """A resolver answering each call with the next list of addresses (the last one repeats)."""
    asked: list[str] = []

    async def resolver(host: str, port: int) -> Sequence[str]:
        asked.append(f"{host}:{port}")
        return answers[min(len(asked), len(answers)) - 1]

    return asked, resolver


async def test_a_name_is_refused_when_any_answer_is_refused() -> None:
    target = check_url("https://hooks.example.com/x")
    asked, resolver = stub(["93.184.216.34", "10.0.0.5"])
    with pytest.raises(
        TargetRefused, match=r"hooks.example.com resolves to an address that is not a public address \(private"
    ):
        await resolve(target, resolver=resolver)
    assert asked == ["hooks.example.com:443"]


@pytest.mark.parametrize(
    "answer",
    [
        "127.0.0.1",
        "169.254.169.254",
        "::1",
        "fe80::1%eth0",
        "::ffff:10.0.0.1",
        "64:ff9b::a9fe:a9fe",
        "fd00:ec2::254",
        "0.0.0.0",
    ],
)
async def test_a_name_resolving_to_an_internal_address_is_refused(answer: str) -> None:
    _, resolver = stub(["8.8.8.8", answer])
    with pytest.raises(TargetRefused, match="not a public address"):
        await resolve(check_url("https://internal.example/"), resolver=resolver)


async def test_rebinding_each_resolution_is_judged_on_its_own() -> None:
    # Public on the first lookup, private on the second: the second lookup (the one a call
    # would use) is refused; the call connects only to what one vetted lookup returned.
    target = check_url("https://rebind.example/")
    _, resolver = stub(["93.184.216.34"], ["127.0.0.1"])
    assert await resolve(target, resolver=resolver) == (ip_address("93.184.216.34"),)
    with pytest.raises(TargetRefused, match="loopback"):
        await resolve(target, resolver=resolver)


async def test_resolve_dedupes_keeps_order_and_refuses_nothing_or_garbage() -> None:
    target = check_url("https://multi.example/")
    _, resolver = stub(["2606:4700::1", "8.8.8.8", "2606:4700::1"])
    assert await resolve(target, resolver=resolver) == (ip_address("2606:4700::1"), ip_address("8.8.8.8"))
    _, empty = stub([])
    with pytest.raises(TargetRefused, match="does not resolve"):
        await resolve(target, resolver=empty)
    _, garbage = stub(["not-an-ip"])
    with pytest.raises(TargetRefused, match="not an address"):
        await resolve(target, resolver=garbage)

    async def failing(host: str, port: int) -> Sequence[str]:
        raise OSError("name or service not known")

    with pytest.raises(TargetRefused, match="does not resolve"):
        await resolve(target, resolver=failing)


async def test_http_to_a_name_needs_every_answer_loopback_and_allowed() -> None:
    target = check_url("http://localhost:8080/", ["127.0.0.0/8"])
    _, both = stub(["127.0.0.1", "::1"])
    # ::1 is loopback but outside the allowed networks; the refusal does not repeat the answer.
    with pytest.raises(
        TargetRefused, match=r"localhost resolves to an address that is not a public address"
    ) as refused:
        await resolve(target, ["127.0.0.0/8"], resolver=both)
    assert "::1" not in refused.value.detail
    assert len(await resolve(target, ["127.0.0.0/8", "::1/128"], resolver=both)) == 2
    _, public = stub(["8.8.8.8"])
    with pytest.raises(TargetRefused, match="not loopback"):
        await resolve(target, ["127.0.0.0/8"], resolver=public)


async def test_the_system_resolver_is_used_by_default() -> None:
    # "localhost" resolves locally (no network), to loopback: refused unless allowed.
    target = check_url("https://localhost/")
    with pytest.raises(TargetRefused, match="loopback"):
        await resolve(target)
    ips = await resolve(target, ["127.0.0.0/8", "::1/128"])
    assert ips and all(ip.is_loopback for ip in ips)


async def test_an_ip_literal_is_judged_again_at_resolve_time() -> None:
    target = check_url("https://10.0.0.1/", ["10.0.0.0/8"])
    assert await resolve(target, ["10.0.0.0/8"]) == (ip_address("10.0.0.1"),)
    with pytest.raises(TargetRefused, match="RFC 1918"):
        await resolve(target, [])  # the operator removed the network since
