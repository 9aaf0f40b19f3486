"""System checks of the edge's settings: a mistyped proxy address or rate would otherwise fail every request."""
from __future__ import annotations

import ipaddress

from django.conf import settings
from django.core import checks

from . import limits


@checks.register(checks.Tags.security)
def edge_settings(app_configs, **kwargs):
    errors = []
    for item in getattr(settings, "RULESREF_TRUSTED_PROXIES", ()) or ():
        try:
            ipaddress.ip_network(str(item).strip(), strict=False)
        except ValueError:
            errors.append(checks.Error(f"RULESREF_TRUSTED_PROXIES: {item!r} is not an address or a network",
                                       hint="Write addresses or networks: 10.0.0.0/8, 192.0.2.7, 2001:db8::/32.",
                                       id="rulesref.security.E001"))
    for group, spec in (getattr(settings, "RULESREF_RATE_LIMITS", {}) or {}).items():
        try:
            limits.parse(spec or "")
        except ValueError as exc:
            errors.append(checks.Error(f"RULESREF_RATE_LIMITS[{group!r}]: {exc}",
                                       hint="Write each limit as 120/m, 2000/h, 32MB/h, 20s/m or 30/15m.",
                                       id="rulesref.security.E002"))
    return errors
