// The SGF reader's repairs in the page's language: each sent as its kind, fields and place
// (docs/SERVER.md §4, "repair_details") beside its English text, which stays for a kind this page
// does not know. The sentences are the reader's (src/miai/sgf/repairs.py), {field} for field;
// those that count ("1 pass", "3 passes") in the singular or plural form of their count.

import { _, formatNumber, lang, ngettext, rulesName } from "./i18n.js";

const SENTENCES = {
  empty_tree: () => _("empty game tree '()' dropped"),
  value_without_property: () => _("value [{value}] without a property name skipped"),
  id_without_value: () => _("{id} is not followed by a value: skipped"),
  missing_semicolon: () => _("missing ';' before the first node of a game tree: node started"),
  second_move: () => _("a second move ({pid}) in one node: split into a new node"),
  repeated_property: () => _("property {pid} repeated in one node: values merged"),
  text_after_last_tree: () => _("text after the last game tree ignored: {text}"),
  junk_before_first_tree: (n) => ngettext("{n} character before the first game tree ignored", "{n} characters before the first game tree ignored", n),
  junk_between_trees: (n) => ngettext("{n} character between game trees ignored", "{n} characters between game trees ignored", n),
  unescaped_bracket: () => _("unescaped ']' inside the value of {pid} kept in the value"),
  stray_bracket: () => _("stray ']' skipped"),
  stray_brackets: () => _("{count} stray ']' skipped"),
  unexpected_text: () => _("unexpected {text} skipped"),
  unclosed_value: () => _("unexpected end of input inside a property value: value closed"),
  unclosed_trees: (n) => ngettext("unexpected end of input: {n} unclosed '(' (opened at line {line}, column {column}) closed", "unexpected end of input: {n} unclosed '(' (the last opened at line {line}, column {column}) closed", n),
  long_ids: () => _("long or lowercase property ids read by their capitals: {pairs}"),
  more_text_repairs: (n) => ngettext("... and {n} more repair of the text", "... and {n} more repairs of the text", n),
  more_repairs: (n) => ngettext("... and {n} more repair", "... and {n} more repairs", n),
  nul_removed: (n) => ngettext("removed {n} NUL character", "removed {n} NUL characters", n),
  several_trees: () => _("the file holds {count} game trees; read the first (read_collection reads all)"),
  collection_decoded: () => _("the whole collection was decoded as {encoding}"),
  gm_not_number: () => _("GM[{value}] is not a number: read as Go"),
  rules_closest: () => _("RU[{value}] is not a ruleset miai knows: read as the closest preset, {preset}"),
  rules_ing: () => _("RU[{value}] (Ing/GOE rules) read as chinese, the closest preset (area scoring)"),
  rules_unknown: () => _("RU[{value}] is not a ruleset miai knows: read as chinese"),
  ff_rewritten: () => _("FF[{value}] written back as FF[4]"),
  result_unknown: () => _("RE[{value}] is not a result miai understands: kept as written"),
  result_read_as: () => _("RE[{value}] read as {result}"),
  handicap_without_stones: () => _("HA[{handicap}] without handicap stones: the fixed placement will be used"),
  handicap_stone_count: (n) => ngettext("HA[{handicap}] but {n} black stone set up", "HA[{handicap}] but {n} black stones set up", n),
  size_read_as: () => _("SZ[{value}] read as {size}"),
  many_values: () => _("{pid} with {count} values: the first kept"),
  move_off_board: () => _("{pid}[{value}] is not a point on the {size}x{size} board: move dropped"),
  move_read_as: () => _("{pid}[{value}] read as {pid}[{point}]"),
  player_not_colour: () => _("PL[{value}] is not a colour: dropped"),
  tt_passes: (n) => ngettext("{n} pass written as [tt] (FF[3] style) read as a pass, written back as []", "{n} passes written as [tt] (FF[3] style) read as passes, written back as []", n),
  comma_list: () => _("{pid}[{value}] is a comma-separated list: read as {values}"),
  setup_not_point: () => _("{pid}[{value}] is not a point (or point range) on the board: dropped"),
  setup_clash_black: () => _("{points} in both {loser} and {winner}: set up black ({winner} is applied after {loser})"),
  setup_clash_white: () => _("{points} in both {loser} and {winner}: set up white ({winner} is applied after {loser})"),
  handicap_too_many: () => _("HA[{value}] is more stones than the board holds: read as no handicap"),
  handicap_negative: () => _("HA[{value}] is negative: read as no handicap"),
  handicap_not_number: () => _("HA[{value}] is not a number: read as {handicap}"),
  handicap_moved: () => _("HA[{handicap}] stones given here, not in the root: moved to the root"),
  ko_as_komi: () => _("no KM; KO[{value}] read as komi {komi}"),
  ko_ignored: () => _("no KM, and KO[{value}] is not a komi: ignored"),
  komi_empty: () => _("KM[] is empty: komi {komi} (the default of the rules)"),
  komi_not_number: () => _("KM[{value}] is not a number: komi {komi} (the default of the rules)"),
  komi_not_finite: () => _("KM[{value}] is not a finite number: komi {komi} (the default of the rules)"),
  komi_too_large: () => _("KM[{value}] is more than any board's points ({limit}): komi {komi} (the default of the rules)"),
  komi_read_as: () => _("KM[{value}] read as {komi}"),
  komi_fox_points: () => _("KM[{value}] is in hundredths of a point (Fox's scale under territory scoring): komi {komi}"),
  komi_fox_stones: () => _("KM[{value}] is in hundredths of a stone (Fox's scale under area scoring): komi {komi}"),
  handicap_as_setup: () => _("handicap stones not placed as a handicap ({reason}); set up as stones instead"),
  replay_stopped: (n) => ngettext("replay stopped at move {number} ({color} {point}){at} is illegal: {reason}; {n} move not played", "replay stopped at move {number} ({color} {point}){at} is illegal: {reason}; {n} moves not played", n),
  replay_stopped_at_setup: (n) => ngettext("replay stopped at a setup{at} is illegal: {reason}; {n} move not played", "replay stopped at a setup{at} is illegal: {reason}; {n} moves not played", n),
  result_differs: () => _("RE[{value}] but the game as replayed under {rules} ends {result} ({how}): the record's result is kept when it is written"),
  not_a_point: () => _("{pid}[{value}] is not a point: ignored"),
  marks_differ: () => _("RE[{value}] but the territory marked in TB/TW counts {result} (dead stones: {stones}): the record's result kept"),
  bom_bad_bytes: () => _("bytes that are not {codec} replaced by U+FFFD"),
  utf16_without_bom: () => _("no BOM, but NUL bytes every other byte: decoded as {codec}"),
  unknown_charset: () => _("unknown charset CA[{declared}]"),
  charset_wrong: () => _("CA[{declared}] but byte {byte} (line {line}) is not {declared}"),
  utf8_undeclared: () => _("no charset declared; the text is valid UTF-8 and was read as UTF-8"),
  utf8_read: () => _("the text is valid UTF-8 and was read as UTF-8"),
  utf8_bad_bytes_declared: (n) => ngettext("CA[{declared}]: {n} byte sequence that is not UTF-8 (at byte {byte}, line {line}) replaced by U+FFFD", "CA[{declared}]: {n} byte sequences that are not UTF-8 (the first at byte {byte}, line {line}) replaced by U+FFFD", n),
  utf8_bad_bytes: (n) => ngettext("no charset declared; the text is UTF-8 but {n} byte sequence that is not UTF-8 (at byte {byte}, line {line}) replaced by U+FFFD", "no charset declared; the text is UTF-8 but {n} byte sequences that are not UTF-8 (the first at byte {byte}, line {line}) replaced by U+FFFD", n),
  charset_none_fits: () => _("charset guessed: {codec} (no East Asian or Windows charset decodes it)"),
  charset_only_plausible: () => _("charset guessed: {codec} (the only charset whose characters are plausible)"),
  charset_chardet: () => _("charset guessed: {codec} (chardet's choice among {choices})"),
  charset_first: () => _("charset guessed: {codec} (first of {choices}, which all fit)"),
  converted_gib: () => _("converted from Tygem GIB"),
  converted_ngf: () => _("converted from WBaduk/Cyberoro NGF"),
  gib_komi_ignored: () => _("GIB komi GAMEGONGJE={value} is not a komi: ignored"),
  gib_result_read_as: () => _("GIB result {value} read as {result}"),
  gib_passes_not_placed: () => _("GIB passes (SKI lines) not placed: the moves do not match the STO lines"),
  gib_passes: (n) => ngettext("{n} pass read from GIB SKI lines", "{n} passes read from GIB SKI lines", n),
  ngf_komi: () => _("NGF komi {value} read as {komi} (whole points written, a half point implied)"),
  ngf_gi_handicap: () => _("GI-layout NGF with handicap {handicap}: handicap stones not placed"),
  ngf_gi_header: () => _("NGF with a 'GI' header: players read in the usual NGF order (White first)"),
};

