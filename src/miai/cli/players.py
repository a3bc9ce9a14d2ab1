"""The players of ``miai play``: the :class:`Player` protocol, a person, the computer.

A player is asked for a decision and returns it as a value (:mod:`miai.cli.actions`):
:meth:`Player.choose_move` on its turn to move, :meth:`Player.choose_marking` on its step
of the marking phase. The session applies the decision and never asks what kind of player
made it; the one difference it needs, whether an undo by the opponent takes back this
player's reply too, is the attribute :attr:`Player.undo_reply`.

- :class:`HumanPlayer` reads commands from the terminal until one of them is a decision,
  answering the others (help, board, score, save) itself.
- :class:`ComputerPlayer` is the base of players that decide alone: in the marking phase
  they follow the status estimate (:func:`miai.cli.marking.computer_step`).
- :class:`AiPlayer` is miai's search (:class:`miai.ai.mcts.MctsPlayer`), thinking with a
  progress line on the terminal.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Protocol

from miai.ai.config import MctsConfig
from miai.ai.mcts import MctsPlayer, SearchStats
from miai.cli import texts
from miai.cli.actions import Action, MarkingAction, Play, Quit, Resign, Undo
from miai.cli.marking import DeadStoneEstimate, ask_marking, computer_step
from miai.cli.terminal import Terminal
from miai.cli.views import explain_bad_vertex, save_game, show_board, show_score
from miai.coords import point_from_gtp
from miai.endgame import Marking
from miai.errors import InvalidMoveError
from miai.game import Game

__all__ = ["AiPlayer", "ComputerPlayer", "HumanPlayer", "Player"]


class Player(Protocol):
    """Anything that can decide what to do when it is its turn."""

    name: str

    undo_reply: bool
    """Whether an undo by the opponent takes back this player's reply too, so that the
    opponent acts again (True for a computer, which would otherwise answer at once)."""

    def choose_move(self, game: Game) -> Action:
        """The decision on this player's turn to move (``game.to_move``)."""
        ...

    def choose_marking(self, game: Game, marking: Marking, estimate: DeadStoneEstimate) -> MarkingAction:
        """The decision on this player's step of the marking phase (``marking.to_act``);
        ``estimate`` is the computer's view of the dead stones, which the session has
        shown the players."""
        ...


SIMPLE_COMMANDS = ("pass", "undo", "resign", "quit", "exit", "help", "?", "score", "board")
"""Commands that take no arguments."""


class HumanPlayer:
    """A person at the keyboard: reads commands until one of them is a decision."""

    undo_reply = False

    def __init__(self, terminal: Terminal, name: str):
        self.terminal = terminal
        self.name = name

    def choose_move(self, game: Game) -> Action:
        prompt = texts.move_prompt(game.to_move, game.move_number + 1)
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
                say(texts.save_usage())
            else:
                save_game(self.terminal, game, line.strip()[len(words[0]) :].strip())
            return None
        if command in SIMPLE_COMMANDS and args:
            say(texts.takes_no_arguments(command))
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
            say(texts.help_text())
            return None
        if command == "score":
            show_score(self.terminal, game)
            return None
        if command == "board":
            show_board(self.terminal, game)
            return None
        if args:
            say(texts.unknown_command(words[0]))
            return None
        try:
            return Play(point_from_gtp(command, game.size))
        except InvalidMoveError:
            say(explain_bad_vertex(command, game.size) or texts.unknown_command(words[0]))
            return None

    def choose_marking(self, game: Game, marking: Marking, estimate: DeadStoneEstimate) -> MarkingAction:
        """Asked at the terminal (:func:`miai.cli.marking.ask_marking`)."""
        return ask_marking(self.terminal, game, marking, estimate)


class ComputerPlayer(ABC):
    """A player that decides alone. Subclasses choose the moves; in the marking phase it
    accepts the estimate, proposes it, or refuses a counter-proposal that differs from it,
    and says so."""

    undo_reply = True

    def __init__(self, terminal: Terminal, name: str):
        self.terminal = terminal
        self.name = name

    @abstractmethod
    def choose_move(self, game: Game) -> Action: ...

    def choose_marking(self, game: Game, marking: Marking, estimate: DeadStoneEstimate) -> MarkingAction:
        return computer_step(self.terminal, marking, estimate)


class AiPlayer(ComputerPlayer):
    """The computer (:class:`miai.ai.mcts.MctsPlayer`): thinks with a progress line on the
    terminal, then plays, passes or (when clearly lost) resigns."""

    def __init__(self, terminal: Terminal, name: str, level: int = 5, seconds: float | None = None):
        super().__init__(terminal, name)
        self.level = level
        if seconds is None:
            config = MctsConfig.for_level(level, resign=True)
        else:
            config = MctsConfig.for_level(level, resign=True, max_seconds=seconds)
        self.engine = MctsPlayer(config)

    def choose_move(self, game: Game) -> Action:
        color, engine, level = game.to_move, self.name, self.level
        with self.terminal.console.status(texts.thinking(color, engine, level)) as status:

            def progress(stats: SearchStats) -> None:
                best = stats.best
                if best is None:
                    status.update(texts.thinking_progress(color, engine, level, stats.playouts, stats.seconds))
                else:
                    status.update(
                        texts.thinking_progress_best(
                            color, engine, level, stats.playouts, stats.seconds, best.point, best.winrate
                        )
                    )

            decision = self.engine.genmove(game, progress=progress)
        if decision.resign:
            return Resign()
        if decision.point is None:
            self.terminal.say(texts.computer_passes(color, engine, level, decision.winrate, decision.playouts))
        else:
            self.terminal.say(
                texts.computer_plays(color, engine, level, decision.point, decision.winrate, decision.playouts)
            )
        return Play(decision.point)
