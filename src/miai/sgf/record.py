"""Game records: reading a file into an :class:`SgfRecord`, the tree and the facts in it.

:func:`read_record` / :func:`read_file` / :func:`read_collection` take bytes (or text)
through the charset layer (:mod:`miai.sgf.charset`), the grammar (:mod:`miai.sgf.grammar`)
or the GIB/NGF converters (:mod:`miai.sgf.foreign`), then read the facts a program needs
from the tree: size, komi, handicap, rules, players, result, the main line as moves and
setup edits, comments. Everything that had to be fixed or guessed is one line of
``repairs``, with where it stands; a repair that changes a value changes it in the tree as
well, so a written record reads back without it.

What the facts layer repairs: ``[tt]`` and spaced passes; values that are not points;
comma-separated point lists (``AB[aa,bb]``); a point set up in two colours in one node;
Fox komi (``KM[325]``, ``KM[650]``: see :func:`~miai.sgf.properties.fox_komi`),
``KM[5 1/2]``, ``KM[]``, a komi that is not finite or beyond :data:`MAX_KOMI`, Nihon Ki-in
``KO[黒6目半]``; a handicap that is not a number, negative, or larger than the board, and
handicap stones given in a later node; ``RU`` kept as text and mapped to the closest
preset; ``RE`` read as a :class:`~miai.result.Result` (free text such as ``White
resigns`` or ``黒中押し勝ち`` too), the record's own words kept in ``result_text``.

Input is bounded: a record larger than :data:`MAX_RECORD_BYTES` is refused with an
:class:`~miai.errors.SgfError` (and :func:`read_file` reads no more than that), so a
program reading untrusted files needs no limit of its own.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Union

from miai.coords import MAX_SIZE, MIN_SIZE, Color, Move, Point, point_to_sgf, vertices
from miai.errors import InvalidMoveError, SgfError
from miai.game import Setup
from miai.result import Result, Termination
from miai.rules import PRESETS, Rules
from miai.sgf.charset import decode_sgf_bytes
from miai.sgf.foreign import read_foreign
from miai.sgf.grammar import MAX_REPAIR_LINES, MOVE_IDS, SETUP_IDS, SgfNode, describe_missing_tree, scan, write_tree
from miai.sgf.properties import fox_komi, komi_from_text, point_list, rules_from_text, sgf_point, small_int
from miai.sgf.repairs import Field, Repair, RepairKind, Where

__all__ = ["MAX_RECORD_BYTES", "Event", "SgfRecord", "read_collection", "read_file", "read_record", "write_collection"]

Event = Union[Move, "Setup"]
"""An entry of a main line, as :attr:`Game.history <miai.game.Game.history>` holds them."""

DEFAULT_SIZE = 19
MAX_KOMI = MAX_SIZE * MAX_SIZE
"""A komi beyond this many points (the points of the largest board) is not taken as written."""
MAX_RECORD_BYTES = 16 * 1024 * 1024
"""The largest record read (16 MiB; real records are a few KB, a big collection a few MB)."""


# ============================================================================ the record
@dataclass(eq=False)
class SgfRecord:
    """A game record read from SGF (or GIB/NGF): the tree and the facts read from it.

    The fields are a view of ``root`` taken when the record was read; writing uses the tree.
    ``events`` is the main line as a :class:`~miai.game.Game` replays it: setup edits
    (``AB``/``AW``/``AE``/``PL``, the root's included) and moves with their colours.
    ``comments`` maps a move number to the comment of the main-line node(s) where the game
    stood after that many moves (0: the root and setup nodes before the first move).
    ``result`` is the record's ``RE`` read as a :class:`~miai.result.Result` (None when
    absent or unknown, ``?``); ``result_text`` is the ``RE`` value as the record writes it.
    Two records are equal when their trees and facts are; ``repairs``, ``encoding`` and
    ``source_format`` say how the text was read and take no part in equality.
    """

    root: SgfNode
    size: int = DEFAULT_SIZE
    komi: float | None = None
    handicap: int = 0
    rules_text: str | None = None
    rules: Rules = field(default_factory=lambda: PRESETS["chinese"])
    black: str | None = None
    white: str | None = None
    black_rank: str | None = None
    white_rank: str | None = None
    date: str | None = None
    result: Result | None = None
    result_text: str | None = None
    game_name: str | None = None
    events: list[Event] = field(default_factory=list)
    comments: dict[int, str] = field(default_factory=dict)
    encoding: str = "utf-8"
    source_format: str = "sgf"
    repairs: list[Repair] = field(default_factory=list)

    _FACTS = (
        "size", "komi", "handicap", "rules_text", "rules", "black", "white", "black_rank", "white_rank",
        "date", "result", "result_text", "game_name", "events", "comments",
    )  # fmt: skip

    @property
    def moves(self) -> list[Move]:
        """The main line's moves and passes, in order."""
        return [e for e in self.events if isinstance(e, Move)]

    @property
    def setup_stones(self) -> tuple[list[Point], list[Point]]:
        """Black and white stones set up before the first move (handicap stones included)."""
        black: list[Point] = []
        white: list[Point] = []
        for e in self.events:
            if isinstance(e, Move):
                break
            black = [p for p in black if p not in e.white and p not in e.empty] + list(e.black)
            white = [p for p in white if p not in e.black and p not in e.empty] + list(e.white)
        return black, white

    @property
    def main_line(self) -> list[SgfNode]:
        return self.root.main_line()

    def to_sgf(self) -> str:
        """The record's tree as SGF text (FF[4], UTF-8: encode the string as UTF-8)."""
        return write_tree(self.root)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SgfRecord):
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in self._FACTS) and self.root == other.root

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        who = f"{self.black or '?'} (B) vs {self.white or '?'} (W)"
        komi = "no komi" if self.komi is None else f"komi {self.komi:g}"
        ha = f", handicap {self.handicap}" if self.handicap else ""
        res = f", {self.result}" if self.result else ""
        fixes = f", {len(self.repairs)} repairs" if self.repairs else ""
        return f"<SgfRecord {self.size}x{self.size} {who}, {komi}{ha}, {len(self.moves)} moves{res}{fixes}>"


