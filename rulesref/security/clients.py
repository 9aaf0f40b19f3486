"""Who is asking: the client's address, read through the proxies the site was told to trust and no others.

``RULESREF_TRUSTED_PROXIES`` lists the proxies (addresses or networks: ``10.0.0.0/8, 2001:db8::7``). Only a request
that arrives from one of them may say, in ``RULESREF_CLIENT_IP_HEADER`` (``X-Forwarded-For`` by default), whom it
forwards; the client is then the right-most address of that header that is not itself a trusted proxy (each proxy
appends the address it received the request from, so everything left of that was written by the client and could
be anything). A request from anywhere else is its own client, whatever its headers say.

Rate limits count per client; an IPv6 client counts per /64 network (one household or server gets a /64 and can
pick any address in it), an IPv4 client per address.
"""
from __future__ import annotations

import ipaddress
from functools import lru_cache

from django.conf import settings

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
IPV6_PREFIX = 64


@lru_cache(maxsize=8)
def _networks(spec: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(item.strip(), strict=False) for item in spec if item.strip())


def trusted_proxies() -> tuple[Network, ...]:
    return _networks(tuple(getattr(settings, "RULESREF_TRUSTED_PROXIES", ()) or ()))


def _address(text: str):
    try:
        return ipaddress.ip_address(text.strip().strip("[]"))
    except ValueError:
        return None


def is_trusted_proxy(address: str) -> bool:
    ip = _address(address or "")
    return ip is not None and any(ip in network for network in trusted_proxies())


def _meta_key(header: str) -> str:
    return "HTTP_" + header.upper().replace("-", "_")


def client_ip(request) -> str:
    """The client's address as text (the peer's own when no trusted proxy forwards for it)."""
    peer = request.META.get("REMOTE_ADDR") or ""
    if not is_trusted_proxy(peer):
        return peer
    header = getattr(settings, "RULESREF_CLIENT_IP_HEADER", "X-Forwarded-For")
    hops = [h for h in request.META.get(_meta_key(header), "").split(",") if h.strip()]
    client = peer
    for hop in reversed(hops):
        ip = _address(hop)
        if ip is None:
            break  # a proxy never writes this: what is left of it cannot be believed
        client = str(ip)
        if not any(ip in network for network in trusted_proxies()):
            break
    return client


def client_key(request) -> str:
    """The address a rate limit counts against: the client's, with IPv6 narrowed to its /64."""
    ip = _address(client_ip(request))
    if ip is None:
        return "unknown"
    if ip.version == 6:
        if ip.ipv4_mapped:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/{IPV6_PREFIX}", strict=False).network_address) + f"/{IPV6_PREFIX}"
    return str(ip)
