"""The tables: games and their events, users and their sign-ins, uploaded reviews and the analyses
of reviews (SQLAlchemy Core metadata).

The migrations in :mod:`miai.server.storage.migrations` create exactly this schema (a test compares
them). ``game_events`` has the PRIMARY KEY (game_id, v): the fence that makes two writers of
one game impossible, since both would insert the same v.
"""

from __future__ import annotations

import sqlalchemy as sa

__all__ = [
    "metadata", "games", "game_events", "game_chat", "users", "sign_ins", "reviews", "review_analyses",
    "ratings", "rating_history", "automatch", "learn_progress",
]

metadata = sa.MetaData()

games = sa.Table(
    "games",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("size", sa.Integer, nullable=False),
    sa.Column("rules", sa.Text, nullable=False, comment="str(Rules), komi included"),
    sa.Column("handicap", sa.Integer, nullable=False),
    sa.Column("komi", sa.Float, nullable=False),
    sa.Column("time_control", sa.Text, nullable=False),
    sa.Column("black_kind", sa.String(32), nullable=False, comment="human or computer:N"),
    sa.Column("white_kind", sa.String(32), nullable=False),
    sa.Column("black_token_hash", sa.String(64), nullable=True, comment="sha256 hex of the seat token"),
    sa.Column("white_token_hash", sa.String(64), nullable=True),
    sa.Column("status", sa.String(16), nullable=False, comment="play, marking or finished"),
    sa.Column("result", sa.Text, nullable=True, comment="str(Result): the SGF RE text"),
    sa.Column("v", sa.Integer, nullable=False, comment="the last event's version"),
    sa.Column("created_ms", sa.BigInteger, nullable=False),
    sa.Column("ended_ms", sa.BigInteger, nullable=True),
    sa.Column("black_name", sa.String(40), nullable=True, comment="display name of who holds the seat"),
    sa.Column("white_name", sa.String(40), nullable=True),
    sa.Column("black_user_id", sa.Integer, nullable=True, comment="users.id of the seat's player, once a signed-in session used it"),
    sa.Column("white_user_id", sa.Integer, nullable=True),
    sa.Column("black_guest", sa.String(40), nullable=True, comment="the guest session (g:...) that holds the seat"),
    sa.Column("white_guest", sa.String(40), nullable=True),
    sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false(), comment="asked for and still possible; once finished, rated"),
    sa.Column("to_move", sa.String(8), nullable=True, comment="black or white: whom the game waits for"),
    sa.Column("deadline_ms", sa.BigInteger, nullable=True, comment="wall-clock ms when the player to move runs out of time"),
)
sa.Index("ix_games_status", games.c.status)
sa.Index("ix_games_black_user_id", games.c.black_user_id)
sa.Index("ix_games_white_user_id", games.c.white_user_id)
sa.Index("ix_games_black_guest", games.c.black_guest)
sa.Index("ix_games_white_guest", games.c.white_guest)

game_events = sa.Table(
    "game_events",
    metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    sa.Column("v", sa.Integer, nullable=False),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("payload", sa.JSON, nullable=False),
    sa.Column("seat", sa.String(8), nullable=True, comment="black or white: who acted"),
    sa.Column("at_ms", sa.BigInteger, nullable=False),
    sa.Column("action_id", sa.String(64), nullable=True, comment="the client's id for the action"),
    sa.Column("request", sa.Text, nullable=True, comment="the request in canonical form, for idempotent retries"),
    sa.PrimaryKeyConstraint("game_id", "v", name="pk_game_events"),
)

game_chat = sa.Table(
    "game_chat",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    sa.Column("seat", sa.String(8), nullable=False, comment="black or white: who said it"),
    sa.Column("name", sa.String(40), nullable=True, comment="the seat's display name then"),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("at_ms", sa.BigInteger, nullable=False),
    sa.Column("move", sa.Integer, nullable=False, comment="moves played when it was said: its SGF node"),
)
sa.Index("ix_game_chat_game_id", game_chat.c.game_id)
"""The players' chat, kept with the game (play/chat.py): shown again after a restart, written into the SGF."""

