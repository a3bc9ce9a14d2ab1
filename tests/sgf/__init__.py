"""Tests of the SGF package (:mod:`miai.sgf`), one module per layer."""

from __future__ import annotations

from miai.sgf import SgfRecord


def has(record: SgfRecord, *words: str) -> bool:
    """Some repair line of ``record`` mentions all ``words``."""
    return any(all(w in line for w in words) for line in record.repairs)