def write_collection(records: Iterable[SgfRecord]) -> str:
    """Several records as one SGF collection."""
    return "".join(r.to_sgf() for r in records)


# ============================================================================ reading
def read_file(path: str | Path) -> SgfRecord:
    """Read the first game of an SGF, GIB or NGF file (the format from the extension, else
    from the content). Reads at most :data:`MAX_RECORD_BYTES` + 1 bytes: a larger file (or
    an endless one, ``/dev/zero``) is an :class:`SgfError`. ``OSError`` when the file
    cannot be opened."""
    p = Path(path)
    if str(path).strip() == "":
        raise SgfError("no file named: the path is empty")
    with open(p, "rb") as f:
        data = f.read(MAX_RECORD_BYTES + 1)
    return read_record(data, filename=p.name)


def read_record(data: bytes | str, *, filename: str | None = None) -> SgfRecord:
    """Read the first game tree of ``data``. A collection of several games is noted in
    ``repairs``; :func:`read_collection` reads them all. Raises :class:`SgfError` (saying
    where and what) when nothing can be read."""
    records = _read(data, filename, first_only=True)
    return records[0]


def read_collection(data: bytes | str, *, filename: str | None = None) -> list[SgfRecord]:
    """Read every game tree of a collection, each as its own record (the repairs of the text
    itself go to the first). Raises :class:`SgfError` naming the game that cannot be read."""
    return _read(data, filename, first_only=False)


