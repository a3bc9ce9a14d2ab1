"""``miai play``: scripted sessions (inputs in, transcript out) covering every command and error."""

from __future__ import annotations

import argparse
import io
import os
import re
import sys
from pathlib import Path

import pytest

from miai.cli import marking, play
from miai.cli.actions import Play, Quit, Resign, Undo
from miai.cli.main import main
from miai.cli.marking import DeadStoneEstimate
from miai.cli.play import PlaySession
from miai.cli.players import AiPlayer, ComputerPlayer, HumanPlayer
from miai.cli.terminal import Terminal
from miai.coords import Color, point_from_gtp
from miai.game import Game, Phase
from miai.rules import Rules
from miai.sgf import load_game

TRANSCRIPTS = Path(__file__).parent / "transcripts"


def session(lines, *, size=5, rules="japanese", komi=None, handicap=0, free_handicap=False):
    """Run ``miai play`` with these options on scripted input: (exit code, transcript)."""
    terminal = Terminal.scripted(lines)
    args = argparse.Namespace(size=size, rules=rules, komi=komi, handicap=handicap, free_handicap=free_handicap)
    code = play.run(args, terminal)
    return code, terminal.transcript()


def play_game(game, lines):
    """Run a session on a prepared game with two human players: (exit code, transcript)."""
    terminal = Terminal.scripted(lines)
    players = {c: HumanPlayer(terminal, c.name.title()) for c in Color}
    code = PlaySession(game, players, terminal).run()
    return code, terminal.transcript()


# ----------------------------------------------------------------- the whole session, word for word

SESSION = [
    "help", "c3", "C3", "i3", "z9", "c6", "foo", "foo bar", "pass now", "save", "?", "d3", "score",
    "b2", "undo", "c4", "d4", "c2", "d2", "b4", "e3", "d5", "pass", "b3", "board", "save game.sgf",
    "pass", "pass",
    "help", "c1", "e9", "cc", "c4 a1 d2", "D5", "score", "d5", "D2", "", "yes", "save final.sgf",
]  # fmt: skip


