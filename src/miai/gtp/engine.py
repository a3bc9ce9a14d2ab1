"""The GTP engine: the standard game commands (GTP v2 §6.3) over a :class:`~miai.game.Game`,
plus the common extensions controllers send (GNU Go's, KataGo's rules commands, kgsGtp's
``kgs-rules``/``kgs-time_settings``), composed from one module per group of commands.

:class:`GtpEngine` holds the state every command group shares: the settings for the next
game, the current game, the record last loaded, the clocks, the computer player and its
configuration, and a streaming job for the session (the groups see it as a
:class:`~miai.gtp.state.GtpState`, so that they do not import the engine). It registers on its
:class:`~miai.gtp.protocol.Dispatcher`, in its constructor and nowhere else:

- its own commands: identity, board size, komi, ``play``/``undo``, handicap, records,
  rules, time, ``showboard``;
- :mod:`miai.gtp.position`: GNU Go's questions about the position (``list_stones``,
  ``all_legal``, ``move_history``, ``get_komi``, ...), which Kigo, qgo and GoGui ask;
- :mod:`miai.gtp.counting`: the end of the game (``final_score``, ``final_status_list``,
  ``final_status``, ``estimate_score``);
- :mod:`miai.gtp.genmove`: the computer player (``genmove``, ``lz-analyze``, ``level``,
  ``top_moves_black``/``top_moves_white``), which keeps its player in :attr:`GtpEngine.player`.

Arguments are read at the door by :mod:`miai.gtp.words`, so a bad argument is a
``? syntax error`` that says what was expected, never an internal error.

Start-up: the engine builds its :class:`~miai.game.Game` only when a command needs the
board. ``name``, ``protocol_version``, ``boardsize``, ``clear_board``, ``komi``, the rules
and time commands answer without importing the compiled kernel, so a GUI gets its first
replies at once even when numba still has to compile (first run, empty cache); the
session then calls :meth:`GtpEngine.warm_up` in the background.

Error texts follow the specification (``syntax error``, ``illegal move``, ``cannot undo``,
``unacceptable size``, ``board not empty``, ``invalid number of stones``, ``bad vertex
list``, ``cannot load file``), as GNU Go and KataGo answer them; where it helps a person
reading a log, the reason follows after a colon: ``illegal move: ko (...)``. Controllers
only look at the ``?``.
"""

from __future__ import annotations

import dataclasses
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from miai import __version__, sgf
from miai.clock import TimeControl, TimeLeft
from miai.coords import Color, Move, Point, check_size, point_from_gtp, point_to_gtp
from miai.errors import (
    ClockError,
    HandicapError,
    IllegalMoveError,
    IllegalReason,
    InvalidMoveError,
    MiaiError,
    RulesError,
)
from miai.game import Game, Phase, Resume
from miai.gtp import counting, genmove, katago_rules, position, words
from miai.gtp.protocol import Dispatcher, GtpError
from miai.gtp.resigning import Resigning
from miai.gtp.state import Stream
from miai.gtp.words import gtp_vertices
from miai.handicap import (
    check_free_handicap,
    fixed_handicap_points,
    free_handicap_points,
)
from miai.render.text import diagram
from miai.rules import MAX_KOMI, Rules
from miai.timesource import SYSTEM_TIME

if TYPE_CHECKING:  # pragma: no cover
    from miai.ai.config import MctsConfig
    from miai.ai.mcts import MctsPlayer
    from miai.sgf import SgfRecord

__all__ = ["ENGINE_NAME", "MAX_KOMI", "GtpEngine", "Stream", "board_diagram"]

ENGINE_NAME = "miai"

# The largest komi (either sign) is the rules core's (:data:`miai.rules.MAX_KOMI`): far beyond any
# board's 625 points, well inside what a result can hold. GTP says any komi; like KataGo, miai
# refuses absurd ones with ``? unacceptable komi``.

def _refused(exc: RulesError) -> GtpError:
    """The answer to rules the core refused: ``unacceptable komi`` (GTP's words) for a komi
    beyond :data:`~miai.rules.MAX_KOMI`, else the core's message."""
    text = str(exc)
    return GtpError(f"unacceptable komi: {text}" if text.startswith("komi must be from") else text)


