"""GTP move generation: genmove, reg_genmove, kgs-genmove_cleanup and lz-analyze."""

from __future__ import annotations

import io
import re
import threading
import time

from miai.ai.mcts import MctsConfig
from miai.gtp import session
from miai.gtp.engine import GtpEngine

FAST = MctsConfig(playouts=200, max_seconds=None, seed=1)


def fast_engine(size: int = 9) -> GtpEngine:
    engine = GtpEngine(size=size)
    engine.ai_config = FAST
    return engine


def answer(engine: GtpEngine, line: str) -> str:
    response = engine.handle(line)
    assert response is not None
    return response


def test_genmove_plays_a_legal_move_for_the_colour_asked():
    engine = fast_engine()
    assert answer(engine, "play black E5") == "= \n\n"
    response = answer(engine, "genmove white")
    vertex = re.fullmatch(r"= ([A-HJ-T]\d+|pass)\n\n", response).group(1)
    game = engine.game
    assert game.move_number == 2
    last = game.last_move
    assert str(last.color) == "white" and last.gtp().upper() == vertex.upper()
    # both colours may ask in any order
    assert answer(engine, "genmove w").startswith("= ")
    assert engine.game.move_number == 3


def test_genmove_spends_a_budget_that_cannot_be_saved_and_keeps_one_that_can():
    logged: list[str] = []
    engine = GtpEngine(size=9)
    engine.log = logged.append
    engine.ai_config = MctsConfig(playouts=12_000, max_seconds=None, seed=3)
    for vertex in ("C5", "D5", "C6", "D6", "C4", "D4", "C3", "D3", "E4", "A1", "E5", "A2", "E6", "A3", "D7", "A4",
                   "D2", "B1"):
        assert answer(engine, f"play {'bw'[engine.game.move_number % 2]} {vertex}") == "= \n\n"

    def playouts() -> int:
        answer(engine, "reg_genmove b")
        return int(re.search(r"(\d+) playouts in", logged[-1]).group(1))

    assert playouts() == 12_000  # no clock: each move has its fixed budget, spent whole
    assert answer(engine, "time_settings 600 0 0") == "= \n\n"  # an absolute clock: what is left is saved
    assert playouts() < 12_000


def test_reg_genmove_does_not_play():
    engine = fast_engine()
    assert re.fullmatch(r"= [A-HJ-T]\d\n\n", answer(engine, "reg_genmove b"))
    assert engine.game.move_number == 0


def test_genmove_syntax_errors():
    engine = fast_engine()
    assert answer(engine, "genmove").startswith("? syntax error")
    assert answer(engine, "genmove purple").startswith("? syntax error")
    for command in ("genmove", "reg_genmove", "kgs-genmove_cleanup", "lz-analyze"):
        assert answer(engine, f"known_command {command}") == "= true\n\n"


def test_kgs_genmove_cleanup_captures_dead_stones_before_passing():
    engine = fast_engine(7)
    engine.ai_config = MctsConfig(playouts=400, max_seconds=None, seed=3)
    # Black owns the left, White the right, with a dead black stone at G5; komi 0.5
    for line in ("komi 0.5",):
        answer(engine, line)
    black = [f"D{r}" for r in range(1, 8)] + ["G5"]
    white = [f"E{r}" for r in range(1, 8)]
    for b, w in zip(black, white + ["pass"]):
        assert answer(engine, f"play b {b}") == "= \n\n"
        assert answer(engine, f"play w {w}") == "= \n\n"
    assert answer(engine, "play b pass") == "= \n\n"
    response = answer(engine, "kgs-genmove_cleanup w")
    assert response != "= pass\n\n"


class SlowInput:
    """Lines given one at a time, each after a pause (a controller that waits)."""

    def __init__(self, lines: list[tuple[float, str]]):
        self.lines = list(lines)

    def readline(self) -> str:
        if not self.lines:
            return ""
        pause, line = self.lines.pop(0)
        time.sleep(pause)
        return line + "\n"


def test_lz_analyze_streams_info_lines_until_the_next_command():
    engine = fast_engine()
    engine.ai_config = MctsConfig(playouts=10**6, max_seconds=None, seed=1)
    stdin = SlowInput([(0, "boardsize 9"), (0, "play b E5"), (0, "lz-analyze w 10"), (1.5, "name"), (0, "quit")])
    stdout = io.StringIO()
    session.run(engine, stdin, stdout, io.StringIO())
    out = stdout.getvalue()
    blocks = out.split("\n\n")
    analysis = blocks[2]
    assert analysis.startswith("= \ninfo move ")
    lines = analysis.split("\n")[1:]
    assert len(lines) >= 2
    for line in lines:
        entries = line.split("info move ")[1:]
        assert entries
        for entry in entries:
            m = re.fullmatch(
                r"([A-HJ-T]\d) visits (\d+) winrate (\d+) prior (\d+) lcb (\d+) order (\d+) pv ((?:[A-HJ-T]\d ?)+)",
                entry.strip(),
            )
            assert m, entry
            assert 0 <= int(m.group(3)) <= 10000 and int(m.group(5)) <= int(m.group(3))
            assert m.group(7).split()[0] == m.group(1)
    assert blocks[3] == "= miai"
    assert engine.game.move_number == 1  # analysis plays nothing
    assert not [t for t in threading.enumerate() if t.name == "miai-gtp-stream"]


def test_warm_up_also_prepares_the_search():
    engine = fast_engine()
    engine.warm_up()  # the session calls it in the background; here it simply must work
    assert answer(engine, "genmove b").startswith("= ")


def test_the_engine_is_composed_in_its_constructor():
    """The player's state is declared on the engine; nothing is patched onto an instance."""
    from miai.gtp import genmove

    engine = GtpEngine(ai_config=FAST)
    assert engine.ai_config is FAST and engine.player is None and engine.stream is None
    assert "warm_up" not in vars(engine) and not hasattr(genmove, "install")
    assert answer(engine, "reg_genmove b").startswith("= ")
    assert engine.player is not None and engine.player.config is FAST


def test_top_moves_list_vertices_and_win_rates_and_play_nothing():
    engine = fast_engine()
    answer(engine, "play b E5")
    response = answer(engine, "top_moves_white")
    pairs = re.fullmatch(r"= ((?:[A-HJ]\d \d+\.\d\d ?)+)\n\n", response).group(1).split()
    vertices, values = pairs[::2], [float(v) for v in pairs[1::2]]
    assert 1 <= len(vertices) <= 10 and len(set(vertices)) == len(vertices)
    assert "E5" not in vertices and all(0 <= v <= 100 for v in values)
    assert engine.game.move_number == 1
    assert answer(engine, "top_moves_black x") == "? syntax error: expected no arguments\n\n"


def test_top_moves_after_two_passes_leave_the_game_as_it_is():
    engine = fast_engine(5)
    for line in ("play b C3", "play w pass", "play b pass"):
        answer(engine, line)
    assert answer(engine, "top_moves_white").startswith("= ")
    assert engine.game.phase.value == "marking" and engine.game.move_number == 3


def test_level_sets_the_playouts_of_the_moves_to_come():
    from miai.ai.config import LEVEL_PLAYOUTS

    engine = fast_engine()
    assert answer(engine, "level 2") == "= \n\n"
    assert engine.ai_config.playouts == LEVEL_PLAYOUTS[1] and engine.ai_config.seed == FAST.seed
    assert answer(engine, "genmove b").startswith("= ")
    assert engine.player.config.playouts == LEVEL_PLAYOUTS[1]
