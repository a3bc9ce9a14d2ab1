"""The referee against scripted fake engines that misbehave (an illegal move, a crash, a
timeout, garbage, a refusal, an endless line), resign or pass; and the settings it refuses."""

from __future__ import annotations

import json
import math
import re
import resource

import pytest

from miai.clock import TimeControl
from miai.coords import Color
from miai.match import (
    DeadStones,
    EngineSpec,
    MatchConfig,
    MatchConfigError,
    MatchError,
    Reason,
)
from miai.result import Termination
from miai.rules import Rules
from miai.sgf import load_game
from tests.match.fakes import fake, fuzz, play

pytestmark = pytest.mark.timeout(60)


# ---------------------------------------------------------------------- games against fakes
def test_both_pass_is_counted_with_the_dead_stones_both_list(tmp_path):
    # Black: a wall on the 5th column; White: a lone stone at A1 that both call dead, and
    # H8 that only engine B calls dead (a disagreement: with "agreed" it stays on the board).
    a = fake("A", "E1 E2 E3 E4 E5 E6 E7 E8 E9", "--dead", "A1,H8")
    b = fake("B", "A1 H8", "--dead", "A1")
    (r,) = play(tmp_path, a, b)
    assert r.reason is Reason.SCORE
    assert r.dead == ["A1"] and r.disagreement == ["H8"]
    assert r.dead_by_engine == {"A": ["A1", "H8"], "B": ["A1"]}
    assert any("disagree" in n and "H8" in n for n in r.notes)
    # area: Black's 9 stones and the 36 points left of them; the right side touches H8: neutral
    assert str(r.result) == "B+36.5" and r.detail == "both passed; counted 45 to 8.5 with 1 dead stone removed"
    game, _ = load_game(tmp_path / "out" / r.sgf)
    assert str(game.result) == "B+36.5" and game.board[(0, 0)] is not None  # the record keeps the stone
    assert r.moves == 19  # 11 stones, 7 passes of White, then Black's pass
    assert r.genmoves == {"A": 10, "B": 9}


def test_each_engines_own_win_rate_is_kept_by_move_and_shown_in_the_record(tmp_path):
    # A says its win rate at its first and third moves (not the second), B at its first
    a = fake("A", "E1 E2 E3", "--winrates", "0.61,-,0.58")
    b = fake("B", "A1 A2", "--winrates", "0.4")
    (r,) = play(tmp_path, a, b)
    assert r.winrates == {"A": [[1, 0.61], [5, 0.58]], "B": [[2, 0.4]]}
    text = (tmp_path / "out" / r.sgf).read_text()
    assert "B[ei]C[A: win rate 0.610]" in text.replace("\n", "") and "C[B: win rate 0.400]" in text
    assert "A: win rate" not in text.split(";B[eh]")[1].split(";W")[0]  # the second move: nothing said
    # the results file keeps them
    line = json.loads((tmp_path / "out" / "results.jsonl").read_text().splitlines()[0])
    assert line["winrates"] == {"A": [[1, 0.61], [5, 0.58]], "B": [[2, 0.4]]}


def test_union_removes_what_either_lists(tmp_path):
    a = fake("A", "E1 E2 E3 E4 E5 E6 E7 E8 E9", "--dead", "A1,H8")
    b = fake("B", "A1 H8", "--dead", "A1")
    (r,) = play(tmp_path, a, b, dead_stones=DeadStones.UNION)
    assert r.dead == ["A1", "H8"] and str(r.result) == "B+73.5"


def test_miai_estimator_decides_and_the_engines_lists_are_recorded(tmp_path):
    a = fake("A", "E1 E2 E3 E4 E5 E6 E7 E8 E9", "--no-final-status")
    b = fake("B", "A1 B1", "--dead", "")
    (r,) = play(tmp_path, a, b, dead_stones=DeadStones.ESTIMATOR)
    assert r.dead_by_engine == {"A": None, "B": []}
    assert {"A1", "B1"} <= set(r.dead)  # two white stones alone in Black's closed side
    assert r.result.winner is Color.BLACK and r.result.by is Termination.SCORE and "dead stones removed" in r.detail


