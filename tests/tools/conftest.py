"""Fixtures of the tools' tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tools.atari import write_atari_record


@pytest.fixture
def atari_record(tmp_path: Path) -> Path:
    """The game of ``tests.tools.atari`` as an SGF file."""
    return write_atari_record(tmp_path)
