"""``miai match``: the settings it refuses, and what a SIGTERM leaves behind."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import miai
from miai.cli.main import main

FAKE = f"{sys.executable} {Path(__file__).parents[1] / 'match' / 'fake_player.py'}"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--time", "fischer"], "not a time control: 'fischer'"),
        (["--time", "absolute:inf"], "the main time must be a finite number, not 'inf' in the time control"),
        (["--move-timeout", "nan"], "the move timeout must be a number of seconds above 0"),
        (["--move-timeout", "-1"], "the move timeout must be a number of seconds above 0"),
        (["--komi", "nan"], "komi must be a number from -1000 to 1000, not nan"),
        (["--max-moves", "0"], "the move cap must be a whole number from 1"),
        (["--games", "0"], "the number of games must be a whole number from 1"),
        (["--size", "5", "--handicap", "5"], "handicap"),
        (["--size", "26"], "the board size must be a whole number from 2 to 25"),
        (["--rules", "japanese ko=sometimes"], "ko"),
        (["--openings", "/no/such/opening.sgf"], "opening /no/such/opening.sgf: cannot be read"),
        (["--openings", "/"], "openings: the directory / holds no .sgf file"),
    ],
)
def test_settings_that_make_no_sense_are_refused_before_any_engine_starts(tmp_path, capsys, options, message):
    assert main(["match", "no-such-engine-a", "no-such-engine-b", "--out", str(tmp_path / "out"), *options]) == 2
    err = capsys.readouterr().err
    assert err.startswith("miai match: ") and message in err and "Traceback" not in err
    assert not (tmp_path / "out").exists()


def test_an_engine_command_line_that_cannot_be_read_is_refused(tmp_path, capsys):
    assert main(["match", 'gnugo --mode "gtp', "b", "--out", str(tmp_path)]) == 2
    assert "cannot read the engine command line" in capsys.readouterr().err


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/status") as f:
            return "\nState:\tZ" not in f.read()
    except FileNotFoundError:
        return False


@pytest.mark.timeout(60)
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc to see the engines' processes")
def test_sigterm_stops_the_engines_and_keeps_the_finished_games(tmp_path):
    pids = tmp_path / "pids"
    log = tmp_path / "a.log"
    # game 1: A plays E5, both pass; game 2: A (White) hangs on its first genmove
    a = f"{FAKE} --script 'E5|!hang' --name A --pidfile {pids} --log {log} --counter {tmp_path / 'games'}"
    b = f"{FAKE} --script '' --name B --pidfile {pids}"
    out = tmp_path / "out"
    env = dict(os.environ, PYTHONPATH=str(Path(miai.__file__).resolve().parents[1]))
    referee = subprocess.Popen(
        [sys.executable, "-m", "miai", "match", a, b, "-n", "2", "--size", "5", "--move-timeout", "600",
         "--out", str(out), "--no-progress"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 40
        while time.monotonic() < deadline:
            if log.exists() and log.read_text().count("genmove white") >= 1:  # A's first move of game 2
                break
            time.sleep(0.1)
        else:
            pytest.fail("the referee did not reach game 2")
        time.sleep(0.3)
        engines = [int(p) for p in pids.read_text().split()]
        assert len(engines) == 2 and all(alive(p) for p in engines)
        referee.send_signal(signal.SIGTERM)
        _, err = referee.communicate(timeout=20)
    finally:
        if referee.poll() is None:
            referee.kill()
    assert referee.returncode == 143, err
    assert "interrupted: 1 games are in" in err and "--resume continues" in err
    deadline = time.monotonic() + 5
    while any(alive(p) for p in engines) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = [p for p in engines if alive(p)]
    for pid in left:  # do not leave them behind if the test fails
        os.kill(pid, signal.SIGKILL)
    assert not left, "an engine outlived the referee"
    (line,) = (out / "results.jsonl").read_text().splitlines()
    assert json.loads(line)["index"] == 0


@pytest.mark.timeout(60)
def test_no_alternate_gives_the_first_engine_black_in_every_game(tmp_path, capsys):
    out = tmp_path / "out"
    a, b = f"{FAKE} --script resign|resign --name A", f"{FAKE} --script resign|resign --name B"
    assert main(["match", a, b, "-n", "2", "--size", "9", "--no-alternate", "--name-a", "A", "--name-b", "B",
                 "--out", str(out), "--no-progress"]) == 0
    games = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert [g["black"] for g in games] == ["A", "A"]
    assert json.loads((out / "match.json").read_text())["alternate"] is False