users = sa.Table(
    "users",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("username", sa.String(24), nullable=False, comment="as the user spelled it"),
    sa.Column("username_key", sa.String(24), nullable=False, comment="lower case: unique"),
    sa.Column("password_hash", sa.Text, nullable=False, comment="argon2id, PHC string"),
    sa.Column("created_ms", sa.BigInteger, nullable=False),
    sa.Column("language", sa.String(8), nullable=True, comment="the page's language the user chose: en, es, it, pt"),
    sa.UniqueConstraint("username_key", name="uq_users_username_key"),
)
"""Accounts. A username is unique whatever its case: ``username_key`` is its lower-case form."""

sign_ins = sa.Table(
    "sign_ins",
    metadata,
    sa.Column("id", sa.String(64), primary_key=True, comment="sha256 hex of the token in the session cookie"),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    sa.Column("created_ms", sa.BigInteger, nullable=False),
)
sa.Index("ix_sign_ins_user_id", sign_ins.c.user_id)
"""A signed-in session: its cookie holds a token whose hash is a row here while it is valid.
Signing out deletes the row, so a copy of the cookie is worth nothing after (people/signins.py)."""

reviews = sa.Table(
    "reviews",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True, comment="random: the review's permanent link"),
    sa.Column("created_ms", sa.BigInteger, nullable=False),
    sa.Column("sgf", sa.Text, nullable=False, comment="the uploaded record, as SGF (UTF-8)"),
    sa.Column("review", sa.JSON, nullable=False, comment="the review read from it (records/review.py)"),
)
"""Uploaded records, read and checked once (size-capped as ``POST /api/reviews`` is), kept so
that a review has a permanent link (``/review/{id}``, docs/SERVER.md §3.2)."""

review_analyses = sa.Table(
    "review_analyses",
    metadata,
    sa.Column("subject", sa.String(48), primary_key=True, comment="review:ID, or game:ID for a game of this server"),
    sa.Column("updated_ms", sa.BigInteger, nullable=False),
    sa.Column("analysis", sa.JSON, nullable=False, comment="each position's win rate and best moves (compute/gameanalysis.py)"),
)
"""The computer's analysis of every position of a review, kept so that a reload (or another
reader) does not search the game again."""
ratings = sa.Table(
    "ratings",
    metadata,
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("rating", sa.Float, nullable=False),
    sa.Column("deviation", sa.Float, nullable=False),
    sa.Column("volatility", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False, comment="rated games played"),
)
"""A player's Glicko-2 rating after their last rated game (none yet: a new player's)."""

rating_history = sa.Table(
    "rating_history",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True, comment="the order ratings changed in"),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    sa.Column("rating_before", sa.Float, nullable=False),
    sa.Column("deviation_before", sa.Float, nullable=False),
    sa.Column("volatility_before", sa.Float, nullable=False),
    sa.Column("rating", sa.Float, nullable=False),
    sa.Column("deviation", sa.Float, nullable=False),
    sa.Column("volatility", sa.Float, nullable=False),
    sa.Column("ended_ms", sa.BigInteger, nullable=False),
)
sa.Index("ix_rating_history_user_id", rating_history.c.user_id, rating_history.c.id)
sa.Index("ix_rating_history_game_id", rating_history.c.game_id)
"""One row per rated game per player, written in the transaction that ends the game."""

automatch = sa.Table(
    "automatch",
    metadata,
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("size", sa.Integer, nullable=False),
    sa.Column("time_control", sa.Text, nullable=False),
    sa.Column("rated", sa.Boolean, nullable=False),
    sa.Column("rank_low", sa.Integer, nullable=False, comment="the opponent's rank minus the player's, at least"),
    sa.Column("rank_high", sa.Integer, nullable=False),
    sa.Column("rating", sa.Float, nullable=False, comment="the player's rating when asking"),
    sa.Column("created_ms", sa.BigInteger, nullable=False),
    sa.Column("seen_ms", sa.BigInteger, nullable=False, comment="the last time the player asked whether it was paired"),
    sa.Column("game_id", sa.String(32), nullable=True, comment="the game made, once paired"),
)
"""Players waiting for an opponent (one request each), and the game each was paired into."""
learn_progress = sa.Table(
    "learn_progress",
    metadata,
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("lesson", sa.String(64), primary_key=True, comment="the lesson's id: its file's name (02-capture)"),
    sa.Column("steps", sa.Integer, nullable=False, comment="how many of its steps the user has solved"),
    sa.Column("updated_ms", sa.BigInteger, nullable=False),
)
"""A signed-in user's progress in the course (/learn): per lesson, the steps solved, and
each problem solved as the row ``problem:<id>`` with one step (people/progress.py). Guests
keep theirs in the browser."""