// A preset's name as the word after "rules" in a sentence: "reglas japonesas" (an adjective,
// lower case), "AGA" and "New Zealand" as they are.
function presetWord(preset) {
  const name = rulesName(preset);
  return ["chinese", "japanese", "korean"].includes(preset) ? name.toLocaleLowerCase(lang) : name;
}

// Where a repair stands: "node 3, line 2, column 5", "root node", or null when unknown.
function place(where) {
  if (!where) return null;
  const parts = [];
  if (where.node !== undefined) parts.push(where.node === 0 ? _("root node") : _("node {node}", { node: where.node }));
  if (where.line !== undefined) parts.push(_("line {line}, column {column}", { line: where.line, column: where.column }));
  return parts.length ? parts.join(", ") : _("the record");
}

// One repair as a sentence of the page's language and whether it is one (false: the English
// text as sent, for a kind or field this page does not know).
export function repairText(text, detail) {
  const sentence = detail && SENTENCES[detail.kind];
  if (!sentence) return { text, translated: false };
  const fields = { ...detail.fields };
  const template = sentence(fields.count); // a counted kind's form for its count, {n} filled
  for (const name of ["count", "komi", "limit"]) {
    const x = fields[name];
    if (typeof x === "number") fields[name] = formatNumber(x, (String(x).split(".")[1] || "").length); // every decimal kept
  }
  if (fields.preset) fields.preset = presetWord(fields.preset);
  const where = place(detail.where);
  if (template.includes("{at}")) return { text: _fill(template, { ...fields, at: where ? ` (${where})` : "" }), translated: true };
  const said = _fill(template, fields);
  return { text: where ? _("{where}: {repair}", { where, repair: said }) : said, translated: true };
}

function _fill(template, args) {
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in args ? String(args[name]) : whole));
}
