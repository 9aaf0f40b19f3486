"""Fixtures for the engine tests (no database needed)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

SCENARIOS = Path(__file__).resolve().parents[2] / "fixtures" / "scenarios" / "mpbs"


@pytest.fixture
def example_93():
    """The worked interception example of 9.3 as scenario data."""
    return json.loads((SCENARIOS / "interception-example-9.3.json").read_text(encoding="utf-8"))
