"""Reading an engine's win rate from its stderr (miai's and Pachi's lines)."""

from __future__ import annotations

from miai.match.winrates import last_winrate


def test_miais_line_gives_its_win_rate():
    assert last_winrate(["miai: D4, winrate 0.534, 2000 playouts in 0.41 s"]) == 0.534


def test_pachis_last_figure_counts():
    lines = [
        "[10000] best 0.486094 xkomi 0.0 | seq K18 Q17  B3  C3 | can b K18(0.486)",
        "[20000] best 0.487100 xkomi 0.0 | seq P18 O17 O18  C5 | can b P18(0.487)",
        "*** WINNER is P18 (15,18) with score 0.4881 (13151/40001:40001/40001 games), extra komi 0.000000",
        "Move:   1  Komi: 7.5  Handicap: 0  Captures B: 0 W: 0",
    ]
    assert last_winrate(lines) == 0.4881


def test_pachi_12s_percentages_are_read_as_fractions():
    lines = [
        "[1000] best 56.1% xkomi 0.0 | seq  G5  G6  H6  F6  H4 | can w  G5(56.1)  C6(52.0)",
        "*** WINNER is G5 with score 56.0% (384/1154 games), extra komi 0.0",
        "genmove in 0.10s, mcts 0.07s (15684 games/s, 15684 games/s/thread)",
    ]
    assert last_winrate(lines) == 0.56


def test_no_figure_or_a_figure_that_is_no_probability_gives_none():
    assert last_winrate([]) is None
    assert last_winrate(["thinking...", "Move: 12 Komi: 7.5"]) is None
    assert last_winrate(["winrate 57.3"]) is None  # a percentage, not a probability
    assert last_winrate(["winrate 0.25", "winrate 120"]) == 0.25


def test_a_figure_searched_with_an_extra_komi_is_not_the_games():
    miai = "miai: black search: D4 winrate 0.712, 9000 playouts in 9.80 s"
    assert last_winrate([miai, "miai: black search: D5 winrate 0.802, 9000 playouts in 9.8 s, extra komi 6"]) == 0.712
    pachi = [
        "[20000] best 0.612000 xkomi 0.0 | seq P18 O17 | can b P18(0.612)",
        "[40000] best 0.702000 xkomi 3.0 | seq P18 O17 | can b P18(0.702)",
        "*** WINNER is P18 (15,18) with score 0.7050 (28000/40001 games), extra komi 3.000000",
    ]
    assert last_winrate(pachi) == 0.612
    assert last_winrate(["*** WINNER is D4 with score 0.5500 (1/2 games), extra komi -2.0"]) is None
