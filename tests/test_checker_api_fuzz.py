"""Fuzzing the JSON API from its own OpenAPI document (Schemathesis over WSGI, no server): whatever a client sends,
the answer is never a 500, and every answer matches the document (status code, content type, body schema).

The budget is bounded: RULESREF_FUZZ_EXAMPLES examples per operation (default 25), both valid-looking and
schema-breaking requests.
"""
from __future__ import annotations

import os

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis import checks

EXAMPLES = int(os.environ.get("RULESREF_FUZZ_EXAMPLES", "25"))


def _load():
    from rulesref.wsgi import application  # pytest-django has configured Django before collection

    from schemathesis import GenerationMode
    from schemathesis.config import (CoveragePhaseConfig, GenerationConfig, PhasesConfig, ProjectConfig,
                                     ProjectsConfig, SchemathesisConfig)

    # The coverage phase enumerates every boundary of the scenario schemas: minutes, not seconds. It is off unless
    # RULESREF_FUZZ_COVERAGE=1; the examples phase (the example scenarios) and the fuzzing phase always run.
    config = SchemathesisConfig(projects=ProjectsConfig(default=ProjectConfig(
        generation=GenerationConfig(modes=list(GenerationMode)),
        phases=PhasesConfig(coverage=CoveragePhaseConfig(enabled=os.environ.get("RULESREF_FUZZ_COVERAGE") == "1")))))
    return schemathesis.openapi.from_wsgi("/api/v1/openapi.json", application, config=config)


schema = _load()


def no_server_error(ctx, response, case):
    """Stricter than a 5xx check by status alone: a 500 is always a failure; 501 is the documented "not built yet"."""
    if response.status_code == 500:
        raise AssertionError(f"500 from {case.method} {case.path}: {response.text[:500]}")


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_api_never_fails_and_keeps_its_contract(case):
    # Schemathesis's WSGI client asks for gzip but does not undo it: ask for the body as it is.
    case.call_and_validate(headers={"Accept-Encoding": "identity"}, checks=[
        no_server_error,
        checks.status_code_conformance,
        checks.content_type_conformance,
        checks.response_schema_conformance,
    ], excluded_checks=[checks.not_a_server_error, checks.positive_data_acceptance])
