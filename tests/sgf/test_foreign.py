"""Tygem GIB and WBaduk NGF (:mod:`miai.sgf.foreign`) beyond what the sample files show."""

from __future__ import annotations

import pytest

from miai import Color
from miai.errors import SgfError
from miai.sgf import load_game, read_record
from tests.sgf import has


def test_bad_gib_raises():
    with pytest.raises(SgfError, match="not a readable Tygem GIB file"):
        read_record(b"\\HS\n\\HE\n", filename="x.gib")


