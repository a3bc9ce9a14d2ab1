"""What reading a record repaired, as values: a :class:`Repair` is a kind, its fields and
where it stands, and reads as today's English sentence (``str(repair)``).

A repair is a ``str`` (its English text), so lists of repairs compare, join and print as
before; the kind and fields let the page say it in its own language (the same sentence,
``{field}`` for field, in static/repairs.js and the web catalogue).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class RepairKind(StrEnum):
    """Each kind of repair; :data:`ENGLISH` holds its sentence, with ``{field}`` placeholders."""

    EMPTY_TREE = "empty_tree"
    VALUE_WITHOUT_PROPERTY = "value_without_property"
    ID_WITHOUT_VALUE = "id_without_value"
    MISSING_SEMICOLON = "missing_semicolon"
    SECOND_MOVE = "second_move"
    REPEATED_PROPERTY = "repeated_property"
    TEXT_AFTER_LAST_TREE = "text_after_last_tree"
    JUNK_BEFORE_FIRST_TREE = "junk_before_first_tree"
    JUNK_BETWEEN_TREES = "junk_between_trees"
    UNESCAPED_BRACKET = "unescaped_bracket"
    STRAY_BRACKET = "stray_bracket"
    STRAY_BRACKETS = "stray_brackets"
    UNEXPECTED_TEXT = "unexpected_text"
    UNCLOSED_VALUE = "unclosed_value"
    UNCLOSED_TREES = "unclosed_trees"
    LONG_IDS = "long_ids"
    MORE_TEXT_REPAIRS = "more_text_repairs"
    MORE_REPAIRS = "more_repairs"
    NUL_REMOVED = "nul_removed"
    SEVERAL_TREES = "several_trees"
    COLLECTION_DECODED = "collection_decoded"
    GM_NOT_NUMBER = "gm_not_number"
    RULES_CLOSEST = "rules_closest"
    RULES_ING = "rules_ing"
    RULES_UNKNOWN = "rules_unknown"
    FF_REWRITTEN = "ff_rewritten"
    RESULT_UNKNOWN = "result_unknown"
    RESULT_READ_AS = "result_read_as"
    HANDICAP_WITHOUT_STONES = "handicap_without_stones"
    HANDICAP_STONE_COUNT = "handicap_stone_count"
    SIZE_READ_AS = "size_read_as"
    MANY_VALUES = "many_values"
    MOVE_OFF_BOARD = "move_off_board"
    MOVE_READ_AS = "move_read_as"
    PLAYER_NOT_COLOUR = "player_not_colour"
    TT_PASSES = "tt_passes"
    COMMA_LIST = "comma_list"
    SETUP_NOT_POINT = "setup_not_point"
    SETUP_CLASH_BLACK = "setup_clash_black"
    SETUP_CLASH_WHITE = "setup_clash_white"
    HANDICAP_TOO_MANY = "handicap_too_many"
    HANDICAP_NEGATIVE = "handicap_negative"
    HANDICAP_NOT_NUMBER = "handicap_not_number"
    HANDICAP_MOVED = "handicap_moved"
    KO_AS_KOMI = "ko_as_komi"
    KO_IGNORED = "ko_ignored"
    KOMI_EMPTY = "komi_empty"
    KOMI_NOT_NUMBER = "komi_not_number"
    KOMI_NOT_FINITE = "komi_not_finite"
    KOMI_TOO_LARGE = "komi_too_large"
    KOMI_READ_AS = "komi_read_as"
    KOMI_FOX_POINTS = "komi_fox_points"
    KOMI_FOX_STONES = "komi_fox_stones"
    HANDICAP_AS_SETUP = "handicap_as_setup"
    REPLAY_STOPPED = "replay_stopped"
    REPLAY_STOPPED_AT_SETUP = "replay_stopped_at_setup"
    RESULT_DIFFERS = "result_differs"
    NOT_A_POINT = "not_a_point"
    MARKS_DIFFER = "marks_differ"
    BOM_BAD_BYTES = "bom_bad_bytes"
    UTF16_WITHOUT_BOM = "utf16_without_bom"
    UNKNOWN_CHARSET = "unknown_charset"
    CHARSET_WRONG = "charset_wrong"
    UTF8_UNDECLARED = "utf8_undeclared"
    UTF8_READ = "utf8_read"
    UTF8_BAD_BYTES_DECLARED = "utf8_bad_bytes_declared"
    UTF8_BAD_BYTES = "utf8_bad_bytes"
    CHARSET_NONE_FITS = "charset_none_fits"
    CHARSET_ONLY_PLAUSIBLE = "charset_only_plausible"
    CHARSET_CHARDET = "charset_chardet"
    CHARSET_FIRST = "charset_first"
    CONVERTED_GIB = "converted_gib"
    CONVERTED_NGF = "converted_ngf"
    GIB_KOMI_IGNORED = "gib_komi_ignored"
    GIB_RESULT_READ_AS = "gib_result_read_as"
    GIB_PASSES_NOT_PLACED = "gib_passes_not_placed"
    GIB_PASSES = "gib_passes"
    NGF_KOMI = "ngf_komi"
    NGF_GI_HANDICAP = "ngf_gi_handicap"
    NGF_GI_HEADER = "ngf_gi_header"


ENGLISH: dict[RepairKind, str] = {
    RepairKind.EMPTY_TREE: "empty game tree '()' dropped",
    RepairKind.VALUE_WITHOUT_PROPERTY: "value [{value}] without a property name skipped",
    RepairKind.ID_WITHOUT_VALUE: "{id} is not followed by a value: skipped",
    RepairKind.MISSING_SEMICOLON: "missing ';' before the first node of a game tree: node started",
    RepairKind.SECOND_MOVE: "a second move ({pid}) in one node: split into a new node",
    RepairKind.REPEATED_PROPERTY: "property {pid} repeated in one node: values merged",
    RepairKind.TEXT_AFTER_LAST_TREE: "text after the last game tree ignored: {text}",
    RepairKind.JUNK_BEFORE_FIRST_TREE: "{count} characters before the first game tree ignored",
    RepairKind.JUNK_BETWEEN_TREES: "{count} characters between game trees ignored",
    RepairKind.UNESCAPED_BRACKET: "unescaped ']' inside the value of {pid} kept in the value",
    RepairKind.STRAY_BRACKET: "stray ']' skipped",
    RepairKind.STRAY_BRACKETS: "{count} stray ']' skipped",
    RepairKind.UNEXPECTED_TEXT: "unexpected {text} skipped",
    RepairKind.UNCLOSED_VALUE: "unexpected end of input inside a property value: value closed",
    RepairKind.UNCLOSED_TREES: (
        "unexpected end of input: {count} unclosed '(' (the last opened at line {line}, column {column}) closed"
    ),
    RepairKind.LONG_IDS: "long or lowercase property ids read by their capitals: {pairs}",
    RepairKind.MORE_TEXT_REPAIRS: "... and {count} more repairs of the text",
    RepairKind.MORE_REPAIRS: "... and {count} more repairs",
    RepairKind.NUL_REMOVED: "removed {count} NUL character(s)",
    RepairKind.SEVERAL_TREES: "the file holds {count} game trees; read the first (read_collection reads all)",
    RepairKind.COLLECTION_DECODED: "the whole collection was decoded as {encoding}",
    RepairKind.GM_NOT_NUMBER: "GM[{value}] is not a number: read as Go",
    RepairKind.RULES_CLOSEST: "RU[{value}] is not a ruleset miai knows: read as the closest preset, {preset}",
    RepairKind.RULES_ING: "RU[{value}] (Ing/GOE rules) read as chinese, the closest preset (area scoring)",
    RepairKind.RULES_UNKNOWN: "RU[{value}] is not a ruleset miai knows: read as chinese",
    RepairKind.FF_REWRITTEN: "FF[{value}] written back as FF[4]",
    RepairKind.RESULT_UNKNOWN: "RE[{value}] is not a result miai understands: kept as written",
    RepairKind.RESULT_READ_AS: "RE[{value}] read as {result}",
    RepairKind.HANDICAP_WITHOUT_STONES: "HA[{handicap}] without handicap stones: the fixed placement will be used",
    RepairKind.HANDICAP_STONE_COUNT: "HA[{handicap}] but {count} black stones set up",
    RepairKind.SIZE_READ_AS: "SZ[{value}] read as {size}",
    RepairKind.MANY_VALUES: "{pid} with {count} values: the first kept",
    RepairKind.MOVE_OFF_BOARD: "{pid}[{value}] is not a point on the {size}x{size} board: move dropped",
    RepairKind.MOVE_READ_AS: "{pid}[{value}] read as {pid}[{point}]",
    RepairKind.PLAYER_NOT_COLOUR: "PL[{value}] is not a colour: dropped",
    RepairKind.TT_PASSES: "{count} pass(es) written as [tt] (FF[3] style) read as passes, written back as []",
    RepairKind.COMMA_LIST: "{pid}[{value}] is a comma-separated list: read as {values}",
    RepairKind.SETUP_NOT_POINT: "{pid}[{value}] is not a point (or point range) on the board: dropped",
    RepairKind.SETUP_CLASH_BLACK: "{points} in both {loser} and {winner}: set up black ({winner} is applied after {loser})",
    RepairKind.SETUP_CLASH_WHITE: "{points} in both {loser} and {winner}: set up white ({winner} is applied after {loser})",
    RepairKind.HANDICAP_TOO_MANY: "HA[{value}] is more stones than the board holds: read as no handicap",
    RepairKind.HANDICAP_NEGATIVE: "HA[{value}] is negative: read as no handicap",
    RepairKind.HANDICAP_NOT_NUMBER: "HA[{value}] is not a number: read as {handicap}",
    RepairKind.HANDICAP_MOVED: "HA[{handicap}] stones given here, not in the root: moved to the root",
    RepairKind.KO_AS_KOMI: "no KM; KO[{value}] read as komi {komi}",
    RepairKind.KO_IGNORED: "no KM, and KO[{value}] is not a komi: ignored",
    RepairKind.KOMI_EMPTY: "KM[] is empty: komi {komi} (the default of the rules)",
    RepairKind.KOMI_NOT_NUMBER: "KM[{value}] is not a number: komi {komi} (the default of the rules)",
    RepairKind.KOMI_NOT_FINITE: "KM[{value}] is not a finite number: komi {komi} (the default of the rules)",
    RepairKind.KOMI_TOO_LARGE: (
        "KM[{value}] is more than any board's points ({limit}): komi {komi} (the default of the rules)"
    ),
    RepairKind.KOMI_READ_AS: "KM[{value}] read as {komi}",
    RepairKind.KOMI_FOX_POINTS: "KM[{value}] is in hundredths of a point (Fox's scale under territory scoring): komi {komi}",
    RepairKind.KOMI_FOX_STONES: "KM[{value}] is in hundredths of a stone (Fox's scale under area scoring): komi {komi}",
    RepairKind.HANDICAP_AS_SETUP: "handicap stones not placed as a handicap ({reason}); set up as stones instead",
    RepairKind.REPLAY_STOPPED: (
        "replay stopped at move {number} ({color} {point}){at} is illegal: {reason}; {count} move(s) not played"
    ),
    RepairKind.REPLAY_STOPPED_AT_SETUP: "replay stopped at a setup{at} is illegal: {reason}; {count} move(s) not played",
    RepairKind.RESULT_DIFFERS: (
        "RE[{value}] but the game as replayed under {rules} ends {result} ({how}): the record's result is kept "
        "when it is written"
    ),
    RepairKind.NOT_A_POINT: "{pid}[{value}] is not a point: ignored",
    RepairKind.MARKS_DIFFER: (
        "RE[{value}] but the territory marked in TB/TW counts {result} (dead stones: {stones}): the record's "
        "result kept"
    ),
    RepairKind.BOM_BAD_BYTES: "bytes that are not {codec} replaced by U+FFFD",
    RepairKind.UTF16_WITHOUT_BOM: "no BOM, but NUL bytes every other byte: decoded as {codec}",
    RepairKind.UNKNOWN_CHARSET: "unknown charset CA[{declared}]",
    RepairKind.CHARSET_WRONG: "CA[{declared}] but byte {byte} (line {line}) is not {declared}",
    RepairKind.UTF8_UNDECLARED: "no charset declared; the text is valid UTF-8 and was read as UTF-8",
    RepairKind.UTF8_READ: "the text is valid UTF-8 and was read as UTF-8",
    RepairKind.UTF8_BAD_BYTES_DECLARED: (
        "CA[{declared}]: {count} byte sequence(s) that are not UTF-8 (the first at byte {byte}, line {line}) replaced by U+FFFD"
    ),
    RepairKind.UTF8_BAD_BYTES: (
        "no charset declared; the text is UTF-8 but {count} byte sequence(s) that are not UTF-8 (the first at byte {byte}, line {line}) replaced by U+FFFD"
    ),
    RepairKind.CHARSET_NONE_FITS: "charset guessed: {codec} (no East Asian or Windows charset decodes it)",
    RepairKind.CHARSET_ONLY_PLAUSIBLE: "charset guessed: {codec} (the only charset whose characters are plausible)",
    RepairKind.CHARSET_CHARDET: "charset guessed: {codec} (chardet's choice among {choices})",
    RepairKind.CHARSET_FIRST: "charset guessed: {codec} (first of {choices}, which all fit)",
    RepairKind.CONVERTED_GIB: "converted from Tygem GIB",
    RepairKind.CONVERTED_NGF: "converted from WBaduk/Cyberoro NGF",
    RepairKind.GIB_KOMI_IGNORED: "GIB komi GAMEGONGJE={value} is not a komi: ignored",
    RepairKind.GIB_RESULT_READ_AS: "GIB result {value} read as {result}",
    RepairKind.GIB_PASSES_NOT_PLACED: "GIB passes (SKI lines) not placed: the moves do not match the STO lines",
    RepairKind.GIB_PASSES: "{count} pass(es) read from GIB SKI lines",
    RepairKind.NGF_KOMI: "NGF komi {value} read as {komi} (whole points written, a half point implied)",
    RepairKind.NGF_GI_HANDICAP: "GI-layout NGF with handicap {handicap}: handicap stones not placed",
    RepairKind.NGF_GI_HEADER: "NGF with a 'GI' header: players read in the usual NGF order (White first)",
}

Field = str | int | float
"""A field's value: a text, a count or a place's number, or a komi (a float, written as ``:g`` writes it)."""


@dataclass(frozen=True)
class Where:
    """Where a repair stands: a node of the main line (0 is the root) and a line and column of
    the text, each when known; reads as ``root node, line 3, column 5``."""

    node: int | None = None
    line: int | None = None
    column: int | None = None

    def __str__(self) -> str:
        parts = []
        if self.node is not None:
            parts.append("root node" if self.node == 0 else f"node {self.node}")
        if self.line is not None:
            parts.append(f"line {self.line}, column {self.column}")
        return ", ".join(parts) if parts else "the record"

    def to_json(self) -> dict[str, int]:
        return {k: v for k, v in (("node", self.node), ("line", self.line), ("column", self.column)) if v is not None}


class Repair(str):
    """One repair: its :class:`RepairKind`, its fields and where it stands (or ``None``); the
    string itself is the English sentence, ``where: sentence`` when it has a place (or the
    place in parentheses where the sentence says ``{at}``)."""

    kind: RepairKind
    fields: dict[str, Field]
    where: Where | None

    def __new__(cls, kind: RepairKind, where: Where | None = None, /, **fields: Field) -> Repair:
        template = ENGLISH[kind]
        shown = {name: f"{value:g}" if isinstance(value, float) else value for name, value in fields.items()}
        if "{at}" in template:  # the place inside the sentence, in parentheses, not before it
            sentence = template.format(at=f" ({where})" if where is not None else "", **shown)
        else:
            sentence = template.format(**shown)
            sentence = f"{where}: {sentence}" if where is not None else sentence
        self = super().__new__(cls, sentence)
        self.kind, self.fields, self.where = kind, fields, where
        return self

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled as what it is made of (a review is built in a worker process)."""
        return (_rebuild, (self.kind, self.where, self.fields))

    def to_json(self) -> dict[str, object]:
        """The kind, fields and place as the review sends them beside the English text."""
        return {"kind": str(self.kind), "fields": dict(self.fields), "where": self.where.to_json() if self.where else None}


def _rebuild(kind: RepairKind, where: Where | None, fields: dict[str, Field]) -> Repair:
    return Repair(kind, where, **fields)
