r"""The SGF grammar: text to game trees and back. Nothing here knows Go.

:class:`SgfNode` is one node of a game tree (property ids in capitals, values as unescaped
text, children); :func:`scan` reads a collection of trees from text, tolerantly and with a
location for every repair; :func:`write_tree` writes a tree back as FF[4] text.

What the scanner repairs (each noted in ``repairs`` as ``line L, column C: what``): junk
between properties, stray ``]`` (a value whose ``[`` is unbalanced gets it back:
``US[Matsuyama[3d]]``), values without a property, FF[1] long ids (``PlayerBlack`` →
``PB``, capitals kept), lowercase ids, a missing ``;`` before the first node, repeated
properties (merged), two moves in one node (split), unbalanced parentheses and an early
end of input. Escapes follow FF[4]: ``\x`` is ``x`` and a backslash before a line break
removes it.

The scanner takes time linear in the length of the text and memory proportional to it (no
regular expression that backtracks per character of a value, no list of line starts); it
stops storing repairs beyond :data:`MAX_REPAIR_LINES` (a broken file can have millions),
counting the rest instead, and refuses a text of more than :data:`MAX_NODES` nodes. All walks over trees are iterative, so deep nesting (OGS writes
a variation per move) is no problem.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import AnyStr

from miai.errors import SgfError
from miai.sgf.repairs import Field, Repair, RepairKind, Where

__all__ = ["MAX_NODES", "MAX_REPAIR_LINES", "SgfNode", "escape", "find_value_end", "scan", "write_tree"]

MAX_REPAIR_LINES = 100
"""Repairs beyond this many are summarised in one line."""
MAX_NODES = 1_000_000
"""The most nodes (and open parentheses) a text may hold: a node costs several hundred bytes
in memory, so this bounds a record at well under a gigabyte; a real game has a few hundred."""

MOVE_IDS = ("B", "W")
SETUP_IDS = ("AB", "AW", "AE")


# ============================================================================ the tree
class SgfNode:
    """One node of a game tree: properties (ids in capitals, values unescaped text) and children.

    ``children[0]`` continues the main line; the others are variations. ``where`` holds the
    line and column each property id was read at (for messages); it takes no part in equality.
    All walks are iterative, so a record of thousands of nodes is fine.
    """

    __slots__ = ("properties", "children", "where")

    def __init__(
        self,
        properties: dict[str, list[str]] | None = None,
        children: list[SgfNode] | None = None,
    ) -> None:
        self.properties: dict[str, list[str]] = {k: list(v) for k, v in (properties or {}).items()}
        self.children: list[SgfNode] = list(children or [])
        self.where: dict[str, tuple[int, int]] = {}

    def get(self, pid: str, default: str | None = None) -> str | None:
        """The first value of property ``pid``, or ``default``."""
        values = self.properties.get(pid)
        return values[0] if values else default

    def __contains__(self, pid: object) -> bool:
        return pid in self.properties

    @property
    def move(self) -> tuple[str, str] | None:
        """``("B", "pd")`` when the node holds a move (``""`` for a pass), else None."""
        for pid in MOVE_IDS:
            if pid in self.properties:
                values = self.properties[pid]
                return pid, values[0] if values else ""
        return None

    def walk(self) -> Iterator[SgfNode]:
        """This node and all below it, depth first, main line first."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))

    def main_line(self) -> list[SgfNode]:
        """This node and its first children down to the end."""
        nodes = [self]
        while nodes[-1].children:
            nodes.append(nodes[-1].children[0])
        return nodes

    def copy(self) -> SgfNode:
        """A deep copy of this subtree (positions included)."""
        clone = SgfNode(self.properties)
        clone.where = dict(self.where)
        stack = [(self, clone)]
        while stack:
            src, dst = stack.pop()
            for child in src.children:
                c = SgfNode(child.properties)
                c.where = dict(child.where)
                dst.children.append(c)
                stack.append((child, c))
        return clone

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SgfNode):
            return NotImplemented
        stack = [(self, other)]
        while stack:
            a, b = stack.pop()
            if a.properties != b.properties or len(a.children) != len(b.children):
                return False
            stack.extend(zip(a.children, b.children))
        return True

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        props = "".join(f"{k}{''.join('[' + v + ']' for v in vals)}" for k, vals in self.properties.items())
        if len(props) > 60:
            props = props[:57] + "..."
        kids = f", {len(self.children)} children" if len(self.children) != 1 else ", 1 child"
        return f"<SgfNode ;{props}{kids}>"


