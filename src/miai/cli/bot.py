"""``miai bot URL "GTP COMMAND"``: any GTP engine plays a seat of a game on a miai server.

    miai bot http://host:8000/g/ID?seat=TOKEN "gnugo --mode gtp --level 5"
    miai bot http://host:8000/g/ID --token TOKEN "python3 -m miai gtp --level 3"

Like gtp2ogs for OGS: the engine is started, the bot connects to the game's WebSocket with the
seat's token (so the seat counts as present, docs/SERVER.md §3.4) and wakes up on each event;
it reads the game's state over HTTP, brings the engine's board up to date (``boardsize``,
``komi``, the handicap stones with ``set_free_handicap``, the moves), and when its seat is to
act it asks the engine: ``genmove`` in play (after ``time_left`` in a timed game), ``final_status_list dead`` in the marking phase
(the proposal, or accepting the opponent's when it is the same list, or answering with its
own, or refusing a counter-proposal it does not share; docs/RULES.md §5). An undo request of
the opponent is refused. It speaks only the server's public API (HTTP and WebSocket, through
:mod:`miai.client`), never its code: any miai server will do. It stops when the game is over, printing the result.

A move the server refuses as illegal (the engine's rules may differ) is replaced by a pass; a
503 is retried with the same request (the same action id: never applied twice).
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from dataclasses import replace
from typing import Any

from miai.client import ClientError, GameLink
from miai.client.http import GameApi
from miai.coords import point_to_gtp
from miai.gtp.controller import GtpController, GtpControllerError
from miai.handicap import fixed_handicap_points

__all__ = ["add_parser", "run", "parse_target"]

POLL_S = 5.0
"""How long the bot waits for a frame before reading the state anyway."""
RETRY_S = 0.5


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Register ``miai bot`` on the ``miai`` command's subparsers."""
    p = subparsers.add_parser(
        "bot",
        help="let a GTP engine play a seat of a game on a miai server",
        description="Connect a GTP engine to a game on a miai server as the player of one seat "
        "(the seat's token is in the game's link: /g/ID?seat=TOKEN).",
    )
    p.add_argument("url", help="the game's link, http://HOST:PORT/g/ID?seat=TOKEN (or without ?seat= and --token)")
    p.add_argument("engine", help='the engine\'s command line, quoted: "gnugo --mode gtp"')
    p.add_argument("--token", help="the seat's token, if the link does not hold it (--token=TOKEN for a token that begins with -)")
    p.add_argument("--quiet", action="store_true", help="print only the result")
    p.set_defaults(func=run)
    return p


class BotError(ClientError):
    """What stops the bot, in words for its user."""


def parse_target(url: str, token: str | None) -> GameLink:
    """The game of a link, as the seat of ``token`` (``--token``) or else of the link's own.

    >>> parse_target("http://127.0.0.1:8000/g/abc?seat=T0K", None)
    GameLink(base='http://127.0.0.1:8000', game_id='abc', token='T0K')
    """
    link = GameLink.parse(url)
    token = token or link.token
    if not token:
        raise BotError("no seat token: give the link with ?seat=TOKEN or --token TOKEN")
    return replace(link, token=token)


class Engine:
    """The GTP engine's board kept equal to the game's."""

    def __init__(self, argv: list[str]):
        self.gtp = GtpController(argv, timeout=None)
        self.sent: list[str] | None = None
        """The moves the engine has, after its set-up; None when it must be set up again."""

    def sync(self, state: dict[str, Any]) -> None:
        moves: list[str] = state["moves"]
        if self.sent is not None and moves[: len(self.sent)] == self.sent:
            new = moves[len(self.sent) :]
        else:
            self._setup(state)
            new = moves
        first = "white" if state["handicap"] else "black"
        for move in new:
            n = len(self.sent or [])
            color = first if n % 2 == 0 else ("black" if first == "white" else "white")
            self.gtp.send(f"play {color} {move}")
            self.sent = [*(self.sent or []), move]

    def _setup(self, state: dict[str, Any]) -> None:
        size = int(state["size"])
        self.gtp.send(f"boardsize {size}")
        self.gtp.send("clear_board")
        self.gtp.send(f"komi {state['komi']}")
        if state["handicap"]:
            points = " ".join(point_to_gtp(p) for p in fixed_handicap_points(size, int(state["handicap"])))
            self.gtp.send(f"set_free_handicap {points}")
        self.sent = []

    def time_left(self, state: dict[str, Any], color: str) -> None:
        """In a timed game, tell the engine the time until its flag falls, as sudden death
        (``time_left COLOR SECONDS 0``: the safe reading of any overtime)."""
        clocks = state.get("clocks")
        if not clocks or not clocks.get("remaining_ms") or not self.gtp.known_command("time_left"):
            return
        remaining = clocks["remaining_ms"].get(color)
        if isinstance(remaining, int):
            self.gtp.send(f"time_left {color} {max(0, remaining) // 1000} 0")

    def genmove(self, color: str) -> str:
        move = self.gtp.send(f"genmove {color}").strip().upper()
        self.sent = None if self.sent is None else [*self.sent, "pass" if move == "PASS" else move]
        return move

    def dead(self) -> set[str]:
        if not self.gtp.known_command("final_status_list"):
            return set()
        return {v.upper() for v in self.gtp.send("final_status_list dead").split()}

    def close(self) -> None:
        self.gtp.close()


