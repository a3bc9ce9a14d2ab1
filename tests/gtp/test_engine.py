"""The GTP engine's commands, as transcripts: every command, and every command's errors."""

from __future__ import annotations

import subprocess
import sys

import pytest
from tests.gtp.gtp_transcript import ask, check

from miai.coords import Color, point_to_gtp
from miai.errors import HandicapError
from miai.clock import TimeControl, TimeLeft
from miai.gtp.engine import GtpEngine
from miai.rules import Rules

STANDARD_COMMANDS = [
    "protocol_version", "name", "version", "known_command", "list_commands", "quit", "boardsize",
    "clear_board", "komi", "play", "undo", "fixed_handicap", "place_free_handicap", "set_free_handicap",
    "final_score", "time_settings", "time_left", "loadsgf", "showboard",
]  # fmt: skip
EXTENSIONS = [
    "is_legal", "captures", "printsgf", "kata-get-rules", "kata-set-rules", "kata-set-rule", "kgs-rules",
    "kgs-time_settings",
    # GNU Go's, which Kigo, qgo and GoGui use (tests/gtp/test_position.py, test_counting.py)
    "gg-undo", "query_boardsize", "get_komi", "list_stones", "all_legal", "move_history", "final_status_list",
    "final_status", "estimate_score", "top_moves_black", "top_moves_white", "level",
]  # fmt: skip


# ---------------------------------------------------------------------- administrative commands
def test_identity(engine: GtpEngine) -> None:
    from miai import __version__

    check(
        engine,
        f"""
        > protocol_version
        = 2
        > 1 name
        =1 miai
        > 2 version
        =2 {__version__}
        """,
    )


def test_list_and_known_commands(engine: GtpEngine) -> None:
    listed = ask(engine, "list_commands")[2:].split("\n")
    assert sorted(listed) == sorted(set(listed)), "no duplicates"
    for name in STANDARD_COMMANDS + EXTENSIONS:
        assert name in listed
        assert ask(engine, f"known_command {name}") == "= true"
    for name in ("genmove", "reg_genmove", "kgs-genmove_cleanup", "lz-analyze"):
        assert name in listed  # the MCTS player's commands (tests/gtp/test_genmove.py)
    for name in ("kata-analyze", "PLAY", "foo"):
        assert name not in listed
        assert ask(engine, f"known_command {name}") == "= false"


def test_unknown_command_keeps_the_id(engine: GtpEngine) -> None:
    check(
        engine,
        """
        > frobnicate b
        ? unknown command
        > 17 frobnicate b
        ?17 unknown command
        """,
    )


def test_quit(engine: GtpEngine) -> None:
    assert not engine.quit_requested
    assert ask(engine, "5 quit") == "=5 "
    assert engine.quit_requested


# ---------------------------------------------------------------------- board size, clear, komi
def test_boardsize(engine: GtpEngine) -> None:
    check(
        engine,
        """
        > play b C3
        =
        > boardsize 13
        =
        > captures black
        = 0
        > play b N13
        =
        > boardsize 2
        =
        > boardsize 25
        =
        > play w Z25
        =
        > boardsize 1
        ? unacceptable size
        > boardsize 26
        ? unacceptable size
        > boardsize 0
        ? unacceptable size
        > boardsize -3
        ? unacceptable size
        > boardsize nine
        ? syntax error: the board size must be an integer, not 'nine'
        > boardsize 9.5
        ? syntax error...
        > boardsize
        ? syntax error: expected boardsize <size>
        > boardsize 9 9
        ? syntax error: expected boardsize <size>
        """,
    )
    assert engine.size == 25  # failed commands change nothing


def test_boardsize_clears_the_board(engine: GtpEngine) -> None:
    ask(engine, "play b E5")
    ask(engine, "boardsize 9")
    assert engine.game.board.stones(Color.BLACK) == []
    assert engine.game.move_number == 0


def test_clear_board_keeps_size_and_rules(engine: GtpEngine) -> None:
    check(
        engine,
        """
        > boardsize 7
        =
        > komi 0.5
        =
        > kata-set-rules japanese
        =
        > play b D4
        =
        > play w C3
        =
        > clear_board
        =
        > undo
        ? cannot undo
        """,
    )
    game = engine.game
    assert game.size == 7
    assert game.komi == 0.5
    assert game.rules == Rules.preset("japanese").replace(komi=0.5)
    assert game.move_number == 0 and not game.board.stones(Color.BLACK)


