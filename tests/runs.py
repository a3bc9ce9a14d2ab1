"""Match directories as ``miai match`` writes them, for the tests of what reads them."""

from __future__ import annotations

import json

from miai.game import Game
from miai.match import GameResult, Reason
from miai.result import Result, Termination
from miai.sgf import game_to_sgf


def write_run(path, labels, results, size=9):
    """A match directory as ``miai match`` writes it: engine A is Black in even games."""
    path.mkdir()
    a, b = labels
    settings = {
        "engines": [{"command": ["engine-a", "--fast"], "label": a}, {"command": ["engine-b"], "label": b}],
        "games": 4, "size": size, "rules": "chinese", "komi": 7.5, "handicap": 0,
        "time_control": "none", "move_timeout": 60.0, "max_moves": None, "dead_stones": "agreed",
    }  # fmt: skip
    (path / "match.json").write_text(json.dumps(settings))
    with open(path / "results.jsonl", "w") as f:
        for i, result in enumerate(results):
            black, white = (a, b) if i % 2 == 0 else (b, a)
            value = Result.parse(result)
            reason = Reason.RESIGNATION if value.by is Termination.RESIGNATION else Reason.SCORE
            game = GameResult(i, black, white, value, reason, "", time_ms={a: 2000, b: 1000}, genmoves={a: 10, b: 10})
            f.write(game.json_line())
    return path


def write_record(run, number, points, size=9):
    """Game ``number``'s record in the run: the moves ``points`` (GTP points, Black first)."""
    game = Game(size, komi=7.5)
    for point in points:
        game.play(point)
    (run / f"game-{number:03d}.sgf").write_text(game_to_sgf(game))