def test_whole_session_transcript(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    # the estimator's view is tested apart (tests/cli/test_marking.py): here it sees no dead stones
    monkeypatch.setattr(marking, "estimate_dead_stones", lambda game: DeadStoneEstimate(frozenset()))
    code, transcript = session(SESSION)
    assert code == 0
    golden = TRANSCRIPTS / "play-5x5-japanese.txt"
    if os.environ.get("MIAI_REGENERATE_TRANSCRIPTS"):
        golden.write_text(transcript, encoding="utf-8")
    assert transcript == golden.read_text(encoding="utf-8")
    # both saved records replay to what was on the board
    mid, _ = load_game(tmp_path / "game.sgf")
    assert mid.move_number == 11 and mid.last_move.gtp() == "B3"
    final, record = load_game(tmp_path / "final.sgf")
    assert final.move_number == 13 and str(record.result) == "B+16.5"


def test_the_transcript_covers_every_command_and_error():
    text = (TRANSCRIPTS / "play-5x5-japanese.txt").read_text(encoding="utf-8")
    for expected in [
        "Commands (any case):",  # help and ?
        "Illegal move (occupied): C3 is occupied by a black stone.",
        "There is no column I",
        "vertex Z9 is off the 5x5 board",
        "vertex C6 is off the 5x5 board",
        "Unknown command 'foo'.",
        "'pass' takes no arguments.",
        "Usage: save FILE.sgf",
        "Count under japanese, komi 6.5 (all stones counted as alive):",
        "Took back move 3 (Black B2).",
        "Saved the game to game.sgf.",
        "Move 12: White passed.\nAnother pass ends the game.",
        "There is no stone on C1.",
        "There is no stone on A1.",
        "not a GTP vertex: 'cc'",
        "The computer's estimate of the dead stones is marked (x, o): none.",
        "Marking the dead stones (any case):",
        "White (O) marks dead stones> D5\n",
        "Count under japanese, komi 6.5 (with the marked stones dead):",
        "White's proposal: dead D2 D3 D4 E3.",
        "Black (X) accept or mark dead stones> yes\n",
        "Result: B+16.5. Black wins by 16.5 points.",
        "Saved the game to final.sgf.",
    ]:
        assert expected in text, expected
    assert text.count("Commands (any case):") == 2
    assert text.count("Stones captured by Black (X): 0, by White (O): 0") > 10


# ----------------------------------------------------------------- illegal moves, each with its rule

KO_SETUP = "B3 C3 A2 D2 B1 C1 E5 B2 C2".split()  # Black takes the ko at C2 (captures B2)


def test_ko_is_explained():
    code, text = session([*KO_SETUP, "B2", "quit"])
    assert code == 0
    assert "Stones captured by Black (X): 1, by White (O): 0" in text
    assert "White (O) move 10> B2\nIllegal move (ko): B2 retakes the ko at once: White must play elsewhere first.\n" in text
    assert text.endswith("White (O) move 10> quit\nGame left unfinished after 9 moves.\n")


def test_suicide_is_explained():
    code, text = session(["C3", "A2", "D3", "B1", "A1", "quit"])
    assert "Black (X) move 5> A1\nIllegal move (suicide): A1 is suicide for Black" in text


def triple_ko(rules: str) -> Game:
    """Three kos on 9x9: Black holds the lower-left one, White the two others; Black to move.
    The cycle H1 B1 C9 G1 C1 B9 gives the same position back after six moves."""
    game = Game(9, Rules.preset(rules))
    p = lambda vs: [point_from_gtp(v, 9) for v in vs.split()]  # noqa: E731
    game.setup(black=p("A1 B2 C1 F1 G2 A9 B8"), white=p("C2 D1 H2 J1 G1 C8 D9 B9"))
    return game


CYCLE = "H1 B1 C9 G1 C1 B9".split()


def test_superko_names_the_move_whose_position_would_repeat():
    code, text = play_game(triple_ko("chinese"), ["E5", "E4", *CYCLE, "quit"])
    assert code == 0
    assert (
        "White (O) move 8> B9\n"
        "Illegal move (superko): B9 would repeat the position after move 2 (positional superko).\n"
        "White (O) move 8> quit\n"
    ) in text


def test_superko_back_to_the_starting_position():
    code, text = play_game(triple_ko("chinese"), [*CYCLE, "quit"])
    assert "B9 would repeat the starting position (positional superko)." in text


def test_third_repetition_voids_the_game_under_japanese_rules():
    code, text = play_game(triple_ko("japanese"), ["E5", "E4", *CYCLE, *CYCLE, ""])
    assert code == 0
    assert "Game over: no result: the same position occurred for the third time" in text
    assert "Result: Void. No result.\nSave the game? File name (Enter to skip): \n" in text


# ----------------------------------------------------------------- ways a game ends

def test_resign_then_skip_saving():
    code, text = session(["D4", "resign", ""])
    assert code == 0
    assert "White (O) move 2> resign\nWhite resigns.\nGame over: White resigned.\nResult: B+R. Black wins by resignation.\n" in text
    assert "Count under" not in text


def test_end_of_input_quits_cleanly_at_every_prompt():
    code, text = session(["D4"])
    assert code == 0 and text.endswith("White (O) move 2> ^D\nGame left unfinished after 1 move.\n")
    code, text = session(["D4", "pass", "pass"])
    assert code == 0 and text.endswith("dead stones> ^D\nGame left unfinished.\n")
    code, text = session(["D4", "pass", "pass", ""])
    assert code == 0 and text.endswith("Black (X) accept or mark dead stones> ^D\nGame left unfinished.\n")
    code, text = session(["D4", "resign"])
    assert code == 0 and text.endswith("Save the game? File name (Enter to skip): ^D\n")


def test_quit_in_the_marking_phase():
    code, text = session(["pass", "pass", "quit"])
    assert code == 0 and text.endswith("dead stones> quit\nGame left unfinished.\n")


def test_undo_in_the_marking_phase_resumes_play():
    code, text = session(["D4", "pass", "pass", "undo", "C3", "pass", "pass", "", "yes", ""])
    assert "dead stones> undo\nTook back move 3 (Black's pass).\n" in text
    assert "Black (X) move 3> C3\n" in text
    assert "Result: B+" in text


def test_rules_without_dead_stone_removal_finish_on_two_passes():
    code, text = session(["C3", "pass", "pass", ""], rules="tromp-taylor")
    assert "dead stones>" not in text
    assert "Game over: both players passed; stones count as they stand.\n" in text
    assert "area scoring" in text and "Result: B+17.5. Black wins by 17.5 points." in text


# ----------------------------------------------------------------- options

def test_fixed_handicap_gives_white_the_first_move_and_half_a_point_komi():
    code, text = session(["quit"], size=9, rules="chinese", handicap=2)
    assert text.startswith("miai play: 9x9, rules chinese komi=0.5, handicap 2.\n")
    assert "7 . . + . . . X . . 7" in text and "3 . . X . . . + . . 3" in text
    assert "White (O) move 1> quit" in text


def test_komi_option_and_komi_in_the_rules_win_over_the_handicap_default():
    _, text = session(["quit"], size=9, rules="chinese", handicap=2, komi=3)
    assert text.startswith("miai play: 9x9, rules chinese komi=3, handicap 2.\n")
    _, text = session(["quit"], size=9, rules="japanese komi=6.5", handicap=2)
    assert text.startswith("miai play: 9x9, rules japanese, komi 6.5, handicap 2.\n")


def test_free_handicap_is_asked_for_and_checked():
    lines = ["D4", "D4 E5 Z1", "D4 D4", "pass E5", "A1 E5", "quit"]
    code, text = session(lines, size=5, rules="chinese", handicap=2, free_handicap=True)
    assert code == 0
    assert "Black places 2 handicap stones: list 2 vertices (e.g. D4 Q16).\n" in text
    assert "handicap> D4\nGive exactly 2 vertices (1 given).\n" in text
    assert "handicap> D4 E5 Z1\nvertex Z1 is off the 5x5 board: columns are A-E, rows 1-5.\n" in text
    assert "handicap> D4 D4\nfree handicap places a stone twice on D4.\n" in text
    assert "handicap> pass E5\n'pass' is not a point.\n" in text
    assert "1(X). . . . 1" not in text and "1 X . . . . 1" in text
    assert "handicap 2." in text and "White (O) move 1> quit" in text


def test_free_handicap_input_may_end():
    assert session(["quit"], handicap=2, free_handicap=True)[0] == 0
    code, text = session([], handicap=2, free_handicap=True)
    assert code == 0 and text.endswith("handicap> ^D\n")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (dict(rules="martian"), "miai play: unknown ruleset 'martian'"),
        (dict(size=1), "miai play: board size must be an integer from 2 to 25"),
        (dict(size=5, handicap=3), "miai play: a 5x5 board has no fixed handicap placements"),
        (dict(size=9, handicap=12), "miai play: a fixed handicap on 9x9 is 2 to 9 stones, not 12"),
        # a free handicap that cannot be placed is refused at once (before: Black was asked for it for ever)
        (dict(size=9, handicap=1, free_handicap=True), "miai play: a free handicap on 9x9 is 2 to 80 stones, not 1"),
        (dict(size=2, handicap=-2, free_handicap=True), "miai play: a free handicap on 2x2 is 2 to 3 stones, not -2"),
        (dict(size=2, handicap=4, free_handicap=True), "miai play: a free handicap on 2x2 is 2 to 3 stones, not 4"),
    ],
)
def test_bad_options_are_explained(options, message):
    code, text = session([], **options)
    assert code == 2 and text.startswith(message)