def _read(data: bytes | str, filename: str | None, *, first_only: bool) -> list[SgfRecord]:
    if not isinstance(data, (str, bytes, bytearray, memoryview)):
        raise TypeError(f"expected bytes or str, not {type(data).__name__}")
    label = f"{filename}: " if filename else ""
    if not isinstance(data, str):
        data = bytes(data)
    if len(data) > MAX_RECORD_BYTES:
        unit = "characters" if isinstance(data, str) else "bytes"
        raise SgfError(f"{label}the record is larger than {MAX_RECORD_BYTES} {unit} (16 MiB): not read")
    fmt = _detect_format(data, filename)
    notes: list[Repair]
    if isinstance(data, str):
        text, encoding, notes = data, "str", []
        if text.startswith("\ufeff"):
            text = text[1:]
    else:
        text, encoding, notes = decode_sgf_bytes(data, fmt=fmt)
    if "\x00" in text:
        notes.append(Repair(RepairKind.NUL_REMOVED, count=text.count(chr(0))))
        text = text.replace("\x00", "")
    if fmt in ("gib", "ngf"):
        roots = [read_foreign(text, fmt, notes, label)]
    else:
        roots = scan(text, notes)
        if not roots:
            raise SgfError(f"{label}no SGF game tree found: {describe_missing_tree(text)}")
        if first_only and len(roots) > 1:
            notes.append(Repair(RepairKind.SEVERAL_TREES, count=len(roots)))
            roots = roots[:1]
    records = []
    for i, root in enumerate(roots):
        game_label = label + (f"game {i + 1}: " if len(roots) > 1 else "")
        repairs = list(notes) if i == 0 else []
        records.append(_build_record(root, repairs, game_label, encoding=encoding, source_format=fmt))
    if len(records) > 1 and encoding not in ("str", "ascii"):
        records[0].repairs.append(Repair(RepairKind.COLLECTION_DECODED, encoding=encoding))
    for rec in records:
        _cap_repairs(rec.repairs)
    return records


def _cap_repairs(repairs: list[Repair]) -> None:
    """Keep at most :data:`MAX_REPAIR_LINES` lines, the last saying how many more there were
    (counting those that earlier layers had already summarised)."""
    if len(repairs) > MAX_REPAIR_LINES:
        cut = repairs[MAX_REPAIR_LINES - 1 :]
        extra = 0
        for repair in cut:
            summed = repair.kind in (RepairKind.MORE_REPAIRS, RepairKind.MORE_TEXT_REPAIRS)
            extra += int(repair.fields["count"]) if summed else 1
        del repairs[MAX_REPAIR_LINES - 1 :]
        repairs.append(Repair(RepairKind.MORE_REPAIRS, count=extra))


def _detect_format(data: bytes | str, filename: str | None) -> str:
    if filename:
        ext = Path(filename).suffix.lower()
        if ext in (".gib", ".ngf"):
            return ext[1:]
        if ext == ".sgf":
            return "sgf"
    head = data[:4000]
    if isinstance(head, str):
        head = head.encode("utf-8", "replace")
    if b"\\HS" in head[:20] or b"\\[GAMEBLACKNAME=" in head:
        return "gib"
    if b"(" not in head:
        body = data[:200000] if isinstance(data, bytes) else head
        if re.search(rb"^PM[A-Z]{2}[BW][A-Z]{2}", body, re.M):
            return "ngf"
    return "sgf"


# ============================================================================ tree -> record
def place(node: SgfNode, pid: str | None = None, number: int | None = None) -> Where:
    """Where a node (or one of its properties) stands: the node's number along the main line
    when known (0 is the root), and the line and column when read from text."""
    pos = (node.where.get(pid) if pid else None) or node.where.get(";")
    return Where(number, pos[0], pos[1]) if pos else Where(number)


def where(node: SgfNode, pid: str | None = None, number: int | None = None) -> str:
    """:func:`place` as messages write it: ``node 3, line 2, column 5``."""
    return str(place(node, pid, number))


