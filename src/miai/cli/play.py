"""``miai play``: a game of Go in the terminal.

The loop asks the player whose turn it is for an :data:`Action` (``player.choose_move(game)``)
and applies it to the :class:`~miai.game.Game`; an illegal move is explained and the same
player is asked again. :class:`HumanPlayer` reads commands from the terminal; a computer
player only has to implement ``choose_move`` too.

Commands: a vertex (``D4``, any case), ``pass``, ``undo``, ``resign``, ``score``,
``save FILE.sgf``, ``board``, ``help``, ``quit``. End of input quits cleanly.

After two passes (under rules that remove dead stones) the marking phase follows the
agreement of RULES.md §5 (:mod:`miai.endgame`): the first passer starts from the computer's
estimate of the dead stones (:func:`estimate_dead_stones`), toggles chains by vertex and
proposes; the opponent accepts or proposes their own set; the first passer accepts that or
resumes play. A computer player takes its steps from the estimate.
"""

from __future__ import annotations

import argparse
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from miai.cli.terminal import Terminal
from miai.coords import GTP_COLUMNS, Color, Move, Point, point_from_gtp, point_to_gtp
from miai.errors import HandicapError, IllegalMoveError, InvalidMoveError, MiaiError
from miai.endgame import Marking
from miai.game import Game, Phase
from miai.render import rich_diagram
from miai.rules import Rules, Scoring
from miai.result import Result, Termination

if TYPE_CHECKING:  # pragma: no cover
    from miai.ai.mcts import SearchStats

# ---------------------------------------------------------------------------- actions


@dataclass(frozen=True, slots=True)
class Play:
    """Place a stone on ``point``, or pass when ``point`` is None."""

    point: Point | None


@dataclass(frozen=True, slots=True)
class Resign:
    """The player to move gives up."""


@dataclass(frozen=True, slots=True)
class Undo:
    """Take back the last move."""


@dataclass(frozen=True, slots=True)
class Quit:
    """Leave the game unfinished (also what end of input means)."""


Action = Play | Resign | Undo | Quit


class Player(Protocol):
    """Anything that can choose what to do when it is its turn."""

    name: str

    def choose_move(self, game: Game) -> Action: ...


# ---------------------------------------------------------------------------- texts

STONE_LETTER = {Color.BLACK: "X", Color.WHITE: "O"}

HELP = """\
Commands (any case):
  D4             play a stone there (columns A-Z without I, row 1 at the bottom)
  pass           pass; two passes in a row end the game
  undo           take back the last move
  resign         give up the game
  score          count the position as it stands (all stones alive)
  save FILE.sgf  write the game record
  board          draw the board again
  help           this list
  quit           leave the game (end of input does the same)"""

MARKING_HELP = """\
Marking the dead stones (any case):
  D4 E5 ...      mark or unmark the chains through these stones (dead stones are drawn x and o)
  none           unmark every stone
  Enter, done    propose the marked stones as dead (the other player answers)
  accept, yes    accept the other player's proposal: the game is counted
  resume         refuse the other player's counter-proposal: play resumes
                 (if both players then pass at once, all stones count as alive)
  score          count the position with the marked stones dead
  board          draw the board with the marks again
  undo           take back the last proposal, or the last pass
  quit           leave the game unfinished"""

SIMPLE_COMMANDS = ("pass", "undo", "resign", "quit", "exit", "help", "?", "score", "board")
"""Commands that take no arguments."""


def name(color: Color) -> str:
    return str(color).capitalize()


def explain_illegal(error: IllegalMoveError) -> str:
    """The rule a move breaks and why, as the game says it (superko names the move)."""
    return f"Illegal move ({error.reason.value}): {error}."


def explain_bad_vertex(word: str, size: int) -> str | None:
    """Why ``word`` is not a vertex of this board, or None if it does not look like one."""
    w = word.upper()
    if len(w) >= 2 and w[0].isalpha() and w[1:].isdigit():
        if w[0] == "I":
            return f"There is no column I: GTP coordinates skip it (columns are {GTP_COLUMNS[0]}-{GTP_COLUMNS[size - 1]})."
        try:
            point_from_gtp(w, size)
        except InvalidMoveError as exc:
            last = GTP_COLUMNS[size - 1]
            return f"{exc}: columns are A-{last}, rows 1-{size}."
    return None


