from __future__ import annotations

import pytest

from miai.gtp.engine import GtpEngine


@pytest.fixture
def engine() -> GtpEngine:
    """A 9x9 engine under Chinese rules with komi 7.5."""
    return GtpEngine(size=9)
