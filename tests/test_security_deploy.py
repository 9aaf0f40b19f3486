"""The documented production set-up behind a load balancer on another host, served by gunicorn as in
docs/deploy.md: the balancer's X-Forwarded-Proto is believed (no redirect loop), anyone else's is not, HSTS is sent,
and the client address for rate limits is the one the balancer forwards."""
from __future__ import annotations

import http.client
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from test_security_issue12 import PRODUCTION

ROOT = Path(__file__).resolve().parent.parent
BALANCER, STRANGER = "127.0.0.2", "127.0.0.3"  # loopback addresses that gunicorn does not count as local


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def production_server(tmp_path):
    port = free_port()
    env = {**os.environ, **PRODUCTION, "RULESREF_TRUSTED_PROXIES": f"{BALANCER}/32", "RULESREF_VAR_DIR": str(tmp_path),
           "RULESREF_RATE_API": "2/m", "DJANGO_SETTINGS_MODULE": "rulesref.settings"}
    env.pop("DATABASE_URL", None)
    server = subprocess.Popen([sys.executable, "-m", "gunicorn", "rulesref.wsgi:application", "--bind",
                               f"127.0.0.1:{port}", "--workers", "1"], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            if server.poll() is not None:
                pytest.fail(f"gunicorn did not start: {server.stderr.read().decode()[-2000:]}")
            time.sleep(0.2)
    yield port
    server.terminate()
    server.wait(timeout=10)


def ask(port: int, source: str, method: str = "GET", path: str = "/api/v1/openapi.json", **headers: str):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20, source_address=(source, 0))
    connection.request(method, path, body=b"{}" if method == "POST" else None,
                       headers={"Host": "rules.example.org", "Content-Type": "application/json", **headers})
    response = connection.getresponse()
    response.read()
    connection.close()
    return response


def test_behind_a_balancer_on_another_host_https_is_believed_only_from_it(production_server):
    through = ask(production_server, BALANCER, **{"X-Forwarded-Proto": "https"})
    assert through.status == 200
    assert through.getheader("Strict-Transport-Security") == "max-age=31536000; includeSubDomains; preload"
    assert "script-src 'self'" in through.getheader("Content-Security-Policy")
    direct = ask(production_server, STRANGER, **{"X-Forwarded-Proto": "https"})
    assert direct.status == 301 and direct.getheader("Location") == "https://rules.example.org/api/v1/openapi.json"
    assert ask(production_server, BALANCER).status == 301  # the balancer says plain HTTP: redirected, once


def test_rate_limits_count_the_client_the_balancer_names(production_server):
    def ruling(client: str):
        return ask(production_server, BALANCER, "POST", "/api/v1/mpbs/rulings/can-intercept",
                   **{"X-Forwarded-Proto": "https", "X-Forwarded-For": f"203.0.113.1, {client}"})

    assert [ruling("198.51.100.1").status for _ in range(3)] == [422, 422, 429]
    assert ruling("198.51.100.2").status == 422  # another client behind the same balancer
