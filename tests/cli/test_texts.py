"""``miai play`` keeps its sentences in one place (:mod:`miai.cli.texts`; ``miai score``'s in
:mod:`miai.cli.score_texts`), translated into Spanish, Italian and Portuguese."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from miai.cli import score_texts, texts
from miai.coords import Color, point_from_gtp
from miai.errors import IllegalReason
from miai.rules import Rules

CLI = Path(texts.__file__).parent
PLAY_MODULES = ["actions", "language", "marking", "play", "players", "score", "views"]
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


# ---------------------------------------------------------------------------- translations


def samples():
    """Each public function of :mod:`miai.cli.texts` and :mod:`miai.cli.score_texts` called with
    sample arguments, by name."""
    from miai.cli.actions import Accept, Propose, Refuse
    from miai.coords import Move
    from miai.endgame import Marking, Proposal
    from miai.errors import IllegalMoveError, IllegalReason
    from miai.game import Game
    from miai.result import Result
    from miai.sgf import game_from_record, read_file

    d4, c3 = point_from_gtp("D4", 9), point_from_gtp("C3", 9)
    game = Game(9, Rules.preset("japanese"))
    game.play("D4")
    occupied = IllegalMoveError(IllegalReason.OCCUPIED, "D4 is occupied by a black stone")
    superko = IllegalMoveError(IllegalReason.SUPERKO, "B9 would repeat", repeats_move=2)
    wrong_phase = IllegalMoveError(IllegalReason.WRONG_PHASE, "no proposal")
    over = Game(9, Rules.preset("chinese"))
    over.resign()
    proposed = Marking(Color.BLACK, Proposal(Color.BLACK, frozenset({d4})))
    score = game.score()
    chinese = Rules.preset("chinese")
    return {
        "color_name": texts.color_name(Color.WHITE),
        "vertex": texts.vertex(None),
        "vertices": texts.vertices([]),
        "ruleset_name": texts.ruleset_name("japanese"),
        "describe_rules": texts.describe_rules(chinese),
        "options": " ".join(texts.options().values()),
        "lang_help": texts.lang_help(),
        "not_seconds": texts.not_seconds("x"),
        "bad_seconds": texts.bad_seconds("-1"),
        "unknown_language": texts.unknown_language("fr", ("en", "es")),
        "welcome": texts.welcome(9, chinese, 2),
        "stones_and_help": texts.stones_and_help(),
        "bad_option": texts.bad_option(ValueError("x")),
        "bad_free_handicap": texts.bad_free_handicap(90, 9),
        "place_handicap": texts.place_handicap(2),
        "handicap_prompt": texts.handicap_prompt(),
        "handicap_count": texts.handicap_count(2, 1),
        "pass_is_not_a_point": texts.pass_is_not_a_point(),
        "not_a_vertex": texts.not_a_vertex("zz"),
        "handicap_twice": texts.handicap_twice([d4]),
        "handicap_not_placed": texts.handicap_not_placed(ValueError("x")),
        "help_text": texts.help_text(),
        "move_prompt": texts.move_prompt(Color.BLACK, 1),
        "captures": texts.captures(1, 2),
        "no_moves_yet": texts.no_moves_yet(),
        "last_pass": texts.last_pass(3, Color.WHITE),
        "last_move": texts.last_move(3, Color.WHITE, d4),
        "another_pass_ends": texts.another_pass_ends(),
        "reason_name": texts.reason_name(IllegalReason.OCCUPIED),
        "illegal_move": texts.illegal_move(occupied, Move(Color.WHITE, d4), game),
        "superko": texts.superko("B9", Color.BLACK, 2, Rules.preset("chinese").ko),
        "no_column_i": texts.no_column_i(9),
        "off_the_board": texts.off_the_board("Z9", 9),
        "unknown_command": texts.unknown_command("zz"),
        "takes_no_arguments": texts.takes_no_arguments("pass"),
        "save_usage": texts.save_usage(),
        "count_all_alive": texts.count_all_alive(chinese),
        "count_marked_dead": texts.count_marked_dead(chinese),
        "score_table": texts.score_table(score),
        "saved": texts.saved("a.sgf"),
        "not_saved": texts.not_saved("a.sgf", OSError(13, "Permission denied")),
        "resigns": texts.resigns(Color.BLACK),
        "nothing_to_undo": texts.nothing_to_undo(),
        "took_back_move": texts.took_back_move(3, Color.BLACK, d4),
        "took_back_pass": texts.took_back_pass(3, Color.BLACK),
        "took_back_proposal": texts.took_back_proposal(Color.BLACK),
        "took_back_refusal": texts.took_back_refusal(Color.BLACK),
        "left_after_moves": texts.left_after_moves(1),
        "left_unfinished": texts.left_unfinished(),
        "interrupted": texts.interrupted(),
        "percent": texts.percent(0.5),
        "thinking": texts.thinking(Color.BLACK, "miai", 5),
        "thinking_progress": texts.thinking_progress(Color.BLACK, "miai", 5, 100, 1.5),
        "thinking_progress_best": texts.thinking_progress_best(Color.BLACK, "miai", 5, 100, 1.5, d4, 0.5),
        "computer_plays": texts.computer_plays(Color.BLACK, "miai", 5, d4, 0.5, 100),
        "computer_passes": texts.computer_passes(Color.BLACK, "miai", 5, 0.5, 100),
        "marking_help": texts.marking_help(),
        "marking_begins": texts.marking_begins(Color.BLACK),
        "estimate_note": texts.estimate_note([d4]),
        "estimate_note_with_seki": texts.estimate_note_with_seki([d4], [c3]),
        "marked_dead": texts.marked_dead([d4]),
        "proposal_made": texts.proposal_made(Color.BLACK, [d4]),
        "counter_proposal_made": texts.counter_proposal_made(Color.BLACK, [d4]),
        "mark_prompt": texts.mark_prompt(Color.BLACK),
        "answer_proposal_prompt": texts.answer_proposal_prompt(Color.WHITE),
        "answer_counter_prompt": texts.answer_counter_prompt(Color.BLACK),
        "proposal_unchanged": texts.proposal_unchanged(Color.BLACK),
        "turn_in_marking": texts.turn_in_marking(proposed),
        "not_now": " ".join(
            [
                texts.not_now(wrong_phase, Marking(Color.BLACK), Accept(), Color.BLACK),
                texts.not_now(wrong_phase, proposed, Refuse(), Color.WHITE),
                texts.not_now(wrong_phase, proposed, Propose(frozenset()), Color.WHITE),
            ]
        ),
        "pass_is_not_a_stone": texts.pass_is_not_a_stone(),
        "no_stone_on": texts.no_stone_on(d4),
        "not_a_vertex_marking": texts.not_a_vertex_marking("zz"),
        "computer_accepts": texts.computer_accepts(Color.WHITE, Color.BLACK),
        "computer_proposes": texts.computer_proposes(Color.WHITE, [d4]),
        "play_resumes": texts.play_resumes(Color.BLACK, Color.WHITE),
        "compensation_rule": texts.compensation_rule(),
        "game_over": texts.game_over(over),
        "result_words": texts.result_words(Result.parse("W+6.5")),
        "result_line": texts.result_line(Result.parse("B+R")),
        "save_prompt": texts.save_prompt(),
        "score_options": " ".join(score_texts.score_options().values()),
        "score_cannot_read": score_texts.score_cannot_read("a.sgf", OSError(2, "No such file")),
        "score_bad_record": score_texts.score_bad_record("a.sgf", ValueError("x")),
        "score_error": score_texts.score_error(ValueError("x")),
        "record_heading": score_texts.record_heading(9, 36, "A", "B"),
        "record_rules": score_texts.record_rules(chinese, 0),
        "record_repairs": score_texts.record_repairs(2),
        "more_repairs": score_texts.more_repairs(3),
        "stones_as_they_stand": score_texts.stones_as_they_stand(),
        "map_legend": score_texts.map_legend(),
        "dead_chains": score_texts.dead_chains(Color.BLACK, "A6 B6 (83%)"),
        "seki_chains": score_texts.seki_chains("A6 B6"),
        "no_dead_no_seki": score_texts.no_dead_no_seki(),
        "count_line": score_texts.count_line(Result.parse("B+3.5")),
        "recorded_line": score_texts.recorded_line(Result.parse("W+R")),
    }


SAME_IN_EVERY_LANGUAGE = {
    "percent": "a number",
    "bad_option": "'miai play: ' and the core's message",
    "score_bad_record": "'miai score: ' and the core's message",
    "score_error": "'miai score: ' and the core's message",
    "seki_chains": "seki is seki in every language",
    "handicap_prompt": "handicap is the Italian and the Portuguese word",
}
"""Texts whose sample is the same in every language, and why."""


def public_functions():
    import inspect

    return {
        name
        for module in (texts, score_texts)
        for name, f in vars(module).items()
        if inspect.isfunction(f) and f.__module__ == module.__name__ and not name.startswith("_") and name != "N_"
    }


def test_every_text_function_has_a_sample():
    """A text function added without a sample here fails, so none escapes the next test."""
    assert set(samples()) == public_functions()


@pytest.mark.parametrize("lang", ["es", "it", "pt"])
def test_every_text_is_translated(lang):
    from miai import i18n

    english = samples()
    with i18n.using(lang):
        translated = samples()
    unexpected = {name for name in english if translated[name] == english[name]} - set(SAME_IN_EVERY_LANGUAGE)
    assert unexpected == set()


VOCABULARY = {
    "es": ["piedras muertas", "territorio", "prisioneros", "pasar", "abandonar", "Negro", "Blanco", "intersecciones neutrales", "reglas japonesas"],
    "it": ["pietre morte", "territorio", "prigionieri", "passa", "abbandona", "Nero", "Bianco", "regole giapponesi"],
    "pt": ["pedras mortas", "território", "prisioneiros", "passar", "desistir", "Pretas", "Brancas", "regras japonesas"],
}
"""Words of Go as the players of each language say them (the seed texts' vocabulary)."""


@pytest.mark.parametrize("lang", sorted(VOCABULARY))
def test_the_go_words_are_the_players(lang):
    from miai import i18n

    with i18n.using(lang):
        everything = "\n".join([*samples().values(), texts.welcome(9, Rules.preset("japanese"), 0)])
        missing = [word for word in VOCABULARY[lang] if word not in everything]
        kept = [texts.reason_name(IllegalReason.KO), texts.reason_name(IllegalReason.SUPERKO)]
    assert missing == []
    assert kept == ["ko", "superko"]  # ko, seki and komi are the same words in every language
    assert "komi 6,5" in everything and "seki" in everything  # numbers as the language writes them


@pytest.mark.parametrize(
    ("lang", "one", "many"),
    [
        ("en", "White wins by 1 point.", "White wins by 6.5 points."),
        ("es", "Blanco gana por 1 punto.", "Blanco gana por 6,5 puntos."),
        ("it", "Il Bianco vince di 1 punto.", "Il Bianco vince di 6,5 punti."),
        ("pt", "As Brancas ganham por 1 ponto.", "As Brancas ganham por 6,5 pontos."),
    ],
)
def test_a_margin_is_written_and_counted_as_the_language_does(lang, one, many):
    from miai import i18n
    from miai.result import Result

    with i18n.using(lang):
        assert texts.result_words(Result.parse("W+1")) == one
        assert texts.result_words(Result.parse("W+6.5")) == many


@pytest.mark.parametrize("lang", ["es", "it", "pt"])
def test_every_reason_for_the_end_of_a_game_is_translated(lang):
    from miai import i18n
    from miai.result import EndReason

    assert set(texts.END_REASONS) == set(EndReason)
    for reason, english in texts.END_REASONS.items():
        with i18n.using(lang):
            assert i18n.gettext(english) != english, reason