class _Report:
    """Where repairs go, and how errors say where they are."""

    def __init__(self, repairs: list[Repair], label: str) -> None:
        self.repairs = repairs
        self.label = label
        self.more = 0

    def note(self, node: SgfNode, pid: str | None, number: int | None, kind: RepairKind, /, **fields: Field) -> None:
        if len(self.repairs) >= MAX_REPAIR_LINES:
            self.more += 1  # only counted: a broken file can have millions
        else:
            self.repairs.append(Repair(kind, place(node, pid, number), **fields))

    def plain(self, kind: RepairKind, **fields: Field) -> None:
        self.repairs.append(Repair(kind, **fields))

    def close(self) -> None:
        if self.more:
            self.repairs.append(Repair(RepairKind.MORE_REPAIRS, count=self.more))
            self.more = 0

    def fail(self, node: SgfNode, pid: str | None, number: int | None, what: str) -> SgfError:
        return SgfError(f"{self.label}{where(node, pid, number)}: {what}")


def _shown(value: str, limit: int = 30) -> str:
    """A property value as messages show it (long values cut)."""
    return value if len(value) <= limit else value[:limit] + "..."


_SGF_RESULT = re.compile(r"[BbWw]\s*\+.*|0|[Dd]raw|[Vv]oid|\?")


def _build_record(root: SgfNode, repairs: list[Repair], label: str, *, encoding: str, source_format: str) -> SgfRecord:
    report = _Report(repairs, label)
    note, fail = report.note, report.fail

    gm = (root.get("GM") or "1").strip()
    if gm != "1":
        if gm.isdigit():
            raise fail(root, "GM", 0, f"GM[{_shown(gm)}] is not a record of Go (GM[1])")
        note(root, "GM", 0, RepairKind.GM_NOT_NUMBER, value=_shown(gm))
    size = _read_size(root, report)
    _check_points(root, size, report)
    handicap = _read_handicap(root, size, report)

    rules_text = root.get("RU")
    rules, warning = rules_from_text(rules_text)
    if warning:
        note(root, "RU", 0, warning.kind, **warning.fields)
    komi = _read_komi(root, rules, report)
    rules = rules.replace(komi=komi if komi is not None else 0.0)

    ff = root.get("FF")
    root.properties.update(FF=["4"], CA=["UTF-8"], GM=["1"])
    if ff not in (None, "4", "3", "1"):
        note(root, "FF", 0, RepairKind.FF_REWRITTEN, value=_shown(ff or ""))

    result_text = root.get("RE")
    result = None
    if result_text is not None:
        result = Result.read(result_text)
        shown = _shown(result_text.strip(), 60)
        if result is not None and result.text is not None and result.winner is None:
            note(root, "RE", 0, RepairKind.RESULT_UNKNOWN, value=shown)
        elif result is not None and not _SGF_RESULT.fullmatch(result_text.strip()):
            note(root, "RE", 0, RepairKind.RESULT_READ_AS, value=shown, result=str(result))

    events, comments = _main_line_events(root, size)

    if handicap >= 2:
        black, _ = leading_setup(events)
        if not black:
            note(root, "HA", 0, RepairKind.HANDICAP_WITHOUT_STONES, handicap=handicap)
        elif len(black) != handicap:
            note(root, "HA", 0, RepairKind.HANDICAP_STONE_COUNT, handicap=handicap, count=len(black))

    report.close()

    def text(pid: str) -> str | None:
        v = root.get(pid)
        return v.strip() or None if v is not None else None

    return SgfRecord(
        root=root,
        size=size,
        komi=komi,
        handicap=handicap,
        rules_text=rules_text,
        rules=rules,
        black=text("PB"),
        white=text("PW"),
        black_rank=text("BR"),
        white_rank=text("WR"),
        date=text("DT"),
        result=result,
        result_text=result_text,
        game_name=text("GN"),
        events=events,
        comments=comments,
        encoding=encoding,
        source_format=source_format,
        repairs=repairs,
    )


