"""The GTP engine: the standard game commands (GTP v2 §6.3) over a :class:`~miai.game.Game`,
plus the common extensions controllers send (GNU Go's ``showboard``/``is_legal``/
``printsgf``, KataGo's rules commands, kgsGtp's ``kgs-rules``/``kgs-time_settings``).

Move generation is not here: a player (the AI) adds ``genmove`` later by registering a
handler on :attr:`GtpEngine.dispatcher`; it finds the position in :attr:`GtpEngine.game`
and the clocks in :attr:`GtpEngine.time_control` and :attr:`GtpEngine.time_left`
(:mod:`miai.clock` types).

Start-up: the engine builds its :class:`~miai.game.Game` only when a command needs the
board. ``name``, ``protocol_version``, ``boardsize``, ``clear_board``, ``komi``, the rules
and time commands answer without importing the compiled kernel, so a GUI gets its first
replies at once even when numba still has to compile (first run, empty cache).

Error texts follow the specification (``syntax error``, ``illegal move``, ``cannot undo``,
``unacceptable size``, ``board not empty``, ``invalid number of stones``, ``bad vertex
list``, ``cannot load file``), as GNU Go and KataGo answer them; where it helps a person
reading a log, the reason follows after a colon: ``illegal move: ko (...)``. Controllers
only look at the ``?``.
"""

from __future__ import annotations

import dataclasses
import math
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from miai.clock import TimeControl, TimeLeft, monotonic_ms
from miai.coords import GTP_COLUMNS, Color, Move, Point, check_size, point_from_gtp, point_to_gtp
from miai.errors import ClockError, HandicapError, IllegalMoveError, IllegalReason, InvalidMoveError, MiaiError, RulesError
from miai.gtp import katago_rules
from miai.gtp.protocol import Dispatcher, GtpError
from miai.handicap import fixed_handicap_points, max_fixed_handicap
from miai.render.text import star_points
from miai.rules import Rules
from miai.result import Termination

if TYPE_CHECKING:  # pragma: no cover
    from miai.game import Game

ENGINE_NAME = "miai"


# ---------------------------------------------------------------------- handicap choice
def free_handicap_points(size: int, stones: int) -> list[Point]:
    """Where the engine puts ``stones`` free handicap stones (``place_free_handicap``).

    The fixed placement when the board has one; otherwise the same scheme generalised:
    the star-point layout on lines that suit the board (the 2nd line on 4×4–6×6, the
    centre of 3×3), then, one stone at a time, the point farthest from the stones
    already placed (ties: nearer the centre, then GTP order), keeping off the edge lines
    while that is possible. Raises :class:`HandicapError` unless 2 <= stones < size².
    """
    check_size(size)
    if not 2 <= stones < size * size:
        raise HandicapError(f"a free handicap on {size}x{size} is 2 to {size * size - 1} stones, not {stones}")
    most = max_fixed_handicap(size)
    if 2 <= stones <= most:
        return fixed_handicap_points(size, stones)
    if most >= 2:
        chosen = fixed_handicap_points(size, most)
        line = 3 if size > 11 else 2
    else:
        line = 0 if size <= 2 else 1
        lo, hi, mid = line, size - 1 - line, size // 2
        corners = [(lo, lo), (hi, hi), (hi, lo), (lo, hi)]
        layout = corners + [(mid, lo), (mid, hi), (lo, mid), (hi, mid), (mid, mid)]
        chosen = []
        for p in layout:
            if p not in chosen and len(chosen) < min(stones, 4):
                chosen.append(p)
    centre = (size - 1) / 2
    # squared distance from every free point to the nearest stone, kept up to date
    nearest = {
        (r, c): min((r - q[0]) ** 2 + (c - q[1]) ** 2 for q in chosen)
        for r in range(size)
        for c in range(size)
        if (r, c) not in chosen
    }
    while len(chosen) < stones:
        inner = [p for p in nearest if min(p[0], p[1], size - 1 - p[0], size - 1 - p[1]) >= line]
        best = min(
            inner or nearest,
            key=lambda p: (-nearest[p], (p[0] - centre) ** 2 + (p[1] - centre) ** 2, -p[0], p[1]),
        )
        chosen.append(best)
        del nearest[best]
        for p in nearest:
            d = (p[0] - best[0]) ** 2 + (p[1] - best[1]) ** 2
            if d < nearest[p]:
                nearest[p] = d
    return chosen


def gtp_vertices(points: Sequence[Point]) -> str:
    """Vertices as GNU Go lists them: top row first, left to right (``D16 Q16 D4``)."""
    return " ".join(point_to_gtp(p) for p in sorted(points, key=lambda p: (-p[0], p[1])))


