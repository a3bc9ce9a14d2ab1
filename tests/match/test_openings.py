"""Matches that start from given positions: openings read from records, each played twice
with the colours swapped, sent to both engines, kept in the records; bad openings refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from miai.coords import Color, Move
from miai.match import (
    Match,
    MatchConfig,
    MatchConfigError,
    MatchError,
    Opening,
    Reason,
    load_openings,
    format_summary,
    load_run,
    pool_runs,
    summarize,
)
from miai.match.openings import load_opening, opening_files, opening_for
from miai.sgf import load_game
from tests.match.fakes import fake, play

pytestmark = pytest.mark.timeout(60)


def record(tmp_path: Path, name: str, body: str, size: int = 9) -> Path:
    path = tmp_path / f"{name}.sgf"
    path.write_text(f"(;GM[1]FF[4]SZ[{size}]{body})")
    return path


def games_in_log(log: Path) -> list[list[str]]:
    """The commands an engine received, one list per game (split at ``clear_board``)."""
    games: list[list[str]] = []
    for line in log.read_text().splitlines():
        if line == "clear_board":
            games.append([])
        elif games:
            games[-1].append(line)
    return games


def test_each_opening_is_played_twice_with_the_colours_swapped_and_sent_to_both_engines(tmp_path):
    openings = load_openings([record(tmp_path, "two", ";B[cg];W[gc]"), record(tmp_path, "one", ";B[ee]")], 9)
    assert [str(o) for o in openings] == ["two: B C3 W G7", "one: B E5"]
    logs = tmp_path / "a.log", tmp_path / "b.log"
    a = fake("A", "resign|resign|resign|resign", "--log", str(logs[0]))
    b = fake("B", "resign|resign|resign|resign", "--log", str(logs[1]))
    results = play(tmp_path, a, b, games=5, openings=openings)
    assert [r.opening for r in results] == ["two", "two", "one", "one", "two"]
    # after "two" Black moves, after "one" White: the side to move resigns
    assert [(r.black, str(r.result)) for r in results] == [
        ("A", "W+R"), ("B", "W+R"), ("A", "B+R"), ("B", "B+R"), ("A", "W+R"),
    ]  # fmt: skip
    assert all(r.reason is Reason.RESIGNATION for r in results)
    for log in logs:
        games = games_in_log(log)
        assert len(games) == 5
        for game in games[:2] + games[4:]:
            assert game[game.index("play black C3") + 1] == "play white G7"
        assert all("play black E5" in game for game in games[2:4])
    # the records start with the opening
    game, _ = load_game(tmp_path / "out" / results[1].sgf)
    assert [str(m) for m in game.moves] == ["B C3", "W G7"]
    assert "From the opening two" in (tmp_path / "out" / results[1].sgf).read_text()
    # White won every game from "two", Black every game from "one": A won games 2 and 3, so
    # one of its three from "two" (B is ahead there) and one of two from "one" (even)
    summary = summarize(results, ("A", "B"))
    assert summary.by_opening == {"two": [1.0, 3], "one": [1.0, 2]}
    assert summary.openings_ahead == (0, 1, 1)
    assert "From 2 openings: A ahead in 0, even in 1, B ahead in 1" in format_summary(summary)


def test_the_opening_of_each_game_pairs_the_games_and_cycles():
    first = Opening("a", (Move(Color.BLACK, (0, 0)),))
    second = Opening("b", (Move(Color.BLACK, (1, 1)),))
    assert [opening_for((first, second), i) for i in range(6)] == [first, first, second, second, first, first]
    assert opening_for((), 3) is None
    assert [opening_for((first, second), i, 1) for i in range(3)] == [first, second, first]


def test_without_alternating_the_first_engine_is_black_in_every_game_and_each_opening_played_once(tmp_path):
    openings = load_openings([record(tmp_path, "two", ";B[cg];W[gc]"), record(tmp_path, "one", ";B[ee]")], 9)
    a, b = fake("A", "resign|resign|resign"), fake("B", "resign|resign|resign")
    results = play(tmp_path, a, b, games=3, openings=openings, alternate=False)
    assert [(r.opening, r.black, str(r.result)) for r in results] == [
        ("two", "A", "W+R"), ("one", "A", "B+R"), ("two", "A", "W+R"),
    ]  # fmt: skip
    # a run resumed alternating is another match
    with pytest.raises(MatchError, match="other settings \\(alternate\\)"):
        Match(MatchConfig((a, b), games=4, move_timeout=10.0, openings=openings), tmp_path / "out", resume=True).run()
    same = MatchConfig((a, b), games=4, move_timeout=10.0, openings=openings, alternate=False)
    resumed = Match(same, tmp_path / "out", resume=True).run()
    assert [r.black for r in resumed] == ["A"] * 4


def test_an_engine_that_refuses_an_opening_move_forfeits(tmp_path):
    (opening,) = load_openings([record(tmp_path, "o", ";B[ee]")], 9)
    (r,) = play(tmp_path, fake("A", ""), fake("B", "", "--refuse-play"), openings=(opening,))
    assert r.reason is Reason.REFUSED and r.at_fault == "B" and "refused 'play black E5'" in r.detail


def test_a_run_resumed_with_other_openings_is_refused(tmp_path):
    first = load_openings([record(tmp_path, "o", ";B[ee]")], 9)
    other = load_openings([record(tmp_path, "p", ";B[dd]")], 9)
    a, b = fake("A", "resign"), fake("B", "resign")
    Match(MatchConfig((a, b), games=1, openings=first), tmp_path / "out").run()
    with pytest.raises(MatchError, match="other settings \\(openings\\)"):
        Match(MatchConfig((a, b), games=2, openings=other), tmp_path / "out", resume=True).run()
    # the same openings resume
    assert len(Match(MatchConfig((a, b), games=2, openings=first), tmp_path / "out", resume=True).run()) == 2


def test_only_the_first_moves_are_taken_when_asked(tmp_path):
    path = record(tmp_path, "long", ";B[cg];W[gc];B[ee];W[dd]")
    assert str(load_opening(path, 9, 3)) == "long: B C3 W G7 B E5"
    assert len(load_opening(path, 9).moves) == 4
    with pytest.raises(MatchConfigError, match="at least 1, not 0"):
        load_openings([path], 9, 0)


@pytest.mark.parametrize(
    ("body", "size", "message"),
    [
        (";B[cg]", 13, "is a 13x13 record; the match plays 9x9"),
        ("AB[cc][dd];W[ee]", 9, "sets up stones"),
        ("C[nothing played]", 9, "holds no moves"),
    ],
)
def test_records_that_cannot_be_openings_are_refused_with_the_reason(tmp_path, body, size, message):
    with pytest.raises(MatchConfigError, match=message):
        load_opening(record(tmp_path, "bad", body, size), 9)


def test_a_directory_names_its_records_by_name_and_files_name_themselves(tmp_path):
    (tmp_path / "set").mkdir()
    for name in ("b", "a"):
        record(tmp_path / "set", name, ";B[ee]")
    (tmp_path / "set" / "notes.txt").write_text("not a record")
    single = record(tmp_path, "z", ";B[dd]")
    assert opening_files([tmp_path / "set", single]) == [tmp_path / "set" / "a.sgf", tmp_path / "set" / "b.sgf", single]
    # the same name twice: the second is told apart by its place
    again = record(tmp_path, "a", ";B[cc]")
    assert [o.name for o in load_openings([*opening_files([tmp_path / "set"]), again], 9)] == ["a", "b", "a #3"]
    (tmp_path / "empty").mkdir()
    with pytest.raises(MatchConfigError, match="the directory .*empty holds no .sgf file"):
        opening_files([tmp_path / "set", tmp_path / "empty"])


def test_a_missing_record_is_refused(tmp_path):
    with pytest.raises(MatchConfigError, match="opening .*nowhere.sgf: cannot be read"):
        load_opening(tmp_path / "nowhere.sgf", 9)


def test_an_opening_that_breaks_the_rules_or_ends_the_game_is_refused(tmp_path):
    a, b = fake("A", ""), fake("B", "")
    occupied = Opening("o", (Move(Color.BLACK, (4, 4)), Move(Color.WHITE, (4, 4))))
    with pytest.raises(MatchConfigError, match=r"opening o: move 2 \(W E5\) is illegal: .*occupied"):
        MatchConfig((a, b), openings=(occupied,))
    passes = Opening("p", (Move(Color.BLACK, None), Move(Color.WHITE, None)))
    with pytest.raises(MatchConfigError, match="opening p: the game is over after its moves"):
        MatchConfig((a, b), openings=(passes,))
    with pytest.raises(MatchConfigError, match="opening o: its 2 moves reach the move cap"):
        MatchConfig((a, b), openings=(Opening("o", (occupied.moves[0], Move(Color.WHITE, (3, 3)))),), max_moves=2)


def test_runs_from_openings_pool_with_each_other_but_not_with_runs_from_the_empty_board(tmp_path):
    a, b = fake("A", "resign|resign"), fake("B", "resign|resign")
    o, p = load_openings([record(tmp_path, "o", ";B[ee]"), record(tmp_path, "p", ";B[dd]")], 9)
    for out, chosen in (("first", (o,)), ("second", (p,)), ("none", ())):
        Match(MatchConfig((a, b), games=2, openings=chosen), tmp_path / out).run()
    # a set of positions split between two runs side by side
    labels, results = pool_runs([load_run(tmp_path / "first"), load_run(tmp_path / "second")])
    assert summarize(results, labels).by_opening == {"o": [1.0, 2], "p": [1.0, 2]}
    with pytest.raises(MatchError, match=r"none was played from the empty board, .*first from openings"):
        pool_runs([load_run(tmp_path / "first"), load_run(tmp_path / "none")])
