"""Tests of the benchmark scripts in ``benchmarks/``: each is imported by its name,
``benchmarks/`` being on the tests' path (``pythonpath`` in pyproject.toml)."""
