"""How wrong are miai's playouts about who owns what? Their ownership beside KataGo's.

A search is only as good as its playouts' verdicts: a living group they kill a third of the
time costs its owner a third of its points in every figure the search makes, and no depth of
tree on the rest of the board puts that right. This measures that bias without playing a
game. For each position (taken from records by ``move_quality.py positions``), KataGo's
analysis engine gives each point's ownership and Black's lead; miai's heavy playouts, run
from the position with no tree (``heavy.heavy_ownership``, the search's policy and knobs),
give theirs and their mean score. The positions, then two steps::

    python tools/move_quality.py positions runs/p19-*/game-*.sgf --every 10 --first 60 --last 200 -o pos.json
    python tools/playout_bias.py judge pos.json -o judged.jsonl --visits 200 \\
        --judge "KATAGO analysis -model NET -config analysis_example.cfg"
    python tools/playout_bias.py measure pos.json judged.jsonl --playouts 500 [--seed S] [--set KNOB=VALUE ...]
    python tools/playout_bias.py show pos.json judged.jsonl ID   # one position's disagreements, drawn
    python tools/playout_bias.py pachi pos.json judged.jsonl --engine "PACHI threads=1,pondering=0"

``measure`` prints the mean of the playouts' score less KataGo's lead (from Black's side),
its mean absolute size, the mean absolute difference of ownership a point, the same over
the points KataGo gives one side nearly surely (ownership beyond 0.8: a living group the
playouts kill a third of the time shows here), and those settled points that the playouts
give the other side more often than not: settled points misread. The judge's configuration
must report ownership from Black's side (``reportAnalysisWinratesAs = BLACK``). ``pachi``
sets Pachi's playouts beside the same judge, for comparison: Pachi's ``gogui-score_est`` runs
2,000 of its playouts from the position and answers their mean score and, for each point, the
side they give it (no fraction: so only the score and the settled points given away compare).
A research tool: it reads records and runs engines, and changes nothing.
"""

from __future__ import annotations

import argparse
import json
import shlex
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

from miai._kernel import heavy
from miai.ai.config import MctsConfig
from miai.coords import Color, Move, point_from_gtp
from miai.game import Game
from miai.gtp.controller import GtpController
from miai.render.text import diagram

SURE = 0.8
"""KataGo's ownership beyond which a point counts as settled."""
SHOWN = 0.3
"""The ownership difference from which ``show`` marks a point."""


