"""The move predictor (:mod:`miai.ai.movemodel`): its training set, the fit, and its use."""

from __future__ import annotations

import numpy as np
import pytest

from miai._kernel import movefeatures as F
from miai.ai import movemodel as M
from miai.ai.patterns import PatternTable
from miai.sgf.game import game_from_record
from miai.sgf.record import read_record

OPENING = "(;GM[1]FF[4]SZ[19]KM[7.5]RU[Chinese];B[pd];W[dp];B[pp];W[dd];B[fq];W[cn];B[qf];W[nc];B[pb];W[tt];B[jj])"
"""Ten moves on the board, a pass, and one more."""


def synthetic(true: np.ndarray, positions: int, seed: int) -> M.TrainingSet:
    """Positions of 30 possible moves with random levels in two groups (capture and line),
    the move played drawn by the model ``true``, as the fit assumes."""
    rng = np.random.default_rng(seed)
    rows = 30
    levels = np.zeros((positions * rows, F.NGROUPS), np.uint16)
    levels[:, F.F_CAPTURE] = rng.integers(0, 4, positions * rows)
    levels[:, F.F_LINE] = rng.integers(0, 5, positions * rows)
    position = np.repeat(np.arange(positions, dtype=np.int32), rows)
    chosen = np.empty(positions, np.int64)
    for j in range(positions):
        block = levels[j * rows : (j + 1) * rows]
        s = true[F.OFFSETS[F.F_CAPTURE] + block[:, F.F_CAPTURE]] + true[F.OFFSETS[F.F_LINE] + block[:, F.F_LINE]]
        p = np.exp(s) / np.exp(s).sum()
        chosen[j] = j * rows + rng.choice(rows, p=p)
    return M.TrainingSet(levels, position, chosen)


def test_the_fit_finds_the_strengths_the_moves_were_drawn_with():
    true = np.zeros(M.NLEVELS)
    true[F.OFFSETS[F.F_CAPTURE] : F.OFFSETS[F.F_CAPTURE] + 4] = np.log([1.0, 4.0, 8.0, 0.5])
    true[F.OFFSETS[F.F_LINE] : F.OFFSETS[F.F_LINE] + 5] = np.log([0.3, 1.0, 2.0, 1.5, 1.0])
    ts = synthetic(true, 4000, seed=1)
    likelihoods: list[float] = []
    model = M.fit(ts, 25, lambda i, ll: likelihoods.append(ll))
    assert len(likelihoods) == 25 and likelihoods[-1] > likelihoods[0] > M.log_likelihood(M.MoveModel.neutral(), ts)
    # strengths are known up to a factor per group: compare ratios to the group's first level
    for g, n in ((F.F_CAPTURE, 4), (F.F_LINE, 5)):
        fitted = model.group(g)[:n] - model.group(g)[0]
        want = true[F.OFFSETS[g] : F.OFFSETS[g] + n] - true[F.OFFSETS[g]]
        assert np.allclose(fitted, want, atol=0.25), (g, np.exp(fitted), np.exp(want))
    # a level never seen keeps the strength the prior gives it: 1
    assert model.group(F.F_EXTEND)[1] == pytest.approx(0.0, abs=1e-9)


def test_a_training_set_holds_every_playable_move_and_the_one_played():
    game = game_from_record(read_record(OPENING))
    ts = M.training_set([game], PatternTable.empty())
    assert ts.positions == 10  # the pass is no position; the move after it is
    assert ts.levels.shape[0] == sum(361 - k for k in range(10))
    assert (np.diff(ts.position) >= 0).all() and np.bincount(ts.position)[3] == 358
    played = ts.levels[ts.chosen]
    assert played[0, F.F_DIST1] == 0 and played[1, F.F_DIST1] != 0  # the first move has no last move
    assert played[9, F.F_DIST1] == 0 and played[9, F.F_DIST2] != 0  # after the pass: the move before it
    both = M.TrainingSet.concatenate([ts, ts])
    assert both.positions == 20 and (both.levels[both.chosen[10:]] == played).all()
    assert (both.position[ts.levels.shape[0]:] == ts.position + 10).all()


def test_ranks_and_a_model_that_has_learned_to_answer_the_last_move():
    game = game_from_record(read_record(OPENING))
    ts = M.training_set([game] * 3, PatternTable.empty())
    model = M.fit(ts, 10)
    ranks = M.prediction_ranks(model, PatternTable.empty(), [game])
    neutral = M.prediction_ranks(M.MoveModel.neutral(), PatternTable.empty(), [game])
    assert len(ranks) == len(neutral) == 10
    assert neutral[0] == pytest.approx((361 + 1) / 2)  # every move alike: the mean rank
    assert np.mean(ranks) < np.mean(neutral)


