"""Where the test records lie: real game records (``tests/data/sgf``, described in its
README) and the reproducers of inputs that once broke the reader (``tests/data/fuzz``)."""

from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
SAMPLES = DATA / "sgf"
FUZZ = DATA / "fuzz"
