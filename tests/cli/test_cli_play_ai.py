"""``miai play`` against the computer: --black/--white human|ai, --level, the AI player."""

from __future__ import annotations

import argparse
import re

import pytest

from miai.cli import play
from miai.cli.terminal import Terminal
from miai.coords import Color
from miai.game import Game


def parse(*argv: str) -> argparse.Namespace:
    ap = argparse.ArgumentParser()
    play.add_parser(ap.add_subparsers())
    return ap.parse_args(["play", *argv])


def test_the_computer_plays_itself_to_a_result():
    terminal = Terminal.scripted([])
    assert play.run(parse("--size", "5", "--black", "ai", "--white", "ai", "--level", "1"), terminal) == 0
    out = terminal.transcript()
    assert re.search(r"Black \(miai, level 1\) plays [A-E]\d", out)
    assert re.search(r"White \(miai, level 1\) (plays [A-E]\d|passes)", out)
    assert "Game over:" in out and "Result: " in out


def test_a_person_against_the_computer():
    terminal = Terminal.scripted(["C3", "quit"])
    assert play.run(parse("--size", "5", "--white", "ai", "--level", "2", "--seconds", "1"), terminal) == 0
    out = terminal.transcript()
    assert "Black (X) move 1> C3" in out
    answer = re.search(r"White \(miai, level 2\) (plays ([A-E]\d)|passes)", out)
    assert answer and answer.group(2) != "C3"
    assert "Black (X) move 3> quit" in out


def test_players_follow_the_options():
    terminal = Terminal.scripted([])
    args = parse("--black", "ai", "--level", "7")
    black = play.make_player(args, terminal, Color.BLACK)
    white = play.make_player(args, terminal, Color.WHITE)
    assert isinstance(black, play.AiPlayer) and black.engine.config.playouts == 3000
    assert isinstance(white, play.HumanPlayer)


@pytest.mark.parametrize("bad", [["--level", "0"], ["--level", "11"], ["--white", "robot"]])
def test_bad_options_are_refused(bad, capsys):
    with pytest.raises(SystemExit):
        parse(*bad)


def test_the_ai_player_answers_with_a_legal_action():
    terminal = Terminal.scripted([])
    ai = play.AiPlayer(terminal, "miai", level=1)
    game = Game(7)
    for _ in range(4):
        action = ai.choose_move(game)
        assert isinstance(action, play.Play)
        game.play(action.point)


def test_undo_against_the_computer_takes_back_its_reply_too():
    terminal = Terminal.scripted(["C3", "undo", "B2", "quit"])
    assert play.run(parse("--size", "5", "--white", "ai", "--level", "1"), terminal) == 0
    out = terminal.transcript()
    assert "Took back move 2 (White " in out and "Took back move 1 (Black C3)" in out
    assert "Black (X) move 1> B2" in out
