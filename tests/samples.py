"""Where the shared corpus of real SGF records lies (``shared/sgf-samples``, beside the
repository, read-only), and the marker for tests that read it."""

from __future__ import annotations

from pathlib import Path

import pytest

SAMPLES = Path(__file__).resolve().parents[1].parent / "shared" / "sgf-samples"

needs_samples = pytest.mark.skipif(not SAMPLES.is_dir(), reason=f"no sample corpus at {SAMPLES} (shared/ beside the repository)")
