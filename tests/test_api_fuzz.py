"""Fuzzing the read API from its own OpenAPI document (#32 point 2), as tests/test_checker_api_fuzz.py fuzzes the
rules engine's: Schemathesis over WSGI with every one of its default checks and its coverage phase (each boundary
of each parameter, wrong methods, missing and malformed parameters). Whatever a client sends, the answer is never a
500 and matches the document; requests the document forbids are refused with a 4xx; requests it allows are
answered (a 404 for a rulebook, section, revision or ruling that does not exist, which the document gives).

The budget is bounded: RULESREF_FUZZ_EXAMPLES examples per operation (default 25) in the examples and fuzzing
phases; the coverage phase always runs (the read API's parameters are few)."""
from __future__ import annotations

import os

import pytest
import schemathesis
from hypothesis import HealthCheck, settings

EXAMPLES = int(os.environ.get("RULESREF_FUZZ_EXAMPLES", "25"))


def _load():
    from rulesref.wsgi import application  # pytest-django has configured Django before collection

    from schemathesis import GenerationMode
    from schemathesis.config import (CoveragePhaseConfig, GenerationConfig, PhasesConfig, ProjectConfig,
                                     ProjectsConfig, SchemathesisConfig)

    generation = GenerationConfig(modes=list(GenerationMode), max_examples=EXAMPLES, deterministic=True)
    config = SchemathesisConfig(projects=ProjectsConfig(default=ProjectConfig(
        generation=generation, phases=PhasesConfig(coverage=CoveragePhaseConfig(enabled=True,
                                                                                generation=generation)))))
    return schemathesis.openapi.from_wsgi("/api/v1/openapi.json", application, config=config)


reading = _load().include(tag="read")
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)


@pytest.fixture(autouse=True)
def connection_kept():
    """The WSGI handler closes the database connection as a request starts and ends (close_old_connections), which
    inside the test's transaction would close it for good; Django's own test client stops that the same way."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture(autouse=True)
def a_ruling(db, connection_kept):
    """A published ruling (in the test's transaction), so that the ruling addresses have something to find."""
    from rulings_support import make

    from rulesref.api import http as api_http

    make(None)
    api_http.clear()
    yield
    api_http.clear()


@pytest.mark.django_db
@reading.parametrize()
@FUZZ
def test_the_read_api_never_fails_and_keeps_its_contract(case):
    # Schemathesis's WSGI client asks for gzip but does not undo it: ask for the body as it is.
    case.call_and_validate(headers={"Accept-Encoding": "identity"})