def test_komi(engine: GtpEngine) -> None:
    check(
        engine,
        """
        > komi 6.5
        =
        > komi -3
        =
        > komi 0
        =
        > komi 1e1
        =
        > komi x
        ? syntax error: komi must be a number, not 'x'
        > komi nan
        ? syntax error: komi must be a finite number, not 'nan'
        > komi inf
        ? syntax error: komi must be a finite number, not 'inf'
        > komi
        ? syntax error: expected komi <number>
        > komi 1 2
        ? syntax error: expected komi <number>
        """,
    )
    assert engine.rules.komi == 10.0
    assert engine.game.komi == 10.0


def test_komi_in_mid_game_keeps_the_position(engine: GtpEngine) -> None:
    for cmd in ("play b E5", "play w C3", "play b pass"):
        assert ask(engine, cmd) == "= "
    assert ask(engine, "komi 0.5") == "= "
    game = engine.game
    assert game.komi == 0.5
    assert [str(m) for m in game.moves] == ["B E5", "W C3", "B pass"]
    assert game.to_move is Color.WHITE


# ---------------------------------------------------------------------- play and undo
def test_play(engine: GtpEngine) -> None:
    check(
        engine,
        """
        > play b E5
        =
        > play W c3
        =
        > play black D4
        =
        > play B d4
        ? illegal move: occupied (...
        > play white pass
        =
        > 3 play b a1
        =3
        > play W PASS
        =
        > play x E5
        ? syntax error: invalid color 'x' (expected black or white)
        > play b Z9
        ? syntax error: vertex Z9 is off the 9x9 board
        > play b J10
        ? syntax error: vertex J10 is off the 9x9 board
        > play b I5
        ? syntax error: not a GTP vertex: 'I5'...
        > play b 55
        ? syntax error...
        > play b
        ? syntax error: expected play <color> <vertex>
        > play
        ? syntax error: expected play <color> <vertex>
        > play b e5 e6
        ? syntax error: expected play <color> <vertex>
        """,
    )
    moves = [str(m) for m in engine.game.moves]
    assert moves == ["B E5", "W C3", "B D4", "W pass", "B A1", "W pass"]


def test_play_same_colour_twice_is_allowed(engine: GtpEngine) -> None:
    for cmd in ("play b C3", "play b G7", "play b E5"):
        assert ask(engine, cmd) == "= "
    assert len(engine.game.board.stones(Color.BLACK)) == 3


def test_illegal_moves_name_the_rule() -> None:
    engine = GtpEngine(size=5)
    for cmd in ("play b A2", "play b B1"):
        assert ask(engine, cmd) == "= "
    assert ask(engine, "play b A2").startswith("? illegal move: occupied (A2 ")
    assert ask(engine, "play w A1") == (
        "? illegal move: suicide (A1 is suicide for white: the stone would be left without liberties)"
    )
    assert ask(engine, "is_legal w A1") == "= 0"


KO_SHAPE = ["play b B3", "play b C4", "play b C2", "play w D4", "play w D2", "play w E3", "play w C3"]


def test_simple_ko() -> None:
    engine = GtpEngine(size=5, rules=Rules.preset("japanese"))
    for cmd in KO_SHAPE:
        assert ask(engine, cmd) == "= ", cmd
    assert ask(engine, "play b D3") == "= "  # black captures C3: a ko
    assert ask(engine, "captures black") == "= 1"
    assert ask(engine, "play w C3").startswith("? illegal move: ko (")
    assert ask(engine, "is_legal w C3") == "= 0"
    assert ask(engine, "is_legal b C3") == "= 1"
    # a pass lifts the simple ko: white may retake, recreating the position after move 7
    assert ask(engine, "play w pass") == "= "
    assert ask(engine, "play w C3") == "= "


def test_positional_superko() -> None:
    engine = GtpEngine(size=5, rules=Rules.preset("chinese"))
    for cmd in KO_SHAPE + ["play b D3", "play w pass"]:
        assert ask(engine, cmd) == "= ", cmd
    assert ask(engine, "is_legal w C3") == "= 0"
    response = ask(engine, "play w C3")
    assert response.startswith("? illegal move: superko (")
    assert "after move 7" in response


