"""tools/train_ownership.py: only the counted games whose count gives their result are kept, each
position with the final owners from the mover's side, and the figures compare like with like
(no PyTorch needed)."""

from __future__ import annotations

import numpy as np
import pytest
import train_ownership as tool

N = 19
WALLS = "".join(f";B[i{chr(97 + r)}];W[j{chr(97 + r)}]" for r in range(N)) + ";B[];W[]"
"""Black fills column J and White column K, then both pass: 8 columns of territory to Black,
9 to White."""
WALLS_MARGIN = 8 * N - 9 * N - 6.5
"""Black's margin by territory, komi 6.5 (Tygem's rules): 152 against 171 and the komi."""


def write_archive(tmp_path, results: dict[str, str]):
    """The walls game under each of ``results``' ids in a Tygem archive file, and an index giving
    each its result; returns the index and the archive."""
    index, archive = tmp_path / "games.index", tmp_path / "2011-10"
    index.write_text("".join(f"{gid}\tC2011.10.01 00:01\ta\tb\t2\tc\td\t2\t{result}\t40\t30/3 0m\n"
                             for gid, result in results.items()), encoding="utf-8")
    archive.write_text("".join(f"{gid}\t{WALLS}\n" for gid in results), encoding="utf-8")
    return index, archive


def test_only_games_counted_to_the_end_have_a_result(tmp_path):
    index, _ = write_archive(tmp_path, {"1": "B+9.5", "2": "W+Resign", "3": "W+0.5", "4": "B+Time", "5": "W+Offline"})
    assert tool.counted_results(index) == {"1": 9.5, "3": -0.5}


def test_the_final_owners_are_the_count_that_gives_the_result():
    game = tool.game_of(f"(;GM[1]FF[4]SZ[19]KM[6.5]RU[Korean]{WALLS})")
    owners = tool.final_owners(game, WALLS_MARGIN)
    assert owners is not None
    assert (owners[:, :9] == 1).all() and (owners[:, 9:] == -1).all()  # columns A-J Black's, K-T White's
    assert tool.final_owners(game, WALLS_MARGIN + 3) is None


def test_read_keeps_the_agreeing_games_with_the_owners_from_the_movers_side(tmp_path):
    index, archive = write_archive(tmp_path, {"7": f"W+{-WALLS_MARGIN}", "8": "B+20.5", "9": "B+Resign"})
    out = tmp_path / "p.npz"
    assert tool.read(index, [str(archive)], games=5, every=2, out=out) == (1, 1, N)
    held = tool.load([out])
    assert held.texts == [f"(;GM[1]FF[4]SZ[19]KM[6.5]RU[Korean]{WALLS})"]
    assert list(held.move) == list(range(0, 2 * N, 2))  # every second of the 38 stones' positions: Black to move
    assert (held.owners[:, :, :9] == 1).all() and (held.owners[:, :, 9:] == -1).all()
    again = tmp_path / "q.npz"
    tool.read(index, [str(archive)], games=5, every=1, out=again)
    odd = tool.load([again])
    assert (odd.owners[1, :, :9] == -1).all()  # White to move: Black's points are the opponent's
    both = tool.load([out, again])
    assert len(both) == N + 2 * N and set(both.game) == {0, 1} and len(both.texts) == 2


def test_the_playouts_own_a_settled_position_as_it_ends():
    walls = "".join(f";B[i{chr(97 + r)}];W[j{chr(97 + r)}]" for r in range(N))
    text = f"(;GM[1]FF[4]SZ[19]KM[6.5]RU[Korean]{walls};B[aa])"
    walled = 2 * N  # both walls stand, Black to move
    owners = tool.playout_owners(text, {walled}, count=20)[walled]
    assert owners.shape == (N, N)
    # the playouts invade the large empty sides, so the sides are not all owned, but the walls are
    assert owners[:, 8].mean() > 0.8 and owners[:, 9].mean() < -0.8
    assert owners[:, :8].mean() > 0.2 and owners[:, 10:].mean() < -0.2
    white = tool.playout_owners(text, {walled - 1}, count=20)[walled - 1]  # White to move: the other side's view
    assert white[:, 8].mean() < -0.8 and white[:, :8].mean() < -0.2


def test_the_figures_reward_the_right_owner_area_and_winner():
    owners = np.zeros((2, N, N), np.int8)
    owners[:, :, :10], owners[:, :, 10:] = 1, -1  # the mover owns 190 points, the opponent 171
    komi = np.array([-6.5, 6.5])
    exact = tool.figures(owners.astype(float), owners, komi)
    assert (exact.error, exact.right, exact.area, exact.winner) == (0.0, 1.0, 0.0, 1.0)
    unsure = tool.figures(np.zeros((2, N, N)), owners, komi)
    assert (unsure.error, unsure.right, unsure.area) == (1.0, 0.0, 19.0)
    assert unsure.winner == 0.5  # nothing owned: the mover giving the komi loses, the one receiving it wins
    wrong = tool.figures(-owners.astype(float), owners, komi)
    assert (wrong.error, wrong.right, wrong.area, wrong.winner) == (4.0, 0.0, 38.0, 0.0)


def test_the_comparison_reads_each_held_position_where_it_stands(tmp_path):
    index, archive = write_archive(tmp_path, {"7": f"W+{-WALLS_MARGIN}"})
    tool.read(index, [str(archive)], games=1, every=10, out=tmp_path / "p.npz")
    held = tool.load([tmp_path / "p.npz"])
    rows = tool.compare(held, [], count=4)
    assert [(name, moves) for name, moves, _ in rows] == [("playouts (4)", "0-49"), ("playouts (4)", "all")]
    assert list(held.move) == [0, 10, 20, 30]  # Black to move in each: Black gives the komi
    found = tool.playout_owners(held.texts[0], {0, 10, 20, 30}, count=4, seed=0)
    expected = tool.figures(np.stack([found[m] for m in (0, 10, 20, 30)]), held.owners, np.full(4, -6.5))
    assert rows[0][2] == rows[1][2] == expected


def test_the_policy_part_of_the_weights_is_the_engines_network(tmp_path):
    shipped = tool.policynet.default_net()
    assert shipped is not None
    saved = {f"policy.{name}": array for name, array in shipped.weights.items()}
    saved |= {"own_a.weight": np.ones((tool.HEAD, 48, 3, 3), np.float32), "own_a.bias": np.ones(tool.HEAD, np.float32)}
    np.savez(tmp_path / "own.npz", **saved)
    assert tool.main(["policy", str(tmp_path / "own.npz"), "-o", str(tmp_path / "net.npz")]) == 0
    net = tool.policynet.PolicyNet.load(tmp_path / "net.npz")
    assert sorted(net.weights) == sorted(shipped.weights)
    assert all(np.array_equal(net.weights[name], shipped.weights[name]) for name in shipped.weights)
