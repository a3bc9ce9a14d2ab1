// A refusal of the player's action in words (the WebSocket's `reject`, docs/SERVER.md §4): from
// its `reason`, with the rule it breaks, the vertex (`tried` when the refusal names none) and the
// move a superko repeats.

import { _ } from "./i18n.js";

const REASONS = {
  occupied: (v) => _("{vertex} is taken: there is already a stone on it.", { vertex: v }),
  suicide: (v) => _("Suicide is not allowed: a stone on {vertex} would have no liberty and capture nothing.", { vertex: v }),
  ko: () => _("Ko: you cannot take back the ko at once. Play elsewhere first (a ko threat), then you may retake."),
  superko: (v, r) => r.repeats_move
    ? _("Superko: {vertex} would repeat the position after move {n}.", { vertex: v, n: r.repeats_move })
    : _("Superko: {vertex} would repeat an earlier position.", { vertex: v }),
  "out-of-turn": () => _("It is not your turn."),
  "out-of-time": () => _("Your time ran out."),
  "wrong-phase": () => _("That cannot be done now."),
  "not-a-stone": () => _("Only stones can be marked dead."),
  "proposal-differs": () => _("The stones you accept are not the ones proposed: look again, then accept or propose yours."),
  "nothing-to-undo": () => _("There is no move of yours to take back."),
  "undo-pending": () => _("An undo request is already waiting for an answer."),
  "not-gone-yet": () => _("Your opponent has not been away long enough yet."),
  "opponent-present": () => _("Your opponent is here: the game cannot be claimed."),
};

export function refusalText(r, tried) {
  if (r.status === 409) return _("The game moved on meanwhile: look again and retry.");
  if (r.status === 403) return _("You are watching this game: only its players can act.");
  const v = r.move || tried || "";
  return REASONS[r.reason] ? REASONS[r.reason](v, r) : r.message;
}
