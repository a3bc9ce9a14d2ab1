// The correspondence time systems the lobby offers (days per move, kept on the server like any
// clock): each a `time` of POST /api/games in seconds, with its words in the page's language.

import { _, ngettext } from "./i18n.js";

const DAY = 86400;

export const CORRESPONDENCE = [
  [`simple:${DAY}`, () => ngettext("Correspondence: {n} day a move", "Correspondence: {n} days a move", 1)],
  [`simple:${3 * DAY}`, () => ngettext("Correspondence: {n} day a move", "Correspondence: {n} days a move", 3)],
  [`fischer:${3 * DAY}:${DAY}:${7 * DAY}`, () => _("Correspondence: 3 days, +1 day a move, at most 7")],
];

export function isCorrespondence(time) {
  return CORRESPONDENCE.some(([value]) => value === time);
}
