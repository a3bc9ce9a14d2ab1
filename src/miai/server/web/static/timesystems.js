// The correspondence time systems the lobby offers (days per move, kept on the server like any
// clock, docs/SERVER.md §6.3): each a `time` of POST /api/games, with its words in the page's language.

import { _, ngettext } from "./i18n.js";

export const CORRESPONDENCE = [
  ["simple:1d", () => ngettext("Correspondence: {n} day a move", "Correspondence: {n} days a move", 1)],
  ["simple:3d", () => ngettext("Correspondence: {n} day a move", "Correspondence: {n} days a move", 3)],
  ["fischer:3d:1d:7d", () => _("Correspondence: 3 days, +1 day a move, at most 7")],
];
