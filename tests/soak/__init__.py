"""Soak tests: long runs against a real deployment, marked ``soak`` and left out of the default
suite (pyproject.toml); ``python3 -m pytest -m soak tests/soak`` runs them (BENCHMARKS.md)."""