# ============================================================================ values
def find_value_end(text: AnyStr, start: int) -> int:
    """The index of the ``]`` that closes a value whose text starts at ``start`` (a ``]``
    after an odd number of backslashes is escaped), or -1 when the text ends first.

    Linear in the length of the value: each ``]`` looks back only over the backslashes
    right before it.
    """
    close: AnyStr = "]" if isinstance(text, str) else b"]"  # type: ignore[assignment]
    backslash = "\\" if isinstance(text, str) else 0x5C
    i = start
    while True:
        j = text.find(close, i)
        if j < 0:
            return -1
        k = j
        while k > start and text[k - 1] == backslash:
            k -= 1
        if (j - k) % 2 == 0:
            return j
        i = j + 1


_ESCAPE = re.compile(r"\\(\r\n|\n\r|\r|\n|.)", re.S)


def unescape(raw: str) -> str:
    """A value's text as SGF FF[4] reads it: ``\\x`` is ``x``, a backslash before a line
    break removes the break, and line breaks become ``\\n``."""
    if "\\" in raw:
        raw = _ESCAPE.sub(lambda m: "" if m.group(1) in ("\r\n", "\n\r", "\r", "\n") else m.group(1), raw)
    if "\r" in raw:
        raw = raw.replace("\r\n", "\n").replace("\n\r", "\n").replace("\r", "\n")
    return raw


def escape(value: str) -> str:
    """A value's text as it is written between ``[`` and ``]``."""
    return value.replace("\\", "\\\\").replace("]", "\\]")


# ============================================================================ the scanner
class _Frame:
    __slots__ = ("current", "started", "line", "column")

    def __init__(self, current: SgfNode | None, line: int, column: int) -> None:
        self.current = current
        self.started = False
        self.line = line
        self.column = column


class _Lines:
    """Line and column of a position, counted on demand from the last position asked for
    (the scanner asks in increasing order), so no table of line starts is kept."""

    __slots__ = ("text", "pos", "line", "start")

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.line = 1
        self.start = 0

    def at(self, pos: int) -> tuple[int, int]:
        if pos < self.pos:
            self.pos, self.line, self.start = 0, 1, 0
        newlines = self.text.count("\n", self.pos, pos)
        if newlines:
            self.line += newlines
            self.start = self.text.rfind("\n", self.pos, pos) + 1
        self.pos = pos
        return self.line, pos - self.start + 1


_WS = " \t\r\n\f\v"
_SPACE = re.compile(r"[ \t\r\n\f\v]*")
_BRACKETS = re.compile(r"\]+")
_LETTERS = re.compile(r"[A-Za-z]+")
_JUNK = re.compile(r"[^A-Za-z()\[\];" + _WS + r"\]]+")
_TREE_START = re.compile(r"\(\s*(?:;|\(|[A-Za-z]+\s*\[)")


def scan(text: str, repairs: list[Repair]) -> list[SgfNode]:
    """The game trees of ``text`` (a collection), in order; what had to be repaired is
    appended to ``repairs``. An empty list when there is no game tree at all."""
    return _Scanner(text, repairs).scan()


def describe_missing_tree(text: str) -> str:
    """Why ``text`` holds no game tree, for an error message."""
    m = _SPACE.match(text)
    i = m.end() if m else 0
    if i == len(text):
        return "the input is empty"
    line, col = _Lines(text).at(i)
    snippet = text[i : i + 20].replace("\n", " ")
    return f"expected '(;' but found {snippet!r} at line {line}, column {col}"


