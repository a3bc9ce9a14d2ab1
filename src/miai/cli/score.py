"""``miai score FILE.sgf``: count the final position of a game record.

The record's main line is replayed (:func:`miai.sgf.game_from_record`) and its last
position counted under the record's rules, or under ``--rules``. Under rules that remove dead
stones, the dead and seki stones are miai's estimate (:func:`miai.ai.status.estimate_status`),
shown on the map (dead stones lower-case, territory as ``b``/``w``); under rules that count
stones as they stand (Tromp-Taylor, simple), the board is counted as it is. ``--json`` prints
the same for programs.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from miai import coords
from miai.cli.terminal import Terminal
from miai.cli import score_texts, texts
from miai.cli.repair_texts import repair_text
from miai.cli.language import add_language_option, help_texts, use_language
from miai.coords import Color, Point
from miai.errors import MiaiError
from miai.render import rich_diagram
from miai.rules import Rules
from miai.sgf import SgfRecord, game_from_record, read_file

if TYPE_CHECKING:  # pragma: no cover
    from miai.ai.status import ChainStatus, StatusEstimate
    from miai.game import Game
    from miai.scoring import ColorScore, Score

MAX_REPAIRS_SHOWN = 10


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    options = help_texts(score_texts.score_options)
    p = subparsers.add_parser("score", help=options["score"], description=options["description"])
    p.add_argument("file", metavar="FILE.sgf", help=options["file"])
    p.add_argument("--rules", help=options["rules"])
    p.add_argument("--json", action="store_true", help=options["json"])
    p.add_argument("--playouts", type=int, default=None, help=options["playouts"])
    add_language_option(p, options["lang"])
    p.set_defaults(func=run)


def run(args: argparse.Namespace, terminal: Terminal | None = None) -> int:
    """Count the record; the texts (not the JSON, which is for programs) in ``--lang``."""
    use_language(args)
    terminal = terminal or Terminal()
    loaded = _load(str(args.file), args.rules)
    if loaded is None:
        return 1
    record, game = loaded
    counted = _count(game, getattr(args, "playouts", None))
    if counted is None:
        return 1
    score, estimate = counted
    if getattr(args, "json", False):
        print(json.dumps(_score_json(str(args.file), record, game, score, estimate), indent=2))
    else:
        _show(terminal, str(args.file), record, game, score, estimate)
    return 0


def _load(path: str, rules_text: str | None) -> tuple[SgfRecord, Game] | None:
    """The record and its main line replayed, under ``--rules`` if given (with the record's
    komi unless the option sets one); None, with the reason on stderr, if it cannot be read."""
    try:
        record = read_file(path)
        rules = None
        if rules_text:
            rules = Rules.parse(rules_text)
            if record.komi is not None and not any(w.lower().startswith("komi=") for w in rules_text.split()):
                rules = rules.replace(komi=record.komi)
        return record, game_from_record(record, rules, strict=False)
    except OSError as exc:
        print(score_texts.score_cannot_read(path, exc), file=sys.stderr)
    except MiaiError as exc:
        print(score_texts.score_bad_record(path, exc), file=sys.stderr)
    return None


def _count(game: Game, playouts: int | None) -> tuple[Score, StatusEstimate | None] | None:
    """The count of the final position, with miai's estimate of the dead and seki stones
    under rules that remove dead stones (no estimate otherwise: the stones as they stand);
    None, with the reason on stderr, if the estimate cannot be made."""
    from miai.ai.status import estimate_status

    if not game.rules.remove_dead_stones:
        return game.score(), None
    try:
        estimate = estimate_status(game, playouts=playouts, seed=1)
    except ValueError as exc:
        print(score_texts.score_error(exc), file=sys.stderr)
        return None
    return estimate.score, estimate


def _vertices(points: Iterable[Point]) -> list[str]:
    return coords.vertices(points).split()


def _score_json(path: str, record: SgfRecord, game: Game, score: Score, estimate: StatusEstimate | None) -> dict[str, Any]:
    """What ``--json`` prints: the count, its parts, the stones' statuses and the repairs."""
    territory = estimate.territory if estimate else {}
    return {
        "file": path,
        "size": game.size,
        "moves": game.move_number,
        "rules": str(game.rules),
        "handicap": game.handicap,
        "result": str(score.result),
        "margin": score.margin,
        "recorded_result": str(record.result) if record.result is not None else None,
        "score": {colour: _part_json(part) for colour, part in (("black", score.black), ("white", score.white))},
        "neutral": score.neutral,
        "dead": _vertices(score.dead_stones),
        "seki": _vertices(estimate.seki) if estimate else [],
        "chains": [_chain_json(ch) for ch in sorted(estimate.chains, key=lambda ch: min(ch.stones))] if estimate else [],
        "territory": {
            str(c): _vertices(p for p, owner in territory.items() if owner is c) for c in (Color.BLACK, Color.WHITE)
        },
        "repairs": list(record.repairs),
    }


