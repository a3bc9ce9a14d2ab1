"""``miai play`` keeps its sentences in one place (:mod:`miai.cli.texts`), ready for translation."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from miai.cli import texts
from miai.coords import Color, point_from_gtp
from miai.rules import Rules

CLI = Path(texts.__file__).parent
PLAY_MODULES = ["actions", "marking", "play", "players", "views"]
PHRASE = re.compile(r"[A-Za-z]+ +[A-Za-z]+")
"""Two words: a sentence or a piece of one (single words are commands, like ``pass``)."""


def phrases(path: Path) -> list[str]:
    """The string literals of a module that hold words of a sentence, docstrings aside."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
        and PHRASE.search(node.value)
    ]


@pytest.mark.parametrize("module", PLAY_MODULES)
def test_no_sentence_is_written_outside_the_texts(module):
    assert phrases(CLI / f"{module}.py") == []


def test_the_guard_sees_sentences_and_fragments():
    assert phrases(CLI / "texts.py")  # the texts do hold them


def test_two_forms_are_two_whole_sentences():
    d4 = point_from_gtp("D4", 9)
    assert texts.took_back_move(3, Color.BLACK, d4) == "Took back move 3 (Black D4)."
    assert texts.took_back_pass(3, Color.WHITE) == "Took back move 3 (White's pass)."
    assert texts.welcome(9, Rules.preset("chinese"), 0) == "miai play: 9x9, rules chinese, komi 7.5."
    assert texts.welcome(9, Rules.preset("chinese"), 2).endswith(", komi 7.5, handicap 2.")