def test_play_after_two_passes() -> None:
    """GTP knows no end of the game: controllers (kgsGtp after a dispute about dead stones)
    send moves after two passes, and GNU Go takes them."""
    engine = GtpEngine(size=9)
    for cmd in ("play b E5", "play w pass", "play b pass"):
        assert ask(engine, cmd) == "= "
    assert ask(engine, "play w C3") == "= "
    assert ask(engine, "play b pass") == "= "
    assert ask(engine, "play w pass") == "= "
    assert ask(engine, "play b D4") == "= "
    assert [str(m) for m in engine.game.moves][-3:] == ["B pass", "W pass", "B D4"]
    assert ask(engine, "undo") == "= "
    assert ask(engine, "play b G7") == "= "
    # a rule change replays the history, resumption included
    assert ask(engine, "kata-set-rules japanese") == "= "
    assert [str(m) for m in engine.game.moves][-4:] == ["W C3", "B pass", "W pass", "B G7"]


def test_undo(engine: GtpEngine) -> None:
    check(
        engine,
        """
        > undo
        ? cannot undo
        > play b E5
        =
        > play w pass
        =
        > undo
        =
        > undo
        =
        > undo
        ? cannot undo
        > 4 undo
        ?4 cannot undo
        > undo now
        ? syntax error: the number of moves must be an integer, not 'now'
        > undo 1 2
        ? syntax error: expected undo [<number>]
        """,
    )
    assert engine.game.move_number == 0


def test_undo_restores_captures(engine: GtpEngine) -> None:
    for cmd in ("play b A2", "play w A1", "play b B1"):
        ask(engine, cmd)
    assert ask(engine, "captures black") == "= 1"
    assert ask(engine, "undo") == "= "
    assert ask(engine, "captures black") == "= 0"
    assert engine.game.board[(0, 0)] is Color.WHITE


def test_is_legal_and_captures(engine: GtpEngine) -> None:
    check(
        engine,
        """
        > is_legal b E5
        = 1
        > play b E5
        =
        > is_legal w E5
        = 0
        > is_legal w pass
        = 1
        > is_legal b
        ? syntax error: expected is_legal <color> <vertex>
        > is_legal q E5
        ? syntax error: invalid color 'q' (expected black or white)
        > is_legal b K5
        ? syntax error: vertex K5 is off the 9x9 board
        > captures white
        = 0
        > captures b
        = 0
        > captures
        ? syntax error: expected captures <color>
        > captures purple
        ? syntax error: invalid color 'purple' (expected black or white)
        """,
    )


# ---------------------------------------------------------------------- handicap
def test_fixed_handicap(engine: GtpEngine) -> None:
    check(
        engine,
        """
        > fixed_handicap 2
        = G7 C3
        > undo
        ? cannot undo
        > clear_board
        =
        > fixed_handicap 9
        = C7 E7 G7 C5 E5 G5 C3 E3 G3
        > clear_board
        =
        > fixed_handicap 1
        ? invalid number of stones...
        > fixed_handicap 10
        ? invalid number of stones...
        > fixed_handicap 0
        ? invalid number of stones...
        > fixed_handicap x
        ? syntax error: the number of stones must be an integer, not 'x'
        > fixed_handicap
        ? syntax error: expected fixed_handicap <number of stones>
        > fixed_handicap 4
        = C7 G7 C3 G3
        > fixed_handicap 4
        ? board not empty
        """,
    )
    game = engine.game
    assert game.handicap == 4
    assert game.to_move is Color.WHITE
    assert ask(engine, "play w E5") == "= "


def test_fixed_handicap_19() -> None:
    engine = GtpEngine()
    assert ask(engine, "fixed_handicap 3") == "= D16 Q16 D4"
    ask(engine, "clear_board")
    assert ask(engine, "fixed_handicap 5") == "= D16 Q16 K10 D4 Q4"
    ask(engine, "boardsize 6")
    assert ask(engine, "fixed_handicap 2").startswith("? invalid number of stones")


def test_handicap_on_a_board_with_only_passes_starts_afresh(engine: GtpEngine) -> None:
    ask(engine, "play b pass")
    assert ask(engine, "fixed_handicap 2") == "= G7 C3"
    assert engine.game.moves == []


def test_board_not_empty_for_every_handicap_command(engine: GtpEngine) -> None:
    ask(engine, "play w E5")
    for cmd in ("fixed_handicap 2", "place_free_handicap 2", "set_free_handicap C3 G7"):
        assert ask(engine, cmd) == "? board not empty"