# ----------------------------------------------------------------- saving

def test_saving_reports_failures(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, text = session(["D4", "save no/such/dir/g.sgf", "save  my game.sgf", "quit"])
    assert "Could not save to no/such/dir/g.sgf: No such file or directory." in text
    assert "Saved the game to my game.sgf." in text
    assert (tmp_path / "my game.sgf").read_text(encoding="utf-8").startswith("(;")
    code, text = session(["D4", "resign", "no/dir/x.sgf", "ok.sgf"])
    assert "Could not save to no/dir/x.sgf" in text and "Saved the game to ok.sgf." in text


# ----------------------------------------------------------------- players are objects

class ScriptedComputer(ComputerPlayer):
    """A non-human player: returns the actions it was given, one per turn. It keeps to its
    script: an undo by its opponent takes back one move, not its reply too."""

    undo_reply = False

    def __init__(self, terminal, actions):
        super().__init__(terminal, "computer")
        self.actions = list(actions)
        self.asked = 0

    def choose_move(self, game):
        self.asked += 1
        return self.actions.pop(0)


def test_a_scripted_player_can_play(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    terminal = Terminal.scripted(["C3", "B2", "undo", ""])
    c3, d3 = point_from_gtp("C3", 5), point_from_gtp("D3", 5)
    computer = ScriptedComputer(terminal, [Play(c3), Play(d3), Play(None), Resign()])
    game = Game(5, Rules.preset("japanese"))
    code = PlaySession(game, {Color.BLACK: HumanPlayer(terminal, "me"), Color.WHITE: computer}, terminal).run()
    text = terminal.transcript()
    assert code == 0 and computer.asked == 4
    # the computer's illegal C3 is explained and it is asked again
    assert "Illegal move (occupied): C3 is occupied by a black stone.\n  A B C D E" in text
    assert "Move 2: White D3" in text and "Move 4: White passed." in text
    assert "Black (X) move 5> undo\nTook back move 4 (White's pass)." in text
    assert "White resigns.\nGame over: White resigned.\nResult: B+R." in text
    assert str(game.result) == "B+R" and game.move_number == 3
    assert list(tmp_path.iterdir()) == []


def test_quit_and_undo_actions_from_a_player():
    terminal = Terminal.scripted([])
    computer = ScriptedComputer(terminal, [Undo(), Play(None), Quit()])
    game = Game(5)
    code = PlaySession(game, {Color.BLACK: computer, Color.WHITE: computer}, terminal).run()
    assert code == 0 and game.move_number == 1 and game.phase is Phase.PLAY
    assert "Nothing to undo." in terminal.transcript()


# ----------------------------------------------------------------- through the real entry point

def test_miai_play_through_main(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("d4\nE5\nquit\n"))
    assert main(["play", "--size", "5", "--rules", "japanese"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("miai play: 5x5, rules japanese, komi 6.5.\n")
    assert "5 . . . .(O)5\n4 . . . X . 4" in out
    assert out.endswith("Game left unfinished after 2 moves.\n")


def test_miai_play_help_lists_the_options(capsys):
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    out = capsys.readouterr().out
    for option in ("--size", "--rules", "--komi", "--handicap", "--free-handicap"):
        assert option in out


# ----------------------------------------------------------------- against the computer: --black/--white ai, --level


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
    assert isinstance(black, AiPlayer) and black.engine.config.playouts == 3000
    assert isinstance(white, HumanPlayer)


def test_the_seconds_reach_the_engine():
    black = play.make_player(parse("--black", "ai", "--seconds", "2.5"), Terminal.scripted([]), Color.BLACK)
    assert isinstance(black, AiPlayer) and black.engine.config.max_seconds == 2.5


@pytest.mark.parametrize(
    "bad",
    [
        ["--level", "0"], ["--level", "11"], ["--white", "robot"],
        ["--seconds", "0"], ["--seconds", "-1"], ["--seconds", "nan"], ["--seconds", "inf"], ["--seconds", "soon"],
    ],
)  # fmt: skip
def test_bad_options_are_refused(bad, capsys):
    with pytest.raises(SystemExit):
        parse(*bad)
    assert bad[0] in capsys.readouterr().err


def test_undo_against_the_computer_takes_back_its_reply_too():
    terminal = Terminal.scripted(["C3", "undo", "B2", "quit"])
    assert play.run(parse("--size", "5", "--white", "ai", "--level", "1"), terminal) == 0
    out = terminal.transcript()
    assert "Took back move 2 (White " in out and "Took back move 1 (Black C3)" in out
    assert "Black (X) move 1> B2" in out
