// The server's refusals and errors in words of the page's language, never the server's English
// `message`: a refused action (the WebSocket's `reject`, docs/SERVER.md §4) from its `reason`
// (the wire's reasons, WireReason in server/errors.py), with the rule it breaks, the vertex
// (`tried` when the refusal names none) and the move a superko repeats; any other error (an HTTP
// answer or an `error` frame) from its `error` code and, for a rate limit, its `limit`.

import { _, ngettext } from "./i18n.js";

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
  "no-undo-request": () => _("There is no undo request to answer."),
  "own-request": () => _("You cannot answer your own undo request."),
  "undo-limit": (v, r) => ngettext("You cannot ask to take back this move again: at most {n} time.", "You cannot ask to take back this move again: at most {n} times.", r.limit || 3),
  computer: () => _("The computer never leaves: its game cannot be claimed."),
  "not-their-turn": () => _("It is your turn, not your opponent's: the game cannot be claimed."),
  "not-gone-yet": () => _("Your opponent has not been away long enough yet."),
  "correspondence": () => _("A correspondence game cannot be claimed: a player who does not move in time loses on time."),
  "opponent-present": () => _("Your opponent is here: the game cannot be claimed."),
  "cannot-apply": () => _("The rules do not allow that now."),
};

const LIMITS = {
  chat: () => _("You are chatting too fast."),
  frames: () => _("Too many actions at once."),
  "open-games": () => _("You already have too many open games waiting for an opponent."),
  "worker-jobs": () => _("Another analysis or upload of yours is still under way."),
  "account-logins": () => _("Too many failed sign-ins to this account."),
  games: () => _("Too many games created."),
};

const ERRORS = {
  "bad-request": () => _("The server did not understand the request."),
  forbidden: () => _("You are watching this game: only its players can act."),
  unauthorized: () => _("Wrong username or password."),
  "not-found": () => _("There is no such game."),
  conflict: () => _("That conflicts with the game as it now stands."),
  "stale-version": () => _("The game moved on meanwhile: look again and retry."),
  "seat-taken": () => _("Someone joined first."),
  "too-large": () => _("That is too large for the server."),
  unreadable: () => _("The record cannot be read."),
  unsupported: () => _("The server does not support that yet."),
  unavailable: () => _("The server is busy or restarting: try again in a moment."),
  "cross-site": () => _("Refused: the request came from another site."),
  "wrong-host": () => _("Refused: the server is not reached by a name it knows."),
};

// An error answer ({status, error, reason, limit, retry_after, ...}) in words.
export function errorText(r) {
  if (!r) return _("Something went wrong.");
  if (r.reason && REASONS[r.reason]) return REASONS[r.reason](r.move || "", r);
  if (r.error === "rate-limited") {
    const what = LIMITS[r.limit] ? LIMITS[r.limit]() : _("Too many requests.");
    const wait = r.retry_after ? ngettext("Try again in {n} second.", "Try again in {n} seconds.", r.retry_after) : "";
    return wait ? what + " " + wait : what;
  }
  if (r.error === "unavailable" && r.starting) {
    return _("The computer is still getting ready (after an install it prepares itself once, which can take a few minutes): try again in a minute.");
  }
  if (ERRORS[r.error]) return ERRORS[r.error]();
  if (r.status === 503) return ERRORS.unavailable();
  return _("Something went wrong.");
}

// A refused action in words (`tried`: the vertex the player tried, when the refusal names none).
export function refusalText(r, tried) {
  if (r.status === 409) return _("The game moved on meanwhile: look again and retry.");
  if (r.status === 403) return _("You are watching this game: only its players can act.");
  const v = r.move || tried || "";
  return REASONS[r.reason] ? REASONS[r.reason](v, r) : errorText(r);
}