def test_place_free_handicap(engine: GtpEngine) -> None:
    check(
        engine,
        """
        > place_free_handicap 3
        = C7 G7 C3
        > clear_board
        =
        > place_free_handicap 1
        ? invalid number of stones...
        > place_free_handicap 81
        ? invalid number of stones...
        > place_free_handicap two
        ? syntax error: the number of stones must be an integer, not 'two'
        > place_free_handicap
        ? syntax error: expected place_free_handicap <number of stones>
        > place_free_handicap 12
        = ...
        """,
    )
    assert engine.game.handicap == 12
    assert engine.game.to_move is Color.WHITE


def test_place_free_handicap_small_boards() -> None:
    engine = GtpEngine(size=3)
    assert ask(engine, "place_free_handicap 2") == "= A3 B2"
    ask(engine, "boardsize 5")
    assert ask(engine, "place_free_handicap 2") == "= D4 B2"
    ask(engine, "clear_board")
    assert ask(engine, "place_free_handicap 5") == "= B4 D4 C3 B2 D2"
    ask(engine, "boardsize 2")
    assert ask(engine, "place_free_handicap 3") == "= A2 B2 A1"
    ask(engine, "clear_board")
    assert ask(engine, "place_free_handicap 4").startswith("? invalid number of stones")


def test_set_free_handicap(engine: GtpEngine) -> None:
    check(
        engine,
        """
        > set_free_handicap D4
        ? bad vertex list: a free handicap is at least 2 stones, not 1
        > set_free_handicap
        ? bad vertex list...
        > set_free_handicap D4 D4
        ? bad vertex list: free handicap places a stone twice on D4
        > set_free_handicap D4 pass
        ? bad vertex list: pass is not a handicap stone
        > set_free_handicap D4 Z1
        ? bad vertex list: vertex Z1 is off the 9x9 board
        > set_free_handicap D4 xx
        ? bad vertex list: not a GTP vertex...
        > set_free_handicap D4 f6 A1
        =
        > set_free_handicap C3 G7
        ? board not empty
        """,
    )
    game = engine.game
    assert sorted(point_to_gtp(p) for p in game.handicap_points) == ["A1", "D4", "F6"]
    assert game.to_move is Color.WHITE


def test_set_free_handicap_may_not_fill_the_board() -> None:
    engine = GtpEngine(size=2)
    assert ask(engine, "set_free_handicap A1 A2 B1 B2").startswith("? bad vertex list")
    assert ask(engine, "set_free_handicap A1 A2 B1") == "= "


# ---------------------------------------------------------------------- showboard and final_score
def test_showboard(engine: GtpEngine) -> None:
    ask(engine, "play b E5")
    ask(engine, "play w D5")
    text = ask(engine, "showboard")
    lines = text.split("\n")
    assert lines[0] == "= "
    assert lines[1] == "  A B C D E F G H J"
    assert lines[2] == "9 . . . . . . . . . 9"
    assert lines[4] == "7 . . + . . . + . . 7"  # GNU Go marks 5 star points on 9x9
    assert lines[6] == "5 . . .(O)X . . . . 5"  # the last move between parentheses, as GNU Go
    assert lines[9] == "2 . . . . . . . . . 2     WHITE (O) has captured 0 stones"
    assert lines[10] == "1 . . . . . . . . . 1     BLACK (X) has captured 0 stones"
    assert lines[11] == "  A B C D E F G H J"
    assert lines[12] == "move 2 (W D5), black to play"
    assert lines[13] == "rules: chinese"
    assert ask(engine, "showboard 1") == "? syntax error: expected no arguments"


def test_showboard_is_the_text_renderer_with_the_game_around_it(engine: GtpEngine) -> None:
    from miai.render.text import diagram

    for command in ("play b E5", "play w D5", "play b pass"):
        ask(engine, command)
    rows = ask(engine, "showboard").split("\n")[1:]
    assert [row.split("     ")[0] for row in rows[:11]] == diagram(engine.game.board).split("\n")


def test_showboard_big_and_tiny_boards() -> None:
    big = GtpEngine(size=25)
    text = ask(big, "showboard")
    assert "\n   A B C D E F G H J K L M N O P Q R S T U V W X Y Z\n" in text
    assert "\n25 . . ." in text and "\n 1 . . ." in text
    tiny = GtpEngine(size=2)
    text = ask(tiny, "showboard")
    assert "\n2 . . 2     WHITE" in text and "\n1 . . 1     BLACK" in text