def describe_rules(rules: Rules) -> str:
    """The rules' text form, with the komi said even when it is the preset's."""
    text = str(rules)
    return text if "komi=" in text else f"{text}, komi {rules.komi:g}"


def vertices(points: Collection[Point]) -> str:
    """``C3 D4`` (column by column), or ``none``."""
    return " ".join(point_to_gtp(p) for p in sorted(points, key=lambda p: (p[1], p[0]))) or "none"


# ---------------------------------------------------------------------------- dead stones


@dataclass(frozen=True, slots=True)
class DeadStoneEstimate:
    """The computer's view of the dead and seki stones, and how it was made."""

    dead: frozenset[Point]
    seki: frozenset[Point]
    note: str


def estimate_dead_stones(game: Game) -> DeadStoneEstimate:
    """The status estimator's dead and seki stones (:mod:`miai.ai.status`); none, saying so,
    when the estimator is not installed."""
    try:
        from miai.ai.status import estimate_status
    except ImportError:
        return DeadStoneEstimate(
            frozenset(),
            frozenset(),
            "The status estimator (miai.ai.status) is not available: the computer proposes no dead stones.",
        )
    estimate = estimate_status(game)
    dead, seki = frozenset(estimate.dead), frozenset(estimate.seki)
    note = f"The computer's estimate of the dead stones is marked (x, o): {vertices(dead)}."
    if seki:
        note += f" In seki: {vertices(seki)}."
    return DeadStoneEstimate(dead, seki, note)


def toggle_chains(game: Game, dead: set[Point], points: Collection[Point]) -> None:
    """Mark the chains through ``points`` dead, or alive again if they were marked."""
    for point in points:
        chain = set(game.board.chain(point))
        if point in dead:
            dead -= chain
        else:
            dead |= chain


# ---------------------------------------------------------------------------- commands shared by players


def show_board(terminal: Terminal, game: Game) -> None:
    """The board, then the stones each side has captured and the last move."""
    terminal.show(rich_diagram(game.board, last_move=game.last_move))
    terminal.say(
        f"Stones captured by Black (X): {game.captures(Color.BLACK)}, by White (O): {game.captures(Color.WHITE)}"
    )
    last = game.last_move
    if last is None:
        terminal.say("No moves yet.")
    elif last.point is None:
        terminal.say(f"Move {game.move_number}: {name(last.color)} passed.")
    else:
        terminal.say(f"Move {game.move_number}: {name(last.color)} {point_to_gtp(last.point)}")


def show_score(terminal: Terminal, game: Game, *, dead: Collection[Point] = ()) -> None:
    """The count of the position as it stands (``dead`` stones removed), with the rules' name."""
    score = game.score(frozenset(dead))
    note = "with the marked stones dead" if dead else "all stones counted as alive"
    terminal.say(f"Count under {describe_rules(game.rules)} ({note}):")
    terminal.say(str(score))


def save_game(terminal: Terminal, game: Game, path: str) -> bool:
    """Write the record to ``path``; say what happened. True if written."""
    try:
        from miai.sgf import game_to_sgf
    except ImportError:
        terminal.say("Saving is not available: miai.sgf is missing.")
        return False
    try:
        text = game_to_sgf(game)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as exc:
        terminal.say(f"Could not save to {path}: {exc.strerror or exc}.")
        return False
    terminal.say(f"Saved the game to {path}.")
    return True


# ---------------------------------------------------------------------------- the human player


