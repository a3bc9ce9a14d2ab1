"""A small convolutional network over the move predictor, for the search tree's prior.

The network reads a 19×19 position from the mover's side (:func:`input_planes`: the stones,
their chains' liberties, the last two moves and the predictor's log chance of every move)
through residual convolutions, and adds its correction to the predictor's log chances
(:mod:`miai.ai.movemodel`). It is evaluated at the root, as Pachi uses its DCNN, and at
most at the few nodes the search visits most (:mod:`miai.ai.netprior`); so it runs in NumPy,
and no deep-learning library is needed to play. The weights are learnt by
``tools/train_policynet.py`` from the same records as the predictor (BENCHMARKS.md says
which, and how well it predicts).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import Any

import numpy as np
from threadpoolctl import ThreadpoolController  # type: ignore[import-untyped]

from miai.ai import movemodel
from miai.ai.patterns import PatternTable, default_table
from miai.game import Game

INPUTS = 14
"""Input planes: mover's stones, opponent's, empty; the mover's chains with 1, 2, 3+
liberties; the opponent's likewise; the last move; the one before; the predictor's log
chance (scaled); where a move is possible; ones (so the zero padding shows the edge)."""
NOT_A_MOVE = -30.0
"""The predictor's log chance written where no move is possible (an occupied point, an own
eye): far below any possible move's, which are floored at ``NOT_A_MOVE + 1``."""
PREDICTOR_PLANE = 11
"""The one input plane that is not 0 or 1: the predictor's log chance, scaled (:func:`scaled`)."""
NET_SIZE = 19
"""The board the shipped network was learnt on, the only one it is used on."""
DEFAULT_NET = Path(__file__).with_name("data") / "policynet19.npz"


@dataclass(frozen=True, eq=False)
class PolicyNet:
    """The weights: ``inp`` (a 5×5 convolution from the input planes), ``body.{i}.a`` and
    ``body.{i}.b`` (each residual block's two 3×3 convolutions) and ``out`` (a 1×1 convolution
    to the correction), each as ``NAME.weight`` (out, in, k, k) and ``NAME.bias`` (out,)."""

    weights: dict[str, np.ndarray]

    def __post_init__(self) -> None:
        w = self.weights
        for name in ("inp", "out", *(f"body.{i}.{ab}" for i in range(self.blocks) for ab in "ab")):
            kernel, bias = w.get(f"{name}.weight"), w.get(f"{name}.bias")
            if kernel is None or bias is None or kernel.ndim != 4 or bias.shape != kernel.shape[:1]:
                raise ValueError(f"a policy net needs the weight and bias of {name!r}, of matching shapes")
        channels = w["inp.weight"].shape[0]
        if w["inp.weight"].shape[1] != INPUTS or w["out.weight"].shape[:2] != (1, channels):
            raise ValueError(f"a policy net reads {INPUTS} planes and writes one, through {channels} channels")

    @cached_property
    def channels(self) -> int:
        """How many channels each convolution but the last writes."""
        return int(self.weights["inp.weight"].shape[0])

    @cached_property
    def blocks(self) -> int:
        """How many residual blocks the body has."""
        return sum(1 for name in self.weights if name.startswith("body.") and name.endswith(".a.weight"))

    @cached_property
    def reach(self) -> int:
        """How far from a point its convolutions read: the widest kernel's half."""
        return max(a.shape[-1] for name, a in self.weights.items() if name.endswith(".weight")) // 2

    @classmethod
    def load(cls, path: str | Path) -> PolicyNet:
        with np.load(path) as data:
            return cls({name: data[name].astype(np.float32) for name in data.files})

    def save(self, path: str | Path) -> None:
        arrays: dict[str, Any] = {name: array.astype(np.float32) for name, array in self.weights.items()}
        np.savez_compressed(path, **arrays)

    def log_chances(self, planes: np.ndarray, predictor: np.ndarray) -> np.ndarray:
        """Each point's log strength (N×N): the predictor's (``predictor``, N×N) plus the
        network's correction read from ``planes`` (:func:`input_planes`)."""
        w = self.weights
        grid = _Grid(planes.shape[1], pad=self.reach)
        with _blas().limit(limits=1, user_api="blas"):
            h = np.maximum(grid.convolve(grid.embed(planes), w["inp.weight"], w["inp.bias"]), 0.0)
            for i in range(self.blocks):
                inner = np.maximum(grid.convolve(h, w[f"body.{i}.a.weight"], w[f"body.{i}.a.bias"]), 0.0)
                h = np.maximum(h + grid.convolve(inner, w[f"body.{i}.b.weight"], w[f"body.{i}.b.bias"]), 0.0)
            return predictor + grid.board(grid.convolve(h, w["out.weight"], w["out.bias"])[0])


@cache
def _blas() -> ThreadpoolController:
    """The process's BLAS, which the forward pass holds to one thread: its products are small,
    and an engine's other core is its opponent's or its own search's (BLAS's own threads made
    the pass 4 to 6 times slower on a busy machine; BENCHMARKS.md)."""
    return ThreadpoolController()