def test_final_score(engine: GtpEngine) -> None:
    check(
        engine,
        """
        > final_score
        = W+7.5
        > play b E5
        =
        > final_score
        = B+73.5
        > komi 81
        =
        > final_score
        = 0
        > final_score now
        ? syntax error: the random seed must be an integer, not 'now'
        > final_score 1 2
        ? syntax error: expected final_score [<random seed>]
        """,
    )


def test_final_score_territory_counts_the_board_as_it_stands() -> None:
    engine = GtpEngine(size=5, rules=Rules.preset("japanese"), komi=0.5)
    for cmd in ("play b C1", "play w D1", "play b C2", "play w D2", "play b C3", "play w D3"):
        ask(engine, cmd)
    for cmd in ("play b C4", "play w D4", "play b C5", "play w D5"):
        ask(engine, cmd)
    # Black owns columns A-B (10 points), White column E (5 points) + komi
    assert ask(engine, "final_score") == "= B+4.5"
    ask(engine, "play b pass")
    ask(engine, "play w pass")
    assert ask(engine, "final_score") == "= B+4.5"


def test_final_score_tromp_taylor_after_two_passes() -> None:
    engine = GtpEngine(size=5, rules=Rules.preset("tromp-taylor"), komi=0)
    for cmd in ("play b C3", "play w pass", "play b pass"):
        assert ask(engine, cmd) == "= "
    assert ask(engine, "final_score") == "= B+25"
    # the game is over: no more moves
    assert ask(engine, "play w A1").startswith("? illegal move: wrong phase")


# ---------------------------------------------------------------------- rules
def test_kata_get_rules_for_every_preset() -> None:
    expected = {
        "japanese": '{"friendlyPassOk":false,"hasButton":false,"ko":"SIMPLE","scoring":"TERRITORY","suicide":false,"tax":"SEKI","whiteHandicapBonus":"0"}',
        "tromp-taylor": '{"friendlyPassOk":false,"hasButton":false,"ko":"POSITIONAL","scoring":"AREA","suicide":true,"tax":"NONE","whiteHandicapBonus":"0"}',
        "new-zealand": '{"friendlyPassOk":true,"hasButton":false,"ko":"SITUATIONAL","scoring":"AREA","suicide":true,"tax":"NONE","whiteHandicapBonus":"0"}',
        "aga": '{"friendlyPassOk":true,"hasButton":false,"ko":"SITUATIONAL","scoring":"AREA","suicide":false,"tax":"NONE","whiteHandicapBonus":"N-1"}',
        "chinese": '{"friendlyPassOk":true,"hasButton":false,"ko":"POSITIONAL","scoring":"AREA","suicide":false,"tax":"NONE","whiteHandicapBonus":"N"}',
    }  # fmt: skip
    for name, json_text in expected.items():
        engine = GtpEngine(rules=Rules.preset(name))
        assert ask(engine, "kata-get-rules") == f"= {json_text}"
        # and setting the printed JSON gives the same rules back
        other = GtpEngine(rules=Rules.preset("simple"), komi=Rules.preset(name).komi)
        assert ask(other, f"kata-set-rules {json_text}") == "= "
        assert other.rules == Rules.preset(name)


def test_kata_rules_transcript_like_katago(engine: GtpEngine) -> None:
    """KataGo's own test (cpp/tests/results/gtp/rules.txt.log), where miai's presets agree."""
    engine.set_rules(Rules.preset("tromp-taylor"))
    check(
        engine,
        """
        > kata-get-rules
        = {"friendlyPassOk":false,"hasButton":false,"ko":"POSITIONAL","scoring":"AREA","suicide":true,"tax":"NONE","whiteHandicapBonus":"0"}
        > kata-set-rules japanese
        =
        > kata-get-rules
        = {"friendlyPassOk":false,"hasButton":false,"ko":"SIMPLE","scoring":"TERRITORY","suicide":false,"tax":"SEKI","whiteHandicapBonus":"0"}
        > kgs-rules chinese
        =
        > kata-get-rules
        = {"friendlyPassOk":true,"hasButton":false,"ko":"POSITIONAL","scoring":"AREA","suicide":false,"tax":"NONE","whiteHandicapBonus":"N"}
        > kgs-rules new_zealand
        =
        > kata-get-rules
        = {"friendlyPassOk":true,"hasButton":false,"ko":"SITUATIONAL","scoring":"AREA","suicide":true,"tax":"NONE","whiteHandicapBonus":"0"}
        """,
    )