class HumanPlayer:
    """A person at the keyboard: reads commands until one of them is an action."""

    def __init__(self, terminal: Terminal, name: str):
        self.terminal = terminal
        self.name = name

    def choose_move(self, game: Game) -> Action:
        color = game.to_move
        prompt = f"{name(color)} ({STONE_LETTER[color]}) move {game.move_number + 1}> "
        while True:
            try:
                line = self.terminal.ask(prompt)
            except EOFError:
                return Quit()
            action = self.interpret(line, game)
            if action is not None:
                return action

    def interpret(self, line: str, game: Game) -> Action | None:
        """The action ``line`` asks for, or None after answering a question or an error."""
        say = self.terminal.say
        words = line.split()
        if not words:
            return None
        command, args = words[0].lower(), words[1:]
        if command == "save":
            if not args:
                say("Usage: save FILE.sgf")
            else:
                save_game(self.terminal, game, line.strip()[len(words[0]) :].strip())
            return None
        if command in SIMPLE_COMMANDS and args:
            say(f"'{command}' takes no arguments.")
            return None
        if command == "pass":
            return Play(None)
        if command == "undo":
            return Undo()
        if command == "resign":
            return Resign()
        if command in ("quit", "exit"):
            return Quit()
        if command in ("help", "?"):
            say(HELP)
            return None
        if command == "score":
            show_score(self.terminal, game)
            return None
        if command == "board":
            show_board(self.terminal, game)
            return None
        if len(words) > 1:
            say(f"Unknown command {words[0]!r}. Type help for the list of commands.")
            return None
        try:
            return Play(point_from_gtp(command, game.size))
        except InvalidMoveError:
            why = explain_bad_vertex(command, game.size)
            say(why or f"Unknown command {words[0]!r}. Type help for the list of commands.")
            return None




# ---------------------------------------------------------------------------- the computer player


class AiPlayer:
    """The computer (:class:`miai.ai.mcts.MctsPlayer`): thinks with a progress line on the
    terminal, then plays, passes or (when clearly lost) resigns."""

    def __init__(self, terminal: Terminal, name: str, level: int = 5, seconds: float | None = None):
        from miai.ai.mcts import MctsConfig, MctsPlayer

        changes: dict[str, object] = {"resign": True}
        if seconds is not None:
            changes["max_seconds"] = seconds
        self.terminal = terminal
        self.name = name
        self.level = level
        self.engine = MctsPlayer(MctsConfig.for_level(level, **changes))

    def choose_move(self, game: Game) -> Action:
        color = game.to_move
        who = f"{name(color)} ({self.name}, level {self.level})"
        with self.terminal.console.status(f"{who} is thinking...") as status:

            def progress(stats: SearchStats) -> None:
                best = stats.best
                line = f"{who} is thinking: {stats.playouts} playouts, {stats.seconds:.1f} s"
                if best is not None:
                    line += f", best {point_to_gtp(best.point)} ({best.winrate:.0%})"
                status.update(line)

            decision = self.engine.genmove(game, progress=progress)
        if decision.resign:
            return Resign()
        what = "passes" if decision.point is None else f"plays {point_to_gtp(decision.point)}"
        self.terminal.say(f"{who} {what} (win rate {decision.winrate:.0%}, {decision.playouts} playouts).")
        return Play(decision.point)


# ---------------------------------------------------------------------------- the session


