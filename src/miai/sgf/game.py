"""Records and games: replaying a record in a :class:`~miai.game.Game`, and writing a game.

:func:`game_from_record` and :func:`load_game` replay the main line through the checked
``Game`` API; :func:`game_to_sgf` writes a game, and with the record it came from keeps
that record's variations, comments, unknown properties and result. The end of a counted
game travels as territory marks (``TB``/``TW`` in the last node, as other programs write
them), which carry the agreed dead stones both ways.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from miai import __version__
from miai.clock import TimeControl, TimeLeft, TimeSystem
from miai.coords import Color, Move, Point, neighbors, point_to_gtp, point_to_sgf, vertices
from miai.errors import HandicapError, IllegalMoveError, InvalidMoveError, SgfError
from miai.game import Game, GameSpec, Phase, Resume, Setup
from miai.result import EndReason
from miai.rules import Rules
from miai.sgf.grammar import MOVE_IDS, SgfNode, write_tree
from miai.sgf.properties import point_list, rules_to_text
from miai.sgf.record import (
    MAX_RECORD_BYTES,
    Event,
    SgfRecord,
    leading_setup,
    node_events,
    place,
    read_file,
    read_record,
    same_result,
)
from miai.sgf.repairs import Field, Repair, RepairKind, Where

if TYPE_CHECKING:
    from miai.scoring import Score

__all__ = ["game_from_record", "game_to_sgf", "load_game"]


# ============================================================================ record -> game
def game_from_record(record: SgfRecord, rules: Rules | None = None, *, strict: bool = True) -> Game:
    """Replay the record's main line in a new :class:`~miai.game.Game`.

    ``rules`` replaces the record's rules entirely (komi included); by default the record's
    ruleset with its komi. Handicap stones (``HA`` of 2 or more with only black stones set
    up before the first move) are placed with ``set_handicap``, other setups with ``setup``,
    moves with their own colour (so consecutive moves of one colour replay as recorded). A
    result in ``RE`` ends the game with that result once the moves are played, unless the
    moves themselves ended it (then ``repairs`` says when that result differs from ``RE``).

    A game that stands in the marking phase at the end (two passes, under rules that remove
    dead stones) and whose last main-line node has territory marks (``TB``/``TW``, as KGS,
    IGS, Sabaki and OGS write them) is counted with the dead stones those marks show: the
    white stones on ``TB`` points and the black stones on ``TW`` points. When the record has
    no ``RE`` or its ``RE`` is that count's result, the game ends with
    :meth:`Game.finish <miai.game.Game.finish>` (so ``final_score`` holds the dead stones);
    when the count differs from ``RE`` only because empty regions a colour surrounds are left
    unmarked, their stones are taken as seki (rules that give seki no points) if that gives
    ``RE``. Otherwise ``RE`` stands as a given result and ``repairs`` says what the marks count
    to. Marks on empty points are not checked against the count.

    An illegal move raises :class:`SgfError` naming the move number, where it stands and
    the rule it breaks; with ``strict=False`` the replay stops before it instead and the
    record's ``repairs`` says so.
    """

    spec = GameSpec(record.size, rules if rules is not None else record.rules, record.handicap)
    game = Game(spec.size, spec.rules)
    events = list(record.events)
    if record.handicap >= 2:
        stones, k = _handicap_setups(events)
        if stones or leading_setup(events) == ([], []):
            try:
                game = spec.start(stones)
                events = events[k:]
            except HandicapError as e:
                record.repairs.append(Repair(RepairKind.HANDICAP_AS_SETUP, reason=str(e)))
    nodes = _event_nodes(record)
    move_number = 0
    for index, event in enumerate(events):
        try:
            if isinstance(event, Move):
                move_number += 1
            game.apply(event, resume=True)  # a record goes on after two passes: play resumed (docs/RULES.md §5.5)
        except (IllegalMoveError, InvalidMoveError) as e:
            left = sum(1 for ev in events[index:] if isinstance(ev, Move))
            at = nodes.get(id(event))
            if isinstance(event, Move):
                move: dict[str, Field] = {"number": move_number, "color": event.color.letter, "point": point_to_gtp(event.point)}
                stopped = Repair(RepairKind.REPLAY_STOPPED, at, reason=str(e), count=left, **move)
            else:
                stopped = Repair(RepairKind.REPLAY_STOPPED_AT_SETUP, at, reason=str(e), count=left)
            if strict:  # the sentence's middle: "move 3 (B D4) (node 3, ...) is illegal: ..."
                raise SgfError(str(stopped).removeprefix("replay stopped at ").removesuffix(f"; {left} move(s) not played")) from e
            record.repairs.append(stopped)
            return game
    if game.phase is Phase.MARKING and _finish_from_marks(game, record):
        return game
    if record.result is not None and game.phase is not Phase.FINISHED:
        game.set_result(record.result, EndReason.RECORD)
    elif record.result is not None and game.result is not None and not same_result(game.result, record.result):
        value = (record.result_text or "").strip()[:60]
        ruleset, result, how = game.rules.to_text(), str(game.result), game.end_words or ""
        record.repairs.append(Repair(RepairKind.RESULT_DIFFERS, value=value, rules=ruleset, result=result, how=how))
    return game


def _handicap_setups(events: list[Event]) -> tuple[list[Point], int]:
    """The black stones of the setup edits that open ``events`` with black stones only (the
    handicap a record may hold), and how many edits they are; none (and no edits) when there
    are no black stones or an edit among them also adds white stones or empties points."""
    stones: list[Point] = []
    k = 0
    while k < len(events) and isinstance(events[k], Setup):
        e = events[k]
        assert isinstance(e, Setup)
        if e.white or e.empty:
            return [], 0
        stones.extend(e.black)
        k += 1
    return (stones, k) if stones else ([], 0)


def _territory_marks(record: SgfRecord) -> tuple[SgfNode, set[Point], set[Point]] | None:
    """The last main-line node and its ``TB`` and ``TW`` points, or None when it has neither.
    Values that are not points are left out, with a note in ``repairs``."""
    node = record.main_line[-1]
    if "TB" not in node and "TW" not in node:
        return None
    marks: dict[str, set[Point]] = {}
    for pid in ("TB", "TW"):
        marks[pid] = set()
        for value in node.properties.get(pid, []):
            try:
                marks[pid].update(point_list([value], record.size))
            except InvalidMoveError:
                record.repairs.append(Repair(RepairKind.NOT_A_POINT, place(node, pid, len(record.main_line) - 1), pid=pid, value=value[:30]))
    return node, marks["TB"], marks["TW"]


def _finish_from_marks(game: Game, record: SgfRecord) -> bool:
    """End a game in the marking phase with the dead stones the record's territory marks show
    (see :func:`game_from_record`); False when there are no marks or ``RE`` disagrees."""
    found = _territory_marks(record)
    if found is None:
        return False
    node, tb, tw = found
    board = game.board
    dead = {p for p in tb if board[p] is Color.WHITE} | {p for p in tw if board[p] is Color.BLACK}
    score = game.score(dead)
    if record.result is None or same_result(score.result, record.result):
        game.finish(dead)
        return True
    if not game.rules.seki_points:
        seki = _unmarked_owners(game, score, {1: tb, 2: tw})
        if seki and same_result(game.score(dead, seki=seki).result, record.result):
            game.finish(dead, seki=seki)
            return True
    stones = vertices(dead) or "none"
    at, value = place(node, None, len(record.main_line) - 1), (record.result_text or "").strip()
    record.repairs.append(Repair(RepairKind.MARKS_DIFFER, at, value=value, result=str(score.result), stones=stones))
    return False


def _unmarked_owners(game: Game, score: Score, marks: dict[int, set[Point]]) -> set[Point]:
    """The stones around empty regions that ``score`` gives to a colour but where that
    colour marked no point: what seki looks like in territory marks under rules that give
    seki no points."""
    size, board, dead = game.size, game.board, score.dead_stones
    seen: set[Point] = set()
    stones: set[Point] = set()
    for r in range(size):
        for c in range(size):
            if (r, c) in seen or (board[(r, c)] is not None and (r, c) not in dead):
                continue
            region, border, stack = [], set(), [(r, c)]
            seen.add((r, c))
            while stack:
                p = stack.pop()
                region.append(p)
                for q in neighbors(p, size):
                    if board[q] is not None and q not in dead:
                        border.add(q)
                    elif q not in seen:
                        seen.add(q)
                        stack.append(q)
            owner = score.owners[r][c]
            if owner and not any(p in marks[owner] for p in region):
                stones |= border
    return stones


def _event_nodes(record: SgfRecord) -> dict[int, Where]:
    """Where each event stands, for messages: node 12, line 40, column 3."""
    found: dict[int, Where] = {}
    events = iter(record.events)
    for number, node in enumerate(record.main_line):
        for _ in node_events(node, record.size):
            ev = next(events, None)
            if ev is not None:
                found[id(ev)] = place(node, None, number)
    return found


def load_game(
    source: str | bytes | Path, rules: Rules | None = None, *, strict: bool = True
) -> tuple[Game, SgfRecord]:
    """Read a record (a path, SGF text or bytes) and replay it: ``(game, record)``.

    A string is a path unless it looks like SGF text (it holds a line break or a ``(``
    and names no file). Raises :class:`SgfError` for an empty source and a record that
    cannot be read, ``OSError`` for a file that cannot be opened.
    """
    if isinstance(source, (str, bytes)) and not source.strip():
        raise SgfError("no record given: the source is empty (expected a path, SGF text or bytes)")
    if isinstance(source, Path) or (
        isinstance(source, str)
        and "\n" not in source
        and len(source) < 4096
        and ("(" not in source or Path(source).is_file())
    ):
        record = read_file(source)
    else:
        if isinstance(source, str) and len(source) > MAX_RECORD_BYTES:
            raise SgfError(f"the record is larger than {MAX_RECORD_BYTES} characters (16 MiB): not read")
        record = read_record(source)
    return game_from_record(record, rules, strict=strict), record


# ============================================================================ game -> SGF
def game_to_sgf(
    game: Game,
    *,
    record: SgfRecord | None = None,
    black: str | None = None,
    white: str | None = None,
    date: str | None = None,
    comments: dict[int, str] | None = None,
    notes: list[str] | None = None,
    time_control: TimeControl | None = None,
    times: Mapping[int, TimeLeft] | None = None,
) -> str:
    """Write ``game`` as SGF FF[4] (``FF GM CA AP SZ KM RU HA AB PB PW DT RE``, the setups
    and moves, comments).

    ``time_control`` (unless ``none``) is written as ``TM`` (the main time in seconds) and
    ``OT`` (the overtime: ``5x30 byo-yomi``, ``25/600 Canadian``, ``10 fischer``, ``30
    simple``); ``times`` (move number -> the mover's time left after it) as ``BL``/``WL``
    (seconds) with ``OB``/``OW`` (byo-yomi periods or Canadian stones left) in overtime.

    With the ``record`` the game came from, the record's tree is the starting point: its
    variations, comments and unknown properties are written back; the game's main line is
    written first, and where it leaves the record's main line the record's moves become a
    variation. Moves of the record beyond the game's last move stay after it. ``black``,
    ``white`` and ``date`` override the record's; ``comments`` (move number -> text) sets
    comments on the main line (0 is the root).

    The result (``RE``): a record's own ``RE`` is written back as the record has it while
    the written main line holds the record's moves, even when miai counts the position
    differently (other rules, other dead stones); when the game was played on (its moves
    left the record's), the record's ``RE`` is replaced by the game's result if it has
    ended, and dropped otherwise. Each such decision is appended to ``notes`` when given.
    A game without a record's ``RE`` gets its own result once it has ended.

    A game that ended by counting (it has a :attr:`final_score <miai.game.Game.final_score>`)
    gets its territory marks on its last node (the last main-line node, unless the record's
    moves go on after the game's end), as CGoban/KGS, IGS, Sabaki and OGS write them: ``TB``
    holds the empty points counted for Black (after the dead stones are removed; never living
    stones, under area scoring too; seki points only where the rules count them) and the
    points of White's dead stones; ``TW`` likewise. They replace the marks the record had on
    that node. Other games get no marks (a record's own are left as they were).
    """

    size = game.size
    kept = record if record is not None and record.size == size else None
    root = kept.root.copy() if kept is not None else SgfNode()
    _put_root_properties(root, game, kept, black=black, white=white, date=date)
    history = [e for e in game.history if not isinstance(e, Resume)]  # SGF just plays on
    last = _merge_main_line(root, game, history)
    _put_result(root, game, kept, notes)
    if game.final_score is not None:
        _put_marks(last, game)
    if comments:
        _put_comments(root, size, comments)
    if time_control is not None and not time_control.unlimited:
        _put_time_control(root, time_control)
    if times:
        _put_times(root, size, times)
    return write_tree(root)


def _put_root_properties(
    root: SgfNode, game: Game, record: SgfRecord | None, *, black: str | None, white: str | None, date: str | None
) -> None:
    """The game's facts in the root, first in the order SGF readers expect; the record's
    other root properties after them."""

    props = root.properties
    for pid in ("FF", "CA", "GM", "AP", "SZ", "KM", "HA", "RU"):
        props.pop(pid, None)
    head = {
        "FF": ["4"],
        "CA": ["UTF-8"],
        "GM": ["1"],
        "AP": [f"miai:{__version__}"],
        "SZ": [str(game.size)],
        "KM": [f"{game.komi:g}"],
        "RU": [rules_to_text(game.rules)],
    }
    if record is not None and record.rules_text and game.rules == record.rules:
        head["RU"] = [record.rules_text]  # the record's own words for the same rules
    if game.handicap:
        head["HA"] = [str(game.handicap)]
    root.properties = {**head, **props}
    for pid, value in (("PB", black), ("PW", white), ("DT", date)):
        if value is not None:
            root.properties[pid] = [value]


def _merge_main_line(root: SgfNode, game: Game, history: list[Event]) -> SgfNode:
    """Make the game's history the main line of ``root``'s tree: the record's nodes where
    they hold the game's events (a variation that does is promoted), new nodes where the
    game leaves the record. Returns the node of the game's last event (after any
    comment-only nodes that follow it)."""
    size = game.size
    gi = 0
    if game.handicap:
        root.properties["AB"] = [point_to_sgf(p, size) for p in game.handicap_points]
        for pid in ("AW", "AE"):
            root.properties.pop(pid, None)
    root_events = [e for e in node_events(root, size) if isinstance(e, Move) or not game.handicap]
    if not root_events and not game.handicap and history and not isinstance(history[0], Move):
        if not any(pid in root.properties for pid in ("AB", "AW", "AE", "PL")):
            _put_setup(root, history[0], size)  # a new record: the starting position goes in the root
            root_events = [history[0]]
    if history[: len(root_events)] == root_events:
        gi = len(root_events)
    else:
        # The game left the record at once: the root keeps the game's start, the record's
        # move in the root (if any) goes down into a variation with what followed it.
        mv = root.move
        if mv is not None:
            moved = SgfNode({mv[0]: [mv[1]]})
            moved.children, root.children = root.children, [moved]
            for pid in MOVE_IDS:
                root.properties.pop(pid, None)
        if not game.handicap:
            for pid in ("AB", "AW", "AE", "PL"):
                root.properties.pop(pid, None)
            if history and not isinstance(history[0], Move):
                _put_setup(root, history[0], size)
                gi = 1

    parent = root
    while gi < len(history):
        kids = parent.children
        if kids and not node_events(kids[0], size):
            parent = kids[0]  # comment-only or empty nodes on the main line stay where they are
            continue
        match = None
        for child in kids:
            ev = node_events(child, size)
            if ev and history[gi : gi + len(ev)] == ev:
                match = child
                break
        if match is not None:
            kids.remove(match)
            kids.insert(0, match)
            gi += len(node_events(match, size))
            parent = match
            continue
        node = SgfNode()
        event = history[gi]
        if isinstance(event, Move):
            node.properties[event.color.letter] = [point_to_sgf(event.point, size)]
        else:
            _put_setup(node, event, size)
        kids.insert(0, node)
        parent = node
        gi += 1
    while parent.children and not node_events(parent.children[0], size):
        parent = parent.children[0]  # comment-only or empty nodes after the last move
    return parent


def _put_result(root: SgfNode, game: Game, record: SgfRecord | None, notes: list[str] | None) -> None:
    """``RE``: the record's own while the main line holds its moves, else the game's (see
    :func:`game_to_sgf`)."""

    ended = game.result if game.phase is Phase.FINISHED else None
    own = record.result_text if record is not None else None
    if record is None or own is None or record.result is None:
        if ended is not None:
            root.properties["RE"] = [str(ended)]
        return
    written = [e for node in root.main_line() for e in node_events(node, game.size) if isinstance(e, Move)]
    shown = own.strip()[:60]
    if written == record.moves:
        root.properties["RE"] = [own]
        if ended is not None and not same_result(ended, record.result) and notes is not None:
            notes.append(f"the record's RE[{shown}] kept; the game as counted here ends {ended}")
    elif ended is not None:
        root.properties["RE"] = [str(ended)]
        if notes is not None:
            notes.append(f"the record's RE[{shown}] replaced by {ended}: the game was played on from the record")
    else:
        root.properties.pop("RE", None)
        if notes is not None:
            notes.append(f"the record's RE[{shown}] dropped: the game was played on from the record and has not ended")


def _put_marks(node: SgfNode, game: Game) -> None:
    final = game.final_score
    assert final is not None
    for pid, points in zip(("TB", "TW"), _territory_points(final, game)):
        node.properties.pop(pid, None)
        if points:
            node.properties[pid] = sorted(point_to_sgf(p, game.size) for p in points)


def _territory_points(score: Score, game: Game) -> tuple[list[Point], list[Point]]:
    """Black's and White's marks for ``TB``/``TW``: the empty points the count gives each
    colour (with the dead stones removed) and the points of the other colour's dead stones."""
    black: list[Point] = []
    white: list[Point] = []
    for r, row in enumerate(score.owners):
        for c, owner in enumerate(row):
            stone = game.board[(r, c)]
            if (r, c) in score.dead_stones:
                (black if stone is Color.WHITE else white).append((r, c))
            elif stone is None and owner:
                (black if owner == Color.BLACK else white).append((r, c))
    return black, white


def _put_setup(node: SgfNode, setup: Event, size: int) -> None:
    assert not isinstance(setup, Move)
    for pid, points in (("AB", setup.black), ("AW", setup.white), ("AE", setup.empty)):
        if points:
            node.properties[pid] = [point_to_sgf(p, size) for p in points]
    if setup.to_move is not None:
        node.properties["PL"] = [setup.to_move.letter]


def _put_comments(root: SgfNode, size: int, comments: dict[int, str]) -> None:
    moves = 0
    placed: set[int] = set()
    for node in root.main_line():
        moves += sum(1 for e in node_events(node, size) if isinstance(e, Move))
        if moves in comments and moves not in placed:
            node.properties["C"] = [comments[moves]]
            placed.add(moves)


def _seconds(ms: int) -> str:
    """Milliseconds as exact SGF real seconds: ``300``, ``12.5``, ``0.25``."""
    whole, frac = divmod(ms, 1000)
    return f"{whole}.{frac:03d}".rstrip("0") if frac else str(whole)


def _put_time_control(root: SgfNode, control: TimeControl) -> None:
    sec, system = _seconds, control.system
    root.properties["TM"] = [sec(control.main_ms)]
    overtime = {
        TimeSystem.BYOYOMI: f"{control.periods}x{sec(control.period_ms)} byo-yomi",
        TimeSystem.CANADIAN: f"{control.stones}/{sec(control.period_ms)} Canadian",
        TimeSystem.FISCHER: f"{sec(control.increment_ms)} fischer"
        + (f" (cap {sec(control.cap_ms)})" if control.cap_ms is not None else ""),
        TimeSystem.SIMPLE: f"{sec(control.period_ms)} simple",
    }.get(system)
    if overtime is not None:
        root.properties["OT"] = [overtime]
    else:
        root.properties.pop("OT", None)


def _put_times(root: SgfNode, size: int, times: Mapping[int, TimeLeft]) -> None:
    moves = 0
    for node in root.main_line():
        for event in node_events(node, size):
            if not isinstance(event, Move):
                continue
            moves += 1
            left = times.get(moves)
            if left is None:
                continue
            letter = event.color.letter
            node.properties[f"{letter}L"] = [_seconds(left.ms)]
            if left.stones:
                node.properties[f"O{letter}"] = [str(left.stones)]
            else:
                node.properties.pop(f"O{letter}", None)
