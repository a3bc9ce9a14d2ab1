"""``miai match`` with real engines: two GNU Go's through the command line, and miai itself."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

import miai
from miai.cli.main import main
from miai.clock import TimeControl
from miai.coords import Color
from miai.match import EngineSpec, Match, MatchConfig, MatchError, Reason
from miai.sgf import load_game

GNUGO = shutil.which("gnugo") or shutil.which("/usr/games/gnugo")
pytestmark = [
    pytest.mark.gnugo,
    pytest.mark.skipif(GNUGO is None, reason="GNU Go is not installed (apt-get install gnugo; CI installs it)"),
    pytest.mark.timeout(120),
]


def test_two_gnugos_through_the_command_line(tmp_path, capsys):
    out = tmp_path / "run"
    engine = f"{GNUGO} --mode gtp --quiet --level 0 --chinese-rules"
    code = main(
        ["match", engine, engine, "-n", "2", "--size", "7", "--time", "canadian:10:5:5", "--out", str(out), "--no-progress"]
    )
    stdout, stderr = capsys.readouterr()
    assert code == 0, stderr
    assert "game 1: gnugo L0 #1 (B) vs gnugo L0 #2 (W)" in stderr
    assert "game 2: gnugo L0 #2 (B) vs gnugo L0 #1 (W)" in stderr
    assert "2 games: gnugo L0 #1 (A) vs gnugo L0 #2 (B)" in stdout
    assert "gnugo L0 #1 win rate:" in stdout and "Elo difference" in stdout
    records = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert [r["index"] for r in records] == [0, 1]
    for r in records:
        # GNU Go plays to the end: the game is counted by our rules with its dead-stone lists
        assert r["reason"] in ("score", "resignation"), r
        assert r["at_fault"] is None and r["genmoves"][r["black"]] >= 3
        game, _ = load_game(out / r["sgf"])
        assert game.size == 7 and str(game.result) == r["result"]
        assert game.rules.scoring.value == "area"
        if r["reason"] == "score":
            assert set(r["dead_by_engine"]) == {"gnugo L0 #1", "gnugo L0 #2"}
    settings = json.loads((out / "match.json").read_text())
    assert settings["time_control"] == "canadian:10:5:5" and settings["size"] == 7
    # --resume on a finished run plays nothing and prints the same table
    code = main(["match", engine, engine, "-n", "2", "--size", "7", "--time", "canadian:10:5:5", "--out", str(out),
                 "--no-progress", "--resume"])
    again, stderr = capsys.readouterr()
    assert code == 0 and again == stdout and "game 1" not in stderr


@pytest.mark.timeout(120, func_only=True)
@pytest.mark.usefixtures("compiled_engine")
def test_miai_against_gnugo(tmp_path, monkeypatch):
    # the engine subprocess imports the same miai as this test
    monkeypatch.setenv("PYTHONPATH", str(Path(miai.__file__).resolve().parents[1]))
    me = EngineSpec((sys.executable, "-m", "miai", "gtp"), "miai")
    gnugo = EngineSpec((GNUGO, "--mode", "gtp", "--quiet", "--level", "0", "--chinese-rules"), "gnugo")
    config = MatchConfig((me, gnugo), games=1, size=5, time_control=TimeControl.parse("absolute:8"), setup_timeout=60)
    from miai.gtp.engine import GtpEngine

    if not (GtpEngine(size=5).handle("known_command genmove") or "").startswith("= true"):
        with pytest.raises(MatchError, match="'miai' .* does not know the GTP command genmove"):
            Match(config, tmp_path).run()
        return
    (r,) = Match(config, tmp_path).run()
    # miai is Black in game 1; whatever the result, the game was played out under our rules
    assert r.black == "miai" and r.black_name.startswith("miai")
    assert r.reason in (Reason.SCORE, Reason.RESIGNATION), r
    assert r.genmoves["miai"] >= 2
    game, _ = load_game(tmp_path / r.sgf)
    assert game.result == r.result


def test_two_gnugos_play_on_from_an_opening(tmp_path):
    # White to move after the opening; GNU Go takes the moves with play and goes on from them
    (tmp_path / "openings").mkdir()
    opening = tmp_path / "openings" / "corner.sgf"
    opening.write_text("(;GM[1]SZ[7];B[cc];W[ee];B[ce])")
    engine = f"{GNUGO} --mode gtp --quiet --level 0 --chinese-rules"
    out = tmp_path / "run"
    assert main(["match", engine, engine, "-n", "2", "--size", "7", "--openings", str(opening.parent), "--out", str(out),
                 "--no-progress"]) == 0  # fmt: skip
    for line in (out / "results.jsonl").read_text().splitlines():
        r = json.loads(line)
        assert r["reason"] in ("score", "resignation") and r["opening"] == "corner", r
        game, _ = load_game(out / r["sgf"])
        assert [str(m) for m in game.moves[:3]] == ["B C5", "W E3", "B C3"] and game.moves[3].color is Color.WHITE
    assert json.loads((out / "match.json").read_text())["openings"] == [{"name": "corner", "moves": "B C5 W E3 B C3"}]