class PlaySession:
    """One game from its first move to its result, between two players at one terminal."""

    def __init__(self, game: Game, players: Mapping[Color, Player], terminal: Terminal):
        self.game = game
        self.players = dict(players)
        self.terminal = terminal
        self._estimate: tuple[int, DeadStoneEstimate] | None = None
        """The computer's dead-stone estimate and the position hash it is for."""

    def run(self) -> int:
        """Play until the game ends or a player quits; returns the exit code (0)."""
        game, say = self.game, self.terminal.say
        self.show()
        while True:
            if game.phase is Phase.FINISHED:
                self.announce_result()
                self.offer_save()
                return 0
            if game.phase is Phase.MARKING:
                if not self.agree_on_dead_stones():
                    say("Game left unfinished.")
                    return 0
                continue
            color = game.to_move
            action = self.players[color].choose_move(game)
            if isinstance(action, Quit):
                say(f"Game left unfinished after {game.move_number} moves.")
                return 0
            if isinstance(action, Resign):
                game.resign(color)
                say(f"{name(color)} resigns.")
                continue
            if isinstance(action, Undo):
                self.undo()
                # against miai's AI, take back its reply too: the person moves again
                reply = self.players[game.to_move]
                if game.move_number > 0 and game.phase is Phase.PLAY and isinstance(reply, AiPlayer):
                    self.undo()
                continue
            try:
                game.play(Move(color, action.point))
            except IllegalMoveError as exc:
                say(explain_illegal(exc))
                continue
            if game.phase is Phase.PLAY:
                self.show()

    def show(self) -> None:
        show_board(self.terminal, self.game)
        last = self.game.last_move
        if last is not None and last.point is None:
            self.terminal.say("Another pass ends the game.")

    def undo(self) -> None:
        game = self.game
        if game.move_number == 0:
            self.terminal.say("Nothing to undo.")
            return
        last = game.last_move
        assert last is not None  # moves were played
        number = game.move_number
        game.undo()
        what = f"{name(last.color)}'s pass" if last.point is None else f"{name(last.color)} {point_to_gtp(last.point)}"
        self.terminal.say(f"Took back move {number} ({what}).")
        self.show()

    # -- end of the game: the dead-stone agreement (RULES.md §5)

    def agree_on_dead_stones(self) -> bool:
        """One step of the marking phase, by the player whose step it is: a human is asked
        (:meth:`ask_marking_step`), a computer answers with the status estimate
        (:meth:`computer_marking_step`). Returns False if the players quit."""
        marking = self.game.marking
        assert marking is not None  # the game is in the marking phase
        if marking.pending is None:
            self.introduce_marking(marking.first)
        if isinstance(self.players[marking.to_act], HumanPlayer):
            return self.ask_marking_step(marking)
        self.computer_marking_step(marking)
        return True

    def introduce_marking(self, first: Color) -> None:
        term = self.terminal
        term.say(
            f"Both players passed: the marking phase. {name(first)}, who passed first, marks the dead stones "
            f"of both colours; {name(first.opponent)} accepts, or marks the set they see instead; "
            f"{name(first)} then accepts that, or play resumes."
        )
        term.say(self.estimate().note)

    def estimate(self) -> DeadStoneEstimate:
        """The computer's estimate of the dead (and seki) stones of the position, once per position."""
        key = self.game.board.hash
        if self._estimate is None or self._estimate[0] != key:
            self._estimate = (key, estimate_dead_stones(self.game))
        return self._estimate[1]

    def show_marked(self, dead: Collection[Point]) -> None:
        """The board with ``dead`` stones drawn lower-case, and what they are."""
        self.terminal.show(rich_diagram(self.game.board, dead=dead))
        self.terminal.say(f"Marked dead: {vertices(dead)}.")

    def ask_marking_step(self, marking: Marking) -> bool:
        """Ask the player to act for their step: propose (toggling chains by vertex), accept,
        or resume play; ``score``, ``board``, ``help``, ``undo`` and ``quit`` work too."""
        game, term = self.game, self.terminal
        color = marking.to_act
        pending, countered = marking.pending, marking.counter is not None
        if pending is None:
            dead, seki = set(self.estimate().dead), set(self.estimate().seki)
            prompt = f"{name(color)} ({STONE_LETTER[color]}) marks dead stones> "
        else:
            dead, seki = set(pending.dead), set(pending.seki)
            what = "counter-proposal" if countered else "proposal"
            term.say(f"{name(pending.by)}'s {what}: dead {vertices(pending.dead)}.")
            choices = "accept or resume" if countered else "accept or mark dead stones"
            prompt = f"{name(color)} ({STONE_LETTER[color]}) {choices}> "
        self.show_marked(dead)
        while True:
            try:
                line = term.ask(prompt)
            except EOFError:
                return False
            words = line.replace(",", " ").split()
            command = words[0].lower() if words else ""
            try:
                if command in ("quit", "exit"):
                    return False
                if command in ("help", "?"):
                    term.say(MARKING_HELP)
                elif command == "board":
                    self.show_marked(dead)
                elif command == "score":
                    show_score(term, game, dead=dead)
                elif command == "undo":
                    self.undo_marking_step()
                    return True
                elif command in ("accept", "yes"):
                    game.accept(color)
                    return True
                elif command == "resume":
                    game.refuse(color)
                    self.announce_resumption(color)
                    return True
                elif command in ("none", "clear"):
                    dead.clear()
                    self.show_marked(dead)
                elif command in ("", "done", "propose"):
                    if pending is not None and not countered and dead == set(pending.dead):
                        term.say(
                            f"That is {name(pending.by)}'s proposal unchanged: "
                            "type accept to agree, or mark stones to change it."
                        )
                        continue
                    game.propose(dead, seki=seki - dead, color=color)
                    return True
                else:
                    points = self.parse_vertices(words)
                    if points is not None:
                        toggle_chains(game, dead, points)
                        self.show_marked(dead)
            except IllegalMoveError as exc:
                term.say(f"Not now ({exc.reason.value}): {exc}.")

    def parse_vertices(self, words: list[str]) -> list[Point] | None:
        """The stones ``words`` name, or None after saying what is wrong with them."""
        game, say = self.game, self.terminal.say
        points: list[Point] = []
        for word in words:
            try:
                point = point_from_gtp(word, game.size)
            except InvalidMoveError as exc:
                say(explain_bad_vertex(word, game.size) or f"{exc}. Type help for the marking commands.")
                return None
            if point is None:
                say("'pass' is not a stone.")
                return None
            if game.board[point] is None:
                say(f"There is no stone on {point_to_gtp(point)}.")
                return None
            points.append(point)
        return points

    def computer_marking_step(self, marking: Marking) -> None:
        """A computer proposes its estimate, accepts a proposal equal to it, and otherwise
        counter-proposes its estimate (or, facing a counter-proposal, refuses: play resumes)."""
        game, say = self.game, self.terminal.say
        color, pending = marking.to_act, marking.pending
        estimate = self.estimate()
        if pending is not None and pending.dead == estimate.dead:
            say(f"{name(color)} accepts {name(pending.by)}'s proposal.")
            game.accept(color)
        elif pending is None or marking.counter is None:
            proposal = game.propose(estimate.dead, seki=estimate.seki, color=color)
            say(f"{name(color)} proposes dead: {vertices(proposal.dead)}.")
        else:
            game.refuse(color)
            self.announce_resumption(color)

    def announce_resumption(self, color: Color) -> None:
        self.terminal.say(
            f"{name(color)} refuses: no agreement, play resumes and {name(self.game.to_move)} moves. "
            "If both players now pass at once, all stones count as alive."
        )
        if self.game.rules.scoring is Scoring.TERRITORY:
            self.terminal.say(
                "Stones played inside one's own territory to capture stones one marked dead (and the other did not) "
                "are compensated, one point each."
            )
        show_board(self.terminal, self.game)

    def undo_marking_step(self) -> None:
        """Take back the last proposal, or the last pass when there is none."""
        game = self.game
        marking = game.marking
        pending = marking.pending if marking is not None else None
        if pending is None:
            self.undo()
            return
        game.undo()
        self.terminal.say(f"Took back {name(pending.by)}'s proposal.")

    def announce_result(self) -> None:
        game, term = self.game, self.terminal
        score = game.final_score
        if score is not None:
            term.show(rich_diagram(game.board, last_move=game.last_move, dead=score.dead_stones))
            term.say(str(score))
        result = game.result or Result(None, Termination.UNKNOWN)
        term.say(f"Game over: {game.end_reason}.")
        term.say(f"Result: {result}. {result.describe()}")

    def offer_save(self) -> None:
        term = self.terminal
        while True:
            try:
                path = term.ask("Save the game? File name (Enter to skip): ").strip()
            except EOFError:
                return
            if path.lower().startswith("save "):
                path = path[5:].strip()
            if not path or save_game(term, self.game, path):
                return