class _Grid:
    """Planes of an N×N board kept flat inside a zero margin of ``pad`` points, so that a
    convolution is a sum of matrix products over shifted views, with no copy of every point's
    window (twice as fast as one product over the windows; BENCHMARKS.md)."""

    def __init__(self, n: int, pad: int) -> None:
        self.n, self.pad, self.width = n, pad, n + 2 * pad
        self.first = pad * self.width + pad  # the flat index of the board's first point
        self.span = (n - 1) * self.width + n  # from the first point to the last, margins between
        inside = np.zeros((self.width, self.width), np.float32)
        inside[pad : pad + n, pad : pad + n] = 1.0
        self.inside = inside.ravel()[self.first : self.first + self.span]

    def embed(self, planes: np.ndarray) -> np.ndarray:
        """Planes (C, N, N) in the flat layout (C, width²), zero in the margin."""
        out = np.zeros((planes.shape[0], self.width, self.width), np.float32)
        out[:, self.pad : self.pad + self.n, self.pad : self.pad + self.n] = planes
        return out.reshape(planes.shape[0], -1)

    def board(self, flat: np.ndarray) -> np.ndarray:
        """One flat plane back as N×N."""
        p, n = self.pad, self.n
        return flat.reshape(self.width, self.width)[p : p + n, p : p + n]

    def convolve(self, x: np.ndarray, kernel: np.ndarray, bias: np.ndarray) -> np.ndarray:
        """The same-size convolution (zero padding) of flat planes ``x`` by ``kernel`` (out,
        in, k, k, with k ≤ 2·pad + 1), flat, zero in the margin."""
        k = kernel.shape[-1]
        lo, span, width = self.first, self.span, self.width
        acc = np.zeros((kernel.shape[0], span), np.float32)
        for dy in range(k):
            for dx in range(k):
                at = lo + (dy - k // 2) * width + (dx - k // 2)
                acc += kernel[:, :, dy, dx] @ x[:, at : at + span]
        out = np.zeros((kernel.shape[0], x.shape[1]), np.float32)
        out[:, lo : lo + span] = (acc + bias[:, None]) * self.inside
        return out


@cache
def default_net() -> PolicyNet | None:
    """The shipped network (read once), or None where there is none."""
    return PolicyNet.load(DEFAULT_NET) if DEFAULT_NET.exists() else None


def predictor_log_chances(
    game: Game, color: int, last: int, last2: int, model: movemodel.MoveModel, table: PatternTable
) -> np.ndarray:
    """The predictor's natural log chance of each point (N×N, row 0 at the bottom) for ``color``
    after the moves at kernel points ``last`` and ``last2`` (0: none), :data:`NOT_A_MOVE` where
    no move is possible."""
    n = game.size
    out = np.full((n, n), NOT_A_MOVE, np.float32)
    points, strengths = movemodel.move_strengths(game, color, last, last2, model, table)
    if points.size:
        logs = strengths - strengths.max()
        logs -= np.log(np.exp(logs).sum())
        out[game.board.rows_and_columns(points)] = np.maximum(logs, NOT_A_MOVE + 1)
    return out


def possible(predictor: np.ndarray) -> np.ndarray:
    """Where a move is possible, by the predictor's log chances (:data:`NOT_A_MOVE` elsewhere)."""
    return predictor > NOT_A_MOVE + 0.5


def scaled(predictor: np.ndarray) -> np.ndarray:
    """The predictor's log chances as the network reads them: floored at -15, divided by 5."""
    return np.maximum(predictor, -15.0) / 5.0


def input_planes(game: Game, color: int, last: int, last2: int, predictor: np.ndarray) -> np.ndarray:
    """The network's input (:data:`INPUTS` × N × N) for ``color`` to move in ``game``, after the
    moves at kernel points ``last`` and ``last2`` (0: none), with the predictor's log chances."""
    board = game.board
    n = game.size
    stones = board.as_array()
    liberties = board.liberty_counts()
    planes = np.zeros((INPUTS, n, n), np.float32)
    mine, theirs = stones == color, (stones != color) & (stones != 0)
    planes[0], planes[1], planes[2] = mine, theirs, stones == 0
    for base, side in ((3, mine), (6, theirs)):
        planes[base] = side & (liberties == 1)
        planes[base + 1] = side & (liberties == 2)
        planes[base + 2] = side & (liberties >= 3)
    for plane, point in ((9, last), (10, last2)):
        if point:
            planes[(plane, *board.point(point))] = 1.0
    planes[PREDICTOR_PLANE] = scaled(predictor)
    planes[12] = possible(predictor)
    planes[13] = 1.0
    return planes


def root_chances(
    game: Game, color: int, last: int, last2: int, net: PolicyNet, model: movemodel.MoveModel,
    table: PatternTable | None = None,
) -> np.ndarray:
    """The network's chance of each point (N×N, row 0 at the bottom; 0 where no move is
    possible, all 0 if none is) for ``color`` to move in ``game`` after ``last``, ``last2``."""
    predictor = predictor_log_chances(game, color, last, last2, model, table or default_table())
    where = possible(predictor)
    if not where.any():
        return np.zeros_like(predictor)
    return chances(net.log_chances(input_planes(game, color, last, last2, predictor), predictor), where)


def chances(logs: np.ndarray, where: np.ndarray) -> np.ndarray:
    """Log strengths (``logs``) as chances that sum to 1 over the points ``where`` a move is
    possible (at least one), 0 elsewhere."""
    strengths = np.where(where, np.exp(logs - logs[where].max()), 0.0)
    return strengths / strengths.sum()