def test_kata_set_rules_keeps_komi_and_reaches_the_game(engine: GtpEngine) -> None:
    ask(engine, "komi 3.5")
    ask(engine, "play b E5")
    assert ask(engine, "kata-set-rules japanese") == "= "
    assert engine.rules == Rules.preset("japanese").replace(komi=3.5)
    assert engine.game.rules == engine.rules
    assert [str(m) for m in engine.game.moves] == ["B E5"]


def test_kata_set_rules_errors(engine: GtpEngine) -> None:
    check(
        engine,
        """
        > kata-set-rules
        ? syntax error: expected kata-set-rules <rules name or JSON>
        > kata-set-rules klingon
        ? unknown rules 'klingon'
        > kata-set-rules stone-scoring
        ? rules 'stone-scoring' need tax ALL (stone scoring), which miai does not support
        > kata-set-rules aga-button
        ? rules 'aga-button' need hasButton (button go), which miai does not support
        > kata-set-rules {"ko":"SPIGHT"}
        ? invalid ko rule 'SPIGHT'; expected one of: SIMPLE, POSITIONAL, SITUATIONAL
        > kata-set-rules {"tax":"ALL"}
        ? tax ALL (group tax / stone scoring) is not supported by miai
        > kata-set-rules {"hasButton":true}
        ? hasButton true (button go) is not supported by miai
        > kata-set-rules {"colour":"blue"}
        ? unknown rules option: 'colour'
        > kata-set-rules {"suicide":"maybe"}
        ? suicide must be true or false, not 'maybe'
        > kata-set-rules {"ko":
        ? could not parse rules JSON...
        > kata-set-rules ["ko"]
        ? unknown rules '["ko"]'
        """,
    )
    assert engine.rules == Rules.preset("chinese")


def test_kata_set_rules_names_and_json() -> None:
    engine = GtpEngine(rules=Rules.preset("japanese"), komi=6.5)
    cases = {
        "chinese": "chinese",
        "chinese-ogs": "chinese",
        "CHINESE_KGS": "chinese",
        "korean": "korean",
        "aga": "aga",
        "bga": "aga",
        "new zealand": "new-zealand",
        "new_zealand": "new-zealand",
        "tromp taylor": "tromp-taylor",
        "TrompTaylor": "tromp-taylor",
        "simple": "simple",
    }
    for text, preset in cases.items():
        assert ask(engine, f"kata-set-rules {text}") == "= ", text
        assert engine.rules == Rules.preset(preset).replace(komi=6.5), text
    # KataGo's defaults for missing JSON keys are Tromp-Taylor's; tax follows the scoring
    assert ask(engine, 'kata-set-rules {"scoring":"TERRITORY","ko":"SIMPLE"}') == "= "
    assert engine.rules.scoring.value == "territory"
    assert engine.rules.suicide is True
    assert engine.rules.seki_points is False
    assert engine.rules.void_on_repetition is True
    assert engine.rules.remove_dead_stones is True
    # miai's own text form is welcome too, and then komi can be given
    assert ask(engine, "kata-set-rules japanese komi=0.5") == "= "
    assert engine.rules == Rules.preset("japanese").replace(komi=0.5)
    assert ask(engine, "kata-set-rules goe") == "= "
    assert ask(engine, "kata-get-rules") == (
        '= {"friendlyPassOk":true,"hasButton":false,"ko":"POSITIONAL","scoring":"AREA","suicide":true,'
        '"tax":"NONE","whiteHandicapBonus":"0"}'
    )


