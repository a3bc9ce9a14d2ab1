// A game's terms in the page's language, for the game page and the lobby: the rules, komi and
// handicap in one line ("Japanese rules · komi 6.5 · handicap 2"), a seat's name (a computer seat
// is "miai level 5"), and numbers as the language writes them (6,5 in es, it, pt).

import { _, formatNumber, playerName } from "./i18n.js";

export { formatNumber }; // numbers as the page's language writes them (i18n.js), for the pages' modules

const RULES = {
  japanese: () => _("Japanese rules"),
  chinese: () => _("Chinese rules"),
  korean: () => _("Korean rules"),
  aga: () => _("AGA rules"),
  "new-zealand": () => _("New Zealand rules"),
  simple: () => _("Simple rules"),
  "tromp-taylor": () => _("Tromp-Taylor rules"),
};

// The ruleset's name from its text form ("japanese komi=0.5" -> "Japanese rules"); changes other
// than the komi (shown apart) kept as written.
export function rulesText(text) {
  const [preset, ...changes] = String(text || "").split(" ");
  const name = RULES[preset] ? RULES[preset]() : preset;
  return [name, ...changes.filter((c) => !c.startsWith("komi="))].join(" ");
}

// "Japanese rules · komi 6.5 · handicap 2" for a game ({rules, komi, handicap}).
export function termsText(g) {
  const parts = [rulesText(g.rules), _("komi {komi}", { komi: formatNumber(g.komi) })];
  if (g.handicap) parts.push(_("handicap {n}", { n: g.handicap }));
  return parts.join(" · ");
}

// The computer's name at `level`: "miai level 5".
export function computerName(level) {
  return _("miai level {n}", { n: level });
}

// A seat's name: the computer's by its level (kind "computer:5"), else the name on the seat (a
// guest's in the page's language: "Invitado 4821"), else `fallback`.
export function seatName(kind, name, fallback) {
  if (kind && kind.startsWith("computer:")) return computerName(kind.split(":")[1]);
  return (name && playerName(name)) || fallback;
}
