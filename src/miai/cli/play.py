"""``miai play``: a game of Go in the terminal.

The session (:class:`PlaySession`) asks the player whose turn it is for a decision and
applies it to the :class:`~miai.game.Game`: on a turn to move, ``choose_move(game)`` gives
an :data:`~miai.cli.actions.Action`; an illegal move is explained and the same player is
asked again. After two passes under rules that remove dead stones the marking phase
follows the agreement of docs/RULES.md §5 (:mod:`miai.endgame`): each step,
``choose_marking(game, marking, estimate)`` gives a
:data:`~miai.cli.actions.MarkingAction`, starting from the computer's estimate of the dead
stones (:mod:`miai.cli.marking`), which the session shows the players first. The players
(:mod:`miai.cli.players`) are a person at the keyboard and miai's search; a test script is
one more.

Commands of a person: a vertex (``D4``, any case), ``pass``, ``undo``, ``resign``,
``score``, ``save FILE.sgf``, ``board``, ``help``, ``quit``. End of input quits cleanly.
Every sentence shown comes from :mod:`miai.cli.texts`.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Mapping

from miai.cli import texts
from miai.cli.actions import Accept, MarkingAction, Propose, Quit, Refuse, Resign, Undo
from miai.cli.language import add_language_option, help_texts, use_language
from miai.cli.marking import DeadStoneEstimator
from miai.cli.players import AiPlayer, HumanPlayer, Player
from miai.cli.terminal import Terminal
from miai.cli.views import explain_bad_vertex, save_game, show_board
from miai.coords import Color, Move, Point, point_from_gtp
from miai.errors import HandicapError, IllegalMoveError, InvalidMoveError, MiaiError
from miai.game import Game, Phase, Resume
from miai.render import rich_diagram
from miai.result import Result, Termination
from miai.rules import Rules, Scoring

# ---------------------------------------------------------------------------- the session


class PlaySession:
    """One game from its first move to its result, between two players at one terminal."""

    def __init__(self, game: Game, players: Mapping[Color, Player], terminal: Terminal):
        self.game = game
        self.players = dict(players)
        self.terminal = terminal
        self.estimate = DeadStoneEstimator()
        """The computer's dead-stone estimate, made once per position."""

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
                    say(texts.left_unfinished())
                    return 0
                continue
            color = game.to_move
            action = self.players[color].choose_move(game)
            if isinstance(action, Quit):
                say(texts.left_after_moves(game.move_number))
                return 0
            if isinstance(action, Resign):
                game.resign(color)
                say(texts.resigns(color))
                continue
            if isinstance(action, Undo):
                self.take_back(color)
                continue
            move = Move(color, action.point)
            try:
                game.play(move)
            except IllegalMoveError as exc:
                say(texts.illegal_move(exc, move, game))
                continue
            if game.phase is Phase.PLAY:
                self.show()

    def show(self) -> None:
        show_board(self.terminal, self.game)
        last = self.game.last_move
        if last is not None and last.point is None:
            self.terminal.say(texts.another_pass_ends())

    # -- taking back

    def can_take_back(self) -> bool:
        marking = self.game.marking
        return self.game.move_number > 0 or (marking is not None and marking.pending is not None)

    def take_back(self, by: Color) -> None:
        """``by`` asked for an undo: take back the last event (a move, a pass, a proposal, a
        refusal) and, while the player then to act is not ``by`` and gives back its reply on
        an undo (a computer: :attr:`~miai.cli.players.Player.undo_reply`), the one before, so
        that ``by`` acts again instead of the computer answering the same at once."""
        if not self.can_take_back():
            self.terminal.say(texts.nothing_to_undo())
            return
        self.take_back_one()
        while self.can_take_back():
            actor = self.game.to_act
            if actor is None or actor is by or not self.players[actor].undo_reply:
                return
            self.take_back_one()

    def take_back_one(self) -> None:
        """Take back the last event and say which it was."""
        game, say = self.game, self.terminal.say
        marking = game.marking
        if marking is not None and marking.pending is not None:
            game.undo()
            say(texts.took_back_proposal(marking.pending.by))
            return
        last = game.history[-1]
        number = game.move_number
        game.undo()
        if isinstance(last, Resume):
            say(texts.took_back_refusal(last.by or game.to_move))
            return
        if isinstance(last, Move) and last.point is not None:
            say(texts.took_back_move(number, last.color, last.point))
        elif isinstance(last, Move):
            say(texts.took_back_pass(number, last.color))
        self.show()

    # -- end of the game: the dead-stone agreement (docs/RULES.md §5)

    def agree_on_dead_stones(self) -> bool:
        """One step of the marking phase, by the player whose step it is: their decision
        (:meth:`~miai.cli.players.Player.choose_marking`) is applied; one the agreement does
        not allow is explained and the player asked again. Returns False if they quit."""
        marking = self.game.marking
        assert marking is not None  # the game is in the marking phase
        if marking.pending is None:
            self.terminal.say(texts.marking_begins(marking.first))
            self.terminal.say(self.estimate(self.game).note)
        color = marking.to_act
        while True:
            action = self.players[color].choose_marking(self.game, marking, self.estimate(self.game))
            try:
                return self.apply_marking(color, action)
            except IllegalMoveError as exc:
                self.terminal.say(texts.not_now(exc, marking, action, color))

    def apply_marking(self, color: Color, action: MarkingAction) -> bool:
        """Apply ``color``'s marking step; False if they quit."""
        game = self.game
        if isinstance(action, Quit):
            return False
        if isinstance(action, Undo):
            self.take_back(color)
        elif isinstance(action, Accept):
            game.accept(color)
        elif isinstance(action, Refuse):
            game.refuse(color)
            self.announce_resumption(color)
        elif isinstance(action, Propose):
            game.propose(action.dead, seki=action.seki, color=color)
        return True

    def announce_resumption(self, color: Color) -> None:
        say = self.terminal.say
        say(texts.play_resumes(color, self.game.to_move))
        if self.game.rules.scoring is Scoring.TERRITORY:
            say(texts.compensation_rule())
        show_board(self.terminal, self.game)

    def announce_result(self) -> None:
        game, term = self.game, self.terminal
        score = game.final_score
        if score is not None:
            term.show(rich_diagram(game.board, last_move=game.last_move, dead=score.dead_stones))
            term.say(texts.score_table(score))
        result = game.result or Result(None, Termination.UNKNOWN)
        term.say(texts.game_over(game))
        term.say(texts.result_line(result))

    def offer_save(self) -> None:
        term = self.terminal
        while True:
            try:
                path = term.ask(texts.save_prompt()).strip()
            except EOFError:
                return
            if path.lower().startswith("save "):
                path = path[5:].strip()
            if not path or save_game(term, self.game, path):
                return