# ---------------------------------------------------------------------------- command line


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "play",
        help="play a game in the terminal",
        description="A game of Go in the terminal: two people at one keyboard, a person against the "
        "computer (--white ai or --black ai, --level 1-10), or the computer against itself. "
        "Type help during the game for the commands.",
    )
    p.add_argument("--size", type=int, default=19, help="board size, 2 to 25 (default 19)")
    p.add_argument(
        "--rules",
        default="chinese",
        help="a preset (simple, chinese, japanese, korean, aga, new-zealand, tromp-taylor) "
        "optionally followed by key=value changes, e.g. 'japanese komi=0.5' (default chinese)",
    )
    p.add_argument("--komi", type=float, help="komi (default: the rules' komi; 0.5 in handicap games)")
    p.add_argument("--handicap", type=int, default=0, metavar="N", help="handicap stones for Black, 2 to 9")
    p.add_argument(
        "--free-handicap", action="store_true", help="Black places the handicap stones instead of the star points"
    )
    p.add_argument("--black", choices=("human", "ai"), default="human", help="who plays Black (default human)")
    p.add_argument("--white", choices=("human", "ai"), default="human", help="who plays White (default human)")
    p.add_argument(
        "--level", type=int, default=5, choices=range(1, 11), metavar="N",
        help="the computer's strength, 1 (a few playouts) to 10 (the full budget); default 5",
    )
    p.add_argument("--seconds", type=float, help="most seconds the computer thinks per move (default 5)")
    p.set_defaults(func=run)


