"""Game records in bulk (:mod:`miai.train.corpus`): every kind of source, and what is left out."""

from __future__ import annotations

from pathlib import Path

from miai.sgf.record import SgfRecord
from miai.train.corpus import read_games, records

MOVES = ";B[pd];W[dp];B[pp];W[dd];B[fq];W[cn];B[qf];W[nc];B[pb];W[fc];B[tt];W[jj]"
"""Eleven moves on the board and a pass, the opening of a 19×19 game."""


def sources(tmp_path: Path) -> list[str]:
    """A Tygem file of three games and a line that is not one, a run directory of two records,
    one of them 9×9 (left out), and a lone SGF file: 5 games of 19×19 to learn from."""
    tygem = tmp_path / "2016-07"
    tygem.write_text(f"885492098\t{MOVES}\n885492099\t{MOVES}\nnot a game\n885492100\t{MOVES[:30]}\n")
    run = tmp_path / "run"
    run.mkdir()
    (run / "game-001.sgf").write_text(f"(;GM[1]FF[4]SZ[19]KM[7.5]RU[Chinese]{MOVES})")
    (run / "game-002.sgf").write_text("(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese];B[ee])")
    (run / "notes.txt").write_text("not a record: a directory's other files are not read")
    return [str(tygem), str(run), str(run / "game-001.sgf")]


def test_every_kind_of_source_is_read_and_named(tmp_path):
    read = list(records(sources(tmp_path)))
    assert [name.rsplit("/", 1)[-1] for name, _ in read] == [
        "2016-07:1", "2016-07:2", "2016-07:3", "2016-07:4", "game-001.sgf", "game-002.sgf", "game-001.sgf"]
    good = [r for _, r in read if isinstance(r, SgfRecord)]
    assert len(good) == 6 and not isinstance(read[2][1], SgfRecord)  # the line that is not a game
    assert [r.size for r in good] == [19, 19, 19, 19, 9, 19]
    assert len(good[0].events) == 12 and len(good[2].events) == 5  # the short game's 5 moves


def test_games_of_another_size_or_that_do_not_read_are_left_out_and_every_kth_kept_apart(tmp_path):
    warned: list[str] = []
    names = sources(tmp_path)
    corpus = read_games(names, holdout=2, warn=warned.append)
    assert corpus.read == 7 and corpus.skipped == 2  # the line that is not a game, the 9×9 record
    assert len(corpus.games) == 3 and len(corpus.held) == 2  # the 2nd and 4th records read, apart
    assert len(warned) == 1 and "2016-07:3: left out" in warned[0]
    assert read_games(names, limit=2, warn=warned.append).read == 2


def test_a_directory_is_read_through_its_folders_and_sgf_in_any_case(tmp_path):
    (tmp_path / "b" / "deeper").mkdir(parents=True)
    (tmp_path / "b" / "deeper" / "Old.SGF").write_text(f"(;GM[1]FF[4]SZ[19]{MOVES})")
    (tmp_path / "a.sgf").write_text(f"(;GM[1]FF[4]SZ[19]{MOVES[:30]})")
    (tmp_path / "b" / "readme.md").write_text("# not a record")
    read = list(records([str(tmp_path)]))
    assert [Path(name).relative_to(tmp_path).as_posix() for name, _ in read] == ["a.sgf", "b/deeper/Old.SGF"]
    assert [len(r.events) for _, r in read if isinstance(r, SgfRecord)] == [5, 12]