class _Scanner:
    """The SGF grammar (collection, game trees, nodes, properties), tolerant and iterative."""

    def __init__(self, text: str, repairs: list[Repair]) -> None:
        self.text = text
        self.repairs = repairs
        self.lines = _Lines(text)
        self.long_ids: dict[str, str] = {}
        self.noted = 0
        self.unnoted = 0
        self.nodes = 0

    def at(self, pos: int) -> tuple[int, int]:
        return self.lines.at(pos)

    def note(self, pos: int, kind: RepairKind, **fields: Field) -> None:
        if self.noted >= MAX_REPAIR_LINES:
            self.unnoted += 1  # no position computed, no string kept
            return
        self.noted += 1
        line, col = self.at(pos)
        self.repairs.append(Repair(kind, Where(line=line, column=col), **fields))

    def scan(self) -> list[SgfNode]:
        """The game trees of the text. This is the hot loop: the characters of every record
        (spaces, parentheses, ``;``, ``[``, property ids) are read inline; the repairs of
        broken text, between trees and at the end, by the methods below."""
        t = self.text
        n = len(t)
        roots: list[SgfNode] = []
        stack: list[_Frame] = []
        pid: str | None = None  # the property whose values are being read
        node: SgfNode | None = None  # the node ``pid`` belongs to
        last_value: tuple[SgfNode, str, int] | None = None  # the value just read: node, id, index
        i = 0
        while i < n:
            c = t[i]
            if c in _WS:
                m = _SPACE.match(t, i)
                i = m.end() if m else i + 1
                continue
            after_value, last_value = last_value, None
            if not stack:
                i = self._open_tree(i, stack, bool(roots))
                if i < 0:
                    break
                pid = node = None
                continue
            frame = stack[-1]
            if c == "(":
                if len(stack) >= MAX_NODES:
                    raise SgfError(f"more than {MAX_NODES} nested '(': not read")
                line, col = self.at(i)
                stack.append(_Frame(frame.current, line, col))
                pid = node = None
                i += 1
            elif c == ")":
                done = stack.pop()
                if not done.started:
                    self.note(i, RepairKind.EMPTY_TREE)
                pid = node = None
                i += 1
            elif c == ";":
                node = self._new_node(frame, roots, i)
                pid = None
                i += 1
            elif c == "[":
                start = i
                raw, i = self._value(i)
                if pid is None or node is None:
                    self.note(start, RepairKind.VALUE_WITHOUT_PROPERTY, value=raw[:20])
                    continue
                values = node.properties.setdefault(pid, [])
                values.append(unescape(raw))
                last_value = (node, pid, len(values) - 1)
            elif c == "]":
                i = self._close_bracket(i, after_value)
            elif c.isascii() and c.isalpha():
                m = _LETTERS.match(t, i)
                assert m is not None
                raw_id, start, i = m.group(), m.start(), m.end()
                ws = _SPACE.match(t, i)
                j = ws.end() if ws else i
                if j >= n or t[j] != "[":
                    self.note(start, RepairKind.ID_WITHOUT_VALUE, id=repr(raw_id[:40]))
                    pid = None
                    continue
                new_pid = self._normalize_id(raw_id)
                if not frame.started:
                    self.note(start, RepairKind.MISSING_SEMICOLON)
                    node = self._new_node(frame, roots, start)
                elif node is None:
                    node = frame.current
                assert node is not None
                if new_pid in MOVE_IDS and any(k in node.properties for k in MOVE_IDS):
                    self.note(start, RepairKind.SECOND_MOVE, pid=new_pid)
                    node = self._new_node(frame, roots, start)
                elif new_pid in node.properties:
                    self.note(start, RepairKind.REPEATED_PROPERTY, pid=new_pid)
                if new_pid not in node.where:
                    node.where[new_pid] = self.at(start)
                pid = new_pid
            else:
                i = self._skip_junk(i)
        self._summarize(stack)
        return roots

    def _open_tree(self, i: int, stack: list[_Frame], after_a_tree: bool) -> int:
        """Between game trees: open the next one (its ``(`` pushed on ``stack``) and return
        the index after its ``(``, skipping the junk before it; -1 when there is none."""
        t = self.text
        m = _TREE_START.search(t, i)
        if m is None:
            self.note(i, RepairKind.TEXT_AFTER_LAST_TREE, text=repr(t[i : i + 30].strip()))
            return -1
        if m.start() > i:
            kind = RepairKind.JUNK_BETWEEN_TREES if after_a_tree else RepairKind.JUNK_BEFORE_FIRST_TREE
            self.note(i, kind, count=len(t[i : m.start()].strip()))
        i = m.start()
        line, col = self.at(i)
        stack.append(_Frame(None, line, col))
        return i + 1

    def _close_bracket(self, i: int, after_value: tuple[SgfNode, str, int] | None) -> int:
        """A ``]`` outside a value: given back to the value just read if that value has an
        unclosed ``[``, else skipped with the ``]`` that follow it. The index after it."""
        if after_value is not None and self._balance(after_value):
            self.note(i, RepairKind.UNESCAPED_BRACKET, pid=after_value[1])
            return i + 1
        run = _BRACKETS.match(self.text, i)
        end = run.end() if run else i + 1
        count = end - i
        if count == 1:
            self.note(i, RepairKind.STRAY_BRACKET)
        else:
            self.note(i, RepairKind.STRAY_BRACKETS, count=count)
        return end

    def _skip_junk(self, i: int) -> int:
        """Characters that have no place between properties, skipped: the index after them."""
        m = _JUNK.match(self.text, i)
        end = m.end() if m else i + 1
        self.note(i, RepairKind.UNEXPECTED_TEXT, text=repr(self.text[i : min(end, i + 20)]))
        return end

    def _summarize(self, stack: list[_Frame]) -> None:
        """The repairs noted once at the end: unclosed trees, the ids read by their capitals,
        and how many repairs were not listed."""
        if stack:
            last = stack[-1]
            self.repairs.append(Repair(RepairKind.UNCLOSED_TREES, count=len(stack), line=last.line, column=last.column))
        if self.long_ids:
            pairs = ", ".join(f"{k}->{v}" for k, v in self.long_ids.items())
            self.repairs.append(Repair(RepairKind.LONG_IDS, pairs=pairs))
        if self.unnoted:
            self.repairs.append(Repair(RepairKind.MORE_TEXT_REPAIRS, count=self.unnoted))

    def _new_node(self, frame: _Frame, roots: list[SgfNode], pos: int) -> SgfNode:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise SgfError(f"more than {MAX_NODES} nodes: not read")
        node = SgfNode()
        node.where[";"] = self.at(pos)
        if frame.current is None:
            roots.append(node)
        else:
            frame.current.children.append(node)
        frame.current = node
        frame.started = True
        return node

    def _value(self, i: int) -> tuple[str, int]:
        """Read ``[...]`` starting at ``i``: the raw (escaped) value and the index after ``]``."""
        end = find_value_end(self.text, i + 1)
        if end < 0:
            self.note(i, RepairKind.UNCLOSED_VALUE)
            return self.text[i + 1 :].rstrip("\\"), len(self.text)
        return self.text[i + 1 : end], end + 1

    def _balance(self, last_value: tuple[SgfNode, str, int]) -> bool:
        """If the value just read has an unclosed ``[``, give it the stray ``]``."""
        node, pid, index = last_value
        value = node.properties[pid][index]
        if "[" in value and value.count("[") > value.count("]"):
            node.properties[pid][index] = value + "]"
            return True
        return False

    def _normalize_id(self, raw: str) -> str:
        if raw.isupper():
            return raw
        caps = "".join(ch for ch in raw if ch.isupper()) or raw.upper()
        if len(self.long_ids) < 40:
            self.long_ids.setdefault(raw[:40], caps)
        return caps


