"""``--lang`` of ``miai play`` and ``miai score`` (:mod:`miai.cli.language`): the language
chosen on the command line, else from the environment, else English; an unknown one refused."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from miai import i18n
from miai.cli import play
from miai.cli.language import language, use_language
from miai.cli.main import main
from miai.cli.terminal import Terminal

SGF = Path(__file__).resolve().parent.parent / "data" / "sgf" / "gnugo-selfplay-tt-passes.sgf"


def play_args(**changes) -> argparse.Namespace:
    args = dict(size=5, rules="chinese", komi=None, handicap=0, free_handicap=False, lang=None)
    args.update(changes)
    return argparse.Namespace(**args)


@pytest.mark.parametrize("command", ["play", "score"])
def test_an_unknown_language_is_refused_with_the_list(command, capsys):
    with pytest.raises(SystemExit) as exit_:
        main([command, "--lang", "fr", *([str(SGF)] if command == "score" else [])])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "argument --lang: no translation for language 'fr'; the languages are: en, es, it, pt" in err


def test_the_option_reads_locale_names_too():
    assert [language(t) for t in ("es", "IT", "pt_PT", "pt-BR", "en")] == ["es", "it", "pt", "pt", "en"]
    with pytest.raises(argparse.ArgumentTypeError):
        language("klingon")


def test_the_option_wins_over_the_environment(monkeypatch):
    monkeypatch.setenv("LANG", "es_ES.UTF-8")
    assert use_language(argparse.Namespace(lang="pt")) == "pt" and i18n.current_language() == "pt"
    assert use_language(argparse.Namespace(lang=None)) == "es"
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    assert use_language(argparse.Namespace(lang=None)) == "en"


@pytest.mark.parametrize(
    ("lang", "environ", "prompt", "ending"),
    [
        ("pt", {}, "Pretas (X) jogada 1> ", "Partida deixada por terminar após 0 jogadas."),
        (None, {"LC_ALL": "es_ES.UTF-8"}, "Negro (X) jugada 1> ", "Partida sin terminar tras 0 jugadas."),
        (None, {}, "Black (X) move 1> ", "Game left unfinished after 0 moves."),
    ],
)
def test_miai_play_speaks_the_chosen_language(monkeypatch, lang, environ, prompt, ending):
    for variable, value in environ.items():
        monkeypatch.setenv(variable, value)
    terminal = Terminal.scripted(["quit"])
    assert play.run(play_args(lang=lang), terminal) == 0
    text = terminal.transcript()
    assert prompt in text and text.endswith(ending + "\n")


def test_miai_score_speaks_the_chosen_language_but_not_in_json(capsys):
    assert main(["score", str(SGF), "--lang", "it"]) == 0
    out = capsys.readouterr().out
    assert "Regole: " in out and "Conteggio: " in out and "conteggio a territorio" in out
    assert "Rules:" not in out and "Count:" not in out
    assert main(["score", str(SGF), "--lang", "it", "--json"]) == 0
    assert '"territory"' in capsys.readouterr().out  # the JSON's keys are for programs


def test_help_is_in_the_environments_language(monkeypatch, capsys):
    monkeypatch.setenv("LANG", "es_ES.UTF-8")
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    assert "tamaño del tablero, de 2 a 25" in capsys.readouterr().out
    assert i18n.current_language() == "en"  # making the help set no language
