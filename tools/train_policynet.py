"""Learn the policy network over the move predictor (:mod:`miai.ai.policynet`) from game records.

Three steps. ``read`` replays records and keeps, for every position where the move played was
a possible one, the network's input planes (:func:`miai.ai.policynet.input_planes`, with the
shipped predictor's log chances) and the move played. ``train`` fits the network to those
positions with PyTorch on the CPU, the output layer starting at zero (so at first the
network is the predictor) or from a network learnt before (``--start``; grown to more
``--channels`` or ``--blocks`` without changing what it computes), and writes its weights in
the form the engine reads. ``score`` rates networks on held-out positions through the
engine's own forward pass::

    python tools/train_policynet.py read TYGEM/2011-12 --games 800 --every 5 -o train.npz
    python tools/train_policynet.py read TYGEM/2015-05 --games 30 --every 10 -o held.npz
    python tools/train_policynet.py train train.npz --held held.npz --channels 48 --blocks 3 \\
        --minutes 40 -o src/miai/ai/data/policynet19.npz
    python tools/train_policynet.py train more.npz --held held.npz --start src/miai/ai/data/policynet19.npz \\
        --channels 64 --blocks 6 --lr 5e-4 --minutes 100 -o net-64x6.npz
    python tools/train_policynet.py score held.npz src/miai/ai/data/policynet19.npz net-64x6.npz

A research tool: PyTorch is needed by ``train`` only (``pip install torch``), never by miai to
play. Training is bounded by time, so two runs give close but not equal weights.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from miai.ai import movemodel, policynet
from miai.ai.patterns import PatternTable, default_table
from miai.game import Game
from miai.train.corpus import read_games

SCALED = policynet.PREDICTOR_PLANE
"""Every input plane but this one, the predictor's log chance, is 0 or 1: kept as bytes."""


def example(game: Game, played: int, color: int, last: int, last2: int, model: movemodel.MoveModel,
            table: PatternTable) -> tuple[np.ndarray, np.ndarray, int] | None:
    """One position as the positions' files keep it: the input planes but the predictor's as
    bytes, the predictor's log chances as float16, and the point played (row × size + column);
    None when the move played (a kernel point) was not a possible one."""
    predictor = policynet.predictor_log_chances(game, color, last, last2, model, table)
    row, col = game.board.point(played)
    if not policynet.possible(predictor)[row, col]:
        return None
    planes = policynet.input_planes(game, color, last, last2, predictor)
    return np.delete(planes, SCALED, axis=0).astype(np.uint8), predictor.astype(np.float16), row * game.size + col


def read(sources: list[str], games: int, every: int, out: Path) -> int:
    """Write the positions of ``games`` even 19×19 games (every ``every``-th read) to ``out``."""
    model, table = movemodel.default_model(), default_table()
    if model is None:
        raise SystemExit(f"no move predictor at {movemodel.DEFAULT_MODEL}: the network learns on top of it")
    corpus = read_games(sources, policynet.NET_SIZE, games * every)
    kept = [found for start in corpus.games[::every][:games] for position in movemodel.positions_of(start)
            if (found := example(*position, model, table)) is not None]
    binary, predictor, target = zip(*kept) if kept else ((), (), ())
    np.savez(out, binary=np.array(binary, np.uint8), predictor=np.array(predictor, np.float16),
             target=np.array(target, np.int16))
    return len(kept)