def test_illegal_move_loses_and_names_the_rule(tmp_path):
    (r,) = play(tmp_path, fake("A", "E5 D4"), fake("B", "E5"))
    assert str(r.result) == "B+F" and r.reason is Reason.ILLEGAL and r.at_fault == "B"
    assert "E5 is occupied by a black stone" in r.detail
    game, _ = load_game(tmp_path / "out" / "game-001.sgf")
    assert str(game.result) == "B+F"
    assert game.moves[-1].point == (4, 4)  # only E5 was played


def test_off_board_move_is_illegal_and_non_moves_are_garbage(tmp_path):
    (r,) = play(tmp_path, fake("A", "Z9"), fake("B", ""))
    assert r.reason is Reason.ILLEGAL and str(r.result) == "W+F" and "off the 9x9 board" in r.detail
    (r,) = play(tmp_path / "2", fake("A", "E5 !junk"), fake("B", "D4"))
    assert r.reason is Reason.GARBAGE and str(r.result) == "W+F" and "'???', not a move" in r.detail


def test_garbage_output_loses(tmp_path):
    (r,) = play(tmp_path, fake("A", "E5"), fake("B", "!garbage"))
    assert r.reason is Reason.GARBAGE and str(r.result) == "B+F" and r.at_fault == "B"
    assert "not GTP" in r.detail and "I am thinking very hard" in r.detail


def test_crash_loses_and_the_engine_is_restarted_for_the_next_game(tmp_path):
    counter = tmp_path / "counter"
    a = fake("A", "E5 D4 !crash|E5 pass", "--counter", str(counter))
    b = fake("B", "C3 C4 C5|C3 pass")
    first, second = play(tmp_path, a, b, games=2)
    assert first.reason is Reason.CRASH and str(first.result) == "W+F" and first.at_fault == "A"
    assert "exit code 3" in first.detail and "crashing on purpose" in first.detail
    # game 2: A restarted (the counter says it is in its second game) and B is Black
    assert second.black == "B" and second.reason is Reason.SCORE and second.at_fault is None
    assert counter.read_text() == "2"
    lines = (tmp_path / "out" / "results.jsonl").read_text().splitlines()
    assert [json.loads(line)["reason"] for line in lines] == ["crash", "score"]


def test_a_record_that_cannot_be_written_does_not_lose_the_result(tmp_path, monkeypatch):
    import miai.match.runs as runs

    def broken_writer(*args, **kwargs):
        raise OSError("No space left on device")

    monkeypatch.setattr(runs, "game_to_sgf", broken_writer)
    (r,) = play(tmp_path, fake("A", "E5 D4 !crash"), fake("B", "C3 C4 C5"))
    assert r.reason is Reason.CRASH and r.sgf == ""
    assert "SGF not written: OSError: No space left on device" in r.notes
    (line,) = (tmp_path / "out" / "results.jsonl").read_text().splitlines()
    assert json.loads(line)["reason"] == "crash" and not list((tmp_path / "out").glob("*.sgf"))


def test_timeout_loses_without_a_time_control(tmp_path):
    (r,) = play(tmp_path, fake("A", "!hang"), fake("B", ""), move_timeout=0.5)
    assert r.reason is Reason.TIMEOUT and str(r.result) == "W+F"
    assert "did not answer 'genmove black' within 0.5 s" in r.detail


def test_the_cpu_an_engine_uses_during_its_opponents_turns_is_measured(tmp_path):
    # A thinks 0.5 s a move; B answers at once, then keeps a CPU busy (as an engine that
    # ponders) until the next command
    a = fake("A", " ".join(f"!sleep:0.5:{v}" for v in ("C3", "C4", "C5", "C6")))
    b = fake("B", "G3 G4 G5 G6", "--ponder", "5")
    (r,) = play(tmp_path, a, b)
    assert set(r.offturn_cpu_ms) == {"A", "B"}
    assert r.offturn_cpu_ms["A"] < 100  # A waits for its turn
    # B was busy through A's last three moves (1.5 s); on a loaded machine it gets only a
    # share of a core, but far more than an engine that waits
    assert r.offturn_cpu_ms["B"] > 300


