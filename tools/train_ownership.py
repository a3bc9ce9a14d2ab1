"""Learn who ends up owning each point, on the policy network's trunk, and set it beside the playouts.

The playouts misread the status of large groups in fights (BENCHMARKS.md, "All 30 games of
the 1-core match read by KataGo"), and the search has no other judge of a position. This
research tool measures whether a learnt one could do better. ``read`` takes the games of
Tygem's archive that were counted to the end (their results come from the archive's index),
finds each final position's dead stones with miai's own estimate (:func:`miai.ai.status.estimate_status`),
keeps a game only where that count gives the recorded result, and writes positions with the
policy network's input planes, the move played and the final owner of every point, from the
mover's side. ``train`` grows an ownership head (a 3×3 convolution, a 1×1 one and tanh) on
the trunk of a policy network and fits both heads. ``compare`` sets the head's ownership and the
search's heavy playouts' beside the final owners of held-out positions::

    python tools/train_ownership.py read Kifu2011.index TYGEM/2011-10 --games 1500 --every 3 -o oct.npz
    python tools/train_ownership.py train oct.npz --held held.npz --start src/miai/ai/data/policynet19.npz \\
        --minutes 60 -o own.npz
    python tools/train_ownership.py compare held.npz own.npz --playouts 300
    python tools/train_ownership.py policy own.npz -o net.npz    # its policy alone, for train_policynet.py score

PyTorch is needed by ``train`` and ``compare``; nothing here is read by miai to play.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import train_policynet as policy_tool

from miai._kernel import heavy
from miai.ai import movemodel, policynet
from miai.ai.config import MctsConfig
from miai.ai.patterns import default_table
from miai.ai.status import Status, estimate_status
from miai.coords import Color
from miai.game import Game
from miai.sgf.game import game_from_record
from miai.sgf.record import read_record
from miai.train.corpus import TYGEM_LINE

AGREE = 1.0
"""The most points miai's count of a final position may differ from the recorded result for
its game to be kept."""
N = policynet.NET_SIZE
KOMI = 6.5
"""Tygem's komi, which the archive does not write."""


def counted_results(index: Path) -> dict[str, float]:
    """Black's margin by game id, for the games of Tygem's index counted to the end (``B+9.5``;
    resignations, time-outs and disconnections are left out)."""
    out: dict[str, float] = {}
    with open(index, encoding="utf-8", errors="replace") as lines:
        for line in lines:
            fields = line.rstrip("\n").split("\t")
            result = fields[8] if len(fields) > 8 else ""
            if result[:2] in ("B+", "W+"):
                try:
                    margin = float(result[2:])
                except ValueError:
                    continue
                out[fields[0]] = margin if result[0] == "B" else -margin
    return out


def counted_games(index: Path, sources: list[str]) -> Iterator[tuple[str, float]]:
    """The counted games of Tygem's archive files as SGF texts (komi 6.5, Korean rules: the
    archive's), each with Black's recorded margin."""
    results = counted_results(index)
    for source in sources:
        paths = sorted(p for p in Path(source).rglob("*") if p.is_file()) if Path(source).is_dir() else [Path(source)]
        for path in paths:
            with open(path, encoding="utf-8", errors="replace") as lines:
                for line in lines:
                    found = TYGEM_LINE.match(line.strip())
                    if found and found.group(1) in results:
                        yield f"(;GM[1]FF[4]SZ[19]KM[{KOMI}]RU[Korean]{found.group(2)})", results[found.group(1)]


def game_of(text: str) -> Game:
    """The game an SGF text records."""
    return game_from_record(read_record(text), strict=False)


def final_owners(game: Game, margin: float) -> np.ndarray | None:
    """Each point's owner at the end of ``game`` (N×N, row 0 at the bottom; +1 Black, -1 White,
    0 for dame and seki points), with the dead stones miai's estimate finds; None when that
    estimate's count is more than :data:`AGREE` points from the recorded ``margin``."""
    estimate = estimate_status(game, seed=1)
    if abs(estimate.score.margin - margin) > AGREE:
        return None
    owners = np.zeros((game.size, game.size), np.int8)
    sign = {Color.BLACK: 1, Color.WHITE: -1}
    for point, colour in estimate.territory.items():
        stone = estimate.chain(point)
        if stone is not None and stone.status is not Status.DEAD:
            owners[point] = sign[stone.color]
        elif stone is not None:
            owners[point] = -sign[stone.color]
        elif colour is not None:
            owners[point] = sign[colour]
    return owners