@dataclass(frozen=True)
class Positions:
    """Positions as :func:`read` wrote them, kept small (the 0/1 planes as bytes, the predictor's
    log chances as float16) until a batch of them is made ready for the network."""

    binary: np.ndarray
    predictor: np.ndarray
    target: np.ndarray

    def __len__(self) -> int:
        return len(self.target)

    def batch(self, rows: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The input planes (float32), predictor log chances (float32) and targets of ``rows``."""
        binary, predictor = self.binary[rows], self.predictor[rows].astype(np.float32)
        scaled = policynet.scaled(predictor)[:, None]
        planes = np.concatenate([binary[:, :SCALED], scaled, binary[:, SCALED:]], axis=1).astype(np.float32)
        return planes, predictor, self.target[rows]


def load(paths: Path | list[Path]) -> Positions:
    """The positions that :func:`read` wrote to one file or several, together."""
    parts = []
    for path in [paths] if isinstance(paths, Path) else paths:
        with np.load(path) as data:
            parts.append((data["binary"], data["predictor"], data["target"].astype(np.int64)))
    return Positions(*(np.concatenate(arrays) for arrays in zip(*parts, strict=True)))


def symmetry(planes: np.ndarray, predictor: np.ndarray, target: np.ndarray, k: int, n: int) -> tuple[Any, ...]:
    """One of the board's eight symmetries (``k`` 0–7) applied to a batch."""
    row, col = np.divmod(target, n)
    if k & 4:
        planes, predictor, row, col = planes.transpose(0, 1, 3, 2), predictor.transpose(0, 2, 1), col, row
    if k & 1:
        planes, predictor, row = planes[:, :, ::-1], predictor[:, ::-1], n - 1 - row
    if k & 2:
        planes, predictor, col = planes[:, :, :, ::-1], predictor[:, :, ::-1], n - 1 - col
    return np.ascontiguousarray(planes), np.ascontiguousarray(predictor), row * n + col


def weights_of(state: dict[str, Any]) -> policynet.PolicyNet:
    """The engine's network from a trained model's state (tensors or arrays by name)."""
    return policynet.PolicyNet({name: np.asarray(value, np.float32) for name, value in state.items()})


def torch_net(channels: int, blocks: int, start: policynet.PolicyNet | None) -> Any:
    """The network as a PyTorch module: from ``start``'s weights, or new with its output layer at
    zero (so that at first it is the predictor)."""
    import torch
    from torch import nn

    class Block(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.a = nn.Conv2d(channels, channels, 3, padding=1)
            self.b = nn.Conv2d(channels, channels, 3, padding=1)

        def forward(self, x: Any) -> Any:
            return torch.relu(x + self.b(torch.relu(self.a(x))))

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.inp = nn.Conv2d(policynet.INPUTS, channels, 5, padding=2)
            self.body = nn.Sequential(*[Block() for _ in range(blocks)])
            self.out = nn.Conv2d(channels, 1, 1)
            assert self.out.bias is not None  # Conv2d has one unless told not to
            nn.init.zeros_(self.out.weight)
            nn.init.zeros_(self.out.bias)

        def trunk(self, x: Any) -> Any:
            """The channels the last layer reads, from the input planes ``x``."""
            return self.body(torch.relu(self.inp(x)))

        def logits(self, trunk: Any, predictor: Any) -> Any:
            """Each point's logit from the trunk's channels, the impossible moves' far below."""
            logs = predictor + self.out(trunk).squeeze(1)
            where: Any = policynet.possible(predictor)  # typed for NumPy, and as true of a tensor
            return torch.where(where, logs, torch.full_like(logs, -1e9)).flatten(1)

        def forward(self, x: Any, predictor: Any) -> Any:
            return self.logits(self.trunk(x), predictor)

    net = Net()
    if start is not None:
        net.load_state_dict({name: torch.from_numpy(array) for name, array in start.weights.items()})
    return net


def shape_of(start: policynet.PolicyNet | None, channels: int | None, blocks: int | None) -> tuple[int, int]:
    """The channels and blocks to train: the options' (48 and 3 if not given), or from ``start``
    its own shape or a larger one (:func:`grown`), never a smaller one."""
    if start is None:
        return channels or 48, blocks or 3
    own = (start.channels, start.blocks)
    asked = (channels or own[0], blocks or own[1])
    if asked[0] < own[0] or asked[1] < own[1]:
        raise SystemExit(f"the network to start from has {own[0]} channels and {own[1]} blocks: "
                         "it can grow, not shrink")
    return asked


def grown(start: policynet.PolicyNet, channels: int, blocks: int, seed: int = 0) -> policynet.PolicyNet:
    """``start`` with more channels and blocks that computes the same chances: what reads a new
    channel starts at zero, what writes one at random, and a new block's second convolution at
    zero (the block passes its input on), so learning goes on from ``start``'s rate."""
    rng, old = np.random.default_rng(seed), start.weights

    def conv(name: str, shape: tuple[int, int, int], zero: bool) -> tuple[np.ndarray, np.ndarray]:
        out, inp, k = shape
        bound = 1 / np.sqrt(inp * k * k)  # PyTorch's own start for a convolution
        kernel = rng.uniform(-bound, bound, (out, inp, k, k)).astype(np.float32) * (not zero)
        bias = rng.uniform(-bound, bound, out).astype(np.float32) * (not zero)
        if name + ".weight" in old:
            was = old[name + ".weight"]
            kernel[: was.shape[0]] = 0.0
            kernel[: was.shape[0], : was.shape[1]] = was
            bias[: was.shape[0]] = old[name + ".bias"]
        return kernel, bias

    shapes = {"inp": ((channels, policynet.INPUTS, 5), False), "out": ((1, channels, 1), False)}
    for i in range(blocks):
        new_block = i >= start.blocks
        shapes |= {f"body.{i}.a": ((channels, channels, 3), False), f"body.{i}.b": ((channels, channels, 3), new_block)}
    weights: dict[str, np.ndarray] = {}
    for name, (shape, zero) in shapes.items():
        weights[name + ".weight"], weights[name + ".bias"] = conv(name, shape, zero)
    return policynet.PolicyNet(weights)


def fit(opt: Any, size: int, minutes: float, lr: float, loss_of: Callable[[np.ndarray, int], Any],
        report: Callable[[], str]) -> None:
    """Take ``opt``'s steps for ``minutes``, each on the loss ``loss_of`` gives for 128 rows of the
    ``size`` positions drawn at random and one of the eight symmetries, at the learning rate
    ``lr``, then a third and a tenth of it over the last 40% of the time; ``report`` the held-out
    figures every 300 steps and at the end."""
    rng = np.random.default_rng(0)
    begun, step = time.monotonic(), 0
    while (elapsed := time.monotonic() - begun) < minutes * 60:
        rows = np.sort(rng.integers(0, size, 128))
        share = elapsed / (minutes * 60)
        for group in opt.param_groups:
            group["lr"] = lr if share < 0.6 else lr * 0.3 if share < 0.85 else lr * 0.1
        loss = loss_of(rows, int(rng.integers(8)))
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        if step % 300 == 0:
            print(f"{elapsed:6.0f} s, {step * 128} positions seen: held out {report()}", flush=True)
    print(f"done: held out {report()}", flush=True)


def train(train_paths: list[Path], held_path: Path, minutes: float, out: Path, *,
          shape: tuple[int | None, int | None] = (None, None), start: Path | None = None, lr: float = 1e-3) -> None:
    """Fit the network for ``minutes`` (from ``start``'s weights if given; the learning rate ``lr``,
    then a third and a tenth of it over the last 40% of the time), reporting the held-out
    first-choice rate, and write it."""
    import torch
    from torch import nn

    torch.set_num_threads(2)
    torch.set_flush_denormal(True)  # tiny floats slowed a 100-minute run's steps (BENCHMARKS.md)
    first = policynet.PolicyNet.load(start) if start else None
    channels, blocks = shape_of(first, *shape)
    if first is not None and (channels, blocks) != (first.channels, first.blocks):
        first = grown(first, channels, blocks)
    net = torch_net(channels, blocks, first)
    data, held = load(train_paths), load(held_path)
    opt = torch.optim.Adam(net.parameters(), lr=lr, weight_decay=1e-5)

    def held_rate() -> float:
        hits = 0
        with torch.no_grad():
            for i in range(0, len(held), 512):
                x, p, t = held.batch(slice(i, i + 512))
                hits += int((net(torch.from_numpy(x), torch.from_numpy(p)).argmax(1).numpy() == t).sum())
        return hits / len(held)

    def loss_of(rows: np.ndarray, turn: int) -> Any:
        x, p, t = symmetry(*data.batch(rows), turn, data.binary.shape[-1])
        return nn.functional.cross_entropy(net(torch.from_numpy(x), torch.from_numpy(p)), torch.from_numpy(t))

    print(f"{len(data)} positions to learn from, {len(held)} held out; at the start: "
          f"{held_rate():.4f} first choice", flush=True)
    fit(opt, len(data), minutes, lr, loss_of, lambda: f"{held_rate():.4f} first choice")
    weights_of({name: value.detach().numpy() for name, value in net.state_dict().items()}).save(out)


@dataclass(frozen=True)
class Score:
    """How well a network names the moves played: the share it ranks first, the share in its first
    three, and the mean −log chance it gives the move played."""

    first: float
    three: float
    surprise: float


def score(net: policynet.PolicyNet | None, positions: Positions) -> Score:
    """``net``'s score on ``positions`` through the engine's own forward pass, one position at a
    time as the search evaluates them (``None``: the predictor alone)."""
    first = three = 0
    surprise = 0.0
    for i in range(len(positions)):
        planes, predictor, target = positions.batch(slice(i, i + 1))
        logs = predictor[0] if net is None else net.log_chances(planes[0], predictor[0])
        chances = policynet.chances(logs, policynet.possible(predictor[0])).ravel()
        played = chances[target[0]]
        better = int((chances > played).sum())
        first, three = first + (better == 0), three + (better < 3)
        surprise -= float(np.log(played))
    n = len(positions)
    return Score(first / n, three / n, surprise / n)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    steps = parser.add_subparsers(dest="step", required=True)
    r = steps.add_parser("read", help="records to positions")
    r.add_argument("sources", nargs="+", help="SGF files, folders of them, or Tygem's archive files")
    r.add_argument("--games", type=int, default=800)
    r.add_argument("--every", type=int, default=1, help="take every K-th even 19×19 game read")
    r.add_argument("-o", "--out", type=Path, required=True)
    t = steps.add_parser("train", help="fit the network (needs PyTorch)")
    t.add_argument("train", type=Path, nargs="+", help="positions written by read, one file or several")
    t.add_argument("--held", type=Path, required=True)
    t.add_argument("--start", type=Path, help="a network's weights to go on learning from (grown if --channels or --blocks ask more)")
    t.add_argument("--channels", type=int, help="48 unless --start says otherwise")
    t.add_argument("--blocks", type=int, help="3 unless --start says otherwise")
    t.add_argument("--lr", type=float, default=1e-3, help="the learning rate of the first 60%% of the time")
    t.add_argument("--minutes", type=float, default=40.0)
    t.add_argument("-o", "--out", type=Path, required=True)
    s = steps.add_parser("score", help="first choice, first three and mean -log chance on held-out positions")
    s.add_argument("held", type=Path, help="positions written by read")
    s.add_argument("nets", type=Path, nargs="*", help="networks' weights (the predictor alone is scored first)")
    args = parser.parse_args(argv)
    if args.step == "score":
        held = load(args.held)
        for name, net in [("predictor", None), *((str(path), policynet.PolicyNet.load(path)) for path in args.nets)]:
            result = score(net, held)
            print(f"{name}: first choice {result.first:.4f}, first three {result.three:.4f}, "
                  f"mean -log chance {result.surprise:.3f} ({len(held)} positions)", flush=True)
    elif args.step == "read":
        if args.games < 1 or args.every < 1:
            parser.error("--games and --every must be at least 1")
        print(f"{read(args.sources, args.games, args.every, args.out)} positions written to {args.out}")
    else:
        train(args.train, args.held, args.minutes, args.out, shape=(args.channels, args.blocks), start=args.start,
              lr=args.lr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