def test_running_out_of_time_loses_on_time(tmp_path):
    log = tmp_path / "a.log"
    a = fake("A", "E5 !sleep:1.6:D4", "--log", str(log))
    (r,) = play(tmp_path, a, fake("B", "C3 C4"), time_control=TimeControl.parse("absolute:1.2"), lag_ms=3000)
    assert str(r.result) == "W+T" and r.reason is Reason.TIME
    assert "ran out of time" in r.detail
    sent = [c for c in log.read_text().splitlines() if c.split()[0] not in ("name", "version", "known_command")]
    assert sent[:4] == ["boardsize 9", "clear_board", "komi 7.5", "time_settings 1 0 0"]
    assert sent[4] == "time_left black 1 0" and sent[5] == "genmove black"
    assert sent[-3].startswith("time_left black ") and sent[-2:] == ["genmove black", "quit"]


def test_hanging_past_the_flag_loses_on_time(tmp_path):
    (r,) = play(tmp_path, fake("A", "!hang"), fake("B", ""), time_control=TimeControl.parse("absolute:0.3"), lag_ms=200)
    assert str(r.result) == "W+T" and r.reason is Reason.TIME
    # the limit is the time left (0.3 s, less the millisecond or two between starting the clock
    # and reading it on a busy machine) plus the lag allowance (0.2 s)
    found = re.search(r"black ran out of time: no move within ([0-9.]+) s", r.detail)
    assert found is not None, r.detail
    assert 0.49 <= float(found.group(1)) <= 0.5


def test_resignation(tmp_path):
    (r,) = play(tmp_path, fake("A", "E5 D5"), fake("B", "C3 resign"))
    assert str(r.result) == "B+R" and r.reason is Reason.RESIGNATION and r.at_fault is None
    assert r.detail == "white (B) resigned"


def test_an_engine_refusing_a_legal_move_forfeits(tmp_path):
    (r,) = play(tmp_path, fake("A", "E5"), fake("B", "", "--refuse-play"))
    assert r.reason is Reason.REFUSED and str(r.result) == "B+F" and "refused 'play black E5'" in r.detail


def test_move_cap_voids_the_game(tmp_path):
    (r,) = play(tmp_path, fake("A", "E5 E6 E7"), fake("B", "D5 D6 D7"), max_moves=4)
    assert str(r.result) == "Void" and r.reason is Reason.MOVE_CAP and r.moves == 4


def test_without_final_status_list_stones_count_as_they_stand(tmp_path):
    a = fake("A", "E1 E2 E3 E4 E5 E6 E7 E8 E9", "--no-final-status")
    b = fake("B", "A1", "--no-final-status")
    (r,) = play(tmp_path, a, b)
    assert r.dead == [] and r.dead_by_engine == {"A": None, "B": None}
    assert any("neither engine" in n for n in r.notes)


def test_an_engine_without_genmove_is_reported(tmp_path):
    with pytest.raises(MatchError, match="'B' .* cannot play: it does not know the GTP command genmove"):
        play(tmp_path, fake("A", ""), fake("B", "", "--no-genmove"))


def test_an_engine_that_cannot_start_is_reported(tmp_path):
    missing = EngineSpec(("/nonexistent/engine",), "ghost")
    with pytest.raises(MatchError, match="'ghost' .* failed to start"):
        play(tmp_path, fake("A", ""), missing)


def test_rules_and_komi_reach_the_records(tmp_path):
    log = tmp_path / "b.log"
    (r,) = play(
        tmp_path, fake("A", ""), fake("B", "", "--log", str(log)), rules=Rules.parse("japanese"), komi=0.5, size=7
    )
    assert str(r.result) == "W+0.5"  # empty board, territory scoring: komi
    assert "komi 0.5" in log.read_text().splitlines()
    game, _ = load_game(tmp_path / "out" / r.sgf)
    assert game.komi == 0.5 and game.rules.scoring.value == "territory" and str(game.result) == "W+0.5"




