r"""Game records: SGF FF[4] read tolerantly and written cleanly, plus Tygem GIB and WBaduk NGF
(RULES.md §9).

Two layers, as sgfmill layers them:

(a) **Records.** :func:`read_record` / :func:`read_file` / :func:`read_collection` turn bytes
    into an :class:`SgfRecord`: the whole game tree (:class:`SgfNode`, variations and unknown
    properties kept) and the facts a program needs (size, komi, handicap, rules, players,
    result, the main line as moves and setup edits, comments), with ``repairs``: one line for
    everything that had to be fixed or guessed. :meth:`SgfRecord.to_sgf` writes the tree back;
    reading that text gives an equal record.
(b) **Games.** :func:`game_from_record` and :func:`load_game` replay the main line through the
    checked :class:`~miai.game.Game` API; :func:`game_to_sgf` writes a game, and with the record
    it came from keeps that record's variations, comments and unknown properties. The end of
    a counted game travels as territory marks (``TB``/``TW`` in the last node, as other
    programs write them), which carry the agreed dead stones both ways.

How the text is read, step by step:

1. *Bytes to text* (:func:`decode_sgf_bytes`): a BOM wins; else the declared ``CA`` (searched
   for in the raw bytes, wherever it stands, and read with the usual superset codec: GB2312 as
   GB18030, Shift_JIS as CP932, EUC-KR as CP949); else valid UTF-8; else a guess among
   GB18030, CP932, CP949, Big5 and CP1252 that decodes every non-ASCII property value into
   plausible characters for that script (ideographs, kana, KS X 1001 hangul; accented letters
   inside Latin words), with chardet to break ties and GB18030 first when nothing else
   decides. Every guess is reported.
2. *Text to trees* (:class:`_Scanner`): the SGF grammar, tolerant and iterative (deep OGS
   nesting is no problem), with a location for every repair: junk between properties,
   stray ``]`` (a value whose ``[`` is unbalanced gets it back: ``US[Matsuyama[3d]]``), values
   without a property, FF[1] long ids (``PlayerBlack`` → ``PB``, capitals kept), lowercase
   ids, a missing ``;`` before the first node, repeated properties (merged), two moves in one
   node (split), unbalanced parentheses and an unexpected end of input. Escapes follow FF[4]:
   ``\x`` is ``x`` and a backslash before a line break removes it.
3. *Tree to record* (:func:`_build_record`): size, komi (Fox ``KM[325]`` in hundredths of a
   stone → 6.5, ``KM[5 1/2]``, ``KM[]``, Nihon Ki-in ``KO[黒6目半]``), handicap (non-numeric
   ``HA``, handicap stones given in a later node), ``[tt]`` passes, invalid points, the rules
   (``RU`` kept as text, mapped to the closest preset) and the result (free text such as
   ``White resigns`` or ``黒中押し勝ち`` normalised to ``B+R``). Repairs that change a value
   change it in the tree as well, so a written record reads back without them.

Choosing the library (every file of ``shared/sgf-samples``, against its README):

====================================  ============================================  ==========================================
sample                                pysgf 1.0.0 (sanderland, KaTrain's)           sgfmill 1.1.1
====================================  ============================================  ==========================================
CA after PB (GB2312, EUC-KR, SJIS)    right (scans the bytes for CA)                right
UTF-8 without CA (Fox)                right (names in UTF-8)                        mojibake (ISO-8859-1 default)
GB2312 without CA (glGo PW 白)         right (chardet on the first 300 bytes)        wrong: ``°×``
GB2312 comment at the end (Jago)      wrong: the bytes are silently dropped          mojibake
Latin-1 without CA (Many Faces)       wrong: CP1252 is mapped to GBK                right (the SGF default)
Shift-JIS, no CA, no root ``;``       right                                         fails: "no SGF data found"
UTF-16LE with BOM                     right                                         fails: "no SGF data found"
Fox ``KM[0]`` / ``KM[325]``           replaced from AP and HA: 6.5, 0.5 / 0.5       0 / 325 as written (no Fox fix)
Fox ``HA[1]``                         read                                          ``get_handicap`` raises
FF[1] long ids, ``CoPyright``         right (capitals kept)                         right
stray ``]``, SGFC's broken file       ParseError, no position                       ValueError, no position
escapes: ``C[a\] [b]``                wrong: split into two values                  right
soft line breaks, ``\:``              kept verbatim (wrong)                         right
GIB (4 files) / NGF (3 files)         read; GB2312 GIB names mojibake; EUC-KR       not supported
                                      ranks lost (forced UTF-8, bytes dropped);
                                      NGF result ``B+`` with no margin or R;
                                      the GI-layout NGF loses names and date
====================================  ============================================  ==========================================

Moves, sizes, handicaps and names come out right in both wherever they parse at all. pysgf is
the dependency because it reads GIB and NGF and got more encodings right; its converters are
used here (:func:`_read_foreign`) with their gaps filled (results, ranks, komi, GI layout,
charset). Its SGF text parser is not used: it has no positions for errors, stops at a stray
``]``, splits escaped values, ignores soft line breaks and recurses once per ``(``; neither
library repairs, so the grammar layer here is a small tolerant scanner of its own.
"""

from __future__ import annotations

import codecs
import re
import unicodedata
from bisect import bisect_right
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Union

from miai.coords import MAX_SIZE, MIN_SIZE, Color, Move, Point, neighbours, point_to_gtp
from miai.errors import HandicapError, IllegalMoveError, InvalidMoveError, RulesError, SgfError
from miai.result import Result, Termination
from miai.rules import PRESETS, Rules

if TYPE_CHECKING:
    from miai.game import Game, Setup
    from miai.scoring import Score

Event = Union[Move, "Setup"]
"""An entry of a main line, as :attr:`Game.history <miai.game.Game.history>` holds them."""

__all__ = [
    "SgfNode",
    "SgfRecord",
    "decode_sgf_bytes",
    "game_from_record",
    "game_to_sgf",
    "load_game",
    "normalise_result",
    "read_collection",
    "read_file",
    "read_record",
    "rules_from_text",
    "rules_to_text",
    "write_collection",
]

DEFAULT_SIZE = 19
MAX_REPAIR_LINES = 100
"""Repairs beyond this many are summarised in one line (a broken file can have thousands)."""

_SETUP_IDS = ("AB", "AW", "AE")
_MOVE_IDS = ("B", "W")


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
        for pid in _MOVE_IDS:
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


