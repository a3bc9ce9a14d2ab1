"""Players' strength: Glicko-2 ratings (glicko2.py) and the kyu/dan ranks and handicaps they
stand for (ranks.py). Pure values and arithmetic, no I/O: the server keeps them in its database."""

from miai.ratings.glicko2 import Glicko2, Outcome, Rating
from miai.ratings.ranks import Rank, even_or_handicap, rank_of, rating_of

__all__ = ["Glicko2", "Outcome", "Rank", "Rating", "even_or_handicap", "rank_of", "rating_of"]