def _read_size(root: SgfNode, report: _Report) -> int:
    fail, note = report.fail, report.note
    raw = root.get("SZ")
    if raw is None:
        return DEFAULT_SIZE
    text = raw.strip()
    m = re.fullmatch(r"(\d+)\s*(?::\s*(\d+))?", text)
    if not m:
        raise fail(root, "SZ", 0, f"SZ[{_shown(raw)}] is not a board size")
    cols = small_int(m.group(1), 3)
    rows = small_int(m.group(2), 3) if m.group(2) else cols
    if cols is None or rows is None:
        raise fail(root, "SZ", 0, f"SZ[{_shown(raw)}] is too large: miai plays on boards up to {MAX_SIZE}x{MAX_SIZE}")
    if cols != rows:
        raise fail(root, "SZ", 0, f"SZ[{raw}] is a rectangular board ({cols}x{rows}); miai plays on square boards")
    if not MIN_SIZE <= cols <= MAX_SIZE:
        raise fail(root, "SZ", 0, f"SZ[{raw}]: miai plays on boards from {MIN_SIZE}x{MIN_SIZE} to {MAX_SIZE}x{MAX_SIZE}")
    if text != str(cols):
        note(root, "SZ", 0, RepairKind.SIZE_READ_AS, value=raw, size=cols)
        root.properties["SZ"] = [str(cols)]
    return cols


def _check_points(root: SgfNode, size: int, report: _Report) -> None:
    """Normalize move values ([tt] and spaced passes) and setup values (comma lists, one
    point in two colours), and drop values that are not points."""
    note = report.note
    tt_passes = 0
    for node in root.walk():
        for pid in MOVE_IDS:
            values = node.properties.get(pid)
            if values is None:
                continue
            if len(values) > 1:
                note(node, pid, None, RepairKind.MANY_VALUES, pid=pid, count=len(values))
                del values[1:]
            v = values[0]
            squeezed = "".join(v.split())
            if squeezed == "tt" and size <= 19:
                tt_passes += 1
                values[0] = ""
                continue
            if squeezed == "":
                values[0] = ""
                continue
            try:
                sgf_point(squeezed, size)
            except InvalidMoveError:
                note(node, pid, None, RepairKind.MOVE_OFF_BOARD, pid=pid, value=_shown(v), size=size)
                del node.properties[pid]
                continue
            if squeezed != v:
                note(node, pid, None, RepairKind.MOVE_READ_AS, pid=pid, value=_shown(v), point=squeezed)
                values[0] = squeezed
        if any(pid in node.properties for pid in SETUP_IDS):
            _check_setup(node, size, report)
        pl = node.properties.get("PL")
        if pl is not None:
            colour = pl[0].strip()[:1].upper() if pl and pl[0].strip() else ""
            if colour not in ("B", "W"):
                note(node, "PL", None, RepairKind.PLAYER_NOT_COLOUR, value=_shown(pl[0]) if pl else "")
                del node.properties["PL"]
            elif pl != [colour]:
                node.properties["PL"] = [colour]
    if tt_passes:
        report.plain(RepairKind.TT_PASSES, count=tt_passes)


