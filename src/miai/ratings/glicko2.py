"""Glicko-2, as Mark Glickman's "Example of the Glicko-2 system" (2013) gives it, step by step.

A :class:`Rating` is a player's rating r, deviation RD and volatility σ on the Glicko scale
(1500, 350, 0.06 for a new player). :meth:`Glicko2.update` is one rating period: the player's
new rating after the games of that period (the server makes each rated game a period of its
own, for both players). Step 5's root of f is found by the Illinois variant of regula falsi,
as the paper says, to the paper's tolerance ε = 0.000001. No package on PyPI fitted (typed,
maintained and exact), so this is the paper's arithmetic, checked against its worked example
in the tests (1464.06, 151.52, 0.05999).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Glicko2", "Outcome", "Rating", "SCALE"]

SCALE = 173.7178
"""Glicko-2's factor between the Glicko scale and its own (q = ln 10 / 400, inverted)."""
_EPSILON = 0.000001


@dataclass(frozen=True, slots=True)
class Rating:
    """A rating on the Glicko scale: ``rating`` r, ``deviation`` RD and ``volatility`` σ."""

    rating: float = 1500.0
    deviation: float = 350.0
    volatility: float = 0.06


@dataclass(frozen=True, slots=True)
class Outcome:
    """One game of a period from the player's side: the opponent's rating before it and the
    player's ``score`` (1 a win, 0.5 a draw, 0 a loss)."""

    opponent: Rating
    score: float


@dataclass(frozen=True, slots=True)
class Glicko2:
    """The system's constants: τ (how fast volatility may change) and a new player's rating."""

    tau: float = 0.5
    new: Rating = Rating()

    def update(self, player: Rating, games: Sequence[Outcome]) -> Rating:
        """The player's rating after one rating period with ``games`` (Glickman's steps 2-8)."""
        mu, phi, sigma = _to_glicko2(player)
        if not games:  # step 6 alone: the deviation grows, the rest stays
            return _from_glicko2(mu, math.sqrt(phi * phi + sigma * sigma), sigma)
        opponents = [(*_to_glicko2(g.opponent)[:2], g.score) for g in games]
        v_inverse = 0.0
        delta_sum = 0.0
        for mu_j, phi_j, score in opponents:
            g_j = _g(phi_j)
            e_j = _e(mu, mu_j, phi_j)
            v_inverse += g_j * g_j * e_j * (1.0 - e_j)
            delta_sum += g_j * (score - e_j)
        v = 1.0 / v_inverse
        delta = v * delta_sum
        sigma_new = self._volatility(phi, sigma, v, delta)
        phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
        phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
        mu_new = mu + phi_new * phi_new * delta_sum
        return _from_glicko2(mu_new, phi_new, sigma_new)

    def _volatility(self, phi: float, sigma: float, v: float, delta: float) -> float:
        """Step 5: the new volatility, the root of f by the Illinois algorithm."""
        tau = self.tau
        a = math.log(sigma * sigma)

        def f(x: float) -> float:
            ex = math.exp(x)
            d = phi * phi + v + ex
            return ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau)

        big_a = a
        if delta * delta > phi * phi + v:
            big_b = math.log(delta * delta - phi * phi - v)
        else:
            k = 1
            while f(a - k * tau) < 0:
                k += 1
            big_b = a - k * tau
        f_a, f_b = f(big_a), f(big_b)
        while abs(big_b - big_a) > _EPSILON:
            big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
            f_c = f(big_c)
            if f_c * f_b <= 0:
                big_a, f_a = big_b, f_b
            else:
                f_a = f_a / 2.0
            big_b, f_b = big_c, f_c
        return math.exp(big_a / 2.0)


def _to_glicko2(r: Rating) -> tuple[float, float, float]:
    return (r.rating - 1500.0) / SCALE, r.deviation / SCALE, r.volatility


def _from_glicko2(mu: float, phi: float, sigma: float) -> Rating:
    return Rating(SCALE * mu + 1500.0, SCALE * phi, sigma)


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))