# ---------------------------------------------------------------------- the engine
class GtpEngine:
    """A GTP engine serving one game at a time.

    >>> engine = GtpEngine(size=9)
    >>> engine.handle("1 name")
    '=1 miai\\n\\n'

    ``size``, ``rules`` and ``komi`` are the settings for the next game (``komi`` overrides
    the rules' komi); GTP commands change them. :attr:`game` is the current game, built on
    first use. ``ai_config`` configures the computer player (None: the defaults), and
    ``resigning`` says when it may resign (:class:`~miai.gtp.resigning.Resigning`);
    ``version`` is what ``version`` answers (default: miai's version; see
    :func:`check_version_text` and the README on Lizzie).
    """

    def __init__(
        self,
        size: int = 19,
        rules: Rules | None = None,
        komi: float | None = None,
        *,
        ai_config: MctsConfig | None = None,
        version: str | None = None,
        resigning: Resigning = Resigning.AUTO,
    ) -> None:
        self.size = check_size(size)
        rules = rules if rules is not None else Rules.preset("chinese")
        self.rules: Rules = rules.replace(komi=komi) if komi is not None else rules
        if abs(self.rules.komi) > MAX_KOMI:
            raise RulesError(f"komi must be from {-MAX_KOMI:g} to {MAX_KOMI:g}, not {self.rules.komi:g}")
        self.version = check_version_text(version) if version is not None else __version__
        """What ``version`` answers."""
        self._game: Game | None = None
        self.record: SgfRecord | None = None
        """The :class:`~miai.sgf.SgfRecord` of the file last loaded with ``loadsgf`` (game
        information kept for ``printsgf``), None after ``clear_board`` or ``boardsize``."""
        self.time_control = TimeControl()
        """The time control the controller announced (``time_settings``, ``kgs-time_settings``)."""
        self.time_left: dict[Color, TimeLeft] = {}
        """The last ``time_left`` of each colour, stamped with :data:`miai.timesource.SYSTEM_TIME`'s monotonic milliseconds."""
        self.log: Callable[[str], None] = lambda text: print(text, file=sys.stderr, flush=True)
        """Where warnings for people go (never stdout, which belongs to the protocol)."""
        self.ai_config: MctsConfig | None = ai_config
        self.resigning = resigning
        """When the computer may resign: ``auto`` in timed games (or if ``ai_config`` asks)."""
        """The configuration of the computer player (None: the defaults); ``level`` sets it."""
        self.player: MctsPlayer | None = None
        """The computer player, built by :mod:`miai.gtp.genmove` on first use and kept (with
        its search tree) while :attr:`ai_config` stays the same."""
        self.stream: Stream | None = None
        """A streaming job a handler left for the session to run after its ``=`` line."""
        self.dispatcher = Dispatcher()
        self.dispatcher.register_all(self._commands())
        self.dispatcher.register_all(position.commands(self))
        self.dispatcher.register_all(counting.commands(self))
        self.dispatcher.register_all(genmove.commands(self))

    # ------------------------------------------------------------------ protocol
    def handle(self, line: str) -> str | None:
        """Answer one GTP line (``None`` for a line that gets no answer); never raises."""
        return self.dispatcher.handle(line)

    @property
    def quit_requested(self) -> bool:
        return self.dispatcher.quit_requested

    def _commands(self) -> list[tuple[str, Callable[[Sequence[str]], str | None]]]:
        return [
            ("name", self.cmd_name),
            ("version", self.cmd_version),
            ("boardsize", self.cmd_boardsize),
            ("clear_board", self.cmd_clear_board),
            ("komi", self.cmd_komi),
            ("play", self.cmd_play),
            ("undo", self.cmd_undo),
            ("gg-undo", self.cmd_gg_undo),
            ("fixed_handicap", self.cmd_fixed_handicap),
            ("place_free_handicap", self.cmd_place_free_handicap),
            ("set_free_handicap", self.cmd_set_free_handicap),
            ("showboard", self.cmd_showboard),
            ("loadsgf", self.cmd_loadsgf),
            ("printsgf", self.cmd_printsgf),
            ("time_settings", self.cmd_time_settings),
            ("kgs-time_settings", self.cmd_kgs_time_settings),
            ("time_left", self.cmd_time_left),
            ("kata-get-rules", self.cmd_kata_get_rules),
            ("kata-set-rules", self.cmd_kata_set_rules),
            ("kata-set-rule", self.cmd_kata_set_rule),
            ("kgs-rules", self.cmd_kgs_rules),
        ]

    # ------------------------------------------------------------------ the game
    @property
    def game(self) -> Game:
        """The current game, created (and the kernel loaded) on first use."""
        if self._game is None:
            self._game = self._new_game()
        return self._game

    def _new_game(self, handicap: int = 0) -> Game:

        return Game(self.size, self.rules, handicap=handicap)

    def _board_is_empty(self) -> bool:
        if self._game is None:
            return True
        board = self._game.board
        return not board.stones(Color.BLACK) and not board.stones(Color.WHITE)

    def _reset(self) -> None:
        """A new empty game (built lazily) with the current size and rules."""
        self._game = None
        self.record = None

    def set_rules(self, rules: Rules) -> None:
        """Change the rules (komi included) of the settings and of the game in progress."""
        if self._game is not None and self._game.rules != rules:
            self._game = _with_rules(self._game, rules)
        self.rules = rules

    def warm_up(self) -> None:
        """Load the kernel and compile what a game and a search need (or load them from
        numba's cache), on throw-away games. The session calls this in the background after
        its first reply, so that the first ``play`` or ``genmove`` does not wait for the
        compiler."""

        game = Game(9, self.rules)
        for vertex in ("E5", "C3", "G7", "pass"):
            game.is_legal(vertex)
            game.play(vertex)
        game.undo()
        game.score()
        genmove.warm_up()

    # ------------------------------------------------------------------ argument helpers
    # (the readers of miai.gtp.words, under the names the handlers below use)
    _expect = staticmethod(words.expect)
    _int = staticmethod(words.integer)
    _float = staticmethod(words.number)
    _color = staticmethod(words.color)

    def _vertex(self, word: str) -> Point | None:
        return words.vertex(word, self.size)

    # ------------------------------------------------------------------ identity
    def cmd_name(self, args: Sequence[str]) -> str:
        self._expect(args, 0, "no arguments")
        return ENGINE_NAME

    def cmd_version(self, args: Sequence[str]) -> str:
        """``version``: miai's version, or the text given with ``--version-string``."""
        self._expect(args, 0, "no arguments")
        return self.version

    # ------------------------------------------------------------------ setup
    def cmd_boardsize(self, args: Sequence[str]) -> str:
        """``boardsize N``: 2 to 25; the board is cleared (GTP leaves it undefined)."""
        self._expect(args, 1, "boardsize <size>")
        size = self._int(args[0], "the board size")
        try:
            check_size(size)
        except ValueError:
            raise GtpError("unacceptable size") from None
        self.size = size
        self._reset()
        return ""

    def cmd_clear_board(self, args: Sequence[str]) -> str:
        self._reset()
        return ""

    def cmd_komi(self, args: Sequence[str]) -> str:
        """``komi K``: a number from -1000 to 1000 (:data:`MAX_KOMI`), also in mid-game."""
        self._expect(args, 1, "komi <number>")
        komi = self._float(args[0], "komi")
        try:
            rules = self.rules.replace(komi=komi)
        except RulesError as exc:
            raise _refused(exc) from None
        self._change_rules(rules)
        return ""

    # ------------------------------------------------------------------ play
    def cmd_play(self, args: Sequence[str]) -> str:
        """``play COLOR VERTEX``: either colour may move (GTP allows a colour twice in a row)."""
        self._expect(args, 2, "play <color> <vertex>")
        move = Move(self._color(args[0]), self._vertex(args[1]))
        game = self.game
        _resume_if_marking(game)
        try:
            game.play(move)
        except IllegalMoveError as exc:
            raise GtpError(_illegal_text(exc)) from None
        return ""

    def cmd_undo(self, args: Sequence[str]) -> str:
        """``undo [N]``: take back the last move (or pass); ``cannot undo`` at the start.

        GTP's ``undo`` has no argument, but controllers written for GNU Go send one (qgo
        sends ``undo 0``): like GNU Go, KataGo and Leela Zero, miai takes back one move
        whatever the number is. ``gg-undo N`` takes back N moves.
        """
        if len(args) > 1:
            raise GtpError("syntax error: expected undo [<number>]")
        if args:
            self._int(args[0], "the number of moves", low=0)
        return self._take_back(1)

    def cmd_gg_undo(self, args: Sequence[str]) -> str:
        """``gg-undo [N]`` (GNU Go's extension, which GoGui uses): take back the last N moves
        (1 by default, 0 does nothing); ``cannot undo`` if fewer than N were played."""
        if len(args) > 1:
            raise GtpError("syntax error: expected gg-undo [<number of moves>]")
        return self._take_back(self._int(args[0], "the number of moves", low=0) if args else 1)

    def _take_back(self, count: int) -> str:
        """Take back ``count`` moves (passes included). A resumption after two passes is
        not a move: it goes with the move that followed it (the next ``play`` resumes
        again), so that ``undo`` takes back what the controller played, as GNU Go does."""
        game = self._game
        played = game.move_number if game is not None else 0
        if count > played or played == 0:
            raise GtpError("cannot undo")
        assert game is not None

        if count:
            game = game.after(played - count)  # the last moves, and whatever came after them (a setup, a resumption)
        while game.history and isinstance(game.history[-1], Resume):
            game.undo()
        self._game = game
        return ""

    # ------------------------------------------------------------------ handicap
    def _check_empty_for_handicap(self) -> None:
        if not self._board_is_empty():
            raise GtpError("board not empty")

    def cmd_fixed_handicap(self, args: Sequence[str]) -> str:
        """``fixed_handicap N``: the star points of docs/RULES.md §7, as GNU Go places them."""
        self._expect(args, 1, "fixed_handicap <number of stones>")
        stones = self._int(args[0], "the number of stones")
        self._check_empty_for_handicap()
        try:
            points = fixed_handicap_points(self.size, stones)
        except HandicapError as exc:
            raise GtpError(f"invalid number of stones: {exc}") from None
        self._place_handicap(points, fixed=True)
        return gtp_vertices(points)

    def cmd_place_free_handicap(self, args: Sequence[str]) -> str:
        """``place_free_handicap N``: the engine chooses (see :func:`free_handicap_points`)."""
        self._expect(args, 1, "place_free_handicap <number of stones>")
        stones = self._int(args[0], "the number of stones")
        self._check_empty_for_handicap()
        try:
            points = free_handicap_points(self.size, stones)
        except HandicapError as exc:
            raise GtpError(f"invalid number of stones: {exc}") from None
        self._place_handicap(points)
        return gtp_vertices(points)

    def cmd_set_free_handicap(self, args: Sequence[str]) -> str:
        """``set_free_handicap V1 V2 ...``: the controller's choice of points."""
        self._check_empty_for_handicap()
        points: list[Point] = []
        for word in args:
            try:
                point = point_from_gtp(word, self.size)
            except InvalidMoveError as exc:
                raise GtpError(f"bad vertex list: {exc}") from None
            if point is None:
                raise GtpError("bad vertex list: pass is not a handicap stone")
            points.append(point)
        try:
            check_free_handicap(self.size, points)
        except HandicapError as exc:
            raise GtpError(f"bad vertex list: {exc}") from None
        self._place_handicap(points)
        return ""

    def _place_handicap(self, points: list[Point], *, fixed: bool = False) -> None:
        """A new game with these handicap stones; White to move."""
        self.record = None
        if fixed:
            self._game = self._new_game(handicap=len(points))
        else:
            game = self._new_game()
            game.set_handicap(points)
            self._game = game

    # ------------------------------------------------------------------ records
    def cmd_loadsgf(self, args: Sequence[str]) -> str:
        """``loadsgf FILE [MOVE_NUMBER]``: the position before move MOVE_NUMBER (the end of
        the main line by default; ``loadsgf f 1`` is the starting position, as the
        specification and GNU Go have it), with the record's board size and komi.

        The record's rules are used when it names them (``RU``), else the current rules
        with the record's komi (as KataGo does). The record is read tolerantly: repairs,
        and a replay that stops at an illegal move, are reported on stderr. A result in the
        record does not end the game here: GTP loads a position to continue from.
        """
        if len(args) not in (1, 2):
            raise GtpError("syntax error: expected loadsgf <file> [<move number>]")
        path = args[0]
        before: int | None = None
        if len(args) == 2:
            before = self._int(args[1], "the move number")
            if before < 1:
                raise GtpError(f"syntax error: the move number must be 1 or more, not {before}")

        if not os.path.isfile(path):
            raise GtpError(f"cannot load file: no such file: {path}")
        try:
            record = sgf.read_file(path)
            rules = None if record.rules_text else self.rules
            if rules is not None and record.komi is not None:
                rules = rules.replace(komi=record.komi)
            game = sgf.game_from_record(_replay_part(record, before), rules, strict=False)
        except (MiaiError, OSError, UnicodeError, LookupError, ValueError) as exc:  # LookupError: an unknown CA
            raise GtpError(f"cannot load file: {exc}") from None
        for repair in record.repairs:
            self.log(f"loadsgf {path}: {repair}")
        self._game = game
        self.size = game.size
        self.rules = game.rules
        self.record = record
        return ""

    def cmd_printsgf(self, args: Sequence[str]) -> str:
        """``printsgf [FILE]``: the game as SGF, in the response or (with FILE) into a file
        (GNU Go's extension; ``-`` means the response, as KataGo takes it). After ``loadsgf``
        the record's tree and its own ``RE`` are kept unless the game was played on; what
        was decided about ``RE`` is logged."""
        if len(args) > 1:
            raise GtpError("syntax error: expected printsgf [<file>]")

        notes: list[str] = []
        text = sgf.game_to_sgf(self.game, record=self.record, notes=notes)
        for note in notes:
            self.log(f"printsgf: {note}")
        if not args or args[0] == "-":
            return text
        try:
            with open(args[0], "w", encoding="utf-8") as f:
                f.write(text if text.endswith("\n") else text + "\n")
        except OSError as exc:
            raise GtpError(f"cannot save file: {exc}") from None
        return ""

    # ------------------------------------------------------------------ rules
    def _change_rules(self, rules: Rules) -> None:
        if abs(rules.komi) > MAX_KOMI:
            raise GtpError(f"unacceptable komi: komi must be from {-MAX_KOMI:g} to {MAX_KOMI:g}, not {rules.komi:g}")
        try:
            self.set_rules(rules)
        except (IllegalMoveError, HandicapError) as exc:
            raise GtpError(f"cannot change the rules of this game: {exc}") from None

    def cmd_kata_get_rules(self, args: Sequence[str]) -> str:
        self._expect(args, 0, "no arguments")
        return katago_rules.to_katago_json(self.rules)

    def cmd_kata_set_rules(self, args: Sequence[str]) -> str:
        """``kata-set-rules NAME|JSON``: komi is kept, as in KataGo."""
        if not args:
            raise GtpError("syntax error: expected kata-set-rules <rules name or JSON>")
        text = " ".join(args)
        try:
            rules = katago_rules.from_katago(text, self.rules)
        except RulesError as exc:
            raise _refused(exc) from None
        self._change_rules(rules)
        return ""

    def cmd_kata_set_rule(self, args: Sequence[str]) -> str:
        """``kata-set-rule KEY VALUE``: one KataGo field."""
        self._expect(args, 2, "kata-set-rule <key> <value>")
        try:
            rules = katago_rules.set_katago_rule(self.rules, args[0], args[1])
        except RulesError as exc:
            raise _refused(exc) from None
        self._change_rules(rules)
        return ""

    def cmd_kgs_rules(self, args: Sequence[str]) -> str:
        """``kgs-rules japanese|chinese|aga|new_zealand`` (kgsGtp): komi is kept."""
        self._expect(args, 1, "kgs-rules <japanese|chinese|aga|new_zealand>")
        try:
            rules = katago_rules.from_kgs(args[0], self.rules)
        except RulesError as exc:
            raise _refused(exc) from None
        self._change_rules(rules)
        return ""

    # ------------------------------------------------------------------ time
    def cmd_time_settings(self, args: Sequence[str]) -> str:
        """``time_settings MAIN BYO_YOMI_TIME BYO_YOMI_STONES`` (GTP §4.2, Canadian byo-yomi).

        A byo-yomi time with 0 stones means no time limit; 0 byo-yomi time and 0 stones
        means absolute time.
        """
        try:
            self.time_control = TimeControl.from_gtp_time_settings(args)
        except ClockError as exc:
            raise GtpError(f"syntax error: {exc}") from None
        return ""

    def cmd_kgs_time_settings(self, args: Sequence[str]) -> str:
        """``kgs-time_settings none | absolute MAIN | byoyomi MAIN PERIOD_TIME PERIODS |
        canadian MAIN PERIOD_TIME STONES`` (kgsGtp)."""
        try:
            self.time_control = TimeControl.from_kgs_time_settings(args)
        except ClockError as exc:
            raise GtpError(f"syntax error: {exc}") from None
        return ""

    def cmd_time_left(self, args: Sequence[str]) -> str:
        """``time_left COLOR TIME STONES``: kept in :attr:`time_left` for the player."""
        self._expect(args, 3, "time_left <color> <time> <stones>")
        color = self._color(args[0])
        try:
            self.time_left[color] = TimeLeft.from_gtp(args[1], args[2], at_ms=SYSTEM_TIME.monotonic_ms())
        except ClockError as exc:
            raise GtpError(f"syntax error: {exc}") from None
        return ""

    # ------------------------------------------------------------------ showboard
    def cmd_showboard(self, args: Sequence[str]) -> str:
        """``showboard``: the diagram of :mod:`miai.render.text` (``X`` black, ``O`` white,
        ``+`` star points, the last move in parentheses) in GNU Go's layout, with the
        captures beside the two bottom rows, then the side to move, the ko point and the
        rules."""
        self._expect(args, 0, "no arguments")
        return "\n" + board_diagram(self.game)