def judge(command: str, positions: list[dict], visits: int, out: Path) -> None:
    """KataGo's lead, ownership (rows from the top, Black's side) and first three moves for
    every position not yet in ``out``, appended to it a line each as they come: a judging
    stopped half-way keeps what it has, and the next one goes on from there."""
    done = set(read_judged(out)) if out.exists() else set()
    todo = [pos for pos in positions if pos["id"] not in done]
    proc = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdin is not None and proc.stdout is not None
    for pos in todo:
        proc.stdin.write(json.dumps({
            "id": pos["id"], "moves": pos["moves"], "rules": "chinese", "komi": pos["komi"],
            "boardXSize": pos["size"], "boardYSize": pos["size"], "maxVisits": visits, "includeOwnership": True,
        }) + "\n")
    proc.stdin.close()
    with out.open("a") as sink:
        for count, line in enumerate(proc.stdout, start=1):
            answer = json.loads(line)
            if "error" in answer:
                raise SystemExit(f"playout_bias: the judge refused a query: {answer}")
            if "ownership" in answer:
                best = [info["move"] for info in answer.get("moveInfos", [])[:3]]
                judged = {"id": answer["id"], "lead": answer["rootInfo"]["scoreLead"], "ownership": answer["ownership"],
                          "best": best}
                sink.write(json.dumps(judged) + "\n")
                sink.flush()
                print(f"\r  {count}/{len(todo)} judged", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    if proc.wait() != 0:
        raise SystemExit(f"playout_bias: the judge exited with status {proc.returncode}")


def judged_now(command: str, positions: list[dict], visits: int) -> dict[str, dict]:
    """The judge's answers for the positions (as :func:`judge`'s, by id), kept in a
    temporary file: for the tools that judge a few positions and print."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "judged.jsonl"
        judge(command, positions, visits, out)
        return read_judged(out)


def read_judged(path: Path) -> dict[str, dict]:
    """The judged positions of a ``judge`` file (one JSON object a line), by id."""
    judged = (json.loads(line) for line in path.read_text().splitlines() if line.strip())
    return {j["id"]: j for j in judged}


def replay(pos: dict) -> tuple[Game, int, int]:
    """The game after ``pos``'s moves, and the kernel points of its last two (0: a pass or none)."""
    size = pos["size"]
    game = Game(size, komi=pos["komi"])
    points = []
    for colour, text in pos["moves"]:
        move = game.play(Move(Color.BLACK if colour == "B" else Color.WHITE, point_from_gtp(text, size)))
        points.append(game.board.index(move.point) if move.point is not None else 0)
    return game, (points[-1] if points else 0), (points[-2] if len(points) > 1 else 0)


def playouts(pos: dict, count: int, config: MctsConfig, seed: int) -> tuple[float, np.ndarray]:
    """The playouts' mean score (Black's area less White's, less komi) and mean ownership
    (rows from the top, as KataGo's), from the position after ``pos``'s moves."""
    size = pos["size"]
    game, last, last2 = replay(pos)
    board = game.board
    owners = np.zeros(board.grid.shape[1], np.int64)
    total = heavy.heavy_ownership(board.grid, board.meta, int(game.to_move), last, last2, count, seed,
                                  heavy.PAT3, config.policy_params(size), owners)
    return total / count - pos["komi"], _mean_ownership(owners, count, size)


def playout_scores(pos: dict, count: int, config: MctsConfig, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Each playout's score (Black's area less White's, less komi) and the mean ownership, as
    :func:`playouts` but one playout at a time: how often Black wins, not only by how much
    on average (the playouts' scores spread over tens of points in a fight)."""
    size = pos["size"]
    game, last, last2 = replay(pos)
    board = game.board
    owners = np.zeros(board.grid.shape[1], np.int64)
    params = config.policy_params(size)
    scores = np.array([heavy.heavy_ownership(board.grid, board.meta, int(game.to_move), last, last2, 1, seed + i,
                                             heavy.PAT3, params, owners) for i in range(count)], float)
    return scores - pos["komi"], _mean_ownership(owners, count, size)


def _mean_ownership(owners: np.ndarray, count: int, size: int) -> np.ndarray:
    """The kernel's summed owners as a mean ownership, rows from the top as KataGo's."""
    w = size + 2
    return (owners / count).reshape(w, w)[1:-1, 1:-1][::-1]  # the kernel's row 1 is the bottom line


def settled_misread(own: np.ndarray, truth: np.ndarray) -> int:
    """How many points the judge gives one side nearly surely (beyond :data:`SURE`) the
    playouts' ownership ``own`` gives the other (both arrays Black's side, the same layout)."""
    return int(np.count_nonzero((np.abs(truth) > SURE) & (own * np.sign(truth) < 0)))


def measure(positions: list[dict], judged: dict[str, dict], count: int, config: MctsConfig, seed: int = 0) -> None:
    """The playouts' bias against the judge over the positions, printed (the ``i``-th
    position's playouts seeded with ``seed + i + 1``)."""
    errors, sizes, own_errors, settled_errors, misread = [], [], [], [], 0
    for i, pos in enumerate(positions):
        if pos["id"] not in judged:
            continue
        score, own = playouts(pos, count, config, seed=seed + i + 1)
        truth = np.array(judged[pos["id"]]["ownership"]).reshape(own.shape)
        errors.append(score - judged[pos["id"]]["lead"])
        sizes.append(abs(errors[-1]))
        own_errors.append(float(np.abs(own - truth).mean()))
        settled = np.abs(truth) > SURE
        if settled.any():
            settled_errors.append(float(np.abs(own - truth)[settled].mean()))
        misread += settled_misread(own, truth)
    n = len(errors)
    print(f"{n} positions, {count} playouts each")
    print(f"  score less the judge's lead: mean {statistics.fmean(errors):+.2f} points, "
          f"mean size {statistics.fmean(sizes):.2f} (median {statistics.median(sizes):.2f})")
    print(f"  ownership a point, mean absolute difference: {statistics.fmean(own_errors):.3f}")
    print(f"  settled points, mean absolute difference: {statistics.fmean(settled_errors):.3f}")
    print(f"  settled points the playouts give the other side: {misread / n:.2f} a position")


def show(pos: dict, truth: dict, count: int, config: MctsConfig) -> str:
    """The position as a diagram with the points where the playouts' ownership differs from
    the judge's by :data:`SHOWN` or more: such stones lower-case, such empty points ``v``
    (the playouts give Black less) or ``^`` (more); then both scores."""
    score, own = playouts(pos, count, config, seed=1)
    size = pos["size"]
    diff = own - np.array(truth["ownership"]).reshape(own.shape)
    game, _, _ = replay(pos)
    stones = game.board.as_array()
    dead, marks = [], {}
    for r, c in zip(*np.nonzero(np.abs(diff) >= SHOWN)):
        point = (size - 1 - int(r), int(c))  # ownership rows from the top, points' from the bottom
        if stones[point] != 0:
            dead.append(point)
        else:
            marks[point] = "v" if diff[r, c] < 0 else "^"
    scores = f"the playouts' score {score:+.1f}, the judge's lead {truth['lead']:+.1f} (Black's side)"
    return diagram(game.board, dead=dead, marks=marks) + "\n" + scores


def pachi_estimate(engine: GtpController, pos: dict) -> tuple[float, np.ndarray]:
    """Pachi's playouts' mean score (Black's side, komi included) from the position after
    ``pos``'s moves, and the side (1 Black, -1 White, 0 neither) they give each point (rows
    from the top, as :func:`playouts`)."""
    size = pos["size"]
    engine.send(f"boardsize {pos['size']}")
    engine.send("clear_board")
    engine.send(f"komi {pos['komi']}")
    for colour, vertex in pos["moves"]:
        engine.send(f"play {colour} {vertex}")
    words = engine.send("gogui-score_est").split()
    sides = np.zeros((size, size))
    for i in range(words.index("INFLUENCE") + 1, len(words) - 1, 2):
        if words[i] == "TEXT":
            break
        point = point_from_gtp(words[i], size)
        assert point is not None, "gogui-score_est names points, not passes"
        sides[size - 1 - point[0], point[1]] = np.sign(float(words[i + 1]))
    winner, _, margin = words[words.index("Playouts:") + 1].partition("+")
    return (float(margin) if winner == "B" else -float(margin)), sides


def compare_pachi(positions: list[dict], judged: dict[str, dict], command: str) -> None:
    """Pachi's playouts' bias against the judge over the positions, printed: the score's
    error, and the settled points (the judge's ownership beyond :data:`SURE`) they give the
    other side."""
    errors, misread = [], 0
    with GtpController(shlex.split(command), timeout=600) as engine:
        for pos in positions:
            if pos["id"] not in judged:
                continue
            score, sides = pachi_estimate(engine, pos)
            truth = judged[pos["id"]]
            errors.append(score - truth["lead"])
            misread += settled_misread(sides, np.array(truth["ownership"]).reshape(sides.shape))
    sizes = [abs(e) for e in errors]
    print(f"{len(errors)} positions, Pachi's gogui-score_est (2,000 playouts each)")
    print(f"  score less the judge's lead: mean {statistics.fmean(errors):+.2f} points, "
          f"mean size {statistics.fmean(sizes):.2f} (median {statistics.median(sizes):.2f})")
    print(f"  settled points the playouts give the other side: {misread / len(errors):.2f} a position")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="step", required=True)
    j = sub.add_parser("judge", help="KataGo's ownership of every position")
    j.add_argument("positions", type=Path)
    j.add_argument("-o", "--out", type=Path, required=True, help="the judged positions, a JSON line each (appended)")
    j.add_argument("--judge", required=True, help="the command that starts `katago analysis`")
    j.add_argument("--visits", type=int, default=200)
    m = sub.add_parser("measure", help="miai's playouts beside the judge's ownership")
    m.add_argument("positions", type=Path)
    m.add_argument("judged", type=Path)
    m.add_argument("--playouts", type=int, default=500)
    m.add_argument("--seed", type=int, default=0, help="the playouts' seeds start after this (to see the noise)")
    m.add_argument("--set", action="append", default=[], metavar="KNOB=VALUE", help="a search knob, as miai gtp's")
    v = sub.add_parser("show", help="one position, where the playouts and the judge disagree")
    v.add_argument("positions", type=Path)
    v.add_argument("judged", type=Path)
    v.add_argument("id", help="the position's id")
    v.add_argument("--playouts", type=int, default=1000)
    v.add_argument("--set", action="append", default=[], metavar="KNOB=VALUE", help="a search knob, as miai gtp's")
    e = sub.add_parser("pachi", help="Pachi's playouts beside the judge's ownership")
    e.add_argument("positions", type=Path)
    e.add_argument("judged", type=Path)
    e.add_argument("--engine", required=True, help="the command that starts Pachi (12.90: it has gogui-score_est)")
    args = parser.parse_args()
    positions = json.loads(args.positions.read_text())
    if args.step == "pachi":
        compare_pachi(positions, read_judged(args.judged), args.engine)
    elif args.step == "judge":
        judge(args.judge, positions, args.visits, args.out)
    elif args.step == "measure":
        config = MctsConfig(**MctsConfig.parse_settings(args.set))
        measure(positions, read_judged(args.judged), args.playouts, config, args.seed)
    else:
        chosen = [pos for pos in positions if pos["id"] == args.id]
        judged = read_judged(args.judged)
        if not chosen or args.id not in judged:
            raise SystemExit(f"playout_bias: no judged position {args.id!r}")
        print(show(chosen[0], judged[args.id], args.playouts, MctsConfig(**MctsConfig.parse_settings(args.set))))


if __name__ == "__main__":
    main()