def _check_setup(node: SgfNode, size: int, report: _Report) -> None:
    """The setup values of one node: comma-separated lists split, values that are not points
    dropped, and a point set up in two ways kept in one (as a replay applies them: ``AE``
    first, then ``AB``, then ``AW``)."""
    note = report.note
    points: dict[str, set[Point]] = {}
    for pid in SETUP_IDS:
        values = node.properties.get(pid)
        if values is None:
            continue
        good: list[str] = []
        for v in values:
            parts = [p.strip() for p in v.split(",")] if "," in v else [v.strip()]
            if len(parts) > 1:
                listed = pid + "".join(f"[{p}]" for p in parts[:10] if p) + ("..." if len(parts) > 10 else "")
                note(node, pid, None, RepairKind.COMMA_LIST, pid=pid, value=_shown(v), values=listed)
            for part in parts:
                if not part and len(parts) > 1:
                    continue
                try:
                    points.setdefault(pid, set()).update(point_list([part], size))
                    good.append(part)
                except InvalidMoveError:
                    note(node, pid, None, RepairKind.SETUP_NOT_POINT, pid=pid, value=_shown(part))
        if good:
            node.properties[pid] = good
        else:
            del node.properties[pid]
    black, white, empty = (points.get(pid, set()) for pid in SETUP_IDS)
    for loser, winner, kept in (("AE", "AB", black), ("AE", "AW", white), ("AB", "AW", white)):
        clash = points.get(loser, set()) & kept
        if not clash:
            continue
        shown = vertices(sorted(clash)[:10])
        kind = RepairKind.SETUP_CLASH_BLACK if winner == "AB" else RepairKind.SETUP_CLASH_WHITE
        note(node, loser, None, kind, points=shown, loser=loser, winner=winner)
        remaining = [p for p in point_list(node.properties[loser], size) if p not in clash]
        points[loser] -= clash
        if remaining:
            node.properties[loser] = sorted(point_to_sgf(p, size) for p in remaining)
        else:
            del node.properties[loser]


_MAX_HANDICAP_DIGITS = 3


def _read_handicap(root: SgfNode, size: int, report: _Report) -> int:
    note = report.note
    raw = root.get("HA")
    handicap = 0
    if raw is not None:
        text = raw.strip()
        if re.fullmatch(r"\d+", text):
            value = small_int(text, _MAX_HANDICAP_DIGITS)
            if value is None or value > size * size:
                note(root, "HA", 0, RepairKind.HANDICAP_TOO_MANY, value=_shown(raw))
                del root.properties["HA"]
            else:
                handicap = value
        elif re.fullmatch(r"-\s*\d+", text):
            note(root, "HA", 0, RepairKind.HANDICAP_NEGATIVE, value=_shown(raw))
            del root.properties["HA"]
        else:
            digits = re.search(r"\d+", text)
            value = small_int(digits.group(), _MAX_HANDICAP_DIGITS) if digits else None
            handicap = value if value is not None and value <= size * size else 0
            note(root, "HA", 0, RepairKind.HANDICAP_NOT_NUMBER, value=_shown(raw), handicap=handicap)
            if handicap:
                root.properties["HA"] = [str(handicap)]
            else:
                del root.properties["HA"]
    if handicap >= 2:
        # Handicap stones in a node before the first move (Fox: ;AB[pd][dp] after the root).
        node, number = root, 0
        while node.children and "AB" not in root.properties:
            child = node.children[0]
            number += 1
            if child.move is not None:
                break
            if "AB" in child.properties:
                root.properties["AB"] = child.properties.pop("AB")
                note(child, "AB", number, RepairKind.HANDICAP_MOVED, handicap=handicap)
                if not child.properties:
                    node.children[0:1] = child.children
                break
            node = child
    return handicap


