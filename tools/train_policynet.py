"""Learn the policy network over the move predictor (:mod:`miai.ai.policynet`) from game records.

Two steps. ``read`` replays records and keeps, for every position where the move played was
a possible one, the network's input planes (:func:`miai.ai.policynet.input_planes`, with the
shipped predictor's log chances) and the move played. ``train`` fits the network to those
positions with PyTorch on the CPU, the output layer starting at zero (so at first the
network is the predictor), and writes its weights in the form the engine reads::

    python tools/train_policynet.py read TYGEM/2011-12 --games 800 --every 5 -o train.npz
    python tools/train_policynet.py read TYGEM/2015-05 --games 30 --every 10 -o held.npz
    python tools/train_policynet.py train train.npz --held held.npz --channels 48 --blocks 3 \\
        --minutes 40 -o src/miai/ai/data/policynet19.npz

A research tool: PyTorch is needed by ``train`` only (``pip install torch``), never by miai to
play. Training is bounded by time, so two runs give close but not equal weights.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from miai.ai import movemodel, policynet
from miai.ai.patterns import default_table
from miai.game import Game
from miai.train.corpus import read_games

SCALED = policynet.PREDICTOR_PLANE
"""Every input plane but this one, the predictor's log chance, is 0 or 1: kept as bytes."""


def positions(games: Iterable[Game]) -> Iterator[tuple[np.ndarray, np.ndarray, int]]:
    """Each position of the games whose move played was a possible one: the input planes,
    the predictor's log chances, and the point played (row × size + column)."""
    model, table = movemodel.default_model(), default_table()
    if model is None:
        raise SystemExit(f"no move predictor at {movemodel.DEFAULT_MODEL}: the network learns on top of it")
    for start in games:
        for game, played, color, last, last2 in movemodel.positions_of(start):
            predictor = policynet.predictor_log_chances(game, color, last, last2, model, table)
            row, col = game.board.point(played)
            if not policynet.possible(predictor)[row, col]:
                continue
            planes = policynet.input_planes(game, color, last, last2, predictor)
            yield planes, predictor, row * game.size + col


def read(sources: list[str], games: int, every: int, out: Path) -> int:
    """Write the positions of ``games`` even 19×19 games (every ``every``-th read) to ``out``."""
    corpus = read_games(sources, policynet.NET_SIZE, games * every)
    taken = corpus.games[::every][:games]
    binary: list[np.ndarray] = []
    predictors: list[np.ndarray] = []
    targets: list[int] = []
    for planes, predictor, target in positions(taken):
        binary.append(np.delete(planes, SCALED, axis=0).astype(np.uint8))
        predictors.append(predictor.astype(np.float16))
        targets.append(target)
    np.savez(out, binary=np.array(binary), predictor=np.array(predictors), target=np.array(targets, np.int16))
    return len(targets)


def load(path: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The planes (float32), predictor log chances and targets that :func:`read` wrote."""
    with np.load(path) as data:
        binary, predictor, target = data["binary"], data["predictor"].astype(np.float32), data["target"]
    scaled = policynet.scaled(predictor)[:, None]
    planes = np.concatenate([binary[:, :SCALED], scaled, binary[:, SCALED:]], axis=1).astype(np.float32)
    return planes, predictor, target.astype(np.int64)


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


def train(train_path: Path, held_path: Path, channels: int, blocks: int, minutes: float, out: Path) -> None:
    """Fit the network for ``minutes``, reporting the held-out first-choice rate, and write it."""
    import torch
    from torch import nn

    torch.set_num_threads(2)

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
            nn.init.zeros_(self.out.weight)
            nn.init.zeros_(self.out.bias)

        def forward(self, x: Any, predictor: Any) -> Any:
            logs = predictor + self.out(self.body(torch.relu(self.inp(x)))).squeeze(1)
            return torch.where(policynet.possible(predictor), logs, torch.full_like(logs, -1e9)).flatten(1)

    planes, predictor, target = load(train_path)
    held = load(held_path)
    net = Net()
    opt = torch.optim.Adam(net.parameters(), lr=1e-3, weight_decay=1e-5)

    def held_rate() -> float:
        with torch.no_grad():
            hits = sum(int((net(torch.from_numpy(held[0][i : i + 512]), torch.from_numpy(held[1][i : i + 512]))
                            .argmax(1).numpy() == held[2][i : i + 512]).sum()) for i in range(0, len(held[2]), 512))
        return hits / len(held[2])

    print(f"{len(target)} positions to learn from, {len(held[2])} held out; the predictor alone: "
          f"{held_rate():.4f} first choice", flush=True)
    rng = np.random.default_rng(0)
    start, step = time.monotonic(), 0
    while (elapsed := time.monotonic() - start) < minutes * 60:
        batch = rng.integers(0, len(target), 128)
        x, p, t = symmetry(planes[batch], predictor[batch], target[batch], int(rng.integers(8)), planes.shape[-1])
        share = elapsed / (minutes * 60)
        for group in opt.param_groups:
            group["lr"] = 1e-3 if share < 0.6 else 3e-4 if share < 0.85 else 1e-4
        loss = nn.functional.cross_entropy(net(torch.from_numpy(x), torch.from_numpy(p)), torch.from_numpy(t))
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        if step % 300 == 0:
            print(f"{elapsed:6.0f} s, {step * 128} positions seen: held out {held_rate():.4f} first choice", flush=True)
    print(f"done: held out {held_rate():.4f} first choice", flush=True)
    weights_of({name: value.detach().numpy() for name, value in net.state_dict().items()}).save(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    steps = parser.add_subparsers(dest="step", required=True)
    r = steps.add_parser("read", help="records to positions")
    r.add_argument("sources", nargs="+", help="SGF files, folders of them, or Tygem's archive files")
    r.add_argument("--games", type=int, default=800)
    r.add_argument("--every", type=int, default=1, help="take every K-th even 19×19 game read")
    r.add_argument("-o", "--out", type=Path, required=True)
    t = steps.add_parser("train", help="fit the network (needs PyTorch)")
    t.add_argument("train", type=Path)
    t.add_argument("--held", type=Path, required=True)
    t.add_argument("--channels", type=int, default=48)
    t.add_argument("--blocks", type=int, default=3)
    t.add_argument("--minutes", type=float, default=40.0)
    t.add_argument("-o", "--out", type=Path, required=True)
    args = parser.parse_args(argv)
    if args.step == "read":
        if args.games < 1 or args.every < 1:
            parser.error("--games and --every must be at least 1")
        print(f"{read(args.sources, args.games, args.every, args.out)} positions written to {args.out}")
    else:
        train(args.train, args.held, args.channels, args.blocks, args.minutes, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
