"""Bytes to text: which charset a record is written in, declared or guessed.

:func:`decode_sgf_bytes` decides, in this order:

1. a byte order mark;
2. UTF-16 without a BOM (a NUL every other byte);
3. pure ASCII;
4. the declared ``CA``, searched for in the raw bytes wherever it stands (programs write
   it after ``PB``), read with the usual superset codec: GB2312 as GB18030, Shift_JIS as
   CP932, EUC-KR as CP949. Only text encodings count: ``CA[rot13]`` names a Python
   transform, not a charset;
5. valid UTF-8;
6. UTF-8 with a few bad bytes (a character cut in the middle by a program that truncated a
   name): read as UTF-8 with only those bytes replaced by U+FFFD, when the valid multi-byte
   characters clearly outnumber the bad sequences (a little evidence is enough when ``CA``
   says UTF-8);
7. a guess among GB18030, CP932, CP949, Big5 and CP1252: the charset that decodes every
   non-ASCII property value into plausible characters for its script (ideographs, kana,
   KS X 1001 hangul; accented letters inside Latin words), with chardet to break ties and
   GB18030 first when nothing else decides.

Every step after 4 is reported in the notes, so a guess is never silent.
"""

from __future__ import annotations

import codecs
import re
import unicodedata
from collections.abc import Iterator

from miai.sgf.grammar import find_value_end
from miai.sgf.repairs import Field, Repair, RepairKind

__all__ = ["decode_sgf_bytes"]

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
_STRICT_CJK = {"gb18030": "gb2312", "cp949": "euc_kr", "cp932": "shift_jis", "big5": "big5"}
_MAX_BAD_UTF8 = 8
"""More byte sequences than this that are not UTF-8, and the text is not UTF-8."""


def _codec_for(declared: str) -> str | None:
    """The Python codec for a CA value (superset codecs for the East Asian ones), or None
    when it names no text encoding Python knows."""
    name = declared.strip().lower().replace("_", "-")
    m = re.fullmatch(r"utf-?(8|16|32)(?:-?(le|be))?", name)
    if m:
        return f"utf-{m.group(1)}" + (f"-{m.group(2)}" if m.group(2) else "")
    if name in _SUPERSETS:
        return _SUPERSETS[name]
    try:
        info = codecs.lookup(name)
    except (LookupError, ValueError):
        return None
    if not getattr(info, "_is_text_encoding", True):
        return None  # rot13, base64, zlib...: transforms, not charsets
    return info.name