def read(index: Path, sources: list[str], games: int, every: int, out: Path) -> tuple[int, int, int]:
    """Write every ``every``-th position of ``games`` counted games whose count agrees with their
    result to ``out``; returns the games kept, the games whose count disagreed, and the positions."""
    model, table = movemodel.default_model(), default_table()
    if model is None:
        raise SystemExit(f"no move predictor at {movemodel.DEFAULT_MODEL}")
    columns: dict[str, list[Any]] = {name: [] for name in ("binary", "predictor", "target", "owners", "move", "game")}
    texts: list[str] = []
    disagreed = 0
    for text, margin in counted_games(index, sources):
        if len(texts) >= games:
            break
        game = game_of(text)
        owners = final_owners(game, margin)
        if owners is None:
            disagreed += 1
            continue
        for number, position in enumerate(movemodel.positions_of(game)):
            found = None if number % every else policy_tool.example(*position, model, table)
            if found is None:
                continue
            for name, value in zip(("binary", "predictor", "target"), found, strict=True):
                columns[name].append(value)
            columns["owners"].append(owners if position[2] == Color.BLACK else -owners)
            columns["move"].append(number)
            columns["game"].append(len(texts))
        texts.append(text)
    np.savez(out, binary=np.array(columns["binary"]), predictor=np.array(columns["predictor"]),
             target=np.array(columns["target"], np.int16), owners=np.array(columns["owners"], np.int8),
             move=np.array(columns["move"], np.int16), game=np.array(columns["game"], np.int32),
             texts=np.array(texts))
    return len(texts), disagreed, len(columns["target"])


@dataclass(frozen=True)
class OwnedPositions:
    """Positions as :func:`read` wrote them: the policy network's (``positions``) and, row for
    row, each point's final owner from the mover's side, the move's number in its game, the
    game's number and the games' SGF texts."""

    positions: policy_tool.Positions
    owners: np.ndarray
    move: np.ndarray
    game: np.ndarray
    texts: list[str]

    def __len__(self) -> int:
        return len(self.owners)


def load(paths: list[Path]) -> OwnedPositions:
    """The positions :func:`read` wrote to one file or several, together (games numbered anew)."""
    owners, moves, games = [], [], []
    texts: list[str] = []
    for path in paths:
        with np.load(path) as data:
            owners.append(data["owners"])
            moves.append(data["move"])
            games.append(data["game"] + len(texts))
            texts.extend(str(t) for t in data["texts"])
    return OwnedPositions(policy_tool.load(paths), np.concatenate(owners), np.concatenate(moves),
                          np.concatenate(games), texts)


HEAD = 32
"""Channels of the ownership head's 3×3 convolution, before its 1×1 to one plane."""


