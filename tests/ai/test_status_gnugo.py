"""Agreement with GNU Go on a few finished 9×9 games (the small version of
benchmarks/gnugo_agreement.py): GNU Go plays itself to two passes, then miai's dead stones
and final score must equal GNU Go's ``final_status_list dead`` and ``final_score``, under
Japanese and Chinese rules."""

from __future__ import annotations

import gnugo_agreement as agreement
import pytest

pytestmark = [
    pytest.mark.gnugo,
    pytest.mark.skipif(agreement.GNUGO is None, reason="GNU Go is not installed (apt-get install gnugo)"),
]


@pytest.mark.parametrize("seed", [101, 102, 103])
def test_dead_stones_and_score_agree_with_gnugo(seed):
    game = agreement.play_gnugo_game(9, seed, level=1)
    assert game.moves[-2:] == [(game.moves[-2][0], "PASS"), (game.moves[-1][0], "PASS")]
    for rules in ("japanese", "chinese"):
        c = agreement.compare(game, rules)
        assert (c.ours_dead, c.ours_score) == (game.dead[rules], game.score[rules]), (seed, rules)


def test_the_benchmark_names_a_missing_gnugo(tmp_path, capsys):
    assert agreement.main(["--gnugo", str(tmp_path / "no-gnugo"), "--cache", str(tmp_path)]) == 2
    assert f"GNU Go not found at {tmp_path / 'no-gnugo'}" in capsys.readouterr().err


def test_the_benchmark_keeps_its_games_where_told(tmp_path, capsys):
    argv = ["--size", "9", "--games", "1", "--level", "1", "--jobs", "1", "--gnugo", agreement.GNUGO, "--cache", str(tmp_path)]
    assert agreement.main(argv) == 0
    assert [p.name for p in tmp_path.iterdir()] == ["9x9-level1-seed1.json"]
    out = capsys.readouterr().out
    for rules in ("japanese", "chinese"):
        assert f"{rules:9s}: same dead stones 1/1, same score 1/1" in out
