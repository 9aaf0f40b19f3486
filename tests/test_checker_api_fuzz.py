"""Fuzzing the JSON API from its own OpenAPI document (Schemathesis over WSGI, no server), with every one of
Schemathesis's default checks: whatever a client sends, the answer is never a 500, it matches the document
(status code, content type, headers, body schema), requests the document forbids are refused with a 4xx, requests
it allows are accepted, and a method an address does not take gets 405 with ``Allow``.

One documented exception: a request the document allows may still get 422, for a scenario can break rules JSON
Schema cannot express (a unit id the event names that no unit has, two units in one hex); the engine says which
at its path. So ``positive_data_acceptance`` expects 422 besides its defaults. Nothing else is excepted.

The budget is bounded: RULESREF_FUZZ_EXAMPLES examples per operation (default 25) in the examples and fuzzing
phases (valid and schema-breaking requests). The coverage phase (each boundary of each schema, wrong methods,
content types, missing and duplicate parameters) runs on the GET operations always; on the ruling operations, whose
scenario schemas have hundreds of boundaries (a minute of CPU), with RULESREF_FUZZ_COVERAGE=1, as CI should run it.
test_checker_api.py checks every method on every API address in any case.
"""
from __future__ import annotations

import os

import pytest
import schemathesis
from hypothesis import HealthCheck, settings

EXAMPLES = int(os.environ.get("RULESREF_FUZZ_EXAMPLES", "25"))
FULL_COVERAGE = os.environ.get("RULESREF_FUZZ_COVERAGE") == "1"


def _load(coverage: bool):
    from rulesref.wsgi import application  # pytest-django has configured Django before collection

    from schemathesis import GenerationMode
    from schemathesis.config import (ChecksConfig, CoveragePhaseConfig, GenerationConfig, PhasesConfig,
                                     ProjectConfig, ProjectsConfig, SchemathesisConfig)
    from schemathesis.config._checks import POSITIVE_DATA_ACCEPTANCE_EXPECTED_STATUSES, PositiveDataAcceptanceConfig

    generation = GenerationConfig(modes=list(GenerationMode), max_examples=EXAMPLES, deterministic=True)
    config = SchemathesisConfig(projects=ProjectsConfig(default=ProjectConfig(
        generation=generation,
        checks=ChecksConfig(positive_data_acceptance=PositiveDataAcceptanceConfig(
            expected_statuses=[*POSITIVE_DATA_ACCEPTANCE_EXPECTED_STATUSES, "422"])),
        phases=PhasesConfig(coverage=CoveragePhaseConfig(enabled=coverage, generation=generation)))))
    return schemathesis.openapi.from_wsgi("/api/v1/openapi.json", application, config=config)


reading = _load(coverage=True).include(method="GET").exclude(tag="read")  # the read API: test_api_fuzz.py
asking = _load(coverage=FULL_COVERAGE).include(method="POST")
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)


@reading.parametrize()
@FUZZ
def test_reading_addresses_keep_their_contract(case):
    case.call_and_validate(headers={"Accept-Encoding": "identity"})


@pytest.mark.django_db  # every ruling states the book revision it was decided under, read from the database
@asking.parametrize()
@FUZZ
def test_rulings_never_fail_and_keep_their_contract(case):
    # Schemathesis's WSGI client asks for gzip but does not undo it: ask for the body as it is.
    case.call_and_validate(headers={"Accept-Encoding": "identity"})
