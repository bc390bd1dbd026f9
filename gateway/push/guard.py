"""The SSRF guard: which webhook URLs the gateway calls, and at which addresses.

A webhook URL is chosen by whoever holds a token, and the gateway calls it from inside its own
network: without a guard, a URL could reach the cloud metadata service, a database's HTTP port
or an admin page on localhost. So a target must be `https://` (plain http only to loopback
networks the operator allowed in `webhook_allow`), carry no user name or password, and every
address it stands for must be public unicast:

- `check_url` reads the URL (pure). An IP literal is read the way a resolver reads it (glibc's
  `inet_aton` and the WHATWG URL standard agree on this): `2130706433`, `0x7f.1`, `017700000001`
  and `127.1` are all 127.0.0.1, and are judged as such; a host whose last label is a number
  but is no valid address is refused rather than handed to DNS.
- `resolve` resolves a host name (the event loop's getaddrinfo, or a resolver passed in) and
  refuses the target when ANY answer is refused, so a name with one public and one private
  address cannot slip through. The caller connects to the vetted addresses only (call.py), so
  a second, different DNS answer at connect time (rebinding) is never used.
- `refusal` judges one address: loopback, RFC 1918, CGNAT, link-local, metadata, multicast,
  broadcast, unspecified, reserved, documentation and benchmarking ranges, IPv6 unique-local,
  site-local and everything outside 2000::/3; IPv6 forms that carry an IPv4 address
  (IPv4-mapped, IPv4-compatible, 6to4, NAT64, Teredo) are judged by the IPv4 address inside.
  A network listed in `webhook_allow` is callable whatever its kind.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import re
import socket
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from ipaddress import IPv4Address, IPv4Network, IPv6Address, IPv6Network, ip_address, ip_network
from typing import Final, Literal
from urllib.parse import urlsplit

from gateway.errors import TargetRefused
from gateway.wire import MAX_WEBHOOK_URL

__all__ = [
    "IPAddress",
    "Network",
    "Resolver",
    "Target",
    "TargetRefused",
    "allowed_networks",
    "check_url",
    "refusal",
    "resolve",
    "system_resolver",
]

IPAddress = IPv4Address | IPv6Address
Network = IPv4Network | IPv6Network
Resolver = Callable[[str, int], Awaitable[Sequence[str]]]
"""(host, port) -> the addresses it resolves to, as text (as getaddrinfo's sockaddr[0])."""

_DEFAULT_PORTS: Final = {"http": 80, "https": 443}
_MAX_HOST: Final = 253  # RFC 1035: a name of at most 255 octets on the wire, 253 written out
_LABEL: Final = re.compile(r"[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?")
# WHATWG "ends in a number": a last label of digits or 0x and hex digits makes the host an IPv4
# address (or an error), never a name to look up.
_NUMERIC_LABEL: Final = re.compile(r"[0-9]+|0[xX][0-9a-fA-F]*")
_PORT: Final = re.compile(r"[0-9]{1,5}")
# Printable ASCII without space and backslash: parsers disagree on '\' (WHATWG reads it as '/')
# and silently drop tabs and newlines, so a URL holding them could be read two ways.
_URL_CHARS: Final = re.compile(r"[\x21-\x5b\x5d-\x7e]+")


def _nets(*cidrs: str) -> tuple[Network, ...]:
    return tuple(ip_network(cidr) for cidr in cidrs)


# Order matters: the first matching row names the reason (metadata before link-local).
_V4_REFUSED: Final[tuple[tuple[tuple[Network, ...], str], ...]] = (
    (_nets("255.255.255.255/32"), "broadcast"),
    (_nets("169.254.169.254/32"), "cloud metadata service"),
    (_nets("0.0.0.0/8"), "unspecified / this network"),
    (_nets("127.0.0.0/8"), "loopback"),
    (_nets("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"), "private (RFC 1918)"),
    (_nets("100.64.0.0/10"), "shared address space (CGNAT)"),
    (_nets("169.254.0.0/16"), "link-local"),
    (_nets("192.0.0.0/24"), "IETF protocol assignments"),
    (_nets("192.0.2.0/24", "198.51.100.0/24", "203.0.113.0/24"), "documentation"),
    (_nets("192.88.99.0/24"), "6to4 relay anycast"),
    (_nets("198.18.0.0/15"), "benchmarking"),
    (_nets("224.0.0.0/4"), "multicast"),
    (_nets("240.0.0.0/4"), "reserved"),
)
_V6_REFUSED: Final[tuple[tuple[tuple[Network, ...], str], ...]] = (
    (_nets("::/128"), "unspecified"),
    (_nets("::1/128"), "loopback"),
    (_nets("fd00:ec2::254/128"), "cloud metadata service"),
    (_nets("::/96"), "IPv4-compatible (deprecated)"),
    (_nets("64:ff9b:1::/48"), "local-use NAT64"),
    (_nets("100::/64"), "discard-only"),
    (_nets("2001::/23"), "IETF protocol assignments (Teredo, benchmarking, ORCHID)"),
    (_nets("2001:db8::/32", "3fff::/20"), "documentation"),
    (_nets("fc00::/7"), "unique-local"),
    (_nets("fe80::/10"), "link-local"),
    (_nets("fec0::/10"), "site-local"),
    (_nets("ff00::/8"), "multicast"),
)
_V6_GLOBAL_UNICAST: Final = ip_network("2000::/3")
_NAT64: Final = ip_network("64:ff9b::/96")
_V4_COMPATIBLE: Final = ip_network("::/96")
_SIIT: Final = ip_network("::ffff:0:0:0/96")  # RFC 2765 "IPv4-translated"


@dataclass(frozen=True, slots=True)
class Target:
    """A webhook URL as the guard read it: what to connect to and what to ask for."""

    scheme: Literal["http", "https"]
    host: str
    """The host name, lower case, no trailing dot; or the IP literal's canonical text (no brackets)."""
    port: int
    path: str
    """The request target: path and query ('/' when empty); the fragment is never sent."""
    ip: IPAddress | None
    """The address of an IP-literal URL (already vetted); None for a name, to be resolved."""

    @property
    def authority(self) -> str:
        """`host[:port]` as the Host header and the URL write it (IPv6 in brackets, default port left out)."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return host if self.port == _DEFAULT_PORTS[self.scheme] else f"{host}:{self.port}"

    @property
    def url(self) -> str:
        """The canonical URL (what the gateway stores and shows)."""
        return f"{self.scheme}://{self.authority}{self.path}"

    def url_for(self, ip: IPAddress) -> str:
        """The same URL with the host replaced by `ip`: where the call connects."""
        host = f"[{ip}]" if ip.version == 6 else str(ip)
        return f"{self.scheme}://{host}:{self.port}{self.path}"


def allowed_networks(allow: Iterable[str | Network]) -> tuple[Network, ...]:
    """`webhook_allow` as networks (ValueError on one that is not a CIDR)."""
    return tuple(a if isinstance(a, IPv4Network | IPv6Network) else ip_network(a, strict=False) for a in allow)


def refusal(ip: IPAddress, allow: Iterable[str | Network] = ()) -> str | None:
    """Why the gateway will not call `ip`, or None when it may (public unicast, or inside `allow`)."""
    nets = allowed_networks(allow)
    if any(ip in net for net in nets if net.version == ip.version):
        return None
    if isinstance(ip, IPv4Address):
        return _v4_refusal(ip)
    embedded = _embedded_v4(ip)
    for inner, kind in embedded:
        if (reason := refusal(inner, nets)) is not None:
            return f"{kind} address of {inner} ({reason})"
    if ip.ipv4_mapped is not None or ip in _NAT64:
        return None  # the IPv4 address inside was judged above, and it is the one reached
    for networks, reason in _V6_REFUSED:
        if any(ip in net for net in networks):
            return reason
    if ip not in _V6_GLOBAL_UNICAST:
        return "reserved (outside IPv6 global unicast)"
    return None


def check_url(url: str, allow: Iterable[str | Network] = ()) -> Target:
    """Read a webhook URL and refuse what the gateway will never call (TargetRefused, 422).

    A host name passes here when it is well formed; `resolve` then judges its addresses. An IP
    literal is judged here. `allow` is `webhook_allow`: its networks are callable although not
    public, and its loopback networks may be called over plain http.
    """
    nets = allowed_networks(allow)
    if len(url) > MAX_WEBHOOK_URL:
        raise TargetRefused(f"the webhook URL is longer than {MAX_WEBHOOK_URL} characters")
    if not _URL_CHARS.fullmatch(url):
        raise TargetRefused(
            "the webhook URL holds spaces, control characters, backslashes or non-ASCII characters"
            " (percent-encode them; write international names in punycode)"
        )
    try:
        parts = urlsplit(url)
    except ValueError:  # a bracketed host that is no IPv6 address, say
        raise TargetRefused("the webhook URL is malformed (an IPv6 address goes in brackets, nothing else)") from None
    if parts.scheme not in _DEFAULT_PORTS:
        raise TargetRefused("a webhook URL starts with https://")
    scheme: Literal["http", "https"] = "https" if parts.scheme == "https" else "http"
    if not url[len(parts.scheme) :].startswith("://"):
        raise TargetRefused("a webhook URL starts with https:// and a host")
    netloc = parts.netloc
    if "@" in netloc:
        raise TargetRefused("a webhook URL may not hold a user name or password (the signature authenticates)")
    host_text, port = _split_netloc(netloc, scheme)
    host, ip = _read_host(host_text)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    target = Target(scheme=scheme, host=host, port=port, path=path, ip=ip)
    if ip is not None:
        _vet(target, ip, nets)
    elif scheme == "http" and not any(_loopback_net(net) for net in nets):
        raise TargetRefused("a webhook URL starts with https:// (http:// only to loopback networks in webhook_allow)")
    return target


_LOOKUPS: Final = concurrent.futures.ThreadPoolExecutor(max_workers=4, thread_name_prefix="webhook-dns")
"""getaddrinfo blocks a thread until the resolver gives up (up to half a minute for a name whose server
never answers); a timeout stops the wait, not the thread. Lookups get their own threads, so names a
caller picked can never hold the threads that intake, indexing and parsing run on."""


async def system_resolver(host: str, port: int) -> list[str]:
    """The addresses of `host` from getaddrinfo (TCP), as text, on the lookups' own threads."""
    infos = await asyncio.get_running_loop().run_in_executor(
        _LOOKUPS, functools.partial(socket.getaddrinfo, host, port, type=socket.SOCK_STREAM)
    )
    return [str(info[4][0]) for info in infos]


async def resolve(
    target: Target, allow: Iterable[str | Network] = (), *, resolver: Resolver | None = None
) -> tuple[IPAddress, ...]:
    """The vetted addresses to connect to for `target`: TargetRefused if any answer is refused.

    An IP-literal target is its own address (judged again: `allow` may have changed). A name
    that does not resolve is refused too: there is nothing to call.
    """
    nets = allowed_networks(allow)
    if target.ip is not None:
        _vet(target, target.ip, nets)
        return (target.ip,)
    try:
        answers = await (resolver or system_resolver)(target.host, target.port)
    except (OSError, UnicodeError):
        raise TargetRefused(f"{target.host} does not resolve") from None
    found: list[IPAddress] = []
    for answer in answers:
        try:
            # getaddrinfo writes an IPv6 scope as "%eth0"; the address is what is judged.
            ip = ip_address(answer.split("%", 1)[0])
        except ValueError:
            raise TargetRefused(f"{target.host} resolves to something that is not an address") from None
        if ip not in found:
            found.append(ip)
    if not found:
        raise TargetRefused(f"{target.host} does not resolve")
    for ip in found:
        _vet(target, ip, nets)
    return tuple(found)


def _vet(target: Target, ip: IPAddress, nets: tuple[Network, ...]) -> None:
    # A name's answer is not repeated: the refusal would make the gateway a resolver of the
    # operator's internal names for anyone who may create a webhook.
    where = str(ip) if target.ip is not None else f"{target.host} resolves to an address that"
    if (reason := refusal(ip, nets)) is not None:
        raise TargetRefused(f"{where} is not a public address ({reason}); webhook_allow can admit its network")
    if target.scheme == "http" and not _is_loopback(ip):
        raise TargetRefused(
            f"{where} is not loopback: a webhook URL starts with https:// (http:// only to loopback networks"
            " in webhook_allow)"
        )


def _v4_refusal(ip: IPv4Address) -> str | None:
    for networks, reason in _V4_REFUSED:
        if any(ip in net for net in networks):
            return reason
    if not ip.is_global:  # a range IANA adds later, that the table above does not know yet
        return "not globally reachable"
    return None


def _embedded_v4(ip: IPv6Address) -> list[tuple[IPv4Address, str]]:
    """The IPv4 addresses an IPv6 address carries, with the form's name."""
    found: list[tuple[IPv4Address, str]] = []
    if ip.ipv4_mapped is not None:
        found.append((ip.ipv4_mapped, "IPv4-mapped"))
    if ip in _SIIT:
        found.append((IPv4Address(int(ip) & 0xFFFFFFFF), "IPv4-translated"))
    if ip in _NAT64:
        found.append((IPv4Address(int(ip) & 0xFFFFFFFF), "NAT64"))
    if ip in _V4_COMPATIBLE and int(ip) > 1:  # :: and ::1 are themselves, not 0.0.0.0 / 0.0.0.1
        found.append((IPv4Address(int(ip) & 0xFFFFFFFF), "IPv4-compatible"))
    if ip.sixtofour is not None:
        found.append((ip.sixtofour, "6to4"))
    if ip.teredo is not None:
        server, client = ip.teredo
        found.extend(((server, "Teredo server"), (client, "Teredo client")))
    return found


def _is_loopback(ip: IPAddress) -> bool:
    if isinstance(ip, IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped.is_loopback
    return ip.is_loopback


def _loopback_net(net: Network) -> bool:
    return net.network_address.is_loopback and net.broadcast_address.is_loopback


def _split_netloc(netloc: str, scheme: str) -> tuple[str, int]:
    """(host text, port) of an authority without userinfo; IPv6 literals keep no brackets."""
    if netloc.startswith("["):
        close = netloc.find("]")
        if close < 0:
            raise TargetRefused("the webhook URL's IPv6 address lacks its closing ']'")
        host, rest = netloc[1:close], netloc[close + 1 :]
        if rest and not rest.startswith(":"):
            raise TargetRefused("the webhook URL has characters after its IPv6 address")
        port_text = rest[1:] if rest else None
        if ":" not in host:
            raise TargetRefused("only IPv6 addresses go in brackets in a webhook URL")
        host = "[" + host + "]"
    else:
        host, colon, port_text_raw = netloc.rpartition(":")
        if not colon:
            host, port_text = netloc, None
        else:
            port_text = port_text_raw
    if port_text is None:
        return host, _DEFAULT_PORTS[scheme]
    if not _PORT.fullmatch(port_text) or not 1 <= int(port_text) <= 65535:
        raise TargetRefused("the webhook URL's port is not a number from 1 to 65535")
    return host, int(port_text)


def _read_host(text: str) -> tuple[str, IPAddress | None]:
    """(host, its address if it is an IP literal) from the URL's host text."""
    if not text:
        raise TargetRefused("the webhook URL has no host")
    if text.startswith("["):
        inner = text[1:-1]
        if "%" in inner:
            raise TargetRefused("the webhook URL's IPv6 address may not carry a zone (%)")
        try:
            ip6 = IPv6Address(inner)
        except ValueError:
            raise TargetRefused("the webhook URL's IPv6 address is malformed") from None
        return str(ip6), ip6
    host = text.lower()
    if host.endswith("."):
        host = host[:-1]  # the root label: "example.com." is "example.com"
    labels = host.split(".")
    if _NUMERIC_LABEL.fullmatch(labels[-1]):
        ip4 = _inet_aton(labels)
        if ip4 is None:
            raise TargetRefused("the webhook URL's host looks like an IPv4 address but is not a valid one")
        return str(ip4), ip4
    if len(host) > _MAX_HOST or not all(_LABEL.fullmatch(label) for label in labels):
        raise TargetRefused("the webhook URL's host is not a valid host name")
    return host, None


def _inet_aton(labels: Sequence[str]) -> IPv4Address | None:
    """An IPv4 address written in 1 to 4 parts, each decimal, octal (leading 0) or hex (0x), the
    last part filling the remaining bytes: inet_aton(3) and the WHATWG IPv4 parser; None if invalid."""
    if not 1 <= len(labels) <= 4:
        return None
    values: list[int] = []
    for label in labels:
        if re.fullmatch(r"0[xX][0-9a-fA-F]*", label):
            values.append(int(label[2:] or "0", 16))
        elif re.fullmatch(r"0[0-7]*", label):
            values.append(int(label, 8))
        elif re.fullmatch(r"[1-9][0-9]*", label):
            values.append(int(label))
        else:
            return None
    *head, last = values
    if any(v > 255 for v in head) or last >= 256 ** (4 - len(head)):
        return None
    number = last
    for i, v in enumerate(head):
        number |= v << (8 * (3 - i))
    return IPv4Address(number)