# ============================================================================ the record
@dataclass(eq=False)
class SgfRecord:
    """A game record read from SGF (or GIB/NGF): the tree and the facts read from it.

    The fields are a view of ``root`` taken when the record was read; writing uses the tree.
    ``events`` is the main line as a :class:`~miai.game.Game` replays it: setup edits
    (``AB``/``AW``/``AE``/``PL``, the root's included) and moves with their colours.
    ``comments`` maps a move number to the comment of the main-line node(s) where the game
    stood after that many moves (0: the root and setup nodes before the first move).
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
    result: str | None = None
    result_text: str | None = None
    game_name: str | None = None
    events: list[Event] = field(default_factory=list)
    comments: dict[int, str] = field(default_factory=dict)
    encoding: str = "utf-8"
    source_format: str = "sgf"
    repairs: list[str] = field(default_factory=list)

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
        return _write_tree(self.root)

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


# ============================================================================ reading
def read_file(path: str | Path) -> SgfRecord:
    """Read the first game of an SGF, GIB or NGF file (the format from the extension, else
    from the content)."""
    p = Path(path)
    return read_record(p.read_bytes(), filename=p.name)


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
    fmt = _detect_format(data, filename)
    if isinstance(data, str):
        text, encoding, notes = data, "str", []
        if text.startswith("\ufeff"):
            text = text[1:]
    else:
        text, encoding, notes = decode_sgf_bytes(data, fmt=fmt)
    if "\x00" in text:
        notes.append(f"removed {text.count(chr(0))} NUL character(s)")
        text = text.replace("\x00", "")
    if fmt in ("gib", "ngf"):
        root = _read_foreign(text, fmt, notes, label)
        roots = [root]
    else:
        scanner = _Scanner(text, notes)
        roots = scanner.scan()
        if not roots:
            raise SgfError(f"{label}no SGF game tree found: {scanner.describe_missing_tree()}")
        if first_only and len(roots) > 1:
            notes.append(f"the file holds {len(roots)} game trees; read the first (read_collection reads all)")
            roots = roots[:1]
    records = []
    for i, root in enumerate(roots):
        game_label = label + (f"game {i + 1}: " if len(roots) > 1 else "")
        repairs = list(notes) if i == 0 else []
        records.append(_build_record(root, repairs, game_label, encoding=encoding, source_format=fmt))
    if len(records) > 1 and encoding not in ("str", "ascii"):
        records[0].repairs.append(f"the whole collection was decoded as {encoding}")
    for rec in records:
        _cap_repairs(rec.repairs)
    return records


def _cap_repairs(repairs: list[str]) -> None:
    if len(repairs) > MAX_REPAIR_LINES:
        extra = len(repairs) - (MAX_REPAIR_LINES - 1)
        del repairs[MAX_REPAIR_LINES - 1 :]
        repairs.append(f"... and {extra} more repairs")


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
    if b"(" not in head and re.search(rb"^PM[A-Z]{2}[BW][A-Z]{2}", bytes(data[:200000]) if isinstance(data, bytes) else head, re.M):
        return "ngf"
    return "sgf"


# ---------------------------------------------------------------------------- charsets
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_SUPERSETS = {
    "gb2312": "gb18030", "gbk": "gb18030", "cp936": "gb18030", "euc-cn": "gb18030", "gb18030": "gb18030",
    "shift-jis": "cp932", "shiftjis": "cp932", "sjis": "cp932", "ms-kanji": "cp932", "cp932": "cp932",
    "windows-31j": "cp932",
    "euc-kr": "cp949", "ks-c-5601-1987": "cp949", "ksc5601": "cp949", "uhc": "cp949", "cp949": "cp949",
    "iso-8859-1": "latin-1", "iso8859-1": "latin-1", "latin1": "latin-1", "latin-1": "latin-1",
    "big5": "big5",
}  # fmt: skip
_GUESSES = ("gb18030", "cp932", "cp949", "big5", "cp1252")
_CHARDET_NAMES = {
    "gb2312": "gb18030", "gbk": "gb18030", "gb18030": "gb18030", "hz-gb-2312": "gb18030",
    "euc-kr": "cp949", "cp949": "cp949", "johab": "cp949",
    "shift_jis": "cp932", "cp932": "cp932", "euc-jp": "cp932",
    "big5": "big5", "windows-1252": "cp1252", "iso-8859-1": "cp1252", "iso-8859-15": "cp1252",
}  # fmt: skip
_CA_BYTES = re.compile(rb"(?<![A-Za-z])CA\s*\[\s*([^\]]{0,40}?)\s*\]")
_VALUE_BYTES = re.compile(rb"\[((?:[^\]\\]|\\.)*)\]", re.S)
_STRICT_CJK = {"gb18030": "gb2312", "cp949": "euc_kr", "cp932": "shift_jis", "big5": "big5"}


def _codec_for(declared: str) -> str | None:
    """The Python codec for a CA value (superset codecs for the East Asian ones), or None."""
    name = declared.strip().lower().replace("_", "-")
    m = re.fullmatch(r"utf-?(8|16|32)(?:-?(le|be))?", name)
    if m:
        return f"utf-{m.group(1)}" + (f"-{m.group(2)}" if m.group(2) else "")
    if name in _SUPERSETS:
        return _SUPERSETS[name]
    try:
        return codecs.lookup(name).name
    except (LookupError, ValueError):
        return None


def decode_sgf_bytes(data: bytes, *, fmt: str = "sgf") -> tuple[str, str, list[str]]:
    """Decode a record's bytes: returns ``(text, codec, notes)``; see the module docstring."""
    notes: list[str] = []
    for bom, codec in _BOMS:
        if data.startswith(bom):
            text = data[len(bom) :].decode(codec, errors="replace")
            if "\ufffd" in text:
                notes.append(f"bytes that are not {codec} replaced by U+FFFD")
            return text, codec, notes
    if len(data) >= 4 and data[:400].count(0) * 3 > len(data[:400]):
        codec = "utf-16-le" if data[1] == 0 else "utf-16-be"
        notes.append(f"no BOM, but NUL bytes every other byte: decoded as {codec}")
        return data.decode(codec, errors="replace"), codec, notes
    if data.isascii():
        return data.decode("ascii"), "ascii", notes
    declared = None
    if fmt == "sgf":
        m = _CA_BYTES.search(data)
        if m:
            declared = m.group(1).decode("ascii", "replace")
    if declared is not None:
        codec = _codec_for(declared)
        if codec is None:
            notes.append(f"unknown charset CA[{declared}]")
        else:
            try:
                return data.decode(codec), codec, notes
            except UnicodeDecodeError as e:
                line = data.count(b"\n", 0, e.start) + 1
                notes.append(f"CA[{declared}] but byte {e.start} (line {line}) is not {declared}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    else:
        if declared is None:
            notes.append("no charset declared; the text is valid UTF-8 and was read as UTF-8")
        else:
            notes.append("the text is valid UTF-8 and was read as UTF-8")
        return text, "utf-8", notes
    codec, why = _guess_charset(data, fmt)
    notes.append(f"charset guessed: {codec} ({why})")
    try:
        return data.decode(codec), codec, notes
    except UnicodeDecodeError:  # pragma: no cover - _guess_charset only returns codecs that decode
        return data.decode("latin-1"), "latin-1", notes


def _text_segments(data: bytes, fmt: str) -> list[bytes]:
    """The parts of the file that hold text: property values, or lines for GIB/NGF."""
    segs: list[bytes] = []
    if fmt == "sgf":
        segs = [v for v in _VALUE_BYTES.findall(data) if not v.isascii()]
    if not segs:
        segs = [line for line in data.splitlines() if not line.isascii()]
    return segs


def _char_plausibility(ch: str, codec: str) -> int:
    o = ord(ch)
    if codec == "cp1252":
        return 1 if unicodedata.category(ch).startswith("L") else -2
    if 0x4E00 <= o <= 0x9FFF:
        try:
            ch.encode(_STRICT_CJK[codec])
            return 1
        except UnicodeEncodeError:
            return 0
    if 0xAC00 <= o <= 0xD7A3:
        try:
            ch.encode("euc_kr")
            return 1
        except UnicodeEncodeError:
            return -1  # a hangul syllable outside KS X 1001: rare in real text
    if 0x3040 <= o <= 0x30FF or 0x3000 <= o <= 0x303F or 0xFF01 <= o <= 0xFF5E:
        return 1
    if 0xFF61 <= o <= 0xFF9F:
        return -1  # half-width katakana
    return -2


_NON_ASCII_RUN = re.compile(r"[^\x00-\x7f]+")


def _plausibility(segments: list[bytes], codec: str) -> float | None:
    """How plausible the text is in ``codec`` (-2..1, weighted by bytes), None if it does not decode."""
    total = weight = 0.0
    for seg in segments:
        try:
            s = seg.decode(codec)
        except UnicodeDecodeError:
            return None
        for m in _NON_ASCII_RUN.finditer(s):
            run, a, b = m.group(), m.start(), m.end()
            glued = (a > 0 and s[a - 1].isascii() and s[a - 1].isalpha()) or (
                b < len(s) and s[b].isascii() and s[b].isalpha()
            )
            score = sum(_char_plausibility(ch, codec) for ch in run) / len(run)
            if score > 0:
                if codec == "cp1252":
                    score = score if glued and len(run) <= 3 else 0.0  # accents sit inside Latin words
                elif glued:
                    score *= 0.5  # ideographs rarely touch Latin letters
            n = len(run.encode(codec))
            total += score * n
            weight += n
    return total / weight if weight else 0.0


def _guess_charset(data: bytes, fmt: str) -> tuple[str, str]:
    segments = _text_segments(data, fmt) or [data]
    scored = []
    for codec in _GUESSES:
        p = _plausibility(segments, codec)
        if p is not None:
            scored.append((p, codec))
    if not scored:
        return "latin-1", "no East Asian or Windows charset decodes it"
    best = max(p for p, _ in scored)
    tied = [c for p, c in scored if p >= best - 0.02]
    if len(tied) == 1:
        return tied[0], "the only charset whose characters are plausible"
    try:
        import chardet

        ranking = [_CHARDET_NAMES.get((r["encoding"] or "").lower()) for r in chardet.detect_all(b"\n".join(segments))]
    except Exception:  # pragma: no cover - chardet is a dependency of pysgf
        ranking = []
    for name in ranking:
        if name in tied:
            return name, f"chardet's choice among {', '.join(tied)}"
    return tied[0], f"first of {', '.join(tied)}, which all fit"


# ---------------------------------------------------------------------------- the grammar
class _Frame:
    __slots__ = ("current", "started", "line", "column")

    def __init__(self, current: SgfNode | None, line: int, column: int) -> None:
        self.current = current
        self.started = False
        self.line = line
        self.column = column


_WS = " \t\r\n\f\v"
_VALUE_BODY = re.compile(r"(?:[^\\\]]|\\.)*", re.S)
_ESCAPE = re.compile(r"\\(\r\n|\n\r|\r|\n|.)", re.S)
_LETTERS = re.compile(r"[A-Za-z]+")
_JUNK = re.compile(r"[^A-Za-z()\[\];" + _WS + r"\]]+")
_TREE_START = re.compile(r"\(\s*(?:;|\(|[A-Za-z]+\s*\[)")


def _unescape(raw: str) -> str:
    text = _ESCAPE.sub(lambda m: "" if m.group(1) in ("\r\n", "\n\r", "\r", "\n") else m.group(1), raw)
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\n\r", "\n").replace("\r", "\n")
    return text


class _Scanner:
    """The SGF grammar (collection, game trees, nodes, properties), tolerant and iterative."""

    def __init__(self, text: str, repairs: list[str]) -> None:
        self.text = text
        self.repairs = repairs
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self.long_ids: dict[str, str] = {}

    def at(self, pos: int) -> tuple[int, int]:
        line = bisect_right(self.line_starts, pos)
        return line, pos - self.line_starts[line - 1] + 1

    def where(self, pos: int) -> str:
        line, col = self.at(pos)
        return f"line {line}, column {col}"

    def note(self, pos: int, what: str) -> None:
        self.repairs.append(f"{self.where(pos)}: {what}")

    def describe_missing_tree(self) -> str:
        t = self.text
        i = 0
        while i < len(t) and t[i] in _WS:
            i += 1
        if i == len(t):
            return "the input is empty"
        snippet = t[i : i + 20].replace("\n", " ")
        return f"expected '(;' but found {snippet!r} at {self.where(i)}"

    def scan(self) -> list[SgfNode]:
        t = self.text
        n = len(t)
        roots: list[SgfNode] = []
        stack: list[_Frame] = []
        pid: str | None = None  # the property whose values are being read
        node: SgfNode | None = None  # the node ``pid`` belongs to
        last_value: tuple[SgfNode, str, int, int] | None = None  # node, id, index, end
        i = 0
        while i < n:
            c = t[i]
            if c in _WS:
                i += 1
                continue
            if not stack:
                m = _TREE_START.search(t, i)
                if m is None:
                    if t[i:].strip():
                        self.note(i, f"text after the last game tree ignored: {t[i:i + 30].strip()!r}")
                    break
                if m.start() > i and t[i : m.start()].strip():
                    what = "before the first game tree" if not roots else "between game trees"
                    self.note(i, f"{len(t[i:m.start()].strip())} characters {what} ignored")
                i = m.start()
                line, col = self.at(i)
                stack.append(_Frame(None, line, col))
                pid = node = last_value = None
                i += 1
                continue
            frame = stack[-1]
            if c == "(":
                line, col = self.at(i)
                stack.append(_Frame(frame.current, line, col))
                pid = node = last_value = None
                i += 1
            elif c == ")":
                done = stack.pop()
                if not done.started:
                    self.note(i, "empty game tree '()' dropped")
                pid = node = last_value = None
                i += 1
            elif c == ";":
                node = self._new_node(frame, roots, i)
                pid = None
                last_value = None
                i += 1
            elif c == "[":
                start = i
                raw, i = self._value(i)
                if pid is None or node is None:
                    self.note(start, f"value [{raw[:20]}] without a property name skipped")
                    continue
                node.properties.setdefault(pid, []).append(_unescape(raw))
                last_value = (node, pid, len(node.properties[pid]) - 1, i)
            elif c == "]":
                if last_value is not None and t[last_value[3] : i].strip() == "" and self._balance(last_value):
                    self.note(i, f"unescaped ']' inside the value of {last_value[1]} kept in the value")
                else:
                    self.note(i, "stray ']' skipped")
                i += 1
            elif c.isascii() and c.isalpha():
                m = _LETTERS.match(t, i)
                assert m is not None
                raw_id, start, i = m.group(), m.start(), m.end()
                j = i
                while j < n and t[j] in _WS:
                    j += 1
                if j >= n or t[j] != "[":
                    self.note(start, f"{raw_id!r} is not followed by a value: skipped")
                    pid = None
                    continue
                new_pid = self._normalise_id(raw_id, start)
                if not frame.started:
                    self.note(start, "missing ';' before the first node of a game tree: node started")
                    node = self._new_node(frame, roots, start)
                elif node is None:
                    node = frame.current
                assert node is not None
                if new_pid in _MOVE_IDS and any(k in node.properties for k in _MOVE_IDS):
                    self.note(start, f"a second move ({new_pid}) in one node: split into a new node")
                    node = self._new_node(frame, roots, start)
                elif new_pid in node.properties:
                    self.note(start, f"property {new_pid} repeated in one node: values merged")
                node.where.setdefault(new_pid, self.at(start))
                pid = new_pid
                last_value = None
            else:
                m = _JUNK.match(t, i)
                end = m.end() if m else i + 1
                self.note(i, f"unexpected {t[i:end][:20]!r} skipped")
                i = end
        if stack:
            self.repairs.append(
                f"unexpected end of input: {len(stack)} unclosed '(' (the last opened at line "
                f"{stack[-1].line}, column {stack[-1].column}) closed"
            )
        if self.long_ids:
            pairs = ", ".join(f"{k}->{v}" for k, v in self.long_ids.items())
            self.repairs.append(f"long or lowercase property ids read by their capitals: {pairs}")
        return roots

    def _new_node(self, frame: _Frame, roots: list[SgfNode], pos: int) -> SgfNode:
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
        m = _VALUE_BODY.match(self.text, i + 1)
        assert m is not None
        end = m.end()
        if end >= len(self.text):
            self.note(i, "unexpected end of input inside a property value: value closed")
            return self.text[i + 1 :].rstrip("\\"), len(self.text)
        return m.group(), end + 1

    def _balance(self, last_value: tuple[SgfNode, str, int, int]) -> bool:
        """If the value just read has an unclosed ``[``, give it the stray ``]``."""
        node, pid, index, _ = last_value
        value = node.properties[pid][index]
        if value.count("[") > value.count("]"):
            node.properties[pid][index] = value + "]"
            return True
        return False

    def _normalise_id(self, raw: str, pos: int) -> str:
        if raw.isupper():
            return raw
        caps = "".join(ch for ch in raw if ch.isupper()) or raw.upper()
        self.long_ids.setdefault(raw, caps)
        return caps


# ---------------------------------------------------------------------------- GIB and NGF
def _read_foreign(text: str, fmt: str, notes: list[str], label: str) -> SgfNode:
    """Convert GIB or NGF text with pysgf, then fill the gaps its converters leave."""
    from pysgf import GoGame, ParseError

    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    gi_layout = fmt == "ngf" and sum(1 for ln in lines[:12] if ln.startswith("GI")) >= 6
    try:
        game = GoGame.from_string("\n".join(lines), ext=fmt)
    except (ParseError, ValueError, IndexError) as e:
        kind = "Tygem GIB" if fmt == "gib" else "WBaduk NGF"
        raise SgfError(f"{label}not a readable {kind} file: {e}") from None
    root = _from_pysgf(game.root)
    notes.append(f"converted from {'Tygem GIB' if fmt == 'gib' else 'WBaduk/Cyberoro NGF'}")
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


def _fix_gib(root: SgfNode, lines: list[str], notes: list[str]) -> None:
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
        if gongje is not None and gongje.strip().isdigit():
            _set(root, "KM", f"{int(gongje) / 10:g}")
    if "RE" in root.properties:
        norm = normalise_result(root.get("RE") or "")
        _set(root, "RE", norm)
    elif fields.get("GAMERESULT", "").strip():
        norm = normalise_result(fields["GAMERESULT"])
        if norm:
            _set(root, "RE", norm)
            notes.append(f"GIB result {fields['GAMERESULT']!r} read as {norm}")
    name = fields.get("GAMENAME", "").strip()
    if name and "GN" not in root.properties:
        _set(root, "GN", name)


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


def _ngf_result(text: str) -> str | None:
    return normalise_result(text)


def _fix_ngf(root: SgfNode, lines: list[str], notes: list[str]) -> None:
    if len(lines) < 11:
        return
    white, wrank = _ngf_player(lines[2])
    black, brank = _ngf_player(lines[3])
    _set(root, "PW", white)
    _set(root, "WR", wrank)
    _set(root, "PB", black)
    _set(root, "BR", brank)
    result = _ngf_result(lines[10])
    if result:
        _set(root, "RE", result)
    title = lines[0].strip()
    if title:
        _set(root, "GN", title)
    komi_text = lines[7].strip()
    if komi_text.lstrip("-").isdigit() and "KM" not in root.properties:
        _set(root, "KM", str(int(komi_text)))
    elif komi_text.lstrip("-").isdigit() and root.get("KM") != komi_text:
        notes.append(f"NGF komi {komi_text} read as {root.get('KM')} (whole points written, a half point implied)")


def _fix_ngf_gi(root: SgfNode, lines: list[str], notes: list[str]) -> None:
    head = [ln[2:].strip() if ln.startswith("GI") else ln.strip() for ln in lines[:11]]
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
    if size.isdigit() and MIN_SIZE <= int(size) <= MAX_SIZE:
        _set(root, "SZ", size)
    if handicap.isdigit() and int(handicap) >= 2:
        notes.append(f"GI-layout NGF with handicap {handicap}: handicap stones not placed")
    if komi.lstrip("-").isdigit():
        _set(root, "KM", str(int(komi)))
    notes.append("NGF with a 'GI' header: players read in the usual NGF order (White first)")


# ============================================================================ tree -> record
def _where(node: SgfNode, pid: str | None = None, number: int | None = None) -> str:
    """Where a node (or one of its properties) stands, for messages: the node's number along
    the main line when known (0 is the root), and the line and column when read from text."""
    parts = []
    if number is not None:
        parts.append("root node" if number == 0 else f"node {number}")
    pos = (node.where.get(pid) if pid else None) or node.where.get(";")
    if pos:
        parts.append(f"line {pos[0]}, column {pos[1]}")
    return ", ".join(parts) if parts else "the record"


class _Report:
    """Where repairs go, and how errors say where they are."""

    def __init__(self, repairs: list[str], label: str) -> None:
        self.repairs = repairs
        self.label = label

    def note(self, node: SgfNode, pid: str | None, number: int | None, what: str) -> None:
        self.repairs.append(f"{_where(node, pid, number)}: {what}")

    def plain(self, what: str) -> None:
        self.repairs.append(what)

    def fail(self, node: SgfNode, pid: str | None, number: int | None, what: str) -> SgfError:
        return SgfError(f"{self.label}{_where(node, pid, number)}: {what}")


def _build_record(root: SgfNode, repairs: list[str], label: str, *, encoding: str, source_format: str) -> SgfRecord:
    report = _Report(repairs, label)
    note, fail = report.note, report.fail

    # -- game type and size
    gm = (root.get("GM") or "1").strip()
    if gm != "1":
        if gm.isdigit():
            raise fail(root, "GM", 0, f"GM[{gm}] is not a record of Go (GM[1])")
        note(root, "GM", 0, f"GM[{gm}] is not a number: read as Go")
    size = _read_size(root, report)

    # -- the tree: move and setup values
    _check_points(root, size, report)

    # -- handicap
    handicap = _read_handicap(root, report)

    # -- komi
    rules_text = root.get("RU")
    rules, warning = rules_from_text(rules_text)
    if warning:
        note(root, "RU", 0, warning)
    komi = _read_komi(root, rules, report)
    rules = rules.replace(komi=komi if komi is not None else 0.0)

    # -- charset and format
    ff = root.get("FF")
    root.properties.update(FF=["4"], CA=["UTF-8"], GM=["1"])
    if ff not in (None, "4", "3", "1"):
        note(root, "FF", 0, f"FF[{ff}] written back as FF[4]")

    # -- result
    result_text = root.get("RE")
    result = None
    if result_text is not None:
        result = normalise_result(result_text)
        if result is not None and not _SGF_RESULT.fullmatch(result_text.strip()):
            note(root, "RE", 0, f"RE[{result_text.strip()}] read as {result}")

    events, comments = _main_line_events(root, size)

    if handicap >= 2:
        black, white = _leading_setup(events)
        if not black:
            note(root, "HA", 0, f"HA[{handicap}] without handicap stones: the fixed placement will be used")
        elif len(black) != handicap:
            note(root, "HA", 0, f"HA[{handicap}] but {len(black)} black stones set up")

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
        raise fail(root, "SZ", 0, f"SZ[{raw}] is not a board size")
    cols = int(m.group(1))
    rows = int(m.group(2)) if m.group(2) else cols
    if cols != rows:
        raise fail(root, "SZ", 0, f"SZ[{raw}] is a rectangular board ({cols}x{rows}); miai plays on square boards")
    if not MIN_SIZE <= cols <= MAX_SIZE:
        raise fail(root, "SZ", 0, f"SZ[{raw}]: miai plays on boards from {MIN_SIZE}x{MIN_SIZE} to {MAX_SIZE}x{MAX_SIZE}")
    if text != str(cols):
        note(root, "SZ", 0, f"SZ[{raw}] read as {cols}")
        root.properties["SZ"] = [str(cols)]
    return cols


def _sgf_point(text: str, size: int) -> Point | None:
    """``"dp"`` -> ``(3, 3)``; raises ValueError unless two letters on the board."""
    if len(text) != 2 or not text.isascii() or not text.isalpha() or not text.islower():
        raise ValueError(text)
    col = ord(text[0]) - ord("a")
    row = size - 1 - (ord(text[1]) - ord("a"))
    if not (0 <= row < size and 0 <= col < size):
        raise ValueError(text)
    return (row, col)


def _point_list(values: Iterable[str], size: int) -> list[Point]:
    """Expand SGF point lists (``dd``, compressed ``do:gq``); raises ValueError on a bad value."""
    points: list[Point] = []
    for v in values:
        v = v.strip()
        if ":" in v:
            a, b = v.split(":", 1)
            (r1, c1), (r2, c2) = _sgf_point(a.strip(), size), _sgf_point(b.strip(), size)  # type: ignore[misc]
            for r in range(max(r1, r2), min(r1, r2) - 1, -1):
                for c in range(min(c1, c2), max(c1, c2) + 1):
                    points.append((r, c))
        else:
            p = _sgf_point(v, size)
            assert p is not None
            points.append(p)
    return points


def _check_points(root: SgfNode, size: int, report: _Report) -> None:
    """Normalise move values ([tt] and spaced passes) and drop values that are not points."""
    note = report.note
    tt_passes = 0
    for node in root.walk():
        for pid in _MOVE_IDS:
            values = node.properties.get(pid)
            if values is None:
                continue
            if len(values) > 1:
                note(node, pid, None, f"{pid} with {len(values)} values: the first kept")
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
                _sgf_point(squeezed, size)
            except ValueError:
                note(node, pid, None, f"{pid}[{v}] is not a point on the {size}x{size} board: move dropped")
                del node.properties[pid]
                continue
            if squeezed != v:
                note(node, pid, None, f"{pid}[{v}] read as {pid}[{squeezed}]")
                values[0] = squeezed
        for pid in _SETUP_IDS:
            values = node.properties.get(pid)
            if values is None:
                continue
            good = []
            for v in values:
                try:
                    _point_list([v], size)
                    good.append(v.strip())
                except ValueError:
                    note(node, pid, None, f"{pid}[{v}] is not a point (or point range) on the board: dropped")
            if good:
                node.properties[pid] = good
            else:
                del node.properties[pid]
        pl = node.properties.get("PL")
        if pl is not None:
            colour = pl[0].strip()[:1].upper() if pl and pl[0].strip() else ""
            if colour not in ("B", "W"):
                note(node, "PL", None, f"PL[{pl[0] if pl else ''}] is not a colour: dropped")
                del node.properties["PL"]
            elif pl != [colour]:
                node.properties["PL"] = [colour]
    if tt_passes:
        report.plain(f"{tt_passes} pass(es) written as [tt] (FF[3] style) read as passes, written back as []")


def _read_handicap(root: SgfNode, report: _Report) -> int:
    note = report.note
    raw = root.get("HA")
    handicap = 0
    if raw is not None:
        text = raw.strip()
        if re.fullmatch(r"\d+", text):
            handicap = int(text)
        else:
            digits = re.search(r"\d+", text)
            handicap = int(digits.group()) if digits else 0
            note(root, "HA", 0, f"HA[{raw}] is not a number: read as {handicap}")
            if handicap:
                root.properties["HA"] = [str(handicap)]
            else:
                del root.properties["HA"]
    if handicap >= 2:
        # Handicap stones in a node before the first move (Fox: ;AB[pd][dp] after the root).
        node, number = root, 0
        while node.children and not ("AB" in root.properties):
            child = node.children[0]
            number += 1
            if child.move is not None:
                break
            if "AB" in child.properties:
                root.properties["AB"] = child.properties.pop("AB")
                note(child, "AB", number, f"HA[{handicap}] stones given here, not in the root: moved to the root")
                if not child.properties:
                    node.children[0:1] = child.children
                break
            node = child
    return handicap


def _read_komi(root: SgfNode, rules: Rules, report: _Report) -> float | None:
    note = report.note
    raw = root.get("KM")
    if raw is None:
        ko = root.get("KO")
        if ko is not None:
            komi = _komi_from_text(ko)
            if komi is not None:
                note(root, "KO", 0, f"no KM; KO[{ko}] read as komi {komi:g}")
                root.properties["KM"] = [f"{komi:g}"]
                return komi
        return None
    text = raw.strip()
    if text == "":
        komi = rules.komi
        note(root, "KM", 0, f"KM[] is empty: komi {komi:g} (the default of the rules)")
        root.properties["KM"] = [f"{komi:g}"]
        return komi
    try:
        komi = float(text)
        parsed = True
    except ValueError:
        parsed = False
        komi = _komi_from_text(text)
        if komi is None:
            komi = rules.komi
            note(root, "KM", 0, f"KM[{raw}] is not a number: komi {komi:g} (the default of the rules)")
        else:
            note(root, "KM", 0, f"KM[{raw}] read as {komi:g}")
    if 50 <= abs(komi) < 2500 and komi * 2 == int(komi * 2):
        scaled = komi / 50
        note(root, "KM", 0, f"KM[{raw}] is in hundredths of a stone (as Fox writes it): komi {scaled:g}")
        komi = scaled
        parsed = False
    if komi != komi or komi in (float("inf"), float("-inf")):
        komi = rules.komi
        note(root, "KM", 0, f"KM[{raw}] is not a finite number: komi {komi:g}")
        parsed = False
    if not parsed:
        root.properties["KM"] = [f"{komi:g}"]
    return komi


_CJK_DIGITS = {"〇": 0, "零": 0, "一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}


def _komi_from_text(text: str) -> float | None:
    """``5 1/2``, ``6,5``, ``6.5目``, ``黒6目半``, ``七目半`` -> a number, else None."""
    t = text.strip().replace(",", ".")
    m = re.fullmatch(r"(-?)\s*(\d+)\s+1/2", t)
    if m:
        return (-1 if m.group(1) else 1) * (int(m.group(2)) + 0.5)
    m = re.search(r"(-?\d+(?:\.\d+)?)\s*(目|집|子)?\s*(半|반)?", t)
    if m:
        value = float(m.group(1))
        if m.group(3):
            value += 0.5 if value >= 0 else -0.5
        return value
    m = re.search(r"([〇零一二三四五六七八九十]+)\s*目\s*(半)?", t)
    if m:
        digits = m.group(1)
        value = sum(_CJK_DIGITS[d] for d in digits) if "十" not in digits else _cjk_number(digits)
        return value + (0.5 if m.group(2) else 0)
    return None


def _cjk_number(digits: str) -> int:
    tens, _, units = digits.partition("十")
    return (_CJK_DIGITS.get(tens, 1) if tens else 1) * 10 + (_CJK_DIGITS.get(units, 0) if units else 0)


def _node_events(node: SgfNode, size: int) -> list[Event]:
    """The setup edit and/or move a node holds, as :class:`Setup` and :class:`Move` values.

    Stones set up in a node come before its move; ``PL`` in a node with a move says who
    plays after it, so it is an edit only when it is not simply the other colour.
    """
    from miai.game import Setup

    events: list[Event] = []
    mv = node.move
    move = None
    if mv is not None:
        colour = Color.BLACK if mv[0] == "B" else Color.WHITE
        move = Move(colour, None if mv[1] == "" else _sgf_point(mv[1], size))
    pl = node.get("PL")
    to_move = Color.BLACK if pl == "B" else Color.WHITE if pl == "W" else None
    if move is not None and to_move is move.color.opponent:
        to_move = None
    if any(pid in node.properties for pid in _SETUP_IDS):
        events.append(
            Setup(
                black=tuple(_point_list(node.properties.get("AB", []), size)),
                white=tuple(_point_list(node.properties.get("AW", []), size)),
                empty=tuple(_point_list(node.properties.get("AE", []), size)),
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
        node_events = _node_events(node, size)
        events.extend(node_events)
        moves += sum(1 for e in node_events if isinstance(e, Move))
        comment = node.get("C")
        if comment is not None and comment.strip():
            comments[moves] = comments[moves] + "\n" + comment if moves in comments else comment
    return events, comments


def _leading_setup(events: list[Event]) -> tuple[list[Point], list[Point]]:
    black: list[Point] = []
    white: list[Point] = []
    for e in events:
        if isinstance(e, Move):
            break
        black.extend(e.black)
        white.extend(e.white)
    return black, white


# ---------------------------------------------------------------------------- rules and results
_RULES_SPELLING = {
    "japanese": "Japanese",
    "chinese": "Chinese",
    "korean": "Korean",
    "aga": "AGA",
    "new-zealand": "NZ",
    "tromp-taylor": "Tromp-Taylor",
    "simple": "simple",
}
_RULES_WORDS = (
    (("jap", "日本", "nihon"), "japanese"),
    (("chin", "中国", "cn"), "chinese"),
    (("kor", "韩国", "韓国", "한국"), "korean"),
    (("aga", "american"), "aga"),
    (("zealand", "nz"), "new-zealand"),
    (("tromp",), "tromp-taylor"),
)


def rules_from_text(text: str | None) -> tuple[Rules, str | None]:
    """Map an SGF ``RU`` value to a ruleset: ``(rules, warning)``.

    A preset name or alias, or miai's own text form (``japanese ko=positional``), maps
    without a warning; else a name containing ``jap``, ``chin``, ``kor``… maps to that
    preset, and anything else to ``chinese``, with a warning naming the choice.
    """
    if text is None or not text.strip():
        return PRESETS["chinese"], None
    try:
        return Rules.parse(text), None
    except RulesError:
        pass
    low = text.strip().lower()
    for words, preset in _RULES_WORDS:
        if any(w in low for w in words):
            return PRESETS[preset], f"RU[{text.strip()}] is not a ruleset miai knows: read as the closest preset, {preset}"
    if "ing" in low or "goe" in low:
        return PRESETS["chinese"], f"RU[{text.strip()}] (Ing/GOE rules) read as chinese, the closest preset (area scoring)"
    return PRESETS["chinese"], f"RU[{text.strip()}] is not a ruleset miai knows: read as chinese"


def rules_to_text(rules: Rules) -> str:
    """The ``RU`` value for ``rules``: the usual SGF spelling of a preset (``Japanese``,
    ``AGA``, ``NZ``) when only komi differs, else miai's text form without komi (SGF has
    ``KM`` for it)."""
    for name, preset in PRESETS.items():
        if rules.replace(komi=preset.komi) == preset:
            return _RULES_SPELLING[name]
    words = [w for w in rules.to_text().split() if not w.startswith("komi=")]
    return " ".join(words)


_SGF_RESULT = re.compile(r"[BbWw]\s*\+.*|0|[Dd]raw|[Vv]oid|\?")


def normalise_result(text: str) -> str | None:
    """An SGF ``RE`` value (or a server's words for it) in canonical form: ``B+3.5``,
    ``W+R``, ``B+T``, ``W+F``, ``B+`` (margin unknown), ``0`` (draw), ``Void``; None when
    unknown (``?``); text not understood is kept verbatim."""
    result = Result.read(text)
    return None if result is None else str(result)


# ============================================================================ writing
_ROOT_ORDER = ("FF", "CA", "GM", "AP", "SZ", "KM", "HA", "RU", "GN", "EV", "RO", "DT", "PC", "PB", "BR", "PW", "WR", "RE")


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")


def _node_text(node: SgfNode, *, is_root: bool) -> str:
    props = node.properties
    if is_root:
        order = [k for k in _ROOT_ORDER if k in props] + [k for k in props if k not in _ROOT_ORDER]
    else:
        order = [k for k in _MOVE_IDS if k in props] + [k for k in props if k not in _MOVE_IDS]
    parts = [";"]
    for pid in order:
        values = props[pid]
        if not values:
            continue
        parts.append(pid + "".join(f"[{_escape(v)}]" for v in values))
        if is_root and pid in ("RE", "C", "AB", "AW"):
            parts.append("\n")
    return "".join(parts).rstrip("\n")


def _write_tree(root: SgfNode) -> str:
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


def write_collection(records: Iterable[SgfRecord]) -> str:
    """Several records as one SGF collection."""
    return "".join(r.to_sgf() for r in records)


# ============================================================================ games
def game_from_record(record: SgfRecord, rules: Rules | None = None, *, strict: bool = True) -> Game:
    """Replay the record's main line in a new :class:`~miai.game.Game`.

    ``rules`` replaces the record's rules entirely (komi included); by default the record's
    ruleset with its komi. Handicap stones (``HA`` of 2 or more with only black stones set
    up before the first move) are placed with ``set_handicap``, other setups with ``setup``,
    moves with their own colour (so consecutive moves of one colour replay as recorded). A
    result in ``RE`` ends the game with that result once the moves are played, unless the
    moves themselves ended it.

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
    from miai.game import Game, Phase, Setup

    game = Game(record.size, rules if rules is not None else record.rules)
    events = list(record.events)
    if record.handicap >= 2:
        stones: list[Point] = []
        k = 0
        while k < len(events) and isinstance(events[k], Setup):
            e = events[k]
            if e.white or e.empty:
                stones = []
                break
            stones.extend(e.black)
            k += 1
        try:
            if stones:
                game.set_handicap(stones)
                events = events[k:]
            elif not _leading_setup(events)[0] and not _leading_setup(events)[1]:
                from miai.handicap import fixed_handicap_points

                game.set_handicap(fixed_handicap_points(record.size, record.handicap))
        except HandicapError as e:
            record.repairs.append(f"handicap stones not placed as a handicap ({e}); set up as stones instead")
    nodes = _event_nodes(record)
    move_number = 0
    for index, event in enumerate(events):
        try:
            if game.can_resume:
                game.resume()  # the record goes on after two passes: play resumed (RULES.md §5.5)
            if isinstance(event, Setup):
                game.setup(event.black, event.white, event.empty, event.to_move)
                continue
            move_number += 1
            game.play(event)
        except (IllegalMoveError, InvalidMoveError) as e:
            where = nodes.get(id(event), "")
            what = f"move {move_number} ({event.color.letter} {point_to_gtp(event.point)})" if isinstance(event, Move) else "a setup"
            message = f"{what}{where} is illegal: {e}"
            if strict:
                raise SgfError(message) from e
            left = sum(1 for ev in events[index:] if isinstance(ev, Move))
            record.repairs.append(f"replay stopped at {message}; {left} move(s) not played")
            return game
    if game.phase is Phase.MARKING and _finish_from_marks(game, record):
        return game
    if record.result is not None and game.phase is not Phase.FINISHED:
        game.set_result(Result.read(record.result) or Result(None, Termination.UNKNOWN), "result given in the record")
    return game


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
                marks[pid].update(_point_list([value], record.size))
            except ValueError:
                record.repairs.append(
                    f"{_where(node, pid, len(record.main_line) - 1)}: {pid}[{value}] is not a point: ignored"
                )
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
    if record.result is None or str(score.result) == record.result:
        game.finish(dead)
        return True
    if not game.rules.seki_points:
        seki = _unmarked_owners(game, score, {1: tb, 2: tw})
        if seki and str(game.score(dead, seki=seki).result) == record.result:
            game.finish(dead, seki=seki)
            return True
    stones = ", ".join(point_to_gtp(p) for p in sorted(dead)) or "none"
    record.repairs.append(
        f"{_where(node, None, len(record.main_line) - 1)}: RE[{(record.result_text or '').strip()}] but the "
        f"territory marked in TB/TW counts {score.result} (dead stones: {stones}): the record's result kept"
    )
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
                for q in neighbours(p, size):
                    if board[q] is not None and q not in dead:
                        border.add(q)
                    elif q not in seen:
                        seen.add(q)
                        stack.append(q)
            owner = score.owners[r][c]
            if owner and not any(p in marks[owner] for p in region):
                stones |= border
    return stones


def _event_nodes(record: SgfRecord) -> dict[int, str]:
    """Where each event stands, for messages: `` (node 12, line 40, column 3)``."""
    found: dict[int, str] = {}
    events = iter(record.events)
    for number, node in enumerate(record.main_line):
        for _ in _node_events(node, record.size):
            ev = next(events, None)
            if ev is not None:
                found[id(ev)] = f" ({_where(node, None, number)})"
    return found


def load_game(
    source: str | bytes | Path, rules: Rules | None = None, *, strict: bool = True
) -> tuple[Game, SgfRecord]:
    """Read a record (a path, SGF text or bytes) and replay it: ``(game, record)``."""
    if isinstance(source, Path) or (
        isinstance(source, str)
        and "\n" not in source
        and len(source) < 4096
        and ("(" not in source or Path(source).is_file())
    ):
        record = read_file(source)
    else:
        record = read_record(source)
    return game_from_record(record, rules, strict=strict), record


def game_to_sgf(
    game: Game,
    *,
    record: SgfRecord | None = None,
    black: str | None = None,
    white: str | None = None,
    date: str | None = None,
    comments: dict[int, str] | None = None,
) -> str:
    """Write ``game`` as SGF FF[4] (``FF GM CA AP SZ KM RU HA AB PB PW DT RE``, the setups
    and moves, comments).

    With the ``record`` the game came from, the record's tree is the starting point: its
    variations, comments and unknown properties are written back; the game's main line is
    written first, and where it leaves the record's main line the record's moves become a
    variation. Moves of the record beyond the game's last move stay after it. ``black``,
    ``white`` and ``date`` override the record's; ``comments`` (move number -> text) sets
    comments on the main line (0 is the root).

    A game that ended by counting (it has a :attr:`final_score <miai.game.Game.final_score>`)
    gets its territory marks on its last node (the last main-line node, unless the record's
    moves go on after the game's end), as CGoban/KGS, IGS, Sabaki and OGS write them: ``TB``
    holds the empty points counted for Black (after the dead stones are removed; never living
    stones, under area scoring too; seki points only where the rules count them) and the
    points of White's dead stones; ``TW`` likewise. They replace the marks the record had on
    that node. Other games get no marks (a record's own are left as they were).
    """
    from miai import __version__
    from miai.game import Phase

    size = game.size
    root = record.root.copy() if record is not None and record.size == size else SgfNode()
    props = root.properties
    for pid in ("FF", "CA", "GM", "AP", "SZ", "KM", "HA", "RU"):
        props.pop(pid, None)
    head = {
        "FF": ["4"],
        "CA": ["UTF-8"],
        "GM": ["1"],
        "AP": [f"miai:{__version__}"],
        "SZ": [str(size)],
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
    if game.phase is Phase.FINISHED and game.result is not None:
        root.properties["RE"] = [str(game.result)]

    from miai.game import Resume

    history = [e for e in game.history if not isinstance(e, Resume)]  # SGF just plays on
    gi = 0
    if game.handicap:
        root.properties["AB"] = [_sgf_text(p, size) for p in game.handicap_points]
        for pid in ("AW", "AE"):
            root.properties.pop(pid, None)
    root_events = [e for e in _node_events(root, size) if isinstance(e, Move) or not game.handicap]
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
            for pid in _MOVE_IDS:
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
        if kids and not _node_events(kids[0], size):
            parent = kids[0]  # comment-only or empty nodes on the main line stay where they are
            continue
        match = None
        for child in kids:
            ev = _node_events(child, size)
            if ev and history[gi : gi + len(ev)] == ev:
                match = child
                break
        if match is not None:
            kids.remove(match)
            kids.insert(0, match)
            gi += len(_node_events(match, size))
            parent = match
            continue
        node = SgfNode()
        event = history[gi]
        if isinstance(event, Move):
            node.properties[event.color.letter] = [_sgf_text(event.point, size)]
        else:
            _put_setup(node, event, size)
        kids.insert(0, node)
        parent = node
        gi += 1

    final = game.final_score
    if final is not None:
        while parent.children and not _node_events(parent.children[0], size):
            parent = parent.children[0]  # comment-only or empty nodes after the last move
        for pid, points in zip(("TB", "TW"), _territory_points(final, game)):
            parent.properties.pop(pid, None)
            if points:
                parent.properties[pid] = sorted(_sgf_text(p, size) for p in points)

    if comments:
        _put_comments(root, size, comments)
    return _write_tree(root)


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


def _sgf_text(point: Point | None, size: int) -> str:
    if point is None:
        return ""
    row, col = point
    return chr(ord("a") + col) + chr(ord("a") + size - 1 - row)


def _put_setup(node: SgfNode, setup: Setup, size: int) -> None:
    for pid, points in (("AB", setup.black), ("AW", setup.white), ("AE", setup.empty)):
        if points:
            node.properties[pid] = [_sgf_text(p, size) for p in points]
    if setup.to_move is not None:
        node.properties["PL"] = [setup.to_move.letter]


def _put_comments(root: SgfNode, size: int, comments: dict[int, str]) -> None:
    moves = 0
    placed: set[int] = set()
    for node in root.main_line():
        moves += sum(1 for e in _node_events(node, size) if isinstance(e, Move))
        if moves in comments and moves not in placed:
            node.properties["C"] = [comments[moves]]
            placed.add(moves)

