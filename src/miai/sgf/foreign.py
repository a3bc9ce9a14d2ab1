"""Records in other servers' formats: Tygem GIB and WBaduk/Cyberoro NGF, as SGF trees.

pysgf's converters do the bulk of the work (:func:`read_foreign`); the functions here fill
what they leave out or get wrong: the closing passes of a GIB game (``SKI`` lines, which
pysgf skips), results in the servers' words, komi (GIB ``GONGJE`` in tenths, NGF whole
points), ranks, and the NGF layout whose header lines start with ``GI``. Numbers are read
with a bound on their digits (:func:`~miai.sgf.properties.small_int`), so an absurd value
is ignored rather than an error.
"""

from __future__ import annotations

import re

from miai.coords import MAX_SIZE, MIN_SIZE
from miai.errors import SgfError
from miai.result import Result
from miai.sgf.grammar import SgfNode
from miai.sgf.properties import small_int
from miai.sgf.repairs import Repair, RepairKind

__all__ = ["read_foreign"]

_KIND = {"gib": "Tygem GIB", "ngf": "WBaduk NGF"}


def read_foreign(text: str, fmt: str, notes: list[Repair], label: str) -> SgfNode:
    """Convert GIB or NGF text (``fmt`` is ``"gib"`` or ``"ngf"``) to an SGF tree; what was
    read specially goes to ``notes``. Raises :class:`SgfError` when the text is not such a
    record."""
    from pysgf import GoGame, ParseError  # type: ignore[import-untyped]

    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    gi_layout = fmt == "ngf" and sum(1 for ln in lines[:12] if ln.startswith("GI")) >= 6
    try:
        game = GoGame.from_string("\n".join(lines), ext=fmt)
    except (ParseError, ArithmeticError, AttributeError, LookupError, TypeError, ValueError) as e:
        # pysgf's converters are a black box to this reader: any of these is bad input
        raise SgfError(f"{label}not a readable {_KIND[fmt]} file: {str(e)[:200]}") from None
    root = _from_pysgf(game.root)
    notes.append(Repair(RepairKind.CONVERTED_GIB if fmt == "gib" else RepairKind.CONVERTED_NGF))
    if fmt == "gib":
        _fix_gib(root, lines, notes)
    elif gi_layout:
        _fix_ngf_gi(root, lines, notes)
    else:
        _fix_ngf(root, lines, notes)
    return root


def _from_pysgf(groot: object) -> SgfNode:
    def convert(gnode: object) -> SgfNode:
        props = {k: [str(v) for v in vals] for k, vals in gnode.properties.items() if vals}  # type: ignore[attr-defined]
        if "AB" in props:
            props["AB"] = sorted(props["AB"])  # pysgf builds handicap stones from a set
        return SgfNode(props)

    root = convert(groot)
    stack = [(groot, root)]
    while stack:
        g, s = stack.pop()
        for gc in g.children:  # type: ignore[attr-defined]
            sc = convert(gc)
            s.children.append(sc)
            stack.append((gc, sc))
    return root


def _set(root: SgfNode, pid: str, value: str | None) -> None:
    if value is None or value == "":
        root.properties.pop(pid, None)
    else:
        root.properties[pid] = [value]


def _result_text(text: str) -> str | None:
    """A server's result as an SGF ``RE`` value (canonical when understood, else as written)."""
    result = Result.read(text)
    return None if result is None else str(result)


# ---------------------------------------------------------------------------- GIB
def _fix_gib(root: SgfNode, lines: list[str], notes: list[Repair]) -> None:
    fields = {}
    for ln in lines:
        m = re.match(r"\\\[(\w+)=(.*)\\\]\s*$", ln.strip())
        if m:
            fields[m.group(1)] = m.group(2)
    if "KM" not in root.properties:
        gongje = fields.get("GAMEGONGJE")
        if gongje is None:
            m = re.search(r"GONGJE:(\d+)", fields.get("GAMEINFOMAIN", ""))
            gongje = m.group(1) if m else None
        tenths = small_int(gongje.strip()) if gongje is not None and gongje.strip().isdigit() else None
        if tenths is not None:
            _set(root, "KM", f"{tenths / 10:g}")
        elif gongje is not None and gongje.strip():
            notes.append(Repair(RepairKind.GIB_KOMI_IGNORED, value=repr(gongje.strip()[:20])))
    if "RE" in root.properties:
        _set(root, "RE", _result_text(root.get("RE") or ""))
    elif fields.get("GAMERESULT", "").strip():
        norm = _result_text(fields["GAMERESULT"])
        if norm:
            _set(root, "RE", norm)
            notes.append(Repair(RepairKind.GIB_RESULT_READ_AS, value=repr(fields["GAMERESULT"][:60]), result=str(norm)))
    name = fields.get("GAMENAME", "").strip()
    if name and "GN" not in root.properties:
        _set(root, "GN", name)
    _gib_passes(root, lines, notes)