def _read_komi(root: SgfNode, rules: Rules, report: _Report) -> float | None:
    """The record's komi (None when it has none), repaired in the tree where needed."""
    note = report.note
    raw = root.get("KM")
    if raw is None:
        ko = root.get("KO")
        if ko is not None:
            komi = komi_from_text(ko)
            if komi is not None and abs(komi) <= MAX_KOMI:
                note(root, "KO", 0, RepairKind.KO_AS_KOMI, value=_shown(ko), komi=komi)
                root.properties["KM"] = [f"{komi:g}"]
                return komi
            note(root, "KO", 0, RepairKind.KO_IGNORED, value=_shown(ko))
        return None
    text = raw.strip()
    shown = _shown(raw)
    if text == "":
        komi = rules.komi
        note(root, "KM", 0, RepairKind.KOMI_EMPTY, komi=komi)
        root.properties["KM"] = [f"{komi:g}"]
        return komi
    value: float | None = None
    if len(text) <= 40:  # longer: komi_from_text looks at a bounded prefix
        try:
            value = float(text)
        except ValueError:
            pass
    parsed = value is not None
    if value is None:
        value = komi_from_text(text)
    if value is None:
        komi = rules.komi
        note(root, "KM", 0, RepairKind.KOMI_NOT_NUMBER, value=shown, komi=komi)
    elif not math.isfinite(value) or abs(value) > MAX_KOMI and fox_komi(value, rules) is None:
        komi = rules.komi
        if not math.isfinite(value):
            note(root, "KM", 0, RepairKind.KOMI_NOT_FINITE, value=shown, komi=komi)
        else:
            note(root, "KM", 0, RepairKind.KOMI_TOO_LARGE, value=shown, komi=komi, limit=MAX_KOMI)
    else:
        komi = value
        if not parsed:
            note(root, "KM", 0, RepairKind.KOMI_READ_AS, value=shown, komi=komi)
        scaled = fox_komi(komi, rules)
        if scaled is not None:
            in_points = scaled * 100 == komi
            kind = RepairKind.KOMI_FOX_POINTS if in_points else RepairKind.KOMI_FOX_STONES
            note(root, "KM", 0, kind, value=shown, komi=scaled)
            komi = scaled
    if komi != value or not parsed:
        root.properties["KM"] = [f"{komi:g}"]  # the repair goes into the tree
    return komi


# ---------------------------------------------------------------------------- the main line
def node_events(node: SgfNode, size: int) -> list[Event]:
    """The setup edit and/or move a node holds, as :class:`Setup` and :class:`Move` values.

    Stones set up in a node come before its move; ``PL`` in a node with a move says who
    plays after it, so it is an edit only when it is not simply the other colour.
    """

    events: list[Event] = []
    mv = node.move
    move = None
    if mv is not None:
        colour = Color.parse(mv[0])
        move = Move(colour, None if mv[1] == "" else sgf_point(mv[1], size))
    pl = node.get("PL")
    to_move = Color.BLACK if pl == "B" else Color.WHITE if pl == "W" else None
    if move is not None and to_move is move.color.opponent:
        to_move = None
    if any(pid in node.properties for pid in SETUP_IDS):
        events.append(
            Setup(
                black=tuple(point_list(node.properties.get("AB", []), size)),
                white=tuple(point_list(node.properties.get("AW", []), size)),
                empty=tuple(point_list(node.properties.get("AE", []), size)),
                to_move=to_move if move is None else None,
            )
        )
        if move is None:
            to_move = None
    elif to_move is not None and move is None:
        events.append(Setup(to_move=to_move))
        to_move = None
    if move is not None:
        events.append(move)
        if to_move is not None:
            events.append(Setup(to_move=to_move))
    return events


def _main_line_events(root: SgfNode, size: int) -> tuple[list[Event], dict[int, str]]:
    events: list[Event] = []
    comments: dict[int, str] = {}
    moves = 0
    for node in root.main_line():
        events_here = node_events(node, size)
        events.extend(events_here)
        moves += sum(1 for e in events_here if isinstance(e, Move))
        comment = node.get("C")
        if comment is not None and comment.strip():
            comments[moves] = comments[moves] + "\n" + comment if moves in comments else comment
    return events, comments


def leading_setup(events: list[Event]) -> tuple[list[Point], list[Point]]:
    """The black and white stones of the setup edits before the first move."""
    black: list[Point] = []
    white: list[Point] = []
    for e in events:
        if isinstance(e, Move):
            break
        black.extend(e.black)
        white.extend(e.white)
    return black, white


def same_result(a: Result | None, b: Result | None) -> bool:
    """Whether two results say the same (winner, how, margin), whatever their words."""
    if a is None or b is None:
        return a is b
    return (a.winner, a.by, a.margin) == (b.winner, b.by, b.margin) and (
        a.by is not Termination.UNKNOWN or a.text == b.text
    )
