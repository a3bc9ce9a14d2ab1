"""The policy network over the move predictor (:mod:`miai.ai.policynet`) and its root prior."""

from __future__ import annotations

import numpy as np
import pytest

from miai.ai import movemodel
from miai.ai import policynet as P
from miai.ai.mcts import MctsConfig, MctsPlayer
from miai.ai.patterns import default_table
from miai.coords import Color
from miai.game import Game


def random_net(channels: int, blocks: int, seed: int, zero_out: bool = False) -> P.PolicyNet:
    """A network of random weights (the output layer zero with ``zero_out``)."""
    rng = np.random.default_rng(seed)
    shapes = {"inp": (channels, P.INPUTS, 5, 5), "out": (1, channels, 1, 1)}
    shapes.update({f"body.{i}.{ab}": (channels, channels, 3, 3) for i in range(blocks) for ab in "ab"})
    weights = {}
    for name, shape in shapes.items():
        scale = 0.0 if zero_out and name == "out" else 0.3
        weights[f"{name}.weight"] = (scale * rng.standard_normal(shape)).astype(np.float32)
        weights[f"{name}.bias"] = (scale * rng.standard_normal(shape[0])).astype(np.float32)
    return P.PolicyNet(weights)


def reference_convolution(x: np.ndarray, kernel: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """A same-size convolution with zero padding, point by point, as the textbook writes it."""
    n, k = x.shape[1], kernel.shape[-1]
    pad = k // 2
    out = np.zeros((kernel.shape[0], n, n))
    for o in range(kernel.shape[0]):
        for r in range(n):
            for c in range(n):
                total = float(bias[o])
                for i in range(k):
                    for j in range(k):
                        rr, cc = r + i - pad, c + j - pad
                        if 0 <= rr < n and 0 <= cc < n:
                            total += float(np.dot(kernel[o, :, i, j], x[:, rr, cc]))
                out[o, r, c] = total
    return out


def test_the_forward_pass_is_the_textbook_one():
    net = random_net(channels=4, blocks=2, seed=3)
    rng = np.random.default_rng(4)
    planes = rng.random((P.INPUTS, 5, 5)).astype(np.float32)
    predictor = rng.standard_normal((5, 5)).astype(np.float32)
    w = {name: a.astype(np.float64) for name, a in net.weights.items()}
    h = np.maximum(reference_convolution(planes, w["inp.weight"], w["inp.bias"]), 0)
    for i in range(2):
        inner = np.maximum(reference_convolution(h, w[f"body.{i}.a.weight"], w[f"body.{i}.a.bias"]), 0)
        h = np.maximum(h + reference_convolution(inner, w[f"body.{i}.b.weight"], w[f"body.{i}.b.bias"]), 0)
    expected = predictor + reference_convolution(h, w["out.weight"], w["out.bias"])[0]
    assert np.allclose(net.log_chances(planes, predictor), expected, rtol=1e-4, atol=1e-4)


def test_a_net_with_no_correction_gives_the_predictors_chances():
    game = Game(19)
    for point in [(3, 3), (15, 15), (2, 15)]:
        game.play(point)
    model = movemodel.default_model()
    assert model is not None
    net = random_net(channels=8, blocks=1, seed=5, zero_out=True)
    chances = P.root_chances(game, int(Color.WHITE), game.board.index((2, 15)), game.board.index((15, 15)), net, model)
    logs = P.predictor_log_chances(game, int(Color.WHITE), game.board.index((2, 15)), game.board.index((15, 15)),
                                   model, default_table())
    expected = np.where(P.possible(logs), np.exp(logs), 0.0)
    assert np.allclose(chances, expected / expected.sum(), atol=1e-6)
    assert chances[3, 3] == chances[15, 15] == chances[2, 15] == 0.0
    assert chances.sum() == pytest.approx(1.0)


def test_the_planes_show_stones_liberties_and_the_last_moves_from_the_movers_side():
    game = Game(9)
    # Black at (0,0) and (0,1), White at (1,0) and (1,1): Black's pair has one liberty, (0,2)
    for point in [(0, 0), (1, 0), (0, 1), (1, 1)]:
        game.play(point)
    last, last2 = game.board.index((1, 1)), game.board.index((0, 1))
    predictor = np.full((9, 9), -3.0, np.float32)
    predictor[0, 0] = P.NOT_A_MOVE
    planes = P.input_planes(game, int(Color.BLACK), last, last2, predictor)
    assert planes[0, 0, 0] == planes[0, 0, 1] == 1 and planes[1, 1, 0] == planes[1, 1, 1] == 1
    assert planes[2].sum() == 81 - 4
    assert planes[3, 0, 0] == planes[3, 0, 1] == 1 and planes[3].sum() == 2  # the mover's, one liberty
    assert planes[8, 1, 0] == planes[8, 1, 1] == 1 and planes[8].sum() == 2  # the opponent's, 3+ (1,2) (2,0) (2,1)
    assert planes[9, 1, 1] == 1 and planes[9].sum() == 1
    assert planes[10, 0, 1] == 1 and planes[10].sum() == 1
    assert planes[12, 0, 0] == 0 and planes[12].sum() == 80
    assert (planes[13] == 1).all()
    seen_by_white = P.input_planes(game, int(Color.WHITE), last, last2, predictor)
    assert (seen_by_white[0] == planes[1]).all() and (seen_by_white[6] == planes[3]).all()


def test_a_net_of_the_wrong_shape_is_refused_with_a_reason(tmp_path):
    net = random_net(channels=4, blocks=1, seed=1)
    broken = dict(net.weights)
    del broken["body.0.b.bias"]
    with pytest.raises(ValueError, match="body.0.b"):
        P.PolicyNet(broken)
    wrong_inputs = dict(net.weights, **{"inp.weight": np.zeros((4, 3, 5, 5), np.float32)})
    with pytest.raises(ValueError, match="14 planes"):
        P.PolicyNet(wrong_inputs)
    net.save(tmp_path / "net.npz")
    again = P.PolicyNet.load(tmp_path / "net.npz")
    assert again.blocks == 1 and all(np.array_equal(again.weights[k], v) for k, v in net.weights.items())


def root_priors(player: MctsPlayer, game: Game) -> dict[tuple[int, int] | None, float]:
    """Each root move's share of the root's prior visits."""
    return {c.point: c.prior for c in player.candidates(game)}


def opening() -> Game:
    """Four corner stones, Black to play."""
    game = Game(19)
    for point in [(3, 3), (15, 15), (2, 15), (15, 2)]:
        game.play(point)
    return game


def test_the_root_prior_goes_to_the_nets_likely_moves_once_a_root():
    game = opening()
    plain = MctsPlayer(MctsConfig(playouts=20, max_seconds=None, seed=1, prior_net=0.0))
    with_net = MctsPlayer(MctsConfig(playouts=20, max_seconds=None, seed=1, prior_net=300.0))
    plain.search(game)
    with_net.search(game)
    before, after = root_priors(plain, game), root_priors(with_net, game)
    net, model = P.default_net(), movemodel.default_model()
    assert net is not None and model is not None
    last, last2 = game.board.index((15, 2)), game.board.index((2, 15))
    chances = P.root_chances(game, int(Color.BLACK), last, last2, net, model)
    favourite = np.unravel_index(int(chances.argmax()), chances.shape)
    favourite_point = (int(favourite[0]), int(favourite[1]))
    assert after[favourite_point] > 2 * before[favourite_point]
    with_net.search(game)  # the same root again: no second helping
    assert root_priors(with_net, game) == after


def test_a_kept_root_gets_the_prior_after_the_moves_that_led_to_it():
    game = opening()
    with_net = MctsPlayer(MctsConfig(playouts=400, max_seconds=None, seed=1, prior_net=300.0))
    plain = MctsPlayer(MctsConfig(playouts=400, max_seconds=None, seed=1, prior_net=0.0))
    first = with_net.search(game).best
    assert first is not None and len(first.pv) >= 2
    game.play(first.pv[0])
    game.play(first.pv[1])
    with_net.search(game, playouts=1)  # the kept subtree becomes the root, and gets the prior now
    plain.search(game, playouts=1)
    kept, fresh = root_priors(with_net, game), root_priors(plain, game)
    assert kept.keys() == fresh.keys() and kept != fresh