def test_a_model_round_trips_and_refuses_a_wrong_shape(tmp_path):
    model = M.MoveModel(np.random.default_rng(3).normal(size=M.NLEVELS))
    model.save(tmp_path / "m.npz")
    again = M.MoveModel.load(tmp_path / "m.npz")
    assert np.allclose(again.log_gammas, model.log_gammas, atol=1e-6)
    with pytest.raises(ValueError, match="finite log strengths"):
        M.MoveModel(np.zeros(5))
    with pytest.raises(ValueError, match="finite log strengths"):
        M.MoveModel(np.full(M.NLEVELS, np.nan))


def test_the_search_gives_the_predictors_favourite_the_largest_prior():
    from miai._kernel import heavy as H
    from miai._kernel import tree as T
    from miai.ai.mcts import MctsConfig
    from tests._kernel.test_heavy import board_of, idx
    from tests._kernel.test_spatial import diagram

    game, g, m = board_of(diagram(9, black="D5 F5 E6", white="E5"))
    strengths = np.zeros(M.NLEVELS)
    strengths[F.OFFSETS[F.F_CAPTURE] + 1] = np.log(1000.0)  # capturing one stone
    priors = {}
    for weight in (0.0, 40.0):
        params = MctsConfig(prior_mm=weight).tree_params(7.5)
        ti, tf, _ = tree = T.new_tree(1000)
        knowledge = (H.PAT3, np.zeros(0, np.int64), np.zeros(0), strengths)
        assert T.expand(tree, 0, g, m, 1, 0, 0, params, knowledge, np.zeros(g.shape[1], np.bool_))
        first, n = int(ti[T.T_FIRST, 0]), int(ti[T.T_NCHILD, 0])
        priors[weight] = {int(ti[T.T_MOVE, k]): (tf[T.T_PV, k], tf[T.T_PW, k]) for k in range(first, first + n)}
    capture = idx(game, "E4")
    gain = {p: priors[40.0][p][1] - priors[0.0][p][1] for p in priors[0.0]}
    assert max(gain, key=gain.get) == capture
    # its chance is about 1000 / (1000 + 72 others): 40 * sqrt(0.93) won visits, the others 40 * sqrt(0.001)
    assert gain[capture] == pytest.approx(40 * np.sqrt(1000 / (1000 + len(gain) - 1)), rel=1e-6)
    assert all(priors[40.0][p][0] - priors[0.0][p][0] == pytest.approx(gain[p]) for p in gain)  # as won visits


def test_a_search_asked_for_the_predictor_says_when_there_is_none(monkeypatch, tmp_path):
    from miai.ai.mcts import MctsConfig, MctsPlayer
    from miai.errors import ConfigError
    from miai.game import Game

    monkeypatch.setattr(M, "DEFAULT_MODEL", tmp_path / "none.npz")
    M.default_model.cache_clear()
    try:
        with pytest.raises(ConfigError, match="prior_mm=40 needs the move predictor"):
            MctsPlayer(MctsConfig(prior_mm=40, playouts=10, max_seconds=None)).search(Game(19))
    finally:
        M.default_model.cache_clear()


def test_the_shipped_predictor_reads_and_prefers_the_opening_points_to_the_corner():
    game = game_from_record(read_record("(;GM[1]FF[4]SZ[19]KM[7.5]RU[Chinese];B[pd])"))
    assert M.DEFAULT_MODEL.exists()  # package data: pyproject.toml's ai/data/*.npz
    model = M.default_model()
    assert model is not None
    from miai.ai.mcts import MctsConfig
    from miai.ai.patterns import default_table

    assert MctsConfig().prior_mm > 0  # on by default (from 9×9 up: pattern_min_size)
    reader = M._Reader(default_table())
    last = game.moves[-1].point
    assert last is not None
    points, levels = reader.read(game, 2, game.board.index(last), 0)  # White to play after Black's Q16
    strength = {int(p): float(model.log_gammas[M.OFFSETS + levels[i]].sum()) for i, p in enumerate(points)}
    corner = strength[game.board.index((0, 0))]
    star = strength[game.board.index((3, 3))]
    assert star > corner + 2  # the 4-4 point far more likely than the 1-1 point