def _gib_passes(root: SgfNode, lines: list[str], notes: list[Repair]) -> None:
    """Put the passes of ``SKI`` lines where they stand among the ``STO`` moves.

    pysgf turns each ``STO 0 n colour x y`` line into a node and skips ``SKI 0 n`` (a
    pass), so a game that ended with passes lost them. A pass is played by the colour the
    line gives (``1`` Black, ``2`` White) when it gives one, else by the other colour than
    the move before it (White after handicap stones, Black at the start of an even game).
    """
    records = [ln.strip() for ln in lines if ln.strip()[:3] in ("STO", "SKI")]  # as pysgf reads them
    kinds = [ln[:3] for ln in records]
    if "SKI" not in kinds:
        return
    chain = root.main_line()[1:]
    if len(chain) != kinds.count("STO"):
        notes.append(Repair(RepairKind.GIB_PASSES_NOT_PLACED))
        return
    ski_lines = iter(ln.split() for ln in records if ln.startswith("SKI"))
    moves = iter(chain)
    previous = "W" if "AB" not in root.properties else "B"  # so that the first mover is Black, or White after handicap
    nodes: list[SgfNode] = []
    passes = 0
    for kind in kinds:
        if kind == "STO":
            node = next(moves)
            mv = node.move
            previous = mv[0] if mv else previous
            nodes.append(node)
            continue
        fields = next(ski_lines)
        colour = {"1": "B", "2": "W"}.get(fields[3]) if len(fields) > 3 else None
        previous = colour or ("B" if previous == "W" else "W")
        nodes.append(SgfNode({previous: [""]}))
        passes += 1
    in_chain = {id(n) for n in chain}
    parent = root
    for node in nodes:
        rest = [c for c in node.children if id(c) not in in_chain]
        node.children = rest
        parent.children[0:1] = [node]
        parent = node
    notes.append(Repair(RepairKind.GIB_PASSES, count=passes))


# ---------------------------------------------------------------------------- NGF
def _ngf_player(text: str) -> tuple[str | None, str | None]:
    parts = text.split()
    if not parts:
        return None, None
    name = parts[0]
    rank = " ".join(parts[1:]) or None
    if rank:
        m = re.fullmatch(r"(\d+)\s*(DP|P|D|K)\*?", rank, re.I)
        if m:
            rank = m.group(1) + {"dp": "p", "p": "p", "d": "d", "k": "k"}[m.group(2).lower()]
    return name, rank


def _fix_ngf(root: SgfNode, lines: list[str], notes: list[Repair]) -> None:
    if len(lines) < 11:
        return
    white, wrank = _ngf_player(lines[2])
    black, brank = _ngf_player(lines[3])
    _set(root, "PW", white)
    _set(root, "WR", wrank)
    _set(root, "PB", black)
    _set(root, "BR", brank)
    result = _result_text(lines[10])
    if result:
        _set(root, "RE", result)
    title = lines[0].strip()
    if title:
        _set(root, "GN", title)
    komi_text = lines[7].strip()
    komi = small_int(komi_text.lstrip("-"), 4) if komi_text.lstrip("-").isdigit() else None
    if komi is not None and "KM" not in root.properties:
        _set(root, "KM", str(-komi if komi_text.startswith("-") else komi))
    elif komi is not None and root.get("KM") != komi_text:
        notes.append(Repair(RepairKind.NGF_KOMI, value=komi_text, komi=str(root.get("KM"))))


def _fix_ngf_gi(root: SgfNode, lines: list[str], notes: list[Repair]) -> None:
    head = [ln[2:].strip() if ln.startswith("GI") else ln.strip() for ln in lines[:11]]
    head += [""] * (11 - len(head))
    title, first, second, date, size, handicap, komi = head[0], head[1], head[2], head[5], head[6], head[7], head[8]
    white, wrank = _ngf_player(first)
    black, brank = _ngf_player(second)
    _set(root, "GN", title)
    _set(root, "PW", white)
    _set(root, "WR", wrank)
    _set(root, "PB", black)
    _set(root, "BR", brank)
    if re.fullmatch(r"\d{4}-\d{1,2}-\d{1,2}", date):
        y, mo, d = date.split("-")
        _set(root, "DT", f"{y}-{int(mo):02d}-{int(d):02d}")
    board = small_int(size, 3) if size.isdigit() else None
    if board is not None and MIN_SIZE <= board <= MAX_SIZE:
        _set(root, "SZ", str(board))
    stones = small_int(handicap, 3) if handicap.isdigit() else None
    if stones is not None and stones >= 2:
        notes.append(Repair(RepairKind.NGF_GI_HANDICAP, handicap=stones))
    points = small_int(komi.lstrip("-"), 4) if komi.lstrip("-").isdigit() else None
    if points is not None:
        _set(root, "KM", str(-points if komi.startswith("-") else points))
    notes.append(Repair(RepairKind.NGF_GI_HEADER))