def new_game(args: argparse.Namespace, terminal: Terminal) -> Game | None:
    """The game the options describe, with free handicap stones asked for; None on quit."""
    rules = Rules.parse(args.rules)
    if args.komi is not None:
        rules = rules.replace(komi=args.komi)
    elif args.handicap >= 2 and not any(w.lower().startswith("komi=") for w in args.rules.split()):
        rules = rules.replace(komi=0.5)
    if args.handicap and not args.free_handicap:
        return Game(args.size, rules, handicap=args.handicap)
    game = Game(args.size, rules)
    if args.handicap:
        if not place_free_handicap(game, args.handicap, terminal):
            return None
    return game


def place_free_handicap(game: Game, count: int, terminal: Terminal) -> bool:
    """Ask Black for ``count`` points and place them; False if the input ends."""
    terminal.show(rich_diagram(game.board))
    terminal.say(f"Black places {count} handicap stones: list {count} vertices (e.g. D4 Q16).")
    while True:
        try:
            line = terminal.ask("handicap> ")
        except EOFError:
            return False
        if line.strip().lower() in ("quit", "exit"):
            return False
        words = line.replace(",", " ").split()
        points: list[Point] = []
        try:
            for word in words:
                point = point_from_gtp(word, game.size)
                if point is None:
                    raise InvalidMoveError("'pass' is not a point")
                points.append(point)
            if len(points) != count:
                terminal.say(f"Give exactly {count} vertices ({len(points)} given).")
                continue
            game.set_handicap(points)
            return True
        except (InvalidMoveError, HandicapError) as exc:
            terminal.say(f"{exc}.")


def make_player(args: argparse.Namespace, terminal: Terminal, color: Color) -> Player:
    """The player the options ask for: ``--black``/``--white`` ``human`` or ``ai``."""
    if getattr(args, str(color), "human") == "ai":
        return AiPlayer(terminal, "miai", level=getattr(args, "level", 5), seconds=getattr(args, "seconds", None))
    return HumanPlayer(terminal, name(color))


def run(args: argparse.Namespace, terminal: Terminal | None = None) -> int:
    terminal = terminal or Terminal()
    try:
        game = new_game(args, terminal)
    except (MiaiError, ValueError) as exc:
        terminal.say(f"miai play: {exc}")
        return 2
    if game is None:
        return 0
    handicap = f", handicap {game.handicap}" if game.handicap else ""
    terminal.say(f"miai play: {game.size}x{game.size}, rules {describe_rules(game.rules)}{handicap}.")
    terminal.say("Black is X, White is O. Type help for the commands.")
    try:
        players = {color: make_player(args, terminal, color) for color in (Color.BLACK, Color.WHITE)}
    except MiaiError as exc:  # a ConfigError: --seconds out of range
        terminal.say(f"miai play: {exc}")
        return 2
    try:
        return PlaySession(game, players, terminal).run()
    except KeyboardInterrupt:
        terminal.say("\nInterrupted.")
        return 130