def test_kata_set_rule(engine: GtpEngine) -> None:
    check(
        engine,
        """
        > kata-set-rule ko SIMPLE
        =
        > kata-set-rule scoring territory
        =
        > kata-set-rule tax SEKI
        =
        > kata-set-rule suicide true
        =
        > kata-set-rule multiStoneSuicideLegal false
        =
        > kata-set-rule whiteHandicapBonus N-1
        =
        > kata-set-rule hasButton false
        =
        > kata-get-rules
        = {"friendlyPassOk":false,"hasButton":false,"ko":"SIMPLE","scoring":"TERRITORY","suicide":false,"tax":"SEKI","whiteHandicapBonus":"N-1"}
        > kata-set-rule scoring AREA
        =
        > kata-set-rule friendlyPassOk false
        =
        > kata-set-rule tax NONE
        =
        > kata-get-rules
        = {"friendlyPassOk":false,"hasButton":false,"ko":"SIMPLE","scoring":"AREA","suicide":false,"tax":"NONE","whiteHandicapBonus":"N-1"}
        > kata-set-rule ko SPIGHT
        ? invalid ko rule 'SPIGHT'; expected one of: SIMPLE, POSITIONAL, SITUATIONAL
        > kata-set-rule tax ALL
        ? tax ALL (group tax / stone scoring) is not supported by miai
        > kata-set-rule hasButton true
        ? hasButton true (button go) is not supported by miai
        > kata-set-rule suicide perhaps
        ? suicide must be true or false, not 'PERHAPS'
        > kata-set-rule komi 5
        ? unknown rules option: 'komi'...
        > kata-set-rule whiteHandicapBonus 2
        ? invalid whiteHandicapBonus rule '2'; expected one of: 0, N, N-1
        > kata-set-rule ko
        ? syntax error: expected kata-set-rule <key> <value>
        > kata-set-rule ko SIMPLE extra
        ? syntax error: expected kata-set-rule <key> <value>
        """,
    )
    assert engine.rules.komi == 7.5
    assert engine.rules.remove_dead_stones is False


def test_kgs_rules(engine: GtpEngine) -> None:
    ask(engine, "komi 0.5")
    for name, preset in (("japanese", "japanese"), ("chinese", "chinese"), ("aga", "aga"), ("new_zealand", "new-zealand")):
        assert ask(engine, f"kgs-rules {name}") == "= "
        assert engine.rules == Rules.preset(preset).replace(komi=0.5)
    check(
        engine,
        """
        > kgs-rules tromp-taylor
        ? unknown rules 'tromp-taylor'; kgs-rules takes one of: japanese, chinese, aga, new_zealand
        > kgs-rules
        ? syntax error...
        """,
    )


def test_rule_change_that_the_history_breaks_is_refused() -> None:
    engine = GtpEngine(size=5, rules=Rules.preset("tromp-taylor"))
    # a two-stone suicide, legal under Tromp-Taylor
    for cmd in ("play b A2", "play b B2", "play w A1", "play b D5", "play b C1", "play w B1"):
        assert ask(engine, cmd) == "= ", cmd
    assert engine.game.board[(0, 0)] is None  # white's two stones suicided
    response = ask(engine, "kata-set-rules chinese")
    assert response.startswith("? cannot change the rules of this game: ")
    assert engine.rules == Rules.preset("tromp-taylor")
    assert ask(engine, "kata-set-rule suicide false").startswith("? cannot change the rules")
    # but komi changes are always possible
    assert ask(engine, "komi 1") == "= "


# ---------------------------------------------------------------------- time
def test_time_settings(engine: GtpEngine) -> None:
    assert engine.time_control == TimeControl()
    check(
        engine,
        """
        > time_settings 600 30 5
        =
        """,
    )
    assert engine.time_control == TimeControl.canadian(600_000, 30_000, 5)
    ask(engine, "time_settings 300 0 0")
    assert engine.time_control == TimeControl.absolute(300_000)
    ask(engine, "time_settings 0 1 0")
    assert engine.time_control.unlimited
    check(
        engine,
        """
        > time_settings 1 2
        ? syntax error: expected time_settings <main time> <byo-yomi time> <byo-yomi stones>
        > time_settings a 2 3
        ? syntax error: the main time must be a number, not 'a'
        > time_settings -1 2 3
        ? syntax error: the main time must not be negative, not -1
        > time_settings 1 2 3.5
        ? syntax error: the byo-yomi stones must be an integer, not '3.5'
        > time_settings 1 2 -3
        ? syntax error: the byo-yomi stones must not be negative, not -3
        > time_settings 1e300 0 0
        ? syntax error: the main time must be at most 31622400 seconds, not 1e300
        > time_settings inf 0 0
        ? syntax error: the main time must be a finite number, not 'inf'
        """,
    )
    assert engine.time_control.unlimited