def two_heads(start: policynet.PolicyNet, saved: dict[str, np.ndarray] | None = None) -> Any:
    """A PyTorch module of ``start``'s policy network with an ownership head on its trunk: given the
    input planes and the predictor's log chances, the policy's logits and each point's owner in
    [-1, 1] from the mover's side. ``saved``: all its weights as :func:`weights_of` gives them
    (``start`` is then their policy part), else the head is new."""
    import torch
    from torch import nn

    policy = policy_tool.torch_net(start.channels, start.blocks, start)

    class TwoHeads(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.policy = policy
            self.own_a = nn.Conv2d(start.channels, HEAD, 3, padding=1)
            self.own_b = nn.Conv2d(HEAD, 1, 1)

        def forward(self, x: Any, predictor: Any) -> tuple[Any, Any]:
            trunk = self.policy.trunk(x)
            owners = torch.tanh(self.own_b(torch.relu(self.own_a(trunk)))).squeeze(1)
            return self.policy.logits(trunk, predictor), owners

    net = TwoHeads()
    if saved is not None:
        net.load_state_dict({name: torch.from_numpy(array) for name, array in saved.items()})
    return net


def weights_of(net: Any) -> dict[str, np.ndarray]:
    """A two-headed module's weights by name, as :func:`two_heads` reads them back."""
    return {name: value.detach().numpy().astype(np.float32) for name, value in net.state_dict().items()}


def train(train_paths: list[Path], held_path: Path, start_path: Path, minutes: float, out: Path, *,
          lr: float = 5e-4, weight: float = 1.0) -> None:
    """Fit both heads for ``minutes`` from ``start_path``'s policy network or two-headed one (the ownership loss,
    the mean squared error a point, weighs ``weight`` against the policy's cross-entropy), then
    write the weights (:func:`two_heads`'s names) to ``out``."""
    import torch
    from torch import nn

    torch.set_num_threads(2)
    torch.set_flush_denormal(True)
    saved = dict(np.load(start_path))
    two_headed = any(name.startswith("policy.") for name in saved)
    net = two_heads(policy_of(saved), saved) if two_headed else two_heads(policynet.PolicyNet(saved))
    data, held = load(train_paths), load([held_path])
    opt = torch.optim.Adam(net.parameters(), lr=lr, weight_decay=1e-5)

    def held_figures() -> str:
        hits, error = 0, 0.0
        with torch.no_grad():
            for i in range(0, len(held), 512):
                x, p, t = held.positions.batch(slice(i, i + 512))
                logits, owners = net(torch.from_numpy(x), torch.from_numpy(p))
                hits += int((logits.argmax(1).numpy() == t).sum())
                error += float(((owners.numpy() - held.owners[i : i + 512]) ** 2).mean(axis=(1, 2)).sum())
        return f"first choice {hits / len(held):.4f}, ownership squared error {error / len(held):.4f} a point"

    print(f"{len(data)} positions to learn from, {len(held)} held out; at the start: {held_figures()}", flush=True)
    def loss_of(rows: np.ndarray, turn: int) -> Any:
        x, p, t = data.positions.batch(rows)
        stacked = np.concatenate([x, data.owners[rows][:, None].astype(np.float32)], axis=1)
        stacked, p, t = policy_tool.symmetry(stacked, p, t, turn, N)  # the owners turn with the board
        logits, owners = net(torch.from_numpy(np.ascontiguousarray(stacked[:, :-1])), torch.from_numpy(p))
        target = torch.from_numpy(np.ascontiguousarray(stacked[:, -1]))
        return nn.functional.cross_entropy(logits, torch.from_numpy(t)) + weight * ((owners - target) ** 2).mean()

    policy_tool.fit(opt, len(data), minutes, lr, loss_of, held_figures)
    arrays: dict[str, Any] = weights_of(net)
    np.savez_compressed(out, **arrays)


BUCKETS = (0, 50, 100, 150, 200, 1000)
"""Where the comparison's rows of moves begin and end."""


def playout_owners(text: str, moves: set[int], count: int, seed: int = 0) -> dict[int, np.ndarray]:
    """The search's heavy playouts' mean owner of each point (N×N, row 0 at the bottom, from
    the mover's side), ``count`` playouts from each position of the game ``text`` whose number
    is in ``moves``."""
    params = MctsConfig().policy_params(N)
    width = N + 2
    out: dict[int, np.ndarray] = {}
    for number, (position, _, color, last, last2) in enumerate(movemodel.positions_of(game_of(text))):
        if number in moves:
            board = position.board
            sums = np.zeros(board.grid.shape[1], np.int64)
            heavy.heavy_ownership(board.grid, board.meta, color, last, last2, count, seed, heavy.PAT3, params, sums)
            owners = (sums / count).reshape(width, width)[1:-1, 1:-1]  # the kernel's row 1 is the bottom line
            out[number] = owners if color == Color.BLACK else -owners
    return out


@dataclass(frozen=True)
class Figures:
    """How near an ownership comes to the final owners: the mean squared difference a point, the share
    of the points someone owns at the end given to that side, the mean difference of the area it
    gives the mover from the area the mover ends with, and the share of positions whose winner
    that area names (with the komi)."""

    error: float
    right: float
    area: float
    winner: float


def figures(predicted: np.ndarray, owners: np.ndarray, komi: np.ndarray) -> Figures:
    """:class:`Figures` of ``predicted`` ownerships (positions × N × N) against the final ``owners``,
    each position's mover receiving ``komi`` (negative: giving it)."""
    owned = owners != 0
    right = (np.sign(predicted) == owners) & owned
    area, final = predicted.sum(axis=(1, 2)), owners.sum(axis=(1, 2))
    return Figures(float(((predicted - owners) ** 2).mean()), float(right.sum() / max(owned.sum(), 1)),
                   float(np.abs(area - final).mean()), float(((area + komi > 0) == (final + komi > 0)).mean()))


def policy_of(saved: dict[str, np.ndarray]) -> policynet.PolicyNet:
    """The policy network within a two-headed network's weights, as the engine reads it."""
    return policynet.PolicyNet({name[len("policy."):]: a for name, a in saved.items() if name.startswith("policy.")})


def net_owners(net_path: Path, held: OwnedPositions) -> np.ndarray:
    """A two-headed network's ownership of every held-out position (positions × N × N)."""
    import torch

    saved = dict(np.load(net_path))
    net = two_heads(policy_of(saved), saved)
    parts = []
    with torch.no_grad():
        for i in range(0, len(held), 512):
            x, p, _ = held.positions.batch(slice(i, i + 512))
            parts.append(net(torch.from_numpy(x), torch.from_numpy(p))[1].numpy())
    return np.concatenate(parts)


def compare(held: OwnedPositions, nets: list[Path], count: int) -> list[tuple[str, str, Figures]]:
    """The heavy playouts (``count`` from each position; 0: none), each network's ownership head and
    each head's mean with the playouts against the final owners of ``held``, by the move's number
    (:data:`BUCKETS`): rows of the source, the moves and the figures."""
    sources = [(str(path), net_owners(path, held)) for path in nets]
    komi = np.where(held.move % 2 == 0, -KOMI, KOMI)  # Black moves first and gives the komi (a pass between shifts it)
    if count:
        played = np.zeros(held.owners.shape, np.float64)
        for number, text in enumerate(held.texts):
            rows = np.flatnonzero(held.game == number)
            found = playout_owners(text, {int(held.move[r]) for r in rows}, count, seed=number)
            for r in rows:
                played[r] = found[int(held.move[r])]
        sources = [(f"playouts ({count})", played), *sources,
                   *((f"{name} and the playouts, half each", (own + played) / 2) for name, own in sources)]
    out = []
    for low, high in zip(BUCKETS, BUCKETS[1:]):
        within = (held.move >= low) & (held.move < high)
        if within.any():
            moves, truth = f"{low}-{high - 1}", held.owners[within]
            out += [(name, moves, figures(own[within], truth, komi[within])) for name, own in sources]
    out += [(name, "all", figures(own, held.owners, komi)) for name, own in sources]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    steps = parser.add_subparsers(dest="step", required=True)
    r = steps.add_parser("read", help="counted games to positions with their final owners")
    r.add_argument("index", type=Path, help="Tygem's index of the games (their results)")
    r.add_argument("sources", nargs="+", help="Tygem's archive files, or folders of them")
    r.add_argument("--games", type=int, default=1000)
    r.add_argument("--every", type=int, default=3, help="keep every K-th position of a game")
    r.add_argument("-o", "--out", type=Path, required=True)
    t = steps.add_parser("train", help="fit the policy and ownership heads (needs PyTorch)")
    t.add_argument("train", type=Path, nargs="+", help="positions written by read")
    t.add_argument("--held", type=Path, required=True)
    t.add_argument("--start", type=Path, required=True, help="a policy network, whose trunk the head grows on, or weights written by train, to learn on from")
    t.add_argument("--minutes", type=float, default=30.0)
    t.add_argument("--lr", type=float, default=5e-4)
    t.add_argument("--weight", type=float, default=1.0, help="the ownership loss's weight against the policy's")
    t.add_argument("-o", "--out", type=Path, required=True)
    c = steps.add_parser("compare", help="ownership heads and the playouts against the final owners")
    c.add_argument("held", type=Path, help="positions written by read")
    c.add_argument("nets", type=Path, nargs="*", help="weights written by train")
    c.add_argument("--playouts", type=int, default=300, help="heavy playouts from each position (0: none)")
    o = steps.add_parser("policy", help="the policy network of weights written by train, as the engine reads it")
    o.add_argument("net", type=Path)
    o.add_argument("-o", "--out", type=Path, required=True)
    args = parser.parse_args(argv)
    if args.step == "policy":
        policy_of(dict(np.load(args.net))).save(args.out)
    elif args.step == "train":
        train(args.train, args.held, args.start, args.minutes, args.out, lr=args.lr, weight=args.weight)
    elif args.step == "compare":
        print("source | moves | squared error a point | owner right | area error | winner right")
        for name, moves, f in compare(load([args.held]), args.nets, args.playouts):
            print(f"{name} | {moves} | {f.error:.3f} | {f.right:.3f} | {f.area:.1f} | {f.winner:.3f}", flush=True)
    elif args.step == "read":
        if args.games < 1 or args.every < 1:
            parser.error("--games and --every must be at least 1")
        kept, disagreed, count = read(args.index, args.sources, args.games, args.every, args.out)
        print(f"{kept} games kept ({disagreed} whose count disagreed with their result left out), "
              f"{count} positions written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
