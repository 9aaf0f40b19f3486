"""gunicorn's settings for rulesref (docs/deploy.md): ``gunicorn -c gunicorn.conf.py rulesref.wsgi:application``.

Each value can be changed from the environment without editing this file.
"""
import multiprocessing
import os

bind = os.environ.get("RULESREF_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", 2 * multiprocessing.cpu_count()))
# A request that runs longer is stopped: the worker is killed and replaced. Every page and write of the site is
# bounded far below it (docs/benchmarks.md); the site stops a request itself at RULESREF_REQUEST_SECONDS (25 s),
# answering 503. This is the backstop for what that cannot interrupt.
timeout = int(os.environ.get("RULESREF_TIMEOUT", "30"))
graceful_timeout = 30
keepalive = 5
# A worker is replaced after this many requests, so no slow growth of memory lasts.
max_requests = 2000
max_requests_jitter = 200
accesslog = os.environ.get("RULESREF_ACCESS_LOG", "-")


def worker_abort(worker):
    """A worker killed at the timeout: what it was answering is charged to its clients' processor budgets before it
    goes, so no client can keep killing workers for free (rulesref/security/deadline.py)."""
    from rulesref.security.deadline import charge_unfinished

    charge_unfinished()