# ---------------------------------------------------------------------------- command line


def seconds_per_move(text: str) -> float:
    """``--seconds``: a positive, finite number of seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(texts.not_seconds(text)) from None
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(texts.bad_seconds(text))
    return value


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    options = help_texts(texts.options)
    p = subparsers.add_parser("play", help=options["play"], description=options["description"])
    p.add_argument("--size", type=int, default=19, help=options["size"])
    p.add_argument("--rules", default="chinese", help=options["rules"])
    p.add_argument("--komi", type=float, help=options["komi"])
    p.add_argument("--handicap", type=int, default=0, metavar="N", help=options["handicap"])
    p.add_argument("--free-handicap", action="store_true", help=options["free_handicap"])
    p.add_argument("--black", choices=("human", "ai"), default="human", help=options["black"])
    p.add_argument("--white", choices=("human", "ai"), default="human", help=options["white"])
    p.add_argument(
        "--level", type=int, default=5, choices=range(1, 11), metavar="N", help=options["level"]
    )
    p.add_argument("--seconds", type=seconds_per_move, help=options["seconds"])
    add_language_option(p, options["lang"])
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
    if args.handicap and not 2 <= args.handicap < args.size * args.size:
        raise HandicapError(texts.bad_free_handicap(args.handicap, args.size))
    if args.handicap:
        if not place_free_handicap(game, args.handicap, terminal):
            return None
    return game


def place_free_handicap(game: Game, count: int, terminal: Terminal) -> bool:
    """Ask Black for ``count`` points and place them; False if the input ends."""
    terminal.show(rich_diagram(game.board))
    terminal.say(texts.place_handicap(count))
    while True:
        try:
            line = terminal.ask(texts.handicap_prompt())
        except EOFError:
            return False
        if line.strip().lower() in ("quit", "exit"):
            return False
        points: list[Point] = []
        wrong = None
        for word in line.replace(",", " ").split():
            try:
                point = point_from_gtp(word, game.size)
            except InvalidMoveError:
                wrong = explain_bad_vertex(word, game.size) or texts.not_a_vertex(word)
                break
            if point is None:
                wrong = texts.pass_is_not_a_point()
                break
            points.append(point)
        if wrong is not None:
            terminal.say(wrong)
            continue
        if len(points) != count:
            terminal.say(texts.handicap_count(count, len(points)))
            continue
        repeated = sorted({p for p in points if points.count(p) > 1})
        if repeated:
            terminal.say(texts.handicap_twice(repeated))
            continue
        try:
            game.set_handicap(points)
            return True
        except HandicapError as exc:  # (not expected: the count and the points are checked above)
            terminal.say(texts.handicap_not_placed(exc))


def make_player(args: argparse.Namespace, terminal: Terminal, color: Color) -> Player:
    """The player the options ask for: ``--black``/``--white`` ``human`` or ``ai``."""
    if getattr(args, str(color), "human") == "ai":
        return AiPlayer(terminal, "miai", level=getattr(args, "level", 5), seconds=getattr(args, "seconds", None))
    return HumanPlayer(terminal, texts.color_name(color))


def run(args: argparse.Namespace, terminal: Terminal | None = None) -> int:
    use_language(args)
    terminal = terminal or Terminal()
    try:
        game = new_game(args, terminal)
    except (MiaiError, ValueError) as exc:
        terminal.say(texts.bad_option(exc))
        return 2
    if game is None:
        return 0
    terminal.say(texts.welcome(game.size, game.rules, game.handicap))
    terminal.say(texts.stones_and_help())
    try:
        players = {color: make_player(args, terminal, color) for color in (Color.BLACK, Color.WHITE)}
    except MiaiError as exc:  # a ConfigError: --seconds out of range
        terminal.say(texts.bad_option(exc))
        return 2
    try:
        return PlaySession(game, players, terminal).run()
    except KeyboardInterrupt:
        terminal.say(texts.interrupted())
        return 130
