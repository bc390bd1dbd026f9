"""Who a network client is, as every limit counts it (HTTP throttles, SMTP connection caps)."""

from __future__ import annotations

import ipaddress

__all__ = ["client_key"]


def client_key(host: str) -> str:
    """What a throttle counts a client by: its IPv4 address, or its IPv6 /64.

    One IPv6 host is routinely given a whole /64, so counting single IPv6 addresses would let
    it try a fresh address for every guess (and flush the throttle's memory besides).
    """
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host  # not an address (a test client's name, a Unix socket): counted as is
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)
