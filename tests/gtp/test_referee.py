"""The referee (``miai match``): clocks, statistics, and games against scripted fake engines
that misbehave (illegal move, crash, timeout, garbage, refusal), resign or pass."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import pytest

from miai.gtp.referee import (
    Clock,
    DeadStones,
    EngineSpec,
    GameRecord,
    Match,
    MatchConfig,
    MatchError,
    Reason,
    TimeControl,
    elo_difference,
    format_summary,
    load_records,
    load_run,
    pool_runs,
    summarize,
    wilson_interval,
)
from miai.rules import Rules
from miai.sgf import load_game

pytestmark = pytest.mark.timeout(60)

FAKE = [sys.executable, str(Path(__file__).with_name("fake_player.py"))]


def fake(label: str, script: str, *options: str) -> EngineSpec:
    return EngineSpec((*FAKE, "--script", script, "--name", label, *options), label)


def play(tmp_path: Path, a: EngineSpec, b: EngineSpec, **kwargs) -> list[GameRecord]:
    kwargs.setdefault("games", 1)
    kwargs.setdefault("size", 9)
    kwargs.setdefault("move_timeout", 10.0)
    config = MatchConfig((a, b), **kwargs)
    return Match(config, tmp_path / "out").run()


# ---------------------------------------------------------------------- clocks
def test_time_control_text_round_trips():
    for text in ("none", "absolute:60", "canadian:60:30:5", "byoyomi:30:10:3", "absolute:0.5"):
        assert str(TimeControl.parse(text)) == text
    assert TimeControl.parse("90") == TimeControl("absolute", 90_000)
    assert TimeControl.parse("canadian:60:0:5") == TimeControl("absolute", 60_000)
    with pytest.raises(ValueError, match="not a time control"):
        TimeControl.parse("fischer:5")
    with pytest.raises(ValueError, match="no time"):
        TimeControl.parse("0")


def test_gtp_time_commands():
    assert TimeControl.parse("absolute:60").gtp_time_settings() == "time_settings 60 0 0"
    assert TimeControl.parse("canadian:60:30:5").gtp_time_settings() == "time_settings 60 30 5"
    assert TimeControl.parse("byoyomi:30:10:3").gtp_time_settings() == "time_settings 30 10 1"
    assert TimeControl.parse("byoyomi:30:10:3").kgs_time_settings() == "kgs-time_settings byoyomi 30 10 3"
    assert TimeControl.parse("absolute:0.5").gtp_time_settings() == "time_settings 1 0 0"


def test_absolute_clock():
    c = Clock(TimeControl.parse("absolute:2"))
    assert c.available_ms() == 2000 and c.time_left_args() == (2, 0)
    assert c.spend(1500) and c.main_ms == 500
    assert c.spend(500) and c.main_ms == 0
    assert not c.spend(1) and c.flagged


def test_canadian_clock_overflows_into_the_period_and_resets_it():
    c = Clock(TimeControl.parse("canadian:1:10:2"))
    assert c.available_ms() == 11_000
    assert c.spend(3000)  # 1 s of main, 2 s of the period
    assert (c.main_ms, c.period_left_ms, c.stones_left) == (0, 8000, 1)
    assert c.time_left_args() == (8, 1)
    assert c.spend(8000)  # the period's last stone: a fresh period
    assert (c.period_left_ms, c.stones_left) == (10_000, 2)
    assert not c.spend(10_001)


def test_byoyomi_clock_uses_up_periods_only_when_exceeded():
    c = Clock(TimeControl.parse("byoyomi:0.5:5:3"))
    assert c.spend(500) and c.main_ms == 0
    assert c.spend(5000) and c.periods_left == 3  # exactly one period: none lost
    assert c.spend(5001) and c.periods_left == 2
    assert c.time_left_args() == (5, 2)
    assert c.available_ms() == 10_000
    assert c.spend(10_000) and c.periods_left == 1
    assert not c.spend(5001) and c.flagged


# ---------------------------------------------------------------------- statistics
def test_wilson_interval_and_elo():
    lo, hi = wilson_interval(5, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.2366, 0.7634)
    lo, hi = wilson_interval(10, 10)
    assert hi == 1.0 and round(lo, 4) == 0.7225
    assert wilson_interval(0, 0) == (0.0, 1.0)
    assert elo_difference(0.5) == 0
    assert round(elo_difference(0.75)) == 191
    assert elo_difference(1.0) == math.inf and elo_difference(0.0) == -math.inf


def rec(index: int, black: str, white: str, result: str, reason: Reason = Reason.SCORE, **kw) -> GameRecord:
    return GameRecord(index, black, white, result, reason, "", **kw)


def test_summary_counts_colours_draws_voids_and_reasons():
    records = [
        rec(0, "A", "B", "B+3.5", time_ms={"A": 1000, "B": 3000}, genmoves={"A": 10, "B": 10}),
        rec(1, "B", "A", "W+R", Reason.RESIGNATION, time_ms={"A": 500, "B": 500}, genmoves={"A": 5, "B": 5}),
        rec(2, "A", "B", "W+F", Reason.CRASH, at_fault="A"),
        rec(3, "B", "A", "0"),
        rec(4, "A", "B", "Void", Reason.MOVE_CAP),
    ]
    s = summarize(records, ("A", "B"))
    assert s.games == 5 and s.decided == 4 and s.no_result == 1 and s.draws == 1
    assert s.wins == {"A": 2, "B": 1}
    assert s.wins_as[("A", "black")] == 1 and s.wins_as[("A", "white")] == 1 and s.wins_as[("B", "white")] == 1
    assert s.games_as[("A", "black")] == 3 and s.games_as[("A", "white")] == 2
    assert s.black_wins == 1 and s.white_wins == 2
    assert s.win_rate == 2.5 / 4
    assert s.ms_per_move == {"A": 100.0, "B": 3500 / 15}
    assert s.reasons == {"score": 2, "resignation": 1, "crash": 1, "move cap": 1}
    assert s.forfeits == {"A": 1}
    table = format_summary(s)
    assert "A win rate: 62.5% (95% CI" in table
    assert "Black won 1, White won 2, 1 draw, 1 without result" in table
    assert "Games ended by: score 2" in table
    assert "Elo difference A - B: +89" in table


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
    assert r.result == "B+36.5" and r.detail == "both passed; counted 45 to 8.5 with 1 dead stone removed"
    game, _ = load_game(tmp_path / "out" / r.sgf)
    assert str(game.result) == "B+36.5" and game.board[(0, 0)] is not None  # the record keeps the stone
    assert r.moves == 19  # 11 stones, 7 passes of White, then Black's pass
    assert r.genmoves == {"A": 10, "B": 9}


def test_union_removes_what_either_lists(tmp_path):
    a = fake("A", "E1 E2 E3 E4 E5 E6 E7 E8 E9", "--dead", "A1,H8")
    b = fake("B", "A1 H8", "--dead", "A1")
    (r,) = play(tmp_path, a, b, dead_stones=DeadStones.UNION)
    assert r.dead == ["A1", "H8"] and r.result == "B+73.5"


def test_miai_estimator_decides_and_the_engines_lists_are_recorded(tmp_path):
    a = fake("A", "E1 E2 E3 E4 E5 E6 E7 E8 E9", "--no-final-status")
    b = fake("B", "A1 B1", "--dead", "")
    (r,) = play(tmp_path, a, b, dead_stones=DeadStones.ESTIMATOR)
    assert r.dead_by_engine == {"A": None, "B": []}
    assert {"A1", "B1"} <= set(r.dead)  # two white stones alone in Black's closed side
    assert r.result.startswith("B+") and "dead stones removed" in r.detail


def test_illegal_move_loses_and_names_the_rule(tmp_path):
    (r,) = play(tmp_path, fake("A", "E5 D4"), fake("B", "E5"))
    assert r.result == "B+F" and r.reason is Reason.ILLEGAL and r.at_fault == "B"
    assert "E5 is occupied by a black stone" in r.detail
    game, _ = load_game(tmp_path / "out" / "game-001.sgf")
    assert str(game.result) == "B+F"
    assert game.moves[-1].point == (4, 4)  # only E5 was played


def test_off_board_move_is_illegal_and_non_moves_are_garbage(tmp_path):
    (r,) = play(tmp_path, fake("A", "Z9"), fake("B", ""))
    assert r.reason is Reason.ILLEGAL and r.result == "W+F" and "off the 9x9 board" in r.detail
    (r,) = play(tmp_path / "2", fake("A", "E5 !junk"), fake("B", "D4"))
    assert r.reason is Reason.GARBAGE and r.result == "W+F" and "'???', not a move" in r.detail


def test_garbage_output_loses(tmp_path):
    (r,) = play(tmp_path, fake("A", "E5"), fake("B", "!garbage"))
    assert r.reason is Reason.GARBAGE and r.result == "B+F" and r.at_fault == "B"
    assert "not GTP" in r.detail and "I am thinking very hard" in r.detail


def test_crash_loses_and_the_engine_is_restarted_for_the_next_game(tmp_path):
    counter = tmp_path / "counter"
    a = fake("A", "E5 D4 !crash|E5 pass", "--counter", str(counter))
    b = fake("B", "C3 C4 C5|C3 pass")
    records = play(tmp_path, a, b, games=2)
    first, second = records
    assert first.reason is Reason.CRASH and first.result == "W+F" and first.at_fault == "A"
    assert "exit code 3" in first.detail and "crashing on purpose" in first.detail
    # game 2: A restarted (the counter says it is in its second game) and B is Black
    assert second.black == "B" and second.reason is Reason.SCORE and second.at_fault is None
    assert counter.read_text() == "2"
    lines = (tmp_path / "out" / "results.jsonl").read_text().splitlines()
    assert [json.loads(line)["reason"] for line in lines] == ["crash", "score"]


def test_a_record_that_cannot_be_written_does_not_lose_the_result(tmp_path, monkeypatch):
    import miai.gtp.referee as referee

    def broken_writer(*args, **kwargs):
        raise OSError("No space left on device")

    monkeypatch.setattr(referee, "game_to_sgf", broken_writer)
    (r,) = play(tmp_path, fake("A", "E5 D4 !crash"), fake("B", "C3 C4 C5"))
    assert r.reason is Reason.CRASH and r.sgf == ""
    assert "SGF not written: OSError: No space left on device" in r.notes
    (line,) = (tmp_path / "out" / "results.jsonl").read_text().splitlines()
    assert json.loads(line)["reason"] == "crash" and not list((tmp_path / "out").glob("*.sgf"))


def test_timeout_loses_without_a_time_control(tmp_path):
    (r,) = play(tmp_path, fake("A", "!hang"), fake("B", ""), move_timeout=0.5)
    assert r.reason is Reason.TIMEOUT and r.result == "W+F"
    assert "did not answer 'genmove black' within 0.5 s" in r.detail


def test_running_out_of_time_loses_on_time(tmp_path):
    log = tmp_path / "a.log"
    a = fake("A", "E5 !sleep:1.6:D4", "--log", str(log))
    (r,) = play(tmp_path, a, fake("B", "C3 C4"), time_control=TimeControl.parse("absolute:1.2"), lag_ms=3000)
    assert r.result == "W+T" and r.reason is Reason.TIME
    assert "ran out of time" in r.detail
    sent = [c for c in log.read_text().splitlines() if c.split()[0] not in ("name", "version", "known_command")]
    assert sent[:4] == ["boardsize 9", "clear_board", "komi 7.5", "time_settings 1 0 0"]
    assert sent[4] == "time_left black 1 0" and sent[5] == "genmove black"
    assert sent[-3].startswith("time_left black ") and sent[-2:] == ["genmove black", "quit"]


def test_hanging_past_the_flag_loses_on_time(tmp_path):
    (r,) = play(tmp_path, fake("A", "!hang"), fake("B", ""), time_control=TimeControl.parse("absolute:0.3"), lag_ms=200)
    assert r.result == "W+T" and r.reason is Reason.TIME and "no move within 0.5 s" in r.detail


def test_resignation(tmp_path):
    (r,) = play(tmp_path, fake("A", "E5 D5"), fake("B", "C3 resign"))
    assert r.result == "B+R" and r.reason is Reason.RESIGNATION and r.at_fault is None
    assert r.detail == "white (B) resigned"


def test_an_engine_refusing_a_legal_move_forfeits(tmp_path):
    (r,) = play(tmp_path, fake("A", "E5"), fake("B", "", "--refuse-play"))
    assert r.reason is Reason.REFUSED and r.result == "B+F" and "refused 'play black E5'" in r.detail


def test_move_cap_voids_the_game(tmp_path):
    (r,) = play(tmp_path, fake("A", "E5 E6 E7"), fake("B", "D5 D6 D7"), max_moves=4)
    assert r.result == "Void" and r.reason is Reason.MOVE_CAP and r.moves == 4


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


def test_resume_plays_only_the_missing_games(tmp_path):
    a, b = fake("A", "E5"), fake("B", "")
    config = MatchConfig((a, b), games=2, size=5)
    Match(config, tmp_path).run()
    # a crash while writing the third record leaves half a line
    with open(tmp_path / "results.jsonl", "a") as f:
        f.write('{"index": 2, "black": "A", "wh')
    started = []
    records = Match(
        MatchConfig((a, b), games=4, size=5), tmp_path, resume=True, on_game_start=started.append
    ).run()
    assert started == [2, 3]
    assert [r.index for r in records] == [0, 1, 2, 3]
    assert [r.index for r in load_records(tmp_path / "results.jsonl")] == [0, 1, 2, 3]
    assert sorted(p.name for p in tmp_path.glob("*.sgf")) == [f"game-00{i}.sgf" for i in range(1, 5)]
    # without --resume the directory is not overwritten; other settings are refused
    with pytest.raises(MatchError, match="--resume"):
        Match(config, tmp_path).run()
    with pytest.raises(MatchError, match="other settings .*size"):
        Match(MatchConfig((a, b), games=4, size=7), tmp_path, resume=True).run()


def test_rules_and_komi_reach_the_records(tmp_path):
    log = tmp_path / "b.log"
    (r,) = play(
        tmp_path, fake("A", ""), fake("B", "", "--log", str(log)), rules=Rules.parse("japanese"), komi=0.5, size=7
    )
    assert r.result == "W+0.5"  # empty board, territory scoring: komi
    assert "komi 0.5" in log.read_text().splitlines()
    game, _ = load_game(tmp_path / "out" / r.sgf)
    assert game.komi == 0.5 and game.rules.scoring.value == "territory" and str(game.result) == "W+0.5"


# ---------------------------------------------------------------------- pooling runs
def test_runs_of_one_match_are_pooled_under_one_pair_of_labels(tmp_path):
    # engine A plays E5 and then passes, engine B only passes: A wins every game
    Match(MatchConfig((fake("A", "E5|E5"), fake("B", "")), games=2, size=5), tmp_path / "r1").run()
    Match(MatchConfig((fake("A-new", "E5"), fake("B", "")), games=1, size=5), tmp_path / "r2").run()
    runs = [load_run(tmp_path / "r1"), load_run(tmp_path / "r2")]
    assert [r.labels for r in runs] == [("A", "B"), ("A-new", "B")]
    labels, records = pool_runs(runs)
    assert labels == ("A", "B")
    assert [(r.index, r.black, r.white, r.winner) for r in records] == [
        (0, "A", "B", "A"),
        (1, "B", "A", "A"),
        (2, "A", "B", "A"),
    ]
    assert all(set(r.time_ms) == {"A", "B"} and Path(r.sgf).is_file() for r in records)
    assert Path(records[2].sgf).parent == tmp_path / "r2"
    s = summarize(records, labels)
    assert s.wins == {"A": 3, "B": 0} and s.wins_as[("A", "black")] == 2 and s.wins_as[("A", "white")] == 1
    # other labels for the pooled table
    labels, records = pool_runs(runs, ("miai", "gnugo"))
    assert {r.black for r in records} == {"miai", "gnugo"} and summarize(records, labels).wins["miai"] == 3
    with pytest.raises(MatchError, match="different labels"):
        pool_runs(runs, ("x", "x"))


def test_runs_played_under_other_settings_are_not_pooled(tmp_path):
    Match(MatchConfig((fake("A", ""), fake("B", "")), games=1, size=5), tmp_path / "r1").run()
    Match(MatchConfig((fake("A", ""), fake("B", "")), games=1, size=7, komi=0.5), tmp_path / "r2").run()
    with pytest.raises(MatchError, match=r"r2 was played with other settings than .*r1: size 7 \(not 5\), komi 0.5 \(not None\)"):
        pool_runs([load_run(tmp_path / "r1"), load_run(tmp_path / "r2")])
    with pytest.raises(MatchError, match="no match directory"):
        pool_runs([])


def test_a_directory_that_is_not_a_match_is_named(tmp_path):
    with pytest.raises(MatchError, match="is not a match directory: it has no match.json"):
        load_run(tmp_path)
    (tmp_path / "match.json").write_text("{not json")
    with pytest.raises(MatchError, match="match.json cannot be read"):
        load_run(tmp_path)
    (tmp_path / "match.json").write_text(json.dumps({"engines": [{"label": "A"}]}))
    with pytest.raises(MatchError, match="does not name two engines"):
        load_run(tmp_path)
