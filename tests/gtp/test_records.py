"""loadsgf and printsgf: records from the sample corpus (tests/data/sgf), errors, and a round trip."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.gtp.gtp_transcript import ask, check

from miai.coords import Color, point_to_gtp
from miai.gtp.engine import GtpEngine
from miai.rules import Rules
from tests.samples import SAMPLES


def stones(engine: GtpEngine, color: Color) -> list[str]:
    return sorted(point_to_gtp(p) for p in engine.game.board.stones(color))


def test_loadsgf_a_sample_record() -> None:
    """cgoban-9x9-variations-empty-pass-AE.sgf: 9x9, KM 6, main line B fd, W df, B ff, W dd, B dg."""
    path = SAMPLES / "cgoban-9x9-variations-empty-pass-AE.sgf"
    engine = GtpEngine()  # 19x19: the record sets the size
    assert ask(engine, f"loadsgf {path}") == "= "
    game = engine.game
    assert engine.size == game.size == 9
    assert game.komi == 6.0
    assert [str(m) for m in game.moves] == ["B F6", "W D4", "B F4", "W D6", "B D3"]
    assert game.to_move is Color.WHITE
    # the position before move 3, as GNU Go loads it
    assert ask(engine, f"loadsgf {path} 3") == "= "
    assert stones(engine, Color.BLACK) == ["F6"] and stones(engine, Color.WHITE) == ["D4"]
    assert engine.game.to_move is Color.BLACK
    assert ask(engine, f"loadsgf {path} 1") == "= "
    assert engine.game.move_number == 0
    assert ask(engine, f"loadsgf {path} 999") == "= "
    assert engine.game.move_number == 5
    # and play goes on from there
    assert ask(engine, "play w E5") == "= "
    assert ask(engine, "undo") == "= "
    assert ask(engine, "undo") == "= "
    assert engine.game.move_number == 4


def test_loadsgf_handicap_game_with_a_result() -> None:
    """kgs-cgoban2-handicap5-empty-passes.sgf: HA 5, komi 0.5, Japanese, 272 moves."""
    engine = GtpEngine(size=9)
    assert ask(engine, f"loadsgf {SAMPLES / 'kgs-cgoban2-handicap5-empty-passes.sgf'}") == "= "
    game = engine.game
    assert (game.size, game.handicap, game.komi, game.move_number) == (19, 5, 0.5, 272)
    assert engine.rules == Rules.preset("japanese").replace(komi=0.5)
    assert ask(engine, "kata-get-rules").startswith('= {"friendlyPassOk":false,"hasButton":false,"ko":"SIMPLE"')
    assert ask(engine, "final_score").startswith("= ")


def test_loadsgf_every_sample_answers() -> None:
    """Every file of the corpus loads or fails with `cannot load file`, never worse."""
    engine = GtpEngine()
    logged: list[str] = []
    engine.log = logged.append
    for path in sorted(SAMPLES.iterdir()):
        if path.suffix not in (".sgf", ".gib", ".ngf"):
            continue
        response = ask(engine, f"loadsgf {path}")
        assert response == "= " or response.startswith("? cannot load file"), (path.name, response)
        assert ask(engine, "showboard").startswith("= \n")


def test_loadsgf_uses_current_rules_when_the_record_names_none(tmp_path: Path) -> None:
    path = tmp_path / "plain.sgf"
    path.write_text("(;GM[1]FF[4]SZ[7]KM[2.5];B[dd];W[cc])")
    engine = GtpEngine(rules=Rules.preset("aga"))
    assert ask(engine, f"loadsgf {path}") == "= "
    assert engine.rules == Rules.preset("aga").replace(komi=2.5)
    assert engine.game.rules == engine.rules
    path.write_text("(;GM[1]FF[4]SZ[7]RU[Japanese];B[dd])")
    assert ask(engine, f"loadsgf {path}") == "= "
    assert engine.rules.scoring.value == "territory"


def test_loadsgf_keeps_playing_after_a_recorded_result(tmp_path: Path) -> None:
    path = tmp_path / "resigned.sgf"
    path.write_text("(;GM[1]FF[4]SZ[9]KM[7]RE[W+R];B[ee];W[cc])")
    engine = GtpEngine()
    assert ask(engine, f"loadsgf {path}") == "= "
    assert ask(engine, "play b G7") == "= "


def test_gg_undo_of_nothing_leaves_a_game_ended_by_agreement_ended(tmp_path: Path) -> None:
    """Territory marks end a loaded game by agreement; ``gg-undo 0`` takes nothing back,
    ``gg-undo 1`` the last pass, and play goes on."""
    path = tmp_path / "agreed.sgf"
    path.write_text("(;GM[1]SZ[9]KM[7.5]RU[Japanese];B[ee];W[cc];B[dd];W[];B[]TB[aa]TW[ii])")
    engine = GtpEngine()
    assert ask(engine, f"loadsgf {path}") == "= "
    assert "the game is over" in ask(engine, "play w A1")
    assert ask(engine, "gg-undo 0") == "= "
    assert "the game is over" in ask(engine, "play w A1")
    assert ask(engine, "gg-undo 1") == "= "
    assert ask(engine, "play b A1") == "= "

def test_loadsgf_errors(tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.sgf"
    garbage.write_text("hello world\n")
    illegal = tmp_path / "illegal.sgf"
    illegal.write_text("(;GM[1]SZ[9];B[ee];W[ee];B[cc])")
    engine = GtpEngine()
    logged: list[str] = []
    engine.log = logged.append
    check(
        engine,
        f"""
        > loadsgf
        ? syntax error: expected loadsgf <file> [<move number>]
        > loadsgf a b c
        ? syntax error: expected loadsgf <file> [<move number>]
        > loadsgf {tmp_path / 'missing.sgf'}
        ? cannot load file: no such file: {tmp_path / 'missing.sgf'}
        > loadsgf {tmp_path}
        ? cannot load file: no such file: {tmp_path}
        > loadsgf {garbage}
        ? cannot load file: ...
        > loadsgf {illegal} x
        ? syntax error: the move number must be an integer, not 'x'
        > loadsgf {illegal} 0
        ? syntax error: the move number must be 1 or more, not 0
        > play b E5
        =
        > loadsgf {illegal}
        =
        """,
    )
    # the replay stopped before the illegal move, and said so on the log
    assert [str(m) for m in engine.game.moves] == ["B E5"]
    assert any("illegal" in line and "E5" in line for line in logged)


def test_printsgf_round_trip(tmp_path: Path) -> None:
    engine = GtpEngine(size=9, rules=Rules.preset("japanese"), komi=0.5)
    for cmd in ("fixed_handicap 2", "play w E5", "play b pass", "play w D4"):
        ask(engine, cmd)
    response = ask(engine, "printsgf")
    assert response.startswith("= (;")
    text = response[2:]
    assert "SZ[9]" in text and "KM[0.5]" in text and "HA[2]" in text and "RU[Japanese]" in text
    assert "W[ee]" in text and "W[df]" in text
    assert "\n\n" not in text
    # printsgf FILE writes it, loadsgf reads it back
    out = tmp_path / "game.sgf"
    assert ask(engine, f"printsgf {out}") == "= "
    assert ask(engine, "printsgf -").startswith("= (;")
    other = GtpEngine()
    assert ask(other, f"loadsgf {out}") == "= "
    assert [str(m) for m in other.game.moves] == [str(m) for m in engine.game.moves]
    assert other.game.handicap_points == engine.game.handicap_points
    assert other.rules == engine.rules
    check(
        engine,
        f"""
        > printsgf a b
        ? syntax error: expected printsgf [<file>]
        > printsgf {tmp_path / 'no' / 'such' / 'dir.sgf'}
        ? cannot save file: ...
        """,
    )


def test_printsgf_after_loadsgf_keeps_the_record() -> None:
    engine = GtpEngine()
    ask(engine, f"loadsgf {SAMPLES / 'cgoban-9x9-variations-empty-pass-AE.sgf'} 3")
    text = ask(engine, "printsgf")[2:]
    # the record's players and its moves beyond the loaded position are kept
    assert "PB[Black]" in text and "PW[White]" in text
    assert "B[ff]" in text


def test_printsgf_keeps_the_records_result_unless_the_game_goes_on(tmp_path: Path) -> None:
    """A record's RE survives loadsgf + printsgf even when the replay counts the game
    otherwise (here two passes end a Tromp-Taylor game, counted B+24.5); once the game is
    played on, the stale RE is dropped and the log says so."""
    path = tmp_path / "counted.sgf"
    path.write_text("(;SZ[5]RU[Tromp-Taylor]KM[0.5]RE[B+4.5];B[cc];W[];B[])")
    engine = GtpEngine()
    logged: list[str] = []
    engine.log = logged.append
    assert ask(engine, f"loadsgf {path}") == "= "
    assert "RE[B+4.5]" in ask(engine, "printsgf")
    assert any("RE[B+4.5] kept" in line for line in logged)
    assert ask(engine, f"loadsgf {path} 2") == "= "  # the position before B's pass: play goes on
    assert ask(engine, "play b B4") == "= "
    text = ask(engine, "printsgf")
    assert "RE[" not in text and "B[bb]" in text  # B4 on 5x5
    assert any("RE[B+4.5] dropped" in line for line in logged)
