"""What both phases of ``miai play`` show of a game, and the commands they share.

The board with the captures and the last move, the count of the position, writing the
record, and why a word is not a vertex: the human player (:mod:`miai.cli.players`), the
marking dialogue (:mod:`miai.cli.marking`) and the session (:mod:`miai.cli.play`) all
use them, so they live below all three.
"""

from __future__ import annotations

from collections.abc import Collection

from miai.cli import texts
from miai.cli.terminal import Terminal
from miai.coords import Color, Point, point_from_gtp
from miai.errors import InvalidMoveError
from miai.game import Game
from miai.render import rich_diagram
from miai.sgf import game_to_sgf


def show_board(terminal: Terminal, game: Game) -> None:
    """The board, then the stones each side has captured and the last move."""
    terminal.show(rich_diagram(game.board, last_move=game.last_move))
    terminal.say(texts.captures(game.captures(Color.BLACK), game.captures(Color.WHITE)))
    last = game.last_move
    if last is None:
        terminal.say(texts.no_moves_yet())
    elif last.point is None:
        terminal.say(texts.last_pass(game.move_number, last.color))
    else:
        terminal.say(texts.last_move(game.move_number, last.color, last.point))


def show_score(terminal: Terminal, game: Game, *, dead: Collection[Point] = ()) -> None:
    """The count of the position as it stands (``dead`` stones removed), with the rules' name."""
    score = game.score(frozenset(dead))
    terminal.say(texts.count_marked_dead(game.rules) if dead else texts.count_all_alive(game.rules))
    terminal.say(texts.score_table(score))


def save_game(terminal: Terminal, game: Game, path: str) -> bool:
    """Write the record to ``path``; say what happened. True if written."""
    try:
        text = game_to_sgf(game)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as exc:
        terminal.say(texts.not_saved(path, exc))
        return False
    terminal.say(texts.saved(path))
    return True


def explain_bad_vertex(word: str, size: int) -> str | None:
    """Why ``word`` is not a vertex of this board, or None if it does not look like one
    (then it is rather an unknown command)."""
    w = word.upper()
    if len(w) >= 2 and w[0].isalpha() and w[1:].isdigit():
        if w[0] == "I":
            return texts.no_column_i(size)
        try:
            point_from_gtp(w, size)
        except InvalidMoveError:
            return texts.off_the_board(w, size)
    return None