# ---------------------------------------------------------------------- helpers
def board_diagram(game: Game) -> str:
    """The ``showboard`` text of ``game``."""
    rows = diagram(game.board, last_move=game.last_move).split("\n")
    if game.size > 1:
        rows[-3] += f"     WHITE (O) has captured {game.captures(Color.WHITE)} stones"
        rows[-2] += f"     BLACK (X) has captured {game.captures(Color.BLACK)} stones"
    last = game.last_move
    info = f"move {game.move_number}"
    if last is not None:
        info += f" ({last.color.letter} {last.gtp()})"
    info += f", {game.to_move} to play"
    if game.ko_point is not None:
        info += f", ko at {point_to_gtp(game.ko_point)}"
    return "\n".join([*rows, info, f"rules: {game.rules}"])


def check_version_text(text: str) -> str:
    """``text`` if it can be the answer to ``version`` (one line of printable text, at most
    100 characters, not blank), else raise a :class:`GtpError` saying why."""
    if not text.strip() or not text.isprintable() or len(text) > 100:
        raise GtpError(f"a version must be one line of printable text, 1 to 100 characters, not {text[:100]!r}")
    return text.strip()


def _illegal_text(exc: IllegalMoveError) -> str:
    """``illegal move: <reason> (<details>)``: the spec's text, then the rule broken."""
    reason = exc.reason.value if isinstance(exc.reason, IllegalReason) else str(exc.reason)
    detail = str(exc)
    return f"illegal move: {reason} ({detail})" if detail else f"illegal move: {reason}"


def _resume_if_marking(game: Game) -> None:
    """After two passes, a ``play`` resumes the game (docs/RULES.md §5.5; GTP has no end of
    game, and kgsGtp sends moves after a dispute about dead stones, as GNU Go accepts)."""

    if game.phase is Phase.MARKING:
        game.resume()


def _with_rules(game: Game, rules: Rules) -> Game:
    """The same game (handicap, setups, moves) under other rules: replayed on a new game,
    since a rule change can change what the history means (superko, suicide, the end of
    play). Raises :class:`IllegalMoveError` if a move of the history is illegal under
    ``rules``."""
    return game.with_rules(rules)


def _replay_part(record: SgfRecord, before: int | None) -> SgfRecord:
    """The part of ``record`` to replay: its events up to (not including) move ``before``,
    and no result (the game stays open for play)."""
    events = list(record.events)
    if before is not None:
        kept, moves = [], 0
        for event in events:
            if isinstance(event, Move):
                moves += 1
                if moves >= before:
                    break
            kept.append(event)
        events = kept
    return dataclasses.replace(record, events=events, result=None)

