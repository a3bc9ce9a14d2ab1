"""The SGF reader's repairs in the terminal's language: each :class:`~miai.sgf.repairs.Repair`
said from its kind and fields, as the page says it (static/repairs.js, the same sentences), and
in English exactly as the reader wrote it (a plain string is shown as written)."""

from __future__ import annotations

from collections.abc import Callable

from miai.cli import texts
from miai.i18n import current_language, format_number, ngettext
from miai.i18n import gettext as _
from miai.sgf.repairs import Field, Repair, RepairKind, Where

# fmt: off
_SENTENCES: dict[RepairKind, Callable[[int], str]] = {
    RepairKind.EMPTY_TREE: lambda n: _("empty game tree '()' dropped"),
    RepairKind.VALUE_WITHOUT_PROPERTY: lambda n: _("value [{value}] without a property name skipped"),
    RepairKind.ID_WITHOUT_VALUE: lambda n: _("{id} is not followed by a value: skipped"),
    RepairKind.MISSING_SEMICOLON: lambda n: _("missing ';' before the first node of a game tree: node started"),
    RepairKind.SECOND_MOVE: lambda n: _("a second move ({pid}) in one node: split into a new node"),
    RepairKind.REPEATED_PROPERTY: lambda n: _("property {pid} repeated in one node: values merged"),
    RepairKind.TEXT_AFTER_LAST_TREE: lambda n: _("text after the last game tree ignored: {text}"),
    RepairKind.JUNK_BEFORE_FIRST_TREE: lambda n: ngettext(
        "{n} character before the first game tree ignored",
        "{n} characters before the first game tree ignored",
        n,
    ),
    RepairKind.JUNK_BETWEEN_TREES: lambda n: ngettext(
        "{n} character between game trees ignored",
        "{n} characters between game trees ignored",
        n,
    ),
    RepairKind.UNESCAPED_BRACKET: lambda n: _("unescaped ']' inside the value of {pid} kept in the value"),
    RepairKind.STRAY_BRACKET: lambda n: _("stray ']' skipped"),
    RepairKind.STRAY_BRACKETS: lambda n: _("{count} stray ']' skipped"),
    RepairKind.UNEXPECTED_TEXT: lambda n: _("unexpected {text} skipped"),
    RepairKind.UNCLOSED_VALUE: lambda n: _("unexpected end of input inside a property value: value closed"),
    RepairKind.UNCLOSED_TREES: lambda n: ngettext(
        "unexpected end of input: {n} unclosed '(' (opened at line {line}, column {column}) closed",
        "unexpected end of input: {n} unclosed '(' (the last opened at line {line}, column {column}) closed",
        n,
    ),
    RepairKind.LONG_IDS: lambda n: _("long or lowercase property ids read by their capitals: {pairs}"),
    RepairKind.MORE_TEXT_REPAIRS: lambda n: ngettext(
        "... and {n} more repair of the text",
        "... and {n} more repairs of the text",
        n,
    ),
    RepairKind.MORE_REPAIRS: lambda n: ngettext(
        "... and {n} more repair",
        "... and {n} more repairs",
        n,
    ),
    RepairKind.NUL_REMOVED: lambda n: ngettext(
        "removed {n} NUL character",
        "removed {n} NUL characters",
        n,
    ),
    RepairKind.SEVERAL_TREES: lambda n: _("the file holds {count} game trees; read the first (read_collection reads all)"),
    RepairKind.COLLECTION_DECODED: lambda n: _("the whole collection was decoded as {encoding}"),
    RepairKind.GM_NOT_NUMBER: lambda n: _("GM[{value}] is not a number: read as Go"),
    RepairKind.RULES_CLOSEST: lambda n: _("RU[{value}] is not a ruleset miai knows: read as the closest preset, {preset}"),
    RepairKind.RULES_ING: lambda n: _("RU[{value}] (Ing/GOE rules) read as chinese, the closest preset (area scoring)"),
    RepairKind.RULES_UNKNOWN: lambda n: _("RU[{value}] is not a ruleset miai knows: read as chinese"),
    RepairKind.FF_REWRITTEN: lambda n: _("FF[{value}] written back as FF[4]"),
    RepairKind.RESULT_UNKNOWN: lambda n: _("RE[{value}] is not a result miai understands: kept as written"),
    RepairKind.RESULT_READ_AS: lambda n: _("RE[{value}] read as {result}"),
    RepairKind.HANDICAP_WITHOUT_STONES: lambda n: _("HA[{handicap}] without handicap stones: the fixed placement will be used"),
    RepairKind.HANDICAP_STONE_COUNT: lambda n: ngettext(
        "HA[{handicap}] but {n} black stone set up",
        "HA[{handicap}] but {n} black stones set up",
        n,
    ),
    RepairKind.SIZE_READ_AS: lambda n: _("SZ[{value}] read as {size}"),
    RepairKind.MANY_VALUES: lambda n: _("{pid} with {count} values: the first kept"),
    RepairKind.MOVE_OFF_BOARD: lambda n: _("{pid}[{value}] is not a point on the {size}x{size} board: move dropped"),
    RepairKind.MOVE_READ_AS: lambda n: _("{pid}[{value}] read as {pid}[{point}]"),
    RepairKind.PLAYER_NOT_COLOUR: lambda n: _("PL[{value}] is not a colour: dropped"),
    RepairKind.TT_PASSES: lambda n: ngettext(
        "{n} pass written as [tt] (FF[3] style) read as a pass, written back as []",
        "{n} passes written as [tt] (FF[3] style) read as passes, written back as []",
        n,
    ),
    RepairKind.COMMA_LIST: lambda n: _("{pid}[{value}] is a comma-separated list: read as {values}"),
    RepairKind.SETUP_NOT_POINT: lambda n: _("{pid}[{value}] is not a point (or point range) on the board: dropped"),
    RepairKind.SETUP_CLASH_BLACK: lambda n: _("{points} in both {loser} and {winner}: set up black ({winner} is applied after {loser})"),
    RepairKind.SETUP_CLASH_WHITE: lambda n: _("{points} in both {loser} and {winner}: set up white ({winner} is applied after {loser})"),
    RepairKind.HANDICAP_TOO_MANY: lambda n: _("HA[{value}] is more stones than the board holds: read as no handicap"),
    RepairKind.HANDICAP_NEGATIVE: lambda n: _("HA[{value}] is negative: read as no handicap"),
    RepairKind.HANDICAP_NOT_NUMBER: lambda n: _("HA[{value}] is not a number: read as {handicap}"),
    RepairKind.HANDICAP_MOVED: lambda n: _("HA[{handicap}] stones given here, not in the root: moved to the root"),
    RepairKind.KO_AS_KOMI: lambda n: _("no KM; KO[{value}] read as komi {komi}"),
    RepairKind.KO_IGNORED: lambda n: _("no KM, and KO[{value}] is not a komi: ignored"),
    RepairKind.KOMI_EMPTY: lambda n: _("KM[] is empty: komi {komi} (the default of the rules)"),
    RepairKind.KOMI_NOT_NUMBER: lambda n: _("KM[{value}] is not a number: komi {komi} (the default of the rules)"),
    RepairKind.KOMI_NOT_FINITE: lambda n: _("KM[{value}] is not a finite number: komi {komi} (the default of the rules)"),
    RepairKind.KOMI_TOO_LARGE: lambda n: _("KM[{value}] is more than any board's points ({limit}): komi {komi} (the default of the rules)"),
    RepairKind.KOMI_READ_AS: lambda n: _("KM[{value}] read as {komi}"),
    RepairKind.KOMI_FOX_POINTS: lambda n: _("KM[{value}] is in hundredths of a point (Fox's scale under territory scoring): komi {komi}"),
    RepairKind.KOMI_FOX_STONES: lambda n: _("KM[{value}] is in hundredths of a stone (Fox's scale under area scoring): komi {komi}"),
    RepairKind.HANDICAP_AS_SETUP: lambda n: _("handicap stones not placed as a handicap ({reason}); set up as stones instead"),
    RepairKind.REPLAY_STOPPED: lambda n: ngettext(
        "replay stopped at move {number} ({color} {point}){at} is illegal: {reason}; {n} move not played",
        "replay stopped at move {number} ({color} {point}){at} is illegal: {reason}; {n} moves not played",
        n,
    ),
    RepairKind.REPLAY_STOPPED_AT_SETUP: lambda n: ngettext(
        "replay stopped at a setup{at} is illegal: {reason}; {n} move not played",
        "replay stopped at a setup{at} is illegal: {reason}; {n} moves not played",
        n,
    ),
    RepairKind.RESULT_DIFFERS: lambda n: _("RE[{value}] but the game as replayed under {rules} ends {result} ({how}): the record's result is kept when it is written"),
    RepairKind.NOT_A_POINT: lambda n: _("{pid}[{value}] is not a point: ignored"),
    RepairKind.MARKS_DIFFER: lambda n: _("RE[{value}] but the territory marked in TB/TW counts {result} (dead stones: {stones}): the record's result kept"),
    RepairKind.BOM_BAD_BYTES: lambda n: _("bytes that are not {codec} replaced by U+FFFD"),
    RepairKind.UTF16_WITHOUT_BOM: lambda n: _("no BOM, but NUL bytes every other byte: decoded as {codec}"),
    RepairKind.UNKNOWN_CHARSET: lambda n: _("unknown charset CA[{declared}]"),
    RepairKind.CHARSET_WRONG: lambda n: _("CA[{declared}] but byte {byte} (line {line}) is not {declared}"),
    RepairKind.UTF8_UNDECLARED: lambda n: _("no charset declared; the text is valid UTF-8 and was read as UTF-8"),
    RepairKind.UTF8_READ: lambda n: _("the text is valid UTF-8 and was read as UTF-8"),
    RepairKind.UTF8_BAD_BYTES_DECLARED: lambda n: ngettext(
        "CA[{declared}]: {n} byte sequence that is not UTF-8 (at byte {byte}, line {line}) replaced by U+FFFD",
        "CA[{declared}]: {n} byte sequences that are not UTF-8 (the first at byte {byte}, line {line}) replaced by U+FFFD",
        n,
    ),
    RepairKind.UTF8_BAD_BYTES: lambda n: ngettext(
        "no charset declared; the text is UTF-8 but {n} byte sequence that is not UTF-8 (at byte {byte}, line {line}) replaced by U+FFFD",
        "no charset declared; the text is UTF-8 but {n} byte sequences that are not UTF-8 (the first at byte {byte}, line {line}) replaced by U+FFFD",
        n,
    ),
    RepairKind.CHARSET_NONE_FITS: lambda n: _("charset guessed: {codec} (no East Asian or Windows charset decodes it)"),
    RepairKind.CHARSET_ONLY_PLAUSIBLE: lambda n: _("charset guessed: {codec} (the only charset whose characters are plausible)"),
    RepairKind.CHARSET_CHARDET: lambda n: _("charset guessed: {codec} (chardet's choice among {choices})"),
    RepairKind.CHARSET_FIRST: lambda n: _("charset guessed: {codec} (first of {choices}, which all fit)"),
    RepairKind.CONVERTED_GIB: lambda n: _("converted from Tygem GIB"),
    RepairKind.CONVERTED_NGF: lambda n: _("converted from WBaduk/Cyberoro NGF"),
    RepairKind.GIB_KOMI_IGNORED: lambda n: _("GIB komi GAMEGONGJE={value} is not a komi: ignored"),
    RepairKind.GIB_RESULT_READ_AS: lambda n: _("GIB result {value} read as {result}"),
    RepairKind.GIB_PASSES_NOT_PLACED: lambda n: _("GIB passes (SKI lines) not placed: the moves do not match the STO lines"),
    RepairKind.GIB_PASSES: lambda n: ngettext(
        "{n} pass read from GIB SKI lines",
        "{n} passes read from GIB SKI lines",
        n,
    ),
    RepairKind.NGF_KOMI: lambda n: _("NGF komi {value} read as {komi} (whole points written, a half point implied)"),
    RepairKind.NGF_GI_HANDICAP: lambda n: _("GI-layout NGF with handicap {handicap}: handicap stones not placed"),
    RepairKind.NGF_GI_HEADER: lambda n: _("NGF with a 'GI' header: players read in the usual NGF order (White first)"),
}
# fmt: on


