"""Move quality: the points each engine's moves lose in the same positions, KataGo judging.

A game between two engines takes half an hour on 19×19 and says one bit. This asks each
engine for its move in the same positions, taken from records, and asks KataGo's analysis
engine how many points each move loses against the best play it sees: every position gives
a paired figure for every pair of engines, so a few hundred positions tell two engines, or
two settings of one, apart by a fraction of a point a move. Three steps, each its own run::

    python tools/move_quality.py positions GAMES... --every 7 --first 10 --last 250 -o pos.json
    python tools/move_quality.py play pos.json --name miai -o miai.json --engine "miai gtp ..."
    python tools/move_quality.py judge pos.json miai.json pachi.json --visits 32 \\
        --judge "KATAGO analysis -model NET -config analysis_example.cfg"

``positions --leader miai`` keeps only the positions where that engine (its label in the
match that played the records) is to move and gave itself at least ``--min-winrate`` at its
move before, by its match's ``results.jsonl``; ``--shift K`` writes them with the komi made K
points worse for the side to move (a dynamic komi's view; judge with the unshifted file).
``play`` runs one engine (start two at once, one a core); ``judge`` prints each engine's mean
loss a move, by stretches of the game, and each pair's mean difference with its 95% interval
(paired over the positions both engines answered with a move). The judge is started and
read as by ``tools/point_loss.py``, and its configuration must report figures from Black's
side (``reportAnalysisWinratesAs = BLACK``, as KataGo's example does). A move an engine
resigns or passes in is left out of its figures (and counted).
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import shlex
import statistics
import sys
import time
from pathlib import Path

import point_loss
from miai.gtp.controller import GtpController
from miai.match.results import load_results
from miai.sgf import load_game

Position = dict  # {"id", "size", "komi", "moves": [[colour, gtp point], ...], "to_move"}


def record_names(paths: list[Path]) -> list[str]:
    """A name for each record that tells it from the others: its file's stem, or, when two
    stems are the same (``game-001`` of two matches), its folder's name and stem."""
    stems = [path.stem for path in paths]
    if len(set(stems)) == len(stems):
        return stems
    names = [f"{path.parent.name}/{path.stem}" for path in paths]
    if len(set(names)) < len(names):
        raise SystemExit("move_quality: two records have the same folder and file name")
    return names


def sample_positions(paths: list[Path], every: int, first: int, last: int) -> list[Position]:
    """Every ``every``-th position from move ``first`` to ``last`` of each record, each with
    an id that no other position has (:func:`record_names`, then ``@`` and the move)."""
    out = []
    for path, name in zip(paths, record_names(paths)):
        game, _ = load_game(str(path))
        moves = [[m.color.name[0], m.gtp()] for m in game.moves]
        for n in range(first, min(last, len(moves) - 1) + 1, every):
            to_move = "W" if n and moves[n - 1][0] == "B" else "B"
            out.append({"id": f"{name}@{n}", "size": game.size, "komi": game.komi,
                        "moves": moves[:n], "to_move": to_move})
    return out


def leading_positions(positions: list[Position], paths: list[Path], leader: str, least: float) -> list[Position]:
    """The positions where the engine labelled ``leader`` in a match is to move and gave itself
    at least ``least`` at its move before, by the win rates its match's ``results.jsonl`` kept."""
    runs = {folder: load_results(folder / "results.jsonl") for folder in {path.parent for path in paths}}
    rates: dict[str, dict[int, float]] = {}
    for path, name in zip(paths, record_names(paths)):
        for result in runs[path.parent]:
            if result.sgf == path.name:
                rates[name] = {int(n): r for n, r in result.winrates.get(leader, [])}
    kept = []
    for pos in positions:
        name, n = pos["id"].rsplit("@", 1)
        before = rates.get(name, {}).get(int(n) - 1)  # its own last move (none when it moved last)
        if before is not None and before >= least:
            kept.append(pos)
    return kept


def shifted(positions: list[Position], points: float) -> list[Position]:
    """The positions with their komi made ``points`` worse for the side to move (as a dynamic
    komi would make it for a player that leads)."""
    sign = {"B": 1, "W": -1}
    return [dict(pos, komi=pos["komi"] + sign[pos["to_move"]] * points) for pos in positions]


def play(positions: list[Position], command: str) -> dict[str, dict]:
    """The engine's move and thinking time in every position, by position id."""
    engine = GtpController(shlex.split(command), timeout=900)
    answers = {}
    try:
        for i, pos in enumerate(positions):
            engine.send(f"boardsize {pos['size']}")
            engine.send("clear_board")
            engine.send(f"komi {pos['komi']}")
            for colour, point in pos["moves"]:
                engine.send(f"play {colour} {point}")
            start = time.monotonic()
            move = engine.send(f"genmove {pos['to_move']}").strip().upper()
            answers[pos["id"]] = {"move": move, "seconds": round(time.monotonic() - start, 2)}
            print(f"\r  {i + 1}/{len(positions)} {pos['id']} {move}   ", end="", file=sys.stderr, flush=True)
    finally:
        engine.close()
    print(file=sys.stderr)
    return answers