def _part_json(part: ColorScore) -> dict[str, Any]:
    return {
        "stones": part.stones,
        "territory": part.territory,
        "prisoners": part.prisoners,
        "dead": part.dead,
        "compensation": part.compensation,
        "komi": part.komi,
        "handicap_bonus": part.handicap_bonus,
        "total": part.total,
    }


def _chain_json(chain: ChainStatus) -> dict[str, Any]:
    return {
        "color": str(chain.color),
        "status": chain.status,
        "confidence": round(chain.confidence, 3),
        "proven": chain.proven,
        "stones": _vertices(chain.stones),
    }


def _show(terminal: Terminal, path: str, record: SgfRecord, game: Game, score: Score, estimate: StatusEstimate | None) -> None:
    """The count for people: the record, its repairs, the map, the statuses, the table."""
    say = terminal.say
    say(path)
    say(score_texts.record_heading(game.size, game.move_number, record.black, record.white))
    say(score_texts.record_rules(game.rules, game.handicap))
    _show_repairs(terminal, record.repairs)
    if estimate is None:
        terminal.show(rich_diagram(game.board, last_move=game.last_move))
        say(score_texts.stones_as_they_stand())
    else:
        _show_estimate(terminal, game, estimate)
    say(texts.score_table(score))
    say(score_texts.count_line(score.result))
    if record.result is not None:
        say(score_texts.recorded_line(record.result))


def _show_repairs(terminal: Terminal, repairs: Sequence[str]) -> None:
    """How many repairs reading the record took, and the first :data:`MAX_REPAIRS_SHOWN`."""
    if not repairs:
        return
    terminal.say(score_texts.record_repairs(len(repairs)))
    for line in repairs[:MAX_REPAIRS_SHOWN]:
        terminal.say(f"  - {repair_text(line)}")
    if len(repairs) > MAX_REPAIRS_SHOWN:
        terminal.say(score_texts.more_repairs(len(repairs) - MAX_REPAIRS_SHOWN))


def _show_estimate(terminal: Terminal, game: Game, estimate: StatusEstimate) -> None:
    """The map with the dead stones and the territory marked, then the dead and seki chains."""
    say = terminal.say
    marks = {p: "b" if owner is Color.BLACK else "w" for p, owner in estimate.territory.items() if owner and game.board[p] is None}
    terminal.show(rich_diagram(game.board, last_move=game.last_move, dead=estimate.dead, marks=marks))
    say(score_texts.map_legend())
    for colour in (Color.BLACK, Color.WHITE):
        dead = [ch for ch in estimate.chains_of("dead") if ch.color is colour]
        if dead:
            shown = "; ".join(f"{' '.join(_vertices(ch.stones))} ({ch.confidence:.0%})" for ch in dead)
            say(score_texts.dead_chains(colour, shown))
    seki = estimate.chains_of("seki")
    if seki:
        say(score_texts.seki_chains("; ".join(" ".join(_vertices(ch.stones)) for ch in seki)))
    if not estimate.dead and not seki:
        say(score_texts.no_dead_no_seki())