class Bot:
    """One seat of one game, played by an engine (see the module's docstring)."""

    def __init__(self, target: GameLink, engine: Engine, say: Any):
        self.server = GameApi(target)
        self.target = target
        self.engine = engine
        self.say = say
        self.seat = ""
        self.ws: Any = None
        self.actions = 0

    def run(self) -> str:
        self.seat, self.ws = self.connect()
        self.say(f"playing {self.seat} in game {self.target.game_id}")
        try:
            while True:
                state = self.server.state()
                if state["phase"] == "finished":
                    return str(state["result"])
                if not self.act(state):
                    self.wait()
        finally:
            self.ws.close()

    def connect(self) -> tuple[str, Any]:
        """The game's WebSocket as the seat: the seat and the connection (websockets is
        imported here, not when ``miai`` builds its parsers)."""
        from miai.client.websocket import open_seat

        return open_seat(self.target)

    def wait(self) -> None:
        """Until a frame comes (an event, most likely) or :data:`POLL_S` passes."""
        try:
            self.ws.recv(timeout=POLL_S)
        except TimeoutError:
            pass
        except Exception:  # closed (the game's owner changed): connect again
            time.sleep(RETRY_S)
            try:
                _, self.ws = self.connect()
            except Exception as e:
                self.say(f"the WebSocket is down ({e}); reading the game every {POLL_S:g} s")
                time.sleep(POLL_S)

    def act(self, state: dict[str, Any]) -> bool:
        """Do what the seat has to do now, if anything; whether it did something."""
        v = state["v"]
        undo = state.get("undo_request")
        if undo and undo.get("by") != self.seat:
            return self.send("undo-answer", {"accept": False, "v": v})
        if state["to_move"] != self.seat:
            return False
        self.engine.sync(state)
        if state["phase"] == "marking":
            return self.mark(state)
        self.engine.time_left(state, self.seat)
        move = self.engine.genmove(self.seat)
        if move == "RESIGN":
            return self.send("resign", {"v": v})
        return self.send("play", {"move": move.lower() if move == "PASS" else move, "v": v})

    def mark(self, state: dict[str, Any]) -> bool:
        """The engine's dead stones answer the agreement by the computer's rule
        (:func:`miai.ai.marking.reply_by_view`)."""
        from miai.ai.marking import MarkingReply, reply_by_view

        v, marking = state["v"], state["marking"]
        ours = self.engine.dead()
        pending = marking.get("pending")
        theirs = None if pending is None else {p.upper() for p in pending["dead"]}
        countered = pending is not None and marking["first"] == self.seat  # the opponent's counter-proposal
        reply = reply_by_view(ours, theirs, countered=countered)
        if reply is MarkingReply.ACCEPT:
            return self.send("accept", {"v": v})
        if reply is MarkingReply.REFUSE:
            return self.send("refuse", {"v": v})
        return self.send("dead", {"dead": sorted(ours), "v": v})

    def send(self, action: str, body: dict[str, Any]) -> bool:
        self.actions += 1
        body = {**body, "a": f"bot-{self.seat}-{body['v']}-{action}"}
        status, answer = self.server.call("POST", f"/{action}", body)
        if status == 200:
            self.say(f"{action} {body.get('move', '')}".rstrip() + f" -> v{answer['v']}")
            return True
        reason = answer.get("reason") if isinstance(answer, dict) else None
        message = answer.get("message") if isinstance(answer, dict) else answer
        if status == 422 and action == "play" and reason not in ("out-of-time", "wrong-phase", "out-of-turn"):
            self.say(f"the server refused {body['move']} ({reason}): passing instead")
            self.engine.sent = None  # the engine's board has the refused move: set it up again
            return self.send("play", {"move": "pass", "v": body["v"]})
        if status in (409, 422):  # the game moved on: read it again
            if action == "play":
                self.engine.sent = None  # the engine's board has a move the game has not
            return True
        raise BotError(f"the server answered {status} to {action}: {message}")


def run(args: argparse.Namespace) -> int:
    def say(text: str) -> None:
        if not args.quiet:
            print(f"miai bot: {text}", flush=True)

    try:
        target = parse_target(args.url, args.token)
        argv = shlex.split(args.engine)
        if not argv:
            raise BotError("the engine's command line is empty")
    except (ClientError, ValueError) as e:
        print(f"miai bot: {e}", file=sys.stderr)
        return 2
    try:
        engine = Engine(argv)
    except GtpControllerError as e:
        print(f"miai bot: the engine did not start: {e}", file=sys.stderr)
        return 2
    try:
        result = Bot(target, engine, say).run()
    except ClientError as e:
        print(f"miai bot: {e}", file=sys.stderr)
        return 2
    except (GtpControllerError, OSError) as e:
        print(f"miai bot: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    finally:
        engine.close()
    print(f"miai bot: the game is over: {result}", flush=True)
    return 0