def judge_leads(command: str, positions: list[Position], replies: list[dict[str, dict]],
                visits: int) -> dict[tuple[str, str], float]:
    """Black's lead after each distinct reply in each position (reply "" is the position
    itself, before any reply), by (position id, reply)."""
    by_id = {p["id"]: p for p in positions}
    wanted = {(pid, "") for pid in by_id}
    for answers in replies:  # answers for positions not in this set are not read
        wanted |= {(pid, a["move"]) for pid, a in answers.items() if pid in by_id and a["move"] not in ("RESIGN", "PASS")}
    keys, queries = {}, {}
    for n, (pid, reply) in enumerate(sorted(wanted)):
        pos = by_id[pid]
        moves = pos["moves"] + ([[pos["to_move"], reply]] if reply else [])
        keys[str(n)] = (pid, reply)
        queries[str(n)] = point_loss.query(str(n), pos["size"], pos["komi"], moves, visits, [len(moves)])
    found = point_loss.analyse(command, queries)
    return {keys[qid]: lead for qid, turns in found.items() for lead, _ in turns.values()}


def losses(positions: list[Position], answers: dict[str, dict],
           leads: dict[tuple[str, str], float]) -> dict[str, float]:
    """Points each move lost for its player, by position id: the position's lead less the
    lead after the move, from the mover's side (moves resigned or passed left out)."""
    out = {}
    for pos in positions:
        move = answers.get(pos["id"], {}).get("move")
        if move is None or (pos["id"], move) not in leads:
            continue
        sign = 1.0 if pos["to_move"] == "B" else -1.0
        out[pos["id"]] = sign * (leads[(pos["id"], "")] - leads[(pos["id"], move)])
    return out


def mean_interval(diffs: list[float]) -> tuple[float, float, float]:
    """The mean of paired differences and its normal 95% interval (infinite for one)."""
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else math.inf
    return mean, mean - half, mean + half


def interval(diffs: list[float]) -> str:
    """The mean of paired differences in points a move, with its normal 95% interval."""
    mean, low, high = mean_interval(diffs)
    return f"{mean:+.2f} points a move ({low:+.2f} to {high:+.2f}), {len(diffs)} positions"


def report(positions: list[Position], named: dict[str, dict[str, float]], stretch: int) -> None:
    """Mean loss a move by stretch of the game for each engine, then each pair's difference."""
    depth = {p["id"]: len(p["moves"]) for p in positions}
    top = max(depth.values())
    print(f"{'moves':>9}  " + "  ".join(f"{n:>16}" for n in named))
    for start in list(range(0, top + 1, stretch)) + [None]:
        cells = []
        for lost in named.values():
            row = [v for pid, v in lost.items() if start is None or start <= depth[pid] < start + stretch]
            cells.append(f"{statistics.fmean(row):6.2f} ({len(row):4d})" if row else "")
        label = "all" if start is None else f"{start}-{start + stretch - 1}"
        print(f"{label:>9}  " + "  ".join(f"{c:>16}" for c in cells))
    for (a, la), (b, lb) in itertools.combinations(named.items(), 2):
        both = sorted(set(la) & set(lb))
        compared = interval([la[p] - lb[p] for p in both]) if both else "no position answered by both"
        print(f"{a} less {b}: {compared}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="step", required=True)
    p = sub.add_parser("positions", help="sample positions from records")
    p.add_argument("games", type=Path, nargs="+")
    p.add_argument("--every", type=int, default=7)
    p.add_argument("--first", type=int, default=10)
    p.add_argument("--last", type=int, default=250)
    p.add_argument("--leader", help="only where this engine (its label in the match) is to move and led")
    p.add_argument("--min-winrate", type=float, default=0.65,
                   help="with --leader: its own win rate at its move before, at least (0.65)")
    p.add_argument("--shift", type=float, default=0.0,
                   help="make the komi this many points worse for the side to move (judge against the unshifted file)")
    p.add_argument("-o", "--out", type=Path, required=True)
    g = sub.add_parser("play", help="one engine's move in every position")
    g.add_argument("positions", type=Path)
    g.add_argument("--engine", required=True)
    g.add_argument("--name", required=True)
    g.add_argument("-o", "--out", type=Path, required=True)
    j = sub.add_parser("judge", help="the points each engine's moves lose")
    j.add_argument("positions", type=Path)
    j.add_argument("answers", type=Path, nargs="+")
    j.add_argument("--judge", required=True)
    j.add_argument("--visits", type=int, default=32)
    j.add_argument("--stretch", type=int, default=50)
    args = parser.parse_args(argv)
    if args.step == "positions":
        found = sample_positions(args.games, args.every, args.first, args.last)
        if args.leader:
            found = leading_positions(found, args.games, args.leader, args.min_winrate)
        if args.shift:
            found = shifted(found, args.shift)
        args.out.write_text(json.dumps(found))
        print(f"{len(found)} positions from {len(args.games)} records")
    elif args.step == "play":
        positions = json.loads(args.positions.read_text())
        answers = play(positions, args.engine)
        args.out.write_text(json.dumps({"name": args.name, "engine": args.engine, "answers": answers}))
    else:
        positions = json.loads(args.positions.read_text())
        files = [json.loads(path.read_text()) for path in args.answers]
        leads = judge_leads(args.judge, positions, [f["answers"] for f in files], args.visits)
        named = {f["name"]: losses(positions, f["answers"], leads) for f in files}
        for f in files:
            asked = [p["id"] for p in positions if p["id"] in f["answers"]]
            gone = len(asked) - len(named[f["name"]])
            secs = statistics.fmean(f["answers"][pid]["seconds"] for pid in asked)
            print(f"{f['name']}: {secs:.1f} s a move; {len(asked)} of the {len(positions)} positions answered, "
                  f"{gone} of them resigned or passed")
        report(positions, named, args.stretch)


if __name__ == "__main__":
    main()
