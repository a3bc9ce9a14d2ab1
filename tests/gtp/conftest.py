from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from miai.gtp.engine import GtpEngine  # noqa: E402


@pytest.fixture
def engine() -> GtpEngine:
    """A 9x9 engine under Chinese rules with komi 7.5."""
    return GtpEngine(size=9)
