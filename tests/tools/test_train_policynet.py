"""tools/train_policynet.py: the positions it reads are the engine's own input planes and the
move played, and the weights it writes are the engine's network (no PyTorch needed)."""

from __future__ import annotations

import numpy as np
import pytest
import train_policynet as tool

from miai.ai import movemodel, policynet
from miai.ai.patterns import default_table
from miai.sgf.game import game_from_record
from miai.sgf.record import read_record

RECORD = "(;GM[1]FF[4]SZ[19]KM[6.5];B[pd];W[dp];B[pp];W[dd];B[fq];W[cn];B[qf];W[nc])"
"""Eight moves of an even 19×19 game."""


def test_read_keeps_each_position_as_the_engine_sees_it(tmp_path):
    sgf = tmp_path / "game.sgf"
    sgf.write_text(RECORD)
    assert tool.main(["read", str(sgf), "--games", "1", "-o", str(tmp_path / "p.npz")]) == 0
    positions = tool.load(tmp_path / "p.npz")
    assert len(tool.load([tmp_path / "p.npz", tmp_path / "p.npz"])) == 2 * len(positions)
    planes, predictor, target = positions.batch(slice(None))
    assert planes.shape == (8, policynet.INPUTS, 19, 19) and target.shape == (8,)
    # the first target is Black's 4-4 point at column p (15), row d from the top (row 15 from the bottom)
    assert target[0] == 15 * 19 + 15
    game = game_from_record(read_record(RECORD))
    third = next(p for i, p in enumerate(movemodel.positions_of(game)) if i == 2)
    position, played, color, last, last2 = third
    expected_predictor = policynet.predictor_log_chances(position, color, last, last2, movemodel.default_model(),
                                                        default_table())
    expected = policynet.input_planes(position, color, last, last2, expected_predictor)
    assert np.allclose(predictor[2], expected_predictor, atol=0.02)  # kept as float16
    assert np.array_equal(np.delete(planes[2], tool.SCALED, 0), np.delete(expected, tool.SCALED, 0))
    assert np.allclose(planes[2, tool.SCALED], expected[tool.SCALED], atol=0.01)


def test_a_symmetry_moves_the_target_with_the_board():
    rng = np.random.default_rng(1)
    planes = rng.random((1, policynet.INPUTS, 19, 19)).astype(np.float32)
    predictor = rng.random((1, 19, 19)).astype(np.float32)
    target = np.array([2 * 19 + 5])
    planes[0, 0, 2, 5] = 9.0
    for k in range(8):
        p, q, t = tool.symmetry(planes, predictor, target, k, 19)
        row, col = divmod(int(t[0]), 19)
        assert p[0, 0, row, col] == 9.0


def test_the_weights_written_are_the_engines_network(tmp_path):
    rng = np.random.default_rng(2)
    state = {"inp.weight": rng.random((4, policynet.INPUTS, 5, 5)), "inp.bias": rng.random(4),
             "body.0.a.weight": rng.random((4, 4, 3, 3)), "body.0.a.bias": rng.random(4),
             "body.0.b.weight": rng.random((4, 4, 3, 3)), "body.0.b.bias": rng.random(4),
             "out.weight": rng.random((1, 4, 1, 1)), "out.bias": rng.random(1)}
    tool.weights_of(state).save(tmp_path / "net.npz")
    net = policynet.PolicyNet.load(tmp_path / "net.npz")
    assert net.blocks == 1
    assert np.allclose(net.weights["body.0.b.weight"], state["body.0.b.weight"])


def test_learning_goes_on_in_the_shape_of_the_network_it_starts_from_or_a_larger_one():
    shipped = policynet.default_net()
    assert tool.shape_of(None, None, None) == (48, 3)
    assert tool.shape_of(None, 32, 2) == (32, 2)
    assert tool.shape_of(shipped, None, None) == (48, 3)
    assert tool.shape_of(shipped, 64, None) == (64, 3)
    assert tool.shape_of(shipped, None, 6) == (48, 6)
    with pytest.raises(SystemExit, match="48 channels and 3 blocks: it can grow, not shrink"):
        tool.shape_of(shipped, 32, 3)
    with pytest.raises(SystemExit, match="grow, not shrink"):
        tool.shape_of(shipped, 64, 2)


def test_a_grown_network_computes_the_chances_of_the_one_it_grew_from():
    shipped = policynet.default_net()
    assert shipped is not None
    big = tool.grown(shipped, 64, 5)
    assert (big.weights["inp.weight"].shape[0], big.blocks) == (64, 5)
    game = game_from_record(read_record(RECORD))
    predictor = policynet.predictor_log_chances(game, int(game.to_move), 0, 0, movemodel.default_model(),
                                                default_table())
    planes = policynet.input_planes(game, int(game.to_move), 0, 0, predictor)
    assert np.allclose(big.log_chances(planes, predictor), shipped.log_chances(planes, predictor), atol=1e-4)
    # the new channels and blocks are not dead: they are at work, only not yet read
    assert np.abs(big.weights["inp.weight"][48:]).max() > 0
    assert np.abs(big.weights["body.4.a.weight"]).max() > 0
    assert np.abs(big.weights["body.0.a.weight"][:48, 48:]).max() == 0


def test_the_score_ranks_the_move_played_among_the_possible_ones_only():
    n = policynet.NET_SIZE
    predictor = np.full((2, n, n), policynet.NOT_A_MOVE, np.float16)
    predictor[:, 0, :4] = [np.log(0.5), np.log(0.25), np.log(0.125), np.log(0.125)]  # four possible moves
    binary = np.zeros((2, policynet.INPUTS - 1, n, n), np.uint8)
    positions = tool.Positions(binary, predictor, np.array([0, 2]))  # the likeliest move, then the third
    result = tool.score(None, positions)
    assert result.first == 0.5 and result.three == 1.0
    assert result.surprise == pytest.approx((np.log(2) + np.log(8)) / 2, abs=1e-3)


def test_a_grown_network_scores_as_the_one_it_grew_from(tmp_path):
    sgf = tmp_path / "game.sgf"
    sgf.write_text(RECORD)
    tool.main(["read", str(sgf), "--games", "1", "-o", str(tmp_path / "p.npz")])
    positions, shipped = tool.load(tmp_path / "p.npz"), policynet.default_net()
    assert shipped is not None
    grown, own = tool.score(tool.grown(shipped, 56, 4), positions), tool.score(shipped, positions)
    assert (grown.first, grown.three) == (own.first, own.three)
    assert grown.surprise == pytest.approx(own.surprise, abs=1e-5)
