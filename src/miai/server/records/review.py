"""What a review page needs, in one shape for an uploaded record and for a game of this server
(docs/SERVER.md §3.2).

A review is the game's facts (size, rules, komi, handicap, players, result) and its main line
as *steps*: the starting position (handicap and setup stones), then every move with the
stones it captured (and, rarely, a setup edit that followed it in a record). A page steps
through the game by placing each move's stone and lifting its ``captured`` stones: it needs
no rule of Go. The final position, the prisoners and (for a counted game) the score with its
dead stones come with it, so the page can check where the steps lead.

Why steps and not every position: a real 300-move 19x19 game is about 16 KB of JSON as steps,
and 190 to 290 KB with the stones of every position, a dozen times as much (measured on three
records of 309 to 400 moves; ``tests/server/records/test_review.py`` checks it on one).

The steps are computed by replaying the game's own history on a bare
:class:`~miai.board.Board` (``place`` captures as the rules core does; the moves were already
checked by :class:`~miai.game.Game`), so the server adds no rule either.

:func:`read_review` is what a worker process runs for an upload (see
:meth:`Workers.read_review <miai.server.compute.workers.Workers.read_review>`): it never raises for
bad input, it answers ``("review", {...})`` or ``("error", message)``.
"""

from __future__ import annotations

import traceback
from typing import TYPE_CHECKING, Any

from miai.board import Board
from miai.coords import Color, Move, point_to_gtp
from miai.errors import SgfError
from miai.game import Game, Phase, Setup
from miai.server.wire.forms import score_json, vertices
from miai.sgf import game_from_record, read_record

if TYPE_CHECKING:
    from miai.sgf.repairs import Repair

__all__ = ["build_review", "read_review", "upload_facts"]


def _stones(board: Board) -> dict[str, list[str]]:
    return {"black": vertices(board.stones(Color.BLACK)), "white": vertices(board.stones(Color.WHITE))}


def _edit(board: Board, setup: Setup) -> dict[str, list[str]]:
    """Apply a setup edit to ``board`` (as :meth:`Game.setup` does: empty, then black, then
    white) and return it as the page applies it."""
    setup.apply_to(board)
    return {"black": vertices(setup.black), "white": vertices(setup.white), "empty": vertices(setup.empty)}


def steps(game: Game) -> tuple[dict[str, list[str]], list[dict[str, Any]]]:
    """The starting position and the moves of ``game``'s history, each with the stones it
    captured (``captured``) and, when the record edited the position after it, those
    ``edits`` (applied in order: ``empty``, then ``black``, then ``white`` points).

    Proposals and resumptions of play do not move a stone and are not steps."""
    board = Board(game.size)
    for p in game.handicap_points:
        board.set(p, Color.BLACK)
    start: dict[str, list[str]] | None = None
    moves: list[dict[str, Any]] = []
    for entry in game.history:
        if isinstance(entry, Setup):
            edit = _edit(board, entry)
            if moves:
                moves[-1].setdefault("edits", []).append(edit)
            continue
        if not isinstance(entry, Move):
            continue  # a Resume: play goes on, the stones stand
        if start is None:
            start = _stones(board)
        step: dict[str, Any] = {"color": str(entry.color), "move": point_to_gtp(entry.point), "captured": []}
        if entry.point is not None:
            before = {c: set(board.stones(c)) for c in (Color.BLACK, Color.WHITE)}
            board.place(entry.point, entry.color)
            gone: set[tuple[int, int]] = set()
            for c in (Color.BLACK, Color.WHITE):
                gone |= before[c] - set(board.stones(c))
            step["captured"] = vertices(gone)
        moves.append(step)
    return (start if start is not None else _stones(board)), moves


