"""The hardened public surface: storable text, rate limits, throttled sign-in, proxies, CSP (docs/deploy.md)."""