# ============================================================================ writing
_ROOT_ORDER = ("FF", "CA", "GM", "AP", "SZ", "KM", "HA", "RU", "GN", "EV", "RO", "DT", "PC", "PB", "BR", "PW", "WR", "RE")


def _node_text(node: SgfNode, *, is_root: bool) -> str:
    props = node.properties
    if is_root:
        order = [k for k in _ROOT_ORDER if k in props] + [k for k in props if k not in _ROOT_ORDER]
    else:
        order = [k for k in MOVE_IDS if k in props] + [k for k in props if k not in MOVE_IDS]
    parts = [";"]
    for pid in order:
        values = props[pid]
        if not values:
            continue
        parts.append(pid + "".join(f"[{escape(v)}]" for v in values))
        if is_root and pid in ("RE", "C", "AB", "AW"):
            parts.append("\n")
    return "".join(parts).rstrip("\n")


def write_tree(root: SgfNode) -> str:
    """Serialise one game tree, iteratively: one node a line, variations in parentheses."""
    tokens: list[str] = ["("]
    stack: list[SgfNode | str] = [root]
    first = True
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            tokens.append(item)
            continue
        tokens.append(_node_text(item, is_root=first))
        first = False
        if len(item.children) == 1:
            stack.append(item.children[0])
        elif item.children:
            for child in reversed(item.children):
                stack.extend((")", child, "("))
    tokens.append(")")
    out: list[str] = []
    for tok, nxt in zip(tokens, tokens[1:] + [""]):
        out.append(tok)
        if (tok != "(" and nxt not in (")", "")) and not (tok == ")" and nxt != "("):
            out.append("\n")
    out.append("\n")
    return "".join(out)