# ---------------------------------------------------------------------- the fuzzing's engines
def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kilobytes on Linux


def test_an_engine_flooding_stdout_with_one_endless_line_forfeits_and_memory_stays_bounded(tmp_path, monkeypatch):
    # it took the referee to 3.2 GB in 6 s, then MemoryError in a reader thread
    monkeypatch.setenv("FLOOD_SECONDS", "2")
    before = peak_rss_mb()
    (r,) = play(tmp_path, fuzz("flood", "stdoutflood"), fuzz("passer", "pass"))
    assert r.reason is Reason.GARBAGE and str(r.result) == "W+F" and r.at_fault == "flood"
    assert "answered 'genmove black' with a line over 1048576 bytes" in r.detail
    assert peak_rss_mb() - before < 200


def test_an_engine_flooding_stderr_plays_on_and_memory_stays_bounded(tmp_path, monkeypatch):
    monkeypatch.setenv("FLOOD_SECONDS", "2")
    before = peak_rss_mb()
    (r,) = play(tmp_path, fuzz("flood", "stderrflood", 2), fuzz("passer", "pass"), size=5)
    assert r.reason is Reason.SCORE and r.genmoves["flood"] >= 2  # it passed after its flood
    assert peak_rss_mb() - before < 200


def test_an_answer_with_an_id_of_thousands_of_digits_forfeits(tmp_path):
    # int() of 4,300+ digits raised ValueError, which ended the whole match in a traceback
    (r,) = play(tmp_path, fuzz("A", "pass"), fuzz("huge", "hugeid", 1))
    assert r.reason is Reason.GARBAGE and r.at_fault == "huge" and str(r.result) == "B+F"
    assert "an id of 5000 digits" in r.detail


def test_an_engine_answering_junk_dead_stones_is_counted_with_what_can_be_read(tmp_path):
    (r,) = play(tmp_path, fuzz("junk", "nodeadlist", 2), fuzz("B", "pass"), size=5)
    assert r.reason is Reason.SCORE and r.dead_by_engine["junk"] is not None


# ---------------------------------------------------------------------- settings
@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"move_timeout": math.nan}, "the move timeout must be a number of seconds above 0"),
        ({"move_timeout": -1.0}, "the move timeout must be"),
        ({"move_timeout": math.inf}, "the move timeout must be"),
        ({"setup_timeout": 0}, "the setup timeout must be"),
        ({"max_moves": 0}, "the move cap must be a whole number from 1"),
        ({"games": 0}, "the number of games must be a whole number from 1"),
        ({"size": 30}, "the board size must be a whole number from 2 to 25"),
        ({"komi": math.nan}, "komi must be a number from -1000 to 1000, not nan"),
        ({"komi": 1e300}, "komi must be a number from -1000 to 1000"),
        ({"handicap": 5, "size": 5}, "handicap"),
        ({"lag_ms": -5}, "the lag allowance"),
        ({"dead_stones": "agreed"}, "not a dead-stone rule"),
    ],
)
def test_settings_that_make_no_sense_are_refused_by_name(change, message):
    with pytest.raises(MatchConfigError, match=message) as err:
        MatchConfig((fake("A", ""), fake("B", "")), **change)
    assert isinstance(err.value, ValueError) and isinstance(err.value, MatchError)


def test_engine_specs_are_checked():
    with pytest.raises(MatchConfigError, match="an engine needs a command line"):
        EngineSpec.parse("   ")
    with pytest.raises(MatchConfigError, match="cannot read the engine command line .*No closing quotation"):
        EngineSpec.parse('gnugo --mode "gtp')
    with pytest.raises(MatchConfigError, match="needs a label"):
        EngineSpec(("gnugo",), " ")
    assert EngineSpec.parse("/usr/games/gnugo --mode gtp --level 3").label == "gnugo L3"
    assert EngineSpec.parse("python3 -m miai gtp").label == "miai"
    with pytest.raises(MatchConfigError, match="different labels"):
        MatchConfig((fake("A", ""), fake("A", "")))