def test_kgs_time_settings(engine: GtpEngine) -> None:
    ask(engine, "kgs-time_settings byoyomi 600 30 5")
    assert engine.time_control == TimeControl.byoyomi(600_000, 30_000, 5)
    ask(engine, "kgs-time_settings canadian 600 300 25")
    assert engine.time_control == TimeControl.canadian(600_000, 300_000, 25)
    ask(engine, "kgs-time_settings absolute 1200")
    assert engine.time_control == TimeControl.absolute(1_200_000)
    ask(engine, "kgs-time_settings byoyomi 60 10 0")
    assert engine.time_control == TimeControl.absolute(60_000)
    ask(engine, "kgs-time_settings none")
    assert engine.time_control.unlimited
    check(
        engine,
        """
        > kgs-time_settings
        ? syntax error: expected kgs-time_settings none|absolute|byoyomi|canadian ...
        > kgs-time_settings fischer 60 10
        ? syntax error: unknown time system 'fischer' (none, absolute, byoyomi, canadian)
        > kgs-time_settings absolute
        ? syntax error: expected kgs-time_settings absolute <main time>
        > kgs-time_settings byoyomi 60 10
        ? syntax error: expected kgs-time_settings byoyomi <main time> <period time> <periods>
        > kgs-time_settings canadian 60 10 x
        ? syntax error: the stones per period must be an integer, not 'x'
        > kgs-time_settings none 5
        ? syntax error: expected kgs-time_settings none
        """,
    )


def test_time_left(engine: GtpEngine) -> None:
    assert engine.time_left == {}
    check(
        engine,
        """
        > time_left b 123.5 0
        =
        > time_left white 20 3
        =
        > time_left b 100
        ? syntax error: expected time_left <color> <time> <stones>
        > time_left x 1 1
        ? syntax error: invalid color 'x' (expected black or white)
        > time_left b soon 1
        ? syntax error: the time left must be a number, not 'soon'
        > time_left b 1 -1
        ? syntax error: the stones left must not be negative, not -1
        """,
    )
    black, white = engine.time_left[Color.BLACK], engine.time_left[Color.WHITE]
    assert (black.ms, black.stones) == (123_500, 0)
    assert (white.ms, white.stones) == (20_000, 3)
    assert isinstance(black, TimeLeft) and black.at_ms <= white.at_ms
    ask(engine, "clear_board")
    assert Color.BLACK in engine.time_left  # clocks are the controller's, not the board's


# ---------------------------------------------------------------------- robustness
def test_bug_in_a_handler_is_an_error_not_a_crash(engine: GtpEngine) -> None:
    def broken(args):
        raise KeyError("oops")

    engine.dispatcher.register("broken", broken)
    assert ask(engine, "3 broken") == "?3 internal error: KeyError: 'oops'"
    assert ask(engine, "name") == "= miai"


def test_garbage_never_crashes(engine: GtpEngine) -> None:
    lines = [
        "play", "play b", "play b b", "play 1 2 3", "boardsize 999999999999999999999", "komi 1e400",
        "fixed_handicap 99999999999999999999", "set_free_handicap a1 a1 a1", "time_left b nan 0",
        "loadsgf", "printsgf a b", "kata-set-rules {}", "kata-set-rules {", "is_legal", "\x00\x01",
        "undo undo", "captures", "showboard x", "final_score x", "\udcff",
    ]  # fmt: skip
    for line in lines:
        response = engine.handle(line)
        assert response is None or response.endswith("\n\n"), line


def test_settings_commands_do_not_load_the_kernel() -> None:
    """name, boardsize, komi, rules and clocks answer without importing the compiled board."""
    code = (
        "import sys\n"
        "from miai.gtp.engine import GtpEngine\n"
        "e = GtpEngine()\n"
        "cmds = ['name', 'version', 'protocol_version', 'list_commands', 'known_command play', 'boardsize 9',\n"
        "        'clear_board', 'komi 6.5', 'kata-set-rules japanese', 'kata-get-rules', 'kata-set-rule ko SIMPLE',\n"
        "        'kgs-rules chinese', 'time_settings 60 10 5', 'kgs-time_settings none', 'time_left b 10 0',\n"
        "        'undo', 'foo', 'query_boardsize', 'get_komi']\n"
        "for c in cmds:\n"
        "    r = e.handle(c)\n"
        "    assert r.endswith('\\n\\n'), (c, r)\n"
        "heavy = [m for m in ('numba', 'numpy', 'miai._kernel') if m in sys.modules]\n"
        "print(heavy)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