def _line_of(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1


def decode_sgf_bytes(data: bytes, *, fmt: str = "sgf") -> tuple[str, str, list[Repair]]:
    """Decode a record's bytes: returns ``(text, codec, notes)``; see the module docstring."""
    notes: list[Repair] = []
    for bom, codec in _BOMS:
        if data.startswith(bom):
            text = data[len(bom) :].decode(codec, errors="replace")
            if "\ufffd" in text:
                notes.append(Repair(RepairKind.BOM_BAD_BYTES, codec=codec))
            return text, codec, notes
    if len(data) >= 4 and data[:400].count(0) * 3 > len(data[:400]):
        codec = "utf-16-le" if data[1] == 0 else "utf-16-be"
        notes.append(Repair(RepairKind.UTF16_WITHOUT_BOM, codec=codec))
        return data.decode(codec, errors="replace"), codec, notes
    if data.isascii():
        return data.decode("ascii"), "ascii", notes
    declared = None
    if fmt == "sgf":
        m = _CA_BYTES.search(data)
        if m:
            declared = m.group(1).decode("ascii", "replace")
    codec_declared = _codec_for(declared) if declared is not None else None
    if declared is not None:
        if codec_declared is None:
            notes.append(Repair(RepairKind.UNKNOWN_CHARSET, declared=declared))
        else:
            try:
                return data.decode(codec_declared), codec_declared, notes
            except UnicodeDecodeError as e:
                if codec_declared != "utf-8":
                    notes.append(_wrong_charset(declared, data, e.start))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    else:
        if declared is None:
            notes.append(Repair(RepairKind.UTF8_UNDECLARED))
        else:
            notes.append(Repair(RepairKind.UTF8_READ))
        return text, "utf-8", notes
    repaired = _mostly_utf8(data, declared=codec_declared == "utf-8")
    if repaired is not None:
        text, bad, first = repaired
        at: dict[str, Field] = {"count": bad, "byte": first, "line": _line_of(data, first)}
        if declared is not None:
            notes.append(Repair(RepairKind.UTF8_BAD_BYTES_DECLARED, declared=declared, **at))
        else:
            notes.append(Repair(RepairKind.UTF8_BAD_BYTES, **at))
        return text, "utf-8", notes
    if codec_declared == "utf-8":
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as e:
            notes.append(_wrong_charset(declared or "utf-8", data, e.start))
    codec, why, choices = _guess_charset(data, fmt)
    notes.append(Repair(why, codec=codec, choices=", ".join(choices)))
    try:
        return data.decode(codec), codec, notes
    except UnicodeDecodeError:  # pragma: no cover - _guess_charset only returns codecs that decode
        return data.decode("latin-1"), "latin-1", notes


def _mostly_utf8(data: bytes, *, declared: bool) -> tuple[str, int, int] | None:
    """``(text, bad sequences, offset of the first)`` when ``data`` is UTF-8 but for a few
    bad byte sequences, else None. Decodes at most ``_MAX_BAD_UTF8 + 1`` times."""
    pieces: list[str] = []
    bad = 0
    first = -1
    pos = 0
    while True:
        try:
            pieces.append(data[pos:].decode("utf-8"))
            break
        except UnicodeDecodeError as e:
            bad += 1
            if bad > _MAX_BAD_UTF8:
                return None
            if first < 0:
                first = pos + e.start
            pieces.append(data[pos : pos + e.start].decode("utf-8") + "\ufffd")
            pos += e.end
    text = "".join(pieces)
    multibyte = len(text) - len(text.encode("ascii", "ignore")) - bad
    needed = bad if declared else 4 * bad
    return (text, bad, first) if multibyte >= needed else None


def _values(data: bytes) -> Iterator[bytes]:
    """The bytes between ``[`` and the ``]`` that closes them, in order (linear time)."""
    i = data.find(b"[")
    while i >= 0:
        end = find_value_end(data, i + 1)
        if end < 0:
            yield data[i + 1 :]
            return
        yield data[i + 1 : end]
        i = data.find(b"[", end + 1)


_SAMPLE_BYTES = 1 << 16
"""A guess looks at this many bytes of non-ASCII text at most (the first ones)."""


def _text_segments(data: bytes, fmt: str) -> list[bytes]:
    """The parts of the file that hold text (property values, or lines for GIB/NGF), up to
    :data:`_SAMPLE_BYTES` of them."""
    pieces = _values(data) if fmt == "sgf" else iter(())
    segs = _sample(pieces)
    if not segs:
        segs = _sample(iter(data.splitlines()))
    return segs


def _sample(pieces: Iterator[bytes]) -> list[bytes]:
    segs: list[bytes] = []
    total = 0
    for piece in pieces:
        if piece.isascii():
            continue
        room = _SAMPLE_BYTES - total
        if len(piece) > room:
            # cut after a byte below 0x40: a character of its own in every candidate charset
            cut = max(piece.rfind(bytes([b]), 0, room) for b in b" \n,.:;0123456789")
            piece = piece[: cut + 1] if cut >= 0 else piece
        segs.append(piece)
        total += len(piece)
        if total >= _SAMPLE_BYTES:
            break
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


def _wrong_charset(declared: str, data: bytes, offset: int) -> Repair:
    """The note that the declared charset does not decode the byte at ``offset``."""
    return Repair(RepairKind.CHARSET_WRONG, declared=declared, byte=offset, line=_line_of(data, offset))


def _guess_charset(data: bytes, fmt: str) -> tuple[str, RepairKind, list[str]]:
    """The likeliest charset, why (as the kind of its note), and the charsets it was chosen among."""
    segments = _text_segments(data, fmt) or [data]
    scored = []
    for codec in _GUESSES:
        p = _plausibility(segments, codec)
        if p is not None:
            scored.append((p, codec))
    if not scored:
        return "latin-1", RepairKind.CHARSET_NONE_FITS, []
    best = max(p for p, _ in scored)
    tied = [c for p, c in scored if p >= best - 0.02]
    if len(tied) == 1:
        return tied[0], RepairKind.CHARSET_ONLY_PLAUSIBLE, tied
    try:
        import chardet

        ranking = [_CHARDET_NAMES.get((r["encoding"] or "").lower()) for r in chardet.detect_all(b"\n".join(segments))]
    except Exception:  # pragma: no cover - chardet is a dependency of pysgf
        ranking = []
    for name in ranking:
        if name in tied:
            return name, RepairKind.CHARSET_CHARDET, tied
    return tied[0], RepairKind.CHARSET_FIRST, tied