# ---------------------------------------------------------------------- the engine
class GtpEngine:
    """A GTP engine serving one game at a time.

    >>> engine = GtpEngine(size=9)
    >>> engine.handle("1 name")
    '=1 miai\\n\\n'

    ``size``, ``rules`` and ``komi`` are the settings for the next game (``komi`` overrides
    the rules' komi); GTP commands change them. :attr:`game` is the current game, built on
    first use.
    """

    def __init__(self, size: int = 19, rules: Rules | None = None, komi: float | None = None) -> None:
        self.size = check_size(size)
        rules = rules if rules is not None else Rules.preset("chinese")
        self.rules: Rules = rules.replace(komi=komi) if komi is not None else rules
        self._game: Game | None = None
        self.record: Any = None
        """The :class:`~miai.sgf.SgfRecord` of the file last loaded with ``loadsgf`` (game
        information kept for ``printsgf``), None after ``clear_board`` or ``boardsize``."""
        self.time_control = TimeControl()
        """The time control the controller announced (``time_settings``, ``kgs-time_settings``)."""
        self.time_left: dict[Color, TimeLeft] = {}
        """The last ``time_left`` of each colour, stamped with :func:`miai.clock.monotonic_ms`."""
        self.log: Callable[[str], None] = lambda text: print(text, file=sys.stderr, flush=True)
        """Where warnings for people go (never stdout, which belongs to the protocol)."""
        self.dispatcher = Dispatcher()
        self.dispatcher.register_all(self._commands())
        self.ai_config: Any = None
        """The :class:`~miai.ai.mcts.MctsConfig` of the computer player (None: the defaults)."""
        from miai.gtp import genmove

        genmove.install(self)  # genmove, reg_genmove, kgs-genmove_cleanup, lz-analyze

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
            ("fixed_handicap", self.cmd_fixed_handicap),
            ("place_free_handicap", self.cmd_place_free_handicap),
            ("set_free_handicap", self.cmd_set_free_handicap),
            ("is_legal", self.cmd_is_legal),
            ("captures", self.cmd_captures),
            ("showboard", self.cmd_showboard),
            ("loadsgf", self.cmd_loadsgf),
            ("printsgf", self.cmd_printsgf),
            ("final_score", self.cmd_final_score),
            ("final_status_list", self.cmd_final_status_list),
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
        from miai.game import Game

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
        """Load the kernel and compile what a game needs (or load it from numba's cache),
        on a throw-away game. The session calls this in the background after its first
        reply, so that the first ``play`` does not wait for the compiler."""
        from miai.game import Game

        game = Game(9, self.rules)
        for vertex in ("E5", "C3", "G7", "pass"):
            game.is_legal(vertex)
            game.play(vertex)
        game.undo()
        game.score()

    # ------------------------------------------------------------------ argument helpers
    @staticmethod
    def _expect(args: Sequence[str], count: int, usage: str) -> None:
        if len(args) != count:
            raise GtpError(f"syntax error: expected {usage}")

    @staticmethod
    def _int(word: str, what: str) -> int:
        try:
            return int(word)
        except ValueError:
            raise GtpError(f"syntax error: {what} must be an integer, not {word!r}") from None

    @staticmethod
    def _float(word: str, what: str) -> float:
        try:
            value = float(word)
        except ValueError:
            raise GtpError(f"syntax error: {what} must be a number, not {word!r}") from None
        if not math.isfinite(value):
            raise GtpError(f"syntax error: {what} must be a finite number, not {word!r}")
        return value

    @staticmethod
    def _color(word: str) -> Color:
        try:
            return Color.parse(word)
        except InvalidMoveError:
            raise GtpError(f"syntax error: invalid color {word!r} (expected black or white)") from None

    def _vertex(self, word: str) -> Point | None:
        try:
            return point_from_gtp(word, self.size)
        except InvalidMoveError as exc:
            raise GtpError(f"syntax error: {exc}") from None

    # ------------------------------------------------------------------ identity
    def cmd_name(self, args: Sequence[str]) -> str:
        return ENGINE_NAME

    def cmd_version(self, args: Sequence[str]) -> str:
        from miai import __version__

        return __version__

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
        """``komi K``: any finite number, also in mid-game."""
        self._expect(args, 1, "komi <number>")
        komi = self._float(args[0], "komi")
        self._change_rules(self.rules.replace(komi=komi))
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
        """``undo``: take back the last move (or pass); ``cannot undo`` at the start."""
        self._expect(args, 0, "no arguments")
        game = self._game
        if game is None or game.move_number == 0:
            raise GtpError("cannot undo")
        game.undo()
        return ""

    def cmd_is_legal(self, args: Sequence[str]) -> str:
        """``is_legal COLOR VERTEX``: ``1`` or ``0`` (GNU Go's extension)."""
        self._expect(args, 2, "is_legal <color> <vertex>")
        move = Move(self._color(args[0]), self._vertex(args[1]))
        return "1" if self.game.is_legal(move) else "0"

    def cmd_captures(self, args: Sequence[str]) -> str:
        """``captures COLOR``: the number of stones that colour has captured."""
        self._expect(args, 1, "captures <color>")
        color = self._color(args[0])
        return str(self.game.captures(color))

    # ------------------------------------------------------------------ handicap
    def _check_empty_for_handicap(self) -> None:
        if not self._board_is_empty():
            raise GtpError("board not empty")

    def cmd_fixed_handicap(self, args: Sequence[str]) -> str:
        """``fixed_handicap N``: the star points of RULES.md §7, as GNU Go places them."""
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
        from miai.handicap import check_free_handicap

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
        from miai import sgf

        if not os.path.isfile(path):
            raise GtpError(f"cannot load file: no such file: {path}")
        try:
            record = sgf.read_file(path)
            rules = None if record.rules_text else self.rules
            if rules is not None and record.komi is not None:
                rules = rules.replace(komi=record.komi)
            game = sgf.game_from_record(_replay_part(record, before), rules, strict=False)
        except (MiaiError, OSError, UnicodeError, ValueError) as exc:
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
        from miai import sgf

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

    # ------------------------------------------------------------------ scoring
    def cmd_final_score(self, args: Sequence[str]) -> str:
        """``final_score``: ``B+3.5``, ``W+1``, ``0``.

        A finished game answers its result (a void game ``0``: GTP has no other word for no
        result). Otherwise, under rules that remove dead stones, the position is counted
        with miai's estimate of the dead and seki stones (:func:`miai.ai.status.
        estimate_status`, seeded: the same position gives the same answer); under rules
        that count stones as they stand (Tromp-Taylor, simple), as it stands.
        """
        self._expect(args, 0, "no arguments")
        from miai.game import Phase

        game = self.game
        if game.phase is Phase.FINISHED and game.result is not None:
            result = game.result
            return "0" if result.by is Termination.VOID else str(result)
        try:
            if not game.rules.remove_dead_stones:
                return str(game.score().result)
            return str(self._status_estimate().score.result)
        except MiaiError as exc:
            raise GtpError(f"cannot score: {exc}") from None

    def _status_estimate(self) -> Any:
        from miai.ai.status import estimate_status

        return estimate_status(self.game, seed=1)

    _AREAS = {"black_territory": Color.BLACK, "white_territory": Color.WHITE, "dame": None}

    def cmd_final_status_list(self, args: Sequence[str]) -> str:
        """``final_status_list alive|dead|seki``: the stones with that status, one chain per
        line (as GNU Go prints them), from miai's estimate of the position; after a game
        ended by agreement, ``dead`` lists the agreed dead stones.

        ``final_status_list black_territory|white_territory|dame``: the points that count as
        Black's or White's territory, or for nobody, on one line, top row first (as GNU Go
        prints them): empty points and the points of dead stones, counted under the game's
        rules as ``final_score`` counts them (seki points are dame under territory scoring;
        under area scoring an eye of a seki group is its owner's)."""
        usage = "final_status_list alive|dead|seki|black_territory|white_territory|dame"
        self._expect(args, 1, usage)
        wanted = args[0].lower()
        if wanted in self._AREAS:
            return self._final_area(self._AREAS[wanted])
        if wanted not in ("alive", "dead", "seki"):
            raise GtpError(f"syntax error: expected {usage}")
        est = self._status_estimate()
        final = self.game.final_score
        agreed = final.dead_stones if final is not None and final.dead_stones else None
        lines = []
        for chain in sorted(est.chains, key=lambda ch: min(ch.stones)):
            status = chain.status
            if agreed is not None:
                status = "dead" if chain.stones <= agreed else ("alive" if status == "dead" else status)
            if status == wanted:
                lines.append(" ".join(point_to_gtp(p) for p in sorted(chain.stones, key=lambda q: (q[1], q[0]))))
        return "\n".join(lines)

    def _final_area(self, owner: Color | None) -> str:
        game = self.game
        final = game.final_score
        try:
            if final is not None and final.owners:
                score = final
            elif not game.rules.remove_dead_stones:
                score = game.score()
            else:
                score = self._status_estimate().score
        except MiaiError as exc:
            raise GtpError(f"cannot score: {exc}") from None
        board, size = game.board, game.board.size
        points = []
        for r in range(size - 1, -1, -1):
            for c in range(size):
                if board[(r, c)] is not None and (r, c) not in score.dead_stones:
                    continue
                v = score.owners[r][c]
                if (Color(v) if v else None) is owner:
                    points.append(point_to_gtp((r, c)))
        return " ".join(points)

    # ------------------------------------------------------------------ rules
    def _change_rules(self, rules: Rules) -> None:
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
            raise GtpError(str(exc)) from None
        self._change_rules(rules)
        return ""

    def cmd_kata_set_rule(self, args: Sequence[str]) -> str:
        """``kata-set-rule KEY VALUE``: one KataGo field."""
        self._expect(args, 2, "kata-set-rule <key> <value>")
        try:
            rules = katago_rules.set_katago_rule(self.rules, args[0], args[1])
        except RulesError as exc:
            raise GtpError(str(exc)) from None
        self._change_rules(rules)
        return ""

    def cmd_kgs_rules(self, args: Sequence[str]) -> str:
        """``kgs-rules japanese|chinese|aga|new_zealand`` (kgsGtp): komi is kept."""
        self._expect(args, 1, "kgs-rules <japanese|chinese|aga|new_zealand>")
        try:
            rules = katago_rules.from_kgs(args[0], self.rules)
        except RulesError as exc:
            raise GtpError(str(exc)) from None
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
            self.time_left[color] = TimeLeft.from_gtp(args[1], args[2], at_ms=monotonic_ms())
        except ClockError as exc:
            raise GtpError(f"syntax error: {exc}") from None
        return ""

    # ------------------------------------------------------------------ showboard
    def cmd_showboard(self, args: Sequence[str]) -> str:
        """``showboard``: a diagram in GNU Go's layout (``X`` black, ``O`` white, ``+`` star
        points), with the captures, the side to move, the ko point, komi and rules."""
        self._expect(args, 0, "no arguments")
        return "\n" + board_diagram(self.game)


