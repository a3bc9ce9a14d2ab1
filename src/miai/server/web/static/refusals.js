// A refusal of the player's action in words (the WebSocket's `reject`, docs/SERVER.md §4): from
// its `reason`, with the rule it breaks, the vertex (`tried` when the refusal names none) and the
// move a superko repeats; and any other error the server answers, from its `error` code (the
// server's English `message` is shown only for a request the page itself got wrong).

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
  "no-undo-request": () => _("There is no undo request to answer."),
  "own-request": () => _("Your opponent answers your own undo request."),
  "undo-limit": () => _("That move has been asked back too many times."),
  computer: () => _("The computer never leaves a game: it cannot be claimed."),
  "not-their-turn": () => _("Your opponent is waiting for your move: the game cannot be claimed."),
  "cannot-apply": () => _("That cannot be done now."),
};

const ERRORS = {
  "not-found": () => _("There is no such game."),
  forbidden: () => _("You are watching this game: only its players can act."),
  unauthorized: () => _("Wrong username or password."),
  conflict: () => _("The game moved on meanwhile: look again and retry."),
  "stale-version": () => _("The game moved on meanwhile: look again and retry."),
  "too-large": () => _("That is too large for the server."),
  "rate-limited": () => _("Too many requests: wait a moment and try again."),
  unavailable: () => _("The server is busy: try again in a moment."),
  unreadable: () => _("This file cannot be read as a game record."),
  unsupported: () => _("This kind of file is not supported."),
};

// Any answer of the server that is an error ({error, reason, message}, and its HTTP `status`) in
// words in the page's language.
export function errorText(body, status) {
  if (body.reason && REASONS[body.reason]) return REASONS[body.reason](body.move || "", body);
  if (body.error && ERRORS[body.error]) return ERRORS[body.error]();
  if (status === 404) return ERRORS["not-found"]();
  if (status >= 500) return ERRORS.unavailable();
  return body.message || _("The server refused the request.");
}

export function refusalText(r, tried) {
  if (r.status === 409) return _("The game moved on meanwhile: look again and retry.");
  if (r.status === 403) return _("You are watching this game: only its players can act.");
  const v = r.move || tried || "";
  return REASONS[r.reason] ? REASONS[r.reason](v, r) : errorText(r, r.status);
}