def repair_text(repair: str) -> str:
    """``repair`` in the current language (its English text when that is English, or when it
    is a plain string or a kind without a sentence here)."""
    if not isinstance(repair, Repair) or repair.kind not in _SENTENCES or current_language() == "en":
        return str(repair)
    sentence = _SENTENCES[repair.kind]
    count = repair.fields.get("count")
    template = sentence(count if isinstance(count, int) else 0)
    fields = {name: _shown(value) for name, value in repair.fields.items()}
    if "preset" in fields:
        fields["preset"] = texts.ruleset_name(fields["preset"])
    where = _place(repair.where) if repair.where is not None else None
    if "{at}" in template:
        return template.format(at=f" ({where})" if where else "", n=fields.get("count", ""), **fields)
    said = template.format(n=fields.get("count", ""), **fields)
    return _("{where}: {repair}").format(where=where, repair=said) if where else said


def _shown(value: Field) -> str:
    """A field as the language writes it: numbers with Babel (every decimal kept), texts as they are."""
    if isinstance(value, float):
        return format_number(value, len(f"{value:g}".partition(".")[2]))
    return format_number(value, 0) if isinstance(value, int) else value


def _place(where: Where) -> str:
    """Where a repair stands, in the current language: ``nodo 3, línea 2, columna 5``."""
    parts = []
    if where.node is not None:
        parts.append(_("root node") if where.node == 0 else _("node {node}").format(node=where.node))
    if where.line is not None:
        parts.append(_("line {line}, column {column}").format(line=where.line, column=where.column))
    return ", ".join(parts) if parts else _("the record")
