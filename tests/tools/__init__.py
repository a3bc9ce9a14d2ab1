"""Tests of the research tools in ``tools/``: each is imported by its name, ``tools/`` being on
the tests' path (``pythonpath`` in pyproject.toml) as it is on a tool's when the tool runs."""
