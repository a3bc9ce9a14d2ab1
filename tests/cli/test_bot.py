"""``miai bot``: a GTP engine (``miai gtp`` itself, and GNU Go) plays a seat of a game on a live
``miai serve``, through the server's public API only."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from miai.cli.bot import parse_target
from miai.client import ClientError
from miai.cli.main import main

SRC = Path(__file__).resolve().parents[2] / "src"
ENV = {**os.environ, "PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
ENGINE = f"{sys.executable} -m miai gtp --level 1 --size 5"


@pytest.fixture
def server(tmp_path):
    proc = subprocess.Popen(
        [sys.executable, "-m", "miai", "serve", "--port", "0", "--database", str(tmp_path / "miai.db")],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=ENV, cwd=tmp_path,
    )
    line = proc.stdout.readline()
    assert line.startswith("miai serve: http://"), line
    yield line.split()[2].rstrip("/")
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=30)


def post(url: str, body: dict) -> dict:
    req = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(req, timeout=10) as answer:
        return json.loads(answer.read())


def bot(link: str, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "miai", "bot", link, ENGINE, *extra],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV,
    )


def finish(*procs: subprocess.Popen[str], timeout: float) -> list[tuple[str, str]]:
    """Each process's (stdout, stderr) once all have ended; if one is still running after
    ``timeout`` seconds, all are stopped and the test fails showing what each one wrote."""
    try:
        return [p.communicate(timeout=timeout) for p in procs]
    except subprocess.TimeoutExpired:
        for p in procs:
            p.kill()
        outs = [p.communicate() for p in procs]
        pytest.fail(f"still running after {timeout} s; exit codes {[p.returncode for p in procs]}; outputs {outs}")


@pytest.mark.timeout(150, func_only=True)
@pytest.mark.usefixtures("compiled_engine")
def test_two_gtp_engines_play_a_whole_game_on_the_server_to_its_end(server):
    created = post(f"{server}/api/games", {"size": 5, "rules": "chinese komi=0.5", "time": "fischer:120:2"})
    game = f"{server}{created['url']}"
    black = bot(f"{game}?seat={created['black_token']}")
    white = bot(game, "--token", created["white_token"])
    outs = finish(black, white, timeout=140)
    assert [p.returncode for p in (black, white)] == [0, 0], outs
    with urllib.request.urlopen(f"{server}/api/games/{created['id']}", timeout=10) as answer:
        state = json.loads(answer.read())
    assert state["phase"] == "finished" and state["result"]
    for out, _ in outs:
        assert out.strip().endswith(f"the game is over: {state['result']}")
    assert "playing black" in outs[0][0] and "playing white" in outs[1][0]
    events = json.loads(urllib.request.urlopen(f"{server}/api/games/{created['id']}/events", timeout=10).read())
    seats = {e["color"] for e in events["events"] if e["kind"] == "move"}
    assert seats == {"black", "white"}  # both engines played


def test_a_token_that_is_no_seats_is_refused_with_a_message(server):
    created = post(f"{server}/api/games", {"size": 5})
    p = bot(f"{server}{created['url']}?seat=not-a-token")
    out, err = p.communicate(timeout=60)
    assert p.returncode == 2
    assert "token" in err


@pytest.mark.parametrize(
    ("url", "token", "word"),
    [("ftp://h/g/x?seat=t", None, "not a game link"), ("http://h/x", "t", "/g/ID"), ("http://h/g/abc", None, "--token")],
)
def test_bad_links_are_refused(url, token, word):
    with pytest.raises(ClientError, match=word):
        parse_target(url, token)


def test_bot_is_a_subcommand(capsys):
    with pytest.raises(SystemExit) as done:
        main(["bot", "--help"])
    assert done.value.code == 0
    assert "--token" in capsys.readouterr().out
    assert main(["bot", "http://h/x", "gnugo"]) == 2


class FakeGtp:
    def __init__(self, known: set[str]):
        self.known, self.sent = known, []

    def known_command(self, name: str) -> bool:
        return name in self.known

    def send(self, command: str) -> str:
        self.sent.append(command)
        return ""


def engine_with(gtp: FakeGtp):
    from miai.cli.bot import Engine

    engine = Engine.__new__(Engine)
    engine.gtp, engine.sent = gtp, None
    return engine


def test_the_engine_is_told_its_time_until_the_flag_in_a_timed_game_only():
    gtp = FakeGtp({"time_left"})
    engine = engine_with(gtp)
    engine.time_left({"clocks": {"remaining_ms": {"black": 61_999, "white": 5_000}}}, "black")
    engine.time_left({"clocks": {"remaining_ms": {"black": None, "white": None}}}, "black")  # untimed
    assert gtp.sent == ["time_left black 61 0"]
    quiet = FakeGtp(set())
    engine_with(quiet).time_left({"clocks": {"remaining_ms": {"black": 1000, "white": 1000}}}, "black")
    assert quiet.sent == []


def test_the_engine_is_set_up_again_when_the_moves_are_not_a_continuation_of_its_own():
    from miai.coords import point_to_gtp
    from miai.handicap import fixed_handicap_points

    gtp = FakeGtp(set())
    engine = engine_with(gtp)
    state = {"size": 9, "komi": 6.5, "handicap": 2, "moves": ["E5"]}
    engine.sync(state)
    engine.sync({**state, "moves": ["E5", "pass"]})  # only the new move
    engine.sync({**state, "moves": ["D4"]})  # an undo took E5 back: set up again
    setup = ["boardsize 9", "clear_board", "komi 6.5",
             "set_free_handicap " + " ".join(point_to_gtp(p) for p in fixed_handicap_points(9, 2))]
    assert gtp.sent == [*setup, "play white E5", "play black pass", *setup, "play white D4"]


@pytest.mark.gnugo
@pytest.mark.timeout(150)
def test_gnu_go_plays_a_seat_against_the_servers_computer_to_its_end(server):
    """A real outside engine (Debian's GNU Go) plays White through ``miai bot`` against a
    computer seat of the server, to the end of the game (the marking phase included when it
    is counted), both sides' moves on record."""
    created = post(f"{server}/api/games", {"size": 5, "rules": "chinese komi=0.5", "black": "computer:1"})
    link = f"{server}{created['url']}?seat={created['white_token']}"
    gnugo = subprocess.Popen(
        [sys.executable, "-m", "miai", "bot", link, "/usr/games/gnugo --mode gtp --level 1 --chinese-rules"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV,
    )
    [(out, err)] = finish(gnugo, timeout=140)
    assert gnugo.returncode == 0, (out, err)
    with urllib.request.urlopen(f"{server}/api/games/{created['id']}", timeout=10) as answer:
        state = json.loads(answer.read())
    assert state["phase"] == "finished" and state["result"], state
    assert out.strip().endswith(f"the game is over: {state['result']}") and "playing white" in out
    events = json.loads(urllib.request.urlopen(f"{server}/api/games/{created['id']}/events", timeout=10).read())
    assert {e["color"] for e in events["events"] if e["kind"] == "move"} == {"black", "white"}