def build_review(
    game: Game,
    *,
    players: dict[Color, str] | None = None,
    ranks: dict[Color, str] | None = None,
    result_text: str | None = None,
    rules_text: str | None = None,
    date: str | None = None,
    comments: dict[int, str] | None = None,
    repairs: list[Repair] | None = None,
) -> dict[str, Any]:
    """The review of ``game`` (see the module's docstring), as JSON values.

    ``result`` is the game's own :class:`~miai.result.Result` once it has ended (a record's
    ``RE``, or the count of its territory marks); ``players`` and ``ranks`` name each colour's
    player and rank (``PB``/``PW``, ``BR``/``WR``) where known; ``result_text`` is the result as the record
    writes it (its own ``RE`` kept, None when it has none). ``rules_text`` is the record's
    ``RU`` as written, if any. ``repairs`` are sent twice: as English sentences (``repairs``)
    and, in the same order, as kinds, fields and places (``repair_details``) for the page to say."""
    start, moves = steps(game)
    finished = game.phase is Phase.FINISHED
    result = str(game.result) if finished and game.result is not None else None
    final = game.final_score if finished else None
    names, levels = players or {}, ranks or {}
    return {
        "size": game.size,
        "rules": str(game.rules),
        "rules_text": rules_text,
        "komi": game.komi,
        "handicap": game.handicap,
        "players": {"black": names.get(Color.BLACK), "white": names.get(Color.WHITE)},
        "ranks": {"black": levels.get(Color.BLACK), "white": levels.get(Color.WHITE)},
        "date": date,
        "phase": game.phase.value,
        "result": result,
        "result_text": result_text,
        "end_reason": game.end_words if finished else None,
        "start": start,
        "moves": moves,
        "final": {
            **_stones(game.board),
            "captures": {"black": game.captures(Color.BLACK), "white": game.captures(Color.WHITE)},
        },
        "score": score_json(final) if final is not None else None,
        "comments": {str(n): text for n, text in sorted((comments or {}).items())},
        "repairs": [str(r) for r in repairs or []],
        "repair_details": [r.to_json() for r in repairs or []],
    }


def upload_facts(data: bytes | str, max_moves: int) -> tuple[dict[str, Any], str]:
    """Read an uploaded record and build its review; with it, the record as SGF in UTF-8 (a
    Tygem or WBaduk file, or one in another charset, rewritten as the reader read it), the
    text that is kept for the review's permanent link. Raises :class:`SgfError` (with where in
    the file) for a record that cannot be read, or whose main line is longer than
    ``max_moves``.

    A record with neither moves nor stones is refused too: there is nothing to review (and
    a binary file in which the tolerant reader finds a ``(;`` reads as such a record).

    Reading never takes a path: the text is never mistaken for a file name (as
    :func:`miai.sgf.load_game` would take a short string without ``(``). An illegal move
    stops the replay there (the moves before it are reviewed) and ``repairs`` says so."""
    if not data.strip():
        raise SgfError("the record is empty")
    record = read_record(data)
    if not any(isinstance(e, Move) or e.black or e.white for e in record.events):
        fixed = f" (after {len(record.repairs)} repairs: is it a game record?)" if record.repairs else ""
        raise SgfError(f"the record holds no moves and no stones: nothing to review{fixed}")
    if len(record.moves) > max_moves:
        raise SgfError(f"the record's main line has {len(record.moves)} moves; a review holds at most {max_moves}")
    game = game_from_record(record, strict=False)
    players = {c: name for c, name in ((Color.BLACK, record.black), (Color.WHITE, record.white)) if name}
    ranks = {c: rank for c, rank in ((Color.BLACK, record.black_rank), (Color.WHITE, record.white_rank)) if rank}
    review = build_review(
        game,
        players=players,
        ranks=ranks,
        result_text=record.result_text,
        rules_text=record.rules_text,
        date=record.date,
        comments=record.comments,
        repairs=record.repairs,
    )
    if "CA" in record.root.properties:
        record.root.properties["CA"] = ["UTF-8"]  # the text kept is the one read, in UTF-8
    return review, record.to_sgf()


def read_review(data: bytes | str, max_moves: int) -> tuple[str, Any]:
    """In a worker: ``("review", (review, sgf))`` for a record that reads (see :func:`upload_facts`), ``("error", message)``
    for one that does not, and ``("bug", "Error: message\ntraceback")`` when the reader
    itself fails (a bug): the upload still gets a 4xx saying the record could not be read,
    and the server logs the traceback."""
    try:
        return "review", upload_facts(data, max_moves)
    except SgfError as e:
        return "error", str(e)
    except RecursionError:
        return "error", "the record is nested too deeply to read"
    except MemoryError:
        return "error", "the record needs too much memory to read"
    except Exception as e:  # a bug of the reader: the client gets a 4xx, the log the traceback
        return "bug", f"{type(e).__name__}: {e}\n{traceback.format_exc()}"