# ---------------------------------------------------------------------- helpers
def board_diagram(game: Game) -> str:
    """The ``showboard`` text of ``game``."""
    size = game.size
    letters = " ".join(GTP_COLUMNS[:size])
    width = 2
    stars = set(star_points(size))
    side = {
        1: f"WHITE (O) has captured {game.captures(Color.WHITE)} stones",
        0: f"BLACK (X) has captured {game.captures(Color.BLACK)} stones",
    }
    lines = [f"{'':{width}} {letters}"]
    for r in range(size - 1, -1, -1):
        cells = []
        for c in range(size):
            stone = game.board[(r, c)]
            cells.append("X" if stone is Color.BLACK else "O" if stone is Color.WHITE else "+" if (r, c) in stars else ".")
        line = f"{r + 1:>{width}} {' '.join(cells)} {r + 1}"
        if r in side and size > 1:
            line += f"     {side[r]}"
        lines.append(line)
    lines.append(f"{'':{width}} {letters}")
    last = game.last_move
    info = f"move {game.move_number}"
    if last is not None:
        info += f" ({last.color.letter} {last.gtp()})"
    info += f", {game.to_move} to play"
    if game.ko_point is not None:
        info += f", ko at {point_to_gtp(game.ko_point)}"
    lines.append(info)
    lines.append(f"rules: {game.rules}")
    return "\n".join(lines)


def _illegal_text(exc: IllegalMoveError) -> str:
    """``illegal move: <reason> (<details>)``: the spec's text, then the rule broken."""
    reason = exc.reason.value if isinstance(exc.reason, IllegalReason) else str(exc.reason)
    detail = str(exc)
    return f"illegal move: {reason} ({detail})" if detail else f"illegal move: {reason}"


def _resume_if_marking(game: Game) -> None:
    """After two passes, a ``play`` resumes the game (RULES.md §5.5; GTP has no end of
    game, and kgsGtp sends moves after a dispute about dead stones, as GNU Go accepts)."""
    from miai.game import Phase

    if game.phase is Phase.MARKING:
        game.resume()


def _with_rules(game: Game, rules: Rules) -> Game:
    """The same game (handicap, setups, moves) under other rules: replayed on a new game,
    since a rule change can change what the history means (superko, suicide, the end of
    play). Raises :class:`IllegalMoveError` if a move of the history is illegal under
    ``rules``."""
    return game.with_rules(rules)


def _replay_part(record: Any, before: int | None) -> Any:
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

